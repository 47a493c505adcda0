/* hip/hip_rtc — HIP's runtime compilation (hip/include/hip/hiprtc.h; docs/hip-runtime.md "Runtime
 * compilation"). hiprtcCompileProgram writes the program's source and its named headers into a
 * private folder under /tmp and compiles them with the device-compiler driver `lanelab hipcc` and
 * `lanelab cc` use (isa/cc.c isa_cc_compile: clang-22 or ROCm's, lanelab's HIP headers, ROCm's
 * ocml where installed), for gfx942 or gfx950, into a code object that hipModuleLoadData loads.
 * As HIP's hiprtc does, the source needs no #include for HIP's built-ins (hip/hip_runtime.h comes
 * with -include) and __HIPCC_RTC__ is defined. Name expressions: each is compiled into the program
 * as a device variable holding its address (`__lanelab_rtc_name_N`, external, kept); the loader's
 * relocation of that variable (R_AMDGPU_RELATIVE64, its addend the target's address, or a named
 * R_AMDGPU_ABS64) names the symbol, whose name is the lowered one. Nothing here touches the device
 * or the runtime's state but reading the device's arch for a compile that names none. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hip/include/hip/hiprtc.h"
#include "hip/internal.h"
#include "isa/isa.h"
#include "util/util.h"

#ifndef LANELAB_HIP_INCLUDE_BUILT
#define LANELAB_HIP_INCLUDE_BUILT ""
#endif

struct _hiprtcProgram {
  char *src, *name;
  int nheaders;
  char **headers, **include_names;
  char **exprs, **lowered; /* name expressions as given; after a compile, their lowered names */
  size_t nexprs;
  bool compiled;           /* a compile succeeded: code and lowered names are set */
  ll_buf log;
  void *code;
  size_t ncode;
};

const char *hiprtcGetErrorString(hiprtcResult r) {
  switch (r) {
  case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
  case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
  case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
  case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
  case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
  case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
  case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
  case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
  case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
  case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
  case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
  case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
  case HIPRTC_ERROR_LINKING: return "HIPRTC_ERROR_LINKING";
  }
  return "invalid hiprtcResult";
}

/* The hiprtc of HIP 7.0, which lanelab's headers declare (hip_version.h) */
hiprtcResult hiprtcVersion(int *major, int *minor) {
  if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
  *major = HIP_VERSION_MAJOR, *minor = HIP_VERSION_MINOR;
  return HIPRTC_SUCCESS;
}

/* An include name the program may give a header: relative, no "." or ".." component, no empty
 * one (the file goes under the compile's folder as that path). */
static bool include_name_ok(const char *s) {
  if (!s || !*s || *s == '/') return false;
  for (const char *p = s; *p;) {
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
    p += n + (e ? 1 : 0);
    if (e && !*p) return false;
  }
  return true;
}

static void prog_free(struct _hiprtcProgram *p) {
  free(p->src), free(p->name);
  for (int i = 0; i < p->nheaders; i++) free(p->headers[i]), free(p->include_names[i]);
  free(p->headers), free(p->include_names);
  for (size_t i = 0; i < p->nexprs; i++) free(p->exprs[i]), free(p->lowered ? p->lowered[i] : NULL);
  free(p->exprs), free(p->lowered);
  ll_buf_free(&p->log);
  free(p->code);
  free(p);
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                 const char *const *headers, const char *const *includeNames) {
  if (!prog || !src || numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames)))
    return HIPRTC_ERROR_INVALID_INPUT;
  for (int i = 0; i < numHeaders; i++)
    if (!headers[i] || !include_name_ok(includeNames[i])) return HIPRTC_ERROR_INVALID_INPUT;
  struct _hiprtcProgram *p = ll_xcalloc(1, sizeof *p);
  p->src = ll_xstrdup(src);
  p->name = ll_xstrdup(name && *name ? name : "default_program");
  p->nheaders = numHeaders;
  p->headers = ll_xcalloc((size_t)numHeaders + 1, sizeof *p->headers);
  p->include_names = ll_xcalloc((size_t)numHeaders + 1, sizeof *p->include_names);
  for (int i = 0; i < numHeaders; i++) p->headers[i] = ll_xstrdup(headers[i]), p->include_names[i] = ll_xstrdup(includeNames[i]);
  *prog = p;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog) {
  if (!prog || !*prog) return HIPRTC_ERROR_INVALID_PROGRAM;
  prog_free(*prog);
  *prog = NULL;
  return HIPRTC_SUCCESS;
}

