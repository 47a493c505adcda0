/* cli/cmd_mfma — `lanelab mfma INSTR [--arch A] [--operand A|B|C|D [--at ROW,COL]] [--format F]`:
 * where every element of an MFMA's operands and result lives (lanes/mfma.c); with --at, one
 * element (rows/cols named for the operand: A i,k; B k,n; C/D i,j). `lanelab mfma list [--arch A]`
 * lists the modelled instructions. csv: operand,row,col,lane,reg,bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lanes/lanes.h"
#include "table/table.h"
#include "util/util.h"

static int usage_err(const char *fmt, const char *a) {
  fprintf(stderr, "lanelab mfma: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\nusage: lanelab mfma INSTR [--arch gfx942|gfx950] [--operand A|B|C|D [--at ROW,COL]] [--format text|csv|md|json]"
                  "\n       lanelab mfma list [--arch gfx942|gfx950] [--format ...]\n");
  return LL_EXIT_USAGE;
}

static int list(lanes_arch arch, report_format fmt) {
  char title[64];
  snprintf(title, sizeof title, "dense MFMAs on %s", lanes_arch_name(arch));
  report_table *t = report_table_new(title, "instr,m#,n#,k#,blocks#,ab_type,k_per_lane#,ab_regs#,cd_regs#,status");
  for (size_t i = 0; i < lanes_mfma_count(); i++) {
    const lanes_mfma *m = lanes_mfma_at(i);
    if (!(m->arches & LANES_ARCH_BIT(arch))) continue;
    report_table_row(t, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%s", m->name, m->m, m->n, m->k, m->blocks, m->ab_type,
                     m->k_per_lane, m->ab_regs, m->cd_regs, m->unconfirmed ? "unconfirmed" : m->note ? "derived" : "ISA rule");
  }
  report_table_print(t, fmt);
  report_table_free(t);
  return LL_EXIT_OK;
}

/* Row/column names that fit the operand: A is i x k, B is k x n, C/D are i x j (i, n, j count
 * across blocks: row = block*M + i etc., as lanes.h lays the operands out). */
static void dim_names(lanes_operand op, const char **r, const char **c) {
  *r = op == LANES_OPND_B ? "k" : "i";
  *c = op == LANES_OPND_A ? "k" : op == LANES_OPND_B ? "n" : "j";
}

/* `--operand B --at K,N`: the lane, VGPR and bits of one element. */
static int at(const lanes_mfma *mf, lanes_arch arch, const char *op_s, const char *at_s, report_format fmt) {
  ll_err err = {0};
  lanes_operand op;
  if (!op_s) return usage_err("%s", "--at needs --operand A|B|C|D (which matrix the coordinates are in)");
  if (!lanes_operand_parse(op_s, &op, &err)) return ll_report(&err);
  const char *rn, *cn;
  dim_names(op, &rn, &cn);
  const char *comma = strchr(at_s, ',');
  int64_t r, c;
  char *rs = comma ? strndup(at_s, (size_t)(comma - at_s)) : NULL;
  bool ok = comma && ll_parse_i64(rs, &r) && ll_parse_i64(comma + 1, &c);
  free(rs);
  int rows = lanes_mfma_rows(mf, op), cols = lanes_mfma_cols(mf, op), bits = lanes_mfma_elem_bits(mf, op);
  if (!ok) {
    fprintf(stderr, "lanelab mfma: --at wants %s,%s (two integers) for operand %s, got '%s'\n", rn, cn, lanes_operand_name(op), at_s);
    return LL_EXIT_USAGE;
  }
  lanes_loc l;
  if (r < 0 || c < 0 || r >= rows || c >= cols || !lanes_mfma_locate(mf, op, (int)r, (int)c, &l)) {
    fprintf(stderr, "lanelab mfma: %s(%s=%lld, %s=%lld) is outside %s's %d x %d (%s 0..%d, %s 0..%d)\n", lanes_operand_name(op),
            rn, (long long)r, cn, (long long)c, lanes_operand_name(op), rows, cols, rn, rows - 1, cn, cols - 1);
    return LL_EXIT_USAGE;
  }
  char title[300], cols_s[64];
  snprintf(title, sizeof title, "%s on %s: %s(%s=%lld, %s=%lld) is in lane %d, VGPR %d of the operand tuple, bits %d..%d%s",
           mf->name, lanes_arch_name(arch), lanes_operand_name(op), rn, (long long)r, cn, (long long)c, l.lane, l.reg, l.bit,
           l.bit + bits - 1, l.bit + bits > 32 ? " (continues into the next VGPR)" : "");
  snprintf(cols_s, sizeof cols_s, "operand,%s#,%s#,lane#,reg#,bit#,bits", rn, cn);
  report_table *t = report_table_new(title, cols_s);
  report_table_row(t, "%s\t%lld\t%lld\t%d\t%d\t%d\t%d..%d", lanes_operand_name(op), (long long)r, (long long)c, l.lane, l.reg,
                   l.bit, l.bit, l.bit + bits - 1);
  if (mf->unconfirmed) report_table_note(t, "UNCONFIRMED layout: %s", mf->note);
  report_table_print(t, fmt);
  report_table_free(t);
  return LL_EXIT_OK;
}

