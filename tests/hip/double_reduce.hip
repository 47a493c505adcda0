// double_reduce: sums doubles: __shfl_down on double inside each wave, then atomicAdd on a
// global double; the same values as 64-bit integers through atomicAdd(unsigned long long).
#include <hip/hip_runtime.h>

__global__ void double_reduce(const double *in, double *sum, unsigned long long *isum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? in[i] : 0.0;
  unsigned long long u = i < n ? (unsigned long long)(in[i] * 1024.0) : 0ull;
  for (int o = 32; o > 0; o >>= 1) {
    v += __shfl_down(v, o);
    u += __shfl_down(u, o);
  }
  if (__lane_id() == 0) {
    atomicAdd(sum, v);
    atomicAdd(isum, u);
  }
}
