/* emu/op_cvt — conversions and small integer ops found in AMD's hand-written kernels (ROCm/aiter):
 * fp8/bf8 <-> f32 (CDNA3 ISA "V_CVT_F32_FP8", "V_CVT_PK_FP8_F32"; CDNA4 ISA likewise), packed f16,
 * int4 offset, packed u8, saturating integer adds (VOP3 clamp), sum of absolute differences,
 * v_prng_b32 and v_dot2_f32_bf16 (gfx950), the gfx950 scaled conversions v_cvt_scalef32_*, and the
 * stochastic-rounding conversions v_cvt_sr_* / v_cvt_scalef32_sr_* (end of file).
 *
 * fp8 formats (as in emu/op_mfma.c): gfx942 uses the FNUZ encodings (fp8 = E4M3 bias 8, bf8 = E5M2
 * bias 16, 0x80 the only NaN, no infinities, no -0); gfx950 the OCP ones (fp8 = E4M3FN bias 7,
 * S.1111.111 NaN, no infinities; bf8 = E5M2 bias 15 with infinities). f32 -> fp8 rounds to nearest
 * even; a NaN gives the format's NaN; a finite value beyond the largest finite code, or an
 * infinity, gives NaN (FNUZ, OCP fp8) or infinity (OCP bf8): the non-saturating conversion
 * (docs/emulator-choices.md "fp8 conversions"). */
#include "emu/internal.h"

#define L64 for (int l = 0; l < EMU_LANES; l++)
#define S0I (in->src0i)

typedef struct { int eb, mb, bias; bool fnuz, inf, nonan; } f8fmt; /* nonan: no NaN/inf codes (fp4) */

static f8fmt f8_format(emu_arch a, bool bf8)
{
  if (a == EMU_GFX942) return bf8 ? (f8fmt){5, 2, 16, true, false, false} : (f8fmt){4, 3, 8, true, false, false};
  return bf8 ? (f8fmt){5, 2, 15, false, true, false} : (f8fmt){4, 3, 7, false, false, false};
}

static float f8_decode(f8fmt f, uint32_t c)
{
  c &= (1u << (1 + f.eb + f.mb)) - 1;
  uint32_t s = c >> (f.eb + f.mb), e = (c >> f.mb) & ((1u << f.eb) - 1), m = c & ((1u << f.mb) - 1);
  uint32_t emax = (1u << f.eb) - 1;
  if (f.nonan) goto finite;
  if (f.fnuz && c == 0x80) return NAN;
  if (!f.fnuz && f.inf && e == emax) return m ? NAN : (s ? -INFINITY : INFINITY);
  if (!f.fnuz && !f.inf && e == emax && m == (1u << f.mb) - 1) return NAN;
finite:;
  float v = e ? ldexpf(1.0f + (float)m / (float)(1u << f.mb), (int)e - f.bias)
              : ldexpf((float)m / (float)(1u << f.mb), 1 - f.bias);
  return s ? -v : v;
}

/* largest finite value of a format */
static float f8_max(f8fmt f)
{
  int emax = (1 << f.eb) - 1;
  if (f.nonan) return ldexpf(2.0f - ldexpf(1.0f, -f.mb), emax - f.bias);      /* fp4: 6 */
  if (f.fnuz) return ldexpf(2.0f - ldexpf(1.0f, -f.mb), emax - f.bias);        /* 240, 57344 */
  if (f.inf) return ldexpf(2.0f - ldexpf(1.0f, -f.mb), emax - 1 - f.bias);     /* 57344 */
  return ldexpf(2.0f - ldexpf(2.0f, -f.mb), emax - f.bias);                    /* 448 */
}

static uint32_t f8_nan(f8fmt f, uint32_t s) { return f.fnuz ? 0x80u : (s << 7) | 0x7fu; }

/* Rounding of a narrowing conversion. bits = 0: round to nearest even. bits = W > 0: stochastic
 * rounding (the v_cvt_*sr* forms): D, the W source-mantissa bits just below the kept LSB (after
 * the value is aligned to the format's smallest exponent; bits below those are dropped), and
 * R = seed >> (32 - W), the top W bits of the random operand; the magnitude is truncated and then
 * rounded up iff D + R >= 2^W. W = source mantissa bits - format mantissa bits (f32 23, f16 10,
 * bf16 7). See "Stochastic rounding" in docs/emulator-choices.md for the sources. */
typedef struct { int bits; uint32_t seed; } f8rnd;
static const f8rnd RNE = {0, 0};
static f8rnd sr_rnd(f8fmt f, int src_mb, uint32_t seed) { return (f8rnd){src_mb - f.mb, seed}; }

/* a non-negative multiple of the format's LSB after rounding a/q (a/q >= 0, exact) */
static double rnd_grid(double aq, f8rnd r)
{
  if (!r.bits) return nearbyint(aq); /* rounds to even */
  double t = floor(aq), one = ldexp(1.0, r.bits);
  double d = floor((aq - t) * one); /* exact: aq has at most 24 significant bits */
  return t + (d + (double)(r.seed >> (32 - r.bits)) >= one ? 1.0 : 0.0);
}

/* x (exact in a double) to the format's code, rounded by r. Also used with an f16/bf16 descriptor
 * (eb 5/8, mb 10/7, inf) for finite values. */
