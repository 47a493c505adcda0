/* lanes/deliver — what an LDS read primitive delivers to each lane's slots, named as tile elements,
 * for any 64 per-lane addresses: the built-in seeds (fragment, solved), a per-lane address formula
 * in L, or a list of 64 addresses. Used by `lanelab lanes` (--seed, --addr, --diff) and by the
 * report's seed-diff page.
 *
 * Tiles: 16-bit and plain reads see the microabi f16 region (lanes.h: 16 x 64 f16, k128B, logical
 * T[r][c] tagged 16r+c for c < 16, 0x4000+64r+c otherwise), so a slot's value names its element;
 * the narrow transposing reads see their target's linear tile, and each slot's element is traced
 * through the read model on bit-plane images of the element index (as lanes_seed_solve checks). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lanes/lanes.h"

/* ---- per-lane address formula: integers, L, + - * / % << >> & | ^ ~, parentheses ---------------*/
typedef struct xp { const char *s, *p; int lane; bool bad; char why[160]; } xp;

static void skip(xp *x) { while (isspace((unsigned char)*x->p)) x->p++; }
static int64_t x_or(xp *x);

static int64_t x_atom(xp *x) {
  skip(x);
  if (*x->p == '(') {
    x->p++;
    int64_t v = x_or(x);
    skip(x);
    if (*x->p != ')') { if (!x->bad) snprintf(x->why, sizeof x->why, "missing ')' at offset %d", (int)(x->p - x->s)); x->bad = true; return 0; }
    x->p++;
    return v;
  }
  if (*x->p == '-') { x->p++; return -x_atom(x); }
  if (*x->p == '~') { x->p++; return ~x_atom(x); }
  if (*x->p == 'L' || *x->p == 'l') { x->p++; return x->lane; }
  if (isdigit((unsigned char)*x->p)) {
    char *e;
    errno = 0;
    long long v = strtoll(x->p, &e, 0);
    if (errno || v > 0xffffffffLL) { if (!x->bad) snprintf(x->why, sizeof x->why, "number too large at offset %d", (int)(x->p - x->s)); x->bad = true; }
    x->p = e;
    return v;
  }
  if (!x->bad) snprintf(x->why, sizeof x->why, "expected a number, L or '(' at offset %d ('%.10s')", (int)(x->p - x->s), x->p);
  x->bad = true;
  return 0;
}

static int64_t x_mul(xp *x) {
  int64_t v = x_atom(x);
  for (;;) {
    skip(x);
    char op = *x->p;
    if (op != '*' && op != '/' && op != '%') return v;
    x->p++;
    int64_t r = x_atom(x);
    if (op != '*' && r == 0) { if (!x->bad) snprintf(x->why, sizeof x->why, "division by zero (lane %d)", x->lane); x->bad = true; return 0; }
    v = op == '*' ? v * r : op == '/' ? v / r : v % r;
  }
}
static int64_t x_add(xp *x) {
  int64_t v = x_mul(x);
  for (;;) {
    skip(x);
    if (*x->p == '+') { x->p++; v += x_mul(x); }
    else if (*x->p == '-') { x->p++; v -= x_mul(x); }
    else return v;
  }
}
static int64_t x_shift(xp *x) {
  int64_t v = x_add(x);
  for (;;) {
    skip(x);
    bool l = x->p[0] == '<' && x->p[1] == '<', r = x->p[0] == '>' && x->p[1] == '>';
    if (!l && !r) return v;
    x->p += 2;
    int64_t s = x_add(x);
    if (s < 0 || s > 31) { if (!x->bad) snprintf(x->why, sizeof x->why, "shift by %lld is outside 0..31", (long long)s); x->bad = true; return 0; }
    v = l ? v << s : v >> s;
  }
}
static int64_t x_and(xp *x) {
  int64_t v = x_shift(x);
  for (skip(x); *x->p == '&'; skip(x)) { x->p++; v &= x_shift(x); }
  return v;
}
static int64_t x_xor(xp *x) {
  int64_t v = x_and(x);
  for (skip(x); *x->p == '^'; skip(x)) { x->p++; v ^= x_and(x); }
  return v;
}
static int64_t x_or(xp *x) {
  int64_t v = x_xor(x);
  for (skip(x); *x->p == '|'; skip(x)) { x->p++; v |= x_xor(x); }
  return v;
}

