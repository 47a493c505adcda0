/* emu/fuse — runs of integer lane operations executed as one step (issue #31's superinstructions).
 *
 * clang's address arithmetic, hashing and the software transposes of gfx942 are runs of plain
 * 32-bit integer VALU instructions (v_lshlrev_b32, v_lshrrev_b32, v_cndmask_b32, v_and_or_b32,
 * v_add_u32, ...) that read and write only VGPRs of their own lane. The decoder marks each such
 * instruction with a compact form (emu_insn.fz_*) and the length of the run that starts at it
 * (fuse_n, emu_fuse_prepare); the run-ahead loop of the round-robin scheduler (emu/exec.c rr_ahead)
 * then executes up to fuse_n of them with one call here instead of one dispatch each: no handler
 * call, no operand decoding, no temporaries; each instruction is one pass of 8-lane vectors.
 *
 * What a run covers, checked at decode: the mnemonics of lop_names below, encoded e32 or e64 (no
 * SDWA, DPP), without clamp, omod, op_sel or abs/neg/sext on any operand, every operand 32 bits,
 * the destination a VGPR, each source a VGPR, an SGPR or a constant (inline integer, inline float
 * or literal), v_cndmask_b32's mask an SGPR pair (or VCC). At run time (emu/exec.c rr_ahead): EXEC all
 * ones (none of these instructions writes EXEC, so it stays so through the run), no instruction of
 * the run possibly naming a register an outstanding load still writes (the careful path then
 * reports "missing s_waitcnt" at that instruction's PC), enough budget; the run is cut before the
 * first one that fails, and anything else (a partial EXEC, VGPR indexing, VSKIP, observers, the
 * one-step schedulers) runs the ordinary handlers. None of these operations can fault, so a run
 * never has a fault to attribute. Results are bit for bit the handlers' (integer operations on
 * 32-bit lanes: the same at any vector width); tests/test_emu_cvt.c compares them on random
 * registers, aliasing included. LANELAB_EMU_NO_FUSE=1 turns runs off (for comparisons).
 *
 * Since issue #31's seventh stop runs also take v_bitop3_b32, v_bfe_u32, v_cvt_f32_ubyte0..3 and s_nop
 * (nothing to do; it no longer ends a run), and, on the AVX2+FMA host outside the sanitizer build,
 * the float operations v_add_f32, v_sub_f32, v_subrev_f32, v_mul_f32, v_fma_f32 and v_fmac_f32
 * (FZ_FLOAT_ASM below: the general handlers' NaN operand order written out); and the run-ahead loop
 * runs a lone such record as a run of one, which costs less than its handler.
 *
 * Since the fifteenth stop they take the 64-bit lane-mask scalar operations (s_and_b64, s_or_b64,
 * s_xor_b64, s_andn2_b64, s_orn2_b64, s_nand_b64, s_nor_b64, s_xnor_b64, s_mov_b64, s_not_b64 on SGPR
 * pairs, VCC, and EXEC as a source: sop_mark) between and before lane operations: bit l of their
 * result comes from bit l of their sources, so they are lane operations on the mask bits that
 * compares write and v_cndmask_b32 reads. A run of them alone stays with their handlers
 * (emu_fuse_prepare). They also take v_mov_b64, v_lshlrev_b64 and v_lshl_add_u64 with constant
 * counts (m64_mark, run64): clang's address arithmetic before global loads.
 *
 * Since the seventeenth stop they take the 32-bit scalar ALU operations that read no SCC (salu_mark:
 * s_add_i32, s_cmp_eq_u32, s_mov_b32 ... on general SGPRs and constants) and the specialised
 * v_pk_fma_f32 / v_pk_mul_f32 (emu/op_vop3p.c emu_vop3p_specialise, on the AVX2+FMA host outside the
 * sanitizer build). The runner calls their handlers in place, so their results are the handlers' by
 * construction; what they add is length: a loop's bookkeeping (s_add_i32, s_cmp) and its packed
 * arithmetic no longer cut the translated pieces around them (emu/jit.c).
 *
 * Since the forty-first stop they take v_mad_u64_u32 (mad_mark), which the runner runs by its handler in
 * place and emu/jit.c translates (clang's 64-bit address arithmetic); since the forty-second
 * ds_bpermute_b32 and s_waitcnt (FZ_XCALL), their handlers called in place as the run-ahead loop
 * calls them (emu_run_xcall), emu/jit.c's pieces running them between segments. */
#include <immintrin.h>
#include <stdlib.h>

#include "emu/internal.h"

bool emu_fuse_on = true;

__attribute__((constructor)) static void fuse_init(void)
{
  const char *e = getenv("LANELAB_EMU_NO_FUSE");
  if (e && *e && strcmp(e, "0") != 0) emu_fuse_on = false;
}

/* the operations (FZ_*): emu/internal.h, shared with emu/jit.c */

/* the runner's case of operation op with uniform sources u: FZC(op) + u, from 0 (FZ_MOV's) so that the
 * switch indexes its table without an offset (emu_insn.fz_case) */
#define FZC(op) ((op) * 8 - FZ_MOV * 8)

/* The float operations take the instruction and operand order of the general handlers' lane loops
 * in the -O2 build (emu/op_valu.c VOP_F2, fma_loop's FMA clone), written out in inline assembly:
 * where two or three operands are NaNs, which payload comes out is that order (the same choice as
 * emu/op_vop3p.c's blocks). Not in the sanitizer build (-O1 orders the loops otherwise), and taken
 * only on an AVX2+FMA host (emu_avx2); elsewhere those records are not marked and run their
 * handlers. tests/test_emu_cvt.c compares the two with NaNs in every operand. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define FZ_FLOAT_ASM 1
#endif

/* the op-table names and their semantics (each as its handler in emu/op_valu.c computes it) */
static const struct { const char *name; uint8_t op, nsrc; } lop_names[] = {
  {"v_mov_b32", FZ_MOV, 1},         {"v_not_b32", FZ_NOT, 1},           {"v_add_u32", FZ_ADD, 2},
  {"v_sub_u32", FZ_SUB, 2},         {"v_subrev_u32", FZ_SUBREV, 2},     {"v_and_b32", FZ_AND, 2},
  {"v_or_b32", FZ_OR, 2},           {"v_xor_b32", FZ_XOR, 2},           {"v_lshlrev_b32", FZ_LSHL, 2},
  {"v_lshrrev_b32", FZ_LSHR, 2},    {"v_ashrrev_i32", FZ_ASHR, 2},      {"v_mul_lo_u32", FZ_MUL_LO, 2},
  {"v_min_i32", FZ_MIN_I, 2},       {"v_max_i32", FZ_MAX_I, 2},         {"v_min_u32", FZ_MIN_U, 2},
  {"v_max_u32", FZ_MAX_U, 2},       {"v_cndmask_b32", FZ_CNDMASK, 2},   {"v_and_or_b32", FZ_AND_OR, 3},
  {"v_or3_b32", FZ_OR3, 3},         {"v_xad_u32", FZ_XAD, 3},           {"v_lshl_add_u32", FZ_LSHL_ADD, 3},
  {"v_add_lshl_u32", FZ_ADD_LSHL, 3}, {"v_add3_u32", FZ_ADD3, 3},       {"v_lshl_or_b32", FZ_LSHL_OR, 3},
  {"v_bfi_b32", FZ_BFI, 3},         {"v_bitop3_b32", FZ_BITOP3, 3},     {"v_bfe_u32", FZ_BFE_U, 3},
  {"v_cvt_f32_ubyte0", FZ_CVT_UB0, 1}, {"v_cvt_f32_ubyte1", FZ_CVT_UB1, 1}, {"v_cvt_f32_ubyte2", FZ_CVT_UB2, 1},
  {"v_cvt_f32_ubyte3", FZ_CVT_UB3, 1}, {"s_nop", FZ_NOP, 0},       {"v_exp_f32", FZ_EXP_F, 1},
  {"v_cvt_f32_f16", FZ_CVT_F32_F16, 1}, {"v_cvt_f16_f32", FZ_CVT_F16_F32, 1},
  {"v_add_f32", FZ_ADD_F, 2},       {"v_sub_f32", FZ_SUB_F, 2},         {"v_subrev_f32", FZ_SUBREV_F, 2},
  {"v_mul_f32", FZ_MUL_F, 2},       {"v_fma_f32", FZ_FMA_F, 3},         {"v_fmac_f32", FZ_FMAC_F, 2},
  {"v_max_f32", FZ_MAX_F, 2},       {"v_min_f32", FZ_MIN_F, 2},         {"v_med3_f32", FZ_MED3_F, 3},
  {"v_cvt_i32_f32", FZ_CVT_I32_F, 1}, {"v_cvt_u32_f32", FZ_CVT_U32_F, 1}, {"v_rndne_f32", FZ_RNDNE_F, 1},
  {"v_max3_f32", FZ_MAX3_F, 3},     {"v_min3_f32", FZ_MIN3_F, 3},
  /* D = S0 * S1 + K and D = S0 * K + S1 with the literal K as LLVM's operand order puts it: each handler
   * computes fma(o[1], o[2], o[3]) as v_fma_f32's does, so they are that operation */
  {"v_fmaak_f32", FZ_FMA_F, 3},     {"v_fmamk_f32", FZ_FMA_F, 3},
};

/* a uniform source j (operand oi: an SGPR or a constant) as the runner reads it: the SGPR's number,
 * or the constant's value as emu_ssrc32 gives it (emu_const32) */
