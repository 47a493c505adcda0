// block_sum — each workgroup of 256 work-items sums its 256 u32 inputs with a shared-memory tree
// reduction; sums[blockIdx.x] receives the total. The __syncthreads() between the steps is what
// makes the 4 waves see each other's partial sums: manifest.json runs it under the adversarial
// wave schedule too, where a missing barrier shows up as a wrong sum.
#include <hip/hip_runtime.h>

extern "C" __global__ void block_sum(const uint32_t *in, uint32_t *sums) {
  __shared__ uint32_t part[256];
  uint32_t t = threadIdx.x;
  part[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (uint32_t s = 128; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = part[0];
}
