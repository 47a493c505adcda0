/* cli/cmd_lanes — `lanelab lanes PRIMITIVE [--arch A] [--seed fragment|solved | --addr EXPR|FILE
 * [--tile SPEC] | --diff SEED,SEED] [--format F] [--picture FILE.svg|FILE.png]`: what each lane
 * holds after a data-movement primitive reads a tagged tile at a seed (lanes/deliver.c); with
 * --tile, the user's own tile (shape, element size, row stride, swizzle) at their addresses.
 *
 * 16-bit and plain primitives (ds_read_b32/b64/b96/b128, ds_read_b64_tr_b16, fragment_transpose)
 * read the microabi f16 region (k128B, T[r][c] tagged 16r+c, other elements 0x4000+64r+c): tag =
 * the 16-bit value the slot holds. Default seed: fragment (load_fragment's). b8/b4/b6 primitives
 * read their linear tiles (default: the solver's seed): tag = row-major index of the tile element
 * the slot holds, traced through the model. csv: lane,slot,tag; with --diff:
 * lane,slot,<seed1>,<seed2>,differs. --picture draws the tile (two side by side with --diff). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lanes/lanes.h"
#include "table/table.h"
#include "reports/tile.h"
#include "util/util.h"

static int usage_err(const char *fmt, const char *a) {
  fprintf(stderr, "lanelab lanes: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\nusage: lanelab lanes PRIMITIVE [--arch gfx942|gfx950] [--seed fragment|solved | --addr EXPR|FILE "
                  "[--tile rows=R,cols=C,elem=B,stride=S[,swizzle=W]] | --diff SEED,SEED] [--format text|csv|md|json] "
                  "[--picture FILE.svg|FILE.png]\n  PRIMITIVE: ds_read_b32, "
                  "ds_read_b64, ds_read_b96, ds_read_b128, fragment_transpose, ds_read_b64_tr_b16, ds_read_b64_tr_b8, "
                  "ds_read_b64_tr_b4, ds_read_b96_tr_b6\n  EXPR: per-lane byte address in L, e.g. '8*(L%%16)+128*(L/16)'; "
                  "FILE: 64 addresses\n");
  return LL_EXIT_USAGE;
}

/* "{0,64,128,192}" */
static void lane_set(const lanes_delivery *d, int L, char *buf, size_t cap) {
  size_t o = (size_t)snprintf(buf, cap, "{");
  for (int s = 0; s < d->slots && o < cap; s++) o += (size_t)snprintf(buf + o, cap - o, "%s%d", s ? "," : "", d->tag[L][s]);
  if (o < cap) snprintf(buf + o, cap - o, "}");
}

static int pictures(const lanes_delivery *const *d, const char *const *names, int n, const char *prim, lanes_arch arch,
                    const char *path) {
  ll_err err = {0};
  int rows, cols;
  report_delivery_extent(d, n, &rows, &cols);
  report_tile *t[2] = {NULL, NULL};
  for (int i = 0; i < n; i++) {
    char *title = ll_fmt("%s on %s, %s", prim, lanes_arch_name(arch), names[i]);
    t[i] = report_tile_delivery(d[i], title, rows, cols, &err);
    free(title);
    if (!t[i]) break;
  }
  bool ok = t[n - 1] != NULL;
  if (ok && n == 2) report_tile_diff(t[0], t[1], names[0], names[1]);
  ok = ok && report_tiles_write(t, n, path, &err);
  for (int i = 0; i < n; i++) report_tile_free(t[i]);
  if (!ok) return ll_report(&err);
  fprintf(stderr, "lanelab lanes: picture written to %s\n", path);
  return LL_EXIT_OK;
}

