// hip/lanelab_hip_fp16.h — HIP's __half and __half2 for lanelab's HIP headers (included by
// hip/hip_runtime.h; hip/hip_fp16.h includes that).
//
// The types follow HIP's own definitions (ROCm's hip/amd_detail/amd_hip_fp16.h), written here
// from their documented layout and behaviour:
//   __half     a struct of 2 bytes holding an IEEE binary16 (clang's _Float16), implicitly
//              constructible from and convertible to the floating and integer types, with
//              + - * / and comparisons on the device (as HIP: operators are device-only);
//   __half2    a struct of 4 bytes, 4-aligned, with public members .x and .y (each a __half),
//              constructible from two __half, + - * / element-wise on the device;
//   __half_raw, __half2_raw  the raw bit views (.x: unsigned short; .x/.y for the pair).
// The intrinsics have HIP's names and signatures and round each result once to binary16 (round
// to nearest even unless the name says otherwise: _rz toward zero, _rd down, _ru up). One rule
// is lanelab's own: an intrinsic refuses a float or double argument where HIP would round it to
// __half silently (__hadd(__half, float)): a compile error naming the intrinsic.
#ifndef LANELAB_HIP_FP16_H
#define LANELAB_HIP_FP16_H

#define LL_HD static __host__ __device__ inline __attribute__((always_inline))
#define LL_D static __device__ inline __attribute__((always_inline))

typedef _Float16 __ll_f16x2 __attribute__((ext_vector_type(2)));

struct __half_raw {
  union {
    _Float16 data;
    unsigned short x;
  };
};
struct __half2_raw {
  union {
    struct {
      __half_raw x, y;
    };
    __ll_f16x2 data;
  };
};

