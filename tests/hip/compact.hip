// compact: stream compaction per wave with __ballot and __popcll: each wave writes its positive
// values, in order, to its own 64-slot segment of out and their count to counts[wave].
#include <hip/hip_runtime.h>

__global__ void compact(const int *in, int *out, int *counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int wave = i / warpSize, lane = __lane_id();
  const int v = in[i];
  const unsigned long long keep = __ballot(v > 0);
  const unsigned long long below = lane ? keep & (~0ull >> (64 - lane)) : 0ull;
  if (v > 0) out[wave * warpSize + __popcll(below)] = v;
  if (lane == 0) counts[wave] = __popcll(keep);
}
