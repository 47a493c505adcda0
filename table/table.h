/* table — the module below isa/ and reports/ that both use (split out of reports/ so that isa/
 * never includes reports/): one table, four renderings (text, CSV, Markdown, JSON), and the
 * directory helpers report writers swap whole directories in with. Every tabular output of lanelab
 * (CLI --format, report exports, stage results) goes through report_table, so the four stay in step.
 * Its names kept the report_ prefix they had in reports/, so no caller changed.
 * Cells are strings; a column marked numeric is right-aligned in text and written as a bare
 * number in JSON (a cell that does not parse as a number is written as a string). */
#ifndef LANELAB_TABLE_H
#define LANELAB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/util.h"

typedef enum { REPORT_TEXT, REPORT_CSV, REPORT_MD, REPORT_JSON } report_format;

typedef struct report_table {
  char *title;         /* shown above text/Markdown, "title" in JSON; may be NULL */
  size_t ncols, nrows;
  char **cols;
  bool *numeric;
  char **cells;        /* nrows * ncols, row-major */
  size_t cap_rows;
  char **notes;        /* lines printed after the table (text/MD) / "notes" array (JSON) */
  size_t nnotes;
} report_table;

/* cols: comma-separated names; a name ending in '#' is numeric ("lane#,slot#,tag#"). */
report_table *report_table_new(const char *title, const char *cols);
void report_table_free(report_table *t);
/* Append a row; fmt gives the cells separated by '\t' ("%d\t%d\t%s"). */
void report_table_row(report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_table_note(report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *report_table_cell(const report_table *t, size_t row, size_t col);

/* Parse "text|csv|md|json"; false (and a message in err, exit 2) otherwise. */
bool report_format_parse(const char *s, report_format *f, ll_err *err);
void report_table_render(const report_table *t, report_format f, ll_buf *out);
/* Render and write to stdout. */
void report_table_print(const report_table *t, report_format f);

/* ---- output directories (table/dirs.c) ------------------------------------------------------ */
/* Removes path (a file, or a directory with everything in it, symlinks not followed). */
bool report_rm_rf(const char *path);
/* Removes DIR/.<name>.tmp-<pid> and .<name>.old-<pid> left by writers that died. */
void report_sweep_dead(const char *dir, const char *name);
/* Before building DIR/<name> (final) in tmp: refuses a final that is not a directory (never
 * replaced: LL_EXIT_USAGE), sweeps dead writers' leftovers, creates tmp. */
bool report_start_dir(const char *dir, const char *name, const char *final, const char *tmp, ll_err *err);
/* tmp (a finished directory) becomes final: the previous final is renamed to old, then removed; on
 * failure it is put back and err says why. */
bool report_swap_in(const char *tmp, const char *final, const char *old, ll_err *err);
/* Whether an executable named prog is on PATH. */
bool report_on_path(const char *prog);

#endif
