// app — scales the rows of a small matrix on the GPU and prints them.
#include "scale_rows.h"
#include <cstdio>
#include <vector>

int main() {
  const int rows = 4, cols = 6;
  std::vector<float> h(rows * cols);
  for (int i = 0; i < rows * cols; i++) h[i] = (float)(i % 7) - 3.0f;
  float *din, *dout;
  if (hipMalloc(&din, h.size() * sizeof(float)) != hipSuccess || hipMalloc(&dout, h.size() * sizeof(float)) != hipSuccess)
    return 1;
  hipMemcpy(din, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice);
  scale_rows<<<rows, kScaleRowsBlock>>>(din, dout, cols);
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  hipMemcpy(h.data(), dout, h.size() * sizeof(float), hipMemcpyDeviceToHost);
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) std::printf("%6.3f ", h[r * cols + c]);
    std::printf("\n");
  }
  hipFree(din);
  hipFree(dout);
  return 0;
}
