// lane_tr8 — ds_read_b64_tr_b8 at the seed that yields the B operand of
// v_mfma_f32_16x16x32_fp8_fp8 for a 32x16-byte tile T (rows = k, columns = n).
// lanelab-arch: gfx950
// lanelab-why: ds_read_b64_tr_b8 exists only on gfx950
// Image: 512 bytes: T stored linearly, row-major, row k at byte 16*k (16 bytes per row); the host
//   fills it with pseudo-random bytes.
// Seed derivation. Target (MFMA 16x16x32 fp8 B operand: B[k][j] is byte k%8 of lane j+16*(k/8),
//   docs/isa.md): lane 16g+n holds T[8g+j][n], j = 0..7. Rule (CDNA4 ISA §11.4, docs/isa.md):
//   out(16g+8a+b)[j] = in(16g+2j+a)[b], a in 0..1, b,j in 0..7. Put n = 8a+b: we need
//   in(16g+2j+a)[b] = T[8g+j][8a+b], so lane 16g+2j+a must read the 8 bytes T[8g+j][8a..8a+7].
//   Hence for lane L (g = L/16, j = (L%16)/2, a = L%2): row 8*(L/16) + (L%16)/2, byte column
//   8*(L%2); LDS byte address 16*(8*(L/16) + (L%16)/2) + 8*(L%2) (8-byte aligned).
// Dump: NDW = 2 (dword 0 = bytes 0..3, dword 1 = bytes 4..7), then out[128 + L] = the address.
// Arches: gfx950 only.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 512, kNdw = 2;

extern "C" __global__ void lane_tr8(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *p = ll_micro_lds(smem) + 16 * (8 * (L / 16) + (L % 16) / 2) + 8 * (L % 2);
  const ll_i32x2 v = __builtin_amdgcn_ds_read_tr8_b64_v2i32((ll_lds_i32x2 *)p);
  ll_micro_put(out, kNdw, 0, (uint32_t)v.x);
  ll_micro_put(out, kNdw, 1, (uint32_t)v.y);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(p));
}
