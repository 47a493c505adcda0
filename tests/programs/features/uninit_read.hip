// An uninitialized read: the output buffer is allocated with hipMalloc and only its first half is
// set with hipMemset, but the kernel accumulates into every element (out[i] += ...). The emulator
// zero-fills device memory, so the program's own check passes; on a GPU the second half holds
// whatever was there. `lanelab exec --initcheck` reports the read of the never-written bytes,
// naming the line below (tests/test_hip_programs.c checks it).
#include "../common.h"

__global__ void accumulate(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += in[i]; // UNINIT-READ
}

int main() {
  const int n = 256;
  float h[n], r[n];
  for (int i = 0; i < n; i++) h[i] = 0.5f * i;
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof h));
  HIP_CHECK(hipMalloc(&dout, sizeof r));
  HIP_CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, sizeof r / 2)); // BUG: only the first half is initialized
  accumulate<<<n / 64, 64>>>(din, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(r, dout, sizeof r, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r[i] == h[i], "out[%d] = %g", i, r[i]);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  std::printf("uninit_read: ok (the emulator's memory starts zeroed)\n");
  return 0;
}
