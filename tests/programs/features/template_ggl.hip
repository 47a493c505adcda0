// Template kernels launched through hipLaunchKernelGGL (HIP_KERNEL_NAME for a name with a comma),
// through hipLaunchKernel with an argument array, for float and double, and through
// hipExtLaunchKernelGGL (hip_ext.h) between two events.
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
  std::printf("template_ggl: ok\n");
  return 0;
}
