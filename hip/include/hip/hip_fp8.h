// hip/hip_fp8.h — HIP's 8-bit floating types for lanelab's HIP headers, written from HIP's
// documented interface (ROCm's hip/amd_detail/amd_hip_fp8.h and its "Low precision floating
// point types" guide):
//   __hip_fp8_e4m3, __hip_fp8_e5m2            OCP FP8 (E4M3: bias 7, no infinity, NaN S.1111.111,
//                                              largest 448; E5M2: bias 15, infinities, largest 57344)
//   __hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz  the FNUZ variants (bias 8 / 16, no infinity, no
//                                              negative zero, the one NaN 0x80; largest 240 / 57344)
//   the x2 and x4 forms (__hip_fp8x2_e4m3 ...), the storage typedefs, and the __hip_cvt_*
//   conversion functions with a saturation mode (__HIP_SATFINITE clamps finite values to the
//   largest finite, __HIP_NOSAT does not).
// Each type has the encoding its name says; which types the DEVICE supports depends on the arch,
// as in HIP: gfx942's conversion instructions (v_cvt_pk_fp8_f32 ...) implement FNUZ and gfx950's
// implement OCP, so on gfx942's device only the _fnuz types convert, on gfx950's only the OCP
// types (HIP_FP8_TYPE_FNUZ / HIP_FP8_TYPE_OCP say which, HIP_FP8_CVT_FAST_PATH is 1 on both).
// The device conversions are those instructions, as HIP's: round to nearest even, and with
// __HIP_SATFINITE the finite input is first clamped to +-largest (v_med3_f32). Using the other
// encoding's type in device code is a compile error naming it (HIP makes those members
// host-only); the __hip_cvt_* functions given the other encoding trap at run time (HIP asserts).
// On the host every type converts in software: round to nearest even, with an overflow (a value
// that rounds beyond the largest finite) giving the largest finite under __HIP_SATFINITE, else
// infinity (E5M2) or NaN (E4M3, FNUZ). (HIP's host software sends every value above the largest
// finite to infinity/NaN without __HIP_SATFINITE, even one that rounds down to it.)
#ifndef LANELAB_HIP_FP8_H
#define LANELAB_HIP_FP8_H
#include "hip/hip_runtime.h"

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx942__) || defined(__gfx950__))
#define HIP_FP8_CVT_FAST_PATH 1
#else
#define HIP_FP8_CVT_FAST_PATH 0
#endif
#if defined(__HIP_DEVICE_COMPILE__) && defined(__gfx942__)
#define HIP_FP8_TYPE_OCP 0
#define HIP_FP8_TYPE_FNUZ 1
#elif defined(__HIP_DEVICE_COMPILE__) && defined(__gfx950__)
#define HIP_FP8_TYPE_OCP 1
#define HIP_FP8_TYPE_FNUZ 0
#else
#define HIP_FP8_TYPE_OCP 1
#define HIP_FP8_TYPE_FNUZ 1
#endif

enum __hip_fp8_interpretation_t { __HIP_E4M3 = 0, __HIP_E5M2 = 1, __HIP_E4M3_FNUZ = 2, __HIP_E5M2_FNUZ = 3 };
enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 };
typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short int __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

