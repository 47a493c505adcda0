/* reports/arch — one arch's report: built in a temporary directory, then swapped in whole. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reports/internal.h"

static const char *stage_title(const char *name) {
  static const struct { const char *n, *t; } titles[] = {
      {"model", "lane-map model checks"},     {"kernels", "kernels built"},
      {"isa", "ISA census and budgets"},      {"lanes", "micro-kernel lane dumps"},
      {"prod", "production kernels vs oracle"}, {"mutants", "A/B mutants (deliberate mismatches)"},
      {"base", "byte identity against a base revision"}, {"outputs", "manifest kernels against their references"},
      {"manifest", "lanelab's own manifest (kernels/manifest.json)"}};
  for (size_t i = 0; i < sizeof titles / sizeof *titles; i++)
    if (!strcmp(titles[i].n, name)) return titles[i].t;
  return name;
}


static bool stage_page(report_ctx *c, const report_stage *s) {
  ll_buf p = {0};
  char *title = ll_fmt("%s %s: %s", c->arch, s->name, stage_title(s->name));
  report_html_begin(&p, title, "stage");
  ll_buf_printf(&p, "<p><a href=\"index.html\">&larr; %s report</a></p><h1>", c->arch);
  report_html_esc(&p, title);
  ll_buf_printf(&p, "</h1>\n<table class=\"meta\"><tr><td>verdict</td><td><span class=\"verdict %s\" id=\"verdict\">",
                report_verdict_class(s->verdict));
  report_html_esc(&p, strcmp(s->verdict, "not run") ? s->verdict : "NOT RUN");
  ll_buf_puts(&p, "</span></td></tr><tr><td>summary</td><td>");
  report_html_esc(&p, s->summary);
  ll_buf_puts(&p, "</td></tr>");
  if (s->what) { ll_buf_puts(&p, "<tr><td>what</td><td>"); report_html_esc(&p, s->what); ll_buf_puts(&p, "</td></tr>"); }
  ll_buf_puts(&p, "<tr><td>device</td><td>");
  report_html_esc(&p, s->device ? s->device : "none (no kernel ran in this stage)");
  ll_buf_printf(&p, "</td></tr><tr><td>seconds</td><td>%.2f</td></tr></table>\n", s->seconds);
  bool ok = true;
  if (!s->present) {
    ll_buf_puts(&p, "<div class=\"box warn\">This stage did not run: nothing here is a pass.</div>\n");
  } else if (!strcmp(s->name, "mutants") && s->ntables) {
    ll_buf_puts(&p, "<h2>Error per mutant against the correct kernel</h2>\n");
    ok = report_mutant_plots(c, s, &p);
  }
  if (s->present && s->ntables == 0) ll_buf_puts(&p, "<p>The stage wrote no tables.</p>\n");
  if (s->ntables) ll_buf_puts(&p, "<h2>Tables</h2>\n");
  for (size_t i = 0; ok && i < s->ntables; i++) {
    char *stem = report_table_stem(s, i);
    ok = report_emit_table(c, &p, s->tables[i], stem);
    free(stem);
  }
  report_html_end(&p);
  char *rel = ll_fmt("stage-%s.html", s->name);
  ok = ok && report_write_out(c, rel, &p);
  free(rel);
  free(title);
  ll_buf_free(&p);
  return ok;
}

static bool write_index(report_ctx *c, ll_buf *sections) {
  ll_buf p = {0};
  char *title = ll_fmt("lanelab verify report: %s", c->arch);
  report_html_begin(&p, title, "arch-index");
  ll_buf_puts(&p, "<p><a href=\"../index.html\">&larr; all arches</a></p><h1>");
  report_html_esc(&p, title);
  ll_buf_puts(&p, "</h1>\n");
  /* devices the stages ran on */
  ll_buf dev = {0};
  size_t nrun = 0, nnot = 0, nfail = 0;
  for (size_t i = 0; i < c->nstages; i++) {
    const report_stage *s = &c->stages[i];
    if (s->device && !strstr(ll_buf_str(&dev), s->device)) ll_buf_printf(&dev, "%s%s", dev.len ? ", " : "", s->device);
    if (!strcmp(s->verdict, "not run")) nnot++;
    else nrun++;
    if (!strcmp(s->verdict, "FAIL") || !strcmp(s->verdict, "error")) nfail++;
  }
  const char *overall = c->overall ? c->overall : "not run";
  ll_buf_printf(&p, "<table class=\"meta\"><tr><td>overall verdict</td><td><span class=\"verdict %s\" id=\"overall\">",
                report_verdict_class(overall));
  report_html_esc(&p, c->overall ? (strcmp(c->overall, "not run") ? c->overall : "NOT RUN")
                                 : "NOT RUN (no summary.json: lanelab verify did not finish for this arch)");
  ll_buf_printf(&p, "</span></td></tr><tr><td>stages</td><td>%zu ran, %zu not run, %zu failed or in error</td></tr>",
                nrun, nnot, nfail);
  ll_buf_puts(&p, "<tr><td>device</td><td>");
  report_html_esc(&p, dev.len ? ll_buf_str(&dev) : "none recorded (no stage ran a kernel)");
  ll_buf_puts(&p, "</td></tr><tr><td>shapes</td><td>");
  report_html_esc(&p, c->shapes ? c->shapes : "-");
  ll_buf_puts(&p, "</td></tr><tr><td>results</td><td>");
  report_html_esc(&p, c->results);
  time_t now = time(NULL);
  char ts[64];
  strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
  ll_buf_printf(&p, "</td></tr><tr><td>generated</td><td>%s</td></tr></table>\n", ts);
  ll_buf_free(&dev);
  if (nnot) {
    ll_buf_printf(&p, "<div class=\"box warn\" id=\"notrun-warning\">%zu stage%s did not run (", nnot, nnot == 1 ? "" : "s");
    size_t k = 0;
    for (size_t i = 0; i < c->nstages; i++)
      if (!strcmp(c->stages[i].verdict, "not run")) ll_buf_printf(&p, "%s%s", k++ ? ", " : "", c->stages[i].name);
    ll_buf_puts(&p, "): not run is not a pass.</div>\n");
  }
  /* the stage table */
  report_table *t = report_table_new("verification stages", "stage,verdict,summary,device,seconds#,details");
  for (size_t i = 0; i < c->nstages; i++) {
    const report_stage *s = &c->stages[i];
    report_table_row(t, "%s\t%s\t%s\t%s\t%.2f\tstage-%s.html", s->name, s->verdict, s->summary, s->device ? s->device : "",
                     s->seconds, s->name);
  }
  bool ok = report_export_table(c, t, "stages");
  ll_buf_printf(&p, "<h2 id=\"summary\">Stages</h2>\n<table class=\"data\" id=\"stages\" data-expect=\"tbody tr.stage=%zu\">"
                    "<thead><tr><th>stage</th><th>verdict</th><th>summary</th><th>device</th><th>seconds</th>"
                    "<th>details</th></tr></thead><tbody>\n", c->nstages);
  for (size_t i = 0; i < c->nstages; i++) {
    const report_stage *s = &c->stages[i];
    const char *vc = report_verdict_class(s->verdict);
    ll_buf_printf(&p, "<tr class=\"stage\" data-stage=\"%s\" data-verdict=\"%s\"><td>%s</td><td class=\"%s\">", s->name,
                  s->verdict, s->name, vc);
    report_html_esc(&p, strcmp(s->verdict, "not run") ? s->verdict : "NOT RUN");
    ll_buf_puts(&p, "</td><td>");
    report_html_esc(&p, s->summary);
    ll_buf_puts(&p, "</td><td>");
    report_html_esc(&p, s->device ? s->device : "");
    ll_buf_printf(&p, "</td><td class=\"num\">%.2f</td><td><a href=\"stage-%s.html\">%s</a></td></tr>\n", s->seconds,
                  s->name, s->present ? (s->ntables ? "tables" : "details") : "why");
  }
  ll_buf_puts(&p, "</tbody></table>\n");
  report_export_links(&p, "stages", t->nrows);
  report_table_free(t);
  /* pointers to the stage pages users look for most */
  ll_buf_puts(&p, "<h2 id=\"details\">Details</h2><ul>\n");
  static const struct { const char *stage, *text; } links[] = {
      {"prod", "oracle comparison per case (max abs/rel error, tolerance, noise floor, verdict)"},
      {"mutants", "A/B mutants: error per mutant against the correct kernel, with a log-scale plot"},
      {"isa", "ISA census tables and instruction budgets"},
      {"base", "byte-identity verdict against the base revision"},
      {"model", "lane-map model checks (the seed change's published facts)"},
      {"kernels", "which kernels were built or skipped, and why"}};
  for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
    const report_stage *s = report_find_stage(c, links[i].stage);
    if (!s) continue;
    ll_buf_printf(&p, "<li><a href=\"stage-%s.html\">%s</a> &mdash; <span class=\"%s\">", s->name, links[i].text,
                  report_verdict_class(s->verdict));
    report_html_esc(&p, strcmp(s->verdict, "not run") ? s->verdict : "NOT RUN");
    ll_buf_puts(&p, "</span></li>\n");
  }
  /* dynamic instruction counts, wherever a stage put them: a table titled as one (the census per
   * phase), linked to that table itself. A table that only has an instruction-count column (the
   * oracle comparison's wave_insns) is not one: it was once listed under this label. */
  for (size_t i = 0; i < c->nstages; i++)
    for (size_t k = 0; k < c->stages[i].ntables; k++) {
      const char *tt = c->stages[i].tables[k]->title;
      if (!tt || !strstr(tt, "dynamic")) continue;
      char *stem = report_table_stem(&c->stages[i], k), *slug = report_slug(stem);
      ll_buf_printf(&p, "<li><a class=\"dyn\" href=\"stage-%s.html#t-%s\">", c->stages[i].name, slug);
      ll_buf_puts(&p, "dynamic instruction counts: ");
      report_html_esc(&p, tt);
      ll_buf_puts(&p, "</a></li>\n");
      free(stem);
      free(slug);
    }
  ll_buf_puts(&p, "</ul>\n");
  report_png_note(c, &p);
  ll_buf_put(&p, sections->data, sections->len);
  report_html_end(&p);
  ok = ok && report_write_out(c, "index.html", &p);
  ll_buf_free(&p);
  free(title);
  return ok;
}

