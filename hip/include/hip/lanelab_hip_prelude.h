// hip/lanelab_hip_prelude.h — what clang's own HIP wrapper (__clang_hip_runtime_wrapper.h, left
// out by -nogpuinc) puts before the first line of every HIP translation unit, and the standard
// headers HIP's hip_runtime.h brings in. `lanelab hipcc` includes it first (-include), so a
// program compiles as it does with ROCm: one that includes <algorithm> or <new> before
// <hip/hip_runtime.h> (clang's cuda_wrappers headers use __host__ __device__ and a device
// malloc/free), or uses std::fabs, memset or printf on the host through <hip/hip_runtime.h>
// alone. The attribute definitions are hip_runtime.h's, token for token; device malloc and free
// are declared as in lanelab_hip_printf.h (never defined: a kernel that calls them fails to
// link, naming them).
#ifndef LANELAB_HIP_PRELUDE_H
#define LANELAB_HIP_PRELUDE_H
#if defined(__HIP__) && defined(__cplusplus)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
extern "C" __device__ void *malloc(__SIZE_TYPE__ size);
extern "C" __device__ void free(void *ptr);
// clang's wrapper: <cmath> <cstdlib> <stdlib.h>; HIP's hip_runtime.h: <stdint.h> <stdio.h>
// <stdlib.h> <assert.h> <cmath> <cstdint> <math.h> <string.h> <stddef.h>
#include <assert.h>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif
#endif