namespace lanelab_hip {
template <class T> struct is_arith_scalar {
  static constexpr bool value = __is_arithmetic(T) || same<T, _Float16>::value;
};
// HIP's __half converts from and to floating types (float, double, _Float16) and integer types.
template <bool C, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <class T> struct is_f16_convertible {
  static constexpr bool value = (__is_arithmetic(T) || same<T, _Float16>::value) && !same<T, bool>::value;
};
// Rounds f to binary16 in the direction the caller asks, from its round-to-nearest-even value
// (exact comparisons: the binary16 value converts to float exactly): 0 nearest, 1 toward zero,
// 2 down, 3 up. Stepping is on the bit pattern, which orders binary16 magnitudes.
__host__ __device__ inline unsigned short f16_step(unsigned short b, bool up) {
  // up: toward +inf; down: toward -inf
  const bool neg = b & 0x8000;
  if ((b & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
  return (neg == up) ? (unsigned short)(b - 1) : (unsigned short)(b + 1);
}
__host__ __device__ inline _Float16 f32_to_f16(float f, int mode) {
  const _Float16 h = (_Float16)f;
  if (mode == 0 || f != f) return h;
  const float back = (float)h;
  unsigned short b = __builtin_bit_cast(unsigned short, h);
  if (mode == 1) { // toward zero: the magnitude must not exceed |f|
    if (__builtin_fabsf(back) > __builtin_fabsf(f)) b = f16_step(b, f < 0.0f);
  } else if (mode == 2) {
    if (back > f) b = f16_step(b, false);
  } else {
    if (back < f) b = f16_step(b, true);
  }
  return __builtin_bit_cast(_Float16, b);
}
// An integer of any width to binary16, rounded to nearest even: |v| < 2^24 converts to float
// exactly and rounds once; beyond, the value exceeds binary16's largest finite (65504) by far, so
// the result is infinity.
template <class I> __host__ __device__ inline _Float16 int_to_f16(I v) {
  const bool neg = v < 0;
  unsigned long long mag = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
  if (mag < (1ull << 24)) return (_Float16)(neg ? -(float)mag : (float)mag);
  return __builtin_bit_cast(_Float16, (unsigned short)(neg ? 0xfc00 : 0x7c00));
}
// binary16 to an integer type toward zero, NaN -> 0, saturated to the type's range: the host's
// answer where C's conversion is undefined (the AMD instructions the device's conversion compiles
// to saturate and give 0 for NaN too)
template <class I> __host__ __device__ inline I f16_to_int(_Float16 h) {
  float f = (float)h;
  if (f != f) return 0;
  f = __builtin_truncf(f);
  const double lo = (I)0 < (I)-1 ? 0.0 : -(double)((I)1 << (sizeof(I) * 8 - 2)) * 2.0;
  const double hi = (I)0 < (I)-1 ? (double)(I)-1 : -lo - 1.0;
  if ((double)f <= lo) return (I)lo;
  if ((double)f >= hi) return (I)hi;
  return (I)f;
}
// HIP's integer <-> __half conversions are C's: on the device the conversion itself (the
// instructions a ROCm build of HIP's definition runs), on the host the functions above
template <class I> __host__ __device__ inline I h2i(_Float16 h) {
#if defined(__HIP_DEVICE_COMPILE__)
  return (I)h;
#else
  return f16_to_int<I>(h);
#endif
}
template <class I> __host__ __device__ inline _Float16 i2h(I v) {
#if defined(__HIP_DEVICE_COMPILE__)
  return (_Float16)v;
#else
  return int_to_f16(v);
#endif
}
} // namespace lanelab_hip

struct __half {
protected:
  union {
    _Float16 data;
    unsigned short __x;
  };

public:
  __half() = default;
  __host__ __device__ __half(const __half_raw &r) : data(r.data) {}
  __host__ __device__ __half(_Float16 f) : data(f) {}
  template <class T, typename lanelab_hip::enable_if<lanelab_hip::is_f16_convertible<T>::value &&
                                                       !lanelab_hip::same<T, _Float16>::value>::type * = nullptr>
  __host__ __device__ __half(T v) : data((_Float16)v) {}
  __half(const __half &) = default;
  __half(__half &&) = default;
  __half &operator=(const __half &) = default;
  __half &operator=(__half &&) = default;
  __host__ __device__ __half &operator=(const __half_raw &r) { data = r.data; return *this; }
  __host__ __device__ volatile __half &operator=(const __half_raw &r) volatile { data = r.data; return *this; }
  __host__ __device__ volatile __half &operator=(const volatile __half_raw &r) volatile { data = r.data; return *this; }
  // from rvalues too, plain and volatile (HIP's overload set: AMD's hip-tests ask
  // is_assignable<__half, volatile __half_raw &&>; the plain one keeps an rvalue __half_raw unambiguous)
  __host__ __device__ __half &operator=(__half_raw &&r) { data = r.data; return *this; }
  __host__ __device__ volatile __half &operator=(volatile __half_raw &&r) volatile { data = r.data; return *this; }
  template <class T, typename lanelab_hip::enable_if<lanelab_hip::is_f16_convertible<T>::value>::type * = nullptr>
  __host__ __device__ __half &operator=(T v) { data = (_Float16)v; return *this; }
  __host__ __device__ volatile __half &operator=(const __half &h) volatile { data = h.data; return *this; }

  template <class T, typename lanelab_hip::enable_if<lanelab_hip::is_f16_convertible<T>::value ||
                                                       lanelab_hip::same<T, bool>::value>::type * = nullptr>
  __host__ __device__ operator T() const { return (T)data; }
  __host__ __device__ operator __half_raw() const { return __half_raw{{data}}; }
  __host__ __device__ operator __half_raw() const volatile { return __half_raw{{data}}; }

  __device__ __half operator+() const { return *this; }
  __device__ __half operator-() const { return __half(-data); }
  __device__ __half &operator+=(const __half &o) { data = (_Float16)((float)data + (float)o.data); return *this; }
  __device__ __half &operator-=(const __half &o) { data = (_Float16)((float)data - (float)o.data); return *this; }
  __device__ __half &operator*=(const __half &o) { data = (_Float16)((float)data * (float)o.data); return *this; }
  __device__ __half &operator/=(const __half &o) { data = (_Float16)((float)data / (float)o.data); return *this; }
  __device__ __half &operator++() { data = (_Float16)((float)data + 1.0f); return *this; }
  __device__ __half &operator--() { data = (_Float16)((float)data - 1.0f); return *this; }
  __device__ __half operator++(int) { __half t = *this; ++*this; return t; }
  __device__ __half operator--(int) { __half t = *this; --*this; return t; }

  friend __device__ inline __half operator+(__half a, const __half &b) { return a += b; }
  friend __device__ inline __half operator-(__half a, const __half &b) { return a -= b; }
  friend __device__ inline __half operator*(__half a, const __half &b) { return a *= b; }
  friend __device__ inline __half operator/(__half a, const __half &b) { return a /= b; }
  // HIP's definitions: != is !(==), <= is !(b < a), >= is !(a < b): with a NaN operand != <= >=
  // are true (the intrinsics __hne, __hle, __hge are the IEEE ordered comparisons instead).
  friend __device__ inline bool operator==(const __half &a, const __half &b) { return a.data == b.data; }
  friend __device__ inline bool operator!=(const __half &a, const __half &b) { return !(a == b); }
  friend __device__ inline bool operator<(const __half &a, const __half &b) { return a.data < b.data; }
  friend __device__ inline bool operator>(const __half &a, const __half &b) { return b < a; }
  friend __device__ inline bool operator<=(const __half &a, const __half &b) { return !(b < a); }
  friend __device__ inline bool operator>=(const __half &a, const __half &b) { return !(a < b); }
};

struct __half2 {
  union {
    struct {
      __half x, y;
    };
    __ll_f16x2 data;
  };
  __half2() = default;
  __host__ __device__ __half2(const __half2_raw &r) : data(r.data) {}
  __host__ __device__ __half2(__ll_f16x2 v) : data(v) {}
  __host__ __device__ __half2(const __half &a, const __half &b)
      : data(__ll_f16x2{((__half_raw)a).data, ((__half_raw)b).data}) {}
  __half2(const __half2 &) = default;
  __half2(__half2 &&) = default;
  __half2 &operator=(const __half2 &) = default;
  __half2 &operator=(__half2 &&) = default;
  __host__ __device__ __half2 &operator=(const __half2_raw &r) { data = r.data; return *this; }
  __host__ __device__ operator __ll_f16x2() const { return data; }
  __host__ __device__ operator __half2_raw() const {
    __half2_raw r;
    r.data = data;
    return r;
  }

  __device__ __half2 operator+() const { return *this; }
  __device__ __half2 operator-() const { return __half2(-data); }
  __device__ __half2 &operator+=(const __half2 &o) { x += o.x; y += o.y; return *this; }
  __device__ __half2 &operator-=(const __half2 &o) { x -= o.x; y -= o.y; return *this; }
  __device__ __half2 &operator*=(const __half2 &o) { x *= o.x; y *= o.y; return *this; }
  __device__ __half2 &operator/=(const __half2 &o) { x /= o.x; y /= o.y; return *this; }
  __device__ __half2 &operator++() { ++x; ++y; return *this; }
  __device__ __half2 &operator--() { --x; --y; return *this; }
  __device__ __half2 operator++(int) { __half2 t = *this; ++*this; return t; }
  __device__ __half2 operator--(int) { __half2 t = *this; --*this; return t; }

  friend __device__ inline __half2 operator+(__half2 a, const __half2 &b) { return a += b; }
  friend __device__ inline __half2 operator-(__half2 a, const __half2 &b) { return a -= b; }
  friend __device__ inline __half2 operator*(__half2 a, const __half2 &b) { return a *= b; }
  friend __device__ inline __half2 operator/(__half2 a, const __half2 &b) { return a /= b; }
  // HIP's definitions: == and < hold when they hold for both halves; != > <= >= are derived
  // from them as for __half (so a <= b is "not (b < a in both halves)").
  friend __device__ inline bool operator==(const __half2 &a, const __half2 &b) { return a.x == b.x && a.y == b.y; }
  friend __device__ inline bool operator!=(const __half2 &a, const __half2 &b) { return !(a == b); }
  friend __device__ inline bool operator<(const __half2 &a, const __half2 &b) { return a.x < b.x && a.y < b.y; }
  friend __device__ inline bool operator>(const __half2 &a, const __half2 &b) { return b < a; }
  friend __device__ inline bool operator<=(const __half2 &a, const __half2 &b) { return !(b < a); }
  friend __device__ inline bool operator>=(const __half2 &a, const __half2 &b) { return !(a < b); }
};
static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "HIP's __half is 2 bytes, 2-aligned");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "HIP's __half2 is 4 bytes, 4-aligned");

