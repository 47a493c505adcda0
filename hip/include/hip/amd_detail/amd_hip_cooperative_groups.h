// hip/amd_detail/amd_hip_cooperative_groups.h
// ROCm's cooperative groups: in lanelab's HIP headers, <hip/hip_cooperative_groups.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_cooperative_groups.h"
