// hip/lanelab_hip_vector_types.h — HIP's vector types (float4, int2, uchar3, ...) for lanelab's
// HIP headers (included by hip/hip_runtime.h; hip/hip_vector_types.h includes that).
//
// As HIP defines them (ROCm's hip/amd_detail/amd_hip_vector_types.h, written here from its
// documented layout and behaviour): TYPEn is HIP_vector_type<TYPE, n>, a struct whose members
// .x .y .z .w are ordinary, addressable members (&v.x works; a clang vector's element would not)
// sharing storage with `data`, the clang vector of n elements (for n = 3 a plain array: a clang
// 3-vector is padded to 4 elements where HIP's TYPE3 is not). Size and alignment are HIP's:
// n = 1, 2, 4: n * sizeof(TYPE), aligned to that (the clang vector's); n = 3: 3 * sizeof(TYPE),
// aligned as TYPE. Operators, host and device: + - * / element-wise with another vector or a
// scalar (either side; the scalar converts to the element type, as in HIP), the compound forms,
// ++ --, unary - (signed types), and for integer types % ^ | & >> << ~; == and != compare every
// element; a scalar constructor fills every element. make_TYPEn(...) builds one.
#ifndef LANELAB_HIP_VECTOR_TYPES_H
#define LANELAB_HIP_VECTOR_TYPES_H

namespace lanelab_hip {
template <bool C, class T = void> struct vt_enable_if {};
template <class T> struct vt_enable_if<true, T> { typedef T type; };
template <class U, class T> struct vt_convertible {
  static constexpr bool value = __is_convertible_to(U, T);
};
} // namespace lanelab_hip

template <class T, unsigned n> struct HIP_vector_base;
template <class T> struct HIP_vector_base<T, 1> {
  typedef T Native_vec_ __attribute__((ext_vector_type(1)));
  union {
    Native_vec_ data;
    struct {
      T x;
    };
  };
  typedef T value_type;
  HIP_vector_base() = default;
  __host__ __device__ explicit constexpr HIP_vector_base(T a) noexcept : data{a} {}
};
template <class T> struct HIP_vector_base<T, 2> {
  typedef T Native_vec_ __attribute__((ext_vector_type(2)));
  union {
    Native_vec_ data;
    struct {
      T x, y;
    };
  };
  typedef T value_type;
  HIP_vector_base() = default;
  __host__ __device__ explicit constexpr HIP_vector_base(T a) noexcept : data{a, a} {}
  __host__ __device__ constexpr HIP_vector_base(T a, T b) noexcept : data{a, b} {}
};
template <class T> struct HIP_vector_base<T, 3> {
  struct Native_vec_ {
    T d[3];
  };
  union {
    Native_vec_ data;
    struct {
      T x, y, z;
    };
  };
  typedef T value_type;
  HIP_vector_base() = default;
  __host__ __device__ explicit constexpr HIP_vector_base(T a) noexcept : data{{a, a, a}} {}
  __host__ __device__ constexpr HIP_vector_base(T a, T b, T c) noexcept : data{{a, b, c}} {}
};
template <class T> struct HIP_vector_base<T, 4> {
  typedef T Native_vec_ __attribute__((ext_vector_type(4)));
  union {
    Native_vec_ data;
    struct {
      T x, y, z, w;
    };
  };
  typedef T value_type;
  HIP_vector_base() = default;
  __host__ __device__ explicit constexpr HIP_vector_base(T a) noexcept : data{a, a, a, a} {}
  __host__ __device__ constexpr HIP_vector_base(T a, T b, T c, T d) noexcept : data{a, b, c, d} {}
};

