// hip/lanelab_hip_fp16.h — __half, __half2, __hip_bfloat16, __hip_bfloat162 for lanelab's HIP
// subset (included by hip/hip_runtime.h; hip/hip_fp16.h and hip/hip_bf16.h include it too).
//
// __half is clang's _Float16 (IEEE binary16) and __hip_bfloat16 is clang's __bf16, so arithmetic
// and comparisons work with the usual operators and every conversion rounds to nearest even.
// The paired types are 2-element clang vectors with .x and .y. The intrinsics take exactly their
// types: __hadd(__half, float) is refused instead of narrowing the float.
#ifndef LANELAB_HIP_FP16_H
#define LANELAB_HIP_FP16_H

typedef _Float16 __half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
typedef __half half;
typedef __half2 half2;
typedef __bf16 __hip_bfloat16;
typedef __bf16 __hip_bfloat162 __attribute__((ext_vector_type(2)));

// ---- conversions (round to nearest even) ---------------------------------------------------------
LL_HIP_FN __half __float2half(float f) { return (__half)f; }
LL_HIP_FN __half __float2half_rn(float f) { return (__half)f; }
LL_HIP_FN float __half2float(__half h) { return (float)h; }
LL_HIP_FN __half2 __float2half2_rn(float f) { return __half2{(__half)f, (__half)f}; }
LL_HIP_FN __half2 __floats2half2_rn(float a, float b) { return __half2{(__half)a, (__half)b}; }
LL_HIP_FN __half2 __float22half2_rn(float2 f) { return __half2{(__half)f.x, (__half)f.y}; }
LL_HIP_FN float2 __half22float2(__half2 h) { return float2{(float)h.x, (float)h.y}; }
LL_HIP_FN float __low2float(__half2 h) { return (float)h.x; }
LL_HIP_FN float __high2float(__half2 h) { return (float)h.y; }
LL_HIP_FN __half __low2half(__half2 h) { return h.x; }
LL_HIP_FN __half __high2half(__half2 h) { return h.y; }
LL_HIP_FN __half2 __halves2half2(__half a, __half b) { return __half2{a, b}; }
LL_HIP_FN __half2 __half2half2(__half a) { return __half2{a, a}; }
LL_HIP_FN unsigned short __half_as_ushort(__half h) { return __builtin_bit_cast(unsigned short, h); }
LL_HIP_FN __half __ushort_as_half(unsigned short u) { return __builtin_bit_cast(__half, u); }

LL_HIP_FN __hip_bfloat16 __float2bfloat16(float f) { return (__bf16)f; }
LL_HIP_FN float __bfloat162float(__hip_bfloat16 b) { return (float)b; }
LL_HIP_FN __hip_bfloat162 __float2bfloat162_rn(float f) { return __hip_bfloat162{(__bf16)(f), (__bf16)(f)}; }
LL_HIP_FN __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162{(__bf16)(a), (__bf16)(b)}; }
LL_HIP_FN __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __hip_bfloat162{(__bf16)(f.x), (__bf16)(f.y)}; }
LL_HIP_FN float2 __bfloat1622float2(__hip_bfloat162 b) { return float2{(float)b.x, (float)b.y}; }
LL_HIP_FN __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
LL_HIP_FN __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
LL_HIP_FN unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return __builtin_bit_cast(unsigned short, b); }
LL_HIP_FN __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __builtin_bit_cast(__hip_bfloat16, u); }

