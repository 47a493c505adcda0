// hip/lanelab_hip_bf16.h — HIP's __hip_bfloat16 and __hip_bfloat162 for lanelab's HIP headers
// (included by hip/hip_runtime.h; hip/hip_bf16.h includes that).
//
// The types follow HIP's own definitions (ROCm's hip/amd_detail/amd_hip_bf16.h), written here
// from their documented layout and behaviour:
//   __hip_bfloat16   a struct of 2 bytes, 2-aligned, holding the bfloat16 bit pattern;
//                    constructible from float, double and the int/short types, convertible to
//                    float, bool and the integer types; + - * / and comparisons, host and device;
//   __hip_bfloat162  a struct of 4 bytes, 4-aligned, with public .x and .y (each a
//                    __hip_bfloat16); element-wise + - * /;
//   __hip_bfloat16_raw, __hip_bfloat162_raw  the raw bit views (.x, and .x/.y).
// float -> bfloat16 rounds to nearest even; a NaN stays a NaN (a payload lost in the low 16
// bits sets the lowest kept bit, as HIP does). double and the 32-bit integers round once: the
// double is first rounded to float with round-to-odd, which makes the second rounding
// innocuous. + - * / and sqrt compute in float and round once (float's 24 bits are at least
// 2p+2 for bfloat16's p = 8, so the result is correctly rounded); fma is a float fma and one
// rounding, which can differ from a single rounding of the exact value in rare halfway cases.
// As for __half, an intrinsic refuses a float or double argument where it takes a bfloat16.
#ifndef LANELAB_HIP_BF16_H
#define LANELAB_HIP_BF16_H

#define LL_HD static __host__ __device__ inline __attribute__((always_inline))
#define LL_D static __device__ inline __attribute__((always_inline))

typedef struct __attribute__((aligned(2))) {
  unsigned short x;
} __hip_bfloat16_raw;
typedef struct __attribute__((aligned(4))) {
  unsigned short x, y;
} __hip_bfloat162_raw;

