/* C references for the example's kernels (lanelab/ref.h, "abi": "args"): each takes the kernel's
 * arguments in order and fills its outputs. */
#include <lanelab/ref.h>

void saxpy_ref(const float *x, const float *y, float *out, float a, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) out[i] = a * x[i] + y[i];
}

/* 64 workgroups of 256 inputs each */
void block_sum_ref(const uint32_t *in, uint32_t *sums) {
  for (int b = 0; b < 64; b++) {
    uint32_t s = 0;
    for (int i = 0; i < 256; i++) s += in[b * 256 + i];
    sums[b] = s;
  }
}
