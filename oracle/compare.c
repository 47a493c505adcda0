/* oracle/compare — element-wise comparison of a kernel's output with a reference (`lanelab
 * compare`; the contract, the NaN/inf rules and the lanes layout are in oracle.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/oracle.h"

static const struct {
  const char *name;
  size_t size;
  bool is_float;
  bool is_signed; /* a signed integer type (its values printed sign-extended from their bits) */
} etypes[ORACLE_E_COUNT] = {
    [ORACLE_E_F32] = {"f32", 4, true},  [ORACLE_E_F16] = {"f16", 2, true},
    [ORACLE_E_BF16] = {"bf16", 2, true}, [ORACLE_E_F64] = {"f64", 8, true},
    [ORACLE_E_I32] = {"i32", 4, false, true}, [ORACLE_E_U32] = {"u32", 4, false},
    [ORACLE_E_I16] = {"i16", 2, false, true}, [ORACLE_E_U16] = {"u16", 2, false},
    [ORACLE_E_I8] = {"i8", 1, false, true},   [ORACLE_E_U8] = {"u8", 1, false},
    [ORACLE_E_I64] = {"i64", 8, false, true}, [ORACLE_E_U64] = {"u64", 8, false},
    [ORACLE_E_FP8_E4M3] = {"fp8_e4m3", 1, true}, [ORACLE_E_FP8_E5M2] = {"fp8_e5m2", 1, true},
    [ORACLE_E_FP8_E4M3_FNUZ] = {"fp8_e4m3_fnuz", 1, true}, [ORACLE_E_FP8_E5M2_FNUZ] = {"fp8_e5m2_fnuz", 1, true},
};

bool oracle_etype_parse(const char *s, oracle_etype *out) {
  for (int t = 0; s && t < ORACLE_E_COUNT; t++)
    if (!strcmp(s, etypes[t].name)) {
      *out = (oracle_etype)t;
      return true;
    }
  return false;
}
const char *oracle_etype_name(oracle_etype t) { return (unsigned)t < ORACLE_E_COUNT ? etypes[t].name : "?"; }
size_t oracle_etype_size(oracle_etype t) { return (unsigned)t < ORACLE_E_COUNT ? etypes[t].size : 0; }
bool oracle_etype_is_float(oracle_etype t) { return (unsigned)t < ORACLE_E_COUNT && etypes[t].is_float; }

void oracle_compare_default_tol(oracle_etype t, double *atol, double *rtol) {
  switch (t) {
  case ORACLE_E_F32: oracle_tolerance_default(ORACLE_F32, atol, rtol); break;
  case ORACLE_E_F16: oracle_tolerance_default(ORACLE_F16, atol, rtol); break;
  case ORACLE_E_BF16: oracle_tolerance_default(ORACLE_BF16, atol, rtol); break;
  case ORACLE_E_F64: *atol = 1e-7; *rtol = 1e-7; break; /* torch.testing.assert_close, float64 */
  /* fp8: one step of the format's mantissa (3 bits: 2^-3, 2 bits: 2^-2), relative and absolute,
   * so an output one rounding away from the reference passes: lanelab's stated choice,
   * docs/oracle.md "fp8" */
  case ORACLE_E_FP8_E4M3: case ORACLE_E_FP8_E4M3_FNUZ: *atol = 0.125; *rtol = 0.125; break;
  case ORACLE_E_FP8_E5M2: case ORACLE_E_FP8_E5M2_FNUZ: *atol = 0.25; *rtol = 0.25; break;
  default: *atol = 0; *rtol = 0; break;                 /* integers: exact */
  }
}

void oracle_compare_opts_init(oracle_compare_opts *o, oracle_etype etype) {
  memset(o, 0, sizeof *o);
  o->etype = etype;
  oracle_compare_default_tol(etype, &o->atol, &o->rtol);
}

bool oracle_compare_shape_parse(const char *s, oracle_compare_opts *o, ll_err *err) {
  uint64_t dims[ORACLE_COMPARE_MAX_DIMS], prod = 1;
  size_t n = 0;
  const char *p = s;
  while (*p) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    char tok[32];
    uint64_t v;
    if (n == ORACLE_COMPARE_MAX_DIMS || len == 0 || len >= sizeof tok) goto bad;
    memcpy(tok, p, len);
    tok[len] = 0;
    if (!ll_parse_u64(tok, &v) || v == 0 || v > ((uint64_t)1 << 62) / prod) goto bad;
    prod *= v;
    dims[n++] = v;
    if (!c) break;
    p = c + 1;
    if (!*p) goto bad; /* trailing comma */
  }
  if (!n) goto bad;
  o->ndims = n;
  memcpy(o->dims, dims, n * sizeof *dims);
  return true;
