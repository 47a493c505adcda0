// lane_mfma_32x32x8_f16 — MFMA operand/result probe for v_mfma_f32_32x32x8_f16.
// Image: 1024 bytes: A (32x8 f16, M x K, row-major: A[i][k] at byte 2*(8*i + k)) then
//   B (8x32 f16, K x N, row-major: B[k][j] at byte 512 + 2*(32*k + j)); the host picks values.
// Operand layout written in device code (CDNA3 ISA §7.1.4 general rule, docs/isa.md): K_L =
//   K*M/64 = 4; lane L holds A[L%32][4*(L/32) + t] and B[4*(L/32) + t][L%32] as item t = 0..3,
//   item t in VGPR t/2, half t%2. C = 0.
// Seed: the lane's A items start at LDS byte 2*(8*(L%32) + 4*(L/32)); that address is dumped.
// Dump: NDW = 16 = the D registers (f32 bits): D[i][j] is in lane j + 32*((i/4)%2), dword
//   4*(i/8) + i%4 (docs/isa.md table); then out[1024 + L] = the A address above.
// Arches: gfx942, gfx950.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kM = 32, kN = 32, kK = 8, kKL = 4, kBOff = 2 * kM * kK;
constexpr uint32_t kImageBytes = kBOff + 2 * kK * kN, kNdw = 16;

extern "C" __global__ void lane_mfma_32x32x8_f16(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *lds = ll_micro_lds(smem);
  const uint32_t kb = kKL * (L / kM);
  const uint32_t a_first = 2 * (kK * (L % kM) + kb);
  uint16_t a[kKL], b[kKL];
  ll_micro_load_items16<kKL>(a, lds, a_first, 2);
  ll_micro_load_items16<kKL>(b, lds, kBOff + 2 * (kN * kb + L % kN), 2 * kN);
  const ll_halfx4 av = __builtin_bit_cast(ll_halfx4, a);
  const ll_halfx4 bv = __builtin_bit_cast(ll_halfx4, b);
  const ll_f32x16 d = __builtin_amdgcn_mfma_f32_32x32x8f16(av, bv, ll_f32x16{}, 0, 0, 0);
  // Bit-cast the whole vector, then index: clang-22 lowers __builtin_bit_cast(uint32_t, d[r]) on
  // an ext_vector element as a read of element 0 for every r (seen here: all 16 dumped registers
  // held D's first register; reproduced on the host with clang++-22 -O0). lanelab's lanes stage
  // caught it as 943/1024 mismatches.
  const ll_u32x16 du = __builtin_bit_cast(ll_u32x16, d);
#pragma unroll
  for (uint32_t r = 0; r < kNdw; r++) ll_micro_put(out, kNdw, r, du[r]);
  ll_micro_put_addr(out, kNdw, ll_lds_addr(lds + a_first));
}
