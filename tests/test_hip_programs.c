/* tests/test_hip_programs — the HIP program corpus (tests/programs/NAME.hip): whole programs with
 * their own main that check their own results, built by `lanelab hipcc` (the Makefile builds
 * them into BUILD/programs/) and run on both emulated arches (LANELAB_ARCH). A program's exit
 * status is its verdict; the expectations here are about what the runtime must make of programs
 * that go wrong (faults, races, uninitialized reads). */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/shell.h"

#define PROGS LANELAB_BUILD "/programs"
static const char *arches[] = {"gfx942", "gfx950"};

/* Runs PROGS/name with LANELAB_ARCH=arch and extra environment; exit status and output. */
static int run_prog(const char *name, const char *arch, const char *env, char **out) {
  char *cmd = ll_fmt("env LANELAB_ARCH=%s %s %s/%s", arch, env ? env : "", PROGS, name);
  int rc = sh_run(cmd, out);
  free(cmd);
  return rc;
}

static void passes_on_both_arches(const char *name, const char *want) {
  for (size_t i = 0; i < 2; i++) {
    char *out;
    int rc = run_prog(name, arches[i], NULL, &out);
    cr_expect_eq(rc, 0, "%s on %s: exit %d:\n%s", name, arches[i], rc, out);
    cr_expect(strstr(out, want), "%s on %s: no '%s' in its output:\n%s", name, arches[i], want, out);
    free(out);
  }
}

Test(programs, vector_add, .timeout = 120) { passes_on_both_arches("vector_add", "vector_add: 1000 elements ok"); }
Test(programs, dynamic_shared, .timeout = 120) { passes_on_both_arches("dynamic_shared", "dynamic_shared: ok"); }
Test(programs, constant_memory, .timeout = 120) { passes_on_both_arches("constant_memory", "constant_memory: ok"); }
