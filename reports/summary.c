/* reports/summary — the console summary verify prints when an arch did not pass: the failing
 * stage, the kernel or case, the first mismatch, and the report page to open, in at most 10 lines.
 * Read back from BUILD/results/<arch>/ (the same files the report is made from). */
#include <stdlib.h>
#include <string.h>

#include "reports/internal.h"

/* Column index by exact name, -1 if absent. */
static int col(const report_table *t, const char *name) {
  for (size_t i = 0; i < t->ncols; i++)
    if (!strcmp(t->cols[i], name)) return (int)i;
  return -1;
}

/* First row of a failing-looking verdict in stage s: its table and row. */
static bool first_failing_row(const report_stage *s, size_t *ti, size_t *ri) {
  static const char *vcols[] = {"verdict", "result", "status"};
  for (size_t t = 0; t < s->ntables; t++)
    for (size_t v = 0; v < 3; v++) {
      int k = col(s->tables[t], vcols[v]);
      if (k < 0) continue;
      for (size_t r = 0; r < s->tables[t]->nrows; r++) {
        const char *cls = report_verdict_class(report_table_cell(s->tables[t], r, (size_t)k));
        if (!strcmp(cls, "fail") || !strcmp(cls, "error")) { *ti = t; *ri = r; return true; }
      }
    }
  return false;
}

static void line(ll_buf *out, int *n, const char *fmt, const char *a, const char *b) {
  if (*n >= 10) return;
  ll_buf_printf(out, fmt, a, b);
  ll_buf_puts(out, "\n");
  (*n)++;
}

bool report_failure_summary(const char *build, const char *arch, ll_buf *out, ll_err *err) {
  report_ctx c = {.build = build, .arch = arch, .err = err};
  c.results = ll_fmt("%s/results/%s", build, arch);
  bool ok = report_load_stages(&c);
  int n = 0;
  const char *overall = c.overall ? c.overall : "not run";
  if (ok && strcmp(overall, "pass")) {
    /* the first stage in error or failing (a not-run stage only when nothing failed) */
    const report_stage *s = NULL;
    for (int pass = 0; pass < 2 && !s; pass++)
      for (size_t i = 0; i < c.nstages && !s; i++) {
        const char *cls = report_verdict_class(c.stages[i].verdict);
        if (pass == 0 ? (!strcmp(cls, "fail") || !strcmp(cls, "error")) : !strcmp(cls, "notrun") && c.stages[i].present)
          s = &c.stages[i];
      }
    char head[700];
    snprintf(head, sizeof head, "%s %s: stage %s", overall, arch, s ? s->name : "(none recorded)");
    line(out, &n, "lanelab verify: %s%s", head, "");
    if (s) {
      line(out, &n, "  summary: %s%s", s->summary ? s->summary : "-", "");
      size_t ti, ri;
      char *page = ll_fmt("%s/reports/%s/stage-%s.html", build, arch, s->name);
      if (first_failing_row(s, &ti, &ri)) {
        const report_table *t = s->tables[ti];
        const char *first = report_table_cell(t, ri, 0);
        bool lanes = !strcmp(s->name, "lanes") && col(t, "kernel") == 0;
        line(out, &n, "  %s %s", !strcmp(t->cols[0], "kernel") ? "kernel" : !strcmp(t->cols[0], "case") ? "case" : t->cols[0],
             first);
        if (lanes) {
          char fm[400], pat[300];
          ll_err e = {0};
          c.err = &e;
          if (report_lane_first_mismatch(&c, first, fm, sizeof fm, pat, sizeof pat)) {
            if (fm[0]) line(out, &n, "  %s%s", fm, "");
            if (pat[0]) line(out, &n, "  pattern: %s%s", pat, "");
          } else {
            line(out, &n, "  (first mismatch not available: %s%s)", e.msg, "");
          }
          c.err = err;
          free(page);
          page = ll_fmt("%s/reports/%s/lane-%s.html", build, arch, first);
        } else {
          /* the row's other cells that say what went wrong: errors, mismatches, first-mismatch, detail */
          ll_buf cells = {0};
          for (size_t k = 1; k < t->ncols; k++) {
            const char *cn = t->cols[k], *v = report_table_cell(t, ri, k);
            if (!*v || !(strstr(cn, "err") || strstr(cn, "abs") || strstr(cn, "mismatch") || strstr(cn, "first") ||
                         strstr(cn, "detail") || strstr(cn, "expected") || strstr(cn, "got") || strstr(cn, "index")))
              continue;
            ll_buf_printf(&cells, "%s%s=%s", cells.len ? ", " : "", cn, v);
          }
          if (cells.len) {
            char *cl = ll_xstrdup(ll_buf_str(&cells));
            if (strlen(cl) > 400) strcpy(cl + 396, "...");
            line(out, &n, "  first failing row: %s%s", cl, "");
            free(cl);
          }
          ll_buf_free(&cells);
          char *stem = report_table_stem(s, ti), *slug = report_slug(stem);
          free(page);
          page = ll_fmt("%s/reports/%s/stage-%s.html#t-%s", build, arch, s->name, slug);
          free(stem);
          free(slug);
        }
      }
      line(out, &n, "  open: %s%s", page, "");
      free(page);
    }
  }
  report_free_stages(&c);
  free(c.results);
  return ok;
}
