/* reports/page — the shared stylesheet and script (nothing external: pages open from file:// on a
 * machine without network), writing a page's files, and tables emitted with their CSV/JSON/Markdown
 * exports. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reports/internal.h"
#include "reports/tile.h"

static const char CSS[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:1400px;"
    "padding:12px 20px;color:#1b1f24;background:#fff}"
    "h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:22px 0 6px;border-bottom:1px solid #d0d7de}"
    "h3{font-size:15px;margin:16px 0 4px}"
    "table{border-collapse:collapse;margin:6px 0 4px;font-size:13px}"
    "th,td{border:1px solid #d0d7de;padding:2px 6px;vertical-align:top}"
    "th{background:#f3f5f7;position:sticky;top:0}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".pass{background:#dafbe1;color:#116329}.fail{background:#ffd8d3;color:#a40e26;font-weight:600}"
    ".notrun{background:#fff1c2;color:#6b4f00;font-weight:600}.error{background:#ffd8d3;color:#6e011a}"
    ".verdict{display:inline-block;padding:1px 8px;border-radius:10px}"
    ".exports{font-size:12px;color:#57606a;margin:0 0 12px}.exports a{margin-right:8px}"
    ".notes{font-size:12px;color:#57606a;margin:2px 0 10px;white-space:pre-wrap}"
    ".meta td:first-child{font-weight:600;background:#f6f8fa}"
    "table.grid td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;text-align:center;padding:1px 4px}"
    "table.grid td.exp{background:#f6f8fa;color:#57606a}"
    "table.grid td.mismatch{background:#ff8182;color:#000;font-weight:700;outline:2px solid #cf222e}"
    "table.grid td.seed-mismatch{background:#ff8182;font-weight:700}"
    "table.grid td.lanecol{font-weight:700;background:#f3f5f7}"
    "table.only-mm tr.lane:not(.has-mm){display:none}"
    "table.layout td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11px;padding:1px 3px;white-space:nowrap}"
    ".box{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:8px 0;background:#f6f8fa}"
    ".warn{border-color:#d4a72c;background:#fff8c5}"
    "#checks{font-size:11px;color:#57606a;margin-top:24px}"
    "img.plot{max-width:100%;border:1px solid #d0d7de}"
    ".pic{overflow-x:auto;margin:6px 0 10px}.pair{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}.pair>svg{flex:none}.pattern{display:inline-block;padding:2px 8px;border-radius:4px}"
    "a{color:#0969da}";

/* Self-check run in the browser: every element with data-expect="SELECTOR=N;..." must contain
 * exactly N matches of SELECTOR; any uncaught error fails the page. The outcome lands in
 * body[data-check] ("ok" or "fail: ...") for the browser test, and is shown at the bottom. */
static const char JS[] =
    "(function(){var errs=[];window.addEventListener('error',function(e){errs.push('uncaught: '+e.message);});"
    "function run(){var els=document.querySelectorAll('[data-expect]');"
    "for(var i=0;i<els.length;i++){var specs=els[i].getAttribute('data-expect').split(';');"
    "for(var k=0;k<specs.length;k++){if(!specs[k])continue;var p=specs[k].lastIndexOf('=');"
    "var sel=specs[k].slice(0,p),want=parseInt(specs[k].slice(p+1),10);"
    "var got=els[i].querySelectorAll(sel).length;"
    "if(got!==want)errs.push((els[i].id||els[i].tagName)+': '+sel+' '+got+' != '+want);}}"
    "var cb=document.getElementById('only-mm');if(cb){cb.addEventListener('change',function(){"
    "var ts=document.querySelectorAll('table.lanemap');for(var j=0;j<ts.length;j++)"
    "ts[j].classList.toggle('only-mm',cb.checked);});}"
    "var out=document.getElementById('checks');var r=errs.length?'fail: '+errs.join('; '):'ok';"
    "document.body.setAttribute('data-check',r);"
    "if(out)out.textContent='page self-check ('+els.length+' counted elements): '+r;}"
    "if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',run);else run();})();";

