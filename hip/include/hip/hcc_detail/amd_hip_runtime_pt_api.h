// hip/hcc_detail/amd_hip_runtime_pt_api.h
// HIP's older name (hcc_detail) for amd_detail/amd_hip_runtime_pt_api.h: in lanelab's HIP headers, <hip/amd_detail/amd_hip_runtime_pt_api.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/amd_hip_runtime_pt_api.h"