namespace lanelab_fp8 {
// Format parameters: exponent bits, mantissa bits, bias, FNUZ, largest finite.
struct fmt {
  int we, wm, bias;
  bool fnuz;
  float max;
};
__host__ __device__ constexpr fmt format(__hip_fp8_interpretation_t i) {
  return i == __HIP_E4M3        ? fmt{4, 3, 7, false, 448.0f}
         : i == __HIP_E5M2      ? fmt{5, 2, 15, false, 57344.0f}
         : i == __HIP_E4M3_FNUZ ? fmt{4, 3, 8, true, 240.0f}
                                : fmt{5, 2, 16, true, 57344.0f};
}
__host__ __device__ constexpr bool is_e4(__hip_fp8_interpretation_t i) { return i == __HIP_E4M3 || i == __HIP_E4M3_FNUZ; }
__host__ __device__ constexpr bool native(__hip_fp8_interpretation_t i) {
  return (i == __HIP_E4M3_FNUZ || i == __HIP_E5M2_FNUZ) ? HIP_FP8_TYPE_FNUZ : HIP_FP8_TYPE_OCP;
}

// ---- software conversion (the host, and the reference for the format) -----------------------------
__host__ __device__ inline float sw_to_float(__hip_fp8_storage_t x, __hip_fp8_interpretation_t i) {
  const fmt f = format(i);
  const unsigned sign = x >> 7, e = (x >> f.wm) & ((1u << f.we) - 1), m = x & ((1u << f.wm) - 1);
  if (f.fnuz && x == 0x80) return __builtin_nanf("");
  if (!f.fnuz && f.we == 4 && (x & 0x7f) == 0x7f) return __builtin_nanf("");
  if (!f.fnuz && f.we == 5 && e == 31) return m ? __builtin_nanf("") : (sign ? -__builtin_inff() : __builtin_inff());
  const float v = e == 0 ? __builtin_ldexpf((float)m, 1 - f.bias - f.wm)
                         : __builtin_ldexpf((float)((1u << f.wm) | m), (int)e - f.bias - f.wm);
  return sign ? -v : v;
}
template <class F> __host__ __device__ inline __hip_fp8_storage_t sw_from(F x, bool sat, __hip_fp8_interpretation_t i) {
  const fmt f = format(i);
  const bool neg = __builtin_signbit(x);
  const unsigned char nan = f.fnuz ? 0x80 : (unsigned char)((neg ? 0x80 : 0) | 0x7f);
  if (x != x) return nan;
  const unsigned char top = (unsigned char)((neg ? 0x80 : 0) | (f.fnuz ? 0x7f : f.we == 4 ? 0x7e : 0x7b));
  const unsigned char inf = (unsigned char)((neg ? 0x80 : 0) | 0x7c);
  const unsigned char over = sat ? top : f.fnuz ? (unsigned char)0x80 : f.we == 4 ? nan : inf;
  F a = neg ? -x : x;
  // An infinity: NaN where the format has none, else infinity (saturation is for finite values).
  if (__builtin_isinf(a)) return f.fnuz || f.we == 4 ? nan : inf;
  const int emin = 1 - f.bias; // exponent of the smallest normal
  int e;
  (void)__builtin_frexp((double)a, &e); // a in [2^(e-1), 2^e)
  const int qexp = (e - 1 < emin ? emin : e - 1) - f.wm; // the quantum's exponent
  const F r = (F)__builtin_ldexp(__builtin_rint(__builtin_ldexp((double)a, -qexp)), qexp);
  if (r > (F)f.max) return over;
  if (r == 0) return f.fnuz ? 0 : (unsigned char)(neg ? 0x80 : 0);
  int er;
  (void)__builtin_frexp((double)r, &er);
  unsigned code;
  if (er - 1 < emin) code = (unsigned)__builtin_ldexp((double)r, f.bias - 1 + f.wm); // subnormal mantissa
  else code = (unsigned)(er - 1 + f.bias) << f.wm | ((unsigned)__builtin_ldexp((double)r, f.wm - (er - 1)) & ((1u << f.wm) - 1));
  return (unsigned char)((neg ? 0x80 : 0) | code);
}

// ---- the device: the arch's conversion instructions ------------------------------------------------
extern "C" __device__ void __lanelab_refused_fp8_ocp_on_gfx942() __attribute__((error(
    "not in lanelab's HIP headers for gfx942's device, as in HIP: the OCP fp8 types (__hip_fp8_e4m3, "
    "__hip_fp8_e5m2 and their x2/x4 forms) convert on the host only; gfx942's instructions implement "
    "FNUZ: use __hip_fp8_e4m3_fnuz / __hip_fp8_e5m2_fnuz (docs/hip-subset.md)")));
extern "C" __device__ void __lanelab_refused_fp8_fnuz_on_gfx950() __attribute__((error(
    "not in lanelab's HIP headers for gfx950's device, as in HIP: the FNUZ fp8 types "
    "(__hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz and their x2/x4 forms) convert on the host only; "
    "gfx950's instructions implement OCP: use __hip_fp8_e4m3 / __hip_fp8_e5m2 (docs/hip-subset.md)")));
#if HIP_FP8_CVT_FAST_PATH
__device__ inline float clamp_sat(float v, __hip_fp8_interpretation_t i) {
  // HIP clamps finite values only (an infinity or NaN goes to the instruction as it is).
  if ((__builtin_bit_cast(unsigned, v) & 0x7f800000u) == 0x7f800000u) return v;
  const float m = format(i).max;
  return __builtin_amdgcn_fmed3f(v, m, -m);
}
__device__ inline __hip_fp8x2_storage_t hw_pack2(float a, float b, bool sat, __hip_fp8_interpretation_t i) {
  if (sat) a = clamp_sat(a, i), b = clamp_sat(b, i);
  const int w = is_e4(i) ? __builtin_amdgcn_cvt_pk_fp8_f32(a, b, 0, false) : __builtin_amdgcn_cvt_pk_bf8_f32(a, b, 0, false);
  return (__hip_fp8x2_storage_t)(w & 0xffff);
}
__device__ inline float hw_unpack(__hip_fp8_storage_t x, __hip_fp8_interpretation_t i) {
  return is_e4(i) ? __builtin_amdgcn_cvt_f32_fp8((int)x, 0) : __builtin_amdgcn_cvt_f32_bf8((int)x, 0);
}
#endif
// Type members: the native encoding converts with the instructions, the other is refused at
// compile time (when the call reaches device code); the host converts in software.
template <__hip_fp8_interpretation_t I> __host__ __device__ inline void member_check() {
#if defined(__HIP_DEVICE_COMPILE__)
  if constexpr (!native(I)) {
#if defined(__gfx942__)
    __lanelab_refused_fp8_ocp_on_gfx942();
#else
    __lanelab_refused_fp8_fnuz_on_gfx950();
#endif
  }
#endif
}
template <__hip_fp8_interpretation_t I> __host__ __device__ inline __hip_fp8x2_storage_t to2(float a, float b, bool sat) {
  member_check<I>();
#if HIP_FP8_CVT_FAST_PATH
  if constexpr (native(I)) return hw_pack2(a, b, sat, I);
#endif
  return (__hip_fp8x2_storage_t)(sw_from(a, sat, I) | sw_from(b, sat, I) << 8);
}
template <__hip_fp8_interpretation_t I> __host__ __device__ inline __hip_fp8_storage_t to1(float a, bool sat) {
  return (__hip_fp8_storage_t)(to2<I>(a, a, sat) & 0xff);
}
template <__hip_fp8_interpretation_t I> __host__ __device__ inline __hip_fp8_storage_t to1d(double a, bool sat) {
  member_check<I>();
#if HIP_FP8_CVT_FAST_PATH
  // The instructions take a float: a double is first rounded to float with round-to-odd (so the
  // second rounding is innocuous).
  if constexpr (native(I)) {
    float f = (float)a;
    if ((double)f != a && a == a) {
      unsigned u = __builtin_bit_cast(unsigned, f);
      if (__builtin_fabs((double)f) > __builtin_fabs(a)) u -= 1u;
      f = __builtin_bit_cast(float, u | 1u);
    }
    return to1<I>(f, sat);
  }
#endif
  return sw_from(a, sat, I);
}
template <__hip_fp8_interpretation_t I> __host__ __device__ inline float from1(__hip_fp8_storage_t x) {
  member_check<I>();
#if HIP_FP8_CVT_FAST_PATH
  if constexpr (native(I)) return hw_unpack(x, I);
#endif
  return sw_to_float(x, I);
}
// Floating -> integer as HIP's members convert: NaN -> 0, clamped to the type's range.
template <class T> __host__ __device__ inline T to_int(float f) {
  if (f != f) return 0;
  const double lo = (double)(T)((T)-1 < (T)0 ? (T)((unsigned long long)1 << (sizeof(T) * 8 - 1)) : (T)0);
  const double hi = (double)(T)~(T)lo;
  const double d = (double)f;
  return d <= lo ? (T)lo : d >= hi ? (T)hi : (T)d;
}
} // namespace lanelab_fp8

