// hip/lanelab_hip_prelude.h — what clang's own HIP wrapper (__clang_hip_runtime_wrapper.h, left
// out by -nogpuinc) puts before the first line of every HIP translation unit, and the standard
// headers HIP's hip_runtime.h brings in. `lanelab hipcc` includes it first (-include), so a
// program compiles as it does with ROCm: one that includes <algorithm> or <new> before
// <hip/hip_runtime.h> (clang's cuda_wrappers headers use __host__ __device__ and a device
// malloc/free), or uses std::fabs, memset or printf on the host through <hip/hip_runtime.h>
// alone. The attribute definitions are hip_runtime.h's, token for token; device malloc and free
// are declared as hip/hip_runtime.h declares them (lanelab_hip_heap.h: a call in device code is
// a compile error naming them).
#ifndef LANELAB_HIP_PRELUDE_H
#define LANELAB_HIP_PRELUDE_H
#if defined(__HIP__) && defined(__cplusplus)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#include "hip/lanelab_hip_heap.h"
// clang's wrapper: <cmath> <cstdlib> <stdlib.h> and, last, <algorithm> <complex> <new> (clang's
// cuda_wrappers versions, which make their functions __host__ __device__); HIP's hip_runtime.h:
// <stdint.h> <stdio.h> <stdlib.h> <assert.h> <thread> <cmath> <cstdint> <math.h> <string.h>
// <stddef.h> (<thread> brings std::chrono, which rocPRIM's device_transform.hpp uses).
// Sources rely on what those bring: ROCm/flashinfer's gpu_iface/gpu_runtime_compat.hpp uses
// std::ostringstream and std::runtime_error with no include of its own (libstdc++'s <complex>
// includes <sstream>).
// The device double math that <complex>'s templates call unqualified (std::abs of a complex<double>
// is sqrt, exp is exp/cos/sin, ...), declared before <cmath> (whose `using ::sqrt` in std takes the
// overloads declared by then) as clang's own wrapper declares it (__clang_cuda_math_forward_
// declares.h), so the templates find the device overloads at their definition;
// hip/lanelab_hip_math.h defines them (ocml's or lanelab's). The float forms too: libstdc++'s
// are constexpr builtins, and clang-22 turns __builtin_coshf, sinhf, atan2f ... into LLVM
// intrinsics the AMDGPU backend cannot lower ("no libcall available for fcosh": AMD's hip-tests
// deviceLib/hipStdComplex.cc); a device overload declared first makes clang treat libstdc++'s
// constexpr one as host-only, so std::cosh(float) is HIP's device function, as with ROCm.
#define LL_HIP_FWD1(f)                                                                            \
  static __device__ inline __attribute__((always_inline)) double f(double);                      \
  static __device__ inline __attribute__((always_inline)) float f(float);
#define LL_HIP_FWD2(f)                                                                            \
  static __device__ inline __attribute__((always_inline)) double f(double, double);              \
  static __device__ inline __attribute__((always_inline)) float f(float, float);
LL_HIP_FWD1(sqrt) LL_HIP_FWD1(exp) LL_HIP_FWD1(log) LL_HIP_FWD1(log10) LL_HIP_FWD1(cos) LL_HIP_FWD1(sin)
LL_HIP_FWD1(tan) LL_HIP_FWD1(cosh) LL_HIP_FWD1(sinh) LL_HIP_FWD1(tanh) LL_HIP_FWD1(atan) LL_HIP_FWD1(acos)
LL_HIP_FWD1(asin) LL_HIP_FWD1(acosh) LL_HIP_FWD1(asinh) LL_HIP_FWD1(atanh) LL_HIP_FWD2(atan2) LL_HIP_FWD2(pow)
LL_HIP_FWD2(hypot)
// and what libstdc++'s mixed-type templates (fma(float, float, int), fmax(float, double) ...) call
// once they have promoted their arguments: without these, the double host function
#define LL_HIP_FWD3(f)                                                                            \
  static __device__ inline __attribute__((always_inline)) double f(double, double, double);      \
  static __device__ inline __attribute__((always_inline)) float f(float, float, float);
LL_HIP_FWD2(copysign) LL_HIP_FWD2(fdim) LL_HIP_FWD2(fmax) LL_HIP_FWD2(fmin) LL_HIP_FWD2(fmod) LL_HIP_FWD2(nextafter)
LL_HIP_FWD2(remainder) LL_HIP_FWD3(fma)
#undef LL_HIP_FWD1
#undef LL_HIP_FWD2
#undef LL_HIP_FWD3
#include <assert.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <algorithm>
#include <complex>
#include <new>
#include "hip/lanelab_hip_complex_builtins.h"
#endif
#endif
