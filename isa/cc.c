/* isa/cc — compiling a HIP source into a gfx942/gfx950 code object (`lanelab cc`, and the
 * manifest's sources, lanelab's own kernels through `lanelab cc --into` from make, and lanelab
 * mutate's mutants: lanelab's one device-compiler driver). A ROCm install (>= 6.3, $ROCM_PATH or
 * /opt/rocm) is used with its own HIP headers and device libraries when it compiles a probe for
 * the arch; otherwise Debian's clang-22 with -nogpuinc, ROCm's device math library when
 * installed (below), and lanelab's HIP subset (hip/include, docs/hip-subset.md) on the include
 * path. */
#define _GNU_SOURCE
#include "isa/isa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CC_MAX_CODEOBJ (256u << 20) /* a code object larger than this is not one we made */

static bool is_arch(const char *a) { return a && (!strcmp(a, "gfx942") || !strcmp(a, "gfx950")); }

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *isa_hip_include_fallback;

char *isa_hip_subset_dir(ll_err *err) {
  const char *env = getenv("LANELAB_HIP_INCLUDE");
  if (env && env[0]) {
    char *h = ll_fmt("%s/hip/hip_runtime.h", env);
    bool ok = file_exists(h);
    free(h);
    if (ok) return ll_xstrdup(env);
    ll_seterr(err, LL_EXIT_ENV, "LANELAB_HIP_INCLUDE=%s holds no hip/hip_runtime.h (lanelab's HIP subset)", env);
    return NULL;
  }
  /* a HIP program's runtime compiling at run time (hip/hip_rtc.c): the headers of the tree its
   * runtime was built in, while they are there */
  if (isa_hip_include_fallback) {
    char *h = ll_fmt("%s/hip/hip_runtime.h", isa_hip_include_fallback);
    bool ok = file_exists(h);
    free(h);
    if (ok) return ll_xstrdup(isa_hip_include_fallback);
  }
  /* lanelab's data: PREFIX/share/lanelab/hip/include once installed, else the source tree the
   * running binary was built in (util.h, ll_data_path). */
  char *dir = ll_data_path("hip/include", err);
  if (!dir) return NULL;
  char *h = ll_fmt("%s/hip/hip_runtime.h", dir);
  bool ok = file_exists(h);
  free(h);
  if (ok) return dir;
  ll_seterr(err, LL_EXIT_ENV, "lanelab's HIP subset is missing: no %s/hip/hip_runtime.h; set LANELAB_HIP_INCLUDE to the "
            "hip/include folder of a lanelab checkout", dir);
  free(dir);
  return NULL;
}

/* ---- ROCm's device math library (ocml) --------------------------------------------------------
 * HIP's math functions are calls into ROCm's device library, ocml (LLVM bitcode linked into the
 * device code). Debian packages it as rocm-device-libs (ROCm 5.2.3: ocml.bc and its oclc_*.bc
 * control constants in /usr/lib/x86_64-linux-gnu/amdgcn/bitcode). When it is there, the subset's
 * device compiles link ocml (clang's --hip-device-lib, device side only, only the functions a
 * program calls) and define LANELAB_HIP_OCML, which makes hip/lanelab_hip_math.h provide the math
 * functions it does not compute itself as ocml's (docs/hip-subset.md); without it those are refused
 * by name. LANELAB_DEVICE_LIB_PATH names another folder; set and empty, no device library. */
static const char *const devlib_files[] = {
    "ocml.bc", "oclc_finite_only_on.bc", "oclc_finite_only_off.bc", "oclc_unsafe_math_on.bc",
    "oclc_unsafe_math_off.bc", "oclc_daz_opt_on.bc", "oclc_daz_opt_off.bc", "oclc_correctly_rounded_sqrt_on.bc",
    "oclc_correctly_rounded_sqrt_off.bc", "oclc_isa_version_940.bc", "ockl.bc", "oclc_abi_version_500.bc",
    "oclc_wavefrontsize64_on.bc"};

static bool devlib_complete(const char *dir) {
  for (size_t i = 0; i < sizeof devlib_files / sizeof devlib_files[0]; i++) {
    char *p = ll_fmt("%s/%s", dir, devlib_files[i]);
    bool ok = file_exists(p);
    free(p);
    if (!ok) return false;
  }
  return true;
}

bool isa_device_lib_dir(char **dir, ll_err *err) {
  *dir = NULL;
  const char *env = getenv("LANELAB_DEVICE_LIB_PATH");
  if (env) {
    if (!env[0]) return true;
    if (devlib_complete(env)) return (*dir = ll_xstrdup(env)), true;
    ll_seterr(err, LL_EXIT_ENV, "LANELAB_DEVICE_LIB_PATH=%s does not hold ROCm's device math library (ocml.bc and "
              "its oclc_*.bc controls, as Debian's rocm-device-libs installs them); set it empty for none", env);
    return false;
  }
  static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    if (devlib_complete(dirs[i])) return (*dir = ll_xstrdup(dirs[i])), true;
  return true;
}

