// hip/hcc_detail/texture_fetch_functions.h
// HIP's older name (hcc_detail) for amd_detail/texture_fetch_functions.h: in lanelab's HIP headers, <hip/amd_detail/texture_fetch_functions.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/texture_fetch_functions.h"