/* "kernel<float>" and "&kernel<float>" name the same thing; spaces at either end do not count */
static char *expr_key(const char *e) {
  while (*e == ' ' || *e == '\t') e++;
  if (*e == '&') e++;
  while (*e == ' ' || *e == '\t') e++;
  size_t n = strlen(e);
  while (n && (e[n - 1] == ' ' || e[n - 1] == '\t')) n--;
  return ll_fmt("%.*s", (int)n, e);
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram p, const char *name_expression) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !*name_expression) return HIPRTC_ERROR_INVALID_INPUT;
  if (p->compiled) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  char *k = expr_key(name_expression);
  if (!*k || strchr(k, '\n') || strchr(k, ';')) {
    free(k);
    return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  }
  for (size_t i = 0; i < p->nexprs; i++)
    if (!strcmp(p->exprs[i], k)) {
      free(k);
      return HIPRTC_SUCCESS;
    }
  p->exprs = ll_xrealloc(p->exprs, (p->nexprs + 1) * sizeof *p->exprs);
  p->exprs[p->nexprs++] = k;
  return HIPRTC_SUCCESS;
}

/* ---- the code object: which symbol a name expression's variable points at ---------------------*/
typedef struct { const uint8_t *b; size_t n; } elf_img;
static uint64_t rd(const elf_img *e, size_t off, int w) {
  uint64_t v = 0;
  if (off + (size_t)w > e->n) return 0;
  memcpy(&v, e->b + off, (size_t)w); /* little endian host and image */
  return v;
}
/* section header i's field at byte f */
static uint64_t sh(const elf_img *e, unsigned i, unsigned f, int w) {
  return rd(e, (size_t)rd(e, 0x28, 8) + (size_t)i * rd(e, 0x3a, 2) + f, w);
}
/* the name of symbol k of symbol table section s, or NULL */
static const char *sym_name(const elf_img *e, unsigned s, uint64_t k) {
  unsigned str = (unsigned)sh(e, s, 0x28, 4);
  uint64_t noff = rd(e, (size_t)(sh(e, s, 0x18, 8) + k * 24), 4), soff = sh(e, str, 0x18, 8), ssz = sh(e, str, 0x20, 8);
  if (noff >= ssz || soff + ssz > e->n) return NULL;
  const char *nm = (const char *)e->b + soff + noff;
  return memchr(nm, 0, (size_t)(ssz - noff)) ? nm : NULL;
}
/* the value of the symbol named nm in section s (a symbol table), or 0 */
static uint64_t sym_value(const elf_img *e, unsigned s, const char *nm) {
  uint64_t n = sh(e, s, 0x20, 8) / 24;
  for (uint64_t k = 1; k < n; k++) {
    const char *x = sym_name(e, s, k);
    if (x && !strcmp(x, nm)) return rd(e, (size_t)(sh(e, s, 0x18, 8) + k * 24 + 8), 8);
  }
  return 0;
}
/* a function or object (not a kernel descriptor, not one of our variables) at address v */
static const char *sym_at(const elf_img *e, unsigned s, uint64_t v) {
  uint64_t n = sh(e, s, 0x20, 8) / 24;
  for (uint64_t k = 1; k < n; k++) {
    size_t o = (size_t)(sh(e, s, 0x18, 8) + k * 24);
    unsigned type = (unsigned)rd(e, o + 4, 1) & 15;
    const char *x = sym_name(e, s, k);
    if ((type == 1 || type == 2) && rd(e, o + 8, 8) == v && x && *x && !strstr(x, ".kd") &&
        strncmp(x, "__lanelab_rtc_name_", 19))
      return x;
  }
  return NULL;
}
static char *lowered_name(const elf_img *e, size_t i) {
  if (e->n < 64 || memcmp(e->b, "\177ELF\2\1", 6)) return NULL;
  unsigned nsec = (unsigned)rd(e, 0x3c, 2), symtab = 0;
  for (unsigned s = 1; s < nsec; s++)
    if (sh(e, s, 4, 4) == 2 /* SHT_SYMTAB */ || (!symtab && sh(e, s, 4, 4) == 11 /* SHT_DYNSYM */)) symtab = s;
  if (!symtab) return NULL;
  char var[48];
  snprintf(var, sizeof var, "__lanelab_rtc_name_%zu", i);
  uint64_t at = sym_value(e, symtab, var);
  if (!at) return NULL;
  for (unsigned s = 1; s < nsec; s++) {
    if (sh(e, s, 4, 4) != 4 /* SHT_RELA */) continue;
    uint64_t off = sh(e, s, 0x18, 8), n = sh(e, s, 0x20, 8) / 24;
    for (uint64_t r = 0; r < n; r++) {
      size_t o = (size_t)(off + r * 24);
      if (rd(e, o, 8) != at) continue;
      uint64_t info = rd(e, o + 8, 8), sym = info >> 32;
      const char *x = sym ? sym_name(e, (unsigned)sh(e, s, 0x28, 4), sym) : sym_at(e, symtab, rd(e, o + 16, 8));
      return x ? ll_xstrdup(x) : NULL;
    }
  }
  return NULL;
}

