// hip/hcc_detail/grid_launch_GGL.hpp
// HIP's older name (hcc_detail) for amd_detail/grid_launch_GGL.hpp: in lanelab's HIP headers, <hip/amd_detail/grid_launch_GGL.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/grid_launch_GGL.hpp"