typedef __half half;
typedef __half2 half2;

namespace lanelab_hip {
// The value inside a __half (its protected member, through the raw view).
__host__ __device__ inline _Float16 hv(__half h) { return ((__half_raw)h).data; }
__host__ __device__ inline __half hmk(_Float16 f) { return __half(__half_raw{{f}}); }
template <> struct lossless<__half, float> { static constexpr bool value = true; };
template <> struct lossless<__half, double> { static constexpr bool value = true; };
// A float or double where an intrinsic takes a __half: refused (it would round silently).
template <class T> struct wider_float {
  static constexpr bool value = same<typename strip<T>::type, float>::value || same<typename strip<T>::type, double>::value;
};
} // namespace lanelab_hip
// Declares the refusal of fn(ARGS with a float or double in place of a __half / __half2).
#define LL_HIP_REFUSE_NARROW1(fn, H)                                                              \
  template <class T, typename lanelab_hip::enable_if<lanelab_hip::wider_float<T>::value>::type * = nullptr> \
  __device__ H fn(T) __attribute__((unavailable(#fn ": takes a " #H "; a float or double argument would be " \
                                                    "rounded silently (convert it explicitly)")));
#define LL_HIP_REFUSE_NARROW2(fn, H, R)                                                           \
  template <class T, typename lanelab_hip::enable_if<lanelab_hip::wider_float<T>::value>::type * = nullptr> \
  __device__ R fn(H, T) __attribute__((unavailable(#fn ": both arguments must be " #H "; a float or double " \
                                                       "argument would be rounded silently")));   \
  template <class T, typename lanelab_hip::enable_if<lanelab_hip::wider_float<T>::value>::type * = nullptr> \
  __device__ R fn(T, H) __attribute__((unavailable(#fn ": both arguments must be " #H "; a float or double " \
                                                       "argument would be rounded silently")));

