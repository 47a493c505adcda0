// bf16_convert: float -> __hip_bfloat16 and back, plus bf16 arithmetic:
// out[2i] = bf16(x), out[2i+1] = bf16(x) * bf16(y) + bf16(x) (each operation rounded to bf16).
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

__global__ void bf16_convert(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __hip_bfloat16 bx = __float2bfloat16(x[i]), by = __float2bfloat16(y[i]);
  out[2 * i] = __bfloat162float(bx);
  out[2 * i + 1] = __bfloat162float(__hadd(__hmul(bx, by), bx));
}
