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
/* The workgroups must run on one thread, in grid order (global shadow, traces). */
bool emu_obs_serial(const emu_observer *o);
emu_obs_worker *emu_obs_worker_new(emu_observer *o, uint32_t lds_size, uint32_t nwaves);
void emu_obs_worker_free(emu_obs_worker *ow);
/* A workgroup starts on this worker (LDS is zeroed, every wave at interval 0). */
void emu_obs_wg_begin(emu_obs_worker *ow, const emu_wg *g);
/* The waves of the current workgroup were released from an s_barrier. */
void emu_obs_barrier(emu_obs_worker *ow);
/* Execute one instruction under observation: in->fn with checks and tracing around it. */
int emu_obs_exec(emu_obs_worker *ow, emu_wave *w, const emu_insn *in);

#endif
