// A racy reduction: each wave writes its partial sum to shared memory and wave 0 reads all of
// them back WITHOUT the __syncthreads() that should separate the two. Under the emulator's
// round-robin schedule the waves happen to run in lockstep, so the result is right and the
// program's own check passes; `lanelab exec --racecheck` finds the race, naming the write and
// the read below by file:line (tests/test_hip_programs.c checks the lines).
#include "../common.h"

__global__ void block_sum(const int *in, int *out) {
  __shared__ int partial[4];
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  for (int off = 32; off > 0; off /= 2) v += __shfl_down(v, off);
  if (t % 64 == 0) partial[t / 64] = v; // RACE-WRITE
  // missing: __syncthreads();
  if (t == 0) out[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3]; // RACE-READ
}

int main() {
  const int blocks = 2, block = 256, n = blocks * block;
  int h[n], r[blocks];
  for (int i = 0; i < n; i++) h[i] = i % 7;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof h));
  HIP_CHECK(hipMalloc(&dout, sizeof r));
  HIP_CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  block_sum<<<blocks, block>>>(din, dout);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(r, dout, sizeof r, hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    for (int i = 0; i < block; i++) want += h[b * block + i];
    EXPECT(r[b] == want, "block %d: %d, want %d", b, r[b], want);
  }
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  std::printf("racy_shared: sums ok (under this schedule)\n");
  return 0;
}