/* clang's -fX / -fno-X: the last of the two among flags wins, else dflt */
static bool flag_last(char *const *flags, size_t n, const char *on, const char *off, bool dflt) {
  for (size_t i = n; i-- > 0;) {
    if (!strcmp(flags[i], on)) return true;
    if (!strcmp(flags[i], off)) return false;
  }
  return dflt;
}

char **isa_device_lib_flags(const char *dir, char *const *user, size_t nuser) {
  char **f = ll_xcalloc(13, sizeof *f);
  size_t n = 0;
  if (!dir) {
    f[n++] = ll_xstrdup("-nogpulib");
    return f;
  }
  /* the controls as clang's ROCm toolchain picks them from the same options (clang/lib/Driver/
   * ToolChains/AMDGPU.cpp): -ffast-math implies finite-only and unsafe math; correctly rounded
   * sqrt unless -fno-hip-fp32-correctly-rounded-divide-sqrt; DAZ with -fgpu-flush-denormals-to-zero.
   * ISA version: gfx940's file for both arches; ocml 5.2.3 only tests it against 8000 and 8999. */
  const bool fast = flag_last(user, nuser, "-ffast-math", "-fno-fast-math", false);
  const bool finite = fast || flag_last(user, nuser, "-ffinite-math-only", "-fno-finite-math-only", false);
  const bool unsafe = fast || flag_last(user, nuser, "-funsafe-math-optimizations", "-fno-unsafe-math-optimizations", false);
  const bool daz = flag_last(user, nuser, "-fgpu-flush-denormals-to-zero", "-fno-gpu-flush-denormals-to-zero", false);
  const bool sqrt_cr = flag_last(user, nuser, "-fhip-fp32-correctly-rounded-divide-sqrt",
                                 "-fno-hip-fp32-correctly-rounded-divide-sqrt", true);
  f[n++] = ll_xstrdup("-DLANELAB_HIP_OCML=1");
  f[n++] = ll_fmt("--hip-device-lib-path=%s", dir);
  f[n++] = ll_xstrdup("--hip-device-lib=ocml.bc");
  f[n++] = ll_xstrdup("--hip-device-lib=ockl.bc"); /* the device heap (malloc/free) and hostcall */
  f[n++] = ll_fmt("--hip-device-lib=oclc_finite_only_%s.bc", finite ? "on" : "off");
  f[n++] = ll_fmt("--hip-device-lib=oclc_unsafe_math_%s.bc", unsafe ? "on" : "off");
  f[n++] = ll_fmt("--hip-device-lib=oclc_daz_opt_%s.bc", daz ? "on" : "off");
  f[n++] = ll_fmt("--hip-device-lib=oclc_correctly_rounded_sqrt_%s.bc", sqrt_cr ? "on" : "off");
  f[n++] = ll_xstrdup("--hip-device-lib=oclc_isa_version_940.bc");
  /* ockl's controls: code object v5's implicit arguments (clang-22 emits v5: hidden_hostcall_buffer
   * and hidden_heap_v1 where ockl reads them) and 64-lane waves */
  f[n++] = ll_xstrdup("--hip-device-lib=oclc_abi_version_500.bc");
  f[n++] = ll_xstrdup("--hip-device-lib=oclc_wavefrontsize64_on.bc");
  return f;
}

void isa_device_lib_flags_free(char **f) {
  for (size_t i = 0; f && f[i]; i++) free(f[i]);
  free(f);
}

void isa_toolchain_free(isa_toolchain *t) {
  if (!t) return;
  free(t->cc);
  for (size_t i = 0; i < t->nflags; i++) free(t->flags[i]);
  free(t->flags);
  free(t->version);
  free(t->hip_include);
  free(t->device_lib);
  free(t);
}

static void add_flag(isa_toolchain *t, char *f) {
  t->flags = ll_xrealloc(t->flags, (t->nflags + 2) * sizeof *t->flags);
  t->flags[t->nflags++] = f;
  t->flags[t->nflags] = NULL;
}

static char *first_line(char *const argv[]) {
  ll_buf out = {0};
  ll_err e = {0};
  int rc = isa_run(argv, NULL, NULL, &out, NULL, &e);
  char *line = NULL;
  if (rc == 0 && out.len) {
    const char *s = ll_buf_str(&out);
    line = ll_xstrdup(s);
    line[strcspn(line, "\n")] = 0;
  }
  ll_buf_free(&out);
  return line ? line : ll_xstrdup("unknown version");
}

