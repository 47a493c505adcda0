// The code object tests/programs/features/module_load.hip loads at run time (hipModuleLoad); built by
// `lanelab cc --arch all` (the Makefile), not linked into any program.
#include <hip/hip_runtime.h>

__device__ float bias = 0.5f;

extern "C" __global__ void scale_bias(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * s + bias;
}

struct pair_args { int *out; int a, b; };
extern "C" __global__ void add_pair(pair_args args) { args.out[threadIdx.x] = args.a + args.b * (int)threadIdx.x; }
