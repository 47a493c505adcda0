// hip/lanelab_hip_intrin.h — HIP's device intrinsics beyond the core of hip/hip_runtime.h (which
// includes this): bit casts, conversions with a rounding mode, the correctly rounded and fast
// float forms, integer intrinsics (__byte_perm ...), the *_sync cross-lane forms, device abort. Names, types and semantics are HIP's: where HIP's definition is one clang builtin
// (clang's __clang_hip_math.h, which ROCm's HIP uses), the same builtin; where it is a ROCm
// device-library function, code written here to the function's documented meaning.
#ifndef LANELAB_HIP_INTRIN_H
#define LANELAB_HIP_INTRIN_H

#define LL_D static __device__ inline __attribute__((always_inline))
#define LL_HD static __host__ __device__ inline __attribute__((always_inline))

// ---- device abort ---------------------------------------------------------------------------------
// abort() traps (s_trap 2, which lanelab's emulator reports as a fault naming arch, kernel, PC,
// wave and lane, and file:line with -g). Device assert (__assert_fail, HIP's message, then a trap)
// is in hip/lanelab_hip_printf.h. <assert.h> comes with hip_runtime.h, as with ROCm.
#include <assert.h>
extern "C" __device__ __attribute__((weak, noreturn)) void abort() { __builtin_trap(); }

// ---- bit casts --------------------------------------------------------------------------------------
LL_HD int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
LL_HD unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
LL_HD float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
LL_HD float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
LL_HD long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
LL_HD double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
LL_HD int __double2hiint(double x) { return (int)(__builtin_bit_cast(unsigned long long, x) >> 32); }
LL_HD int __double2loint(double x) { return (int)__builtin_bit_cast(unsigned long long, x); }
LL_HD double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, (unsigned long long)(unsigned)hi << 32 | (unsigned)lo);
}

// ---- conversions with a rounding mode ---------------------------------------------------------------
// Floating -> integer: rounded in the mode (rn nearest even, rz toward zero, rd down, ru up), then
// saturated to the integer's range with NaN -> 0, which is what the hardware conversion HIP's
// code compiles to does (CDNA3 ISA, V_CVT_I32_F32: "clamps out-of-range values, NaN -> 0"); C++'s
// cast leaves those cases undefined. Integer/double -> float and integer -> double: the nearest
// value in the mode, exactly (the nearest-even conversion, then one step when it went the wrong
// way, decided by exact comparisons).
namespace lanelab_hip {
template <class I, class F> __device__ inline I f2i(F v, int mode) {
  if (v != v) return 0;
  v = mode == 0 ? __builtin_rint(v) : mode == 1 ? __builtin_trunc(v) : mode == 2 ? __builtin_floor(v) : __builtin_ceil(v);
  constexpr bool is_signed = (I)-1 < (I)0;
  constexpr int bits = (int)sizeof(I) * 8;
  // 2^(bits-1) and 2^bits are exact in float and double.
  const F top = is_signed ? (F)__builtin_ldexp(1.0, bits - 1) : (F)__builtin_ldexp(1.0, bits);
  if (v >= top) return is_signed ? (I)(~0ull >> (65 - bits)) : (I)~0ull;
  if (is_signed ? v < -top : v < (F)0) return is_signed ? (I)(1ull << (bits - 1)) : (I)0;
  return (I)v;
}
// One step of a float / double toward +inf (up) or -inf on its bit pattern.
template <class F, class U> __device__ inline F fstep(F f, bool up) {
  U b = __builtin_bit_cast(U, f);
  const U sign = (U)1 << (sizeof(U) * 8 - 1);
  if ((b & ~sign) == 0) return __builtin_bit_cast(F, (U)(up ? 1 : (sign | 1)));
  return __builtin_bit_cast(F, ((b & sign) != 0) == up ? (U)(b - 1) : (U)(b + 1));
}
// cmp < 0: the rounded value r is below the exact value; > 0 above; 0 exact.
template <class F, class U> __device__ inline F directed(F r, int cmp, int mode) {
  if (mode == 0 || cmp == 0 || r != r) return r;
  bool up;
  if (mode == 1) { // toward zero: step only if r is farther from zero than the exact value
    if ((r > 0) == (cmp > 0) && r != 0) up = r < 0;
    else return r;
  } else if (mode == 2) {
    if (cmp > 0) up = false;
    else return r;
  } else {
    if (cmp < 0) up = true;
    else return r;
  }
  return fstep<F, U>(r, up);
}
// Compare a float/double r (an integer value or infinity) with the integer v exactly.
template <class F, class I> __device__ inline int cmp_int(F r, I v) {
  constexpr bool is_signed = (I)-1 < (I)0;
  constexpr int bits = (int)sizeof(I) * 8;
  const F top = is_signed ? (F)__builtin_ldexp(1.0, bits - 1) : (F)__builtin_ldexp(1.0, bits);
  if (r >= top) return 1;
  if (is_signed && r < -top) return -1;
  const I ri = (I)r;
  return ri < v ? -1 : ri > v ? 1 : 0;
}
template <class I> __device__ inline float i2f(I v, int mode) {
  const float r = (float)v;
  return directed<float, unsigned>(r, cmp_int(r, v), mode);
}
template <class I> __device__ inline double i2d(I v, int mode) {
  const double r = (double)v;
  return directed<double, unsigned long long>(r, cmp_int(r, v), mode);
}
__device__ inline float d2f(double d, int mode) {
  const float r = (float)d;
  const double back = (double)r;
  return directed<float, unsigned>(r, d != d ? 0 : back < d ? -1 : back > d ? 1 : 0, mode);
}
} // namespace lanelab_hip

