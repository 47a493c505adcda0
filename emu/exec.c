/* emu/exec — waves, workgroups, the grid: initial register state, scheduling, faults, snapshots,
 * statistics, and the shared operand helpers every semantics file uses.
 *
 * Hot loop: records are pre-decoded with direct handler pointers and operands resolved to
 * register-file indices; one step is `in = &insns[ip++]; in->fn(w, in)`. Nothing here calls LLVM
 * or allocates once a workgroup is running. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu/internal.h"
#include "emu/observe.h"

/* ---- faults ---------------------------------------------------------------------------------*/
/* Fill f with the record of an event at `in` (a fault or a memory-model warning). */
static void fill_event(const emu_wave *w, const emu_insn *in, emu_fault *f, const char *kind, int lane,
                       uint64_t addr, const char *fmt, va_list ap)
{
  f->faulted = true;
  snprintf(f->kind, sizeof f->kind, "%s", kind);
  f->arch = w->wg->arch;
  snprintf(f->kernel, sizeof f->kernel, "%s",
           w->wg->d && w->wg->d->kernel && w->wg->d->kernel->name ? w->wg->d->kernel->name : "?");
  f->pc = in ? in->pc : 0;
  snprintf(f->insn, sizeof f->insn, "%s", in && in->text ? in->text : "");
  f->lane = lane;
  f->addr = addr;
  memcpy(f->wg, w->wg->id, sizeof f->wg);
  f->wave = w->wave_id;
  char detail[320] = "";
  if (fmt) vsnprintf(detail, sizeof detail, fmt, ap);
  char where[64] = "";
  if (lane >= 0) snprintf(where, sizeof where, " lane %d", lane);
  char at[40] = "";
  if (addr || !strcmp(kind, "out-of-bounds global access")) snprintf(at, sizeof at, " address 0x%llx", (unsigned long long)addr);
  /* file:line beside the PC when the code object has a line table (emu/dwarf.c) */
  f->src[0] = 0;
  if (in && w->wg->d && w->wg->d->co) emu_codeobj_srcline(w->wg->d->co, in->pc, f->src, sizeof f->src);
  snprintf(f->msg, sizeof f->msg, "%s: %s kernel %s workgroup (%u,%u,%u) wave %u pc 0x%llx%s%s '%s'%s%s%s%s",
           kind, emu_arch_name(f->arch), f->kernel, f->wg[0], f->wg[1], f->wg[2], f->wave,
           (unsigned long long)f->pc, f->src[0] ? " at " : "", f->src, f->insn, where, at, detail[0] ? ": " : "", detail);
}

int emu_raise(emu_wave *w, const emu_insn *in, const char *kind, int lane, uint64_t addr,
              const char *fmt, ...)
{
  emu_fault *f = w->fault;
  if (f->faulted) return EMU_FAULT; /* keep the first */
  va_list ap;
  va_start(ap, fmt);
  fill_event(w, in, f, kind, lane, addr, fmt, ap);
  va_end(ap);
  w->state = 3;
  return EMU_FAULT;
}

int emu_memwarn(emu_wave *w, const emu_insn *in, const char *kind, int lane, uint64_t addr,
                const char *fmt, ...)
{
  emu_fault ev = {0};
  va_list ap;
  va_start(ap, fmt);
  if (emu_strict_memory(w)) {
    emu_fault *f = w->fault;
    if (!f->faulted) fill_event(w, in, f, kind, lane, addr, fmt, ap), w->state = 3;
    va_end(ap);
    return EMU_FAULT;
  }
  fill_event(w, in, &ev, kind, lane, addr, fmt, ap);
  va_end(ap);
  ev.faulted = false;
  emu_warns *ws = w->wg->warns;
  bool first = true;
  if (ws) { /* once per PC per launch; the report is made under the lock (callbacks serialized) */
    pthread_mutex_lock(&ws->mu);
    ws->total++;
    for (size_t i = 0; i < ws->n && first; i++) first = ws->pcs[i] != ev.pc;
    if (first) {
      if (ws->n == ws->cap) ws->cap = ws->cap ? 2 * ws->cap : 8, ws->pcs = ll_xrealloc(ws->pcs, ws->cap * sizeof *ws->pcs);
      ws->pcs[ws->n++] = ev.pc;
    }
  }
  if (first) {
    const emu_launch_opts *o = w->wg->opts;
    if (o && o->on_warning) o->on_warning(o->warn_user, &ev);
    else fprintf(stderr, "lanelab: warning: %s\n", ev.msg);
  }
  if (ws) pthread_mutex_unlock(&ws->mu);
  return EMU_OK;
}

int emu_op_unimplemented(emu_wave *w, const emu_insn *in)
{
  return emu_raise(w, in, "unimplemented", -1, 0, "%s",
                   in->why ? in->why : "no semantics for this instruction");
}

/* ---- scalar operands --------------------------------------------------------------------------*/
/* Inline float constants (CDNA3 ISA "Inline Constants": SSRC codes 240..248) */
static const uint32_t fimm_bits32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                        0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint16_t fimm_bits16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000,
                                        0xc000, 0x4400, 0xc400, 0x3118};
static const uint64_t fimm_bits64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull,
                                        0x3ff0000000000000ull, 0xbff0000000000000ull,
                                        0x4000000000000000ull, 0xc000000000000000ull,
                                        0x4010000000000000ull, 0xc010000000000000ull,
                                        0x3fc45f306dc9c882ull};

/* value of a non-register operand as `width` bits (16, 32, 64) */
static uint64_t const_val(const emu_wave *w, const emu_opnd *o, int width)
{
  switch (o->kind) {
  case EMU_OPK_IMM: return (uint64_t)o->ival & (width == 64 ? ~0ull : width == 32 ? 0xffffffffull : 0xffffull);
  case EMU_OPK_LIT: return (uint64_t)o->ival & (width == 64 ? ~0ull : width == 32 ? 0xffffffffull : 0xffffull);
  case EMU_OPK_FIMM:
    return width == 64 ? fimm_bits64[o->reg - 240] : width == 32 ? fimm_bits32[o->reg - 240]
                                                                 : fimm_bits16[o->reg - 240];
  case EMU_OPK_SCC: return w->scc;
  case EMU_OPK_EXECZ: return emu_exec(w) == 0;
  case EMU_OPK_VCCZ: return emu_vcc(w) == 0;
  case EMU_OPK_APERT: {
    /* 64-bit aperture bases; the 32-bit operand is the high half (CDNA3 ISA "SSRC"). A 64-bit
     * operand is the whole base: LLVM reads the aperture with `s_mov_b64 s[2:3], src_shared_base`
     * and uses s3 as the high dword of a flat LDS address (clang-22 output for a generic pointer
     * to __shared__). Returning the high half here too put it in s2 and left s3 = 0, so every
     * flat access to LDS faulted "out-of-bounds global access" at the bare LDS offset. */
    uint64_t v = o->reg == 235 ? EMU_LDS_APERTURE
               : o->reg == 236 ? EMU_LDS_APERTURE + 0xffffffffull
               : o->reg == 237 ? EMU_PRIVATE_APERTURE
                               : EMU_PRIVATE_APERTURE + 0xffffffffull;
    return width == 64 ? v : v >> 32;
  }
  default: return 0;
  }
}

uint32_t emu_ssrc32(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) return w->s[o->reg];
  if (o->kind == EMU_OPK_VGPR) return w->v[o->reg * EMU_LANES]; /* v_readfirstlane-style misuse */
  return (uint32_t)const_val(w, o, 32);
}

uint64_t emu_ssrc64(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) return o->n >= 2 ? emu_rd64s(w, o->reg) : w->s[o->reg];
  if (o->kind == EMU_OPK_IMM) return (uint64_t)o->ival; /* sign-extended */
  return const_val(w, o, 64);
}

void emu_sdst32(emu_wave *w, const emu_insn *in, int i, uint32_t v)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) w->s[o->reg] = v;
}

void emu_sdst64(emu_wave *w, const emu_insn *in, int i, uint64_t v)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind != EMU_OPK_SGPR) return;
  w->s[o->reg] = (uint32_t)v;
  if (o->n >= 2) w->s[o->reg + 1] = (uint32_t)(v >> 32);
}

uint64_t emu_srcmask_slow(const emu_wave *w, const emu_insn *in, int i)
{
  return emu_ssrc64(w, in, i);
}

