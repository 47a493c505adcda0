// Device memory is not host memory, as on a discrete GPU: a host read through a hipMalloc
// pointer faults (the program catches the SIGSEGV and says so), a kernel that touches plain
// malloc'd host memory faults with hipErrorIllegalAddress, and the same host memory works once
// registered with hipHostRegister. Freed with the other call (hipFree of hipHostMalloc memory,
// hipHostFree of hipMalloc memory), memory is given back as ROCm's runtime gives it back, with a
// note on stderr; registered memory is refused by both.
#include "../common.h"
#include <csetjmp>
#include <csignal>

static sigjmp_buf back;
static void on_segv(int) { siglongjmp(back, 1); }

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main() {
  // freed with the other call: hipSuccess, and then the pointer is unknown to both calls
  int *pinned, *dev;
  HIP_CHECK(hipHostMalloc(&pinned, 256, hipHostMallocDefault));
  HIP_CHECK(hipMalloc(&dev, 256));
  hipError_t e = hipFree(pinned);
  EXPECT(e == hipSuccess, "hipFree of hipHostMalloc memory: %s", hipGetErrorName(e));
  e = hipHostFree(dev);
  EXPECT(e == hipSuccess, "hipHostFree of hipMalloc memory: %s", hipGetErrorName(e));
  e = hipHostFree(pinned);
  EXPECT(e == hipErrorInvalidValue, "hipHostFree after hipFree: %s", hipGetErrorName(e));
  e = hipFree(dev);
  EXPECT(e == hipErrorInvalidValue, "hipFree after hipHostFree: %s", hipGetErrorName(e));
  // registered memory is the program's own: neither call frees it
  int *own = (int *)std::malloc(256);
  HIP_CHECK(hipHostRegister(own, 256, hipHostRegisterDefault));
  e = hipFree(own);
  EXPECT(e == hipErrorInvalidValue, "hipFree of registered memory: %s", hipGetErrorName(e));
  e = hipHostFree(own);
  EXPECT(e == hipErrorInvalidValue, "hipHostFree of registered memory: %s", hipGetErrorName(e));
  HIP_CHECK(hipHostUnregister(own));
  std::free(own);
  (void)hipGetLastError(); // the refusals above are expected
  int *d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
  struct sigaction sa = {}, old;
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, &old);
  volatile bool faulted = false;
  if (sigsetjmp(back, 1) == 0) {
    volatile int x = d[0]; // a host dereference of device memory
    (void)x;
  } else {
    faulted = true;
  }
  sigaction(SIGSEGV, &old, nullptr);
  EXPECT(faulted, "reading device memory on the host faults");
  // registered host memory is reachable from a kernel through its own address
  int *h = (int *)std::malloc(64 * sizeof(int));
  for (int i = 0; i < 64; i++) h[i] = i;
  HIP_CHECK(hipHostRegister(h, 64 * sizeof(int), hipHostRegisterDefault));
  inc<<<1, 64>>>(h);
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < 64; i++) EXPECT(h[i] == i + 1, "registered h[%d] = %d", i, h[i]);
  HIP_CHECK(hipHostUnregister(h));
  // unregistered, the same memory is unknown to the device: the kernel faults
  inc<<<1, 64>>>(h);
  e = hipDeviceSynchronize();
  EXPECT(e == hipErrorIllegalAddress, "a kernel touching unregistered host memory: %s", hipGetErrorName(e));
  for (int i = 0; i < 64; i++) EXPECT(h[i] == i + 1, "the faulting kernel changed nothing: h[%d] = %d", i, h[i]);
  std::free(h);
  std::printf("host_device_memory: ok\n");
  return 0;
}