namespace lanelab_hip {
__host__ __device__ inline float bf16_bits_to_f32(unsigned short b) {
  return __builtin_bit_cast(float, (unsigned)b << 16);
}
// Round to nearest even on the bit pattern; Inf stays Inf, a NaN whose payload sits only in the
// low 16 bits keeps a set bit so it does not become Inf.
__host__ __device__ inline unsigned short f32_to_bf16_bits(float f) {
  unsigned u = __builtin_bit_cast(unsigned, f);
  if ((u & 0x7f800000u) != 0x7f800000u) u += 0x7fffu + ((u >> 16) & 1u);
  else if (u & 0xffffu) u |= 0x10000u;
  return (unsigned short)(u >> 16);
}
// double -> float with round-to-odd (truncate, then set the last bit if anything was lost).
__host__ __device__ inline float f64_to_f32_odd(double d) {
  float f = (float)d;
  if ((double)f != d && d == d) {
    unsigned u = __builtin_bit_cast(unsigned, f);
    if (__builtin_fabs((double)f) > __builtin_fabs(d)) u -= 1u;
    f = __builtin_bit_cast(float, u | 1u);
  }
  return f;
}
// Directed rounding from the nearest-even value: 1 toward zero, 2 down, 3 up.
__host__ __device__ inline unsigned short bf16_directed(float f, int mode) {
  unsigned short b = f32_to_bf16_bits(f);
  if (mode == 0 || f != f) return b;
  const float back = bf16_bits_to_f32(b);
  const bool step = mode == 1 ? __builtin_fabsf(back) > __builtin_fabsf(f) : mode == 2 ? back > f : back < f;
  if (!step) return b;
  const bool up = mode == 3 || (mode == 1 && f < 0.0f);
  if ((b & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
  return ((b & 0x8000) != 0) == up ? (unsigned short)(b - 1) : (unsigned short)(b + 1);
}
} // namespace lanelab_hip

struct __attribute__((aligned(2))) __hip_bfloat16 {
protected:
  unsigned short __x;

public:
  __hip_bfloat16() = default;
  __host__ __device__ __hip_bfloat16(const __hip_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __hip_bfloat16(float f) : __x(lanelab_hip::f32_to_bf16_bits(f)) {}
  __host__ __device__ __hip_bfloat16(double d) : __x(lanelab_hip::f32_to_bf16_bits(lanelab_hip::f64_to_f32_odd(d))) {}
  __host__ __device__ __hip_bfloat16(int v) : __hip_bfloat16((double)v) {}
  __host__ __device__ __hip_bfloat16(unsigned int v) : __hip_bfloat16((double)v) {}
  __host__ __device__ __hip_bfloat16(short v) : __hip_bfloat16((float)v) {}
  __host__ __device__ __hip_bfloat16(unsigned short v) : __hip_bfloat16((float)v) {}

  __host__ __device__ operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{__x}; }
  __host__ __device__ operator __hip_bfloat16_raw() const volatile { return __hip_bfloat16_raw{__x}; }
  __host__ __device__ operator float() const { return lanelab_hip::bf16_bits_to_f32(__x); }
  __host__ __device__ explicit operator bool() const { return (__x & 0x7fff) != 0; }
  __host__ __device__ operator char() const { return (char)(float)*this; }
  __host__ __device__ operator signed char() const { return (signed char)(float)*this; }
  __host__ __device__ operator unsigned char() const { return (unsigned char)(float)*this; }
  __host__ __device__ operator short() const { return (short)(float)*this; }
  __host__ __device__ operator unsigned short() const { return (unsigned short)(float)*this; }
  __host__ __device__ operator int() const { return (int)(float)*this; }
  __host__ __device__ operator unsigned int() const { return (unsigned int)(float)*this; }
  __host__ __device__ operator long() const { return (long)(float)*this; }
  __host__ __device__ operator unsigned long() const { return (unsigned long)(float)*this; }
  __host__ __device__ operator long long() const { return (long long)(float)*this; }
  __host__ __device__ operator unsigned long long() const { return (unsigned long long)(float)*this; }

  __host__ __device__ __hip_bfloat16 &operator=(const __hip_bfloat16_raw &r) { __x = r.x; return *this; }
  __host__ __device__ volatile __hip_bfloat16 &operator=(const __hip_bfloat16_raw &r) volatile { __x = r.x; return *this; }
  __host__ __device__ __hip_bfloat16 &operator=(float f) { return *this = __hip_bfloat16(f); }
  __host__ __device__ __hip_bfloat16 &operator=(double d) { return *this = __hip_bfloat16(d); }
  __host__ __device__ __hip_bfloat16 &operator=(int v) { return *this = __hip_bfloat16(v); }
  __host__ __device__ __hip_bfloat16 &operator=(unsigned int v) { return *this = __hip_bfloat16(v); }
  __host__ __device__ __hip_bfloat16 &operator=(short v) { return *this = __hip_bfloat16(v); }
  __host__ __device__ __hip_bfloat16 &operator=(unsigned short v) { return *this = __hip_bfloat16(v); }
};

struct __attribute__((aligned(4))) __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  __host__ __device__ __hip_bfloat162(const __hip_bfloat162_raw &r)
      : x(__hip_bfloat16_raw{r.x}), y(__hip_bfloat16_raw{r.y}) {}
  __host__ __device__ __hip_bfloat162(const __hip_bfloat16 &a, const __hip_bfloat16 &b) : x(a), y(b) {}
  __host__ __device__ operator __hip_bfloat162_raw() const {
    return __hip_bfloat162_raw{((__hip_bfloat16_raw)x).x, ((__hip_bfloat16_raw)y).x};
  }
  __host__ __device__ operator float2() const { return float2{(float)x, (float)y}; }
  __host__ __device__ __hip_bfloat162 &operator=(const __hip_bfloat162_raw &r) { return *this = __hip_bfloat162(r); }
};
static_assert(sizeof(__hip_bfloat16) == 2 && alignof(__hip_bfloat16) == 2, "HIP's __hip_bfloat16 is 2 bytes, 2-aligned");
static_assert(sizeof(__hip_bfloat162) == 4 && alignof(__hip_bfloat162) == 4, "HIP's __hip_bfloat162 is 4 bytes, 4-aligned");

namespace lanelab_hip {
__host__ __device__ inline unsigned short bv(__hip_bfloat16 b) { return ((__hip_bfloat16_raw)b).x; }
__host__ __device__ inline __hip_bfloat16 bmk(unsigned short u) { return __hip_bfloat16(__hip_bfloat16_raw{u}); }
__host__ __device__ inline __hip_bfloat16 bround(float f) { return bmk(f32_to_bf16_bits(f)); }
template <> struct lossless<__hip_bfloat16, float> { static constexpr bool value = true; };
template <> struct lossless<__hip_bfloat16, double> { static constexpr bool value = true; };
} // namespace lanelab_hip

// ---- conversions ------------------------------------------------------------------------------
LL_HD float __bfloat162float(__hip_bfloat16 a) { return (float)a; }
LL_HD __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
LL_HD __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
LL_HD __hip_bfloat16 __float2bfloat16_rz(float f) { return lanelab_hip::bmk(lanelab_hip::bf16_directed(f, 1)); }
LL_HD __hip_bfloat16 __float2bfloat16_rd(float f) { return lanelab_hip::bmk(lanelab_hip::bf16_directed(f, 2)); }
LL_HD __hip_bfloat16 __float2bfloat16_ru(float f) { return lanelab_hip::bmk(lanelab_hip::bf16_directed(f, 3)); }
LL_HD __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); }
LL_HD float2 __bfloat1622float2(__hip_bfloat162 a) { return float2{(float)a.x, (float)a.y}; }
LL_HD __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
LL_HD __hip_bfloat162 __float2bfloat162_rn(float f) { return __hip_bfloat162(__hip_bfloat16(f), __hip_bfloat16(f)); }
LL_HD __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162(__hip_bfloat16(a), __hip_bfloat16(b)); }
LL_HD __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __hip_bfloat162(__hip_bfloat16(f.x), __hip_bfloat16(f.y)); }
LL_HD __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
LL_HD __hip_bfloat16 __low2bfloat16(__hip_bfloat162 a) { return a.x; }
LL_HD __hip_bfloat16 __high2bfloat16(__hip_bfloat162 a) { return a.y; }
LL_HD __hip_bfloat162 __low2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.x, a.x); }
LL_HD __hip_bfloat162 __high2bfloat162(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.y); }
LL_HD __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.x, b.x); }
LL_HD __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.y, b.y); }
LL_HD __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 a) { return __hip_bfloat162(a.y, a.x); }
LL_HD float __low2float(__hip_bfloat162 a) { return (float)a.x; }
LL_HD float __high2float(__hip_bfloat162 a) { return (float)a.y; }
LL_HD unsigned short __bfloat16_as_ushort(__hip_bfloat16 a) { return lanelab_hip::bv(a); }
LL_HD short __bfloat16_as_short(__hip_bfloat16 a) { return (short)lanelab_hip::bv(a); }
LL_HD __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { return lanelab_hip::bmk(u); }
// HIP's bfloat16 constants (hip/amd_detail/amd_hip_bf16.h), as bit patterns
#define HIPRT_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#define HIPRT_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define HIPRT_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define HIPRT_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define HIPRT_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define HIPRT_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define HIPRT_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
LL_HD __hip_bfloat16 __short_as_bfloat16(short s) { return lanelab_hip::bmk((unsigned short)s); }