void emu_dstmask(emu_wave *w, const emu_insn *in, int i, uint64_t bits)
{
  /* VOPC/carry-out: bits of lanes with EXEC off are written as 0 (CDNA3 ISA "VOPC") */
  emu_sdst64(w, in, i, bits & emu_exec(w));
}

/* ---- vector operands --------------------------------------------------------------------------*/

static inline void bcast(uint32_t *t, uint32_t v)
{
  for (int l = 0; l < EMU_LANES; l++) t[l] = v;
}

/* SDWA source select (CDNA3 ISA "SDWA"): BYTE_n / WORD_n extracted, zero- or sign-extended */
static inline uint32_t sdwa_sel(uint32_t v, int sel, bool sext)
{
  if (sel <= 3) {
    uint32_t b = (v >> (8 * sel)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  if (sel <= 5) {
    uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
  }
  return v;
}

static const uint32_t *src_raw(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp, int width)
{
  const emu_opnd *o = &in->o[i];
  const uint32_t *p;
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) p = emu_vreg(w, in, i, 0);
  else if (o->kind == EMU_OPK_SGPR) bcast(tmp, w->s[o->reg]), p = tmp;
  else bcast(tmp, (uint32_t)const_val(w, o, width)), p = tmp;
  if (__builtin_expect(in->enc >= EMU_ENC_SDWA, 0)) {
    if (in->enc == EMU_ENC_DPP && i == in->src0i) {
      emu_dpp_src(w, in, p, tmp);
      p = tmp;
    } else if (in->enc == EMU_ENC_SDWA && (i == in->src0i || i == in->src0i + 1)) {
      int sel = i == in->src0i ? in->src0_sel : in->src1_sel;
      if (sel != EMU_SEL_DWORD || (o->mods & EMU_M_SEXT)) {
        bool sx = o->mods & EMU_M_SEXT;
        for (int l = 0; l < EMU_LANES; l++) tmp[l] = sdwa_sel(p[l], sel, sx);
        p = tmp;
      }
    }
  }
  return p;
}

const uint32_t *emu_src32_slow(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp)
{
  return src_raw(w, in, i, tmp, 32);
}

const float *emu_srcf32(emu_wave *w, const emu_insn *in, int i, float *tmp)
{
  uint32_t *t = (uint32_t *)(void *)tmp;
  const uint32_t *p = src_raw(w, in, i, t, 32);
  uint8_t m = in->o[i].mods & (EMU_M_ABS | EMU_M_NEG);
  if (m) {
    /* abs clears, neg flips the sign bit (CDNA3 ISA "VOP3A" input modifiers) */
    uint32_t andm = (m & EMU_M_ABS) ? 0x7fffffffu : ~0u, xorm = (m & EMU_M_NEG) ? 0x80000000u : 0;
    for (int l = 0; l < EMU_LANES; l++) t[l] = (p[l] & andm) ^ xorm;
    p = t;
  } else if (p != t) {
    memcpy(t, p, EMU_LANES * 4);
  }
  return tmp;
}

void emu_src64(emu_wave *w, const emu_insn *in, int i, uint64_t *tmp)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    const uint32_t *lo = emu_vreg(w, in, i, 0), *hi = emu_vreg(w, in, i, 1);
    if (__builtin_expect(in->enc == EMU_ENC_DPP, 0) && i == in->src0i) {
      /* A 64-bit DPP source moves both halves by the same lane selection (CDNA3 ISA "DPP"),
       * e.g. v_mov_b64_dpp ... row_newbcast:n. */
      uint32_t slo[EMU_LANES], shi[EMU_LANES];
      emu_dpp_src(w, in, lo, slo);
      emu_dpp_src(w, in, hi, shi);
      for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint64_t)slo[l] | (uint64_t)shi[l] << 32;
      return;
    }
    for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint64_t)lo[l] | (uint64_t)hi[l] << 32;
  } else {
    uint64_t v = emu_ssrc64(w, in, i);
    for (int l = 0; l < EMU_LANES; l++) tmp[l] = v;
  }
}

void emu_srcf64(emu_wave *w, const emu_insn *in, int i, double *tmp)
{
  uint64_t *t = (uint64_t *)(void *)tmp;
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_LIT && !(o->ival >> 32)) {
    /* a 32-bit literal for a 64-bit float operand supplies the high half (CDNA3 ISA "Literal
     * Constants") */
    uint64_t v = (uint64_t)o->ival << 32;
    for (int l = 0; l < EMU_LANES; l++) t[l] = v;
  } else {
    emu_src64(w, in, i, t);
  }
  uint8_t m = o->mods & (EMU_M_ABS | EMU_M_NEG);
  if (m) {
    uint64_t andm = (m & EMU_M_ABS) ? ~(1ull << 63) : ~0ull, xorm = (m & EMU_M_NEG) ? 1ull << 63 : 0;
    for (int l = 0; l < EMU_LANES; l++) t[l] = (t[l] & andm) ^ xorm;
  }
}

void emu_src16(emu_wave *w, const emu_insn *in, int i, uint16_t *tmp)
{
  uint32_t t32[EMU_LANES];
  const uint32_t *p = src_raw(w, in, i, t32, 16);
  int j = i - in->src0i;
  int sh = (in->enc != EMU_ENC_SDWA && j >= 0 && j < 3 && (in->op_sel >> j & 1)) ? 16 : 0;
  for (int l = 0; l < EMU_LANES; l++) tmp[l] = (uint16_t)(p[l] >> sh);
}

void emu_srcf16(emu_wave *w, const emu_insn *in, int i, float *tmp)
{
  uint16_t h[EMU_LANES];
  emu_src16(w, in, i, h);
  uint8_t m = in->o[i].mods;
  uint16_t andm = (m & EMU_M_ABS) ? 0x7fff : 0xffff, xorm = (m & EMU_M_NEG) ? 0x8000 : 0;
  for (int l = 0; l < EMU_LANES; l++) h[l] = (uint16_t)((h[l] & andm) ^ xorm);
  emu_f16_to_f32_64(tmp, h);
}

void emu_srcpk(emu_wave *w, const emu_insn *in, int i, bool isfloat, uint16_t *lo, uint16_t *hi)
{
  /* VOP3P (CDNA3 ISA "VOP3P"): op_sel[j] picks the half feeding the low result, op_sel_hi[j] the
   * half feeding the high result; neg_lo/neg_hi negate (float ops) after selection. An inline
   * constant is a 16-bit value in the low half with a zero high half: clang splats one with
   * op_sel_hi = 0 ("v_pk_add_f16 v1, v1, 1.0 op_sel_hi:[1,0]"), which is only needed if the high
   * half does not repeat it. A literal is the 32-bit value. */
  const emu_opnd *o = &in->o[i];
  int j = i - in->src0i;
  bool sl = in->op_sel >> j & 1, sh = in->op_sel_hi >> j & 1;
  uint16_t nl = (isfloat && (in->neg_lo >> j & 1)) ? 0x8000 : 0;
  uint16_t nh = (isfloat && (in->neg_hi >> j & 1)) ? 0x8000 : 0;
  if (o->kind != EMU_OPK_VGPR && o->kind != EMU_OPK_AGPR && o->kind != EMU_OPK_SGPR) {
    uint32_t c = o->kind == EMU_OPK_LIT ? (uint32_t)o->ival : (uint32_t)const_val(w, o, 16);
    uint16_t vl = (uint16_t)(sl ? c >> 16 : c), vh = (uint16_t)(sh ? c >> 16 : c);
    for (int l = 0; l < EMU_LANES; l++) lo[l] = vl ^ nl, hi[l] = vh ^ nh;
    return;
  }
  uint32_t t[EMU_LANES];
  const uint32_t *p = src_raw(w, in, i, t, 32);
  int shl = sl ? 16 : 0, shh = sh ? 16 : 0;
  for (int l = 0; l < EMU_LANES; l++) {
    lo[l] = (uint16_t)(p[l] >> shl) ^ nl;
    hi[l] = (uint16_t)(p[l] >> shh) ^ nh;
  }
}

/* ---- vector writes under EXEC ---------------------------------------------------------------*/
static inline void blend(emu_wave *w, const emu_insn *in, uint32_t *dst, const uint32_t *d)
{
  uint64_t e = emu_exec(w);
  if (__builtin_expect(in->enc == EMU_ENC_DPP, 0)) e &= emu_dpp_wmask(w, in);
  if (e == ~0ull) {
    memcpy(dst, d, EMU_LANES * 4);
    return;
  }
  emu_blend64(dst, d, e);
}

