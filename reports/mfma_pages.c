/* reports/mfma_pages — one page per MFMA instruction available on the arch: which lane and VGPR
 * (and bit, for sub-dword items) holds each element of A, B and D, read from lanes_mfma_locate.
 * C has D's layout. */
#include <stdlib.h>
#include <string.h>

#include "lanes/lanes.h"
#include "reports/internal.h"

static bool operand_grid(report_ctx *c, ll_buf *p, const lanes_mfma *mf, lanes_operand op, const char *arch) {
  int rows = lanes_mfma_rows(mf, op), cols = lanes_mfma_cols(mf, op), bits = lanes_mfma_elem_bits(mf, op);
  const char *on = lanes_operand_name(op);
  ll_buf cb = {0};
  ll_buf_puts(&cb, "row#");
  for (int j = 0; j < cols; j++) ll_buf_printf(&cb, ",c%d", j);
  char *title = ll_fmt("%s %s operand %s (%d x %d): lane.vgpr%s of each element", arch, mf->name, on, rows, cols,
                       bits < 32 ? ".bit" : "");
  report_table *t = report_table_new(title, ll_buf_str(&cb));
  ll_buf_free(&cb);
  report_table_note(t, "generated from lanes_mfma_locate; %s%s", mf->unconfirmed ? "UNCONFIRMED layout: " : "",
                    mf->note ? mf->note : "ISA layout rule (CDNA3/CDNA4 ISA 7.1.4)");
  ll_buf_printf(p, "<h2>%s: %d rows x %d cols, %d-bit elements, %d VGPR%s per lane</h2>\n", on, rows, cols, bits,
                lanes_mfma_regs(mf, op), lanes_mfma_regs(mf, op) == 1 ? "" : "s");
  ll_buf_printf(p, "<table class=\"layout\" id=\"op-%s\" data-expect=\"tbody tr=%d;tbody td.el=%d\"><thead><tr><th>%s</th>",
                on, rows, rows * cols, op == LANES_OPND_B ? "k \\ j" : "i \\ k");
  for (int j = 0; j < cols; j++) ll_buf_printf(p, "<th>%d</th>", j);
  ll_buf_puts(p, "</tr></thead><tbody>\n");
  bool ok = true;
  for (int i = 0; i < rows; i++) {
    ll_buf row = {0};
    ll_buf_printf(&row, "%d", i);
    ll_buf_printf(p, "<tr><th>%d</th>", i);
    for (int j = 0; j < cols; j++) {
      lanes_loc loc;
      char cell[32];
      if (!lanes_mfma_locate(mf, op, i, j, &loc)) {
        ll_seterr(c->err, LL_EXIT_FAIL, "lanes_mfma_locate has no location for %s %s (%d,%d) inside its %dx%d shape",
                  mf->name, on, i, j, rows, cols);
        ok = false;
        snprintf(cell, sizeof cell, "?");
      } else if (bits < 32) snprintf(cell, sizeof cell, "%d.%d.%d", loc.lane, loc.reg, loc.bit);
      else snprintf(cell, sizeof cell, "%d.%d", loc.lane, loc.reg);
      /* colour by lane group of 16 so the lane pattern is visible */
      static const char *bg[] = {"#ddf4ff", "#fbefff", "#dafbe1", "#fff8c5"};
      ll_buf_printf(p, "<td class=\"el\" style=\"background:%s\" title=\"%s(%d,%d): lane %d, v%d, bit %d\">%s</td>",
                    bg[(loc.lane / 16) & 3], on, i, j, loc.lane, loc.reg, loc.bit, cell);
      ll_buf_printf(&row, "\t%s", cell);
    }
    ll_buf_puts(p, "</tr>\n");
    report_table_row(t, "%s", ll_buf_str(&row));
    ll_buf_free(&row);
  }
  ll_buf_puts(p, "</tbody></table>\n");
  char *stem0 = ll_fmt("mfma-%s-%s", mf->name, on);
  char *stem = report_slug(stem0);
  ok = ok && report_export_table(c, t, stem);
  report_export_links(p, stem, t->nrows);
  free(stem);
  free(stem0);
  free(title);
  report_table_free(t);
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
                       "<p>Cell text is <b>lane.vgpr</b> (and <b>.bit</b> for items narrower than 32 bits): where the "
                       "element sits in the wave's register tuple. C has D's layout.</p>\n", c->arch, title);
  bool ok = true;
  size_t npages = 0;
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
    ok = operand_grid(c, &p, mf, LANES_OPND_A, c->arch) && operand_grid(c, &p, mf, LANES_OPND_B, c->arch) &&
         operand_grid(c, &p, mf, LANES_OPND_D, c->arch);
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
  report_table_free(t);
  return ok;
}