LL_HD __half2 make_half2(__half x, __half y) { return __half2(x, y); }
// unsafeAtomicAdd of a __half2, HIP's (ROCm/clr amd_hip_fp16.h): the hardware's packed f16 atomic
// add (flat/global_atomic_pk_add_f16 on gfx942 and gfx950), returning the pair it replaced
LL_D __half2 unsafeAtomicAdd(__half2 *addr, __half2 value) {
  return __half2(__builtin_amdgcn_flat_atomic_fadd_v2f16((__ll_f16x2 *)addr, value.data));
}
// amd_mixed_dot of two __half2, HIP's (ROCm/clr amd_hip_fp16.h, through ockl's fdot2): c plus the
// two products, v_dot2_f32_f16 (its clamp when saturate)
LL_D float amd_mixed_dot(__half2 a, __half2 b, float c, bool saturate) {
  return saturate ? __builtin_amdgcn_fdot2(a.data, b.data, c, true) : __builtin_amdgcn_fdot2(a.data, b.data, c, false);
}

// ---- conversions ------------------------------------------------------------------------------
LL_HD __half __float2half(float f) { return lanelab_hip::hmk((_Float16)f); }
LL_HD __half __float2half_rn(float f) { return lanelab_hip::hmk((_Float16)f); }
LL_HD __half __float2half_rz(float f) { return lanelab_hip::hmk(lanelab_hip::f32_to_f16(f, 1)); }
LL_HD __half __float2half_rd(float f) { return lanelab_hip::hmk(lanelab_hip::f32_to_f16(f, 2)); }
LL_HD __half __float2half_ru(float f) { return lanelab_hip::hmk(lanelab_hip::f32_to_f16(f, 3)); }
LL_HD __half __double2half(double d) { return lanelab_hip::hmk((_Float16)d); }
LL_HD float __half2float(__half h) { return (float)lanelab_hip::hv(h); }
LL_HD __half2 __float2half2_rn(float f) { return __half2(__float2half(f), __float2half(f)); }
LL_HD __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
LL_HD __half2 __float22half2_rn(float2 f) { return __half2(__float2half(f.x), __float2half(f.y)); }
LL_HD float2 __half22float2(__half2 h) { return float2{__half2float(h.x), __half2float(h.y)}; }
LL_HD float __low2float(__half2 h) { return __half2float(h.x); }
LL_HD float __high2float(__half2 h) { return __half2float(h.y); }
LL_HD __half __low2half(__half2 h) { return h.x; }
LL_HD __half __high2half(__half2 h) { return h.y; }
LL_HD __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
LL_HD __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
LL_HD __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
LL_HD __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
LL_HD __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }
LL_HD __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
LL_HD __half2 __half2half2(__half a) { return __half2(a, a); }
LL_HD unsigned short __half_as_ushort(__half h) { return ((__half_raw)h).x; }
LL_HD short __half_as_short(__half h) { return (short)((__half_raw)h).x; }
LL_HD __half __ushort_as_half(unsigned short u) { __half_raw r; r.x = u; return __half(r); }
LL_HD __half __short_as_half(short s) { return __ushort_as_half((unsigned short)s); }
LL_HIP_REFUSE_NARROW1(__half2half2, __half)