void emu_dst32_slow(emu_wave *w, const emu_insn *in, int i, const uint32_t *d)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) { /* VOP3 with scalar destination (v_readlane etc. use their own) */
    w->s[o->reg] = d[0];
    return;
  }
  uint32_t *dst = emu_vreg(w, in, i, 0);
  if (__builtin_expect(in->enc == EMU_ENC_SDWA && (in->dst_sel != EMU_SEL_DWORD), 0)) {
    /* SDWA dst_sel/dst_unused (CDNA3 ISA "SDWA"): the selected field gets the low bits of the
     * result; the rest is zero (UNUSED_PAD), sign-extended (UNUSED_SEXT) or kept (PRESERVE). */
    uint32_t t[EMU_LANES];
    int sel = in->dst_sel;
    int sh = sel <= 3 ? 8 * sel : 16 * (sel - 4), bits = sel <= 3 ? 8 : 16;
    uint32_t fm = (bits == 8 ? 0xffu : 0xffffu) << sh;
    for (int l = 0; l < EMU_LANES; l++) {
      uint32_t v = (d[l] << sh) & fm;
      if (in->dst_unused == 2) v |= dst[l] & ~fm;
      else if (in->dst_unused == 1 && (v >> (sh + bits - 1) & 1)) v |= ~0u << (sh + bits) & ~fm;
      t[l] = v;
    }
    blend(w, in, dst, t);
    return;
  }
  blend(w, in, dst, d);
}

/* OMOD then clamp. OMOD is ignored in IEEE mode (LLVM SIFoldOperands: "omod is ignored by
 * hardware if IEEE bit is enabled"); clamp to [0, 1] turns a NaN (quiet or signalling) into 0
 * with DX10_CLAMP set, else lets it through quieted (docs/emulator-choices.md). fminf/fmaxf are
 * not used: C's fmax(sNaN, 0) may return NaN, which then clamped to 1. */
static inline float omod_clamp(int omod, bool clamp, bool dx10, float x)
{
  switch (omod) {
  case 1: x *= 2.0f; break;
  case 2: x *= 4.0f; break;
  case 3: x *= 0.5f; break;
  }
  return clamp ? emu_clampf(dx10, x) : x; /* -0 stays -0: docs/emulator-choices.md */
}
static inline int eff_omod(const emu_wave *w, const emu_insn *in) { return in->omod && !emu_ieee_mode(w) ? in->omod : 0; }

void emu_dstf32(emu_wave *w, const emu_insn *in, int i, float *d)
{
  int om = in->omod ? eff_omod(w, in) : 0;
  if (om || in->clamp) {
    bool dx10 = emu_dx10_clamp(w);
    for (int l = 0; l < EMU_LANES; l++) d[l] = omod_clamp(om, in->clamp, dx10, d[l]);
  }
  emu_dst32(w, in, i, (const uint32_t *)(const void *)d);
}

void emu_dst64(emu_wave *w, const emu_insn *in, int i, const uint64_t *d)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) {
    emu_sdst64(w, in, i, d[0]);
    return;
  }
  uint32_t lo[EMU_LANES], hi[EMU_LANES];
  for (int l = 0; l < EMU_LANES; l++) lo[l] = (uint32_t)d[l], hi[l] = (uint32_t)(d[l] >> 32);
  blend(w, in, emu_vreg(w, in, i, 0), lo);
  blend(w, in, emu_vreg(w, in, i, 1), hi);
}

void emu_dstf64(emu_wave *w, const emu_insn *in, int i, double *d)
{
  int om = in->omod ? eff_omod(w, in) : 0;
  if (om || in->clamp) {
    bool dx10 = emu_dx10_clamp(w);
    for (int l = 0; l < EMU_LANES; l++) {
      double x = d[l];
      if (om == 1) x *= 2;
      else if (om == 2) x *= 4;
      else if (om == 3) x *= 0.5;
      if (in->clamp) x = x != x ? (dx10 ? 0.0 : emu_f64(emu_u64f(x) | (1ull << 51))) : x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
      d[l] = x;
    }
  }
  emu_dst64(w, in, i, (const uint64_t *)(const void *)d);
}

void emu_dst16(emu_wave *w, const emu_insn *in, int i, const uint16_t *d)
{
  /* see internal.h: zero or preserve the other half; SDWA forms go through dst_sel */
  uint32_t *dst = emu_vreg(w, in, i, 0);
  uint32_t t[EMU_LANES];
  if (in->enc == EMU_ENC_SDWA) {
    for (int l = 0; l < EMU_LANES; l++) t[l] = d[l];
    emu_dst32(w, in, i, t);
    return;
  }
  if (in->op_sel & 8)
    for (int l = 0; l < EMU_LANES; l++) t[l] = (dst[l] & 0xffffu) | (uint32_t)d[l] << 16;
  else if (in->flags & EMU_F_D16Z)
    for (int l = 0; l < EMU_LANES; l++) t[l] = d[l];
  else
    for (int l = 0; l < EMU_LANES; l++) t[l] = (dst[l] & 0xffff0000u) | d[l];
  blend(w, in, dst, t);
}

void emu_dstf16(emu_wave *w, const emu_insn *in, int i, float *d)
{
  uint16_t h[EMU_LANES];
  int om = in->omod ? eff_omod(w, in) : 0;
  bool dx10 = emu_dx10_clamp(w);
  if (om || in->clamp) {
    float t[EMU_LANES];
    for (int l = 0; l < EMU_LANES; l++) t[l] = omod_clamp(om, in->clamp, dx10, d[l]);
    emu_f32_to_f16_64(h, t);
  } else {
    emu_f32_to_f16_64(h, d);
  }
  emu_dst16(w, in, i, h);
}

/* ---- memory helpers ---------------------------------------------------------------------------*/
/* The fault of an access far from every buffer names the nearest one and the distance (a user
 * reading "out of bounds" wants to know which index ran off which buffer); lo is the first buffer
 * whose base is above addr. A message only: nothing of the machine changes. */
static void oob_nearest(emu_wave *w, const emu_insn *in, int lane, uint64_t addr, uint32_t n, size_t lo) {
  const emu_mem *m = w->wg->mem;
  const emu_membuf *below = lo > 0 ? &m->b[lo - 1] : NULL, *above = lo < m->n ? &m->b[lo] : NULL;
  uint64_t past = below ? addr - (below->base + below->size) : UINT64_MAX, before = above ? above->base - addr : UINT64_MAX;
  if (below && past <= before)
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access outside every registered buffer; the "
              "nearest is '%s' (%llu bytes at 0x%llx): %llu bytes past its end", n, below->name,
              (unsigned long long)below->size, (unsigned long long)below->base, (unsigned long long)past);
  else if (above)
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access outside every registered buffer; the "
              "nearest is '%s' (%llu bytes at 0x%llx): %llu bytes before its start", n, above->name,
              (unsigned long long)above->size, (unsigned long long)above->base, (unsigned long long)before);
  else
    emu_raise(w, in, "out-of-bounds global access", lane, addr, "%u-byte access, and no buffer is registered", n);
}