static void uni_fix_at(emu_insn *in, int j, int oi)
{
  const emu_opnd *o = &in->o[oi];
  in->fz_sg = (uint8_t)(in->fz_sg & ~(1u << j));
  if (o->kind == EMU_OPK_SGPR) in->fz_k[j] = o->reg, in->fz_sg |= (uint8_t)(1u << j);
  else in->fz_k[j] = emu_const32(in, oi);
}
static void uni_fix(emu_insn *in, int j) { uni_fix_at(in, j, 1 + j); }

/* the 32-bit compares a run takes (v_cmp_<pred>_f32/i32/u32, not v_cmpx: they write EXEC): the
 * predicate, as emu/op_valu.c's F_* macros define it, in fz_src[2] */
static const struct { const char *name; uint8_t pred; bool f, i; } cmp_names[] = {
  {"lt", CP_LT, 1, 1},   {"eq", CP_EQ, 1, 1},   {"le", CP_LE, 1, 1},   {"gt", CP_GT, 1, 1},   {"ge", CP_GE, 1, 1},
  {"ne", CP_NE, 0, 1},   {"lg", CP_LG, 1, 0},   {"o", CP_O, 1, 0},     {"u", CP_U, 1, 0},     {"nge", CP_NGE, 1, 0},
  {"nlg", CP_NLG, 1, 0}, {"ngt", CP_NGT, 1, 0}, {"nle", CP_NLE, 1, 0}, {"neq", CP_NEQ, 1, 0}, {"nlt", CP_NLT, 1, 0},
};
static void cmp_mark(emu_insn *in, const char *name)
{
  char pred[8];
  size_t n = strlen(name);
  if (strncmp(name, "v_cmp_", 6) != 0 || n < 11 || n - 10 >= sizeof pred) return;
  const char *ty = name + n - 4;
  int op = !strcmp(ty, "_f32") ? FZ_CMP_F : !strcmp(ty, "_i32") ? FZ_CMP_I : !strcmp(ty, "_u32") ? FZ_CMP_U : 0;
  if (!op) return;
  memcpy(pred, name + 6, n - 10), pred[n - 10] = 0;
  int k = -1;
  for (size_t i = 0; i < sizeof cmp_names / sizeof *cmp_names; i++)
    if (!strcmp(pred, cmp_names[i].name) && (op == FZ_CMP_F ? cmp_names[i].f : cmp_names[i].i)) k = (int)i;
  if (k < 0 || in->nop != 3) return;
  /* the mask destination: an SGPR pair (or VCC), never EXEC, which a run keeps all ones */
  const emu_opnd *o = &in->o[0];
  if (o->kind != EMU_OPK_SGPR || o->n != 2 || (o->reg <= EMU_S_EXEC + 1 && o->reg + 1 >= EMU_S_EXEC)) return;
  for (int i = 1; i < 3; i++) {
    o = &in->o[i];
    if (o->mods & (EMU_M_NEG | EMU_M_ABS | EMU_M_SEXT | EMU_M_NEGFN | EMU_M_ABSFN)) return;
    if (!((o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_SGPR) && o->n == 1) && o->kind != EMU_OPK_IMM &&
        o->kind != EMU_OPK_LIT && o->kind != EMU_OPK_FIMM)
      return;
  }
  in->fz_op = (uint8_t)op;
  in->fz_dst = in->o[0].reg;
  in->fz_uni = 0;
  for (int j = 0; j < 2; j++) {
    o = &in->o[1 + j];
    if (o->kind == EMU_OPK_VGPR) in->fz_src[j] = o->reg;
    else in->fz_src[j] = 0, in->fz_uni |= (uint8_t)(1u << j), uni_fix(in, j);
  }
  in->fz_src[2] = cmp_names[k].pred;
}

/* the 64-bit lane-mask scalar operations a run takes: bit l of the result is a function of bit l of
 * the sources, so they are lane operations on the mask bits (emu/jit.c runs them 16 bits a chunk).
 * Each as its handler in emu/op_salu.c computes it: SCC = result != 0 (s_mov_b64 keeps SCC). Sources
 * and destination SGPR pairs (VCC, and EXEC as a source: all ones in a run), no constants. */
static const struct { const char *name; uint8_t op, nsrc; } sop_names[] = {
  {"s_and_b64", FZ_S_AND, 2},   {"s_or_b64", FZ_S_OR, 2},     {"s_xor_b64", FZ_S_XOR, 2},   {"s_andn2_b64", FZ_S_ANDN2, 2},
  {"s_orn2_b64", FZ_S_ORN2, 2}, {"s_nand_b64", FZ_S_NAND, 2}, {"s_nor_b64", FZ_S_NOR, 2},   {"s_xnor_b64", FZ_S_XNOR, 2},
  {"s_mov_b64", FZ_S_MOV, 1},   {"s_not_b64", FZ_S_NOT, 1},
};
/* a pair the runner reads or writes as a lane mask: an even general SGPR pair or VCC, or EXEC read */
static bool sop_pair(const emu_opnd *o, bool dst)
{
  if (o->kind != EMU_OPK_SGPR || o->n != 2 || o->mods || (o->reg & 1)) return false;
  return o->reg + 1u < EMU_NSGPR_GP || o->reg == EMU_S_VCC || (!dst && o->reg == EMU_S_EXEC);
}
static void sop_mark(emu_insn *in, int k) /* k: name's entry in sop_names, -1 none */
{
  if (k < 0 || in->nop != 1 + sop_names[k].nsrc || !sop_pair(&in->o[0], true)) return;
  for (int j = 0; j < sop_names[k].nsrc; j++)
    if (!sop_pair(&in->o[1 + j], false)) return;
  in->fz_op = sop_names[k].op;
  in->fz_dst = in->o[0].reg;
  in->fz_uni = 0;
  for (int j = 0; j < 2; j++) in->fz_src[j] = j < sop_names[k].nsrc ? in->o[1 + j].reg : in->o[1].reg;
  in->fz_src[2] = 0;
}

/* the 64-bit lane operations a run takes (the handlers in emu/op_valu.c): v_mov_b64 D = S0,
 * v_lshlrev_b64 D = S1 << (S0 & 63), v_lshl_add_u64 D = (S0 << S1[2:0]) + S2 with a count of 5..7
 * shifting by 0 (the guides' Notes, as the handler); the counts inline constants, the 64-bit sources
 * even VGPR pairs, SGPR pairs or inline integers (sign-extended, as emu_ssrc64 reads them), the
 * destination an even VGPR pair. Source j's operand index, the count's in fz_src[2] */
static bool src64_ok(const emu_opnd *o)
{
  if (o->mods) return false;
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_SGPR)
    return o->n == 2 && !(o->reg & 1) && (o->kind == EMU_OPK_VGPR || o->reg + 1u < EMU_NSFILE);
  return o->kind == EMU_OPK_IMM;
}
/* 64-bit source j from operand o (src64_ok): an even VGPR pair in fz_src[j], or a uniform pair (fz_uni
 * bit j) in fz_k[j]: an SGPR pair's first SGPR (fz_sg bit j) or the inline integer */
static void src64_set(emu_insn *in, int j, const emu_opnd *o)
{
  in->fz_src[j] = 0;
  if (o->kind == EMU_OPK_VGPR) in->fz_src[j] = o->reg;
  else if (o->kind == EMU_OPK_SGPR) in->fz_k[j] = o->reg, in->fz_sg |= (uint8_t)(1u << j), in->fz_uni |= (uint8_t)(1u << j);
  else in->fz_k[j] = (uint32_t)o->ival, in->fz_uni |= (uint8_t)(1u << j);
}
static void m64_mark(emu_insn *in, const char *name)
{
  int op = !strcmp(name, "v_mov_b64") ? FZ_MOV64 : !strcmp(name, "v_lshlrev_b64") ? FZ_LSHL64
           : !strcmp(name, "v_lshl_add_u64")                                     ? FZ_LSHL_ADD64 : 0;
  const int nop = op == FZ_MOV64 ? 2 : op == FZ_LSHL64 ? 3 : 4;
  if (!op || in->nop != nop || in->o[0].kind != EMU_OPK_VGPR || in->o[0].n != 2 || (in->o[0].reg & 1) || in->o[0].mods)
    return;
  const int si[2] = {op == FZ_LSHL64 ? 2 : 1, 3}, ns = op == FZ_LSHL_ADD64 ? 2 : 1;
  const int ci = op == FZ_LSHL64 ? 1 : op == FZ_LSHL_ADD64 ? 2 : -1;
  for (int j = 0; j < ns; j++)
    if (!src64_ok(&in->o[si[j]])) return;
  if (ci >= 0 && (in->o[ci].kind != EMU_OPK_IMM || in->o[ci].mods)) return;
  in->fz_op = (uint8_t)op;
  in->fz_dst = in->o[0].reg;
  in->fz_uni = 0, in->fz_sg = 0;
  in->fz_src[0] = in->fz_src[1] = 0;
  for (int j = 0; j < ns; j++) src64_set(in, j, &in->o[si[j]]);
  const uint32_t k = ci >= 0 ? (uint32_t)in->o[ci].ival : 0;
  in->fz_src[2] = (uint16_t)(op == FZ_LSHL64 ? k & 63 : op == FZ_LSHL_ADD64 ? ((k & 7) > 4 ? 0 : k & 7) : 0);
}