bool report_write_arch(const char *build_dir, const char *arch, ll_err *err) {
  ll_err local = {0};
  if (!err) err = &local;
  if (!arch || (strcmp(arch, "gfx942") && strcmp(arch, "gfx950"))) {
    ll_seterr(err, LL_EXIT_USAGE, "report: unknown arch '%s' (expected gfx942 or gfx950)", arch ? arch : "(null)");
    return false;
  }
  report_ctx c = {.build = build_dir, .arch = arch, .err = err};
  c.results = ll_fmt("%s/results/%s", build_dir, arch);
  char *reports = ll_fmt("%s/reports", build_dir);
  char *final = ll_fmt("%s/%s", reports, arch);
  c.out = ll_fmt("%s/.%s.tmp-%ld", reports, arch, (long)getpid());
  char *old = ll_fmt("%s/.%s.old-%ld", reports, arch, (long)getpid());
  bool ok = false, made = false;
  ll_buf sections = {0};
  struct stat st;
  if (stat(c.results, &st) != 0 || !S_ISDIR(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "report: no results directory %s (run lanelab verify --arch %s first)", c.results, arch);
    goto out;
  }
  if (!ll_mkdir_p(reports, err) || !report_start_dir(reports, arch, final, c.out, err)) goto out;
  made = true;
  if (!report_load_stages(&c) || !report_write_assets(c.out, err)) goto out;
  /* lane-map and MFMA pages describe lanelab's own micro-kernels: not part of a manifest's report */
  if (!c.manifest && (!report_lane_pages(&c, &sections) || !report_seed_diff_page(&c, &sections) ||
                      !report_mfma_pages(&c, &sections) || !report_write_mfma_layouts(reports, err)))
    goto out;
  for (size_t i = 0; i < c.nstages; i++)
    if (!stage_page(&c, &c.stages[i])) goto out;
  if (!write_index(&c, &sections)) goto out;
  if (!report_swap_in(c.out, final, old, err)) goto out;
  made = false;
  ok = true;
out:
  if (made && !report_rm_rf(c.out)) fprintf(stderr, "lanelab: warning: could not remove %s\n", c.out);
  if (!ok) ll_err_prefix(err, "report for %s not written (the previous one, if any, is unchanged)", arch);
  report_free_stages(&c);
  ll_buf_free(&sections);
  free(c.results);
  free(c.out);
  free(old);
  free(final);
  free(reports);
  return ok;
}
