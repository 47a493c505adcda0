/* verify/stages — the one stage set, in the order `lanelab verify` runs them, and the stages short
 * enough to live here: model, kernels, isa, base. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "isa/isa.h"
#include "lanes/lanes.h"
#include "verify/manifest.h"
#include "verify/prod.h"
#include "verify/verify.h"

/* Kernel sources live in these folders (relative to the repository root, the working directory
 * of `make verify`); each builds to build/<arch>/kernels/NAME.co or leaves NAME.skip. */
static const char *kernel_dirs[] = {"kernels/micro", "kernels/prod", "kernels/bench"};

static char *read_line(const char *path) {
  size_t n;
  char *s = ll_read_file(path, &n, NULL);
  if (!s) return NULL;
  char *nl = strchr(s, '\n');
  if (nl) *nl = 0;
  return s;
}

/* Kernels of lanelab's own that no stage checks, each with the reason (the kernels stage reports
 * them NOT CHECKED without failing). Empty: every kernel in kernels/ is checked. */
static const struct { const char *kernel, *reason; } not_checked_catalogue[] = {{NULL, NULL}};

/* The stage that checks kernel NAME built from SRC (malloc'd), or NULL: the lanes stage's
 * micro-kernels, the prod matrix's code objects, lanelab's own manifest (sources there). */
static char *checked_by(const verify_ctx *c, const manifest *own, const char *name, const char *src) {
  if (verify_lanes_runs(name)) return ll_xstrdup("lanes");
  if (verify_prod_runs(c->shapes, name)) return ll_fmt("prod (%s shapes)", c->shapes);
  for (size_t i = 0; own && i < own->nkernels; i++) {
    const char *ks = own->kernels[i].source;
    size_t kl = ks ? strlen(ks) : 0, sl = strlen(src);
    if (ks && own->kernels[i].ref != MF_REF_NONE && kl >= sl && !strcmp(ks + kl - sl, src) &&
        (kl == sl || ks[kl - sl - 1] == '/'))
      return ll_fmt("manifest (%s: %s)", VERIFY_OWN_MANIFEST, own->kernels[i].name);
  }
  return NULL;
}

/* Every kernel source is built for this arch, or skipped with a stated reason; each is checked by
 * a stage, or reported NOT CHECKED (a failure unless not_checked_catalogue gives the reason). */
static void lab_kernels(const verify_ctx *c, stage_result *r) {
  report_table *t = report_table_new("kernels built for this arch", "kernel,source,status,checked_by,detail");
  size_t built = 0, skipped = 0, missing = 0, total = 0, unchecked = 0, unchecked_ok = 0;
  char first_unchecked[200] = "";
  ll_err merr = {0};
  manifest *own = manifest_load(VERIFY_OWN_MANIFEST, &merr);
  if (!own) { stage_set(r, VERDICT_BAD, "%s", merr.msg); report_table_free(t); return; }
  for (size_t d = 0; d < sizeof kernel_dirs / sizeof *kernel_dirs; d++) {
    DIR *dir = opendir(kernel_dirs[d]);
    if (!dir) continue;
    struct dirent *e;
    char **names = NULL;
    size_t nn = 0;
    while ((e = readdir(dir))) {
      size_t len = strlen(e->d_name);
      if (len > 4 && strcmp(e->d_name + len - 4, ".hip") == 0) {
        names = ll_xrealloc(names, (nn + 1) * sizeof *names);
        names[nn++] = ll_xstrdup(e->d_name);
      }
    }
    closedir(dir);
    qsort(names, nn, sizeof *names, ll_cmp_strp);
    for (size_t i = 0; i < nn; i++) {
      total++;
      char *name = ll_xstrdup(names[i]);
      name[strlen(name) - 4] = 0;
      char *src = ll_fmt("%s/%s", kernel_dirs[d], names[i]);
      char *co = ll_fmt("%s/%s/kernels/%s.co", c->build, c->arch_name, name);
      char *skip = ll_fmt("%s/%s/kernels/%s.skip", c->build, c->arch_name, name);
      struct stat sc, ss;
      bool have_co = stat(co, &sc) == 0, have_src = stat(src, &ss) == 0;
      char *why = have_co ? NULL : read_line(skip);
      char *by = checked_by(c, own, name, src);
      if (!by) {
        const char *reason = NULL;
        for (size_t k = 0; not_checked_catalogue[k].kernel; k++)
          if (!strcmp(not_checked_catalogue[k].kernel, name)) reason = not_checked_catalogue[k].reason;
        if (reason) { by = ll_fmt("NOT CHECKED: %s", reason); unchecked_ok++; }
        else {
          by = ll_xstrdup("NOT CHECKED: no stage runs it (add it to " VERIFY_OWN_MANIFEST ")");
          if (!unchecked++) snprintf(first_unchecked, sizeof first_unchecked, "%s", src);
        }
      }
      if (have_co && have_src && sc.st_mtime < ss.st_mtime) {
        report_table_row(t, "%s\t%s\tstale\t%s\t%s is older than its source; run make kernels", name, src, by, co);
        missing++;
      } else if (have_co) {
        report_table_row(t, "%s\t%s\tbuilt\t%s\t%s", name, src, by, co);
        built++;
      } else if (why) {
        report_table_row(t, "%s\t%s\tskipped\t%s\t%s", name, src, by, why);
        skipped++;
      } else {
        report_table_row(t, "%s\t%s\tmissing\t%s\tneither %s nor a .skip with a reason; run make kernels", name, src, by, co);
        missing++;
      }
      free(why);
      free(by); free(skip); free(co); free(src); free(name); free(names[i]);
    }
    free(names);
  }
  stage_add_table(r, t);
  manifest_free(own);
  if (total == 0) stage_set(r, VERDICT_BAD, "no kernel sources found under kernels/ (run from the repository root)");
  else if (missing) stage_set(r, VERDICT_FAIL, "%zu of %zu kernels missing or stale for %s", missing, total, c->arch_name);
  else if (unchecked)
    stage_set(r, VERDICT_FAIL, "%zu of %zu kernels NOT CHECKED by any stage (first: %s)", unchecked, total, first_unchecked);
  else stage_set(r, VERDICT_PASS, "%zu kernels built, %zu skipped with a stated reason; each checked by a stage (%zu NOT "
                 "CHECKED with a stated reason)", built, skipped, unchecked_ok);
}

