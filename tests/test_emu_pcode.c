/* tests/test_emu_pcode — the differential against AMD's pseudocode: instructions whose semantics
 * come from the CDNA3 / CDNA4 ISA guides' pseudocode (or from a stated choice where the guides call
 * a function they do not define, docs/emulator-choices.md), run through the emulator on both
 * arches and compared, lane by lane, with a reference written here from the guides' pseudocode in
 * exact arithmetic (integers in int64, f16/bf16 products in double, f32 steps as IEEE f32
 * operations, f16 results rounded once with the compiler's _Float16, fused f16 sums in
 * __float128 rounded to odd then to f16). Nothing here calls the emulator's arithmetic.
 *
 * Cost: each arch assembles its cases in batches of 14 per snippet (one llvm-mc call each,
 * tests/emu_snippets/snippet.h) and reruns each batch for many rounds of 64 lanes of fresh inputs
 * (edge values: +-0, denormals, infinities, quiet and signalling NaNs, type limits; and random
 * bits), some rounds with a partial EXEC (lanes off EXEC must keep their old destination). */
#include <math.h>

#include "tests/emu_snippets/snippet.h"

/* ---- values ---------------------------------------------------------------------------------*/
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double h2d(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (double)x; }
static uint16_t d2h(double d) { _Float16 x = (_Float16)d; uint16_t h; memcpy(&h, &x, 2); return h; }
static float bf2f(uint16_t b) { return u2f((uint32_t)b << 16); }
static bool nan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
/* exact value -> f16 rounded once: sn_q2h (tests/emu_snippets/snippet.h) */
/* VOP3 clamp of a float with DX10_CLAMP set: NaN -> 0, [0, 1], -0 kept (docs/emulator-choices.md) */
static float clampf01(float x) { return x != x ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x; }
static int64_t sat(int64_t r, int64_t lo, int64_t hi) { return r < lo ? lo : r > hi ? hi : r; }

/* ---- cases ----------------------------------------------------------------------------------*/
enum { G_U32, G_F16X2, G_BF16X2, G_F32, G_F64, G_SH8, G_I32S, G_BYTES, G_F16MID, G_F32MID }; /* input generators */
enum { CMP_BITS, CMP_F32, CMP_F16LO, CMP_F16X2 };                       /* NaN-aware compares */
typedef struct pcase {
  const char *text;  /* $D $D2 $D4 destination, $A $A2 $B $C $C2 $C4 sources (1/2/4 dwords) */
  unsigned arch;     /* 1 gfx942, 2 gfx950, 3 both */
  uint8_t gen[4];    /* A, B, C, old D */
  uint8_t dw, cmp;   /* destination dwords compared, how */
  int (*ref)(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D);
  int v;             /* variant passed to ref */
} pcase;
#define RET return 0

/* V_DOT2_F32_F16: tmp = S2; tmp += f(a.lo)*f(b.lo); tmp += f(a.hi)*f(b.hi) (f32 steps; products exact) */
static int r_dot2_f16(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint16_t al = A[0], ah = A[0] >> 16, bl = B[0], bh = B[0] >> 16;
  if (v == 2) al ^= 0x8000, bh ^= 0x8000; /* neg_lo:[1,0,0] neg_hi:[0,1,0] */
  float t = v == 10 ? u2f(D[0]) : u2f(C[0]); /* 10: v_dot2c (tmp = D0) */
  t = t + (float)(h2d(al) * h2d(bl));
  t = t + (float)(h2d(ah) * h2d(bh));
  D[0] = f2u(v == 3 ? clampf01(t) : t);
  RET;
}
/* V_DOT2_F32_BF16: tmp = a.lo*b.lo; tmp += a.hi*b.hi; tmp += S2 (f32 multiplies and adds); NEG/ABS
 * do not affect S2. V_DOT2C_F32_BF16: tmp = D0; tmp += a.lo*b.lo; tmp += a.hi*b.hi. */
static int r_dot2_bf16(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint16_t al = A[0], ah = A[0] >> 16, bl = B[0], bh = B[0] >> 16;
  if (v == 11) al ^= 0x8000, bh ^= 0x8000; /* VOP3 dot2c: -A negates A.lo, |B| negates B.hi (ABS as NEG_HI) */
  float t;
  if (v >= 10) {
    t = u2f(D[0]);
    t = t + bf2f(al) * bf2f(bl);
    t = t + bf2f(ah) * bf2f(bh);
  } else {
    t = bf2f(al) * bf2f(bl);
    t = t + bf2f(ah) * bf2f(bh);
    t = t + u2f(C[0]); /* v 1: neg_lo/neg_hi on S2 have no effect */
  }
  D[0] = f2u(v == 3 ? clampf01(t) : t);
  RET;
}
/* integer dots: tmp = S2 (or D0) + sum of products of the N-bit fields; wraps in 32 bits, clamp
 * saturates the exact sum (v & 1: clamp, v & 2: accumulate into D0) */
static int dot_int(int bits, bool sgn, int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  int64_t s = (v & 2) ? (sgn ? (int32_t)D[0] : (int64_t)D[0]) : (sgn ? (int32_t)C[0] : (int64_t)C[0]);
  for (int i = 0; i < 32 / bits; i++) {
    int64_t x = A[0] >> (bits * i) & ((1u << bits) - 1), y = B[0] >> (bits * i) & ((1u << bits) - 1);
    if (sgn) x -= (x >> (bits - 1)) << bits, y -= (y >> (bits - 1)) << bits;
    s += x * y;
  }
  if (v & 1) s = sgn ? sat(s, INT32_MIN, INT32_MAX) : sat(s, 0, UINT32_MAX);
  D[0] = (uint32_t)s;
  RET;
}
#define DOTREF(nm, bits, sgn) \
  static int r_##nm(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D) { return dot_int(bits, sgn, v, A, B, C, D); }
DOTREF(dot2_i16, 16, true)
DOTREF(dot2_u16, 16, false)
DOTREF(dot4_i8, 8, true)
DOTREF(dot4_u8, 8, false)
DOTREF(dot8_i4, 4, true)
DOTREF(dot8_u4, 4, false)

/* 16-bit integer VOP3: v bits: 1 clamp, 2 signed, 4 op_sel[0] and [2] (A hi, C hi), 8 op_sel[1] (B
 * hi), 32 op_sel[3] (result to the high half), 16 legacy (other half zeroed, else preserved); op 0 mad,
 * 1 min3, 2 max3, 3 med3 (the pseudocode's max3 chain), selected by v >> 8 */
