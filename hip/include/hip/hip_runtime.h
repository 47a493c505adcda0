// hip/hip_runtime.h — lanelab's own HIP device subset (docs/hip-subset.md), so an ordinary HIP
// kernel compiles without ROCm: Debian's clang-22 with `-x hip -nogpuinc -nogpulib` and this tree
// (hip/include/) on the include path. `lanelab cc` and mk/kernel.sh put it there only for that
// compiler; with ROCm >= 6.3 and its device libraries the real headers are used instead, so a
// kernel written against this subset must be valid HIP (everything here has HIP's name, types
// and semantics).
//
// Built from clang builtins only. What is not here is a compile-time error that names it: an
// identifier HIP has but this subset does not is either undeclared or declared `unavailable`
// with a message; a function of the subset called with a type it does not support fails a
// static_assert naming the function. Nothing converts a value silently: a shuffle takes exactly
// the types listed (a float stays a float), an atomic's value must convert to the pointee
// without loss of kind (never floating -> integer, never double -> float), and a float math
// function refuses a double argument.
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define LANELAB_HIP_SUBSET 1
// The headers use C++17's `if constexpr`; a program built with -std=c++11 or c++14 gets no
// warning from them (ROCm's headers are system headers there: hipcc passes -isystem)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++17-extensions"

#if !defined(__HIP__)
#error "lanelab's hip/hip_runtime.h is device code: compile with clang -x hip (lanelab cc does)"
#endif
#if defined(__CLANG_HIP_RUNTIME_WRAPPER_H__)
#error "lanelab's hip/hip_runtime.h replaces clang's HIP wrapper: compile with -nogpuinc -nogpulib"
#endif
#if defined(LANELAB_DEVICE_H) && !LANELAB_HAVE_HIP_HEADERS
#error "include <hip/hip_runtime.h> before lanelab_device.h: that header defined threadIdx, __syncthreads and __shfl_xor itself because it came first"
#endif
// Host side (both passes of a host+device compile, and hip_runtime_api.h on its own): the
// runtime API that lanelab's HIP runtime implements (docs/hip-runtime.md).
#include "hip/hip_runtime_api.h"
#if !defined(__HIP_DEVICE_COMPILE__)
#include <stdlib.h>
#include <string.h>
#endif

// ---- attributes ---------------------------------------------------------------------------------
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// __managed__ variables compile as HIP's do; the runtime refuses their use (docs/hip-runtime.md)
#define __managed__ __attribute__((managed))
#define __forceinline__ inline __attribute__((always_inline))
// clang knows __noinline__ as a keyword in CUDA/HIP mode (__has_feature(cuda_noinline_keyword)),
// also inside libstdc++'s __attribute__((__noinline__)); HIP defines the macro only for compilers
// without the keyword (hip/amd_detail/host_defines.h), and so does lanelab.
#if !__has_feature(cuda_noinline_keyword)
#define __noinline__ __attribute__((noinline))
#endif
// __launch_bounds__(MAX_THREADS[, MIN_WAVES_PER_EU]) as HIP defines it
// (hip/amd_detail/host_defines.h): a flat work-group size bound, optionally waves per EU.
#define __ll_lb1(maxt) __attribute__((amdgpu_flat_work_group_size(1, maxt)))
#define __ll_lb2(maxt, minw) __attribute__((amdgpu_flat_work_group_size(1, maxt), amdgpu_waves_per_eu(minw)))
#define __ll_lb_pick(_1, _2, name, ...) name
#define __launch_bounds__(...) __ll_lb_pick(__VA_ARGS__, __ll_lb2, __ll_lb1, )(__VA_ARGS__)
// __align__(N): HIP's alignment qualifier (hip/amd_detail/host_defines.h).
#define __align__(n) __attribute__((aligned(n)))
// Dynamic LDS: `extern __shared__ T name[];` works as written; HIP's macro form too.
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
// `__restrict__` is a clang keyword in HIP mode.
#include "hip/hip_common.h"
#define LL_HIP_FN static __device__ inline __attribute__((always_inline))

// ---- types ------------------------------------------------------------------------------------
// The same underlying types <stdint.h> picks, so a later <stdint.h> redeclares them compatibly.
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

// HIP's vector types (float2, int4, ...): structs with addressable .x .y .z .w, HIP's size,
// alignment and operators.
#include "hip/lanelab_hip_vector_types.h"