bad:
  ll_seterr(err, LL_EXIT_USAGE, "--shape '%s': expected D0,D1,... (1 to %d positive integers, product below 2^62)",
            s, ORACLE_COMPARE_MAX_DIMS);
  return false;
}

const char *oracle_mismatch_kind_name(oracle_mismatch_kind k) {
  static const char *n[] = {"value", "nan_vs_number", "number_vs_nan", "inf_sign", "inf_vs_number",
                            "number_vs_inf"};
  return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

/* Element i of a little-endian buffer: its raw bits and its exact value. */
static double load(oracle_etype t, const uint8_t *base, uint64_t i, uint64_t *bits) {
  size_t sz = etypes[t].size;
  uint64_t b = 0;
  for (size_t k = 0; k < sz; k++) b |= (uint64_t)base[i * sz + k] << (8 * k);
  *bits = b;
  switch (t) {
  case ORACLE_E_F32: { float f; uint32_t u = (uint32_t)b; memcpy(&f, &u, 4); return f; }
  case ORACLE_E_F64: { double d; memcpy(&d, &b, 8); return d; }
  case ORACLE_E_F16: return oracle_f16_to_f32((uint16_t)b);
  case ORACLE_E_BF16: return oracle_bf16_to_f32((uint16_t)b);
  case ORACLE_E_I32: return (int32_t)(uint32_t)b;
  case ORACLE_E_U32: return (uint32_t)b;
  case ORACLE_E_I16: return (int16_t)(uint16_t)b;
  case ORACLE_E_U16: return (uint16_t)b;
  case ORACLE_E_I8: return (int8_t)(uint8_t)b;
  case ORACLE_E_U8: return (uint8_t)b;
  case ORACLE_E_I64: return (double)(int64_t)b;
  case ORACLE_E_U64: return (double)b;
  case ORACLE_E_FP8_E4M3: return oracle_fp8_to_f32((uint8_t)b, ORACLE_FP8_E4M3);
  case ORACLE_E_FP8_E5M2: return oracle_fp8_to_f32((uint8_t)b, ORACLE_FP8_E5M2);
  case ORACLE_E_FP8_E4M3_FNUZ: return oracle_fp8_to_f32((uint8_t)b, ORACLE_FP8_E4M3_FNUZ);
  case ORACLE_E_FP8_E5M2_FNUZ: return oracle_fp8_to_f32((uint8_t)b, ORACLE_FP8_E5M2_FNUZ);
  default: return 0;
  }
}

/* The tolerance test of a finite pair with |got - ref| = a (mismatch() and f32_block() both). */
static inline bool within(double a, double ref, double atol, double rtol) { return a <= atol + rtol * fabs(ref); }

/* Is the pair a mismatch, and of which kind? NaN/NaN and same-sign inf agree (oracle.h). */
static bool mismatch(double g, double r, double atol, double rtol, oracle_mismatch_kind *k) {
  bool gn = isnan(g), rn = isnan(r);
  if (gn || rn) {
    if (gn && rn) return false;
    *k = gn ? ORACLE_MM_NAN_GOT : ORACLE_MM_NAN_REF;
    return true;
  }
  bool gi = isinf(g), ri = isinf(r);
  if (gi || ri) {
    if (gi && ri) {
      *k = ORACLE_MM_INF_SIGN;
      return (g > 0) != (r > 0);
    }
    *k = gi ? ORACLE_MM_INF_GOT : ORACLE_MM_INF_REF;
    return true;
  }
  *k = ORACLE_MM_VALUE;
  return !within(fabs(g - r), r, atol, rtol);
}

/* f32 outputs (the attention kernels' O and LSE) by blocks of F32_BLOCK elements, for speed (issue #31:
 * comparing the seed shape's 16.8 M outputs one element at a time through load() and mismatch()
 * took 0.22 CPU-s, 2% of the emulator's measured time): a block whose every pair is finite and
 * within tolerance is done here, with the general loop's operations in the same precision (the
 * floats as doubles, |g - r|, |g - r| / |r| where r != 0, the tolerance test of mismatch()), so the
 * same maxima at the same indices: a block maximum above the running one is where the element loop
 * would end up, at the first element holding it. Returns false, changing nothing, when any pair is
 * NaN, infinite or over tolerance: the caller then runs that block element by element. */
enum { F32_BLOCK = 64 };
static bool f32_block(const uint8_t *g8, const uint8_t *r8, uint64_t at, double atol, double rtol,
                      oracle_compare_result *r) {
  float gf[F32_BLOCK], rf[F32_BLOCK];
  double a[F32_BLOCK], rel[F32_BLOCK];
  memcpy(gf, g8, sizeof gf);
  memcpy(rf, r8, sizeof rf);
  bool ok = true;
  double ma = 0, mr = 0;
  for (int j = 0; j < F32_BLOCK; j++) {
    double g = gf[j], x = rf[j];
    a[j] = fabs(g - x);
    rel[j] = x != 0 ? a[j] / fabs(x) : 0;
    ok &= isfinite(g) & isfinite(x) & within(a[j], x, atol, rtol);
    ma = a[j] > ma ? a[j] : ma;
    mr = rel[j] > mr ? rel[j] : mr;
  }
  if (!ok) return false;
  if (ma > r->max_abs) {
    int j = 0;
    while (a[j] != ma) j++;
    r->max_abs = ma, r->max_abs_at = at + (uint64_t)j;
  }
  if (mr > r->max_rel) {
    int j = 0;
    while (rel[j] != mr) j++;
    r->max_rel = mr, r->max_rel_at = at + (uint64_t)j;
  }
  return true;
}

int oracle_compare_buffers(const void *got, size_t got_bytes, const void *ref, size_t ref_bytes,
                           const oracle_compare_opts *o, const char *got_name,
                           const char *ref_name, oracle_compare_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  if ((unsigned)o->etype >= ORACLE_E_COUNT) {
    ll_seterr(err, LL_EXIT_USAGE, "compare: unknown dtype %d", (int)o->etype);
    return LL_EXIT_USAGE;
  }
  const char *gn = got_name ? got_name : "GOT", *rn = ref_name ? ref_name : "REF";
  const char *tn = etypes[o->etype].name;
  size_t es = etypes[o->etype].size;
  if (!(o->atol >= 0) || !(o->rtol >= 0) || isinf(o->atol) || isinf(o->rtol)) {
    ll_seterr(err, LL_EXIT_USAGE, "compare: atol %g and rtol %g must be finite and >= 0", o->atol, o->rtol);
    return LL_EXIT_USAGE;
  }
  if (o->ndims > ORACLE_COMPARE_MAX_DIMS) {
    ll_seterr(err, LL_EXIT_USAGE, "compare: %zu dims (at most %d)", o->ndims, ORACLE_COMPARE_MAX_DIMS);
    return LL_EXIT_USAGE;
  }
  r->opts = *o;
  uint64_t n;
  if (o->ndims) {
    n = 1;
    for (size_t d = 0; d < o->ndims; d++) {
      if (!o->dims[d] || o->dims[d] > ((uint64_t)1 << 62) / n) {
        ll_seterr(err, LL_EXIT_USAGE, "compare: shape dim %zu is 0 or the shape has 2^62 elements or more", d);
        return LL_EXIT_USAGE;
      }
      n *= o->dims[d];
    }
    ll_buf sh = {0};
    for (size_t d = 0; d < o->ndims; d++) ll_buf_printf(&sh, "%s%llu", d ? "," : "", (unsigned long long)o->dims[d]);
    const char *which = NULL;
    size_t have = 0;
    if (got_bytes / es != n || got_bytes % es) which = gn, have = got_bytes;
    else if (ref_bytes / es != n || ref_bytes % es) which = rn, have = ref_bytes;
    if (which) {
      ll_seterr(err, LL_EXIT_USAGE, "%s has %zu bytes; %s [%s] needs %llu elements of %zu bytes = %llu bytes",
                which, have, tn, ll_buf_str(&sh), (unsigned long long)n, es, (unsigned long long)(n * es));
      ll_buf_free(&sh);
      return LL_EXIT_USAGE;
    }
    ll_buf_free(&sh);
  } else {
    const char *which = got_bytes % es ? gn : ref_bytes % es ? rn : NULL;
    if (which) {
      ll_seterr(err, LL_EXIT_USAGE, "%s has %zu bytes, not a whole number of %s elements (%zu bytes each)", which,
                which == gn ? got_bytes : ref_bytes, tn, es);
      return LL_EXIT_USAGE;
    }
    if (got_bytes != ref_bytes) {
      ll_seterr(err, LL_EXIT_USAGE, "%s has %zu bytes (%zu %s), %s has %zu (%zu): sizes differ (give --shape to "
                "say which is right)", gn, got_bytes, got_bytes / es, tn, rn, ref_bytes, ref_bytes / es);
      return LL_EXIT_USAGE;
    }
    n = got_bytes / es;
    r->opts.ndims = 1;
    r->opts.dims[0] = n;
  }
  if (n == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s and %s are empty: nothing to compare", gn, rn);
    return LL_EXIT_USAGE;
  }
  if (o->lanes) {
    uint64_t unit = 256 * (o->lane_rows ? o->lane_rows : 1);
    if (o->lane_rows > ((uint64_t)1 << 40) || (n * es) % unit) {
      ll_seterr(err, LL_EXIT_USAGE, "--lanes: %llu bytes are not a whole number of %s (%llu bytes: 64 lanes x 4 "
                "bytes%s)", (unsigned long long)(n * es), o->lane_rows ? "waves" : "rows", (unsigned long long)unit,
                o->lane_rows ? " x ROWS" : "");
      return LL_EXIT_USAGE;
    }
  }
  r->n = n;
  const uint8_t *g8 = got, *r8 = ref;
  uint64_t last_row = UINT64_MAX;
  const bool f32 = o->etype == ORACLE_E_F32;
  uint64_t slow_to = 0; /* f32: elements before it go one by one (a block f32_block refused) */
  for (uint64_t i = 0; i < n; i++) {
    if (f32 && i >= slow_to && n - i >= F32_BLOCK) {
      if (f32_block(g8 + 4 * i, r8 + 4 * i, i, o->atol, o->rtol, r)) {
        i += F32_BLOCK - 1;
        continue;
      }
      slow_to = i + F32_BLOCK;
    }
    uint64_t gb, rb;
    double g = load(o->etype, g8, i, &gb), rf = load(o->etype, r8, i, &rb);
    if (isnan(g) && isnan(rf)) r->nan_both++;
    if (isfinite(g) && isfinite(rf)) {
      double a = fabs(g - rf);
      if (a > r->max_abs) r->max_abs = a, r->max_abs_at = i;
      if (rf != 0 && a / fabs(rf) > r->max_rel) r->max_rel = a / fabs(rf), r->max_rel_at = i;
    }
    oracle_mismatch_kind k;
    /* integers at zero tolerance: bit for bit (a double holds 64-bit values only up to 2^53) */
    bool exact = !etypes[o->etype].is_float && o->atol == 0 && o->rtol == 0;
    if (exact ? gb == rb : !mismatch(g, rf, o->atol, o->rtol, &k)) continue;
    if (exact) k = ORACLE_MM_VALUE;
    r->over++;
    switch (k) {
    case ORACLE_MM_NAN_GOT: r->nan_got++; break;
    case ORACLE_MM_NAN_REF: r->nan_ref++; break;
    case ORACLE_MM_INF_SIGN: r->inf_sign++; break;
    case ORACLE_MM_INF_GOT: case ORACLE_MM_INF_REF: r->inf_vs_finite++; break;
    default: break;
    }
    if (k != ORACLE_MM_VALUE) r->nonfinite++;
    uint64_t off = i * es, dw = off / 4, row = dw / 64, lane = dw % 64;
    if (o->lanes) {
      r->lane_mask |= 1ull << lane;
      if (row != last_row) r->rows_with_mismatch++, last_row = row; /* rows only grow with i */
    }
    if (r->nfirst < ORACLE_COMPARE_FIRST) {
      oracle_mismatch *m = &r->first[r->nfirst++];
      m->flat = i;
      uint64_t rem = i;
      for (size_t d = r->opts.ndims; d-- > 0;) {
        m->idx[d] = rem % r->opts.dims[d];
        rem /= r->opts.dims[d];
      }
      m->got = g;
      m->ref = rf;
      m->got_bits = gb;
      m->ref_bits = rb;
      m->kind = k;
      if (o->lanes) {
        m->lane = lane;
        m->wave = o->lane_rows ? row / o->lane_rows : 0;
        m->dword = o->lane_rows ? row % o->lane_rows : row;
        m->byte = (unsigned)(off % 4);
      }
    }
  }
  return r->over ? LL_EXIT_FAIL : LL_EXIT_OK;
}

void *oracle_compare_read(const char *path, size_t max_bytes, size_t *n, ll_err *err) {
  if (!max_bytes) max_bytes = ORACLE_COMPARE_MAX_BYTES;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, S_ISDIR(st.st_mode) ? "it is a directory" : strerror(errno));
    close(fd);
    return NULL;
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes) {
    ll_seterr(err, LL_EXIT_USAGE, "%s has %lld bytes, more than the %zu-byte cap (--max-bytes)", path,
              (long long)st.st_size, max_bytes);
    close(fd);
    return NULL;
  }
  size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, len = 0;
  uint8_t *b = malloc(cap);
  if (!b) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: cannot allocate %zu bytes", path, cap);
    close(fd);
    return NULL;
  }
  for (;;) {
    if (len == cap) {
      size_t nc = cap > max_bytes / 2 ? max_bytes + 1 : cap * 2;
      uint8_t *nb = nc > cap ? realloc(b, nc) : NULL;
      if (!nb) {
        ll_seterr(err, LL_EXIT_USAGE, "%s: more than the %zu-byte cap (--max-bytes), or out of memory", path, max_bytes);
        goto fail;
      }
      b = nb;
      cap = nc;
    }
    ssize_t k = read(fd, b + len, cap - len);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      ll_seterr(err, LL_EXIT_USAGE, "error reading %s: %s", path, strerror(errno));
      goto fail;
    }
    if (k == 0) break;
    len += (size_t)k;
    if (len > max_bytes) {
      ll_seterr(err, LL_EXIT_USAGE, "%s: more than the %zu-byte cap (--max-bytes)", path, max_bytes);
      goto fail;
    }
  }
  close(fd);
  *n = len;
  return b;
