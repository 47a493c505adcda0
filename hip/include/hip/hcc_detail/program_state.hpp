// hip/hcc_detail/program_state.hpp
// HIP's older name (hcc_detail) for amd_detail/program_state.hpp: in lanelab's HIP headers, <hip/amd_detail/program_state.hpp>
// (docs/hip-subset.md, "Header names").
#include "hip/amd_detail/program_state.hpp"
