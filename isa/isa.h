/* isa — static ISA guards over gfx942 (CDNA3) / gfx950 (CDNA4) code objects: the instruction
 * census, budgets kept in the repository (isa/budgets.json), byte-level .text diff, llvm-mc
 * validity probes, and the byte-identical check against a base revision.
 *
 * This header is the module's whole contract. Files: isa/tool.c (running LLVM tools, git, make),
 * isa/elf.c (what the guards need of a code object, from the emulator's loader), isa/census.c,
 * isa/budget.c, isa/diff.c, isa/probe.c, isa/base.c, isa/cc.c and isa/ccdir.c (compiling HIP
 * sources and programs: lanelab's one device-compiler driver), isa/coverage.c (the emulator's
 * fidelity per code object).
 *
 * Errors follow util/util.h: bad input (unreadable or malformed code object, bad budget file,
 * unknown arch, unknown revision) is LL_EXIT_USAGE; a missing tool (llvm-objdump, llvm-mc, git,
 * make) is LL_EXIT_ENV and the message says what to install.
 *
 * LLVM tools are taken from /usr/lib/llvm-22/bin (Debian's llvm-22), or from the directory in the
 * environment variable LANELAB_LLVM_BIN when it is set. */
#ifndef LANELAB_ISA_H
#define LANELAB_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "table/table.h"
#include "util/util.h"

/* ---- tools ----------------------------------------------------------------------------------*/
/* Full path of an LLVM tool ("llvm-objdump"), malloc'd; NULL + LL_EXIT_ENV if it is missing. */
char *isa_llvm_tool(const char *name, ll_err *err);
/* Run argv (argv[0] a path, or a name looked up in PATH) with stdin_text (may be NULL: empty
 * stdin) and cwd (NULL: unchanged); collect stdout and stderr into out / errout (either may be
 * NULL to discard). Returns the exit status (128+signal if killed), or -1 with LL_EXIT_ENV if it
 * could not be started. */
int isa_run(char *const argv[], const char *cwd, const char *stdin_text, ll_buf *out, ll_buf *errout,
            ll_err *err);

/* ---- ELF: what the guards need, read by the emulator's loader (emu_codeobj_load) ------------*/
typedef struct isa_sym {
  char *name;
  uint64_t vaddr, size;            /* st_value, st_size */
} isa_sym;

typedef struct isa_elf {
  char arch[16];                   /* "gfx942" (e_flags & 0xff == 0x4c) or "gfx950" (0x4f) */
  uint32_t e_flags;
  uint64_t text_vaddr, text_size;
  uint8_t *text;                   /* copy of the .text bytes */
  isa_sym *funcs;                  /* STT_FUNC symbols inside .text, sorted by vaddr */
  size_t nfuncs;
} isa_elf;

/* Reads an AMDGPU ELF64 code object through emu_codeobj_load, which checks every field (ELF
 * header, segments, sections, symbols, kernel descriptors, metadata): NULL with LL_EXIT_USAGE
 * naming the file and what is wrong (not ELF64, not EM_AMDGPU (224), an arch other than
 * gfx942/gfx950, no .text, a function symbol outside .text, ...). */
isa_elf *isa_elf_read(const void *bytes, size_t n, const char *path, ll_err *err);
isa_elf *isa_elf_read_file(const char *path, ll_err *err);
void isa_elf_free(isa_elf *e);

/* ---- disassembly ----------------------------------------------------------------------------*/
typedef struct isa_insn {
  uint64_t vaddr;
  char *text;                      /* LLVM's text, objdump's trailing comment removed */
} isa_insn;

/* Disassembles path with `llvm-objdump -d --no-show-raw-insn --mcpu=ARCH` (ARCH from e_flags)
 * and returns its instructions in address order. */
isa_insn *isa_disasm(const char *path, const char *arch, size_t *n, ll_err *err);
void isa_insns_free(isa_insn *v, size_t n);

/* ---- census ---------------------------------------------------------------------------------
 * Counts per kernel (one STT_FUNC symbol; instructions at [vaddr, vaddr+size), so the s_nop
 * padding after s_endpgm is not counted). Count keys:
 *   MNEMONIC        as LLVM prints it ("ds_bpermute_b32", "v_add_u32_e32", "global_store_dwordx4");
 *   MNEMONIC:BIT    a memory instruction (global_, flat_, buffer_, scratch_) carrying the cache
 *                   bit BIT (nt, sc0, sc1), e.g. "global_store_dwordx4:nt" (docs/isa.md: printed
 *                   `sc0 nt sc1`);
 *   dpp             any instruction with a DPP control (quad_perm, row_*, wave_*);
 *   v_mov_b32_dpp   v_mov_b32 with a DPP control;
 *   instructions    every instruction of the kernel.
 * A count expression (isa_census_value, budgets) is a key or a glob over keys: "v_mfma_*" sums
 * every MFMA mnemonic, "global_store_*:nt" every non-temporal global store. A glob without ':'
 * matches only plain mnemonics; with ':' the mnemonic part and the bit part match separately. */
