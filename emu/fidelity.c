/* emu/fidelity — which stated choices an instruction's semantics rest on, and the fidelity line of a
 * run (emu.h part 5; docs/fidelity.md).
 *
 * A choice is a rule the emulator applies where AMD's CDNA3/CDNA4 ISA guides are silent or where
 * lanelab's reading is not confirmed (docs/emulator-choices.md, "Stated choices: index": one row
 * per id below, the id being the row's anchor). Semantics that follow the guides' pseudocode or
 * prose are not choices, confirmed on hardware or not (none is: no machine here has an AMD GPU).
 *
 * Cost: the set is computed once per decoded instruction (emu_insn.choices, decode.c); a launch sums
 * its per-instruction executed counts (the ones the phase census keeps) after the run, so the
 * executor's loop does no extra work. */
#include <stdio.h>

#include "emu/internal.h"

_Static_assert(EMU_CH_LAST_ROW <= 16, "row-tagged choices must fit flags bits 16..31");
_Static_assert(EMU_CH_N <= EMU_MAX_CHOICES, "EMU_MAX_CHOICES too small");

static const emu_choice choices[EMU_CH_N] = {
    [EMU_CH_NONE] = {"none", "semantics from AMD's documents only"},
    [EMU_CH_TRANSCENDENTAL] = {"transcendental-rounding",
                               "v_exp/log/rcp/rsq/sqrt/sin/cos rounded once from double (the ISA gives ~1 ULP)"},
    [EMU_CH_MAD_F16] = {"mad-f16-precision",
                        "unfused f16 multiply-add: exact product plus addend in f32, then f16 (ISA: 1 ULP, denormals flushed)"},
    [EMU_CH_SCALE_E8M0] = {"scale-e8m0-mantissa", "v_cvt_scalef32_*: the scale's exponent as E8M0, mantissa ignored"},
    [EMU_CH_FP4_FP6_SAT] = {"fp4-fp6-nan-saturate", "down-conversion to fp4/fp6/bf6: overflow and NaN saturate to +-max"},
    [EMU_CH_FP6_BLOCK] = {"fp6-block-order", "32-value fp6/bf6 blocks: code i at bits 6i..6i+5, 2xpk16 src0 then src1"},
    [EMU_CH_SR] = {"stochastic-rounding", "v_cvt_sr_*: the random operand's top W bits added below the result's LSB"},
    [EMU_CH_CVT_U8] = {"cvt-u8", "f32_to_u8: round to nearest even, saturate to [0, 255], NaN to 0"},
    [EMU_CH_MFMA_ORDER] = {"mfma-accumulation",
                           "MFMA: C then k ascending, each product added and rounded in the accumulator type"},
    [EMU_CH_MFMA_SCALE] = {"mfma-scale-fp8", "v_mfma_scale_*: a lane's scale covers both fp8 halves; scaled value in f32"},
    [EMU_CH_SMFMAC] = {"smfmac-index-order", "v_smfmac_*: index fields in stored-value order, unnamed positions zero"},
    [EMU_CH_CVT_NORM] = {"cvt-norm", "f*_to_snorm/unorm: clamp to [-1,1]/[0,1], scale, round to nearest even, NaN to 0"},
    [EMU_CH_CVT_PK_INT] = {"cvt-pk-int-saturate", "i32_to_i16 / u32_to_u16 saturate to the 16-bit range"},
    [EMU_CH_D16_HIGH] = {"d16-high-half", "the half of a 16-bit result's register not written: zeroed or kept (LLVM)"},
    [EMU_CH_CLOCK] = {"clock-counter", "s_memtime/s_memrealtime: the wave's count of issued instructions, not a time"},
    [EMU_CH_DPP_INACTIVE] = {"dpp-inactive-lane", "a DPP source lane outside EXEC counts as an invalid lane"},
    [EMU_CH_OMOD_IEEE] = {"omod-ieee", "OMOD ignored in IEEE mode (LLVM)"},
    [EMU_CH_CLAMP_SIGN] = {"float-clamp-zero-sign", "float clamp keeps -0 (LLVM)"},
    [EMU_CH_CVT_F8_OPSEL] = {"cvt-f8-vop3-op-sel", "VOP3 fp8/bf8 -> f32: op_sel byte select not visible, byte 0 read"},
    [EMU_CH_INT_CLAMP] = {"int-clamp-exact", "integer clamp on a multi-step op: the exact result saturated once"},
    [EMU_CH_PERMLANE_SAME] = {"permlane-swap-same-register", "v_permlane*_swap with vdst == src0 swaps the halves"},
    [EMU_CH_PERMLANE_FI] = {"permlane-swap-fi-bound-ctrl", "v_permlane*_swap fi/bound_ctrl: no effect with EXEC all ones"},
    [EMU_CH_LDS_DMA] = {"lds-dma-at-issue", "loads to LDS write LDS when issued"},
    [EMU_CH_MFMA_F8] = {"mfma-f8f6f4-fp8-layout", "f8f6f4 MFMA fp8/bf8 operand: two 16-k halves per lane"},
    [EMU_CH_PRIVATE] = {"private-memory",
                        "scratch_*: each lane's private segment starts zeroed; an access outside it faults"},
    [EMU_CH_ATOMIC_FMINMAX] = {"atomic-float-min-max",
                               "floating atomic min/max: a NaN operand yields the other; a tie keeps one side"},
};

