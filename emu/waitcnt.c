/* emu/waitcnt — the s_waitcnt model: the queue of outstanding memory operations (emu_pend, issued
 * by the memory handlers), their retirement by s_waitcnt (emu_waitcnt) and the check the scheduler
 * makes before an instruction that may name a register still being loaded (emu_hazard_check, behind
 * the inline filter emu_hazard_possible in emu/internal.h). Calls only emu/fault.c. */
#include "emu/internal.h"

/* ---- outstanding memory operations (s_waitcnt validation) ----------------------------------*/
typedef __typeof__(((emu_wave *)0)->pring[0]) pent;

/* counter c's i-th oldest outstanding operation (i < w->ncnt[c]) */
static inline pent *pq_at(emu_wave *w, int c, int i)
{
  return &w->pring[EMU_PRING_BASE(c) + ((w->phead[c] + i) & (EMU_PRING_CAP(c) - 1))];
}

/* the in-order sequence number of in-order counter c's i-th oldest outstanding operation
 * (c < 2, i < w->ncnt[c]): the live entries have pret + 1 .. pseq, one each, oldest first */
static inline uint32_t pq_seq(const emu_wave *w, int c, int i)
{
  return w->pseq[c] - (uint32_t)w->ncnt[c] + 1 + (uint32_t)i;
}

/* The pending-register map (emu_wave.pbits/pkinds) is the union of the live entries' registers:
 * issuing ORs an entry's bits in, retiring takes them out again, both from the entry's kind, first
 * register and count (pend_words). Two live entries may name the same register (a younger in-order
 * load into the registers of an older one): emu_pend sees that as bits already in the map and sets
 * pover, and then a retirement rebuilds the map from the live entries (pend_rebuild) instead, which
 * clears pover once no two of them overlap. pkinds bit k: pkc[k] (live entries of kind k) is
 * nonzero. This replaced a count per register, counted in and out register by register: seed seq
 * 256 1426.6 M -> 1423.0 M instructions (gfx942), 1189.4 M -> 1185.0 M (gfx950),
 * docs/performance.md. */
#define PKIND(e) ((unsigned)(e)->kw & 3u)
/* registers [reg, reg + n) of kind k as the map holds them: bits m0 of word w0 and m1 of word w0 + 1
 * (the spare word at the end of a kind's row takes what passes 512); nothing for kind 0 (no
 * register), n 0 or reg past 511; at most 64 registers (a memory operation returns at most 16; the
 * decoder's operand words, emu_insn.hz_*, stop at 64 too) */
static inline __attribute__((always_inline)) unsigned pend_words(unsigned k, unsigned reg, unsigned n, uint64_t *m0,
                                                                 uint64_t *m1)
{
  if (__builtin_expect(n == 1 && k && reg < 512, 1)) { /* one register: one bit, none past the word */
    *m0 = 1ull << (reg & 63), *m1 = 0;
    return k * 9 + (reg >> 6);
  }
  if (!k || !n || reg >= 512) {
    *m0 = *m1 = 0;
    return 0;
  }
  if (n > 512 - reg) n = 512 - reg;
  if (n > 64) n = 64;
  unsigned sh = reg & 63;
  uint64_t m = ~0ull >> (64 - n);
  *m0 = m << sh, *m1 = (m >> 1) >> (63 - sh);
  return k * 9 + (reg >> 6);
}

/* registers [reg, reg + n) of kind k into the map pb; returns the bits of them it held already (an
 * overlap with a live entry) */
static inline __attribute__((always_inline)) uint64_t pend_map(uint64_t *pb, unsigned k, unsigned reg, unsigned n)
{
  uint64_t m0, m1;
  unsigned wd = pend_words(k, reg, n, &m0, &m1);
  uint64_t over = (pb[wd] & m0) | (pb[wd + 1] & m1);
  pb[wd] |= m0;
  pb[wd + 1] |= m1;
  return over;
}
/* a retiring entry's registers out of the map, and its kind's count down */
static inline __attribute__((always_inline)) void pend_unmap(emu_wave *w, const pent *e)
{
  uint64_t *pb = &w->pbits[0][0], m0, m1;
  unsigned wd = pend_words(PKIND(e), e->reg, e->n, &m0, &m1);
  pb[wd] &= ~m0;
  pb[wd + 1] &= ~m1;
  if (--w->pkc[PKIND(e)] == 0) w->pkinds &= (uint8_t)~(1u << PKIND(e));
}