void *emu_gptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, uint32_t align, int lane)
{
  if (align > 1 && (addr & (align - 1))) {
    emu_raise(w, in, "misaligned global access", lane, addr, "%u-byte access needs %u-byte alignment", n, align);
    return NULL;
  }
  const emu_membuf *b = w->last;
  if (b && addr >= b->base && addr - b->base + n <= b->size) return b->host + (addr - b->base);
  const emu_mem *m = w->wg->mem;
  size_t lo = 0, hi = m->n;
  while (lo < hi) { /* last buffer with base <= addr */
    size_t mid = (lo + hi) / 2;
    if (m->b[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) {
    b = &m->b[lo - 1];
    if (addr - b->base < b->size && addr - b->base + n <= b->size) {
      w->last = b;
      return b->host + (addr - b->base);
    }
    if (addr - b->base < b->size + 4096)
      emu_raise(w, in, "out-of-bounds global access", lane, addr,
                "%u-byte access at offset %llu of buffer '%s' (%llu bytes)", n,
                (unsigned long long)(addr - b->base), b->name, (unsigned long long)b->size);
    else
      oob_nearest(w, in, lane, addr, n, lo);
  } else {
    oob_nearest(w, in, lane, addr, n, lo);
  }
  return NULL;
}

void *emu_ldsptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, int lane)
{
  if (addr + n > w->wg->lds_size || addr + n < addr) {
    emu_raise(w, in, "lds out of range", lane, addr,
              "%u-byte LDS access at 0x%llx beyond the workgroup's %u-byte allocation", n,
              (unsigned long long)addr, w->wg->lds_size);
    return NULL;
  }
  return w->wg->lds + addr;
}

/* ---- outstanding memory operations (s_waitcnt validation) ----------------------------------*/
/* the pending registers per kind (emu_wave.pref/pbits/pn/pkinds): entry registers [reg, reg + n)
 * of kind k below 512 counted in, or out when the entry completes */
static inline void pend_add(emu_wave *w, unsigned k, unsigned reg, unsigned n)
{
  if (!k || !n || reg >= 512) return;
  if (reg + n > 512) n = 512 - reg;
  w->pkinds |= (uint8_t)(1u << k);
  w->pn[k] = (uint16_t)(w->pn[k] + n);
  for (unsigned r = reg; r < reg + n; r++)
    if (w->pref[k][r]++ == 0) w->pbits[k][r >> 6] |= 1ull << (r & 63);
}

static inline void pend_del(emu_wave *w, unsigned k, unsigned reg, unsigned n)
{
  if (!k || !n || reg >= 512) return;
  if (reg + n > 512) n = 512 - reg;
  w->pn[k] = (uint16_t)(w->pn[k] - n);
  if (!w->pn[k]) w->pkinds &= (uint8_t)~(1u << k);
  for (unsigned r = reg; r < reg + n; r++)
    if (--w->pref[k][r] == 0) w->pbits[k][r >> 6] &= ~(1ull << (r & 63));
}

/* no pending registers (a new wave) */
static void pend_clear(emu_wave *w)
{
  w->pkinds = 0;
  memset(w->pn, 0, sizeof w->pn);
  memset(w->pbits, 0, sizeof w->pbits);
  memset(w->pref, 0, sizeof w->pref);
}

/* Can `in` touch a pending register? False only when none of its register operands names a
 * pending register of its kind (then hazard_check would find nothing): the operands' registers,
 * kept by the decoder as words of the pending map (emu_insn.hz_word/hz_mask), against the map. */
static inline bool hazard_possible(const emu_wave *w, const emu_insn *in)
{
  if (!(in->hz_kinds & w->pkinds)) return false;
  const uint64_t *pb = &w->pbits[0][0];
  for (int i = 0; i < in->hz_n; i++)
    if (pb[in->hz_word[i]] & in->hz_mask[i]) return true;
  return false;
}

/* Entry j has completed: its registers counted out, the counter's retired prefix moved up to it
 * (in-order counters), the entry removed. */
static void pend_retire(emu_wave *w, int j)
{
  const __typeof__(w->pend[0]) *e = &w->pend[j];
  pend_del(w, e->kind, e->reg, e->n);
  if (e->cnt < 2 && e->seq > w->pret[e->cnt]) w->pret[e->cnt] = e->seq;
  w->ncnt[e->cnt]--;
  memmove(&w->pend[j], &w->pend[j + 1], (size_t)(w->npend - j - 1) * sizeof w->pend[0]);
  w->npend--;
}

void emu_pend(emu_wave *w, const emu_insn *in, int cnt, int dst)
{
  /* A counter at its maximum cannot count one more operation (EMU_VMCNT_MAX, EMU_LGKMCNT_MAX): the
   * ISA guides do not say what the hardware does then; lanelab takes the new operation to issue
   * once one of that counter's operations has completed, the oldest (vector memory and LDS return
   * in order; for scalar loads, which may not, the oldest is a stated choice). Other counters'
   * operations stay outstanding (docs/emulator-choices.md "Memory-model strictness"). */
  bool vm = cnt == EMU_CNT_VM;
  if (vm ? w->ncnt[EMU_CNT_VM] >= EMU_VMCNT_MAX : w->ncnt[EMU_CNT_DS] + w->ncnt[EMU_CNT_SMEM] >= EMU_LGKMCNT_MAX)
    for (int j = 0; j < w->npend; j++)
      if ((w->pend[j].cnt == EMU_CNT_VM) == vm) {
        pend_retire(w, j);
        break;
      }
  __typeof__(w->pend[0]) *e = &w->pend[w->npend++];
  w->ncnt[cnt]++;
  e->cnt = (uint8_t)cnt;
  e->pc = in->pc;
  e->ii = in >= w->insns && in < w->insns + w->ninsn ? (uint32_t)(in - w->insns) : UINT32_MAX;
  e->bar = w->nbar;
  e->seq = cnt < 2 ? ++w->pseq[cnt] : 0;
  e->warned = 0;
  e->kind = 0;
  e->reg = e->n = 0;
  if (dst >= 0) {
    const emu_opnd *o = &in->o[dst];
    e->kind = (uint8_t)emu_regkind(o);
    e->reg = o->reg;
    e->n = o->n;
  }
  pend_add(w, e->kind, e->reg, e->n);
}

static void retire_oldest(emu_wave *w, int cnt, int k)
{
  int j = 0;
  for (int i = 0; i < w->npend; i++) {
    if (k > 0 && w->pend[i].cnt == cnt) {
      k--;
      pend_del(w, w->pend[i].kind, w->pend[i].reg, w->pend[i].n);
      if (cnt < 2) w->pret[cnt] = w->pend[i].seq; /* in order: the youngest retired so far */
      w->ncnt[cnt]--;
      continue;
    }
    w->pend[j++] = w->pend[i];
  }
  w->npend = j;
}

void emu_waitcnt(emu_wave *w, int vmcnt, int lgkmcnt)
{
  int nvm = w->ncnt[EMU_CNT_VM], nds = w->ncnt[EMU_CNT_DS], nsm = w->ncnt[EMU_CNT_SMEM];
  /* vector memory returns in order: all but the vmcnt youngest are done */
  if (vmcnt >= 0 && nvm > vmcnt) retire_oldest(w, EMU_CNT_VM, nvm - vmcnt);
  if (lgkmcnt == 0) {
    retire_oldest(w, EMU_CNT_DS, nds);
    retire_oldest(w, EMU_CNT_SMEM, nsm);
  } else if (lgkmcnt > 0 && nds > lgkmcnt) {
    /* LDS returns in order; scalar loads may not, so only lgkmcnt(0) retires them */
    retire_oldest(w, EMU_CNT_DS, nds - lgkmcnt);
  }
}

static int hazard_check(emu_wave *w, const emu_insn *in)
{
  uint32_t fl = in->flags;
  bool load = (fl & EMU_F_LOAD) || ((fl & EMU_F_ATOMIC) && (in->sc0 || in->glc));
  int mycnt = (fl & EMU_F_DS) ? EMU_CNT_DS : (fl & EMU_F_SMEM) ? EMU_CNT_SMEM : EMU_CNT_VM;
  for (int i = 0; i < in->nop; i++) {
    const emu_opnd *o = &in->o[i];
    int k = emu_regkind(o);
    if (!k) continue;
    for (int j = 0; j < w->npend; j++) {
      const __typeof__(w->pend[0]) *e = &w->pend[j];
      if (e->kind != k || o->reg + o->n <= e->reg || e->reg + e->n <= o->reg) continue;
      /* a younger in-order load overwriting the same registers is fine (results arrive in order) */
      if (i == 0 && load && e->cnt == mycnt && mycnt != EMU_CNT_SMEM) continue;
      /* Undocumented but relied on by AMD's kernels (docs/emulator-choices.md): the same s_load
       * issued again while the first is in flight (both deliver the same bytes, whichever returns
       * last), and an LDS result used after an s_barrier with no lgkmcnt wait. A warning unless
       * strict, once per outstanding operation. A warning changes nothing: the operation stays
       * outstanding until an s_waitcnt retires it, so later counts stay the hardware's. */
      if (e->warned) continue;
      const char *why = NULL;
      if (i == 0 && load && e->cnt == EMU_CNT_SMEM && mycnt == EMU_CNT_SMEM && e->reg == o->reg && e->n == o->n &&
          e->ii != UINT32_MAX && !strcmp(w->insns[e->ii].text, in->text))
        why = "duplicated s_load in flight";
      else if (e->cnt == EMU_CNT_DS && e->bar != w->nbar)
        why = "LDS result used after s_barrier without s_waitcnt";
      if (why) {
        int rc = emu_memwarn(w, in, "missing s_waitcnt", -1, 0,
                             "%s: operand %d uses %c%u, loaded by the %s operation at pc 0x%llx (%s)", why, i,
                             k == 1 ? 'v' : k == 2 ? 'a' : 's', (unsigned)(o->reg > e->reg ? o->reg : e->reg),
                             e->cnt == EMU_CNT_DS ? "LDS" : "scalar memory", (unsigned long long)e->pc,
                             e->cnt == EMU_CNT_DS ? "the ISA asks for s_waitcnt lgkmcnt before the use"
                                                  : "scalar loads may return out of order");
        if (rc != EMU_OK) return rc;
        w->pend[j].warned = 1;
        continue;
      }
      return emu_raise(w, in, "missing s_waitcnt", -1, 0,
                       "operand %d uses %c%u, still being loaded by the %s operation at pc 0x%llx",
                       i, k == 1 ? 'v' : k == 2 ? 'a' : 's', (unsigned)(o->reg > e->reg ? o->reg : e->reg),
                       e->cnt == EMU_CNT_VM ? "vector memory" : e->cnt == EMU_CNT_DS ? "LDS" : "scalar memory",
                       (unsigned long long)e->pc);
    }
  }
  return EMU_OK;
}

/* ---- launches --------------------------------------------------------------------------------*/
typedef struct launch {
  emu_mem *mem;
  const emu_dispatch *d;
  const emu_launch_opts *o;
  const emu_program *prog;
  long entry;
  uint32_t nwaves, wgsize, nwg, lds_size, nregs;
  uint32_t priv_size;          /* private bytes per lane (emu_private_size) */
  uint64_t budget;
  atomic_uint next;
  atomic_uint fault_idx;       /* lowest faulting workgroup index so far (UINT32_MAX: none) */
  pthread_mutex_t mu;          /* guards fault, callbacks */
  emu_fault fault;
  bool collect;
  emu_warns warns;             /* memory-model warnings (emu_memwarn) */
} launch;

typedef struct worker {
  launch *L;
  uint32_t *vfile;
  uint8_t *lds;
  uint8_t *pfile;              /* private memory of the waves: nwaves * 64 * priv_size bytes */
  emu_wave *waves;
  emu_fault fault;
  emu_fault *wfault;           /* run_rr: each wave's own fault record (nwaves), the earliest in
                                  round-robin order is copied into fault */
  uint64_t *counts;
  uint64_t waves_run;
  emu_obs_worker *ow;          /* observation (emu/observe.c); NULL: none */
  emu_ldso *lo;                /* the LDS ordering check (emu/observe.c); NULL: the kernel has no LDS */
} worker;

static void make_view(const emu_wave *w, uint64_t pc, emu_wave_view *v, const launch *L)
{
  const emu_kernel *k = L->d->kernel;
  memcpy(v->wg, w->wg->id, sizeof v->wg);
  v->wave = w->wave_id;
  v->pc = pc;
  v->exec = emu_exec(w);
  v->vcc = emu_vcc(w);
  v->m0 = w->s[EMU_S_M0];
  v->scc = w->scc;
  v->sgpr = w->s;
  v->nsgpr = EMU_NSGPR_GP;
  v->vgpr = w->v;
  v->nvgpr = k->vgpr_count ? k->vgpr_count : L->prog->max_vgpr;
  if (v->nvgpr > k->accum_offset && k->accum_offset) v->nvgpr = k->accum_offset;
  v->agpr = w->a;
  v->nagpr = k->agpr_count;
}

static void init_wave(worker *W, emu_wg *g, emu_wave *w, uint32_t wi)
{
  launch *L = W->L;
  const emu_dispatch *d = L->d;
  const emu_kernel *k = d->kernel;
  memset(w->s, 0, sizeof w->s);
  memset(w->pf_last, 0, sizeof w->pf_last);
  w->scc = false;
  w->v = W->vfile + (size_t)wi * L->nregs * EMU_LANES;
  w->a = w->v + (size_t)k->accum_offset * EMU_LANES;
  /* registers start at zero; only those the program names or a snapshot shows are cleared (the
   * unified file between the VGPRs and accum_offset is never visible) */
  uint32_t nv = L->prog->max_vgpr > k->vgpr_count ? L->prog->max_vgpr : k->vgpr_count;
  uint32_t na = L->prog->max_agpr > k->agpr_count ? L->prog->max_agpr : k->agpr_count;
  if (nv > L->nregs) nv = L->nregs;
  if (k->accum_offset + na > L->nregs) na = L->nregs > k->accum_offset ? L->nregs - k->accum_offset : 0;
  memset(w->v, 0, (size_t)(nv ? nv : 1) * EMU_LANES * 4);
  if (na) memset(w->a, 0, (size_t)na * EMU_LANES * 4);
  w->nv = L->nregs;
  w->insns = L->prog->insns;
  w->ninsn = L->prog->n;
  w->ip = (uint32_t)L->entry;
  w->wg = g;
  w->wave_id = wi;
  w->budget = L->budget;
  w->counts = W->counts; /* phase 0 */
  w->phase = 0;
  w->fault = &W->fault;
  w->last = NULL;
  w->state = 0;
  w->npend = 0;
  memset(w->ncnt, 0, sizeof w->ncnt);
  w->nbar = 0;
  memset(w->pseq, 0, sizeof w->pseq);
  memset(w->pret, 0, sizeof w->pret);
  pend_clear(w);
  w->emask_of = 0;
  memset(w->emask, 0, sizeof w->emask);
  /* private memory starts zeroed (docs/emulator-choices.md "Private memory") */
  w->priv_size = L->priv_size;
  w->priv = W->pfile + (size_t)wi * EMU_LANES * L->priv_size;
  memset(w->priv, 0, (size_t)EMU_LANES * L->priv_size);
  /* user SGPRs from s0 in order (AMDGPUUsage "Initial Kernel Execution State") */
  unsigned s = 0;
  if (k->en_dispatch_ptr) emu_wr64s(w, s, d->dispatch_ptr), s += 2;
  if (k->en_queue_ptr) emu_wr64s(w, s, 0), s += 2;
  if (k->en_kernarg_ptr) emu_wr64s(w, s, d->kernarg_addr), s += 2;
  if (k->en_dispatch_id) emu_wr64s(w, s, 0), s += 2;
  if (k->en_flat_scratch_init) emu_wr64s(w, s, 0), s += 2;
  if (k->en_private_segment_size) w->s[s++] = L->priv_size; /* the dispatch's size, dword-rounded */
  /* preloaded kernarg dwords (AMDGPUUsage "Preloaded Kernel Arguments"): KERNARG_PRELOAD_SPEC_LENGTH
   * dwords from dword KERNARG_PRELOAD_SPEC_OFFSET of the kernarg segment, in the user SGPRs after
   * the others (k->preload_sgpr == s here; emu_launch checked the bytes are mapped) */
  if (k->kernarg_preload_count) {
    const uint32_t *ka = emu_mem_translate(L->mem, d->kernarg_addr + 4ull * k->kernarg_preload_offset,
                                           k->kernarg_preload_count * 4u);
    for (uint32_t i = 0; i < k->kernarg_preload_count; i++) w->s[s++] = ka[i];
  }
  s = k->user_sgpr_count > s ? k->user_sgpr_count : s;
  for (int dim = 0; dim < 3; dim++)
    if (k->en_wg_id[dim] && s < EMU_NSGPR_GP) w->s[s++] = g->id[dim];
  if ((k->rsrc2 & 1) && s < EMU_NSGPR_GP) w->s[s++] = 0; /* private segment wave offset */
  /* v0 = x | y << 10 | z << 20 (packed work-item ids, gfx90a+) and EXEC = existing lanes */
  uint64_t exec = 0;
  uint32_t bx = d->block[0], by = d->block[1];
  for (uint32_t l = 0; l < EMU_LANES; l++) {
    uint32_t t = wi * EMU_LANES + l;
    if (t >= L->wgsize) break;
    exec |= 1ull << l;
    uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by);
    w->v[l] = x | y << 10 | z << 20;
  }
  w->nlanes = (uint32_t)__builtin_popcountll(exec);
  emu_wr64s(w, EMU_S_EXEC, exec);
}

