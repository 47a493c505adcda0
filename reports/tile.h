/* reports/tile — tile pictures: a rows x cols tile (an LDS tile a lane map reads, an MFMA operand,
 * a trace's register contents) drawn as SVG, each element's cell coloured by the lane that owns
 * it and labelled L<lane>.<reg>[<slot>], with a legend of the 64 lane colours. Elements whose
 * owner differs from the expected one (or that a caller marks) get a red outline; the hover title
 * (SVG <title>, no script needed) names the element, its owner, the expected owner and any note.
 *
 * The SVG works inline in an HTML page and as a standalone file (report_tile_write_svg); a PNG of
 * it is rendered by headless Chromium (report_tile_write_png), for pasting into PRs.
 *
 * DOM contract (tests and the browser check rely on it): the picture is <svg class="tile" id=ID
 * data-elements=N data-bad=M>; every element is one <rect class="e lLANE"> (lane -1 = nobody:
 * class "e none") with its label in a <text> beside it (texts take no pointer events, so hovering
 * a label shows its cell's title) and, unless titles is off, a <title>; with titles off each row's
 * <g> has a <title> naming the row instead, so every element has hover text; a
 * mismatching element's rect has class "e lLANE bad", data-rc="R,C" and always a <title>; the
 * legend is <g class="legend"> with 64 <rect class="sw lLANE"> swatches (one per lane) and one
 * <rect class="sw-bad"> for the mismatch outline. Cells are sized by the picture's CSS (inline)
 * or by attributes (standalone file), so a 2048-element operand stays small.
 *
 * Usage:
 *   report_tile *t = report_tile_new("B of v_mfma_f32_16x16x16_f16", 16, 16, "k", "n");
 *   report_tile_own(t, r, c, lane, reg, slot);      // what the picture shows
 *   report_tile_expect(t, r, c, lane, reg, slot);   // optional: the expected owner
 *   report_tile_mark(t, r, c, "want 0x10 got 0x40"); // optional: mismatch for another reason
 *   report_tile_svg(t, "pic-b", &page);
 *   report_tile_free(t); */
#ifndef LANELAB_REPORT_TILE_H
#define LANELAB_REPORT_TILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define REPORT_TILE_MAX_CELLS (1 << 16)

typedef struct report_owner {
  int lane, reg, slot; /* lane -1: nobody holds the element */
} report_owner;

typedef struct report_tile {
  char *title;
  char row_name[16], col_name[16]; /* "k", "n", "row", ... */
  int rows, cols;
  report_owner *got;    /* rows*cols row-major: the owner drawn */
  report_owner *want;   /* expected owner; .lane == -2: no expectation given for the element */
  char **note;          /* per element extra hover text (NULL = none) */
  bool *marked;         /* mismatch set by report_tile_mark */
  char bad_text[120];   /* legend text of the red outline */
  bool titles;          /* hover title on every element (default when <= 256 elements); false: only on
                         * marked/noted ones, the others show their row's title (a title per element
                         * of every big tile would add ~1.6 MB, a fifth, to a full verify report) */
  bool legend;          /* draw the legend (default); several pictures on a page may share one */
} report_tile;

/* rows, cols >= 1 and rows*cols <= REPORT_TILE_MAX_CELLS, else NULL with err (LL_EXIT_USAGE).
 * Every element starts owned by nobody, with no expectation. */
report_tile *report_tile_new(const char *title, int rows, int cols, const char *row_name, const char *col_name,
                             ll_err *err);
void report_tile_free(report_tile *t);
/* Out-of-range (r, c) is ignored (returns false). A second owner of the same element keeps the
 * first (lowest lane first if callers go in lane order); the note then says how many hold it. */
bool report_tile_own(report_tile *t, int r, int c, int lane, int reg, int slot);
bool report_tile_expect(report_tile *t, int r, int c, int lane, int reg, int slot);
/* Marks (r, c) as mismatching and appends `why` to its hover text (why may be NULL). */
bool report_tile_mark(report_tile *t, int r, int c, const char *why);
/* Whether element (r, c) is drawn with a red outline: marked, or an expectation was given and the
 * owner (lane, reg, slot) differs from it. */