/* ---- compiling ---------------------------------------------------------------------------------*/
static void add(char ***v, size_t *n, char *s) {
  *v = ll_xrealloc(*v, (*n + 2) * sizeof **v);
  (*v)[(*n)++] = s;
  (*v)[*n] = NULL;
}

/* The options: the target (--gpu-architecture=, --offload-arch=, -arch=; a target ID's features
 * after ':' are the code object's business, as with lanelab hipcc) into arch; the rest to clang,
 * but those that would make something other than one code object. false: the log says why. */
static bool parse_options(struct _hiprtcProgram *p, int n, const char *const *opts, char *arch, size_t narch,
                          char ***extra, size_t *nextra) {
  static const char *const arch_opt[] = {"--gpu-architecture=", "--offload-arch=", "-arch="};
  static const char *const refused[] = {"-o", "-c", "-E", "-S", "-fgpu-rdc", "--cuda-host-only", "--offload-host-only",
                                        "-emit-llvm", "--save-temps", "-save-temps", "-M", "-MD", "-MMD"};
  for (int i = 0; i < n; i++) {
    const char *o = opts[i];
    if (!o || o[0] != '-') {
      ll_buf_printf(&p->log, "lanelab hiprtc: option %d (%s) is not an option\n", i, o ? o : "NULL");
      return false;
    }
    bool is_arch = false;
    for (size_t k = 0; k < sizeof arch_opt / sizeof arch_opt[0] && !is_arch; k++) {
      size_t l = strlen(arch_opt[k]);
      if (strncmp(o, arch_opt[k], l)) continue;
      is_arch = true;
      snprintf(arch, narch, "%.*s", (int)strcspn(o + l, ":"), o + l);
      if (strcmp(arch, "gfx942") && strcmp(arch, "gfx950")) {
        ll_buf_printf(&p->log, "lanelab hiprtc: %s: lanelab emulates gfx942 and gfx950 only\n", o);
        return false;
      }
    }
    if (is_arch) continue;
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
      if (!strcmp(o, refused[k]) || (refused[k][1] == 'o' && !refused[k][2] && !strncmp(o, "-o", 2) && o[2])) {
        ll_buf_printf(&p->log, "lanelab hiprtc: %s is not provided: a compile here makes one code object for "
                      "hipModuleLoadData (docs/hip-runtime.md)\n", o);
        return false;
      }
    add(extra, nextra, ll_xstrdup(o));
  }
  return true;
}