/* v_mad_u64_u32 (emu/op_valu.c's handler): D = S0 * S1 + S2, the 32 x 32-bit product and the 64-bit
 * addend summed in 64 bits, the carry-out of that sum per lane into the SGPR pair of operand 1 (with
 * EXEC all ones, as in a run, the whole pair). clang's 64-bit address arithmetic (issue #31: the
 * seed's tile addresses, FlashInfer's prefill some 2.4 M a run). S0 and S1 a VGPR, an SGPR or a
 * constant as emu_ssrc32 reads it (fz_k[j], fz_uni/fz_sg bit j); S2 as m64_mark's sources (an even
 * VGPR pair in fz_src[2], or uniform bit 2: an SGPR pair or an inline integer, sign-extended); the
 * destination an even VGPR pair; the carry pair (operand 1) an even general pair or VCC, never EXEC.
 * No clamp (it would saturate rather than wrap) and no operand modifiers. */
static void mad_mark(emu_insn *in)
{
  if (in->nop != 5 || in->clamp || in->omod || in->op_sel || in->neg_lo || in->neg_hi || in->enc >= EMU_ENC_SDWA)
    return;
  const emu_opnd *d = &in->o[0];
  if (d->kind != EMU_OPK_VGPR || d->n != 2 || (d->reg & 1) || d->mods || !sop_pair(&in->o[1], true)) return;
  for (int j = 0; j < 2; j++) {
    const emu_opnd *o = &in->o[2 + j];
    if (o->mods) return;
    if (!((o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_SGPR) && o->n == 1) && o->kind != EMU_OPK_IMM &&
        o->kind != EMU_OPK_LIT && o->kind != EMU_OPK_FIMM)
      return;
    if (o->kind == EMU_OPK_SGPR && o->reg >= EMU_NSFILE) return;
  }
  if (!src64_ok(&in->o[4])) return;
  in->fz_op = FZ_MAD64;
  in->fz_dst = d->reg;
  in->fz_uni = 0, in->fz_sg = 0;
  for (int j = 0; j < 2; j++) {
    const emu_opnd *o = &in->o[2 + j];
    if (o->kind == EMU_OPK_VGPR) in->fz_src[j] = o->reg;
    else in->fz_src[j] = 0, in->fz_uni |= (uint8_t)(1u << j), uni_fix_at(in, j, 2 + j);
  }
  src64_set(in, 2, &in->o[4]);
}

/* The 32-bit scalar ALU operations a run takes (issue #31, seventeenth stop): each writes at most one
 * general SGPR (below EMU_NSGPR_GP) and SCC, reads SGPRs and constants but not SCC, cannot fault,
 * and the runner calls its handler in place (emu/op_salu.c), so the same results in every build.
 * scc: the handler writes SCC (the rest keep it: SCC_KEEP there). emu/jit.c calls the handlers after
 * a piece's chunks, which is their order only when no lane operation of the piece reads or writes
 * an SGPR they write, or writes one they read, after them: it ends a piece before such a record. */
static const struct { const char *name; uint8_t nsrc, dst, scc; } salu_names[] = {
  {"s_add_u32", 2, 1, 1},       {"s_sub_u32", 2, 1, 1},       {"s_add_i32", 2, 1, 1},       {"s_sub_i32", 2, 1, 1},
  {"s_and_b32", 2, 1, 1},       {"s_or_b32", 2, 1, 1},        {"s_xor_b32", 2, 1, 1},       {"s_andn2_b32", 2, 1, 1},
  {"s_lshl_b32", 2, 1, 1},      {"s_lshr_b32", 2, 1, 1},      {"s_ashr_i32", 2, 1, 1},      {"s_min_i32", 2, 1, 1},
  {"s_min_u32", 2, 1, 1},       {"s_max_i32", 2, 1, 1},       {"s_max_u32", 2, 1, 1},       {"s_bfe_u32", 2, 1, 1},
  {"s_lshl1_add_u32", 2, 1, 1}, {"s_lshl2_add_u32", 2, 1, 1}, {"s_lshl3_add_u32", 2, 1, 1}, {"s_lshl4_add_u32", 2, 1, 1},
  {"s_mul_i32", 2, 1, 0},       {"s_mul_hi_u32", 2, 1, 0},    {"s_mov_b32", 1, 1, 0},       {"s_not_b32", 1, 1, 1},
  {"s_cmp_eq_i32", 2, 0, 1},    {"s_cmp_lg_i32", 2, 0, 1},    {"s_cmp_gt_i32", 2, 0, 1},    {"s_cmp_ge_i32", 2, 0, 1},
  {"s_cmp_lt_i32", 2, 0, 1},    {"s_cmp_le_i32", 2, 0, 1},    {"s_cmp_eq_u32", 2, 0, 1},    {"s_cmp_lg_u32", 2, 0, 1},
  {"s_cmp_gt_u32", 2, 0, 1},    {"s_cmp_ge_u32", 2, 0, 1},    {"s_cmp_lt_u32", 2, 0, 1},    {"s_cmp_le_u32", 2, 0, 1},
};
/* fz_dst the destination SGPR (EMU_FZ_NOREG: none), fz_src[j] source j's SGPR where fz_sg bit j,
 * fz_src[2] bit 0 the handler writes SCC; fz_uni 0 (one runner case) */
static void salu_mark(emu_insn *in, int k) /* k: name's entry in salu_names, -1 none */
{
  if (k < 0 || !(in->flags & EMU_F_SALU) || (in->flags & (EMU_F_SMEM | EMU_F_BRANCH)) ||
      in->nop != salu_names[k].dst + salu_names[k].nsrc)
    return;
  const emu_opnd *d = salu_names[k].dst ? &in->o[0] : NULL;
  if (d && (d->kind != EMU_OPK_SGPR || d->n != 1 || d->mods || d->reg >= EMU_NSGPR_GP)) return;
  uint8_t sg = 0;
  uint16_t src[2] = {0, 0};
  for (int j = 0; j < salu_names[k].nsrc; j++) {
    const emu_opnd *o = &in->o[salu_names[k].dst + j];
    if (o->mods) return;
    if (o->kind == EMU_OPK_SGPR) {
      if (o->n != 1 || o->reg >= EMU_NSFILE) return;
      sg |= (uint8_t)(1u << j), src[j] = o->reg;
    } else if (o->kind != EMU_OPK_IMM && o->kind != EMU_OPK_LIT && o->kind != EMU_OPK_FIMM) {
      return;
    }
  }
  in->fz_op = FZ_SALU;
  in->fz_dst = d ? d->reg : EMU_FZ_NOREG;
  in->fz_uni = 0, in->fz_sg = sg;
  in->fz_src[0] = src[0], in->fz_src[1] = src[1], in->fz_src[2] = salu_names[k].scc;
}

/* Each op-table row's entries in the name tables above (-1: none), looked up once per row rather than
 * by some hundred string compares per decoded instruction (issue #31, thirty-seventh stop: they were a
 * twentieth of a HIP program's start, which then decoded every kernel of its code object) */
typedef struct {
  int8_t lop, sop, salu;
} fz_rows;
static fz_rows fz_rows_of(const char *name)
{
  fz_rows r = {-1, -1, -1};
  for (size_t i = 0; i < sizeof lop_names / sizeof *lop_names; i++)
    if (!strcmp(name, lop_names[i].name)) r.lop = (int8_t)i;
  for (size_t i = 0; i < sizeof sop_names / sizeof *sop_names; i++)
    if (!strcmp(name, sop_names[i].name)) r.sop = (int8_t)i;
  for (size_t i = 0; i < sizeof salu_names / sizeof *salu_names; i++)
    if (!strcmp(name, salu_names[i].name)) r.salu = (int8_t)i;
  return r;
}
/* fz_rows_of by the record's op-table index (the decoder's one call passes that row's name, so the
 * index names it): each entry 0 until first needed, then 1 << 24 and the three entries plus one, a
 * byte each; a race writes the same value twice */
enum { FZ_ROWS_N = 4096 };
static uint32_t fz_rows_cache[FZ_ROWS_N];
static fz_rows fz_rows_for(const emu_insn *in, const char *name)
{
  if (in->op >= FZ_ROWS_N) return fz_rows_of(name);
  uint32_t c = __atomic_load_n(&fz_rows_cache[in->op], __ATOMIC_RELAXED);
  if (!c) {
    const fz_rows r = fz_rows_of(name);
    c = 1u << 24 | (uint32_t)(uint8_t)(r.lop + 1) | (uint32_t)(uint8_t)(r.sop + 1) << 8 | (uint32_t)(uint8_t)(r.salu + 1) << 16;
    __atomic_store_n(&fz_rows_cache[in->op], c, __ATOMIC_RELAXED);
  }
  return (fz_rows){(int8_t)((int)(c & 0xff) - 1), (int8_t)((int)(c >> 8 & 0xff) - 1), (int8_t)((int)(c >> 16 & 0xff) - 1)};
}

