/* reports/lanemap — one page per lane-dump micro-kernel: a 64-lane x slot grid of what each lane
 * holds, the model's expectation beside what the kernel dumped, mismatches highlighted, and each
 * lane's seed address with the seed's closed form.
 *
 * Expected values come from lanes/ (lanes_expected_dump on the image lanes_kernel_image gives,
 * lanes_seed_solve for the closed form), never from a kernel run. lane_xlane and lane_mfma_* have
 * their expectation computed in verify/ (the CPU matmul, the cross-lane op list), so for those
 * the page reads dumps/<kernel>.expected.bin when verify saved it and says so when it did not. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lanes/lanes.h"
#include "reports/internal.h"
#include "reports/tile.h"

/* The micro-kernels verify's lanes stage runs (verify/stage_lanes.c), in its order; any other
 * kernel named in lanes.json or found in dumps/ gets a page too. */
static const char *known_kernels[] = {"lane_load_fragment", "lane_fragment_transpose", "lane_tr16_fragment_seed",
                                      "lane_tr16_solved_seed", "lane_tr8", "lane_tr4", "lane_tr6", "lane_xlane",
                                      "lane_mfma_16x16x16_f16", "lane_mfma_32x32x8_f16", "lane_mfma_16x16x32_f16"};

/* Solved-seed kernels: the solver target and swizzle their seed comes from (microabi, as in
 * lanes/kernels.c); the solved addresses are checked against lanes_expected_dump's below, so a
 * drift between the two is reported on the page, not hidden. */
static const struct { const char *kernel, *target; lanes_swizzle swz; lanes_ds_op op; } solved[] = {
    {"lane_tr16_solved_seed", "mfma16x16x16_b", LANES_SWZ_128B, LANES_DS_READ_B64_TR_B16},
    {"lane_tr8", "mfma16x16x32_fp8_b", LANES_SWZ_LINEAR, LANES_DS_READ_B64_TR_B8},
    {"lane_tr4", "mfma16x16x128_fp4_b", LANES_SWZ_LINEAR, LANES_DS_READ_B64_TR_B4},
    {"lane_tr6", "mfma16x16x128_fp6_b", LANES_SWZ_LINEAR, LANES_DS_READ_B96_TR_B6},
};

typedef struct kpage {
  const char *name;
  char what[300];
  int ndw, slot_bits, slots;
  bool region;             /* f16 tag region: a value names its element (lanes_region_tag) */
  bool applicable;
  char na_why[400];
  uint32_t *want, *want_addr; /* NULL if no expectation */
  char want_src[200];
  uint32_t *got, *got_addr;   /* NULL if no dump */
  char got_note[300];
  /* seed */
  bool have_seed_rc;
  int seed_row[64], seed_col[64];
  char closed_form[300];
  char seed_note[300];
  const lanes_target *target; /* solved narrow kernels: element names from the target */
  lanes_target tgt;
  int32_t traced[64][LANES_MAX_SLOTS];
  const lanes_mfma *mf;
  /* verify's row */
  char v_verdict[64], v_mm[64], v_seed[64], v_detail[600];
  bool have_vrow;
  int mismatches, seed_mismatches, compared;
} kpage;

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Reads a dump (64*ndw dwords then 64 addresses). *ndw < 0: infer from the size. Missing file:
 * true with *out NULL. Wrong size: false (bad input). */
static bool read_dump(report_ctx *c, const char *path, int *ndw, uint32_t **out, uint32_t **addr) {
  *out = *addr = NULL;
  struct stat st;
  if (stat(path, &st) != 0) return true;
  size_t n;
  uint8_t *d = ll_read_file(path, &n, c->err);
  if (!d) return false;
  if (n % 256 != 0 || n < 512) {
    ll_seterr(c->err, LL_EXIT_USAGE, "dump %s: %zu bytes is not 64 lanes x (NDW result dwords + 1 address) x 4 bytes", path, n);
    free(d);
    return false;
  }
  int have = (int)(n / 256) - 1;
  if (*ndw >= 0 && have != *ndw) {
    ll_seterr(c->err, LL_EXIT_USAGE, "dump %s: %zu bytes = %d dwords per lane + address, the kernel writes %d", path, n, have,
              *ndw);
    free(d);
    return false;
  }
  *ndw = have;
  *out = ll_xcalloc((size_t)64 * have, 4);
  *addr = ll_xcalloc(64, 4);
  for (size_t i = 0; i < (size_t)64 * have; i++) (*out)[i] = rd32(d + 4 * i);
  for (int l = 0; l < 64; l++) (*addr)[l] = rd32(d + 4 * ((size_t)64 * have + l));
  free(d);
  return true;
}

/* Names the tile element a 16-bit region value holds (lanes.h: T[r][c] = 16r+c for c < 16, else
 * 0x4000 + 64r + c). */