/* writes the source (with the name expressions' variables after it) and the headers under dir */
static bool write_inputs(struct _hiprtcProgram *p, const char *dir, char **src_path) {
  ll_err e = {0};
  for (int i = 0; i < p->nheaders; i++) {
    char *path = ll_path_join(dir, p->include_names[i]), *d = ll_dirname(path);
    bool ok = ll_mkdir_p(d, &e) && ll_write_file_atomic(path, p->headers[i], strlen(p->headers[i]), &e);
    free(path), free(d);
    if (!ok) {
      ll_buf_printf(&p->log, "lanelab hiprtc: header %s: %s\n", p->include_names[i], e.msg);
      return false;
    }
  }
  ll_buf s = {0};
  ll_buf_puts(&s, p->src);
  if (p->nexprs) ll_buf_puts(&s, "\n#line 1 \"<lanelab hiprtc name expressions>\"\n");
  for (size_t i = 0; i < p->nexprs; i++)
    ll_buf_printf(&s, "extern \"C\" __attribute__((used)) __device__ auto *const __lanelab_rtc_name_%zu = &%s;\n", i,
                  p->exprs[i]);
  /* the program's own name as clang's messages show it; a name with a folder keeps its last part */
  const char *base = strrchr(p->name, '/');
  base = base ? base + 1 : p->name;
  if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) base = "default_program";
  *src_path = ll_path_join(dir, base);
  bool ok = ll_write_file_atomic(*src_path, s.data ? s.data : "", s.len, &e);
  if (!ok) ll_buf_printf(&p->log, "lanelab hiprtc: %s: %s\n", p->name, e.msg);
  ll_buf_free(&s);
  return ok;
}

/* clang's messages name files by their paths in the private folder: the log names them as the
 * program did (the folder's prefix dropped) */
static void log_compiler(struct _hiprtcProgram *p, const char *text, size_t len, const char *dir) {
  char *pre = ll_fmt("%s/", dir);
  size_t np = strlen(pre);
  for (size_t i = 0; i < len;) {
    if (len - i >= np && !memcmp(text + i, pre, np)) {
      i += np;
      continue;
    }
    ll_buf_put(&p->log, text + i, 1);
    i++;
  }
  free(pre);
}

