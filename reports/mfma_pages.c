/* reports/mfma_pages — MFMA layout pages: which lane and VGPR (and bit, for sub-dword items) holds
 * each element of A, B and D, read from lanes_mfma_locate. C has D's layout.
 *
 * A layout does not depend on the arch, so the pages are written once for every instruction of
 * either arch into BUILD/reports/mfma/ (report_write_mfma_layouts, swapped in whole like an arch's
 * report), and each arch's mfma.html lists its own instructions and links there: drawn per arch
 * they were a megabyte of identical pictures in a full report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lanes/lanes.h"
#include "reports/internal.h"
#include "reports/tile.h"

/* Layouts already drawn on this arch's pages: an operand whose layout equals an earlier one links
 * there instead of drawing it again (the f8f6f4 formats, scale variants, f16/bf16 pairs share). */
typedef struct seen_layout { uint64_t hash; char instr[64], page[96]; lanes_operand op; char stem[64]; } seen_layout;

static uint64_t layout_hash(const lanes_mfma *mf, lanes_operand op, bool *ok) {
  uint64_t h = 1469598103934665603ull;
#define MIX(v) do { h ^= (uint64_t)(uint32_t)(v); h *= 1099511628211ull; } while (0)
  int rows = lanes_mfma_rows(mf, op), cols = lanes_mfma_cols(mf, op);
  MIX(rows); MIX(cols); MIX(lanes_mfma_elem_bits(mf, op)); MIX(op == LANES_OPND_A ? 0 : op == LANES_OPND_B ? 1 : 2);
  *ok = true;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      lanes_loc l;
      if (!lanes_mfma_locate(mf, op, i, j, &l)) { *ok = false; return 0; }
      MIX(l.lane); MIX(l.reg); MIX(l.bit);
    }
#undef MIX
  return h;
}

static void export_link(ll_buf *p, const char *stem, const lanes_mfma *mf, lanes_operand op, int rows) {
  char *s = report_slug(stem);
  ll_buf_printf(p, "<div class=\"exports\">%d rows &middot; export: <a href=\"tables/%s.csv\">CSV</a> (lane.vgpr.bit per "
                   "element; JSON or Markdown: <code>lanelab mfma %s --operand %s --format json|md</code>)</div>\n",
                rows, s, mf->name, lanes_operand_name(op));
  free(s);
}

