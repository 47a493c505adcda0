// hip/amd_detail/hsa_helpers.hpp
// Reserved: lanelab's HIP headers do not provide this header, and the name is here so that no
// other HIP installation's copy is found instead (docs/hip-subset.md, "Header names").
#error "<hip/amd_detail/hsa_helpers.hpp> is not provided by lanelab's HIP headers: an internal header of ROCm's HIP implementation with no counterpart in lanelab; include <hip/hip_runtime.h>"
