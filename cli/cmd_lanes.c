/* cli/cmd_lanes — `lanelab lanes PRIMITIVE [--arch A] [--seed fragment|solved] [--format F]`:
 * what each lane holds after a data-movement primitive reads a tagged tile at a seed.
 *
 * 16-bit primitives (ds_read_b64, ds_read_b64_tr_b16, fragment_transpose) read the microabi f16
 * region (k128B, T[r][c] tagged 16r+c, other elements 0x4000+64r+c): tag = the 16-bit value the
 * slot holds. Default seed: fragment (load_fragment's). b8/b4/b6 primitives read their linear
 * tiles at the solver's seed: tag = row-major index of the tile element the slot holds, traced
 * through the model. csv: lane,slot,tag. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lanes/lanes.h"
#include "reports/table.h"
#include "util/util.h"

static int usage_err(const char *fmt, const char *a) {
  fprintf(stderr, "lanelab lanes: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\nusage: lanelab lanes PRIMITIVE [--arch gfx942|gfx950] [--seed fragment|solved] "
                  "[--format text|csv|md|json]\n  PRIMITIVE: ds_read_b64, fragment_transpose, ds_read_b64_tr_b16, "
                  "ds_read_b64_tr_b8, ds_read_b64_tr_b4, ds_read_b96_tr_b6\n");
  return LL_EXIT_USAGE;
}

static const char *target_for(lanes_ds_op op) {
  switch (op) {
  case LANES_DS_READ_B64: return "mfma16x16x16_a";
  case LANES_DS_READ_B64_TR_B16: return "mfma16x16x16_b";
  case LANES_DS_READ_B64_TR_B8: return "mfma16x16x32_fp8_b";
  case LANES_DS_READ_B64_TR_B4: return "mfma16x16x128_fp4_b";
  case LANES_DS_READ_B96_TR_B6: return "mfma16x16x128_fp6_b";
  default: return NULL;
  }
}

int cmd_lanes(int argc, char **argv) {
  const char *prim = NULL, *arch_s = "gfx950", *seed_s = NULL, *fmt_s = "text";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = strcmp(a, "--arch") == 0 ? &arch_s : strcmp(a, "--seed") == 0 ? &seed_s
                     : strcmp(a, "--format") == 0 ? &fmt_s : NULL;
    if (dst) {
      if (i + 1 >= argc) return usage_err("%s needs a value", a);
      *dst = argv[++i];
    } else if (a[0] == '-') return usage_err("unknown option '%s'", a);
    else if (!prim) prim = a;
    else return usage_err("unexpected argument '%s'", a);
  }
  if (!prim) return usage_err("%s", "missing PRIMITIVE");
  ll_err err = {0};
  lanes_arch arch;
  report_format fmt;
  if (!lanes_arch_parse(arch_s, &arch, &err) || !report_format_parse(fmt_s, &fmt, &err)) return ll_report(&err);
  bool xpose = strcmp(prim, "fragment_transpose") == 0;
  lanes_ds_op op = LANES_DS_READ_B64;
  if (!xpose) {
    if (!lanes_ds_op_parse(prim, &op, &err)) return ll_report(&err);
    if (!target_for(op)) return usage_err("'%s' is not one of the PRIMITIVEs", prim);
    if (!lanes_ds_op_exists(op, arch)) {
      fprintf(stderr, "lanelab: %s does not exist on %s (transposing LDS reads are gfx950 only)\n", prim,
              lanes_arch_name(arch));
      return LL_EXIT_USAGE;
    }
  }
  bool narrow = !xpose && lanes_ds_op_elem_bits(op) < 16;
  bool solved;
  if (!seed_s) solved = narrow;
  else if (strcmp(seed_s, "solved") == 0) solved = true;
  else if (strcmp(seed_s, "fragment") == 0) solved = false;
  else return usage_err("unknown seed '%s': expected fragment or solved", seed_s);
  if (narrow && !solved) {
    fprintf(stderr, "lanelab: %s has no fragment seed (that is load_fragment's 16-bit seed); use --seed solved\n", prim);
    return LL_EXIT_USAGE;
  }

  char title[300], seedtxt[200];
  report_table *t = NULL;
  lanes_target tg;
  lanes_seed sd;
  if (solved) {
    /* fragment_transpose's solved seed is load_fragment's own: its first step is ds_read_b64 */
    const char *tn = target_for(op);
    lanes_swizzle swz = narrow ? LANES_SWZ_LINEAR : LANES_SWZ_128B;
    if (!lanes_target_get(tn, swz, &tg, &err) || !lanes_seed_solve(&tg, op, arch, &sd, &err)) return ll_report(&err);
    if (!sd.found) {
      fprintf(stderr, "lanelab: no solved seed for %s (target %s): %s\n", prim, tn, sd.why);
      return LL_EXIT_FAIL;
    }
    snprintf(seedtxt, sizeof seedtxt, "solved seed for %s: %s", tn, sd.closed_form[0]);
  } else {
    snprintf(seedtxt, sizeof seedtxt, "fragment seed: row = L%%16, col = 4*(L/16)");
  }
  snprintf(title, sizeof title, "%s on %s, %s", prim, lanes_arch_name(arch), seedtxt);
  t = report_table_new(title, "lane#,slot#,tag#");
  if (narrow) {
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < tg.slots; s++) report_table_row(t, "%d\t%d\t%d", L, s, sd.traced[L][s]);
    report_table_note(t, "tile: %dx%d %d-bit elements, linear, row stride %d B; tag = row-major element index "
                      "(row*%d + col), traced through the model; %s", tg.rows, tg.cols, tg.elem_bits, tg.row_bytes,
                      tg.cols, sd.check_note);
  } else {
    uint8_t img[LANES_REGION_BYTES];
    uint32_t addr[LANES_WAVE], v[LANES_WAVE][2], sw[LANES_WAVE][2];
    lanes_region_fill(LANES_SWZ_128B, img);
    if (solved) memcpy(addr, sd.addr[0], sizeof addr);
    else lanes_seed_fragment(LANES_SWZ_128B, addr);
    lanes_opcount ops = {0};
    lanes_lds_result r;
    if (xpose) {
      if (!lanes_fragment_transpose(arch, img, sizeof img, addr, v, &ops, &r, &err)) return ll_report(&err);
    } else {
      if (!lanes_ds_read(arch, op, img, sizeof img, addr, LANES_EXEC_ALL, &r, &err)) return ll_report(&err);
      for (int L = 0; L < LANES_WAVE; L++) v[L][0] = r.v[L][0], v[L][1] = r.v[L][1];
    }
    for (int L = 0; L < LANES_WAVE; L++)
      for (int s = 0; s < 4; s++) report_table_row(t, "%d\t%d\t%u", L, s, lanes_slot_get(v[L], s, 16));
    report_table_note(t, "tile: the f16 region, k128B swizzle, T[r][c] = 16r+c (c < 16), other elements 0x4000+64r+c");
    for (int i = 0; i < r.nproblems && i < LANES_MAX_PROBLEMS; i++) report_table_note(t, "PROBLEM: %s", r.problem[i]);
    if (xpose)
      report_table_note(t, "issued: %d ds_read_b64 + %d ds_bpermute_b32", ops.ds_read_b64, ops.ds_bpermute_b32);
    else if (op == LANES_DS_READ_B64_TR_B16) {
      uint32_t frag[LANES_WAVE], a[2 * LANES_WAVE], b[2 * LANES_WAVE];
      lanes_seed_fragment(LANES_SWZ_128B, frag);
      if (lanes_fragment_transpose(arch, img, sizeof img, frag, sw, NULL, NULL, &err)) {
        for (int L = 0; L < LANES_WAVE; L++)
          a[2 * L] = sw[L][0], a[2 * L + 1] = sw[L][1], b[2 * L] = v[L][0], b[2 * L + 1] = v[L][1];
        lanes_diff df;
        char buf[512];
        lanes_diff_dwords(a, b, 2, 16, &df);
        df.listed = df.listed > 4 ? 4 : df.listed;
        lanes_diff_format(&df, buf, sizeof buf);
        report_table_note(t, "vs load_fragment + transpose_mma_tile: %s", buf);
      }
    }
  }
  report_table_print(t, fmt);
  report_table_free(t);
  return LL_EXIT_OK;
}
