/* verify/manifest — a user's kernels registered with their references (docs/manifest.md): the
 * reader of a manifest file and the stages `lanelab verify --manifest FILE.json` runs on it.
 *
 * Reading: every path in a manifest is relative to the manifest's directory; the reader resolves
 * them (so verify works from any directory) but opens none of them (the stages do). A bad
 * manifest is LL_EXIT_USAGE whose message starts with the JSON path of the bad field
 * ("kernels[0].args[2].in.shape[1]: ..."). The reader caps the manifest at MANIFEST_MAX_BYTES and
 * every count it allocates by (kernels, args, dims, mutants, defines).
 *
 * Cases (the unit --shard I/N deals out): one per (kernel, arch, schedule) in manifest order,
 * then one per (kernel, mutant, arch); case k runs iff k % N == I. */
#ifndef LANELAB_VERIFY_MANIFEST_H
#define LANELAB_VERIFY_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"
#include "util/util.h"

#define MANIFEST_MAX_BYTES (1u << 20)   /* the manifest file itself */
#define MANIFEST_MAX_KERNELS 256
#define MANIFEST_MAX_ARGS 64
#define MANIFEST_MAX_DIMS 8
#define MANIFEST_MAX_LIST 64            /* defines, includes, mutants, schedules, cflags */
#define MANIFEST_MAX_BUFFER (1ull << 30) /* bytes of one buffer argument */

/* Element types of buffers and scalars. */
typedef enum {
  MF_F32, MF_F16, MF_BF16, MF_F64, MF_I32, MF_U32, MF_I16, MF_U16, MF_I8, MF_U8, MF_I64, MF_U64,
  MF_FP8_E4M3, MF_FP8_E5M2, MF_FP8_E4M3_FNUZ, MF_FP8_E5M2_FNUZ, MF_NDTYPE
} mf_dtype;
const char *mf_dtype_name(mf_dtype t);  /* "f32", ... */
bool mf_dtype_parse(const char *s, mf_dtype *t);
size_t mf_dtype_size(mf_dtype t);
bool mf_dtype_is_float(mf_dtype t);
/* The C type a reference function receives for this dtype ("float", "lanelab_half", "int32_t"...) */
const char *mf_dtype_ctype(mf_dtype t);

typedef enum { MF_ARG_IN, MF_ARG_OUT, MF_ARG_INOUT, MF_ARG_SCALAR } mf_arg_role;
typedef enum { MF_INIT_FILE, MF_INIT_UNIFORM, MF_INIT_NORMAL, MF_INIT_IOTA, MF_INIT_CONST, MF_INIT_POISON,
               MF_INIT_ORACLE } mf_init_kind;

typedef struct mf_arg {
  char *name;
  mf_arg_role role;
  mf_dtype dtype;
  int ndim;
  int64_t shape[MANIFEST_MAX_DIMS];
  uint64_t count, bytes;          /* elements, bytes (a file input: known once read) */
  mf_init_kind init;
  double init_a, init_b;          /* uniform(a,b), normal(mean,std), const(a), iota(start=a, step=b) */
  uint64_t seed;
  char *file;                     /* MF_INIT_FILE: resolved path */
  char *oracle_tensor;            /* MF_INIT_ORACLE: "q", "k", "v" */
  union { double f; int64_t i; uint64_t u; } value; /* scalars */
} mf_arg;

typedef enum { MF_REF_NONE, MF_REF_C, MF_REF_FILES, MF_REF_ORACLE } mf_ref_kind;

typedef struct mf_compare {
  char *arg;                      /* output argument name */
  double atol, rtol;
} mf_compare;

typedef struct mf_mutant {
  char *name;
  char **defines; size_t ndefines;
  char *source;                   /* resolved; NULL = the kernel's source */
  char *code_object[EMU_NARCH];   /* resolved; used instead of building (NULL = build) */
  bool arch[EMU_NARCH];           /* "arch" (default: every arch its code objects name, else all);
                                     on another arch it is not applicable */
} mf_mutant;

typedef struct mf_kernel {
  char *name;                     /* manifest name: identifier of results and cases */
  char *source;                   /* resolved path or NULL */
  char *code_object[EMU_NARCH];   /* resolved path or NULL */
  char *symbol;                   /* "kernel" (default: name) */
  bool arch[EMU_NARCH];
  char **defines; size_t ndefines;
  char **includes; size_t nincludes;   /* resolved directories for -I */
  uint32_t grid[3], block[3], lds_bytes;
  mf_arg *args; size_t nargs;
  mf_ref_kind ref;
  char *ref_c, *ref_function;     /* MF_REF_C: resolved source, function name */
  bool ref_call_abi;              /* "abi": "call" (lanelab_ref_call *) instead of positional */
  char **ref_cflags; size_t nref_cflags;
  char **ref_files;               /* MF_REF_FILES: per arg (NULL for args without a file) */
  char *oracle, *oracle_spec;     /* MF_REF_ORACLE: "attention", resolved spec path */
  char **oracle_out;              /* per arg: "o" / "lse" / NULL */
  mf_compare *compare; size_t ncompare;
  mf_mutant *mutants; size_t nmutants;
  emu_sched sched[2]; size_t nsched;
  char *budgets;                  /* resolved path or NULL */
  uint64_t insn_budget;           /* per wave, 0 = emulator default */
  char *not_checked;              /* reason the kernel is deliberately not checked, or NULL */
  /* "checks": the emulator's observers on every outputs case (docs/manifest.md, docs/trace.md) */
  bool racecheck;                 /* LDS races between the waves of a workgroup */
  bool racecheck_global;          /* also global memory across the waves and workgroups */
  bool initcheck;                 /* LDS and out buffers read before any write */
} mf_kernel;

typedef struct manifest {
  char *path, *dir;               /* the file and its directory */
  char *project;                  /* "name" or NULL */
  mf_kernel *kernels; size_t nkernels;
} manifest;

/* Parses JSON text; dir is the directory relative paths are resolved against (none is opened). */
manifest *manifest_parse(const char *text, size_t len, const char *dir, ll_err *err);
/* Reads (capped) and parses a manifest file; every path it names must exist (a missing source,
 * input or reference is LL_EXIT_USAGE naming its field and file). */
manifest *manifest_load(const char *path, ll_err *err);
void manifest_free(manifest *m);

/* The tolerance for an output argument: its compare entry, else oracle_compare_default_tol
 * (integers exact, f32 1e-5/1e-5, f64 1e-7/1e-7, f16 1e-3/1e-3, bf16 1e-2/1e-2). */
void manifest_tolerance(const mf_kernel *k, const mf_arg *a, double *atol, double *rtol);
const char *mf_sched_name(emu_sched s); /* "roundrobin", "adversarial" */

/* The manifest as a case source (verify.h): case k (manifest_case_run's numbering) plans kernel i's
 * inputs and reference under schedule s for the arch; m must outlive it. */
struct verify_source;
struct verify_source manifest_source(const manifest *m);
/* Case numbering for --shard (see top). */
size_t manifest_ncases(const manifest *m);
size_t manifest_case_run(const manifest *m, size_t kernel, emu_arch arch, size_t sched);
size_t manifest_case_mutant(const manifest *m, size_t kernel, size_t mutant, emu_arch arch);

#endif