// Integer <-> __half, HIP's definitions (ROCm/clr hipamd/include/hip/amd_detail/amd_hip_fp16.h,
// f9f995c): the rounding suffix is not honoured. Every __half2<int>_r{n,z,d,u} is C's conversion,
// toward zero, and every __<int>2half_r{n,z,d,u} C's conversion, to nearest even; AMD's hip-tests
// compare all four against a cast (math/casting_half2int_funcs.cc, casting_int2half_funcs.cc).
// CUDA rounds by the suffix: code written for it gets other integers here, as it would on ROCm.
#define LL_HIP_I2H(name, I)                                                                       \
  LL_HD __half __##name##2half_rn(I v) { return lanelab_hip::hmk(lanelab_hip::i2h(v)); }          \
  LL_HD __half __##name##2half_rz(I v) { return __##name##2half_rn(v); }                          \
  LL_HD __half __##name##2half_rd(I v) { return __##name##2half_rn(v); }                          \
  LL_HD __half __##name##2half_ru(I v) { return __##name##2half_rn(v); }                          \
  LL_HD I __half2##name##_rz(__half h) { return lanelab_hip::h2i<I>(lanelab_hip::hv(h)); }       \
  LL_HD I __half2##name##_rn(__half h) { return __half2##name##_rz(h); }                          \
  LL_HD I __half2##name##_rd(__half h) { return __half2##name##_rz(h); }                          \
  LL_HD I __half2##name##_ru(__half h) { return __half2##name##_rz(h); }
LL_HIP_I2H(int, int)
LL_HIP_I2H(uint, unsigned int)
LL_HIP_I2H(short, short)
LL_HIP_I2H(ushort, unsigned short)
LL_HIP_I2H(ll, long long)
LL_HIP_I2H(ull, unsigned long long)
#undef LL_HIP_I2H

// ---- arithmetic ---------------------------------------------------------------------------------
// + - * / are computed in float and rounded once to binary16: float has at least 2p+2 bits of
// binary16's p = 11, so that double rounding still gives the correctly rounded result (Figueroa,
// "When is double rounding innocuous?", 1995). Contraction is off inside each intrinsic, so with
// HIP's default -ffp-contract=fast LLVM cannot fuse __hadd(__hmul(a, b), c) into one fma that
// skips the product's rounding. _sat clamps the result to [0, 1] as HIP's __clamp_01 does: below
// 0 gives +0, above 1 gives 1, anything else (NaN, -0) is kept.
namespace lanelab_hip {
__host__ __device__ inline _Float16 sat01(_Float16 v) {
  return v < (_Float16)0.0f ? (_Float16)0.0f : v > (_Float16)1.0f ? (_Float16)1.0f : v;
}
} // namespace lanelab_hip
#define LL_HIP_HBIN(fn, expr)                                                                     \
  LL_D __half fn(__half a_, __half b_) {                                                          \
    _Pragma("clang fp contract(off)") const float a = __half2float(a_), b = __half2float(b_);     \
    return lanelab_hip::hmk((_Float16)(expr));                                                     \
  }                                                                                                \
  LL_D __half fn##_sat(__half a_, __half b_) { return lanelab_hip::hmk(lanelab_hip::sat01(lanelab_hip::hv(fn(a_, b_)))); } \
  LL_D __half2 fn##2(__half2 a, __half2 b) { return __half2(fn(a.x, b.x), fn(a.y, b.y)); }        \
  LL_D __half2 fn##2_sat(__half2 a, __half2 b) { return __half2(fn##_sat(a.x, b.x), fn##_sat(a.y, b.y)); } \
  LL_HIP_REFUSE_NARROW2(fn, __half, __half)
LL_HIP_HBIN(__hadd, a + b)
LL_HIP_HBIN(__hsub, a - b)
LL_HIP_HBIN(__hmul, a * b)
#undef LL_HIP_HBIN
LL_D __half __hdiv(__half a, __half b) { return lanelab_hip::hmk((_Float16)(__half2float(a) / __half2float(b))); }
LL_D __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
LL_HIP_REFUSE_NARROW2(__hdiv, __half, __half)
// fma: binary16's own fused multiply-add (llvm.fma.f16: v_fma_f16 on the device), one rounding.
LL_D __half __hfma(__half a, __half b, __half c) {
  return lanelab_hip::hmk(__builtin_fmaf16(lanelab_hip::hv(a), lanelab_hip::hv(b), lanelab_hip::hv(c)));
}
LL_D __half __hfma_sat(__half a, __half b, __half c) { return lanelab_hip::hmk(lanelab_hip::sat01(lanelab_hip::hv(__hfma(a, b, c)))); }
LL_D __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
LL_D __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
template <class A, class B, class C,
          typename lanelab_hip::enable_if<lanelab_hip::wider_float<A>::value || lanelab_hip::wider_float<B>::value ||
                                          lanelab_hip::wider_float<C>::value>::type * = nullptr>
