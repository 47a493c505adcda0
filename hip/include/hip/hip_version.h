// hip/hip_version.h — the HIP release whose interface lanelab's HIP headers follow: 7.0 (the
// *_sync cross-lane forms on by default, with __syncwarp; hip_fp8.h with each arch's encoding;
// hip_bf16.h's __hip_bfloat16 and __hip_bfloat162 structs), as the 2026 ROCm libraries lanelab
// is measured against (ROCm/flashinfer, ROCm/aiter) expect. The patch level is 0 because no ROCm
// build is claimed: a library that keys a workaround for a particular ROCm build off
// HIP_VERSION_PATCH does not apply it here.
#ifndef HIP_VERSION_H
#define HIP_VERSION_H
#define HIP_VERSION_MAJOR 7
#define HIP_VERSION_MINOR 0
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH "lanelab"
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME "lanelab"
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif
