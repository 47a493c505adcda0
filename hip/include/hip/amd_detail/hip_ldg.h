// hip/amd_detail/hip_ldg.h
// ROCm's __ldg: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
