// A fault-injection stand-in for a lane-dump micro-kernel (tests/test_faults.c): the micro-kernel
// signature NAME(uint32_t *out, const uint32_t *image), built under the name of a real
// micro-kernel (-DFAULT_MICRO_NAME=lane_tr16_solved_seed) and swapped into a copy of the build
// directory, so `lanelab verify` runs it in place of the real one. It faults instead of dumping:
//   gfx950: ds_read_b64_tr_b16 with only the even lanes in EXEC (CDNA4 ISA §11.4 needs all 64)
//   gfx942: a ds_read_b32 at byte 4 * (64 + t) of a 256-byte LDS allocation
#include "lanelab_device.h"

#ifndef FAULT_MICRO_NAME
#define FAULT_MICRO_NAME fault_micro
#endif

extern "C" __global__ void FAULT_MICRO_NAME(uint32_t *out, const uint32_t *image) {
  __shared__ uint64_t buf[32];
  uint32_t t = threadIdx.x;
  if (t < 32) buf[t] = image[t];
  __syncthreads();
  uint32_t v = 0;
#if defined(__gfx950__)
  if (!(t & 1)) {
    ll_i16x4 r = __builtin_amdgcn_ds_read_tr16_b64_v4i16((ll_lds_i16x4 *)&buf[t & 31]);
    v = __builtin_bit_cast(ll_u32x2, r).x;
  }
#else
  // 64 hidden from the compiler (an empty asm "changes" it), so the out-of-range index is not
  // provable undefined behaviour it could fold away: the read happens, at byte 4 * (64 + t).
  uint32_t k = 64;
  __asm__ volatile("" : "+v"(k));
  v = ((volatile uint32_t *)buf)[k + t];
#endif
  out[t] = v;
}