static void fuse_mark(emu_insn *in, const char *name)
{
  in->fz_op = FZ_NONE;
  in->fuse_n = 0;
  if (!emu_fuse_on || !in->implemented) return;
#ifdef FZ_FLOAT_ASM
  /* the specialised packed f32 forms with EXEC-all-ones kernels (emu/op_vop3p.c sp_var below 16),
   * where the AVX2 kernels run (emu_avx2); emu/jit.c translates them with those kernels' operand order */
  if ((in->fn == emu_op_v_pk_fma_f32_sp || in->fn == emu_op_v_pk_mul_f32_sp) && in->sp_var < 16 && emu_avx2) {
    in->fz_op = in->sp_mul ? FZ_PK_MUL : FZ_PK_FMA;
    in->fz_dst = in->fz_src[0] = in->fz_src[1] = in->fz_src[2] = 0;
    in->fz_uni = 0, in->fz_sg = 0;
    return;
  }
#endif
  if (!strcmp(name, "v_mad_u64_u32")) {
    mad_mark(in);
    return;
  }
  /* ds_bpermute_b32 (an LDS-counter entry, no memory) and s_waitcnt (retires entries): inside a block
   * the run-ahead loop calls their handlers (emu/exec.c solo_call), so a run may call them in place
   * (emu_run_xcall) rather than end at them: real kernels' warp reductions interleave both with the
   * lane operations (FlashInfer's prefill: bpermute, max3, s_waitcnt lgkmcnt(1), max, bpermute ...).
   * A run needs EXEC all ones: the bpermute's handler then takes its whole-wave path. Both handlers
   * return EMU_OK. Everything that makes running them in a block safe (the cut before a reader of a
   * pending destination, the waits' conditions) is the block's, and runs lie inside blocks */
  if (in->fn == emu_op_s_waitcnt || !strcmp(name, "ds_bpermute_b32")) {
    in->fz_op = FZ_XCALL;
    in->fz_dst = in->fz_src[0] = in->fz_src[1] = in->fz_src[2] = 0;
    in->fz_uni = 0, in->fz_sg = 0;
    return;
  }
  if (in->enc >= EMU_ENC_SDWA || in->clamp || in->omod || in->op_sel || in->has_op_sel_hi || in->neg_lo || in->neg_hi ||
      (in->flags & EMU_F_CARRY))
    return;
  const fz_rows rows = fz_rows_for(in, name);
  const int k = rows.lop;
  if (k < 0) {
    if (name[0] == 's') sop_mark(in, rows.sop);
    else m64_mark(in, name);
    if (in->fz_op == FZ_NONE && name[0] == 's') salu_mark(in, rows.salu);
    if (in->fz_op == FZ_NONE) cmp_mark(in, name);
    return;
  }
  if (lop_names[k].op == FZ_NOP) { /* s_nop: wait states only, nothing to run */
    in->fz_op = FZ_NOP;
    in->fz_dst = in->fz_src[0] = in->fz_src[1] = in->fz_src[2] = 0;
    in->fz_uni = 0;
    return;
  }
#ifdef FZ_FLOAT_ASM
  if (lop_names[k].op >= FZ_FIRST_F && !emu_avx2) return;
#else
  if (lop_names[k].op >= FZ_FIRST_F) return;
#endif
  int ns = lop_names[k].nsrc, cnd = lop_names[k].op == FZ_CNDMASK;
  if (in->nop != 1 + ns + cnd) return;
  for (int i = 0; i < in->nop; i++) {
    const emu_opnd *o = &in->o[i];
    if (o->mods & (EMU_M_NEG | EMU_M_ABS | EMU_M_SEXT | EMU_M_NEGFN | EMU_M_ABSFN)) return;
    if (cnd && i == 3) { /* the lane mask: an SGPR pair or VCC */
      if (o->kind != EMU_OPK_SGPR || o->n != 2) return;
      continue;
    }
    if (o->kind == EMU_OPK_VGPR) {
      if (o->n != 1) return;
      continue;
    }
    if (i == 0) return; /* the destination must be a VGPR */
    if (!((o->kind == EMU_OPK_SGPR && o->n == 1) || o->kind == EMU_OPK_IMM || o->kind == EMU_OPK_LIT ||
          o->kind == EMU_OPK_FIMM))
      return;
    /* an inline float constant of an f16 source is the f16 value (emu/operand.c const_val), not the
     * low half of the f32 one emu_ssrc32 reads */
    if (o->kind == EMU_OPK_FIMM && lop_names[k].op == FZ_CVT_F32_F16) return;
  }
  in->fz_op = lop_names[k].op;
  in->fz_dst = in->o[0].reg;
  in->fz_uni = 0;
  for (int j = 0; j < ns; j++) {
    const emu_opnd *o = &in->o[1 + j];
    if (o->kind == EMU_OPK_VGPR) in->fz_src[j] = o->reg;
    else in->fz_src[j] = 0, in->fz_uni |= (uint8_t)(1u << j), uni_fix(in, j);
  }
  if (in->fz_op == FZ_FMAC_F) in->fz_op = FZ_FMA_F, in->fz_src[2] = in->fz_dst; /* D = S0 * S1 + D */
  /* v_cndmask_b32's mask pair's first SGPR (checked above: a pair), so that the runner reads it from
   * the record's head (offset 18) rather than from the operand array (o[3], offset 200) */
  if (cnd) in->fz_src[2] = in->o[3].reg;
}

/* the record pre-resolved for the runner: its case and its registers' byte offsets (fz_case, fz_off) */
void emu_fuse_mark(emu_insn *in, const char *name)
{
  fuse_mark(in, name);
  /* one case for all compares and one for the whole-wave kernels (their bodies read fz_uni): cases
   * that share a body would make GCC test them by bit masks before its jump table */
  unsigned op = in->fz_op, c = FZC(op) + in->fz_uni;
  if (op == FZ_CMP_F || op == FZ_CMP_I || op == FZ_CMP_U) c = FZC(FZ_CMP_F);
  else if (op == FZ_EXP_F || op == FZ_CVT_F32_F16 || op == FZ_CVT_F16_F32) c = FZC(FZ_EXP_F);
  else if (op == FZ_MAD64) c = FZC(FZ_MAD64);
  in->fz_case = c;
  in->fz_off[0] = (uint32_t)in->fz_dst * EMU_LANES * 4;
  for (int j = 0; j < 3; j++) in->fz_off[1 + j] = (uint32_t)in->fz_src[j] * EMU_LANES * 4;
}

static bool fz_sop(unsigned op) { return op >= FZ_FIRST_S && op <= FZ_LAST_S; }

void emu_fuse_prepare(emu_insn *insns, size_t n)
{
  /* lane-mask and 32-bit scalar operations join runs with lane operations only: a run of them alone
   * (s_nop aside) is left to their handlers, which cost less than a call of the runner */
  for (size_t i = 0; i < n;) {
    size_t j = i;
    bool vec = false;
    for (; j < n && insns[j].fz_op != FZ_NONE; j++)
      vec |= !fz_sop(insns[j].fz_op) && insns[j].fz_op != FZ_NOP && insns[j].fz_op != FZ_SALU && insns[j].fz_op != FZ_XCALL;
    for (size_t t = i; t < j && !vec; t++)
      if (fz_sop(insns[t].fz_op) || insns[t].fz_op == FZ_SALU || insns[t].fz_op == FZ_XCALL)
        insns[t].fz_op = FZ_NONE, insns[t].fz_case = 0;
    i = j > i ? j : i + 1;
  }
  uint32_t next = 0; /* run length from i + 1 */
  for (size_t i = n; i-- > 0;) {
    emu_insn *in = &insns[i];
    in->fuse_n = 0;
    if (in->fz_op != FZ_NONE) {
      uint32_t len = 1 + next;
      in->fuse_n = (uint8_t)(len > EMU_FUSE_MAX ? EMU_FUSE_MAX : len);
      next = len;
    } else {
      next = 0;
    }
  }
}

/* ---- the runner ---------------------------------------------------------------------------------
 * One body, compiled twice: for AVX2 (chosen when emu_avx2) and for the baseline (the portable
 * path). Vectors of 8 lanes through GCC's vector extension; loads and stores through memcpy, the
 * register file being 4-byte aligned. Each instruction reads all its sources of an 8-lane block
 * before it writes that block, so a destination may be any of its sources. */
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

#define FZ_INLINE static inline __attribute__((always_inline))

/* 8 lanes from p, 8 lanes to p (macros: a 32-byte vector passed by value would change the
 * baseline build's ABI) */
#define LD8(p) ({ v8u v_; memcpy(&v_, (p), sizeof v_); v_; })
#define ST8(p, x) do { v8u v_ = (x); memcpy((p), &v_, sizeof v_); } while (0)

/* One lane loop per (operation, which sources are uniform) pair, so that a uniform source is a
 * splat held in a register and a VGPR source a plain load: case FZC(FZ_op) + fz_uni, the record's
 * fz_case. Each case reads only what it uses of the record: the byte offsets of its registers
 * (fz_off) and its uniform values (UNI: an SGPR's value, or the constant fixed at decode, uni_fix). */
#define DST ((uint32_t *)(void *)(Vb + x->fz_off[0]))
#define SRC(j) ((const uint32_t *)(const void *)(Vb + x->fz_off[1 + (j)]))
#define UNI(j) ((x->fz_sg >> (j) & 1) ? w->s[x->fz_k[j]] : x->fz_k[j])
#define LOOP(u, ns, expr)                                                                          \
  {                                                                                                \
    uint32_t *const d = DST;                                                                       \
    const uint32_t *const pa = SRC(0), *const pb = SRC(1), *const pc = SRC(2);                     \
    const uint32_t ua = ((u) & 1) ? UNI(0) : 0, ub = ((u) & 2) ? UNI(1) : 0, uc = ((u) & 4) ? UNI(2) : 0; \
    (void)pa, (void)pb, (void)pc, (void)ua, (void)ub, (void)uc;                                    \
    _Pragma("GCC unroll 8") for (uint32_t o = 0; o < EMU_LANES; o += 8)                            \
    {                                                                                              \
      const v8u a = ((u) & 1) ? (v8u){0} + ua : LD8(pa + o);                                       \
      const v8u b = (ns) < 2 ? a : ((u) & 2) ? (v8u){0} + ub : LD8(pb + o);                        \
      const v8u c = (ns) < 3 ? a : ((u) & 4) ? (v8u){0} + uc : LD8(pc + o);                        \
      (void)a, (void)b, (void)c;                                                                   \
      ST8(d + o, (expr));                                                                          \
    }                                                                                              \
  }                                                                                                \
  break;
