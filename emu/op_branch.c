/* emu/op_branch — program control (CDNA3 ISA chapter "Program Flow Control" and the listing
 * "SOPP Instructions"): s_endpgm, branches, s_barrier, s_waitcnt, and the scheduling hints that
 * have no architectural effect in an in-order emulator. */
#include <string.h>

#include "emu/internal.h"

/* s_endpgm: end of the wave's program. */
int emu_op_s_endpgm(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_END; }

/* s_nop, s_setprio, s_icache_inv, perf-level hints: wait states / hints only. */
int emu_op_s_nop(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_OK; }
/* s_sleep: the wave sleeps about 64 * SIMM16[6:0] clocks (CDNA3 ISA "SOPP Instructions"); no
 * architectural state changes. In a cooperative launch the emulator's thread for the workgroup
 * yields the host CPU to the other workgroups' (emu/exec.c coop_sleep, through emu_wg.coop_sleep) */
int emu_op_s_sleep(emu_wave *w, const emu_insn *in)
{
  return w->wg && w->wg->coop_sleep ? w->wg->coop_sleep(w, in) : EMU_OK;
}

static inline int branch(emu_wave *w, const emu_insn *in, bool taken)
{
  if (!taken) return EMU_OK;
  if (in->target < 0)
    return emu_raise(w, in, "bad jump target", -1, 0, "branch target is not an instruction of .text");
  w->ip = (uint32_t)in->target;
  return EMU_OK;
}
/* PC = PC + 4 + SIMM16 * 4 when the condition holds (target precomputed at decode) */
int emu_op_s_branch(emu_wave *w, const emu_insn *in) { return branch(w, in, true); }
int emu_op_s_cbranch_scc0(emu_wave *w, const emu_insn *in) { return branch(w, in, !w->scc); }
int emu_op_s_cbranch_scc1(emu_wave *w, const emu_insn *in) { return branch(w, in, w->scc); }
int emu_op_s_cbranch_vccz(emu_wave *w, const emu_insn *in) { return branch(w, in, emu_vcc(w) == 0); }
int emu_op_s_cbranch_vccnz(emu_wave *w, const emu_insn *in) { return branch(w, in, emu_vcc(w) != 0); }
int emu_op_s_cbranch_execz(emu_wave *w, const emu_insn *in) { return branch(w, in, emu_exec(w) == 0); }
int emu_op_s_cbranch_execnz(emu_wave *w, const emu_insn *in) { return branch(w, in, emu_exec(w) != 0); }

/* s_barrier: the wave waits until every wave of its workgroup that has not ended arrives
 * (handled by the workgroup scheduler in exec.c). It does not wait for the wave's memory
 * operations (CDNA3 ISA "S_BARRIER"): what an LDS write still outstanding here means for the other
 * waves is the LDS ordering check's business (emu/observe.c), decided by the data they touch. */
int emu_op_s_barrier(emu_wave *w, const emu_insn *in) { (void)w, (void)in; return EMU_BARRIER; }

/* s_waitcnt: no timing is modelled; the counts retire tracked outstanding operations (emu_pend),
 * which is what makes a missing wait detectable. */
int emu_op_s_waitcnt(emu_wave *w, const emu_insn *in)
{
  emu_waitcnt(w, in->vmcnt, in->lgkmcnt);
  return EMU_OK;
}

/* s_trap / s_sethalt stop the wave: reported as a fault so they are never silently ignored. */
int emu_op_s_trap(emu_wave *w, const emu_insn *in)
{
  return emu_raise(w, in, "trap", -1, 0, "the kernel executed %s", in->mnem);
}

/* s_sendmsg: sends a message to the host or the graphics pipeline (CDNA3 ISA "S_SENDMSG"; SIMM16[3:0]
 * the message, which LLVM prints as sendmsg(NAME)). A compute kernel's one message is MSG_INTERRUPT
 * (1): an interrupt to the host with M0[7:0] as its event id, which the launch's handler answers
 * (emu_launch_opts.on_interrupt: ROCm's hostcall, runtime/rt_hostcall.c) before the wave goes on;
 * no registers change. The other messages (geometry shaders, wave save and halt) are not modelled
 * and fault if executed. */
