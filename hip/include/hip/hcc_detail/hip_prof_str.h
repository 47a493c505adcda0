// hip/hcc_detail/hip_prof_str.h
// HIP's older name (hcc_detail) for amd_detail/hip_prof_str.h: in lanelab's HIP headers, <hip/amd_detail/hip_prof_str.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/hip_prof_str.h"
