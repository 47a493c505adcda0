/* isa/base — "is this arch untouched by the change?" Builds the kernels of a base revision in a
 * temporary git worktree and compares every kernel code object's machine code with the current
 * build, byte for byte (the proof used for gfx942 in docs/changes.md, change 000: "its device
 * ISA is byte-identical to base"). */
#include "isa/isa.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* NAMEs of NAME.co / NAME.skip in dir, appended to *v (deduplicated later). false if no dir. */
static bool list_names(const char *dir, char ***v, size_t *n) {
  DIR *d = opendir(dir);
  if (!d) return false;
  for (struct dirent *de; (de = readdir(d));) {
    size_t l = strlen(de->d_name);
    if (de->d_name[0] == '.') continue;
    size_t stem = l > 3 && strcmp(de->d_name + l - 3, ".co") == 0 ? l - 3
                  : l > 5 && strcmp(de->d_name + l - 5, ".skip") == 0 ? l - 5 : 0;
    if (!stem) continue;
    *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = ll_fmt("%.*s", (int)stem, de->d_name);
  }
  closedir(d);
  return true;
}

static bool exists(const char *p) { struct stat st; return stat(p, &st) == 0; }

static char *skip_reason(const char *path) {
  size_t n;
  char *s = ll_read_file(path, &n, NULL);
  if (!s) return ll_xstrdup("(unreadable .skip)");
  s = ll_xrealloc(s, n + 1);
  s[n] = 0;
  s[strcspn(s, "\n")] = 0;
  return s;
}

int isa_compare_kernel_dirs(const char *base_dir, const char *cur_dir, isa_base_result *res, report_table **out,
                            ll_err *err) {
  memset(res, 0, sizeof *res);
  *out = NULL;
  char **names = NULL;
  size_t nn = 0;
  bool have_base = list_names(base_dir, &names, &nn), have_cur = list_names(cur_dir, &names, &nn);
  if (nn) qsort(names, nn, sizeof *names, ll_cmp_strp);
  report_table *t = report_table_new("kernel .text: base vs current", "kernel,verdict,detail");
  int bad = 0;
  for (size_t i = 0; i < nn; i++) {
    if (i > 0 && strcmp(names[i], names[i - 1]) == 0) continue;
    char *bco = ll_fmt("%s/%s.co", base_dir, names[i]), *cco = ll_fmt("%s/%s.co", cur_dir, names[i]);
    char *bsk = ll_fmt("%s/%s.skip", base_dir, names[i]), *csk = ll_fmt("%s/%s.skip", cur_dir, names[i]);
    bool hb = exists(bco), hc = exists(cco), sb = !hb && exists(bsk), sc = !hc && exists(csk);
    if (hb && hc) {
      isa_diff_result r;
      if (!isa_diff_files(bco, cco, &r, NULL, err)) {
        free(bco); free(cco); free(bsk); free(csk);
        for (size_t j = i; j < nn; j++) free(names[j]);
        free(names);
        report_table_free(t);
        return -1;
      }
      if (r.identical) {
        res->identical++;
        report_table_row(t, "%s\tidentical\t", names[i]);
      } else {
        res->different++;
        bad++;
        if (r.first_offset >= 0)
          report_table_row(t, "%s\tdifferent\t.text first differs at offset 0x%llx: base %s | current %s", names[i],
                           (unsigned long long)r.first_offset, r.insn_a, r.insn_b);
        else
          report_table_row(t, "%s\tdifferent\t.text bytes identical but kernels or arch differ (%zu different, %zu only in base, %zu only in current)",
                           names[i], r.kernels_different, r.kernels_only_a, r.kernels_only_b);
      }
    } else if (sb && sc) {
      res->skipped_both++;
      char *why = skip_reason(csk);
      report_table_row(t, "%s\tskipped in both\t%s", names[i], why);
      free(why);
    } else if (hb) {
      res->only_base++;
      bad++;
      char *why = sc ? skip_reason(csk) : NULL;
      report_table_row(t, "%s\tonly in base\tcurrent: %s%s", names[i], sc ? "skipped: " : "not built", why ? why : "");
      free(why);
    } else {
      res->only_current++;
      bad++;
      char *why = sb ? skip_reason(bsk) : NULL;
      report_table_row(t, "%s\tonly in current\tbase: %s%s", names[i], sb ? "skipped: " : "not built", why ? why : "");
      free(why);
    }
    free(bco); free(cco); free(bsk); free(csk);
  }
  for (size_t i = 0; i < nn; i++) free(names[i]);
  free(names);
  if (!have_base) report_table_note(t, "base: %s does not exist (no kernels built there)", base_dir);
  if (!have_cur) report_table_note(t, "current: %s does not exist (run make kernels)", cur_dir);
  report_table_note(t, "base %s, current %s", base_dir, cur_dir);
  report_table_note(t, "%zu identical, %zu different, %zu only in base, %zu only in current, %zu skipped in both", res->identical,
                    res->different, res->only_base, res->only_current, res->skipped_both);
  *out = t;
  return bad;
}

