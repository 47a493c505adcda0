/* reports/tile — tile pictures as SVG (see tile.h for the DOM contract). */
#include "reports/tile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/internal.h"

#define CELL_H 16
#define LEFT 44
#define TOP 38
#define SW_W 34
#define SW_H 14

report_tile *report_tile_new(const char *title, int rows, int cols, const char *row_name, const char *col_name,
                             ll_err *err) {
  if (rows < 1 || cols < 1 || (long)rows * cols > REPORT_TILE_MAX_CELLS) {
    ll_seterr(err, LL_EXIT_USAGE, "tile picture %s: %d x %d elements is outside 1..%d", title ? title : "", rows, cols,
              REPORT_TILE_MAX_CELLS);
    return NULL;
  }
  report_tile *t = ll_xcalloc(1, sizeof *t);
  t->title = ll_xstrdup(title ? title : "");
  snprintf(t->row_name, sizeof t->row_name, "%s", row_name ? row_name : "row");
  snprintf(t->col_name, sizeof t->col_name, "%s", col_name ? col_name : "col");
  t->rows = rows;
  t->cols = cols;
  snprintf(t->bad_text, sizeof t->bad_text, "holder differs from the expected one");
  t->titles = rows * cols <= 256;
  t->legend = true;
  size_t n = (size_t)rows * cols;
  t->got = ll_xcalloc(n, sizeof *t->got);
  t->want = ll_xcalloc(n, sizeof *t->want);
  t->note = ll_xcalloc(n, sizeof *t->note);
  t->marked = ll_xcalloc(n, sizeof *t->marked);
  for (size_t i = 0; i < n; i++) {
    t->got[i].lane = -1;
    t->want[i].lane = -2;
  }
  return t;
}

void report_tile_free(report_tile *t) {
  if (!t) return;
  for (size_t i = 0; i < (size_t)t->rows * t->cols; i++) free(t->note[i]);
  free(t->note);
  free(t->got);
  free(t->want);
  free(t->marked);
  free(t->title);
  free(t);
}

static bool in(const report_tile *t, int r, int c) { return r >= 0 && c >= 0 && r < t->rows && c < t->cols; }

static void add_note(report_tile *t, size_t i, const char *s) {
  char *old = t->note[i];
  t->note[i] = old ? ll_fmt("%s; %s", old, s) : ll_xstrdup(s);
  free(old);
}

bool report_tile_own(report_tile *t, int r, int c, int lane, int reg, int slot) {
  if (!in(t, r, c)) return false;
  size_t i = (size_t)r * t->cols + c;
  if (t->got[i].lane >= 0) {
    char b[48], a[48];
    report_tile_label(t->got[i], a, sizeof a);
    report_tile_label((report_owner){lane, reg, slot}, b, sizeof b);
    char *s = ll_fmt("also held by %s (shown: %s)", b, a);
    add_note(t, i, s);
    free(s);
    return true;
  }
  t->got[i] = (report_owner){lane, reg, slot};
  return true;
}

bool report_tile_expect(report_tile *t, int r, int c, int lane, int reg, int slot) {
  if (!in(t, r, c)) return false;
  size_t i = (size_t)r * t->cols + c;
  if (t->want[i].lane == -2 || t->want[i].lane == -1) t->want[i] = (report_owner){lane, reg, slot};
  return true;
}

bool report_tile_mark(report_tile *t, int r, int c, const char *why) {
  if (!in(t, r, c)) return false;
  size_t i = (size_t)r * t->cols + c;
  t->marked[i] = true;
  if (why && *why) add_note(t, i, why);
  return true;
}

bool report_tile_bad(const report_tile *t, int r, int c) {
  if (!in(t, r, c)) return false;
  size_t i = (size_t)r * t->cols + c;
  if (t->marked[i]) return true;
  const report_owner *w = &t->want[i], *g = &t->got[i];
  if (w->lane == -2) return false;
  if (w->lane < 0 && g->lane < 0) return false;
  return w->lane != g->lane || w->reg != g->reg || w->slot != g->slot;
}

int report_tile_mismatches(const report_tile *t) {
  int n = 0;
  for (int r = 0; r < t->rows; r++)
    for (int c = 0; c < t->cols; c++) n += report_tile_bad(t, r, c);
  return n;
}