/* Run one wave until it ends, faults, reaches a barrier, or (if single) executes one step. */
/* VSKIP (s_setvskip) skips vector instructions; VGPR indexing mode (s_set_gpr_idx_on) adds
 * M0[7:0] to the VGPR operands M0[15:12] selects (SRC0, SRC1, SRC2, DST) of each vector
 * instruction: run on a copy of the record with those register numbers moved (CDNA3 ISA "VGPR
 * Indexing"). An index moving an operand past the VGPR file faults. */
int emu_exec_special(emu_wave *w, const emu_insn *in, emu_obs_worker *ow, emu_ldso *lo)
{
  bool vector = (in->flags & (EMU_F_VALU | EMU_F_VOP3P | EMU_F_MFMA)) != 0 || (in->mnem[0] == 'v' && in->mnem[1] == '_');
  if (!vector) return lo && in->lk ? emu_ldso_exec(lo, ow, w, in) : ow ? emu_obs_exec(ow, w, in) : in->fn(w, in);
  if (w->vskip) return EMU_OK;
  uint32_t m0 = w->s[EMU_S_M0], idx = m0 & 0xff, mode = m0 >> 12 & 15;
  emu_insn c = *in;
  for (int b = 0; b < 4; b++) {
    if (!(mode >> b & 1)) continue;
    int i = b == 3 ? 0 : in->src0i + b;
    if (i >= c.nop || c.o[i].kind != EMU_OPK_VGPR) continue;
    if (c.o[i].reg + idx + c.o[i].n > w->nv)
      return emu_raise(w, in, "vgpr index out of range", -1, 0, "VGPR indexing moves v%u by %u past the %u VGPRs",
                       (unsigned)c.o[i].reg, (unsigned)idx, (unsigned)w->nv);
    c.o[i].reg = (uint16_t)(c.o[i].reg + idx);
  }
  return ow ? emu_obs_exec(ow, w, &c) : in->fn(w, &c);
}

