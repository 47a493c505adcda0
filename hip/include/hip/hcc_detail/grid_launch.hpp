// hip/hcc_detail/grid_launch.hpp
// HIP's older name (hcc_detail) for amd_detail/grid_launch.hpp: in lanelab's HIP headers, <hip/amd_detail/grid_launch.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/grid_launch.hpp"
