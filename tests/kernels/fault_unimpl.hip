// Fault-injection kernels for tests/test_faults.c: instructions the emulator has no semantics for
// (emu/ops.def has no row for s_getreg_b32 nor for the scratch_load_lds_* loads from private
// memory to LDS). Inline asm puts exactly that
// instruction in the code object; executing it must stop the run, never skip it.
#include "lanelab_device.h"

extern "C" __global__ void fault_getreg(uint32_t *out) {
  uint32_t hw;
  __asm__ volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID)" : "=s"(hw));
  out[threadIdx.x] = hw;
}

extern "C" __global__ void fault_scratch(uint32_t *out) {
  __asm__ volatile("s_mov_b32 m0, 0\n\tscratch_load_lds_dword off, off\n\ts_waitcnt vmcnt(0)" : : : "memory");
  out[threadIdx.x] = 1;
}