/* the map again from the live entries, pover from whether any two of them overlap */
static void pend_rebuild(emu_wave *w)
{
  uint64_t *pb = &w->pbits[0][0];
  memset(w->pbits, 0, sizeof w->pbits);
  uint64_t over = 0;
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < w->ncnt[c]; i++) {
      const pent *e = pq_at(w, c, i);
      over |= pend_map(pb, PKIND(e), e->reg, e->n);
    }
  w->pover = over != 0;
}

/* Counter c's k oldest operations have completed (0 < k <= ncnt[c]): their registers out of the map
 * (unless a rebuild follows), the counter's retired prefix moved up to them (in-order counters: the
 * youngest of them has seq pq_seq(k - 1)), the entries removed. */
static inline void retire_n(emu_wave *w, int c, int k)
{
  for (int i = 0; i < k; i++) pend_unmap(w, pq_at(w, c, i));
  if (c < 2) w->pret[c] = pq_seq(w, c, k - 1); /* the youngest retired */
  w->phead[c] = (uint8_t)((w->phead[c] + k) & (EMU_PRING_CAP(c) - 1));
  w->ncnt[c] = (uint8_t)(w->ncnt[c] - k);
}
static inline void retire_head(emu_wave *w, int c) { retire_n(w, c, 1); }

/* emu_pend's body, instantiated once per counter (emu_pend below) so that the ring's base and size,
 * the seq counter and the full-counter test fold to constants: seed seq 256 1194.4 M -> 1186.2 M
 * instructions (gfx942), 912.5 M -> 910.2 M (gfx950), docs/performance.md. */
static inline __attribute__((always_inline)) void pend_one(emu_wave *w, const emu_insn *in, const int cnt, int dst)
{
  /* A counter at its maximum cannot count one more operation (EMU_VMCNT_MAX, EMU_LGKMCNT_MAX): the
   * ISA guides do not say what the hardware does then; lanelab takes the new operation to issue
   * once one of that counter's operations has completed, the oldest (vector memory and LDS return
   * in order; for scalar loads, which may not, the oldest is a stated choice). Other counters'
   * operations stay outstanding (docs/emulator-choices.md "Memory-model strictness"). */
  if (cnt == EMU_CNT_VM) {
    if (w->ncnt[EMU_CNT_VM] >= EMU_VMCNT_MAX) {
      retire_head(w, EMU_CNT_VM);
      if (w->pover) pend_rebuild(w);
    }
  } else if (w->ncnt[EMU_CNT_DS] + w->ncnt[EMU_CNT_SMEM] >= EMU_LGKMCNT_MAX) {
    /* the older of the two lgkmcnt heads, by issue order (ord differences: wrap-safe) */
    bool ds = w->ncnt[EMU_CNT_DS] &&
              (!w->ncnt[EMU_CNT_SMEM] || (int32_t)(pq_at(w, EMU_CNT_DS, 0)->ord - pq_at(w, EMU_CNT_SMEM, 0)->ord) < 0);
    retire_head(w, ds ? EMU_CNT_DS : EMU_CNT_SMEM);
    if (w->pover) pend_rebuild(w);
  }
  pent *e = pq_at(w, cnt, w->ncnt[cnt]);
  w->ncnt[cnt]++;
  e->pc = in->pc;
  if (cnt < 2) ++w->pseq[cnt];
  e->ord = w->pord++;
  unsigned k = 0, reg = 0, n = 0;
  if (dst >= 0) {
    const emu_opnd *o = &in->o[dst];
    k = (unsigned)emu_regkind(o);
    reg = o->reg, n = o->n;
  }
  e->reg = (uint16_t)reg, e->n = (uint8_t)n, e->kw = (uint8_t)k;
  if (pend_map(&w->pbits[0][0], k, reg, n)) w->pover = true;
  w->pkc[k]++;
  w->pkinds |= (uint8_t)(1u << k);
}

