/* cli/cmd_hipcc — `lanelab hipcc SRC... [-c] -o OUT [--offload-arch=gfx942|gfx950]... [-I DIR] [-D X]
 * [-O N] [-g] [-std=S]` (README.md "Command line"): compiles and links a whole HIP program
 * against lanelab's HIP headers and runtime. Argument parsing only; the driver is isa_hipcc
 * (isa/cc.c). Other options starting with '-' go to clang's compile step as they are (those
 * that take the next argument as their value, -isystem DIR or -mllvm OPT, with it); -L, -l,
 * -Wl,, -pthread, -fuse-ld= and --ld-path= go to the link. The compiler's messages are passed through to stderr; a
 * compile or link error is exit 2, a missing compiler or runtime library exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/isa.h"
#include "util/util.h"

static const char *usage =
    "usage: lanelab hipcc SRC... [-c|--genco] -o OUT [--offload-arch=gfx942|gfx950]... [-x hip] [-I DIR] [-D X] [-O N] [-g] [-std=S] [--shared-runtime] [-fgpu-rdc]";

static int usage_err(const char *what) {
  fprintf(stderr, "lanelab: hipcc: %s\n%s\n", what, usage);
  return LL_EXIT_USAGE;
}

static void push(char ***v, size_t *n, char *s) {
  *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = s;
}

/* clang options whose value is the next argument, passed to the compile step as a pair (build
 * systems write them so: `-isystem DIR`, `-mllvm -amdgpu-...`, `-MF dep.d -MT x.o`) */
static bool is_separate_arg_option(const char *a) {
  static const char *const sep[] = {"-isystem", "-idirafter", "-iquote",     "-include",     "-imacros",
                                    "-isysroot", "-Xclang",    "-mllvm",      "-MF",          "-MT",
                                    "-MQ",       "-Xarch_host", "-Xarch_device"};
  for (size_t k = 0; k < sizeof sep / sizeof sep[0]; k++)
    if (!strcmp(a, sep[k])) return true;
  return false;
}

static int needs_value(const char *opt) {
  char *m = ll_fmt("%s needs a value", opt);
  int rc = usage_err(m);
  free(m);
  return rc;
}

int cmd_hipcc(int argc, char **argv) {
  isa_hipcc_opts o = {0};
  bool lang_hip = false; /* -x hip: the inputs after it are HIP whatever their names (-x none ends it) */
  char **owned = NULL;
  size_t nowned = 0;
  int rc = LL_EXIT_USAGE;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    /* options whose value may be the next argument */
    static const char *joined[] = {"-o", "-I", "-D", "-U", "-L", "-l", "--offload-arch"};
    const char *val = NULL;
    const char *opt = NULL;
    for (size_t k = 0; k < sizeof joined / sizeof joined[0] && !opt; k++) {
      size_t l = strlen(joined[k]);
      if (!strncmp(a, joined[k], l)) {
        if (a[l] == 0) {
          if (i + 1 >= argc) {
            rc = needs_value(a);
            goto out;
          }
          opt = joined[k], val = argv[++i];
        } else if (joined[k][1] != '-' || a[l] == '=') {
          opt = joined[k], val = a + l + (a[l] == '=' && joined[k][1] == '-');
        }
      }
    }
    if (opt && !strcmp(opt, "-o")) {
      o.out = val;
    } else if (opt && !strcmp(opt, "--offload-arch")) {
      o.arches = ll_xrealloc(o.arches, (o.narches + 1) * sizeof *o.arches);
      o.arches[o.narches++] = val;
    } else if (opt && (!strcmp(opt, "-L") || !strcmp(opt, "-l"))) {
      char *f = ll_fmt("%s%s", opt, val);
      push(&owned, &nowned, f);
      push(&o.link_flags, &o.nlink, f);
    } else if (opt) {
      char *f = ll_fmt("%s%s", opt, val);
      push(&owned, &nowned, f);
      push(&o.flags, &o.nflags, f);
    } else if (!strcmp(a, "-x") || (!strncmp(a, "-x", 2) && a[2])) {
      const char *lang = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
      if (!lang) {
        rc = needs_value(a);
        goto out;
      }
      if (strcmp(lang, "hip") && strcmp(lang, "none")) {
        char *m = ll_fmt("-x %s: lanelab hipcc compiles HIP sources (-x hip) and takes the other inputs by "
                         "their names (-x none)", lang);
        rc = usage_err(m);
        free(m);
        goto out;
      }
      lang_hip = !strcmp(lang, "hip");
    } else if (!strcmp(a, "-c")) {
      o.compile_only = true;
    } else if (!strcmp(a, "--emit-static-lib")) {
      rc = usage_err("--emit-static-lib: lanelab hipcc makes programs and objects, not static libraries: compile "
                     "with -c (and -fgpu-rdc if other objects call its device functions) and archive the objects "
                     "with ar");
      goto out;
    } else if (!strcmp(a, "-S") || !strcmp(a, "-E")) { /* stop before the object, as clang does: no link */
      o.compile_only = true;
      push(&o.flags, &o.nflags, a);
    } else if (!strcmp(a, "--genco")) {
      o.genco = true;
    } else if (!strcmp(a, "--shared-runtime")) {
      o.shared_runtime = true;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s\n", usage);
      rc = LL_EXIT_OK;
      goto out;
    } else if (!strncmp(a, "-Wl,", 4) || !strcmp(a, "-pthread") || !strcmp(a, "-rdynamic") ||
               !strncmp(a, "-fuse-ld=", 9) || !strncmp(a, "--ld-path=", 10)) {
      push(&o.link_flags, &o.nlink, a);
      if (!strcmp(a, "-pthread")) push(&o.flags, &o.nflags, a);
    } else if (is_separate_arg_option(a)) {
      if (i + 1 >= argc) {
        rc = needs_value(a);
        goto out;
      }
      push(&o.flags, &o.nflags, a); /* clang's, with its value as the next argument */
      push(&o.flags, &o.nflags, argv[++i]);
    } else if (a[0] == '-' && a[1]) {
      push(&o.flags, &o.nflags, a);
    } else {
      o.as_hip = ll_xrealloc(o.as_hip, (o.ninputs + 1) * sizeof *o.as_hip);
      o.as_hip[o.ninputs] = lang_hip;
      push(&o.inputs, &o.ninputs, a);
    }
  }
  if (!o.ninputs) {
    rc = usage_err("no source or object given");
    goto out;
  }
  ll_err e = {0};
  ll_buf diag = {0};
  bool ok = isa_hipcc(&o, &diag, &e);
  if (diag.len) fputs(ll_buf_str(&diag), stderr);
  ll_buf_free(&diag);
  rc = ok ? LL_EXIT_OK : ll_report(&e);
out:
  for (size_t i = 0; i < nowned; i++) free(owned[i]);
  free(owned);
  free(o.inputs), free(o.as_hip), free(o.arches), free(o.flags), free(o.link_flags);
  return rc;
}
