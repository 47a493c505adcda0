// lane_fragment_transpose — the software V path: load_fragment (one ds_read_b64 at the
// load_fragment seed, A layout) followed by transpose_mma_tile (six ds_bpermute_b32), which
// gives the B layout: lane 16c+r holds T[4c..4c+3][r].
// Image: 2048 bytes, the f16 tile region: 16 rows x 64 f16, row stride 128 bytes, k128B swizzle
//   (8-byte unit offset row*16 + (chunk ^ (row % 8))); tile T = logical chunks 0..3.
// Seed: lane L reads row L%16, chunk L/16: LDS byte address 8 * (16*(L%16) + ((L/16) ^ (L%8))).
// Dump: NDW = 2 (dword 0 = f16 elements 0,1, dword 1 = elements 2,3 after the transpose),
//   then out[128 + L] = the LDS byte address of the ds_read_b64.
// Arches: gfx942, gfx950 (the software path exists on both; on gfx950 it is what the
//   transposing read replaces). Mutants TRANSPOSE_NO_QUAD_STEP / TRANSPOSE_NO_SWAP apply.
#include "lanelab_fragments.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 2048, kNdw = 2;

extern "C" __global__ void lane_fragment_transpose(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  uint32_t addr;
  const ll_u32x2 a = ll_load_fragment<ll_swizzle::k128B, 16>(ll_micro_lds(smem), 0, 0, &addr);
  const ll_u32x2 v = ll_transpose_mma_tile(a);
  ll_micro_put(out, kNdw, 0, v.x);
  ll_micro_put(out, kNdw, 1, v.y);
  ll_micro_put_addr(out, kNdw, addr);
}