// ---- conversion functions -------------------------------------------------------------------------
// Given the interpretation at run time: on the device the other encoding traps (HIP asserts).
namespace lanelab_fp8 {
__host__ __device__ inline bool runtime_supported(__hip_fp8_interpretation_t i) {
#if defined(__HIP_DEVICE_COMPILE__)
  if (!native(i)) __builtin_trap();
#endif
  (void)i;
  return true;
}
__host__ __device__ inline __hip_fp8x2_storage_t cvt2(float a, float b, bool sat, __hip_fp8_interpretation_t i) {
  runtime_supported(i);
#if HIP_FP8_CVT_FAST_PATH
  return hw_pack2(a, b, sat, i);
#else
  return (__hip_fp8x2_storage_t)(sw_from(a, sat, i) | sw_from(b, sat, i) << 8);
#endif
}
__host__ __device__ inline float cvt_back(__hip_fp8_storage_t x, __hip_fp8_interpretation_t i) {
  runtime_supported(i);
#if HIP_FP8_CVT_FAST_PATH
  return hw_unpack(x, i);
#else
  return sw_to_float(x, i);
#endif
}
} // namespace lanelab_fp8
#define LL_HD static inline __host__ __device__
LL_HD __hip_fp8_storage_t __hip_cvt_float_to_fp8(float f, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return (__hip_fp8_storage_t)(lanelab_fp8::cvt2(f, f, s == __HIP_SATFINITE, i) & 0xff);
}
LL_HD __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(float2 f, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return lanelab_fp8::cvt2(f.x, f.y, s == __HIP_SATFINITE, i);
}
LL_HD __hip_fp8_storage_t __hip_cvt_double_to_fp8(double d, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  lanelab_fp8::runtime_supported(i);
  const bool sat = s == __HIP_SATFINITE;
  if constexpr (HIP_FP8_TYPE_OCP) {
    if (i == __HIP_E4M3) return lanelab_fp8::to1d<__HIP_E4M3>(d, sat);
    if (i == __HIP_E5M2) return lanelab_fp8::to1d<__HIP_E5M2>(d, sat);
  }
  if constexpr (HIP_FP8_TYPE_FNUZ) {
    if (i == __HIP_E4M3_FNUZ) return lanelab_fp8::to1d<__HIP_E4M3_FNUZ>(d, sat);
    if (i == __HIP_E5M2_FNUZ) return lanelab_fp8::to1d<__HIP_E5M2_FNUZ>(d, sat);
  }
  return 0;
}
LL_HD __hip_fp8x2_storage_t __hip_cvt_double2_to_fp8x2(double2 d, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return (__hip_fp8x2_storage_t)(__hip_cvt_double_to_fp8(d.x, s, i) | __hip_cvt_double_to_fp8(d.y, s, i) << 8);
}
LL_HD __half_raw __hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t x, __hip_fp8_interpretation_t i) {
  return (__half_raw)__half(lanelab_fp8::cvt_back(x, i));
}
LL_HD __half2_raw __hip_cvt_fp8x2_to_halfraw2(__hip_fp8x2_storage_t x, __hip_fp8_interpretation_t i) {
  return (__half2_raw)__half2(__half(lanelab_fp8::cvt_back((__hip_fp8_storage_t)(x & 0xff), i)),
                              __half(lanelab_fp8::cvt_back((__hip_fp8_storage_t)(x >> 8), i)));
}
LL_HD __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(__half_raw h, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return __hip_cvt_float_to_fp8(__half2float(__half(h)), s, i);
}
LL_HD __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(__half2_raw h, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return __hip_cvt_float2_to_fp8x2(__half22float2(__half2(h)), s, i);
}
LL_HD __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(__hip_bfloat16_raw b, __hip_saturation_t s, __hip_fp8_interpretation_t i) {
  return __hip_cvt_float_to_fp8(__bfloat162float(__hip_bfloat16(b)), s, i);
}
LL_HD __hip_fp8x2_storage_t __hip_cvt_bfloat16raw2_to_fp8x2(__hip_bfloat162_raw b, __hip_saturation_t s,
                                                            __hip_fp8_interpretation_t i) {
  return __hip_cvt_float2_to_fp8x2(__bfloat1622float2(__hip_bfloat162(b)), s, i);
}
#undef LL_HD