#define LL_HIP_F2I(src, S, name, I)                                                               \
  LL_D I __##src##2##name##_rn(S x) { return lanelab_hip::f2i<I, S>(x, 0); }                      \
  LL_D I __##src##2##name##_rz(S x) { return lanelab_hip::f2i<I, S>(x, 1); }                      \
  LL_D I __##src##2##name##_rd(S x) { return lanelab_hip::f2i<I, S>(x, 2); }                      \
  LL_D I __##src##2##name##_ru(S x) { return lanelab_hip::f2i<I, S>(x, 3); }
LL_HIP_F2I(float, float, int, int)
LL_HIP_F2I(float, float, uint, unsigned int)
LL_HIP_F2I(float, float, ll, long long)
LL_HIP_F2I(float, float, ull, unsigned long long)
LL_HIP_F2I(double, double, int, int)
LL_HIP_F2I(double, double, uint, unsigned int)
LL_HIP_F2I(double, double, ll, long long)
LL_HIP_F2I(double, double, ull, unsigned long long)
#undef LL_HIP_F2I
#define LL_HIP_I2F(name, I, to, T, fn)                                                            \
  LL_D T __##name##2##to##_rn(I v) { return lanelab_hip::fn(v, 0); }                              \
  LL_D T __##name##2##to##_rz(I v) { return lanelab_hip::fn(v, 1); }                              \
  LL_D T __##name##2##to##_rd(I v) { return lanelab_hip::fn(v, 2); }                              \
  LL_D T __##name##2##to##_ru(I v) { return lanelab_hip::fn(v, 3); }
LL_HIP_I2F(int, int, float, float, i2f)
LL_HIP_I2F(uint, unsigned int, float, float, i2f)
LL_HIP_I2F(ll, long long, float, float, i2f)
LL_HIP_I2F(ull, unsigned long long, float, float, i2f)
LL_HIP_I2F(ll, long long, double, double, i2d)
LL_HIP_I2F(ull, unsigned long long, double, double, i2d)
#undef LL_HIP_I2F
LL_D double __int2double_rn(int v) { return (double)v; }
LL_D double __uint2double_rn(unsigned int v) { return (double)v; }
LL_D float __double2float_rn(double d) { return lanelab_hip::d2f(d, 0); }
LL_D float __double2float_rz(double d) { return lanelab_hip::d2f(d, 1); }
LL_D float __double2float_rd(double d) { return lanelab_hip::d2f(d, 2); }
LL_D float __double2float_ru(double d) { return lanelab_hip::d2f(d, 3); }