/* ROCm's major.minor from ROOT/.info/version ("6.3.0-39"); false when absent or unreadable. */
static bool rocm_version(const char *root, int *major, int *minor) {
  char *p = ll_fmt("%s/.info/version", root);
  FILE *f = fopen(p, "r");
  free(p);
  if (!f) return false;
  bool ok = fscanf(f, "%d.%d", major, minor) == 2;
  fclose(f);
  return ok;
}

/* Runs cc with t's flags on a probe that includes hip/hip_runtime.h; true if it compiles. */
static bool probe(const isa_toolchain *t) {
  char dir[] = "/tmp/lanelab-cc-probe-XXXXXX";
  if (!mkdtemp(dir)) return false;
  char *src = ll_fmt("%s/p.hip", dir), *co = ll_fmt("%s/p.co", dir);
  const char *text = "#include <hip/hip_runtime.h>\n"
                     "__global__ void lanelab_probe(float *p) { p[threadIdx.x] = __shfl_xor(p[0], 1); }\n";
  ll_err e = {0};
  bool ok = ll_write_file_atomic(src, text, strlen(text), &e);
  if (ok) {
    size_t n = 0;
    char **argv = ll_xcalloc(t->nflags + 8, sizeof *argv);
    argv[n++] = t->cc;
    for (size_t i = 0; i < t->nflags; i++) argv[n++] = t->flags[i];
    argv[n++] = "-O1";
    argv[n++] = "-o";
    argv[n++] = co;
    argv[n++] = src;
    ok = isa_run(argv, NULL, NULL, NULL, NULL, &e) == 0 && file_exists(co);
    free(argv);
  }
  unlink(co);
  unlink(src);
  rmdir(dir);
  free(src);
  free(co);
  return ok;
}

static isa_toolchain *rocm_toolchain(const char *arch) {
  const char *root = getenv("ROCM_PATH");
  if (!root || !root[0]) root = "/opt/rocm";
  int major = 0, minor = 0;
  if (!rocm_version(root, &major, &minor) || major < 6 || (major == 6 && minor < 3)) return NULL;
  const char *cands[] = {"bin/hipcc", "llvm/bin/clang"};
  for (size_t i = 0; i < 2; i++) {
    char *cc = ll_fmt("%s/%s", root, cands[i]);
    if (access(cc, X_OK) != 0) {
      free(cc);
      continue;
    }
    isa_toolchain *t = ll_xcalloc(1, sizeof *t);
    snprintf(t->arch, sizeof t->arch, "%s", arch);
    t->cc = cc;
    add_flag(t, ll_xstrdup("-x"));
    add_flag(t, ll_xstrdup("hip"));
    add_flag(t, ll_fmt("--offload-arch=%s", arch));
    add_flag(t, ll_xstrdup("--cuda-device-only"));
    add_flag(t, ll_xstrdup("--no-gpu-bundle-output"));
    if (i == 1) add_flag(t, ll_fmt("--rocm-path=%s", root));
    if (probe(t)) return t;
    isa_toolchain_free(t);
  }
  return NULL;
}

isa_toolchain *isa_toolchain_find(const char *arch, ll_err *err) {
  if (!is_arch(arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown arch '%s': expected gfx942 or gfx950", arch ? arch : "(none)");
    return NULL;
  }
  isa_toolchain *t = rocm_toolchain(arch);
  if (t) return t;
  char *clang = isa_llvm_tool("clang", err);
  if (!clang) {
    const char *dir = getenv("LANELAB_LLVM_BIN");
    ll_seterr(err, LL_EXIT_ENV,
              "no compiler can target %s here: no ROCm >= 6.3 ($ROCM_PATH or /opt/rocm) and no clang in %s; install "
              "Debian's clang-22 and lld-22 (apt-get install -y clang-22 lld-22)%s",
              arch, dir && dir[0] ? dir : "/usr/lib/llvm-22/bin", dir && dir[0] ? " or fix LANELAB_LLVM_BIN" : "");
    return NULL;
  }
  char *lld = isa_llvm_tool("ld.lld", err);
  if (!lld) {
    free(clang);
    ll_err_prefix(err, "clang-22 needs its linker to make a %s code object (apt-get install -y lld-22)", arch);
    return NULL;
  }
  char *inc = isa_hip_subset_dir(err);
  if (!inc) {
    free(clang);
    free(lld);
    return NULL;
  }
  char *devlib = NULL;
  if (!isa_device_lib_dir(&devlib, err)) {
    free(clang);
    free(lld);
    free(inc);
    return NULL;
  }
  t = ll_xcalloc(1, sizeof *t);
  snprintf(t->arch, sizeof t->arch, "%s", arch);
  t->cc = clang;
  t->subset = true;
  t->hip_include = inc;
  t->device_lib = devlib;
  /* -mprintf-kind=buffered: device printf writes records the runtime prints after the launch
   * (runtime/rt_printf.c); clang's default (hostcall) needs ROCm's device library. */
  /* -nogpulib, or ROCm's device math library, comes with each compile (isa_device_lib_flags) */
  const char *fixed[] = {"-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "-nogpuinc",
                         "-fuse-ld=lld", "-mprintf-kind=buffered"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) add_flag(t, ll_xstrdup(fixed[i]));
  add_flag(t, ll_fmt("--offload-arch=%s", arch));
  add_flag(t, ll_fmt("--ld-path=%s", lld));
  add_flag(t, ll_fmt("-I%s", inc));
  free(lld);
  return t;
}

const char *isa_toolchain_version(isa_toolchain *t) {
  if (!t->version) {
    char *argv[] = {t->cc, "--version", NULL};
    t->version = first_line(argv);
  }
  return t->version;
}

/* The code object and the disassembly are made in a private temporary folder and only then
 * written to their paths (atomically), so a failed compile leaves nothing behind. */
static bool check_output_path(const char *path, ll_err *err) {
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "output %s exists and is not a regular file; refusing to replace it", path);
    return false;
  }
  char *dir = ll_dirname(path);
  bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
  if (!ok) ll_seterr(err, LL_EXIT_USAGE, "output %s: folder %s does not exist", path, dir);
  free(dir);
  return ok;
}

