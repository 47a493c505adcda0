// hip/amd_detail/amd_hip_vector_types.h
// ROCm's vector types: in lanelab's HIP headers, <hip/hip_vector_types.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_vector_types.h"
