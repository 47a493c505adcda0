// hip/hip_bfloat16.h — HIP's hip_bfloat16 (ROCm's hip/amd_detail/amd_hip_bfloat16.h), the older
// bfloat16 type that rocBLAS, rocPRIM and aiter use; a different type from hip_bf16.h's
// __hip_bfloat16. Written here from its documented definition:
//   a trivial, standard-layout struct with one public member `uint16_t data` (the bit pattern);
//   explicit construction from float rounds to nearest even (a NaN stays a NaN), or truncates
//   with the hip_bfloat16::truncate tag (a NaN whose payload sits in the dropped bits keeps its
//   lowest bit set); conversion to float is exact; + - * / compute in float and round to
//   nearest even; comparisons compare the float values with HIP's definitions (<= is !(a > b),
//   >= is !(a < b), so a NaN operand makes them true, as in HIP); std::isinf, std::isnan and
//   std::iszero classify it.
#ifndef LANELAB_HIP_BFLOAT16_H
#define LANELAB_HIP_BFLOAT16_H
#include "hip/hip_runtime.h"
#include <ostream>

struct hip_bfloat16 {
  uint16_t data;
  enum truncate_t { truncate };
  hip_bfloat16() = default;
  explicit __host__ __device__ hip_bfloat16(float f) : data(lanelab_hip::f32_to_bf16_bits(f)) {}
  explicit __host__ __device__ hip_bfloat16(float f, truncate_t) : data(truncate_bits(f)) {}
  __host__ __device__ operator float() const { return lanelab_hip::bf16_bits_to_f32(data); }
  __host__ __device__ hip_bfloat16 &operator=(const float &f) {
    data = lanelab_hip::f32_to_bf16_bits(f);
    return *this;
  }
  static __host__ __device__ hip_bfloat16 round_to_bfloat16(float f) { return hip_bfloat16(f); }
  static __host__ __device__ hip_bfloat16 round_to_bfloat16(float f, truncate_t) { return hip_bfloat16(f, truncate); }

private:
  static __host__ __device__ uint16_t truncate_bits(float f) {
    const unsigned u = __builtin_bit_cast(unsigned, f);
    const bool nan_in_low_bits = (u & 0x7f800000u) == 0x7f800000u && (u & 0xffffu) != 0;
    return (uint16_t)((u >> 16) | (nan_in_low_bits ? 1u : 0u));
  }
};
typedef struct {
  uint16_t data;
} hip_bfloat16_public;
static_assert(__is_standard_layout(hip_bfloat16) && __is_trivial(hip_bfloat16),
              "HIP's hip_bfloat16 is a trivial, standard-layout type (usable from C)");
static_assert(sizeof(hip_bfloat16) == 2, "HIP's hip_bfloat16 is 2 bytes");

inline std::ostream &operator<<(std::ostream &os, const hip_bfloat16 &b) { return os << (float)b; }

#define LL_HD inline __host__ __device__
LL_HD hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
LL_HD hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data ^= 0x8000;
  return a;
}
LL_HD hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { _Pragma("clang fp contract(off)") return hip_bfloat16((float)a + (float)b); }
LL_HD hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { _Pragma("clang fp contract(off)") return hip_bfloat16((float)a - (float)b); }
LL_HD hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { _Pragma("clang fp contract(off)") return hip_bfloat16((float)a * (float)b); }
LL_HD hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16((float)a / (float)b); }
LL_HD bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return (float)a < (float)b; }
LL_HD bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return (float)a == (float)b; }
LL_HD bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return b < a; }
LL_HD bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return !(a > b); }
LL_HD bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return !(a == b); }
LL_HD bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return !(a < b); }
LL_HD hip_bfloat16 &operator+=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a + b; }
LL_HD hip_bfloat16 &operator-=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a - b; }
LL_HD hip_bfloat16 &operator*=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a * b; }
LL_HD hip_bfloat16 &operator/=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a / b; }
LL_HD hip_bfloat16 &operator++(hip_bfloat16 &a) { return a += hip_bfloat16(1.0f); }
LL_HD hip_bfloat16 &operator--(hip_bfloat16 &a) { return a -= hip_bfloat16(1.0f); }
LL_HD hip_bfloat16 operator++(hip_bfloat16 &a, int) {
  hip_bfloat16 t = a;
  ++a;
  return t;
}
LL_HD hip_bfloat16 operator--(hip_bfloat16 &a, int) {
  hip_bfloat16 t = a;
  --a;
  return t;
}
namespace std {
constexpr __host__ __device__ bool isinf(hip_bfloat16 a) { return (a.data & 0x7fff) == 0x7f80; }
constexpr __host__ __device__ bool isnan(hip_bfloat16 a) { return (a.data & 0x7fff) > 0x7f80; }
constexpr __host__ __device__ bool iszero(hip_bfloat16 a) { return (a.data & 0x7fff) == 0; }
} // namespace std
#undef LL_HD
#endif // LANELAB_HIP_BFLOAT16_H
