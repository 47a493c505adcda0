// gelu: the two usual forms, out[2i] = x/2 (1 + erf(x / sqrt 2)) and
// out[2i+1] = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
#include <hip/hip_runtime.h>

__global__ void gelu(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out[2 * i] = 0.5f * x * (1.0f + erff(x * 0.70710678f));
  out[2 * i + 1] = 0.5f * x * (1.0f + tanhf(0.79788456f * (x + 0.044715f * x * x * x)));
}
