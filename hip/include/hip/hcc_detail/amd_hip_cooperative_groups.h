// hip/hcc_detail/amd_hip_cooperative_groups.h
// HIP's older name (hcc_detail) for amd_detail/amd_hip_cooperative_groups.h: in lanelab's HIP headers, <hip/amd_detail/amd_hip_cooperative_groups.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/amd_hip_cooperative_groups.h"