bool report_write_assets(const char *dir, ll_err *err) {
  char *css = ll_path_join(dir, REPORT_CSS_FILE), *js = ll_path_join(dir, REPORT_JS_FILE);
  ll_buf cb = {0};
  ll_buf_puts(&cb, CSS);
  report_tile_css(NULL, &cb); /* the tile pictures' lane colours, shared by every picture */
  bool ok = ll_mkdir_p(dir, err) && ll_write_file_atomic(css, cb.data, cb.len, err) &&
            ll_write_file_atomic(js, JS, sizeof JS - 1, err);
  ll_buf_free(&cb);
  if (!ok) ll_err_prefix(err, "writing the report's shared CSS/JS in %s", dir);
  free(css);
  free(js);
  return ok;
}

bool report_write_out(report_ctx *c, const char *rel, const ll_buf *b) {
  char *path = ll_path_join(c->out, rel);
  char *dir = ll_dirname(path);
  bool ok = ll_mkdir_p(dir, c->err) && ll_write_file_atomic(path, b->data ? b->data : "", b->len, c->err);
  if (!ok) ll_err_prefix(c->err, "writing report file %s", path);
  free(dir);
  free(path);
  return ok;
}

static bool export_n(report_ctx *c, const report_table *t, const char *stem, size_t nfmt) {
  static const struct { report_format f; const char *ext; } fx[] = {
      {REPORT_CSV, "csv"}, {REPORT_JSON, "json"}, {REPORT_MD, "md"}};
  char *s = report_slug(stem);
  for (size_t i = 0; i < nfmt; i++) {
    if (fx[i].f == REPORT_MD && t->nrows > REPORT_MD_MAX_ROWS) continue;
    ll_buf b = {0};
    report_table_render(t, fx[i].f, &b);
    char *rel = ll_fmt("tables/%s.%s", s, fx[i].ext);
    bool ok = report_write_out(c, rel, &b);
    free(rel);
    ll_buf_free(&b);
    if (!ok) { free(s); return false; }
  }
  free(s);
  c->ntables_written++;
  return true;
}

bool report_export_table(report_ctx *c, const report_table *t, const char *stem) { return export_n(c, t, stem, 3); }

bool report_export_table_csv(report_ctx *c, const report_table *t, const char *stem) { return export_n(c, t, stem, 1); }

void report_export_links(ll_buf *page, const char *stem, size_t nrows) {
  char *s = report_slug(stem);
  ll_buf_printf(page, "<div class=\"exports\">%zu rows &middot; export: <a href=\"tables/%s.csv\">CSV</a>"
                      "<a href=\"tables/%s.json\">JSON</a>", nrows, s, s);
  if (nrows > REPORT_MD_MAX_ROWS) ll_buf_printf(page, "(no Markdown over %d rows)</div>\n", REPORT_MD_MAX_ROWS);
  else ll_buf_printf(page, "<a href=\"tables/%s.md\">Markdown</a></div>\n", s);
  free(s);
}

/* A long table of (key, name, numeric value) rows, e.g. an ISA census (kernel, count, n): several
 * kernels' ~130 counters each, the kernel repeated on every row. On the page it is shown pivoted, one
 * row per name and one column per key (a blank cell: the key has no such row), which says the same
 * in a fifth of the bytes; the exports keep the long form. Applies when the table has 3 columns,
 * only the last numeric, at least 64 rows, 1..PIVOT_MAX_KEYS keys and every (key, name) once. */