// ---- type rules used by the static_asserts below -----------------------------------------------
namespace lanelab_hip {
template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };
template <class T> struct strip { typedef T type; };
template <class T> struct strip<const T> { typedef T type; };
template <class T> struct strip<volatile T> { typedef T type; };
template <class T> struct strip<const volatile T> { typedef T type; };
// A value of type From may become a To without changing kind: the same type, an integer to an
// integer or to a floating type, or a floating type to a wider one. Refused: floating -> integer,
// wider floating -> narrower (double -> float, float -> half).
template <class From, class To> struct lossless {
  static constexpr bool value =
      same<From, To>::value || (__is_integral(From) && (__is_integral(To) || __is_floating_point(To))) ||
      (__is_floating_point(From) && __is_floating_point(To) && sizeof(From) < sizeof(To));
};
} // namespace lanelab_hip

// ---- work-item ids ------------------------------------------------------------------------------
// threadIdx.x etc. as properties (the technique of clang's own __clang_cuda_builtin_vars.h), so
// `threadIdx.y` emits only the y id. blockDim reads hidden_group_size_{x,y,z} and gridDim reads
// hidden_block_count_{x,y,z}: the first 12 bytes of the implicit kernel arguments under code object
// v5 (LLVM AMDGPUUsage, "Code Object V5 Metadata"), which clang-22 uses by default.
LL_HIP_FN unsigned __ll_grid_dim(int d) {
  return ((const __attribute__((address_space(4))) unsigned *)__builtin_amdgcn_implicitarg_ptr())[d];
}
#define LL_HIP_DIM3(T, X, Y, Z)                                                                   \
  struct T {                                                                                       \
    __declspec(property(get = get_x)) unsigned x;                                                  \
    __declspec(property(get = get_y)) unsigned y;                                                  \
    __declspec(property(get = get_z)) unsigned z;                                                  \
    static __device__ __forceinline__ unsigned get_x() { return X; }                               \
    static __device__ __forceinline__ unsigned get_y() { return Y; }                               \
    static __device__ __forceinline__ unsigned get_z() { return Z; }                               \
    __device__ __forceinline__ operator dim3() const { return dim3(X, Y, Z); }                     \
  };
LL_HIP_DIM3(__ll_threadIdx_t, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
            __builtin_amdgcn_workitem_id_z())
LL_HIP_DIM3(__ll_blockIdx_t, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
            __builtin_amdgcn_workgroup_id_z())
LL_HIP_DIM3(__ll_blockDim_t, __builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
            __builtin_amdgcn_workgroup_size_z())
LL_HIP_DIM3(__ll_gridDim_t, __ll_grid_dim(0), __ll_grid_dim(1), __ll_grid_dim(2))
#undef LL_HIP_DIM3
extern const __device__ __ll_threadIdx_t threadIdx;
extern const __device__ __ll_blockIdx_t blockIdx;
extern const __device__ __ll_blockDim_t blockDim;
extern const __device__ __ll_gridDim_t gridDim;
// HIP's older spellings of the same ids, which HIP's runtime header still defines and HIP's early
// examples (ROCm/HIP-Examples) are written with: hipThreadIdx_x is threadIdx.x, and so on.
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

// gfx942 and gfx950 run wave64 only.
static constexpr int warpSize = 64;
// Lane 0..63 within the wave: v_mbcnt_lo/hi over an all-ones mask (CDNA3 ISA, V_MBCNT_LO/HI_U32_B32).
LL_HIP_FN unsigned __lane_id() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

// ---- synchronisation ----------------------------------------------------------------------------
// __syncthreads: release fence, s_barrier, acquire fence at workgroup scope, as HIP's
// __work_group_barrier (hip/amd_detail/amd_device_functions.h).
LL_HIP_FN void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
LL_HIP_FN void __threadfence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
LL_HIP_FN void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
LL_HIP_FN void __threadfence_system() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }

