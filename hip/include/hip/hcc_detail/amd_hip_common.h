// hip/hcc_detail/amd_hip_common.h
// HIP's older name (hcc_detail) for amd_detail/amd_hip_common.h: in lanelab's HIP headers, <hip/amd_detail/amd_hip_common.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/amd_hip_common.h"
