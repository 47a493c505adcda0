// hip/amd_detail/amd_device_functions.h
// ROCm's device functions: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