static uint32_t f8_encode(f8fmt f, double x, f8rnd r)
{
  uint32_t s = signbit(x) ? 1u : 0u, sb = (uint32_t)(f.eb + f.mb), top = (1u << sb) - 1;
  if (f.nonan && (x != x || fabs(x) > f8_max(f))) return s << sb | top; /* saturate (NaN too) */
  if (x != x) return f8_nan(f, s);
  double a = fabs(x), mx = f8_max(f);
  int emin = 1 - f.bias;
  double v = 0;
  if (!isinf(a) && a != 0) {
    int e = ilogb(a);
    if (e < emin) e = emin;
    double q = ldexp(1.0, e - f.mb);
    v = rnd_grid(a / q, r) * q; /* exact scaling by a power of two */
  }
  if (isinf(a) || v > mx) return f.inf ? s << sb | (uint32_t)((1 << f.eb) - 1) << f.mb : f8_nan(f, s);
  if (v == 0) return f.fnuz ? 0u : s << sb; /* FNUZ has no -0 (0x80 is NaN) */
  int e = ilogb(v);
  uint32_t code;
  if (e < emin) code = (uint32_t)(v / ldexp(1.0, emin - f.mb)); /* subnormal */
  else code = (uint32_t)(e + f.bias) << f.mb | ((uint32_t)(v / ldexp(1.0, e - f.mb)) & ((1u << f.mb) - 1));
  return s << sb | code;
}

/* v_cvt_f32_fp8/bf8: the byte SDWA src0_sel picks (byte 0 without SDWA). The VOP3 byte select
 * (op_sel) is not modelled: it faults naming itself. */
static int cvt_f32_f8(emu_wave *w, const emu_insn *in, bool bf8)
{
  if (in->enc != EMU_ENC_SDWA && in->op_sel)
    return emu_raise(w, in, "unimplemented", -1, 0, "byte select through op_sel is not modelled");
  uint32_t t[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t); /* SDWA select already applied */
  f8fmt f = f8_format(w->wg->arch, bf8);
  float d[EMU_LANES];
  L64 d[l] = f8_decode(f, A[l]);
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_f32_fp8)(emu_wave *w, const emu_insn *in) { return cvt_f32_f8(w, in, false); }
int EMU_H(emu_op_v_cvt_f32_bf8)(emu_wave *w, const emu_insn *in) { return cvt_f32_f8(w, in, true); }

/* v_cvt_pk_f32_fp8/bf8 vdst[0:1], src: bytes 0 and 1 of the selected word (SDWA WORD_1: bytes 2, 3) */
static int cvt_pk_f32_f8(emu_wave *w, const emu_insn *in, bool bf8)
{
  if (in->enc != EMU_ENC_SDWA && in->op_sel)
    return emu_raise(w, in, "unimplemented", -1, 0, "word select through op_sel is not modelled");
  uint32_t t[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t);
  f8fmt f = f8_format(w->wg->arch, bf8);
  uint32_t lo[EMU_LANES], hi[EMU_LANES];
  const uint32_t *e = emu_emask(w);
  L64 lo[l] = emu_u32f(f8_decode(f, A[l])), hi[l] = emu_u32f(f8_decode(f, A[l] >> 8));
  uint32_t *d0 = emu_vreg(w, in, 0, 0), *d1 = emu_vreg(w, in, 0, 1);
  L64 if (e[l]) d0[l] = lo[l], d1[l] = hi[l];
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_pk_f32_fp8)(emu_wave *w, const emu_insn *in) { return cvt_pk_f32_f8(w, in, false); }
int EMU_H(emu_op_v_cvt_pk_f32_bf8)(emu_wave *w, const emu_insn *in) { return cvt_pk_f32_f8(w, in, true); }

/* v_cvt_pk_fp8/bf8_f32 vdst, src0, src1: {f8(src1), f8(src0)} into word 0 of vdst, or word 1 with
 * op_sel[3]; the other word is kept. */
