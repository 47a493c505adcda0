// hip/hcc_detail/host_defines.h
// HIP's older name (hcc_detail) for amd_detail/host_defines.h: in lanelab's HIP headers, <hip/amd_detail/host_defines.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/host_defines.h"
