// hip/amd_detail/host_defines.h
// ROCm's __global__/__device__/... qualifiers: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
