// lane_tr16_fragment_seed — ds_read_b64_tr_b16 fed the load_fragment seed: the "obvious" and
// wrong seed on gfx950 (seed file 000: lane 0 then gets tags {0, 64, 128, 192}).
// lanelab-arch: gfx950
// lanelab-why: ds_read_b64_tr_b16 exists only on gfx950
// Image: 2048 bytes, the f16 tile region: 16 rows x 64 f16, row stride 128 bytes, k128B swizzle
//   (8-byte unit offset row*16 + (chunk ^ (row % 8))); tile T = logical chunks 0..3.
// Seed: lane L addresses row L%16, chunk L/16: LDS byte address 8 * (16*(L%16) + ((L/16) ^ (L%8))).
// Dump: NDW = 2 (the tr_b16 result: dword 0 = 16-bit elements 0,1, dword 1 = elements 2,3),
//   then out[128 + L] = the LDS byte address.
// Arches: gfx950 only.
#include "lanelab_fragments.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 2048, kNdw = 2;

extern "C" __global__ void lane_tr16_fragment_seed(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const ll_lds_byte *p = ll_seed_ptr<ll_swizzle::k128B, 16>(ll_micro_lds(smem), 0, 0,
                                                             ll_fragment_seed(ll_lane_id()));
  const ll_u32x2 v = ll_ds_read_tr16_b64(p);
  ll_micro_put(out, kNdw, 0, v.x);
  ll_micro_put(out, kNdw, 1, v.y);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(p));
}
