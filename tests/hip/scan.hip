// scan: inclusive prefix sum of ints within each block of 256: __shfl_up inside each wave, the
// wave totals through shared memory.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) scan(const int *in, int *out) {
  __shared__ int wave_total[4];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = __lane_id(), wave = threadIdx.x / warpSize;
  int v = in[i];
  for (int d = 1; d < warpSize; d <<= 1) {
    int u = __shfl_up(v, d);
    if (lane >= d) v += u;
  }
  if (lane == warpSize - 1) wave_total[wave] = v;
  __syncthreads();
  for (int w = 0; w < wave; w++) v += wave_total[w];
  out[i] = v;
}