static int r_w3(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  bool sg = v & 2;
  uint16_t a = (v & 4) ? A[0] >> 16 : A[0], b = (v & 8) ? B[0] >> 16 : B[0], c = (v & 4) ? C[0] >> 16 : C[0];
  int64_t x = sg ? (int16_t)a : a, y = sg ? (int16_t)b : b, z = sg ? (int16_t)c : c, r;
  int op = v >> 8;
  int64_t mx = x > y ? (x > z ? x : z) : (y > z ? y : z);
  if (op == 0) r = x * y + z;
  else if (op == 1) r = x < y ? (x < z ? x : z) : (y < z ? y : z);
  else if (op == 2) r = mx;
  else r = mx == x ? (y > z ? y : z) : mx == y ? (x > z ? x : z) : (x > y ? x : y);
  if (v & 1) r = sg ? sat(r, -32768, 32767) : sat(r, 0, 65535);
  uint32_t h = (uint32_t)r & 0xffff;
  if (v & 32) D[0] = (D[0] & 0xffff) | h << 16;
  else D[0] = (v & 16) ? h : (D[0] & 0xffff0000u) | h;
  RET;
}
/* f16 multiply-adds: v 0 v_mad_legacy_f16 (a*b exact + c in f32, then f16: the mad-f16-precision
 * choice), 1 v_fma_legacy_f16 (exact fma rounded once), 2 v_mac_f16 (c = D0's low half),
 * 3 v_madak_f16 (c = K), 4 v_madmk_f16 (b = K, c = S1); the high half is zeroed (pseudocode) */
static int r_madf16(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  const uint16_t K = 0x4248;
  double a = h2d(A[0]), b = h2d(v == 4 ? K : (uint16_t)B[0]);
  double c = h2d(v == 2 ? (uint16_t)D[0] : v == 3 ? K : v == 4 ? (uint16_t)B[0] : (uint16_t)C[0]);
  uint16_t r = v == 1 ? sn_q2h((__float128)a * b + c) : d2h((double)((float)(a * b) + (float)c));
  D[0] = r;
  RET;
}
/* 32-bit integer ops from the guides' pseudocode, bit by bit: v 0 V_MUL_HI_U32 (bits 63:32 of the
 * unsigned product), 1 V_MUL_HI_I32 (signed), 2 V_BCNT_U32_B32 (the set bits of S0 counted, plus S1),
 * 3 V_FFBH_U32 (zeros above the highest set bit, -1 for 0), 4 V_FFBL_B32 (zeros below the lowest set
 * bit, -1 for 0), 5 V_FFBH_I32 (bits above the highest one differing from the sign, -1 for 0 and
 * -1), 6 V_BFREV_B32 (bit i to 31 - i) */
static int r_int32(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  (void)C;
  const uint32_t a = A[0], b = B[0];
  uint32_t r = 0;
  switch (v) {
  case 0: r = (uint32_t)(((uint64_t)a * b) >> 32); break;
  case 1: r = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32); break;
  case 2: r = b; for (int i = 0; i < 32; i++) r += a >> i & 1; break;
  case 3: r = ~0u; for (int i = 31; i >= 0; i--) if (a >> i & 1) { r = (uint32_t)(31 - i); break; } break;
  case 4: r = ~0u; for (int i = 0; i < 32; i++) if (a >> i & 1) { r = (uint32_t)i; break; } break;
  case 5: r = ~0u; for (int i = 30; i >= 0; i--) if ((a >> i & 1) != (a >> 31)) { r = (uint32_t)(31 - i); break; } break;
  default: for (int i = 0; i < 32; i++) r |= (a >> i & 1) << (31 - i); break;
  }
  D[0] = r;
  RET;
}
/* fused multiply-adds with an f16 result, the exact a * b + c rounded once (the guides' fma): v 0
 * v_fma_f16 (low half), 1 v_pk_fma_f16 (both halves), 2 v_fma_mixlo_f16 with f32 sources (low half,
 * the high half kept). G_F16MID / G_F32MID make products that are f16 midpoints (1.5 x 683/512 =
 * 2 (1 + 2^-11), scaled) next to addends far below an f32 ulp of them, where a rounding to f32 on
 * the way decides the tie the exact sum does not have */
static int r_fma16x(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  if (v == 2) {
    uint16_t h = sn_q2h((__float128)u2f(A[0]) * u2f(B[0]) + u2f(C[0]));
    D[0] = (D[0] & 0xffff0000u) | h;
    RET;
  }
  uint32_t r = 0;
  for (int k = 0; k < (v == 1 ? 2 : 1); k++)
    r |= (uint32_t)sn_q2h((__float128)h2d(A[0] >> 16 * k) * h2d(B[0] >> 16 * k) + h2d(C[0] >> 16 * k)) << 16 * k;
  D[0] = v == 1 ? r : (D[0] & 0xffff0000u) | r;
  RET;
}
/* V_DIV_FIXUP_LEGACY_F16, the pseudocode (S0 quotient, S1 denominator, S2 numerator) */
static int r_fixup16(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint16_t q = A[0], den = B[0], num = C[0];
  double dq = h2d(q), dd = h2d(den), dn = h2d(num);
  bool so = ((den ^ num) >> 15) & 1;
  uint16_t r;
  if (nan16(num)) r = num | 0x200;
  else if (nan16(den)) r = den | 0x200;
  else if (dd == 0 && dn == 0) r = 0xfe00;
  else if (isinf(dd) && isinf(dn)) r = 0xfe00;
  else if (dd == 0 || isinf(dn)) r = so ? 0xfc00 : 0x7c00;
  else if (isinf(dd) || dn == 0) r = so ? 0x8000 : 0x0000;
  else r = (uint16_t)((q & 0x7fff) | (so ? 0x8000 : 0));
  (void)dq;
  D[0] = r;
  RET;
}
/* sums of absolute differences: v 0 sad_u8, 1 sad_hi_u8, 2 sad_u16, 3 sad_u32, 4 msad_u8; +8 clamp
 * (the exact sum saturated to u32); the 32-bit tmp otherwise wraps */
static uint64_t sadb(uint32_t a, uint32_t b, bool m)
{
  uint64_t s = 0;
  for (int i = 0; i < 4; i++) {
    int x = a >> 8 * i & 0xff, y = b >> 8 * i & 0xff;
    if (!m || y) s += (uint64_t)(x > y ? x - y : y - x);
  }
  return s;
}
static int r_sad(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint64_t a = A[0], b = B[0], s;
  switch (v & 7) {
  case 0: s = sadb(A[0], B[0], false) + C[0]; break;
  case 1: s = (sadb(A[0], B[0], false) << 16) + C[0]; break;
  case 2: s = (uint64_t)llabs((int64_t)(a & 0xffff) - (int64_t)(b & 0xffff)) + (uint64_t)llabs((int64_t)(a >> 16) - (int64_t)(b >> 16)) + C[0]; break;
  case 3: s = (uint64_t)llabs((int64_t)a - (int64_t)b) + C[0]; break;
  default: s = sadb(A[0], B[0], true) + C[0];
  }
  D[0] = (v & 8) && s > 0xffffffffull ? 0xffffffffu : (uint32_t)s;
  RET;
}
/* V_QSAD_PK_U16_U8 (v 0, clamp v 8), V_MQSAD_PK_U16_U8 (v 1), V_MQSAD_U32_U8 (v 2): element k is
 * (m)sad(S0[8k+31:8k], S1, S2 element k), truncated (clamp: saturated) to the element width */