static void region_label(uint32_t v, char *buf, size_t cap) {
  if (v < 256) snprintf(buf, cap, "%u,%u", v / 16, v % 16);
  else if (v >= 0x4000 && v < 0x4000 + 64 * 16 && (v - 0x4000) % 64 >= 16)
    snprintf(buf, cap, "%u,%u", (v - 0x4000) / 64, (v - 0x4000) % 64);
  else snprintf(buf, cap, "?%04x", v);
}

/* The element (r, c) a region value names, false if it names none (lanes.h: T[r][c] = 16r+c for
 * c < 16, else 0x4000 + 64r + c). */
static bool region_rc(uint32_t v, int *r, int *c) {
  if (v < 256) { *r = (int)v / 16; *c = (int)v % 16; return true; }
  if (v >= 0x4000 && v < 0x4000 + 64 * 16 && (v - 0x4000) % 64 >= 16) {
    *r = (int)(v - 0x4000) / 64;
    *c = (int)(v - 0x4000) % 64;
    return true;
  }
  return false;
}

static void find_vrow(report_ctx *c, kpage *k) {
  const report_stage *s = report_find_stage(c, "lanes");
  if (!s) return;
  for (size_t t = 0; t < s->ntables; t++) {
    const report_table *tb = s->tables[t];
    int ck = -1, cv = -1, cm = -1, cs = -1, cd = -1;
    for (size_t i = 0; i < tb->ncols; i++) {
      if (!strcmp(tb->cols[i], "kernel")) ck = (int)i;
      else if (!strcmp(tb->cols[i], "verdict")) cv = (int)i;
      else if (strstr(tb->cols[i], "slot mismatches")) cm = (int)i;
      else if (strstr(tb->cols[i], "seed mismatches")) cs = (int)i;
      else if (!strcmp(tb->cols[i], "detail")) cd = (int)i;
    }
    if (ck < 0) continue;
    for (size_t r = 0; r < tb->nrows; r++) {
      if (strcmp(report_table_cell(tb, r, ck), k->name)) continue;
      k->have_vrow = true;
      snprintf(k->v_verdict, sizeof k->v_verdict, "%s", cv >= 0 ? report_table_cell(tb, r, cv) : "");
      snprintf(k->v_mm, sizeof k->v_mm, "%s", cm >= 0 ? report_table_cell(tb, r, cm) : "");
      snprintf(k->v_seed, sizeof k->v_seed, "%s", cs >= 0 ? report_table_cell(tb, r, cs) : "");
      snprintf(k->v_detail, sizeof k->v_detail, "%s", cd >= 0 ? report_table_cell(tb, r, cd) : "");
      return;
    }
  }
}

/* Closed form of the fragment seed, fitted from the model's addresses (k128B region: row =
 * addr/128, chunk = unit ^ (row % 8), col = 4*chunk; lanes.h swizzle formulas). */
static void fragment_seed_form(kpage *k, const uint32_t addr[64]) {
  for (int L = 0; L < 64; L++) {
    int row = (int)(addr[L] / 128), unit = (int)((addr[L] % 128) / 8);
    k->seed_row[L] = row;
    k->seed_col[L] = 4 * (unit ^ (row % 8));
  }
  lanes_affine fr = lanes_affine_fit(k->seed_row), fc = lanes_affine_fit(k->seed_col);
  char rf[120], cf[120];
  lanes_affine_format(&fr, rf, sizeof rf);
  lanes_affine_format(&fc, cf, sizeof cf);
  snprintf(k->closed_form, sizeof k->closed_form, "row = %s, col = %s", rf, cf);
  snprintf(k->seed_note, sizeof k->seed_note,
           "load_fragment seed (lanes_seed_fragment, k128B); closed form fitted to the model's 64 addresses");
  k->have_seed_rc = true;
}

/* A dump is written while the lanes stage runs, i.e. at most `seconds` before lanes.json; one older
 * than that (with 2 s of slack for file-system time granularity) is left from an earlier run whose
 * kernel this run did not get to dump. Without lanes.json every dump is stale. */
static bool dump_is_stale(report_ctx *c, const char *dump) {
  struct stat sd, sl;
  if (stat(dump, &sd) != 0) return false;
  char *lj = ll_fmt("%s/lanes.json", c->results);
  bool have = stat(lj, &sl) == 0;
  free(lj);
  if (!have) return true;
  const report_stage *ls = report_find_stage(c, "lanes");
  double secs = ls && ls->present ? ls->seconds : 0;
  double td = (double)sd.st_mtim.tv_sec + sd.st_mtim.tv_nsec * 1e-9, tl = (double)sl.st_mtim.tv_sec + sl.st_mtim.tv_nsec * 1e-9;
  return td < tl - secs - 2.0;
}

