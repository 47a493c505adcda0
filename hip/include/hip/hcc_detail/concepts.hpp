// hip/hcc_detail/concepts.hpp
// HIP's older name (hcc_detail) for amd_detail/concepts.hpp: in lanelab's HIP headers, <hip/amd_detail/concepts.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/concepts.hpp"
