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

#include "tests/shell.h"
#include "util/util.h"

static char *scratch(void) {
  return sh_tmpdir("mk");
}
static void put(const char *dir, const char *rel, const char *text) {
  char *p = ll_path_join(dir, rel), *d = ll_dirname(p);
  cr_assert(ll_mkdir_p(d, NULL));
  cr_assert(ll_write_file_atomic(p, text, strlen(text), NULL), "%s", p);
  free(p);
  free(d);
}
/* Exit status of a shell command run from the repository root, its output in *out. */
static int sh(const char *script_and_args, char **out) {
  char *cmd = ll_fmt("cd " LANELAB_ROOT " && %s 2>&1", script_and_args);
  int st = sh_capture(cmd, out);
  free(cmd);
  cr_assert(WIFEXITED(st));
  return WEXITSTATUS(st);
}

Test(mk_check_refs, the_repository_cites_nothing_outside_itself) {
  char *out;
  int rc = sh("bash mk/check-refs.sh", &out);
  cr_expect_eq(rc, 0, "mk/check-refs.sh found references outside the repository:\n%s", out);
  free(out);
}

Test(mk_check_refs, planted_outside_references_are_each_found) {
  char *d = scratch();
  put(d, "docs/isa.md", "# facts\n");
  put(d, "a/clean.c", "/* see docs/isa.md and ../docs/isa.md; output tables/x.md; https://e.org/README.md */\n");
  char *out, *args = ll_fmt("bash mk/check-refs.sh %s", d);
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

/* ---- stale build outputs ------------------------------------------------------------------------
 * A code object whose source is gone (a kernel deleted or renamed) is removed by the build
 * (mk/prune-stale.sh, run by `make kernels` and `make mutants`), and the budgets / census never
 * count it even before that (its NAME.src sidecar names a missing file). The scratch build holds
 * a copy of a real code object under a live name and under a ghost name; which survives is known
 * from what was planted. */
#define LANELAB LANELAB_BUILD "/lanelab"
#define REAL_CO LANELAB_BUILD "/gfx950/kernels/lane_tr8.co"

static void copy(const char *from, const char *to) {
  size_t n;
  void *d = ll_read_file_max(from, LL_CAP_CODEOBJ, &n, NULL);
  cr_assert_not_null(d, "%s is missing: build the kernels (make kernels)", from);
  cr_assert(ll_write_file_atomic(to, d, n, NULL), "%s", to);
  free(d);
}

Test(mk_stale, outputs_whose_source_is_gone_are_pruned_and_never_counted, .timeout = 120) {
  char *b = scratch();
  char *kd = ll_fmt("%s/gfx950/kernels", b);
  cr_assert(ll_mkdir_p(kd, NULL));
  char *live = ll_fmt("%s/lane_tr8.co", kd), *ghost = ll_fmt("%s/ghost_kernel.co", kd);
  copy(REAL_CO, live);
  copy(REAL_CO, ghost);
  put(kd, "lane_tr8.src", LANELAB_ROOT "/kernels/micro/lane_tr8.hip\n");
  put(kd, "ghost_kernel.src", LANELAB_ROOT "/kernels/micro/ghost_kernel.hip\n");
  put(kd, "ghost_kernel.s", "x");
  put(kd, "ghost_kernel.built", "");
  put(kd, "gone_elsewhere.skip", "built only for gfx942\n");
  /* budgets count kernels by symbol: ghost_kernel.co holds the kernel lane_tr8. Alone in the
   * build with a live source it satisfies a lane_tr8 rule; with its source gone it must not. */
  char *bud = ll_fmt("%s/budgets.json", b);
  const char *rules = "{\"rules\": [{\"kernel\": \"lane_tr8\", \"arch\": \"gfx950\", \"count\": "
                      "\"ds_read_b64_tr_b8\", \"eq\": 1}]}";
  cr_assert(ll_write_file_atomic(bud, rules, strlen(rules), NULL));
  char *args = ll_fmt(LANELAB " isa budgets --arch gfx950 --budgets %s --build %s --format csv", bud, b);
  char *out;
  unlink(live);
  put(kd, "ghost_kernel.src", LANELAB_ROOT "/kernels/micro/lane_tr8.hip\n"); /* a live source */
  int rc = sh(args, &out);
  cr_expect_eq(rc, 0, "a code object with a live source was not counted: exit %d\n%s", rc, out);
  free(out);
  put(kd, "ghost_kernel.src", LANELAB_ROOT "/kernels/micro/ghost_kernel.hip\n"); /* gone */
  rc = sh(args, &out);
  cr_expect_eq(rc, 1, "a code object whose source is gone was counted: exit %d\n%s", rc, out);
  cr_expect(strstr(out, "no kernel matches 'lane_tr8'"), "%s", out);
  free(out);
  copy(REAL_CO, live);
  /* the build prunes it (and every output of that name), and keeps the live one */
  char *pa = ll_fmt("bash mk/prune-stale.sh %s", b);
  rc = sh(pa, &out);
  cr_expect_eq(rc, 0, "%s", out);
  cr_expect(strstr(out, "ghost_kernel.co"), "prune-stale did not say what it removed:\n%s", out);
  const char *gone[] = {"ghost_kernel.co", "ghost_kernel.s", "ghost_kernel.src", "ghost_kernel.built",
                        "gone_elsewhere.skip"};
  for (size_t i = 0; i < sizeof gone / sizeof *gone; i++) {
    char *p = ll_fmt("%s/%s", kd, gone[i]);
    cr_expect_neq(access(p, F_OK), 0, "%s survived the prune", p);
    free(p);
  }
  cr_expect_eq(access(live, F_OK), 0, "the live lane_tr8.co was pruned");
  free(out);
  /* mutants: a directory no longer listed in kernels/mutants.txt goes, a listed one stays */
  char *m_old = ll_fmt("%s/gfx950/mutants/no_such_mutant", b);
  cr_assert(ll_mkdir_p(m_old, NULL));
  put(m_old, "x.co", "x");
  FILE *mf = fopen(LANELAB_ROOT "/kernels/mutants.txt", "r");
  cr_assert_not_null(mf);
  char line[512], mname[256] = "", msrc[256] = "";
  while (fgets(line, sizeof line, mf))
    if (line[0] != '#' && sscanf(line, "%255s %255s", mname, msrc) == 2) break;
  fclose(mf);
  cr_assert(mname[0] && msrc[0], "kernels/mutants.txt lists no mutant");
  char *base = ll_xstrdup(strrchr(msrc, '/') ? strrchr(msrc, '/') + 1 : msrc);
  base[strlen(base) - 4] = 0; /* drop .hip */
  char *m_live = ll_fmt("%s/gfx950/mutants/%s", b, mname), *m_co = ll_fmt("%s.co", base), *m_oldsrc = ll_fmt("old_source.co");
  cr_assert(ll_mkdir_p(m_live, NULL));
  put(m_live, m_co, "x");
  put(m_live, m_oldsrc, "x");
  rc = sh(pa, &out);
  cr_expect_eq(rc, 0, "%s", out);
  cr_expect_neq(access(m_old, F_OK), 0, "%s survived", m_old);
  char *p1 = ll_fmt("%s/%s", m_live, m_co), *p2 = ll_fmt("%s/%s", m_live, m_oldsrc);
  cr_expect_eq(access(p1, F_OK), 0, "the live mutant's %s was pruned", p1);
  cr_expect_neq(access(p2, F_OK), 0, "%s (not the mutant's source) survived", p2);
  free(out);
  /* a mutant built from two sources (two lines of kernels/mutants.txt) keeps both outputs: the
   * prune once kept only the first source's, so a second `make` deleted the other code object */
  char two[256] = "", src1[256] = "", src2[256] = "";
  mf = fopen(LANELAB_ROOT "/kernels/mutants.txt", "r");
  cr_assert_not_null(mf);
  char names[64][256], srcs[64][256];
  size_t nm = 0;
  while (fgets(line, sizeof line, mf) && nm < 64)
    if (line[0] != '#' && sscanf(line, "%255s %255s", names[nm], srcs[nm]) == 2) nm++;
  fclose(mf);
  for (size_t i = 0; i < nm && !two[0]; i++)
    for (size_t j = i + 1; j < nm; j++)
      if (strcmp(names[i], names[j]) == 0 && strcmp(srcs[i], srcs[j]) != 0) {
        snprintf(two, sizeof two, "%s", names[i]);
        snprintf(src1, sizeof src1, "%s", srcs[i]);
        snprintf(src2, sizeof src2, "%s", srcs[j]);
        break;
      }
  cr_assert(two[0], "kernels/mutants.txt lists no mutant built from two sources");
  char *m_two = ll_fmt("%s/gfx950/mutants/%s", b, two);
  cr_assert(ll_mkdir_p(m_two, NULL));
  const char *both[] = {src1, src2};
  char *two_co[2];
  for (int i = 0; i < 2; i++) {
    char *bn = ll_xstrdup(strrchr(both[i], '/') ? strrchr(both[i], '/') + 1 : both[i]);
    bn[strlen(bn) - 4] = 0;
    two_co[i] = ll_fmt("%s.co", bn);
    put(m_two, two_co[i], "x");
    free(bn);
  }
  rc = sh(pa, &out);
  cr_expect_eq(rc, 0, "%s", out);
  for (int i = 0; i < 2; i++) {
    char *p = ll_fmt("%s/%s", m_two, two_co[i]);
    cr_expect_eq(access(p, F_OK), 0, "%s (mutant %s is built from %s and %s) was pruned:\n%s", p, two, src1,
                 src2, out);
    free(p);
    free(two_co[i]);
  }
  free(out);
  free(m_two);
  char *rm = ll_fmt("rm -rf %s", b);
  system(rm);
  free(rm); free(p1); free(p2); free(m_live); free(m_co); free(m_oldsrc); free(base); free(m_old); free(pa);
  free(args); free(bud); free(live); free(ghost); free(kd); free(b);
}

/* A suite is rebuilt when a header it includes changes: make reads the test binaries' -MMD lists
 * (the Makefile once read only the host objects', so a change to tests/shell.h left every suite
 * built on the old one). make -n -W asks "what if this file were new" without touching it; a header
 * test_mk does not include is the control. */
Test(mk_deps, a_suite_is_rebuilt_when_a_header_it_includes_changes) {
  const char *build = sh_build_rel();
  cr_assert(strncmp(LANELAB_BUILD, LANELAB_ROOT "/", strlen(LANELAB_ROOT "/")) == 0, "%s", LANELAB_BUILD);
  static const struct { const char *header; bool rebuilt; } cases[] = {{"tests/shell.h", true}, {"tests/llvm_tools.h", false}};
  for (size_t i = 0; i < 2; i++) {
    char *cmd = ll_fmt("unset MAKEFLAGS MFLAGS MAKELEVEL && make -n -W %s %s %s/tests/test_mk", cases[i].header,
                       sh_san(), build);
    char *out;
    int rc = sh(cmd, &out);
    cr_expect_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
    cr_expect_eq(strstr(out, "tests/test_mk.c") != NULL, cases[i].rebuilt, "%s: %s expected\n%s", cmd,
                 cases[i].rebuilt ? "a rebuild" : "no rebuild", out);
    free(cmd), free(out);
  }
}

/* A suite that installs lanelab (sh_make_install) never relinks the binary other suites are
 * running: with a source newer than the binary (make -n -W), plain `make install` would rebuild
 * and relink it (the control), the suites' install does not. */
Test(mk_deps, a_suites_install_never_relinks_the_running_binary) {
  const char *rel = sh_build_rel();
  char *inst = sh_make_install("/nonexistent-prefix"), *out;
  char *cmd = ll_fmt("unset MAKEFLAGS MFLAGS MAKELEVEL && %s -n -W cli/main.c", inst);
  int rc = sh(cmd, &out);
  char *link = ll_fmt("-o %s/lanelab ", rel);
  cr_expect(rc == 0 && !strstr(out, link) && !strstr(out, "cli/main.c"), "%s: exit %d, a rebuild:\n%s", cmd, rc, out);
  free(cmd), free(out);
  cmd = ll_fmt("unset MAKEFLAGS MFLAGS MAKELEVEL && make -s -C %s install PREFIX=/nonexistent-prefix %s -n -W cli/main.c",
               LANELAB_ROOT, sh_san());
  rc = sh(cmd, &out);
  cr_expect(rc == 0 && strstr(out, link), "the control rebuilds nothing, so the test shows nothing: %s\n%s", cmd, out);
  free(cmd), free(out), free(link), free(inst);
}

/* Host objects are rebuilt when the flags they were compiled with change (BUILD/cflags.txt): a
 * build tree made before the one-object-set change kept its non-PIC objects and
 * liblanelab_hip.so did not link. Checked in a scratch BUILD: one object built, up to date
 * (make -q exit 0), then asked with other CFLAGS: out of date (exit 1), and up to date again with
 * the first flags after it is rebuilt. */
Test(mk_deps, host_objects_are_rebuilt_when_the_flags_change) {
  char *b = sh_tmpdir("flags"), *out;
  const char *mk = "unset MAKEFLAGS MFLAGS MAKELEVEL && make -s";
  char *obj = ll_fmt("%s/obj/table/dirs.o", b);
  char *cmd = ll_fmt("%s BUILD=%s %s", mk, b, obj);
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s: exit %d\n%s", cmd, rc, out);
  free(cmd), free(out);
  cmd = ll_fmt("%s -q BUILD=%s %s", mk, b, obj);
  rc = sh(cmd, &out);
  cr_expect_eq(rc, 0, "just built, yet out of date: %s\n%s", cmd, out);
  free(cmd), free(out);
  cmd = ll_fmt("%s -q BUILD=%s CFLAGS='-O1 -g' %s", mk, b, obj);
  rc = sh(cmd, &out);
  cr_expect_eq(rc, 1, "other CFLAGS, yet up to date (exit %d): %s\n%s", rc, cmd, out);
  free(cmd), free(out), free(obj), free(b);
}

/* The suites' temporary directories (tests/tmpdir.h) go when the process that made them exits
 * (a make test used to leave about a thousand in /tmp), a child forked after them does not remove
 * them, and LANELAB_TEST_KEEP_TMP=1 keeps them. */
static char *tt_probe(bool keep, bool fork_a_child) {
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    char *d = tt_dir("tt-probe"), *sub = ll_fmt("%s/a/b", d), *f = ll_fmt("%s/a/b/f.txt", d);
    if (!ll_mkdir_p(sub, NULL) || !ll_write_file_atomic(f, "x", 1, NULL)) _exit(3);
    if (fork_a_child) {
      pid_t c = fork();
      if (c == 0) exit(0); /* runs the destructors in the grandchild */
      waitpid(c, NULL, 0);
      if (access(f, F_OK) != 0) _exit(4);
    }
    if (keep) setenv("LANELAB_TEST_KEEP_TMP", "1", 1);
    if (write(fds[1], d, strlen(d) + 1) < 0) _exit(5);
    exit(0);
  }
  close(fds[1]);
  char path[256] = "";
  ssize_t n = read(fds[0], path, sizeof path - 1);
  close(fds[0]);
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the probe exited %d", WEXITSTATUS(st));
  cr_assert(n > 0 && strncmp(path, "/tmp/lanelab-tt-probe-", 22) == 0, "%s", path);
  return ll_xstrdup(path);
}
Test(tests_tmpdir, a_tests_directories_go_when_its_process_exits) {
  char *p = tt_probe(false, true);
  cr_expect_neq(access(p, F_OK), 0, "%s is still there", p);
  free(p);
  p = tt_probe(true, false);
  cr_expect_eq(access(p, F_OK), 0, "LANELAB_TEST_KEEP_TMP=1, yet %s is gone", p);
  ll_rm_tree(p);
  cr_expect_neq(access(p, F_OK), 0, "ll_rm_tree left %s", p);
  free(p);
}

