// hip/hcc_detail/helpers.hpp
// HIP's older name (hcc_detail) for amd_detail/helpers.hpp: in lanelab's HIP headers, <hip/amd_detail/helpers.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/helpers.hpp"
