// lane_tr6 — ds_read_b96_tr_b6 at the seed that yields the first 16 fp6 items of the B operand
// of gfx950 v_mfma_f32_16x16x128_f8f6f4 with fp6 operands, for a 128x16-item tile T of 6-bit
// items (rows = k, columns = n).
// lanelab-arch: gfx950
// lanelab-why: ds_read_b96_tr_b6 exists only on gfx950
// Image: 2048 bytes: T stored linearly, row-major, row k at byte 16*k: 12 bytes of data (item n
//   = bits 6n..6n+5 of the 96-bit little-endian row) padded to 16 so every row start is 16-byte
//   aligned under either reading of the b6 alignment rule (docs/isa.md: 16 per rocRoller, 12 per a
//   ROCm doc); pseudo-random bytes from the host, padding included.
// Seed derivation. Target (as lane_tr4, K_L = 32): lane 16g+n holds T[32g+j][n], j = 0..15.
//   Rule (CDNA4 ISA §11.4, docs/isa.md): out(16g+n)[j] = in(16g+j)[n] over the 96-bit value. So lane
//   16g+j reads the 12 data bytes of row 32g+j. For lane L: row 32*(L/16) + L%16, LDS byte
//   address 16*(32*(L/16) + L%16) (16-byte aligned).
// Dump: NDW = 3 (the 96-bit result, dword 0 = bits 0..31), then out[192 + L] = the address.
// Arches: gfx950 only.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 2048, kNdw = 3;

extern "C" __global__ void lane_tr6(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *p = ll_micro_lds(smem) + 16 * (32 * (L / 16) + L % 16);
  const ll_i32x3 v = __builtin_amdgcn_ds_read_tr6_b96_v3i32((ll_lds_i32x3 *)p);
  ll_micro_put(out, kNdw, 0, (uint32_t)v.x);
  ll_micro_put(out, kNdw, 1, (uint32_t)v.y);
  ll_micro_put(out, kNdw, 2, (uint32_t)v.z);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(p));
}