// ---- the types ------------------------------------------------------------------------------------
#define LL_FP8_TYPE(T, I)                                                                         \
  struct T {                                                                                       \
    __hip_fp8_storage_t __x;                                                                       \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                    \
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;                           \
    static constexpr unsigned int __we = lanelab_fp8::format(I).we;                                 \
    static constexpr unsigned int __wm = lanelab_fp8::format(I).wm;                                 \
    T() = default;                                                                                 \
    __host__ __device__ T(float f) : __x(lanelab_fp8::to1<I>(f, true)) {}                          \
    __host__ __device__ T(double d) : __x(lanelab_fp8::to1d<I>(d, true)) {}                        \
    __host__ __device__ T(long v) : T((float)v) {}                                                 \
    __host__ __device__ T(int v) : T((float)v) {}                                                  \
    __host__ __device__ T(short v) : T((float)v) {}                                                \
    __host__ __device__ T(unsigned long v) : T((float)v) {}                                        \
    __host__ __device__ T(unsigned int v) : T((float)v) {}                                         \
    __host__ __device__ T(unsigned short v) : T((float)v) {}                                       \
    __host__ __device__ T(__hip_bfloat16 b) : T(__bfloat162float(b)) {}                           \
    __host__ __device__ T(__half h) : T(__half2float(h)) {}                                        \
    __host__ __device__ operator float() const { return lanelab_fp8::from1<I>(__x); }              \
    __host__ __device__ operator double() const { return (double)lanelab_fp8::from1<I>(__x); }     \
    __host__ __device__ operator __half() const { return __half(lanelab_fp8::from1<I>(__x)); }     \
    __host__ __device__ operator __hip_bfloat16() const { return __hip_bfloat16(lanelab_fp8::from1<I>(__x)); } \
    __host__ __device__ operator bool() const {                                                    \
      lanelab_fp8::member_check<I>();                                                              \
      return (__x & 0x7f) != 0 || (lanelab_fp8::format(I).fnuz && __x == 0x80);                   \
    }                                                                                              \
    __host__ __device__ operator char() const { return lanelab_fp8::to_int<char>((float)*this); }  \
    __host__ __device__ operator signed char() const { return lanelab_fp8::to_int<signed char>((float)*this); } \
    __host__ __device__ operator unsigned char() const { return lanelab_fp8::to_int<unsigned char>((float)*this); } \
    __host__ __device__ operator short() const { return lanelab_fp8::to_int<short>((float)*this); } \
    __host__ __device__ operator unsigned short() const { return lanelab_fp8::to_int<unsigned short>((float)*this); } \
    __host__ __device__ operator int() const { return lanelab_fp8::to_int<int>((float)*this); }    \
    __host__ __device__ operator unsigned int() const { return lanelab_fp8::to_int<unsigned int>((float)*this); } \
    __host__ __device__ operator long() const { return lanelab_fp8::to_int<long>((float)*this); }  \
    __host__ __device__ operator unsigned long() const { return lanelab_fp8::to_int<unsigned long>((float)*this); } \
    __host__ __device__ operator long long() const { return lanelab_fp8::to_int<long long>((float)*this); } \
    __host__ __device__ operator unsigned long long() const {                                      \
      return lanelab_fp8::to_int<unsigned long long>((float)*this);                                \
    }                                                                                              \
  };
