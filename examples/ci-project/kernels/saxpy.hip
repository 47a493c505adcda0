// saxpy — out[i] = a * x[i] + y[i] for i < n, one work-item per element.
// The mutant (manifest.json "wrong_stride", -DBUG_STRIDE=1) reads x at the wrong stride: the kind
// of indexing slip a CI gate must catch.
#include <hip/hip_runtime.h>

extern "C" __global__ void saxpy(const float *x, const float *y, float *out, float a, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
#if BUG_STRIDE
  uint32_t xi = (i * 2) % n;
#else
  uint32_t xi = i;
#endif
  if (i < n) out[i] = a * x[xi] + y[i];
}