static bool prepare(report_ctx *c, kpage *k, lanes_arch la) {
  ll_err e = {0};
  find_vrow(c, k);
  char *dump = ll_fmt("%s/dumps/%s.bin", c->results, k->name);
  char *xdump = ll_fmt("%s/dumps/%s.expected.bin", c->results, k->name);
  bool ok = false;
  const lanes_kernel_info *ki = lanes_kernel_find(k->name, &e);
  k->applicable = true;
  k->ndw = -1;
  k->slot_bits = 32;
  if (ki) {
    snprintf(k->what, sizeof k->what, "%s", ki->what);
    k->slot_bits = ki->slot_bits;
    k->ndw = ki->ndw;
    k->region = ki->image_bytes == LANES_REGION_BYTES && ki->slot_bits == 16;
    if (!(ki->arches & LANES_ARCH_BIT(la))) {
      k->applicable = false;
      uint8_t img[4096];
      size_t n;
      ll_err e2 = {0};
      uint32_t w[64 * 4], a[64];
      int nd;
      if (lanes_kernel_image(k->name, img, sizeof img, &n, &e2)) lanes_expected_dump(k->name, la, img, n, w, a, &nd, &e2);
      snprintf(k->na_why, sizeof k->na_why, "%s", e2.code ? e2.msg : "the model says it does not apply");
    } else {
      uint8_t img[4096];
      size_t n;
      k->want = ll_xcalloc(64 * 4, 4);
      k->want_addr = ll_xcalloc(64, 4);
      int nd;
      if (!lanes_kernel_image(k->name, img, sizeof img, &n, c->err) ||
          !lanes_expected_dump(k->name, la, img, n, k->want, k->want_addr, &nd, c->err)) {
        ll_err_prefix(c->err, "lane-map page %s: model", k->name);
        goto out;
      }
      snprintf(k->want_src, sizeof k->want_src, "lanes_expected_dump (%s)", lanes_arch_name(la));
      size_t si;
      for (si = 0; si < sizeof solved / sizeof *solved; si++)
        if (!strcmp(solved[si].kernel, k->name)) break;
      if (si < sizeof solved / sizeof *solved) {
        lanes_seed s;
        if (!lanes_target_get(solved[si].target, solved[si].swz, &k->tgt, c->err) ||
            !lanes_seed_solve(&k->tgt, solved[si].op, la, &s, c->err)) {
          ll_err_prefix(c->err, "lane-map page %s: solver", k->name);
          goto out;
        }
        if (s.found) {
          snprintf(k->closed_form, sizeof k->closed_form, "%s", s.closed_form[0]);
          bool same = memcmp(s.addr[0], k->want_addr, 64 * 4) == 0;
          snprintf(k->seed_note, sizeof k->seed_note, "solved: lanes_seed_solve(%s, %s, %s swizzle)%s", k->tgt.name,
                   lanes_ds_op_name(solved[si].op), lanes_swizzle_name(solved[si].swz),
                   same ? "" : " -- DIFFERS from the addresses lanes_expected_dump used");
          for (int L = 0; L < 64; L++) { k->seed_row[L] = s.row[0][L]; k->seed_col[L] = s.col[0][L]; }
          k->have_seed_rc = true;
          memcpy(k->traced, s.traced, sizeof k->traced);
          k->target = &k->tgt;
        } else {
          snprintf(k->closed_form, sizeof k->closed_form, "(solver found no seed: %s)", s.why);
        }
      } else {
        fragment_seed_form(k, k->want_addr);
      }
    }
  } else if (!strncmp(k->name, "lane_mfma_", 10)) {
    char *instr = ll_fmt("v_mfma_f32_%s", k->name + 10);
    ll_err e2 = {0};
    k->mf = lanes_mfma_lookup(instr, la, &e2);
    snprintf(k->what, sizeof k->what, "%s probe: D register of each lane; element (i,j) from lanes_mfma_element", instr);
    if (!k->mf) {
      k->applicable = false;
      snprintf(k->na_why, sizeof k->na_why, "%s", e2.msg);
    } else {
      k->ndw = k->mf->cd_regs;
    }
    free(instr);
  } else if (!strcmp(k->name, "lane_xlane")) {
    snprintf(k->what, sizeof k->what, "cross-lane probe: one op per dword (ds_bpermute/permute/swizzle, DPP, permlane "
                                      "swaps; the list is in kernels/micro/lane_xlane.hip)");
  } else {
    snprintf(k->what, sizeof k->what, "micro-kernel not described by lanes/ (%s)", e.msg);
  }
  if (!k->applicable) { ok = true; goto out; }
  if (dump_is_stale(c, dump)) {
    snprintf(k->got_note, sizeof k->got_note, "no dump (stage not run for this kernel): %s is older than the last lanes "
             "stage run, left by an earlier verify", dump);
  } else {
    if (!read_dump(c, dump, &k->ndw, &k->got, &k->got_addr)) goto out;
    if (!k->got) snprintf(k->got_note, sizeof k->got_note, "no dump (stage not run): %s does not exist", dump);
  }
  if (!k->want) {
    int nd = k->ndw;
    if (!read_dump(c, xdump, &nd, &k->want, &k->want_addr)) goto out;
    if (k->want) {
      k->ndw = nd;
      snprintf(k->want_src, sizeof k->want_src, "dumps/%s.expected.bin (saved by verify)", k->name);
    } else {
      snprintf(k->want_src, sizeof k->want_src, "not available: verify did not save %s", xdump);
    }
  }
  if (k->ndw <= 0) { ok = true; goto out; } /* neither dump nor model: nothing to draw */
  k->slots = k->ndw * 32 / k->slot_bits;
  if (k->want && k->got) {
    for (int L = 0; L < 64; L++) {
      for (int s = 0; s < k->slots; s++) {
        k->compared++;
        k->mismatches += lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits) !=
                         lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits);
      }
      if (k->have_seed_rc || !strcmp(k->name, "lane_xlane"))
        k->seed_mismatches += k->want_addr[L] != k->got_addr[L];
    }
  }
  ok = true;
