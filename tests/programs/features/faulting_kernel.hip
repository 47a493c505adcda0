// A kernel that faults: it writes one element past its buffer. The launch returns hipSuccess (the
// fault happens on the device); the next synchronizing call returns hipErrorIllegalAddress, and
// so does every later call (a sticky error). The program checks exactly that, and exits 0 when
// the runtime behaved as HIP does.
#include "../common.h"
#include <cstring>
#include <string>

__global__ void off_by_one(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = i; // BUG: <= writes p[n]
}

// `faulting_kernel called`: the same store made by a function the kernel calls (not inlined):
// the fault names the store's line and the call's (lanelab's device backtrace).
__attribute__((noinline)) __device__ void store_at(int *p, int i) {
  p[i] = i; // BUG_CALLEE
}
__global__ void off_by_one_called(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) store_at(p, i); // CALL_SITE
}

int main(int argc, char **argv) {
  const int n = 64 * 1024; // large enough that p[n] lies in the unmapped gap after the buffer
  int *d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
  if (argc > 1 && !strcmp(argv[1], "called")) off_by_one_called<<<n / 256 + 1, 256>>>(d, n);
  else off_by_one<<<n / 256 + 1, 256>>>(d, n);
  hipError_t launch = hipGetLastError();
  hipError_t sync = hipDeviceSynchronize();
  hipError_t after = hipMemset(d, 0, 4);
  hipError_t last = hipGetLastError();
  std::printf("launch: %s\nsync: %s\nafter: %s\nlast: %s\n", hipGetErrorName(launch), hipGetErrorName(sync),
              hipGetErrorName(after), hipGetErrorName(last));
  EXPECT(launch == hipSuccess, "the launch itself succeeds");
  EXPECT(sync == hipErrorIllegalAddress, "the synchronizing call returns the fault");
  EXPECT(after == hipErrorIllegalAddress, "and every later call (sticky)");
  EXPECT(last == hipErrorIllegalAddress, "the last error is the fault");
  EXPECT(std::string(hipGetErrorString(sync)).find("illegal memory access") != std::string::npos, "HIP's message");
  std::printf("faulting_kernel: the program saw hipErrorIllegalAddress\n");
  return 0;
}