static int cvt_pk_f8_f32(emu_wave *w, const emu_insn *in, bool bf8)
{
  float A[EMU_LANES], B[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  emu_srcf32(w, in, S0I + 1, B);
  f8fmt f = f8_format(w->wg->arch, bf8);
  const uint32_t *old = emu_vreg(w, in, 0, 0);
  bool hiw = in->op_sel & 8;
  uint32_t d[EMU_LANES];
  L64 {
    uint32_t p = f8_encode(f, A[l], RNE) | f8_encode(f, B[l], RNE) << 8;
    d[l] = hiw ? (old[l] & 0xffffu) | p << 16 : (old[l] & 0xffff0000u) | p;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_pk_fp8_f32)(emu_wave *w, const emu_insn *in) { return cvt_pk_f8_f32(w, in, false); }
int EMU_H(emu_op_v_cvt_pk_bf8_f32)(emu_wave *w, const emu_insn *in) { return cvt_pk_f8_f32(w, in, true); }

/* v_cvt_off_f32_i4 (CDNA3 ISA): S0[3:0] as a signed 4-bit integer, divided by 16 (0x8 -> -0.5,
 * 0x7 -> 0.4375) */
int EMU_H(emu_op_v_cvt_off_f32_i4)(emu_wave *w, const emu_insn *in)
{
  uint32_t t[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t);
  float d[EMU_LANES];
  L64 d[l] = (float)((int32_t)(A[l] << 28) >> 28) * 0.0625f;
  emu_dstf32(w, in, 0, d);
  return EMU_OK;
}

/* v_cvt_pk_u8_f32 vdst, f32, sel, prev (CDNA3 ISA): byte sel[1:0] of prev replaced by the f32
 * rounded to nearest even and saturated to [0, 255] (NaN -> 0) */
static int cvt_u8_into(emu_wave *w, const emu_insn *in, const uint32_t *P)
{
  float A[EMU_LANES];
  uint32_t t1[EMU_LANES], d[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  const uint32_t *S = emu_src32(w, in, S0I + 1, t1);
  L64 {
    float r = nearbyintf(A[l]);
    uint32_t u = r != r || r <= 0 ? 0u : r >= 255 ? 255u : (uint32_t)r;
    unsigned sh = 8 * (S[l] & 3);
    d[l] = (P[l] & ~(0xffu << sh)) | u << sh;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_pk_u8_f32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t2[EMU_LANES];
  return cvt_u8_into(w, in, emu_src32(w, in, S0I + 2, t2));
}

/* v_sad_* / v_msad_u8 (CDNA3 ISA pseudocode): sums of absolute differences plus S2 in a 32-bit tmp
 * ("overflow into the upper bits is allowed": the sum wraps); with clamp the exact sum saturated to
 * u32 once (§6.5 read for a multi-step op: the int-clamp-exact choice, EMU_F_ICLAMP). V_MSAD_U8
 * leaves out the bytes whose reference (S1) byte is 0. */
#define SAD(name, expr)                                                                            \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES], d[EMU_LANES];                            \
    const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1),             \
                   *C = emu_src32(w, in, S0I + 2, t2);                                              \
    L64 {                                                                                          \
      uint32_t a = A[l], b = B[l];                                                                 \
      uint64_t c = C[l], r = (expr);                                                               \
      d[l] = in->clamp && r > 0xffffffffull ? 0xffffffffu : (uint32_t)r;                           \
    }                                                                                              \
    emu_dst32(w, in, 0, d);                                                                        \
    return EMU_OK;                                                                                 \
  }
static inline uint32_t absd(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }
static inline uint64_t sad8(uint32_t a, uint32_t b, bool masked)
{
  uint64_t s = 0;
  for (int i = 0; i < 4; i++)
    if (!masked || (b >> 8 * i & 0xff)) s += absd(a >> 8 * i & 0xff, b >> 8 * i & 0xff);
  return s;
}
SAD(v_sad_u8, sad8(a, b, false) + c)
SAD(v_sad_hi_u8, (sad8(a, b, false) << 16) + c)
SAD(v_sad_u16, (uint64_t)absd(a & 0xffff, b & 0xffff) + absd(a >> 16, b >> 16) + c)
SAD(v_sad_u32, (uint64_t)absd(a, b) + c)
SAD(v_msad_u8, sad8(a, b, true) + c)

/* V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 / V_MQSAD_U32_U8: four (m)sads of the 4-byte windows
 * S0[8k+31 : 8k] (k = 0..3, S0 a 64-bit operand) against S1, each added to element k of S2
 * (16-bit elements of a 64-bit S2, or 32-bit elements of a 128-bit S2) and truncated to the
 * element (with clamp: saturated, int-clamp-exact). */
static int qsad(emu_wave *w, const emu_insn *in, bool masked, int ebits)
{
  uint64_t A[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_src64(w, in, S0I, A);
  const uint32_t *B = emu_src32(w, in, S0I + 1, t1);
  const emu_opnd *oc = &in->o[S0I + 2], *od = &in->o[0];
  int nreg = ebits == 16 ? 2 : 4;
  if ((oc->kind != EMU_OPK_VGPR && oc->kind != EMU_OPK_AGPR && oc->kind != EMU_OPK_SGPR) || oc->n < nreg ||
      (od->kind != EMU_OPK_VGPR && od->kind != EMU_OPK_AGPR) || od->n < nreg)
    return emu_raise(w, in, "unimplemented", -1, 0, "%s: S2 and D must be %d-dword registers", in->mnem, nreg);
  uint32_t C[4][EMU_LANES], D[4][EMU_LANES];
  for (int k = 0; k < nreg; k++) {
    if (oc->kind == EMU_OPK_SGPR) L64 C[k][l] = w->s[oc->reg + k];
    else memcpy(C[k], emu_vreg(w, in, S0I + 2, k), sizeof C[k]);
  }
  uint64_t emax = ebits == 16 ? 0xffffull : 0xffffffffull;
  L64 {
    for (int k = 0; k < 4; k++) {
      uint32_t win = (uint32_t)(A[l] >> (8 * k));
      uint64_t acc = ebits == 16 ? (C[k / 2][l] >> (16 * (k & 1)) & 0xffff) : C[k][l];
      uint64_t r = sad8(win, B[l], masked) + acc;
      if (in->clamp && r > emax) r = emax;
      r &= emax;
      if (ebits == 16) {
        if (!(k & 1)) D[k / 2][l] = (uint32_t)r;
        else D[k / 2][l] |= (uint32_t)r << 16;
      } else {
        D[k][l] = (uint32_t)r;
      }
    }
  }
  uint64_t e = emu_exec(w);
  for (int k = 0; k < nreg; k++) {
    uint32_t *dst = emu_vreg(w, in, 0, k);
    L64 if (e >> l & 1) dst[l] = D[k][l];
  }
  return EMU_OK;
}
int EMU_H(emu_op_v_qsad_pk_u16_u8)(emu_wave *w, const emu_insn *in) { return qsad(w, in, false, 16); }
int EMU_H(emu_op_v_mqsad_pk_u16_u8)(emu_wave *w, const emu_insn *in) { return qsad(w, in, true, 16); }
int EMU_H(emu_op_v_mqsad_u32_u8)(emu_wave *w, const emu_insn *in) { return qsad(w, in, true, 32); }

/* ---- normalized and narrowing conversions (CDNA3/CDNA4 ISA pseudocode) --------------------------
 * V_CVT_NORM_I16_F16, V_CVT_NORM_U16_F16, V_CVT_PKNORM_{I16,U16}_{F32,F16}: f*_to_snorm / f*_to_unorm,
 * functions the guides use without defining ("0.5ULP accuracy, supports rounding ... and
 * saturation"). lanelab's reading (the cvt-norm choice): NaN -> 0; the value clamped to [-1, 1]
 * (snorm) or [0, 1] (unorm), times 32767 or 65535 (exact in double), rounded to nearest even. So
 * snorm(-1) = -32767, the symmetric range tinygrad's hardware-validated RDNA3 tests observe (not a
 * CDNA measurement). */
static inline uint16_t to_snorm(double x)
{
  if (x != x) return 0;
  x = x < -1 ? -1 : x > 1 ? 1 : x;
  return (uint16_t)(int16_t)nearbyint(x * 32767.0);
}
static inline uint16_t to_unorm(double x)
{
  if (x != x) return 0;
  x = x < 0 ? 0 : x > 1 ? 1 : x;
  return (uint16_t)nearbyint(x * 65535.0);
}
static int cvt_norm_f16(emu_wave *w, const emu_insn *in, bool sgn)
{
  float A[EMU_LANES];
  uint16_t d[EMU_LANES];
  emu_srcf16(w, in, S0I, A);
  L64 d[l] = sgn ? to_snorm(A[l]) : to_unorm(A[l]);
  emu_dst16(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_norm_i16_f16)(emu_wave *w, const emu_insn *in) { return cvt_norm_f16(w, in, true); }
int EMU_H(emu_op_v_cvt_norm_u16_f16)(emu_wave *w, const emu_insn *in) { return cvt_norm_f16(w, in, false); }
static int cvt_pknorm(emu_wave *w, const emu_insn *in, bool sgn, bool f16)
{
  float A[EMU_LANES], B[EMU_LANES];
  uint32_t d[EMU_LANES];
  if (f16) emu_srcf16(w, in, S0I, A), emu_srcf16(w, in, S0I + 1, B);
  else emu_srcf32(w, in, S0I, A), emu_srcf32(w, in, S0I + 1, B);
  L64 d[l] = sgn ? to_snorm(A[l]) | (uint32_t)to_snorm(B[l]) << 16 : to_unorm(A[l]) | (uint32_t)to_unorm(B[l]) << 16;
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_pknorm_i16_f32)(emu_wave *w, const emu_insn *in) { return cvt_pknorm(w, in, true, false); }
int EMU_H(emu_op_v_cvt_pknorm_u16_f32)(emu_wave *w, const emu_insn *in) { return cvt_pknorm(w, in, false, false); }
int EMU_H(emu_op_v_cvt_pknorm_i16_f16)(emu_wave *w, const emu_insn *in) { return cvt_pknorm(w, in, true, true); }
int EMU_H(emu_op_v_cvt_pknorm_u16_f16)(emu_wave *w, const emu_insn *in) { return cvt_pknorm(w, in, false, true); }
/* V_CVT_PK_I16_I32 / V_CVT_PK_U16_U32: {i32_to_i16(S1), i32_to_i16(S0)}; the guides leave
 * i32_to_i16 / u32_to_u16 undefined: lanelab saturates to the 16-bit range (the
 * cvt-pk-int-saturate choice; LLVM's GlobalISel lowers an i64 -> i16 clamp through
 * V_CVT_PK_I16_I32, which relies on it saturating each 32-bit half). */
int EMU_H(emu_op_v_cvt_pk_i16_i32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1);
  L64 {
    int32_t x = (int32_t)A[l], y = (int32_t)B[l];
    x = x < -32768 ? -32768 : x > 32767 ? 32767 : x;
    y = y < -32768 ? -32768 : y > 32767 ? 32767 : y;
    d[l] = ((uint32_t)x & 0xffff) | (uint32_t)y << 16;
  }
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_pk_u16_u32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1);
  L64 d[l] = (A[l] > 65535 ? 65535u : A[l]) | (B[l] > 65535 ? 65535u : B[l]) << 16;
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}
/* V_CVT_PKACCUM_U8_F32: D0.u32[8*S1[1:0] + 7 : 8*S1[1:0]] = f32_to_u8(S0.f32), the other bytes of
 * D0 kept ("uses src_c to pass destination in"); f32_to_u8 as v_cvt_pk_u8_f32's (the cvt-u8
 * choice). */
int EMU_H(emu_op_v_cvt_pkaccum_u8_f32)(emu_wave *w, const emu_insn *in) { return cvt_u8_into(w, in, emu_vreg(w, in, 0, 0)); }

/* v_prng_b32 (gfx950, CDNA4 ISA): one step of a 32-bit LFSR, D = (S0 << 1) ^ (S0[31] ? 197 : 0) */
int EMU_H(emu_op_v_prng_b32)(emu_wave *w, const emu_insn *in)
{
  uint32_t t[EMU_LANES], d[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t);
  L64 d[l] = (A[l] << 1) ^ ((A[l] >> 31) ? 197u : 0u);
  emu_dst32(w, in, 0, d);
  return EMU_OK;
}

/* ---- v_cvt_scalef32_* (gfx950, CDNA4 ISA "V_CVT_SCALEF32_*"; LLVM's gfx950 MC support and op_sel
 * syntax; gem5's MI355X model for the operand roles) ------------------------------------------------
 * The scale is the last source, an f32 of which the exponent field e is used as an E8M0 scale,
 * 2^(e-127) (e = 255: NaN), the mantissa being ignored (UNCONFIRMED for a scale that is not a power
 * of two; every MX scale is one). Up-conversions decode the narrow code (OCP fp8 E4M3FN, bf8 E5M2,
 * fp4 E2M1) and multiply by the scale, one rounding to the f32/f16/bf16 result. Down-conversions
 * divide by the scale (exact for a power of two) and encode as the unscaled conversions do: round
 * to nearest even; fp8/bf8 overflow as v_cvt_pk_fp8_f32 (NaN for fp8, inf for bf8); fp4 saturates to
 * ±6 (a NaN too: fp4 has no NaN code; a choice). Byte/word selects (the decoder's op_sel bits,
 * destination entry at bit 3):
 *   f32_fp8/bf8, f16_fp8/bf8  source byte op_sel[1:0]; f16: result in the high half with op_sel[3]
 *   pk_{f32,f16,bf16}_fp8/bf8 source word op_sel[0]; pk_*_fp4 source byte op_sel[1:0]
 *   pk_fp8/bf8_*              result word op_sel[3] (the other word kept)
 *   pk_fp4_*                  result byte op_sel[3:2] (the other bytes kept)
 * fp6/bf6 (OCP MX E2M3 / E3M2, no inf/NaN, saturating like fp4) come in blocks of 32: pk32_*_fp6/bf6
 * read 32 codes from 6 VGPRs, code i at bits 6i..6i+5 of the 192-bit little-endian value
 * (UNCONFIRMED: the packing is the natural reading, not checked on hardware), and write 32 f32 or
 * 16 packed f16/bf16 registers; pk32_fp6/bf6_f16/bf16 pack 16 registers of f16/bf16 pairs, and
 * 2xpk16_fp6/bf6_f32 16 f32 from src0 (codes 0..15) and 16 from src1 (codes 16..31, UNCONFIRMED
 * order), into 6 VGPRs. The stochastic-rounding forms (sr_*) share these encoders with a rounding
 * parameter (f8rnd): see "stochastic rounding" at the end of the file. */
enum { SC_FP8, SC_BF8, SC_FP4, SC_FP6, SC_BF6 };
enum { SD_F32, SD_F16, SD_BF16 };
static f8fmt sc_fmt(int t)
{
  if (t == SC_FP4) return (f8fmt){2, 1, 1, false, false, true};  /* E2M1 */
  if (t == SC_FP6) return (f8fmt){2, 3, 1, false, false, true};  /* E2M3, max 7.5 */
  if (t == SC_BF6) return (f8fmt){3, 2, 3, false, false, true};  /* E3M2, max 28 */
  return f8_format(EMU_GFX950, t == SC_BF8);
}
static double sc_scale(uint32_t bits)
{
  uint32_t e = bits >> 23 & 0xff;
  return e == 255 ? NAN : ldexp(1.0, (int)e - 127);
}
static uint32_t sc_out16(int d, double v)
{
  return d == SD_F16 ? emu_f32_to_f16((float)v) : emu_f32_to_bf16((float)v);
}
static double sc_in16(int d, uint32_t h)
{
  return d == SD_F16 ? emu_f16_to_f32((uint16_t)h) : emu_bf16_to_f32((uint16_t)h);
}

/* mantissa bits of a source type (stochastic rounding aligns the random value below them) */
static int sd_mb(int s) { return s == SD_F32 ? 23 : s == SD_F16 ? 10 : 7; }

/* up: n = 1 (one code) or 2 (a packed pair); d = result type */
static int scale_up(emu_wave *w, const emu_insn *in, int t, int d, int n)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t0), *S = emu_src32(w, in, S0I + 1, t1);
  f8fmt f = sc_fmt(t);
  int bits = t == SC_FP4 ? 4 : 8;
  unsigned sh = n == 1 || t == SC_FP4 ? 8u * (in->op_sel & 3) : 16u * (in->op_sel & 1);
  const uint32_t *e = emu_emask(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0), *d1 = n == 2 && d == SD_F32 ? emu_vreg(w, in, 0, 1) : NULL;
  L64 {
    if (!e[l]) continue;
    double sc = sc_scale(S[l]);
    /* the second code exists only for a pair (a single code may sit in the top byte: sh = 24) */
    double v0 = f8_decode(f, A[l] >> sh) * sc, v1 = n == 2 ? f8_decode(f, A[l] >> (sh + (unsigned)bits)) * sc : 0;
    if (d == SD_F32 && n == 1) d0[l] = emu_u32f((float)v0);
    else if (d == SD_F32) d0[l] = emu_u32f((float)v0), d1[l] = emu_u32f((float)v1);
    else if (n == 2) d0[l] = sc_out16(d, v0) | sc_out16(d, v1) << 16;
    else d0[l] = in->op_sel & 8 ? (d0[l] & 0xffffu) | sc_out16(d, v0) << 16 : (d0[l] & 0xffff0000u) | sc_out16(d, v0);
  }
  return EMU_OK;
}

