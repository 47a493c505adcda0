// hip/amd_detail/amd_warp_functions.h
// ROCm's cross-lane functions: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
