// hip/hip_version.h — the HIP release whose interface lanelab's HIP headers follow: 6.3 (the
// cross-lane *_sync forms of 6.2, hip_fp8.h, hip_bf16.h's __hip_bfloat16 and __hip_bfloat162
// structs). The patch level is 0 because no ROCm build is claimed: a library that keys a
// workaround for a particular ROCm build off HIP_VERSION_PATCH does not apply it here.
#ifndef HIP_VERSION_H
#define HIP_VERSION_H
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 3
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH "lanelab"
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME "lanelab"
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif
