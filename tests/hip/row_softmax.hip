// row_softmax: one wave64 per row of `cols` floats (cols a multiple of 64): max and sum with
// __shfl_xor, exponentials with expf.
#include <hip/hip_runtime.h>

__global__ void row_softmax(const float *in, float *out, int cols) {
  const float *row = in + blockIdx.x * cols;
  float *dst = out + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += 64) m = fmaxf(m, row[c]);
  for (int o = 32; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor(m, o));
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += 64) s += expf(row[c] - m);
  for (int o = 32; o > 0; o >>= 1) s += __shfl_xor(s, o);
  const float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += 64) dst[c] = expf(row[c] - m) * inv;
}
