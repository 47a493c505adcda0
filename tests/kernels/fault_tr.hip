// Fault-injection kernels for tests/test_faults.c: the gfx950 transposing LDS read
// ds_read_b64_tr_b16 used against its rules (CDNA4 ISA §11.4: EXEC must be all ones, the address
// aligned to the 8-byte data size). gfx950 only: the instruction does not exist on gfx942.
// lanelab-arch: gfx950
// lanelab-why: ds_read_b64_tr_b16 exists only on gfx950 (CDNA4)
#include "lanelab_device.h"

#if defined(__gfx950__)
static __device__ inline uint32_t tr16_lo(const ll_lds_byte *p) {
  ll_i16x4 v = __builtin_amdgcn_ds_read_tr16_b64_v4i16((ll_lds_i16x4 *)p);
  return __builtin_bit_cast(ll_u32x2, v).x;
}

// Only the odd lanes issue the read: EXEC = 0xaaaaaaaaaaaaaaaa at the ds_read_b64_tr_b16.
extern "C" __global__ void fault_tr_exec(uint32_t *out) {
  __shared__ uint64_t buf[64];
  uint32_t t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  uint32_t v = 0;
  if (t & 1) v = tr16_lo((const ll_lds_byte *)&buf[t]);
  out[t] = v;
}

// Every lane reads 8 bytes at 8 * t + skew: with skew = 4 the address of lane 0 is already not
// 8-byte aligned, while every access stays inside the 520-byte allocation.
extern "C" __global__ void fault_tr_misaligned(uint32_t *out, uint32_t skew) {
  __shared__ uint64_t buf[65];
  uint32_t t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  out[t] = tr16_lo((const ll_lds_byte *)buf + 8 * t + skew);
}
#endif