bool report_tile_bad(const report_tile *t, int r, int c);
int report_tile_mismatches(const report_tile *t);
/* Label of an owner: "L17.1[0]" ("-" for nobody). */
void report_tile_label(report_owner o, char *buf, size_t cap);
/* Fill colour of a lane (0..63): 16 hues (lane % 16) x 4 lightness bands (lane / 16). */
void report_tile_lane_colour(int lane, char *buf, size_t cap);
/* The lane colour rules: scoped to #id, or (id NULL) "svg.tile .lN" for a page's shared stylesheet
 * (reports' lanelab-report.css has them: an inline picture relies on it). */
void report_tile_css(const char *id, ll_buf *out);
/* Appends the picture as an <svg> element (inline use: no XML prolog). id: the element id. */
void report_tile_svg(const report_tile *t, const char *id, ll_buf *out);
/* Standalone SVG file (with xmlns and prolog), written atomically. */
bool report_tile_write_svg(const report_tile *t, const char *path, ll_err *err);
/* PNG of an SVG file via headless Chromium (`chromium` on PATH, else LL_EXIT_ENV naming the Debian
 * package); width x height in CSS pixels (report_tile_size gives the picture's). */
bool report_tile_write_png(const char *svg_path, const char *png_path, int width, int height, ll_err *err);
void report_tile_size(const report_tile *t, int *width, int *height);


/* ==================== what a primitive delivers (lanes_deliver) as pictures ================ */
struct lanes_delivery;
/* Rows/cols of the smallest top-left crop of the delivery tiles holding every element any of the n
 * deliveries names (>= 1 x 1). */
void report_delivery_extent(const struct lanes_delivery *const *d, int n, int *rows, int *cols);
/* The tile (cropped to rows x cols) with each element owned by the lane/slot the delivery puts it
 * in; NULL + err if the crop is not a valid tile. */
report_tile *report_tile_delivery(const struct lanes_delivery *d, const char *title, int rows, int cols, ll_err *err);
/* Marks, in both a and b (same shape), every element whose holder differs, noting the other
 * side's holder ("under <bname>: L5.0[1]"); returns how many. */
int report_tile_diff(report_tile *a, report_tile *b, const char *aname, const char *bname);
/* Several pictures side by side in one standalone file: PATH.svg, or PATH.png (rendered by
 * headless Chromium from a temporary SVG). Other extensions are LL_EXIT_USAGE. */
bool report_tiles_write(report_tile *const *t, int n, const char *path, ll_err *err);
/* Width and height of that side-by-side file (what its PNG is rendered at). */
void report_tiles_size(report_tile *const *t, int n, int *width, int *height);

/* ======================= lanes x slots: mismatch heatmap and pattern =======================
 * What 64 lanes hold, slot by slot, expected against got; where the slot's value names a tile
 * element, its (row, col) (-1 when unknown: not a tile element, or no element naming). */
#define REPORT_GRID_SLOTS 32
typedef struct report_grid {
  int slots; /* 1..REPORT_GRID_SLOTS */
  uint32_t want[64][REPORT_GRID_SLOTS], got[64][REPORT_GRID_SLOTS];
  int wr[64][REPORT_GRID_SLOTS], wc[64][REPORT_GRID_SLOTS], gr[64][REPORT_GRID_SLOTS], gc[64][REPORT_GRID_SLOTS];
} report_grid;
/* A grid with every element coordinate -1 and every value 0. */
void report_grid_init(report_grid *g, int slots);
int report_grid_mismatches(const report_grid *g);
/* One line naming the pattern of the mismatch set, first rule that fits:
 *   "no mismatches"; "rows and columns swapped" (every wrong slot holds the transposed element);
 *   "off by one row" / "off by one column" / "shifted by R rows, C columns" (one constant shift);
 *   "permutation within pairs|quads|groups of 8|rows of 16|halves|the wave" (each wrong lane holds
 *   exactly what another lane of the smallest such group should); "slots permuted within each
 *   lane"; "all wrong"; "lanes A–B wrong" (a contiguous lane range, all slots); otherwise
 *   "N/M wrong: lanes ..., slots ...". Each but the first two is followed by the count. */
void report_pattern(const report_grid *g, char *buf, size_t cap);
/* A lanes (x) by slots (y) heatmap, one cell per (lane, slot): red if it mismatches. DOM:
 * <svg class="heatmap" id=ID data-bad=N>: the grid drawn once, one <rect class="hm bad"> (with a
 * title: lane, slot, want, got) per mismatch. */
void report_heatmap_svg(const report_grid *g, const char *id, ll_buf *out);

#endif
