// saxpy: y = a * x + y, one element per thread.
#include <hip/hip_runtime.h>

__global__ void saxpy(const float *__restrict__ x, float *__restrict__ y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