void report_tile_label(report_owner o, char *buf, size_t cap) {
  if (o.lane < 0) snprintf(buf, cap, "-");
  else snprintf(buf, cap, "L%d.%d[%d]", o.lane, o.reg, o.slot);
}

void report_tile_lane_colour(int lane, char *buf, size_t cap) {
  static const int light[4] = {86, 74, 63, 52};
  static const int sat[4] = {85, 75, 70, 65};
  int h = ((lane & 15) * 360 / 16 + (lane & 1 ? 180 : 0)) % 360; /* neighbours far apart in hue */
  snprintf(buf, cap, "hsl(%d,%d%%,%d%%)", h, sat[(lane >> 4) & 3], light[(lane >> 4) & 3]);
}

static int cell_w(const report_tile *t) {
  int maxlen = 2;
  for (size_t i = 0; i < (size_t)t->rows * t->cols; i++) {
    char b[48];
    report_tile_label(t->got[i], b, sizeof b);
    int n = (int)strlen(b);
    if (n > maxlen) maxlen = n;
  }
  int w = maxlen * 6 + 6;
  return w < 24 ? 24 : w;
}

static int legend_top(const report_tile *t) { return TOP + t->rows * CELL_H + 14; }

void report_tile_size(const report_tile *t, int *width, int *height) {
  int w = LEFT + t->cols * cell_w(t) + 8, lw = 8 + 16 * SW_W + 8;
  *width = w > lw ? w : lw;
  if (*width < 360) *width = 360;
  *height = t->legend ? legend_top(t) + 5 * (SW_H + 4) + 12 : legend_top(t);
}

static void esc(ll_buf *b, const char *s) { report_html_esc(b, s); }

void report_tile_css(const char *id, ll_buf *o) {
  for (int L = 0; L < 64; L++) {
    char col[40];
    report_tile_lane_colour(L, col, sizeof col);
    if (id) ll_buf_printf(o, "#%s .l%d{fill:%s}", id, L, col);
    else ll_buf_printf(o, "svg.tile .l%d{fill:%s}", L, col);
  }
}

static void el_title(const report_tile *t, int r, int c, ll_buf *o) {
  size_t i = (size_t)r * t->cols + c;
  char lab[48], wl[48];
  report_tile_label(t->got[i], lab, sizeof lab);
  ll_buf_printf(o, "%s=%d %s=%d: %s", t->row_name, r, t->col_name, c, t->got[i].lane >= 0 ? lab : "held by no lane");
  const report_owner *w = &t->want[i], *g = &t->got[i];
  if (w->lane != -2 && (w->lane != g->lane || w->reg != g->reg || w->slot != g->slot)) {
    report_tile_label(*w, wl, sizeof wl);
    ll_buf_printf(o, "; expected %s", w->lane >= 0 ? wl : "no lane");
  }
  if (t->note[i]) {
    ll_buf_puts(o, "; ");
    esc(o, t->note[i]);
  }
}

