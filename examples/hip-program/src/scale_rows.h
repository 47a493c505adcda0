// scale_rows.h — the project's kernel: each row of a row-major matrix divided by its largest
// absolute value (rows of zeros stay zero). One block of 256 threads per row: a max-reduction in
// shared memory, then the scaling.
#pragma once
#include <hip/hip_runtime.h>

constexpr int kScaleRowsBlock = 256;

__global__ void scale_rows(const float *in, float *out, int cols) {
  __shared__ float part[kScaleRowsBlock];
  const float *row = in + (size_t)blockIdx.x * cols;
  float m = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, fabsf(row[c]));
  part[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + w]);
    __syncthreads();
  }
  float s = part[0] > 0.0f ? 1.0f / part[0] : 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[(size_t)blockIdx.x * cols + c] = row[c] * s;
}