/* The LDS counter's common entries (ds_bpermute_b32, DS reads into VGPRs, DS writes): no register
 * (k 0) or VGPRs [reg, reg + n) with 1 <= n <= 64 and reg + n <= 512 (k 1), no scalar load
 * outstanding, no two live entries overlapping. pend_one's steps for that case, in the same order
 * with the same results, written so that the compiler keeps it in scratch registers: no
 * callee-saved register pushed and popped on the other paths, no clamps, no kind switch. gfx942's
 * software transpose keeps lgkmcnt full, so nearly every ds_bpermute_b32 retires the oldest entry
 * here too. Seed seq 256: 1144.4 M -> 1129.4 M instructions (gfx942), docs/performance.md. */
static inline __attribute__((always_inline)) void pend_fast(emu_wave *w, const emu_insn *in, const int cnt, unsigned k,
                                                            unsigned reg, unsigned n)
{
  /* the vector memory counter alone; the LDS one with no scalar load outstanding (the older
   * lgkmcnt head is the LDS one). No overlap: retiring needs no rebuild. */
  pent *e;
  if (w->ncnt[cnt] >= (cnt == EMU_CNT_VM ? EMU_VMCNT_MAX : EMU_LGKMCNT_MAX)) {
    /* retire_head and the new entry's count in one: ncnt stays as it is, the head moves
     * (seed seq 256 gfx942 941.0 M -> 938.3 M instructions, docs/performance.md) */
    pend_unmap(w, pq_at(w, cnt, 0));
    w->pret[cnt] = pq_seq(w, cnt, 0); /* the head's */
    e = pq_at(w, cnt, w->ncnt[cnt]);
    w->phead[cnt] = (uint8_t)((w->phead[cnt] + 1) & (EMU_PRING_CAP(cnt) - 1));
  } else {
    e = pq_at(w, cnt, w->ncnt[cnt]);
    w->ncnt[cnt]++;
  }
  e->pc = in->pc;
  ++w->pseq[cnt];
  e->ord = w->pord++;
  e->reg = (uint16_t)reg, e->n = (uint8_t)n, e->kw = (uint8_t)k;
  w->pkc[k]++;
  w->pkinds |= (uint8_t)(1u << k);
  if (!k) return;
  unsigned word = 9 + (reg >> 6), sh = reg & 63;
  uint64_t *pb = &w->pbits[0][0];
  if (n == 1) { /* ds_bpermute_b32, 32-bit reads: one bit, nothing past the word */
    uint64_t bit = 1ull << sh;
    if (pb[word] & bit) w->pover = true;
    pb[word] |= bit;
    return;
  }
  /* pend_words' words and bits */
  uint64_t m = ~0ull >> (64 - n), m0 = m << sh, m1 = (m >> 1) >> (63 - sh);
  if ((pb[word] & m0) | (pb[word + 1] & m1)) w->pover = true;
  pb[word] |= m0;
  pb[word + 1] |= m1;
}

#define pend_ds(w, in, k, reg, n) pend_fast(w, in, EMU_CNT_DS, k, reg, n)

/* the same as separate bodies, so that the one-register body above, inline in emu_pend, stays in
 * scratch registers (DS writes; reads of 2-64 VGPRs) */
static __attribute__((noinline)) void pend_ds_none(emu_wave *w, const emu_insn *in) { pend_ds(w, in, 0, 0, 0); }
static __attribute__((noinline)) void pend_ds_vn(emu_wave *w, const emu_insn *in, unsigned reg, unsigned n)
{
  pend_ds(w, in, 1, reg, n);
}
/* The vector memory counter's common entries (issue #31: global loads into 1-64 VGPRs below v512,
 * stores with none) while no two live entries overlap: pend_one's steps for that case, as for the
 * LDS counter above, without the clamps and the kind switch; the rest takes pend_one. */
static __attribute__((noinline)) void pend_vm(emu_wave *w, const emu_insn *in, unsigned k, unsigned reg, unsigned n)
{
  pend_fast(w, in, EMU_CNT_VM, k, reg, n);
}

static __attribute__((noinline)) void pend_any(emu_wave *w, const emu_insn *in, int cnt, int dst)
{
  if (cnt == EMU_CNT_DS) pend_one(w, in, EMU_CNT_DS, dst);
  else if (cnt == EMU_CNT_VM) pend_one(w, in, EMU_CNT_VM, dst);
  else pend_one(w, in, EMU_CNT_SMEM, dst);
}

