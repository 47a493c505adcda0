/* emu/fault — the fault and memory-model warning records: what a handler, the address checks, the
 * s_waitcnt model and the scheduler call when something goes wrong (emu_raise, emu_memwarn,
 * emu_op_unimplemented). Uses only the code object's line table (emu/dwarf.c) and the arch names;
 * calls nothing that runs waves. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "emu/internal.h"

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
  int n = snprintf(f->msg, sizeof f->msg, "%s: %s kernel %s workgroup (%u,%u,%u) wave %u pc 0x%llx%s%s '%s'%s%s%s%s",
                   kind, emu_arch_name(f->arch), f->kernel, f->wg[0], f->wg[1], f->wg[2], f->wave,
                   (unsigned long long)f->pc, f->src[0] ? " at " : "", f->src, f->insn, where, at, detail[0] ? ": " : "", detail);
  /* inside a call (s_swappc_b64, emu_wave.calls): the calls it came through, innermost first, each
   * with its line when the code object has a line table, as a device backtrace */
  if (w->cdepth && n > 0 && (size_t)n < sizeof f->msg) {
    const uint32_t kept = w->cdepth < EMU_CALLS ? w->cdepth : EMU_CALLS;
    size_t len = (size_t)n;
    int m = w->cdepth > kept ? snprintf(f->msg + len, sizeof f->msg - len, "; called through %u calls not kept, then",
                                        w->cdepth - kept)
                             : snprintf(f->msg + len, sizeof f->msg - len, ";");
    for (uint32_t i = kept; m >= 0 && (len += (size_t)m) < sizeof f->msg && i-- > 0;) {
      char src[320] = "";
      if (w->wg->d && w->wg->d->co) emu_codeobj_srcline(w->wg->d->co, w->calls[i], src, sizeof src);
      m = snprintf(f->msg + len, sizeof f->msg - len, "%s from pc 0x%llx%s%s", i + 1 == kept ? " called" : ",",
                   (unsigned long long)w->calls[i], src[0] ? " at " : "", src);
    }
  }
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

/* a warning to the launch's on_warning, else to stderr */
static void report(const emu_launch_opts *o, const emu_fault *ev)
{
  if (o && o->on_warning) o->on_warning(o->warn_user, ev);
  else fprintf(stderr, "lanelab: warning: %s\n", ev->msg);
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
  if (!ws) { /* no launch to collect it: reported now */
    report(w->wg->opts, &ev);
    return EMU_OK;
  }
  /* kept for the launch's end (emu_warns_report): per PC, the occurrence of the lowest key */
  const uint64_t key = (uint64_t)w->wg->idx << 32 | w->wg->nwarn++;
  pthread_mutex_lock(&ws->mu);
  ws->total++;
  size_t i = 0;
  while (i < ws->n && ws->ev[i].pc != ev.pc) i++;
  if (i == ws->n) {
    if (ws->n == ws->cap) {
      ws->cap = ws->cap ? 2 * ws->cap : 8;
      ws->key = ll_xrealloc(ws->key, ws->cap * sizeof *ws->key);
      ws->ev = ll_xrealloc(ws->ev, ws->cap * sizeof *ws->ev);
    }
    ws->n++;
    ws->key[i] = key, ws->ev[i] = ev;
  } else if (key < ws->key[i]) {
    ws->key[i] = key, ws->ev[i] = ev;
  }
  pthread_mutex_unlock(&ws->mu);
  return EMU_OK;
}

size_t emu_warns_report(emu_warns *ws, const emu_launch_opts *o, uint32_t fault_idx)
{
  size_t shown = 0;
  for (;;) { /* the lowest key not yet reported (a few PCs: a selection, no sort) */
    size_t b = ws->n;
    for (size_t i = 0; i < ws->n; i++)
      if (ws->key[i] != UINT64_MAX && (b == ws->n || ws->key[i] < ws->key[b])) b = i;
    if (b == ws->n) break;
    if ((uint32_t)(ws->key[b] >> 32) <= fault_idx) report(o, &ws->ev[b]), shown++;
    ws->key[b] = UINT64_MAX;
  }
  free(ws->key), free(ws->ev);
  ws->key = NULL, ws->ev = NULL;
  ws->n = ws->cap = 0;
  return shown;
}

int emu_op_unimplemented(emu_wave *w, const emu_insn *in)
{
  return emu_raise(w, in, "unimplemented", -1, 0, "%s",
                   in->why ? in->why : "no semantics for this instruction");
}
