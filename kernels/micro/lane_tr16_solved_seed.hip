// lane_tr16_solved_seed — the gfx950 V-fragment load exactly as the production kernel uses it:
// ll_load_v_fragment, i.e. one ds_read_b64_tr_b16 at ll_v_fragment_seed, the solved seed
// row 4*(L/16) + (L%16)/4, chunk L%4. Expected to equal load_fragment + transpose_mma_tile
// (lane_fragment_transpose) on all 64 lanes (seed file 000: 0/256 mismatches).
// lanelab-arch: gfx950
// lanelab-why: ds_read_b64_tr_b16 exists only on gfx950
// Image: 2048 bytes, the f16 tile region: 16 rows x 64 f16, row stride 128 bytes, k128B swizzle
//   (8-byte unit offset row*16 + (chunk ^ (row % 8))); tile T = logical chunks 0..3.
// Seed: row R = 4*(L/16) + (L%16)/4, chunk C = L%4: LDS byte address 8 * (16*R + (C ^ (R % 8))).
// Dump: NDW = 2 (dword 0 = 16-bit elements 0,1, dword 1 = elements 2,3), then
//   out[128 + L] = the LDS byte address.
// Arches: gfx950 only. Mutant V_SEED_FRAGMENT turns the seed into the load_fragment seed.
#include "lanelab_fragments.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 2048, kNdw = 2;

extern "C" __global__ void lane_tr16_solved_seed(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  uint32_t addr;
  const ll_u32x2 v = ll_load_v_fragment<ll_swizzle::k128B, 16>(ll_micro_lds(smem), 0, 0, &addr);
  ll_micro_put(out, kNdw, 0, v.x);
  ll_micro_put(out, kNdw, 1, v.y);
  ll_micro_put_addr(out, kNdw, addr);
}