#define V1(op, expr)                                                                               \
  case FZC(op) + 0: LOOP(0, 1, expr)                                                                \
  case FZC(op) + 1: LOOP(1, 1, expr)
#define V2(op, expr)                                                                               \
  case FZC(op) + 0: LOOP(0, 2, expr)                                                                \
  case FZC(op) + 1: LOOP(1, 2, expr)                                                                \
  case FZC(op) + 2: LOOP(2, 2, expr)                                                                \
  case FZC(op) + 3: LOOP(3, 2, expr)
#define V3(op, expr)                                                                               \
  case FZC(op) + 0: LOOP(0, 3, expr)                                                                \
  case FZC(op) + 1: LOOP(1, 3, expr)                                                                \
  case FZC(op) + 2: LOOP(2, 3, expr)                                                                \
  case FZC(op) + 3: LOOP(3, 3, expr)                                                                \
  case FZC(op) + 4: LOOP(4, 3, expr)                                                                \
  case FZC(op) + 5: LOOP(5, 3, expr)                                                                \
  case FZC(op) + 6: LOOP(6, 3, expr)                                                                \
  case FZC(op) + 7: LOOP(7, 3, expr)
/* lanes of the mask's 8-lane block at o, as all-ones / zero words: mask_tab[byte] */
static uint32_t mask_tab[256][8] __attribute__((aligned(32)));
__attribute__((constructor)) static void mask_tab_init(void)
{
  for (int b = 0; b < 256; b++)
    for (int l = 0; l < 8; l++) mask_tab[b][l] = (b >> l & 1) ? ~0u : 0u;
}
#define MASK8 LD8(mask_tab[(uint8_t)(mk >> o)])

/* v_cndmask_b32 on the AVX2 build: each 8-lane block's mask bits shifted to the words' sign bits
 * (vpsllvd of the mask's 32-bit half by fixed counts) choose between the sources with vblendvps,
 * four instructions a block against seven with the byte table. A plain function: inlined into
 * run_avx2 only (an AVX2 body cannot be inlined into the baseline one), never reached from it. */