static inline __attribute__((always_inline)) int run_wave(worker *W, emu_wave *w, bool single)
{
  launch *L = W->L;
  const emu_insn *insns = w->insns;
  const uint64_t snap = L->o ? L->o->snap_pc : 0;
  emu_obs_worker *const ow = W->ow;
  emu_ldso *const lo = W->lo;
  for (;;) {
    if (__builtin_expect(w->ip >= w->ninsn, 0))
      return emu_raise(w, w->ninsn ? &insns[w->ninsn - 1] : NULL, "pc out of program", -1, 0,
                       "execution ran past the end of .text");
    const emu_insn *in = &insns[w->ip];
    if (__builtin_expect(w->budget == 0, 0))
      return emu_raise(w, in, "budget exceeded", -1, 0, "per-wave instruction budget of %llu exhausted",
                       (unsigned long long)L->budget);
    w->budget--;
    if (__builtin_expect(snap != 0 && in->pc == snap, 0) && L->o->on_snap) {
      emu_wave_view v;
      make_view(w, in->pc, &v, L);
      pthread_mutex_lock(&L->mu);
      L->o->on_snap(L->o->user, &v);
      pthread_mutex_unlock(&L->mu);
    }
    if (__builtin_expect(w->npend != 0, 0) && hazard_possible(w, in) && hazard_check(w, in) != EMU_OK)
      return EMU_FAULT;
    w->counts[w->ip]++; /* w->counts moves with the phase (s_ttracedata) */
    w->ip++;
    int rc = __builtin_expect(w->vskip | w->gpr_idx, 0)  ? emu_exec_special(w, in, ow, lo)
             : __builtin_expect(in->lk != 0, 0) && lo       ? emu_ldso_exec(lo, ow, w, in)
             : __builtin_expect(ow != NULL, 0)               ? emu_obs_exec(ow, w, in)
                                                             : in->fn(w, in);
    if (__builtin_expect(rc != EMU_OK, 0)) {
      if (rc == EMU_END) {
        w->state = 2;
        if (L->o && L->o->on_wave_end) {
          emu_wave_view v;
          make_view(w, in->pc, &v, L);
          pthread_mutex_lock(&L->mu);
          L->o->on_wave_end(L->o->user, &v);
          pthread_mutex_unlock(&L->mu);
        }
      } else if (rc == EMU_BARRIER) {
        w->state = 1;
        w->nbar++; /* outstanding LDS results cross it (hazard_check) */
      } else {
        w->state = 3;
      }
      return rc;
    }
    if (single) return rc;
  }
}

/* ---- round robin by events ----------------------------------------------------------------------
 * The round-robin order (run_wg) is a promise about what other waves can observe: memory operations
 * happen, and the first fault is reported, in (step, wave) order, step k being the k-th instruction
 * a wave begins after a barrier release. An instruction that touches only its own wave's registers
 * is observed by no other wave, so its place in that order does not matter: run_rr lets each wave
 * run ahead through such instructions (emu_insn.sched_ev clear) and stop before the next one that
 * must take its turn (memory, s_barrier, s_endpgm; also whatever the careful step handles: the
 * budget's end, a possible s_waitcnt hazard, VSKIP or VGPR indexing, the end of .text). The wave
 * whose stop comes first in (step, wave) order then runs that one instruction through run_wave and
 * runs ahead again. A fault met while running ahead is kept in the wave's own record at its step
 * and reported only when it is the earliest stop: any wave whose memory operation or fault comes
 * before it in the order still gets its turn, as in run_wg's one-step loop. Same memory order, same
 * first fault, same warnings' order; the dispatch loop per instruction is a few compares. */
static inline __attribute__((always_inline)) void rr_ahead(emu_wave *w)
{
  const emu_insn *insns = w->insns;
  const uint32_t n = (uint32_t)w->ninsn;
  uint32_t ip = w->ip, k = w->rr_k;
  for (;;) {
    if (__builtin_expect(ip >= n, 0)) break;
    const emu_insn *in = &insns[ip];
    if (in->sched_ev | (w->budget == 0) | w->vskip | w->gpr_idx) break;
    if (__builtin_expect(w->npend != 0, 0) && hazard_possible(w, in)) break;
    w->budget--;
    w->counts[ip]++;
    w->ip = ip + 1;
    k++;
    int rc = in->fn(w, in);
    ip = w->ip;
    if (__builtin_expect(rc != EMU_OK, 0)) {
      /* a register-only instruction ends or stops the wave only by a fault (s_endpgm and s_barrier
       * are events); anything else is treated as one to be safe */
      w->rr_k = k;
      w->rr_pos = k - 1;
      w->state = rc == EMU_END ? 2 : rc == EMU_BARRIER ? 1 : 3;
      if (rc == EMU_BARRIER) w->nbar++;
      return;
    }
  }
  w->rr_k = k;
  w->rr_pos = k;
}

static int run_rr(worker *W, emu_wg *g)
{
  uint32_t nw = W->L->nwaves;
  for (uint32_t j = 0; j < nw; j++) {
    emu_wave *w = &W->waves[j];
    w->rr_k = 0;
    if (w->state == 0) rr_ahead(w);
  }
  for (;;) {
    /* the earliest stop: a wave waiting at its event (state 0) or a fault kept while running ahead */
    emu_wave *best = NULL;
    for (uint32_t j = 0; j < nw; j++) {
      emu_wave *w = &W->waves[j];
      if ((w->state == 0 || w->state == 3) && (!best || w->rr_pos < best->rr_pos)) best = w;
    }
    if (!best) return EMU_OK; /* every wave at the barrier or ended */
    if (best->state == 3) {
      W->fault = *best->fault;
      return EMU_FAULT;
    }
    best->rr_k++;
    int rc = run_wave(W, best, true);
    if (rc == EMU_FAULT) {
      W->fault = *best->fault;
      return EMU_FAULT;
    }
    if (best->state == 0) rr_ahead(best);
  }
  (void)g;
}

