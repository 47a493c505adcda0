// Stack size: a recursive kernel (a dynamic stack) whose frames need more than HIP's default stack
// of 1024 bytes per work-item. `stack_limit` raises it with hipDeviceSetLimit(hipLimitStackSize)
// first and checks the result against the host's recursion; `stack_limit default` keeps 1024, so
// the kernel runs past its stack (a fault naming the private segment's 1024 bytes).
#include "../common.h"
#include <cstring>

__device__ __noinline__ int stack_deep(int n, int seed) {
  volatile int frame[48];
  for (int i = 0; i < 48; i++) frame[i] = seed + i * n;
  int s = n > 0 ? stack_deep(n - 1, seed + 1) : 0;
  for (int i = 0; i < 48; i++) s += frame[i];
  return s;
}
__global__ void stack_kernel(int *out, int depth) { out[threadIdx.x] = stack_deep(depth, (int)threadIdx.x); }
static int stack_ref(int n, int seed) {
  int s = n > 0 ? stack_ref(n - 1, seed + 1) : 0;
  for (int i = 0; i < 48; i++) s += seed + i * n;
  return s;
}

int main(int argc, char **argv) {
  size_t lim = 0;
  HIP_CHECK(hipDeviceGetLimit(&lim, hipLimitStackSize));
  printf("stack_limit: default %zu\n", lim);
  if (argc < 2 || strcmp(argv[1], "default")) {
    HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, 16384));
    HIP_CHECK(hipDeviceGetLimit(&lim, hipLimitStackSize));
    printf("stack_limit: set %zu\n", lim);
  }
  int *d, h[64];
  HIP_CHECK(hipMalloc(&d, sizeof h));
  stack_kernel<<<1, 64>>>(d, 12);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++)
    if (h[t] != stack_ref(12, t)) return printf("stack_limit: lane %d: %d, want %d\n", t, h[t], stack_ref(12, t)), 1;
  printf("stack_limit: ok\n");
  return 0;
}
