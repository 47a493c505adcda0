// test_scale_rows — the kernel against a host reference: odd sizes (a row longer than the block,
// a row of zeros, a single column); exits 1 on the first mismatch. CI runs it under
// `lanelab exec --racecheck --initcheck` on gfx942 and gfx950.
#include "../src/scale_rows.h"
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    hipError_t e_ = (x);                                                                           \
    if (e_ != hipSuccess) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));                                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static int check(int rows, int cols) {
  std::vector<float> h((size_t)rows * cols), got(h.size());
  for (size_t i = 0; i < h.size(); i++) h[i] = (float)((i * 37) % 23) - 11.0f;
  for (int c = 0; c < cols; c++) h[c] = 0.0f; // row 0: zeros
  float *din, *dout;
  CHECK(hipMalloc(&din, h.size() * sizeof(float)));
  CHECK(hipMalloc(&dout, h.size() * sizeof(float)));
  CHECK(hipMemcpy(din, h.data(), h.size() * sizeof(float), hipMemcpyHostToDevice));
  scale_rows<<<rows, kScaleRowsBlock>>>(din, dout, cols);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) {
    float m = 0.0f;
    for (int c = 0; c < cols; c++) m = std::fmax(m, std::fabs(h[(size_t)r * cols + c]));
    for (int c = 0; c < cols; c++) {
      float want = m > 0.0f ? h[(size_t)r * cols + c] * (1.0f / m) : 0.0f;
      if (got[(size_t)r * cols + c] != want) {
        std::fprintf(stderr, "%dx%d: row %d col %d: %g, want %g\n", rows, cols, r, c, got[(size_t)r * cols + c], want);
        return 1;
      }
    }
  }
  CHECK(hipFree(din));
  CHECK(hipFree(dout));
  return 0;
}

int main() {
  if (check(3, 1000) || check(5, 1) || check(2, 256)) return 1;
  std::printf("test_scale_rows: ok\n");
  return 0;
}
