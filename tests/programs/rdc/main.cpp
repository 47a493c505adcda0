// tests/programs/rdc/main.cpp — relocatable device code (lanelab hipcc -fgpu-rdc): kernels in
// kernels.hip call device code of device_lib.hip. `rdc` checks the results and the __device__
// variable both sources share; `rdc fault` runs a kernel whose store faults in device_lib.hip.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>

hipError_t rdc_run(float *out, bool far);
int rdc_launch_count();

int main(int argc, char **argv) {
  float *d, h[64];
  if (hipMalloc(&d, sizeof h) != hipSuccess) return 1;
  const bool far = argc > 1 && !strcmp(argv[1], "fault");
  for (int rep = 0; rep < 2 && !far; rep++) {
    if (rdc_run(d, false) != hipSuccess) return 1;
    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
    for (int i = 0; i < 64; i++)
      if (h[i] != 3.0f * i + 1.0f) return printf("rdc: element %d is %g\n", i, h[i]), 1;
  }
  if (far) {
    hipError_t e = rdc_run(d, true);
    printf("rdc fault: %s\n", hipGetErrorName(e));
    return e == hipSuccess;
  }
  const int c = rdc_launch_count();
  printf("rdc: ok, launches %d\n", c);
  return c == 7 ? 0 : 1;
}
