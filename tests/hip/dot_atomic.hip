// dot_atomic: the dot product of two float vectors: a shuffle reduction per wave, then one
// atomicAdd per wave on a global float.
#include <hip/hip_runtime.h>

__global__ void dot_atomic(const float *a, const float *b, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] * b[i] : 0.0f;
  for (int o = 32; o > 0; o >>= 1) v += __shfl_down(v, o);
  if (__lane_id() == 0) atomicAdd(result, v);
}
