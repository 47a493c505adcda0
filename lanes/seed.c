/* lanes/seed — targets (which tile element each lane/slot must hold) and the seed solver.
 *
 * A target is read off the MFMA layout model (lanes/mfma.c): slot t of lane L holds the operand
 * element at (L, reg t*w/32, bit t*w%32). The tile is stored with rows = the operand's row index
 * (k for B, i for A) as in microabi.
 *
 * Solving: a read delivers E elements per lane. Its rule (plain: out(L)[e] = in(L)[e];
 * transposing, docs/isa.md: out(16g+m)[k] = in(16g + R*k + m/E)[m%E]) is inverted: for each source
 * lane s and element e we know which (lane, slot) of the target it lands in, hence which tile
 * element s must supply as its e-th element. A seed exists iff, for every s, those E elements
 * are consecutive in LDS in order (and the start is byte-aligned and meets the read's alignment):
 * the address is then the first element's. The result is then checked end to end: the read
 * model runs on images whose elements hold bit-planes of their own index, and the indices it
 * returns must equal the target's, slot by slot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lanes/lanes.h"

typedef struct {
  const char *name, *instr;
  lanes_operand op;
  int max_slots; /* 0 = all items of the lane */
  int row_bytes;
} tdef;

static const tdef tdefs[] = {
    {"mfma16x16x16_a", "v_mfma_f32_16x16x16_f16", LANES_OPND_A, 0, 128},
    {"mfma16x16x16_b", "v_mfma_f32_16x16x16_f16", LANES_OPND_B, 0, 128},
    {"mfma16x16x32_a", "v_mfma_f32_16x16x32_f16", LANES_OPND_A, 0, 128},
    {"mfma16x16x32_b", "v_mfma_f32_16x16x32_f16", LANES_OPND_B, 0, 128},
    {"mfma32x32x8_a", "v_mfma_f32_32x32x8_f16", LANES_OPND_A, 0, 128},
    {"mfma32x32x8_b", "v_mfma_f32_32x32x8_f16", LANES_OPND_B, 0, 128},
    /* gfx950's 32x32x16 (v_mfma_f32_32x32x16_f16/bf16, CDNA4; the same layout for both) */
    {"mfma32x32x16_a", "v_mfma_f32_32x32x16_f16", LANES_OPND_A, 0, 128},
    {"mfma32x32x16_b", "v_mfma_f32_32x32x16_f16", LANES_OPND_B, 0, 128},
    {"mfma16x16x32_fp8_a", "v_mfma_f32_16x16x32_fp8_fp8", LANES_OPND_A, 0, 32},
    {"mfma16x16x32_fp8_b", "v_mfma_f32_16x16x32_fp8_fp8", LANES_OPND_B, 0, 16},
    {"mfma16x16x128_fp4_b", "v_mfma_f32_16x16x128_f8f6f4:fp4", LANES_OPND_B, 16, 8},
    {"mfma16x16x128_fp6_b", "v_mfma_f32_16x16x128_f8f6f4:fp6", LANES_OPND_B, 16, 16},
};
#define NT (sizeof tdefs / sizeof tdefs[0])

size_t lanes_target_count(void) { return NT; }
const char *lanes_target_name(size_t i) { return i < NT ? tdefs[i].name : NULL; }