int cmd_lanes(int argc, char **argv) {
  const char *prim = NULL, *arch_s = "gfx950", *seed_s = NULL, *fmt_s = "text", *addr_s = NULL, *diff_s = NULL,
             *pic = NULL, *tile_s = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = strcmp(a, "--arch") == 0 ? &arch_s : strcmp(a, "--seed") == 0 ? &seed_s
                     : strcmp(a, "--format") == 0 ? &fmt_s : strcmp(a, "--addr") == 0 ? &addr_s
                     : strcmp(a, "--diff") == 0 ? &diff_s : strcmp(a, "--picture") == 0 ? &pic
                     : strcmp(a, "--tile") == 0 ? &tile_s : NULL;
    if (dst) {
      if (i + 1 >= argc) return usage_err("%s needs a value", a);
      *dst = argv[++i];
    } else if (a[0] == '-') return usage_err("unknown option '%s'", a);
    else if (!prim) prim = a;
    else return usage_err("unexpected argument '%s'", a);
  }
  if (!prim) return usage_err("%s", "missing PRIMITIVE");
  if (!!seed_s + !!addr_s + !!diff_s > 1) return usage_err("%s", "--seed, --addr and --diff exclude each other");
  if (tile_s && !addr_s) return usage_err("%s", "--tile describes the tile your --addr addresses read: give --addr too");
  ll_err err = {0};
  lanes_arch arch;
  report_format fmt;
  bool xpose;
  lanes_ds_op op;
  lanes_target *tile = tile_s ? ll_xcalloc(1, sizeof *tile) : NULL;
  if (!lanes_arch_parse(arch_s, &arch, &err) || !report_format_parse(fmt_s, &fmt, &err) ||
      !lanes_primitive_parse(prim, &xpose, &op, &err) || (tile && !lanes_tile_parse(tile_s, tile, &err))) {
    free(tile);
    return ll_report(&err);
  }
  bool narrow = !xpose && lanes_ds_op_elem_bits(op) < 16;
  char seeds[2][32] = {"", ""};
  int nseed = 1;
  if (diff_s) {
    const char *comma = strchr(diff_s, ',');
    if (!comma || comma == diff_s || !comma[1] || strchr(comma + 1, ',') || (size_t)(comma - diff_s) >= sizeof seeds[0] ||
        strlen(comma + 1) >= sizeof seeds[1])
      return usage_err("--diff wants two seeds, e.g. fragment,solved; got '%s'", diff_s);
    snprintf(seeds[0], sizeof seeds[0], "%.*s", (int)(comma - diff_s), diff_s);
    snprintf(seeds[1], sizeof seeds[1], "%s", comma + 1);
    nseed = 2;
  } else if (!addr_s) {
    snprintf(seeds[0], sizeof seeds[0], "%s", seed_s ? seed_s : narrow ? "solved" : "fragment");
  }
  lanes_delivery *d[2] = {ll_xcalloc(1, sizeof **d), ll_xcalloc(1, sizeof **d)};
  char form[2][300];
  int rc = LL_EXIT_OK;
  for (int i = 0; i < nseed; i++) {
    uint32_t addr[LANES_WAVE];
    if (addr_s) {
      if (!lanes_addr_arg(addr_s, addr, &err)) goto fail;
      snprintf(form[i], sizeof form[i], "addresses from --addr %s", addr_s);
    } else if (!lanes_seed_named(prim, seeds[i], arch, addr, form[i], sizeof form[i], &err)) {
      goto fail;
    }
    if (tile ? !lanes_deliver_tile(arch, prim, addr, tile, d[i], &err) : !lanes_deliver(arch, prim, addr, d[i], &err))
      goto fail;
  }
  char title[700];
  report_table *t;
  if (nseed == 2) {
    snprintf(title, sizeof title, "%s on %s: %s vs %s (%s; %s)", prim, lanes_arch_name(arch), seeds[0], seeds[1], form[0],
             form[1]);
    char cols[128];
    snprintf(cols, sizeof cols, "lane#,slot#,%s#,%s#,differs", seeds[0], seeds[1]);
    t = report_table_new(title, cols);
    int ndiff = 0;
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < d[0]->slots; s++) {
        bool df = d[0]->tag[L][s] != d[1]->tag[L][s];
        ndiff += df;
        report_table_row(t, "%d\t%d\t%d\t%d\t%s", L, s, d[0]->tag[L][s], d[1]->tag[L][s], df ? "yes" : "");
      }
    char a0[120], b0[120];
    lane_set(d[0], 0, a0, sizeof a0);
    lane_set(d[1], 0, b0, sizeof b0);
    report_table_note(t, "lane 0: %s %s vs %s %s", seeds[0], a0, seeds[1], b0);
    report_table_note(t, "%d/%d lane x slot cells differ", ndiff, LANES_WAVE * d[0]->slots);
  } else {
    snprintf(title, sizeof title, "%s on %s, %s", prim, lanes_arch_name(arch), form[0]);
    t = report_table_new(title, tile ? "lane#,slot#,tag#,row#,col#" : "lane#,slot#,tag#");
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < d[0]->slots; s++) {
        int e = d[0]->elem[L][s];
        if (!tile) report_table_row(t, "%d\t%d\t%d", L, s, d[0]->tag[L][s]);
        else if (e < 0) report_table_row(t, "%d\t%d\t%d\t-\t-", L, s, e);
        else report_table_row(t, "%d\t%d\t%d\t%d\t%d", L, s, e, e / d[0]->cols, e % d[0]->cols);
      }
    if (addr_s) {
      ll_buf ab = {0};
      for (int L = 0; L < LANES_WAVE; L++) ll_buf_printf(&ab, "%s%u", L ? " " : "", d[0]->addr[L]);
      report_table_note(t, "per-lane byte addresses: %s", ll_buf_str(&ab));
      ll_buf_free(&ab);
    }
  }
  report_table_note(t, "tile: %s", d[0]->tile);
  for (int i = 0; i < nseed; i++)
    for (int k = 0; k < d[i]->diag.nproblems && k < LANES_MAX_PROBLEMS; k++)
      report_table_note(t, "PROBLEM%s%s: %s", nseed == 2 ? " at " : "", nseed == 2 ? seeds[i] : "", d[i]->diag.problem[k]);
  if (xpose)
    report_table_note(t, "issued: %d ds_read_b64 + %d ds_bpermute_b32", d[0]->ops.ds_read_b64, d[0]->ops.ds_bpermute_b32);
  if (nseed == 1 && !addr_s && op == LANES_DS_READ_B64_TR_B16 && !xpose) {
    /* the seed change's comparison: the software path at the fragment seed */
    uint32_t frag[LANES_WAVE];
    lanes_delivery *sw = ll_xcalloc(1, sizeof *sw);
    lanes_seed_fragment(LANES_SWZ_128B, frag);
    if (lanes_deliver(arch, "fragment_transpose", frag, sw, &err)) {
      int n = 0;
      char first[400] = "";
      size_t o = 0;
      for (int L = 0; L < LANES_WAVE; L++)
        for (int s = 0; s < 4; s++)
          if (sw->tag[L][s] != d[0]->tag[L][s] && n++ < 4 && o < sizeof first)
            o += (size_t)snprintf(first + o, sizeof first - o, "%slane %d slot %d want 0x%x got 0x%x", o ? ", " : ": ", L,
                                  s, (unsigned)sw->tag[L][s], (unsigned)d[0]->tag[L][s]);
      report_table_note(t, "vs load_fragment + transpose_mma_tile: %d/256 mismatches%s", n, first);
    }
    free(sw);
  }
  report_table_print(t, fmt);
  report_table_free(t);
  if (pic) {
    const char *names[2] = {nseed == 2 ? seeds[0] : addr_s ? "--addr" : seeds[0], seeds[1]};
    rc = pictures((const lanes_delivery *const *)d, names, nseed, prim, arch, pic);
  }
  free(d[0]);
  free(d[1]);
  free(tile);
  return rc;
fail:
  free(d[0]);
  free(d[1]);
  free(tile);
  return ll_report(&err);
}
