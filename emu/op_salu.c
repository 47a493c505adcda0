/* emu/op_salu — scalar ALU and scalar memory: SOP1, SOP2, SOPC, SOPK (CDNA3 ISA chapter "Scalar
 * ALU Operations" and the listings "SOP2", "SOPK", "SOP1", "SOPC"), SMEM loads (chapter "Scalar
 * Memory Operations"). Operand 0 is the destination (SOPC: the first source). */
#include "emu/internal.h"

#define A32 uint32_t a = emu_ssrc32(w, in, 1)
#define B32 uint32_t b = emu_ssrc32(w, in, 2)
#define A64 uint64_t a = emu_ssrc64(w, in, 1)
#define B64 uint64_t b = emu_ssrc64(w, in, 2)

/* SOP2 32-bit: D = expr; SCC = scc_expr (use SCC_KEEP to leave it) */
#define SCC_KEEP w->scc
#define SOP2_32(name, expr, sccx)                                                                  \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A32;                                                                                           \
    B32;                                                                                           \
    uint32_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst32(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define SOP2_64(name, expr, sccx)                                                                  \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A64;                                                                                           \
    B64;                                                                                           \
    uint64_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
/* SOP2 with a 64-bit first source and a 32-bit second (shifts, bfe) */
#define SOP2_64_32(name, expr, sccx)                                                               \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A64;                                                                                           \
    B32;                                                                                           \
    uint64_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define SOP1_32(name, expr, sccx)                                                                  \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A32;                                                                                           \
    uint32_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst32(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
#define SOP1_64(name, expr, sccx)                                                                  \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A64;                                                                                           \
    uint64_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst64(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }
/* SOP1 with a 64-bit source and a 32-bit result (bcnt, ff1, flbit) */
#define SOP1_64_32(name, expr, sccx)                                                               \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    A64;                                                                                           \
    uint32_t d = (expr);                                                                           \
    w->scc = (sccx);                                                                               \
    emu_sdst32(w, in, 0, d);                                                                       \
    return EMU_OK;                                                                                 \
  }

static inline uint32_t bfe32(uint32_t a, uint32_t ctl, bool sgn)
{
  uint32_t off = ctl & 31, wd = (ctl >> 16) & 0x7f;
  if (wd == 0) return 0;
  if (wd > 32 - off) wd = 32 - off;
  uint32_t v = (a >> off) & (wd == 32 ? ~0u : (1u << wd) - 1);
  if (sgn && wd < 32 && (v >> (wd - 1) & 1)) v |= ~0u << wd;
  return v;
}
static inline uint64_t bfe64(uint64_t a, uint32_t ctl, bool sgn)
{
  uint32_t off = ctl & 63, wd = (ctl >> 16) & 0x7f;
  if (wd == 0) return 0;
  if (wd > 64 - off) wd = 64 - off;
  uint64_t v = (a >> off) & (wd == 64 ? ~0ull : (1ull << wd) - 1);
  if (sgn && wd < 64 && (v >> (wd - 1) & 1)) v |= ~0ull << wd;
  return v;
}
static inline bool add_ovf(uint32_t a, uint32_t b, uint32_t d)
{
  return ((a ^ d) & (b ^ d)) >> 31;
}
static inline bool sub_ovf(uint32_t a, uint32_t b, uint32_t d)
{
  return ((a ^ b) & (a ^ d)) >> 31;
}
static inline uint32_t ff1_64(uint64_t a) { return a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffu; }
static inline uint32_t flbit_64(uint64_t a) { return a ? (uint32_t)__builtin_clzll(a) : 0xffffffffu; }
static inline uint32_t flbit_i32(uint32_t a)
{
  if (a == 0 || a == 0xffffffffu) return 0xffffffffu;
  return (uint32_t)__builtin_clz((int32_t)a < 0 ? ~a : a);
}
static inline uint32_t flbit_i64(uint64_t a)
{
  if (a == 0 || a == ~0ull) return 0xffffffffu;
  return (uint32_t)__builtin_clzll((int64_t)a < 0 ? ~a : a);
}

/* ---- SOP2 (CDNA3 ISA "SOP2 Instructions") ----------------------------------------------------*/
/* The SOP2 operations the decoder also specialises (emu_salu_specialise below): one list feeds both
 * the general handlers here and the specialised forms, so the two compute the same expressions */
#define SS_SOP2_32_LIST(M)                                                                         \
  M(s_add_u32, a + b, (uint64_t)a + b > 0xffffffffu)                                               \
  M(s_sub_u32, a - b, b > a)                                                                       \
  M(s_add_i32, a + b, add_ovf(a, b, a + b))                                                        \
  M(s_sub_i32, a - b, sub_ovf(a, b, a - b))                                                        \
  M(s_and_b32, a & b, d != 0)                                                                      \
  M(s_or_b32, a | b, d != 0)                                                                       \
  M(s_lshl_b32, a << (b & 31), d != 0)                                                             \
  M(s_lshr_b32, a >> (b & 31), d != 0)                                                             \
  M(s_mul_i32, a * b, SCC_KEEP)
#define SS_SOP2_64_LIST(M)                                                                         \
  M(s_and_b64, a & b, d != 0)                                                                      \
  M(s_or_b64, a | b, d != 0)                                                                       \
  M(s_xor_b64, a ^ b, d != 0)                                                                      \
  M(s_andn2_b64, a & ~b, d != 0)
SS_SOP2_32_LIST(SOP2_32)
SS_SOP2_64_LIST(SOP2_64)
SOP2_32(s_addc_u32, a + b + w->scc, (uint64_t)a + b + w->scc > 0xffffffffu)
SOP2_32(s_subb_u32, a - b - w->scc, (uint64_t)b + w->scc > a)
SOP2_32(s_min_i32, (int32_t)a < (int32_t)b ? a : b, (int32_t)a < (int32_t)b)
SOP2_32(s_min_u32, a < b ? a : b, a < b)
SOP2_32(s_max_i32, (int32_t)a > (int32_t)b ? a : b, (int32_t)a > (int32_t)b)
SOP2_32(s_max_u32, a > b ? a : b, a > b)
SOP2_32(s_cselect_b32, w->scc ? a : b, SCC_KEEP)
SOP2_64(s_cselect_b64, w->scc ? a : b, SCC_KEEP)
SOP2_32(s_xor_b32, a ^ b, d != 0)
SOP2_32(s_andn2_b32, a & ~b, d != 0)
SOP2_32(s_orn2_b32, a | ~b, d != 0)
SOP2_64(s_orn2_b64, a | ~b, d != 0)
SOP2_32(s_nand_b32, ~(a & b), d != 0)
SOP2_64(s_nand_b64, ~(a & b), d != 0)
SOP2_32(s_nor_b32, ~(a | b), d != 0)
SOP2_64(s_nor_b64, ~(a | b), d != 0)
SOP2_32(s_xnor_b32, ~(a ^ b), d != 0)
SOP2_64(s_xnor_b64, ~(a ^ b), d != 0)
SOP2_64_32(s_lshl_b64, a << (b & 63), d != 0)
SOP2_64_32(s_lshr_b64, a >> (b & 63), d != 0)
SOP2_32(s_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)), d != 0)
SOP2_64_32(s_ashr_i64, (uint64_t)((int64_t)a >> (b & 63)), d != 0)
SOP2_32(s_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31), SCC_KEEP)
int emu_op_s_bfm_b64(emu_wave *w, const emu_insn *in)
{
  uint32_t a = emu_ssrc32(w, in, 1), b = emu_ssrc32(w, in, 2);
  emu_sdst64(w, in, 0, ((1ull << (a & 63)) - 1) << (b & 63));
  return EMU_OK;
}
SOP2_32(s_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32), SCC_KEEP)
SOP2_32(s_mul_hi_i32, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32), SCC_KEEP)
SOP2_32(s_bfe_u32, bfe32(a, b, false), d != 0)
SOP2_32(s_bfe_i32, bfe32(a, b, true), d != 0)
SOP2_64_32(s_bfe_u64, bfe64(a, b, false), d != 0)
SOP2_64_32(s_bfe_i64, bfe64(a, b, true), d != 0)
SOP2_32(s_absdiff_i32, (int32_t)a > (int32_t)b ? a - b : b - a, d != 0)
SOP2_32(s_lshl1_add_u32, (a << 1) + b, (((uint64_t)a << 1) + b) >> 32 != 0)
SOP2_32(s_lshl2_add_u32, (a << 2) + b, (((uint64_t)a << 2) + b) >> 32 != 0)
SOP2_32(s_lshl3_add_u32, (a << 3) + b, (((uint64_t)a << 3) + b) >> 32 != 0)
SOP2_32(s_lshl4_add_u32, (a << 4) + b, (((uint64_t)a << 4) + b) >> 32 != 0)
SOP2_32(s_pack_ll_b32_b16, (a & 0xffff) | b << 16, SCC_KEEP)
SOP2_32(s_pack_lh_b32_b16, (a & 0xffff) | (b & 0xffff0000u), SCC_KEEP)
SOP2_32(s_pack_hh_b32_b16, (a >> 16) | (b & 0xffff0000u), SCC_KEEP)

