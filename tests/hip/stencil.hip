// stencil: a 1-D 5-point stencil, out[i] = sum_k w[k] in[i+k-2] (zero outside), staging the
// block's slice and a halo of 2 on each side in dynamic shared memory (extern __shared__).
#include <hip/hip_runtime.h>

__global__ void stencil(const float *in, float *out, float w0, float w1, float w2, int n) {
  extern __shared__ float slice[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slice[threadIdx.x + 2] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < 2) {
    int l = i - 2, r = i + blockDim.x;
    slice[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
    slice[threadIdx.x + blockDim.x + 2] = r < n ? in[r] : 0.0f;
  }
  __syncthreads();
  const float *s = slice + threadIdx.x + 2;
  if (i < n) out[i] = w0 * s[0] + w1 * (s[-1] + s[1]) + w2 * (s[-2] + s[2]);
}
