// hip/amd_detail/amd_math_functions.h
// ROCm's math functions: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