bool lanes_addr_expr(const char *expr, uint32_t addr[LANES_WAVE], ll_err *err) {
  if (!expr || !*expr || strlen(expr) > 1000) {
    ll_seterr(err, LL_EXIT_USAGE, "address formula: empty or longer than 1000 characters");
    return false;
  }
  for (int L = 0; L < LANES_WAVE; L++) {
    xp x = {.s = expr, .p = expr, .lane = L};
    int64_t v = x_or(&x);
    skip(&x);
    if (!x.bad && *x.p) { snprintf(x.why, sizeof x.why, "unexpected '%.10s' at offset %d", x.p, (int)(x.p - expr)); x.bad = true; }
    if (!x.bad && (v < 0 || v > 0xffffffffLL)) { snprintf(x.why, sizeof x.why, "lane %d: address %lld is outside 0..2^32-1", L, (long long)v); x.bad = true; }
    if (x.bad) {
      ll_seterr(err, LL_EXIT_USAGE, "address formula '%s': %s (operators: + - * / %% << >> & | ^ ~, parentheses, L = lane)", expr, x.why);
      return false;
    }
    addr[L] = (uint32_t)v;
  }
  return true;
}

bool lanes_addr_file(const char *path, uint32_t addr[LANES_WAVE], ll_err *err) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 65536) {
    ll_seterr(err, LL_EXIT_USAGE, "address file %s: not a regular file of at most 64 KiB", path);
    return false;
  }
  size_t n;
  char *text = ll_read_file(path, &n, err);
  if (!text) return false;
  int k = 0;
  bool ok = true;
  for (char *p = text; ok && p < text + n;) {
    if (*p == '#') { while (p < text + n && *p != '\n') p++; continue; }
    if (isspace((unsigned char)*p) || *p == ',') { p++; continue; }
    char *e;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)*p) ? strtoull(p, &e, 0) : (e = p, 0);
    if (e == p || errno || v > 0xffffffffULL || k >= LANES_WAVE) {
      ll_seterr(err, LL_EXIT_USAGE, "address file %s: %s at byte %ld", path,
                k >= LANES_WAVE ? "more than 64 addresses" : "not an address (want 64 unsigned integers, '#' comments)",
                (long)(p - text));
      ok = false;
      break;
    }
    addr[k++] = (uint32_t)v;
    p = e;
  }
  if (ok && k != LANES_WAVE) {
    ll_seterr(err, LL_EXIT_USAGE, "address file %s: %d addresses, want 64 (one per lane)", path, k);
    ok = false;
  }
  free(text);
  return ok;
}

bool lanes_addr_arg(const char *arg, uint32_t addr[LANES_WAVE], ll_err *err) {
  struct stat st;
  if (stat(arg, &st) == 0) return lanes_addr_file(arg, addr, err);
  return lanes_addr_expr(arg, addr, err);
}

/* ---- delivery -------------------------------------------------------------------------------*/
static const char *narrow_target(lanes_ds_op op) {
  switch (op) {
  case LANES_DS_READ_B64_TR_B8: return "mfma16x16x32_fp8_b";
  case LANES_DS_READ_B64_TR_B4: return "mfma16x16x128_fp4_b";
  case LANES_DS_READ_B96_TR_B6: return "mfma16x16x128_fp6_b";
  default: return NULL;
  }
}

bool lanes_primitive_parse(const char *prim, bool *xpose, lanes_ds_op *op, ll_err *err) {
  *xpose = prim && strcmp(prim, "fragment_transpose") == 0;
  *op = LANES_DS_READ_B64;
  if (*xpose) return true;
  return lanes_ds_op_parse(prim, op, err);
}

