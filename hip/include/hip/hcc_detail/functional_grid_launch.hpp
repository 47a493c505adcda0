// hip/hcc_detail/functional_grid_launch.hpp
// HIP's older name (hcc_detail) for amd_detail/functional_grid_launch.hpp: in lanelab's HIP headers, <hip/amd_detail/functional_grid_launch.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/functional_grid_launch.hpp"
