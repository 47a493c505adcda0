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

// atomic_fp_forms: HIP's unsafe and safe floating-point atomics (unsafeAtomicAdd/Max/Min,
// safeAtomicAdd/Max/Min) on float and double, every lane of every block on the same words: the adds'
// steps are powers of two (exact in any order), max and min see every lane's own value.
__global__ void atomic_fp_forms(const float *xf, const double *xd, float *f, double *d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsafeAtomicAdd(&f[0], 0.25f);
  safeAtomicAdd(&f[1], 0.5f);
  unsafeAtomicMax(&f[2], xf[i]);
  unsafeAtomicMin(&f[3], xf[i]);
  safeAtomicMax(&f[4], xf[i]);
  safeAtomicMin(&f[5], xf[i]);
  unsafeAtomicAdd(&d[0], 0.125);
  safeAtomicAdd(&d[1], 2.0);
  unsafeAtomicMax(&d[2], xd[i]);
  unsafeAtomicMin(&d[3], xd[i]);
  safeAtomicMax(&d[4], xd[i]);
  safeAtomicMin(&d[5], xd[i]);
}