bool isa_cc_compile(const char *src, const char *arch, const char *out_co, const char *out_asm,
                    char *const *extra, ll_buf *diag, ll_err *err) {
  struct stat st;
  if (stat(src, &st) != 0 || !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "source %s: %s", src, stat(src, &st) != 0 ? strerror(errno) : "not a regular file");
    return false;
  }
  if (!check_output_path(out_co, err) || (out_asm && !check_output_path(out_asm, err))) return false;
  isa_toolchain *t = isa_toolchain_find(arch, err);
  if (!t) return false;
  char *objdump = out_asm ? isa_llvm_tool("llvm-objdump", err) : NULL;
  if (out_asm && !objdump) {
    isa_toolchain_free(t);
    return false;
  }
  bool ok = false;
  char dir[] = "/tmp/lanelab-cc-XXXXXX";
  if (!mkdtemp(dir)) {
    ll_seterr(err, LL_EXIT_ENV, "cannot create a temporary folder in /tmp: %s", strerror(errno));
    goto done;
  }
  char *tmp = ll_fmt("%s/out.co", dir);
  size_t nextra = 0;
  while (extra && extra[nextra]) nextra++;
  char **argv = ll_xcalloc(t->nflags + nextra + 20, sizeof *argv);
  size_t n = 0;
  argv[n++] = t->cc;
  for (size_t i = 0; i < t->nflags; i++) argv[n++] = t->flags[i];
  char **libf = t->subset ? isa_device_lib_flags(t->device_lib, extra, nextra) : NULL;
  for (size_t i = 0; libf && libf[i]; i++) argv[n++] = libf[i];
  argv[n++] = "-O3";
  argv[n++] = "-std=c++17";
  for (size_t i = 0; i < nextra; i++) argv[n++] = extra[i]; /* after ours, so they override */
  /* lanelab's hip_runtime.h precompiled when the source includes it first (isa/pch.c): the same
   * translation unit, read in a tenth of the time */
  char *pch = t->subset ? isa_pch_find(&(isa_pch_req){.clang = t->cc, .args = argv + 1, .user = extra, .src = src,
                                                      .hip_include = t->hip_include, .device_only = true})
                        : NULL;
  if (pch) argv[n++] = "-include-pch", argv[n++] = pch;
  argv[n++] = "-o";
  argv[n++] = tmp;
  argv[n++] = (char *)src;
  ll_buf cerr = {0};
  int rc = isa_run(argv, NULL, NULL, NULL, &cerr, err);
  free(argv);
  isa_device_lib_flags_free(libf);
  free(pch);
  if (diag && cerr.len) ll_buf_put(diag, cerr.data, cerr.len);
  ll_buf_free(&cerr);
  if (rc < 0) goto cleanup;
  if (rc != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "compiling %s for %s failed (%s exit %d; its message is above)", src, arch, t->cc, rc);
    goto cleanup;
  }
  if (stat(tmp, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > CC_MAX_CODEOBJ) {
    ll_seterr(err, LL_EXIT_ENV, "%s exited 0 but wrote no code object of at most %u bytes for %s", t->cc,
              CC_MAX_CODEOBJ, src);
    goto cleanup;
  }
  size_t size = 0;
  void *bytes = ll_read_file(tmp, &size, err);
  if (!bytes) goto cleanup;
  ll_buf asm_text = {0};
  if (out_asm) {
    char *mcpu = ll_fmt("--mcpu=%s", arch);
    char *dargv[] = {objdump, "-d", "--no-show-raw-insn", mcpu, tmp, NULL};
    ll_buf derr = {0};
    int drc = isa_run(dargv, NULL, NULL, &asm_text, &derr, err);
    free(mcpu);
    if (drc != 0) {
      if (drc > 0)
        ll_seterr(err, LL_EXIT_ENV, "llvm-objdump failed on the code object of %s (exit %d): %s", src, drc,
                  ll_buf_str(&derr));
      ll_buf_free(&derr);
      ll_buf_free(&asm_text);
      free(bytes);
      goto cleanup;
    }
    ll_buf_free(&derr);
  }
  ok = ll_write_file_atomic(out_co, bytes, size, err) &&
       (!out_asm || ll_write_file_atomic(out_asm, asm_text.data ? asm_text.data : "", asm_text.len, err));
  free(bytes);
  ll_buf_free(&asm_text);
cleanup:
  unlink(tmp);
  rmdir(dir);
  free(tmp);
done:
  free(objdump);
  isa_toolchain_free(t);
  return ok;
}