static void svg(const report_tile *t, const char *id, bool standalone, ll_buf *o) {
  int W, H, cw = cell_w(t);
  report_tile_size(t, &W, &H);
  int nbad = report_tile_mismatches(t);
  if (standalone) ll_buf_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  ll_buf_printf(o, "<svg %sclass=\"tile\" id=\"", standalone ? "xmlns=\"http://www.w3.org/2000/svg\" " : "");
  esc(o, id);
  if (!standalone) /* the page's self-check counts what the browser built */
    ll_buf_printf(o, "\" data-expect=\"rect.e=%d;rect.e.bad=%d;g.legend rect.sw=%d", t->rows * t->cols, nbad,
                  t->legend ? 64 : 0);
  ll_buf_printf(o, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-elements=\"%d\" data-bad=\"%d\" "
                   "font-family=\"ui-monospace,Menlo,Consolas,monospace\" font-size=\"9\">\n<style>",
                W, H, W, H, t->rows * t->cols, nbad);
  /* scoped to this picture: several pictures share a page; inline, the lane colours come from the
   * page's shared stylesheet (report_tile_css) */
  if (standalone) report_tile_css(id, o);
  ll_buf_printf(o, "#%s rect.e{width:%dpx;height:%dpx}#%s rect.sw{width:%dpx;height:%dpx}", id, cw, CELL_H, id, SW_W - 2,
                SW_H);
  ll_buf_printf(o, "#%s rect{stroke:#fff;stroke-width:.5}#%s rect.none{fill:#eef0f2}#%s rect.bad,#%s .sw-bad"
                   "{stroke:#cf222e;stroke-width:2.5}#%s text{text-anchor:middle;fill:#111}"
                   "#%s .hdr{fill:#57606a}#%s .ttl{text-anchor:start;font-size:12px;font-family:sans-serif}"
                   "#%s .lg{text-anchor:start}#%s text{pointer-events:none}</style>\n",
                id, id, id, id, id, id, id, id, id);
  ll_buf_puts(o, "<rect width=\"100%\" height=\"100%\" fill=\"#fff\" stroke=\"none\"/>\n<text class=\"ttl\" x=\"6\" y=\"14\">");
  esc(o, t->title);
  ll_buf_printf(o, " (%s x %s: %d x %d)</text>\n", t->row_name, t->col_name, t->rows, t->cols);
  /* headers: every column / row index, thinned when the cells are narrow */
  ll_buf_printf(o, "<text class=\"hdr\" x=\"%d\" y=\"%d\">", LEFT / 2, TOP - 4);
  esc(o, t->row_name);
  ll_buf_puts(o, "\\");
  esc(o, t->col_name);
  ll_buf_puts(o, "</text>\n");
  int cstep = cw >= 20 ? 1 : 2;
  for (int c = 0; c < t->cols; c += cstep)
    ll_buf_printf(o, "<text class=\"hdr\" x=\"%d\" y=\"%d\">%d</text>", LEFT + c * cw + cw / 2, TOP - 4, c);
  for (int r = 0; r < t->rows; r++)
    ll_buf_printf(o, "<text class=\"hdr\" x=\"%d\" y=\"%d\">%d</text>", LEFT - 14, TOP + r * CELL_H + 11, r);
  ll_buf_puts(o, "\n");
  /* elements, one row group each (rect size from the picture's CSS, or attributes when standalone);
   * the mismatching ones last, each with its own label, so their outline is drawn on top */
  char wh[64] = "";
  if (standalone) snprintf(wh, sizeof wh, " width=\"%d\" height=\"%d\"", cw, CELL_H);
  for (int r = 0; r < t->rows; r++) {
    ll_buf_printf(o, "<g transform=\"translate(0,%d)\">", TOP + r * CELL_H);
    if (!t->titles) { /* a big tile: the row's hover text serves its elements without one of their own */
      ll_buf_puts(o, "<title>");
      esc(o, t->row_name);
      ll_buf_printf(o, "=%d (%s: the column header; holder: the cell's label)</title>", r, t->col_name);
    }
    for (int c = 0; c < t->cols; c++) {
      if (report_tile_bad(t, r, c)) continue;
      size_t i = (size_t)r * t->cols + c;
      if (t->got[i].lane >= 0) ll_buf_printf(o, "<rect class=\"e l%d\" x=\"%d\"%s", t->got[i].lane, LEFT + c * cw, wh);
      else ll_buf_printf(o, "<rect class=\"e none\" x=\"%d\"%s", LEFT + c * cw, wh);
      if (t->titles || t->note[i]) {
        ll_buf_puts(o, "><title>");
        el_title(t, r, c, o);
        ll_buf_puts(o, "</title></rect>");
      } else {
        ll_buf_puts(o, "/>");
      }
    }
    ll_buf_printf(o, "</g><g transform=\"translate(0,%d)\">", TOP + r * CELL_H + 11);
    for (int c = 0; c < t->cols; c++) {
      if (report_tile_bad(t, r, c)) continue;
      char lab[48];
      report_tile_label(t->got[(size_t)r * t->cols + c], lab, sizeof lab);
      ll_buf_printf(o, "<text x=\"%d\">%s</text>", LEFT + c * cw + cw / 2, lab);
    }
    ll_buf_puts(o, "</g>\n");
  }
  for (int r = 0; r < t->rows; r++)
    for (int c = 0; c < t->cols; c++) {
      if (!report_tile_bad(t, r, c)) continue;
      size_t i = (size_t)r * t->cols + c;
      char lab[48];
      report_tile_label(t->got[i], lab, sizeof lab);
      ll_buf_printf(o, "<g transform=\"translate(%d,%d)\">", LEFT + c * cw, TOP + r * CELL_H);
      if (t->got[i].lane >= 0) ll_buf_printf(o, "<rect class=\"e l%d bad\"", t->got[i].lane);
      else ll_buf_puts(o, "<rect class=\"e none bad\"");
      ll_buf_printf(o, " data-rc=\"%d,%d\"%s><title>", r, c, wh);
      el_title(t, r, c, o);
      ll_buf_printf(o, "</title></rect><text x=\"%d\" y=\"11\">%s</text></g>\n", cw / 2, lab);
    }
  /* legend: 64 lane swatches in 4 rows of 16, then the mismatch outline */
  int ly = legend_top(t);
  if (!t->legend) {
    ll_buf_puts(o, "</svg>\n");
    return;
  }
  ll_buf_printf(o, "<g class=\"legend\"><text class=\"lg\" x=\"8\" y=\"%d\">owning lane (cell text L&lt;lane&gt;.&lt;vgpr&gt;"
                   "[&lt;slot in vgpr&gt;]):</text>\n", ly - 3);
  /* 4 rows of 16 swatches, each row a group (swatch size from the picture's CSS inline, from
   * attributes when standalone, as the cells) */
  char swh[64] = "";
  if (standalone) snprintf(swh, sizeof swh, " width=\"%d\" height=\"%d\"", SW_W - 2, SW_H);
  for (int L = 0; L < 64; L++) {
    int x = 8 + (L % 16) * SW_W;
    if (L % 16 == 0) ll_buf_printf(o, "<g transform=\"translate(0,%d)\">", ly + (L / 16) * (SW_H + 4));
    ll_buf_printf(o, "<rect class=\"sw l%d\" x=\"%d\"%s/><text x=\"%d\" y=\"10\">L%d</text>", L, x, swh, x + SW_W / 2 - 1, L);
    if (L % 16 == 15) ll_buf_puts(o, "</g>\n");
  }
  int by = ly + 4 * (SW_H + 4);
  ll_buf_printf(o, "<rect class=\"sw-bad\" x=\"8\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
                   "<text class=\"lg\" x=\"%d\" y=\"%d\">red outline: ",
                by, SW_W - 2, SW_H, 8 + SW_W + 4, by + 10);
  esc(o, t->bad_text);
  ll_buf_printf(o, " (%d element%s; hover for details)</text></g>\n</svg>\n", nbad, nbad == 1 ? "" : "s");
}

