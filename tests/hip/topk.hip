// topk: the 8 largest values of each row of 256 floats and their column, largest first (ties:
// the smaller column). One wave64 per row: each lane keeps its 4 values, and 8 rounds of a
// shuffle argmax pick the winner, which its owner then removes.
#include <hip/hip_runtime.h>

#define K 8
__global__ void topk(const float *in, float *values, int *indices) {
  const float *row = in + blockIdx.x * 256;
  float v[4];
  for (int j = 0; j < 4; j++) v[j] = row[threadIdx.x + 64 * j];
  for (int r = 0; r < K; r++) {
    float best = -INFINITY;
    int col = 1 << 30;
    for (int j = 0; j < 4; j++)
      if (v[j] > best) { best = v[j]; col = threadIdx.x + 64 * j; }
    for (int o = 32; o > 0; o >>= 1) {
      float ob = __shfl_xor(best, o);
      int oc = __shfl_xor(col, o);
      if (ob > best || (ob == best && oc < col)) { best = ob; col = oc; }
    }
    if (col % 64 == (int)threadIdx.x) v[col / 64] = -INFINITY;
    if (threadIdx.x == 0) {
      values[blockIdx.x * K + r] = best;
      indices[blockIdx.x * K + r] = col;
    }
  }
}
