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
  size_t npng, npng_missing;  /* PNGs rendered beside standalone pictures / not rendered */
  char png_why[300];          /* why the first one was not (shown once, on the arch index) */
  ll_err *err;
} report_ctx;

/* ---- html.c (uses nothing else of reports/) ---- */
void report_html_esc(ll_buf *b, const char *s);
void report_html_begin(ll_buf *b, const char *title, const char *page_kind);
/* Ends the page; the inline script checks every [data-expect] element (see page.c's script). */
void report_html_end(ll_buf *b);
/* CSS class for a verdict / status text ("pass", "fail", "notrun", "error", ""). */
const char *report_verdict_class(const char *v);
/* File-name-safe copy of s ([A-Za-z0-9._-], others -> '_'). malloc'd. */
char *report_slug(const char *s);

/* ---- page.c: the shared CSS/JS (report_write_assets), a page's files, tables with exports ---- */
/* Exports t to out/tables/<stem>.{csv,json,md} and appends it to the page as an HTML table with
 * links to the three files. false with ctx->err set if writing fails. A table of more than
 * REPORT_MD_MAX_ROWS rows (an ISA census of a many-variant code object) has no Markdown: nobody
 * pastes it into a PR, and it was a quarter of a megabyte of a full report; CSV and JSON have it. */
#define REPORT_MD_MAX_ROWS 256
bool report_export_table(report_ctx *c, const report_table *t, const char *stem);
void report_export_links(ll_buf *page, const char *stem, size_t nrows);
/* CSV only (tables/<stem>.csv), for the wide MFMA operand layouts whose JSON and Markdown are
 * what `lanelab mfma INSTR --operand X --format json|md` prints. */
bool report_export_table_csv(report_ctx *c, const report_table *t, const char *stem);
bool report_emit_table(report_ctx *c, ll_buf *page, const report_table *t, const char *stem);
/* Writes out/<rel> atomically. */
bool report_write_out(report_ctx *c, const char *rel, const ll_buf *b);

/* ---- results.c ---- */
bool report_load_stages(report_ctx *c);
/* The content-derived file stem of table i of stage s (tables/<stem>.{csv,json,md}, id t-<stem>). */
char *report_table_stem(const report_stage *s, size_t i);
void report_free_stages(report_ctx *c);
const report_stage *report_find_stage(const report_ctx *c, const char *name);

/* ---- lanemap.c ---- lane-map pages, one per micro-kernel; appends a section to the index. */
bool report_lane_pages(report_ctx *c, ll_buf *index);
/* For the console summary: the first mismatching (lane, slot) of a micro-kernel's dump against the
 * model ("first mismatch: lane 5 slot 0: expected 0x50 (5,0), got 0x5505 (?5505)") or its seed
 * address, and the pattern line (report_pattern); line says why when nothing was compared. */
bool report_lane_first_mismatch(report_ctx *c, const char *kernel, char *line, size_t cap, char *pattern, size_t pcap);

/* ---- seeddiff.c ---- seeddiff-ds_read_b64_tr_b16.html (fragment vs solved seed), index section. */
bool report_seed_diff_page(report_ctx *c, ll_buf *index);

/* ---- tile.c ---- */
/* The PNG beside the standalone picture out/<svg_rel> (same name, .png), rendered by headless
 * Chromium at width x height, and the page's links to both ("Standalone: SVG, PNG." or, when no PNG
 * could be made, "Standalone: SVG (PNG not rendered: see the report's index)"). A PNG that cannot
 * be made is not an error of the report: LANELAB_PNG=0 in the environment, no chromium on PATH or a
 * failed render is counted in c and said once on the arch index (report_png_note). */
void report_picture_png(report_ctx *c, const char *svg_rel, int width, int height, ll_buf *page);
/* The arch index's box naming why PNG pictures were not rendered; nothing when all were. */
void report_png_note(const report_ctx *c, ll_buf *page);

/* ---- mfma_pages.c ---- */
/* The arch's mfma.html (its instructions, linking into the shared layout pages) and its index section. */
bool report_mfma_pages(report_ctx *c, ll_buf *index);
/* REPORTS/mfma/: every MFMA instruction's layout page (both arches), index.html, tables/, the CSS
 * and JS; built in REPORTS/.mfma.tmp-<pid> and swapped in whole. */
#define REPORT_MFMA_DIR "mfma"
bool report_write_mfma_layouts(const char *reports, ll_err *err);

/* ---- plot.c ---- A/B mutants plots: for each table with numeric *err* columns, plots/<stem>.*
 * and an <img> on the page. */
bool report_mutant_plots(report_ctx *c, const report_stage *s, ll_buf *page);
/* Runs `gnuplot SCRIPT` in DIR; LL_EXIT_ENV naming gnuplot-nox if gnuplot is not on PATH. */
bool report_run_gnuplot(const char *dir, const char *script, ll_err *err);
/* (report_on_path, report_rm_rf and the directory swap are table/table.h's.) */

#endif
