// Pinned and managed memory, asynchronous copies and events: hipHostMalloc buffers copied with
// hipMemcpyAsync around a kernel, timed with hipEventRecord/hipEventElapsedTime; a kernel that
// reads pinned memory directly (hipHostGetDevicePointer) and one that writes managed memory the
// host then reads without a copy.
#include "../common.h"

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void scale_inplace(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= s;
}

int main() {
  const int n = 512;
  float *hin, *hout, *din, *dout;
  HIP_CHECK(hipHostMalloc(&hin, n * sizeof(float), hipHostMallocDefault));
  HIP_CHECK(hipHostMalloc(&hout, n * sizeof(float), hipHostMallocDefault));
  for (int i = 0; i < n; i++) hin[i] = 0.5f * i - 7.0f, hout[i] = -1.0f;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  hipStream_t s;
  hipEvent_t start, stop;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipEventRecord(start, s));
  HIP_CHECK(hipMemcpyAsync(din, hin, n * sizeof(float), hipMemcpyHostToDevice, s));
  square<<<n / 128, 128, 0, s>>>(din, dout, n);
  HIP_CHECK(hipMemcpyAsync(hout, dout, n * sizeof(float), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipEventRecord(stop, s));
  HIP_CHECK(hipEventSynchronize(stop));
  HIP_CHECK(hipEventQuery(stop));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f, "elapsed %g ms", ms);
  for (int i = 0; i < n; i++) EXPECT(hout[i] == hin[i] * hin[i], "out[%d] = %g", i, hout[i]);
  // zero-copy: the kernel reads and writes the pinned buffers themselves
  float *dev_view = nullptr;
  HIP_CHECK(hipHostGetDevicePointer((void **)&dev_view, hin, 0));
  EXPECT(dev_view == hin, "pinned memory has one address for host and device");
  square<<<n / 128, 128>>>(dev_view, hout, n);
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(hout[i] == hin[i] * hin[i], "zero-copy out[%d] = %g", i, hout[i]);
  // managed memory: written by the host, scaled by a kernel, read by the host
  float *m;
  HIP_CHECK(hipMallocManaged(&m, n * sizeof(float)));
  for (int i = 0; i < n; i++) m[i] = (float)i;
  HIP_CHECK(hipMemPrefetchAsync(m, n * sizeof(float), 0, s));
  scale_inplace<<<n / 128, 128, 0, s>>>(m, 3.0f, n);
  HIP_CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(m[i] == 3.0f * i, "managed m[%d] = %g", i, m[i]);
  hipPointerAttribute_t a;
  HIP_CHECK(hipPointerGetAttributes(&a, m));
  EXPECT(a.type == hipMemoryTypeManaged && a.isManaged, "managed pointer attributes");
  HIP_CHECK(hipPointerGetAttributes(&a, din));
  EXPECT(a.type == hipMemoryTypeDevice && a.hostPointer == nullptr, "device pointer attributes");
  HIP_CHECK(hipFree(m));
  HIP_CHECK(hipHostFree(hin));
  HIP_CHECK(hipHostFree(hout));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  HIP_CHECK(hipStreamDestroy(s));
  std::printf("async_events: ok\n");
  return 0;
}
