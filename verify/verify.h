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
#include "oracle/oracle.h"
#include "table/table.h"
#include "runtime/rt.h"
#include "util/util.h"

typedef enum { VERDICT_PASS = 0, VERDICT_FAIL = 1, VERDICT_BAD = 2, VERDICT_NOT_RUN = 3 } verdict;
const char *verdict_name(verdict v); /* "pass", "FAIL", "error", "not run" */
/* The one ranking of verdicts (verify's exit status, merged shards, a stage made of parts):
 * FAIL > error > not run > pass (verify/verdict.c, with stage_set ... verify_quiet below). verdict_worse returns the worse of two. verdict_parse reads
 * verdict_name's words back ("not requested" counts as pass); false for any other text. */
int verdict_rank(verdict v);
verdict verdict_worse(verdict a, verdict b);
bool verdict_parse(const char *name, verdict *v);

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

/* Which runs a stage belongs to: lanelab's own kernels (`verify --arch`), a user's manifest
 * (`verify --manifest`), or both. */
enum { VERIFY_LAB = 1, VERIFY_USER = 2 };

typedef struct verify_stage {
  const char *name;        /* "model", "kernels", "isa", "lanes", "prod", "outputs", "mutants", "manifest", "base" */
  unsigned runs;           /* VERIFY_LAB | VERIFY_USER */
  const char *what;        /* one line for the report */
  const char *what_user;   /* the line in a manifest run, when it differs (NULL: what) */
  void (*run)(const verify_ctx *c, stage_result *r);
  bool needs_base;         /* runs only with --base REV (otherwise listed as not requested) */
  bool sharded;            /* runs only its shard's cases under --shard I/N (lanelab merge joins
                              the shards' tables); otherwise every shard runs it whole */
} verify_stage;

/* Progress on stderr ("[gfx950 lanes 3/11 2.4s] lane_tr8"), silenced by -q. */
void verify_progress(const verify_ctx *c, const char *stage, size_t i, size_t n, const char *what);
/* True if case k belongs to this shard. */
bool verify_in_shard(const verify_ctx *c, size_t k);

/* Runs every stage of the run (c->manifest: the user's stages, else lanelab's own) for c->arch
 * (verify/run.c), writing c->build/results/<arch>/<stage>.json and summary.json (atomically),
 * adding one row per stage to summary ("arch,stage,verdict,seconds#,summary"). Returns the worst
 * verdict (FAIL > BAD > NOT_RUN > PASS). c->results is set while it runs. */
int verify_arch(verify_ctx *c, report_table *summary);
/* Silences progress lines. */
extern bool verify_quiet;

/* ---- the case runner (verify/runner.c) ----------------------------------------------------------
 * Every kernel launch verify makes (a prod matrix case, a micro-kernel's lane dump, a manifest
 * case, a mutant, lanelab mutate's gate) is one vc_launch run by verify_case_run: load the code
 * object, place every buffer, launch with the emulator's checks, read the outputs back and
 * compare each with its reference. A case source (the prod matrix, the lanes checks, a manifest)
 * only says what to launch and what to expect, so a case set can be inspected without running it
 * (which argument takes which value: issue #30's coverage) and any case runs the same way. */
typedef enum { VC_SCALAR, VC_IN, VC_OUT, VC_INOUT } vc_role;

typedef struct vc_arg {
  const char *name;               /* the kernel parameter's name */
  vc_role role;
  rt_arg scalar;                  /* VC_SCALAR: its kind and value */
  uint64_t bytes;                 /* buffers: bytes allocated (zero-filled) */
  const void *init;               /* buffers: copied to the start of the buffer, or NULL */
  uint64_t init_bytes;
  bool uninit;                    /* initcheck: reading it before a write is a finding (out buffers) */
  /* outputs with a reference: the first ref_bytes of the buffer must equal ref elementwise within
   * |got - ref| <= atol + rtol*|ref| (oracle_compare_buffers: etype, dims for indices) */
  const void *ref;
  uint64_t ref_bytes;
  oracle_etype etype;
  double atol, rtol;
  size_t ndims;                   /* 0: flat */
  uint64_t dims[ORACLE_COMPARE_MAX_DIMS];
} vc_arg;