char *isa_cc_stem(const char *src) {
  const char *b = strrchr(src, '/');
  b = b ? b + 1 : src;
  char *s = ll_xstrdup(b);
  char *dot = strrchr(s, '.');
  if (dot && dot != s) *dot = 0;
  return s;
}

bool isa_cc_compile_into(const char *src, const char *arch, const char *dir, char *const *extra, ll_buf *diag,
                         char **co_path, ll_err *err) {
  if (!is_arch(arch)) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown arch '%s': expected gfx942 or gfx950", arch ? arch : "(none)");
    return false;
  }
  /* the folders made here are removed again when the compile fails (only while empty), so a failed
   * `lanelab cc --arch all -o out` leaves no empty out/gfx942 behind */
  char *top = NULL; /* the outermost folder of dir that does not exist yet */
  for (char *p = ll_xstrdup(dir);;) {
    struct stat st;
    if (stat(p, &st) == 0) {
      free(p);
      break;
    }
    free(top);
    top = ll_xstrdup(p);
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) {
      free(p);
      break;
    }
    *slash = 0;
  }
  if (!ll_mkdir_p(dir, err)) {
    free(top);
    return false;
  }
  char *stem = isa_cc_stem(src);
  char *co = ll_fmt("%s/%s.co", dir, stem), *s = ll_fmt("%s/%s.s", dir, stem);
  free(stem);
  bool ok = isa_cc_compile(src, arch, co, s, extra, diag, err);
  free(s);
  if (!ok && top) {
    char *p = ll_xstrdup(dir);
    for (size_t n = strlen(top); strlen(p) >= n && rmdir(p) == 0 && strlen(p) > n;) {
      char *slash = strrchr(p, '/');
      if (!slash) break;
      *slash = 0;
    }
    free(p);
  }
  free(top);
  if (ok && co_path) *co_path = co;
  else free(co);
  return ok;
}

/* ---- hipcc ------------------------------------------------------------------------------------*/
typedef enum { IN_HIP, IN_C, IN_LINK } input_kind;

/* A target ID of an emulated arch (AMDGPUUsage "Target ID"): gfx942 or gfx950, then at most one
 * of each feature setting `:sramecc+`/`:sramecc-` and `:xnack+`/`:xnack-`, as --offload-arch takes
 * them. The code objects carry the setting; the emulator runs them alike. */
static bool is_target_id(const char *t) {
  if (strncmp(t, "gfx942", 6) && strncmp(t, "gfx950", 6)) return false;
  const char *p = t + 6;
  bool sram = false, xnack = false;
  while (*p == ':') {
    p++;
    bool *seen = !strncmp(p, "sramecc", 7) ? &sram : !strncmp(p, "xnack", 5) ? &xnack : NULL;
    if (!seen || *seen) return false;
    p += seen == &sram ? 7 : 5;
    if (*p != '+' && *p != '-') return false;
    *seen = true, p++;
  }
  return *p == 0;
}

static bool input_kind_of(const char *p, input_kind *k) {
  const char *dot = strrchr(p, '.');
  const char *slash = strrchr(p, '/');
  if (!dot || (slash && dot < slash)) return false;
  static const char *hip[] = {".hip", ".cu", ".cpp", ".cc", ".cxx", ".C", ".c++"};
  for (size_t i = 0; i < sizeof hip / sizeof hip[0]; i++)
    if (!strcmp(dot, hip[i])) return *k = IN_HIP, true;
  if (!strcmp(dot, ".c")) return *k = IN_C, true;
  if (!strcmp(dot, ".o") || !strcmp(dot, ".a") || !strcmp(dot, ".so")) return *k = IN_LINK, true;
  if (strstr(p, ".so.")) return *k = IN_LINK, true;
  return false;
}

