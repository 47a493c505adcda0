// concat_mla_q — vLLM's concat_mla_q (docs/oracle.md, "concat_mla_q (vLLM)"): q_out[t][h] =
// q_nope[t][h][0..511] ++ q_pe[t][h][0..63], 16-bit elements (f16 or bf16: a pure copy of bits,
// one kernel serves both). q_nope / q_pe are strided views (strides in elements, innermost 1,
// every stride a multiple of 8 and the bases 16-byte aligned: each thread moves 16 bytes; a
// stride that is not is refused with s_trap);
// q_out [T, H, 576] contiguous. T = 0 returns at once.
// Stores carry the non-temporal hint (the output is written once and not re-read; docs/changes.md, change 002:
// +3..+23% on MI300X): __builtin_nontemporal_store of a 16-byte vector gives
// `global_store_dwordx4 ... nt` on gfx942 and gfx950. Loads stay normal (non-temporal loads hurt
// latency below ~2048 tokens, docs/changes.md, change 002).
// Launch (verify/prod.h prod_concat_launch): grid ceil(T*H*72 / 256), block 256; thread g
// copies 16-byte chunk g % 72 of row g / 72 (chunks 0..63 from q_nope, 64..71 from q_pe).
// Kernel: concat_mla_q(q_out, q_nope, q_pe, T, H, nope_stride_t, nope_stride_h, pe_stride_t,
//   pe_stride_h) — strides as u64 element counts.
// Mutants: CONCAT_SWAP_PE_NOPE (q_pe first, then q_nope), CONCAT_NO_NT (plain stores; caught by
// the ISA budget: no global_store_dwordx4:nt). Human-style (issue 30, mk/score-human-mutants.sh):
// H_PE_STRIDE_H_DENSE (q_pe's head stride taken as 64, pe_stride_h ignored),
// H_NOPE_TOKEN_STRIDE_FROM_HEADS (q_nope's token stride taken as H * nope_stride_h).
#include "lanelab_device.h"

#ifdef LANELAB_CONCAT_256BIT
#error "LANELAB_CONCAT_256BIT: no 256-bit path. gfx942 and gfx950 have no global_load_dwordx8/global_store_dwordx8 (llvm-mc rejects them: 'invalid instruction, did you mean ... dwordx4'); the compiler would split each access into two dwordx4 (docs/changes.md, change 002, docs/isa.md 'gfx942 vs gfx950')"
#endif
#ifndef LANELAB_MUTANT_CONCAT_SWAP_PE_NOPE
#define LANELAB_MUTANT_CONCAT_SWAP_PE_NOPE 0
#endif
#ifndef LANELAB_MUTANT_CONCAT_NO_NT
#define LANELAB_MUTANT_CONCAT_NO_NT 0
#endif

constexpr uint32_t kNope = 512, kPe = 64, kOut = kNope + kPe, kChunk = 8; // 16-bit elements
constexpr uint32_t kChunksPerRow = kOut / kChunk;                         // 72
constexpr uint32_t kNopeChunks = kNope / kChunk;                          // 64

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(256, 256))) void concat_mla_q(
    uint16_t *q_out, const uint16_t *q_nope, const uint16_t *q_pe, uint32_t T, uint32_t H,
    uint64_t nope_stride_t, uint64_t nope_stride_h, uint64_t pe_stride_t, uint64_t pe_stride_h) {
  // Contract: every stride a multiple of kChunk (each thread moves 16 aligned bytes); another
  // stride is refused with s_trap, not read misaligned (tests/test_prod.c).
  if (nope_stride_t % kChunk != 0 || nope_stride_h % kChunk != 0 || pe_stride_t % kChunk != 0 ||
      pe_stride_h % kChunk != 0)
    __builtin_trap();
  if (T == 0) return;
  const uint64_t g = (uint64_t)ll_block_id_x() * 256 + ll_thread_id_x();
  const uint64_t rows = (uint64_t)T * H;
  if (g >= rows * kChunksPerRow) return;
  const uint64_t row = g / kChunksPerRow;
  const uint32_t chunk = (uint32_t)(g % kChunksPerRow);
  const uint64_t t = row / H, h = row % H;
  const uint16_t *src;
#if LANELAB_MUTANT_CONCAT_SWAP_PE_NOPE
  // q_pe's 8 chunks first, then q_nope's 64
  if (chunk < kPe / kChunk)
    src = q_pe + t * pe_stride_t + h * pe_stride_h + chunk * kChunk;
  else
    src = q_nope + t * nope_stride_t + h * nope_stride_h + (chunk - kPe / kChunk) * kChunk;
#else
  if (chunk < kNopeChunks)
    src = q_nope + t * nope_stride_t + h * nope_stride_h + chunk * kChunk;
  else
    src = q_pe + t * pe_stride_t + h * pe_stride_h + (chunk - kNopeChunks) * kChunk;
#endif
#ifdef LANELAB_MUTANT_H_PE_STRIDE_H_DENSE
  if (chunk >= kNopeChunks) src = q_pe + t * pe_stride_t + h * kPe + (chunk - kNopeChunks) * kChunk;
#endif
#ifdef LANELAB_MUTANT_H_NOPE_TOKEN_STRIDE_FROM_HEADS
  if (chunk < kNopeChunks) src = q_nope + t * H * nope_stride_h + h * nope_stride_h + chunk * kChunk;
#endif
  const ll_u32x4 v = *(const ll_u32x4 *)src;
  ll_u32x4 *dst = (ll_u32x4 *)(q_out + row * kOut + chunk * kChunk);
#if LANELAB_MUTANT_CONCAT_NO_NT
  *dst = v;
#else
  __builtin_nontemporal_store(v, dst);
#endif
}