static hiprtcResult compile(struct _hiprtcProgram *p, const char *arch, char **extra, const char *dir) {
  char *src = NULL;
  if (!write_inputs(p, dir, &src)) {
    free(src);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  char *co = ll_path_join(dir, "lanelab-rtc.co");
  ll_buf diag = {0};
  ll_err e = {0};
  bool ok = isa_cc_compile(src, arch, co, NULL, extra, &diag, &e);
  log_compiler(p, diag.data, diag.len, dir);
  ll_buf_free(&diag);
  free(src);
  hiprtcResult r = HIPRTC_SUCCESS;
  if (!ok) {
    char *m = ll_fmt("%s\n", e.msg);
    log_compiler(p, m, strlen(m), dir); /* the driver's own line, after the compiler's */
    free(m);
    r = e.code == LL_EXIT_USAGE ? HIPRTC_ERROR_COMPILATION : HIPRTC_ERROR_INTERNAL_ERROR;
  } else {
    size_t n = 0;
    void *code = ll_read_file_max(co, LL_CAP_CODEOBJ, &n, &e);
    if (!code) {
      ll_buf_printf(&p->log, "lanelab hiprtc: reading the code object: %s\n", e.msg);
      r = HIPRTC_ERROR_INTERNAL_ERROR;
    } else {
      elf_img img = {code, n};
      char **low = ll_xcalloc(p->nexprs + 1, sizeof *low);
      for (size_t i = 0; i < p->nexprs && r == HIPRTC_SUCCESS; i++)
        if (!(low[i] = lowered_name(&img, i))) {
          ll_buf_printf(&p->log, "lanelab hiprtc: name expression %s names no kernel or device variable of the "
                        "code object\n", p->exprs[i]);
          r = HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
        }
      if (r == HIPRTC_SUCCESS) {
        p->code = code, p->ncode = n, p->lowered = low, p->compiled = true;
      } else {
        for (size_t i = 0; i < p->nexprs; i++) free(low[i]);
        free(low), free(code);
      }
    }
  }
  free(co);
  return r;
}

/* the arch of a compile that names none: the emulated device's (LANELAB_ARCH, or what lanelab
 * exec chose), as HIP compiles for the current device */
static bool device_arch(char *arch, size_t n) {
  hipError_t b = hip_begin();
  if (b == hipSuccess) snprintf(arch, n, "%s", emu_arch_name(hip_g.arch));
  hip_done(hipSuccess);
  return b == hipSuccess;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram p, int numOptions, const char *const *options) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && !options)) return HIPRTC_ERROR_INVALID_INPUT;
  /* a compile again starts afresh (its own log, code and lowered names) */
  p->log.len = 0;
  if (p->log.data) p->log.data[0] = 0;
  free(p->code), p->code = NULL, p->ncode = 0;
  for (size_t i = 0; p->lowered && i < p->nexprs; i++) free(p->lowered[i]);
  free(p->lowered), p->lowered = NULL, p->compiled = false;
  char arch[32] = "", **extra = NULL;
  size_t nextra = 0;
  if (!parse_options(p, numOptions, options, arch, sizeof arch, &extra, &nextra)) {
    for (size_t i = 0; i < nextra; i++) free(extra[i]);
    free(extra);
    return HIPRTC_ERROR_INVALID_OPTION;
  }
  if (!arch[0] && !device_arch(arch, sizeof arch)) {
    ll_buf_puts(&p->log, "lanelab hiprtc: no --gpu-architecture= and the HIP runtime could not start to say the "
                "device's (its message is above)\n");
    for (size_t i = 0; i < nextra; i++) free(extra[i]);
    free(extra);
    return HIPRTC_ERROR_INVALID_OPTION;
  }
  char dir[] = "/tmp/lanelab-rtc-XXXXXX";
  if (!mkdtemp(dir)) {
    ll_buf_printf(&p->log, "lanelab hiprtc: cannot create a temporary folder in /tmp: %s\n", strerror(errno));
    for (size_t i = 0; i < nextra; i++) free(extra[i]);
    free(extra);
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  /* ours first, the program's after (they override): the headers' folder, HIP's built-ins */
  char **argv = NULL;
  size_t na = 0;
  add(&argv, &na, ll_fmt("-I%s", dir));
  add(&argv, &na, ll_xstrdup("-D__HIPCC_RTC__=1"));
  add(&argv, &na, ll_xstrdup("-include"));
  add(&argv, &na, ll_xstrdup("hip/hip_runtime.h"));
  for (size_t i = 0; i < nextra; i++) add(&argv, &na, extra[i]);
  free(extra);
  /* a program run outside lanelab exec (which sets LANELAB_HIP_INCLUDE) finds lanelab's HIP
   * headers where this runtime was built */
  if (!isa_hip_include_fallback && LANELAB_HIP_INCLUDE_BUILT[0]) isa_hip_include_fallback = LANELAB_HIP_INCLUDE_BUILT;
  hiprtcResult r = compile(p, arch, argv, dir);
  for (size_t i = 0; i < na; i++) free(argv[i]);
  free(argv);
  ll_rm_tree(dir);
  return r;
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram p, const char *name_expression, const char **lowered_name) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
  if (!p->compiled) return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  char *k = expr_key(name_expression);
  hiprtcResult r = HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  for (size_t i = 0; i < p->nexprs; i++)
    if (!strcmp(p->exprs[i], k)) *lowered_name = p->lowered[i], r = HIPRTC_SUCCESS;
  free(k);
  return r;
}

/* The log's size counts its terminating NUL, as NVRTC documents it (HIP is silent): 1 for an
 * empty log (a stated choice, docs/hip-runtime.md). */
hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram p, size_t *n) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!n) return HIPRTC_ERROR_INVALID_INPUT;
  *n = p->log.len + 1;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram p, char *log) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!log) return HIPRTC_ERROR_INVALID_INPUT;
  memcpy(log, p->log.data ? p->log.data : "", p->log.len);
  log[p->log.len] = 0;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram p, size_t *n) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!n) return HIPRTC_ERROR_INVALID_INPUT;
  if (!p->compiled) return HIPRTC_ERROR_INVALID_PROGRAM;
  *n = p->ncode;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCode(hiprtcProgram p, char *code) {
  if (!p) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (!code) return HIPRTC_ERROR_INVALID_INPUT;
  if (!p->compiled) return HIPRTC_ERROR_INVALID_PROGRAM;
  memcpy(code, p->code, p->ncode);
  return HIPRTC_SUCCESS;
}