// Element i (0..n-1) of a vector, for the element-wise loops below.
#define LL_VT_EL(v, i) (&(v).x)[i]
template <class T, unsigned n> struct HIP_vector_type : public HIP_vector_base<T, n> {
  using HIP_vector_base<T, n>::data;
  typedef typename HIP_vector_base<T, n>::Native_vec_ Native_vec_;
  HIP_vector_type() = default;
  template <class U, typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr>
  __host__ __device__ explicit constexpr HIP_vector_type(U a) noexcept : HIP_vector_base<T, n>{static_cast<T>(a)} {}
  template <class... Us, typename lanelab_hip::vt_enable_if<(n > 1) && sizeof...(Us) == n>::type * = nullptr>
  __host__ __device__ constexpr HIP_vector_type(Us... a) noexcept : HIP_vector_base<T, n>{static_cast<T>(a)...} {}

#define LL_VT_COMPOUND(op)                                                                        \
  __host__ __device__ HIP_vector_type &operator op##=(const HIP_vector_type &o) noexcept {         \
    for (unsigned i = 0; i < n; i++) LL_VT_EL(*this, i) op## = LL_VT_EL(o, i);                     \
    return *this;                                                                                  \
  }                                                                                                \
  template <class U, typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr> \
  __host__ __device__ HIP_vector_type &operator op##=(U s) noexcept {                              \
    return *this op## = HIP_vector_type(s);                                                        \
  }
  LL_VT_COMPOUND(+)
  LL_VT_COMPOUND(-)
  LL_VT_COMPOUND(*)
  LL_VT_COMPOUND(/)
  LL_VT_COMPOUND(%)
  LL_VT_COMPOUND(^)
  LL_VT_COMPOUND(|)
  LL_VT_COMPOUND(&)
  LL_VT_COMPOUND(>>)
  LL_VT_COMPOUND(<<)
#undef LL_VT_COMPOUND
  __host__ __device__ HIP_vector_type &operator++() noexcept { return *this += HIP_vector_type(1); }
  __host__ __device__ HIP_vector_type operator++(int) noexcept {
    HIP_vector_type t(*this);
    ++*this;
    return t;
  }
  __host__ __device__ HIP_vector_type &operator--() noexcept { return *this -= HIP_vector_type(1); }
  __host__ __device__ HIP_vector_type operator--(int) noexcept {
    HIP_vector_type t(*this);
    --*this;
    return t;
  }
  template <class U = T, typename lanelab_hip::vt_enable_if<((U)-1 < (U)0)>::type * = nullptr>
  __host__ __device__ HIP_vector_type operator-() const noexcept {
    HIP_vector_type t(*this);
    for (unsigned i = 0; i < n; i++) LL_VT_EL(t, i) = -LL_VT_EL(t, i);
    return t;
  }
  template <class U = T, typename lanelab_hip::vt_enable_if<__is_integral(U)>::type * = nullptr>
  __host__ __device__ HIP_vector_type operator~() const noexcept {
    HIP_vector_type t(*this);
    for (unsigned i = 0; i < n; i++) LL_VT_EL(t, i) = ~LL_VT_EL(t, i);
    return t;
  }
};

#define LL_VT_BINARY(op)                                                                          \
  template <class T, unsigned n>                                                                   \
  __host__ __device__ inline HIP_vector_type<T, n> operator op(const HIP_vector_type<T, n> &a,     \
                                                               const HIP_vector_type<T, n> &b) noexcept { \
    return HIP_vector_type<T, n>(a) op## = b;                                                      \
  }                                                                                                \
  template <class T, unsigned n, class U,                                                          \
            typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr> \
  __host__ __device__ inline HIP_vector_type<T, n> operator op(const HIP_vector_type<T, n> &a, U s) noexcept { \
    return HIP_vector_type<T, n>(a) op## = HIP_vector_type<T, n>(s);                               \
  }                                                                                                \
  template <class T, unsigned n, class U,                                                          \
            typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr> \
  __host__ __device__ inline HIP_vector_type<T, n> operator op(U s, const HIP_vector_type<T, n> &b) noexcept { \
    return HIP_vector_type<T, n>(s) op## = b;                                                      \
  }
