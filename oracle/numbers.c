/* oracle/numbers — fp16/bf16 conversion, the comparison rule, tolerances as data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"

size_t oracle_dtype_size(oracle_dtype dt) { return dt == ORACLE_F32 ? 4 : 2; }

const char *oracle_dtype_name(oracle_dtype dt) {
  return dt == ORACLE_F16 ? "f16" : dt == ORACLE_BF16 ? "bf16" : "f32";
}

bool oracle_dtype_parse(const char *s, oracle_dtype *out) {
  if (!s) return false;
  if (strcmp(s, "f16") == 0) *out = ORACLE_F16;
  else if (strcmp(s, "bf16") == 0) *out = ORACLE_BF16;
  else if (strcmp(s, "f32") == 0) *out = ORACLE_F32;
  else return false;
  return true;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits (IEEE 754-2008 3.6). */
float oracle_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f) return u2f(sign | 0x7f800000u | (man << 13)); /* inf, NaN with payload */
  if (exp) return u2f(sign | ((exp + 112) << 23) | (man << 13));  /* rebias 15 -> 127 */
  if (!man) return u2f(sign);
  /* subnormal man*2^-24: normalise so the leading 1 is bit 10, adjusting the exponent. */
  uint32_t e = 113;
  while (!(man & 0x400u)) { man <<= 1; e--; }
  return u2f(sign | (e << 23) | ((man & 0x3ffu) << 13));
}

uint16_t oracle_f32_to_f16(float f) {
  uint32_t x = f2u(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* quiet NaN */
  /* 65520 = 65504 + half an ulp; the tie goes to the even neighbour, which is 2^16 = inf. */
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
  if (ax >= 0x38800000u) { /* >= 2^-14: a normal half. Round at bit 13, ties to even. */
    uint32_t r = (ax + 0x0fffu + ((ax >> 13) & 1u)) >> 13;
    return (uint16_t)(sign | (r - (112u << 10)));
  }
  uint32_t e = ax >> 23;
  if (e < 102) return (uint16_t)sign; /* below 2^-25 (half the smallest subnormal): to +-0 */
  /* value = m * 2^(e-150); in units of 2^-24 that is m >> (126 - e), rounded to nearest even.
   * The carry out of a rounded-up 0x3ff lands on 0x400, the smallest normal: correct. */
  uint32_t m = (ax & 0x7fffffu) | 0x800000u, s = 126 - e;
  uint32_t q = m >> s, rem = m & ((1u << s) - 1), half = 1u << (s - 1);
  if (rem > half || (rem == half && (q & 1u))) q++;
  return (uint16_t)(sign | q);
}

/* bfloat16 is the top half of a binary32. */
float oracle_bf16_to_f32(uint16_t h) { return u2f((uint32_t)h << 16); }

uint16_t oracle_f32_to_bf16(float f) {
  uint32_t x = f2u(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* stay NaN */
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16); /* carries into exp: inf ok */
}

void oracle_to_f32(oracle_dtype dt, const void *src, float *dst, size_t n) {
  const uint16_t *h = src;
  if (dt == ORACLE_F32) memcpy(dst, src, n * 4);
  else if (dt == ORACLE_F16) for (size_t i = 0; i < n; i++) dst[i] = oracle_f16_to_f32(h[i]);
  else for (size_t i = 0; i < n; i++) dst[i] = oracle_bf16_to_f32(h[i]);
}

void oracle_from_f32(oracle_dtype dt, const float *src, void *dst, size_t n) {
  uint16_t *h = dst;
  if (dt == ORACLE_F32) memcpy(dst, src, n * 4);
  else if (dt == ORACLE_F16) for (size_t i = 0; i < n; i++) h[i] = oracle_f32_to_f16(src[i]);
  else for (size_t i = 0; i < n; i++) h[i] = oracle_f32_to_bf16(src[i]);
}

bool oracle_close(double got, double ref, double atol, double rtol) {
  if (!isfinite(got) || !isfinite(ref)) return isinf(got) && isinf(ref) && (got > 0) == (ref > 0);
  return fabs(got - ref) <= atol + rtol * fabs(ref);
}

bool oracle_compare(const float *got, const float *ref, size_t n, double atol, double rtol,
                    oracle_cmp *c) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->atol = atol;
  c->rtol = rtol;
  double worst_excess = -1;
  for (size_t i = 0; i < n; i++) {
    double g = got[i], r = ref[i];
    bool fin = isfinite(g) && isfinite(r);
    if (fin) {
      double a = fabs(g - r);
      if (a > c->max_abs) c->max_abs = a;
      if (r != 0 && a / fabs(r) > c->max_rel) c->max_rel = a / fabs(r);
    }
    if (oracle_close(g, r, atol, rtol)) continue;
    c->mismatches++;
    double excess = fin ? fabs(g - r) - (atol + rtol * fabs(r)) : INFINITY;
    if (!fin) c->nonfinite_mismatches++;
    if (excess > worst_excess) {
      worst_excess = excess;
      c->worst = i;
      c->worst_got = g;
      c->worst_ref = r;
    }
  }
  return c->mismatches == 0;
}

