/* reports/pattern — the lanes x slots view of a lane map: which (lane, slot) mismatch, drawn as a
 * heatmap, and the mismatch set named in one line (rules in tile.h, tried in that order). */
#include <stdio.h>
#include <string.h>

#include "reports/internal.h"
#include "reports/tile.h"

void report_grid_init(report_grid *g, int slots) {
  memset(g, 0, sizeof *g);
  g->slots = slots < 1 ? 1 : slots > REPORT_GRID_SLOTS ? REPORT_GRID_SLOTS : slots;
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < REPORT_GRID_SLOTS; s++) g->wr[L][s] = g->wc[L][s] = g->gr[L][s] = g->gc[L][s] = -1;
}

static bool bad(const report_grid *g, int L, int s) { return g->want[L][s] != g->got[L][s]; }

int report_grid_mismatches(const report_grid *g) {
  int n = 0;
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < g->slots; s++) n += bad(g, L, s);
  return n;
}

/* Every wrong slot holds a known element related to the expected one by f. */
static bool all_wrong_fit(const report_grid *g, bool (*f)(int wr, int wc, int gr, int gc, int *dr, int *dc), int *dr,
                          int *dc) {
  *dr = *dc = 0x7fff;
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < g->slots; s++) {
      if (!bad(g, L, s)) continue;
      if (g->wr[L][s] < 0 || g->gr[L][s] < 0) return false;
      if (!f(g->wr[L][s], g->wc[L][s], g->gr[L][s], g->gc[L][s], dr, dc)) return false;
    }
  return true;
}

static bool transposed(int wr, int wc, int gr, int gc, int *dr, int *dc) {
  (void)dr, (void)dc;
  return gr == wc && gc == wr;
}

static bool shifted(int wr, int wc, int gr, int gc, int *dr, int *dc) {
  if (*dr == 0x7fff) { *dr = gr - wr; *dc = gc - wc; }
  return gr - wr == *dr && gc - wc == *dc;
}

/* Each wrong lane's slots equal, all of them, the expected slots of another lane in its group of
 * `size` lanes. */
static bool lane_perm(const report_grid *g, int size) {
  for (int L = 0; L < 64; L++) {
    bool wrong = false;
    for (int s = 0; s < g->slots; s++) wrong |= bad(g, L, s);
    if (!wrong) continue;
    bool found = false;
    for (int M = L / size * size; M < L / size * size + size && !found; M++) {
      if (M == L) continue;
      found = true;
      for (int s = 0; s < g->slots && found; s++) found = g->got[L][s] == g->want[M][s];
    }
    if (!found) return false;
  }
  return true;
}

static bool slot_perm(const report_grid *g) {
  for (int L = 0; L < 64; L++) {
    bool used[REPORT_GRID_SLOTS] = {0};
    for (int s = 0; s < g->slots; s++) {
      int k;
      for (k = 0; k < g->slots; k++)
        if (!used[k] && g->want[L][k] == g->got[L][s]) break;
      if (k == g->slots) return false;
      used[k] = true;
    }
  }
  return true;
}

/* "0-3,8,10-11" */
static void ranges(const bool *set, int n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = 0;
  for (int i = 0; i < n && o + 1 < cap; i++) {
    if (!set[i]) continue;
    int j = i;
    while (j + 1 < n && set[j + 1]) j++;
    o += (size_t)snprintf(buf + o, cap - o, "%s%d", o ? "," : "", i);
    if (j > i && o + 1 < cap) o += (size_t)snprintf(buf + o, cap - o, "\u2013%d", j);
    i = j;
  }
}