void report_tile_svg(const report_tile *t, const char *id, ll_buf *out) { svg(t, id, false, out); }

bool report_tile_write_svg(const report_tile *t, const char *path, ll_err *err) {
  ll_buf b = {0};
  char *base = strrchr(path, '/');
  char *id = report_slug(base ? base + 1 : path);
  for (char *p = id; *p; p++)
    if (*p == '.') *p = '-';
  svg(t, id[0] >= '0' && id[0] <= '9' ? "tile" : id, true, &b);
  bool ok = ll_write_file_atomic(path, b.data, b.len, err);
  if (!ok) ll_err_prefix(err, "writing tile picture %s", path);
  free(id);
  ll_buf_free(&b);
  return ok;
}

bool report_tile_write_png(const char *svg_path, const char *png_path, int width, int height, ll_err *err) {
  if (!report_on_path("chromium")) {
    ll_seterr(err, LL_EXIT_ENV, "chromium not found on PATH; PNG pictures are rendered by headless Chromium: install "
                                "Debian's chromium (apt-get install -y chromium), or use the SVG");
    return false;
  }
  struct stat st;
  if (lstat(png_path, &st) == 0 && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s exists and is not a regular file; not replacing it", png_path);
    return false;
  }
  char *abs_svg = realpath(svg_path, NULL);
  if (!abs_svg) {
    ll_seterr(err, LL_EXIT_USAGE, "tile picture %s: %s", svg_path, strerror(errno));
    return false;
  }
  char tmpl[] = "/tmp/lanelab-png-XXXXXX";
  if (!mkdtemp(tmpl)) {
    free(abs_svg);
    ll_seterr(err, LL_EXIT_FAIL, "mkdtemp for chromium's profile: %s", strerror(errno));
    return false;
  }
  char *shot = ll_fmt("%s/shot.png", tmpl), *url = ll_fmt("file://%s", abs_svg), *prof = ll_fmt("--user-data-dir=%s", tmpl);
  char *scr = ll_fmt("--screenshot=%s", shot), *win = ll_fmt("--window-size=%d,%d", width, height);
  pid_t pid = fork();
  bool ok = false;
  if (pid == 0) {
    int nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) { dup2(nul, 1); dup2(nul, 2); }
    execlp("timeout", "timeout", "120", "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
           "--hide-scrollbars", prof, win, scr, url, (char *)NULL);
    _exit(127);
  }
  if (pid < 0) {
    ll_seterr(err, LL_EXIT_FAIL, "cannot start chromium: fork: %s", strerror(errno));
  } else {
    int wst;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR) {}
    size_t n = 0;
    ll_err e2 = {0};
    void *png = WIFEXITED(wst) && WEXITSTATUS(wst) == 0 ? ll_read_file(shot, &n, &e2) : NULL;
    if (!png || n < 8 || memcmp(png, "\x89PNG", 4) != 0)
      ll_seterr(err, LL_EXIT_FAIL, "chromium did not render %s to PNG (exit %d%s%s)", svg_path,
                WIFEXITED(wst) ? WEXITSTATUS(wst) : -1, e2.code ? ": " : "", e2.code ? e2.msg : "");
    else ok = ll_write_file_atomic(png_path, png, n, err);
    free(png);
  }
  unlink(shot);
  report_rm_rf(tmpl); /* chromium's profile */
  free(shot); free(url); free(prof); free(scr); free(win); free(abs_svg);
  return ok;
}