typedef struct vc_launch {
  const char *co;                 /* code object path */
  const char *missing_hint;       /* when set, a missing code object is LL_EXIT_ENV "CO is missing: HINT" */
  const char *kernel;             /* the kernel's symbol */
  uint32_t grid[3], block[3], lds_bytes; /* lds_bytes: dynamic LDS */
  vc_arg *args;
  size_t nargs;
  emu_sched sched;
  uint64_t sched_seed;            /* EMU_SCHED_RANDOM */
  uint64_t insn_budget;           /* per wave; 0 = the emulator's default */
  int threads;                    /* emulator worker threads; 0 = the runtime's default */
  bool racecheck, racecheck_global, initcheck; /* the emulator's observers (docs/trace.md) */
  bool strict_memory;             /* memory-model warnings are faults (lanelab's own kernels) */
  bool stats;                     /* keep the emulator's dynamic census in the result */
  emu_observer *observe;          /* a caller's observer instead of the checks above (kept by the caller) */
} vc_launch;

typedef struct vc_result {
  int rc;                         /* LL_EXIT_OK: ran and compared; LL_EXIT_FAIL: the launch faulted
                                     (err names the fault); else it could not run (err says why) */
  bool launched;                  /* the kernel was launched (rc then says how it ended) */
  emu_fault fault;
  bool checked;                   /* the observers ran (emulator) */
  size_t hazards;                 /* racecheck/initcheck reports */
  char hazard[1024];              /* the first, emu_hazard_format's line */
  emu_launch_stats stats;         /* l->stats on the emulator */
  bool have_stats;
  size_t nargs;
  uint8_t **got;                  /* [nargs] out/inout buffers read back (bytes each), else NULL */
  oracle_compare_result *cmp;     /* [nargs] the comparison of outputs with a reference (n 0 otherwise) */
  bool pass;                      /* ran, every compared output within tolerance, no hazard */
  double max_abs, max_rel;        /* over the compared outputs (finite pairs) */
  uint64_t mismatches, nonfinite;
  double seconds;                 /* the launch */
  double cpu_seconds;             /* the launch's process CPU time (every thread's) */
} vc_result;

/* Runs l on d and fills r (vc_result_free it). Returns r->rc. A fault of an unimplemented
 * instruction also lists every mnemonic of the kernel the emulator lacks. */
int verify_case_run(rt_device *d, const vc_launch *l, vc_result *r, ll_err *err);
void vc_result_free(vc_result *r);
/* "out[3,17]" for the first mismatch of output i (malloc'd), or "-" when it has none. */
char *vc_first_index(const vc_launch *l, const vc_result *r, size_t i);

/* ---- case sources -------------------------------------------------------------------------------
 * A case source is a numbered set of cases (k = 0..n-1, the numbering --shard deals out), each of
 * which plans into a vc_launch: the lab's prod matrix (quick, full, random:N: verify/src_prod.c),
 * its micro-kernels' lane checks (verify/stage_lanes.c) and a manifest's kernels
 * (verify/src_manifest.c). The stages run their cases through verify_case_run, and lanelab mutate's
 * gate runs the prod source's. A planned case can be inspected without running it: its arguments
 * by name with their values and host data (issue #30's argument coverage), and its class, the
 * stratum a sample draws from. */
typedef struct vc_case {
  char name[64];                  /* names the case in tables and reproductions */
  char klass[64];                 /* its stratum: code object and variant ("prefill_paged paged-HND f16") */
  vc_launch l;                    /* what to launch: code object, kernel, arguments, references, checks */
  void *data;                     /* the source's data behind l (freed by vc_case_free) */
  void (*free_data)(void *data);
} vc_case;
void vc_case_free(vc_case *c);

typedef struct verify_source {
  const char *name;               /* "prod", "lanes", "manifest" */
  size_t n;                       /* its cases */
  /* Plans case k for arch, its code object under build; false with err. */
  bool (*plan)(const struct verify_source *s, size_t k, const char *build, emu_arch arch, vc_case *out, ll_err *err);
  void *self;
} verify_source;