/* ---- SOP1 (CDNA3 ISA "SOP1 Instructions") ----------------------------------------------------*/
SOP1_32(s_mov_b32, a, SCC_KEEP)
SOP1_64(s_mov_b64, a, SCC_KEEP)
SOP1_32(s_not_b32, ~a, d != 0)
SOP1_64(s_not_b64, ~a, d != 0)
SOP1_32(s_brev_b32, emu_brev32(a), SCC_KEEP)
SOP1_64(s_brev_b64, emu_brev64(a), SCC_KEEP)
SOP1_32(s_bcnt0_i32_b32, (uint32_t)__builtin_popcount(~a), d != 0)
SOP1_64_32(s_bcnt0_i32_b64, (uint32_t)__builtin_popcountll(~a), d != 0)
SOP1_32(s_bcnt1_i32_b32, (uint32_t)__builtin_popcount(a), d != 0)
SOP1_64_32(s_bcnt1_i32_b64, (uint32_t)__builtin_popcountll(a), d != 0)
SOP1_32(s_ff0_i32_b32, ff1_64((uint32_t)~a), SCC_KEEP)
SOP1_64_32(s_ff0_i32_b64, ff1_64(~a), SCC_KEEP)
SOP1_32(s_ff1_i32_b32, ff1_64(a), SCC_KEEP)
SOP1_64_32(s_ff1_i32_b64, ff1_64(a), SCC_KEEP)
SOP1_32(s_flbit_i32_b32, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu, SCC_KEEP)
SOP1_64_32(s_flbit_i32_b64, flbit_64(a), SCC_KEEP)
SOP1_32(s_flbit_i32, flbit_i32(a), SCC_KEEP)
SOP1_64_32(s_flbit_i32_i64, flbit_i64(a), SCC_KEEP)
SOP1_32(s_sext_i32_i8, (uint32_t)(int32_t)(int8_t)a, SCC_KEEP)
SOP1_32(s_sext_i32_i16, (uint32_t)(int32_t)(int16_t)a, SCC_KEEP)
SOP1_32(s_abs_i32, (int32_t)a < 0 ? -a : a, d != 0)
int emu_op_s_cmov_b32(emu_wave *w, const emu_insn *in)
{
  if (w->scc) emu_sdst32(w, in, 0, emu_ssrc32(w, in, 1));
  return EMU_OK;
}
int emu_op_s_cmov_b64(emu_wave *w, const emu_insn *in)
{
  if (w->scc) emu_sdst64(w, in, 0, emu_ssrc64(w, in, 1));
  return EMU_OK;
}
int emu_op_s_bitset0_b32(emu_wave *w, const emu_insn *in)
{
  emu_sdst32(w, in, 0, w->s[in->o[0].reg] & ~(1u << (emu_ssrc32(w, in, 1) & 31)));
  return EMU_OK;
}
int emu_op_s_bitset1_b32(emu_wave *w, const emu_insn *in)
{
  emu_sdst32(w, in, 0, w->s[in->o[0].reg] | (1u << (emu_ssrc32(w, in, 1) & 31)));
  return EMU_OK;
}