// ---- correctly rounded float and double arithmetic ---------------------------------------------------
// The _rn forms round once to nearest even and are never contracted into an fma (that is their
// point: -ffp-contract=fast may fuse a plain a * b + c). clang's division and sqrt are correctly
// rounded (docs/hip-subset.md). HIP's __frsqrt_rn is the hardware reciprocal square root
// (v_rsq_f32, clang's __clang_hip_math.h), not a correctly rounded one, and so is lanelab's.
// The directed forms (_rz, _rd, _ru) of these are not provided.
LL_D float __fadd_rn(float a, float b) { _Pragma("clang fp contract(off)") return a + b; }
LL_D float __fsub_rn(float a, float b) { _Pragma("clang fp contract(off)") return a - b; }
LL_D float __fmul_rn(float a, float b) { _Pragma("clang fp contract(off)") return a * b; }
LL_D float __fdiv_rn(float a, float b) { return a / b; }
LL_D float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
LL_D float __frcp_rn(float a) { return 1.0f / a; }
LL_D float __fsqrt_rn(float a) { return __builtin_sqrtf(a); }
LL_D float __frsqrt_rn(float a) { return __builtin_amdgcn_rsqf(a); }
LL_D double __dadd_rn(double a, double b) { _Pragma("clang fp contract(off)") return a + b; }
LL_D double __dsub_rn(double a, double b) { _Pragma("clang fp contract(off)") return a - b; }
LL_D double __dmul_rn(double a, double b) { _Pragma("clang fp contract(off)") return a * b; }
LL_D double __ddiv_rn(double a, double b) { return a / b; }
LL_D double __fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }
LL_D double __drcp_rn(double a) { return 1.0 / a; }
LL_D double __dsqrt_rn(double a) { return __builtin_sqrt(a); }
#define LL_HIP_NO_DIRECTED(name)                                                                  \
  template <class... A> __device__ float name(A...) __attribute__((unavailable(                    \
      "not in lanelab's HIP headers: the directed-rounding forms (_rz, _rd, _ru) of the float "    \
      "arithmetic intrinsics are not provided; the _rn forms are (docs/hip-subset.md)")));
LL_HIP_NO_DIRECTED(__fadd_rz) LL_HIP_NO_DIRECTED(__fadd_rd) LL_HIP_NO_DIRECTED(__fadd_ru)
LL_HIP_NO_DIRECTED(__fsub_rz) LL_HIP_NO_DIRECTED(__fsub_rd) LL_HIP_NO_DIRECTED(__fsub_ru)
LL_HIP_NO_DIRECTED(__fmul_rz) LL_HIP_NO_DIRECTED(__fmul_rd) LL_HIP_NO_DIRECTED(__fmul_ru)
LL_HIP_NO_DIRECTED(__fdiv_rz) LL_HIP_NO_DIRECTED(__fdiv_rd) LL_HIP_NO_DIRECTED(__fdiv_ru)
LL_HIP_NO_DIRECTED(__fmaf_rz) LL_HIP_NO_DIRECTED(__fmaf_rd) LL_HIP_NO_DIRECTED(__fmaf_ru)
LL_HIP_NO_DIRECTED(__frcp_rz) LL_HIP_NO_DIRECTED(__frcp_rd) LL_HIP_NO_DIRECTED(__frcp_ru)
LL_HIP_NO_DIRECTED(__fsqrt_rz) LL_HIP_NO_DIRECTED(__fsqrt_rd) LL_HIP_NO_DIRECTED(__fsqrt_ru)
#undef LL_HIP_NO_DIRECTED