// ---- arithmetic ---------------------------------------------------------------------------------
// Contraction is off inside each (see lanelab_hip_fp16.h).
#define LL_HIP_BBIN(fn, expr)                                                                     \
  LL_HD __hip_bfloat16 fn(__hip_bfloat16 a_, __hip_bfloat16 b_) {                                 \
    _Pragma("clang fp contract(off)") const float a = (float)a_, b = (float)b_;                   \
    return lanelab_hip::bround(expr);                                                              \
  }                                                                                                \
  LL_HIP_REFUSE_NARROW2(fn, __hip_bfloat16, __hip_bfloat16)
LL_HIP_BBIN(__hadd, a + b)
LL_HIP_BBIN(__hsub, a - b)
LL_HIP_BBIN(__hmul, a * b)
LL_HIP_BBIN(__hdiv, a / b)
LL_HIP_BBIN(__hmax, __builtin_fmaxf(a, b))
LL_HIP_BBIN(__hmin, __builtin_fminf(a, b))
#undef LL_HIP_BBIN
LL_HD __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  const float x = (float)a, y = (float)b;
  return x != x ? a : y != y ? b : __hmax(a, b);
}
LL_HD __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  const float x = (float)a, y = (float)b;
  return x != x ? a : y != y ? b : __hmin(a, b);
}
LL_HD __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return lanelab_hip::bround(__builtin_fmaf((float)a, (float)b, (float)c));
}
template <class A, class B, class C,
          typename lanelab_hip::enable_if<(lanelab_hip::wider_float<A>::value || lanelab_hip::wider_float<B>::value ||
                                           lanelab_hip::wider_float<C>::value) &&
                                          !lanelab_hip::same<A, __half>::value>::type * = nullptr>