// ---- cross-lane -------------------------------------------------------------------------------
// ds_bpermute_b32: lane L receives the dword of lane (addr / 4) mod 64 (CDNA3 ISA, DS_BPERMUTE_B32).
// Wider types move as dwords, __half as the low 16 bits of one.
namespace lanelab_hip {
template <class T> struct shfl_type {
  static constexpr bool value = same<T, int>::value || same<T, unsigned>::value || same<T, long>::value ||
                                same<T, unsigned long>::value || same<T, long long>::value ||
                                same<T, unsigned long long>::value || same<T, float>::value ||
                                same<T, double>::value || same<T, _Float16>::value;
};
// HIP declares __shfl and its kin as overloads for int, unsigned, long, unsigned long, long long,
// unsigned long long, float, double (and the half types): a narrower integer argument (bool, char,
// short and their unsigned forms) promotes to int as a call to them does, and the result is that int.
template <class T> struct shfl_arg { using type = T; };
template <> struct shfl_arg<bool> { using type = int; };
template <> struct shfl_arg<char> { using type = int; };
template <> struct shfl_arg<signed char> { using type = int; };
template <> struct shfl_arg<unsigned char> { using type = int; };
template <> struct shfl_arg<short> { using type = int; };
template <> struct shfl_arg<unsigned short> { using type = int; };
template <class T> __device__ __forceinline__ T bpermute(int src_lane, T v) {
  const int a = src_lane << 2;
  if constexpr (sizeof(T) == 8) {
    unsigned long long b = __builtin_bit_cast(unsigned long long, v);
    unsigned lo = (unsigned)__builtin_amdgcn_ds_bpermute(a, (int)(unsigned)b);
    unsigned hi = (unsigned)__builtin_amdgcn_ds_bpermute(a, (int)(unsigned)(b >> 32));
    return __builtin_bit_cast(T, (unsigned long long)hi << 32 | lo);
  } else if constexpr (sizeof(T) == 4) {
    return __builtin_bit_cast(T, __builtin_amdgcn_ds_bpermute(a, __builtin_bit_cast(int, v)));
  } else {
    unsigned short b = __builtin_bit_cast(unsigned short, v);
    return __builtin_bit_cast(T, (unsigned short)__builtin_amdgcn_ds_bpermute(a, (int)b));
  }
}
} // namespace lanelab_hip

#define LL_HIP_SHFL_CHECK(fn, T)                                                                  \
  static_assert(lanelab_hip::shfl_type<T>::value,                                                \
                #fn ": the lanelab HIP subset shuffles int, unsigned, long, unsigned long, long long, " \
                "unsigned long long, float, double and __half (bool, char and short as int, as HIP's " \
                "overloads take them), and converts nothing else; this argument has another type "  \
                "(docs/hip-subset.md)")
// HIP's semantics (hip/amd_detail/amd_warp_functions.h): lanes form groups of `width` (a power of
// two, at most 64); a source outside the caller's group yields the caller's own value.
template <class T, class U = typename lanelab_hip::shfl_arg<T>::type>
__device__ __forceinline__ U __shfl(T var, int src_lane, int width = warpSize) {
  LL_HIP_SHFL_CHECK(__shfl, U);
  const int self = (int)__lane_id();
  const int index = (src_lane & (width - 1)) + (self & ~(width - 1));
  return lanelab_hip::bpermute(index, static_cast<U>(var));
}
template <class T, class U = typename lanelab_hip::shfl_arg<T>::type>
__device__ __forceinline__ U __shfl_up(T var, unsigned lane_delta, int width = warpSize) {
  LL_HIP_SHFL_CHECK(__shfl_up, U);
  const int self = (int)__lane_id();
  int index = self - (int)lane_delta;
  index = index < (self & ~(width - 1)) ? self : index;
  return lanelab_hip::bpermute(index, static_cast<U>(var));
}
template <class T, class U = typename lanelab_hip::shfl_arg<T>::type>
__device__ __forceinline__ U __shfl_down(T var, unsigned lane_delta, int width = warpSize) {
  LL_HIP_SHFL_CHECK(__shfl_down, U);
  const int self = (int)__lane_id();
  int index = self + (int)lane_delta;
  index = (int)((self & (width - 1)) + lane_delta) >= width ? self : index;
  return lanelab_hip::bpermute(index, static_cast<U>(var));
}
template <class T, class U = typename lanelab_hip::shfl_arg<T>::type>
__device__ __forceinline__ U __shfl_xor(T var, int lane_mask, int width = warpSize) {
  LL_HIP_SHFL_CHECK(__shfl_xor, U);
  const int self = (int)__lane_id();
  int index = self ^ lane_mask;
  index = index >= ((self + width) & ~(width - 1)) ? self : index;
  return lanelab_hip::bpermute(index, static_cast<U>(var));
}
#undef LL_HIP_SHFL_CHECK