/* The lane-map model reproduces the seed change's published facts (lanes_model_checks). */
static void stage_model(const verify_ctx *c, stage_result *r) {
  lanes_arch la;
  ll_err err = {0};
  if (!lanes_arch_parse(c->arch_name, &la, &err)) { stage_set(r, VERDICT_BAD, "%s", err.msg); return; }
  lanes_checks ck;
  bool ok = lanes_model_checks(la, &ck);
  report_table *t = report_table_new("lane-map model checks", "check,expected,got,result");
  for (int i = 0; i < ck.n; i++)
    report_table_row(t, "%s\t%s\t%s\t%s", ck.c[i].name, ck.c[i].expected, ck.c[i].got, ck.c[i].pass ? "pass" : "FAIL");
  stage_add_table(r, t);
  if (ck.n == 0) stage_set(r, VERDICT_FAIL, "the model ran no checks");
  else if (ok) stage_set(r, VERDICT_PASS, "%d model checks passed", ck.n);
  else stage_set(r, VERDICT_FAIL, "%d of %d model checks failed", ck.failed, ck.n);
}

/* Static instruction census of every built kernel, and the budgets kept in isa/budgets.json. */
static void lab_isa(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  isa_budgets *b = isa_budgets_load("isa/budgets.json", &err);
  if (!b) { stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "%s", err.msg); return; }
  report_table *bt = NULL;
  const char *arches[] = {c->arch_name};
  int failed = isa_budgets_eval(b, c->build, arches, 1, &bt, &err);
  isa_budgets_free(b);
  if (failed < 0) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "budgets: %s", err.msg);
    return;
  }
  size_t rules = bt->nrows, skipped = 0;
  for (size_t i = 0; i < bt->nrows; i++)
    if (strncmp(report_table_cell(bt, i, bt->ncols - 1), "skipped", 7) == 0) skipped++;
  stage_add_table(r, bt);
  /* Census of every kernel built for this arch, for the report. */
  char *dir = ll_fmt("%s/%s/kernels", c->build, c->arch_name);
  DIR *d = opendir(dir);
  size_t ncensus = 0;
  struct dirent *e;
  char **cos = NULL;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 3 && strcmp(e->d_name + len - 3, ".co") == 0) {
      char *co = ll_fmt("%s/%s", dir, e->d_name);
      if (isa_output_is_stale(co)) { /* its source is gone: never counted */
        free(co);
        continue;
      }
      cos = ll_xrealloc(cos, (ncensus + 1) * sizeof *cos);
      cos[ncensus++] = co;
    }
  }
  if (d) closedir(d);
  qsort(cos, ncensus, sizeof *cos, ll_cmp_strp);
  for (size_t i = 0; i < ncensus; i++) {
    isa_census *cs = isa_census_file(cos[i], &err);
    if (!cs) { stage_set(r, VERDICT_BAD, "census of %s: %s", cos[i], err.msg); goto out; }
    report_table *t = isa_census_table(cs);
    free(t->title);
    t->title = ll_fmt("census %s", cos[i]);
    stage_add_table(r, t);
    isa_census_free(cs);
  }
  if (failed) stage_set(r, VERDICT_FAIL, "%d of %zu budget rules failed", failed, rules);
  else stage_set(r, VERDICT_PASS, "%zu budget rules passed (%zu skipped with a reason); census of %zu code objects",
                 rules - skipped, skipped, ncensus);