__device__ __hip_bfloat16 __hfma(__hip_bfloat16, B, C) __attribute__((unavailable(
    "__hfma: every argument must be __hip_bfloat16; a float or double argument would be rounded silently")));
LL_HD __hip_bfloat16 __hneg(__hip_bfloat16 a) { return lanelab_hip::bmk((unsigned short)(lanelab_hip::bv(a) ^ 0x8000)); }
LL_HD __hip_bfloat16 __habs(__hip_bfloat16 a) { return lanelab_hip::bmk((unsigned short)(lanelab_hip::bv(a) & 0x7fff)); }
#define LL_HIP_B2(fn, one)                                                                        \
  LL_HD __hip_bfloat162 fn(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(one(a.x, b.x), one(a.y, b.y)); }
LL_HIP_B2(__hadd2, __hadd)
LL_HIP_B2(__hsub2, __hsub)
LL_HIP_B2(__hmul2, __hmul)
LL_HIP_B2(__h2div, __hdiv)
LL_HIP_B2(__hmax2, __hmax)
LL_HIP_B2(__hmin2, __hmin)
LL_HIP_B2(__hmax2_nan, __hmax_nan)
LL_HIP_B2(__hmin2_nan, __hmin_nan)
#undef LL_HIP_B2
LL_HD __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
LL_HD __hip_bfloat162 __hneg2(__hip_bfloat162 a) { return __hip_bfloat162(__hneg(a.x), __hneg(a.y)); }
LL_HD __hip_bfloat162 __habs2(__hip_bfloat162 a) { return __hip_bfloat162(__habs(a.x), __habs(a.y)); }

// Operators, host and device as HIP has them.
LL_HD __hip_bfloat16 operator+(const __hip_bfloat16 &a) { return a; }
LL_HD __hip_bfloat16 operator-(const __hip_bfloat16 &a) { return __hneg(a); }
LL_HD __hip_bfloat16 operator+(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hadd(a, b); }
LL_HD __hip_bfloat16 operator-(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hsub(a, b); }
LL_HD __hip_bfloat16 operator*(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hmul(a, b); }
LL_HD __hip_bfloat16 operator/(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hdiv(a, b); }
LL_HD __hip_bfloat16 &operator+=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hadd(a, b); }
LL_HD __hip_bfloat16 &operator-=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hsub(a, b); }
LL_HD __hip_bfloat16 &operator*=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hmul(a, b); }
LL_HD __hip_bfloat16 &operator/=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hdiv(a, b); }
LL_HD __hip_bfloat16 &operator++(__hip_bfloat16 &a) { return a = __hadd(a, __hip_bfloat16(1.0f)); }
LL_HD __hip_bfloat16 &operator--(__hip_bfloat16 &a) { return a = __hsub(a, __hip_bfloat16(1.0f)); }
LL_HD __hip_bfloat16 operator++(__hip_bfloat16 &a, int) { __hip_bfloat16 t = a; ++a; return t; }
LL_HD __hip_bfloat16 operator--(__hip_bfloat16 &a, int) { __hip_bfloat16 t = a; --a; return t; }
LL_HD __hip_bfloat162 operator+(const __hip_bfloat162 &a) { return a; }
LL_HD __hip_bfloat162 operator-(const __hip_bfloat162 &a) { return __hneg2(a); }
LL_HD __hip_bfloat162 operator+(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hadd2(a, b); }
LL_HD __hip_bfloat162 operator-(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hsub2(a, b); }
LL_HD __hip_bfloat162 operator*(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hmul2(a, b); }
LL_HD __hip_bfloat162 operator/(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __h2div(a, b); }
LL_HD __hip_bfloat162 &operator+=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hadd2(a, b); }
LL_HD __hip_bfloat162 &operator-=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hsub2(a, b); }
LL_HD __hip_bfloat162 &operator*=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hmul2(a, b); }
LL_HD __hip_bfloat162 &operator/=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __h2div(a, b); }

