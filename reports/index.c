/* reports/index — BUILD/reports/index.html: every arch that has results, its verdict per stage,
 * and a link to its report. Each file is written atomically. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "reports/internal.h"


bool report_write_index(const char *build_dir, ll_err *err) {
  ll_err local = {0};
  if (!err) err = &local;
  char *rdir = ll_fmt("%s/results", build_dir), *out = ll_fmt("%s/reports", build_dir);
  report_ctx c = {.build = build_dir, .arch = "all", .out = out, .err = err};
  char **arches = NULL;
  size_t na = 0;
  DIR *d = opendir(rdir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char *p = ll_fmt("%s/%s", rdir, e->d_name);
      struct stat st;
      if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
        arches = ll_xrealloc(arches, (na + 1) * sizeof *arches);
        arches[na++] = ll_xstrdup(e->d_name);
      }
      free(p);
    }
    closedir(d);
  }
  if (na) qsort(arches, na, sizeof *arches, ll_cmp_strp); /* qsort(NULL, 0, ...) is undefined */
  report_table *t = report_table_new("lanelab verify across arches", "arch,verdict,stages#,not run#,failed#,report,per stage");
  bool ok = true;
  for (size_t i = 0; i < na && ok; i++) {
    /* the same reading of the results as the arch's own page, so the two agree */
    report_ctx ac = {.build = build_dir, .arch = arches[i], .err = err};
    ac.results = ll_fmt("%s/%s", rdir, arches[i]);
    char *page = ll_fmt("%s/%s/index.html", out, arches[i]);
    struct stat st;
    ok = report_load_stages(&ac);
    if (ok) {
      size_t nnot = 0, nfail = 0;
      ll_buf per = {0};
      for (size_t k = 0; k < ac.nstages; k++) {
        const char *v = ac.stages[k].verdict;
        nnot += !strcmp(v, "not run");
        nfail += !strcmp(v, "FAIL") || !strcmp(v, "error");
        ll_buf_printf(&per, "%s%s: %s", k ? ", " : "", ac.stages[k].name, v);
      }
      report_table_row(t, "%s\t%s\t%zu\t%zu\t%zu\t%s\t%s", arches[i],
                       ac.overall ? ac.overall : "not run (no summary.json)", ac.nstages, nnot, nfail,
                       stat(page, &st) == 0 ? "yes" : "no report written", ll_buf_str(&per));
      ll_buf_free(&per);
    } else {
      ll_err_prefix(err, "index of %s", arches[i]);
    }
    report_free_stages(&ac);
    free(ac.results);
    free(page);
  }
  if (ok) ok = ll_mkdir_p(out, err) && report_write_assets(out, err) && report_export_table(&c, t, "index-summary");
  if (ok) {
    ll_buf p = {0};
    report_html_begin(&p, "lanelab verify reports", "index");
    time_t now = time(NULL);
    char ts[64];
    strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    ll_buf_printf(&p, "<h1>lanelab verify reports</h1>\n<p>Generated %s from %s. A stage that did not run is shown as "
                      "NOT RUN, never as a pass.</p>\n", ts, rdir);
    if (na == 0)
      ll_buf_puts(&p, "<div class=\"box warn\">No results: lanelab verify has not run for any arch.</div>\n");
    ll_buf_printf(&p, "<table class=\"data\" id=\"arches\" data-expect=\"tbody tr.arch=%zu\"><thead><tr><th>arch</th>"
                      "<th>verdict</th><th>stages</th><th>not run</th><th>failed</th><th>report</th><th>per stage</th></tr></thead><tbody>\n",
                  t->nrows);
    for (size_t r = 0; r < t->nrows; r++) {
      const char *a = report_table_cell(t, r, 0), *v = report_table_cell(t, r, 1), *rep = report_table_cell(t, r, 5);
      ll_buf_printf(&p, "<tr class=\"arch\" data-arch=\"%s\"><td>%s</td><td class=\"%s\">", a, a, report_verdict_class(v));
      report_html_esc(&p, strncmp(v, "not run", 7) ? v : "NOT RUN");
      ll_buf_printf(&p, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
                    report_table_cell(t, r, 2), report_table_cell(t, r, 3), report_table_cell(t, r, 4));
      if (!strcmp(rep, "yes")) ll_buf_printf(&p, "<a href=\"%s/index.html\">%s report</a>", a, a);
      else report_html_esc(&p, rep);
      ll_buf_puts(&p, "</td><td>");
      report_html_esc(&p, report_table_cell(t, r, 6));
      ll_buf_puts(&p, "</td></tr>\n");
    }
    ll_buf_puts(&p, "</tbody></table>\n");
    report_export_links(&p, "index-summary", t->nrows);
    char *mf = ll_fmt("%s/" REPORT_MFMA_DIR "/index.html", out);
    struct stat st;
    if (stat(mf, &st) == 0)
      ll_buf_puts(&p, "<p id=\"mfma\"><a href=\"" REPORT_MFMA_DIR "/index.html\">MFMA layouts</a>: which lane and VGPR "
                      "hold each element of A, B and D, for every MFMA of gfx942 and gfx950.</p>\n");
    free(mf);
    report_html_end(&p);
    ok = report_write_out(&c, "index.html", &p);
    ll_buf_free(&p);
  }
  report_table_free(t);
  for (size_t i = 0; i < na; i++) free(arches[i]);
  free(arches);
  free(rdir);
  free(out);
  return ok;
}