void emu_pend(emu_wave *w, const emu_insn *in, int cnt, int dst)
{
  if (__builtin_expect(w->nopend, 0) && cnt == EMU_CNT_DS) return; /* an s_waitcnt lgkmcnt(0) of the same block retires it (emu_insn.sel) */
  if (cnt == EMU_CNT_DS && !w->ncnt[EMU_CNT_SMEM] && !w->pover) {
    if (dst < 0) {
      pend_ds_none(w, in);
      return;
    }
    const emu_opnd *o = &in->o[dst];
    if (o->kind == EMU_OPK_VGPR && o->n == 1 && o->reg < 512) {
      pend_ds(w, in, 1, o->reg, 1);
      return;
    }
    if (o->kind == EMU_OPK_VGPR && o->n >= 1 && o->n <= 64 && o->reg + o->n <= 512) {
      pend_ds_vn(w, in, o->reg, o->n);
      return;
    }
  } else if (cnt == EMU_CNT_VM && !w->pover) {
    if (dst < 0) {
      pend_vm(w, in, 0, 0, 0);
      return;
    }
    const emu_opnd *o = &in->o[dst];
    if (o->kind == EMU_OPK_VGPR && o->n >= 1 && o->n <= 64 && o->reg + o->n <= 512) {
      pend_vm(w, in, 1, o->reg, o->n);
      return;
    }
  }
  pend_any(w, in, cnt, dst);
}

/* Some but not all outstanding operations retire: apart from emu_waitcnt, so that its common cases
 * (nothing retires, everything does) save and restore none of the registers the retire loops need */
static __attribute__((noinline)) void waitcnt_some(emu_wave *w, int kvm, int kds, int ksm)
{
  if (kvm) retire_n(w, EMU_CNT_VM, kvm);
  if (kds) retire_n(w, EMU_CNT_DS, kds);
  if (ksm) retire_n(w, EMU_CNT_SMEM, ksm);
  if (w->pover) pend_rebuild(w);
}

void emu_waitcnt(emu_wave *w, int vmcnt, int lgkmcnt)
{
  int nvm = w->ncnt[EMU_CNT_VM], nds = w->ncnt[EMU_CNT_DS], nsm = w->ncnt[EMU_CNT_SMEM];
  /* what the counts guarantee has completed: all but the vmcnt youngest vector memory operations
   * (in order); all LDS and scalar operations at lgkmcnt(0); else all but the lgkmcnt youngest LDS
   * operations (LDS returns in order; scalar loads may not, so only lgkmcnt(0) retires them) */
  int kvm = vmcnt >= 0 && nvm > vmcnt ? nvm - vmcnt : 0;
  int kds = lgkmcnt == 0 ? nds : lgkmcnt > 0 && nds > lgkmcnt ? nds - lgkmcnt : 0;
  int ksm = lgkmcnt == 0 ? nsm : 0;
  if (!(kvm | kds | ksm)) return;
  if (kvm == nvm && kds == nds && ksm == nsm) {
    /* Everything retires (lgkmcnt(0) with no vector memory outstanding): the map is
     * the union of the live entries (exact, or rebuilt so when pover), so with none left it is
     * zero; the counts and kinds too. The in-order counters' retired prefix: the youngest's seq,
     * pseq, as retire_n would leave it. */
    for (int c = 0; c < 2; c++)
      if (w->ncnt[c]) w->pret[c] = w->pseq[c];
    /* kind 0 (no register: stores, DS writes) sets no bit of its row, so the row is zero already */
    for (unsigned ks = w->pkinds & ~1u; ks; ks &= ks - 1) memset(w->pbits[__builtin_ctz(ks)], 0, sizeof w->pbits[0]);
    memset(w->pkc, 0, sizeof w->pkc);
    w->pkinds = 0;
    w->pover = false;
    memset(w->ncnt, 0, sizeof w->ncnt);
    memset(w->phead, 0, sizeof w->phead);
    return;
  }
  waitcnt_some(w, kvm, kds, ksm);
}

/* Is the instruction at pc (an outstanding entry's issuer) the same text as in? The records are
 * sorted by pc; looked up only here, on the rare warning path, so emu_pend stores no index. */
