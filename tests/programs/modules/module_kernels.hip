// The code object tests/programs/features/module_load.hip loads at run time (hipModuleLoad); built by
// `lanelab cc --arch all` (the Makefile), not linked into any program.
#include <hip/hip_runtime.h>

__device__ float bias = 0.5f;

extern "C" __global__ void scale_bias(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * s + bias;
}

// scale_bias with a printf on a path it does not take (the shape of a kernel with assert or a debug
// print): a launch gets a device printf buffer. lanelab bench hip times its launches too.
extern "C" __global__ void scale_bias_printf(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * s + bias;
  else if (n < 0) printf("scale_bias_printf: n = %d\n", n);
}

struct pair_args { int *out; int a, b; };
extern "C" __global__ void add_pair(pair_args args) { args.out[threadIdx.x] = args.a + args.b * (int)threadIdx.x; }