fail:
  free(b);
  close(fd);
  return NULL;
}

static bool is_json_object(const uint8_t *b, size_t n) {
  size_t i = 0;
  while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
  return i < n && b[i] == '{';
}

/* A `lanelab run --dump-regs` JSON (runtime/rt.h: "waves": [{"vgprs": [[64 lanes]...], "agprs":
 * [[64 lanes]...]}...]) as the lanes layout: per wave its VGPR rows, then its AGPR rows. Every
 * wave must have the same register counts (one kernel's dump). SGPRs hold no lanes and are not
 * part of it. */
static uint8_t *regdump_flatten(const void *text, size_t n, const char *name, size_t *bytes, uint64_t *nv,
                                uint64_t *na, ll_err *err) {
  ll_json *j = ll_json_parse(text, n, err);
  if (!j) {
    ll_err_prefix(err, "%s (a --dump-regs JSON)", name);
    return NULL;
  }
  const ll_json *waves = ll_json_get(j, "waves");
  uint8_t *out = NULL;
  size_t len = 0;
  const char *bad = NULL;
  size_t bad_wave = 0;
  if (!waves || waves->type != LL_JARR || !waves->n) bad = "no \"waves\" array with at least one wave";
  for (size_t w = 0; !bad && w < waves->n; w++) {
    const char *kinds[2] = {"vgprs", "agprs"};
    for (int k = 0; k < 2 && !bad; k++) {
      const ll_json *rows = ll_json_get(waves->items[w], kinds[k]);
      if (!rows || rows->type != LL_JARR) { bad = k ? "no \"agprs\" array" : "no \"vgprs\" array"; bad_wave = w; break; }
      uint64_t *cnt = k ? na : nv;
      if (w == 0) *cnt = rows->n;
      else if (rows->n != *cnt) { bad = k ? "AGPR count differs from wave 0's" : "VGPR count differs from wave 0's"; bad_wave = w; break; }
      for (size_t r = 0; r < rows->n && !bad; r++) {
        const ll_json *row = rows->items[r];
        if (row->type != LL_JARR || row->n != 64) { bad = "a register row is not 64 lanes"; bad_wave = w; break; }
        out = ll_xrealloc(out, len + 256);
        for (int l = 0; l < 64; l++) {
          const ll_json *v = row->items[l];
          if (v->type != LL_JNUM || !v->is_int || v->i < 0 || v->i > UINT32_MAX) { bad = "a lane value is not a 32-bit unsigned integer"; bad_wave = w; break; }
          for (int b = 0; b < 4; b++) out[len + 4 * l + b] = (uint8_t)((uint64_t)v->i >> (8 * b));
        }
        len += 256;
      }
    }
  }
  if (!bad && !len) bad = "no VGPRs or AGPRs";
  ll_json_free(j);
  if (bad) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (a --dump-regs JSON): wave %zu: %s", name, bad_wave, bad);
    free(out);
    return NULL;
  }
  *bytes = len;
  return out;
}

