// hip/hcc_detail/math_fwd.h
// HIP's older name (hcc_detail) for amd_detail/math_fwd.h: in lanelab's HIP headers, <hip/amd_detail/math_fwd.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/math_fwd.h"