// ---- fast float forms -------------------------------------------------------------------------------
// As clang's __clang_hip_math.h defines them for HIP: __sinf/__cosf are the hardware sine and
// cosine (v_sin_f32 / v_cos_f32, whose input is in revolutions: x / 2 pi), __tanf their quotient
// through v_rcp_f32, __log2f one v_log_f32, __exp10f one v_exp_f32 of x log2(10); __powf and
// __log10f are the accurate powf and log10f; __saturatef clamps to [0, 1] (NaN -> 0).
LL_D float __sinf(float x) { return __builtin_amdgcn_sinf(x * 0.159154943091895335769f); }
LL_D float __cosf(float x) { return __builtin_amdgcn_cosf(x * 0.159154943091895335769f); }
LL_D float __tanf(float x) { return __sinf(x) * __builtin_amdgcn_rcpf(__cosf(x)); }
LL_D void __sincosf(float x, float *s, float *c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
LL_D float __log2f(float x) { return __builtin_amdgcn_logf(x); }
LL_D float __exp10f(float x) { return __builtin_amdgcn_exp2f(x * 3.32192809488736234787f); }
LL_D float __powf(float x, float y) { return powf(x, y); }
LL_D float __log10f(float x) { return log10f(x); }
LL_D float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x == x ? x : 0.0f; }