int emu_op_s_sendmsg(emu_wave *w, const emu_insn *in)
{
  if (in->nop != 1 || in->o[0].kind != EMU_OPK_FUNC || in->o[0].ival != 1) /* the decoder's id (decode.c) */
    return emu_raise(w, in, "unimplemented", -1, 0, "%s: only sendmsg(MSG_INTERRUPT) is modelled", in->mnem);
  const emu_launch_opts *o = w->wg ? w->wg->opts : NULL;
  if (!o || !o->on_interrupt) return EMU_OK;
  char msg[256] = "";
  if (o->on_interrupt(o->interrupt_user, w->s[EMU_S_M0] & 0xffu, msg, sizeof msg) != 0)
    return emu_raise(w, in, "hostcall", -1, 0, "%s", msg[0] ? msg : "the host's interrupt handler failed");
  return EMU_OK;
}

/* s_ttracedata: sends M0 to the thread trace when tracing is on, else does nothing (CDNA3 ISA
 * "SOPP Instructions"). Architecturally a no-op; the emulator reads it as a phase marker when M0
 * carries the tag (emu.h EMU_PHASE_TAG, lanelab_device.h LL_PHASE): from here on the wave's
 * executed instructions count in that phase. With EMU_HEAP_TAG it is a device heap marker, which
 * the launch's on_heap hears (emu.h); any other value changes nothing. */
static int heap_marker(emu_wave *w, const emu_insn *in, uint32_t op)
{
  const emu_launch_opts *o = w->wg ? w->wg->opts : NULL;
  if (!o || !o->on_heap || (op != EMU_HEAP_ALLOC && op != EMU_HEAP_FREE)) return EMU_OK;
  if (w->nv < 4)
    return emu_raise(w, in, "device heap", -1, 0, "a heap marker in a kernel of %u VGPRs (it reads v0-v3)", (unsigned)w->nv);
  emu_heap_event e = {.op = (int)op, .exec = emu_rd64s(w, EMU_S_EXEC), .pc = in->pc, .lane = -1, .wave = w->wave_id};
  const emu_dispatch *d = w->wg->d;
  e.co = d ? d->co : NULL, e.image_addr = d ? d->image_addr : 0;
  e.kernel = d && d->kernel && d->kernel->name ? d->kernel->name : "?";
  memcpy(e.wg, w->wg->id, sizeof e.wg);
  for (int l = 0; l < EMU_LANES; l++) {
    e.ptr[l] = (uint64_t)w->v[EMU_LANES + l] << 32 | w->v[l];
    e.size[l] = op == EMU_HEAP_ALLOC ? (uint64_t)w->v[3 * EMU_LANES + l] << 32 | w->v[2 * EMU_LANES + l] : 0;
  }
  char msg[512] = "";
  if (o->on_heap(o->heap_user, &e, msg, sizeof msg) != 0)
    return emu_raise(w, in, "device heap", e.lane, e.addr, "%s", msg[0] ? msg : "the host's heap handler refused the marker");
  return EMU_OK;
}
int emu_op_s_ttracedata(emu_wave *w, const emu_insn *in)
{
  uint32_t m0 = w->s[EMU_S_M0], p = m0 & 0xffffu;
  if (__builtin_expect((m0 & 0xffff0000u) == EMU_HEAP_TAG, 0)) return heap_marker(w, in, p);
  if ((m0 & 0xffff0000u) == EMU_PHASE_TAG && p < EMU_MAX_PHASES && w->counts) {
    w->counts += ((ptrdiff_t)p - (ptrdiff_t)w->phase) * (ptrdiff_t)w->ninsn;
    w->phase = p;
    if (w->phused && !(*w->phused >> p & 1)) { /* the worker's first wave in phase p: its counts from zero */
      memset(w->counts, 0, w->ninsn * sizeof *w->counts);
      *w->phused |= (uint8_t)(1u << p);
    }
  }
  return EMU_OK;
}
