// hip/amd_detail/amd_hip_common.h
// ROCm's platform macros: in lanelab's HIP headers, <hip/hip_common.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_common.h"
