// gemv: y = A x for a rows x cols float matrix; one wave64 per row, __shfl_down reduction.
#include <hip/hip_runtime.h>

__global__ void gemv(const float *A, const float *x, float *y, int cols) {
  const float *row = A + blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += warpSize) s = fmaf(row[c], x[c], s);
  for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_down(s, o);
  if (threadIdx.x == 0) y[blockIdx.x] = s;
}