__device__ __half __hfma(A, B, C) __attribute__((unavailable(
    "__hfma: every argument must be __half; a float or double argument would be rounded silently")));
LL_D __half __hneg(__half a) { return lanelab_hip::hmk(-lanelab_hip::hv(a)); }
LL_D __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
LL_D __half __habs(__half a) { return __ushort_as_half((unsigned short)(__half_as_ushort(a) & 0x7fff)); }
LL_D __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
LL_HIP_REFUSE_NARROW1(__hneg, __half)
LL_HIP_REFUSE_NARROW1(__habs, __half)
// max/min: IEEE maxNum/minNum (a NaN operand yields the other); _nan: a NaN operand yields NaN.
LL_D __half __hmax(__half a, __half b) { return lanelab_hip::hmk((_Float16)__builtin_fmaxf(__half2float(a), __half2float(b))); }
LL_D __half __hmin(__half a, __half b) { return lanelab_hip::hmk((_Float16)__builtin_fminf(__half2float(a), __half2float(b))); }
LL_D __half __hmax_nan(__half a, __half b) {
  const float x = __half2float(a), y = __half2float(b);
  return x != x ? a : y != y ? b : __hmax(a, b);
}
LL_D __half __hmin_nan(__half a, __half b) {
  const float x = __half2float(a), y = __half2float(b);
  return x != x ? a : y != y ? b : __hmin(a, b);
}
LL_D __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
LL_D __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
LL_D __half2 __hmax2_nan(__half2 a, __half2 b) { return __half2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)); }
LL_D __half2 __hmin2_nan(__half2 a, __half2 b) { return __half2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)); }
LL_HIP_REFUSE_NARROW2(__hmax, __half, __half)
LL_HIP_REFUSE_NARROW2(__hmin, __half, __half)