const char oracle_cmp_columns[] =
    "case,n#,mismatches#,nonfinite#,max_abs#,max_rel#,atol#,rtol#,worst_index,worst_got,worst_ref,verdict";

char *oracle_cmp_cells(const char *name, const oracle_cmp *c) {
  if (!c->mismatches)
    return ll_fmt("%s\t%zu\t0\t0\t%.3g\t%.3g\t%.3g\t%.3g\t-\t-\t-\tpass", name, c->n, c->max_abs,
                  c->max_rel, c->atol, c->rtol);
  return ll_fmt("%s\t%zu\t%zu\t%zu\t%.3g\t%.3g\t%.3g\t%.3g\t%zu\t%.9g\t%.9g\tFAIL", name, c->n,
                c->mismatches, c->nonfinite_mismatches, c->max_abs, c->max_rel, c->atol, c->rtol,
                c->worst, c->worst_got, c->worst_ref);
}

const oracle_tolerance oracle_tolerances[] = {
    {"FlashInfer and its ROCm port", "output and LSE vs reference", ORACLE_F16, 1e-3, 1e-3},
    {"FlashInfer and its ROCm port", "output and LSE vs reference", ORACLE_BF16, 1e-2, 1e-2},
    {"FlashInfer", "soft cap, extreme logits", ORACLE_F16, 1e-2, 1e-2},
    {"FlashInfer", "soft cap, extreme logits", ORACLE_BF16, 1e-2, 1e-2},
    {"AITER", "batch prefill", ORACLE_F16, 1e-3, 1e-3},
    {"AITER", "batch prefill", ORACLE_BF16, 1e-2, 2e-2},
    {"composable_kernel", "fmha", ORACLE_F16, 1e-3, 1e-3},
    {"composable_kernel", "fmha", ORACLE_BF16, 1e-2, 1e-2},
    {"CDNA4 prefill change (docs/changes.md, change 000)", "ragged and paged vs naive reference", ORACLE_F16, 1e-2, 1e-2},
    {"CDNA4 prefill change (docs/changes.md, change 000)", "ragged and paged vs naive reference", ORACLE_BF16, 1e-2, 1e-2},
};
const size_t oracle_num_tolerances = sizeof oracle_tolerances / sizeof oracle_tolerances[0];

void oracle_tolerance_default(oracle_dtype dt, double *atol, double *rtol) {
  if (dt == ORACLE_F32) { *atol = 1e-5; *rtol = 1e-5; return; }
  *atol = oracle_tolerances[dt == ORACLE_F16 ? 0 : 1].atol;
  *rtol = oracle_tolerances[dt == ORACLE_F16 ? 0 : 1].rtol;
}

/* ---- fp8 (docs/oracle.md "fp8": OCP 8-bit floating point specification 1.0, and LLVM's
 * APFloat semantics Float8E4M3FN, Float8E5M2, Float8E4M3FNUZ, Float8E5M2FNUZ) ---------------- */
static const struct { int mbits, bias; bool fnuz, has_inf; } fp8_fmt[] = {
    [ORACLE_FP8_E4M3] = {3, 7, false, false},      [ORACLE_FP8_E5M2] = {2, 15, false, true},
    [ORACLE_FP8_E4M3_FNUZ] = {3, 8, true, false},  [ORACLE_FP8_E5M2_FNUZ] = {2, 16, true, false},
};

float oracle_fp8_to_f32(uint8_t v, oracle_fp8 k) {
  int mb = fp8_fmt[k].mbits, eb = 7 - mb, bias = fp8_fmt[k].bias;
  unsigned s = v >> 7, e = (v >> mb) & ((1u << eb) - 1), m = v & ((1u << mb) - 1);
  if (fp8_fmt[k].fnuz && v == 0x80) return NAN;                      /* the one NaN; no -0 */
  if (k == ORACLE_FP8_E4M3 && e == 15 && m == 7) return NAN;           /* S.1111.111 */
  if (fp8_fmt[k].has_inf && e == (1u << eb) - 1) return m ? NAN : (s ? -INFINITY : INFINITY);
  double x = e ? ldexp(1.0 + m / (double)(1u << mb), (int)e - bias) : ldexp((double)m, 1 - bias - mb);
  return (float)(s ? -x : x);
}

uint8_t oracle_f32_to_fp8(float f, oracle_fp8 k) {
  if (isnan(f)) return fp8_fmt[k].fnuz ? 0x80 : k == ORACLE_FP8_E4M3 ? 0x7f : 0x7e;
  if (isinf(f) && fp8_fmt[k].has_inf) return f < 0 ? 0xfc : 0x7c;
  /* the nearest of the 128 non-negative codes, ties to the even code: plain and obviously right */
  double a = fabs((double)f);
  int best = -1;
  double bd = INFINITY;
  for (int c = 0; c < 128; c++) {
    double v = oracle_fp8_to_f32((uint8_t)c, k);
    if (!isfinite(v)) continue;
    double d = fabs(v - a);
    if (d < bd || (d == bd && (c & 1) == 0)) { bd = d; best = c; }
  }
  if (best <= 0 || f >= 0) return (uint8_t)best; /* zero has one encoding in FNUZ (0x80 is NaN) */
  return (uint8_t)(best | 0x80);
}