typedef struct isa_count {
  char *key;
  long n;
} isa_count;

typedef struct isa_kernel_census {
  char *name;
  uint64_t vaddr, size;
  isa_count *counts;               /* sorted by key */
  size_t ncounts;
} isa_kernel_census;

typedef struct isa_census {
  char arch[16];
  char *path;
  isa_kernel_census *kernels;      /* in address order */
  size_t nkernels;
  size_t outside;                  /* instructions outside every kernel symbol (padding) */
} isa_census;

isa_census *isa_census_file(const char *co_path, ll_err *err);
/* The same from instructions already disassembled (used by tests and by isa_census_file). */
isa_census *isa_census_build(const isa_elf *elf, const isa_insn *insns, size_t n, const char *path);
void isa_census_free(isa_census *c);
const isa_kernel_census *isa_census_kernel(const isa_census *c, const char *name);
/* Value of a count expression (see above) for one kernel; 0 if nothing matches. */
long isa_census_value(const isa_kernel_census *k, const char *expr);
/* The canonical classes every census lists, zeros included (NULL-terminated). */
extern const char *const isa_canonical_counts[];
/* Table kernel,count,n: every canonical class, then every other key the kernel has. */
report_table *isa_census_table(const isa_census *c);

/* A build output (NAME.co or NAME.skip) made from a source that no longer exists: its sidecar
 * NAME.src, written by isa_cc_build_dir (`lanelab cc --into`), names a missing file. Without a sidecar nothing is stale.
 * The census of a build directory and the budgets leave stale outputs out (docs/architecture.md,
 * "Stale build outputs"). */
bool isa_output_is_stale(const char *path);

/* ---- coverage (isa/coverage.c; docs/fidelity.md) -----------------------------------------------
 * The emulator's fidelity over every instruction of a code object's .text, decoded as the emulator
 * decodes it: semantics from AMD's documents only, resting on stated choices
 * (docs/emulator-choices.md "Stated choices: index"), or refused (with the reason). The three
 * classes add up to the total. Bad input: NULL, LL_EXIT_USAGE. */
typedef struct isa_coverage isa_coverage;
isa_coverage *isa_coverage_file(const char *co_path, ll_err *err);
void isa_coverage_free(isa_coverage *c);
void isa_coverage_totals(const isa_coverage *c, size_t *total, size_t *semantics, size_t *on_choices,
                         size_t *refused);
/* Instructions resting on choice `choice` (an emu_choice index). */
size_t isa_coverage_choice(const isa_coverage *c, size_t choice);
/* codeobj,arch,class,item,instructions,detail: per code object its total, semantics, choices (each
 * choice with its docs anchor and mnemonics) and refused (each mnemonic with its reason). */
report_table *isa_coverage_table(isa_coverage *const *c, size_t n);

/* ---- budgets --------------------------------------------------------------------------------
 * A budget file is {"rules": [RULE, ...]} (see isa/budgets.json). A RULE is an object:
 *   "kernel":   kernel symbol name or glob ("prefill_*"), required;
 *   "arch":     "gfx942", "gfx950" or an array of them; omitted = both;   } a count rule:
 *   "count":    count expression;  "eq" / "min" / "max": integers            } at least one op
 *   "relation": "gfx950.EXPR OP gfx942.EXPR" or "ARCH.EXPR OP INTEGER", OP one of
 *               < <= > >= == != (instead of "count"; its arches are the ones it names);
 *   "why":      the reason, shown with a failure (optional but expected).
 * Evaluation, for each arch in scope: kernels come from the symbols of BUILD/ARCH/kernels/NAME.co and
 * NAME.skip files. A pattern matching nothing on any arch in scope fails; a kernel present on one
 * arch in scope but neither built nor skipped on another fails there; a kernel skipped on an arch
 * (NAME.skip, NAME matching the pattern) gives the verdict "skipped: <reason>", never a pass. */