size_t emu_choice_count(void) { return EMU_CH_N; }
const emu_choice *emu_choice_get(size_t c) { return c < EMU_CH_N ? &choices[c] : NULL; }

/* The type a mnemonic's result has: its first type token after the operation name (v_add_f32,
 * v_cvt_pknorm_i16_f32 -> i16, v_dot2_f32_f16 -> f32, v_mad_u32_u24 -> u32). */
static bool result_is_float(const char *m)
{
  for (const char *p = m; (p = strchr(p, '_')); p++) {
    const char *t = p + 1;
    if ((t[0] == 'f' && (t[1] == '1' || t[1] == '3' || t[1] == '6')) || !strncmp(t, "bf16", 4)) return true;
    if ((t[0] == 'u' || t[0] == 'i' || t[0] == 'b') && t[1] >= '1' && t[1] <= '9') return false;
  }
  return false;
}

uint64_t emu_insn_choices(const emu_insn *in)
{
  if (!in->implemented) return 0;
  uint64_t c = 0;
  for (int x = 1; x <= EMU_CH_LAST_ROW; x++)
    if (in->flags & EMU_F_C(x)) c |= 1ull << x;
  const char *m = in->mnem;
  /* a 16-bit VOP1/VOP2 result zeroing the high half is LLVM's observation, except for the ops whose
   * pseudocode writes {16'0, tmp} (the legacy forms, v_mac/madak/madmk_f16) */
  if ((in->flags & EMU_F_D16Z) && !strstr(m, "_legacy_") && strncmp(m, "v_mac_f16", 9) &&
      strncmp(m, "v_madak_f16", 11) && strncmp(m, "v_madmk_f16", 11))
    c |= 1ull << EMU_CH_D16_HIGH;
  if (in->enc == EMU_ENC_DPP) c |= 1ull << EMU_CH_DPP_INACTIVE;
  if (in->omod) c |= 1ull << EMU_CH_OMOD_IEEE;
  if (in->clamp) {
    if (in->flags & EMU_F_ICLAMP) c |= 1ull << EMU_CH_INT_CLAMP;
    else if ((in->flags & (EMU_F_VALU | EMU_F_VOP3P)) && result_is_float(m)) c |= 1ull << EMU_CH_CLAMP_SIGN;
  }
  if (in->enc == EMU_ENC_E64 && (!strncmp(m, "v_cvt_f32_fp8", 13) || !strncmp(m, "v_cvt_f32_bf8", 13) ||
                                 !strncmp(m, "v_cvt_pk_f32_fp8", 16) || !strncmp(m, "v_cvt_pk_f32_bf8", 16)))
    c |= 1ull << EMU_CH_CVT_F8_OPSEL;
  if (!strncmp(m, "v_permlane", 10) && strstr(m, "_swap_")) {
    if (in->nop >= 2 && in->o[0].kind == EMU_OPK_VGPR && in->o[1].kind == EMU_OPK_VGPR && in->o[0].reg == in->o[1].reg)
      c |= 1ull << EMU_CH_PERMLANE_SAME;
    if (in->fi || in->bound_ctrl) c |= 1ull << EMU_CH_PERMLANE_FI;
  }
  if (!strncmp(m, "global_load_lds_", 16) || (in->lds && !strncmp(m, "buffer_load_", 12))) c |= 1ull << EMU_CH_LDS_DMA;
  if (!strncmp(m, "scratch_", 8)) c |= 1ull << EMU_CH_PRIVATE;
  /* the floating atomic min/max of LDS and global/flat/buffer memory */
  if (((!strncmp(m, "ds_min_", 7) || !strncmp(m, "ds_max_", 7)) && (strstr(m, "_f32") || strstr(m, "_f64"))) ||
      (strstr(m, "_atomic_") && (strstr(m, "_min_f") || strstr(m, "_max_f"))))
    c |= 1ull << EMU_CH_ATOMIC_FMINMAX;
  /* f8f6f4: cbsz / blgp pick A / B's format, 0 fp8 and 1 bf8 being the split-layout ones */
  if (strstr(m, "_f8f6f4") && (in->cbsz <= 1 || in->blgp <= 1)) c |= 1ull << EMU_CH_MFMA_F8;
  return c;
}