// ---- comparisons --------------------------------------------------------------------------------
// As for __half: ordered forms are false with a NaN, the u forms true; pair forms return 1.0 or
// 0.0 per element, the __hb forms a bool that holds for both.
#define LL_HIP_BCMP(name, op)                                                                     \
  LL_HD bool __h##name(__hip_bfloat16 a, __hip_bfloat16 b) { return (float)a op (float)b; }       \
  LL_HD bool __h##name##u(__hip_bfloat16 a, __hip_bfloat16 b) {                                   \
    const float x = (float)a, y = (float)b;                                                        \
    return x != x || y != y || x op y;                                                             \
  }                                                                                                \
  LL_HD __hip_bfloat162 __h##name##2(__hip_bfloat162 a, __hip_bfloat162 b) {                      \
    return __hip_bfloat162(__hip_bfloat16(__h##name(a.x, b.x) ? 1.0f : 0.0f),                      \
                           __hip_bfloat16(__h##name(a.y, b.y) ? 1.0f : 0.0f));                     \
  }                                                                                                \
  LL_HD __hip_bfloat162 __h##name##u2(__hip_bfloat162 a, __hip_bfloat162 b) {                     \
    return __hip_bfloat162(__hip_bfloat16(__h##name##u(a.x, b.x) ? 1.0f : 0.0f),                   \
                           __hip_bfloat16(__h##name##u(a.y, b.y) ? 1.0f : 0.0f));                  \
  }                                                                                                \
  LL_HD bool __hb##name##2(__hip_bfloat162 a, __hip_bfloat162 b) { return __h##name(a.x, b.x) && __h##name(a.y, b.y); } \
  LL_HD bool __hb##name##u2(__hip_bfloat162 a, __hip_bfloat162 b) {                               \
    return __h##name##u(a.x, b.x) && __h##name##u(a.y, b.y);                                       \
  }                                                                                                \
  LL_HIP_REFUSE_NARROW2(__h##name, __hip_bfloat16, bool)
LL_HIP_BCMP(eq, ==)
LL_HIP_BCMP(ne, !=)
LL_HIP_BCMP(lt, <)
LL_HIP_BCMP(le, <=)
LL_HIP_BCMP(gt, >)
LL_HIP_BCMP(ge, >=)
#undef LL_HIP_BCMP
LL_HD bool __hisnan(__hip_bfloat16 a) { return (lanelab_hip::bv(a) & 0x7fff) > 0x7f80; }
LL_HD bool __hisinf(__hip_bfloat16 a) { return (lanelab_hip::bv(a) & 0x7fff) == 0x7f80; }
LL_HD __hip_bfloat162 __hisnan2(__hip_bfloat162 a) {
  return __hip_bfloat162(__hip_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f), __hip_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f));
}
LL_HD bool operator==(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __heq(a, b); }
LL_HD bool operator!=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hne(a, b); }
LL_HD bool operator<(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hlt(a, b); }
LL_HD bool operator<=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hle(a, b); }
LL_HD bool operator>(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hgt(a, b); }
LL_HD bool operator>=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hge(a, b); }
LL_HD bool operator==(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbeq2(a, b); }
LL_HD bool operator!=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbne2(a, b); }
LL_HD bool operator<(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hblt2(a, b); }
LL_HD bool operator<=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hble2(a, b); }
LL_HD bool operator>(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbgt2(a, b); }
LL_HD bool operator>=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbge2(a, b); }

