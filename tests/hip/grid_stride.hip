// grid_stride: a grid-stride loop over a 2-D grid (gridDim, blockDim in x and y): out[i] =
// in[i] * 2 + i, with i visited exactly once.
#include <hip/hip_runtime.h>

__global__ void grid_stride(const float *in, float *out, int n) {
  const int threads = blockDim.x * blockDim.y * gridDim.x * gridDim.y;
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  const int t = block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += threads) out[i] = in[i] * 2.0f + (float)i;
}
