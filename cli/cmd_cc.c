/* cli/cmd_cc — `lanelab cc SRC.hip [--arch gfx942|gfx950|all] -o OUT [-- CLANG_FLAGS]`
 * (README.md "Command line"). Argument parsing only; the compile is isa_cc_compile
 * (isa/cc.c). One arch: OUT is the code object. all (the default): OUT is a folder holding
 * <arch>/<stem>.co and <arch>/<stem>.s for gfx942 and gfx950. The compiler's messages are passed
 * through to stderr; a compile error is exit 2, a missing compiler or HIP subset exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/isa.h"
#include "util/util.h"

static const char *usage = "usage: lanelab cc SRC.hip [--arch gfx942|gfx950|all] -o OUT [-- CLANG_FLAGS...]\n"
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

int cmd_cc(int argc, char **argv) {
  const char *src = NULL, *arch = "all", *out = NULL;
  char **extra = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      extra = argv + i + 1; /* argv[argc] is NULL: a NULL-terminated list */
      break;
    }
    if (!strcmp(a, "--arch") || !strcmp(a, "-o")) {
      if (i + 1 >= argc) {
        char *m = ll_fmt("%s needs a value", a);
        int rc = usage_err(m);
        free(m);
        return rc;
      }
      *(a[1] == 'o' ? &out : &arch) = argv[++i];
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
  if (!src) return usage_err("no source given");
  if (!out) return usage_err("no output given (-o OUT)");
  bool all = !strcmp(arch, "all");
  if (!all && strcmp(arch, "gfx942") && strcmp(arch, "gfx950")) {
    char *m = ll_fmt("unknown arch '%s': expected gfx942, gfx950 or all", arch);
    int rc = usage_err(m);
    free(m);
    return rc;
  }
  ll_err e = {0};
  ll_buf diag = {0};
  if (!all) return finish(&diag, &e, isa_cc_compile(src, arch, out, NULL, extra, &diag, &e));
  const char *arches[] = {"gfx942", "gfx950"};
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