static bool operand_grid(report_ctx *c, ll_buf *p, const lanes_mfma *mf, lanes_operand op, const char *page,
                         seen_layout **seen, size_t *nseen, bool *legend_drawn) {
  int rows = lanes_mfma_rows(mf, op), cols = lanes_mfma_cols(mf, op), bits = lanes_mfma_elem_bits(mf, op);
  const char *on = lanes_operand_name(op);
  const char *rn = op == LANES_OPND_A ? "i" : op == LANES_OPND_B ? "k" : "i";
  const char *cn = op == LANES_OPND_A ? "k" : op == LANES_OPND_B ? "n" : "j";
  bool ok;
  uint64_t h = layout_hash(mf, op, &ok);
  if (!ok) {
    ll_seterr(c->err, LL_EXIT_FAIL, "lanes_mfma_locate has no location for an element of %s %s inside its %dx%d shape",
              mf->name, on, rows, cols);
    return false;
  }
  ll_buf_printf(p, "<h2 id=\"op-%s\">%s: %d rows (%s) x %d cols (%s), %d-bit elements, %d VGPR%s per lane</h2>\n", on, on,
                rows, rn, cols, cn, bits, lanes_mfma_regs(mf, op), lanes_mfma_regs(mf, op) == 1 ? "" : "s");
  for (size_t i = 0; i < *nseen; i++)
    if ((*seen)[i].hash == h && (*seen)[i].op == op) {
      ll_buf_printf(p, "<p class=\"same\">Same layout as <a href=\"%s#op-%s\">%s operand %s</a> (drawn there once).</p>\n",
                    (*seen)[i].page, on, (*seen)[i].instr, on);
      export_link(p, (*seen)[i].stem, mf, op, rows);
      return true;
    }
  *seen = ll_xrealloc(*seen, (*nseen + 1) * sizeof **seen);
  seen_layout *sl = &(*seen)[(*nseen)++];
  sl->hash = h;
  sl->op = op;
  snprintf(sl->instr, sizeof sl->instr, "%s", mf->name);
  snprintf(sl->page, sizeof sl->page, "%s", page);
  snprintf(sl->stem, sizeof sl->stem, "layout-%s-%dx%d-%dbit-%08x", on, rows, cols, bits, (unsigned)(h ^ (h >> 32)));
  /* the picture */
  char *ptitle = ll_fmt("%s operand %s", mf->name, on);
  report_tile *t = report_tile_new(ptitle, rows, cols, rn, cn, c->err);
  free(ptitle);
  if (!t) return false;
  ll_buf cb = {0};
  ll_buf_puts(&cb, "row#");
  for (int j = 0; j < cols; j++) ll_buf_printf(&cb, ",c%d", j);
  char *title = ll_fmt("%s operand %s (%d x %d): lane.vgpr%s of each element", mf->name, on, rows, cols, bits < 32 ? ".bit" : "");
  report_table *tb = report_table_new(title, ll_buf_str(&cb));
  ll_buf_free(&cb);
  report_table_note(tb, "generated from lanes_mfma_locate; %s%s", mf->unconfirmed ? "UNCONFIRMED layout: " : "",
                    mf->note ? mf->note : "ISA layout rule (CDNA3/CDNA4 ISA 7.1.4)");
  for (int i = 0; i < rows; i++) {
    ll_buf row = {0};
    ll_buf_printf(&row, "%d", i);
    for (int j = 0; j < cols; j++) {
      lanes_loc loc;
      lanes_mfma_locate(mf, op, i, j, &loc);
      report_tile_own(t, i, j, loc.lane, loc.reg, loc.bit / bits);
      if (bits < 32) ll_buf_printf(&row, "\t%d.%d.%d", loc.lane, loc.reg, loc.bit);
      else ll_buf_printf(&row, "\t%d.%d", loc.lane, loc.reg);
    }
    report_table_row(tb, "%s", ll_buf_str(&row));
    ll_buf_free(&row);
  }
  t->legend = !*legend_drawn; /* one legend per page: the colours are the same in every picture */
  *legend_drawn = true;
  char *id = ll_fmt("pic-%s", on);
  ll_buf_printf(p, "<div class=\"pic\" id=\"layout-%s\">", on);
  report_tile_svg(t, id, p);
  ll_buf_puts(p, "</div>\n");
  free(id);
  report_tile_free(t);
  ok = report_export_table_csv(c, tb, sl->stem);
  export_link(p, sl->stem, mf, op, rows);
  free(title);
  report_table_free(tb);
  return ok;
}

static void arch_list(const lanes_mfma *mf, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = 0;
  for (int a = LANES_GFX942; a <= LANES_GFX950 && n < cap; a++)
    if (mf->arches & LANES_ARCH_BIT(a)) n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", lanes_arch_name((lanes_arch)a));
}

static bool instr_page(report_ctx *c, const lanes_mfma *mf, const char *page, seen_layout **seen, size_t *nseen) {
  char arches[40];
  arch_list(mf, arches, sizeof arches);
  ll_buf p = {0};
  char *ptitle = ll_fmt("%s layout", mf->name);
  report_html_begin(&p, ptitle, "mfma");
  ll_buf_puts(&p, "<p><a href=\"index.html\">&larr; MFMA layouts</a> &middot; <a href=\"../index.html\">all arches</a></p><h1>");
  report_html_esc(&p, ptitle);
  ll_buf_printf(&p, "</h1>\n<p>On %s. M=%d N=%d K=%d, %d block%s, A/B %s (%d-bit), C/D %d-bit; each lane holds %d consecutive "
                    "k.</p>\n", arches, mf->m, mf->n, mf->k, mf->blocks, mf->blocks == 1 ? "" : "s", mf->ab_type, mf->ab_bits,
                mf->cd_bits, mf->k_per_lane);
  if (mf->note) {
    ll_buf_printf(&p, "<div class=\"box%s\">", mf->unconfirmed ? " warn" : "");
    report_html_esc(&p, mf->unconfirmed ? "UNCONFIRMED: " : "");
    report_html_esc(&p, mf->note);
    ll_buf_puts(&p, "</div>\n");
  }
  bool lg = false;
  bool ok = operand_grid(c, &p, mf, LANES_OPND_A, page, seen, nseen, &lg) &&
            operand_grid(c, &p, mf, LANES_OPND_B, page, seen, nseen, &lg) &&
            operand_grid(c, &p, mf, LANES_OPND_D, page, seen, nseen, &lg);
  report_html_end(&p);
  ok = ok && report_write_out(c, page, &p);
  ll_buf_free(&p);
  free(ptitle);
  return ok;
}

