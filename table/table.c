/* table/table — rendering of one table as text, CSV, Markdown or JSON. */
#include "table/table.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

report_table *report_table_new(const char *title, const char *cols) {
  report_table *t = ll_xcalloc(1, sizeof *t);
  t->title = title ? ll_xstrdup(title) : NULL;
  char *c = ll_xstrdup(cols), *save = NULL;
  for (char *tok = strtok_r(c, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    size_t n = strlen(tok);
    bool num = n > 0 && tok[n - 1] == '#';
    if (num) tok[n - 1] = 0;
    t->cols = ll_xrealloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
    t->numeric = ll_xrealloc(t->numeric, (t->ncols + 1) * sizeof *t->numeric);
    t->cols[t->ncols] = ll_xstrdup(tok);
    t->numeric[t->ncols++] = num;
  }
  free(c);
  return t;
}

void report_table_free(report_table *t) {
  if (!t) return;
  for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
  for (size_t i = 0; i < t->ncols; i++) free(t->cols[i]);
  for (size_t i = 0; i < t->nnotes; i++) free(t->notes[i]);
  free(t->cells);
  free(t->cols);
  free(t->numeric);
  free(t->notes);
  free(t->title);
  free(t);
}

void report_table_row(report_table *t, const char *fmt, ...) {
  ll_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ll_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ll_buf_str(&b);
  if (t->nrows == t->cap_rows) {
    t->cap_rows = t->cap_rows ? 2 * t->cap_rows : 64;
    t->cells = ll_xrealloc(t->cells, t->cap_rows * t->ncols * sizeof *t->cells);
  }
  char **row = t->cells + t->nrows * t->ncols;
  char *s = b.data;
  for (size_t c = 0; c < t->ncols; c++) {
    char *tab = s ? strchr(s, '\t') : NULL;
    if (tab) *tab = 0;
    row[c] = ll_xstrdup(s ? s : "");
    s = tab ? tab + 1 : NULL;
  }
  t->nrows++;
  ll_buf_free(&b);
}

void report_table_note(report_table *t, const char *fmt, ...) {
  ll_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ll_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  t->notes = ll_xrealloc(t->notes, (t->nnotes + 1) * sizeof *t->notes);
  t->notes[t->nnotes++] = (char *)ll_buf_str(&b);
}

const char *report_table_cell(const report_table *t, size_t row, size_t col) {
  return t->cells[row * t->ncols + col];
}

bool report_format_parse(const char *s, report_format *f, ll_err *err) {
  static const char *names[] = {"text", "csv", "md", "json"};
  for (int i = 0; i < 4; i++)
    if (s && strcmp(s, names[i]) == 0) { *f = (report_format)i; return true; }
  ll_seterr(err, LL_EXIT_USAGE, "unknown --format '%s' (expected text, csv, md or json)", s ? s : "");
  return false;
}

static void csv_cell(ll_buf *o, const char *s) {
  if (strpbrk(s, ",\"\n")) {
    ll_buf_puts(o, "\"");
    for (; *s; s++) {
      if (*s == '"') ll_buf_puts(o, "\"");
      ll_buf_put(o, s, 1);
    }
    ll_buf_puts(o, "\"");
  } else {
    ll_buf_puts(o, s);
  }
}

static void md_cell(ll_buf *o, const char *s) {
  for (; *s; s++) {
    if (*s == '|') ll_buf_puts(o, "\\|");
    else if (*s == '\n') ll_buf_puts(o, " ");
    else ll_buf_put(o, s, 1);
  }
}

/* A cell as a JSON value, as ll_jw writes it: a numeric column's integer or number (%.9g; a
 * non-finite one as the string "inf", "-inf" or "nan"), anything else a string. */
static void json_cell(ll_buf *o, const char *s, bool numeric) {
  int64_t iv;
  double dv;
  if (numeric && ll_parse_i64(s, &iv)) {
    ll_buf_printf(o, "%lld", (long long)iv);
    return;
  }
  if (numeric && ll_parse_f64(s, &dv) && isfinite(dv)) {
    ll_buf_printf(o, "%.9g", dv);
    return;
  }
  if (numeric && ll_parse_f64(s, &dv)) s = isnan(dv) ? "nan" : dv > 0 ? "inf" : "-inf";
  ll_buf_puts(o, "\"");
  ll_json_escape(o, s);
  ll_buf_puts(o, "\"");
}

void report_table_render(const report_table *t, report_format f, ll_buf *o) {
  size_t nc = t->ncols;
  switch (f) {
    case REPORT_CSV:
      for (size_t c = 0; c < nc; c++) { if (c) ll_buf_puts(o, ","); csv_cell(o, t->cols[c]); }
      ll_buf_puts(o, "\n");
      for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < nc; c++) { if (c) ll_buf_puts(o, ","); csv_cell(o, report_table_cell(t, r, c)); }
        ll_buf_puts(o, "\n");
      }
      break;
    case REPORT_MD:
      if (t->title) ll_buf_printf(o, "### %s\n\n", t->title);
      ll_buf_puts(o, "|");
      for (size_t c = 0; c < nc; c++) { ll_buf_puts(o, " "); md_cell(o, t->cols[c]); ll_buf_puts(o, " |"); }
      ll_buf_puts(o, "\n|");
      for (size_t c = 0; c < nc; c++) ll_buf_puts(o, t->numeric[c] ? "---:|" : "---|");
      ll_buf_puts(o, "\n");
      for (size_t r = 0; r < t->nrows; r++) {
        ll_buf_puts(o, "|");
        for (size_t c = 0; c < nc; c++) { ll_buf_puts(o, " "); md_cell(o, report_table_cell(t, r, c)); ll_buf_puts(o, " |"); }
        ll_buf_puts(o, "\n");
      }
      if (t->nnotes) ll_buf_puts(o, "\n");
      for (size_t i = 0; i < t->nnotes; i++) ll_buf_printf(o, "%s\n", t->notes[i]);
      break;
    case REPORT_JSON: {
      ll_jw w;
      ll_jw_init(&w, o);
      ll_jw_obj_begin(&w);
      if (t->title) { ll_jw_key(&w, "title"); ll_jw_str(&w, t->title); }
      ll_jw_key(&w, "columns");
      ll_jw_arr_begin(&w);
      for (size_t c = 0; c < nc; c++) ll_jw_str(&w, t->cols[c]);
      ll_jw_arr_end(&w);
      ll_jw_key(&w, "rows");
      ll_jw_arr_begin(&w);
      /* one row per line, no spaces inside it: the per-cell indentation of the pretty writer was
       * most of a big table's bytes (a census is thousands of 3-cell rows) */
      ll_buf row = {0};
      for (size_t r = 0; r < t->nrows; r++) {
        row.len = 0;
        for (size_t c = 0; c < nc; c++) {
          ll_buf_puts(&row, c ? ",\"" : "{\"");
          ll_json_escape(&row, t->cols[c]);
          ll_buf_puts(&row, "\":");
          json_cell(&row, report_table_cell(t, r, c), t->numeric[c]);
        }
        ll_buf_puts(&row, nc ? "}" : "{}");
        ll_jw_raw(&w, row.data, row.len);
      }
      ll_buf_free(&row);
      ll_jw_arr_end(&w);
      if (t->nnotes) {
        ll_jw_key(&w, "notes");
        ll_jw_arr_begin(&w);
        for (size_t i = 0; i < t->nnotes; i++) ll_jw_str(&w, t->notes[i]);
        ll_jw_arr_end(&w);
      }
      ll_jw_obj_end(&w);
      break;
    }
    case REPORT_TEXT: default: {
      size_t *wd = ll_xcalloc(nc, sizeof *wd);
      for (size_t c = 0; c < nc; c++) wd[c] = strlen(t->cols[c]);
      for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < nc; c++) {
          size_t n = strlen(report_table_cell(t, r, c));
          if (n > wd[c]) wd[c] = n;
        }
      if (t->title) ll_buf_printf(o, "%s\n", t->title);
      for (size_t c = 0; c < nc; c++)
        ll_buf_printf(o, c + 1 < nc ? (t->numeric[c] ? "%*s  " : "%-*s  ") : (t->numeric[c] ? "%*s\n" : "%-*s\n"),
                      (int)wd[c], t->cols[c]);
      for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < nc; c++)
          ll_buf_printf(o, c + 1 < nc ? (t->numeric[c] ? "%*s  " : "%-*s  ") : (t->numeric[c] ? "%*s\n" : "%-*s\n"),
                        (int)(c + 1 < nc || t->numeric[c] ? wd[c] : 0), report_table_cell(t, r, c));
      for (size_t i = 0; i < t->nnotes; i++) ll_buf_printf(o, "%s\n", t->notes[i]);
      free(wd);
    }
  }
}

void report_table_print(const report_table *t, report_format f) {
  ll_buf b = {0};
  report_table_render(t, f, &b);
  fwrite(b.data, 1, b.len, stdout);
  ll_buf_free(&b);
}