// ---- comparisons --------------------------------------------------------------------------------
// Ordered forms are false when either operand is NaN; the u forms (unordered) are true then.
// The pair forms return 1.0 or 0.0 per half (__heq2 ...), or a bool that holds for both halves
// (__hbeq2 ...). Host and device, as in ROCm 6's amd_hip_fp16.h (its relations are
// __HOST_DEVICE__; AMD's hip-tests compare __half2 results with __hbeq2 on the host).
#define LL_HIP_HCMP(name, op)                                                                      \
  LL_HD bool __h##name(__half a, __half b) { return __half2float(a) op __half2float(b); }          \
  LL_HD bool __h##name##u(__half a, __half b) {                                                    \
    const float x = __half2float(a), y = __half2float(b);                                          \
    return x != x || y != y || x op y;                                                             \
  }                                                                                                \
  LL_HD __half2 __h##name##2(__half2 a, __half2 b) {                                               \
    return __half2(__half(__h##name(a.x, b.x) ? 1.0f : 0.0f), __half(__h##name(a.y, b.y) ? 1.0f : 0.0f)); \
  }                                                                                                \
  LL_HD __half2 __h##name##u2(__half2 a, __half2 b) {                                              \
    return __half2(__half(__h##name##u(a.x, b.x) ? 1.0f : 0.0f), __half(__h##name##u(a.y, b.y) ? 1.0f : 0.0f)); \
  }                                                                                                \
  LL_HD bool __hb##name##2(__half2 a, __half2 b) { return __h##name(a.x, b.x) && __h##name(a.y, b.y); } \
  LL_HD bool __hb##name##u2(__half2 a, __half2 b) { return __h##name##u(a.x, b.x) && __h##name##u(a.y, b.y); } \
  LL_HIP_REFUSE_NARROW2(__h##name, __half, bool)
LL_HIP_HCMP(eq, ==)
LL_HIP_HCMP(ne, !=)
LL_HIP_HCMP(lt, <)
LL_HIP_HCMP(le, <=)
LL_HIP_HCMP(gt, >)
LL_HIP_HCMP(ge, >=)
#undef LL_HIP_HCMP
// __hne is ordered (false with a NaN), like every ordered form.
LL_HD bool __hisnan(__half a) { const float x = __half2float(a); return x != x; }
LL_HD bool __hisinf(__half a) { return (__half_as_ushort(a) & 0x7fff) == 0x7c00; }
LL_HD __half2 __hisnan2(__half2 a) { return __half2(__half(__hisnan(a.x) ? 1.0f : 0.0f), __half(__hisnan(a.y) ? 1.0f : 0.0f)); }
LL_HD __half2 __hisinf2(__half2 a) { return __half2(__half(__hisinf(a.x) ? 1.0f : 0.0f), __half(__hisinf(a.y) ? 1.0f : 0.0f)); }

// ---- loads ------------------------------------------------------------------------------------
// Plain loads, as HIP defines the cache-hint forms on AMD.
LL_D __half __ldg(const __half *p) { return *p; }
LL_D __half2 __ldg(const __half2 *p) { return *p; }
LL_D __half __ldca(const __half *p) { return *p; }
LL_D __half2 __ldca(const __half2 *p) { return *p; }
LL_D __half __ldcg(const __half *p) { return *p; }
LL_D __half2 __ldcg(const __half2 *p) { return *p; }
LL_D __half __ldcs(const __half *p) { return *p; }
LL_D __half2 __ldcs(const __half2 *p) { return *p; }

// ---- cross-lane -----------------------------------------------------------------------------------
// The 16 bits of a __half move as the low half of a dword, a __half2 as one dword (HIP's
// definitions).
LL_D __half __shfl(__half v, int src, int width = warpSize) {
  return __ushort_as_half((unsigned short)__shfl((int)__half_as_ushort(v), src, width));
}
LL_D __half __shfl_up(__half v, unsigned d, int width = warpSize) {
  return __ushort_as_half((unsigned short)__shfl_up((int)__half_as_ushort(v), d, width));
}
LL_D __half __shfl_down(__half v, unsigned d, int width = warpSize) {
  return __ushort_as_half((unsigned short)__shfl_down((int)__half_as_ushort(v), d, width));
}
LL_D __half __shfl_xor(__half v, int m, int width = warpSize) {
  return __ushort_as_half((unsigned short)__shfl_xor((int)__half_as_ushort(v), m, width));
}
LL_D __half2 __shfl(__half2 v, int src, int width = warpSize) {
  return __builtin_bit_cast(__half2, __shfl(__builtin_bit_cast(unsigned, v), src, width));
}
LL_D __half2 __shfl_up(__half2 v, unsigned d, int width = warpSize) {
  return __builtin_bit_cast(__half2, __shfl_up(__builtin_bit_cast(unsigned, v), d, width));
}
LL_D __half2 __shfl_down(__half2 v, unsigned d, int width = warpSize) {
  return __builtin_bit_cast(__half2, __shfl_down(__builtin_bit_cast(unsigned, v), d, width));
}
LL_D __half2 __shfl_xor(__half2 v, int m, int width = warpSize) {
  return __builtin_bit_cast(__half2, __shfl_xor(__builtin_bit_cast(unsigned, v), m, width));
}

// ---- math ---------------------------------------------------------------------------------------
#ifdef LANELAB_HIP_OCML
// With ROCm's device library linked, as ROCm's amd_hip_fp16.h defines them (ROCm/clr): each h* is
// ocml's binary16 function (__ocml_sqrt_f16 ...) and each h2* its two-lane form (__ocml_sqrt_2f16
// ...); hrcp and h2rcp are 1 / x in _Float16 arithmetic. So the instructions are a ROCm build's.
#define LL_HIP_HOCML(sfx)                                                                         \
  extern "C" __device__ __attribute__((const)) _Float16 __ocml_##sfx##_f16(_Float16);             \
  extern "C" __device__ __attribute__((const)) __ll_f16x2 __ocml_##sfx##_2f16(__ll_f16x2);        \
  LL_D __half h##sfx(__half h) { return lanelab_hip::hmk(__ocml_##sfx##_f16(lanelab_hip::hv(h))); } \
  LL_D __half2 h2##sfx(__half2 h) { return __half2(__ocml_##sfx##_2f16(h.data)); }
LL_HIP_HOCML(sqrt)
LL_HIP_HOCML(rsqrt)
LL_HIP_HOCML(exp)
LL_HIP_HOCML(exp2)
LL_HIP_HOCML(exp10)
LL_HIP_HOCML(log)
LL_HIP_HOCML(log2)
LL_HIP_HOCML(log10)
LL_HIP_HOCML(cos)
LL_HIP_HOCML(ceil)
LL_HIP_HOCML(floor)
LL_HIP_HOCML(trunc)
LL_HIP_HOCML(rint)
#undef LL_HIP_HOCML
// hsin and h2sin are lanelab's (sinf of the exact float value, rounded once to binary16): Debian's
// ocml.bc (rocm-device-libs 5.2.3) returns NaN from __ocml_sin_f16 for every finite input. Its
// source (ROCm-Device-Libs ocml/src/sinH.cl) selects the NaN when x is a NaN or an infinity
// (class mask 0x207); the shipped bitcode tests |x| against the complementary mask 0x1f8, the
// finite classes, and keeps the select, so a finite x gets the NaN (llvm-dis of ocml.bc; no other
// ocml function has that pattern). A ROCm install's own ocml need not share the fault, so lanelab
// does not reproduce it (docs/hip-subset.md).
LL_D __half hsin(__half h) { return lanelab_hip::hmk((_Float16)sinf(__half2float(h))); }
LL_D __half2 h2sin(__half2 h) { return __half2(hsin(h.x), hsin(h.y)); }
LL_D __half hrcp(__half h) { return lanelab_hip::hmk((_Float16)1.0f / lanelab_hip::hv(h)); }
LL_D __half2 h2rcp(__half2 h) { return __half2(__ll_f16x2{(_Float16)1.0f, (_Float16)1.0f} / h.data); }
#else
// Without the device library, each is the float function of the subset on the exact float value
// of the argument, rounded once to binary16 (hsqrt = sqrtf ...; hrcp = 1/x and hrsqrt =
// 1/sqrtf(x) computed in double). The float functions are within 1 float ULP (docs/hip-subset.md), 2^-13 of a binary16 ULP, so
// the result is the correctly rounded binary16 except when the exact value lies within that of a
// halfway point; tests/test_hip.c measures the bound.
#define LL_HIP_HMATH(name, expr)                                                                  \
  LL_D __half name(__half h) {                                                                    \
    const float x = __half2float(h);                                                              \
    return lanelab_hip::hmk((_Float16)(expr));                                                     \
  }
LL_HIP_HMATH(hsqrt, __builtin_sqrtf(x))
LL_HIP_HMATH(hrsqrt, (float)(1.0 / __builtin_sqrt((double)x)))
LL_HIP_HMATH(hrcp, (float)(1.0 / (double)x))
LL_HIP_HMATH(hexp, expf(x))
LL_HIP_HMATH(hexp2, exp2f(x))
LL_HIP_HMATH(hexp10, exp10f(x))
LL_HIP_HMATH(hlog, logf(x))
LL_HIP_HMATH(hlog2, log2f(x))
LL_HIP_HMATH(hlog10, log10f(x))
LL_HIP_HMATH(hsin, sinf(x))
LL_HIP_HMATH(hcos, cosf(x))
LL_HIP_HMATH(hceil, __builtin_ceilf(x))
LL_HIP_HMATH(hfloor, __builtin_floorf(x))
LL_HIP_HMATH(htrunc, __builtin_truncf(x))
LL_HIP_HMATH(hrint, __builtin_rintf(x))
#undef LL_HIP_HMATH
#define LL_HIP_H2MATH(name)                                                                       \
  LL_D __half2 h2##name(__half2 h) { return __half2(h##name(h.x), h##name(h.y)); }
LL_HIP_H2MATH(sqrt)
LL_HIP_H2MATH(rsqrt)
LL_HIP_H2MATH(rcp)
LL_HIP_H2MATH(exp)
LL_HIP_H2MATH(exp2)
LL_HIP_H2MATH(exp10)
LL_HIP_H2MATH(log)
LL_HIP_H2MATH(log2)
LL_HIP_H2MATH(log10)
LL_HIP_H2MATH(sin)
LL_HIP_H2MATH(cos)
LL_HIP_H2MATH(ceil)
LL_HIP_H2MATH(floor)
LL_HIP_H2MATH(trunc)
LL_HIP_H2MATH(rint)
#undef LL_HIP_H2MATH
#endif

#undef LL_HD
#undef LL_D
#endif // LANELAB_HIP_FP16_H