bool lanes_target_get(const char *name, lanes_swizzle swz, lanes_target *t, ll_err *err) {
  memset(t, 0, sizeof *t);
  const tdef *d = NULL;
  for (size_t i = 0; i < NT; i++)
    if (name && strcmp(name, tdefs[i].name) == 0) d = &tdefs[i];
  if (!d) {
    char list[512] = "";
    for (size_t i = 0; i < NT; i++) {
      strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
      strncat(list, tdefs[i].name, sizeof list - strlen(list) - 1);
    }
    ll_seterr(err, LL_EXIT_USAGE, "unknown target layout '%s': expected one of %s", name ? name : "(null)", list);
    return false;
  }
  const lanes_mfma *mf = lanes_mfma_lookup(d->instr, LANES_GFX950, err);
  if (!mf) return false;
  snprintf(t->name, sizeof t->name, "%s", d->name);
  t->instr = d->instr;
  t->operand = d->op;
  t->rows = lanes_mfma_rows(mf, d->op);
  t->cols = lanes_mfma_cols(mf, d->op);
  t->elem_bits = mf->ab_bits;
  t->slots = d->max_slots ? d->max_slots : mf->k_per_lane;
  t->row_bytes = d->row_bytes;
  if (t->elem_bits != 16 && swz != LANES_SWZ_LINEAR) {
    ll_seterr(err, LL_EXIT_USAGE, "target %s: --swizzle %s applies to 16-bit tiles only; %d-bit tiles are stored "
              "linearly (microabi)", d->name, lanes_swizzle_name(swz), t->elem_bits);
    return false;
  }
  t->swizzle = swz;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < t->slots; s++) {
      int p = s * t->elem_bits, r, c;
      if (!lanes_mfma_element(mf, d->op, (lanes_loc){L, p / 32, p % 32}, &r, &c)) {
        ll_seterr(err, LL_EXIT_FAIL, "target %s: lane %d slot %d has no element in the %s layout (model bug)", d->name,
                  L, s, d->instr);
        return false;
      }
      t->row[L][s] = (int16_t)r;
      t->col[L][s] = (int16_t)c;
    }
  return true;
}

uint64_t lanes_target_bitaddr(const lanes_target *t, int r, int c) {
  if (t->elem_bits == 16 && t->swizzle != LANES_SWZ_LINEAR) /* 8-byte chunks of 4 f16, swizzled per row (docs/isa.md) */
    return 8ull * (8ull * lanes_swizzle_offset(t->swizzle, (uint32_t)t->row_bytes / 8, (uint32_t)r, (uint32_t)c / 4) +
                   2ull * (uint32_t)(c % 4));
  return 8ull * (uint64_t)t->row_bytes * (uint64_t)r + (uint64_t)t->elem_bits * (uint64_t)c;
}

static size_t image_size(const lanes_target *t) {
  uint64_t mx = 0;
  for (int r = 0; r < t->rows; r++)
    for (int c = 0; c < t->cols; c++) {
      uint64_t e = lanes_target_bitaddr(t, r, c) + (uint64_t)t->elem_bits;
      if (e > mx) mx = e;
    }
  size_t n = (size_t)((mx + 7) / 8);
  return (n + 15) / 16 * 16;
}

static void put_elem(uint8_t *img, uint64_t pos, int w, uint32_t v) {
  for (int b = 0; b < w; b++) {
    uint64_t p = pos + (uint64_t)b;
    img[p / 8] = (uint8_t)((img[p / 8] & ~(1u << (p % 8))) | (((v >> b) & 1u) << (p % 8)));
  }
}

size_t lanes_target_image(const lanes_target *t, uint8_t *buf, size_t cap) {
  size_t n = image_size(t);
  if (t->elem_bits == 16 && t->rows == LANES_REGION_ROWS && t->cols == 16 && t->row_bytes == 128) {
    if (cap < LANES_REGION_BYTES) return 0;
    lanes_region_fill(t->swizzle, buf); /* the micro-kernels' region, tags 16r+c */
    return LANES_REGION_BYTES;
  }
  if (n > cap) return 0;
  if (t->elem_bits == 16) {
    memset(buf, 0xff, n);
    for (int r = 0; r < t->rows; r++)
      for (int c = 0; c < t->cols; c++) put_elem(buf, lanes_target_bitaddr(t, r, c), 16, (uint32_t)(r * t->cols + c));
  } else {
    lanes_xorshift_fill(buf, n);
  }
  return n;
}

static const char *read_hint(const lanes_target *t, bool tr) {
  (void)t;
  return tr ? "" : "; a plain read hands each lane only consecutive bytes of LDS";
}

static const char *elem_str(int r, int c, char *b, size_t cap) {
  snprintf(b, cap, "T[%d][%d]", r, c);
  return b;
}

