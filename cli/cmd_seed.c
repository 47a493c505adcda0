/* cli/cmd_seed — `lanelab seed --target LAYOUT --via PRIMITIVE [--swizzle MODE] [--arch A]
 * [--format F]`: the per-lane LDS address that makes PRIMITIVE deliver LAYOUT, derived from the
 * primitive's rule, verified through the model, and stated as a closed form in lane bit-fields
 * (lanes/seed.c). csv: lane,row,col,addr (the tile element the lane's first read starts at and
 * its LDS byte address; the notes give the swizzle's address formula). A target feeding an MFMA
 * the arch does not have is exit 2.
 * No seed: the reason on stderr, exit 1. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lanes/lanes.h"
#include "table/table.h"
#include "util/util.h"

static int usage_err(const char *fmt, const char *a) {
  fprintf(stderr, "lanelab seed: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\nusage: lanelab seed --target LAYOUT --via PRIMITIVE [--swizzle kLinear|k64B|k128B|k128B_16Row] "
                  "[--arch gfx942|gfx950] [--format text|csv|md|json]\n  LAYOUT:");
  for (size_t i = 0; i < lanes_target_count(); i++) fprintf(stderr, " %s", lanes_target_name(i));
  fprintf(stderr, "\n  PRIMITIVE: ds_read_b64 ds_read_b64_tr_b16 ds_read_b64_tr_b8 ds_read_b64_tr_b4 "
                  "ds_read_b96_tr_b6\n");
  return LL_EXIT_USAGE;
}

/* The tile's address rule (lanes.h swizzle formulas, in 8-byte chunks of 4 f16 for 16-bit tiles). */
static const char *swizzle_formula(const lanes_target *t) {
  static char buf[200];
  if (t->elem_bits != 16) {
    snprintf(buf, sizeof buf, "%d*row + col*%d/8 (linear)", t->row_bytes, t->elem_bits);
    return buf;
  }
  const char *x = t->swizzle == LANES_SWZ_LINEAR ? "chunk" : t->swizzle == LANES_SWZ_64B ? "chunk ^ ((row/2)%4)"
                  : t->swizzle == LANES_SWZ_128B ? "chunk ^ (row%8)" : "chunk ^ (row%16)";
  snprintf(buf, sizeof buf, "%d*row + 8*(%s) + 2*(col%%4), chunk = col/4 (%s)", t->row_bytes, x, lanes_swizzle_name(t->swizzle));
  return buf;
}

int cmd_seed(int argc, char **argv) {
  const char *target = NULL, *via = NULL, *swz_s = NULL, *arch_s = "gfx950", *fmt_s = "text";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = strcmp(a, "--target") == 0 ? &target : strcmp(a, "--via") == 0 ? &via
                     : strcmp(a, "--swizzle") == 0 ? &swz_s : strcmp(a, "--arch") == 0 ? &arch_s
                     : strcmp(a, "--format") == 0 ? &fmt_s : NULL;
    if (!dst) return usage_err(a[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'", a);
    if (i + 1 >= argc) return usage_err("%s needs a value", a);
    *dst = argv[++i];
  }
  if (!target) return usage_err("%s", "missing --target");
  if (!via) return usage_err("%s", "missing --via");
  ll_err err = {0};
  lanes_arch arch;
  report_format fmt;
  lanes_ds_op op;
  if (!lanes_arch_parse(arch_s, &arch, &err) || !report_format_parse(fmt_s, &fmt, &err) ||
      !lanes_ds_op_parse(via, &op, &err))
    return ll_report(&err);
  lanes_target t;
  lanes_swizzle swz = LANES_SWZ_128B;
  if (swz_s && !lanes_swizzle_parse(swz_s, &swz, &err)) return ll_report(&err);
  if (!lanes_target_get(target, swz, &t, &err)) {
    /* 8/4/6-bit tiles are linear: take that default unless a swizzle was asked for */
    if (swz_s || !lanes_target_get(target, LANES_SWZ_LINEAR, &t, &err)) return ll_report(&err);
  }
  /* the target feeds one MFMA: an arch without that instruction has no use for the seed */
  ll_err me = {0};
  if (!lanes_mfma_lookup(t.instr, arch, &me)) {
    fprintf(stderr, "lanelab seed: target %s feeds %s, which %s does not have: %s\n", t.name, t.instr, lanes_arch_name(arch),
            me.msg);
    return LL_EXIT_USAGE;
  }
  lanes_seed s;
  if (!lanes_seed_solve(&t, op, arch, &s, &err)) return ll_report(&err);
  if (!s.found) {
    printf("no seed for %s via %s (%s tile, %s): %s\n", t.name, via, lanes_swizzle_name(t.swizzle),
           lanes_arch_name(arch), s.why);
    return LL_EXIT_FAIL;
  }
  char title[400];
  snprintf(title, sizeof title, "seed for %s (%s operand of %s) via %s on %s, %dx%d %d-bit tile, %s: %s", t.name,
           lanes_operand_name(t.operand), t.instr, via, lanes_arch_name(arch), t.rows, t.cols, t.elem_bits,
           lanes_swizzle_name(t.swizzle), s.closed_form[0]);
  report_table *tb = report_table_new(title, "lane#,row#,col#,addr#");
  for (int L = 0; L < LANES_WAVE; L++) report_table_row(tb, "%d\t%d\t%d\t%u", L, s.row[0][L], s.col[0][L], s.addr[0][L]);
  for (int r = 0; r < s.reads; r++)
    report_table_note(tb, "closed form%s: %s", s.reads > 1 ? (r ? " (read 2)" : " (read 1)") : "", s.closed_form[r]);
  if (s.reads > 1) report_table_note(tb, "rows above are read 1; each lane issues %d reads", s.reads);
  report_table_note(tb, "addr = LDS byte address of the lane's first element: %s; %s", swizzle_formula(&t), s.check_note);
  int av[LANES_WAVE];
  for (int L = 0; L < LANES_WAVE; L++) av[L] = (int)s.addr[0][L];
  lanes_affine af = lanes_affine_fit(av);
  if (af.ok) {
    char f[160];
    lanes_affine_format(&af, f, sizeof f);
    report_table_note(tb, "addr in lane bit-fields: %s", f);
  }
  report_table_print(tb, fmt);
  report_table_free(tb);
  return LL_EXIT_OK;
}
