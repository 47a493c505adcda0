/* reports/internal — shared between the report generator's files; not part of the contract. */
#ifndef LANELAB_REPORTS_INTERNAL_H
#define LANELAB_REPORTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/report.h"

/* One stage results file. */
typedef struct report_stage {
  char *name;
  char *what, *verdict, *summary, *device, *shapes;
  double seconds;
  bool present;          /* the results file exists */
  report_table **tables;
  size_t ntables;
} report_stage;

typedef struct report_ctx {
  const char *build, *arch;
  char *results;         /* BUILD/results/<arch> */
  char *out;             /* the temporary output directory */
  report_stage *stages;
  size_t nstages;
  char *overall;         /* summary.json "verdict", NULL if no summary.json */
  char *shapes;
  char *manifest;        /* summary.json "manifest": a `verify --manifest` run (no lab pages), or NULL */
  size_t ntables_written, nplots;
  ll_err *err;
} report_ctx;

/* ---- html.c ---- */
void report_html_esc(ll_buf *b, const char *s);
void report_html_begin(ll_buf *b, const char *title, const char *page_kind);
/* Ends the page; the inline script checks every [data-expect] element (see html.c). */
void report_html_end(ll_buf *b);
/* CSS class for a verdict / status text ("pass", "fail", "notrun", "error", ""). */
const char *report_verdict_class(const char *v);
/* Exports t to out/tables/<stem>.{csv,json,md} and appends it to the page as an HTML table with
 * links to the three files. false with ctx->err set if writing fails. */
bool report_export_table(report_ctx *c, const report_table *t, const char *stem);
void report_export_links(ll_buf *page, const char *stem, size_t nrows);
bool report_emit_table(report_ctx *c, ll_buf *page, const report_table *t, const char *stem);
/* Writes out/<rel> atomically. */
bool report_write_out(report_ctx *c, const char *rel, const ll_buf *b);
/* File-name-safe copy of s ([A-Za-z0-9._-], others -> '_'). malloc'd. */
char *report_slug(const char *s);

/* ---- results.c ---- */
bool report_load_stages(report_ctx *c);
void report_free_stages(report_ctx *c);
const report_stage *report_find_stage(const report_ctx *c, const char *name);

/* ---- lanemap.c ---- lane-map pages, one per micro-kernel; appends a section to the index. */
bool report_lane_pages(report_ctx *c, ll_buf *index);

/* ---- seeddiff.c ---- seeddiff-ds_read_b64_tr_b16.html (fragment vs solved seed), index section. */
bool report_seed_diff_page(report_ctx *c, ll_buf *index);

/* ---- mfma_pages.c ---- */
bool report_mfma_pages(report_ctx *c, ll_buf *index);

/* ---- plot.c ---- A/B mutants plots: for each table with numeric *err* columns, plots/<stem>.*
 * and an <img> on the page. */
bool report_mutant_plots(report_ctx *c, const report_stage *s, ll_buf *page);
/* Runs `gnuplot SCRIPT` in DIR; LL_EXIT_ENV naming gnuplot-nox if gnuplot is not on PATH. */
bool report_run_gnuplot(const char *dir, const char *script, ll_err *err);
/* Whether an executable named prog is on PATH. */
bool report_on_path(const char *prog);

/* ---- arch.c ---- */
bool report_rm_rf(const char *path);

#endif