bool lanes_trace_read(const lanes_target *t, lanes_ds_op via, lanes_arch arch, const uint32_t addr[LANES_WAVE],
                      int32_t elem[LANES_WAVE][LANES_MAX_SLOTS], lanes_lds_result *diag, ll_err *err) {
  int w = t->elem_bits, E = 32 * lanes_ds_op_dwords(via) / w;
  size_t n = image_size(t);
  uint8_t *img = ll_xcalloc(n, 1);
  int nelem = t->rows * t->cols, need_bits = 1;
  while ((1 << need_bits) <= nelem) need_bits++;
  uint32_t idx[LANES_WAVE][LANES_MAX_SLOTS];
  memset(idx, 0, sizeof idx);
  for (int p = 0; p < (need_bits + w - 1) / w; p++) {
    memset(img, 0, n);
    for (int r = 0; r < t->rows; r++)
      for (int c = 0; c < t->cols; c++)
        put_elem(img, lanes_target_bitaddr(t, r, c), w, ((uint32_t)(r * t->cols + c + 1) >> (p * w)) & (w >= 32 ? ~0u : (1u << w) - 1));
    if (!lanes_ds_read(arch, via, img, n, addr, LANES_EXEC_ALL, diag, err)) {
      free(img);
      return false;
    }
    for (int L = 0; L < LANES_WAVE; L++)
      for (int k = 0; k < E && k < LANES_MAX_SLOTS; k++) idx[L][k] |= lanes_slot_get(diag->v[L], k, w) << (p * w);
  }
  free(img);
  for (int L = 0; L < LANES_WAVE; L++)
    for (int k = 0; k < LANES_MAX_SLOTS; k++)
      elem[L][k] = k < E && idx[L][k] >= 1 && (int)idx[L][k] <= nelem ? (int32_t)idx[L][k] - 1 : -1;
  return true;
}

