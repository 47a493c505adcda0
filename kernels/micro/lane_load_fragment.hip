// lane_load_fragment — load_fragment alone: each lane does one ds_read_b64 of 4 f16 at the
// load_fragment seed, which gives the MFMA A layout.
// Image: 2048 bytes, the f16 tile region: 16 rows x 64 f16, row stride 128 bytes, stored with
//   the k128B swizzle (8-byte unit offset row*16 + (chunk ^ (row % 8))). The 16x16 tile T is
//   logical chunks 0..3 of the 16 rows (the host fills it; tags per the micro-kernel conventions).
// Seed: lane L reads row L%16, chunk L/16: LDS byte address 8 * (16*(L%16) + ((L/16) ^ (L%8))).
// Dump: NDW = 2 (the ds_read_b64 result: dword 0 = f16 elements 0,1, dword 1 = elements 2,3),
//   then out[128 + L] = the LDS byte address.
// Arches: gfx942, gfx950.
#include "lanelab_fragments.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 2048, kNdw = 2;

extern "C" __global__ void lane_load_fragment(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  uint32_t addr;
  const ll_u32x2 v = ll_load_fragment<ll_swizzle::k128B, 16>(ll_micro_lds(smem), 0, 0, &addr);
  ll_micro_put(out, kNdw, 0, v.x);
  ll_micro_put(out, kNdw, 1, v.y);
  ll_micro_put_addr(out, kNdw, addr);
}
