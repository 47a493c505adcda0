// Fault-injection kernel for tests/test_faults.c: a kernel that never ends. Each iteration stores
// to memory (a volatile store is a side effect, so the C++ forward-progress rule does not let the
// compiler delete the loop); only the emulator's per-wave instruction budget stops it.
#include "lanelab_device.h"

extern "C" __global__ void fault_hang(uint32_t *out) {
  volatile uint32_t *o = out;
  for (uint32_t i = 0;; i++) o[threadIdx.x] = i;
}