/* ---- the worktree ---------------------------------------------------------------------------*/
static char *git_line(const char *dir, char *const *args, ll_err *err, int *rc_out) {
  char *argv[12] = {"git", "-C", (char *)dir};
  int k = 3;
  for (int i = 0; args[i] && k < 11; i++) argv[k++] = args[i];
  argv[k] = NULL;
  ll_buf o = {0}, e = {0};
  int rc = isa_run(argv, NULL, NULL, &o, &e, err);
  *rc_out = rc;
  if (rc < 0) {
    ll_seterr(err, LL_EXIT_ENV, "cannot run git: install it (apt-get install -y git)");
  } else if (rc != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "git %s failed (exit %d): %s", args[0], rc, e.data ? e.data : "");
  }
  ll_buf_free(&e);
  if (rc != 0) { ll_buf_free(&o); return NULL; }
  char *s = ll_xstrdup(o.data ? o.data : "");
  s[strcspn(s, "\n")] = 0;
  ll_buf_free(&o);
  return s;
}

int isa_base_compare(const char *repo_root, const char *rev, const char *arch, const char *cur_kernels_dir,
                     isa_base_result *res, report_table **out, FILE *log, ll_err *err) {
  memset(res, 0, sizeof *res);
  *out = NULL;
  if (!arch || (strcmp(arch, "gfx942") != 0 && strcmp(arch, "gfx950") != 0)) {
    ll_seterr(err, LL_EXIT_USAGE, "base compare: unknown arch '%s' (expected gfx942 or gfx950)", arch ? arch : "");
    return -1;
  }
  if (!rev || !rev[0] || rev[0] == '-') {
    ll_seterr(err, LL_EXIT_USAGE, "base compare: bad revision '%s'", rev ? rev : "");
    return -1;
  }
  int rc;
  char *spec = ll_fmt("%s^{commit}", rev);
  char *a1[] = {"rev-parse", "--verify", "--quiet", spec, NULL};
  char *hash = git_line(repo_root, a1, err, &rc);
  free(spec);
  if (!hash) {
    if (rc > 0) ll_seterr(err, LL_EXIT_USAGE, "base compare: '%s' is not a commit in the repository at %s", rev, repo_root);
    return -1;
  }
  char *a2[] = {"rev-parse", "--show-toplevel", NULL};
  char *top = git_line(repo_root, a2, err, &rc);
  if (!top) { free(hash); return -1; }
  /* build/base-REV-PID: under build/ (never committed), unique per run so concurrent runs and a
   * worktree left behind by a killed run do not collide. */
  char safe[48];
  size_t k = 0;
  for (const char *p = rev; *p && k < sizeof safe - 1; p++)
    safe[k++] = (strchr("._-", *p) || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) ? *p : '_';
  safe[k] = 0;
  char *bdir = ll_fmt("%s/build", top), *wt = ll_fmt("%s/build/base-%s-%ld", top, safe, (long)getpid());
  int result = -1;
  bool added = false;
  if (!ll_mkdir_p(bdir, err)) goto done;
  if (log) fprintf(log, "lanelab: building %s kernels of %s (%.12s) in %s\n", arch, rev, hash, wt);
  char *a3[] = {"worktree", "add", "--detach", "--quiet", wt, hash, NULL};
  char *r3 = git_line(top, a3, err, &rc);
  if (!r3) { if (err) err->code = LL_EXIT_ENV; ll_err_prefix(err, "base compare: creating the worktree"); goto done; }
  free(r3);
  added = true;
  {
    /* A clean environment for the base build: when lanelab runs under `make verify`, MAKEFLAGS
     * carries the outer make's variables (ARCH=, BASE=) and jobserver, which must not leak in;
     * and make exports command-line variables to the environment, so under `make test SAN=1` the
     * base build went to build/san/ and every kernel read "base: not built". Device code does
     * not depend on SAN, so the base is built plainly. */
    char *archv = ll_fmt("ARCHES=%s", arch);
    char *argv[] = {"env", "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", "-u", "SAN", "make", "-C", wt, "-j2",
                    "kernels", archv, "SAN=", NULL};
    ll_buf mo = {0};
    int mrc = isa_run(argv, NULL, NULL, &mo, &mo, err);
    free(archv);
    if (mrc != 0) {
      const char *s = mo.data ? mo.data : "";
      size_t n = strlen(s);
      if (mrc > 0)
        ll_seterr(err, mrc == 127 ? LL_EXIT_ENV : LL_EXIT_FAIL, "base compare: building the kernels of %s failed (make exit %d)%s; end of its output:\n%s",
                  rev, mrc, mrc == 127 ? " -- is make installed? (apt-get install -y make)" : "", n > 800 ? s + n - 800 : s);
      ll_buf_free(&mo);
      goto done;
    }
    ll_buf_free(&mo);
  }
  {
    char *base_dir = ll_fmt("%s/build/%s/kernels", wt, arch);
    result = isa_compare_kernel_dirs(base_dir, cur_kernels_dir, res, out, err);
    if (result >= 0) report_table_note(*out, "base revision %s = %s, arch %s", rev, hash, arch);
    free(base_dir);
  }
done:
  if (added) {
    ll_err e2 = {0};
    char *a4[] = {"worktree", "remove", "--force", wt, NULL};
    char *r4 = git_line(top, a4, &e2, &rc);
    if (!r4 && log) fprintf(log, "lanelab: could not remove worktree %s: %s\n", wt, e2.msg);
    free(r4);
  }
  free(bdir);
  free(wt);
  free(top);
  free(hash);
  return result;
}
