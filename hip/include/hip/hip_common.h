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
#define HIP_PUBLIC_API __attribute__((visibility("default")))
#define HIP_INTERNAL_EXPORTED_API __attribute__((visibility("default")))
#endif
