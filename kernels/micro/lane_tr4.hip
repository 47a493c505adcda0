// lane_tr4 — ds_read_b64_tr_b4 at the seed that yields the first 16 fp4 items of the B operand
// of gfx950 v_mfma_f32_16x16x128_f8f6f4 with fp4 operands, for a 128x16-nibble tile T
// (rows = k, columns = n).
// lanelab-arch: gfx950
// lanelab-why: ds_read_b64_tr_b4 exists only on gfx950
// Image: 1024 bytes: T stored linearly, row-major, row k at byte 8*k (16 nibbles = 8 bytes per
//   row; nibble n of a row = bits 4n..4n+3, little-endian); pseudo-random bytes from the host.
// Seed derivation. Target (general MFMA rule, K_L = 128*16/64 = 32 items per lane: B[k][j] is
//   item k%32 of lane j+16*(k/32), docs/isa.md): lane 16g+n holds T[32g+j][n], j = 0..15 (its first
//   16 items). Rule (CDNA4 ISA §11.4, docs/isa.md): out(16g+n)[j] = in(16g+j)[n], n,j in 0..15. So
//   in(16g+j)[n] = T[32g+j][n]: lane 16g+j reads all of row 32g+j. For lane L: row
//   32*(L/16) + L%16, LDS byte address 8*(32*(L/16) + L%16) (8-byte aligned).
// Dump: NDW = 2 (dword 0 = nibbles 0..7, dword 1 = nibbles 8..15), then out[128 + L] = address.
// Arches: gfx950 only.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 1024, kNdw = 2;

extern "C" __global__ void lane_tr4(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *p = ll_micro_lds(smem) + 8 * (32 * (L / 16) + L % 16);
  const ll_i32x2 v = __builtin_amdgcn_ds_read_tr4_b64_v2i32((ll_lds_i32x2 *)p);
  ll_micro_put(out, kNdw, 0, (uint32_t)v.x);
  ll_micro_put(out, kNdw, 1, (uint32_t)v.y);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(p));
}
