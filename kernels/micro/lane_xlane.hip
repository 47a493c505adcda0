// lane_xlane — cross-lane probe: every lane loads one input dword v (ds_read_b32 at its seed)
// and each op below moves v between lanes; the dump records the result of every op.
// Image: 256 bytes: 64 dwords; lane L's input v(L) = dword L (the host chooses the values).
// Seed: lane L reads LDS byte address 4*L. out[64*NDW + L] = 4*L.
// NDW = 23 on gfx942 (dwords 0..22), 27 on gfx950 (the same 23, then 23..26).
// Ops, dword d of lane L (control values exactly as encoded; LLVM's printed form in quotes):
//  ds_bpermute_b32 (gather: L gets v((addr/4) mod 64), addr = VGPR + instruction offset; clang
//  folds constant parts into the offset field: ops 2 and 3 appear with offset:252 / offset:2):
//   0  addr = 4*(L^1)                      (HIP __shfl_xor(v, 1))
//   1  addr = 4*((L+1) % 64)
//   2  addr = 4*(63-L)
//   3  addr = 20*L + 2     (source (5L) mod 64: checks the mod-64 wrap and that addr bits 1:0
//                           are ignored)
//  ds_permute_b32 (scatter: lane L sends v(L) to lane ((addr)/4) mod 64; unwritten lanes get 0,
//  of several writers the highest lane wins):
//   4  addr = 4*((L+1) % 64)
//   5  addr = 4*(L/2)      (lanes 2k and 2k+1 both target k; lanes 32..63 receive nothing)
//  ds_swizzle_b32 (offset field; within 32-lane halves unless stated):
//   6  offset 0x0C1F  bitmask and=0x1F or=0x00 xor=0x03   "swizzle(REVERSE,4)"
//   7  offset 0x0070  bitmask and=0x10 or=0x03 xor=0x00   "swizzle(BROADCAST,16,3)"
//   8  offset 0x801B  quad-perm [3,2,1,0]                 "swizzle(QUAD_PERM,3,2,1,0)"
//   9  offset 0xC460  rotate, offset[10] = 1, offset[9:5] = 3   "swizzle(ROTATE,1,3)"
//  10  offset 0xE005  FFT, offset[4:0] = 5                "swizzle(FFT,5)"
//  DPP, v_mov_b32_dpp vdst(old = 0xDEADBEEF), v: dpp_ctrl, row_mask, bank_mask, bound_ctrl.
//  bc = the builtin's bound_ctrl argument (__builtin_amdgcn_update_dpp); checked in clang-22's
//  encoding: it sets DPP bit 19 (BC) exactly when bc = 1 (printed "bound_ctrl:1"). docs/isa.md: the
//  assembler spellings bound_ctrl:0 and :1 both set it, so the .s spelling is not the bit.
//  11  0x0B1 quad_perm:[1,0,3,2]  rm 0xF bm 0xF  bc 0
//  12  0x101 row_shl:1            rm 0xF bm 0xF  bc 0
//  13  0x113 row_shr:3            rm 0xF bm 0xF  bc 1
//  14  0x125 row_ror:5            rm 0xF bm 0xF  bc 0
//  15  0x140 row_mirror           rm 0xF bm 0xF  bc 0
//  16  0x141 row_half_mirror      rm 0xF bm 0xF  bc 0
//  17  0x142 row_bcast:15         rm 0xA bm 0xF  bc 0
//  18  0x143 row_bcast:31         rm 0xC bm 0xF  bc 0
//  19  0x138 wave_shr:1           rm 0xF bm 0xF  bc 0
//  20  0x101 row_shl:1            rm 0x5 bm 0x3  bc 1   (row and bank masks gate the write)
//  Partial EXEC: inside `if (L % 3 != 0)`; lanes with L % 3 == 0 do not execute and keep v(L):
//  21  ds_bpermute_b32 addr = 4*((L+63) % 64)   (an EXEC-off source lane yields 0)
//  22  ds_swizzle_b32 offset 0x041F, bitmask and=0x1F or=0 xor=0x01   "swizzle(SWAP,1)"
//  gfx950 only (__builtin_amdgcn_permlane{16,32}_swap(vdst_old = v, src0 = ~v, fi 0, bc 0); the
//  builtin returns {new vdst, new src0} — LLVM's intrinsic description: "the first element of
//  the return corresponds to the swapped element of the first argument"):
//  23  v_permlane16_swap_b32: new vdst    24  v_permlane16_swap_b32: new src0
//  25  v_permlane32_swap_b32: new vdst    26  v_permlane32_swap_b32: new src0
// Arches: gfx942, gfx950.
#include "lanelab_device.h"
#include "lanelab_micro.h"