/* down: s = source type (SD_F32: src0, src1 two f32 and src2 the scale; else src0 a packed pair and
 * src1 the scale); the pair goes to the selected word (fp8/bf8) or byte (fp4) of vdst */
static int scale_down(emu_wave *w, const emu_insn *in, int t, int s)
{
  uint32_t t0[EMU_LANES], t1[EMU_LANES], t2[EMU_LANES];
  const uint32_t *A = emu_src32(w, in, S0I, t0), *B = emu_src32(w, in, S0I + 1, t1);
  const uint32_t *S = s == SD_F32 ? emu_src32(w, in, S0I + 2, t2) : B;
  f8fmt f = sc_fmt(t);
  bool f4 = t == SC_FP4;
  unsigned sh = f4 ? 8u * (in->op_sel >> 2 & 3) : 16u * (in->op_sel >> 3 & 1), w2 = f4 ? 4u : 8u;
  uint32_t mask = (f4 ? 0xffu : 0xffffu) << sh;
  const uint32_t *e = emu_emask(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0);
  L64 {
    if (!e[l]) continue;
    double sc = sc_scale(S[l]);
    double x0 = s == SD_F32 ? emu_f32(A[l]) : sc_in16(s, A[l] & 0xffff);
    double x1 = s == SD_F32 ? emu_f32(B[l]) : sc_in16(s, A[l] >> 16);
    uint32_t p = f8_encode(f, (float)(x0 / sc), RNE) | f8_encode(f, (float)(x1 / sc), RNE) << w2;
    d0[l] = (d0[l] & ~mask) | (p << sh & mask);
  }
  return EMU_OK;
}

