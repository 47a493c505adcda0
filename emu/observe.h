/* emu/observe.h — private hooks between the executor (emu/exec.c) and the observer
 * (emu/observe.c). The executor keeps one emu_obs_worker per worker thread when a launch has an
 * observer, and none otherwise: with no observer the only cost is one NULL test per instruction. */
#ifndef LANELAB_EMU_OBSERVE_H
#define LANELAB_EMU_OBSERVE_H

#include "emu/internal.h"

typedef struct emu_obs_worker emu_obs_worker;

/* Launch begin: sizes the shadow state for the launch's buffers. false with msg filled (bad
 * configuration, shadow too large). */
bool emu_obs_launch_begin(emu_observer *o, emu_mem *m, const emu_dispatch *d, const emu_program *prog,
                          char *msg, size_t msgn);
/* A worker is done with the launch: the report counts it held back go to the observer (before
 * emu_obs_launch_end). */
void emu_obs_worker_flush(emu_obs_worker *ow);
/* Launch end, after the workers: the hazard reports put in grid order. */
void emu_obs_launch_end(emu_observer *o);
/* The workgroups must run on one thread, in grid order (global shadow, traces). */
bool emu_obs_serial(const emu_observer *o);
/* LDS racecheck is on. */
bool emu_obs_racecheck(const emu_observer *o);
emu_obs_worker *emu_obs_worker_new(emu_observer *o, uint32_t lds_size, uint32_t nwaves);
void emu_obs_worker_free(emu_obs_worker *ow);
/* --racecheck=global: ow orders accesses by the release sets of `with` (which must outlive it):
 * the workers of a cooperative launch, each running one workgroup interleaved with the others on
 * one thread (emu/exec.c), share one table as the workgroups of one worker do */
void emu_obs_worker_share_sync(emu_obs_worker *ow, emu_obs_worker *with);
/* A workgroup starts on this worker (LDS is zeroed, every wave at interval 0). */
void emu_obs_wg_begin(emu_obs_worker *ow, const emu_wg *g);
/* The waves of the current workgroup were released from an s_barrier. */
void emu_obs_barrier(emu_obs_worker *ow);
/* Execute one instruction under observation: in->fn with checks and tracing around it. */
int emu_obs_exec(emu_obs_worker *ow, emu_wave *w, const emu_insn *in);
/* The observer looks only at memory instructions (racecheck, initcheck; not tracing): the
 * executor may run the other instructions without it (emu/exec.c run_rr), giving each observed one
 * its step with emu_obs_step, as emu_obs_exec would have counted it. */
bool emu_obs_events_only(const emu_obs_worker *ow);
/* the wave's next observed instruction is its step-th since its workgroup began or it last left a
 * barrier (0 the first) */
void emu_obs_step(emu_obs_worker *ow, const emu_wave *w, uint32_t step);

/* The LDS ordering check (emu/observe.c "LDS ordering"; docs/emulator-choices.md "Memory-model
 * strictness"): runs in every launch whose kernel has LDS, observer or not. One per worker thread,
 * sized for the launch's LDS and waves; it only reads the machine (registers, M0, the waves'
 * in-order counter positions emu_wave.pseq/pret) and keeps its own per-byte records. */
typedef struct emu_ldso emu_ldso;
/* racecheck: the launch's observer runs racecheck, which reports another wave's access in the
 * write's own barrier interval as a race (RAW/WAW with no s_barrier between); those are then left
 * to it, and this check reports the accesses across a barrier (and the wave's own, which racecheck
 * does not see). */
emu_ldso *emu_ldso_new(uint32_t lds_size, uint32_t nwaves, bool racecheck);
void emu_ldso_free(emu_ldso *lo);
/* A workgroup starts on this worker with these waves (records of the previous one cleared). */
void emu_ldso_wg_begin(emu_ldso *lo, const emu_wave *waves);
/* The workgroup's waves were released from an s_barrier: what each has retired is now safe. */
void emu_ldso_barrier(emu_ldso *lo);
/* Execute an instruction with an LDS side (in->lk): its LDS bytes checked against the writes not
 * yet safe (a finding: emu_memwarn, so EMU_FAULT under strict_memory), then the handler (through
 * the observer when ow), then its LDS writes recorded. */
int emu_ldso_exec(emu_ldso *lo, emu_obs_worker *ow, emu_wave *w, const emu_insn *in);
/* Has wave w retired every LDS write this check recorded for it (lo->last <= w->pret on both
 * counters)? Then an s_waitcnt of w can retire none of them: it moves no write's state that this
 * check reads (a write is outstanding while seq > pret; counters retire in order), so its place
 * among the other waves' accesses is unobservable (emu/exec.c rr_ahead runs it out of turn). */
bool emu_ldso_writes_retired(const emu_ldso *lo, const emu_wave *w);
/* Has the check nothing to look at: every LDS write it recorded safe (retired before the last
 * s_barrier release)? Then an LDS read is neither checked nor recorded (emu_ldso_exec's idle path),
 * and stays so until some wave's LDS write is recorded. */
bool emu_ldso_idle(const emu_ldso *lo);

#endif