/* Modifier combinations the record shows whose semantics are not modelled (the handler would
 * fault "unimplemented"): refused at decode, so `isa coverage` counts them as refused. */
const char *emu_insn_static_refusal(const emu_insn *in)
{
  static _Thread_local char why[128];
  const char *m = in->mnem;
  if (in->clamp && (in->flags & EMU_F_NOCLAMP)) {
    snprintf(why, sizeof why, "clamp on %s is not modelled", m);
    return why;
  }
  /* neg:[a,b,c] is the f64 MFMA's negation (op_mfma.c); nothing else models it */
  if (in->neg && strncmp(m, "v_mfma_f64", 10)) {
    snprintf(why, sizeof why, "neg:[...] on %s is not modelled", m);
    return why;
  }
  /* VOP3P neg_lo/neg_hi on an integer op: the ISA gives them no integer meaning */
  if ((in->flags & EMU_F_VOP3P) && (in->neg_lo | in->neg_hi) && !result_is_float(m)) {
    snprintf(why, sizeof why, "neg_lo/neg_hi on the integer op %s is not modelled", m);
    return why;
  }
  /* v_dot2_f32_f16's f32 S2 under neg_lo/neg_hi: undocumented (for the bf16 form the CDNA4 ISA
   * says they do not affect S2) */
  if (!strncmp(m, "v_dot2_f32_f16", 14) && ((in->neg_lo | in->neg_hi) & 4)) {
    snprintf(why, sizeof why, "neg_lo/neg_hi on the f32 addend of %s is not modelled", m);
    return why;
  }
  /* the VOP3 form of v_dot2c_f32_f16 with abs/neg: the CDNA4 ISA's reading (ABS as NEG_HI) is given
   * for the bf16 form only */
  if (!strncmp(m, "v_dot2c_f32_f16", 15) && in->nop >= 3 && ((in->o[1].mods | in->o[2].mods) & (EMU_M_ABS | EMU_M_NEG))) {
    snprintf(why, sizeof why, "abs/neg on the sources of %s is not modelled", m);
    return why;
  }
  return NULL;
}

/* ---- per launch, and the process's total ----------------------------------------------------*/
static pthread_mutex_t proc_mu = PTHREAD_MUTEX_INITIALIZER;
static emu_fidelity proc;