#define SCUP(name, t, d, n) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_up(w, in, t, d, n); }
#define SCDN(name, t, s) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_down(w, in, t, s); }
SCUP(v_cvt_scalef32_f32_fp8, SC_FP8, SD_F32, 1)
SCUP(v_cvt_scalef32_f32_bf8, SC_BF8, SD_F32, 1)
SCUP(v_cvt_scalef32_f16_fp8, SC_FP8, SD_F16, 1)
SCUP(v_cvt_scalef32_f16_bf8, SC_BF8, SD_F16, 1)
SCUP(v_cvt_scalef32_pk_f32_fp8, SC_FP8, SD_F32, 2)
SCUP(v_cvt_scalef32_pk_f32_bf8, SC_BF8, SD_F32, 2)
SCUP(v_cvt_scalef32_pk_f16_fp8, SC_FP8, SD_F16, 2)
SCUP(v_cvt_scalef32_pk_f16_bf8, SC_BF8, SD_F16, 2)
SCUP(v_cvt_scalef32_pk_bf16_fp8, SC_FP8, SD_BF16, 2)
SCUP(v_cvt_scalef32_pk_bf16_bf8, SC_BF8, SD_BF16, 2)
SCUP(v_cvt_scalef32_pk_f32_fp4, SC_FP4, SD_F32, 2)
SCUP(v_cvt_scalef32_pk_f16_fp4, SC_FP4, SD_F16, 2)
SCUP(v_cvt_scalef32_pk_bf16_fp4, SC_FP4, SD_BF16, 2)
SCDN(v_cvt_scalef32_pk_fp8_f32, SC_FP8, SD_F32)
SCDN(v_cvt_scalef32_pk_bf8_f32, SC_BF8, SD_F32)
SCDN(v_cvt_scalef32_pk_fp8_f16, SC_FP8, SD_F16)
SCDN(v_cvt_scalef32_pk_bf8_f16, SC_BF8, SD_F16)
SCDN(v_cvt_scalef32_pk_fp8_bf16, SC_FP8, SD_BF16)
SCDN(v_cvt_scalef32_pk_bf8_bf16, SC_BF8, SD_BF16)
SCDN(v_cvt_scalef32_pk_fp4_f32, SC_FP4, SD_F32)
SCDN(v_cvt_scalef32_pk_fp4_f16, SC_FP4, SD_F16)
SCDN(v_cvt_scalef32_pk_fp4_bf16, SC_FP4, SD_BF16)

