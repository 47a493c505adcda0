// hip/hcc_detail/hip_cooperative_groups_helper.h
// HIP's older name (hcc_detail) for amd_detail/hip_cooperative_groups_helper.h: in lanelab's HIP headers, <hip/amd_detail/hip_cooperative_groups_helper.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/hip_cooperative_groups_helper.h"