void report_picture_png(report_ctx *c, const char *svg_rel, int width, int height, ll_buf *page) {
  size_t n = strlen(svg_rel);
  char *png_rel = ll_fmt("%.*s.png", (int)(n > 4 && !strcmp(svg_rel + n - 4, ".svg") ? n - 4 : n), svg_rel);
  char *svg = ll_path_join(c->out, svg_rel), *png = ll_path_join(c->out, png_rel);
  const char *off = getenv("LANELAB_PNG");
  ll_err e = {0};
  bool ok = false;
  if (off && !strcmp(off, "0")) ll_seterr(&e, LL_EXIT_ENV, "LANELAB_PNG=0 in the environment turns PNG rendering off");
  else ok = report_tile_write_png(svg, png, width, height, &e);
  ll_buf_printf(page, "Standalone: <a href=\"%s\">SVG</a>", svg_rel);
  if (ok) {
    c->npng++;
    ll_buf_printf(page, ", <a href=\"%s\">PNG</a>. ", png_rel);
  } else {
    if (!c->npng_missing++) snprintf(c->png_why, sizeof c->png_why, "%s", e.msg);
    ll_buf_puts(page, " (PNG not rendered: see the <a href=\"index.html#png\">report's index</a>). ");
  }
  free(svg);
  free(png);
  free(png_rel);
}

void report_png_note(const report_ctx *c, ll_buf *page) {
  if (!c->npng_missing) return;
  ll_buf_printf(page, "<div class=\"box warn\" id=\"png\">%zu PNG picture%s not rendered (%zu rendered): ", c->npng_missing,
                c->npng_missing == 1 ? "" : "s", c->npng);
  report_html_esc(page, c->png_why);
  ll_buf_puts(page, ". The SVG pictures beside them are complete.</div>\n");
}

/* ---- deliveries ----------------------------------------------------------------------------*/
#include "lanes/lanes.h"

void report_delivery_extent(const lanes_delivery *const *d, int n, int *rows, int *cols) {
  *rows = *cols = 1;
  for (int i = 0; i < n; i++)
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < d[i]->slots && s < LANES_MAX_SLOTS; s++) {
        int e = d[i]->elem[L][s];
        if (e < 0) continue;
        if (e / d[i]->cols + 1 > *rows) *rows = e / d[i]->cols + 1;
        if (e % d[i]->cols + 1 > *cols) *cols = e % d[i]->cols + 1;
      }
}