/* saveexec family (CDNA3 ISA "S_AND_SAVEEXEC_B64" etc.): D = EXEC; EXEC = f(S0, EXEC);
 * SCC = EXEC != 0. The source is read before the destination is written. */
#define SAVEEXEC(name, f)                                                                          \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint64_t s = emu_ssrc64(w, in, 1), e = emu_exec(w), n = (f);                                   \
    emu_sdst64(w, in, 0, e);                                                                       \
    emu_wr64s(w, EMU_S_EXEC, n);                                                                   \
    w->scc = n != 0;                                                                               \
    return EMU_OK;                                                                                 \
  }
SAVEEXEC(s_and_saveexec_b64, s & e)
SAVEEXEC(s_or_saveexec_b64, s | e)
SAVEEXEC(s_xor_saveexec_b64, s ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec_b64, ~s & e)
SAVEEXEC(s_orn1_saveexec_b64, ~s | e)
/* wrexec: EXEC = f(S0, EXEC); D = the new EXEC */
#define WREXEC(name, f)                                                                            \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    uint64_t s = emu_ssrc64(w, in, 1), e = emu_exec(w), n = (f);                                   \
    emu_wr64s(w, EMU_S_EXEC, n);                                                                   \
    emu_sdst64(w, in, 0, n);                                                                       \
    w->scc = n != 0;                                                                               \
    return EMU_OK;                                                                                 \
  }
WREXEC(s_andn1_wrexec_b64, ~s & e)
WREXEC(s_andn2_wrexec_b64, s & ~e)

