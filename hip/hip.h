/* hip — HIP on lanelab: the HIP runtime library that HIP programs built by `lanelab hipcc` link
 * (hip_runtime_api.h, in hip/include/hip/, declares its API: hipMalloc, hipLaunchKernel, ...), on
 * runtime/ (rt.h) with the emulator backend. docs/hip-runtime.md is the user's documentation:
 * every HIP API name with its status, the device figures and their sources, the error rules.
 *
 * This header is the module's contract with the rest of lanelab (cli/): how `lanelab exec`
 * configures the runtime inside a program and reads back what it found.
 *
 * The exec protocol. A program linked with the runtime reads, once, at its first HIP call:
 *   LANELAB_ARCH            gfx942 | gfx950: the device to emulate (default: the one arch the
 *                           program's code was built for, else gfx950)
 *   LANELAB_RACECHECK       lds | global: race checking on every launch (emu_observer_racecheck)
 *   LANELAB_INITCHECK       1: uninitialized reads of LDS and of device memory (hipMalloc'd bytes
 *                           not yet written by a copy, a memset or a kernel)
 *   LANELAB_HEAPCHECK       1: accesses to the device heap outside every live block (use after
 *                           free, past a block's end: emu_observer_heap)
 *   LANELAB_SCHEDULE        roundrobin | adversarial | random:SEED
 *   LANELAB_STRICT_MEMORY   1: memory-model warnings become faults
 *   LANELAB_TRACE           a trace SPEC (docs/trace.md) applied to every launch
 *   LANELAB_REPORT          DIR: one trace file per traced launch is written there
 *   LANELAB_EXEC_SUMMARY    FILE: the runtime writes its summary there (JSON, below), atomically,
 *                           when it starts, after every launch that found something, and at exit
 * A bad value is reported on stderr and the program exits with status 2 before running anything.
 *
 * The summary: {"generated_by", "arch", "launches", "kernels": {NAME: launches}, "faults",
 * "races", "uninit", "mem_warnings", "api_errors", "leaks", "leak_bytes", "heap_bad", "findings": [lines], "insns", "choice_insns"
 * (executed wave instructions, and those resting on stated choices), "fidelity" (the one line of
 * emu_fidelity_format), "fidelity_choices" (emu_fidelity_strict's lines, "" when none),
 * "complete": bool (false until the program exits)}. hip_summary_read parses it. */
#ifndef LANELAB_HIP_H
#define LANELAB_HIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/util.h"

typedef struct hip_summary {
  char arch[16];
  uint64_t launches, faults, races, uninit, mem_warnings, api_errors;
  uint64_t leaks, leak_bytes; /* allocations not freed at exit, when --leakcheck (0 in a summary without them) */
  uint64_t heap_bad;          /* heapcheck's findings, when --heapcheck (0 in a summary without them) */
  size_t nkernels;
  char **kernel_names;   /* distinct kernels launched */
  uint64_t *kernel_launches;
  size_t nfindings;
  char **findings;       /* one line each, as printed by the runtime */
  uint64_t insns, choice_insns; /* executed wave instructions; those resting on stated choices */
  char *fidelity;        /* "fidelity: N instructions executed, ..." (docs/fidelity.md) */
  char *fidelity_choices; /* one line per choice executed ("" when none): what --strict-fidelity prints */
  bool complete;         /* the program reached exit() (the runtime's atexit handler ran) */
} hip_summary;

/* Reads a summary file the runtime wrote. LL_EXIT_USAGE if it is missing or malformed. */
bool hip_summary_read(const char *path, hip_summary *s, ll_err *err);
void hip_summary_free(hip_summary *s);

/* ---- benchmark (lanelab bench hip, part of make bench; hip/hip_bench.c) ------------------------
 * The runtime's own cost per launch (hipModuleLaunchKernel against rt_launch of the same kernel)
 * and per copy (hipMemcpy both ways at 4 KiB, 1 MiB, 64 MiB), in this process, on gfx942, with
 * BUILD/programs/modules/gfx942/module_kernels.co. LL_EXIT_ENV if that is not built. */
int hip_bench(FILE *out, const char *build_dir);

#endif