LL_VT_BINARY(+)
LL_VT_BINARY(-)
LL_VT_BINARY(*)
LL_VT_BINARY(/)
LL_VT_BINARY(%)
LL_VT_BINARY(^)
LL_VT_BINARY(|)
LL_VT_BINARY(&)
LL_VT_BINARY(>>)
LL_VT_BINARY(<<)
#undef LL_VT_BINARY
template <class T, unsigned n>
__host__ __device__ inline bool operator==(const HIP_vector_type<T, n> &a, const HIP_vector_type<T, n> &b) noexcept {
  for (unsigned i = 0; i < n; i++)
    if (!(LL_VT_EL(a, i) == LL_VT_EL(b, i))) return false;
  return true;
}
template <class T, unsigned n>
__host__ __device__ inline bool operator!=(const HIP_vector_type<T, n> &a, const HIP_vector_type<T, n> &b) noexcept {
  return !(a == b);
}
// A vector against a scalar: the scalar in every element, as HIP compares them (AMD's hip-tests
// vector_types compare a char1 with a char).
template <class T, unsigned n, class U,
          typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr>
__host__ __device__ inline bool operator==(const HIP_vector_type<T, n> &a, U s) noexcept {
  return a == HIP_vector_type<T, n>(s);
}
template <class T, unsigned n, class U,
          typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr>
__host__ __device__ inline bool operator==(U s, const HIP_vector_type<T, n> &b) noexcept {
  return HIP_vector_type<T, n>(s) == b;
}
template <class T, unsigned n, class U,
          typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr>
__host__ __device__ inline bool operator!=(const HIP_vector_type<T, n> &a, U s) noexcept {
  return !(a == s);
}
template <class T, unsigned n, class U,
          typename lanelab_hip::vt_enable_if<lanelab_hip::vt_convertible<U, T>::value>::type * = nullptr>
__host__ __device__ inline bool operator!=(U s, const HIP_vector_type<T, n> &b) noexcept {
  return !(s == b);
}
#undef LL_VT_EL

#define LL_VT_DEFINE(name, T)                                                                     \
  typedef HIP_vector_type<T, 1> name##1;                                                           \
  typedef HIP_vector_type<T, 2> name##2;                                                           \
  typedef HIP_vector_type<T, 3> name##3;                                                           \
  typedef HIP_vector_type<T, 4> name##4;                                                           \
  static inline __host__ __device__ name##1 make_##name##1(T x) { return name##1(x); }             \
  static inline __host__ __device__ name##2 make_##name##2(T x, T y) { return name##2(x, y); }     \
  static inline __host__ __device__ name##3 make_##name##3(T x, T y, T z) { return name##3(x, y, z); } \
  static inline __host__ __device__ name##4 make_##name##4(T x, T y, T z, T w) { return name##4(x, y, z, w); }
LL_VT_DEFINE(char, char)
LL_VT_DEFINE(uchar, unsigned char)
LL_VT_DEFINE(short, short)
LL_VT_DEFINE(ushort, unsigned short)
LL_VT_DEFINE(int, int)
LL_VT_DEFINE(uint, unsigned int)
LL_VT_DEFINE(long, long)
LL_VT_DEFINE(ulong, unsigned long)
LL_VT_DEFINE(longlong, long long)
LL_VT_DEFINE(ulonglong, unsigned long long)
LL_VT_DEFINE(float, float)
LL_VT_DEFINE(double, double)
#undef LL_VT_DEFINE

static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "HIP's float2 is 8 bytes, 8-aligned");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "HIP's float3 is 12 bytes, 4-aligned");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "HIP's float4 is 16 bytes, 16-aligned");
static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "HIP's double3 is 24 bytes, 8-aligned");
static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4, "HIP's uchar4 is 4 bytes, 4-aligned");

#endif // LANELAB_HIP_VECTOR_TYPES_H