out:
  for (size_t i = 0; i < ncensus; i++) free(cos[i]);
  free(cos);
  free(dir);
}

/* The arch's code objects are byte-identical to those built at a base revision. */
static void stage_base(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  isa_base_result br = {0};
  report_table *t = NULL;
  char *cur = ll_fmt("%s/%s/kernels", c->build, c->arch_name);
  int n = isa_base_compare(".", c->base, c->arch_name, cur, &br, &t, verify_quiet ? NULL : stderr, &err);
  free(cur);
  if (n < 0) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : err.code == LL_EXIT_USAGE ? VERDICT_BAD : VERDICT_FAIL,
              "base %s: %s", c->base, err.msg);
    return;
  }
  stage_add_table(r, t);
  if (n == 0) stage_set(r, VERDICT_PASS, "%zu %s code objects byte-identical to %s (%zu skipped in both)",
                        br.identical, c->arch_name, c->base, br.skipped_both);
  else stage_set(r, VERDICT_FAIL, "%s differs from %s: %zu different, %zu only in base, %zu only in current",
                 c->arch_name, c->base, br.different, br.only_base, br.only_current);
}

/* Each stage covers both kinds of run where both have it: lanelab's own kernels folder or the
 * manifest's kernels; budgets.json or each kernel's budgets. */
static void stage_kernels(const verify_ctx *c, stage_result *r) {
  if (c->manifest) verify_manifest_kernels(c, r);
  else lab_kernels(c, r);
}

static void stage_isa(const verify_ctx *c, stage_result *r) {
  if (c->manifest) verify_manifest_isa(c, r);
  else lab_isa(c, r);
}

/* The one stage set, in the order they run. A run takes the stages of its kind (verify.h
 * VERIFY_LAB / VERIFY_USER); a new stage is a row here and a function (docs/architecture.md,
 * "Add a verify stage"). */
const verify_stage verify_stages[] = {
    {"model", VERIFY_LAB, "lane-map model: the seed change's facts, solver closed form", NULL, stage_model, false, false},
    {"kernels", VERIFY_LAB | VERIFY_USER, "every kernel source built for the arch or skipped with a reason",
     "every manifest kernel built for the arch; each one's checks named, NOT CHECKED otherwise", stage_kernels, false, false},
    {"isa", VERIFY_LAB | VERIFY_USER, "instruction census against budgets",
     "instruction census of each code object and its budgets", stage_isa, false, false},
    {"lanes", VERIFY_LAB, "micro-kernel register dumps diffed bit-exactly against the lane model", NULL, verify_stage_lanes,
     false, true},
    {"prod", VERIFY_LAB, "production kernels against the CPU oracle", NULL, verify_stage_prod, false, true},
    {"outputs", VERIFY_USER, "each kernel's outputs against its reference at the stated tolerances", NULL,
     verify_stage_outputs, false, true},
    {"mutants", VERIFY_LAB | VERIFY_USER, "deliberate-mismatch kernels must fail",
     "each manifest mutant must fail against the reference", verify_stage_mutants, false, true},
    {"manifest", VERIFY_LAB, "lanelab's own kernels no other stage runs, against their references (" VERIFY_OWN_MANIFEST ")",
     NULL, verify_stage_own_manifest, false, true},
    {"base", VERIFY_LAB, "code objects byte-identical to a base revision", NULL, stage_base, true, false},
};
const size_t verify_nstages = sizeof verify_stages / sizeof verify_stages[0];
