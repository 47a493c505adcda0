// Vector add with every call checked: hipMalloc, hipMemcpy both ways, <<<>>>, hipGetLastError,
// hipDeviceSynchronize, hipFree; the result against a + b computed on the host.
#include "common.h"
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  const dim3 t = threadIdx, b_ = blockIdx; // HIP's dim3 from the built-in ids
  int i = b_.x * blockDim.x + t.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  if (argc > 2 && !std::strcmp(argv[1], "wait")) { // `vector_add wait FILE`: reaches the runtime, writes its
    // pid and exec's summary path to FILE (written whole, then renamed), then waits for a signal (60 s)
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    const char *sum = std::getenv("LANELAB_EXEC_SUMMARY");
    std::string tmp = std::string(argv[2]) + ".tmp";
    FILE *f = std::fopen(tmp.c_str(), "w");
    if (!f) return 4;
    std::fprintf(f, "%ld %s\n", (long)getpid(), sum ? sum : "-");
    std::fclose(f);
    if (std::rename(tmp.c_str(), argv[2]) != 0) return 4;
    for (int i = 0; i < 600; i++) usleep(100000);
    return 5;
  }
  if (argc > 1) { // `vector_add exit3`: a program that reaches the runtime and then fails (exec's exit status)
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    return 3;
  }
  const int n = 1000; // not a multiple of the block: the bounds check matters
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; i++) a[i] = 0.5f * i, b[i] = 1000.0f - i;
  float *da, *db, *dc;
  size_t free0 = 0, total = 0, free1 = 0;
  HIP_CHECK(hipMemGetInfo(&free0, &total));
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMemGetInfo(&free1, &total));
  EXPECT(free0 - free1 == n * sizeof(float) && free0 <= total, "hipMemGetInfo: %zu free before, %zu after", free0, free1);
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dc, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  const int block = 256;
  vector_add<<<(n + block - 1) / block, block>>>(da, db, dc, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(c[i] == a[i] + b[i], "c[%d] = %g, want %g", i, c[i], a[i] + b[i]);
  // a wrong copy kind is an error, and nothing is copied
  float probe = 7.0f;
  EXPECT(hipMemcpy(&probe, dc, sizeof probe, hipMemcpyHostToDevice) == hipErrorInvalidValue, "a H2D copy into host memory fails");
  EXPECT(probe == 7.0f, "probe untouched");
  EXPECT(hipGetLastError() == hipErrorInvalidValue, "the last error is kept until read");
  EXPECT(hipGetLastError() == hipSuccess, "and reset by reading it");
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  EXPECT(hipFree(dc) == hipErrorInvalidValue, "a second free fails");
  // hipDeviceReset frees what is left and the device starts over
  float *left;
  HIP_CHECK(hipMalloc(&left, 64));
  HIP_CHECK(hipDeviceReset());
  EXPECT(hipFree(left) == hipErrorInvalidValue, "after hipDeviceReset the allocation is gone");
  (void)hipGetLastError();
  HIP_CHECK(hipMalloc(&left, 64));
  vector_add<<<1, 16>>>(left, left, left, 16);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(left));
  std::printf("vector_add: %d elements ok\n", n);
  return 0;
}