// ---- ROCm device-library functions that kernels call by name ---------------------------------------
// HIP's headers declare the device library's __ocml_*/__ockl_* functions, and some libraries call
// them directly (aiter: __ocml_exp_f32, __ocml_fma_f32, __ocml_native_recip_f32, __ockl_wfall_i32).
// With ROCm's device math library linked (LANELAB_HIP_OCML, lanelab_hip_math.h) the three __ocml_
// ones are the library's own. Without it they are defined here with the library's documented
// meaning: exp and fma as the accurate expf and fmaf, native_recip the hardware reciprocal
// (v_rcp_f32). ockl is not linked: wfall, "is the predicate non-zero in every active lane", is
// always defined here. Any other __ocml_/__ockl_ name is undeclared (lanelab_hip_math.h declares
// the ocml functions its math calls).
#ifdef LANELAB_HIP_OCML
extern "C" __device__ __attribute__((const)) float __ocml_exp_f32(float);
extern "C" __device__ __attribute__((const)) float __ocml_fma_f32(float, float, float);
extern "C" __device__ __attribute__((const)) float __ocml_native_recip_f32(float);
#else
extern "C" __device__ inline float __ocml_exp_f32(float x) { return __builtin_expf(x); }
extern "C" __device__ inline float __ocml_fma_f32(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
extern "C" __device__ inline float __ocml_native_recip_f32(float x) { return __builtin_amdgcn_rcpf(x); }
#endif
extern "C" __device__ inline int __ockl_wfall_i32(int p) {
  return __builtin_amdgcn_ballot_w64(p != 0) == __builtin_amdgcn_read_exec();
}

// ---- dot products ---------------------------------------------------------------------------------
// amd_mixed_dot, HIP's (ROCm/clr amd_math_functions.h, through ockl's sdot2 ... udot8): c plus the
// products of the elements, saturated to the result's range when saturate (the instructions' clamp):
// v_dot2_i32_i16, v_dot2_u32_u16, v_dot4_i32_i8, v_dot4_u32_u8, and for int and uint the eight
// signed or unsigned 4-bit fields of each word (v_dot8_i32_i4, v_dot8_u32_u4)
#define LL_HIP_DOT(R, A, builtin, get)                                                            \
  LL_D R amd_mixed_dot(A a, A b, R c, bool saturate) {                                             \
    return saturate ? builtin(get(a), get(b), c, true) : builtin(get(a), get(b), c, false);       \
  }
#define LL_HIP_DATA(v) (v).data
#define LL_HIP_WORD_I(v) __builtin_bit_cast(int, (v).data)
#define LL_HIP_WORD_U(v) __builtin_bit_cast(unsigned int, (v).data)
#define LL_HIP_SELF(v) (v)
LL_HIP_DOT(int, short2, __builtin_amdgcn_sdot2, LL_HIP_DATA)
LL_HIP_DOT(unsigned int, ushort2, __builtin_amdgcn_udot2, LL_HIP_DATA)
LL_HIP_DOT(int, char4, __builtin_amdgcn_sdot4, LL_HIP_WORD_I)
LL_HIP_DOT(unsigned int, uchar4, __builtin_amdgcn_udot4, LL_HIP_WORD_U)
LL_HIP_DOT(int, int, __builtin_amdgcn_sdot8, LL_HIP_SELF)
LL_HIP_DOT(unsigned int, unsigned int, __builtin_amdgcn_udot8, LL_HIP_SELF)
#undef LL_HIP_DOT
#undef LL_HIP_DATA
#undef LL_HIP_WORD_I
#undef LL_HIP_WORD_U
#undef LL_HIP_SELF

// ---- integer intrinsics ----------------------------------------------------------------------------
// __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of the 8 bytes y:x (x holds
// bytes 0-3); the fourth bit of each selector nibble and the high 16 bits of s are ignored
// (CUDA's definition, which HIP implements in software: AMD's v_perm_b32 numbers its selectors
// differently).
LL_D unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long v = (unsigned long long)y << 32 | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// Bit fields (ROCm's amd_device_functions.h): the offset and width are taken mod 32 (64); a width
// of 0 extracts 0 and inserts nothing; bits beyond the word are not there to extract.
// HIP defines these as (v << (bits - off - width)) >> (bits - width) (ROCm/clr f9f995c
// amd_device_functions.h); when off + width passes the width of v the left shift's count wraps, as
// the hardware's shifts take the count's low bits, which the masks below say without the C++
// undefined behaviour (found by AMD's hip-tests, whose reference is that formula on the host)
LL_D unsigned int __bitextract_u32(unsigned int v, unsigned int off, unsigned int width) {
  off &= 31, width &= 31;
  return width == 0 ? 0u : (v << ((32 - off - width) & 31)) >> ((32 - width) & 31);
}
LL_D unsigned long long __bitextract_u64(unsigned long long v, unsigned int off, unsigned int width) {
  off &= 63, width &= 63;
  return width == 0 ? 0ull : (v << ((64 - off - width) & 63)) >> ((64 - width) & 63);
}
LL_D unsigned int __bitinsert_u32(unsigned int dst, unsigned int src, unsigned int off, unsigned int width) {
  off &= 31, width &= 31;
  const unsigned int m = ((1u << width) - 1) << off;
  return (dst & ~m) | ((src << off) & m);
}
LL_D unsigned long long __bitinsert_u64(unsigned long long dst, unsigned long long src, unsigned int off,
                                        unsigned int width) {
  off &= 63, width &= 63;
  const unsigned long long m = ((1ull << width) - 1) << off;
  return (dst & ~m) | ((src << off) & m);
}
// The lowest set bit's index, or 0xffffffff for 0.
LL_D unsigned int __lastbit_u32_u64(unsigned long long v) { return v ? (unsigned int)__builtin_ctzll(v) : ~0u; }
// __fns: the position of the offset-th set bit of mask counted from bit base (inclusive) upward
// (offset > 0) or downward (offset < 0); offset 0: base itself if set. -1 when there is none.
namespace lanelab_hip {
template <int bits, class M> __device__ inline int fns(M mask, unsigned int base, int offset) {
  base &= bits - 1;
  if (offset == 0) return (mask >> base) & 1 ? (int)base : -1;
  int need = offset > 0 ? offset : -offset;
  for (int b = (int)base; b >= 0 && b < bits; b += offset > 0 ? 1 : -1)
    if ((mask >> b) & 1 && --need == 0) return b;
  return -1;
}
} // namespace lanelab_hip
LL_D int __fns32(unsigned int mask, unsigned int base, int offset) { return lanelab_hip::fns<32>(mask, base, offset); }
LL_D int __fns64(unsigned long long mask, unsigned int base, int offset) { return lanelab_hip::fns<64>(mask, base, offset); }
LL_D int __fns(unsigned int mask, unsigned int base, int offset) { return lanelab_hip::fns<32>(mask, base, offset); }
LL_D unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
LL_D unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
// Funnel shifts: the 64-bit hi:lo shifted, the high (l) or low (r) 32 bits kept; the shift is
// taken mod 32, or clamped to 32 (the c forms).
LL_D unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)((((unsigned long long)hi << 32 | lo) << (s & 31)) >> 32);
}
LL_D unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)((((unsigned long long)hi << 32 | lo) << (s > 32 ? 32 : s)) >> 32);
}
LL_D unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (s & 31));
}
LL_D unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (s > 32 ? 32 : s));
}
// Halving adds without overflow (the rh forms round up), 24-bit multiplies (the low 24 bits of
// each operand, sign-extended for __mul24), the high 64 bits of 64x64 products, and the sums of
// absolute differences.
LL_D int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
LL_D int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
LL_D unsigned int __uhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b) >> 1); }
LL_D unsigned int __urhadd(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a + b + 1) >> 1); }
LL_D int __mul24(int a, int b) { return ((int)((unsigned)a << 8) >> 8) * ((int)((unsigned)b << 8) >> 8); }
LL_D unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
LL_D long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
LL_D unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
LL_D unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? (long long)x - y : (long long)y - x); }
LL_D unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }

