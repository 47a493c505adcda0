// hip/hcc_detail/ockl_image.h
// HIP's older name (hcc_detail) for amd_detail/ockl_image.h: in lanelab's HIP headers, <hip/amd_detail/ockl_image.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/ockl_image.h"
