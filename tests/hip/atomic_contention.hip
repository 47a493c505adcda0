// atomic_contention: every lane of every block adds to the same four counters in a loop, so
// workgroups running at the same time (the emulator runs them on several host threads) contend
// for one word; no update may be lost. The float and double steps are powers of two, so every
// partial sum is exact and the totals do not depend on the order.
#include <hip/hip_runtime.h>

__global__ void atomic_contention(unsigned int *c32, unsigned long long *c64, double *cd, float *cf, int iters) {
  for (int k = 0; k < iters; k++) {
    atomicAdd(c32, 1u);
    atomicAdd(c64, 3ull);
    atomicAdd(cd, 0.5);
    atomicAdd(cf, 0.25f);
  }
}
