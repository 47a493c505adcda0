// lane_mfma_16x16x32_f16 — MFMA operand/result probe for gfx950's v_mfma_f32_16x16x32_f16.
// lanelab-arch: gfx950
// lanelab-why: v_mfma_f32_16x16x32_f16 exists only on gfx950
// Image: 2048 bytes: A (16x32 f16, M x K, row-major: A[i][k] at byte 2*(32*i + k)) then
//   B (32x16 f16, K x N, row-major: B[k][j] at byte 1024 + 2*(16*k + j)); the host picks values.
// Operand layout written in device code (CDNA4 ISA §7.1.4 general rule, docs/isa.md): K_L =
//   K*M/64 = 8; lane L holds A[L%16][8*(L/16) + t] and B[8*(L/16) + t][L%16] as item t = 0..7,
//   item t in VGPR t/2, half t%2. C = 0.
// Seed: the lane's A items start at LDS byte 2*(32*(L%16) + 8*(L/16)); that address is dumped.
// Dump: NDW = 4 = the D registers (f32 bits): D[i][j] is in lane j + 16*(i/4), dword i%4
//   (docs/isa.md: "as 16x16"); then out[256 + L] = the A address above.
// Arches: gfx950 only.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kM = 16, kN = 16, kK = 32, kKL = 8, kBOff = 2 * kM * kK;
constexpr uint32_t kImageBytes = kBOff + 2 * kK * kN, kNdw = 4;

extern "C" __global__ void lane_mfma_16x16x32_f16(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *lds = ll_micro_lds(smem);
  const uint32_t kb = kKL * (L / kM);
  const uint32_t a_first = 2 * (kK * (L % kM) + kb);
  uint16_t a[kKL], b[kKL];
  ll_micro_load_items16<kKL>(a, lds, a_first, 2);
  ll_micro_load_items16<kKL>(b, lds, kBOff + 2 * (kN * kb + L % kN), 2 * kN);
  const ll_halfx8 av = __builtin_bit_cast(ll_halfx8, a);
  const ll_halfx8 bv = __builtin_bit_cast(ll_halfx8, b);
  const ll_f32x4 d = __builtin_amdgcn_mfma_f32_16x16x32_f16(av, bv, ll_f32x4{0, 0, 0, 0}, 0, 0, 0);
  const ll_u32x4 du = __builtin_bit_cast(ll_u32x4, d);
#pragma unroll
  for (uint32_t r = 0; r < kNdw; r++) ll_micro_put(out, kNdw, r, du[r]);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(lds + a_first));
}