int oracle_compare_files(const char *got_path, const char *ref_path, const oracle_compare_opts *o,
                         size_t max_bytes, oracle_compare_result *r, ll_err *err) {
  size_t gn = 0, rn = 0;
  memset(r, 0, sizeof *r);
  void *g = oracle_compare_read(got_path, max_bytes, &gn, err);
  if (!g) return err ? err->code : LL_EXIT_USAGE;
  void *rf = oracle_compare_read(ref_path, max_bytes, &rn, err);
  if (!rf) {
    free(g);
    return err ? err->code : LL_EXIT_USAGE;
  }
  char *gl = ll_fmt("GOT %s", got_path), *rl = ll_fmt("REF %s", ref_path);
  int rc = LL_EXIT_USAGE;
  oracle_compare_opts oo = *o;
  uint64_t gv = 0, ga = 0, rv = 0, ra = 0;
  bool gj = o->lanes && is_json_object(g, gn), rj = o->lanes && is_json_object(rf, rn);
  if (gj || rj) {
    /* register dumps: both, the same register counts, 4-byte elements, no --shape */
    uint8_t *g2 = NULL, *r2 = NULL;
    if (gj != rj)
      ll_seterr(err, LL_EXIT_USAGE, "--lanes: %s is a --dump-regs JSON and %s is not; compare two dumps or two raw "
                "buffers", gj ? gl : rl, gj ? rl : gl);
    else if (o->ndims || o->lane_rows)
      ll_seterr(err, LL_EXIT_USAGE, "--lanes on --dump-regs JSON files takes no --shape and no =ROWS: the dump gives "
                "waves and registers");
    else if (oracle_etype_size(o->etype) != 4)
      ll_seterr(err, LL_EXIT_USAGE, "--lanes on --dump-regs JSON files compares 32-bit registers: --dtype f32, i32 "
                "or u32, not %s", oracle_etype_name(o->etype));
    else if ((g2 = regdump_flatten(g, gn, gl, &gn, &gv, &ga, err)) && (r2 = regdump_flatten(rf, rn, rl, &rn, &rv, &ra, err))) {
      if (gv != rv || ga != ra || gn != rn)
        ll_seterr(err, LL_EXIT_USAGE, "%s has %zu waves of %llu VGPRs + %llu AGPRs, %s %zu of %llu + %llu: not dumps "
                  "of one kernel and launch", gl, gn / (256 * (gv + ga)), (unsigned long long)gv,
                  (unsigned long long)ga, rl, rn / (256 * (rv + ra)), (unsigned long long)rv, (unsigned long long)ra);
      else {
        oo.lane_rows = gv + ga;
        rc = oracle_compare_buffers(g2, gn, r2, rn, &oo, gl, rl, r, err);
        r->dump_vgprs = gv;
        r->from_dump = true;
      }
    }
    free(g2);
    free(r2);
  } else {
    rc = oracle_compare_buffers(g, gn, rf, rn, o, gl, rl, r, err);
  }
  free(gl);
  free(rl);
  free(g);
  free(rf);
  return rc;
}

