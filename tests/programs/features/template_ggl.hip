// Template kernels launched through hipLaunchKernelGGL (HIP_KERNEL_NAME for a name with a comma),
// through hipLaunchKernel with an argument array, for float and double, and through
// hipExtLaunchKernelGGL (hip_ext.h) between two events. A kernel written with HIP's older id
// spellings (hipThreadIdx_x, hipBlockIdx_y, hipBlockDim_x, hipGridDim_y, as ROCm/HIP-Examples
// write them) over a 2-D grid.
#include "../common.h"
#include <hip/hip_ext.h>
#include <vector>

template <typename T, int UNROLL>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; u++)
    if (base + u < n) y[base + u] = a * x[base + u] + y[base + u];
}

// out[y][x] = x * 1000 + y over a grid of 3 x 2 blocks of 8 x 4 threads, and the grid's extent
__global__ void ids_old_style(int *out, int *extent) {
  int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x, y = hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y;
  out[y * hipGridDim_x * hipBlockDim_x + x] = x * 1000 + y;
  if (x == 0 && y == 0)
    extent[0] = hipGridDim_x * hipBlockDim_x, extent[1] = hipGridDim_y * hipBlockDim_y,
    extent[2] = hipGridDim_z * hipBlockDim_z + hipBlockIdx_z + hipThreadIdx_z;
}

template <typename T> static void run(const char *what) {
  const int n = 1000;
  std::vector<T> x(n), y(n), r(n);
  for (int i = 0; i < n; i++) x[i] = (T)i / 4, y[i] = (T)(n - i);
  T *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(T)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(T)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(T), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(T), hipMemcpyHostToDevice));
  T a = (T)2;
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<T, 4>), dim3((n + 4 * 64 - 1) / (4 * 64)), dim3(64), 0, 0, a, dx, dy, n);
  HIP_CHECK(hipGetLastError());
  // again with hipLaunchKernel and an argument array: y = 2x + (2x + y)
  int nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  HIP_CHECK(hipLaunchKernel((const void *)axpy<T, 1>, dim3((n + 63) / 64), dim3(64), args, 0, 0));
  HIP_CHECK(hipMemcpy(r.data(), dy, n * sizeof(T), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r[i] == 4 * x[i] + y[i], "%s: y[%d] = %g", what, i, (double)r[i]);
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
}

int main() {
  run<float>("float");
  run<double>("double");
  hipFuncAttributes fa;
  HIP_CHECK(hipFuncGetAttributes(&fa, (const void *)axpy<float, 4>));
  EXPECT(fa.maxThreadsPerBlock == 1024 && fa.sharedSizeBytes == 0, "attributes: %d threads, %zu bytes shared",
         fa.maxThreadsPerBlock, fa.sharedSizeBytes);
  EXPECT(hipLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0) == hipErrorInvalidDeviceFunction,
         "a host function is not a kernel");
  // hip_ext.h: an int argument converts to the kernel's float parameter, as with <<<>>>
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, 64 * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, 64 * sizeof(float)));
  HIP_CHECK(hipMemset(dx, 0, 64 * sizeof(float)));
  HIP_CHECK(hipMemset(dy, 0, 64 * sizeof(float)));
  hipEvent_t e0, e1;
  HIP_CHECK(hipEventCreate(&e0));
  HIP_CHECK(hipEventCreate(&e1));
  hipExtLaunchKernelGGL(axpy<float, 1>, dim3(1), dim3(64), 0, 0, e0, e1, 0, 3, dx, dy, 64);
  HIP_CHECK(hipEventSynchronize(e1));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, e0, e1));
  EXPECT(ms >= 0, "elapsed %g", ms);
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  int *dout, *dext, out[24 * 8], ext[3];
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMalloc(&dext, sizeof ext));
  hipLaunchKernelGGL(ids_old_style, dim3(3, 2), dim3(8, 4), 0, 0, dout, dext);
  HIP_CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(ext, dext, sizeof ext, hipMemcpyDeviceToHost));
  EXPECT(ext[0] == 24 && ext[1] == 8 && ext[2] == 1, "old-style extent %d x %d x %d", ext[0], ext[1], ext[2]);
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 24; x++) EXPECT(out[y * 24 + x] == x * 1000 + y, "old-style ids at (%d, %d): %d", x, y, out[y * 24 + x]);
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dext));
  std::printf("template_ggl: ok\n");
  return 0;
}
