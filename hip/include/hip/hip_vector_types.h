// hip/hip_vector_types.h — HIP's vector types (float4, int2, ...): in lanelab's HIP headers,
// hip/lanelab_hip_vector_types.h, through <hip/hip_runtime.h> (docs/hip-subset.md).
#include "hip/hip_runtime.h"