/* ---- renderings -------------------------------------------------------------------------------*/
static void put_dims(ll_buf *b, size_t nd, const uint64_t *v) {
  ll_buf_puts(b, "[");
  for (size_t d = 0; d < nd; d++) ll_buf_printf(b, "%s%llu", d ? "," : "", (unsigned long long)v[d]);
  ll_buf_puts(b, "]");
}

static void unflatten(const oracle_compare_result *r, uint64_t flat, uint64_t *idx) {
  for (size_t d = r->opts.ndims; d-- > 0;) {
    idx[d] = flat % r->opts.dims[d];
    flat /= r->opts.dims[d];
  }
}

static void put_index(ll_buf *b, const oracle_compare_result *r, uint64_t flat) {
  uint64_t idx[ORACLE_COMPARE_MAX_DIMS];
  unflatten(r, flat, idx);
  put_dims(b, r->opts.ndims, idx);
}

/* A signed integer element's value from its raw bits, sign-extended from its size. A double holds
 * 64-bit integers exactly only up to 2^53, so integers are printed from the bits. */
static int64_t sext(oracle_etype t, uint64_t bits) {
  unsigned sh = 64 - 8 * (unsigned)etypes[t].size;
  return (int64_t)(bits << sh) >> sh;
}

/* A value as text: integers exactly (from their bits), floats with enough digits to round-trip
 * their type. */
