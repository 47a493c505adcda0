/* reports/plot — gnuplot plots: the data file and script are written beside the SVG gnuplot makes
 * from them, so a plot can be regenerated or restyled by hand (`cd plots && gnuplot NAME.gp`). */
#include <ctype.h>
#include <math.h>
#include <strings.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/internal.h"

bool report_run_gnuplot(const char *dir, const char *script, ll_err *err) {
  if (!report_on_path("gnuplot")) {
    ll_seterr(err, LL_EXIT_ENV, "gnuplot not found on PATH; the report's plots need it: install Debian's gnuplot-nox "
                                "(apt-get install -y gnuplot-nox, or run make deps as root)");
    return false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    ll_seterr(err, LL_EXIT_FAIL, "cannot start gnuplot: fork: %s", strerror(errno));
    return false;
  }
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(126);
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) dup2(nul, 1);
    /* gnuplot's own messages (warnings included) go to SCRIPT.log beside the plot, never into the
     * caller's log (a CI log shows lanelab's lines only); report pages show a non-empty log */
    char logname[512];
    snprintf(logname, sizeof logname, "%s.log", script);
    int log = open(logname, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (0 && log >= 0) dup2(log, 2);
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) { ll_seterr(err, LL_EXIT_FAIL, "waiting for gnuplot: %s", strerror(errno)); return false; }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "gnuplot %s (in %s) failed: %s %d", script, dir,
              WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    return false;
  }
  return true;
}

static bool ci_contains(const char *s, const char *sub) {
  size_t n = strlen(sub);
  for (; *s; s++)
    if (strncasecmp(s, sub, n) == 0) return true;
  return false;
}

/* One plot for table t: x = the first non-numeric column (the mutant / kernel name), one series per
 * numeric column whose name says it is an error, a noise floor or a tolerance (*err*, *abs*,
 * *noise*, *tol*), log-scale y. A ratio column (*_over_*, *ratio*) is not an error and is left
 * out: drawn on the error axis it read as one (atol_over_noise once stood beside the errors). */
/* A value a log-scale bar can show. */
static bool drawable(const char *v, double *d) { return ll_parse_f64(v, d) && *d > 0 && *d < 1e308; }

/* Row r's mutant was caught by a fault (no error value to draw: it crashed, which is a catch):
 * its verdict says "caught" and its verdict or check column names the fault. */
static bool caught_by_fault(const report_table *t, size_t r) {
  const char *v = NULL, *check = NULL;
  for (size_t k = 0; k < t->ncols; k++) {
    if (!strcmp(t->cols[k], "verdict")) v = report_table_cell(t, r, k);
    if (!strcmp(t->cols[k], "check")) check = report_table_cell(t, r, k);
  }
  return v && !strncmp(v, "caught", 6) && (strstr(v, "fault") || (check && !strcmp(check, "fault")));
}

