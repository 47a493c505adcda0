// Fault-injection kernels for tests/test_faults.c: global memory out of bounds and LDS beyond the
// allocation. Compiled by the test at run time for gfx942 and gfx950 (one wave64 per workgroup).
// Each kernel takes the position of its bad access as a by-value argument, so the compiler cannot
// see (or fold away) the out-of-range index; the test states which lane and address must fault
// from the same arithmetic written on the host side.
#include "lanelab_device.h"

// out[t + skew] = t. With an out buffer of B bytes, the first lane t with 4 * (t + skew) + 4 > B
// writes out of bounds (global_store_dword).
extern "C" __global__ void fault_write_oob(uint32_t *out, uint32_t skew) {
  uint32_t t = threadIdx.x;
  out[t + skew] = t;
}

// out[t] = in[t + skew]. With an in buffer of B bytes, the first lane t with 4 * (t + skew) + 4 > B
// reads out of bounds (global_load_dword).
extern "C" __global__ void fault_read_oob(const uint32_t *in, uint32_t *out, uint32_t skew) {
  uint32_t t = threadIdx.x;
  out[t] = in[t + skew];
}

// A static LDS array of 64 dwords (256 bytes, group_segment_fixed_size); lane t writes dword
// t + skew, so with skew > 0 the lanes t >= 64 - skew write past the allocation (ds_write_b32).
extern "C" __global__ void fault_lds_beyond(uint32_t *out, uint32_t skew) {
  __shared__ uint32_t buf[64];
  uint32_t t = threadIdx.x;
  buf[t + skew] = t;
  __syncthreads();
  out[t] = buf[t];
}

// Not a fault: the regression kernel for a bug the fault kernels found. A generic pointer to
// __shared__ makes clang emit flat loads/stores whose high address dword comes from
// `s_mov_b64 s[N:N+1], src_shared_base`. out[t] = 3 * (63 - t) + 1.
extern "C" __global__ void flat_lds_roundtrip(uint32_t *out) {
  __shared__ uint32_t buf[64];
  uint32_t t = threadIdx.x;
  volatile uint32_t *g = (volatile uint32_t *)buf;
  g[t] = 3 * t + 1;
  __syncthreads();
  out[t] = g[63 - t];
}
