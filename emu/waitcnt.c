/* emu/waitcnt — the s_waitcnt model: the queue of outstanding memory operations (emu_pend, issued
 * by the memory handlers), their retirement by s_waitcnt (emu_waitcnt) and the check the scheduler
 * makes before an instruction that may name a register still being loaded (emu_hazard_check, behind
 * the inline filter emu_hazard_possible in emu/internal.h). Calls only emu/fault.c. */
#include "emu/internal.h"

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

typedef __typeof__(((emu_wave *)0)->pring[0]) pent;

/* counter c's i-th oldest outstanding operation (i < w->ncnt[c]) */
static inline pent *pq_at(emu_wave *w, int c, int i)
{
  return &w->pring[EMU_PRING_BASE(c) + ((w->phead[c] + i) & (EMU_PRING_CAP(c) - 1))];
}

/* Counter c's oldest operation has completed: its registers counted out, the counter's retired
 * prefix moved up to it (in-order counters), the entry removed. */
static inline void retire_head(emu_wave *w, int c)
{
  const pent *e = pq_at(w, c, 0);
  pend_del(w, e->kind, e->reg, e->n);
  if (c < 2 && e->seq > w->pret[c]) w->pret[c] = e->seq; /* in order: the youngest retired so far */
  w->phead[c] = (uint8_t)((w->phead[c] + 1) & (EMU_PRING_CAP(c) - 1));
  w->ncnt[c]--;
  w->npend--;
}

void emu_pend(emu_wave *w, const emu_insn *in, int cnt, int dst)
{
  /* A counter at its maximum cannot count one more operation (EMU_VMCNT_MAX, EMU_LGKMCNT_MAX): the
   * ISA guides do not say what the hardware does then; lanelab takes the new operation to issue
   * once one of that counter's operations has completed, the oldest (vector memory and LDS return
   * in order; for scalar loads, which may not, the oldest is a stated choice). Other counters'
   * operations stay outstanding (docs/emulator-choices.md "Memory-model strictness"). */
  if (cnt == EMU_CNT_VM) {
    if (w->ncnt[EMU_CNT_VM] >= EMU_VMCNT_MAX) retire_head(w, EMU_CNT_VM);
  } else if (w->ncnt[EMU_CNT_DS] + w->ncnt[EMU_CNT_SMEM] >= EMU_LGKMCNT_MAX) {
    /* the older of the two lgkmcnt heads, by issue order (ord differences: wrap-safe) */
    bool ds = w->ncnt[EMU_CNT_DS] &&
              (!w->ncnt[EMU_CNT_SMEM] || (int32_t)(pq_at(w, EMU_CNT_DS, 0)->ord - pq_at(w, EMU_CNT_SMEM, 0)->ord) < 0);
    retire_head(w, ds ? EMU_CNT_DS : EMU_CNT_SMEM);
  }
  pent *e = pq_at(w, cnt, w->ncnt[cnt]);
  w->ncnt[cnt]++;
  w->npend++;
  e->cnt = (uint8_t)cnt;
  e->warned = 0;
  e->pc = in->pc;
  e->bar = w->nbar;
  e->seq = cnt < 2 ? ++w->pseq[cnt] : 0;
  e->ord = w->pord++;
  if (dst >= 0) {
    const emu_opnd *o = &in->o[dst];
    e->kind = (uint8_t)emu_regkind(o);
    e->reg = o->reg;
    e->n = o->n;
    pend_add(w, e->kind, e->reg, e->n);
  } else {
    e->kind = 0;
    e->reg = e->n = 0;
  }
}

/* s_waitcnt: what the counts guarantee has completed (the k oldest of an in-order counter) */
static void retire_oldest(emu_wave *w, int cnt, int k)
{
  while (k-- > 0) retire_head(w, cnt);
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
  int na = 0, at[3] = {0, 0, 0};
  for (;;) {
    int c = -1;
    for (int k = 0; k < 3; k++)
      if (at[k] < w->ncnt[k] && (c < 0 || (int32_t)(pq_at(w, k, at[k])->ord - pq_at(w, c, at[c])->ord) < 0)) c = k;
    if (c < 0) break;
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
          same_text_at(w, e->pc, in))
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
        e->warned = 1;
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