// ---- arithmetic ---------------------------------------------------------------------------------
// One template per intrinsic, for __half and __hip_bfloat16. + - * / of bf16 (and / of half) are
// computed in float and rounded once to the type; float has at least 2p+2 bits for both formats
// (p = 8, 11), so that double rounding still gives the correctly rounded result (Figueroa, "When
// is double rounding innocuous?", 1995). __hfma on bf16 is a float fma then a rounding, which can
// differ from a single rounding in rare halfway cases (docs/hip-subset.md).
namespace lanelab_hip {
template <class T> struct half_type {
  static constexpr bool value = same<T, _Float16>::value || same<T, __bf16>::value;
};
template <class T> struct half2_type {
  static constexpr bool value = same<T, __half2>::value || same<T, __hip_bfloat162>::value;
};
} // namespace lanelab_hip
#define LL_HIP_H_CHECK(fn, T, U)                                                                  \
  static_assert(lanelab_hip::same<T, U>::value && lanelab_hip::half_type<T>::value,               \
                #fn ": both arguments must be __half, or both __hip_bfloat16 (no conversion is made)")
#define LL_HIP_H2_CHECK(fn, T, U)                                                                 \
  static_assert(lanelab_hip::same<T, U>::value && lanelab_hip::half2_type<T>::value,              \
                #fn ": both arguments must be __half2, or both __hip_bfloat162 (no conversion is made)")
// Each intrinsic rounds its result: contraction is off inside it, so with HIP's default
// -ffp-contract=fast LLVM cannot fuse __hadd(__hmul(a, b), c) into one fma that skips the
// product's rounding (it did, for bf16 promoted to float on gfx942).
#define LL_HIP_HBIN(fn, expr)                                                                     \
  template <class T, class U> __device__ __forceinline__ T fn(T a, U b) {                         \
    _Pragma("clang fp contract(off)") LL_HIP_H_CHECK(fn, T, U);                                    \
    return (T)(expr);                                                                               \
  }
#define LL_HIP_H2BIN(fn, expr)                                                                    \
  template <class T, class U> __device__ __forceinline__ T fn(T a, U b) {                         \
    LL_HIP_H2_CHECK(fn, T, U);                                                                     \
    return expr;                                                                                   \
  }
LL_HIP_HBIN(__hadd, (float)a + (float)b)
LL_HIP_HBIN(__hsub, (float)a - (float)b)
LL_HIP_HBIN(__hmul, (float)a * (float)b)
LL_HIP_HBIN(__hdiv, (float)a / (float)b)
LL_HIP_HBIN(__hmax, __builtin_fmaxf((float)a, (float)b))
LL_HIP_HBIN(__hmin, __builtin_fminf((float)a, (float)b))
LL_HIP_H2BIN(__hadd2, (T{__hadd(a.x, b.x), __hadd(a.y, b.y)}))
LL_HIP_H2BIN(__hsub2, (T{__hsub(a.x, b.x), __hsub(a.y, b.y)}))
LL_HIP_H2BIN(__hmul2, (T{__hmul(a.x, b.x), __hmul(a.y, b.y)}))
template <class T, class U, class V> __device__ __forceinline__ T __hfma(T a, U b, V c) {
  LL_HIP_H_CHECK(__hfma, T, U);
  LL_HIP_H_CHECK(__hfma, T, V);
  if constexpr (lanelab_hip::same<T, _Float16>::value) return __builtin_fmaf16(a, b, c);
  else return (T)__builtin_fmaf((float)a, (float)b, (float)c);
}
template <class T, class U, class V> __device__ __forceinline__ T __hfma2(T a, U b, V c) {
  LL_HIP_H2_CHECK(__hfma2, T, U);
  LL_HIP_H2_CHECK(__hfma2, T, V);
  return T{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
template <class T> __device__ __forceinline__ T __hneg(T a) {
  static_assert(lanelab_hip::half_type<T>::value, "__hneg: the argument must be __half or __hip_bfloat16");
  return -a;
}
template <class T> __device__ __forceinline__ T __habs(T a) {
  static_assert(lanelab_hip::half_type<T>::value, "__habs: the argument must be __half or __hip_bfloat16");
  return __builtin_bit_cast(T, (unsigned short)(__builtin_bit_cast(unsigned short, a) & 0x7fff));
}
template <class T> __device__ __forceinline__ T __hneg2(T a) {
  static_assert(lanelab_hip::half2_type<T>::value, "__hneg2: the argument must be __half2 or __hip_bfloat162");
  return -a;
}
#define LL_HIP_HCMP(fn, op)                                                                       \
  template <class T, class U> __device__ __forceinline__ bool fn(T a, U b) {                      \
    LL_HIP_H_CHECK(fn, T, U);                                                                      \
    return a op b;                                                                                 \
  }
LL_HIP_HCMP(__heq, ==)
LL_HIP_HCMP(__hne, !=)
LL_HIP_HCMP(__hlt, <)
LL_HIP_HCMP(__hle, <=)
LL_HIP_HCMP(__hgt, >)
LL_HIP_HCMP(__hge, >=)
#undef LL_HIP_HCMP
#undef LL_HIP_HBIN
#undef LL_HIP_H2BIN
#undef LL_HIP_H_CHECK
#undef LL_HIP_H2_CHECK

#endif // LANELAB_HIP_FP16_H
