// bitonic_sort: sorts each block's 256 floats ascending in shared memory (bitonic network).
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) bitonic_sort(float *data) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  s[t] = data[blockIdx.x * 256 + t];
  __syncthreads();
  for (int size = 2; size <= 256; size <<= 1) {
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      const int partner = t ^ stride;
      if (partner > t) {
        const bool up = (t & size) == 0;
        const float a = s[t], b = s[partner];
        if ((a > b) == up) { s[t] = b; s[partner] = a; }
      }
      __syncthreads();
    }
  }
  data[blockIdx.x * 256 + t] = s[t];
}