static void put_value(ll_buf *b, oracle_etype t, double v, uint64_t bits) {
  if (etypes[t].is_signed) ll_buf_printf(b, "%lld", (long long)sext(t, bits));
  else if (!etypes[t].is_float) ll_buf_printf(b, "%llu", (unsigned long long)bits);
  else if (isnan(v)) ll_buf_puts(b, "nan");
  else if (isinf(v)) ll_buf_puts(b, v > 0 ? "inf" : "-inf");
  else ll_buf_printf(b, t == ORACLE_E_F64 ? "%.17g" : "%.9g", v);
}

static const char *kind_text(oracle_mismatch_kind k) {
  static const char *n[] = {"", "NaN vs number", "number vs NaN", "+inf vs -inf", "inf vs number",
                            "number vs inf"};
  return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

static void put_lane(ll_buf *b, const oracle_compare_result *r, const oracle_mismatch *m) {
  if (r->opts.lane_rows) ll_buf_printf(b, "wave %llu ", (unsigned long long)m->wave);
  if (r->from_dump)
    ll_buf_printf(b, "%c%llu lane %llu", m->dword < r->dump_vgprs ? 'v' : 'a',
                  (unsigned long long)(m->dword < r->dump_vgprs ? m->dword : m->dword - r->dump_vgprs),
                  (unsigned long long)m->lane);
  else
    ll_buf_printf(b, "dword %llu lane %llu", (unsigned long long)m->dword, (unsigned long long)m->lane);
  if (etypes[r->opts.etype].size < 4) ll_buf_printf(b, " byte %u", m->byte);
}

void oracle_compare_text(const oracle_compare_result *r, const char *got_name, const char *ref_name,
                         ll_buf *out) {
  const oracle_compare_opts *o = &r->opts;
  oracle_etype t = o->etype;
  int hexw = (int)etypes[t].size * 2;
  ll_buf_printf(out, "compare %s vs %s: %s ", got_name ? got_name : "GOT", ref_name ? ref_name : "REF",
                etypes[t].name);
  put_dims(out, o->ndims, o->dims);
  ll_buf_printf(out, " (%llu elements), atol %g rtol %g: |got-ref| <= atol + rtol*|ref|\n",
                (unsigned long long)r->n, o->atol, o->rtol);
  ll_buf_printf(out, "max abs error %.6g", r->max_abs);
  if (r->max_abs > 0) ll_buf_puts(out, " at "), put_index(out, r, r->max_abs_at);
  ll_buf_printf(out, "; max rel error %.6g", r->max_rel);
  if (r->max_rel > 0) ll_buf_puts(out, " at "), put_index(out, r, r->max_rel_at);
  ll_buf_puts(out, " (over pairs both finite)\n");
  ll_buf_printf(out, "over tolerance: %llu of %llu\n", (unsigned long long)r->over, (unsigned long long)r->n);
  if (oracle_etype_is_float(t))
    ll_buf_printf(out, "non-finite disagreements: %llu (NaN in got %llu, NaN in ref %llu, +inf vs -inf %llu, "
                  "inf vs finite %llu); NaN in both (agree): %llu\n", (unsigned long long)r->nonfinite,
                  (unsigned long long)r->nan_got, (unsigned long long)r->nan_ref, (unsigned long long)r->inf_sign,
                  (unsigned long long)r->inf_vs_finite, (unsigned long long)r->nan_both);
  if (o->lanes) {
    ll_buf_printf(out, "lanes: mismatches in %d of 64 lanes (mask 0x%016llx), %llu %s\n",
                  __builtin_popcountll(r->lane_mask), (unsigned long long)r->lane_mask,
                  (unsigned long long)r->rows_with_mismatch,
                  o->lane_rows ? "(wave, dword) rows" : "dword rows");
  }
  if (r->nfirst) {
    ll_buf_printf(out, "first %zu mismatch%s:\n", r->nfirst, r->nfirst == 1 ? "" : "es");
    for (size_t i = 0; i < r->nfirst; i++) {
      const oracle_mismatch *m = &r->first[i];
      ll_buf_puts(out, "  ");
      put_dims(out, o->ndims, m->idx);
      ll_buf_puts(out, " got ");
      put_value(out, t, m->got, m->got_bits);
      if (oracle_etype_is_float(t)) ll_buf_printf(out, " (0x%0*llx)", hexw, (unsigned long long)m->got_bits);
      ll_buf_puts(out, " ref ");
      put_value(out, t, m->ref, m->ref_bits);
      if (oracle_etype_is_float(t)) ll_buf_printf(out, " (0x%0*llx)", hexw, (unsigned long long)m->ref_bits);
      if (m->kind == ORACLE_MM_VALUE)
        ll_buf_printf(out, " |diff| %.6g > %.6g", fabs(m->got - m->ref), o->atol + o->rtol * fabs(m->ref));
      else
        ll_buf_printf(out, " %s", kind_text(m->kind));
      if (o->lanes) ll_buf_puts(out, " at "), put_lane(out, r, m);
      ll_buf_puts(out, "\n");
    }
  }
  ll_buf_puts(out, r->over ? "FAIL\n" : "PASS\n");
}

static void jw_dims(ll_jw *w, size_t nd, const uint64_t *v) {
  ll_jw_arr_begin(w);
  for (size_t d = 0; d < nd; d++) ll_jw_uint(w, v[d]);
  ll_jw_arr_end(w);
}

static void jw_value(ll_jw *w, oracle_etype t, double v, uint64_t bits) {
  if (etypes[t].is_float) ll_jw_num(w, v); /* non-finite as "nan"/"inf"/"-inf" (util.h) */
  else if (etypes[t].is_signed) ll_jw_int(w, sext(t, bits));
  else ll_jw_uint(w, bits); /* a u64 past 2^63 as itself (a cast of the double was undefined there) */
}

void oracle_compare_json(const oracle_compare_result *r, const char *got_name, const char *ref_name,
                         ll_buf *out) {
  const oracle_compare_opts *o = &r->opts;
  oracle_etype t = o->etype;
  uint64_t idx[ORACLE_COMPARE_MAX_DIMS];
  char hex[24];
  ll_jw w;
  ll_jw_init(&w, out);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab compare");
  ll_jw_key(&w, "got"); ll_jw_str(&w, got_name ? got_name : "GOT");
  ll_jw_key(&w, "ref"); ll_jw_str(&w, ref_name ? ref_name : "REF");
  ll_jw_key(&w, "dtype"); ll_jw_str(&w, etypes[t].name);
  ll_jw_key(&w, "shape"); jw_dims(&w, o->ndims, o->dims);
  ll_jw_key(&w, "n"); ll_jw_uint(&w, r->n);
  ll_jw_key(&w, "atol"); ll_jw_num(&w, o->atol);
  ll_jw_key(&w, "rtol"); ll_jw_num(&w, o->rtol);
  ll_jw_key(&w, "max_abs"); ll_jw_num(&w, r->max_abs);
  ll_jw_key(&w, "max_abs_at");
  if (r->max_abs > 0) unflatten(r, r->max_abs_at, idx), jw_dims(&w, o->ndims, idx);
  else ll_jw_null(&w);
  ll_jw_key(&w, "max_rel"); ll_jw_num(&w, r->max_rel);
  ll_jw_key(&w, "max_rel_at");
  if (r->max_rel > 0) unflatten(r, r->max_rel_at, idx), jw_dims(&w, o->ndims, idx);
  else ll_jw_null(&w);
  ll_jw_key(&w, "over_tolerance"); ll_jw_uint(&w, r->over);
  ll_jw_key(&w, "nonfinite");
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "disagreements"); ll_jw_uint(&w, r->nonfinite);
  ll_jw_key(&w, "nan_got"); ll_jw_uint(&w, r->nan_got);
  ll_jw_key(&w, "nan_ref"); ll_jw_uint(&w, r->nan_ref);
  ll_jw_key(&w, "inf_sign"); ll_jw_uint(&w, r->inf_sign);
  ll_jw_key(&w, "inf_vs_finite"); ll_jw_uint(&w, r->inf_vs_finite);
  ll_jw_key(&w, "nan_both_agree"); ll_jw_uint(&w, r->nan_both);
  ll_jw_obj_end(&w);
  ll_jw_key(&w, "first_mismatches");
  ll_jw_arr_begin(&w);
  for (size_t i = 0; i < r->nfirst; i++) {
    const oracle_mismatch *m = &r->first[i];
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "index"); jw_dims(&w, o->ndims, m->idx);
    ll_jw_key(&w, "flat"); ll_jw_uint(&w, m->flat);
    ll_jw_key(&w, "got"); jw_value(&w, t, m->got, m->got_bits);
    ll_jw_key(&w, "ref"); jw_value(&w, t, m->ref, m->ref_bits);
    snprintf(hex, sizeof hex, "0x%0*llx", (int)etypes[t].size * 2, (unsigned long long)m->got_bits);
    ll_jw_key(&w, "got_bits"); ll_jw_str(&w, hex);
    snprintf(hex, sizeof hex, "0x%0*llx", (int)etypes[t].size * 2, (unsigned long long)m->ref_bits);
    ll_jw_key(&w, "ref_bits"); ll_jw_str(&w, hex);
    ll_jw_key(&w, "kind"); ll_jw_str(&w, oracle_mismatch_kind_name(m->kind));
    if (o->lanes) {
      ll_jw_key(&w, "wave"); ll_jw_uint(&w, m->wave);
      ll_jw_key(&w, "dword"); ll_jw_uint(&w, m->dword);
      ll_jw_key(&w, "lane"); ll_jw_uint(&w, m->lane);
      ll_jw_key(&w, "byte"); ll_jw_uint(&w, m->byte);
      if (r->from_dump) {
        char reg[32];
        snprintf(reg, sizeof reg, "%c%llu", m->dword < r->dump_vgprs ? 'v' : 'a',
                 (unsigned long long)(m->dword < r->dump_vgprs ? m->dword : m->dword - r->dump_vgprs));
        ll_jw_key(&w, "register"); ll_jw_str(&w, reg);
      }
    }
    ll_jw_obj_end(&w);
  }
  ll_jw_arr_end(&w);
  if (o->lanes) {
    ll_jw_key(&w, "lanes");
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "rows_per_wave");
    if (o->lane_rows) ll_jw_uint(&w, o->lane_rows); else ll_jw_null(&w);
    snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)r->lane_mask);
    ll_jw_key(&w, "lane_mask"); ll_jw_str(&w, hex);
    ll_jw_key(&w, "lanes_with_mismatch"); ll_jw_int(&w, __builtin_popcountll(r->lane_mask));
    ll_jw_key(&w, "rows_with_mismatch"); ll_jw_uint(&w, r->rows_with_mismatch);
    ll_jw_obj_end(&w);
  }
  ll_jw_key(&w, "verdict"); ll_jw_str(&w, r->over ? "FAIL" : "pass");
  ll_jw_obj_end(&w);
  ll_buf_puts(out, "\n");
}