void emu__fidelity_launch(const emu_program *prog, const uint64_t *all, const char *kernel,
                          emu_launch_stats *stats)
{
  /* the launch's sums (not an emu_fidelity: its examples are 10 KiB to clear per launch) */
  uint64_t insns = 0, choice_insns = 0, count[EMU_MAX_CHOICES] = {0};
  int first[EMU_MAX_CHOICES]; /* instruction index of each choice's first executed instruction */
  for (int c = 0; c < EMU_MAX_CHOICES; c++) first[c] = -1;
  for (size_t i = 0; i < prog->n; i++) insns += all[i];
  for (size_t j = 0; j < prog->nchoice; j++) { /* the records with choices only (emu_program.choice_ix) */
    const size_t i = prog->choice_ix[j];
    uint64_t ch = prog->insns[i].choices;
    if (!all[i] || !ch) continue;
    choice_insns += all[i];
    for (int c = 1; c < EMU_CH_N; c++)
      if (ch >> c & 1) {
        count[c] += all[i];
        if (first[c] < 0) first[c] = (int)i;
      }
  }
  if (stats) {
    for (int c = 1; c < EMU_CH_N; c++) {
      if (first[c] < 0) continue;
      const emu_insn *in = &prog->insns[first[c]];
      stats->choice_count[c] = count[c];
      stats->choice_example[c] = ll_fmt("0x%llx: %s", (unsigned long long)in->pc, in->text);
    }
    stats->choice_insns = choice_insns;
  }
  pthread_mutex_lock(&proc_mu);
  proc.launches++;
  proc.insns += insns;
  proc.choice_insns += choice_insns;
  for (int c = 1; c < EMU_CH_N; c++) {
    proc.count[c] += count[c];
    if (!proc.example[c][0] && first[c] >= 0) {
      const emu_insn *in = &prog->insns[first[c]];
      snprintf(proc.example[c], sizeof proc.example[c], "%s 0x%llx: %s", kernel ? kernel : "?", (unsigned long long)in->pc,
               in->text);
    }
  }
  pthread_mutex_unlock(&proc_mu);
}

void emu_fidelity_process(emu_fidelity *out)
{
  pthread_mutex_lock(&proc_mu);
  *out = proc;
  pthread_mutex_unlock(&proc_mu);
}

void emu_fidelity_process_reset(void)
{
  pthread_mutex_lock(&proc_mu);
  memset(&proc, 0, sizeof proc);
  pthread_mutex_unlock(&proc_mu);
}

/* ---- the fidelity line ------------------------------------------------------------------------*/
void emu_fidelity_add(emu_fidelity *f, const emu_launch_stats *s, const char *kernel)
{
  if (!f || !s) return;
  f->launches++;
  f->insns += s->wave_insns;
  f->choice_insns += s->choice_insns;
  for (size_t c = 1; c < EMU_CH_N; c++) {
    f->count[c] += s->choice_count[c];
    if (s->choice_count[c] && !f->example[c][0] && s->choice_example[c])
      snprintf(f->example[c], sizeof f->example[c], "%s%s%s", kernel ? kernel : "", kernel ? " " : "",
               s->choice_example[c]);
  }
}

void emu_fidelity_format(const emu_fidelity *f, char *buf, size_t n)
{
  if (!n) return;
  size_t k = (size_t)snprintf(buf, n, "fidelity: %llu instruction%s executed, ", (unsigned long long)f->insns,
                              f->insns == 1 ? "" : "s");
  if (!f->choice_insns) {
    if (k < n) snprintf(buf + k, n - k, "none rests on a stated choice");
    return;
  }
  if (k < n)
    k += (size_t)snprintf(buf + k, n - k, "%llu (%.1f%%) rest%s on stated choices:",
                          (unsigned long long)f->choice_insns, 100.0 * (double)f->choice_insns / (double)f->insns,
                          f->choice_insns == 1 ? "s" : "");
  bool first = true;
  for (size_t c = 1; c < EMU_CH_N && k < n; c++) {
    if (!f->count[c]) continue;
    k += (size_t)snprintf(buf + k, n - k, "%s %s %llu", first ? "" : ",", choices[c].id,
                          (unsigned long long)f->count[c]);
    first = false;
  }
  if (k < n) snprintf(buf + k, n - k, " (docs/emulator-choices.md)");
}

bool emu_fidelity_strict(const emu_fidelity *f, char *buf, size_t n)
{
  if (n) buf[0] = 0;
  if (!f->choice_insns) return false;
  size_t k = 0;
  for (size_t c = 1; c < EMU_CH_N && k < n; c++) {
    if (!f->count[c]) continue;
    k += (size_t)snprintf(buf + k, n - k, "%s%s (%s): %llu instruction%s, first %s", k ? "\n" : "", choices[c].id,
                          choices[c].title, (unsigned long long)f->count[c], f->count[c] == 1 ? "" : "s",
                          f->example[c][0] ? f->example[c] : "?");
  }
  return true;
}
