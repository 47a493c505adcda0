// __constant__ and __device__ variables: filled with hipMemcpyToSymbol (by name and through
// HIP_SYMBOL), read back with hipMemcpyFromSymbol, addressed with hipGetSymbolAddress.
#include "../common.h"

__constant__ float coeff[4];
__device__ int hits;
__device__ float table[8];

__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = ((coeff[3] * v + coeff[2]) * v + coeff[1]) * v + coeff[0] + table[i % 8];
  atomicAdd(&hits, 1);
}

int main() {
  const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  float t[8];
  for (int i = 0; i < 8; i++) t[i] = 100.0f * i;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeff), c, sizeof c));
  HIP_CHECK(hipMemcpyToSymbol(table, t, sizeof t));
  const int n = 100;
  float hx[n], hy[n];
  for (int i = 0; i < n; i++) hx[i] = 0.125f * i - 3.0f;
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, sizeof hx));
  HIP_CHECK(hipMalloc(&dy, sizeof hy));
  HIP_CHECK(hipMemcpy(dx, hx, sizeof hx, hipMemcpyHostToDevice));
  int zero = 0;
  HIP_CHECK(hipMemcpyToSymbol(hits, &zero, sizeof zero));
  poly<<<2, 64>>>(dx, dy, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(hy, dy, sizeof hy, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float v = hx[i], want = ((c[3] * v + c[2]) * v + c[1]) * v + c[0] + t[i % 8];
    EXPECT(hy[i] == want, "y[%d] = %.9g, want %.9g", i, hy[i], want);
  }
  int h = -1;
  HIP_CHECK(hipMemcpyFromSymbol(&h, hits, sizeof h));
  EXPECT(h == n, "hits = %d, want %d", h, n);
  // the symbol's device address reaches the same variable through a plain copy
  void *addr = nullptr;
  size_t size = 0;
  HIP_CHECK(hipGetSymbolAddress(&addr, table));
  HIP_CHECK(hipGetSymbolSize(&size, table));
  EXPECT(size == sizeof t, "table is %zu bytes", size);
  float t5 = 0;
  HIP_CHECK(hipMemcpy(&t5, (float *)addr + 5, sizeof t5, hipMemcpyDeviceToHost));
  EXPECT(t5 == 500.0f, "table[5] through its address = %g", t5);
  // past the end of a symbol is refused
  EXPECT(hipMemcpyToSymbol(coeff, c, sizeof c, 4) == hipErrorInvalidValue, "4 bytes past coeff's end");
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  std::printf("constant_memory: ok\n");
  return 0;
}