out:
  free(dump);
  free(xdump);
  return ok;
}

/* dw may be NULL for the expected side of an MFMA probe without expected values: the cell then
 * names the D element the model places there. */
static void label(const kpage *k, const uint32_t *dw, int L, int s, bool expected, char *buf, size_t cap) {
  uint32_t v = dw ? lanes_slot_get(dw + L * k->ndw, s, k->slot_bits) : 0;
  if (k->region) { region_label(v, buf, cap); return; }
  if (k->mf) {
    float f;
    memcpy(&f, &v, 4);
    int i, j;
    lanes_loc loc = {L, s, 0};
    if (expected && lanes_mfma_element(k->mf, LANES_OPND_D, loc, &i, &j)) {
      if (dw) snprintf(buf, cap, "%d,%d=%g", i, j, (double)f);
      else snprintf(buf, cap, "%d,%d", i, j);
    } else snprintf(buf, cap, "%g", (double)f);
    return;
  }
  if (expected && k->target && k->traced[L][s] >= 0)
    snprintf(buf, cap, "%d,%d=%0*x", k->traced[L][s] / k->target->cols, k->traced[L][s] % k->target->cols,
             (k->slot_bits + 3) / 4, v);
  else snprintf(buf, cap, "%0*x", (k->slot_bits + 3) / 4, v);
}

static void cell_title(const kpage *k, int L, int s, char *buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "lane %d slot %d", L, s);
  if (k->mf) {
    lanes_loc loc = {L, s, 0};
    int i, j;
    if (lanes_mfma_element(k->mf, LANES_OPND_D, loc, &i, &j)) snprintf(buf + n, cap - n, ": D(%d,%d)", i, j);
  }
  if (k->want && n < cap) {
    n = strlen(buf);
    snprintf(buf + n, cap - n, " want 0x%x", lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits));
  }
  if (k->got) {
    n = strlen(buf);
    if (n < cap) snprintf(buf + n, cap - n, " got 0x%x", lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits));
  }
}

/* The slot's owner name: VGPR of the slot's lowest bit, and its index among the slots starting in
 * that VGPR. */
static report_owner slot_owner(int lane, int s, int bits) {
  int bit = s * bits;
  return (report_owner){lane, bit / 32, (bit % 32) / bits};
}

/* The lanes x slots grid (want/got values, element coordinates where a value names one) and the
 * tile picture: the f16 region cropped to the elements read; a solved narrow kernel's target tile
 * (elements from the model's trace); an MFMA probe's D. NULL tile for kernels without one. */