static int r_qsad(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint64_t s0 = A[0] | (uint64_t)A[1] << 32;
  bool m = (v & 7) != 0, w32 = (v & 7) == 2;
  uint64_t emax = w32 ? 0xffffffffull : 0xffff;
  for (int k = 0; k < 4; k++) {
    uint64_t acc = w32 ? C[k] : (C[k / 2] >> (16 * (k & 1)) & 0xffff);
    uint64_t r = sadb((uint32_t)(s0 >> 8 * k), B[0], m) + acc;
    r = (v & 8) && r > emax ? emax : r & emax;
    if (w32) D[k] = (uint32_t)r;
    else if (k & 1) D[k / 2] = (D[k / 2] & 0xffff) | (uint32_t)r << 16;
    else D[k / 2] = (D[k / 2] & 0xffff0000u) | (uint32_t)r;
  }
  RET;
}
/* V_LERP_U8: byte i = (S0.b[i] + S1.b[i] + S2[8i]) >> 1 */
static int r_lerp(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) r |= (((A[0] >> 8 * i & 0xff) + (B[0] >> 8 * i & 0xff) + (C[0] >> 8 * i & 1)) >> 1) << 8 * i;
  D[0] = r;
  RET;
}
/* IEEE 754-2019 maximum/minimum of three: any NaN gives a NaN; -0 < +0. v 0 maximum3, 1
 * minimum3(-a, |b|, c), 2 maximum3 clamp */
static double mxm(double a, double b, bool mx)
{
  if (a != a || b != b) return NAN;
  if (a == 0 && b == 0) /* -0 < +0 */
    return mx ? (signbit(a) && signbit(b) ? -0.0 : 0.0) : (signbit(a) || signbit(b) ? -0.0 : 0.0);
  return mx ? (a > b ? a : b) : (a < b ? a : b);
}
static int r_max3(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  double a = u2f(A[0]), b = u2f(B[0]), c = u2f(C[0]);
  if (v == 1) a = -a, b = fabs(b);
  bool mx = v != 1;
  float r = (float)mxm(mxm(a, b, mx), c, mx);
  D[0] = f2u(v == 2 ? clampf01(r) : r);
  RET;
}
/* V_PK_MAXIMUM3_F16 (v 0) / V_PK_MINIMUM3_F16 with op_sel:[1,0,0] neg_hi:[0,1,0] (v 1), per half */
static int r_pkmax3(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint32_t r = 0;
  for (int h = 0; h < 2; h++) {
    uint16_t a = A[0] >> (16 * h), b = B[0] >> (16 * h), c = C[0] >> (16 * h);
    if (v == 1 && h == 0) a = A[0] >> 16;
    if (v == 1 && h == 1) b ^= 0x8000;
    double x = nan16(a) ? NAN : h2d(a), y = nan16(b) ? NAN : h2d(b), z = nan16(c) ? NAN : h2d(c);
    r |= (uint32_t)d2h(mxm(mxm(x, y, v == 0), z, v == 0)) << (16 * h);
  }
  D[0] = r;
  RET;
}
/* V_ASHR_PK_I8_I32 (v 0) / U8 (v 1): D[15:0] = {SAT8(S1 >> S2[4:0]), SAT8(S0 >> S2[4:0])}; the
 * high half zeroed (lanelab's choice). V_SAT_PK_U8_I16 (v 2): {SAT8(S0.hi), SAT8(S0.lo)}. */
static int r_pk8(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  int64_t x, y, lo = v == 0 ? -128 : 0, hi = v == 0 ? 127 : 255;
  if (v == 2) x = (int16_t)A[0], y = (int16_t)(A[0] >> 16);
  else x = (int64_t)(int32_t)A[0] >> (C[0] & 31), y = (int64_t)(int32_t)B[0] >> (C[0] & 31);
  D[0] = ((uint32_t)sat(x, lo, hi) & 0xff) | ((uint32_t)sat(y, lo, hi) & 0xff) << 8;
  RET;
}
/* snorm/unorm (the cvt-norm choice): NaN 0, clamp to [-1,1] / [0,1], scale, round to nearest even */
static uint16_t snorm(double x) { return x != x ? 0 : (uint16_t)(int16_t)rint(fmax(-1.0, fmin(1.0, x)) * 32767.0); }
static uint16_t unorm(double x) { return x != x ? 0 : (uint16_t)rint(fmax(0.0, fmin(1.0, x)) * 65535.0); }
/* v 0 cvt_norm_i16_f16, 1 cvt_norm_u16_f16_e64 -S0, 2 pknorm_i16_f32, 3 pknorm_u16_f32,
 * 4 pknorm_i16_f16 op_sel:[1,1,0], 5 pknorm_u16_f16, 6 pk_i16_i32, 7 pk_u16_u32 (saturating) */
static int r_norm(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  double a16 = nan16(A[0] >> (v == 4 ? 16 : 0)) ? NAN : h2d(A[0] >> (v == 4 ? 16 : 0));
  double b16 = nan16(B[0] >> (v == 4 ? 16 : 0)) ? NAN : h2d(B[0] >> (v == 4 ? 16 : 0));
  switch (v) {
  case 0: D[0] = snorm(a16); break; /* VOP1: high half zeroed */
  case 1: D[0] = unorm(-a16); break;
  case 2: D[0] = snorm(u2f(A[0])) | (uint32_t)snorm(u2f(B[0])) << 16; break;
  case 3: D[0] = unorm(u2f(A[0])) | (uint32_t)unorm(u2f(B[0])) << 16; break;
  case 4: D[0] = snorm(a16) | (uint32_t)snorm(b16) << 16; break;
  case 5: D[0] = unorm(a16) | (uint32_t)unorm(b16) << 16; break;
  case 6: D[0] = ((uint32_t)sat((int32_t)A[0], -32768, 32767) & 0xffff) | (uint32_t)sat((int32_t)B[0], -32768, 32767) << 16; break;
  default: D[0] = (uint32_t)sat(A[0], 0, 65535) | (uint32_t)sat(B[0], 0, 65535) << 16;
  }
  RET;
}
/* V_CVT_PKACCUM_U8_F32: byte S1[1:0] of D0 = f32_to_u8(S0) (the cvt-u8 choice: RNE, saturate, NaN 0) */
static int r_pkaccum(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  double x = rint(u2f(A[0]));
  uint32_t u = x != x || x <= 0 ? 0 : x >= 255 ? 255 : (uint32_t)x;
  int sh = 8 * (B[0] & 3);
  D[0] = (D[0] & ~(0xffu << sh)) | u << sh;
  RET;
}
/* V_FREXP_MANT_F16 (v 0) / V_FREXP_EXP_I16_F16 (v 1): inf/NaN give S0 / 0, else C's frexp; the
 * high half zeroed */
