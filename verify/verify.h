/* verify — `lanelab verify`: the verification stages run per arch, their results, and the
 * files they leave (build/results/<arch>/<stage>.json, summary.json).
 *
 * A stage returns one of four verdicts. NOT_RUN is never folded into PASS: a verify with a
 * stage that could not run exits 3 (environment lacks something) and says which and why. */
#ifndef LANELAB_CLI_VERIFY_H
#define LANELAB_CLI_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"
#include "reports/table.h"
#include "util/util.h"

typedef enum { VERDICT_PASS = 0, VERDICT_FAIL = 1, VERDICT_BAD = 2, VERDICT_NOT_RUN = 3 } verdict;
const char *verdict_name(verdict v); /* "pass", "FAIL", "error", "not run" */

typedef struct verify_ctx {
  emu_arch arch;
  const char *arch_name;
  const char *build;       /* build directory, e.g. "build" */
  const char *results;     /* build/results/<arch> */
  const char *shapes;      /* "quick" | "full" | "random:N" */
  uint64_t seed;           /* --seed S: the random matrix's seed (verify/prod.h prod_set) */
  const char *base;        /* --base REV or NULL */
  const char *backend;     /* "auto" | "emu" | "hip" */
  uint32_t shard_i, shard_n; /* case sharding: case k runs iff k % shard_n == shard_i */
  double t0;
  const struct manifest *manifest; /* --manifest: the user's kernels (verify/manifest.h), else NULL */
} verify_ctx;

typedef struct stage_result {
  verdict v;
  char summary[512];       /* one line: what was checked and the figure ("64 lanes x 4 slots: 0/256 mismatches") */
  report_table **tables;   /* detail tables, exported by reports/ */
  size_t ntables;
  char *device;            /* "emulator" / "hip:<name>" where kernels ran, or NULL */
} stage_result;

void stage_add_table(stage_result *r, report_table *t);
void stage_set(stage_result *r, verdict v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

typedef struct verify_stage {
  const char *name;        /* "model", "kernels", "isa", "lanes", "prod", "mutants", "base" */
  const char *what;        /* one line for the report */
  void (*run)(const verify_ctx *c, stage_result *r);
  bool needs_base;         /* runs only with --base REV (otherwise listed as not requested) */
  bool sharded;            /* runs only its shard's cases under --shard I/N (lanelab merge joins
                              the shards' tables); otherwise every shard runs it whole */
} verify_stage;

/* Progress on stderr ("[gfx950 lanes 3/11 2.4s] lane_tr8"), silenced by -q. */
void verify_progress(const verify_ctx *c, const char *stage, size_t i, size_t n, const char *what);
/* True if case k belongs to this shard. */
bool verify_in_shard(const verify_ctx *c, size_t k);

/* Runs every stage for c->arch, writing c->build/results/<arch>/<stage>.json and summary.json
 * (atomically), adding one row per stage to summary ("arch,stage,verdict,seconds#,summary").
 * Returns the worst verdict (FAIL > BAD > NOT_RUN > PASS). c->results is set while it runs. */
int verify_arch(verify_ctx *c, report_table *summary);
/* The same for any list of stages (verify_arch runs verify_stages; --manifest runs manifest_stages). */
int verify_run_stages(verify_ctx *c, const verify_stage *stages, size_t nstages, report_table *summary);
/* Silences progress lines. */
extern bool verify_quiet;

/* Stage implementations living in their own files. */
void verify_stage_lanes(const verify_ctx *c, stage_result *r); /* verify/lanes_stage.c */
/* lanelab's own manifest, kernels/manifest.json (the kernels no other stage runs), through the
 * manifest stages into BUILD/manifest/ (verify/manifest_run.c). */
void verify_stage_own_manifest(const verify_ctx *c, stage_result *r);
#define VERIFY_OWN_MANIFEST "kernels/manifest.json"

/* Which stage checks a kernel of lanelab's own (the kernels stage reports NOT CHECKED otherwise). */
bool verify_lanes_runs(const char *kernel);                 /* a micro-kernel the lanes stage runs */
bool verify_prod_runs(const char *shapes, const char *stem); /* a code object the prod matrix runs */

/* The stages, in order (verify/stages.c). */
extern const verify_stage verify_stages[];
extern const size_t verify_nstages;
/* `lanelab merge` (verify/merge.c): joins the results of `verify --shard I/N` runs (build
 * directories dirs[0..n), shards 0..N-1 of one N, each once) into OUT/results and OUT/reports;
 * adds one row per arch and stage to summary (the columns of verify's). Returns the merged worst
 * verdict, or -1 with err (LL_EXIT_USAGE naming the directory and what is wrong). */
int verify_merge(char *const *dirs, size_t ndirs, const char *out, report_table *summary, ll_err *err);

/* The stages of `lanelab verify --manifest` (verify/manifest_run.c; c->manifest set). */
extern const verify_stage manifest_stages[];
extern const size_t manifest_nstages;

#endif