/* The list of instructions as a table whose last column links each page (prefix + page). */
static void list_table(ll_buf *list, const report_table *t, const char *id, const char *prefix) {
  ll_buf_printf(list, "<table class=\"data\" id=\"%s\" data-expect=\"tbody tr=%zu;tbody a=%zu\"><thead><tr>", id, t->nrows,
                t->nrows);
  for (size_t k = 0; k < t->ncols; k++) ll_buf_printf(list, "<th>%s</th>", t->cols[k]);
  ll_buf_puts(list, "</tr></thead><tbody>\n");
  for (size_t r = 0; r < t->nrows; r++) {
    ll_buf_puts(list, "<tr>");
    for (size_t k = 0; k < t->ncols; k++) {
      const char *v = report_table_cell(t, r, k);
      ll_buf_printf(list, "<td class=\"%s%s\">", t->numeric[k] ? "num" : "", !strcmp(v, "UNCONFIRMED") ? " notrun" : "");
      if (k + 1 == t->ncols) ll_buf_printf(list, "<a href=\"%s%s\">layout</a>", prefix, v);
      else report_html_esc(list, v);
      ll_buf_puts(list, "</td>");
    }
    ll_buf_puts(list, "</tr>\n");
  }
  ll_buf_puts(list, "</tbody></table>\n");
}

#define LIST_COLS "instruction,M#,N#,K#,blocks#,A/B type,A/B bits#,C/D bits#,A/B VGPRs#,C/D VGPRs#,layout,"
static void list_row(report_table *t, const lanes_mfma *mf, const char *last) {
  report_table_row(t, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s", mf->name, mf->m, mf->n, mf->k, mf->blocks,
                   mf->ab_type, mf->ab_bits, mf->cd_bits, mf->ab_regs, mf->cd_regs,
                   mf->unconfirmed ? "UNCONFIRMED" : mf->note ? "generalised" : "ISA rule", last);
}

static char *page_name(const lanes_mfma *mf) {
  char *slug = report_slug(mf->name), *page = ll_fmt("mfma-%s.html", slug);
  free(slug);
  return page;
}

/* Every instruction's page and index.html into c->out (the shared layouts directory). */
static bool layout_pages(report_ctx *c) {
  report_table *t = report_table_new("MFMA instructions of gfx942 and gfx950 (lanes/ layout model)", LIST_COLS "arches,page");
  bool ok = true;
  size_t nseen = 0;
  seen_layout *seen = NULL;
  for (size_t i = 0; i < lanes_mfma_count() && ok; i++) {
    const lanes_mfma *mf = lanes_mfma_at(i);
    char *page = page_name(mf), arches[40];
    arch_list(mf, arches, sizeof arches);
    char *last = ll_fmt("%s\t%s", arches, page);
    list_row(t, mf, last);
    ok = instr_page(c, mf, page, &seen, &nseen);
    free(last);
    free(page);
  }
  if (ok) {
    ll_buf list = {0};
    report_html_begin(&list, "MFMA layouts", "mfma-list");
    ll_buf_printf(&list, "<p><a href=\"../index.html\">&larr; all arches</a></p><h1>MFMA layouts</h1>\n"
                         "<p>Every MFMA instruction of gfx942 and gfx950 (the arches column says where it exists). Each page "
                         "draws A, B and D as tile pictures: a cell per element, coloured by the lane that holds it and "
                         "labelled L&lt;lane&gt;.&lt;vgpr&gt;[&lt;slot&gt;] (slot = the element's index in its VGPR). C has "
                         "D's layout. A layout shared by several instructions is drawn once and linked; %zu distinct "
                         "operand layouts are drawn.</p>\n", nseen);
    list_table(&list, t, "t-mfma", "");
    report_export_links(&list, "mfma-all", t->nrows);
    report_html_end(&list);
    ok = report_export_table(c, t, "mfma-all") && report_write_out(c, "index.html", &list);
    ll_buf_free(&list);
  }
  free(seen);
  report_table_free(t);
  return ok;
}

