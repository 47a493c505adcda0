// hip/hip_vector_types.h
// HIP's vector types: in lanelab's HIP headers, <hip/hip_runtime.h>
// (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