__attribute__((target("avx2"))) static inline void cnd_avx2(uint32_t *d, const uint32_t *pa, const uint32_t *pb,
                                                            uint32_t ua, uint32_t ub, unsigned uni, uint64_t mk)
{
  static const int32_t sh[32] __attribute__((aligned(32))) = {
      31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
      15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
  const __m256i h0 = _mm256_set1_epi32((int)(uint32_t)mk), h1 = _mm256_set1_epi32((int)(uint32_t)(mk >> 32));
  const __m256 sa = _mm256_castsi256_ps(_mm256_set1_epi32((int)ua)), sb = _mm256_castsi256_ps(_mm256_set1_epi32((int)ub));
  _Pragma("GCC unroll 8") for (uint32_t o = 0; o < EMU_LANES; o += 8)
  {
    const __m256 sel = _mm256_castsi256_ps(
        _mm256_sllv_epi32(o < 32 ? h0 : h1, _mm256_load_si256((const __m256i *)(sh + (o & 31)))));
    const __m256 a = (uni & 1) ? sa : _mm256_loadu_ps((const float *)(pa + o));
    const __m256 b = (uni & 2) ? sb : _mm256_loadu_ps((const float *)(pb + o));
    _mm256_storeu_ps((float *)(d + o), _mm256_blendv_ps(a, b, sel)); /* b where the lane's bit is set */
  }
}

#ifdef FZ_FLOAT_ASM
/* The float operations on the AVX2+FMA host, 8-lane blocks, each operation in the form the general
 * handler's -O2 loop issues (first source = the operand whose NaN a two-NaN lane returns):
 * v_add_f32 and v_mul_f32 S1 op S0 (its SSE loop loads S1 and adds or multiplies S0 into it),
 * v_sub_f32 S0 - S1, v_subrev_f32 S1 - S0, v_fma_f32/v_fmac_f32 `vfmadd132ps` with S1 in the
 * destination, S2 the addend and S0 the other factor (fma_loop's FMA clone). A plain function
 * inlined into run_avx2 only, as cnd_avx2. */
__attribute__((target("avx2,fma"))) static inline void flt_avx2(unsigned op, unsigned uni, uint32_t *d, const uint32_t *pa,
                                                                const uint32_t *pb, const uint32_t *pc, uint32_t ua,
                                                                uint32_t ub, uint32_t uc)
{
  const __m256 sa = _mm256_castsi256_ps(_mm256_set1_epi32((int)ua)), sb = _mm256_castsi256_ps(_mm256_set1_epi32((int)ub)),
               sc = _mm256_castsi256_ps(_mm256_set1_epi32((int)uc));
  _Pragma("GCC unroll 8") for (uint32_t o = 0; o < EMU_LANES; o += 8)
  {
    const __m256 a = (uni & 1) ? sa : _mm256_loadu_ps((const float *)(pa + o));
    const __m256 b = (uni & 2) ? sb : _mm256_loadu_ps((const float *)(pb + o));
    __m256 r;
    switch (op) {
    case FZ_ADD_F: __asm__("vaddps %2, %1, %0" : "=x"(r) : "x"(b), "x"(a)); break;
    case FZ_SUB_F: __asm__("vsubps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); break;
    case FZ_SUBREV_F: __asm__("vsubps %2, %1, %0" : "=x"(r) : "x"(b), "x"(a)); break;
    case FZ_MUL_F: __asm__("vmulps %2, %1, %0" : "=x"(r) : "x"(b), "x"(a)); break;
    default: {
      const __m256 c = (uni & 4) ? sc : _mm256_loadu_ps((const float *)(pc + o));
      r = b;
      __asm__("vfmadd132ps %2, %1, %0" : "+x"(r) : "x"(c), "x"(a));
    }
    }
    _mm256_storeu_ps((float *)(d + o), r);
  }
}
#define FLT(op, u)                                                                                 \
  case FZC(op) + u:                                                                                 \
    if (av) {                                                                                      \
      flt_avx2(op, u, DST, SRC(0), SRC(1), SRC(2), ((u) & 1) ? UNI(0) : 0, ((u) & 2) ? UNI(1) : 0,     \
               ((u) & 4) ? UNI(2) : 0);                                                            \
      break;                                                                                       \
    }                                                                                              \
    x->fn(w, x);                                                                                   \
    break;
#else
#define FLT(op, u)                                                                                 \
  case FZC(op) + u: x->fn(w, x); break;
#endif
#define FLT2(op) FLT(op, 0) FLT(op, 1) FLT(op, 2) FLT(op, 3)

/* v_bitop3_b32's truth table t (bit a*4 + b*2 + c: the result bit for those source bits) as
 * selects: for each (a, b) the function of c is p ^ (c & q) (p: t's bit for c = 0, q: it xor the bit
 * for c = 1, each all ones or zero); then b and a choose among those the same way */
#define BITOP3(a, b, c)                                                                            \
  ({                                                                                               \
    v8u g0 = bp[0] ^ (c & bq[0]), g1 = bp[1] ^ (c & bq[1]), g2 = bp[2] ^ (c & bq[2]), g3 = bp[3] ^ (c & bq[3]); \
    v8u f0 = g0 ^ (b & (g0 ^ g1)), f1 = g2 ^ (b & (g2 ^ g3));                                       \
    f0 ^ (a & (f0 ^ f1));                                                                          \
  })
#define BOP3(u)                                                                                    \
  case FZC(FZ_BITOP3) + (u): {                                                                      \
    const unsigned t = x->bitop3;                                                                  \
    v8u bp[4], bq[4];                                                                              \
    for (int i = 0; i < 4; i++) {                                                                  \
      const uint32_t p0 = 0u - (t >> (2 * i) & 1), p1 = 0u - (t >> (2 * i + 1) & 1);              \
      bp[i] = (v8u){0} + p0, bq[i] = (v8u){0} + (p0 ^ p1);                                         \
    }                                                                                              \
    LOOP(u, 3, BITOP3(a, b, c))                                                                    \
  }
/* v_cndmask_b32's case for uniform sources u: cnd_avx2 on the AVX2 build, the byte table on the
 * baseline one. The mask is the SGPR pair from fz_src[2] (fuse_mark). A mask of all ones or all
 * zeros picks one source for every lane: a copy of it, or nothing when it is the destination
 * (v_cndmask_b32 v24, v54, v24, s[34:35]), instead of eight shifts and blends (issue #31, ninth
 * stop: in the seed attention kernels at seq 1024, 84% of gfx950's v_cndmask_b32 in runs and 27% of
 * gfx942's have such a mask) */
#define CND(u)                                                                                     \
  case FZC(FZ_CNDMASK) + (u): {                                                                     \
    const uint64_t mk = emu_rd64s(w, x->fz_src[2]);                                                \
    if (mk + 1 <= 1) { /* ~0 or 0: source 1 or source 0 in every lane */                           \
      if (mk) {                                                                                    \
        if ((u) & 2) emu_fill64(DST, UNI(1));                                                      \
        else if (SRC(1) != DST) memcpy(DST, SRC(1), EMU_LANES * 4);                                \
      } else {                                                                                     \
        if ((u) & 1) emu_fill64(DST, UNI(0));                                                      \
        else if (SRC(0) != DST) memcpy(DST, SRC(0), EMU_LANES * 4);                                \
      }                                                                                            \
      break;                                                                                       \
    }                                                                                              \
    if (av) {                                                                                      \
      cnd_avx2(DST, SRC(0), SRC(1), ((u) & 1) ? UNI(0) : 0, ((u) & 2) ? UNI(1) : 0, (u), mk);      \
      break;                                                                                       \
    }                                                                                              \
    LOOP(u, 2, ({ v8u sel = MASK8; (b & sel) | (a & ~sel); }))                                      \
  }
/* a lane-mask scalar operation (sop_mark): the pairs read before the destination is written, SCC
 * from the result where the handler sets it */
#define FZ_SOPC(op, expr, setscc)                                                                  \
  case FZC(op): {                                                                                  \
    const uint64_t a = emu_rd64s(w, x->fz_src[0]), b = emu_rd64s(w, x->fz_src[1]), d_ = (expr);    \
    (void)b;                                                                                       \
    emu_wr_pair(w, x->fz_dst, d_);                                                                 \
    if (setscc) w->scc = d_ != 0;                                                                  \
    break;                                                                                         \
  }
/* a 64-bit lane operation (m64_mark): source j's low and high dwords from its VGPR pair, or the
 * uniform pair's (an SGPR pair, or an inline integer sign-extended); each 8-lane block's sources
 * read before its results are written (a destination pair is a source pair or disjoint from it) */
#define UNIHI(j) ((x->fz_sg >> (j) & 1) ? w->s[emu_fz_hik(x, j)] : emu_fz_hik(x, j))
FZ_INLINE void run64(emu_wave *w, const emu_insn *x, char *const Vb, const unsigned op, const unsigned u)
{
  uint32_t *const dl = DST, *const dh = DST + EMU_LANES;
  const uint32_t *const al = SRC(0), *const ah = SRC(0) + EMU_LANES, *const cl = SRC(1), *const ch = SRC(1) + EMU_LANES;
  const uint32_t ual = (u & 1) ? UNI(0) : 0, uah = (u & 1) ? UNIHI(0) : 0, ucl = (u & 2) ? UNI(1) : 0, uch = (u & 2) ? UNIHI(1) : 0;
  const unsigned n = x->fz_src[2];
  _Pragma("GCC unroll 8") for (uint32_t o = 0; o < EMU_LANES; o += 8)
  {
    const v8u a0 = (u & 1) ? (v8u){0} + ual : LD8(al + o), a1 = (u & 1) ? (v8u){0} + uah : LD8(ah + o);
    v8u r0 = a0, r1 = a1;
    if (op != FZ_MOV64 && n) {
      if (n < 32) r0 = a0 << n, r1 = (a1 << n) | (a0 >> (32 - n));
      else r0 = (v8u){0}, r1 = a0 << (n - 32);
    }
    if (op == FZ_LSHL_ADD64) {
      const v8u c0 = (u & 2) ? (v8u){0} + ucl : LD8(cl + o), c1 = (u & 2) ? (v8u){0} + uch : LD8(ch + o);
      r0 += c0;
      r1 = r1 + c1 - (v8u)(r0 < c0); /* the low half's carry (a true compare is all ones: minus -1) */
    }
    ST8(dl + o, r0);
    ST8(dh + o, r1);
  }
}
/* v_cvt_f32_ubyteN: the byte as a float (exact) */
#define UBYTE(a, sh) ((v8u)__builtin_convertvector((v8i)((a) >> (sh) & 0xff), v8f))
typedef float v8f __attribute__((vector_size(32)));

/* v_max_f32 / v_min_f32: emu_fmax_ieee / emu_fmin_ieee (emu/internal.h) on 8 lanes, from the bits:
 * they pick an operand or quiet a NaN, no arithmetic, so vectors of any width give the handlers'
 * bits. The handlers' tests in order of precedence, last applied wins: the ordered compare (a > b,
 * a < b: false on a NaN), equal values (+0 and -0: by a's sign), b NaN (a), a NaN (b, or a quieted
 * when both are), and with IEEE mode (MODE.IEEE, read per record as the handler does) a signaling
 * b, then a signaling a, quieted. Branch-free: the handlers' per-lane branches on the data cost
 * some 200 ns a record on random values (a /tmp softmax kernel, issue #31 fourteenth stop). A macro:
 * a 32-byte vector passed by value would change the baseline build's ABI (as LD8). */
#define FZ_MINMAX(a_, b_, ieee_, max_)                                                             \
  ({                                                                                               \
    const v8u ma_ = (a_), mb_ = (b_);                                                              \
    const v8u na = (v8u)((ma_ & 0x7fffffffu) > 0x7f800000u), nb = (v8u)((mb_ & 0x7fffffffu) > 0x7f800000u); \
    const v8u qa = ma_ | 0x400000u, qb = mb_ | 0x400000u;                                          \
    const v8u pick = (max_) ? (v8u)((v8f)ma_ > (v8f)mb_) : (v8u)((v8f)ma_ < (v8f)mb_); /* a where set */ \
    const v8u eq = (v8u)((v8f)ma_ == (v8f)mb_), neg = (v8u)((v8i)ma_ < 0);                         \
    const v8u ez = (max_) ? (mb_ & neg) | (ma_ & ~neg) : (ma_ & neg) | (mb_ & ~neg); /* equal: a's sign */ \
    v8u r = (ma_ & pick) | (mb_ & ~pick);                                                          \
    r = (ez & eq) | (r & ~eq);                                                                     \
    r = (ma_ & nb) | (r & ~nb);                                                                    \
    r = (((qa & nb) | (mb_ & ~nb)) & na) | (r & ~na);                                              \
    if (ieee_) {                                                                                   \
      const v8u sb = nb & (v8u)((mb_ & 0x400000u) == 0), sa = na & (v8u)((ma_ & 0x400000u) == 0);  \
      r = (qb & sb) | (r & ~sb);                                                                   \
      r = (qa & sa) | (r & ~sa);                                                                   \
    }                                                                                              \
    r;                                                                                             \
  })

/* v_med3_f32: emu/op_valu.c fmed3 on 8 lanes, built from FZ_MINMAX in its order: with a NaN among
 * the three, min(min(a, b), c); else the largest m = max(max(a, b), c) decides: m == a gives
 * max(b, c), else m == b gives max(a, c), else max(a, b) (float equality: +0 == -0) */
#define FZ_MED3(a_, b_, c_, ieee_)                                                                  \
  ({                                                                                               \
    const v8u ta_ = (a_), tb_ = (b_), tc_ = (c_);                                                  \
    const bool ie_ = (ieee_);                                                                      \
    const v8u nan_ = (v8u)((ta_ & 0x7fffffffu) > 0x7f800000u) | (v8u)((tb_ & 0x7fffffffu) > 0x7f800000u) | \
                     (v8u)((tc_ & 0x7fffffffu) > 0x7f800000u);                                      \
    const v8u mab_ = FZ_MINMAX(ta_, tb_, ie_, true), mx_ = FZ_MINMAX(mab_, tc_, ie_, true);         \
    const v8u ia_ = (v8u)((v8f)mx_ == (v8f)ta_), ib_ = (v8u)((v8f)mx_ == (v8f)tb_) & ~ia_;          \
    const v8u mbc_ = FZ_MINMAX(tb_, tc_, ie_, true), mac_ = FZ_MINMAX(ta_, tc_, ie_, true);         \
    v8u m3_ = (mbc_ & ia_) | (mac_ & ib_) | (mab_ & ~(ia_ | ib_));                                  \
    const v8u lo_ = FZ_MINMAX(FZ_MINMAX(ta_, tb_, ie_, false), tc_, ie_, false);                   \
    (lo_ & nan_) | (m3_ & ~nan_);                                                                  \
  })

/* v_cvt_i32_f32: emu/op_valu.c cvt_i32 on 8 lanes. A NaN gives 0, a >= 2^31 (the first float not
 * below 2147483647) 0x7fffffff, a <= -2^31 0x80000000; the rest truncate toward zero, converted
 * only where in range (those lanes zeroed first: a vector conversion is defined for them alone) */
#define FZ_CVT_I32(a_)                                                                              \
  ({                                                                                               \
    const v8u ca_ = (a_);                                                                          \
    const v8u cn_ = (v8u)((ca_ & 0x7fffffffu) > 0x7f800000u), hi_ = (v8u)((v8f)ca_ >= 0x1p31f),   \
              lo_ = (v8u)((v8f)ca_ <= -0x1p31f), out_ = cn_ | hi_ | lo_;                          \
    const v8u t_ = (v8u)__builtin_convertvector((v8f)(ca_ & ~out_), v8i);                          \
    (t_ & ~out_) | (0x7fffffffu & hi_) | (0x80000000u & lo_);                                      \
  })
/* v_cvt_u32_f32: emu/op_valu.c cvt_u32 on 8 lanes: a NaN or a <= 0 gives 0, a >= 2^32 (the first
 * float not below 4294967295) 0xffffffff, the rest truncate, converted only where in range */
#define FZ_CVT_U32(a_)                                                                              \
  ({                                                                                               \
    const v8u ua_ = (a_);                                                                          \
    const v8u un_ = (v8u)((ua_ & 0x7fffffffu) > 0x7f800000u) | (v8u)((v8f)ua_ <= 0.0f),           \
              uh_ = (v8u)((v8f)ua_ >= 0x1p32f), uo_ = un_ | uh_;                                   \
    const v8u ut_ = __builtin_convertvector((v8f)(ua_ & ~uo_), v8u);                               \
    (ut_ & ~uo_) | uh_;                                                                            \
  })
/* v_rndne_f32: nearbyintf under the default rounding mode (to nearest, ties to even), as the handler's
 * rne_f32. Below 2^23 in magnitude, (|a| + 2^23) - 2^23 rounds |a| to an integer in that mode, exact
 * (no reassociation without -ffast-math), then a's sign put back (-0.25 gives -0); at or above 2^23
 * a float is an integer already and infinities stay; a NaN comes back quieted, as nearbyintf (SSE4.1
 * roundss) returns it. Exact, so the same bits on any build */
#define FZ_RNDNE(a_)                                                                                \
  ({                                                                                               \
    const v8u ra_ = (a_), mag_ = ra_ & 0x7fffffffu;                                                 \
    const v8u sm_ = (v8u)(mag_ < 0x4b000000u); /* |a| < 2^23 (no NaN, no infinity) */               \
    const v8f k_ = (v8f)((v8u){0} + 0x4b000000u);                                                  \
    const v8u rr_ = (v8u)(((v8f)(mag_ & sm_) + k_) - k_) | (ra_ & 0x80000000u);                    \
    const v8u rn_ = (v8u)(mag_ > 0x7f800000u);                                                     \
    (rr_ & sm_) | (ra_ & ~sm_ & ~rn_) | ((ra_ | 0x400000u) & rn_);                                 \
  })

/* A 32-bit compare's lane mask on the AVX2 build: per 8-lane block the predicate as a vector of
 * all-ones / zero words; float compares by vcmpps with the predicate that is emu/op_valu.c's F_*
 * macro (ordered for the plain forms, unordered-true for the negated ones; exact, NaN or not);
 * unsigned ones as signed after flipping the sign bits. The baseline build (no unsigned or ordered
 * vector compares in SSE2) calls the handlers. Four blocks' words packed to bytes in lane order
 * (vpackssdw, vpacksswb, vpermd) give 32 mask bits by one vpmovmskb; each (predicate, uniform
 * sources) pair is its own unrolled body (issue #31, eighth stop: the loop with the sources' choice
 * inside cost about 165 host instructions a compare). */
__attribute__((target("avx2"))) static inline uint32_t mask32_avx2(__m256i c0, __m256i c1, __m256i c2, __m256i c3)
{
  /* bytes per 128-bit half: c0 c1 c2 c3's lanes 0..3, then their lanes 4..7; vpermd puts them in order */
  const __m256i b = _mm256_packs_epi16(_mm256_packs_epi32(c0, c1), _mm256_packs_epi32(c2, c3));
  return (uint32_t)_mm256_movemask_epi8(_mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t
cmp_avx2_u(const unsigned op, unsigned pred, const unsigned uni, const uint32_t *pa, const uint32_t *pb, uint32_t ua, uint32_t ub)
{
  const __m256i sa = _mm256_set1_epi32((int)ua), sb = _mm256_set1_epi32((int)ub);
  const __m256i flip = _mm256_set1_epi32(op == FZ_CMP_U ? (int)0x80000000u : 0), ones = _mm256_set1_epi32(-1);
  uint64_t r = 0;
#define CB(o, expr)                                                                                \
  ({                                                                                               \
    const __m256i a = (uni & 1) ? sa : _mm256_loadu_si256((const __m256i *)(const void *)(pa + (o))); \
    const __m256i b = (uni & 2) ? sb : _mm256_loadu_si256((const __m256i *)(const void *)(pb + (o))); \
    (void)a, (void)b;                                                                              \
    (expr);                                                                                        \
  })
#define CL(expr)                                                                                   \
  r = mask32_avx2(CB(0, expr), CB(8, expr), CB(16, expr), CB(24, expr)) |                          \
      (uint64_t)mask32_avx2(CB(32, expr), CB(40, expr), CB(48, expr), CB(56, expr)) << 32;         \
  break;
#define FC(imm) CL(_mm256_castps_si256(_mm256_cmp_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), imm)))
#define AX _mm256_xor_si256(a, flip)
#define BX _mm256_xor_si256(b, flip)
  if (op == FZ_CMP_F) {
    switch (pred) {
    case CP_LT: FC(_CMP_LT_OQ)
    case CP_EQ: FC(_CMP_EQ_OQ)
    case CP_LE: FC(_CMP_LE_OQ)
    case CP_GT: FC(_CMP_GT_OQ)
    case CP_GE: FC(_CMP_GE_OQ)
    case CP_LG: FC(_CMP_NEQ_OQ)
    case CP_O: FC(_CMP_ORD_Q)
    case CP_U: FC(_CMP_UNORD_Q)
    case CP_NGE: FC(_CMP_NGE_UQ)
    case CP_NLG: FC(_CMP_EQ_UQ)
    case CP_NGT: FC(_CMP_NGT_UQ)
    case CP_NLE: FC(_CMP_NLE_UQ)
    case CP_NEQ: FC(_CMP_NEQ_UQ)
    default: FC(_CMP_NLT_UQ) /* CP_NLT */
    }
  } else {
    switch (pred) {
    case CP_LT: CL(_mm256_cmpgt_epi32(BX, AX))
    case CP_EQ: CL(_mm256_cmpeq_epi32(a, b))
    case CP_LE: CL(_mm256_xor_si256(_mm256_cmpgt_epi32(AX, BX), ones))
    case CP_GT: CL(_mm256_cmpgt_epi32(AX, BX))
    case CP_GE: CL(_mm256_xor_si256(_mm256_cmpgt_epi32(BX, AX), ones))
    default: CL(_mm256_xor_si256(_mm256_cmpeq_epi32(a, b), ones)) /* CP_NE */
    }
  }
#undef CB
#undef CL
#undef FC
#undef AX
#undef BX
  return r;
}
__attribute__((target("avx2"), noinline)) static uint64_t cmp_avx2(unsigned op, unsigned pred, unsigned uni, const uint32_t *pa,
                                                                  const uint32_t *pb, uint32_t ua, uint32_t ub)
{
  switch ((op - FZ_CMP_F) * 4 + uni) { /* the kind and uniform sources as constants: one body each */
#define CU(k, u) \
  case (k - FZ_CMP_F) * 4 + u: return cmp_avx2_u(k, pred, u, pa, pb, ua, ub);
  CU(FZ_CMP_F, 0) CU(FZ_CMP_F, 1) CU(FZ_CMP_F, 2) CU(FZ_CMP_F, 3)
  CU(FZ_CMP_I, 0) CU(FZ_CMP_I, 1) CU(FZ_CMP_I, 2) CU(FZ_CMP_I, 3)
  CU(FZ_CMP_U, 0) CU(FZ_CMP_U, 1) CU(FZ_CMP_U, 2) CU(FZ_CMP_U, 3)
#undef CU
  default: __builtin_unreachable();
  }
}

/* v_exp_f32, v_cvt_f32_f16 and v_cvt_f16_f32 by the whole-wave kernels their handlers call
 * (emu/simd.c), so the same bits on every path. v_cvt_f32_f16 reads the low half (no op_sel in a
 * run); v_cvt_f16_f32 writes the low half and zeroes the high one or keeps it, as the op-table row
 * says (EMU_F_D16Z, emu_dst16). A uniform source is spread into a temporary; the kernels read a
 * VGPR source in place and write the destination directly, except v_exp_f32 with the destination
 * its source (emu_exp2_64 rereads the source's lanes it finishes in scalar code after its vector
 * pass), which goes through a temporary (issue #31, eighth stop: the copies cost about 130 host
 * instructions a record). Out of line, one body per build (the half-word packing loops vectorised
 * for AVX2 in run_avx2's). */
FZ_INLINE void wave_kernel(unsigned op, uint32_t *d, const uint32_t *pa, uint32_t ua, unsigned uni, uint32_t flags)
{
  uint32_t a[EMU_LANES], t[EMU_LANES];
  if (uni) emu_fill64(a, ua), pa = a;
  if (op == FZ_EXP_F) {
    if (d != pa) {
      emu_exp2_64((float *)(void *)d, (const float *)(const void *)pa);
    } else {
      emu_exp2_64((float *)(void *)t, (const float *)(const void *)pa);
      memcpy(d, t, sizeof t);
    }
  } else if (op == FZ_CVT_F32_F16) {
    uint16_t h[EMU_LANES];
    for (int l = 0; l < EMU_LANES; l++) h[l] = (uint16_t)pa[l];
    emu_f16_to_f32_64((float *)(void *)d, h);
  } else {
    uint16_t h[EMU_LANES];
    emu_f32_to_f16_64(h, (const float *)(const void *)pa);
    if (flags & EMU_F_D16Z)
      for (int l = 0; l < EMU_LANES; l++) d[l] = h[l];
    else
      for (int l = 0; l < EMU_LANES; l++) d[l] = (d[l] & 0xffff0000u) | h[l];
  }
}
static __attribute__((noinline)) void run_wave_kernel(unsigned op, uint32_t *d, const uint32_t *pa, uint32_t ua,
                                                      unsigned uni, uint32_t flags)
{
  wave_kernel(op, d, pa, ua, uni, flags);
}
static __attribute__((noinline, target("avx2"))) void run_wave_kernel_avx2(unsigned op, uint32_t *d, const uint32_t *pa,
                                                                           uint32_t ua, unsigned uni, uint32_t flags)
{
  wave_kernel(op, d, pa, ua, uni, flags);
}

FZ_INLINE void run_body(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt, const bool av)
{
  char *const Vb = (char *)w->v;
  for (const emu_insn *x = in, *const xe = in + m; x != xe; x++) {
    (*cnt++)++; /* the record's execution count (emu/exec.c rr_ahead's w->counts) */
    switch (x->fz_case) {
    V1(FZ_MOV, a)
    V1(FZ_NOT, ~a)
    V2(FZ_ADD, a + b)
    V2(FZ_SUB, a - b)
    V2(FZ_SUBREV, b - a)
    V2(FZ_AND, a & b)
    V2(FZ_OR, a | b)
    V2(FZ_XOR, a ^ b)
    V2(FZ_MUL_LO, a * b)
    /* shifts: D = S1 shifted by S0[4:0] */
    V2(FZ_LSHL, b << (a & 31))
    V2(FZ_LSHR, b >> (a & 31))
    V2(FZ_ASHR, (v8u)((v8i)b >> (v8i)(a & 31)))
    V2(FZ_MIN_I, ({ v8u lt = (v8u)((v8i)a < (v8i)b); (a & lt) | (b & ~lt); }))
    V2(FZ_MAX_I, ({ v8u gt = (v8u)((v8i)a > (v8i)b); (a & gt) | (b & ~gt); }))
    V2(FZ_MIN_U, ({ v8u lt = (v8u)(a < b); (a & lt) | (b & ~lt); }))
    V2(FZ_MAX_U, ({ v8u gt = (v8u)(a > b); (a & gt) | (b & ~gt); }))
    /* v_cndmask_b32: D = mask[lane] ? S1 : S0, the mask an SGPR pair (operand 3) */
    CND(0) CND(1) CND(2) CND(3)
    V3(FZ_AND_OR, (a & b) | c)
    V3(FZ_OR3, a | b | c)
    V3(FZ_XAD, (a ^ b) + c)
    V3(FZ_LSHL_ADD, (a << (b & 31)) + c)
    V3(FZ_ADD_LSHL, (a + b) << (c & 31))
    V3(FZ_ADD3, a + b + c)
    V3(FZ_LSHL_OR, (a << (b & 31)) | c)
    V3(FZ_BFI, (a & b) | (~a & c))
    V3(FZ_BFE_U, (a >> (b & 31)) & ((((v8u){0} + 1) << (c & 31)) - 1))
    V2(FZ_MAX_F, FZ_MINMAX(a, b, emu_ieee_mode(w), true))
    V2(FZ_MIN_F, FZ_MINMAX(a, b, emu_ieee_mode(w), false))
    V3(FZ_MED3_F, FZ_MED3(a, b, c, emu_ieee_mode(w)))
    /* v_max3_f32 / v_min3_f32: the handlers' two steps, max(max(a, b), c) (emu/op_valu.c VOP_F3) */
    V3(FZ_MAX3_F, ({ const bool ie3_ = emu_ieee_mode(w); FZ_MINMAX(FZ_MINMAX(a, b, ie3_, true), c, ie3_, true); }))
    V3(FZ_MIN3_F, ({ const bool ie3_ = emu_ieee_mode(w); FZ_MINMAX(FZ_MINMAX(a, b, ie3_, false), c, ie3_, false); }))
    V1(FZ_CVT_I32_F, FZ_CVT_I32(a))
    V1(FZ_CVT_U32_F, FZ_CVT_U32(a))
    V1(FZ_RNDNE_F, FZ_RNDNE(a))
    V1(FZ_CVT_UB0, UBYTE(a, 0))
    V1(FZ_CVT_UB1, UBYTE(a, 8))
    V1(FZ_CVT_UB2, UBYTE(a, 16))
    V1(FZ_CVT_UB3, UBYTE(a, 24))
    BOP3(0) BOP3(1) BOP3(2) BOP3(3) BOP3(4) BOP3(5) BOP3(6) BOP3(7)
    case FZC(FZ_NOP): break;
    case FZC(FZ_MOV64) + 0: run64(w, x, Vb, FZ_MOV64, 0); break;
    case FZC(FZ_MOV64) + 1: run64(w, x, Vb, FZ_MOV64, 1); break;
    case FZC(FZ_LSHL64) + 0: run64(w, x, Vb, FZ_LSHL64, 0); break;
    case FZC(FZ_LSHL64) + 1: run64(w, x, Vb, FZ_LSHL64, 1); break;
    case FZC(FZ_LSHL_ADD64) + 0: run64(w, x, Vb, FZ_LSHL_ADD64, 0); break;
    case FZC(FZ_LSHL_ADD64) + 1: run64(w, x, Vb, FZ_LSHL_ADD64, 1); break;
    case FZC(FZ_LSHL_ADD64) + 2: run64(w, x, Vb, FZ_LSHL_ADD64, 2); break;
    case FZC(FZ_LSHL_ADD64) + 3: run64(w, x, Vb, FZ_LSHL_ADD64, 3); break;
    FZ_SOPC(FZ_S_AND, a & b, true)
    FZ_SOPC(FZ_S_OR, a | b, true)
    FZ_SOPC(FZ_S_XOR, a ^ b, true)
    FZ_SOPC(FZ_S_ANDN2, a & ~b, true)
    FZ_SOPC(FZ_S_ORN2, a | ~b, true)
    FZ_SOPC(FZ_S_NAND, ~(a & b), true)
    FZ_SOPC(FZ_S_NOR, ~(a | b), true)
    FZ_SOPC(FZ_S_XNOR, ~(a ^ b), true)
    FZ_SOPC(FZ_S_MOV, a, false)
    FZ_SOPC(FZ_S_NOT, ~a, true)
    case FZC(FZ_CMP_F): { /* the mask into the SGPR pair (EXEC is all ones: no lane cleared) */
      if (!av) {
        x->fn(w, x);
        break;
      }
      const unsigned uni = x->fz_uni;
      const uint64_t r = cmp_avx2(x->fz_op, x->fz_src[2], uni, SRC(0), SRC(1), (uni & 1) ? UNI(0) : 0,
                                  (uni & 2) ? UNI(1) : 0);
      w->s[x->fz_dst] = (uint32_t)r, w->s[x->fz_dst + 1] = (uint32_t)(r >> 32);
      break;
    }
    /* scalar ALU records, the packed f32 forms and v_mad_u64_u32 (emu/simd.c's whole-wave kernel;
     * emu/jit.c translates it): their handlers, in place */
    case FZC(FZ_SALU): case FZC(FZ_PK_FMA): case FZC(FZ_PK_MUL): case FZC(FZ_MAD64): x->fn(w, x); break;
    case FZC(FZ_XCALL): emu_run_xcall(w, x); break;
    case FZC(FZ_EXP_F): {
      const unsigned uni = x->fz_uni;
      if (av) run_wave_kernel_avx2(x->fz_op, DST, SRC(0), uni ? UNI(0) : 0, uni, x->flags);
      else run_wave_kernel(x->fz_op, DST, SRC(0), uni ? UNI(0) : 0, uni, x->flags);
      break;
    }
    FLT2(FZ_ADD_F)
    FLT2(FZ_SUB_F)
    FLT2(FZ_SUBREV_F)
    FLT2(FZ_MUL_F)
    FLT2(FZ_FMA_F)
    FLT(FZ_FMA_F, 4)
    FLT(FZ_FMA_F, 5)
    FLT(FZ_FMA_F, 6)
    FLT(FZ_FMA_F, 7)
    default: __builtin_unreachable();
    }
  }
}

__attribute__((target("avx2,fma"))) static void run_avx2(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt)
{
  run_body(w, in, m, cnt, true);
}
static void run_base(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt) { run_body(w, in, m, cnt, false); }

/* the run's records through their translated code where they have some (emu/jit.c), the runner
 * for the rest; hot: translate at once (a run executed by emu_fuse_run, counted nowhere) */
static void runc(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt, bool hot)
{
  if (emu_jit_ready()) {
    while (m > 0) {
      if (in->fz_op == FZ_XCALL) { /* the handler in place, not through the runner's call */
        (*cnt++)++;
        emu_run_xcall(w, in++);
        m--;
        continue;
      }
      /* the two settled cases inline (records with no code before the next piece; a piece with code,
       * whose records the runner takes when it is longer than m, as emu_jit_step would), emu_jit_step
       * for a piece not yet translated */
      const void *code = __atomic_load_n(&in->jit, __ATOMIC_ACQUIRE);
      int k;
      if (code == EMU_JIT_NONE) k = -(int)in->jit_n;
      else if (code) k = emu_jit_try(w, in, m, cnt), k = k ? k : -m;
      else k = emu_jit_step(w, in, m, cnt, hot);
      if (k < 0) {
        k = -k < m ? -k : m;
        run_avx2(w, in, k, cnt);
      }
      in += k, cnt += k, m -= k;
    }
    return;
  }
  if (emu_avx2) run_avx2(w, in, m, cnt);
  else run_base(w, in, m, cnt);
}

void emu_fuse_runc(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt) { runc(w, in, m, cnt, false); }

void emu_fuse_run(emu_wave *w, const emu_insn *in, int m)
{
  uint64_t cnt[EMU_FUSE_MAX] = {0}; /* counted nowhere */
  w->rr_end = in + m; /* the run is the part of its block that runs */
  runc(w, in, m, cnt, true);
}