static report_tile *lane_views(report_ctx *c, const kpage *k, report_grid *g) {
  report_grid_init(g, k->slots);
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < g->slots; s++) {
      if (k->want) g->want[L][s] = lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits);
      if (k->got) g->got[L][s] = lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits);
      if (!k->want) g->want[L][s] = g->got[L][s];
      if (!k->got) g->got[L][s] = g->want[L][s];
      int r, cc;
      if (k->region) {
        if (region_rc(g->want[L][s], &r, &cc)) g->wr[L][s] = r, g->wc[L][s] = cc;
        if (region_rc(g->got[L][s], &r, &cc)) g->gr[L][s] = r, g->gc[L][s] = cc;
      } else if (k->target && k->traced[L][s] >= 0) {
        g->wr[L][s] = k->traced[L][s] / k->target->cols;
        g->wc[L][s] = k->traced[L][s] % k->target->cols;
      } else if (k->mf && lanes_mfma_element(k->mf, LANES_OPND_D, (lanes_loc){L, s, 0}, &r, &cc)) {
        g->wr[L][s] = r, g->wc[L][s] = cc;
      }
    }
  int rows = 0, cols = 0;
  const char *rn = "row", *cn = "col", *what = "tile";
  if (k->region) {
    for (int L = 0; L < 64; L++)
      for (int s = 0; s < g->slots; s++) {
        if (g->wr[L][s] >= rows) rows = g->wr[L][s] + 1;
        if (g->wc[L][s] >= cols) cols = g->wc[L][s] + 1;
        if (g->gr[L][s] >= rows) rows = g->gr[L][s] + 1;
        if (g->gc[L][s] >= cols) cols = g->gc[L][s] + 1;
      }
    what = "f16 LDS tile (k128B region, logical row,col)";
  } else if (k->target) {
    rows = k->target->rows, cols = k->target->cols;
    rn = k->target->operand == LANES_OPND_B ? "k" : "row";
    cn = k->target->operand == LANES_OPND_B ? "n" : "col";
    what = k->target->name;
  } else if (k->mf) {
    rows = lanes_mfma_rows(k->mf, LANES_OPND_D), cols = lanes_mfma_cols(k->mf, LANES_OPND_D);
    rn = "i", cn = "j", what = "D";
  }
  if (rows == 0 || cols == 0) return NULL;
  char *title = ll_fmt("%s %s: %s", c->arch, k->name, what);
  ll_err e = {0};
  report_tile *t = report_tile_new(title, rows, cols, rn, cn, &e);
  free(title);
  if (!t) return NULL;
  for (int L = 0; L < 64; L++)
    for (int s = 0; s < g->slots; s++) {
      report_owner o = slot_owner(L, s, k->slot_bits);
      bool mm = k->want && k->got && g->want[L][s] != g->got[L][s];
      if (k->region) {
        if (g->gr[L][s] >= 0) report_tile_own(t, g->gr[L][s], g->gc[L][s], o.lane, o.reg, o.slot);
        if (k->want && k->got && g->wr[L][s] >= 0) report_tile_expect(t, g->wr[L][s], g->wc[L][s], o.lane, o.reg, o.slot);
      } else if (g->wr[L][s] >= 0) {
        report_tile_own(t, g->wr[L][s], g->wc[L][s], o.lane, o.reg, o.slot);
      }
      if (mm && g->wr[L][s] >= 0) {
        char why[96];
        snprintf(why, sizeof why, "L%d.%d[%d] want 0x%x got 0x%x", o.lane, o.reg, o.slot, g->want[L][s], g->got[L][s]);
        report_tile_mark(t, g->wr[L][s], g->wc[L][s], why);
      }
    }
  return t;
}

/* Picture, heatmap and pattern line above the grid; the picture also as pictures/<stem>.svg. */
static bool lane_pictures(report_ctx *c, const kpage *k, ll_buf *p) {
  report_grid *g = ll_xcalloc(1, sizeof *g);
  report_tile *t = lane_views(c, k, g);
  bool ok = true;
  if (t) {
    /* a standalone copy for PRs when there is something to show (a mismatch); a clean map is
     * reproduced by `lanelab lanes PRIMITIVE --picture FILE.svg|png` */
    bool standalone = report_tile_mismatches(t) > 0;
    char *stem = ll_fmt("pictures/lane-%s.svg", k->name);
    if (standalone) {
      char *path = ll_path_join(c->out, stem);
      char *dir = ll_dirname(path);
      ok = ll_mkdir_p(dir, c->err) && report_tile_write_svg(t, path, c->err);
      free(dir);
      free(path);
    }
    ll_buf_puts(p, "<h2>tile</h2>\n<p>Each cell is one tile element, coloured by the lane that holds it and labelled "
                   "L&lt;lane&gt;.&lt;vgpr&gt;[&lt;slot&gt;]; a red outline marks an element whose holder differs from the "
                   "model's (hover: expected holder and values). ");
    if (standalone && ok) {
      int w, h;
      report_tile_size(t, &w, &h);
      report_picture_png(c, stem, w, h, p);
    }
    ll_buf_puts(p, "PNG or SVG of the model's map: <code>lanelab lanes PRIMITIVE --picture FILE.png</code>.</p>\n"
                   "<div class=\"pic\">");
    report_tile_svg(t, "tile", p);
    ll_buf_puts(p, "</div>\n");
    free(stem);
    report_tile_free(t);
  }
  if (ok && k->want && k->got) {
    char pat[300];
    report_pattern(g, pat, sizeof pat);
    ll_buf_printf(p, "<h2>mismatches: lanes &times; slots</h2>\n<p class=\"pattern %s\" id=\"pattern\">pattern: ",
                  report_grid_mismatches(g) ? "fail" : "pass");
    report_html_esc(p, pat);
    ll_buf_puts(p, "</p>\n<div class=\"pic\">");
    report_heatmap_svg(g, "heatmap", p);
    ll_buf_puts(p, "</div>\n");
  }
  free(g);
  return ok;
}