// ---- loads --------------------------------------------------------------------------------------
LL_D __hip_bfloat16 __ldg(const __hip_bfloat16 *p) { return *p; }
LL_D __hip_bfloat162 __ldg(const __hip_bfloat162 *p) { return *p; }
// unsafeAtomicAdd of a __hip_bfloat162, HIP's (ROCm/clr amd_hip_bf16.h): the hardware's packed bf16
// atomic add (flat/global_atomic_pk_add_bf16 on gfx942 and gfx950), returning the pair it replaced
LL_D __hip_bfloat162 unsafeAtomicAdd(__hip_bfloat162 *addr, __hip_bfloat162 value) {
  typedef short ll_s2 __attribute__((ext_vector_type(2)));
  const ll_s2 old = __builtin_amdgcn_flat_atomic_fadd_v2bf16((ll_s2 *)addr, __builtin_bit_cast(ll_s2, value));
  return __builtin_bit_cast(__hip_bfloat162, old);
}

// ---- math ---------------------------------------------------------------------------------------
// The float function on the exact float value, rounded once to bfloat16 (see lanelab_hip_fp16.h:
// within 1 float ULP, 2^-16 of a bfloat16 ULP).
#define LL_HIP_BMATH(name, expr)                                                                  \
  LL_D __hip_bfloat16 name(__hip_bfloat16 b) {                                                    \
    const float x = (float)b;                                                                      \
    return lanelab_hip::bround(expr);                                                              \
  }                                                                                                \
  LL_D __hip_bfloat162 h2##name##_b2_(__hip_bfloat162 b) { return __hip_bfloat162(name(b.x), name(b.y)); }
#define LL_HIP_BMATH2(suffix, expr)                                                               \
  LL_D __hip_bfloat16 h##suffix(__hip_bfloat16 b) {                                               \
    const float x = (float)b;                                                                      \
    return lanelab_hip::bround(expr);                                                              \
  }                                                                                                \
  LL_D __hip_bfloat162 h2##suffix(__hip_bfloat162 b) { return __hip_bfloat162(h##suffix(b.x), h##suffix(b.y)); }
LL_HIP_BMATH2(sqrt, __builtin_sqrtf(x))
#ifdef LANELAB_HIP_OCML // as ROCm's amd_hip_bf16.h: __ocml_rsqrt_f32 of the float, 1.0f / x in float
LL_HIP_BMATH2(rsqrt, rsqrtf(x))
LL_HIP_BMATH2(rcp, 1.0f / x)
#else
LL_HIP_BMATH2(rsqrt, (float)(1.0 / __builtin_sqrt((double)x)))
LL_HIP_BMATH2(rcp, (float)(1.0 / (double)x))
#endif
LL_HIP_BMATH2(exp, expf(x))
LL_HIP_BMATH2(exp2, exp2f(x))
LL_HIP_BMATH2(exp10, exp10f(x))
LL_HIP_BMATH2(log, logf(x))
LL_HIP_BMATH2(log2, log2f(x))
LL_HIP_BMATH2(log10, log10f(x))
LL_HIP_BMATH2(sin, sinf(x))
LL_HIP_BMATH2(cos, cosf(x))
LL_HIP_BMATH2(ceil, __builtin_ceilf(x))
LL_HIP_BMATH2(floor, __builtin_floorf(x))
LL_HIP_BMATH2(trunc, __builtin_truncf(x))
LL_HIP_BMATH2(rint, __builtin_rintf(x))
#undef LL_HIP_BMATH
#undef LL_HIP_BMATH2

#undef LL_HD
#undef LL_D
#endif // LANELAB_HIP_BF16_H
