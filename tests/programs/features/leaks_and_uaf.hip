// Memory a program forgets, and memory it uses after freeing it (`lanelab exec --leakcheck`).
// `leaks_and_uaf` allocates device memory (4096 bytes), host-pinned memory (100), managed memory
// (128) and registers a host array, frees one more device allocation and the registration of
// nothing: at exit 3 allocations of 4324 bytes are not freed (the registered array is the
// program's own and not counted). `leaks_and_uaf reset` calls hipDeviceReset first, which frees
// them all, as HIP's does. `leaks_and_uaf uaf` frees a buffer and then launches a kernel reading
// it: the fault names the freed buffer (its address is never handed out again).
#include "../common.h"
#include <cstring>

__global__ void leak_read(const float *p, float *o) { o[threadIdx.x] = p[threadIdx.x] + 1.0f; } // UAF_READ

int main(int argc, char **argv) {
  const bool uaf = argc > 1 && !strcmp(argv[1], "uaf"), reset = argc > 1 && !strcmp(argv[1], "reset");
  if (uaf) {
    float *p, *o;
    HIP_CHECK(hipMalloc(&p, 256));
    HIP_CHECK(hipMalloc(&o, 256));
    HIP_CHECK(hipFree(p));
    leak_read<<<1, 64>>>(p, o);
    hipError_t e = hipDeviceSynchronize();
    std::printf("leaks_and_uaf: after the launch %s\n", hipGetErrorName(e));
    HIP_CHECK(hipFree(o));
    return 0;
  }
  void *dev, *host, *managed, *freed;
  static char own[8192];
  HIP_CHECK(hipMalloc(&dev, 4096));
  HIP_CHECK(hipHostMalloc(&host, 100, 0));
  HIP_CHECK(hipMallocManaged(&managed, 128));
  HIP_CHECK(hipMalloc(&freed, 64));
  HIP_CHECK(hipFree(freed));
  HIP_CHECK(hipHostRegister(own, sizeof own, 0));
  if (reset) HIP_CHECK(hipDeviceReset());
  std::printf("leaks_and_uaf: %s\n", reset ? "reset" : "leaving 3 allocations");
  return 0;
}