#define PIVOT_MAX_KEYS 16
static bool emit_pivoted(ll_buf *page, const report_table *t, const char *slug) {
  if (t->ncols != 3 || t->numeric[0] || t->numeric[1] || !t->numeric[2] || t->nrows < 64) return false;
  const char *keys[PIVOT_MAX_KEYS];
  size_t nk = 0, nn = 0;
  const char **names = ll_xcalloc(t->nrows, sizeof *names);
  size_t *cell = ll_xcalloc(t->nrows * PIVOT_MAX_KEYS, sizeof *cell); /* row index + 1; 0: none */
  bool ok = true;
  for (size_t r = 0; r < t->nrows && ok; r++) {
    const char *k = report_table_cell(t, r, 0), *n = report_table_cell(t, r, 1);
    size_t ki = 0, ni = 0;
    while (ki < nk && strcmp(keys[ki], k)) ki++;
    if (ki == nk && (ok = nk < PIVOT_MAX_KEYS)) keys[nk++] = k;
    while (ni < nn && strcmp(names[ni], n)) ni++;
    if (ni == nn) names[nn++] = n;
    if (ok && (ok = !cell[ni * PIVOT_MAX_KEYS + ki])) cell[ni * PIVOT_MAX_KEYS + ki] = r + 1;
  }
  if (ok) {
    ll_buf_puts(page, "<p class=\"notes\">Shown with one column per ");
    report_html_esc(page, t->cols[0]);
    ll_buf_printf(page, " (%zu rows here; the exports have one row per (", nn);
    report_html_esc(page, t->cols[0]);
    ll_buf_puts(page, ", ");
    report_html_esc(page, t->cols[1]);
    ll_buf_printf(page, "): %zu rows; a blank cell: no such row).</p>\n", t->nrows);
    ll_buf_printf(page, "<table class=\"data pivot\" id=\"t-%s\" data-expect=\"tbody tr=%zu\"><thead><tr><th>", slug, nn);
    report_html_esc(page, t->cols[1]);
    for (size_t ki = 0; ki < nk; ki++) {
      ll_buf_puts(page, "</th><th>");
      report_html_esc(page, keys[ki]);
    }
    ll_buf_puts(page, "</th></tr></thead><tbody>\n");
    for (size_t ni = 0; ni < nn; ni++) {
      ll_buf_puts(page, "<tr><td>");
      report_html_esc(page, names[ni]);
      ll_buf_puts(page, "</td>");
      for (size_t ki = 0; ki < nk; ki++) {
        size_t r = cell[ni * PIVOT_MAX_KEYS + ki];
        ll_buf_puts(page, "<td class=\"num\">");
        if (r) report_html_esc(page, report_table_cell(t, r - 1, 2));
        ll_buf_puts(page, "</td>");
      }
      ll_buf_puts(page, "</tr>\n");
    }
    ll_buf_puts(page, "</tbody></table>\n");
  }
  free(names);
  free(cell);
  return ok;
}

/* The table as it is: a row per row (a cell's class: num for a numeric column, and its verdict's). */
static void emit_long(ll_buf *page, const report_table *t, const char *s) {
  ll_buf_printf(page, "<table class=\"data\" id=\"t-%s\" data-expect=\"tbody tr=%zu\"><thead><tr>", s, t->nrows);
  for (size_t k = 0; k < t->ncols; k++) {
    ll_buf_puts(page, "<th>");
    report_html_esc(page, t->cols[k]);
    ll_buf_puts(page, "</th>");
  }
  ll_buf_puts(page, "</tr></thead><tbody>\n");
  for (size_t r = 0; r < t->nrows; r++) {
    ll_buf_puts(page, "<tr>");
    for (size_t k = 0; k < t->ncols; k++) {
      const char *v = report_table_cell(t, r, k);
      const char *vc = report_verdict_class(v);
      if (!t->numeric[k] && !*vc) ll_buf_puts(page, "<td>");
      else ll_buf_printf(page, "<td class=\"%s%s%s\">", t->numeric[k] ? "num" : "", *vc && t->numeric[k] ? " " : "", vc);
      report_html_esc(page, v);
      ll_buf_puts(page, "</td>");
    }
    ll_buf_puts(page, "</tr>\n");
  }
  ll_buf_puts(page, "</tbody></table>\n");
}

bool report_emit_table(report_ctx *c, ll_buf *page, const report_table *t, const char *stem) {
  if (!report_export_table(c, t, stem)) return false;
  char *s = report_slug(stem);
  if (t->title) {
    ll_buf_puts(page, "<h3>");
    report_html_esc(page, t->title);
    ll_buf_puts(page, "</h3>\n");
  }
  if (!emit_pivoted(page, t, s)) emit_long(page, t, s);
  if (t->nnotes) {
    ll_buf_puts(page, "<div class=\"notes\">");
    for (size_t i = 0; i < t->nnotes; i++) {
      report_html_esc(page, t->notes[i]);
      ll_buf_puts(page, "\n");
    }
    ll_buf_puts(page, "</div>\n");
  }
  report_export_links(page, stem, t->nrows);
  free(s);
  return true;
}
