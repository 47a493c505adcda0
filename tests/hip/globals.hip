// globals: data that lives in the code object itself, reached PC-relatively as clang emits it:
// a __constant__ table, a function-local static const table (.rodata), __device__ arrays (.data),
// a pointer table to them (a pointer in .data: a R_AMDGPU_RELATIVE64 dynamic relocation) and a
// zero-initialised __device__ counter (.bss) updated with atomics.
#include <hip/hip_runtime.h>

__constant__ float coef[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ float va[4] = {1, 2, 3, 4};
__device__ float vb[4] = {10, 20, 30, 40};
__device__ float *tabs[2] = {va, vb};
__device__ unsigned int hits;

__global__ void globals(const int *idx, float *out, unsigned int *count) {
  static const float half[16] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f,
                                 8.5f, 9.5f, 10.5f, 11.5f, 12.5f, 13.5f, 14.5f, 15.5f};
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = idx[i];
  out[i] = coef[j & 7] + half[j & 15] + tabs[(j >> 2) & 1][j & 3];
  if (j % 3 == 0) atomicAdd(&hits, 1u);
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(count, hits); // every block sees the hits of those before it
}