/* Run one workgroup; returns EMU_OK or EMU_FAULT (W->fault filled). */
static int run_wg(worker *W, emu_wg *g)
{
  launch *L = W->L;
  uint32_t nw = L->nwaves;
  for (uint32_t i = 0; i < nw; i++) init_wave(W, g, &W->waves[i], i);
  if (W->ow) emu_obs_wg_begin(W->ow, g);
  if (W->lo) emu_ldso_wg_begin(W->lo, W->waves);
  bool adversarial = L->o && L->o->sched == EMU_SCHED_ADVERSARIAL;
  bool random = L->o && L->o->sched == EMU_SCHED_RANDOM;
  /* run_rr only for the round-robin schedule: the adversarial and random ones report a wave's
   * fault through W->fault directly */
  bool fast_rr = !adversarial && !random && !W->ow && !(L->o && L->o->snap_pc && L->o->on_snap);
  if (fast_rr) { /* each wave's faults apart (run_rr reports the earliest) */
    for (uint32_t i = 0; i < nw; i++) {
      memset(&W->wfault[i], 0, sizeof W->wfault[i]);
      W->waves[i].fault = &W->wfault[i];
    }
  }
  /* xorshift64*, seeded by the seed and the workgroup's linear index (never 0) */
  uint64_t rs = (L->o ? L->o->sched_seed : 0) ^
                (0x9e3779b97f4a7c15ull * (1 + g->id[0] + (uint64_t)L->d->grid[0] * (g->id[1] + (uint64_t)L->d->grid[1] * g->id[2])));
  if (!rs) rs = 1;
  uint32_t phase = 0;
  for (;;) {
    uint32_t alive = 0, waiting = 0;
    if (random) {
      /* a random runnable wave runs a random 1..64 instructions (or to its barrier/end) */
      for (;;) {
        uint32_t runnable = 0;
        for (uint32_t j = 0; j < nw; j++) runnable += W->waves[j].state == 0;
        if (runnable == 0) break;
        rs ^= rs >> 12, rs ^= rs << 25, rs ^= rs >> 27;
        uint64_t r = rs * 0x2545f4914f6cdd1dull;
        uint32_t pick = (uint32_t)((r >> 32) % runnable), n = 1 + (uint32_t)(r & 63);
        emu_wave *w = NULL;
        for (uint32_t j = 0; j < nw; j++)
          if (W->waves[j].state == 0 && pick-- == 0) { w = &W->waves[j]; break; }
        for (uint32_t k = 0; k < n && w->state == 0; k++)
          if (run_wave(W, w, true) == EMU_FAULT) return EMU_FAULT;
      }
    } else if (adversarial) {
      /* each wave runs as far as it can before the next; the order alternates between barrier
       * phases so both "early writer" and "late writer" orders occur */
      for (uint32_t j = 0; j < nw; j++) {
        emu_wave *w = &W->waves[(phase & 1) ? nw - 1 - j : j];
        if (w->state != 0) continue;
        if (run_wave(W, w, false) == EMU_FAULT) return EMU_FAULT;
      }
    } else if (fast_rr) {
      if (run_rr(W, g) == EMU_FAULT) return EMU_FAULT;
    } else {
      /* round robin: one instruction per running wave in turn (with an observer or a snapshot
       * callback, which see every instruction; run_rr otherwise) */
      for (;;) {
        uint32_t runnable = 0, last = 0;
        for (uint32_t j = 0; j < nw; j++)
          if (W->waves[j].state == 0) runnable++, last = j;
        if (runnable == 0) break;
        if (runnable == 1) { /* nothing to interleave with: run it to its barrier or end */
          if (run_wave(W, &W->waves[last], false) == EMU_FAULT) return EMU_FAULT;
          continue;
        }
        for (uint32_t j = 0; j < nw; j++) {
          emu_wave *w = &W->waves[j];
          if (w->state != 0) continue;
          if (run_wave(W, w, true) == EMU_FAULT) return EMU_FAULT;
        }
      }
    }
    for (uint32_t j = 0; j < nw; j++) {
      if (W->waves[j].state == 1) waiting++;
      if (W->waves[j].state != 2) alive++;
    }
    if (alive == 0) return EMU_OK;
    /* every wave that has not ended is at the barrier: release them (CDNA3 ISA "s_barrier") */
    for (uint32_t j = 0; j < nw; j++)
      if (W->waves[j].state == 1) W->waves[j].state = 0;
    if (W->ow) emu_obs_barrier(W->ow);
    if (W->lo) emu_ldso_barrier(W->lo);
    (void)waiting;
    phase++;
  }
}

static void *worker_main(void *arg)
{
  worker *W = arg;
  launch *L = W->L;
  const emu_dispatch *d = L->d;
  for (;;) {
    unsigned idx = atomic_fetch_add(&L->next, 1);
    if (idx >= L->nwg) break;
    if (idx > atomic_load(&L->fault_idx)) break; /* a fault earlier in grid order already won */
    emu_wg g = {0};
    g.d = d;
    g.opts = L->o;
    g.mem = L->mem;
    g.prog = L->prog;
    g.warns = &L->warns;
    g.arch = d->co->arch;
    g.id[0] = idx % d->grid[0];
    g.id[1] = (idx / d->grid[0]) % d->grid[1];
    g.id[2] = idx / (d->grid[0] * d->grid[1]);
    g.lds = W->lds;
    g.lds_size = L->lds_size;
    memset(W->lds, 0, L->lds_size);
    memset(&W->fault, 0, sizeof W->fault);
    W->waves_run += L->nwaves;
    if (run_wg(W, &g) != EMU_OK) {
      pthread_mutex_lock(&L->mu);
      if (idx < atomic_load(&L->fault_idx)) {
        atomic_store(&L->fault_idx, idx);
        L->fault = W->fault;
      }
      pthread_mutex_unlock(&L->mu);
      break;
    }
  }
  return NULL;
}

