// hip/amd_detail/amd_hip_runtime.h
// ROCm's runtime header: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
