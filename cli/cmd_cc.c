/* cli/cmd_cc — `lanelab cc [SRC.hip] [--arch gfx942|gfx950|all] (-o OUT | --into DIR |
 * --print-toolchain) [-- CLANG_FLAGS]` (README.md "Command line"). Argument parsing only; the
 * compile is isa_cc_compile (isa/cc.c), lanelab's one device-compiler driver. One arch: OUT is the
 * code object. all (the default): OUT is a folder holding <arch>/<stem>.co and <arch>/<stem>.s for
 * gfx942 and gfx950. --into DIR keeps a kernel folder as lanelab's own build does (isa_cc_build_dir:
 * the `// lanelab-arch:` skip, the .src sidecar); make's kernel and mutant builds use it.
 * --print-toolchain prints the compiler and flags chosen for the arch (make keeps it in
 * BUILD/toolchain-ARCH.txt and rebuilds the kernels when it changes). The compiler's messages are
 * passed through to stderr; a compile error is exit 2, a missing compiler or HIP subset exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/util.h"

static const char *usage =
    "usage: lanelab cc [SRC.hip] [--arch gfx942|gfx950|all] (-o OUT | --into DIR | --print-toolchain) "
    "[-- CLANG_FLAGS...]\n"
    "  one arch: OUT is the code object; all (default): OUT/<arch>/<stem>.co and .s";

static int usage_err(const char *what) {
  fprintf(stderr, "lanelab: cc: %s\n%s\n", what, usage);
  return LL_EXIT_USAGE;
}

/* Passes the compiler's messages through, then reports err. */
static int finish(ll_buf *diag, ll_err *e, bool ok) {
  if (diag->len) fputs(ll_buf_str(diag), stderr);
  ll_buf_free(diag);
  return ok ? LL_EXIT_OK : ll_report(e);
}

/* The toolchain of each arch, one "key: value" line each (what make compares between builds). */
static int print_toolchain(const char *const *arches, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ll_err e = {0};
    isa_toolchain *t = isa_toolchain_find(arches[i], &e);
    if (!t) return ll_report(&e);
    printf("arch: %s\ncc: %s\nversion: %s\nflags:", t->arch, t->cc, isa_toolchain_version(t));
    for (size_t f = 0; f < t->nflags; f++) printf(" %s", t->flags[f]);
    char **lib = t->subset ? isa_device_lib_flags(t->device_lib, NULL, 0) : NULL;
    for (size_t f = 0; lib && lib[f]; f++) printf(" %s", lib[f]);
    isa_device_lib_flags_free(lib);
    printf(" -O3 -std=c++17\n");
    isa_toolchain_free(t);
  }
  return LL_EXIT_OK;
}

int cmd_cc(int argc, char **argv) {
  const char *src = NULL, *arch = "all", *out = NULL, *into = NULL;
  bool print_tc = false;
  char **extra = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      extra = argv + i + 1; /* argv[argc] is NULL: a NULL-terminated list */
      break;
    }
    if (!strcmp(a, "--arch") || !strcmp(a, "-o") || !strcmp(a, "--into")) {
      if (i + 1 >= argc) {
        char *m = ll_fmt("%s needs a value", a);
        int rc = usage_err(m);
        free(m);
        return rc;
      }
      *(a[1] == 'o' ? &out : a[2] == 'i' ? &into : &arch) = argv[++i];
    } else if (!strcmp(a, "--print-toolchain")) {
      print_tc = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s\n", usage);
      return LL_EXIT_OK;
    } else if (a[0] == '-') {
      char *m = ll_fmt("unknown option '%s' (compiler flags go after --)", a);
      int rc = usage_err(m);
      free(m);
      return rc;
    } else if (src) {
      char *m = ll_fmt("one source only; '%s' is a second one", a);
      int rc = usage_err(m);
      free(m);
      return rc;
    } else {
      src = a;
    }
  }
  bool all = !strcmp(arch, "all");
  emu_arch one;
  if (!all && !emu_arch_parse(arch, &one)) {
    char *m = ll_fmt("unknown arch '%s': expected gfx942, gfx950 or all", arch);
    int rc = usage_err(m);
    free(m);
    return rc;
  }
  const char *both[] = {"gfx942", "gfx950"}, *single[] = {all ? NULL : emu_arch_name(one)};
  const char *const *arches = all ? both : single;
  size_t narch = all ? 2 : 1;
  if (print_tc) {
    if (src || out || into || extra) return usage_err("--print-toolchain takes no source, output or flags");
    return print_toolchain(arches, narch);
  }
  if (!src) return usage_err("no source given");
  if (!!out == !!into) return usage_err(out ? "give one of -o OUT and --into DIR" : "no output given (-o OUT or --into DIR)");
  ll_err e = {0};
  ll_buf diag = {0};
  if (into) {
    for (size_t i = 0; i < narch; i++) {
      char *dir = all ? ll_fmt("%s/%s", into, arches[i]) : ll_xstrdup(into);
      bool ok = isa_cc_build_dir(src, arches[i], dir, extra, &diag, NULL, &e);
      free(dir);
      if (!ok) return finish(&diag, &e, false);
    }
    return finish(&diag, &e, true);
  }
  if (!all) return finish(&diag, &e, isa_cc_compile(src, arches[0], out, NULL, extra, &diag, &e));
  for (size_t i = 0; i < 2; i++) {
    char *dir = ll_fmt("%s/%s", out, arches[i]);
    char *co = NULL;
    bool ok = isa_cc_compile_into(src, arches[i], dir, extra, &diag, &co, &e);
    free(dir);
    if (!ok) return finish(&diag, &e, false);
    if (!cli_quiet) fprintf(stderr, "lanelab: cc: %s\n", co);
    free(co);
  }
  return finish(&diag, &e, true);
}
