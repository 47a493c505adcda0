/* Tests for `make install` / `make uninstall` and the out-of-tree example (examples/ci-project):
 * lanelab is installed into a temporary prefix, the example is copied from the prefix's
 * share/lanelab into a temporary directory and built and verified there with the installed
 * lanelab found through pkg-config; its mutant must be caught and its C-API host test must pass.
 * The installed binary must read its data from the prefix, never from this source tree. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/shell.h"
#include "util/util.h"

static char *tmpd(void) { return sh_tmpdir("install"); }
static int sh(const char *cmd, char **out) { return sh_run(cmd, out); }

static bool is_file(const char *dir, const char *rel) {
  char *p = ll_fmt("%s/%s", dir, rel);
  struct stat st;
  bool ok = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
  free(p);
  return ok;
}

static size_t count_files(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = ll_fmt("%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(p, &st) == 0) n += S_ISDIR(st.st_mode) ? 1 + count_files(p) : 1;
    free(p);
  }
  closedir(d);
  return n;
}

Test(install, example_project_verifies_against_an_installed_lanelab, .timeout = 300) {
  char *prefix = tmpd(), *proj = tmpd(), *out;
  char *cmd = sh_make_install(prefix);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
  free(cmd); free(out);
  static const char *const files[] = {"bin/lanelab", "lib/liblanelab.a", "lib/pkgconfig/lanelab.pc",
                                      "include/lanelab/lanelab.h", "include/lanelab/ref.h",
                                      "share/lanelab/lanelab.data", "share/lanelab/kernels/include/lanelab_device.h",
                                      "share/lanelab/include/lanelab/ref.h", "share/lanelab/docs/manifest.md",
                                      "share/lanelab/examples/ci-project/manifest.json",
                                      "share/lanelab/examples/ci-project/README.md"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) cr_assert(is_file(prefix, files[i]), "installed %s", files[i]);

  /* the example, from the installed copy, in a directory of its own */
  cmd = ll_fmt("cp -r %s/share/lanelab/examples/ci-project/. %s/", prefix, proj);
  cr_assert_eq(sh(cmd, &out), 0, "%s", out);
  free(cmd); free(out);
  /* issue #29: the example's kernels are written as a user writes them, against the HIP headers,
   * not lanelab's internal lanelab_device.h */
  cmd = ll_fmt("cd %s/kernels && ! grep -l lanelab_device.h *.hip && for f in *.hip; do grep -q '<hip/hip_runtime.h>' $f || "
               "{ echo \"$f: no hip/hip_runtime.h\"; exit 1; }; done", proj);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s", out);
  free(cmd); free(out);

  /* without its data the installed binary fails (exit 3) instead of reading the source tree */
  cmd = ll_fmt("mv %s/share/lanelab/lanelab.data %s/stamp && %s/bin/lanelab -q verify --manifest %s/manifest.json "
               "--arch gfx950; rc=$?; mv %s/stamp %s/share/lanelab/lanelab.data; exit $rc",
               prefix, prefix, prefix, proj, prefix, prefix);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 3, "exit %d:\n%s", rc, out);
  cr_assert(strstr(out, "lanelab's data is missing"), "%s", out);
  free(cmd); free(out);

  /* the example's own Makefile: pkg-config finds lanelab; verify (gfx950: test time; CI runs
   * both), then the C-API test */
  cmd = ll_fmt("PKG_CONFIG_PATH=%s/lib/pkgconfig make -s -C %s check ARCH=gfx950", prefix, proj);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
  cr_assert(strstr(out, "gfx950  mutants  pass"), "%s", out);
  cr_assert(strstr(out, "1 of 1 mutants caught"), "the mutant is caught:\n%s", out);
  cr_assert(strstr(out, "host_test: saxpy on the emu backend matches"), "%s", out);
  cr_assert(is_file(proj, "build/lanelab/junit.xml"), "JUnit results");
  cr_assert(is_file(proj, "build/lanelab/reports/index.html"), "HTML report");
  free(cmd); free(out);

  cmd = ll_fmt("make -s -C %s uninstall PREFIX=%s %s", LANELAB_ROOT, prefix, sh_san());
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
  cr_assert_eq(count_files(prefix), 0, "uninstall leaves nothing in %s", prefix);
  free(cmd); free(out);
  cmd = ll_fmt("rm -rf %s %s", prefix, proj);
  sh(cmd, &out);
  free(cmd); free(out); free(prefix); free(proj);
}

/* A build tree that moves still works (issue #29): a checkout copied elsewhere (or a build restored
 * from a CI cache into another checkout) holds the binary in its build/, and the binary finds the
 * data of the tree it now sits in, never the path it was built in: `lanelab cc` compiles with that
 * tree's HIP subset (its --print-toolchain names it). A binary with no lanelab tree or prefix
 * around it says its data is missing (exit 3). */
Test(install, a_build_tree_that_moves_still_finds_its_data, .timeout = 120) {
  char *r = tmpd(), *lone = tmpd(), *out;
  char *cmd = ll_fmt("mkdir -p %s/build %s/isa && cp -r %s/include %s/kernels %s/hip %s/ && cp %s/isa/budgets.json %s/isa/ && "
                     "cp %s/lanelab %s/build/lanelab && cp %s/lanelab %s/lanelab",
                     r, r, LANELAB_ROOT, LANELAB_ROOT, LANELAB_ROOT, r, LANELAB_ROOT, r, LANELAB_BUILD, r, LANELAB_BUILD, lone);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s\n%s", cmd, out);
  free(cmd); free(out);
  cmd = ll_fmt("%s/build/lanelab cc --arch gfx942 --print-toolchain", r);
  rc = sh(cmd, &out);
  char *want = ll_fmt("-I%s/hip/include ", r);
  cr_expect(rc == 0 && strstr(out, want), "the moved binary does not use its tree's HIP subset (%s): exit %d\n%s", want, rc, out);
  free(cmd); free(out); free(want);
  cmd = ll_fmt("cd %s && printf '#include <hip/hip_runtime.h>\\n__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\\n' > k.hip && "
               "%s/build/lanelab -q cc k.hip --arch gfx942 -o k.co && test -s k.co", r, r);
  rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "the moved binary cannot compile: exit %d\n%s", rc, out);
  free(cmd); free(out);
  cmd = ll_fmt("cd %s && %s/lanelab -q cc %s/k.hip --arch gfx942 -o k.co", lone, lone, r);
  rc = sh(cmd, &out);
  cr_expect(rc == 3 && strstr(out, "lanelab's data is missing"), "a binary with no data around it: exit %d\n%s", rc, out);
  free(cmd); free(out);
  cmd = ll_fmt("rm -rf %s %s", r, lone);
  sh(cmd, NULL);
  free(cmd); free(r); free(lone);
}
