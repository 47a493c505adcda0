// block_reduce: each block sums 256 floats with a shared-memory tree; out[block] = the sum.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) block_reduce(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
