/* emu/exec — the scheduler: waves, workgroups, the grid: initial register state, scheduling,
 * snapshots, statistics. What the semantics files call lives apart and never calls back here:
 * operand access (emu/operand.c), addresses (emu/addr.c), the s_waitcnt model (emu/waitcnt.c),
 * faults and warnings (emu/fault.c).
 *
 * Hot loop: records are pre-decoded with direct handler pointers and operands resolved to
 * register-file indices; one step is `in = &insns[ip++]; in->fn(w, in)`. Nothing here calls LLVM
 * or allocates once a workgroup is running. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "emu/internal.h"
#include "emu/observe.h"

/* ---- launches --------------------------------------------------------------------------------*/
typedef struct launch {
  emu_mem *mem;
  const emu_dispatch *d;
  const emu_launch_opts *o;
  const emu_program *prog;
  long entry;
  uint32_t nwaves, wgsize, nwg, lds_size, nregs;
  uint32_t priv_size;          /* private bytes per lane (emu_private_size) */
  /* per wave of a workgroup: its lanes' v0 (packed work-item ids, 64 each) and EXEC at entry, the
   * same for every workgroup, made once (init_wave had three divisions a lane) */
  uint32_t *tid;
  uint64_t *texec;
  uint64_t budget;
  atomic_uint next;
  atomic_uint fault_idx;       /* lowest faulting workgroup index so far (UINT32_MAX: none) */
  pthread_mutex_t mu;          /* guards fault, callbacks */
  emu_fault fault;
  bool collect;
  emu_warns warns;             /* memory-model warnings (emu_memwarn) */
  struct emu_coop *coop;       /* a cooperative launch's shared state (NULL: not cooperative) */
} launch;

/* ---- cooperative launches (hipLaunchCooperativeKernel) -------------------------------------------
 * All the workgroups of a cooperative grid are resident at once on the GPU, so a grid-wide barrier
 * (ROCm's device library spins on a global counter with s_sleep, lanelab's grid_group::sync does
 * the same: docs/hip-runtime.md "Cooperative launches") completes. The emulator gives each
 * workgroup a worker of its own (its registers, LDS, wave records, as any worker) that runs as a
 * coroutine: a context with its own C stack (ucontext), so that it can stop in the middle of the
 * workgroup and resume there. The contexts are spread over one host thread per core (context i on
 * thread i mod threads, never moving: the emulator's thread-local state stays its thread's), and
 * each thread runs its contexts in turn. A context gives its thread to the next one at s_sleep,
 * which on the GPU is where a wave waits for other waves' progress (it changes no architectural
 * state); a thread whose every context just spun sleeps COOP_IDLE_US before the next round, so
 * that its core goes to the threads with work. One host thread per workgroup was measured first
 * and not kept: with 9,728 workgroups the spinning threads took the two cores from the few with
 * work (load average above 2,500, minutes for four barriers).
 *
 * Two ends besides the normal one. A fault in one workgroup (the lowest-numbered as always) stops
 * the others at their next s_sleep: their spin can no longer end. And a deadlock: when every
 * workgroup still running is a spinner (its wave's s_sleeps at most COOP_SPIN_INSNS instructions
 * apart with no barrier release of its workgroup between them) and none has stopped spinning or
 * ended for LANELAB_COOP_DEADLOCK_S seconds (default 10), the launch faults at the s_sleep with the
 * reason: a grid-wide barrier some workgroup never reaches waits forever on hardware too. This is
 * a stated choice (docs/emulator-choices.md "Cooperative launches"): a program whose every
 * workgroup spends that long spinning while still progressing would be stopped wrongly. */
#define COOP_SPIN_INSNS 1024
#define COOP_IDLE_US 50
#if defined(__SANITIZE_ADDRESS__)
#define COOP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COOP_ASAN 1
#endif
#endif
#ifdef COOP_ASAN
#include <sanitizer/common_interface_defs.h>
#define COOP_STACK ((size_t)8 << 20) /* AddressSanitizer's frames are larger */
#else
#define COOP_STACK ((size_t)1 << 20)
#endif
typedef struct emu_coop {
  atomic_uint live;            /* workgroups not finished (started or not) */
  atomic_uint spinning;        /* of them, those whose waves spin (emu_wg.coop_spin) */
  atomic_llong epoch_ns;       /* CLOCK_MONOTONIC time a workgroup last stopped spinning or finished */
  const atomic_uint *fault_idx;
  long long deadlock_ns;
} emu_coop;

/* a workgroup's context: its worker, its stack, where it returns to */
typedef struct coop_ctx {
  ucontext_t uc;
  ucontext_t *home;            /* its thread's scheduler (coop_thread) */
  struct worker *W;
  uint32_t idx;                /* the workgroup */
  uint8_t *stack;
  bool done, spun;             /* finished; gave its turn away while spinning */
#ifdef COOP_ASAN
  void *fake;                  /* AddressSanitizer's fiber bookkeeping */
  const void *home_bottom;
  size_t home_size;
#endif
} coop_ctx;
static __thread coop_ctx *coop_cur; /* the context this thread runs */

