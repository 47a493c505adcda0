// hip/hcc_detail/hip_runtime_prof.h
// HIP's older name (hcc_detail) for amd_detail/hip_runtime_prof.h: in lanelab's HIP headers, <hip/amd_detail/hip_runtime_prof.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/hip_runtime_prof.h"
