// rmsnorm_half: RMS normalisation of __half rows (one wave64 per row, cols a multiple of 128),
// reading __half2 pairs, accumulating in float, writing __half: y = x * rsqrt(mean(x^2) + eps) * w.
#include <hip/hip_runtime.h>

__global__ void rmsnorm_half(const __half2 *x, const __half2 *w, __half2 *y, int cols, float eps) {
  const int pairs = cols / 2;
  const __half2 *row = x + blockIdx.x * pairs;
  float ss = 0.0f;
  for (int c = threadIdx.x; c < pairs; c += 64) {
    float2 f = __half22float2(row[c]);
    ss += f.x * f.x + f.y * f.y;
  }
  for (int o = 32; o > 0; o >>= 1) ss += __shfl_xor(ss, o);
  const float r = rsqrtf(ss / cols + eps);
  for (int c = threadIdx.x; c < pairs; c += 64) {
    float2 f = __half22float2(row[c]), g = __half22float2(w[c]);
    y[blockIdx.x * pairs + c] = __floats2half2_rn(f.x * r * g.x, f.y * r * g.y);
  }
}