static long long mono_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* a workgroup stopped spinning or finished: the deadlock rule's clock starts again */
static void coop_progress(emu_coop *c) { atomic_store(&c->epoch_ns, mono_ns()); }

/* a workgroup of a cooperative launch stops spinning (or was not): g->coop_spin says which */
static void coop_unspin(emu_wg *g)
{
  if (g->coop_spin) {
    g->coop_spin = false;
    atomic_fetch_sub(&g->coop->spinning, 1);
    coop_progress(g->coop);
  }
}

/* the running context gives its thread back to the scheduler, and resumes here */
static void coop_yield(void)
{
  coop_ctx *c = coop_cur;
#ifdef COOP_ASAN
  __sanitizer_start_switch_fiber(&c->fake, c->home_bottom, c->home_size);
  swapcontext(&c->uc, c->home);
  __sanitizer_finish_switch_fiber(c->fake, NULL, NULL);
#else
  swapcontext(&c->uc, c->home);
#endif
}

/* s_sleep in a cooperative launch: the workgroup's context gives its thread to the next one; a
 * wave of a launch that has faulted elsewhere stops; the deadlock rule above. EMU_OK or EMU_FAULT */
static int coop_sleep(emu_wave *w, const emu_insn *in)
{
  emu_wg *g = w->wg;
  emu_coop *c = g->coop;
  if (atomic_load(c->fault_idx) != UINT32_MAX) { /* another workgroup faulted: this spin cannot end */
    g->coop_abort = true;
    return emu_raise(w, in, "stopped", -1, 0, "another workgroup of the cooperative launch faulted");
  }
  bool close = w->sleep_run && w->sleep_bar == g->nbar && w->sleep_budget - w->budget <= COOP_SPIN_INSNS;
  w->sleep_run = close ? w->sleep_run + 1 : 1;
  w->sleep_budget = w->budget;
  w->sleep_bar = g->nbar;
  if (!close) {
    coop_unspin(g);
  } else {
    if (!g->coop_spin) {
      g->coop_spin = true;
      atomic_fetch_add(&c->spinning, 1);
    }
    if (atomic_load(&c->spinning) >= atomic_load(&c->live) && mono_ns() - atomic_load(&c->epoch_ns) > c->deadlock_ns)
      return emu_raise(w, in, "deadlock", -1, 0,
                       "every workgroup of the cooperative launch still running (%u) has spun on s_sleep for %.0f s "
                       "with none passing a barrier or ending: a grid-wide barrier (grid_group::sync) that some "
                       "workgroup never reaches, or a wait nothing will satisfy (LANELAB_COOP_DEADLOCK_S sets the time)",
                       atomic_load(&c->live), (double)c->deadlock_ns / 1e9);
    coop_cur->spun = true;
  }
  coop_yield();
  return EMU_OK;
}

typedef struct worker {
  launch *L;
  uint32_t *vfile;
  uint8_t *lds;
  uint8_t *pfile;              /* private memory of the waves: nwaves * 64 * priv_size bytes */
  emu_wave *waves;
  emu_fault fault;
  emu_fault *wfault;           /* run_rr: each wave's own fault record (nwaves), the earliest in
                                  round-robin order is copied into fault */
  uint64_t *counts;            /* EMU_MAX_PHASES * n, phase p's part zeroed once phused has bit p */
  uint8_t phused;              /* bit p: some wave of this worker counted in phase p (phase 0 always) */
  uint64_t waves_run;
  emu_obs_worker *ow;          /* observation (emu/observe.c); NULL: none */
  emu_ldso *lo;                /* the LDS ordering check (emu/observe.c); NULL: the kernel has no LDS */
  struct emu_mfma_ctx *mfma;   /* emu/op_mfma.c's state, made on the first MFMA (emu_wg.mfma) */
  emu_wmem mem;                /* the six arrays above, in one region (worker_mem) */
} worker;

/* W's register files, LDS, private memory, wave records, their fault records and counts, in one
 * region of pages no other allocation shares (emu/wmem.c says why). Each array starts at a page
 * boundary plus a different multiple of 640 bytes (ten cache lines), so that no two arrays' first
 * bytes share their low 12 address bits, and at a cache-line boundary: a register is 256 bytes,
 * four lines, read and written by whole-line vector loads and stores (malloc's 16-byte alignment
 * split each of them over two lines in some runs and not in others, issue #31, fourteenth stop).
 * Cleared as malloc and calloc left them: the wave and fault records, and phase 0's counts (the
 * others when first entered, emu_op_s_ttracedata); registers, LDS and private memory are cleared
 * per wave and workgroup. */
