// histogram: 64 bins of bytes (value >> 2); a per-block shared histogram with atomicAdd on
// shared memory, merged into the global one with atomicAdd on global memory.
#include <hip/hip_runtime.h>

__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[64];
  if (threadIdx.x < 64) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] >> 2], 1u);
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