/* fp6/bf6 blocks of 32 (see above): all sources are read before vdst is written (they may overlap) */
static bool sc_vregs(emu_wave *w, const emu_insn *in, int i, int n)
{
  const emu_opnd *o = &in->o[i];
  if ((o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) && o->n >= n) return true;
  emu_raise(w, in, "unimplemented", -1, 0, "operand %d: %d VGPRs expected", i, n);
  return false;
}

static int scale_up32(emu_wave *w, const emu_insn *in, int t, int d)
{
  int nout = d == SD_F32 ? 32 : 16;
  if (!sc_vregs(w, in, S0I, 6) || !sc_vregs(w, in, 0, nout)) return EMU_FAULT;
  uint32_t ts[EMU_LANES], out[32][EMU_LANES], r[6][EMU_LANES];
  const uint32_t *S = emu_src32(w, in, S0I + 1, ts);
  for (int k = 0; k < 6; k++) memcpy(r[k], emu_vreg(w, in, S0I, k), sizeof r[k]);
  f8fmt f = sc_fmt(t);
  memset(out, 0, sizeof out);
  L64 {
    double sc = sc_scale(S[l]);
    for (int i = 0; i < 32; i++) {
      int bit = 6 * i, wd = bit >> 5, sh = bit & 31;
      uint64_t v = (uint64_t)r[wd][l] >> sh;
      if (sh > 26) v |= (uint64_t)r[wd + 1][l] << (32 - sh);
      double x = f8_decode(f, (uint32_t)v & 63) * sc;
      if (d == SD_F32) out[i][l] = emu_u32f((float)x);
      else out[i >> 1][l] |= sc_out16(d, x) << (16 * (i & 1));
    }
  }
  const uint32_t *e = emu_emask(w);
  for (int k = 0; k < nout; k++) {
    uint32_t *dst = emu_vreg(w, in, 0, k);
    L64 if (e[l]) dst[l] = out[k][l];
  }
  return EMU_OK;
}

/* !sr: s = SD_F32: 2xpk16 (src0, src1 16 f32 each, scale src2); else pk32 from 16 packed registers
 * (scale src1). sr (v_cvt_scalef32_sr_pk32_*): src0 32 f32 registers (SD_F32) or 16 packed ones,
 * the random value src1 (the same one for all 32 codes), the scale src2. */