typedef struct isa_budgets isa_budgets;
isa_budgets *isa_budgets_load(const char *path, ll_err *err);
isa_budgets *isa_budgets_parse(const char *json_text, const char *what, ll_err *err);
void isa_budgets_free(isa_budgets *b);
/* Evaluates every rule against BUILD/<arch>/kernels for arches (NULL/0: gfx942 and gfx950). A count
 * rule is evaluated on the requested arches among its own (none: not evaluated, counted in a note);
 * a relation is evaluated when any arch it names is requested, reading every arch it names (a
 * missing BUILD/<arch>/kernels is an error: run make kernels, which builds both). Fills *out with
 * kernel,arch,rule,value,verdict (verdict "pass", "FAIL ...", "skipped: ...") and returns the
 * number of failed rows (0 = all passed); -1 with err on bad input or a missing tool. */
int isa_budgets_eval(const isa_budgets *b, const char *build_dir, const char *const *arches,
                     size_t narches, report_table **out, ll_err *err);

/* ---- diff -----------------------------------------------------------------------------------*/
typedef struct isa_diff_result {
  bool identical;                  /* same arch, same .text bytes, same kernels with same bytes */
  bool text_identical;             /* .text bytes alone */
  int64_t first_offset;            /* first differing .text offset, -1 if none */
  char insn_a[192], insn_b[192];   /* instruction at that offset on each side ("" if none) */
  size_t kernels_different, kernels_only_a, kernels_only_b;
} isa_diff_result;

/* Compares two code objects. *out (may be NULL) gets kernel,a,b,verdict,detail rows, one per
 * kernel symbol, with notes giving arches, .text sizes and the first difference. false + err on
 * bad input or a missing tool; the verdict is in res. */
bool isa_diff_files(const char *a, const char *b, isa_diff_result *res, report_table **out, ll_err *err);

/* ---- probe ----------------------------------------------------------------------------------*/
typedef struct isa_probe_result {
  bool accepted;
  char text[256];                  /* llvm-mc's canonical text when accepted */
  char encoding[256];              /* "[0x00,0x00,0xc6,0xd9,...]" when accepted */
  char message[1024];              /* llvm-mc's diagnostic when rejected */
} isa_probe_result;

/* Assembles one line with `llvm-mc --arch=amdgcn --mcpu=ARCH -show-encoding`. ARCH must be gfx942
 * or gfx950 and the line one instruction (no newline, not empty): otherwise false + LL_EXIT_USAGE.
 * A rejected line is a successful probe (true, accepted = false). */
bool isa_probe(const char *arch, const char *line, isa_probe_result *r, ll_err *err);

/* ---- base-revision compare ------------------------------------------------------------------*/
typedef struct isa_base_result {
  size_t identical, different, only_base, only_current, skipped_both;
} isa_base_result;

/* Builds the kernels of git revision rev in a temporary worktree (repo_root/build/base-REV-PID,
 * `git worktree add --detach`, then `make -C WT -j2 kernels ARCHES=arch`), compares each kernel
 * code object's .text for arch byte for byte with cur_kernels_dir (normally
 * repo_root/build/ARCH/kernels) and removes the worktree. *out gets kernel,verdict,detail rows
 * (identical / different (first offset, both instructions) / only in base / only in current /
 * skipped in both). Returns the number of rows that are not identical or skipped-in-both
 * (0 = untouched), -1 with err (unknown rev: LL_EXIT_USAGE; base build failed: LL_EXIT_FAIL with
 * the end of make's output; git or make missing: LL_EXIT_ENV). log (may be NULL) gets progress. */
int isa_base_compare(const char *repo_root, const char *rev, const char *arch, const char *cur_kernels_dir,
                     isa_base_result *res, report_table **out, FILE *log, ll_err *err);
/* The comparison step alone, over two kernel directories (NAME.co / NAME.skip in each). */
int isa_compare_kernel_dirs(const char *base_dir, const char *cur_dir, isa_base_result *res,
                            report_table **out, ll_err *err);

/* ---- cc: compiling HIP sources (isa/cc.c) ---------------------------------------------------
 * The device compiler for one arch: a ROCm >= 6.3 install ($ROCM_PATH, else /opt/rocm; its hipcc,
 * else its clang) with its own HIP headers and device libraries, when it compiles a probe kernel
 * for the arch; otherwise Debian's clang-22 (LLVM tools directory, see above) with
 * -nogpuinc, ROCm's device math library when installed (-nogpulib without it; below), lld, and
 * lanelab's HIP subset (hip/include, docs/hip-subset.md) on the include path. Without either: NULL with LL_EXIT_ENV naming what is missing and how to get it. */
