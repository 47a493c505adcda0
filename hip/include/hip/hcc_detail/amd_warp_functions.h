// hip/hcc_detail/amd_warp_functions.h
// HIP's older name (hcc_detail) for amd_detail/amd_warp_functions.h: in lanelab's HIP headers, <hip/amd_detail/amd_warp_functions.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/amd_warp_functions.h"