static bool write_page(report_ctx *c, kpage *k, const char *arch) {
  ll_buf p = {0};
  char *title = ll_fmt("%s lane map: %s", arch, k->name);
  report_html_begin(&p, title, "lanemap");
  ll_buf_puts(&p, "<p><a href=\"index.html\">&larr; ");
  report_html_esc(&p, arch);
  ll_buf_puts(&p, " report</a></p><h1>");
  report_html_esc(&p, title);
  ll_buf_puts(&p, "</h1>\n<table class=\"meta\">");
#define META(key, val) do { ll_buf_puts(&p, "<tr><td>" key "</td><td>"); report_html_esc(&p, val); ll_buf_puts(&p, "</td></tr>"); } while (0)
  META("what", k->what);
  if (!k->applicable) {
    ll_buf_puts(&p, "<tr><td>status</td><td class=\"notrun\">not applicable on ");
    report_html_esc(&p, arch);
    ll_buf_puts(&p, "</td></tr>");
    META("why", k->na_why);
    ll_buf_puts(&p, "</table>\n");
    report_html_end(&p);
    goto write;
  }
  META("expected from", k->want_src[0] ? k->want_src : "-");
  META("got from", k->got ? "dumps/<kernel>.bin written by lanelab verify (lanes stage)" : k->got_note);
  if (k->closed_form[0]) META("seed closed form", k->closed_form);
  if (k->seed_note[0]) META("seed", k->seed_note);
  if (k->have_vrow) {
    char vline[800];
    snprintf(vline, sizeof vline, "%s: %s lane x slot mismatches, %s seed mismatches", k->v_verdict, k->v_mm, k->v_seed);
    ll_buf_printf(&p, "<tr><td>verify said</td><td class=\"%s\">", report_verdict_class(k->v_verdict));
    report_html_esc(&p, vline);
    ll_buf_puts(&p, "</td></tr>");
  } else {
    META("verify said", "no row for this kernel in lanes.json (stage not run)");
  }
  if (k->want && k->got) {
    char line[400];
    int vm = -1;
    bool agree = true;
    if (k->have_vrow && sscanf(k->v_mm, "%d/", &vm) == 1) agree = vm == k->mismatches;
    snprintf(line, sizeof line, "%d/%d mismatching lane x slot cells%s; %d/64 seed addresses differ", k->mismatches,
             k->compared, !k->have_vrow || vm < 0 ? "" : agree ? " (agrees with verify)" : " (DISAGREES with verify's count)",
             k->seed_mismatches);
    ll_buf_printf(&p, "<tr><td>this page</td><td class=\"%s\" id=\"mm-summary\" data-mismatches=\"%d\">",
                  k->mismatches || k->seed_mismatches || !agree ? "fail" : "pass", k->mismatches);
    report_html_esc(&p, line);
    ll_buf_puts(&p, "</td></tr>");
  } else {
    ll_buf_puts(&p, "<tr><td>this page</td><td class=\"notrun\" id=\"mm-summary\">not compared: ");
    report_html_esc(&p, !k->got ? k->got_note : k->want_src);
    ll_buf_puts(&p, "</td></tr>");
  }
  ll_buf_puts(&p, "</table>\n");
  if (k->ndw <= 0) {
    ll_buf_puts(&p, "<div class=\"box warn\">no grid: no dump and no model expectation for this kernel</div>\n");
    report_html_end(&p);
    goto write;
  }
  if (!lane_pictures(c, k, &p)) { ll_buf_free(&p); free(title); return false; }
  /* the grid, also exported */
  ll_buf cols = {0};
  ll_buf_puts(&cols, "lane#,model addr#,dump addr#,seed row#,seed col#");
  for (int s = 0; s < k->slots; s++) ll_buf_printf(&cols, ",s%d expected,s%d got", s, s);
  char *stem = ll_fmt("lane-%s", k->name);
  report_table *t = report_table_new(title, ll_buf_str(&cols));
  ll_buf_free(&cols);
  report_table_note(t, "expected: %s", k->want_src);
  report_table_note(t, "cells: %s", k->region ? "tile row,col of the f16 tag region element the slot holds"
                                    : k->mf ? "expected: D element i,j (=f32 value when known); got: f32 value"
                                            : "slot value in hex (expected: tile row,col=value)");
  if (k->closed_form[0]) report_table_note(t, "seed closed form: %s", k->closed_form);
  ll_buf_puts(&p, "<h2>lanes &times; slots</h2>\n<p><label><input type=\"checkbox\" id=\"only-mm\"> show only lanes with a "
                  "mismatch</label> &middot; cells: ");
  report_html_esc(&p, k->region ? "tile row,col of the element the slot holds (f16 tag region)"
                  : k->mf ? "expected: the D element i,j the model places there (=value when verify saved it); got: the f32 value"
                          : "slot value in hex; expected: tile row,col=value the model says it comes from");
  ll_buf_puts(&p, "; grey = expected (model), white = got (dump), red = mismatch; one cell across both columns: the dump "
                  "holds what the model expects.</p>\n");
  ll_buf_printf(&p, "<table class=\"grid lanemap\" id=\"lanemap\" data-expect=\"tr.lane=64;td.mismatch=%d;td.seed-mismatch=%d\">"
                    "<thead><tr><th>lane</th><th>model addr</th><th>dump addr</th><th>seed row,col</th>",
                k->mismatches, k->seed_mismatches);
  for (int s = 0; s < k->slots; s++) ll_buf_printf(&p, "<th>s%d exp</th><th>s%d got</th>", s, s);
  ll_buf_puts(&p, "</tr></thead><tbody>\n");
  for (int L = 0; L < 64; L++) {
    bool has = false;
    for (int s = 0; s < k->slots && k->want && k->got; s++)
      has |= lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits) != lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits);
    bool addr_bad = k->want && k->got && (k->have_seed_rc || !strcmp(k->name, "lane_xlane")) && k->want_addr[L] != k->got_addr[L];
    ll_buf row = {0};
    ll_buf_printf(&p, "<tr class=\"lane%s\" data-lane=\"%d\"><td class=\"lanecol\">%d</td>", has || addr_bad ? " has-mm" : "", L, L);
    char ma[24] = "-", ga[24] = "-", rc[32] = "-";
    if (k->want_addr) snprintf(ma, sizeof ma, "%u", k->want_addr[L]);
    if (k->got_addr) snprintf(ga, sizeof ga, "%u", k->got_addr[L]);
    if (k->have_seed_rc) snprintf(rc, sizeof rc, "%d,%d", k->seed_row[L], k->seed_col[L]);
    ll_buf_printf(&p, "<td>%s</td><td%s>%s</td><td>%s</td>", ma, addr_bad ? " class=\"seed-mismatch\"" : "", ga, rc);
    ll_buf_printf(&row, "%d\t%s\t%s\t%d\t%d", L, k->want_addr ? ma : "", k->got_addr ? ga : "",
                  k->have_seed_rc ? k->seed_row[L] : -1, k->have_seed_rc ? k->seed_col[L] : -1);
    for (int s = 0; s < k->slots; s++) {
      char e[48] = "-", g[48] = "-", tt[160];
      if (k->want || k->mf) label(k, k->want, L, s, true, e, sizeof e);
      if (k->got) label(k, k->got, L, s, false, g, sizeof g);
      bool mm = k->want && k->got &&
                lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits) != lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits);
      /* hover text on the mismatching cells only: on every cell it doubled a 64-lane page. A slot
       * whose dump equals the model's is one cell across both columns showing the expected label
       * (it names what got shows, and more): two cells each was half of a passing page. */
      if (mm) {
        cell_title(k, L, s, tt, sizeof tt);
        ll_buf_printf(&p, "<td class=\"exp\">%s</td><td class=\"got mismatch\" data-ls=\"%d.%d\" title=\"%s\">%s</td>", e, L,
                      s, tt, g);
      } else if (k->want && k->got) {
        ll_buf_printf(&p, "<td colspan=\"2\">%s</td>", e);
      } else {
        ll_buf_printf(&p, "<td class=\"exp\">%s</td><td class=\"got\" data-ls=\"%d.%d\">%s</td>", e, L, s, g);
      }
      ll_buf_printf(&row, "\t%s\t%s", k->want || k->mf ? e : "", k->got ? g : "");
    }
    ll_buf_puts(&p, "</tr>\n");
    report_table_row(t, "%s", ll_buf_str(&row));
    ll_buf_free(&row);
  }
  ll_buf_puts(&p, "</tbody></table>\n");
  if (!k->have_seed_rc) report_table_note(t, "seed row/col -1: not a seeded LDS read");
  bool eok = report_export_table(c, t, stem);
  report_export_links(&p, stem, t->nrows);
  report_table_free(t);
  free(stem);
  report_html_end(&p);
  if (!eok) { ll_buf_free(&p); free(title); return false; }