int cmd_mfma(int argc, char **argv) {
  const char *instr = NULL, *arch_s = "gfx950", *op_s = NULL, *fmt_s = "text", *at_s = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **dst = strcmp(a, "--arch") == 0 ? &arch_s : strcmp(a, "--operand") == 0 ? &op_s
                     : strcmp(a, "--format") == 0 ? &fmt_s : strcmp(a, "--at") == 0 ? &at_s : NULL;
    if (dst) {
      if (i + 1 >= argc) return usage_err("%s needs a value", a);
      *dst = argv[++i];
    } else if (a[0] == '-') {
      return usage_err("unknown option '%s'", a);
    } else if (!instr) {
      instr = a;
    } else {
      return usage_err("unexpected argument '%s' (one instruction per call)", a);
    }
  }
  if (!instr) return usage_err("%s", "missing INSTR");
  ll_err err = {0};
  lanes_arch arch;
  report_format fmt;
  if (!lanes_arch_parse(arch_s, &arch, &err) || !report_format_parse(fmt_s, &fmt, &err)) return ll_report(&err);
  if (strcmp(instr, "list") == 0) return list(arch, fmt);
  const lanes_mfma *mf = lanes_mfma_lookup(instr, arch, &err);
  if (!mf) return ll_report(&err);
  if (at_s) return at(mf, arch, op_s, at_s, fmt);
  int first = 0, last = 3;
  if (op_s) {
    lanes_operand o;
    if (!lanes_operand_parse(op_s, &o, &err)) return ll_report(&err);
    first = last = (int)o;
  }
  char title[256];
  snprintf(title, sizeof title, "%s on %s: M=%d N=%d K=%d blocks=%d, A/B %s (%d-bit items, %d per lane, %d VGPRs), "
           "C/D %d-bit (%d VGPRs)%s", mf->name, lanes_arch_name(arch), mf->m, mf->n, mf->k, mf->blocks, mf->ab_type,
           mf->ab_bits, mf->k_per_lane, mf->ab_regs, mf->cd_bits, mf->cd_regs, mf->unconfirmed ? " [UNCONFIRMED]" : "");
  report_table *t = report_table_new(title, "operand,row#,col#,lane#,reg#,bit#");
  for (int o = first; o <= last; o++) {
    lanes_operand op = (lanes_operand)o;
    for (int r = 0; r < lanes_mfma_rows(mf, op); r++)
      for (int c = 0; c < lanes_mfma_cols(mf, op); c++) {
        lanes_loc l;
        if (!lanes_mfma_locate(mf, op, r, c, &l)) {
          report_table_free(t);
          ll_die(LL_EXIT_FAIL, "model error: %s operand %s element (%d,%d) has no location", mf->name,
                 lanes_operand_name(op), r, c);
        }
        report_table_row(t, "%s\t%d\t%d\t%d\t%d\t%d", lanes_operand_name(op), r, c, l.lane, l.reg, l.bit);
      }
  }
  report_table_note(t, "A is %dx%d (row = block*M + i, col = k); B is %dx%d (row = k, col = block*N + j); C/D are "
                    "%dx%d. reg = VGPR index in the operand's tuple; bit = the element's lowest bit.",
                    lanes_mfma_rows(mf, LANES_OPND_A), mf->k, mf->k, lanes_mfma_cols(mf, LANES_OPND_B),
                    lanes_mfma_rows(mf, LANES_OPND_C), mf->n);
  if (mf->note) report_table_note(t, "%s%s", mf->unconfirmed ? "UNCONFIRMED: " : "note: ", mf->note);
  if (mf->unconfirmed && (fmt == REPORT_CSV))
    fprintf(stderr, "lanelab mfma: warning: %s layout is UNCONFIRMED: %s\n", mf->name, mf->note);
  report_table_print(t, fmt);
  report_table_free(t);
  return LL_EXIT_OK;
}