#define LL_FP8X2_TYPE(T, I)                                                                       \
  struct T {                                                                                       \
    __hip_fp8x2_storage_t __x;                                                                     \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                    \
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;                           \
    static constexpr unsigned int __we = lanelab_fp8::format(I).we;                                 \
    static constexpr unsigned int __wm = lanelab_fp8::format(I).wm;                                 \
    T() = default;                                                                                 \
    __host__ __device__ T(float2 f) : __x(lanelab_fp8::to2<I>(f.x, f.y, true)) {}                  \
    __host__ __device__ T(double2 d)                                                               \
        : __x((__hip_fp8x2_storage_t)(lanelab_fp8::to1d<I>(d.x, true) | lanelab_fp8::to1d<I>(d.y, true) << 8)) {} \
    __host__ __device__ T(__half2 h) : T(__half22float2(h)) {}                                     \
    __host__ __device__ T(__hip_bfloat162 b) : T(__bfloat1622float2(b)) {}                         \
    __host__ __device__ operator float2() const {                                                  \
      return float2{lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x & 0xff)),                     \
                    lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x >> 8))};                       \
    }                                                                                              \
    __host__ __device__ operator __half2() const { return __float22half2_rn((float2) * this); }    \
  };
#define LL_FP8X4_TYPE(T, I)                                                                       \
  struct T {                                                                                       \
    __hip_fp8x4_storage_t __x;                                                                     \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                    \
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;                           \
    static constexpr unsigned int __we = lanelab_fp8::format(I).we;                                 \
    static constexpr unsigned int __wm = lanelab_fp8::format(I).wm;                                 \
    T() = default;                                                                                 \
    __host__ __device__ T(float4 f)                                                                \
        : __x((__hip_fp8x4_storage_t)lanelab_fp8::to2<I>(f.x, f.y, true) |                        \
              (__hip_fp8x4_storage_t)lanelab_fp8::to2<I>(f.z, f.w, true) << 16) {}                 \
    __host__ __device__ T(double4 d) /* each double converted once, as HIP's (no float between) */ \
        : __x((__hip_fp8x4_storage_t)lanelab_fp8::to1d<I>(d.x, true) |                           \
              (__hip_fp8x4_storage_t)lanelab_fp8::to1d<I>(d.y, true) << 8 |                       \
              (__hip_fp8x4_storage_t)lanelab_fp8::to1d<I>(d.z, true) << 16 |                      \
              (__hip_fp8x4_storage_t)lanelab_fp8::to1d<I>(d.w, true) << 24) {}                    \
    __host__ __device__ T(__half2 lo, __half2 hi)                                                  \
        : T(float4{__low2float(lo), __high2float(lo), __low2float(hi), __high2float(hi)}) {}      \
    __host__ __device__ T(__hip_bfloat162 lo, __hip_bfloat162 hi)                                  \
        : T(float4{__low2float(lo), __high2float(lo), __low2float(hi), __high2float(hi)}) {}      \
    __host__ __device__ operator float4() const {                                                  \
      return float4{lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x & 0xff)),                     \
                    lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x >> 8 & 0xff)),                 \
                    lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x >> 16 & 0xff)),                \
                    lanelab_fp8::from1<I>((__hip_fp8_storage_t)(__x >> 24))};                      \
    }                                                                                              \
  };
