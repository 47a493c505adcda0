// shfl_width: HIP's `width` argument: within groups of 16 lanes, out[4i..4i+3] = __shfl(v, 3, 16),
// __shfl_up(v, 2, 16), __shfl_down(v, 5, 16), __shfl_xor(v, 9, 16), for float v (a lane whose
// source falls outside its group keeps its own value; __shfl reads lane 3 of its own group).
#include <hip/hip_runtime.h>

__global__ void shfl_width(const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float v = in[i];
  out[4 * i] = __shfl(v, 3, 16);
  out[4 * i + 1] = __shfl_up(v, 2, 16);
  out[4 * i + 2] = __shfl_down(v, 5, 16);
  out[4 * i + 3] = __shfl_xor(v, 9, 16);
}