bool lanes_seed_named(const char *prim, const char *seed, lanes_arch arch, uint32_t addr[LANES_WAVE], char *form,
                      size_t cap, ll_err *err) {
  bool xpose;
  lanes_ds_op op;
  if (!lanes_primitive_parse(prim, &xpose, &op, err)) return false;
  bool narrow = !xpose && lanes_ds_op_elem_bits(op) < 16;
  if (!strcmp(seed, "fragment")) {
    if (narrow) {
      ll_seterr(err, LL_EXIT_USAGE, "%s has no fragment seed (that is load_fragment's 16-bit seed); use solved", prim);
      return false;
    }
    lanes_seed_fragment(LANES_SWZ_128B, addr);
    snprintf(form, cap, "fragment seed: row = L%%16, col = 4*(L/16)");
    return true;
  }
  if (strcmp(seed, "solved")) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown seed '%s': expected fragment or solved", seed);
    return false;
  }
  /* fragment_transpose's and ds_read_b64's solved seed is load_fragment's A-operand seed */
  const char *tn = narrow ? narrow_target(op) : xpose || op != LANES_DS_READ_B64_TR_B16 ? "mfma16x16x16_a" : "mfma16x16x16_b";
  if (!xpose && !narrow && op != LANES_DS_READ_B64 && op != LANES_DS_READ_B64_TR_B16) {
    ll_seterr(err, LL_EXIT_USAGE, "%s has no built-in solved seed (lanes_seed_solve targets ds_read_b64 and the "
                                  "transposing reads); pass --addr", prim);
    return false;
  }
  lanes_target t;
  lanes_seed s;
  if (!lanes_target_get(tn, narrow ? LANES_SWZ_LINEAR : LANES_SWZ_128B, &t, err) ||
      !lanes_seed_solve(&t, xpose ? LANES_DS_READ_B64 : op, arch, &s, err))
    return false;
  if (!s.found) {
    ll_seterr(err, LL_EXIT_FAIL, "no solved seed for %s (target %s): %s", prim, tn, s.why);
    return false;
  }
  memcpy(addr, s.addr[0], sizeof(uint32_t) * LANES_WAVE);
  snprintf(form, cap, "solved seed for %s: %s", tn, s.closed_form[0]);
  return true;
}

bool lanes_deliver(lanes_arch arch, const char *prim, const uint32_t addr[LANES_WAVE], lanes_delivery *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  bool xpose;
  lanes_ds_op op;
  if (!lanes_primitive_parse(prim, &xpose, &op, err)) return false;
  if (!xpose && !lanes_ds_op_exists(op, arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (transposing LDS reads are gfx950 only)", prim,
              lanes_arch_name(arch));
    return false;
  }
  memcpy(out->addr, addr, sizeof out->addr);
  const char *tn = xpose ? NULL : narrow_target(op);
  if (tn) {
    lanes_target t;
    if (!lanes_target_get(tn, LANES_SWZ_LINEAR, &t, err)) return false;
    if (!lanes_trace_read(&t, op, arch, addr, out->elem, &out->diag, err)) return false;
    out->slots = lanes_ds_op_dwords(op) * 32 / t.elem_bits;
    out->slot_bits = lanes_ds_op_elem_bits(op);
    out->rows = t.rows, out->cols = t.cols;
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < out->slots; s++) out->tag[L][s] = out->elem[L][s];
    snprintf(out->tile, sizeof out->tile, "%s tile %dx%d %d-bit, linear, row stride %d B; tag = row-major element "
             "index traced through the model (-1: not a tile element)", t.name, t.rows, t.cols, t.elem_bits, t.row_bytes);
    return true;
  }
  uint8_t img[LANES_REGION_BYTES];
  lanes_region_fill(LANES_SWZ_128B, img);
  uint32_t v[LANES_WAVE][4] = {{0}};
  int ndw;
  if (xpose) {
    uint32_t v2[LANES_WAVE][2];
    if (!lanes_fragment_transpose(arch, img, sizeof img, addr, v2, &out->ops, &out->diag, err)) return false;
    for (int L = 0; L < LANES_WAVE; L++) v[L][0] = v2[L][0], v[L][1] = v2[L][1];
    ndw = 2;
  } else {
    if (!lanes_ds_read(arch, op, img, sizeof img, addr, LANES_EXEC_ALL, &out->diag, err)) return false;
    memcpy(v, out->diag.v, sizeof v);
    ndw = lanes_ds_op_dwords(op);
  }
  out->slot_bits = 16;
  out->slots = ndw * 2;
  out->rows = LANES_REGION_ROWS, out->cols = LANES_REGION_COLS;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < out->slots; s++) {
      uint32_t t = lanes_slot_get(v[L], s, 16);
      out->tag[L][s] = (int32_t)t;
      out->elem[L][s] = t < 256 ? (int32_t)(t / 16 * 64 + t % 16)
                        : t >= 0x4000 && t < 0x4000 + 64 * 16 && (t - 0x4000) % 64 >= 16 ? (int32_t)(t - 0x4000) : -1;
    }
  snprintf(out->tile, sizeof out->tile, "the f16 region, 16x64, k128B swizzle, T[r][c] = 16r+c (c < 16), other elements "
           "0x4000+64r+c; tag = the 16-bit value");
  return true;
}