static int scale_down32(emu_wave *w, const emu_insn *in, int t, int s, bool sr)
{
  bool two = s == SD_F32 && !sr;
  if (!sc_vregs(w, in, 0, 6) || !sc_vregs(w, in, S0I, s == SD_F32 && sr ? 32 : 16) ||
      (two && !sc_vregs(w, in, S0I + 1, 16)))
    return EMU_FAULT;
  if (sr && (in->o[S0I].mods & (EMU_M_ABS | EMU_M_NEG)))
    return emu_raise(w, in, "unimplemented", -1, 0, "abs/neg on a block of 32 values is not modelled");
  uint32_t ts[EMU_LANES], tr[EMU_LANES], out[6][EMU_LANES];
  const uint32_t *S = emu_src32(w, in, S0I + (s == SD_F32 || sr ? 2 : 1), ts);
  const uint32_t *R = sr ? emu_src32(w, in, S0I + 1, tr) : NULL;
  f8fmt f = sc_fmt(t);
  memset(out, 0, sizeof out);
  L64 {
    double sc = sc_scale(S[l]);
    for (int i = 0; i < 32; i++) {
      double x = s != SD_F32 ? sc_in16(s, emu_vreg(w, in, S0I, i >> 1)[l] >> (16 * (i & 1)) & 0xffff)
                 : two      ? emu_f32(emu_vreg(w, in, S0I + i / 16, i % 16)[l])
                            : emu_f32(emu_vreg(w, in, S0I, i)[l]);
      uint64_t c = sr ? f8_encode(f, x / sc, sr_rnd(f, sd_mb(s), R[l])) : f8_encode(f, (float)(x / sc), RNE);
      int bit = 6 * i, wd = bit >> 5, sh = bit & 31;
      out[wd][l] |= (uint32_t)(c << sh);
      if (sh > 26) out[wd + 1][l] |= (uint32_t)(c >> (32 - sh));
    }
  }
  const uint32_t *e = emu_emask(w);
  for (int k = 0; k < 6; k++) {
    uint32_t *dst = emu_vreg(w, in, 0, k);
    L64 if (e[l]) dst[l] = out[k][l];
  }
  return EMU_OK;
}

#define SCUP32(name, t, d) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_up32(w, in, t, d); }
#define SCDN32(name, t, s) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_down32(w, in, t, s, false); }
SCUP32(v_cvt_scalef32_pk32_f32_fp6, SC_FP6, SD_F32)
SCUP32(v_cvt_scalef32_pk32_f32_bf6, SC_BF6, SD_F32)
SCUP32(v_cvt_scalef32_pk32_f16_fp6, SC_FP6, SD_F16)
SCUP32(v_cvt_scalef32_pk32_f16_bf6, SC_BF6, SD_F16)
SCUP32(v_cvt_scalef32_pk32_bf16_fp6, SC_FP6, SD_BF16)
SCUP32(v_cvt_scalef32_pk32_bf16_bf6, SC_BF6, SD_BF16)
SCDN32(v_cvt_scalef32_pk32_fp6_f16, SC_FP6, SD_F16)
SCDN32(v_cvt_scalef32_pk32_bf6_f16, SC_BF6, SD_F16)
SCDN32(v_cvt_scalef32_pk32_fp6_bf16, SC_FP6, SD_BF16)
SCDN32(v_cvt_scalef32_pk32_bf6_bf16, SC_BF6, SD_BF16)
SCDN32(v_cvt_scalef32_2xpk16_fp6_f32, SC_FP6, SD_F32)
SCDN32(v_cvt_scalef32_2xpk16_bf6_f32, SC_BF6, SD_F32)

/* ---- stochastic rounding (docs/emulator-choices.md "Stochastic rounding") -------------------------
 * v_cvt_sr_fp8/bf8_f32 vdst, f32, rnd (gfx942 FNUZ, gfx950 OCP): the code goes to byte op_sel[3:2]
 * of vdst, the other bytes kept. v_cvt_sr_f16/bf16_f32 vdst, f32, rnd (gfx950): the half op_sel[3],
 * the other half kept. v_cvt_scalef32_sr_* (gfx950) vdst, src, rnd, scale: src divided by the scale
 * (exact) and rounded stochastically, then as the RNE forms: fp8/bf8 to byte op_sel[3:2] (a 16-bit
 * source is the low half, the high one with op_sel[0]), pk_fp4 two codes (f32 pair src0, src0+1 or
 * the halves of one register) to byte op_sel[3:2], pk32_fp6/bf6 a block of 32 (scale_down32).
 * Every code of one instruction and lane uses the same random value. NaN, infinities, overflow and
 * subnormals as the RNE conversion of the same format (f8_encode; f16/bf16 NaN and inf through
 * emu_f32_to_f16/bf16). src0 abs/neg apply to the value's sign. */
static const f8fmt F16_FMT = {5, 10, 15, false, true, false}, BF16_FMT = {8, 7, 127, false, true, false};

