// Device assert: a kernel whose assert fails prints HIP's message (file, line, function, the
// expression) and traps; the program's next synchronizing call returns hipErrorAssert. A kernel
// whose asserts hold runs as usual. The program checks both.
#include "../common.h"
#include <cassert>

__global__ void check_sorted(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) assert(v[i] <= v[i + 1]); // ASSERT
}

int main() {
  const int n = 128;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = 2 * i;
  int *d;
  HIP_CHECK(hipMalloc(&d, sizeof h));
  HIP_CHECK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  check_sorted<<<2, 64>>>(d, n);
  HIP_CHECK(hipDeviceSynchronize());
  h[77] = -1; // out of order at 76/77
  HIP_CHECK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  check_sorted<<<2, 64>>>(d, n);
  hipError_t e = hipDeviceSynchronize();
  std::printf("device_assert: sync returned %s\n", hipGetErrorName(e));
  EXPECT(e == hipErrorAssert, "a failed device assert gives hipErrorAssert");
  return 0;
}