static int r_frexp16(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint16_t h = A[0];
  int e = 0;
  if ((h & 0x7c00) == 0x7c00) D[0] = v ? 0 : h;
  else {
    double m = frexp(h2d(h), &e);
    D[0] = v ? (uint16_t)(int16_t)e : d2h(m);
  }
  RET;
}
/* V_CUBEID/SC/TC/MA_F32 (v 0..3), the pseudocode */
static int r_cube(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  float x = u2f(A[0]), y = u2f(B[0]), z = u2f(C[0]), r;
  bool zm = fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y), ym = !zm && fabsf(y) >= fabsf(x);
  if (v == 0) r = zm ? (z < 0 ? 5 : 4) : ym ? (y < 0 ? 3 : 2) : (x < 0 ? 1 : 0);
  else if (v == 1) r = zm ? (z < 0 ? -x : x) : ym ? x : (x < 0 ? z : -z);
  else if (v == 2) r = zm ? -y : ym ? (y < 0 ? -z : z) : -y;
  else r = zm ? z * 2 : ym ? y * 2 : x * 2;
  D[0] = f2u(r);
  RET;
}
/* V_LSHL_ADD_U64: (S0 << S1[2:0]) + S2, a count of 5..7 taken as 0 (the guides' Notes) */
static int r_lshl_add64(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint64_t a = A[0] | (uint64_t)A[1] << 32, c = C[0] | (uint64_t)C[1] << 32;
  unsigned s = B[0] & 7;
  uint64_t r = (a << (s > 4 ? 0 : s)) + c;
  D[0] = (uint32_t)r, D[1] = (uint32_t)(r >> 32);
  RET;
}
/* 24/16-bit multiply(-add)s with clamp (the exact value saturated to 32 bits): v 0 mad_u32_u24,
 * 1 mad_i32_i24, 2 mad_u32_u16, 3 mad_i32_i16, 4 mul_u32_u24, 5 mul_i32_i24; v + 6 the same without
 * clamp (the exact value's low 32 bits) */
static int r_mad24(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  const bool wrap = v >= 6;
  if (wrap) v -= 6;
  int64_t a, b, c = (v & 1) ? (int32_t)C[0] : (int64_t)C[0];
  if (v == 0 || v == 4) a = A[0] & 0xffffff, b = B[0] & 0xffffff;
  else if (v == 1 || v == 5) a = (int32_t)(A[0] << 8) >> 8, b = (int32_t)(B[0] << 8) >> 8;
  else if (v == 2) a = A[0] & 0xffff, b = B[0] & 0xffff;
  else a = (int16_t)A[0], b = (int16_t)B[0];
  int64_t r = a * b + (v >= 4 ? 0 : c);
  bool sg = v == 1 || v == 3 || v == 5;
  D[0] = (uint32_t)(wrap ? r : sg ? sat(r, INT32_MIN, INT32_MAX) : sat(r, 0, UINT32_MAX));
  RET;
}
/* V_BFE_I32 / V_BFE_U32 (the guides' pseudocode): tmp = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1), the
 * shift arithmetic and the result sign-extended from bit S2[4:0] - 1 for the signed form (none
 * for a width of 0); v 0 signed, 1 unsigned */
static int r_bfe(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  unsigned off = B[0] & 31, w = C[0] & 31;
  int64_t sh = v == 0 ? (int64_t)((int32_t)A[0] >> off) : (int64_t)(A[0] >> off);
  int64_t t = sh & (((int64_t)1 << w) - 1);
  if (v == 0 && w && (t >> (w - 1) & 1)) t -= (int64_t)1 << w;
  D[0] = (uint32_t)t;
  RET;
}
/* SDWA source selects (the guides' SDWA section: BYTE_n / WORD_n, zero-extended, or sign-extended
 * under sext()): v 0 v_add_u32 sext(BYTE_1) + WORD_1, 1 v_sub_u32 WORD_0 - sext(BYTE_3), 2 v_xor_b32
 * BYTE_2 ^ sext(WORD_1), 3 v_and_b32 sext(DWORD) & BYTE_0 */
static int r_sdwa(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  (void)C;
  const uint32_t a = A[0], b = B[0];
  switch (v) {
  case 0: D[0] = (uint32_t)(int32_t)(int8_t)(a >> 8) + (b >> 16); break;
  case 1: D[0] = (a & 0xffff) - (uint32_t)(int32_t)(int8_t)(b >> 24); break;
  case 2: D[0] = ((a >> 16) & 0xff) ^ (uint32_t)(int32_t)(int16_t)(b >> 16); break;
  default: D[0] = a & (b & 0xff); break;
  }
  RET;
}
/* packed 16-bit integer ops with clamp (each half's exact result saturated): v 0 pk_add_u16, 1
 * pk_sub_i16, 2 pk_mad_u16, 3 pk_mad_i16 op_sel:[1,0,0], 4 pk_mul_lo_u16, 5 pk_lshlrev_b16, 6
 * pk_add_i16 op_sel_hi:[0,1] (no clamp) */
static int r_pkint(int v, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
  uint32_t r = 0;
  bool sg = v == 1 || v == 3 || v == 6;
  for (int h = 0; h < 2; h++) {
    uint16_t a = A[0] >> (16 * h), b = B[0] >> (16 * h), c = C[0] >> (16 * h);
    if (v == 3 && h == 0) a = A[0] >> 16;
    if (v == 6 && h == 1) a = A[0];
    int64_t x = sg ? (int16_t)a : a, y = sg ? (int16_t)b : b, z = sg ? (int16_t)c : c, q;
    switch (v) {
    case 0: case 6: q = x + y; break;
    case 1: q = x - y; break;
    case 2: case 3: q = x * y + z; break;
    case 4: q = x * y; break;
    default: q = y << (x & 15);
    }
    if (v != 6) q = sg ? sat(q, -32768, 32767) : sat(q, 0, 65535);
    r |= ((uint32_t)q & 0xffff) << (16 * h);
  }
  D[0] = r;
  RET;
}