#ifndef LANELAB_HIPCC_SAN
#define LANELAB_HIPCC_SAN 0
#endif

/* liblanelab.a (or liblanelab_hip.so) beside the running binary: BINDIR/lib (build tree),
 * BINDIR/../lib (installed). */
static char *runtime_lib(const char *name, ll_err *err) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    ll_seterr(err, LL_EXIT_ENV, "cannot find lanelab's own binary (/proc/self/exe: %s)", strerror(errno));
    return NULL;
  }
  exe[n] = 0;
  char *bin = ll_dirname(exe);
  char *cand[2] = {ll_fmt("%s/lib/%s", bin, name), ll_fmt("%s/../lib/%s", bin, name)};
  free(bin);
  char *found = NULL;
  for (int i = 0; i < 2; i++) {
    if (!found && file_exists(cand[i])) found = cand[i];
    else free(cand[i]);
  }
  if (!found)
    ll_seterr(err, LL_EXIT_ENV, "lanelab's HIP runtime library is missing: no %s in lib/ beside or above %s "
              "(run make%s, or make install)", name, exe, strstr(name, ".so") ? " shared" : "");
  return found;
}

static int run_logged(char **argv, ll_buf *diag, ll_err *err) {
  ll_buf cerr = {0};
  int rc = isa_run(argv, NULL, NULL, NULL, &cerr, err);
  if (diag && cerr.len) ll_buf_put(diag, cerr.data, cerr.len);
  ll_buf_free(&cerr);
  return rc;
}

typedef struct argv_b { char **v; size_t n, cap; } argv_b;
static void argv_add(argv_b *a, const char *s) {
  if (a->n + 2 > a->cap) a->cap = a->cap ? 2 * a->cap : 32, a->v = ll_xrealloc(a->v, a->cap * sizeof *a->v);
  a->v[a->n++] = (char *)s;
  a->v[a->n] = NULL;
}

