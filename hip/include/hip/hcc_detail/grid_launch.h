// hip/hcc_detail/grid_launch.h
// HIP's older name (hcc_detail) for amd_detail/grid_launch.h: in lanelab's HIP headers, <hip/amd_detail/grid_launch.h>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/grid_launch.h"