/* mk/run-tests.sh runs suites LANELAB_TEST_JOBS at a time: a value that is not a positive integer
 * is refused (exit 2, naming it) before any suite runs. */
Test(mk_run_tests, a_bad_job_count_is_exit_2_naming_it) {
  static const char *bad[] = {"x", "0", "-1", "2x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *cmd = ll_fmt("LANELAB_TEST_JOBS='%s' bash mk/run-tests.sh %s /bin/false", bad[i], LANELAB_BUILD);
    char *out;
    int rc = sh(cmd, &out);
    cr_expect_eq(rc, 2, "LANELAB_TEST_JOBS=%s: exit %d\n%s", bad[i], rc, out);
    char *want = ll_fmt("LANELAB_TEST_JOBS='%s'", bad[i]);
    cr_expect(strstr(out, want) && !strstr(out, "== "), "LANELAB_TEST_JOBS=%s: %s", bad[i], out);
    free(want), free(out), free(cmd);
  }
}

/* mk/aiter-fmha-fwd.sh runs AMD's code objects from a checkout it is given (none is in the
 * repository, nor needed here): a missing or wrong checkout, an unknown arch, a seq that is not a
 * multiple of 256, a bad head count or an unknown option is exit 2 naming it, before anything runs. */
Test(mk_aiter_fmha_fwd, bad_usage_is_exit_2_naming_it) {
  char *d = scratch();
  put(d, "hsa/README", "a stand-in for an aiter checkout's hsa/ folder\n");
  static const struct { const char *args, *want; } bad[] = {
      {"", "usage: mk/aiter-fmha-fwd.sh AITER_DIR"},
      {"/nonexistent-aiter", "is not an aiter checkout"},
      {"DIR --arch gfx90a", "--arch 'gfx90a'"},
      {"DIR --seq 300", "--seq '300'"},
      {"DIR --seq x", "--seq 'x'"},
      {"DIR --heads 0", "--heads '0'"},
      {"DIR --frobnicate", "unknown argument '--frobnicate'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *args = ll_xstrdup(bad[i].args), *p = strstr(args, "DIR");
    char *full = p ? ll_fmt("%.*s%s%s", (int)(p - args), args, d, p + 3) : ll_xstrdup(args);
    char *cmd = ll_fmt("bash mk/aiter-fmha-fwd.sh %s", full), *out;
    int rc = sh(cmd, &out);
    cr_expect_eq(rc, 2, "'%s': exit %d\n%s", full, rc, out);
    cr_expect(strstr(out, bad[i].want) && !strstr(out, "arch    kernel"), "'%s': want '%s' in:\n%s", full, bad[i].want, out);
    free(out), free(cmd), free(full), free(args);
  }
  char *rm = ll_fmt("rm -rf %s", d);
  if (system(rm)) {}
  free(rm), free(d);
}

/* ---- mk/check-arch.sh: docs/architecture.md's module map against the Makefile and the code ------
 * The repository's own map passes; in a scratch tree whose map, MODULES and includes are written
 * here, each planted disagreement is named: a module missing from the map, a "uses" cell that
 * leaves out a real include, and an include of a module before it in the link order. */
Test(mk_check_arch, the_module_map_matches_the_makefile_and_the_includes) {
  char *out;
  int rc = sh("bash mk/check-arch.sh", &out);
  cr_expect_eq(rc, 0, "docs/architecture.md's module map disagrees with the code:\n%s", out);
  free(out);
}

static void arch_tree(const char *d, const char *modules, const char *map_rows, const char *b_includes) {
  char *mk = ll_fmt("MODULES := %s\n", modules);
  put(d, "Makefile", mk);
  free(mk);
  char *doc = ll_fmt("# x\n\n## Module map\n\n| module | what | uses |\n|---|---|---|\n%s\n## Next\n", map_rows);
  put(d, "docs/architecture.md", doc);
  free(doc);
  put(d, "a/a.c", "#include \"b/b.h\"\n#include \"c/c.h\"\n");
  put(d, "b/b.h", b_includes);
  put(d, "c/c.h", "#include <stdio.h>\n");
}

Test(mk_check_arch, planted_disagreements_are_each_named) {
  char *d = scratch(), *out, *args = ll_fmt("bash mk/check-arch.sh %s", d);
  const char *good = "| `a/` | top | `b`, `c` |\n| `b/` | middle | `c` |\n| `c/` | bottom | libc |\n";
  arch_tree(d, "a b c", good, "#include \"c/c.h\"\n");
  int rc = sh(args, &out);
  cr_expect_eq(rc, 0, "a consistent tree was refused:\n%s", out);
  free(out);
  arch_tree(d, "a b c", "| `a/` | top | `b`, `c` |\n| `c/` | bottom | libc |\n", "#include \"c/c.h\"\n");
  rc = sh(args, &out);
  cr_expect(rc == 1 && strstr(out, "module map lists [a c]"), "a module missing from the map: exit %d\n%s", rc, out);
  free(out);
  arch_tree(d, "a b c", "| `a/` | top | `b` |\n| `b/` | middle | `c` |\n| `c/` | bottom | libc |\n", "#include \"c/c.h\"\n");
  rc = sh(args, &out);
  cr_expect(rc == 1 && strstr(out, "a/ includes [b c] but"), "an include left out of the map: exit %d\n%s", rc, out);
  free(out);
  arch_tree(d, "a b c", "| `a/` | top | `b`, `c` |\n| `b/` | middle | `a`, `c` |\n| `c/` | bottom | libc |\n",
            "#include \"c/c.h\"\n#include \"a/a.h\"\n");
  rc = sh(args, &out);
  cr_expect(rc == 1 && strstr(out, "b/ includes a/, which comes before it"), "a layering violation: exit %d\n%s", rc, out);
  free(out);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
  free(rm); free(args); free(d);
}

/* ---- mk/check-funcs.sh: no function over 150 lines in verify/, cli/ and emu/exec* -------------
 * (and the files split from emu/exec.c: operand access, addresses, the s_waitcnt model, faults) */
Test(mk_check_funcs, verify_cli_and_emu_exec_have_no_function_over_150_lines) {
  char *out;
  int rc = sh("bash mk/check-funcs.sh verify cli emu/exec*.c emu/operand.c emu/addr.c emu/waitcnt.c emu/fault.c", &out);
  cr_expect_eq(rc, 0, "%s", out);
  free(out);
}

Test(mk_check_funcs, a_long_function_is_named_and_a_short_one_passes) {
  char *d = scratch();
  ll_buf b = {0};
  ll_buf_puts(&b, "static int short_one(int x) { return x; }\n\nint long_one(int x,\n             int y) {\n");
  for (int i = 0; i < 150; i++) ll_buf_puts(&b, "  x += y;\n");
  ll_buf_puts(&b, "  return x;\n}\n");
  char *f = ll_fmt("%s/m/x.c", d);
  put(d, "m/x.c", ll_buf_str(&b));
  char *out, *args = ll_fmt("bash mk/check-funcs.sh %s/m", d);
  int rc = sh(args, &out);
  /* 4 header lines + 150 + return + brace: 154 lines from "int long_one(" to "}" */
  char *want = ll_fmt("check-funcs: %s:3: long_one is 154 lines (at most 150)", f);
  cr_expect(rc == 1 && strstr(out, want), "exit %d, want '%s':\n%s", rc, want, out);
  cr_expect_null(strstr(out, "short_one"), "%s", out);
  free(out); free(args); free(want);
  args = ll_fmt("bash mk/check-funcs.sh --max 154 %s/m", d);
  rc = sh(args, &out);
  cr_expect_eq(rc, 0, "at --max 154 the function fits:\n%s", out);
  free(out); free(args);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
  free(rm); free(f); free(d);
  ll_buf_free(&b);
}

/* ---- mk/check-arch.sh --objs: no circle among a module's files -----------------------------------
 * reports/ was a circle (arch.c's directory helpers called from the pages it calls); it is not any
 * more. emu/ was one (the handlers called exec.c's operand helpers, exec.c the decoder, the decoder
 * the handlers and observe.c, observe.c exec.c and op_mem.c); operand access, addresses, the
 * s_waitcnt model and faults are now files apart from the scheduler (docs/architecture.md). verify/
 * was one (run.c ran the stages and held the helpers they call); the helpers are verdict.c's now.
 * The check itself finds a planted circle of two object files. */
Test(mk_check_arch, reports_emu_and_verify_files_call_each_other_one_way) {
  char *out, *args = ll_fmt("bash mk/check-arch.sh --objs %s/obj reports emu verify", LANELAB_BUILD);
  int rc = sh(args, &out);
  cr_expect_eq(rc, 0, "%s", out);
  free(out);
  free(args);
  char *d = scratch();
  put(d, "m/p.c", "int q(void); int p(void) { return q(); }\n");
  put(d, "m/q.c", "int p(void); int q(void) { return p() + 1; }\n");
  put(d, "m/r.c", "int p(void); int r(void) { return p(); }\n");
  char *cc = ll_fmt("cd %s/m && cc -c p.c q.c r.c", d);
  cr_assert_eq(system(cc), 0);
  args = ll_fmt("bash mk/check-arch.sh --objs %s m", d);
  rc = sh(args, &out);
  cr_expect(rc == 1 && strstr(out, "m/ has a circle among:") && strstr(out, " p ") && strstr(out, " q "), "exit %d\n%s", rc, out);
  cr_expect_null(strstr(out, " r "), "r calls into the circle but is not on it:\n%s", out);
  free(out); free(args); free(cc);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
  free(rm); free(d);
}

/* ---- mk/aiter-dummy-pass.sh and mk/aiter-e2e.sh (docs/aiter.md) -------------------------------
 * The dummy pass over a tree laid out as aiter's (hsa/gfx942/...) holding one code object of ours
 * with a kernel per outcome: it ends; it traps; it loads 2 GiB past its argument, far beyond the 1 MiB
 * zero buffer the pass gives every global_buffer argument; it loops until the budget. The tally,
 * the results and the out-of-bounds list must say so. */
static const char dummy_src[] =
    ".text\n"
    ".macro K name\n.global \\name\n.p2align 8\n.type \\name,@function\n\\name:\n.endm\n"
    "K k_ok\n  s_endpgm\n"
    "K k_trap\n  s_trap 2\n  s_endpgm\n"
    "K k_oob\n  s_load_dwordx2 s[2:3], s[0:1], 0x0\n  v_mov_b32 v1, 0x7ffff000\n  s_waitcnt lgkmcnt(0)\n"
    "  global_load_dword v2, v1, s[2:3]\n  s_waitcnt vmcnt(0)\n  s_endpgm\n"
    "K k_loop\nL:\n  s_branch L\n"
    ".rodata\n"
    ".macro D name\n.p2align 6\n.amdhsa_kernel \\name\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 8\n  .amdhsa_accum_offset 8\n.end_amdhsa_kernel\n.endm\n"
    "D k_ok\nD k_trap\nD k_oob\nD k_loop\n"
    ".amdgpu_metadata\n---\namdhsa.version: [ 1, 0 ]\namdhsa.kernels:\n"
    "  - { .name: k_ok, .symbol: k_ok.kd, .sgpr_count: 8, .vgpr_count: 8, .kernarg_segment_align: 8, "
    ".kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, "
    ".max_flat_workgroup_size: 128 }\n"
    "  - { .name: k_trap, .symbol: k_trap.kd, .sgpr_count: 8, .vgpr_count: 8, .kernarg_segment_align: 8, "
    ".kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, "
    ".max_flat_workgroup_size: 64 }\n"
    "  - .name: k_oob\n    .symbol: k_oob.kd\n    .sgpr_count: 8\n    .vgpr_count: 8\n    .kernarg_segment_align: 8\n"
    "    .kernarg_segment_size: 12\n    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n"
    "    .wavefront_size: 64\n    .max_flat_workgroup_size: 64\n    .args:\n"
    "    - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }\n"
    "    - { .size: 4, .offset: 8, .value_kind: by_value }\n"
    "  - { .name: k_loop, .symbol: k_loop.kd, .sgpr_count: 8, .vgpr_count: 8, .kernarg_segment_align: 8, "
    ".kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, "
    ".max_flat_workgroup_size: 64 }\n"
    "...\n.end_amdgpu_metadata\n";

Test(mk_aiter, dummy_pass_tallies_each_outcome, .timeout = 120) {
  char *d = scratch();
  put(d, "k.s", dummy_src);
  char *cmd = ll_fmt("mkdir -p %s/hsa/gfx942/t && /usr/lib/llvm-22/bin/llvm-mc -triple=amdgcn-amd-amdhsa --mcpu=gfx942 "
                     "-filetype=obj -o %s/k.o %s/k.s && /usr/lib/llvm-22/bin/ld.lld -shared -o %s/hsa/gfx942/t/k.co %s/k.o",
                     d, d, d, d, d);
  char *out;
  int rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s", out);
  free(out), free(cmd);
  cmd = ll_fmt("mkdir -p %s/tmp && TMPDIR=%s/tmp LANELAB=%s/lanelab BUDGET=1000 JOBS=1 bash mk/aiter-dummy-pass.sh %s %s/out",
               d, d, LANELAB_BUILD, d, d);
  rc = sh(cmd, &out);
  cr_assert_eq(rc, 0, "%s", out);
  /* columns: ok out-of-bounds trap missing-waitcnt unimplemented budget other total */
  char *line = strstr(out, "\ngfx942 ");
  cr_assert_not_null(line, "%s", out);
  int c[8];
  cr_assert_eq(sscanf(line + 8, "%d %d %d %d %d %d %d %d", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]), 8,
               "%s", out);
  static const int want[8] = {1, 1, 1, 0, 0, 1, 0, 4};
  for (int i = 0; i < 8; i++) cr_expect_eq(c[i], want[i], "column %d: %d, want %d\n%s", i, c[i], want[i], out);
  free(out);
  char *res = ll_fmt("%s/out/results.tsv", d), *oob = ll_fmt("%s/out/out-of-bounds.tsv", d);
  size_t n;
  char *r = ll_read_file(res, &n, NULL), *o = ll_read_file(oob, &n, NULL);
  cr_assert(r && o);
  /* the block is the kernel's .max_flat_workgroup_size; the stop names its PC and address */
  cr_expect(strstr(r, "hsa/gfx942/t/k.co\tk_ok\t128\tok\t"), "%s", r);
  cr_expect(strstr(r, "\tk_loop\t64\tbudget\t"), "%s", r);
  cr_expect(strstr(o, "hsa/gfx942/t/k.co\tk_oob\t0x") && strstr(o, "global_load_dword v2, v1, s[2:3]"), "oob list: [%s]\nresults: %s", o, r);
  /* a second run resumes: nothing runs again */
  rc = sh(cmd, &out);
  cr_expect(rc == 0 && strstr(out, "0 kernels to run (4 already in"), "%s", out);
  free(out);
  /* the pass's zero buffers are gone after each run, and no half-written summary is left */
  char *left = ll_fmt("ls -A %s/tmp; ls -A %s/out | grep -v '^results.tsv$\\|^summary.txt$\\|^out-of-bounds.tsv$'", d, d);
  rc = sh(left, &out);
  cr_expect_str_eq(out, "", "left behind: [%s]", out);
  free(out), free(left);
  free(r), free(o), free(res), free(oob), free(cmd);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
  free(rm), free(d);
}

Test(mk_aiter, bad_usage_is_exit_2_naming_it) {
  static const char *cmds[] = {"bash mk/aiter-dummy-pass.sh", "bash mk/aiter-dummy-pass.sh /nonexistent",
                               "bash mk/aiter-e2e.sh", "bash mk/aiter-e2e.sh /nonexistent",
                               "JOBS=0 bash mk/aiter-dummy-pass.sh /tmp"};
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    char *out;
    int rc = sh(cmds[i], &out);
    cr_expect_eq(rc, 2, "%s: exit %d\n%s", cmds[i], rc, out);
    cr_expect(strstr(out, "usage:") || strstr(out, "JOBS"), "%s: %s", cmds[i], out);
    free(out);
  }
}