bool isa_hipcc(const isa_hipcc_opts *o, ll_buf *diag, ll_err *err) {
  if (!o->ninputs) {
    ll_seterr(err, LL_EXIT_USAGE, "no input files");
    return false;
  }
  size_t nsrc = 0;
  input_kind *kinds = ll_xcalloc(o->ninputs, sizeof *kinds);
  for (size_t i = 0; i < o->ninputs; i++) {
    const char *p = o->inputs[i];
    struct stat st;
    if (o->as_hip && o->as_hip[i]) {
      kinds[i] = IN_HIP;
    } else if (!input_kind_of(p, &kinds[i])) {
      ll_seterr(err, LL_EXIT_USAGE, "%s: unknown kind of input (expected a source .hip .cu .cpp .cc .cxx .c, or .o .a .so)", p);
      free(kinds);
      return false;
    }
    if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
      ll_seterr(err, LL_EXIT_USAGE, "%s: %s", p, stat(p, &st) != 0 ? strerror(errno) : "not a regular file");
      free(kinds);
      return false;
    }
    if (kinds[i] != IN_LINK) nsrc++;
  }
  for (size_t i = 0; i < o->narches; i++)
    if (!is_target_id(o->arches[i])) {
      ll_seterr(err, LL_EXIT_USAGE, "--offload-arch=%s: lanelab emulates gfx942 and gfx950 (a target ID may add "
                ":sramecc+/- and :xnack+/-)", o->arches[i]);
      free(kinds);
      return false;
    }
  /* -fgpu-rdc: relocatable device code. Each source compiles with clang's new offload driver (its
   * device code kept as LLVM IR in the object), and the link runs clang's linker wrapper: one device
   * link per arch (LTO in one partition, so each code object has one metadata note) bundled into the
   * program, which registers it as any HIP program does (hip/hip_code.c). */
  bool rdc = false;
  for (size_t i = 0; i < o->nflags; i++) rdc |= !strcmp(o->flags[i], "-fgpu-rdc");
  if (rdc && (o->genco || LANELAB_HIPCC_SAN)) {
    ll_seterr(err, LL_EXIT_USAGE, "-fgpu-rdc %s", o->genco ? "with --genco: a code object for hipModuleLoad is linked "
              "whole; compile it without -fgpu-rdc" : "is not available in lanelab's sanitizer build (its link is g++'s)");
    free(kinds);
    return false;
  }
  if (o->genco && (nsrc != 1 || nsrc != o->ninputs)) {
    ll_seterr(err, LL_EXIT_USAGE, "--genco takes exactly one source (and no objects)");
    free(kinds);
    return false;
  }
  if (o->compile_only && o->out && nsrc > 1) {
    ll_seterr(err, LL_EXIT_USAGE, "-o %s with -c and %zu sources: give one source, or no -o", o->out, nsrc);
    free(kinds);
    return false;
  }
  if (o->compile_only && nsrc == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "-c with no source to compile");
    free(kinds);
    return false;
  }
  bool ok = false;
  char *clang = isa_llvm_tool("clang++", err), *inc = NULL, *lib = NULL;
  char tmpdir[] = "/tmp/lanelab-hipcc-XXXXXX";
  bool have_tmp = false;
  char **objs = ll_xcalloc(o->ninputs, sizeof *objs);
  char *devlib = NULL, **libf = NULL;
  if (!clang || !(inc = isa_hip_subset_dir(err)) || !isa_device_lib_dir(&devlib, err)) goto done;
  libf = isa_device_lib_flags(devlib, o->flags, o->nflags);
  free(devlib);
  bool link = !o->compile_only && !o->genco;
  if (link && !(lib = o->runtime_lib ? ll_xstrdup(o->runtime_lib)
                                      : runtime_lib(o->shared_runtime ? "liblanelab_hip.so" : "liblanelab.a", err)))
    goto done;
  if (link) {
    if (!mkdtemp(tmpdir)) {
      ll_seterr(err, LL_EXIT_ENV, "cannot create a temporary folder in /tmp: %s", strerror(errno));
      goto done;
    }
    have_tmp = true;
  }
  char *incflag = ll_fmt("-I%s", inc);
  char **archflags = ll_xcalloc(o->narches ? o->narches : 2, sizeof *archflags);
  size_t na = o->narches ? o->narches : 2;
  for (size_t i = 0; i < na; i++) archflags[i] = ll_fmt("--offload-arch=%s", o->narches ? o->arches[i] : i ? "gfx950" : "gfx942");
  bool compiled = true;
  for (size_t i = 0; i < o->ninputs && compiled; i++) {
    if (kinds[i] == IN_LINK) continue;
    char *stem = isa_cc_stem(o->inputs[i]);
    objs[i] = o->genco ? ll_xstrdup(o->out ? o->out : "a.co")
              : o->compile_only ? (o->out ? ll_xstrdup(o->out) : ll_fmt("%s.o", stem)) : ll_fmt("%s/%zu-%s.o", tmpdir, i, stem);
    free(stem);
    argv_b a = {0};
    argv_add(&a, clang);
    /* -S or -E (lanelab hipcc: compile only): clang stops there, so no -c, and no object is
     * bundled, so no --no-offload-compress (either would be an unused-argument warning) */
    bool early = false;
    for (size_t k = 0; k < o->nflags; k++) early |= !strcmp(o->flags[k], "-S") || !strcmp(o->flags[k], "-E");
    if (kinds[i] == IN_HIP) {
      argv_add(&a, "-x"), argv_add(&a, "hip");
      for (size_t k = 0; k < na; k++) argv_add(&a, archflags[k]);
      static const char *fixed[] = {"-nogpuinc", "-mprintf-kind=buffered", "--no-offload-compress"};
      /* the new driver bundles nothing at compile time: --no-offload-compress would be unused */
      for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] - (rdc || early); k++) argv_add(&a, fixed[k]);
      for (size_t k = 0; libf[k]; k++) argv_add(&a, libf[k]); /* -nogpulib or ROCm's ocml */
      if (rdc) argv_add(&a, "--offload-new-driver");
      if (o->genco) argv_add(&a, "--cuda-device-only"), argv_add(&a, "--gpu-bundle-output");
    } else {
      argv_add(&a, "-x"), argv_add(&a, "c");
    }
    argv_add(&a, incflag);
    char *prelude = kinds[i] == IN_HIP ? ll_fmt("%s/hip/lanelab_hip_prelude.h", inc) : NULL;
    size_t at_include = a.n;
    if (prelude) argv_add(&a, "-include"), argv_add(&a, prelude);
    /* -O3 unless the program says otherwise (lanelab's choice): unoptimized device code keeps
     * every local in private (scratch) memory, which the emulator models but runs slowly */
    bool has_o = false;
    for (size_t k = 0; k < o->nflags; k++) has_o |= !strncmp(o->flags[k], "-O", 2);
    if (!has_o) argv_add(&a, "-O3");
    for (size_t k = 0; k < o->nflags; k++) argv_add(&a, o->flags[k]);
    /* the prelude (and hip_runtime.h when the source includes it first) precompiled (isa/pch.c):
     * the same translation unit, read in a tenth of the time */
    char *pch = NULL;
    if (prelude) {
      argv_b flags = {0}, user = {0};
      for (size_t k = 1; k < a.n; k++)
        if (k != at_include && k != at_include + 1) argv_add(&flags, a.v[k]);
      for (size_t k = 0; k < o->nflags; k++) argv_add(&user, o->flags[k]);
      pch = isa_pch_find(&(isa_pch_req){.clang = clang, .args = flags.v, .user = user.v, .first_header = prelude,
                                        .src = o->inputs[i], .hip_include = inc, .device_only = o->genco});
      if (pch) a.v[at_include] = "-include-pch", a.v[at_include + 1] = pch;
      free(flags.v), free(user.v);
    }
    if (!o->genco && !early) argv_add(&a, "-c");
    argv_add(&a, o->inputs[i]), argv_add(&a, "-o"), argv_add(&a, objs[i]);
    int rc = run_logged(a.v, diag, err);
    free(a.v);
    free(prelude);
    free(pch);
    if (rc != 0) {
      if (rc > 0) ll_seterr(err, LL_EXIT_USAGE, "compiling %s failed (clang++ exit %d; its message is above)", o->inputs[i], rc);
      compiled = false;
    }
  }
  if (compiled && link) {
    argv_b a = {0};
    argv_add(&a, LANELAB_HIPCC_SAN ? "g++" : clang);
    if (LANELAB_HIPCC_SAN) argv_add(&a, "-fsanitize=address,undefined");
    /* The host link uses LLVM's lld, which the device link needs anyway (lld-22 is a dependency):
     * a program's link took 0.95 s with the system's bfd ld and 0.14 s with lld. A -fuse-ld= or
     * --ld-path= the user gave wins. (The sanitizer build links with g++, which finds no ld.lld.) */
    bool user_ld = false;
    for (size_t k = 0; k < o->nlink; k++)
      user_ld |= !strncmp(o->link_flags[k], "-fuse-ld=", 9) || !strncmp(o->link_flags[k], "--ld-path=", 10);
    if (!LANELAB_HIPCC_SAN && !user_ld) argv_add(&a, "-fuse-ld=lld");
    if (rdc) {
      /* the device link; -no-hip-rt: the runtime is lanelab's, never a libamdhip64 on the system */
      static const char *dl[] = {"--offload-new-driver", "-fgpu-rdc", "--hip-link", "-no-hip-rt", "-flto-partitions=1"};
      for (size_t k = 0; k < sizeof dl / sizeof dl[0]; k++) argv_add(&a, dl[k]);
      for (size_t k = 0; k < na; k++) argv_add(&a, archflags[k]);
    }
    for (size_t i = 0; i < o->ninputs; i++) argv_add(&a, kinds[i] == IN_LINK ? o->inputs[i] : objs[i]);
    char *libdir = NULL, *lib_rpath = NULL;
    if (o->shared_runtime) {
      libdir = ll_dirname(lib);
      char *l = ll_fmt("-L%s", libdir);
      lib_rpath = ll_fmt("-Wl,-rpath,%s", libdir);
      free(libdir);
      libdir = l;
      argv_add(&a, libdir), argv_add(&a, "-llanelab_hip"), argv_add(&a, lib_rpath);
    } else {
      argv_add(&a, lib);
    }
    for (size_t k = 0; k < o->nlink; k++) argv_add(&a, o->link_flags[k]);
    /* what liblanelab.a needs (the Makefile's LDLIBS): libLLVM from the LLVM the tools come from */
    char *llvm_bin = ll_dirname(clang), *llvm_lib = ll_fmt("-L%s/../lib", llvm_bin),
         *rpath = ll_fmt("-Wl,-rpath,%s/../lib", llvm_bin);
    argv_add(&a, llvm_lib), argv_add(&a, rpath);
    static const char *libs[] = {"-lLLVM", "-lstdc++", "-lm", "-lpthread", "-ldl"};
    for (size_t k = 0; k < sizeof libs / sizeof libs[0]; k++) argv_add(&a, libs[k]);
    argv_add(&a, "-o"), argv_add(&a, o->out ? o->out : "a.out");
    int rc = run_logged(a.v, diag, err);
    free(a.v), free(llvm_bin), free(llvm_lib), free(rpath), free(libdir), free(lib_rpath);
    if (rc > 0) ll_seterr(err, LL_EXIT_USAGE, "linking %s failed (clang++ exit %d; its message is above)", o->out ? o->out : "a.out", rc);
    ok = rc == 0;
  } else {
    ok = compiled;
  }
  for (size_t i = 0; i < na; i++) free(archflags[i]);
  free(archflags);
  free(incflag);
done:
  for (size_t i = 0; i < o->ninputs; i++) {
    if (objs[i] && have_tmp) unlink(objs[i]);
    free(objs[i]);
  }
  if (have_tmp) rmdir(tmpdir);
  free(objs);
  free(kinds);
  free(clang);
  free(inc);
  free(lib);
  isa_device_lib_flags_free(libf);
  return ok;
}
