// lanelab_micro.h — the frame every lane-dump micro-kernel shares (the conventions agreed for
// lanelab's micro-kernels): launched with grid 1, block 64 (one wave64) as
//   extern "C" __global__ void NAME(uint32_t *out, const uint32_t *image)
// it copies BYTES of `image` into a __shared__ array that starts at LDS byte 0, barriers, lets
// each lane compute its own LDS byte address (its seed) and run the primitive, then writes
//   out[lane*NDW + d] = dword d of the lane's result,   d = 0..NDW-1
//   out[64*NDW + lane] = the LDS byte address the lane used.
#ifndef LANELAB_MICRO_H
#define LANELAB_MICRO_H

#include "lanelab_device.h"

// Copy the image into LDS (one dword per lane per step) and make it visible to the whole wave.
// smem must be the kernel's __shared__ array; BYTES a multiple of 256.
template <uint32_t BYTES>
LL_INLINE void ll_micro_stage(uint32_t *smem, const uint32_t *image) {
  static_assert(BYTES % 256 == 0, "the image is copied 64 dwords at a time");
  const uint32_t lane = ll_lane_id();
#pragma unroll
  for (uint32_t i = 0; i < BYTES / 4; i += 64)
    smem[i + lane] = image[i + lane];
  ll_syncthreads();
}

// The LDS view of the staged image, for ll_lds_* reads.
LL_INLINE const ll_lds_byte *ll_micro_lds(const uint32_t *smem) { return (const ll_lds_byte *)smem; }

LL_INLINE void ll_micro_put(uint32_t *out, uint32_t ndw, uint32_t d, uint32_t value) {
  out[ll_lane_id() * ndw + d] = value;
}
LL_INLINE void ll_micro_put_addr(uint32_t *out, uint32_t ndw, uint32_t addr) {
  out[64 * ndw + ll_lane_id()] = addr;
}

// MFMA operand probes: read KL 16-bit items t = 0..KL-1 at LDS bytes first + t*step; in the
// returned array (bit-cast to the operand vector) item t lands in dword t/2, half t%2 — the
// operand packing of CDNA3/CDNA4 ISA §7.1.4 as summarised in docs/isa.md.
template <uint32_t KL>
LL_INLINE void ll_micro_load_items16(uint16_t (&items)[KL], const ll_lds_byte *base,
                                     uint32_t first, uint32_t step) {
#pragma unroll
  for (uint32_t t = 0; t < KL; t++)
    items[t] = *(const ll_lds_u16 *)(base + first + t * step);
}

#endif // LANELAB_MICRO_H
