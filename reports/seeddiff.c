/* reports/seeddiff — the seed change's story in one page: what ds_read_b64_tr_b16 delivers at the
 * load_fragment seed beside what it delivers at the solved seed (lanes_deliver on the f16 region),
 * the two tile pictures side by side with every element whose holder differs outlined, and the
 * lanes x slots table of both with the differing cells highlighted. Model only: no dump needed. */
#include <stdlib.h>
#include <string.h>

#include "lanes/lanes.h"
#include "reports/internal.h"
#include "reports/tile.h"

static const char *PRIM = "ds_read_b64_tr_b16";

static void set_str(const lanes_delivery *d, int L, ll_buf *b) {
  ll_buf_puts(b, "{");
  for (int s = 0; s < d->slots; s++) ll_buf_printf(b, "%s%d", s ? "," : "", d->tag[L][s]);
  ll_buf_puts(b, "}");
}

bool report_seed_diff_page(report_ctx *c, ll_buf *index) {
  lanes_arch la;
  lanes_ds_op op;
  if (!lanes_arch_parse(c->arch, &la, c->err) || !lanes_ds_op_parse(PRIM, &op, c->err)) return false;
  ll_buf_puts(index, "<h2 id=\"seeddiff\">Seed diff</h2>\n");
  if (!lanes_ds_op_exists(op, la)) {
    ll_buf_printf(index, "<p class=\"notrun\">not applicable on %s: %s is gfx950 only (the seed change keeps the "
                         "software transpose here).</p>\n", c->arch, PRIM);
    return true;
  }
  static const char *names[2] = {"fragment", "solved"};
  lanes_delivery *d[2] = {ll_xcalloc(1, sizeof **d), ll_xcalloc(1, sizeof **d)};
  char form[2][300];
  report_tile *t[2] = {NULL, NULL};
  ll_buf p = {0};
  bool ok = false;
  for (int i = 0; i < 2; i++) {
    uint32_t addr[LANES_WAVE];
    if (!lanes_seed_named(PRIM, names[i], la, addr, form[i], sizeof form[i], c->err) ||
        !lanes_deliver(la, PRIM, addr, d[i], c->err)) {
      ll_err_prefix(c->err, "seed diff page (%s seed)", names[i]);
      goto out;
    }
  }
  int rows, cols;
  report_delivery_extent((const lanes_delivery *const *)d, 2, &rows, &cols);
  for (int i = 0; i < 2; i++) {
    char *title = ll_fmt("%s at the %s seed", PRIM, names[i]);
    t[i] = report_tile_delivery(d[i], title, rows, cols, c->err);
    free(title);
    if (!t[i]) goto out;
  }
  int nel = report_tile_diff(t[0], t[1], names[0], names[1]);
  char *title = ll_fmt("%s seed diff: %s, fragment vs solved seed", c->arch, PRIM);
  report_html_begin(&p, title, "seeddiff");
  ll_buf_printf(&p, "<p><a href=\"index.html\">&larr; %s report</a></p><h1>", c->arch);
  report_html_esc(&p, title);
  free(title);
  ll_buf_puts(&p, "</h1>\n<table class=\"meta\"><tr><td>fragment seed</td><td>");
  report_html_esc(&p, form[0]);
  ll_buf_puts(&p, "</td></tr><tr><td>solved seed</td><td>");
  report_html_esc(&p, form[1]);
  ll_buf_puts(&p, "</td></tr><tr><td>tile</td><td>");
  report_html_esc(&p, d[0]->tile);
  int ncell = 0;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < d[0]->slots; s++) ncell += d[0]->tag[L][s] != d[1]->tag[L][s];
  ll_buf_printf(&p, "</td></tr><tr><td>lane 0</td><td id=\"lane0\">fragment ");
  set_str(d[0], 0, &p);
  ll_buf_puts(&p, " vs solved ");
  set_str(d[1], 0, &p);
  ll_buf_printf(&p, "</td></tr><tr><td>differ</td><td>%d/%d lane x slot cells, %d/%d tile elements held by another "
                    "lane or slot</td></tr></table>\n", ncell, LANES_WAVE * d[0]->slots, nel, rows * cols);
  const char *svg_rel = "pictures/seeddiff-ds_read_b64_tr_b16.svg";
  char *svgp = ll_path_join(c->out, svg_rel);
  char *dir = ll_dirname(svgp);
  bool wrote = ll_mkdir_p(dir, c->err) && report_tiles_write(t, 2, svgp, c->err);
  free(dir);
  free(svgp);
  if (!wrote) goto out;
  ll_buf_puts(&p, "<h2>the tile under each seed</h2>\n<p>Cells coloured by the holding lane, labelled "
                  "L&lt;lane&gt;.&lt;vgpr&gt;[&lt;slot&gt;]; red outline: the other seed puts the element elsewhere "
                  "(hover: where). ");
  int pw, ph;
  report_tiles_size(t, 2, &pw, &ph);
  report_picture_png(c, svg_rel, pw, ph, &p);
  ll_buf_puts(&p, "</p>\n<div class=\"pic pair\">");
  report_tile_svg(t[0], "tile-fragment", &p);
  report_tile_svg(t[1], "tile-solved", &p);
  ll_buf_puts(&p, "</div>\n");
  /* lanes x slots, both seeds */
  ll_buf_printf(&p, "<h2>lanes &times; slots</h2>\n<table class=\"grid seeddiff\" id=\"seeddiff\" data-expect=\"tbody "
                    "tr=64;td.mismatch=%d\"><thead><tr><th>lane</th><th>fragment addr</th><th>solved addr</th>", 2 * ncell);
  for (int s = 0; s < d[0]->slots; s++) ll_buf_printf(&p, "<th>s%d fragment</th><th>s%d solved</th>", s, s);
  ll_buf_puts(&p, "</tr></thead><tbody>\n");
  for (int L = 0; L < LANES_WAVE; L++) {
    ll_buf_printf(&p, "<tr data-lane=\"%d\"><td class=\"lanecol\">%d</td><td>%u</td><td>%u</td>", L, L, d[0]->addr[L],
                  d[1]->addr[L]);
    for (int s = 0; s < d[0]->slots; s++) {
      bool df = d[0]->tag[L][s] != d[1]->tag[L][s];
      ll_buf_printf(&p, "<td class=\"%s\">%d</td><td class=\"%s\">%d</td>", df ? "mismatch" : "", d[0]->tag[L][s],
                    df ? "mismatch" : "", d[1]->tag[L][s]);
    }
    ll_buf_puts(&p, "</tr>\n");
  }
  ll_buf_puts(&p, "</tbody></table>\n<p class=\"notes\">tag = 16*row + col of the f16 region element the slot holds; "
                  "red = the two seeds deliver different elements there.</p>\n");
  report_html_end(&p);
  if (!report_write_out(c, "seeddiff-ds_read_b64_tr_b16.html", &p)) goto out;
  ll_buf_printf(index, "<p><a href=\"seeddiff-ds_read_b64_tr_b16.html\">%s: fragment seed vs solved seed</a> &mdash; lane 0 ",
                PRIM);
  set_str(d[0], 0, index);
  ll_buf_puts(index, " vs ");
  set_str(d[1], 0, index);
  ll_buf_printf(index, "; %d/%d cells differ.</p>\n", ncell, LANES_WAVE * d[0]->slots);
  ok = true;
out:
  ll_buf_free(&p);
  report_tile_free(t[0]);
  report_tile_free(t[1]);
  free(d[0]);
  free(d[1]);
  return ok;
}