static void worker_mem(worker *W, uint32_t nregs, uint64_t lds)
{
  const launch *L = W->L;
  const size_t nc = L->prog->n ? L->prog->n : 1;
  const size_t size[6] = {(size_t)L->nwaves * nregs * EMU_LANES * 4, lds ? lds : 1,
                          (size_t)L->nwaves * EMU_LANES * L->priv_size + 1, (size_t)L->nwaves * sizeof *W->waves,
                          (size_t)L->nwaves * sizeof *W->wfault, (size_t)EMU_MAX_PHASES * nc * sizeof *W->counts};
  size_t at[6], end = 0;
  for (int i = 0; i < 6; i++) {
    at[i] = ((end + 4095) & ~(size_t)4095) + (size_t)i * 640;
    end = at[i] + size[i];
  }
  W->mem = emu_wmem_take(end);
  uint8_t *b = W->mem.p;
  W->vfile = (uint32_t *)(void *)(b + at[0]);
  W->lds = b + at[1];
  W->pfile = b + at[2];
  W->waves = memset(b + at[3], 0, size[3]);
  W->wfault = memset(b + at[4], 0, size[4]);
  W->counts = (uint64_t *)(void *)(b + at[5]);
  memset(W->counts, 0, nc * sizeof *W->counts);
}

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

/* Each wave's v0 = x | y << 10 | z << 20 (packed work-item ids, gfx90a+) and EXEC = its lanes
 * that exist, wave wi holding work-items wi * 64 .. + 63 of the workgroup in x-fastest order */
static void launch_tids(launch *L)
{
  uint32_t bx = L->d->block[0], by = L->d->block[1];
  L->tid = ll_xcalloc((size_t)L->nwaves * EMU_LANES, sizeof *L->tid);
  L->texec = ll_xcalloc(L->nwaves, sizeof *L->texec);
  uint32_t x = 0, y = 0, z = 0; /* work-item t's ids, counted up (x fastest) */
  for (uint32_t t = 0; t < L->wgsize; t++) {
    L->tid[t] = x | y << 10 | z << 20;
    L->texec[t / EMU_LANES] |= 1ull << (t % EMU_LANES);
    if (++x == bx) {
      x = 0;
      if (++y == by) y = 0, z++;
    }
  }
}