static int cvt_sr_f8(emu_wave *w, const emu_insn *in, bool bf8)
{
  float A[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  const uint32_t *R = emu_src32(w, in, S0I + 1, t1);
  f8fmt f = f8_format(w->wg->arch, bf8);
  unsigned sh = 8u * (in->op_sel >> 2 & 3);
  const uint32_t *e = emu_emask(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0);
  L64 if (e[l]) {
    uint32_t c = f8_encode(f, A[l], sr_rnd(f, 23, R[l]));
    d0[l] = (d0[l] & ~(0xffu << sh)) | c << sh;
  }
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_sr_fp8_f32)(emu_wave *w, const emu_insn *in) { return cvt_sr_f8(w, in, false); }
int EMU_H(emu_op_v_cvt_sr_bf8_f32)(emu_wave *w, const emu_insn *in) { return cvt_sr_f8(w, in, true); }

static int cvt_sr_h16(emu_wave *w, const emu_insn *in, bool bf)
{
  float A[EMU_LANES];
  uint32_t t1[EMU_LANES];
  emu_srcf32(w, in, S0I, A);
  const uint32_t *R = emu_src32(w, in, S0I + 1, t1);
  f8fmt f = bf ? BF16_FMT : F16_FMT;
  unsigned sh = in->op_sel & 8 ? 16u : 0u;
  const uint32_t *e = emu_emask(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0);
  L64 if (e[l]) {
    float x = A[l];
    uint32_t h = isnan(x) || isinf(x) ? (bf ? emu_f32_to_bf16(x) : emu_f32_to_f16(x))
                                      : f8_encode(f, x, sr_rnd(f, 23, R[l]));
    d0[l] = (d0[l] & ~(0xffffu << sh)) | h << sh;
  }
  return EMU_OK;
}
int EMU_H(emu_op_v_cvt_sr_f16_f32)(emu_wave *w, const emu_insn *in) { return cvt_sr_h16(w, in, false); }
int EMU_H(emu_op_v_cvt_sr_bf16_f32)(emu_wave *w, const emu_insn *in) { return cvt_sr_h16(w, in, true); }

/* src0 of a scaled SR form as values: n = 1 (one value: an f32, or the 16-bit half op_sel[0]) or
 * 2 (fp4 pairs: two f32 from src0 and the next register, or the two halves of one) */
static void sr_src(emu_wave *w, const emu_insn *in, int s, int n, double (*x)[2])
{
  uint8_t mods = in->o[S0I].mods;
  if (s == SD_F32 && n == 1) {
    float A[EMU_LANES];
    emu_srcf32(w, in, S0I, A); /* abs/neg applied */
    L64 x[l][0] = A[l];
    return;
  }
  uint64_t t[EMU_LANES];
  uint32_t t32[EMU_LANES];
  if (s == SD_F32) emu_src64(w, in, S0I, t); /* the f32 pair: src0 and the next register */
  else {
    const uint32_t *a = emu_src32(w, in, S0I, t32);
    L64 t[l] = a[l];
  }
  L64 {
    uint32_t v[2];
    for (int k = 0; k < 2; k++) {
      uint32_t sb = s == SD_F32 ? 0x80000000u : 0x8000u;
      v[k] = s == SD_F32 ? (uint32_t)(t[l] >> (32 * k))
                         : (uint32_t)t[l] >> (16 * (n == 2 ? k : in->op_sel & 1)) & 0xffff;
      if (mods & EMU_M_ABS) v[k] &= ~sb;
      if (mods & EMU_M_NEG) v[k] ^= sb;
      x[l][k] = s == SD_F32 ? emu_f32(v[k]) : sc_in16(s, v[k]);
    }
  }
}

/* v_cvt_scalef32_sr_{fp8,bf8}_* (n = 1, byte op_sel[3:2]) and _sr_pk_fp4_* (n = 2) */
static int scale_sr(emu_wave *w, const emu_insn *in, int t, int s, int n)
{
  double x[EMU_LANES][2];
  uint32_t t1[EMU_LANES], t2[EMU_LANES];
  sr_src(w, in, s, n, x);
  const uint32_t *R = emu_src32(w, in, S0I + 1, t1), *S = emu_src32(w, in, S0I + 2, t2);
  f8fmt f = sc_fmt(t);
  unsigned sh = 8u * (in->op_sel >> 2 & 3);
  const uint32_t *e = emu_emask(w);
  uint32_t *d0 = emu_vreg(w, in, 0, 0);
  L64 if (e[l]) {
    double sc = sc_scale(S[l]);
    f8rnd r = sr_rnd(f, sd_mb(s), R[l]);
    uint32_t c = f8_encode(f, x[l][0] / sc, r);
    if (n == 2) c |= f8_encode(f, x[l][1] / sc, r) << 4;
    d0[l] = (d0[l] & ~(0xffu << sh)) | c << sh;
  }
  return EMU_OK;
}

#define SCSR(name, t, s, n) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_sr(w, in, t, s, n); }
#define SCSR32(name, t, s) \
  int EMU_H(emu_op_##name)(emu_wave *w, const emu_insn *in) { return scale_down32(w, in, t, s, true); }
SCSR(v_cvt_scalef32_sr_fp8_f32, SC_FP8, SD_F32, 1)
SCSR(v_cvt_scalef32_sr_bf8_f32, SC_BF8, SD_F32, 1)
SCSR(v_cvt_scalef32_sr_fp8_f16, SC_FP8, SD_F16, 1)
SCSR(v_cvt_scalef32_sr_bf8_f16, SC_BF8, SD_F16, 1)
SCSR(v_cvt_scalef32_sr_fp8_bf16, SC_FP8, SD_BF16, 1)
SCSR(v_cvt_scalef32_sr_bf8_bf16, SC_BF8, SD_BF16, 1)
SCSR(v_cvt_scalef32_sr_pk_fp4_f32, SC_FP4, SD_F32, 2)
SCSR(v_cvt_scalef32_sr_pk_fp4_f16, SC_FP4, SD_F16, 2)
SCSR(v_cvt_scalef32_sr_pk_fp4_bf16, SC_FP4, SD_BF16, 2)
SCSR32(v_cvt_scalef32_sr_pk32_fp6_f32, SC_FP6, SD_F32)
SCSR32(v_cvt_scalef32_sr_pk32_bf6_f32, SC_BF6, SD_F32)
SCSR32(v_cvt_scalef32_sr_pk32_fp6_f16, SC_FP6, SD_F16)
SCSR32(v_cvt_scalef32_sr_pk32_bf6_f16, SC_BF6, SD_F16)
SCSR32(v_cvt_scalef32_sr_pk32_fp6_bf16, SC_FP6, SD_BF16)
SCSR32(v_cvt_scalef32_sr_pk32_bf6_bf16, SC_BF6, SD_BF16)
