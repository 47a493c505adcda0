// argmax_atomic: the index of the largest unsigned key (ties: the largest index) via atomicMax
// on a packed 64-bit (key << 32 | index) in global memory, plus atomicMin of the key and an
// atomicOr of all keys.
#include <hip/hip_runtime.h>

__global__ void argmax_atomic(const unsigned *keys, unsigned long long *best, unsigned *lowest, unsigned *any_bits,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMax(best, (unsigned long long)keys[i] << 32 | (unsigned)i);
  atomicMin(lowest, keys[i]);
  atomicOr(any_bits, keys[i]);
}