void report_pattern(const report_grid *g, char *buf, size_t cap) {
  int n = report_grid_mismatches(g), total = 64 * g->slots;
  if (n == 0) { snprintf(buf, cap, "no mismatches"); return; }
  int dr, dc;
  char tail[64];
  snprintf(tail, sizeof tail, " (%d/%d slots wrong)", n, total);
  if (all_wrong_fit(g, transposed, &dr, &dc)) { snprintf(buf, cap, "rows and columns swapped%s", tail); return; }
  if (all_wrong_fit(g, shifted, &dr, &dc)) {
    if (dc == 0 && (dr == 1 || dr == -1)) snprintf(buf, cap, "off by one row (%+d)%s", dr, tail);
    else if (dr == 0 && (dc == 1 || dc == -1)) snprintf(buf, cap, "off by one column (%+d)%s", dc, tail);
    else snprintf(buf, cap, "shifted by %d rows, %d columns%s", dr, dc, tail);
    return;
  }
  static const struct { int size; const char *name; } groups[] = {
      {2, "pairs"}, {4, "quads"}, {8, "groups of 8"}, {16, "rows of 16"}, {32, "halves"}, {64, "the wave"}};
  for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
    if (lane_perm(g, groups[i].size)) {
      snprintf(buf, cap, "permutation within %s%s", groups[i].name, tail);
      return;
    }
  if (slot_perm(g)) { snprintf(buf, cap, "slots permuted within each lane%s", tail); return; }
  if (n == total) { snprintf(buf, cap, "all wrong (%d/%d slots)", n, total); return; }
  bool lanes[64] = {0}, slots[REPORT_GRID_SLOTS] = {0};
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < g->slots; s++)
      if (bad(g, L, s)) lanes[L] = slots[s] = true;
  int lo = -1, hi = -1, nl = 0;
  for (int L = 0; L < 64; L++)
    if (lanes[L]) { if (lo < 0) lo = L; hi = L; nl++; }
  char lr[200], sr[120];
  ranges(lanes, 64, lr, sizeof lr);
  ranges(slots, g->slots, sr, sizeof sr);
  if (nl == hi - lo + 1 && n == nl * g->slots) {
    if (lo == hi) snprintf(buf, cap, "lane %d wrong%s", lo, tail);
    else snprintf(buf, cap, "lanes %d\u2013%d wrong%s", lo, hi, tail);
    return;
  }
  snprintf(buf, cap, "%d/%d wrong: lanes %s, slots %s", n, total, lr, sr);
}

void report_heatmap_svg(const report_grid *g, const char *id, ll_buf *o) {
  const int cw = 14, ch = 12, left = 34, top = 16;
  int W = left + 64 * cw + 8, H = top + g->slots * ch + 6, n = report_grid_mismatches(g);
  ll_buf_printf(o, "<svg class=\"heatmap\" id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-bad=\"%d\" "
                   "font-family=\"sans-serif\" font-size=\"9\"><style>#%s .hm-bg{fill:#dafbe1}#%s .hm-grid{stroke:#fff;stroke-width:1}"
                   "#%s rect.hm.bad{fill:#cf222e;stroke:#fff;stroke-width:1}#%s text{fill:#57606a;text-anchor:middle}</style>\n",
                id, W, H, W, H, n, id, id, id, id);
  ll_buf_printf(o, "<text x=\"%d\" y=\"10\">slot\\lane</text>", left / 2);
  for (int L = 0; L < 64; L += 4) ll_buf_printf(o, "<text x=\"%d\" y=\"10\">%d</text>", left + L * cw + cw / 2, L);
  for (int s = 0; s < g->slots; s++) ll_buf_printf(o, "<text x=\"%d\" y=\"%d\">%d</text>", left - 10, top + s * ch + 9, s);
  /* the grid once (background and lines), then one rect per mismatching cell */
  ll_buf_printf(o, "\n<rect class=\"hm-bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/><path class=\"hm-grid\" d=\"",
                left, top, 64 * cw, g->slots * ch);
  for (int L = 1; L < 64; L++) ll_buf_printf(o, "M%d %dv%d", left + L * cw, top, g->slots * ch);
  for (int s = 1; s < g->slots; s++) ll_buf_printf(o, "M%d %dh%d", left, top + s * ch, 64 * cw);
  ll_buf_puts(o, "\"/>\n");
  for (int s = 0; s < g->slots; s++)
    for (int L = 0; L < 64; L++)
      if (bad(g, L, s))
        ll_buf_printf(o, "<rect class=\"hm bad\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>lane %d slot %d: want "
                         "0x%x got 0x%x</title></rect>", left + L * cw, top + s * ch, cw, ch, L, s, g->want[L][s], g->got[L][s]);
  ll_buf_puts(o, "\n</svg>\n");
}
