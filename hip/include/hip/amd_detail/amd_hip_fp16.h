// hip/amd_detail/amd_hip_fp16.h
// ROCm's __half and __half2: in lanelab's HIP headers, <hip/hip_fp16.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_fp16.h"