// ---- the *_sync cross-lane forms -------------------------------------------------------------------
// HIP (since ROCm 6.2; on by default since 7.0, off with HIP_DISABLE_WARP_SYNC_BUILTINS): each
// takes a 64-bit mask naming the lanes that take part (a narrower mask is a compile error: on a
// wave64 GPU it would silently drop lanes 32-63). The lanes that call the same instance with the
// same mask must be exactly the lanes of that mask, and the mask must not be 0: HIP asserts it,
// and so does lanelab (a failed check traps, as a failed device assert does). The operation
// itself is the unmasked one (__shfl_xor_sync(m, v, k) is __shfl_xor(v, k) among those lanes).
#if !defined(HIP_DISABLE_WARP_SYNC_BUILTINS)
namespace lanelab_hip {
template <class M> struct mask64 {
  static constexpr bool value = (__is_integral(M) && sizeof(M) == 8);
};
template <class T> __device__ inline T readfirstlane64(T v) {
  static_assert(sizeof(T) == 8, "readfirstlane64: a 64-bit value");
  const unsigned long long b = __builtin_bit_cast(unsigned long long, v);
  const unsigned lo = (unsigned)__builtin_amdgcn_readfirstlane((int)(unsigned)b);
  const unsigned hi = (unsigned)__builtin_amdgcn_readfirstlane((int)(unsigned)(b >> 32));
  return __builtin_bit_cast(T, (unsigned long long)hi << 32 | lo);
}
// Traps unless the mask is non-zero and, for every distinct mask value among the active lanes,
// the lanes holding it are exactly the lanes it names.
__device__ inline void check_mask(unsigned long long mask) {
  if (mask == 0) __builtin_trap();
  bool done = false;
  while (__builtin_amdgcn_ballot_w64(!done) != 0) {
    if (!done) {
      const unsigned long long chosen = readfirstlane64(mask);
      if (chosen == mask) {
        if (__builtin_amdgcn_ballot_w64(true) != mask) __builtin_trap();
        done = true;
      }
    }
  }
}
} // namespace lanelab_hip
#define LL_HIP_MASK_CHECK(fn, M)                                                                  \
  static_assert(lanelab_hip::mask64<M>::value,                                                    \
                #fn ": the mask must be a 64-bit integer (a wave is 64 lanes; a narrower mask "    \
                "would silently leave out lanes 32-63)");                                         \
  lanelab_hip::check_mask((unsigned long long)mask)
template <class M, class T> __device__ inline T __shfl_sync(M mask, T var, int src, int width = warpSize) {
  LL_HIP_MASK_CHECK(__shfl_sync, M);
  return __shfl(var, src, width);
}
template <class M, class T> __device__ inline T __shfl_up_sync(M mask, T var, unsigned int delta, int width = warpSize) {
  LL_HIP_MASK_CHECK(__shfl_up_sync, M);
  return __shfl_up(var, delta, width);
}
template <class M, class T> __device__ inline T __shfl_down_sync(M mask, T var, unsigned int delta, int width = warpSize) {
  LL_HIP_MASK_CHECK(__shfl_down_sync, M);
  return __shfl_down(var, delta, width);
}
template <class M, class T> __device__ inline T __shfl_xor_sync(M mask, T var, int lane_mask, int width = warpSize) {
  LL_HIP_MASK_CHECK(__shfl_xor_sync, M);
  return __shfl_xor(var, lane_mask, width);
}
template <class M> __device__ inline unsigned long long __ballot_sync(M mask, int predicate) {
  LL_HIP_MASK_CHECK(__ballot_sync, M);
  return __ballot(predicate) & (unsigned long long)mask;
}
template <class M> __device__ inline int __all_sync(M mask, int predicate) {
  LL_HIP_MASK_CHECK(__all_sync, M);
  return (__ballot(predicate) & (unsigned long long)mask) == (unsigned long long)mask;
}
template <class M> __device__ inline int __any_sync(M mask, int predicate) {
  LL_HIP_MASK_CHECK(__any_sync, M);
  return (__ballot(predicate) & (unsigned long long)mask) != 0;
}
// __syncwarp: a wave-scope release fence, the wave barrier (a no-op for a wave64 in lockstep,
// kept for the compiler's ordering) and an acquire fence, as HIP defines it.
LL_D void __syncwarp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
template <class M> __device__ inline void __syncwarp(M mask) {
  LL_HIP_MASK_CHECK(__syncwarp, M);
  __syncwarp();
}
// __match_any(v): the active lanes holding the same value; __match_all(v, &pred): all active
// lanes if every one holds the same value (pred = 1), else 0 (pred = 0). Values of 4 or 8 bytes,
// compared bit for bit (HIP compares with ==, under which a NaN never matches itself and its
// __match_any never ends; lanelab's matches identical NaNs, and tells -0 from +0).
namespace lanelab_hip {
template <class T> __device__ inline bool same_bits(T a, T b) {
  if constexpr (sizeof(T) == 8) return __builtin_bit_cast(unsigned long long, a) == __builtin_bit_cast(unsigned long long, b);
  else return __builtin_bit_cast(unsigned, a) == __builtin_bit_cast(unsigned, b);
}
} // namespace lanelab_hip
template <class T> __device__ inline unsigned long long __match_any(T value) {
  static_assert((__is_integral(T) || __is_floating_point(T)) && (sizeof(T) == 4 || sizeof(T) == 8),
                "__match_any: the value must be a 4- or 8-byte integer or floating type");
  bool done = false;
  unsigned long long r = 0;
  while (__builtin_amdgcn_ballot_w64(!done) != 0) {
    if (!done) {
      T chosen;
      if constexpr (sizeof(T) == 8) chosen = lanelab_hip::readfirstlane64(value);
      else chosen = __builtin_bit_cast(T, __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, value)));
      if (lanelab_hip::same_bits(chosen, value)) {
        r = __builtin_amdgcn_read_exec();
        done = true;
      }
    }
  }
  return r;
}
template <class M, class T> __device__ inline unsigned long long __match_any_sync(M mask, T value) {
  LL_HIP_MASK_CHECK(__match_any_sync, M);
  return __match_any(value) & (unsigned long long)mask;
}
template <class T> __device__ inline unsigned long long __match_all(T value, int *pred) {
  static_assert((__is_integral(T) || __is_floating_point(T)) && (sizeof(T) == 4 || sizeof(T) == 8),
                "__match_all: the value must be a 4- or 8-byte integer or floating type");
  T first;
  if constexpr (sizeof(T) == 8) first = lanelab_hip::readfirstlane64(value);
  else first = __builtin_bit_cast(T, __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, value)));
  const unsigned long long exec = __builtin_amdgcn_read_exec();
  const bool all = __builtin_amdgcn_ballot_w64(lanelab_hip::same_bits(first, value)) == exec;
  *pred = all;
  return all ? exec : 0;
}
// __match_all_sync runs __match_all among the lanes of each mask value in turn (HIP's waterfall),
// so "all" means all lanes of the caller's mask.
template <class M, class T> __device__ inline unsigned long long __match_all_sync(M mask, T value, int *pred) {
  static_assert(lanelab_hip::mask64<M>::value, "__match_all_sync: the mask must be a 64-bit integer (a wave is 64 "
                                               "lanes; a narrower mask would silently leave out lanes 32-63)");
  const unsigned long long m = (unsigned long long)mask;
  if (m == 0) __builtin_trap();
  unsigned long long r = 0;
  bool done = false;
  while (__builtin_amdgcn_ballot_w64(!done) != 0) {
    if (!done) {
      if (lanelab_hip::readfirstlane64(m) == m) {
        if (__builtin_amdgcn_ballot_w64(true) != m) __builtin_trap();
        r = __match_all(value, pred);
        done = true;
      }
    }
  }
  return r;
}
// __half2, __hip_bfloat16 and __hip_bfloat162 go through the generic template above by their
// overloads of __shfl*; __hip_bfloat16 and __hip_bfloat162 have no unmasked __shfl in HIP, so
// their *_sync forms move them as 16 / 32 bits here, as HIP's do.
#define LL_HIP_BF_SYNC(fn, base, A)                                                               \
  template <class M> __device__ inline __hip_bfloat16 fn(M mask, __hip_bfloat16 v, A a, int width = warpSize) { \
    LL_HIP_MASK_CHECK(fn, M);                                                                      \
    return __ushort_as_bfloat16((unsigned short)base((int)__bfloat16_as_ushort(v), a, width));    \
  }                                                                                                \
  template <class M> __device__ inline __hip_bfloat162 fn(M mask, __hip_bfloat162 v, A a, int width = warpSize) { \
    LL_HIP_MASK_CHECK(fn, M);                                                                      \
    return __builtin_bit_cast(__hip_bfloat162, base(__builtin_bit_cast(unsigned, v), a, width));  \
  }
