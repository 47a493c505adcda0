// Dynamic shared memory: a block reverses its slice through `extern __shared__`, sized at launch
// by <<<grid, block, bytes>>>; also HIP_DYNAMIC_SHARED and hipLaunchKernelGGL with the same size.
#include "../common.h"
#include <vector>

__global__ void reverse_block(const int *in, int *out) {
  extern __shared__ int tile[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile[t] = in[base + t];
  __syncthreads();
  out[base + t] = tile[blockDim.x - 1 - t];
}

__global__ void reverse_block_macro(const int *in, int *out) {
  HIP_DYNAMIC_SHARED(int, tile2)
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile2[t] = in[base + t];
  __syncthreads();
  out[base + t] = tile2[blockDim.x - 1 - t];
}

int main() {
  const int block = 128, blocks = 3, n = block * blocks;
  std::vector<int> h(n), r(n);
  for (int i = 0; i < n; i++) h[i] = i * 7 + 1;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  reverse_block<<<blocks, block, block * sizeof(int)>>>(din, dout);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(r.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < block; t++)
      EXPECT(r[b * block + t] == h[b * block + block - 1 - t], "block %d thread %d: %d", b, t, r[b * block + t]);
  HIP_CHECK(hipMemset(dout, 0, n * sizeof(int)));
  hipLaunchKernelGGL(reverse_block_macro, dim3(blocks), dim3(block), block * sizeof(int), 0, din, dout);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(r.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r[i] == h[(i / block) * block + block - 1 - i % block], "GGL: element %d", i);
  // more shared memory than a block may have is refused at launch
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  reverse_block<<<1, block, p.sharedMemPerBlock + 4>>>(din, dout);
  EXPECT(hipGetLastError() == hipErrorInvalidValue, "too much dynamic shared memory");
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  std::printf("dynamic_shared: ok\n");
  return 0;
}