static bool same_text_at(const emu_wave *w, uint64_t pc, const emu_insn *in)
{
  size_t lo = 0, hi = w->ninsn;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (w->insns[mid].pc < pc) lo = mid + 1;
    else hi = mid;
  }
  return lo < w->ninsn && w->insns[lo].pc == pc && !strcmp(w->insns[lo].text, in->text);
}

int emu_hazard_check(emu_wave *w, const emu_insn *in)
{
  /* every outstanding operation, oldest first over all counters (a 3-way merge by ord): the fault
   * or warning names the oldest one the instruction conflicts with */
  pent *all[64 + 16 + 16];
  uint8_t allc[64 + 16 + 16];
  uint32_t allseq[64 + 16 + 16];
  int na = 0, at[3] = {0, 0, 0};
  for (;;) {
    int c = -1;
    for (int k = 0; k < 3; k++)
      if (at[k] < w->ncnt[k] && (c < 0 || (int32_t)(pq_at(w, k, at[k])->ord - pq_at(w, c, at[c])->ord) < 0)) c = k;
    if (c < 0) break;
    allc[na] = (uint8_t)c;
    allseq[na] = c < 2 ? pq_seq(w, c, at[c]) : 0;
    all[na++] = pq_at(w, c, at[c]++);
  }
  uint32_t fl = in->flags;
  bool load = (fl & EMU_F_LOAD) || ((fl & EMU_F_ATOMIC) && (in->sc0 || in->glc));
  int mycnt = (fl & EMU_F_DS) ? EMU_CNT_DS : (fl & EMU_F_SMEM) ? EMU_CNT_SMEM : EMU_CNT_VM;
  for (int i = 0; i < in->nop; i++) {
    const emu_opnd *o = &in->o[i];
    int k = emu_regkind(o);
    if (!k) continue;
    for (int j = 0; j < na; j++) {
      pent *e = all[j];
      const int ec = allc[j];
      if ((int)PKIND(e) != k || o->reg + o->n <= e->reg || e->reg + e->n <= o->reg) continue;
      /* a younger in-order load overwriting the same registers is fine (results arrive in order) */
      if (i == 0 && load && ec == mycnt && mycnt != EMU_CNT_SMEM) continue;
      /* Undocumented but relied on by AMD's kernels (docs/emulator-choices.md): the same s_load
       * issued again while the first is in flight (both deliver the same bytes, whichever returns
       * last), and an LDS result used after an s_barrier with no lgkmcnt wait. A warning unless
       * strict, once per outstanding operation. A warning changes nothing: the operation stays
       * outstanding until an s_waitcnt retires it, so later counts stay the hardware's. */
      if (e->kw & EMU_PEND_WARNED) continue;
      const char *why = NULL;
      if (i == 0 && load && ec == EMU_CNT_SMEM && mycnt == EMU_CNT_SMEM && e->reg == o->reg && e->n == o->n &&
          same_text_at(w, e->pc, in))
        why = "duplicated s_load in flight";
      else if (ec == EMU_CNT_DS && allseq[j] <= w->pbar) /* issued before the wave's last s_barrier */
        why = "LDS result used after s_barrier without s_waitcnt";
      if (why) {
        int rc = emu_memwarn(w, in, "missing s_waitcnt", -1, 0,
                             "%s: operand %d uses %c%u, loaded by the %s operation at pc 0x%llx (%s)", why, i,
                             k == 1 ? 'v' : k == 2 ? 'a' : 's', (unsigned)(o->reg > e->reg ? o->reg : e->reg),
                             ec == EMU_CNT_DS ? "LDS" : "scalar memory", (unsigned long long)e->pc,
                             ec == EMU_CNT_DS ? "the ISA asks for s_waitcnt lgkmcnt before the use"
                                                  : "scalar loads may return out of order");
        if (rc != EMU_OK) return rc;
        e->kw |= EMU_PEND_WARNED;
        continue;
      }
      return emu_raise(w, in, "missing s_waitcnt", -1, 0,
                       "operand %d uses %c%u, still being loaded by the %s operation at pc 0x%llx",
                       i, k == 1 ? 'v' : k == 2 ? 'a' : 's', (unsigned)(o->reg > e->reg ? o->reg : e->reg),
                       ec == EMU_CNT_VM ? "vector memory" : ec == EMU_CNT_DS ? "LDS" : "scalar memory",
                       (unsigned long long)e->pc);
    }
  }
  return EMU_OK;
}