LL_HIP_BF_SYNC(__shfl_sync, __shfl, int)
LL_HIP_BF_SYNC(__shfl_up_sync, __shfl_up, unsigned int)
LL_HIP_BF_SYNC(__shfl_down_sync, __shfl_down, unsigned int)
LL_HIP_BF_SYNC(__shfl_xor_sync, __shfl_xor, int)
#undef LL_HIP_BF_SYNC
#undef LL_HIP_MASK_CHECK
#else
#define LL_HIP_SYNC_OFF(name)                                                                     \
  template <class... A> __device__ void name(A...) __attribute__((unavailable(                     \
      "HIP_DISABLE_WARP_SYNC_BUILTINS is defined, which turns HIP's *_sync cross-lane forms off")));
LL_HIP_SYNC_OFF(__shfl_sync) LL_HIP_SYNC_OFF(__shfl_up_sync) LL_HIP_SYNC_OFF(__shfl_down_sync)
LL_HIP_SYNC_OFF(__shfl_xor_sync) LL_HIP_SYNC_OFF(__ballot_sync) LL_HIP_SYNC_OFF(__any_sync)
LL_HIP_SYNC_OFF(__all_sync) LL_HIP_SYNC_OFF(__syncwarp) LL_HIP_SYNC_OFF(__match_any_sync)
LL_HIP_SYNC_OFF(__match_all_sync)
#undef LL_HIP_SYNC_OFF
#endif

// __syncthreads_count / _and / _or: the barrier, and the count of (all of, any of) the block's
// threads whose predicate is non-zero, through a counter in LDS (as HIP does with its own
// __syncthreads_count).
LL_D int __syncthreads_count(int predicate) {
  __shared__ unsigned int count;
  if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
      __builtin_amdgcn_workitem_id_z() == 0)
    count = 0;
  __syncthreads();
  if (predicate) __hip_atomic_fetch_add(&count, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  const int r = (int)count;
  __syncthreads();
  return r;
}
LL_D int __syncthreads_and(int predicate) {
  return __syncthreads_count(predicate) ==
         (int)(__builtin_amdgcn_workgroup_size_x() * __builtin_amdgcn_workgroup_size_y() * __builtin_amdgcn_workgroup_size_z());
}
LL_D int __syncthreads_or(int predicate) { return __syncthreads_count(predicate) != 0; }

#undef LL_D
#undef LL_HD
#endif // LANELAB_HIP_INTRIN_H
