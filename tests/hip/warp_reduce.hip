// warp_reduce: a warp-shuffle reduction over floats. Each wave64 sums its 64 values with
// __shfl_xor; every lane ends with the total, lane 0 writes it. (Float shuffles must move float
// bits: a conversion to int would truncate every partial sum.)
#include <hip/hip_runtime.h>

__device__ float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset);
  return v;
}

__global__ void warp_reduce(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float total = wave_sum(in[i]);
  if (__lane_id() == 0) out[i / warpSize] = total;
}