static int cmp_mnem(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The launch's dynamic census (emu_launch_stats): waves run, and executions per mnemonic and phase,
 * summed over the workers' per-instruction counts. */
static void collect_stats(const emu_program *prog, const worker *W, int nthreads, emu_launch_stats *stats)
{
  size_t np = prog->n ? prog->n : 1;
  /* tot[p * n + i]: instruction i executed in phase p, over all workers */
  uint64_t *tot = ll_xcalloc((size_t)EMU_MAX_PHASES * np, sizeof *tot);
  for (int t = 0; t < nthreads; t++) {
    stats->waves += W[t].waves_run;
    for (size_t i = 0; i < (size_t)EMU_MAX_PHASES * prog->n; i++) tot[i] += W[t].counts[i];
  }
  /* the mnemonics executed in any phase, sorted and unique */
  char **names = NULL;
  size_t nn = 0;
  for (size_t i = 0; i < prog->n; i++) {
    uint64_t any = 0;
    for (int p = 0; p < EMU_MAX_PHASES; p++) any |= tot[(size_t)p * prog->n + i];
    if (!any) continue;
    names = ll_xrealloc(names, (nn + 1) * sizeof *names);
    names[nn++] = prog->insns[i].mnem;
  }
  qsort(names, nn, sizeof *names, cmp_mnem);
  stats->mnem = ll_xcalloc(nn ? nn : 1, sizeof *stats->mnem);
  stats->count = ll_xcalloc(nn ? nn : 1, sizeof *stats->count);
  for (size_t i = 0; i < nn; i++)
    if (stats->nmnem == 0 || strcmp(stats->mnem[stats->nmnem - 1], names[i]) != 0)
      stats->mnem[stats->nmnem++] = ll_xstrdup(names[i]);
  stats->phase_count = ll_xcalloc((size_t)EMU_MAX_PHASES * (stats->nmnem ? stats->nmnem : 1), sizeof *stats->phase_count);
  for (size_t i = 0; i < prog->n; i++) {
    const char *key = prog->insns[i].mnem;
    char **hit = NULL;
    for (int p = 0; p < EMU_MAX_PHASES; p++) {
      uint64_t c = tot[(size_t)p * prog->n + i];
      if (!c) continue;
      if (!hit) hit = bsearch(&key, stats->mnem, stats->nmnem, sizeof *stats->mnem, cmp_mnem);
      size_t j = (size_t)(hit - stats->mnem);
      stats->count[j] += c;
      stats->phase_count[(size_t)p * stats->nmnem + j] += c;
      stats->phase_insns[p] += c;
      stats->wave_insns += c;
    }
  }
  free(names);
  free(tot);
}

int emu_launch(emu_mem *m, const emu_dispatch *d, const emu_launch_opts *o, emu_fault *fault,
               emu_launch_stats *stats)
{
  emu_fault dummy;
  if (!fault) fault = &dummy;
  memset(fault, 0, sizeof *fault);
  if (stats) memset(stats, 0, sizeof *stats);
#define USAGE(...) do { snprintf(fault->msg, sizeof fault->msg, __VA_ARGS__); return LL_EXIT_USAGE; } while (0)
  if (!m || !d || !d->co || !d->kernel) USAGE("emu_launch: missing memory, code object or kernel");
  const emu_kernel *k = d->kernel;
  uint64_t wgsize = (uint64_t)d->block[0] * d->block[1] * d->block[2];
  uint64_t nwg = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
  if (wgsize == 0 || nwg == 0) USAGE("emu_launch %s: empty grid (%u,%u,%u) or block (%u,%u,%u)", k->name,
                                     d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2]);
  if (wgsize > 1024) USAGE("emu_launch %s: block of %llu work-items exceeds 1024", k->name, (unsigned long long)wgsize);
  if (k->max_flat_workgroup_size && wgsize > k->max_flat_workgroup_size)
    USAGE("emu_launch %s: block of %llu work-items exceeds the kernel's max_flat_workgroup_size %u", k->name,
          (unsigned long long)wgsize, k->max_flat_workgroup_size);
  if (nwg > 0xfffffffeu) USAGE("emu_launch %s: grid of %llu workgroups is too large", k->name, (unsigned long long)nwg);
  uint64_t lds = (uint64_t)k->group_segment_size + d->dynamic_lds;
  if (lds > emu_arch_lds_bytes(d->co->arch))
    USAGE("emu_launch %s: %llu bytes of LDS requested (static %u + dynamic %u) but %s has %u per workgroup",
          k->name, (unsigned long long)lds, k->group_segment_size, d->dynamic_lds,
          emu_arch_name(d->co->arch), emu_arch_lds_bytes(d->co->arch));
  ll_err err = {0};
  const emu_program *prog = emu_codeobj_program((emu_codeobj *)d->co, &err);
  if (!prog) USAGE("emu_launch %s: %s", k->name, err.msg);
  long entry = emu_program_index(prog, k->start);
  if (entry < 0) USAGE("emu_launch %s: entry 0x%llx%s is not an instruction boundary in .text", k->name,
                       (unsigned long long)k->start, k->start != k->entry ? " (past the kernarg preload header)" : "");
  if (k->kernarg_preload_count &&
      !emu_mem_translate(m, d->kernarg_addr + 4ull * k->kernarg_preload_offset, k->kernarg_preload_count * 4u))
    USAGE("emu_launch %s: the descriptor preloads kernarg bytes %u..%u into SGPRs, but the kernarg buffer at 0x%llx "
          "does not hold them", k->name, 4 * k->kernarg_preload_offset,
          4 * (k->kernarg_preload_offset + k->kernarg_preload_count) - 1, (unsigned long long)d->kernarg_addr);
  uint32_t nregs = prog->max_vgpr;
  if (k->accum_offset + prog->max_agpr > nregs) nregs = k->accum_offset + prog->max_agpr;
  if (k->vgpr_count > nregs) nregs = k->vgpr_count;
  if (nregs == 0) nregs = 1;
  if (nregs > EMU_NVGPR) USAGE("emu_launch %s: %u registers needed (accum_offset %u + %u AGPRs) exceed the 512-entry file",
                               k->name, nregs, k->accum_offset, prog->max_agpr);

  if (emu_private_size(k) > EMU_PRIVATE_MAX)
    USAGE("emu_launch %s: %u bytes of private memory per lane (descriptor private segment size %u) exceed lanelab's "
          "limit of %u", k->name, emu_private_size(k), k->private_segment_size, EMU_PRIVATE_MAX);

  launch L;
  memset(&L, 0, sizeof L);
  L.mem = m;
  L.d = d;
  L.o = o;
  L.prog = prog;
  L.entry = entry;
  L.wgsize = (uint32_t)wgsize;
  L.nwaves = (uint32_t)((wgsize + EMU_LANES - 1) / EMU_LANES);
  L.nwg = (uint32_t)nwg;
  L.lds_size = (uint32_t)lds;
  L.nregs = nregs;
  L.priv_size = emu_private_size(k);
  L.budget = (o && o->insn_budget) ? o->insn_budget : 50000000ull;
  atomic_init(&L.next, 0);
  atomic_init(&L.fault_idx, UINT32_MAX);
  pthread_mutex_init(&L.mu, NULL);
  pthread_mutex_init(&L.warns.mu, NULL);

  int nthreads = o ? o->threads : 0;
  if (nthreads <= 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    nthreads = c > 0 ? (int)c : 1;
  }
  if ((uint64_t)nthreads > nwg) nthreads = (int)nwg;
  emu_observer *obs = o ? o->observe : NULL;
  if (obs) {
    char msg[400];
    if (!emu_obs_launch_begin(obs, m, d, prog, msg, sizeof msg)) {
      pthread_mutex_destroy(&L.mu);
      pthread_mutex_destroy(&L.warns.mu);
      USAGE("emu_launch %s: %s", k->name, msg);
    }
    if (emu_obs_serial(obs)) nthreads = 1; /* grid order, one shadow of global memory */
  }
  worker *W = ll_xcalloc((size_t)nthreads, sizeof *W);
  for (int t = 0; t < nthreads; t++) {
    W[t].L = &L;
    W[t].vfile = ll_xmalloc((size_t)L.nwaves * nregs * EMU_LANES * 4);
    W[t].lds = ll_xmalloc(lds ? lds : 1);
    W[t].pfile = ll_xmalloc((size_t)L.nwaves * EMU_LANES * L.priv_size + 1);
    W[t].waves = ll_xcalloc(L.nwaves, sizeof *W[t].waves);
    W[t].wfault = ll_xcalloc(L.nwaves, sizeof *W[t].wfault);
    W[t].counts = ll_xcalloc((size_t)EMU_MAX_PHASES * (prog->n ? prog->n : 1), sizeof *W[t].counts);
    if (obs) W[t].ow = emu_obs_worker_new(obs, L.lds_size, L.nwaves);
    if (L.lds_size) W[t].lo = emu_ldso_new(L.lds_size, L.nwaves, obs && emu_obs_racecheck(obs));
  }
  if (nthreads == 1) {
    worker_main(&W[0]);
  } else {
    pthread_t *th = ll_xmalloc((size_t)nthreads * sizeof *th);
    for (int t = 0; t < nthreads; t++)
      if (pthread_create(&th[t], NULL, worker_main, &W[t]) != 0) ll_die(LL_EXIT_ENV, "emu_launch: cannot start a worker thread");
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
    free(th);
  }
  {
    /* fidelity (emu/fidelity.c): executions per instruction over all phases and workers; the
     * instructions resting on stated choices are summed into stats and the process's total */
    uint64_t *all = ll_xcalloc(prog->n ? prog->n : 1, sizeof *all);
    for (int t = 0; t < nthreads; t++)
      for (int p = 0; p < EMU_MAX_PHASES; p++)
        for (size_t i = 0; i < prog->n; i++) all[i] += W[t].counts[(size_t)p * prog->n + i];
    emu__fidelity_launch(prog, all, k->name, stats);
    free(all);
  }
  if (stats) collect_stats(prog, W, nthreads, stats);
  for (int t = 0; t < nthreads; t++) {
    free(W[t].vfile);
    free(W[t].lds);
    free(W[t].pfile);
    free(W[t].waves);
    free(W[t].wfault);
    free(W[t].counts);
    emu_obs_worker_free(W[t].ow);
    emu_ldso_free(W[t].lo);
  }
  free(W);
  pthread_mutex_destroy(&L.mu);
  if (stats) stats->mem_warnings = L.warns.total, stats->mem_warning_pcs = L.warns.n;
  free(L.warns.pcs);
  pthread_mutex_destroy(&L.warns.mu);
  if (atomic_load(&L.fault_idx) != UINT32_MAX) {
    *fault = L.fault;
    return LL_EXIT_FAIL;
  }
  return LL_EXIT_OK;
#undef USAGE
}

void emu_launch_stats_free(emu_launch_stats *s)
{
  if (!s) return;
  for (size_t i = 0; i < s->nmnem; i++) free(s->mnem[i]);
  free(s->mnem);
  free(s->count);
  free(s->phase_count);
  for (int c = 0; c < EMU_MAX_CHOICES; c++) free(s->choice_example[c]);
  memset(s, 0, sizeof *s);
}

/* "v_mfma_*" matches by prefix; anything else exactly. */
static bool mnem_match(const char *m, const char *pat)
{
  size_t n = strlen(pat);
  if (n && pat[n - 1] == '*') return strncmp(m, pat, n - 1) == 0;
  return strcmp(m, pat) == 0;
}

uint64_t emu_stats_count(const emu_launch_stats *s, int p, const char *pattern)
{
  uint64_t c = 0;
  if (!s || !pattern || p >= EMU_MAX_PHASES) return 0;
  for (size_t i = 0; i < s->nmnem; i++) {
    if (!mnem_match(s->mnem[i], pattern)) continue;
    c += p < 0 ? s->count[i] : s->phase_count ? s->phase_count[(size_t)p * s->nmnem + i] : 0;
  }
  return c;
}