/* ---- the one mutant rule (verify/judge.c) -----------------------------------------------------
 * Every mutant verify judges (the lab's mutants stage, a manifest's mutants, lanelab mutate's
 * gate) is judged on each case by this rule, after the byte identity:
 *   1. its .text is byte-identical to the correct build's on the arch: NOT APPLICABLE there, with
 *      the identity as proof (isa diff), never counted as caught;
 *   2. the correct kernel must run and pass the case (else ERROR: there is no A/B);
 *   3. the mutant could not be loaded or run (a missing file, an instruction the emulator lacks):
 *      ERROR;
 *   4. it faults, or the runtime refuses its launch: CAUGHT (fault / launch refused);
 *   5. the case's checks (racecheck, initcheck) or a structural guard (the phase census, an ISA
 *      guard) report it: CAUGHT by that check (named first: it points at an instruction);
 *   6. its outputs mismatch with any mismatch non-finite or its max abs error at least
 *      VERIFY_NARROW_RATIO times the correct kernel's (the noise floor; an exact correct kernel
 *      makes any mismatch infinitely apart): CAUGHT by the outputs;
 *   7. its outputs mismatch below that: NARROW (a gap: the next kernel change may hide it);
 *   8. otherwise ESCAPED.
 * What a stage does with NARROW is its policy: lanelab's own gates count it as a gap (a failure);
 * a manifest reports it as caught, with the ratio. */
#define VERIFY_NARROW_RATIO 100.0
typedef enum { MUT_NOT_APPLICABLE, MUT_CAUGHT, MUT_NARROW, MUT_ESCAPED, MUT_ERROR } mut_verdict;
const char *mut_verdict_name(mut_verdict v); /* "not applicable", "caught", "narrow", "ESCAPED", "error" */

typedef struct mut_run {          /* one run of the correct kernel or the mutant on the case */
  int rc;                         /* LL_EXIT_OK: compared; else how the run ended */
  bool launched;                  /* the launch was made (rc != OK after it: a fault or a refusal) */
  bool unimplemented;             /* the fault is an instruction the emulator lacks */
  bool pass;                      /* outputs within tolerance */
  double max_abs;                 /* over the compared outputs */
  uint64_t mismatches, nonfinite;
  size_t hazards;                 /* racecheck/initcheck reports */
  const char *guard;              /* the structural guard it failed ("phase census", ...), or NULL */
  const char *msg;                /* the fault, error, first hazard or guard's words */
} mut_run;

typedef struct mut_judgement {
  mut_verdict v;
  const char *check;              /* what decided: "outputs", "fault", "launch refused", "checks", a guard */
  double ratio;                   /* mutant max abs / noise floor: inf when the correct kernel is exact
                                     and the mutant mismatches, NaN when neither differs */
  char why[600];
} mut_judgement;

/* Rule 1: *applies is false when the two code objects' .text is byte-identical (false + err when
 * they cannot be compared). */
bool verify_mutant_applies(const char *mutant_co, const char *correct_co, bool *applies, ll_err *err);
/* Rules 2-8 for one case. */
void verify_mutant_judge(const mut_run *correct, const mut_run *mutant, mut_judgement *j);

/* Stage implementations living in their own files (the table is verify/stages.c). */
void verify_stage_lanes(const verify_ctx *c, stage_result *r);   /* verify/stage_lanes.c */
/* The lanes stage's cases as a source (verify/stage_lanes.c): each micro-kernel run once on its image
 * (the launch's reference is the stage's own bit-exact lane diff, not a tolerance). */
verify_source verify_lanes_source(void);
void verify_stage_prod(const verify_ctx *c, stage_result *r);    /* verify/stage_prod.c */
void verify_stage_mutants(const verify_ctx *c, stage_result *r); /* verify/stage_mutants.c: lab or manifest */
/* verify/stage_manifest.c: the manifest run's kernels, isa, outputs and mutants stages, and lanelab's
 * own manifest, kernels/manifest.json (the kernels no other stage runs), through them into
 * BUILD/manifest/. */
void verify_manifest_kernels(const verify_ctx *c, stage_result *r);
void verify_manifest_isa(const verify_ctx *c, stage_result *r);
void verify_stage_outputs(const verify_ctx *c, stage_result *r);
void verify_manifest_mutants(const verify_ctx *c, stage_result *r);
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


#endif