typedef struct isa_toolchain {
  char arch[16];
  char *cc;                        /* compiler path */
  char **flags;                    /* flags before lanelab's -O3 -std=c++17 (NULL-terminated) */
  size_t nflags;
  char *version;                   /* first line of `cc --version`: NULL until isa_toolchain_version */
  bool subset;                     /* true: clang-22 + lanelab's HIP subset */
  char *hip_include;               /* the subset's folder (subset only) */
  char *device_lib;                /* ROCm's device math library's folder (subset only; NULL: none) */
} isa_toolchain;
isa_toolchain *isa_toolchain_find(const char *arch, ll_err *err);
/* ROCm's device math library (ocml and its oclc_*.bc controls; Debian's rocm-device-libs), which
 * the subset's compiles link when it is there: *dir its folder ($LANELAB_DEVICE_LIB_PATH, set and
 * empty for none; else Debian's /usr/lib/x86_64-linux-gnu/amdgcn/bitcode), or NULL when it is not
 * installed. false with LL_EXIT_ENV when LANELAB_DEVICE_LIB_PATH names a folder without it. */
bool isa_device_lib_dir(char **dir, ll_err *err);
/* The compile flags for it (NULL-terminated, malloc'd; isa_device_lib_flags_free): with dir,
 * -DLANELAB_HIP_OCML=1 and clang's --hip-device-lib options for ocml and the controls the user's
 * flags select (-ffast-math, -ffinite-math-only, ...; as clang picks them); without, -nogpulib. */
char **isa_device_lib_flags(const char *dir, char *const *user, size_t nuser);
void isa_device_lib_flags_free(char **flags);
void isa_toolchain_free(isa_toolchain *t);
/* t->version, found on first use (one `cc --version` run): a compile does not need it, and every
 * `lanelab cc` would otherwise start the compiler once more just to ask. */
const char *isa_toolchain_version(isa_toolchain *t);
/* The folder holding lanelab's hip/hip_runtime.h: $LANELAB_HIP_INCLUDE, else
 * isa_hip_include_fallback when set and it holds the header, else lanelab's data folder
 * hip/include (ll_data_path: PREFIX/share/lanelab once installed, else the source tree the running
 * binary was built in). malloc'd; NULL with LL_EXIT_ENV naming where it looked. */
char *isa_hip_subset_dir(ll_err *err);
/* Set only by the HIP runtime of a program (hip/hip_rtc.c: the hip/include of the tree it was
 * built in), which is not lanelab's binary and has no data folder beside it; NULL in lanelab. */
extern const char *isa_hip_include_fallback;

/* Compiles the HIP source src for arch (gfx942|gfx950) into the code object out_co, and when
 * out_asm is not NULL its disassembly (llvm-objdump -d --no-show-raw-insn --mcpu=ARCH) into
 * out_asm. Flags: the toolchain's, then -O3 -std=c++17, then extra (NULL-terminated, may be
 * NULL; they come last, so they override). Outputs are written atomically and only on success;
 * an existing output that is not a regular file, or a missing output folder, is LL_EXIT_USAGE
 * before anything runs. The compiler's stderr (errors and warnings) is appended to diag (may be
 * NULL). Errors: a missing or unreadable source, or a compile error: LL_EXIT_USAGE (the message
 * says the compiler's own message is in diag); no toolchain: LL_EXIT_ENV. */
bool isa_cc_compile(const char *src, const char *arch, const char *out_co, const char *out_asm,
                    char *const *extra, ll_buf *diag, ll_err *err);
/* The same into DIR/<stem>.co and DIR/<stem>.s (DIR created if missing; stem = the source's base
 * name without its extension). *co_path (may be NULL) gets the code object's path, malloc'd. */
bool isa_cc_compile_into(const char *src, const char *arch, const char *dir, char *const *extra, ll_buf *diag,
                         char **co_path, ll_err *err);
/* "dir/row_softmax.hip" -> "row_softmax" (malloc'd). */
char *isa_cc_stem(const char *src);

/* ---- kernel folders (isa/ccdir.c): how lanelab's own build keeps its code objects ----------
 * A source may restrict its arches with a line `// lanelab-arch: gfx950 [gfx942]` and give the
 * reason with `// lanelab-why: ...`. isa_cc_arch_skip: the reason the source text is not built
 * for arch ("built only for gfx950 (why)", malloc'd), or NULL when it is. */
char *isa_cc_arch_skip(const char *src_text, const char *arch);
/* Builds src for arch into DIR (created if missing) with isa_cc_compile_into: DIR/<stem>.co and
 * DIR/<stem>.s; or, when the source is not for the arch, DIR/<stem>.skip holding
 * "skip <stem> for <arch>: <reason>" (and any .co/.s removed), *skipped (may be NULL) set to the
 * reason. Either way DIR/<stem>.src names the source's absolute path (isa_output_is_stale). This
 * is `lanelab cc SRC --arch A --into DIR`, the command make's kernel and mutant builds and
 * `lanelab mutate` use. Errors as isa_cc_compile. */