write:;
  char *rel = ll_fmt("lane-%s.html", k->name);
  bool ok = report_write_out(c, rel, &p);
  free(rel);
  ll_buf_free(&p);
  free(title);
  return ok;
#undef META
}

bool report_lane_first_mismatch(report_ctx *c, const char *kernel, char *line, size_t cap, char *pattern, size_t pcap) {
  lanes_arch la;
  line[0] = pattern[0] = 0;
  if (!lanes_arch_parse(c->arch, &la, c->err)) return false;
  kpage *k = ll_xcalloc(1, sizeof *k);
  k->name = kernel;
  bool ok = prepare(c, k, la);
  if (ok && k->want && k->got) {
    for (int L = 0; L < 64 && !line[0]; L++)
      for (int s = 0; s < k->slots && !line[0]; s++) {
        uint32_t w = lanes_slot_get(k->want + L * k->ndw, s, k->slot_bits), g = lanes_slot_get(k->got + L * k->ndw, s, k->slot_bits);
        if (w == g) continue;
        char e[48], gl[48];
        label(k, k->want, L, s, true, e, sizeof e);
        label(k, k->got, L, s, false, gl, sizeof gl);
        snprintf(line, cap, "first mismatch: lane %d slot %d: expected 0x%x (%s), got 0x%x (%s)", L, s, w, e, g, gl);
      }
    for (int L = 0; L < 64 && !line[0]; L++)
      if (k->want_addr[L] != k->got_addr[L])
        snprintf(line, cap, "first mismatch: lane %d seed address: expected %u, got %u", L, k->want_addr[L], k->got_addr[L]);
    report_grid *g = ll_xcalloc(1, sizeof *g);
    report_tile_free(lane_views(c, k, g));
    report_pattern(g, pattern, pcap);
    free(g);
  } else if (ok) {
    snprintf(line, cap, "not compared: %s", !k->got ? k->got_note : k->want_src);
  }
  free(k->want); free(k->want_addr); free(k->got); free(k->got_addr);
  free(k);
  return ok;
}