LL_FP8_TYPE(__hip_fp8_e4m3, __HIP_E4M3)
LL_FP8_TYPE(__hip_fp8_e5m2, __HIP_E5M2)
LL_FP8_TYPE(__hip_fp8_e4m3_fnuz, __HIP_E4M3_FNUZ)
LL_FP8_TYPE(__hip_fp8_e5m2_fnuz, __HIP_E5M2_FNUZ)
LL_FP8X2_TYPE(__hip_fp8x2_e4m3, __HIP_E4M3)
LL_FP8X2_TYPE(__hip_fp8x2_e5m2, __HIP_E5M2)
LL_FP8X2_TYPE(__hip_fp8x2_e4m3_fnuz, __HIP_E4M3_FNUZ)
LL_FP8X2_TYPE(__hip_fp8x2_e5m2_fnuz, __HIP_E5M2_FNUZ)
LL_FP8X4_TYPE(__hip_fp8x4_e4m3, __HIP_E4M3)
LL_FP8X4_TYPE(__hip_fp8x4_e5m2, __HIP_E5M2)
LL_FP8X4_TYPE(__hip_fp8x4_e4m3_fnuz, __HIP_E4M3_FNUZ)
LL_FP8X4_TYPE(__hip_fp8x4_e5m2_fnuz, __HIP_E5M2_FNUZ)
#undef LL_FP8_TYPE
#undef LL_FP8X2_TYPE
#undef LL_FP8X4_TYPE
static_assert(sizeof(__hip_fp8_e4m3) == 1 && sizeof(__hip_fp8x2_e4m3) == 2 && sizeof(__hip_fp8x4_e4m3) == 4,
              "HIP's fp8 types are 1, 2 and 4 bytes");

#endif // LANELAB_HIP_FP8_H