static void init_wave(worker *W, emu_wg *g, emu_wave *w, uint32_t wi)
{
  launch *L = W->L;
  const emu_dispatch *d = L->d;
  const emu_kernel *k = d->kernel;
  memset(w->s, 0, sizeof w->s);
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
  w->cdepth = 0;
  w->phused = &W->phused;
  w->fault = &W->fault;
  w->last = NULL;
  w->state = 0;
  memset(w->ncnt, 0, sizeof w->ncnt);
  w->pbar = 0;
  memset(w->pseq, 0, sizeof w->pseq);
  memset(w->pret, 0, sizeof w->pret);
  emu_pend_clear(w);
  /* emask and emask_of: a cache of EXEC's lane masks (emu_exec_sync), valid as the last wave left it */
  /* private memory starts zeroed (docs/emulator-choices.md "Private memory") */
  w->sleep_budget = 0, w->sleep_bar = 0, w->sleep_run = 0;
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
  /* v0 and EXEC as emu_launch made them (launch_tids) */
  memcpy(w->v, L->tid + (size_t)wi * EMU_LANES, EMU_LANES * sizeof *L->tid);
  uint64_t exec = L->texec[wi];
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

/* rr: run_rr's step of one event, which runs only without snapshot callbacks and with no observer
 * or one that looks at memory instructions only (run_wg fast_rr), so those tests fold away; obs
 * (with rr): there is such an observer, and the event is the wave's step rr_k - 1 (run_rr) */
static inline __attribute__((always_inline)) int run_wave_(worker *W, emu_wave *w, bool single, bool rr, bool obs)
{
  launch *L = W->L;
  const emu_insn *insns = w->insns;
  const uint64_t snap = rr ? 0 : L->o ? L->o->snap_pc : 0;
  emu_obs_worker *const ow = rr && !obs ? NULL : W->ow;
  if (rr && obs) emu_obs_step(ow, w, w->rr_k - 1);
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
    if (__builtin_expect(emu_pending(w), 0) && emu_hazard_possible(w, in) && emu_hazard_check(w, in) != EMU_OK)
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
        w->pbar = w->pseq[EMU_CNT_DS]; /* outstanding LDS results cross it (emu_hazard_check) */
      } else {
        w->state = 3;
      }
      return rc;
    }
    if (single) return rc;
  }
}
static inline __attribute__((always_inline)) int run_wave(worker *W, emu_wave *w, bool single)
{
  return run_wave_(W, w, single, false, false);
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
/* rr_ahead stopped at its k-th step, whose record returned rc (not EMU_OK): the wave's place in the
 * pick and its state (ended, at the barrier, or holding a fault) */
static inline void rr_stop(emu_wave *w, uint32_t k, int rc)
{
  w->rr_k = k;
  w->rr_pos = k - 1;
  w->state = rc == EMU_END ? 2 : rc == EMU_BARRIER ? 1 : 3;
  if (rc == EMU_BARRIER) w->pbar = w->pseq[EMU_CNT_DS];
}

/* a record of a block rr_ahead runs: a solo wave's LDS accesses through the LDS ordering check, and
 * without the LDS-counter entry that an s_waitcnt lgkmcnt(0) of the part of the block that runs
 * (before end) retires (emu_insn.sel) */
static inline __attribute__((always_inline)) int solo_call(emu_wave *w, emu_ldso *lo, const emu_insn *in,
                                                           const emu_insn *end, bool solo)
{
  /* the wait's distance: a solo block's (emu/decode.c solo_elide) or one of several waves'
   * (several_elide, whose LDS reads need no ordering check: emu/exec.c rr_quiet) */
  const bool ldso = solo && in->lk != 0 && lo;
  if (emu_nopend_at(in, end, solo)) {
    w->nopend = 1;
    int rc = ldso ? emu_ldso_exec(lo, NULL, w, in) : in->fn(w, in);
    w->nopend = 0;
    return rc;
  }
  return ldso ? emu_ldso_exec(lo, NULL, w, in) : in->fn(w, in);
}

/* solo: the wave is its workgroup's only one (run_rr). No other wave observes its memory operations,
 * so they have no turn to wait for (other workgroups run on other threads, in no defined order):
 * an event marked solo_ev (memory, s_waitcnt) runs here, through what the careful step (run_wave_
 * with rr) does for it: the end of .text, the budget, VSKIP and VGPR indexing (the loop's own
 * tests), the s_waitcnt hazard check (a possible hazard goes to the careful step, which faults or
 * warns), the count, ip, and the handler through the LDS ordering check as there. The blocks after
 * it start with their own hazard check, against the registers it left pending. */
/* May w's turn run its LDS reads (bit 0) and global loads (bit 1) inside its blocks (emu/decode.c
 * rd_inblock, gl_inblock)? Neither with an observer, which sees each memory access in its turn.
 * LDS reads while the LDS ordering check is idle (nothing for a read to be checked against; no record
 * in w's turn makes it busy: its blocks write no LDS) and no other wave of the workgroup can write
 * LDS before its next s_barrier (emu_insn.ldsw at the event it waits at); global loads while none
 * can write other memory before then (emu_insn.gmw). A wave at the barrier, ended or holding a fault
 * writes nothing before w's next barrier either. The other waves stand still during w's turn, so
 * this holds for all of it. */
static unsigned rr_quiet(const worker *W, const emu_wave *w)
{
  if (W->ow) return 0;
  unsigned q = W->lo && !emu_ldso_idle(W->lo) ? 2u : 3u;
  for (uint32_t j = 0; j < W->L->nwaves && q; j++) {
    const emu_wave *o = &W->waves[j];
    if (o == w || o->state != 0 || o->ip >= o->ninsn) continue;
    const emu_insn *at = &o->insns[o->ip];
    if (at->ldsw) q &= ~1u;
    if (at->gmw) q &= ~2u;
  }
  return q;
}

/* W (a workgroup of several waves; NULL for a solo wave): rr_quiet says whether the blocks of w's turn
 * may run their LDS reads and global loads, asked once per turn and only when a block holds one */
static inline __attribute__((always_inline)) void rr_ahead(emu_wave *w, emu_ldso *lo, bool solo, const worker *W)
{
  unsigned q = 4; /* rr_quiet's answer; 4: not asked yet */
  w->rr_solo = solo; /* for the runs' in-place calls (emu_run_xcall) */
  const emu_insn *insns = w->insns;
  const uint32_t n = (uint32_t)w->ninsn;
  uint32_t ip = w->ip, k = w->rr_k;
  for (;;) {
    if (__builtin_expect(ip >= n, 0)) break;
    const emu_insn *in = &insns[ip];
    /* a trace from here (emu/jit.c: runs joined across the guards of masked code), when the wave may
     * run all it can: EXEC all ones, nothing outstanding, the budget for its longest path */
    void *tr = __atomic_load_n(&in->tr, __ATOMIC_ACQUIRE);
    if (__builtin_expect(tr != EMU_JIT_NONE, 0)) {
      if (!tr) tr = emu_trace_get(w, in, ip);
      if ((uintptr_t)tr > (uintptr_t)EMU_JIT_NONE && emu_exec(w) == ~0ull && !emu_pending(w) && w->budget >= in->tr_max &&
          !(w->vskip | w->gpr_idx)) {
        const uint64_t r = ((emu_trace_fn)tr)(w->v, w->s, w, w->counts + ip, 0);
        w->budget -= (uint32_t)r;
        k += (uint32_t)r;
        ip += (uint32_t)(r >> 32);
        w->ip = ip;
        if ((uint32_t)r) continue;
      }
    }
    /* the block from here, cut at the budget's end and before the first record that may name a
     * register an outstanding load still writes (the careful path then faults at its PC); none at
     * an event (blk_n 0) or with no budget left. A solo wave's blocks (blk_sn) also run its LDS reads
     * and writes and s_waitcnt (emu/decode.c solo_inblock), through the LDS ordering check as below */
    uint32_t m = solo ? in->blk_sn : in->blk_n;
    /* a block of several waves runs its s_waitcnt records (emu/decode.c block_prepare) only while
     * every LDS write of the wave the ordering check has seen is retired: no record of such a block
     * writes LDS, so what holds at its start holds at each wait */
    if (!solo && m > in->blk_wn && lo && !emu_ldso_writes_retired(lo, w)) m = in->blk_wn;
    if (!solo && (m > in->blk_rn || m > in->blk_gn)) {
      if (q == 4) q = rr_quiet(W, w);
      if (!(q & 1) && m > in->blk_rn) m = in->blk_rn;
      if (!(q & 2) && m > in->blk_gn) m = in->blk_gn;
    }
    if (m > w->budget) m = (uint32_t)w->budget;
    if ((m == 0) | w->vskip | w->gpr_idx) {
      /* an event run here: a solo wave's (above); in a workgroup of several, an s_waitcnt that can
       * retire none of the wave's LDS writes (emu_ldso_writes_retired; no LDS: nothing to order).
       * It touches only the wave's own counters, and what another wave's access is checked against
       * stays as it was, so its turn is unobservable (issue #31: gfx942's software transpose waits
       * on its ds_bpermute_b32 results about once every nine instructions) */
      bool here = solo ? in->solo_ev : in->fn == emu_op_s_waitcnt && (!lo || emu_ldso_writes_retired(lo, w));
      if (!here || w->budget == 0 || (w->vskip | w->gpr_idx) || (emu_pending(w) && emu_hazard_possible(w, in)))
        break;
      w->budget--;
      k++;
      w->counts[ip]++;
      w->ip = ip + 1;
      int rc = in->lk != 0 && lo ? emu_ldso_exec(lo, NULL, w, in) : in->fn(w, in);
      if (__builtin_expect(rc != EMU_OK, 0)) {
        /* memory and s_waitcnt end no wave but by a fault (w->ip past the record, as the careful
         * step leaves it) */
        rr_stop(w, k, rc);
        return;
      }
      ip = w->ip;
      continue;
    }
    if (__builtin_expect(emu_pending(w), 0) &&
        (solo ? emu_hazard_sblock_possible(w, in) : emu_hazard_block_possible(w, in))) {
      if (emu_hazard_possible(w, in)) break;
      /* a block of several waves ends at its first wait here: the records after it are checked at
       * the next block's start, after the wait has retired what it retires (checked now, against
       * registers the wait may retire, they cost a longer scan and cut more: seed seq 256 gfx942
       * 776.6 M -> 774.7 M host instructions) */
      if (!solo && in->blk_wn < m) m = in->blk_wn + 1u;
      for (uint32_t j = 1; j < m; j++)
        if (emu_hazard_possible(w, in + j)) {
          m = j;
          break;
        }
    }
    const emu_insn *const end = in + m;
    uint64_t *cnt = w->counts + ip; /* only a block's last record (s_ttracedata) moves w->counts */
    w->budget -= m;
    k += m;
    /* the next record after the block; no handler but a branch's reads or writes w->ip, and a
     * branch ends its block */
    w->ip = ip + m;
    int rc;
    if (!(solo ? in->blk_sfz : in->blk_fz)) { /* no run starts in the block: the count and the call per record */
      do {
        (*cnt++)++;
        rc = solo_call(w, lo, in, end, solo);
        in++;
        if (__builtin_expect(rc != EMU_OK, 0)) goto stopped;
      } while (in != end);
      ip = w->ip;
      continue;
    }
    w->rr_end = end;
    do {
      if (in->fuse_n >= 1 && emu_exec(w) == ~0ull) {
        /* a run of integer lane operations as one step (emu/fuse.c), inside the block; its records
         * are counted and stepped as if run one by one. A run of one too: the run's pass costs less
         * than the record's handler */
        uint32_t r = in->fuse_n; /* >= 1, and in < end */
        if (r > (uint32_t)(end - in)) r = (uint32_t)(end - in);
        const uint32_t t = (uint32_t)emu_jit_try(w, in, (int)r, cnt); /* translated code (emu/jit.c) */
        if (t < r) emu_fuse_runc(w, in + t, (int)(r - t), cnt + t); /* counts its records */
        cnt += r;
        in += r;
        continue;
      }
      (*cnt++)++;
      rc = solo_call(w, lo, in, end, solo);
      in++;
      if (__builtin_expect(rc != EMU_OK, 0)) {
      stopped:;
        /* a register-only instruction ends or stops the wave only by a fault (s_endpgm and
         * s_barrier are events); anything else is treated as one to be safe. The records of the
         * block after it did not run: their budget and steps back */
        uint32_t left = (uint32_t)(end - in);
        w->ip = (uint32_t)(in - insns);
        w->budget += left;
        k -= left;
        rr_stop(w, k, rc);
        return;
      }
    } while (in != end);
    ip = w->ip; /* a branch ends its block */
  }
  w->rr_k = k;
  w->rr_pos = k;
}

/* a wave's place in the round-robin pick: its stop's step while it waits at an event (state 0) or
 * holds a fault (state 3), else after every step */
static inline uint64_t rr_key(const emu_wave *w)
{
  return w->state == 0 || w->state == 3 ? w->rr_pos : UINT64_MAX;
}

/* run_rr for a workgroup of one wave: its memory operations and s_waitcnt run inside rr_ahead
 * (solo); the careful step only for what rr_ahead stops at (s_barrier, s_endpgm, a possible
 * s_waitcnt hazard, the budget's end, VSKIP, VGPR indexing, the end of .text) */
static int run_solo(worker *W)
{
  emu_wave *w = &W->waves[0];
  w->rr_k = 0;
  for (;;) {
    if (w->state == 0) rr_ahead(w, W->lo, true, NULL);
    if (w->state == 3) {
      W->fault = *w->fault;
      return EMU_FAULT;
    }
    if (w->state != 0) return EMU_OK; /* at the barrier or ended */
    w->rr_k++;
    if (run_wave_(W, w, true, true, false) == EMU_FAULT) {
      W->fault = *w->fault;
      return EMU_FAULT;
    }
  }
}

static int run_rr(worker *W, emu_wg *g)
{
  uint32_t nw = W->L->nwaves;
  /* a solo wave runs its memory instructions inside its blocks: not with an observer, which sees
   * each of them (below, one wave is a round robin of one) */
  if (nw == 1 && !W->ow) return run_solo(W);
  /* each wave's key (rr_key), kept here so the pick reads one array: only the wave picked moves
   * between two picks (at most 1024 work-items: 16 waves, emu_launch) */
  uint64_t key[16];
  for (uint32_t j = 0; j < nw; j++) {
    emu_wave *w = &W->waves[j];
    w->rr_k = 0;
    if (w->state == 0) rr_ahead(w, W->lo, false, W);
    key[j] = rr_key(w);
  }
  for (;;) {
    /* the earliest stop: a wave waiting at its event (state 0) or a fault kept while running
     * ahead; the lowest wave index among equal steps */
    uint32_t bj = 0;
    uint64_t bk = key[0];
    for (uint32_t j = 1; j < nw; j++)
      if (key[j] < bk) bk = key[j], bj = j;
    if (bk == UINT64_MAX) return EMU_OK; /* every wave at the barrier or ended */
    emu_wave *best = &W->waves[bj];
    if (best->state == 3) {
      W->fault = *best->fault;
      return EMU_FAULT;
    }
    best->rr_k++;
    int rc = W->ow ? run_wave_(W, best, true, true, true) : run_wave_(W, best, true, true, false);
    if (rc == EMU_FAULT) {
      W->fault = *best->fault;
      return EMU_FAULT;
    }
    if (best->state == 0) rr_ahead(best, W->lo, false, W);
    key[bj] = rr_key(best);
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
  bool fast_rr = !adversarial && !random && (!W->ow || emu_obs_events_only(W->ow)) && !(L->o && L->o->snap_pc && L->o->on_snap);
  if (fast_rr) { /* each wave's faults apart (run_rr reports the earliest) */
    for (uint32_t i = 0; i < nw; i++) {
      W->wfault[i].faulted = false; /* emu/fault.c fill_event fills every other field */
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
    g->nbar++;
  }
}

/* Run workgroup idx on W; false when the worker should stop (a fault, or a cooperative launch's
 * workgroup stopped for another's fault) */
static bool worker_one(worker *W, unsigned idx)
{
  launch *L = W->L;
  const emu_dispatch *d = L->d;
  emu_wg g = {0};
  g.d = d;
  g.opts = L->o;
  g.mem = L->mem;
  g.prog = L->prog;
  g.warns = &L->warns;
  g.idx = idx;
  g.arch = d->co->arch;
  g.id[0] = idx % d->grid[0];
  g.id[1] = (idx / d->grid[0]) % d->grid[1];
  g.id[2] = idx / (d->grid[0] * d->grid[1]);
  g.lds = W->lds;
  g.lds_size = L->lds_size;
  g.mfma = &W->mfma;
  g.coop = L->coop;
  g.coop_sleep = L->coop ? coop_sleep : NULL;
  memset(W->lds, 0, L->lds_size);
  W->fault.faulted = false; /* emu/fault.c fill_event fills every other field */
  W->waves_run += L->nwaves;
  int rc = run_wg(W, &g);
  if (L->coop) {
    coop_unspin(&g);
    atomic_fetch_sub(&L->coop->live, 1);
    coop_progress(L->coop);
    if (g.coop_abort) return false; /* stopped for another workgroup's fault, which is the launch's */
  }
  if (rc != EMU_OK) {
    pthread_mutex_lock(&L->mu);
    if (idx < atomic_load(&L->fault_idx)) {
      atomic_store(&L->fault_idx, idx);
      L->fault = W->fault;
    }
    pthread_mutex_unlock(&L->mu);
    return false;
  }
  return true;
}

static void *worker_main(void *arg)
{
  worker *W = arg;
  launch *L = W->L;
  for (;;) {
    unsigned idx = atomic_fetch_add(&L->next, 1);
    if (idx >= L->nwg) break;
    if (idx > atomic_load(&L->fault_idx)) break; /* a fault earlier in grid order already won */
    if (!worker_one(W, idx)) break;
  }
  return NULL;
}

/* a cooperative launch's context: its one workgroup, then back to its thread for good */
static void coop_entry(unsigned hi, unsigned lo)
{
  coop_ctx *c = (coop_ctx *)(uintptr_t)((uint64_t)hi << 32 | lo);
#ifdef COOP_ASAN
  __sanitizer_finish_switch_fiber(NULL, &c->home_bottom, &c->home_size);
#endif
  worker_one(c->W, c->idx);
  c->done = true;
#ifdef COOP_ASAN
  __sanitizer_start_switch_fiber(NULL, c->home_bottom, c->home_size); /* this fiber ends */
#endif
  setcontext(c->home);
}

typedef struct coop_set {
  coop_ctx *ctx;
  uint32_t first, stride, n; /* the thread's contexts: first, first + stride, ... below n */
} coop_set;

/* one host thread of a cooperative launch: its contexts in turn until all have finished */
static void *coop_thread(void *arg)
{
  coop_set *s = arg;
  ucontext_t home;
  uint32_t left = 0;
  for (uint32_t i = s->first; i < s->n; i += s->stride) {
    coop_ctx *c = &s->ctx[i];
    c->stack = mmap(NULL, COOP_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (c->stack == MAP_FAILED) ll_die(LL_EXIT_ENV, "emu_launch: no memory for the stack of cooperative workgroup %u", i);
    mprotect(c->stack, 4096, PROT_NONE); /* a guard page below it */
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = c->stack;
    c->uc.uc_stack.ss_size = COOP_STACK;
    c->uc.uc_link = NULL;
    c->home = &home;
    const uint64_t p = (uint64_t)(uintptr_t)c;
    makecontext(&c->uc, (void (*)(void))coop_entry, 2, (unsigned)(p >> 32), (unsigned)p);
    left++;
  }
  while (left) {
    bool idle = true;
    for (uint32_t i = s->first; i < s->n; i += s->stride) {
      coop_ctx *c = &s->ctx[i];
      if (c->done) continue;
      c->spun = false;
      coop_cur = c;
#ifdef COOP_ASAN
      void *fake = NULL;
      __sanitizer_start_switch_fiber(&fake, c->stack, COOP_STACK);
      swapcontext(&home, &c->uc);
      __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
      swapcontext(&home, &c->uc);
#endif
      coop_cur = NULL;
      if (c->done) {
        munmap(c->stack, COOP_STACK);
        left--;
        idle = false;
      } else if (!c->spun) {
        idle = false;
      }
    }
    if (idle && left) { /* every context here spins: the core to the threads with work */
      struct timespec t = {0, COOP_IDLE_US * 1000};
      nanosleep(&t, NULL);
    }
  }
  return NULL;
}

static void coop_init(emu_coop *c, launch *L)
{
  memset(c, 0, sizeof *c);
  atomic_init(&c->live, L->nwg);
  atomic_init(&c->spinning, 0);
  atomic_init(&c->epoch_ns, mono_ns());
  c->fault_idx = &L->fault_idx;
  const char *ds = getenv("LANELAB_COOP_DEADLOCK_S");
  double sec = ds && *ds ? atof(ds) : 10.0;
  if (!(sec > 0 && sec < 1e6)) sec = 10.0;
  c->deadlock_ns = (long long)(sec * 1e9);
  L->coop = c;
}

/* a cooperative launch's n workers, each a context running its workgroup (worker i: workgroup i),
 * context i on host thread i mod hosts; hosts: `threads`, else one per core, one when the observer
 * keeps one shadow of global memory (serial) */
static void coop_run(worker *W, int n, int threads, bool serial)
{
  int hosts = threads > 0 ? threads : ll_ncpus();
  if (serial) hosts = 1;
  if (hosts > n) hosts = n;
  coop_ctx *ctx = ll_xcalloc((size_t)n, sizeof *ctx);
  for (int t = 0; t < n; t++) ctx[t].W = &W[t], ctx[t].idx = (uint32_t)t;
  coop_set *sets = ll_xcalloc((size_t)hosts, sizeof *sets);
  pthread_t *th = ll_xmalloc((size_t)hosts * sizeof *th);
  for (int t = 0; t < hosts; t++) {
    sets[t] = (coop_set){ctx, (uint32_t)t, (uint32_t)hosts, (uint32_t)n};
    if (pthread_create(&th[t], NULL, coop_thread, &sets[t]) != 0) ll_die(LL_EXIT_ENV, "emu_launch: cannot start a worker thread");
  }
  for (int t = 0; t < hosts; t++) pthread_join(th[t], NULL);
  free(th), free(sets), free(ctx);
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
    for (int p = 0; p < EMU_MAX_PHASES; p++) /* the phases it used (the others' counts were never zeroed) */
      if (W[t].phused >> p & 1)
        for (size_t i = (size_t)p * prog->n; i < (size_t)(p + 1) * prog->n; i++) tot[i] += W[t].counts[i];
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
  const emu_program *prog = emu_codeobj_kernel_program((emu_codeobj *)d->co, k, &err);
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

  const uint32_t stack_bytes = o ? o->stack_bytes : 0;
  if (emu_private_size(k, stack_bytes) > EMU_PRIVATE_MAX)
    USAGE("emu_launch %s: %u bytes of private memory per lane (descriptor private segment size %u) exceed lanelab's "
          "limit of %u", k->name, emu_private_size(k, stack_bytes), k->private_segment_size, EMU_PRIVATE_MAX);

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
  L.priv_size = emu_private_size(k, stack_bytes);
  L.budget = emu_launch_budget(o);
  launch_tids(&L);
  atomic_init(&L.next, 0);
  atomic_init(&L.fault_idx, UINT32_MAX);
  pthread_mutex_init(&L.mu, NULL);
  pthread_mutex_init(&L.warns.mu, NULL);

  int nthreads = o ? o->threads : 0;
  if (nthreads <= 0) nthreads = ll_ncpus(); /* cached: a small kernel's launch is as long as sysconf's read of /sys */
  if ((uint64_t)nthreads > nwg) nthreads = (int)nwg;
  emu_observer *obs = o ? o->observe : NULL;
  emu_coop coop;
  if (o && o->cooperative) {
    if (nwg > EMU_COOP_MAX_WG)
      USAGE("emu_launch %s: a cooperative launch of %llu workgroups: the emulator keeps each resident with a stack "
            "of its own, at most %u", k->name, (unsigned long long)nwg, EMU_COOP_MAX_WG);
    coop_init(&coop, &L);
    nthreads = (int)nwg;
  }
  if (obs) {
    char msg[400];
    if (!emu_obs_launch_begin(obs, m, d, prog, msg, sizeof msg)) {
      free(L.tid), free(L.texec);
      pthread_mutex_destroy(&L.mu);
      pthread_mutex_destroy(&L.warns.mu);
      USAGE("emu_launch %s: %s", k->name, msg);
    }
    if (emu_obs_serial(obs) && !L.coop) nthreads = 1; /* grid order, one shadow of global memory */
  }
  worker *W = ll_xcalloc((size_t)nthreads, sizeof *W);
  for (int t = 0; t < nthreads; t++) {
    W[t].L = &L;
    worker_mem(&W[t], nregs, lds);
    W[t].phused = 1;
    if (obs) W[t].ow = emu_obs_worker_new(obs, L.lds_size, L.nwaves);
    if (obs && L.coop && t > 0 && emu_obs_serial(obs)) /* all on one thread (coop_run) */
      emu_obs_worker_share_sync(W[t].ow, W[0].ow);
    if (L.lds_size) W[t].lo = emu_ldso_new(L.lds_size, L.nwaves, obs && emu_obs_racecheck(obs));
  }
  if (L.coop) {
    coop_run(W, nthreads, o->threads, obs && emu_obs_serial(obs));
  } else if (nthreads == 1) {
    worker_main(&W[0]);
  } else {
    pthread_t *th = ll_xmalloc((size_t)nthreads * sizeof *th);
    for (int t = 0; t < nthreads; t++)
      if (pthread_create(&th[t], NULL, worker_main, &W[t]) != 0) ll_die(LL_EXIT_ENV, "emu_launch: cannot start a worker thread");
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
    free(th);
  }
  if (obs) {
    for (int t = 0; t < nthreads; t++) emu_obs_worker_flush(W[t].ow);
    emu_obs_launch_end(obs);
  }
  const size_t warned_pcs = emu_warns_report(&L.warns, o, atomic_load(&L.fault_idx));
  {
    /* fidelity (emu/fidelity.c): executions per instruction over all phases and workers; the
     * instructions resting on stated choices are summed into stats and the process's total */
    uint64_t *all = NULL;
    if (nthreads == 1 && W[0].phused == 1) { /* one worker, phase 0 only: its counts are the sums */
      emu__fidelity_launch(prog, W[0].counts, k->name, stats);
    } else {
      all = ll_xcalloc(prog->n ? prog->n : 1, sizeof *all);
      for (int t = 0; t < nthreads; t++)
        for (int p = 0; p < EMU_MAX_PHASES; p++)
          if (W[t].phused >> p & 1)
            for (size_t i = 0; i < prog->n; i++) all[i] += W[t].counts[(size_t)p * prog->n + i];
      emu__fidelity_launch(prog, all, k->name, stats);
      free(all);
    }
  }
  if (stats) collect_stats(prog, W, nthreads, stats);
  for (int t = 0; t < nthreads; t++) {
    emu_wmem_give(W[t].mem);
    emu_obs_worker_free(W[t].ow);
    emu_ldso_free(W[t].lo);
    emu_mfma_ctx_free(W[t].mfma);
  }
  free(W);
  free(L.tid), free(L.texec);
  pthread_mutex_destroy(&L.mu);
  if (stats) stats->mem_warnings = L.warns.total, stats->mem_warning_pcs = warned_pcs;
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