static const pcase cases[] = {
    {"v_dot2_f32_f16 $D, $A, $B, $C", 3, {G_F16X2, G_F16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_f16, 0},
    {"v_dot2_f32_f16 $D, $A, $B, $C neg_lo:[1,0,0] neg_hi:[0,1,0]", 3, {G_F16X2, G_F16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_f16, 2},
    {"v_dot2_f32_f16 $D, $A, $B, $C clamp", 3, {G_F16X2, G_F16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_f16, 3},
    {"v_dot2c_f32_f16 $D, $A, $B", 3, {G_F16X2, G_F16X2, G_U32, G_F32}, 1, CMP_F32, r_dot2_f16, 10},
    {"v_dot2_f32_bf16 $D, $A, $B, $C", 2, {G_BF16X2, G_BF16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_bf16, 0},
    {"v_dot2_f32_bf16 $D, $A, $B, $C neg_lo:[0,0,1] neg_hi:[0,0,1]", 2, {G_BF16X2, G_BF16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_bf16, 1},
    {"v_dot2_f32_bf16 $D, $A, $B, $C clamp", 2, {G_BF16X2, G_BF16X2, G_F32, G_U32}, 1, CMP_F32, r_dot2_bf16, 3},
    {"v_dot2c_f32_bf16 $D, $A, $B", 2, {G_BF16X2, G_BF16X2, G_U32, G_F32}, 1, CMP_F32, r_dot2_bf16, 10},
    {"v_dot2c_f32_bf16_e64 $D, -$A, |$B|", 2, {G_BF16X2, G_BF16X2, G_U32, G_F32}, 1, CMP_F32, r_dot2_bf16, 11},
    {"v_dot2_i32_i16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot2_i16, 0},
    {"v_dot2_i32_i16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot2_i16, 1},
    {"v_dot2_u32_u16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot2_u16, 1},
    {"v_dot4_i32_i8 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot4_i8, 1},
    {"v_dot4_u32_u8 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot4_u8, 0},
    {"v_dot4_i32_i8 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot4_i8, 0},
    {"v_dot2_u32_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot2_u16, 0},
    {"v_dot8_i32_i4 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot8_i4, 0},
    {"v_dot8_u32_u4 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot8_u4, 0},
    {"v_dot8_i32_i4 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot8_i4, 1},
    {"v_dot8_u32_u4 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot8_u4, 1},
    {"v_dot2c_i32_i16 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot2_i16, 2},
    {"v_dot4c_i32_i8_e64 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot4_i8, 3},
    {"v_dot8c_i32_i4 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_dot8_i4, 2},
    {"v_mad_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0},
    {"v_mad_u16 $D, $A, $B, $C op_sel:[1,0,1,1]", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 4 | 32},
    {"v_mad_u16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 1},
    {"v_mad_i16 $D, $A, $B, $C op_sel:[0,1,0,0] clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 1 | 2 | 8},
    {"v_mad_legacy_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 16},
    {"v_mad_legacy_i16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 16 | 2 | 1},
    {"v_min3_i16 $D, $A, $B, $C op_sel:[1,0,1,0]", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x100 | 2 | 4},
    {"v_max3_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x200},
    {"v_max3_i16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x200 | 2},
    {"v_min3_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x100},
    {"v_med3_i16 $D, $A, $B, $C op_sel:[0,1,0,0]", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x300 | 2 | 8},
    {"v_med3_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_w3, 0x300},
    {"v_mul_hi_u32 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 0},
    {"v_mul_hi_i32 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 1},
    {"v_bcnt_u32_b32 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 2},
    {"v_ffbh_u32 $D, $A", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 3},
    {"v_ffbl_b32 $D, $A", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 4},
    {"v_ffbh_i32 $D, $A", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 5},
    {"v_bfrev_b32 $D, $A", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_int32, 6},
    {"v_fma_f16 $D, $A, $B, $C", 3, {G_F16MID, G_F16MID, G_F16MID, G_U32}, 1, CMP_F16LO, r_fma16x, 0},
    {"v_pk_fma_f16 $D, $A, $B, $C", 3, {G_F16MID, G_F16MID, G_F16MID, G_U32}, 1, CMP_F16X2, r_fma16x, 1},
    {"v_fma_mixlo_f16 $D, $A, $B, $C", 3, {G_F32MID, G_F32MID, G_F32MID, G_U32}, 1, CMP_F16LO, r_fma16x, 2},
    {"v_mad_legacy_f16 $D, $A, $B, $C", 3, {G_F16X2, G_F16X2, G_F16X2, G_U32}, 1, CMP_F16LO, r_madf16, 0},
    {"v_fma_legacy_f16 $D, $A, $B, $C", 3, {G_F16X2, G_F16X2, G_F16X2, G_U32}, 1, CMP_F16LO, r_madf16, 1},
    {"v_mac_f16 $D, $A, $B", 3, {G_F16X2, G_F16X2, G_U32, G_F16X2}, 1, CMP_F16LO, r_madf16, 2},
    {"v_madak_f16 $D, $A, $B, 0x4248", 3, {G_F16X2, G_F16X2, G_U32, G_U32}, 1, CMP_F16LO, r_madf16, 3},
    {"v_madmk_f16 $D, $A, 0x4248, $B", 3, {G_F16X2, G_F16X2, G_U32, G_U32}, 1, CMP_F16LO, r_madf16, 4},
    {"v_div_fixup_legacy_f16 $D, $A, $B, $C", 3, {G_F16X2, G_F16X2, G_F16X2, G_U32}, 1, CMP_F16LO, r_fixup16, 0},
    {"v_sad_u8 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sad, 8},
    {"v_sad_hi_u8 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sad, 1},
    {"v_sad_u16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sad, 2 | 8},
    {"v_sad_u32 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sad, 3 | 8},
    {"v_msad_u8 $D, $A, $B, $C", 3, {G_U32, G_BYTES, G_U32, G_U32}, 1, CMP_BITS, r_sad, 4},
    {"v_msad_u8 $D, $A, $B, $C clamp", 3, {G_U32, G_BYTES, G_U32, G_U32}, 1, CMP_BITS, r_sad, 4 | 8},
    {"v_qsad_pk_u16_u8 $D2, $A2, $B, $C2", 3, {G_U32, G_U32, G_U32, G_U32}, 2, CMP_BITS, r_qsad, 0},
    {"v_qsad_pk_u16_u8 $D2, $A2, $B, $C2 clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 2, CMP_BITS, r_qsad, 8},
    {"v_mqsad_pk_u16_u8 $D2, $A2, $B, $C2", 3, {G_U32, G_BYTES, G_U32, G_U32}, 2, CMP_BITS, r_qsad, 1},
    {"v_mqsad_u32_u8 $D4, $A2, $B, $C4", 3, {G_U32, G_BYTES, G_U32, G_U32}, 4, CMP_BITS, r_qsad, 2},
    {"v_lerp_u8 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_lerp, 0},
    {"v_maximum3_f32 $D, $A, $B, $C", 2, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_max3, 0},
    {"v_minimum3_f32 $D, -$A, |$B|, $C", 2, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_max3, 1},
    {"v_maximum3_f32 $D, $A, $B, $C clamp", 2, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_max3, 2},
    {"v_pk_maximum3_f16 $D, $A, $B, $C", 2, {G_F16X2, G_F16X2, G_F16X2, G_U32}, 1, CMP_F16X2, r_pkmax3, 0},
    {"v_pk_minimum3_f16 $D, $A, $B, $C op_sel:[1,0,0] neg_hi:[0,1,0]", 2, {G_F16X2, G_F16X2, G_F16X2, G_U32}, 1, CMP_F16X2, r_pkmax3, 1},
    {"v_ashr_pk_i8_i32 $D, $A, $B, $C", 2, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pk8, 0},
    {"v_ashr_pk_u8_i32 $D, $A, $B, $C", 2, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pk8, 1},
    {"v_sat_pk_u8_i16 $D, $A", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pk8, 2},
    {"v_cvt_norm_i16_f16 $D, $A", 3, {G_F16X2, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_norm, 0},
    {"v_cvt_norm_u16_f16_e64 $D, -$A", 3, {G_F16X2, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_norm, 1},
    {"v_cvt_pknorm_i16_f32 $D, $A, $B", 3, {G_F32, G_F32, G_U32, G_U32}, 1, CMP_BITS, r_norm, 2},
    {"v_cvt_pknorm_u16_f32 $D, $A, $B", 3, {G_F32, G_F32, G_U32, G_U32}, 1, CMP_BITS, r_norm, 3},
    {"v_cvt_pknorm_i16_f16 $D, $A, $B op_sel:[1,1,0]", 3, {G_F16X2, G_F16X2, G_U32, G_U32}, 1, CMP_BITS, r_norm, 4},
    {"v_cvt_pknorm_u16_f16 $D, $A, $B", 3, {G_F16X2, G_F16X2, G_U32, G_U32}, 1, CMP_BITS, r_norm, 5},
    {"v_cvt_pk_i16_i32 $D, $A, $B", 3, {G_I32S, G_I32S, G_U32, G_U32}, 1, CMP_BITS, r_norm, 6},
    {"v_cvt_pk_u16_u32 $D, $A, $B", 3, {G_I32S, G_I32S, G_U32, G_U32}, 1, CMP_BITS, r_norm, 7},
    {"v_cvt_pkaccum_u8_f32 $D, $A, $B", 3, {G_F32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkaccum, 0},
    {"v_frexp_mant_f16 $D, $A", 3, {G_F16X2, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_frexp16, 0},
    {"v_frexp_exp_i16_f16 $D, $A", 3, {G_F16X2, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_frexp16, 1},
    {"v_cubeid_f32 $D, $A, $B, $C", 3, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_cube, 0},
    {"v_cubesc_f32 $D, $A, $B, $C", 3, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_cube, 1},
    {"v_cubetc_f32 $D, $A, $B, $C", 3, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_cube, 2},
    {"v_cubema_f32 $D, $A, $B, $C", 3, {G_F32, G_F32, G_F32, G_U32}, 1, CMP_F32, r_cube, 3},
    {"v_lshl_add_u64 $D2, $A2, $B, $C2", 3, {G_U32, G_SH8, G_U32, G_U32}, 2, CMP_BITS, r_lshl_add64, 0},
    {"v_mad_u32_u24 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 0},
    {"v_mad_i32_i24 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 1},
    {"v_mad_u32_u16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 2},
    {"v_mad_i32_i16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 3},
    {"v_mul_u32_u24_e64 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 4},
    {"v_mul_i32_i24_e64 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 5},
    {"v_mad_u32_u24 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 6},
    {"v_mad_i32_i24 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 7},
    {"v_mad_u32_u16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 8},
    {"v_mad_i32_i16 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 9},
    {"v_mul_u32_u24_e64 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 10},
    {"v_mul_i32_i24_e64 $D, $A, $B", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_mad24, 11},
    {"v_bfe_i32 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_bfe, 0},
    {"v_bfe_u32 $D, $A, $B, $C", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_bfe, 1},
    {"v_add_u32_sdwa $D, sext($A), $B dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1", 3,
     {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sdwa, 0},
    {"v_sub_u32_sdwa $D, $A, sext($B) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:BYTE_3", 3,
     {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sdwa, 1},
    {"v_xor_b32_sdwa $D, $A, sext($B) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:WORD_1", 3,
     {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sdwa, 2},
    {"v_and_b32_sdwa $D, sext($A), $B dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0", 3,
     {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_sdwa, 3},
    {"v_pk_add_u16 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 0},
    {"v_pk_sub_i16 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 1},
    {"v_pk_mad_u16 $D, $A, $B, $C clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 2},
    {"v_pk_mad_i16 $D, $A, $B, $C op_sel:[1,0,0] clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 3},
    {"v_pk_mul_lo_u16 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 4},
    {"v_pk_lshlrev_b16 $D, $A, $B clamp", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 5},
    {"v_pk_add_i16 $D, $A, $B op_sel_hi:[0,1]", 3, {G_U32, G_U32, G_U32, G_U32}, 1, CMP_BITS, r_pkint, 6},
};
enum { NCASE = sizeof cases / sizeof cases[0], PER = 14, ROUNDS = 48 };

/* ---- inputs ---------------------------------------------------------------------------------*/
static const uint16_t e16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0xfe00, 0x0001, 0x8001, 0x03ff,
                               0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x5640, 0x1400};
static const uint32_t e32[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x00000001,
                               0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000,
                               0x3f7fffff, 0x3f800001, 0x4f000000, 0xcf000000, 0x477fe000, 0x477ff000};
static const uint32_t ei[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x8000, 0x7fff, 0xffff, 0x10000,
                              0xffff8000u, 0x80008000u, 0x7fff7fffu, 0x88888888u, 0x77777777u, 0x80808080u, 0x7f7f7f7fu};
static uint32_t gen(int g, uint32_t *st)
{
  uint32_t r = sn_rand(st), pick = sn_rand(st) % 8;
  switch (g) {
  case G_F16X2: {
    uint16_t h[2];
    for (int i = 0; i < 2; i++) {
      uint32_t q = sn_rand(st);
      h[i] = q % 3 == 0 ? e16[(q >> 8) % (sizeof e16 / 2)] : (uint16_t)((q >> 8) & 0xffff);
      if (q % 3 == 1 && (h[i] & 0x7c00) == 0x7c00) h[i] ^= 0x4000; /* mostly finite */
    }
    return h[0] | (uint32_t)h[1] << 16;
  }
  case G_BF16X2: {
    uint32_t a = pick == 0 ? e32[r % (sizeof e32 / 4)] : r, b = sn_rand(st);
    if (sn_rand(st) % 4 == 0) b = e32[b % (sizeof e32 / 4)];
    return (a >> 16) | (b & 0xffff0000u);
  }
  case G_F32:
    if (pick < 2) return e32[r % (sizeof e32 / 4)];
    if (pick < 5) return f2u((float)((int32_t)r) / 1048576.0f); /* moderate magnitudes */
    if (pick < 6) return f2u((float)((int32_t)r) * 1e-9f);      /* around [-2, 2] */
    return r;
  case G_F16MID: { /* per half: 1.5 or 683/512 times 2^0..4, a few units of 2^-24, or any f16 */
    uint32_t out = 0;
    for (int i = 0; i < 2; i++) {
      uint32_t q = sn_rand(st), sg = (q >> 4 & 1) << 15;
      uint16_t h = q % 10 < 4 ? (uint16_t)(((q >> 8) & 1 ? 0x3d56 : 0x3e00) + ((q >> 9) % 5 << 10))
                   : q % 10 < 7 ? (uint16_t)(1u << ((q >> 8) % 3)) : (uint16_t)(q >> 16);
      /* infinities and NaNs rare (1 in 16 of the random ones): most waves are all finite, the
       * handlers' vector path (emu/simd.c emu_fma_f16_n), the others take the per-lane one */
      if ((h & 0x7c00) == 0x7c00 && (q & 0xf0) != 0) h ^= 0x4000;
      out |= (uint32_t)(h | sg) << 16 * i;
    }
    return out;
  }
  case G_F32MID: { /* 1.5 or 683/512 times 2^0..4; 2^-53..2^-100, below half a double's ulp of those
                     products and inside what the reference's __float128 sum holds exactly; or any f32
                     of moderate size */
    uint32_t q = sn_rand(st), sg = (q >> 4 & 1) << 31;
    if (q % 10 < 4) return sg | f2u(((q >> 8) & 1 ? 683.0f / 512.0f : 1.5f) * (float)(1u << ((q >> 9) % 5)));
    if (q % 10 < 7) return sg | (uint32_t)(127 - 53 - (q >> 8) % 48) << 23;
    return f2u((float)((int32_t)r) / 1048576.0f);
  }
  case G_SH8: return r % 8 | (sn_rand(st) % 4 == 0 ? r & 0xfffffff8u : 0); /* count 0..7, sometimes high bits */
  case G_I32S: return pick < 3 ? ei[r % (sizeof ei / 4)] : pick < 5 ? (uint32_t)((int32_t)r >> 14) : r;
  case G_BYTES: { /* some zero reference bytes (v_msad_u8) */
    uint32_t m = sn_rand(st);
    for (int i = 0; i < 4; i++)
      if (m >> (8 * i) & 1) r &= ~(0xffu << 8 * i);
    return r;
  }
  default: return pick < 2 ? ei[r % (sizeof ei / 4)] : r;
  }
}

/* ---- the harness ----------------------------------------------------------------------------*/
static char *expand(const char *t, int base)
{
  ll_buf b = {0};
  for (const char *p = t; *p; p++) {
    if (*p != '$') { ll_buf_put(&b, p, 1); continue; }
    char k = p[1];
    int w = (p[2] == '2' || p[2] == '4') ? p[2] - '0' : 1;
    int r = base + (k == 'D' ? 0 : k == 'A' ? 4 : k == 'B' ? 6 : 8);
    char reg[32];
    if (w == 1) snprintf(reg, sizeof reg, "v%d", r);
    else snprintf(reg, sizeof reg, "v[%d:%d]", r, r + w - 1);
    ll_buf_put(&b, reg, strlen(reg));
    p += 1 + (w > 1);
  }
  ll_buf_str(&b);
  return b.data;
}
static bool same(int cmp, int k, uint32_t got, uint32_t want)
{
  if (cmp == CMP_F32 && k == 0) {
    bool gn = (got & 0x7fffffff) > 0x7f800000, wn = (want & 0x7fffffff) > 0x7f800000;
    return gn || wn ? gn && wn : got == want;
  }
  if ((cmp == CMP_F16X2 || cmp == CMP_F16LO) && k == 0) {
    for (int h = 0; h < (cmp == CMP_F16X2 ? 2 : 1); h++) {
      uint16_t g = got >> (16 * h), x = want >> (16 * h);
      if (nan16(g) || nan16(x) ? !(nan16(g) && nan16(x)) : g != x) return false;
    }
    return cmp == CMP_F16X2 || (got >> 16) == (want >> 16);
  }
  return got == want;
}

static void run_batch(emu_arch a, const int *idx, int n)
{
  ll_buf src = {0};
  for (int i = 0; i < n; i++) {
    char *line = expand(cases[idx[i]].text, 8 + 16 * i);
    ll_buf_put(&src, line, strlen(line));
    ll_buf_put(&src, "\n", 1);
    free(line);
  }
  ll_buf_str(&src);
  snip *s = sn_new(a, src.data);
  s->k.rsrc1 = 1u << 21 | 1u << 23; /* DX10_CLAMP and IEEE_MODE, as clang sets them */
  cr_assert_eq((int)s->p->n, n, "%s: %d instructions decoded from %d lines", emu_arch_name(a), (int)s->p->n, n);
  uint32_t st = 0x9e3779b9u ^ (uint32_t)(a * 7919 + idx[0]);
  for (int round = 0; round < ROUNDS; round++) {
    uint64_t exec = round % 4 == 3 ? 0x9b3c5a0ff0a5c3d9ull ^ ((uint64_t)round << 40) : ~0ull;
    static uint32_t in[16][64][16]; /* case, lane, register offset within the case's block */
    for (int i = 0; i < n; i++) {
      const pcase *c = &cases[idx[i]];
      for (int l = 0; l < 64; l++) {
        for (int k = 0; k < 4; k++) in[i][l][k] = gen(c->gen[3], &st);
        for (int k = 4; k < 6; k++) in[i][l][k] = gen(c->gen[0], &st);
        for (int k = 6; k < 8; k++) in[i][l][k] = gen(c->gen[1], &st);
        for (int k = 8; k < 12; k++) in[i][l][k] = gen(c->gen[2], &st);
        for (int k = 0; k < 12; k++) sn_v(s, 8 + 16 * i + k)[l] = in[i][l][k];
      }
    }
    sn_exec(s, exec);
    cr_assert_eq(sn_run(s), EMU_OK, "%s: %s", emu_arch_name(a), s->f.msg);
    for (int i = 0; i < n; i++) {
      const pcase *c = &cases[idx[i]];
      for (int l = 0; l < 64; l++) {
        uint32_t want[4];
        memcpy(want, in[i][l], sizeof want);
        if (exec >> l & 1) c->ref(c->v, &in[i][l][4], &in[i][l][6], &in[i][l][8], want);
        for (int k = 0; k < c->dw; k++) {
          uint32_t got = sn_v(s, 8 + 16 * i + k)[l];
          cr_assert(same(c->cmp, k, got, want[k]),
                    "%s '%s' lane %d (exec %d) dword %d: got 0x%08x, want 0x%08x; A %08x %08x B %08x C %08x %08x "
                    "D0 %08x",
                    emu_arch_name(a), c->text, l, (int)(exec >> l & 1), k, got, want[k], in[i][l][4], in[i][l][5],
                    in[i][l][6], in[i][l][8], in[i][l][9], in[i][l][0]);
        }
      }
    }
  }
  sn_free(s);
  ll_buf_free(&src);
}

static void run_arch(emu_arch a)
{
  int idx[PER], n = 0, total = 0;
  for (int c = 0; c < NCASE; c++) {
    if (!(cases[c].arch >> a & 1)) continue;
    idx[n++] = c, total++;
    if (n == PER) run_batch(a, idx, n), n = 0;
  }
  if (n) run_batch(a, idx, n);
  cr_assert_gt(total, 60, "%s: only %d cases ran", emu_arch_name(a), total);
}

Test(emu_pcode, pseudocode_differential_gfx942) { run_arch(EMU_GFX942); }
Test(emu_pcode, pseudocode_differential_gfx950) { run_arch(EMU_GFX950); }

/* V_TRIG_PREOP_F64: segment s of 2/pi (53 bits at fraction positions shift+1 .. shift+53, shift =
 * 53s + max(0, exponent(S0) - 1077)) scaled by 2^(-53-shift) (+128 when exponent(S0) >= 1968),
 * rounded toward zero. Checked against 2/pi to 113 bits (__float128: segments 0 and 1, and the
 * shifted segment 0 of inputs with exponents 1078..1127) and through the pseudocode's own relations
 * (segment s of a small input = segment 0 of an input 53s exponents up; the +128 rule; the
 * truncation of a subnormal result). */
static const __float128 TWO_OVER_PI = 0.63661977236758134307553505349005744813783858296182579499066937623558719053691Q;
static double x_of_exp(int e) { uint64_t u = (uint64_t)e << 52 | 0x5555555555555ull; double d; memcpy(&d, &u, 8); return d; }
static void preop(emu_arch a, const double *x, const uint32_t *seg, double *out)
{
  snip *s = sn_new(a, "v_trig_preop_f64 v[2:3], v[4:5], v6");
  for (int l = 0; l < 64; l++) {
    uint64_t u;
    memcpy(&u, &x[l], 8);
    sn_v(s, 4)[l] = (uint32_t)u, sn_v(s, 5)[l] = (uint32_t)(u >> 32), sn_v(s, 6)[l] = seg[l];
  }
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    uint64_t u = sn_v(s, 2)[l] | (uint64_t)sn_v(s, 3)[l] << 32;
    memcpy(&out[l], &u, 8);
  }
  sn_free(s);
}
Test(emu_pcode, trig_preop_segments_of_two_over_pi)
{
  for (int a = 0; a < EMU_NARCH; a++) {
    double x[64], r[64], q[64];
    uint32_t seg[64];
    /* lanes 0..49: exponent 1078 + lane (shift 1 + lane), segment 0; 50..51: segments 0 and 1 of 1.0;
     * 52..63: segment 32 + k reads S1[4:0] = k */
    for (int l = 0; l < 64; l++) x[l] = l < 50 ? x_of_exp(1078 + l) : 1.0, seg[l] = l < 50 ? 0 : l < 52 ? (uint32_t)(l - 50) : 32 + (uint32_t)(l - 52);
    preop((emu_arch)a, x, seg, r);
    for (int l = 0; l < 50; l++) { /* bits shift+1 .. shift+53: floor(2/pi * 2^(53+shift)) mod 2^53 */
      int sh = 1 + l;
      unsigned __int128 f = (unsigned __int128)(TWO_OVER_PI * (__float128)((unsigned __int128)1 << (53 + sh)));
      uint64_t want = (uint64_t)(f & (((unsigned __int128)1 << 53) - 1));
      cr_assert_eq(r[l], ldexp((double)want, -53 - sh), "%s exponent %d: %a", emu_arch_name((emu_arch)a), 1078 + l, r[l]);
    }
    __float128 s01 = (__float128)r[50] + (__float128)r[51], gap = TWO_OVER_PI - s01;
    cr_assert(gap >= 0 && gap < (__float128)0x1p-106, "segments 0+1 are 2/pi truncated to 106 bits");
    cr_assert_eq(r[50], (double)(uint64_t)(TWO_OVER_PI * (__float128)0x1p53) * 0x1p-53, "segment 0 of 1.0");
    double r0[64], r1[64];
    for (int l = 0; l < 64; l++) x[l] = 1.0, seg[l] = (uint32_t)(l % 32);
    preop((emu_arch)a, x, seg, r0);
    for (int l = 52; l < 64; l++) cr_assert_eq(r[l], r0[l - 52], "segment %u uses S1[4:0]", seg[l]);
    /* segment s of 1.0 (exponent 1023) = segment 0 of exponent 1077 + 53 s (s = 0..16: below 1968) */
    for (int l = 0; l < 64; l++) x[l] = x_of_exp(1077 + 53 * (l % 17)), seg[l] = 0;
    preop((emu_arch)a, x, seg, r1);
    for (int l = 0; l < 17; l++) cr_assert_eq(r1[l], r0[l], "segment %d vs exponent %d", l, 1077 + 53 * l);
    /* exponent >= 1968 adds 128 to the scale: exponent 1968 segment 0 (shift 891) = exponent 1120
     * segment 16 (shift 43 + 848) times 2^128 */
    for (int l = 0; l < 64; l++) x[l] = l & 1 ? x_of_exp(1120) : x_of_exp(1968), seg[l] = l & 1 ? 16 : 0;
    preop((emu_arch)a, x, seg, q);
    cr_assert(q[1] != 0 && q[0] == ldexp(q[1], 128), "the +128 scale: %a vs %a", q[0], q[1]);
    /* a subnormal result: segment 20 with exponent 1077 + k (k = 0..11; k = 0 as 1.0: shift
     * 1060 + k, scale 2^(-1113-k)) = the same bits from exponent 1978 + k segment 3 (shift
     * 901 + k + 159, scale 128 up: normal), floored to multiples of 2^-1074. (The first dropped bit
     * is always 2/pi's fraction bit 1075, which is 0: toward zero and to nearest agree on every
     * subnormal result, so this pins the scale and the subnormal placement, not the rounding.) */
    for (int l = 0; l < 64; l++) {
      int k = l / 2 % 12;
      x[l] = l & 1 ? x_of_exp(1978 + k) : k ? x_of_exp(1077 + k) : 1.0, seg[l] = l & 1 ? 3 : 20;
    }
    preop((emu_arch)a, x, seg, q);
    int nonzero = 0;
    for (int l = 0; l < 64; l += 2) {
      double want = ldexp(floor(ldexp(q[l + 1], 1074 - 128)), -1074);
      cr_assert(q[l + 1] != 0 && q[l] == want, "subnormal lane %d: %a, want %a (toward zero)", l, q[l], want);
      nonzero += q[l] != 0;
    }
    cr_assert_gt(nonzero, 20, "the subnormal cases must not all underflow to 0");
  }
}

/* permlane swaps with fi / bound_ctrl: with EXEC all ones (the only case modelled) no source lane
 * is inactive, so the result is the plain swap */
Test(emu_pcode, permlane_swap_fi_and_bound_ctrl_equal_the_plain_swap)
{
  snip *s1 = sn_new(EMU_GFX950, "v_permlane16_swap_b32 v1, v2 fi:1\nv_permlane32_swap_b32 v3, v4 bound_ctrl:1");
  snip *s0 = sn_new(EMU_GFX950, "v_permlane16_swap_b32 v1, v2\nv_permlane32_swap_b32 v3, v4");
  uint32_t st = 11;
  for (int r = 1; r <= 4; r++)
    for (int l = 0; l < 64; l++) sn_v(s1, r)[l] = sn_v(s0, r)[l] = sn_rand(&st);
  cr_assert_eq(sn_run(s1), EMU_OK, "%s", s1->f.msg);
  cr_assert_eq(sn_run(s0), EMU_OK, "%s", s0->f.msg);
  for (int r = 1; r <= 4; r++)
    for (int l = 0; l < 64; l++) cr_assert_eq(sn_v(s1, r)[l], sn_v(s0, r)[l], "v%d lane %d", r, l);
  cr_assert(s1->p->insns[0].fi && s1->p->insns[1].bound_ctrl, "fi:1 / bound_ctrl:1 parsed");
  sn_free(s1), sn_free(s0);
}

/* modifiers whose meaning lanelab does not model are refused when decoded (isa coverage counts them
 * refused), naming themselves */
Test(emu_pcode, unmodelled_modifiers_refused_at_decode)
{
  const char *src[][2] = {{"v_dot2_i32_i16 v0, v1, v2, v3 neg_lo:[1,0,0]", "neg_lo/neg_hi on the integer op"},
                          {"v_dot2_f32_f16 v0, v1, v2, v3 neg_lo:[0,0,1]", "f32 addend"},
                          {"v_dot2c_f32_f16_e64 v0, -v1, v2", "abs/neg on the sources"},
                          {"v_mad_u64_u32 v[0:1], s[0:1], v1, v2, v[2:3] clamp", "clamp on v_mad_u64_u32"},
                          {"v_and_b32_sdwa v0, v1, v2 clamp", "clamp on v_and_b32"}};
  for (int i = 0; i < 5; i++) {
    snip *s = sn_new(EMU_GFX942, src[i][0]);
    const emu_insn *in = &s->p->insns[0];
    cr_assert(!in->implemented && in->why && strstr(in->why, src[i][1]), "%s: %s", src[i][0], in->why ? in->why : "implemented");
    sn_free(s);
  }
}
