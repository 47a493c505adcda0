// layernorm: one block of 256 threads per row; mean and variance through shared memory, then
// (x - mean) * rsqrtf(var + eps) * gamma + beta.
#include <hip/hip_runtime.h>

__device__ float block_sum(float v, float *scratch) {
  for (int o = 32; o > 0; o >>= 1) v += __shfl_down(v, o);
  const int wave = threadIdx.x / warpSize;
  if (__lane_id() == 0) scratch[wave] = v;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < (int)blockDim.x / warpSize; w++) total += scratch[w];
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(256) layernorm(const float *x, const float *gamma, const float *beta, float *y,
                                                 int cols, float eps) {
  __shared__ float scratch[4];
  const float *row = x + blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += row[c];
  const float mean = block_sum(s, scratch) / cols;
  float q = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float d = row[c] - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(block_sum(q, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[blockIdx.x * cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}