/* program counter (CDNA3 ISA "S_GETPC_B64", "S_SETPC_B64", "S_SWAPPC_B64"). Instructions are
 * known by their ELF vaddr (in->pc), the address faults and traces name. The kernel itself sees
 * the address the code object is loaded at: image_addr + vaddr, where the runtime mapped the
 * code object's image (its .rodata/.data/.bss are then reached PC-relatively, as on hardware).
 * With image_addr 0 (nothing mapped) the two coincide. */
static uint64_t image_base(const emu_wave *w) { return w->wg->d ? w->wg->d->image_addr : 0; }
static int jump_to(emu_wave *w, const emu_insn *in, uint64_t addr)
{
  const uint64_t base = image_base(w), pc = addr - base;
  size_t lo = 0, hi = w->ninsn;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (w->insns[mid].pc < pc) lo = mid + 1;
    else hi = mid;
  }
  if (addr < base || lo >= w->ninsn || w->insns[lo].pc != pc)
    return emu_raise(w, in, "bad jump target", -1, addr, "no instruction starts at 0x%llx (code object loaded at 0x%llx)",
                     (unsigned long long)addr, (unsigned long long)base);
  w->ip = (uint32_t)lo;
  return EMU_OK;
}
static uint64_t next_pc(const emu_wave *w, const emu_insn *in) { return image_base(w) + in->pc + in->size; }
int emu_op_s_getpc_b64(emu_wave *w, const emu_insn *in)
{
  emu_sdst64(w, in, 0, next_pc(w, in));
  return EMU_OK;
}
/* The fault record's call chain (emu_wave.calls): s_swappc_b64 enters a call; an s_setpc_b64 to
 * the instruction after the innermost call's s_swappc_b64 returns from it (the ABI's return,
 * AMDGPUUsage "Call Convention"); any other s_setpc_b64 (a tail call, an indirect jump) leaves the
 * chain as it is. Deeper than EMU_CALLS, a return is taken on trust. Nothing else reads it. */
int emu_op_s_setpc_b64(emu_wave *w, const emu_insn *in)
{
  const uint64_t t = emu_ssrc64(w, in, 0);
  if (w->cdepth) {
    const uint32_t top = w->cdepth - 1;
    if (top >= EMU_CALLS || t - image_base(w) == w->calls[top] + 4) w->cdepth--;
  }
  return jump_to(w, in, t);
}
int emu_op_s_swappc_b64(emu_wave *w, const emu_insn *in)
{
  uint64_t t = emu_ssrc64(w, in, 1);
  emu_sdst64(w, in, 0, next_pc(w, in));
  if (w->cdepth < EMU_CALLS) w->calls[w->cdepth] = in->pc;
  w->cdepth++;
  return jump_to(w, in, t);
}

/* ---- SOPK (CDNA3 ISA "SOPK Instructions"): 16-bit immediate, sign-extended for i32 forms ----*/
static inline uint32_t simm(const emu_insn *in, int i) { return (uint32_t)(int32_t)(int16_t)(uint16_t)in->o[i].ival; }
static inline uint32_t uimm(const emu_insn *in, int i) { return (uint16_t)in->o[i].ival; }
int emu_op_s_movk_i32(emu_wave *w, const emu_insn *in)
{
  emu_sdst32(w, in, 0, simm(in, 1));
  return EMU_OK;
}
int emu_op_s_cmovk_i32(emu_wave *w, const emu_insn *in)
{
  if (w->scc) emu_sdst32(w, in, 0, simm(in, 1));
  return EMU_OK;
}
int emu_op_s_addk_i32(emu_wave *w, const emu_insn *in)
{
  uint32_t a = w->s[in->o[0].reg], b = simm(in, 1), d = a + b;
  w->scc = add_ovf(a, b, d);
  emu_sdst32(w, in, 0, d);
  return EMU_OK;
}
int emu_op_s_mulk_i32(emu_wave *w, const emu_insn *in)
{
  emu_sdst32(w, in, 0, w->s[in->o[0].reg] * simm(in, 1));
  return EMU_OK;
}
#define CMPK(name, T, IMM, op)                                                                     \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    w->scc = (T)emu_ssrc32(w, in, 0) op (T)IMM(in, 1);                                             \
    return EMU_OK;                                                                                 \
  }
CMPK(s_cmpk_eq_i32, int32_t, simm, ==)
CMPK(s_cmpk_lg_i32, int32_t, simm, !=)
CMPK(s_cmpk_gt_i32, int32_t, simm, >)
CMPK(s_cmpk_ge_i32, int32_t, simm, >=)
CMPK(s_cmpk_lt_i32, int32_t, simm, <)
CMPK(s_cmpk_le_i32, int32_t, simm, <=)
CMPK(s_cmpk_eq_u32, uint32_t, uimm, ==)
CMPK(s_cmpk_lg_u32, uint32_t, uimm, !=)
CMPK(s_cmpk_gt_u32, uint32_t, uimm, >)
CMPK(s_cmpk_ge_u32, uint32_t, uimm, >=)
CMPK(s_cmpk_lt_u32, uint32_t, uimm, <)
CMPK(s_cmpk_le_u32, uint32_t, uimm, <=)