constexpr uint32_t kImageBytes = 256;
#if defined(__gfx950__)
constexpr uint32_t kNdw = 27;
#else
constexpr uint32_t kNdw = 23;
#endif

#define LL_DPP(ctrl, rm, bm, bc) \
  ((uint32_t)__builtin_amdgcn_update_dpp((int)0xDEADBEEF, (int)v, (ctrl), (rm), (bm), (bc)))

extern "C" __global__ void lane_xlane(uint32_t *out, const uint32_t *image) {
  __shared__ uint32_t smem[kImageBytes / 4];
  ll_micro_stage<kImageBytes>(smem, image);
  const uint32_t L = ll_lane_id();
  const ll_lds_byte *p = ll_micro_lds(smem) + 4 * L;
  const uint32_t v = *(const ll_lds_u32 *)p;
  const int iv = (int)v;

  ll_micro_put(out, kNdw, 0, (uint32_t)__builtin_amdgcn_ds_bpermute((int)(4 * (L ^ 1)), iv));
  ll_micro_put(out, kNdw, 1, (uint32_t)__builtin_amdgcn_ds_bpermute((int)(4 * ((L + 1) % 64)), iv));
  ll_micro_put(out, kNdw, 2, (uint32_t)__builtin_amdgcn_ds_bpermute((int)(4 * (63 - L)), iv));
  ll_micro_put(out, kNdw, 3, (uint32_t)__builtin_amdgcn_ds_bpermute((int)(20 * L + 2), iv));
  ll_micro_put(out, kNdw, 4, (uint32_t)__builtin_amdgcn_ds_permute((int)(4 * ((L + 1) % 64)), iv));
  ll_micro_put(out, kNdw, 5, (uint32_t)__builtin_amdgcn_ds_permute((int)(4 * (L / 2)), iv));
  ll_micro_put(out, kNdw, 6, (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x0C1F));
  ll_micro_put(out, kNdw, 7, (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x0070));
  ll_micro_put(out, kNdw, 8, (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x801B));
  ll_micro_put(out, kNdw, 9, (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0xC460));
  ll_micro_put(out, kNdw, 10, (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0xE005));
  ll_micro_put(out, kNdw, 11, LL_DPP(0x0B1, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 12, LL_DPP(0x101, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 13, LL_DPP(0x113, 0xF, 0xF, true));
  ll_micro_put(out, kNdw, 14, LL_DPP(0x125, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 15, LL_DPP(0x140, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 16, LL_DPP(0x141, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 17, LL_DPP(0x142, 0xA, 0xF, false));
  ll_micro_put(out, kNdw, 18, LL_DPP(0x143, 0xC, 0xF, false));
  ll_micro_put(out, kNdw, 19, LL_DPP(0x138, 0xF, 0xF, false));
  ll_micro_put(out, kNdw, 20, LL_DPP(0x101, 0x5, 0x3, true));

  uint32_t masked_bperm = v, masked_swz = v;
  if (L % 3 != 0) {
    masked_bperm = (uint32_t)__builtin_amdgcn_ds_bpermute((int)(4 * ((L + 63) % 64)), iv);
    masked_swz = (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x041F);
  }
  ll_micro_put(out, kNdw, 21, masked_bperm);
  ll_micro_put(out, kNdw, 22, masked_swz);

#if defined(__gfx950__)
  const auto s16 = __builtin_amdgcn_permlane16_swap(v, ~v, false, false);
  const auto s32 = __builtin_amdgcn_permlane32_swap(v, ~v, false, false);
  ll_micro_put(out, kNdw, 23, s16[0]);
  ll_micro_put(out, kNdw, 24, s16[1]);
  ll_micro_put(out, kNdw, 25, s32[0]);
  ll_micro_put(out, kNdw, 26, s32[1]);
#endif
  ll_micro_put_addr(out, kNdw, ll_lds_addr(p));
}
