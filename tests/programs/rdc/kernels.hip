// tests/programs/rdc/kernels.hip — kernels that call device code of device_lib.hip (-fgpu-rdc),
// and the host functions that launch them and read the __device__ variable defined there.
#include <hip/hip_runtime.h>

extern __device__ int rdc_launches;
extern __device__ float rdc_scale(float);
extern __device__ void rdc_store(float *p, int i, float v);

__global__ void rdc_fill(float *out) {
  out[threadIdx.x] = rdc_scale((float)threadIdx.x);
  if (threadIdx.x == 0) atomicAdd(&rdc_launches, 1);
}
__global__ void rdc_far(float *out) { rdc_store(out, (int)threadIdx.x * 1000000, 1.0f); }

hipError_t rdc_run(float *out, bool far) {
  if (far) rdc_far<<<1, 64>>>(out);
  else rdc_fill<<<1, 64>>>(out);
  return hipDeviceSynchronize();
}
int rdc_launch_count() {
  int c = -1;
  return hipMemcpyFromSymbol(&c, HIP_SYMBOL(rdc_launches), sizeof c) == hipSuccess ? c : -1;
}