/* ---- SOPC (CDNA3 ISA "SOPC Instructions"): SCC = compare(S0, S1) -----------------------------*/
#define SOPC(name, T, op)                                                                          \
  int emu_op_##name(emu_wave *w, const emu_insn *in)                                               \
  {                                                                                                \
    w->scc = (T)emu_ssrc32(w, in, 0) op (T)emu_ssrc32(w, in, 1);                                   \
    return EMU_OK;                                                                                 \
  }
/* the 32-bit compares, here and as the specialised forms below */
#define SOPC_LIST(M)                                                                               \
  M(s_cmp_eq_i32, int32_t, ==)                                                                     \
  M(s_cmp_lg_i32, int32_t, !=)                                                                     \
  M(s_cmp_gt_i32, int32_t, >)                                                                      \
  M(s_cmp_ge_i32, int32_t, >=)                                                                     \
  M(s_cmp_lt_i32, int32_t, <)                                                                      \
  M(s_cmp_le_i32, int32_t, <=)                                                                     \
  M(s_cmp_eq_u32, uint32_t, ==)                                                                    \
  M(s_cmp_lg_u32, uint32_t, !=)                                                                    \
  M(s_cmp_gt_u32, uint32_t, >)                                                                     \
  M(s_cmp_ge_u32, uint32_t, >=)                                                                    \
  M(s_cmp_lt_u32, uint32_t, <)                                                                     \
  M(s_cmp_le_u32, uint32_t, <=)
SOPC_LIST(SOPC)
/* ---- decode-time specialisation (issue #31) ------------------------------------------------------
 * The loops' scalar bookkeeping (s_add_i32 s3, s3, -1; s_cmp_eq_u32 s3, 0) and the exec-mask
 * arithmetic run with a handler per operand form: both sources SGPRs (_ss), the second an integer
 * constant (_si) or the first (_is), their numbers and the constant fixed at decode (ss_*), no
 * operand-kind tests. The same expressions as the handlers above (SS_SOP2_32_LIST, SS_SOP2_64_LIST and
 * SOPC_LIST feed both), so the same results. What they do not cover keeps the general handler:
 * float inline constants, 64-bit literals, a 64-bit operand that is not an SGPR pair, a
 * destination that is not an SGPR. */
#define SS_GET32(x) w->s[in->ss_##x]
#define SS_GET64(x) ((uint64_t)w->s[in->ss_##x] | (uint64_t)w->s[in->ss_##x + 1] << 32)
#define SS_FORMS(name, T, GET, body)                                                               \
  static int name##_ss(emu_wave *w, const emu_insn *in)                                            \
  {                                                                                                \
    T a = GET(a), b = GET(b);                                                                      \
    body;                                                                                          \
    return EMU_OK;                                                                                 \
  }                                                                                                \
  static int name##_si(emu_wave *w, const emu_insn *in)                                            \
  {                                                                                                \
    T a = GET(a), b = (T)in->ss_k;                                                                 \
    body;                                                                                          \
    return EMU_OK;                                                                                 \
  }                                                                                                \
  static int name##_is(emu_wave *w, const emu_insn *in)                                            \
  {                                                                                                \
    T a = (T)in->ss_k, b = GET(b);                                                                 \
    body;                                                                                          \
    return EMU_OK;                                                                                 \
  }