bool lanes_tile_parse(const char *spec, lanes_target *t, ll_err *err) {
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "your tile");
  t->swizzle = LANES_SWZ_LINEAR;
  long rows = 0, cols = 0, elem = 0, stride = 0;
  char *s = ll_xstrdup(spec ? spec : ""), *save = NULL;
  bool ok = true;
  for (char *kv = strtok_r(s, ",", &save); kv && ok; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    int64_t v = 0;
    if (!eq) ok = false;
    else if (!strncmp(kv, "swizzle=", 8)) ok = lanes_swizzle_parse(eq + 1, &t->swizzle, err);
    else if (!ll_parse_i64(eq + 1, &v) || v <= 0 || v > 65536) ok = false;
    else if (!strncmp(kv, "rows=", 5)) rows = v;
    else if (!strncmp(kv, "cols=", 5)) cols = v;
    else if (!strncmp(kv, "elem=", 5)) elem = v;
    else if (!strncmp(kv, "stride=", 7)) stride = v;
    else ok = false;
    if (!ok && !err->msg[0])
      ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': '%s' is not rows=R, cols=C, elem=BYTES, stride=ROW_BYTES or swizzle=S "
                "(positive integers up to 65536)", spec, kv);
  }
  free(s);
  if (!ok) return false;
  if (!rows || !cols || !elem || !stride) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': give rows, cols, elem and stride", spec);
    return false;
  }
  if (elem != 1 && elem != 2 && elem != 4) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': elem is 1, 2 or 4 bytes", spec);
    return false;
  }
  if (stride < cols * elem || (uint64_t)rows * (uint64_t)stride > 65536 || (uint64_t)rows * (uint64_t)cols >= (1u << 24)) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': a row of %ld %ld-byte elements does not fit a %ld-byte stride, or the "
              "tile is more than 64 KiB", spec, cols, elem, stride);
    return false;
  }
  if (t->swizzle != LANES_SWZ_LINEAR && (elem != 2 || stride % 8 || cols % 4)) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile '%s': a swizzle moves 8-byte chunks of 2-byte elements (elem=2, cols and "
              "stride multiples of 4 elements and 8 bytes)", spec);
    return false;
  }
  t->rows = (int)rows;
  t->cols = (int)cols;
  t->elem_bits = (int)elem * 8;
  t->row_bytes = (int)stride;
  return true;
}

bool lanes_deliver_tile(lanes_arch arch, const char *prim, const uint32_t addr[LANES_WAVE], const lanes_target *tile,
                        lanes_delivery *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  bool xpose;
  lanes_ds_op op;
  if (!lanes_primitive_parse(prim, &xpose, &op, err)) return false;
  if (xpose) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile: fragment_transpose reads lanelab's own f16 region; give a plain LDS read");
    return false;
  }
  if (!lanes_ds_op_exists(op, arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (transposing LDS reads are gfx950 only)", prim,
              lanes_arch_name(arch));
    return false;
  }
  if (lanes_ds_op_elem_bits(op) != 32 && lanes_ds_op_elem_bits(op) != tile->elem_bits) {
    ll_seterr(err, LL_EXIT_USAGE, "--tile: %s moves %d-bit elements; the tile's are %d-bit", prim,
              lanes_ds_op_elem_bits(op), tile->elem_bits);
    return false;
  }
  memcpy(out->addr, addr, sizeof out->addr);
  if (!lanes_trace_read(tile, op, arch, addr, out->elem, &out->diag, err)) return false;
  out->slots = lanes_ds_op_dwords(op) * 32 / tile->elem_bits;
  out->slot_bits = tile->elem_bits;
  out->rows = tile->rows, out->cols = tile->cols;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < out->slots; s++) out->tag[L][s] = out->elem[L][s];
  snprintf(out->tile, sizeof out->tile, "your tile %dx%d of %d-byte elements, row stride %d B, %s; tag = row-major "
           "element index (row*%d + col; -1: not a tile element)", tile->rows, tile->cols, tile->elem_bits / 8,
           tile->row_bytes, lanes_swizzle_name(tile->swizzle), tile->cols);
  return true;
}