// Votes over the active lanes (EXEC). A predicate is a bool or an integer (non-zero = true); a
// floating predicate is refused (0.5 would silently become false).
#define LL_HIP_PRED_CHECK(fn, T)                                                                  \
  static_assert(__is_integral(T), #fn ": the predicate must be a bool or an integer, not a floating value")
template <class T> __device__ __forceinline__ unsigned long long __ballot(T predicate) {
  LL_HIP_PRED_CHECK(__ballot, T);
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
template <class T> __device__ __forceinline__ int __any(T predicate) {
  LL_HIP_PRED_CHECK(__any, T);
  return __builtin_amdgcn_ballot_w64(predicate != 0) != 0;
}
template <class T> __device__ __forceinline__ int __all(T predicate) {
  LL_HIP_PRED_CHECK(__all, T);
  return __builtin_amdgcn_ballot_w64(predicate != 0) == __builtin_amdgcn_read_exec();
}
#undef LL_HIP_PRED_CHECK
LL_HIP_FN unsigned long long __activemask() { return __builtin_amdgcn_read_exec(); }

// Bit counts with HIP's signatures (ROCm/clr amd_device_functions.h): an argument of another type
// converts to the parameter's as C++ converts it, as AMD's hip-tests rely on (deviceLib/clz.cc
// compiles __clz(short), __clz(float), __clzll(int) "to check implicit conversion causes no
// ambiguity"). __ffs and __ffsll each take the signed and the unsigned integer of their width.
LL_HIP_FN unsigned int __popc(unsigned int x) { return (unsigned)__builtin_popcount(x); }
LL_HIP_FN unsigned int __popcll(unsigned long long x) { return (unsigned)__builtin_popcountll(x); }
LL_HIP_FN int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }             // leading zeros; 32 for 0
LL_HIP_FN int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
LL_HIP_FN int __ffs(unsigned int x) { return __builtin_ffs((int)x); }                  // 1 + lowest set bit, 0 if none
LL_HIP_FN int __ffs(int x) { return __builtin_ffs(x); }
LL_HIP_FN int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
LL_HIP_FN int __ffsll(long long x) { return __builtin_ffsll(x); }

// ---- atomics ------------------------------------------------------------------------------------
// Relaxed, device (agent) scope, as HIP's atomicAdd & co. (hip/amd_detail/amd_hip_atomic.h). The
// same functions work on global and __shared__ memory: clang infers the address space and emits
// global_atomic_* or ds_* (flat_atomic_* when it cannot tell).
namespace lanelab_hip {
template <class T> struct atomic_int {
  static constexpr bool value = same<T, int>::value || same<T, unsigned>::value ||
                                same<T, unsigned long>::value || same<T, unsigned long long>::value;
};
} // namespace lanelab_hip
#define LL_HIP_ATOMIC_CHECK(fn, T, V, ok, types)                                                  \
  static_assert(ok, #fn ": the lanelab HIP subset provides " #fn " for " types " only");         \
  static_assert(lanelab_hip::lossless<typename lanelab_hip::strip<V>::type, T>::value,             \
                #fn ": the value would change kind converting to the pointee type (floating -> "    \
                "integer or double -> float); pass a value of the pointee's type")
// Each function also comes as fn_block (workgroup scope) and fn_system (system scope), as HIP's
// scoped atomics; the emulator performs every atomic as one host atomic, so scope changes nothing
// there, and on a GPU it is passed to the instruction as HIP does.
#define LL_HIP_ATOMIC_RMW1(fn, builtin, scope, ok, types)                                         \
  template <class T, class V> __device__ __forceinline__ T fn(T *address, V val) {                \
    LL_HIP_ATOMIC_CHECK(fn, T, V, (ok), types);                                                    \
    return builtin(address, (T)val, __ATOMIC_RELAXED, scope);                                      \
  }
#define LL_HIP_ATOMIC_RMW(fn, builtin, ok, types)                                                 \
  LL_HIP_ATOMIC_RMW1(fn, builtin, __HIP_MEMORY_SCOPE_AGENT, (ok), types)                           \
  LL_HIP_ATOMIC_RMW1(fn##_block, builtin, __HIP_MEMORY_SCOPE_WORKGROUP, (ok), types)               \
  LL_HIP_ATOMIC_RMW1(fn##_system, builtin, __HIP_MEMORY_SCOPE_SYSTEM, (ok), types)
#define LL_HIP_INTS lanelab_hip::atomic_int<T>::value
#define LL_HIP_F32 lanelab_hip::same<T, float>::value
#define LL_HIP_F64 lanelab_hip::same<T, double>::value
// HIP's floating atomicSub is an atomic add of -val, and its floating atomicMax and atomicMin
// (hip/amd_detail/amd_hip_atomic.h without __AMDGCN_UNSAFE_FP_ATOMICS__) a compare-and-swap loop
// that stores val while it beats the value held: NaN beats nothing and is beaten by nothing, and
// -0.0 counts below +0.0 (max stores a zero val over a held -0.0; min stores a -0.0 val over a held
// zero of either sign). The same here, for float and double.
namespace lanelab_hip {
template <class T> struct fp_bits;
template <> struct fp_bits<float> { using type = unsigned; static constexpr unsigned sign = 0x80000000u; };
template <> struct fp_bits<double> { using type = unsigned long long; static constexpr unsigned long long sign = 0x8000000000000000ull; };
// A compare-and-swap loop that stores val while it beats the value held (max: held < val; min:
// held > val) and returns the value it found; SignedZero adds atomicMax/atomicMin's rule for -0.0
// (max stores a zero val over a held -0.0, min a -0.0 val over a held zero). The safe/unsafe forms
// below use it without that rule, as HIP's do.
template <bool Max, bool SignedZero = false, int Scope = __HIP_MEMORY_SCOPE_AGENT, class T>
__device__ __forceinline__ T cas_minmax(T *addr, T val) {
  T cur = __hip_atomic_load(addr, __ATOMIC_RELAXED, Scope);
  auto beats = [&](T held) {
    if (Max ? held < val : held > val) return true;
    if constexpr (SignedZero) {
      using B = typename fp_bits<T>::type;
      return Max ? __builtin_bit_cast(B, held) == fp_bits<T>::sign && val == (T)0
                 : __builtin_bit_cast(B, val) == fp_bits<T>::sign && held == (T)0;
    }
    return false;
  };
  while (beats(cur) &&
         !__hip_atomic_compare_exchange_strong(addr, &cur, val, __ATOMIC_RELAXED, __ATOMIC_RELAXED, Scope)) {
  }
  return cur;
}
} // namespace lanelab_hip
#define LL_HIP_ATOMIC_FP1(fn, scope, body_int, body_fp, ok, types)                                   \
  template <class T, class V> __device__ __forceinline__ T fn(T *address, V val) {                \
    LL_HIP_ATOMIC_CHECK(fn, T, V, (ok), types);                                                    \
    if constexpr (lanelab_hip::same<T, float>::value || lanelab_hip::same<T, double>::value)       \
      return body_fp;                                                                               \
    else                                                                                            \
      return body_int;                                                                              \
  }
#define LL_HIP_ATOMIC_FP(fn, bi, bf, ok, types)                                                    \
  LL_HIP_ATOMIC_FP1(fn, __HIP_MEMORY_SCOPE_AGENT, bi(__HIP_MEMORY_SCOPE_AGENT), bf(__HIP_MEMORY_SCOPE_AGENT), (ok), types) \
  LL_HIP_ATOMIC_FP1(fn##_block, __HIP_MEMORY_SCOPE_WORKGROUP, bi(__HIP_MEMORY_SCOPE_WORKGROUP), bf(__HIP_MEMORY_SCOPE_WORKGROUP), (ok), types) \
  LL_HIP_ATOMIC_FP1(fn##_system, __HIP_MEMORY_SCOPE_SYSTEM, bi(__HIP_MEMORY_SCOPE_SYSTEM), bf(__HIP_MEMORY_SCOPE_SYSTEM), (ok), types)
#define LL_HIP_SUB_I(sc) __hip_atomic_fetch_sub(address, (T)val, __ATOMIC_RELAXED, sc)
#define LL_HIP_SUB_F(sc) __hip_atomic_fetch_add(address, -(T)val, __ATOMIC_RELAXED, sc)
#define LL_HIP_MAX_I(sc) __hip_atomic_fetch_max(address, (T)val, __ATOMIC_RELAXED, sc)
#define LL_HIP_MAX_F(sc) lanelab_hip::cas_minmax<true, true, sc>(address, (T)val)
#define LL_HIP_MIN_I(sc) __hip_atomic_fetch_min(address, (T)val, __ATOMIC_RELAXED, sc)
#define LL_HIP_MIN_F(sc) lanelab_hip::cas_minmax<false, true, sc>(address, (T)val)
#define LL_HIP_I64 lanelab_hip::same<T, long long>::value
LL_HIP_ATOMIC_RMW(atomicAdd, __hip_atomic_fetch_add, LL_HIP_INTS || LL_HIP_F32 || LL_HIP_F64,
                  "int, unsigned, unsigned long, unsigned long long, float and double")
LL_HIP_ATOMIC_FP(atomicSub, LL_HIP_SUB_I, LL_HIP_SUB_F, (LL_HIP_INTS || LL_HIP_F32 || LL_HIP_F64),
                 "int, unsigned, unsigned long, unsigned long long, float and double")
LL_HIP_ATOMIC_FP(atomicMax, LL_HIP_MAX_I, LL_HIP_MAX_F, (LL_HIP_INTS || LL_HIP_I64 || LL_HIP_F32 || LL_HIP_F64),
                 "int, unsigned, unsigned long, long long, unsigned long long, float and double")
LL_HIP_ATOMIC_FP(atomicMin, LL_HIP_MIN_I, LL_HIP_MIN_F, (LL_HIP_INTS || LL_HIP_I64 || LL_HIP_F32 || LL_HIP_F64),
                 "int, unsigned, unsigned long, long long, unsigned long long, float and double")
#undef LL_HIP_ATOMIC_FP
#undef LL_HIP_ATOMIC_FP1
#undef LL_HIP_SUB_I
#undef LL_HIP_SUB_F
#undef LL_HIP_MAX_I
#undef LL_HIP_MAX_F
#undef LL_HIP_MIN_I
#undef LL_HIP_MIN_F
#undef LL_HIP_I64
LL_HIP_ATOMIC_RMW(atomicAnd, __hip_atomic_fetch_and, LL_HIP_INTS, "int, unsigned, unsigned long and unsigned long long")
LL_HIP_ATOMIC_RMW(atomicOr, __hip_atomic_fetch_or, LL_HIP_INTS, "int, unsigned, unsigned long and unsigned long long")
LL_HIP_ATOMIC_RMW(atomicXor, __hip_atomic_fetch_xor, LL_HIP_INTS, "int, unsigned, unsigned long and unsigned long long")
LL_HIP_ATOMIC_RMW(atomicExch, __hip_atomic_exchange, LL_HIP_INTS || LL_HIP_F32 || LL_HIP_F64,
                  "int, unsigned, unsigned long, unsigned long long, float and double")
// atomicCAS: stores val where *address == compare (float compares bit patterns, as HIP's
// integer-CAS implementation does); returns the old value. Also atomicCAS_block/_system.
#define LL_HIP_ATOMIC_CAS(fn, scope)                                                              \
  template <class T, class C, class V> __device__ __forceinline__ T fn(T *address, C compare, V val) { \
    LL_HIP_ATOMIC_CHECK(fn, T, V, LL_HIP_INTS || LL_HIP_F32 || LL_HIP_F64,                         \
                        "int, unsigned, unsigned long, unsigned long long, float and double");     \
    static_assert(lanelab_hip::lossless<typename lanelab_hip::strip<C>::type, T>::value,           \
                  #fn ": the compare value would change kind converting to the pointee type");     \
    T expected = (T)compare;                                                                       \
    __hip_atomic_compare_exchange_strong(address, &expected, (T)val, __ATOMIC_RELAXED, __ATOMIC_RELAXED, \
                                         scope);                                                   \
    return expected;                                                                               \
  }
LL_HIP_ATOMIC_CAS(atomicCAS, __HIP_MEMORY_SCOPE_AGENT)
LL_HIP_ATOMIC_CAS(atomicCAS_block, __HIP_MEMORY_SCOPE_WORKGROUP)
LL_HIP_ATOMIC_CAS(atomicCAS_system, __HIP_MEMORY_SCOPE_SYSTEM)
#undef LL_HIP_ATOMIC_CAS
// atomicInc: old >= val ? 0 : old + 1; atomicDec: (old == 0 || old > val) ? val : old - 1, stored
// atomically, old returned (HIP's definitions; one global_atomic_inc/dec or ds_inc/dec_u32, as
// HIP's __builtin_amdgcn_atomic_inc32/dec32 at agent scope).
template <class V> __device__ __forceinline__ unsigned atomicInc(unsigned *address, V val) {
  LL_HIP_ATOMIC_CHECK(atomicInc, unsigned, V, true, "unsigned");
  return __builtin_amdgcn_atomic_inc32(address, (unsigned)val, __ATOMIC_RELAXED, "agent");
}
template <class V> __device__ __forceinline__ unsigned atomicDec(unsigned *address, V val) {
  LL_HIP_ATOMIC_CHECK(atomicDec, unsigned, V, true, "unsigned");
  return __builtin_amdgcn_atomic_dec32(address, (unsigned)val, __ATOMIC_RELAXED, "agent");
}
// unsafeAtomicAdd/Max/Min and safeAtomicAdd/Max/Min on float and double (the names of HIP's
// hip/amd_detail/amd_hip_unsafe_atomics.h): relaxed, agent scope, returning the old value. HIP's
// "unsafe" forms may use the hardware's floating-point atomics (not valid on fine-grained memory),
// its "safe" ones never do; the operation is the same. Each does what HIP's does on gfx942 and
// gfx950: the adds one floating-point atomic add (global_atomic_add_f32/_f64), max and min a
// compare-and-swap loop that stores val while it beats the value held, except unsafeAtomicMax/Min of
// a double on gfx942, the hardware's global/flat_atomic_max_f64 / min_f64.
#define LL_HIP_FP_ADD(fn, T)                                                                      \
  __device__ __forceinline__ T fn(T *addr, T value) {                                             \
    return __hip_atomic_fetch_add(addr, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);        \
  }
LL_HIP_FP_ADD(unsafeAtomicAdd, float)
LL_HIP_FP_ADD(unsafeAtomicAdd, double)
LL_HIP_FP_ADD(safeAtomicAdd, float)
LL_HIP_FP_ADD(safeAtomicAdd, double)
#undef LL_HIP_FP_ADD
// HIP's deprecated atomicAddNoRet: atomicAdd without the old value
__device__ __forceinline__ void atomicAddNoRet(float *address, float val) {
  (void)__hip_atomic_fetch_add(address, val, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ float unsafeAtomicMax(float *addr, float val) { return lanelab_hip::cas_minmax<true>(addr, val); }
__device__ __forceinline__ float unsafeAtomicMin(float *addr, float val) { return lanelab_hip::cas_minmax<false>(addr, val); }
__device__ __forceinline__ float safeAtomicMax(float *addr, float val) { return lanelab_hip::cas_minmax<true>(addr, val); }
__device__ __forceinline__ float safeAtomicMin(float *addr, float val) { return lanelab_hip::cas_minmax<false>(addr, val); }
__device__ __forceinline__ double safeAtomicMax(double *addr, double val) { return lanelab_hip::cas_minmax<true>(addr, val); }
__device__ __forceinline__ double safeAtomicMin(double *addr, double val) { return lanelab_hip::cas_minmax<false>(addr, val); }
#if defined(__gfx942__)
__device__ __forceinline__ double unsafeAtomicMax(double *addr, double val) {
  return __hip_atomic_fetch_max(addr, val, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
__device__ __forceinline__ double unsafeAtomicMin(double *addr, double val) {
  return __hip_atomic_fetch_min(addr, val, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
#else
__device__ __forceinline__ double unsafeAtomicMax(double *addr, double val) { return lanelab_hip::cas_minmax<true>(addr, val); }
__device__ __forceinline__ double unsafeAtomicMin(double *addr, double val) { return lanelab_hip::cas_minmax<false>(addr, val); }
#endif
#undef LL_HIP_ATOMIC_RMW
#undef LL_HIP_ATOMIC_RMW1
#undef LL_HIP_INTS
#undef LL_HIP_F32
#undef LL_HIP_F64

// ---- integer and min/max helpers ----------------------------------------------------------------
// min/max as HIP defines them (clang's __clang_hip_math.h, which ROCm's HIP uses): on the device
// a template of two arguments of one type (a < b ? a : b) and int, float and double overloads (the
// floating ones are fmin/fmax: a NaN operand yields the other), so min(int, unsigned) resolves to
// min(int, int), converting the unsigned; on the host int min(int, int) and max, and, when the
// program defines __HIP_DEFINE_EXTENDED_HOST_MIN_MAX__ or __HIP_DEFINE_MIXED_HOST_MIN_MAX__ before
// including, HIP's wider and mixed-sign host sets.
template <class T> __device__ inline T min(T a, T b) { return a < b ? a : b; }
template <class T> __device__ inline T max(T a, T b) { return a > b ? a : b; }
LL_HIP_FN int min(int a, int b) { return a < b ? a : b; }
LL_HIP_FN int max(int a, int b) { return a > b ? a : b; }
LL_HIP_FN float min(float a, float b) { return __builtin_fminf(a, b); }
LL_HIP_FN float max(float a, float b) { return __builtin_fmaxf(a, b); }
LL_HIP_FN double min(double a, double b) { return __builtin_fmin(a, b); }
LL_HIP_FN double max(double a, double b) { return __builtin_fmax(a, b); }
#if !defined(__HIP_NO_HOST_MIN_MAX_IN_GLOBAL_NAMESPACE__)
#define LL_HIP_HOST_MINMAX(R, A, B)                                                               \
  inline R min(const A a, const B b) { return a < b ? a : b; }                                     \
  inline R max(const A a, const B b) { return a > b ? a : b; }
LL_HIP_HOST_MINMAX(int, int, int)
#if defined(__HIP_DEFINE_EXTENDED_HOST_MIN_MAX__) && __HIP_DEFINE_EXTENDED_HOST_MIN_MAX__
LL_HIP_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
LL_HIP_HOST_MINMAX(long, long, long)
LL_HIP_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
LL_HIP_HOST_MINMAX(long long, long long, long long)
LL_HIP_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
inline float min(const float a, const float b) { return __builtin_fminf(a, b); }
inline double min(const double a, const double b) { return __builtin_fmin(a, b); }
inline double min(const float a, const double b) { return __builtin_fmin(a, b); }
inline double min(const double a, const float b) { return __builtin_fmin(a, b); }
inline float max(const float a, const float b) { return __builtin_fmaxf(a, b); }
inline double max(const double a, const double b) { return __builtin_fmax(a, b); }
inline double max(const float a, const double b) { return __builtin_fmax(a, b); }
inline double max(const double a, const float b) { return __builtin_fmax(a, b); }
#endif
#if defined(__HIP_DEFINE_MIXED_HOST_MIN_MAX__) && __HIP_DEFINE_MIXED_HOST_MIN_MAX__
LL_HIP_HOST_MINMAX(unsigned int, int, unsigned int)
LL_HIP_HOST_MINMAX(unsigned int, unsigned int, int)
LL_HIP_HOST_MINMAX(unsigned long, long, unsigned long)
LL_HIP_HOST_MINMAX(unsigned long, unsigned long, long)
LL_HIP_HOST_MINMAX(unsigned long long, long long, unsigned long long)
LL_HIP_HOST_MINMAX(unsigned long long, unsigned long long, long long)
#endif
#undef LL_HIP_HOST_MINMAX
#endif
LL_HIP_FN int abs(int x) { return x < 0 ? -x : x; }
LL_HIP_FN long labs(long x) { return x < 0 ? -x : x; }
LL_HIP_FN long long llabs(long long x) { return x < 0 ? -x : x; }
LL_HIP_FN unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
LL_HIP_FN int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }

// __ldg: a plain load, as HIP defines it (hip/amd_detail/amd_device_functions.h); any type.
template <class T> __device__ __forceinline__ T __ldg(const T *ptr) { return *ptr; }

// clock64(), clock() and wall_clock64(): s_memtime and s_memrealtime, as HIP reads them on gfx9. The
// emulator has no clock: both count the wave's issued instructions (docs/emulator-choices.md
// clock-counter), which the fidelity line of `lanelab exec` reports.
static __device__ inline __attribute__((always_inline)) long long int clock64() { return (long long int)__builtin_amdgcn_s_memtime(); }
static __device__ inline __attribute__((always_inline)) long long int clock() { return clock64(); }
static __device__ inline __attribute__((always_inline)) long long int wall_clock64() { return (long long int)__builtin_amdgcn_s_memrealtime(); }
// HIP's other names for the first two
static __device__ inline __attribute__((always_inline)) long long int __clock64() { return clock64(); }
static __device__ inline __attribute__((always_inline)) long long int __clock() { return clock64(); }
#include "hip/lanelab_hip_heap.h"

// memcpy and memset in device code, as HIP provides them (hip/amd_detail/amd_device_functions.h):
// byte by byte, overloading <string.h>'s host functions by __device__.
static __device__ inline void *memcpy(void *dst, const void *src, size_t size) {
  unsigned char *d = static_cast<unsigned char *>(dst);
  const unsigned char *p = static_cast<const unsigned char *>(src);
  for (size_t i = 0; i < size; i++) d[i] = p[i];
  return dst;
}
static __device__ inline void *memset(void *ptr, int val, size_t size) {
  unsigned char *d = static_cast<unsigned char *>(ptr);
  for (size_t i = 0; i < size; i++) d[i] = static_cast<unsigned char>(val);
  return ptr;
}

#include "hip/lanelab_hip_printf.h"
#include "hip/lanelab_hip_math.h"
#include "hip/lanelab_hip_complex_builtins.h" // complex * and / for <complex> and _Complex (the prelude has it too)
#include "hip/lanelab_hip_fp16.h"
#include "hip/lanelab_hip_bf16.h"
#include "hip/lanelab_hip_intrin.h"
#include <type_traits>
// what ROCm's vector-type header brings with it, which programs use without including
// (std::array: ROCm's HIP samples hipDispatchLatency, hipDispatchEnqueueRateMT)
#include <array>
#include <iosfwd>
// std::numeric_limits, which ROCm's amd_math_functions.h brings with hip_runtime.h
#include <limits>

#pragma clang diagnostic pop
#endif // HIP_INCLUDE_HIP_HIP_RUNTIME_H
