/* verify/mutate — automatic source-level mutation testing of the production kernels
 * (`lanelab mutate`, `make mutate`; docs/verify-matrix.md).
 *
 * Layout: everything is C in the verify library (this module: the mutator, the mutant builds
 * through lanelab's one compiler driver (isa_cc_build_dir), the gate, the report) plus cli/cmd_mutate.c; `make mutate` calls the CLI.
 *
 * 1. The mutator scans kernels/prod/ and kernels/include/lanelab_{device,fragments}.h (the
 *    headers the production kernels include; lanelab_micro.h is micro-kernel only) with a small
 *    C++ lexer (comments, strings and preprocessor lines are never mutated) and lists, in file
 *    order, one mutant per site and change:
 *      arith    + <-> -, * <-> /, % -> /, and the compound forms (+= -= *= /=)
 *      cmp      < <-> <=, > <-> >=, == <-> !=
 *      logic    && <-> ||, a leading ! removed
 *      bit      & <-> |, ^ -> |
 *      shift    << <-> >>
 *      const    integer literal +1 and -1 (shift amounts, masks, bounds, tile constants)
 *      barrier  a call statement of a barrier, fence or wait removed (ll_syncthreads,
 *               __builtin_amdgcn_s_barrier, __builtin_amdgcn_fence, ...)
 *      minmax   fmax_ -> __builtin_fminf, min <-> max
 *      swap     two adjacent arguments of a call exchanged (the compiler rejects a mutant whose
 *               types do not fit: "stillborn", left out of the score)
 *      drop     one operand of a binary + dropped with its operator (a dropped index term)
 *    A binary operator is one with white space on both sides (the kernels' style; it keeps
 *    template brackets, pointer declarators and unary operators out). Integer literals inside
 *    static_assert and __attribute__ are left alone (they fail the build or change launch
 *    bounds, which the launch itself checks).
 * 2. Each mutant's source tree (a copy of kernels/ with the one file changed) builds every
 *    production code object that includes the file, per arch. A mutant whose .text is byte-
 *    identical to the correct code object's on an arch is equivalent there, by proof, and left
 *    out of the score. A mutant that does not compile is stillborn, also left out.
 * 3. The gate runs the cases of every code object that changed: the quick matrix and a fixed-
 *    seed random sample (verify/prod.h), each under its own wave schedule; the correct kernel's
 *    error on each case is its noise floor. A mutant is killed by a fault (out of bounds, budget,
 *    ...), a launch the runtime refuses, a phase-census violation, a concat mismatch, an
 *    out-of-contract launch it runs instead of refusing (verify/prod.h prod_refusals), or an
 *    oracle mismatch at >= 100x the noise floor (or non-finite). A mutant that fails only below
 *    100x is "narrow" and counts as a gap, like a survivor. A header mutant (lanelab_device.h,
 *    lanelab_fragments.h) the production gate does not kill also runs the lanes stage on the
 *    micro-kernels it reaches (their lane maps against the lanes model); a mismatch kills it.
 * 4. Results are cached per mutant (key: FNV-1a of the mutated file's path and text) in
 *    BUILD/mutate/results/, so runs are incremental and shards merge; the report (per arch:
 *    score per file and per function, every survivor and narrow mutant by file, line and
 *    change) is printed and written to BUILD/mutate/report.md. Survivors listed in
 *    kernels/mutants-equivalent.txt (argued equivalent) are reported as such, outside the score. */
#ifndef LANELAB_VERIFY_MUTATE_H
#define LANELAB_VERIFY_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"
#include "util/util.h"

typedef struct mutate_site {
  const char *file;   /* repo-relative path (points into the caller's file list) */
  int line, col;      /* 1-based, of the first replaced byte */
  char func[64];      /* enclosing function, or "(file scope)" */
  const char *op;     /* "arith", "cmp", "logic", "bit", "shift", "const", "barrier", "minmax", "swap", "drop" */
  size_t off, len;    /* bytes of the original replaced by repl */
  char *repl;
  char *desc;         /* "'<' -> '<='", "deleted 'll_syncthreads();'", ... */
  char *src_line;     /* the original source line, trimmed */
} mutate_site;

/* Every mutant of one file's text, in order. *sites grows (realloc'd); returns the number added. */
size_t mutate_scan(const char *file, const char *text, size_t len, mutate_site **sites, size_t *n);
/* The file's text with the mutation applied (malloc'd, NUL-terminated; *outlen its length). */
char *mutate_apply(const char *text, size_t len, const mutate_site *m, size_t *outlen);
void mutate_sites_free(mutate_site *sites, size_t n);

typedef struct mutate_opts {
  const char *root;       /* repository root (kernels/, mk/) */
  const char *build;      /* build directory holding <arch>/kernels/NAME.co (the correct kernels) */
  emu_arch arches[EMU_NARCH];
  size_t narch;
  size_t max;             /* run at most this many not-yet-cached mutants (0: no limit) */
  uint32_t shard_i, shard_n;
  size_t random_n;        /* random cases in the gate (default 24) */
  uint64_t seed;          /* their seed (default 1) */
  bool list;              /* only list the mutants (no build, no run) */
  bool report_only;       /* only report from the cache */
  bool retry;             /* rerun cached survivors and narrow kills (after the matrix grew) */
  const char *only_file;  /* restrict to one file (repo-relative), or NULL */
  const bool *only;       /* if not NULL: run only mutants i < nonly with only[i] (indices as --list prints
                             them); the others are reported from the cache */
  size_t nonly;
} mutate_opts;

/* Runs (or lists / reports) per the options. Returns LL_EXIT_OK when every arch reaches a score
 * >= 98% with no mutant left unrun; LL_EXIT_FAIL otherwise (the report says why); LL_EXIT_ENV /
 * LL_EXIT_USAGE on a missing toolchain or bad input. */
int mutate_run(const mutate_opts *o, ll_err *err);

#endif