static bool plot_table(report_ctx *c, const report_table *t, const char *stem, ll_buf *page) {
  int lab = -1;
  int ser[16], ns = 0, nnamed = 0;
  for (size_t k = 0; k < t->ncols; k++) {
    if (!t->numeric[k] && lab < 0) lab = (int)k;
    if (t->numeric[k] && ns < 16 && !ci_contains(t->cols[k], "_over_") && !ci_contains(t->cols[k], "ratio") &&
        (ci_contains(t->cols[k], "err") || ci_contains(t->cols[k], "tol") || ci_contains(t->cols[k], "abs") ||
         ci_contains(t->cols[k], "noise"))) {
      /* a column with nothing to draw is no series (gnuplot warns of a data column without a point) */
      bool any = false;
      nnamed++;
      for (size_t r = 0; r < t->nrows && !any; r++) {
        double d;
        any = drawable(report_table_cell(t, r, k), &d);
      }
      if (any) ser[ns++] = (int)k;
    }
  }
  if (nnamed == 0 || lab < 0 || t->nrows == 0) {
    ll_buf_puts(page, "<div class=\"box warn\">no plot for this table: ");
    report_html_esc(page, t->nrows == 0 ? "it has no rows" : lab < 0 ? "no text column to label the x axis"
                                                           : "no numeric column named *err*, *abs*, *noise* or *tol*");
    ll_buf_puts(page, "</div>\n");
    return true;
  }
  ll_buf dat = {0}, gp = {0}, unplottable = {0};
  size_t nbad = 0, nfault = 0;
  double lo = INFINITY, hi = 0;
  for (size_t r = 0; r < t->nrows; r++)
    for (int s = 0; s < ns; s++) {
      double d;
      if (drawable(report_table_cell(t, r, ser[s]), &d)) { if (d < lo) lo = d; if (d > hi) hi = d; }
    }
  /* an explicit range (a single value gives gnuplot an empty autoscaled range, and a warning): whole
   * decades around the values, the top one above them for the caught-by-a-fault bars */
  double ylo = lo < INFINITY ? pow(10, floor(log10(lo))) : 1e-3, yhi = hi > 0 ? pow(10, ceil(log10(hi)) + 1) : 1;
  if (yhi <= ylo * 10) yhi = ylo * 100;
  for (size_t r = 0; r < t->nrows; r++) nfault += caught_by_fault(t, r);
  ll_buf_puts(&dat, "# generated by lanelab reports from the mutants stage results; do not edit\n# label");
  for (int s = 0; s < ns; s++) ll_buf_printf(&dat, "\t%s", t->cols[ser[s]]);
  ll_buf_puts(&dat, nfault ? "\tcaught_by_a_fault\n" : "\n");
  for (size_t r = 0; r < t->nrows; r++) {
    ll_buf_puts(&dat, "\"");
    for (const char *p = report_table_cell(t, r, lab); *p; p++) ll_buf_put(&dat, *p == '"' ? "'" : p, 1);
    ll_buf_puts(&dat, "\"");
    bool fault = caught_by_fault(t, r);
    for (int s = 0; s < ns; s++) {
      const char *v = report_table_cell(t, r, ser[s]);
      double d;
      if (drawable(v, &d)) ll_buf_printf(&dat, "\t%.9g", d);
      else {
        ll_buf_puts(&dat, "\t?");
        if (!fault)
          ll_buf_printf(&unplottable, "%s%s %s = %s", nbad++ ? "; " : "", report_table_cell(t, r, lab), t->cols[ser[s]],
                        *v ? v : "(empty)");
      }
    }
    /* the mutant caught by a fault: a bar to the top of the plot in its own colour */
    if (fault) ll_buf_printf(&dat, "\t%.9g\n", yhi);
    else ll_buf_puts(&dat, nfault ? "\t?\n" : "\n");
  }
  if (lo == INFINITY && !nfault) {
    ll_buf_puts(page, "<div class=\"box warn\">no plot: no value in this table can be drawn on a log scale (zero, "
                      "negative or missing): ");
    report_html_esc(page, ll_buf_str(&unplottable));
    ll_buf_puts(page, "</div>\n");
    ll_buf_free(&dat);
    ll_buf_free(&unplottable);
    return true;
  }
  ll_buf_puts(&gp, "# generated by lanelab reports; do not edit. Regenerate: gnuplot this file (in this directory)\n");
  ll_buf_printf(&gp, "set terminal svg size 960,520 dynamic font 'sans,12' background rgb 'white'\n"
                     "set output '%s.svg'\nset datafile missing '?'\nset datafile separator '\\t'\n", stem);
  ll_buf_puts(&gp, "set title \"");
  for (const char *p = t->title ? t->title : stem; *p; p++) ll_buf_put(&gp, *p == '"' ? "'" : p, 1);
  ll_buf_puts(&gp, " (log scale)\" noenhanced\n"
                   "set logscale y\nset format y '10^{%L}'\nset grid ytics mytics\nset ylabel 'error (log scale)'\n"
                   "set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
                   "set boxwidth 0.9\nset xtics rotate by -35 noenhanced\nset key outside top center horizontal noenhanced\n"
                   "set bmargin 8\n");
  ll_buf_printf(&gp, "set yrange [%.3g:%.3g]\nplot ", ylo, yhi);
  for (int s = 0; s < ns; s++) {
    ll_buf_printf(&gp, "%s'%s.dat' using %d:xtic(1) title \"", s ? ", " : "", stem, s + 2);
    for (const char *p = t->cols[ser[s]]; *p; p++) ll_buf_put(&gp, *p == '"' ? "'" : p, 1);
    ll_buf_puts(&gp, "\"");
  }
  if (nfault)
    ll_buf_printf(&gp, "%s'%s.dat' using %d:xtic(1) title \"caught by a fault (no error value)\" lc rgb '#c0392b' "
                       "fillstyle pattern 4", ns ? ", " : "", stem, ns + 2);
  ll_buf_puts(&gp, "\n");
  char *dr = ll_fmt("plots/%s.dat", stem), *gr = ll_fmt("plots/%s.gp", stem), *pd = ll_fmt("%s/plots", c->out);
  char *gpn = ll_fmt("%s.gp", stem), *svg = ll_fmt("%s/plots/%s.svg", c->out, stem);
  bool ok = report_write_out(c, dr, &dat) && report_write_out(c, gr, &gp) && report_run_gnuplot(pd, gpn, c->err);
  struct stat st;
  if (ok && (stat(svg, &st) != 0 || st.st_size == 0)) {
    ll_seterr(c->err, LL_EXIT_FAIL, "gnuplot ran but %s is missing or empty", svg);
    ok = false;
  }
  if (ok) {
    c->nplots++;
    ll_buf_printf(page, "<p><img class=\"plot\" id=\"plot-%s\" src=\"plots/%s.svg\" alt=\"", stem, stem);
    report_html_esc(page, t->title ? t->title : stem);
    ll_buf_printf(page, " (log-scale plot)\"></p>\n<div class=\"exports\">plot made by gnuplot from "
                        "<a href=\"plots/%s.dat\">%s.dat</a> with <a href=\"plots/%s.gp\">%s.gp</a></div>\n",
                  stem, stem, stem, stem);
    if (nbad) {
      ll_buf_puts(page, "<div class=\"box warn\">not drawn (a log scale has no place for zero, negative or missing "
                        "values): ");
      report_html_esc(page, ll_buf_str(&unplottable));
      ll_buf_puts(page, "</div>\n");
    }
    char *logp = ll_fmt("%s/plots/%s.gp.log", c->out, stem);
    size_t ln = 0;
    char *log = ll_read_file(logp, &ln, NULL);
    if (log && ln) { /* what gnuplot said, on the page (lanelab's own log stays clean) */
      ll_buf_puts(page, "<div class=\"box warn\">gnuplot said: ");
      report_html_esc(page, log);
      ll_buf_puts(page, "</div>\n");
    }
    free(log);
    free(logp);
  }
  free(dr); free(gr); free(pd); free(gpn); free(svg);
  ll_buf_free(&dat);
  ll_buf_free(&gp);
  ll_buf_free(&unplottable);
  return ok;
}

bool report_mutant_plots(report_ctx *c, const report_stage *s, ll_buf *page) {
  for (size_t i = 0; i < s->ntables; i++) {
    char *stem = report_table_stem(s, i);
    ll_buf_puts(page, "<h3>plot: ");
    report_html_esc(page, s->tables[i]->title ? s->tables[i]->title : stem);
    ll_buf_puts(page, "</h3>\n");
    bool ok = plot_table(c, s->tables[i], stem, page);
    free(stem);
    if (!ok) return false;
  }
  return true;
}