bool lanes_seed_solve(const lanes_target *t, lanes_ds_op via, lanes_arch arch, lanes_seed *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  out->via = via;
  if (!lanes_ds_op_exists(via, arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (transposing LDS reads are gfx950 only)",
              lanes_ds_op_name(via), lanes_arch_name(arch));
    return false;
  }
  if (via != LANES_DS_READ_B64 && via != LANES_DS_READ_B64_TR_B16 && via != LANES_DS_READ_B64_TR_B8 &&
      via != LANES_DS_READ_B64_TR_B4 && via != LANES_DS_READ_B96_TR_B6) {
    ll_seterr(err, LL_EXIT_USAGE, "the seed solver takes ds_read_b64, ds_read_b64_tr_b16, ds_read_b64_tr_b8, "
              "ds_read_b64_tr_b4 or ds_read_b96_tr_b6, not %s", lanes_ds_op_name(via));
    return false;
  }
  bool tr = via != LANES_DS_READ_B64;
  int w = t->elem_bits, bits = 32 * lanes_ds_op_dwords(via);
  const char *vn = lanes_ds_op_name(via);
  if (tr && lanes_ds_op_elem_bits(via) != w) {
    snprintf(out->why, sizeof out->why, "%s moves %d-bit elements; target %s holds %d-bit elements", vn,
             lanes_ds_op_elem_bits(via), t->name, w);
    return true;
  }
  if (bits % w) {
    snprintf(out->why, sizeof out->why, "%s delivers %d bits per lane, not a whole number of %d-bit elements", vn,
             bits, w);
    return true;
  }
  int E = bits / w, R = 16 / E;
  if (t->slots % E || t->slots / E > 4) {
    snprintf(out->why, sizeof out->why, "target %s has %d slots per lane; %s delivers %d per read", t->name,
             t->slots, vn, E);
    return true;
  }
  out->reads = t->slots / E;
  int align = via == LANES_DS_READ_B96_TR_B6 ? 16 : 8;
  for (int rd = 0; rd < out->reads; rd++) {
    /* need[s][e]: the target slot that source lane s's element e feeds */
    int need_lane[LANES_WAVE][16], need_slot[LANES_WAVE][16];
    for (int L = 0; L < LANES_WAVE; L++)
      for (int k = 0; k < E; k++) {
        int s, e;
        if (!tr) { s = L; e = k; }
        else { int g = L / 16, m = L % 16; s = 16 * g + R * k + m / E; e = m % E; }
        need_lane[s][e] = L;
        need_slot[s][e] = rd * E + k;
      }
    for (int s = 0; s < LANES_WAVE; s++) {
      uint64_t a0 = 0;
      for (int e = 0; e < E; e++) {
        int L = need_lane[s][e], sl = need_slot[s][e];
        uint64_t a = lanes_target_bitaddr(t, t->row[L][sl], t->col[L][sl]);
        if (e == 0) a0 = a;
        if (a != a0 + (uint64_t)(e * w)) {
          char b1[32], b2[32];
          int Lp = need_lane[s][e - 1], sp = need_slot[s][e - 1];
          snprintf(out->why, sizeof out->why,
                   "under %s, lane %d must supply %s (for lane %d slot %d) and %s (for lane %d slot %d) "
                   "as its elements %d and %d, but they sit at LDS bits %llu and %llu - not adjacent, so no single "
                   "address delivers them%s",
                   vn, s, elem_str(t->row[Lp][sp], t->col[Lp][sp], b1, sizeof b1), Lp, sp,
                   elem_str(t->row[L][sl], t->col[L][sl], b2, sizeof b2), L, sl, e - 1, e,
                   (unsigned long long)lanes_target_bitaddr(t, t->row[Lp][sp], t->col[Lp][sp]),
                   (unsigned long long)a, read_hint(t, tr));
          out->found = false;
          return true;
        }
      }
      if (a0 % 8 || (a0 / 8) % (uint64_t)align) {
        snprintf(out->why, sizeof out->why, "lane %d would start at bit %llu, not a %d-byte aligned address",
                 s, (unsigned long long)a0, align);
        return true;
      }
      out->addr[rd][s] = (uint32_t)(a0 / 8);
      out->row[rd][s] = t->row[need_lane[s][0]][need_slot[s][0]];
      out->col[rd][s] = t->col[need_lane[s][0]][need_slot[s][0]];
    }
    out->row_form[rd] = lanes_affine_fit(out->row[rd]);
    out->col_form[rd] = lanes_affine_fit(out->col[rd]);
    char rf[96], cf[96];
    lanes_affine_format(&out->row_form[rd], rf, sizeof rf);
    lanes_affine_format(&out->col_form[rd], cf, sizeof cf);
    int n = snprintf(out->closed_form[rd], sizeof out->closed_form[rd], "row = %s, col = %s", rf, cf);
    bool chunky = w == 16;
    int ch[LANES_WAVE];
    for (int L = 0; L < LANES_WAVE; L++) {
      ch[L] = out->col[rd][L] / 4;
      if (out->col[rd][L] % 4) chunky = false;
    }
    if (chunky && n > 0 && (size_t)n < sizeof out->closed_form[rd]) {
      lanes_affine f = lanes_affine_fit(ch);
      lanes_affine_format(&f, cf, sizeof cf);
      snprintf(out->closed_form[rd] + n, sizeof out->closed_form[rd] - (size_t)n, " (chunk = %s)", cf);
    }
  }
  /* end-to-end check through the read model (lanes_trace_read) */
  bool clean = true;
  for (int rd = 0; rd < out->reads; rd++) {
    int32_t el[LANES_WAVE][LANES_MAX_SLOTS];
    lanes_lds_result res;
    if (!lanes_trace_read(t, via, arch, out->addr[rd], el, &res, err)) return false;
    if (!res.ok) {
      clean = false;
      snprintf(out->check_note, sizeof out->check_note, "read %d: %s", rd, res.problem[0]);
    }
    for (int L = 0; L < LANES_WAVE; L++)
      for (int k = 0; k < E; k++) {
        int sl = rd * E + k;
        int want = t->row[L][sl] * t->cols + t->col[L][sl];
        out->traced[L][sl] = el[L][k];
        out->checked++;
        if (el[L][k] != want) out->mismatches++;
      }
  }
  if (!clean || out->mismatches) {
    snprintf(out->why, sizeof out->why, "derived seed failed the end-to-end check: %d/%d slots wrong%s%s",
             out->mismatches, out->checked, clean ? "" : "; ", clean ? "" : out->check_note);
    out->found = false;
    return true;
  }
  snprintf(out->check_note, sizeof out->check_note, "%d/%d slots verified through the %s model", out->checked,
           out->checked, vn);
  out->found = true;
  return true;
}
