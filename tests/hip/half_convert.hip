// half_convert: float -> __half (round to nearest even) and back, with __half and __half2
// arithmetic: out[3i..3i+2] = { h(x), h(x) + h(y) as __hadd, (h(x), h(y)) * (h(y), h(x)) summed
// as __half2 }, every result converted back to float.
#include <hip/hip_runtime.h>

__global__ void half_convert(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half hx = __float2half(x[i]), hy = __float2half(y[i]);
  __half2 p = __hmul2(__halves2half2(hx, hy), __halves2half2(hy, hx));
  out[3 * i] = __half2float(hx);
  out[3 * i + 1] = __half2float(__hadd(hx, hy));
  out[3 * i + 2] = __low2float(p) + __high2float(p);
}