bool isa_cc_build_dir(const char *src, const char *arch, const char *dir, char *const *extra, ll_buf *diag,
                      char **skipped, ll_err *err);

/* ---- precompiled headers (isa/pch.c, docs/hip-subset.md "Precompiled headers") -------------
 * The folder to give a HIP compile as `-include-pch DIR` instead of `-include first_header`
 * (malloc'd), or NULL: compile as before. A PCH holds first_header (NULL: none), and
 * hip/hip_runtime.h too when it is the first thing src includes; it is made the second time the
 * same flags are seen, in LANELAB_CACHE_DIR (default $XDG_CACHE_HOME/lanelab, ~/.cache/lanelab),
 * and only used while every file it was made from is unchanged. Never an error: anything it cannot
 * do means NULL. LANELAB_NO_PCH=1: always NULL. */
typedef struct isa_pch_req {
  const char *clang;               /* the compiler */
  char *const *args;               /* every flag of the compile but its input, -o, -c and the
                                      -include (NULL-terminated): the PCH is made with these */
  char *const *user;               /* the user's part of args (NULL-terminated, may be NULL): an
                                      option such as -E, -M, -include or -Xclang means no PCH */
  const char *first_header;        /* what the compile -includes first, or NULL */
  const char *src;                 /* the main file */
  const char *hip_include;         /* lanelab's hip/include folder */
  bool device_only;                /* no host compile (--cuda-device-only) */
} isa_pch_req;
char *isa_pch_find(const isa_pch_req *r);

/* ---- hipcc: whole HIP programs (isa/cc.c, `lanelab hipcc`) -------------------------------------
 * Host and device code in one compile, as ROCm's hipcc does, with Debian's clang-22 against
 * lanelab's HIP headers (hip/include: device subset and the host runtime API) and, when linking,
 * lanelab's HIP runtime (liblanelab.a; docs/hip-runtime.md). Each source is compiled with
 *   -x hip --offload-arch=A... -nogpuinc -mprintf-kind=buffered --no-offload-compress
 *   DEVICE-LIB-FLAGS -I<hip/include> FLAGS...
 * (DEVICE-LIB-FLAGS: isa_device_lib_flags, ROCm's ocml or -nogpulib)
 * (.c sources as C with the same include path and FLAGS). Without compile_only the objects, the
 * given objects and libraries, liblanelab.a and what it needs (libLLVM, libstdc++, libm,
 * pthreads, libdl) are linked into out with LINK_FLAGS. The compiler's messages go to diag. A
 * lanelab built with sanitizers (make SAN=1) links with gcc's g++ and -fsanitize=address,undefined,
 * which its library needs.
 * Errors: no input, an input that is missing or of unknown kind, -o with -c and several sources,
 * an arch other than gfx942/gfx950, -fgpu-rdc: LL_EXIT_USAGE before anything runs; a compile or
 * link error: LL_EXIT_USAGE; no clang-22 or no liblanelab.a: LL_EXIT_ENV. */
typedef struct isa_hipcc_opts {
  char **inputs;                   /* sources (.hip .cu .cpp .cc .cxx .C .c) and .o .a .so files */
  size_t ninputs;
  bool *as_hip;                    /* per input, or NULL: compile it as HIP whatever its name says
                                    * (clang's -x hip before it) */
  const char *out;                 /* -o (NULL: a.out, or STEM.o per source with -c) */
  bool compile_only;               /* -c */
  bool genco;                      /* --genco: device code only, one offload bundle of every arch
                                      (for hipModuleLoad), as ROCm's hipcc --genco */
  const char **arches;             /* --offload-arch values (none: gfx942 and gfx950) */
  size_t narches;
  char **flags;                    /* compile flags, in order (-I -D -U -O -g -std= ...) */
  size_t nflags;
  char **link_flags;               /* link flags, in order (-L -l -Wl,...) */
  size_t nlink;
  const char *runtime_lib;         /* liblanelab.a to link (NULL: found beside the running binary:
                                      BINDIR/lib/ in the build tree, BINDIR/../lib/ once installed) */
  bool shared_runtime;             /* --shared-runtime: link liblanelab_hip.so from that folder
                                      instead, with an rpath to it */
} isa_hipcc_opts;
bool isa_hipcc(const isa_hipcc_opts *o, ll_buf *diag, ll_err *err);

#endif
