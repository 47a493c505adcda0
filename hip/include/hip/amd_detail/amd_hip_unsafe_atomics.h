// hip/amd_detail/amd_hip_unsafe_atomics.h
// ROCm's unsafe and safe floating-point atomics (unsafeAtomicAdd & co.): in lanelab's HIP headers,
// <hip/hip_runtime.h> (docs/hip-subset.md, "Header names").
#include "hip/hip_runtime.h"
