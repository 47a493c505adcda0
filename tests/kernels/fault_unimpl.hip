// Fault-injection kernels for tests/test_faults.c: instructions the emulator has no semantics for
// (emu/ops.def has no row for s_getreg_b32; emu/decode.c marks every scratch_* instruction
// unimplemented: lanelab's kernels use no private memory). Inline asm puts exactly that
// instruction in the code object; executing it must stop the run, never skip it.
#include "lanelab_device.h"

extern "C" __global__ void fault_getreg(uint32_t *out) {
  uint32_t hw;
  __asm__ volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID)" : "=s"(hw));
  out[threadIdx.x] = hw;
}

extern "C" __global__ void fault_scratch(uint32_t *out) {
  uint32_t v;
  __asm__ volatile("scratch_load_dword %0, off, off\n\ts_waitcnt vmcnt(0)" : "=v"(v) : : "memory");
  out[threadIdx.x] = v;
}
