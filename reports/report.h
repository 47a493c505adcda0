/* reports — browsable results of `lanelab verify`: HTML pages, their tables exported as CSV, JSON
 * and Markdown, and gnuplot plots kept with their data and script. Pages work offline from
 * file:// (no external assets: the CSS and JS are files beside the pages). Table rendering itself is
 * table/table.h.
 *
 * Input (written by verify/): BUILD/results/<arch>/<stage>.json, each
 *   {"stage", "what", "verdict", "summary", "device", "shapes", "seconds",
 *    "tables": [{"title", "columns", "rows": [{col: value}], "notes"}]}
 * and BUILD/results/<arch>/summary.json ({"arch", "shapes", "stages": [{stage, verdict, summary,
 * device, seconds}], "verdict"}); micro-kernel raw dumps BUILD/results/<arch>/dumps/<kernel>.bin
 * (u32 little-endian: 64*NDW result dwords, lane-major, then 64 per-lane addresses), and, for
 * kernels whose expectation is computed in verify/ rather than lanes/ (lane_xlane, lane_mfma_*),
 * dumps/<kernel>.expected.bin in the same layout. Every file is optional: a stage without a results
 * file is shown as "not run", never as passed; a micro-kernel without a dump says "no dump (stage
 * not run)". A file that exists but is malformed is bad input (LL_EXIT_USAGE) and no report is
 * written.
 *
 * Output: BUILD/reports/<arch>/
 *   index.html            summary (what ran, where, verdict per stage), links to everything below
 *   stage-<stage>.html    every table of the stage (oracle cases, A/B mutants + plot, ISA census,
 *                         budgets, byte identity, dynamic counts...)
 *   lane-<kernel>.html    64-lane x slot grid: expected beside got, mismatches highlighted, each
 *                         lane's seed address and the seed's closed form (lanes/ computes the
 *                         expected grid: lanes_expected_dump, lanes_seed_solve)
 *                         lane's seed address and the seed's closed form; above it the tile picture
 *                         (reports/tile.h: cells coloured by holding lane, red outline where the
 *                         holder differs from the model's), a lanes x slots mismatch heatmap and
 *                         a one-line pattern summary (report_pattern)
 *   pictures/lane-<kernel>.{svg,png} the tile picture standalone (when it has mismatches; the PNG
 *                         by headless Chromium, docs/reports.md), and seeddiff-*.{svg,png}
 *   mfma.html             this arch's MFMA instructions, linked to their layout pages in ../mfma/
 *   tables/<name>.{csv,json,md}    every table of every page (report_table_render; JSON one row a line)
 *   plots/<name>.{dat,gp,svg}      gnuplot data, script and the SVG it made
 * The directory is built as BUILD/reports/.<arch>.tmp-<pid> and renamed over the old one (the
 * old one is renamed aside first, then removed), so a failed or interrupted run leaves the
 * previous report intact.
 * BUILD/reports/index.html (+ index-summary.{csv,json,md}) lists every arch with results.
 * BUILD/reports/mfma/ (index.html, mfma-<instr>.html, tables/layout-*.csv): which lane/VGPR holds
 * each element of A, B, D (lanes_mfma_*) for every MFMA of either arch, written once for both
 * arches' reports (a layout does not depend on the arch) and swapped in whole the same way.
 *
 * Errors: false with err set: LL_EXIT_USAGE for malformed input, LL_EXIT_ENV when gnuplot is
 * missing (the message names the Debian package gnuplot-nox), LL_EXIT_FAIL when a file cannot be
 * written. */
#ifndef LANELAB_REPORT_H
#define LANELAB_REPORT_H

#include <stdbool.h>

#include "emu/emu.h"
#include "table/table.h"
#include "util/util.h"

/* Every page links the shared stylesheet and script beside it; a writer of pages in a directory
 * writes them there once (report_write_arch and report_write_index do). */
#define REPORT_CSS_FILE "lanelab-report.css"
#define REPORT_JS_FILE "lanelab-report.js"
bool report_write_assets(const char *dir, ll_err *err);

/* Writes BUILD/reports/<arch>/ from BUILD/results/<arch>/ (arch: "gfx942" | "gfx950"). */
bool report_write_arch(const char *build_dir, const char *arch, ll_err *err);
/* Writes BUILD/reports/index.html across every arch that has BUILD/results/<arch>/. */
bool report_write_index(const char *build_dir, ll_err *err);
/* Writes BUILD/junit.xml from BUILD/results/<arch>/ (reports/junit.c): a testcase per stage and,
 * for a manifest run, per case; FAIL is a failure, error an error, not run / NOT CHECKED skipped. */
bool report_write_junit(const char *build_dir, ll_err *err);

/* Console summary of an arch that did not pass, at most 10 lines appended to out: verdict, arch and
 * failing stage, its summary, the kernel or case of the first failing row, the first mismatch
 * (lane, slot, expected, got for a micro-kernel, with the pattern line; the row's error/mismatch
 * cells otherwise) and the report page to open. Nothing when the arch passed. false + err if the
 * results cannot be read. */
bool report_failure_summary(const char *build_dir, const char *arch, ll_buf *out, ll_err *err);

/* One table of a results file ({"title", "columns", "rows": [{col: value}], "notes"}) rebuilt as a
 * report_table; a column is numeric when every non-empty value in it is a JSON number (or one of
 * the writer's "inf", "-inf", "nan", or a placeholder "-", "n/a", ""). NULL + LL_EXIT_USAGE naming `where` if the shape is wrong. */
report_table *report_table_from_json(const ll_json *j, const char *where, ll_err *err);

/* ---- traces (reports/trace_page.c; docs/trace.md) ------------------------------------------
 * A tile in LDS or global memory, to decode traced addresses into (row, col). */
typedef struct report_trace_tile {
  char name[32];
  uint64_t base;           /* byte address (LDS offset or device address), + the arg's address */
  int base_arg;            /* base=argK[+N]: buffer argument K (cmd_run resolves it), else -1 */
  uint32_t rows, cols, elem, stride;
  unsigned xor_div, xor_mod; /* 8-byte chunk j of row r holds chunk j ^ ((r / div) % mod); 0: none */
  char swizzle[32];
} report_trace_tile;
/* NAME:base=N|argK[+N],rows=R,cols=C,elem=BYTES,stride=ROW_BYTES[,swizzle=none|kLinear|k64B|
 * k128B|k128B_16Row|xor:D:M]; false and LL_EXIT_USAGE naming the part. */
bool report_trace_tile_parse(const char *spec, report_trace_tile *t, ll_err *err);
/* (row, col) of the element starting at addr; false if addr is not the start of one. */
bool report_trace_tile_decode(const report_trace_tile *t, uint64_t addr, int *row, int *col);

typedef struct report_trace_expect_result {
  uint64_t seq;            /* the MFMA instance */
  int operand;             /* 0 A, 1 B */
  int mismatches;
  char first[400];         /* "A[3][5] is ..., expected ...: it came from lane L, register R ..." */
} report_trace_expect_result;

typedef struct report_trace_info {
  const char *arch, *kernel, *co_path, *spec;
  const report_trace_tile *tiles;
  size_t ntiles;
  const char *expect_a, *expect_b; /* raw element files compared with every traced MFMA's A / B */
  void (*on_expect)(void *user, const report_trace_expect_result *r);
  void *user;
} report_trace_info;
/* Writes DIR/trace.json, trace.csv, trace.html and mfma/<seq>_{A,B,C,D}.{bin,csv}. */
bool report_trace_write(const char *dir, const emu_observer *o, const report_trace_info *info, ll_err *err);

#endif
