// hip/hcc_detail/hsa_helpers.hpp
// HIP's older name (hcc_detail) for amd_detail/hsa_helpers.hpp: in lanelab's HIP headers, <hip/amd_detail/hsa_helpers.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/hsa_helpers.hpp"
