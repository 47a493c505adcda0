// hip/amd_detail/amd_hip_atomic.h
// ROCm's atomics: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
