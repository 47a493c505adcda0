// hip/hip_common.h — HIP's platform macros, as HIP's own header defines them for clang's HIP
// mode: the AMD platform (and its older name, HCC) and __HIP_CLANG_ONLY__.
#ifndef HIP_INCLUDE_HIP_HIP_COMMON_H
#define HIP_INCLUDE_HIP_HIP_COMMON_H
#if !defined(__HIP__)
#error "lanelab's HIP headers are for clang's HIP mode: compile with clang -x hip (lanelab cc and lanelab hipcc do)"
#endif
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif
#define __HIP_CLANG_ONLY__ 1
// The wave size, which ROCm's compilers up to clang 19 predefined and clang 22 no longer does;
// code written for them reads it (rocPRIM 5.3, HIP 6's cooperative groups). Both of lanelab's
// arches, gfx942 and gfx950, run wave64 only, so it is 64 in the host pass and the device pass.
#ifndef __AMDGCN_WAVEFRONT_SIZE
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#ifndef __AMDGCN_WAVEFRONT_SIZE__
#define __AMDGCN_WAVEFRONT_SIZE__ 64
#endif
// Feature tests, with ROCm's values: in the device pass what gfx9 has (32- and 64-bit global and
// shared atomics, float atomic add, doubles, votes, ballots, shuffles, a system fence, 3D grids;
// no funnel shifts, surfaces, dynamic parallelism or extended syncthreads), in the host pass 0.
#if defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__
#define LL_HIP_DEV_HAS 1
#else
#define LL_HIP_DEV_HAS 0
#endif
#define __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_DOUBLES__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_WARP_VOTE__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_WARP_BALLOT__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_WARP_SHUFFLE__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__ (0)
#define __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ (0)
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ (0)
#define __HIP_ARCH_HAS_3DGRID__ (LL_HIP_DEV_HAS)
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ (0)
#define HIP_PUBLIC_API __attribute__((visibility("default")))
#define HIP_INTERNAL_EXPORTED_API __attribute__((visibility("default")))
#endif