bool report_write_mfma_layouts(const char *reports, ll_err *err) {
  report_ctx c = {.arch = "all", .err = err};
  char *final = ll_fmt("%s/" REPORT_MFMA_DIR, reports), *old = ll_fmt("%s/." REPORT_MFMA_DIR ".old-%ld", reports, (long)getpid());
  c.out = ll_fmt("%s/." REPORT_MFMA_DIR ".tmp-%ld", reports, (long)getpid());
  bool ok = false, made = false;
  if (!report_start_dir(reports, REPORT_MFMA_DIR, final, c.out, err)) goto out;
  made = true;
  if (!report_write_assets(c.out, err) || !layout_pages(&c) || !report_swap_in(c.out, final, old, err)) goto out;
  made = false;
  ok = true;
out:
  if (made && !report_rm_rf(c.out)) fprintf(stderr, "lanelab: warning: could not remove %s\n", c.out);
  if (!ok) ll_err_prefix(err, "MFMA layout pages not written (the previous ones, if any, are unchanged)");
  free(final);
  free(old);
  free(c.out);
  return ok;
}

bool report_mfma_pages(report_ctx *c, ll_buf *index) {
  lanes_arch la;
  if (!lanes_arch_parse(c->arch, &la, c->err)) return false;
  report_table *t = report_table_new("MFMA instructions on this arch (lanes/ layout model)", LIST_COLS "page");
  ll_buf list = {0};
  char *title = ll_fmt("%s MFMA layouts", c->arch);
  report_html_begin(&list, title, "mfma-list");
  ll_buf_printf(&list, "<p><a href=\"index.html\">&larr; %s report</a></p><h1>%s</h1>\n"
                       "<p>The MFMA instructions of %s. A layout does not depend on the arch: the pages, with A, B and D "
                       "drawn as tile pictures (a cell per element, coloured by the lane that holds it and labelled "
                       "L&lt;lane&gt;.&lt;vgpr&gt;[&lt;slot&gt;]), are shared by both arches' reports in <a href=\"../"
                       REPORT_MFMA_DIR "/index.html\">../" REPORT_MFMA_DIR "/</a>.</p>\n", c->arch, title, c->arch);
  size_t npages = 0;
  for (size_t i = 0; i < lanes_mfma_count(); i++) {
    const lanes_mfma *mf = lanes_mfma_at(i);
    if (!(mf->arches & LANES_ARCH_BIT(la))) continue;
    char *page = page_name(mf), *rel = ll_fmt("../" REPORT_MFMA_DIR "/%s", page);
    list_row(t, mf, rel);
    npages++;
    free(rel);
    free(page);
  }
  list_table(&list, t, "t-mfma", "");
  report_export_links(&list, "mfma", t->nrows);
  report_html_end(&list);
  bool ok = report_export_table(c, t, "mfma") && report_write_out(c, "mfma.html", &list);
  ll_buf_printf(index, "<h2 id=\"mfma\">MFMA layouts</h2>\n<p><a href=\"mfma.html\">%zu MFMA instructions on %s</a>: "
                       "which lane and VGPR hold each element of A, B and D.</p>\n", npages, c->arch);
  ll_buf_free(&list);
  free(title);
  report_table_free(t);
  return ok;
}
