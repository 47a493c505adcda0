// tests/programs/rdc/device_lib.hip — device code another source calls (-fgpu-rdc): a __device__
// function, a __device__ variable and a store that faults when given a far index. No kernel here.
#include <hip/hip_runtime.h>

__device__ int rdc_launches = 5;

__device__ float rdc_scale(float x) { return x * 3.0f + 1.0f; }

__device__ void rdc_store(float *p, int i, float v) {
  p[i] = v; // the faulting store of `rdc fault`: test_hip_programs.c names this line
}
