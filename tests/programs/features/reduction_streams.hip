// A two-stage sum over two streams: each stream copies its half of the input (hipMemcpyAsync),
// reduces it block by block in shared memory (__syncthreads between the tree's steps), reduces
// the block sums with a second launch, and copies the result back; hipStreamWaitEvent orders a
// final combine on stream 0 after stream 1's work. Checked against the host's sum.
#include "../common.h"
#include <vector>

__global__ void block_reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void combine(const float *a, const float *b, float *out) { *out = *a + *b; }

int main() {
  const int n = 1 << 14, half = n / 2, block = 256, blocks = half / block;
  std::vector<float> h(n);
  double want = 0;
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 101) * 0.25f, want += h[i];
  float *din, *dpart, *dsum, *dtotal;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dpart, 2 * blocks * sizeof(float)));
  HIP_CHECK(hipMalloc(&dsum, 2 * sizeof(float)));
  HIP_CHECK(hipMalloc(&dtotal, sizeof(float)));
  hipStream_t s[2];
  hipEvent_t done1;
  HIP_CHECK(hipStreamCreate(&s[0]));
  HIP_CHECK(hipStreamCreateWithFlags(&s[1], hipStreamNonBlocking));
  HIP_CHECK(hipEventCreateWithFlags(&done1, hipEventDisableTiming));
  for (int k = 0; k < 2; k++) {
    HIP_CHECK(hipMemcpyAsync(din + k * half, h.data() + k * half, half * sizeof(float), hipMemcpyHostToDevice, s[k]));
    block_reduce<<<blocks, block, 0, s[k]>>>(din + k * half, dpart + k * blocks, half);
    block_reduce<<<1, block, 0, s[k]>>>(dpart + k * blocks, dsum + k, blocks);
  }
  HIP_CHECK(hipEventRecord(done1, s[1]));
  HIP_CHECK(hipStreamWaitEvent(s[0], done1, 0));
  combine<<<1, 1, 0, s[0]>>>(dsum, dsum + 1, dtotal);
  float got[3];
  HIP_CHECK(hipMemcpyAsync(got, dsum, 2 * sizeof(float), hipMemcpyDeviceToHost, s[0]));
  HIP_CHECK(hipMemcpyAsync(got + 2, dtotal, sizeof(float), hipMemcpyDeviceToHost, s[0]));
  HIP_CHECK(hipStreamSynchronize(s[0]));
  HIP_CHECK(hipStreamQuery(s[1]));
  double want0 = 0;
  for (int i = 0; i < half; i++) want0 += h[i];
  // the values are multiples of 0.25 summing to < 2^21: every float partial sum is exact
  EXPECT(got[0] == (float)want0, "stream 0: %.9g, want %.9g", got[0], want0);
  EXPECT(got[1] == (float)(want - want0), "stream 1: %.9g, want %.9g", got[1], want - want0);
  EXPECT(got[2] == (float)want, "total: %.9g, want %.9g", got[2], want);
  unsigned flags = 9;
  HIP_CHECK(hipStreamGetFlags(s[1], &flags));
  EXPECT(flags == hipStreamNonBlocking, "stream flags %u", flags);
  HIP_CHECK(hipStreamDestroy(s[0]));
  HIP_CHECK(hipStreamDestroy(s[1]));
  // ROCm's answer for a handle that is no longer a stream (ROCm/clr hip_stream.cpp: hipErrorContextIsDestroyed)
  EXPECT(hipStreamSynchronize(s[1]) == hipErrorContextIsDestroyed, "a destroyed stream is not a stream");
  HIP_CHECK(hipEventDestroy(done1));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dpart));
  HIP_CHECK(hipFree(dsum));
  HIP_CHECK(hipFree(dtotal));
  std::printf("reduction_streams: sum %.1f ok\n", want);
  return 0;
}
