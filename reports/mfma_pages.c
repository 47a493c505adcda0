/* reports/mfma_pages — one page per MFMA instruction available on the arch: which lane and VGPR
 * (and bit, for sub-dword items) holds each element of A, B and D, read from lanes_mfma_locate.
 * C has D's layout. */
#include <stdlib.h>
#include <string.h>

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

bool report_mfma_pages(report_ctx *c, ll_buf *index) {
  lanes_arch la;
  if (!lanes_arch_parse(c->arch, &la, c->err)) return false;
  report_table *t = report_table_new("MFMA instructions on this arch (lanes/ layout model)",
                                     "instruction,M#,N#,K#,blocks#,A/B type,A/B bits#,C/D bits#,A/B VGPRs#,C/D VGPRs#,layout,page");
  ll_buf list = {0};
  char *title = ll_fmt("%s MFMA layouts", c->arch);
  report_html_begin(&list, title, "mfma-list");
  ll_buf_printf(&list, "<p><a href=\"index.html\">&larr; %s report</a></p><h1>%s</h1>\n"
                       "<p>Each page draws A, B and D as tile pictures: a cell per element, coloured by the lane that "
                       "holds it and labelled L&lt;lane&gt;.&lt;vgpr&gt;[&lt;slot&gt;] (slot = the element's index in "
                       "its VGPR). C has D's layout. A layout shared by several instructions is drawn once and linked.</p>\n", c->arch, title);
  bool ok = true;
  size_t npages = 0, nseen = 0;
  seen_layout *seen = NULL;
  for (size_t i = 0; i < lanes_mfma_count() && ok; i++) {
    const lanes_mfma *mf = lanes_mfma_at(i);
    if (!(mf->arches & LANES_ARCH_BIT(la))) continue;
    char *slug = report_slug(mf->name);
    char *page = ll_fmt("mfma-%s.html", slug);
    report_table_row(t, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s", mf->name, mf->m, mf->n, mf->k, mf->blocks,
                     mf->ab_type, mf->ab_bits, mf->cd_bits, mf->ab_regs, mf->cd_regs,
                     mf->unconfirmed ? "UNCONFIRMED" : mf->note ? "generalised" : "ISA rule", page);
    ll_buf p = {0};
    char *ptitle = ll_fmt("%s %s layout", c->arch, mf->name);
    report_html_begin(&p, ptitle, "mfma");
    ll_buf_printf(&p, "<p><a href=\"mfma.html\">&larr; MFMA layouts</a> &middot; <a href=\"index.html\">%s report</a></p><h1>",
                  c->arch);
    report_html_esc(&p, ptitle);
    ll_buf_printf(&p, "</h1>\n<p>M=%d N=%d K=%d, %d block%s, A/B %s (%d-bit), C/D %d-bit; each lane holds %d consecutive k.</p>\n",
                  mf->m, mf->n, mf->k, mf->blocks, mf->blocks == 1 ? "" : "s", mf->ab_type, mf->ab_bits, mf->cd_bits,
                  mf->k_per_lane);
    if (mf->note) {
      ll_buf_printf(&p, "<div class=\"box%s\">", mf->unconfirmed ? " warn" : "");
      report_html_esc(&p, mf->unconfirmed ? "UNCONFIRMED: " : "");
      report_html_esc(&p, mf->note);
      ll_buf_puts(&p, "</div>\n");
    }
    bool lg = false;
    ok = operand_grid(c, &p, mf, LANES_OPND_A, page, &seen, &nseen, &lg) &&
         operand_grid(c, &p, mf, LANES_OPND_B, page, &seen, &nseen, &lg) &&
         operand_grid(c, &p, mf, LANES_OPND_D, page, &seen, &nseen, &lg);
    report_html_end(&p);
    ok = ok && report_write_out(c, page, &p);
    npages++;
    ll_buf_free(&p);
    free(ptitle);
    free(page);
    free(slug);
  }
  if (ok) {
    ll_buf_printf(&list, "<table class=\"data\" id=\"t-mfma\" data-expect=\"tbody tr=%zu;tbody a=%zu\"><thead><tr>", t->nrows,
                  t->nrows);
    for (size_t k = 0; k < t->ncols; k++) ll_buf_printf(&list, "<th>%s</th>", t->cols[k]);
    ll_buf_puts(&list, "</tr></thead><tbody>\n");
    for (size_t r = 0; r < t->nrows; r++) {
      ll_buf_puts(&list, "<tr>");
      for (size_t k = 0; k < t->ncols; k++) {
        const char *v = report_table_cell(t, r, k);
        ll_buf_printf(&list, "<td class=\"%s%s\">", t->numeric[k] ? "num" : "", !strcmp(v, "UNCONFIRMED") ? " notrun" : "");
        if (k + 1 == t->ncols) ll_buf_printf(&list, "<a href=\"%s\">layout</a>", v);
        else report_html_esc(&list, v);
        ll_buf_puts(&list, "</td>");
      }
      ll_buf_puts(&list, "</tr>\n");
    }
    ll_buf_puts(&list, "</tbody></table>\n");
    report_export_links(&list, "mfma", t->nrows);
    report_html_end(&list);
    ok = report_export_table(c, t, "mfma") && report_write_out(c, "mfma.html", &list);
    ll_buf_printf(index, "<h2 id=\"mfma\">MFMA layouts</h2>\n<p><a href=\"mfma.html\">%zu MFMA instructions on %s</a>: "
                         "which lane and VGPR hold each element of A, B and D.</p>\n", npages, c->arch);
  }
  ll_buf_free(&list);
  free(title);
  free(seen);
  report_table_free(t);
  return ok;
}