report_tile *report_tile_delivery(const lanes_delivery *d, const char *title, int rows, int cols, ll_err *err) {
  report_tile *t = report_tile_new(title, rows, cols, "row", "col", err);
  if (!t) return NULL;
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < d->slots && s < LANES_MAX_SLOTS; s++) {
      int e = d->elem[L][s], bit = s * d->slot_bits;
      if (e >= 0) report_tile_own(t, e / d->cols, e % d->cols, L, bit / 32, (bit % 32) / d->slot_bits);
    }
  return t;
}

int report_tile_diff(report_tile *a, report_tile *b, const char *aname, const char *bname) {
  int n = 0;
  if (a->rows != b->rows || a->cols != b->cols) return -1;
  for (int r = 0; r < a->rows; r++)
    for (int c = 0; c < a->cols; c++) {
      size_t i = (size_t)r * a->cols + c;
      report_owner x = a->got[i], y = b->got[i];
      if (x.lane == y.lane && (x.lane < 0 || (x.reg == y.reg && x.slot == y.slot))) continue;
      char lx[48], ly[48], nx[120], ny[120];
      report_tile_label(x, lx, sizeof lx);
      report_tile_label(y, ly, sizeof ly);
      snprintf(nx, sizeof nx, "under %s: %s", bname, y.lane >= 0 ? ly : "held by no lane");
      snprintf(ny, sizeof ny, "under %s: %s", aname, x.lane >= 0 ? lx : "held by no lane");
      report_tile_mark(a, r, c, nx);
      report_tile_mark(b, r, c, ny);
      n++;
    }
  snprintf(a->bad_text, sizeof a->bad_text, "holder differs under %s", bname);
  snprintf(b->bad_text, sizeof b->bad_text, "holder differs under %s", aname);
  return n;
}

#define PAIR_GAP 16

void report_tiles_size(report_tile *const *t, int n, int *width, int *height) {
  *width = *height = 0;
  for (int i = 0; i < n; i++) {
    int w, h;
    report_tile_size(t[i], &w, &h);
    *width += w + PAIR_GAP;
    if (h > *height) *height = h;
  }
}

bool report_tiles_write(report_tile *const *t, int n, const char *path, ll_err *err) {
  size_t len = strlen(path);
  bool png = len > 4 && !strcmp(path + len - 4, ".png"), svgf = len > 4 && !strcmp(path + len - 4, ".svg");
  if (!png && !svgf) {
    ll_seterr(err, LL_EXIT_USAGE, "picture %s: the name must end in .svg or .png", path);
    return false;
  }
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s exists and is not a regular file; not replacing it", path);
    return false;
  }
  int W = 0, H = 0;
  ll_buf b = {0};
  for (int i = 0; i < n; i++) {
    int w, h;
    report_tile_size(t[i], &w, &h);
    char *id = ll_fmt("tile%d", i);
    ll_buf inner = {0};
    report_tile_svg(t[i], id, &inner);
    /* nested <svg> placed at x = W */
    const char *s = ll_buf_str(&inner);
    ll_buf_printf(&b, "<svg x=\"%d\" y=\"0\"%s", W, s + 4);
    ll_buf_free(&inner);
    free(id);
    W += w + PAIR_GAP;
  }
  report_tiles_size(t, n, &W, &H);
  ll_buf out = {0};
  ll_buf_printf(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                      "height=\"%d\" viewBox=\"0 0 %d %d\">\n<style>", W, H, W, H);
  report_tile_css(NULL, &out);
  ll_buf_puts(&out, "</style>\n");
  ll_buf_put(&out, b.data, b.len);
  ll_buf_puts(&out, "</svg>\n");
  ll_buf_free(&b);
  bool ok;
  if (svgf) {
    ok = ll_write_file_atomic(path, out.data, out.len, err);
  } else {
    char tmpl[] = "/tmp/lanelab-pic-XXXXXX";
    ok = mkdtemp(tmpl) != NULL;
    if (!ok) ll_seterr(err, LL_EXIT_FAIL, "mkdtemp: %s", strerror(errno));
    char *sp = ll_fmt("%s/picture.svg", tmpl);
    ok = ok && ll_write_file_atomic(sp, out.data, out.len, err) && report_tile_write_png(sp, path, W, H, err);
    unlink(sp);
    rmdir(tmpl);
    free(sp);
  }
  ll_buf_free(&out);
  return ok;
}