#define SS_SOP2_32(name, expr, sccx) SS_FORMS(ss_##name, uint32_t, SS_GET32, uint32_t d = (expr); w->scc = (sccx); w->s[in->ss_d] = d)
#define SS_SOP2_64(name, expr, sccx)                                                               \
  SS_FORMS(ss_##name, uint64_t, SS_GET64, uint64_t d = (expr); w->scc = (sccx); emu_wr_pair(w, in->ss_d, d))
#define SS_SOPC(name, T, op) SS_FORMS(ss_##name, uint32_t, SS_GET32, w->scc = (T)a op (T)b)
SS_SOP2_32_LIST(SS_SOP2_32)
SS_SOP2_64_LIST(SS_SOP2_64)
SOPC_LIST(SS_SOPC)

/* kind: 2 a SOP2 with 32-bit operands, 3 with 64-bit ones, 1 a SOPC (operands 0 and 1) */
static const struct {
  emu_handler gen, ss, si, is;
  uint8_t kind;
} ss_tab[] = {
#define SS_ROW(name, kind) {emu_op_##name, ss_##name##_ss, ss_##name##_si, ss_##name##_is, kind},
#define SS_ROW2(name, expr, sccx) SS_ROW(name, 2)
#define SS_ROW3(name, expr, sccx) SS_ROW(name, 3)
#define SS_ROW1(name, T, op) SS_ROW(name, 1)
  SS_SOP2_32_LIST(SS_ROW2) SS_SOP2_64_LIST(SS_ROW3) SOPC_LIST(SS_ROW1)
#undef SS_ROW2
#undef SS_ROW3
#undef SS_ROW1
#undef SS_ROW
};

/* an operand as the forms read it: 1 an SGPR (or pair, wide), 2 a constant (its value in *k, as
 * emu_ssrc32 / emu_ssrc64 give it), 0 neither */
static int ss_opnd(const emu_opnd *o, bool wide, uint64_t *k)
{
  if (o->kind == EMU_OPK_SGPR) return (!wide || (o->n == 2 && o->reg + 1 < EMU_NSFILE)) && o->reg < EMU_NSFILE ? 1 : 0;
  if (o->kind == EMU_OPK_IMM) return *k = wide ? (uint64_t)o->ival : (uint32_t)o->ival, 2;
  if (o->kind == EMU_OPK_LIT && !wide) return *k = (uint32_t)o->ival, 2;
  return 0;
}

void emu_salu_specialise(emu_insn *in)
{
  for (size_t i = 0; i < sizeof ss_tab / sizeof *ss_tab; i++) {
    if (in->fn != ss_tab[i].gen) continue;
    bool wide = ss_tab[i].kind == 3;
    int s0 = ss_tab[i].kind == 1 ? 0 : 1;
    /* the handlers read no modifier; any but the printing ones (hex, lit()) is left to them */
    const uint8_t sem = EMU_M_NEG | EMU_M_ABS | EMU_M_SEXT | EMU_M_NEGFN | EMU_M_ABSFN;
    if (in->nop != s0 + 2 || (in->o[0].mods & sem) || (in->o[1].mods & sem) || (s0 && (in->o[2].mods & sem))) return;
    if (s0 && !(in->o[0].kind == EMU_OPK_SGPR && in->o[0].reg < EMU_NSFILE &&
                (!wide || (in->o[0].n == 2 && in->o[0].reg + 1 < EMU_NSFILE))))
      return;
    uint64_t ka = 0, kb = 0;
    int fa = ss_opnd(&in->o[s0], wide, &ka), fb = ss_opnd(&in->o[s0 + 1], wide, &kb);
    if (!fa || !fb || (fa == 2 && fb == 2)) return;
    in->ss_d = s0 ? in->o[0].reg : 0;
    in->ss_a = in->o[s0].reg, in->ss_b = in->o[s0 + 1].reg;
    in->ss_k = fa == 2 ? ka : kb;
    in->fn = fa == 2 ? ss_tab[i].is : fb == 2 ? ss_tab[i].si : ss_tab[i].ss;
    return;
  }
}

int emu_op_s_cmp_eq_u64(emu_wave *w, const emu_insn *in)
{
  w->scc = emu_ssrc64(w, in, 0) == emu_ssrc64(w, in, 1);
  return EMU_OK;
}
int emu_op_s_cmp_lg_u64(emu_wave *w, const emu_insn *in)
{
  w->scc = emu_ssrc64(w, in, 0) != emu_ssrc64(w, in, 1);
  return EMU_OK;
}
int emu_op_s_bitcmp0_b32(emu_wave *w, const emu_insn *in)
{
  w->scc = !(emu_ssrc32(w, in, 0) >> (emu_ssrc32(w, in, 1) & 31) & 1);
  return EMU_OK;
}
int emu_op_s_bitcmp1_b32(emu_wave *w, const emu_insn *in)
{
  w->scc = emu_ssrc32(w, in, 0) >> (emu_ssrc32(w, in, 1) & 31) & 1;
  return EMU_OK;
}
int emu_op_s_bitcmp0_b64(emu_wave *w, const emu_insn *in)
{
  w->scc = !(emu_ssrc64(w, in, 0) >> (emu_ssrc32(w, in, 1) & 63) & 1);
  return EMU_OK;
}
int emu_op_s_bitcmp1_b64(emu_wave *w, const emu_insn *in)
{
  w->scc = emu_ssrc64(w, in, 0) >> (emu_ssrc32(w, in, 1) & 63) & 1;
  return EMU_OK;
}

/* ---- SMEM (CDNA3 ISA "Scalar Memory Operations") ----------------------------------------------
 * s_load_dword{,x2,x4,x8,x16} sdst, sbase, offset: address = sbase + offset (an immediate, or an
 * SGPR with an optional immediate), dword aligned (the low 2 bits are ignored by hardware: we
 * fault instead, since clang never produces them). s_buffer_load_*: sbase is a V# whose base is in
 * its first 48 bits; the range check uses num_records (dword 2). */
static int smem_load(emu_wave *w, const emu_insn *in, bool buffer)
{
  const emu_opnd *d = &in->o[0];
  uint64_t base;
  uint64_t limit = ~0ull;
  if (buffer) {
    uint32_t r0 = w->s[in->o[1].reg], r1 = w->s[in->o[1].reg + 1], r2 = w->s[in->o[1].reg + 2];
    base = r0 | (uint64_t)(r1 & 0xffff) << 32;
    limit = r2;
  } else {
    base = emu_rd64s(w, in->o[1].reg);
  }
  uint64_t off = 0;
  if (in->nop > 2) off = in->o[2].kind == EMU_OPK_SGPR ? w->s[in->o[2].reg] : (uint64_t)in->o[2].ival;
  off += (uint64_t)(int64_t)in->offset;
  uint32_t n = d->n * 4u;
  if (buffer && off + n > limit)
    return emu_raise(w, in, "out-of-bounds global access", -1, base + off,
                     "s_buffer_load of %u bytes at offset %llu beyond num_records %llu", n,
                     (unsigned long long)off, (unsigned long long)limit);
  uint64_t addr = base + off;
  const uint32_t *p = emu_gptr(w, in, addr, n, 4, -1);
  if (!p) return EMU_FAULT;
  for (uint32_t i = 0; i < d->n; i++) w->s[d->reg + i] = p[i];
  emu_pend(w, in, EMU_CNT_SMEM, 0);
  return EMU_OK;
}
int emu_op_s_load_dword(emu_wave *w, const emu_insn *in) { return smem_load(w, in, false); }
int emu_op_s_buffer_load_dword(emu_wave *w, const emu_insn *in) { return smem_load(w, in, true); }
/* Scalar stores and atomics (CDNA3 ISA "Scalar Memory Operations"): s_store_dword{,x2,x4} sdata,
 * sbase, offset writes sdata at sbase + offset (the address rule of s_load above);
 * s_buffer_store_* through a V#. s_atomic_inc/dec/add sdata, sbase, offset: MEM = f(MEM, sdata),
 * the pre-op value returned into sdata with glc. Counted on lgkmcnt like the scalar loads. */
static int smem_addr(emu_wave *w, const emu_insn *in, bool buffer, uint32_t n, uint64_t *addr)
{
  uint64_t base, limit = ~0ull;
  if (buffer) {
    uint32_t r0 = w->s[in->o[1].reg], r1 = w->s[in->o[1].reg + 1];
    base = r0 | (uint64_t)(r1 & 0xffff) << 32;
    limit = w->s[in->o[1].reg + 2];
  } else {
    base = emu_rd64s(w, in->o[1].reg);
  }
  uint64_t off = 0;
  if (in->nop > 2) off = in->o[2].kind == EMU_OPK_SGPR ? w->s[in->o[2].reg] : (uint64_t)in->o[2].ival;
  off += (uint64_t)(int64_t)in->offset;
  if (buffer && off + n > limit)
    return emu_raise(w, in, "out-of-bounds global access", -1, base + off,
                     "scalar buffer access of %u bytes at offset %llu beyond num_records %llu", n,
                     (unsigned long long)off, (unsigned long long)limit);
  *addr = base + off;
  return EMU_OK;
}
static int smem_store(emu_wave *w, const emu_insn *in, bool buffer)
{
  uint32_t n = in->o[0].n * 4u;
  uint64_t a = 0; /* set by smem_addr when it returns EMU_OK (-O3 cannot tell) */
  if (smem_addr(w, in, buffer, n, &a) != EMU_OK) return EMU_FAULT;
  uint32_t *p = emu_gptr(w, in, a, n, 4, -1);
  if (!p) return EMU_FAULT;
  for (uint32_t i = 0; i < in->o[0].n; i++) p[i] = w->s[in->o[0].reg + i];
  emu_pend(w, in, EMU_CNT_SMEM, -1);
  return EMU_OK;
}
int emu_op_s_store_dword(emu_wave *w, const emu_insn *in) { return smem_store(w, in, false); }
int emu_op_s_buffer_store_dword(emu_wave *w, const emu_insn *in) { return smem_store(w, in, true); }
static uint64_t s_inc(uint64_t m, uint64_t d, uint64_t c) { return (void)c, m >= d ? 0 : m + 1; }
static uint64_t s_dec(uint64_t m, uint64_t d, uint64_t c) { return (void)c, (m == 0 || m > d) ? d : m - 1; }
static uint64_t s_add(uint64_t m, uint64_t d, uint64_t c) { return (void)c, m + d; }
static int smem_atomic(emu_wave *w, const emu_insn *in, emu_atom_fn f)
{
  uint64_t a;
  if (smem_addr(w, in, false, 4, &a) != EMU_OK) return EMU_FAULT;
  uint32_t *p = emu_gptr(w, in, a, 4, 4, -1);
  if (!p) return EMU_FAULT;
  /* one host atomic: other workgroups run concurrently (emu_atomic_rmw) */
  uint32_t old = (uint32_t)emu_atomic_rmw(p, 4, f, w->s[in->o[0].reg], 0);
  if (in->glc) {
    w->s[in->o[0].reg] = old;
    emu_pend(w, in, EMU_CNT_SMEM, 0);
  } else {
    emu_pend(w, in, EMU_CNT_SMEM, -1);
  }
  return EMU_OK;
}
int emu_op_s_atomic_inc(emu_wave *w, const emu_insn *in) { return smem_atomic(w, in, s_inc); }
int emu_op_s_atomic_dec(emu_wave *w, const emu_insn *in) { return smem_atomic(w, in, s_dec); }
int emu_op_s_atomic_add(emu_wave *w, const emu_insn *in) { return smem_atomic(w, in, s_add); }

/* s_setvskip S0, S1 (CDNA3 ISA SOPC): VSKIP = S0[S1[4:0]]; while set, vector instructions are
 * skipped (the executor checks w->vskip). */
int emu_op_s_setvskip(emu_wave *w, const emu_insn *in)
{
  w->vskip = emu_ssrc32(w, in, 0) >> (emu_ssrc32(w, in, 1) & 31) & 1;
  return EMU_OK;
}
/* VGPR indexing mode (CDNA3 ISA "VGPR Indexing"): s_set_gpr_idx_on S0, mode sets M0[7:0] = S0[7:0]
 * (the index) and M0[15:12] = mode (bit 0 SRC0, 1 SRC1, 2 SRC2, 3 DST) and turns the mode on;
 * s_set_gpr_idx_off turns it off; _idx and _mode set one field. While on, each vector
 * instruction's VGPR operands named by the mode bits are offset by the index (emu/exec.c). */
static uint32_t gpr_idx_bits(const emu_insn *in, int i)
{
  if (in->o[i].kind == EMU_OPK_IMM || in->o[i].kind == EMU_OPK_LIT) return (uint32_t)in->o[i].ival & 15;
  const char *t = in->text;
  uint32_t m = 0;
  if (strstr(t, "SRC0")) m |= 1;
  if (strstr(t, "SRC1")) m |= 2;
  if (strstr(t, "SRC2")) m |= 4;
  if (strstr(t, "DST")) m |= 8;
  return m;
}
int emu_op_s_set_gpr_idx_on(emu_wave *w, const emu_insn *in)
{
  uint32_t m0 = w->s[EMU_S_M0];
  m0 = (m0 & ~0xf0ffu) | (emu_ssrc32(w, in, 0) & 0xff) | gpr_idx_bits(in, 1) << 12;
  w->s[EMU_S_M0] = m0;
  w->gpr_idx = true;
  return EMU_OK;
}
int emu_op_s_set_gpr_idx_off(emu_wave *w, const emu_insn *in) { (void)in; w->gpr_idx = false; return EMU_OK; }
int emu_op_s_set_gpr_idx_idx(emu_wave *w, const emu_insn *in)
{
  w->s[EMU_S_M0] = (w->s[EMU_S_M0] & ~0xffu) | (emu_ssrc32(w, in, 0) & 0xff);
  return EMU_OK;
}
int emu_op_s_set_gpr_idx_mode(emu_wave *w, const emu_insn *in)
{
  w->s[EMU_S_M0] = (w->s[EMU_S_M0] & ~0xf000u) | gpr_idx_bits(in, 0) << 12;
  return EMU_OK;
}

/* s_memtime / s_memrealtime: a 64-bit counter (CDNA3 ISA: "current 64-bit timestamp", "64-bit
 * RTC"). The emulator has no clock, so both return the number of instructions the wave has issued,
 * this one included: the launch's per-wave budget less what is left of it (docs/emulator-choices.md
 * clock-counter). Every way of running a record takes its count from the budget before it runs it,
 * and SMEM records run one at a time, so the count is exact. */
int emu_op_s_memtime(emu_wave *w, const emu_insn *in)
{
  emu_sdst64(w, in, 0, emu_launch_budget(w->wg->opts) - w->budget);
  return EMU_OK;
}
/* cache maintenance: no caches are modelled, so there is nothing to write back or invalidate */
int emu_op_s_dcache_nop(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }
