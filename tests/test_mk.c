/* Tests for mk/, the build's own scripts: check-refs.sh (nothing in the project refers to files
 * outside the repository) and prune-stale.sh (build outputs whose source is gone are removed and
 * never counted). Each script is run on a scratch tree made here, so the expected outcome is
 * known from what the test planted. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

static char *scratch(void) {
  char t[] = "/tmp/lanelab-test-mk-XXXXXX";
  cr_assert_not_null(mkdtemp(t));
  return ll_xstrdup(t);
}
static void put(const char *dir, const char *rel, const char *text) {
  char *p = ll_path_join(dir, rel), *d = ll_dirname(p);
  cr_assert(ll_mkdir_p(d, NULL));
  cr_assert(ll_write_file_atomic(p, text, strlen(text), NULL), "%s", p);
  free(p);
  free(d);
}
/* Exit status of `bash SCRIPT ARGS` with its output in *out. */
static int sh(const char *script_and_args, char **out) {
  char *cmd = ll_fmt("cd " LANELAB_ROOT " && bash %s 2>&1", script_and_args);
  FILE *f = popen(cmd, "r");
  cr_assert_not_null(f);
  ll_buf b = {0};
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) ll_buf_put(&b, tmp, k);
  int st = pclose(f);
  free(cmd);
  ll_buf_str(&b);
  *out = b.data;
  cr_assert(WIFEXITED(st));
  return WEXITSTATUS(st);
}

Test(mk_check_refs, the_repository_cites_nothing_outside_itself) {
  char *out;
  int rc = sh("mk/check-refs.sh", &out);
  cr_expect_eq(rc, 0, "mk/check-refs.sh found references outside the repository:\n%s", out);
  free(out);
}

Test(mk_check_refs, planted_outside_references_are_each_found) {
  char *d = scratch();
  put(d, "docs/isa.md", "# facts\n");
  put(d, "a/clean.c", "/* see docs/isa.md and ../docs/isa.md; output tables/x.md; https://e.org/README.md */\n");
  char *out, *args = ll_fmt("mk/check-refs.sh %s", d);
  int rc = sh(args, &out);
  cr_expect_eq(rc, 0, "a clean tree was refused:\n%s", out);
  free(out);
  /* written in pieces, so that this file itself cites nothing outside the repository */
  const char *planted[] = {"/* facts in /wo" "rk/sha" "red/facts/isa" ".md */", "/* see DESIGN" ".md */",
                           "// (seeds" ".md 000)", "# see ../sha" "red/notes.txt", "/* fac" "ts/attention" ".md */",
                           "x = \"docs/nothere" ".md\";"};
  for (size_t i = 0; i < sizeof planted / sizeof *planted; i++) {
    char *name = ll_fmt("b/f%zu.c", i);
    put(d, name, planted[i]);
    rc = sh(args, &out);
    cr_expect_eq(rc, 1, "'%s' was not found:\n%s", planted[i], out);
    cr_expect(strstr(out, name), "the report does not name %s:\n%s", name, out);
    free(out);
    char *p = ll_path_join(d, name);
    unlink(p);
    free(p);
    free(name);
  }
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
  free(rm); free(args); free(d);
}