static void add_name(const char ***names, size_t *n, const char *nm) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*names)[i], nm)) return;
  *names = ll_xrealloc(*names, (*n + 1) * sizeof **names);
  (*names)[(*n)++] = ll_xstrdup(nm);
}

bool report_lane_pages(report_ctx *c, ll_buf *index) {
  lanes_arch la;
  if (!lanes_arch_parse(c->arch, &la, c->err)) return false;
  const char **names = NULL;
  size_t n = 0;
  for (size_t i = 0; i < sizeof known_kernels / sizeof *known_kernels; i++) add_name(&names, &n, known_kernels[i]);
  const report_stage *ls = report_find_stage(c, "lanes");
  for (size_t t = 0; ls && t < ls->ntables; t++)
    for (size_t col = 0; col < ls->tables[t]->ncols; col++)
      if (!strcmp(ls->tables[t]->cols[col], "kernel"))
        for (size_t r = 0; r < ls->tables[t]->nrows; r++) add_name(&names, &n, report_table_cell(ls->tables[t], r, col));
  char *dd = ll_fmt("%s/dumps", c->results);
  DIR *d = opendir(dd);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len > 4 && !strcmp(e->d_name + len - 4, ".bin") && !strstr(e->d_name, ".expected.bin")) {
        char *nm = ll_xstrdup(e->d_name);
        nm[len - 4] = 0;
        add_name(&names, &n, nm);
        free(nm);
      }
    }
    closedir(d);
  }
  free(dd);
  report_table *t = report_table_new("micro-kernel lane maps",
                                     "kernel,status,lane x slot mismatches,seed mismatches,verify verdict,page,what");
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    kpage *k = ll_xcalloc(1, sizeof *k);
    k->name = names[i];
    ok = prepare(c, k, la) && write_page(c, k, c->arch);
    if (ok) {
      const char *status = !k->applicable ? "not applicable" : !k->got ? "not run" : !k->want ? "no expectation"
                           : k->mismatches || k->seed_mismatches ? "FAIL" : "pass";
      char mm[32] = "-", sm[32] = "-";
      if (k->want && k->got) {
        snprintf(mm, sizeof mm, "%d/%d", k->mismatches, k->compared);
        snprintf(sm, sizeof sm, "%d/64", k->seed_mismatches);
      }
      report_table_row(t, "%s\t%s\t%s\t%s\t%s\tlane-%s.html\t%s", k->name, status, mm, sm,
                       k->have_vrow ? k->v_verdict : "not run", k->name,
                       !k->applicable ? k->na_why : !k->got ? k->got_note : k->what);
    }
    free(k->want); free(k->want_addr); free(k->got); free(k->got_addr);
    free(k);
  }
  if (ok) {
    ll_buf_puts(index, "<h2 id=\"lanemaps\">Lane maps (micro-kernels)</h2>\n"
                       "<p>Each page shows all 64 lanes: the model's expected content beside the dumped one.</p>\n");
    /* the table with links: rendered by hand to make the page column a link */
    ok = report_export_table(c, t, "lanemaps");
    ll_buf_printf(index, "<table class=\"data\" id=\"t-lanemaps\" data-expect=\"tbody tr=%zu\"><thead><tr>", t->nrows);
    for (size_t k = 0; k < t->ncols; k++) ll_buf_printf(index, "<th>%s</th>", t->cols[k]);
    ll_buf_puts(index, "</tr></thead><tbody>\n");
    for (size_t r = 0; r < t->nrows; r++) {
      ll_buf_puts(index, "<tr>");
      for (size_t k = 0; k < t->ncols; k++) {
        const char *v = report_table_cell(t, r, k);
        ll_buf_printf(index, "<td class=\"%s\">", report_verdict_class(v));
        if (k == 5) ll_buf_printf(index, "<a href=\"%s\">%s</a>", v, v);
        else report_html_esc(index, v);
        ll_buf_puts(index, "</td>");
      }
      ll_buf_puts(index, "</tr>\n");
    }
    ll_buf_puts(index, "</tbody></table>\n");
    report_export_links(index, "lanemaps", t->nrows);
  }
  report_table_free(t);
  for (size_t i = 0; i < n; i++) free((char *)names[i]);
  free(names);
  return ok;
}
