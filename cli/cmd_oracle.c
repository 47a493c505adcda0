/* cli/cmd_oracle — `lanelab oracle attention|concat-mla-q --spec FILE.json --out DIR`: run the CPU
 * reference on a spec (oracle/oracle.h gives the formats) and write its outputs to DIR. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "oracle/oracle.h"
#include "util/util.h"

static const char usage[] = "usage: lanelab oracle attention|concat-mla-q --spec FILE.json --out DIR";

static int run_attention(const char *spec, const char *out) {
  ll_err err = {0};
  oracle_attention_spec *s = oracle_attention_spec_load(spec, &err);
  if (!s) return ll_report(&err);
  int64_t tq = oracle_attention_total_q(s);
  size_t no = (size_t)(tq * s->num_qo_heads * s->head_dim), nl = (size_t)(tq * s->num_qo_heads);
  float *o = ll_xmalloc((no ? no : 1) * sizeof *o), *lse = ll_xmalloc((nl ? nl : 1) * sizeof *lse);
  oracle_attention_info info = {0};
  int rc = LL_EXIT_OK;
  if (!oracle_attention_run(s, o, lse, &info, &err) || !oracle_attention_write(s, o, lse, &info, out, &err))
    rc = ll_report(&err);
  else if (!cli_quiet)
    fprintf(stderr, "lanelab: oracle attention: %.3f GFLOP, %s path, %d thread(s), %.3f s -> %s/o.bin, lse.bin, meta.json\n",
            info.flops * 1e-9, info.path == ORACLE_PATH_PLAIN ? "plain" : "fast", info.threads, info.seconds, out);
  free(o);
  free(lse);
  oracle_attention_spec_free(s);
  return rc;
}

static int run_concat(const char *spec, const char *out) {
  ll_err err = {0};
  oracle_concat_spec *s = oracle_concat_spec_load(spec, &err);
  if (!s) return ll_report(&err);
  size_t n = (size_t)(s->T * s->H * ORACLE_MLA_OUT);
  uint16_t *q = ll_xmalloc((n ? n : 1) * sizeof *q);
  double t0 = ll_now();
  int rc = LL_EXIT_OK;
  if (!oracle_concat_mla_q(s, q, &err) || !oracle_concat_write(s, q, ll_now() - t0, out, &err)) rc = ll_report(&err);
  else if (!cli_quiet)
    fprintf(stderr, "lanelab: oracle concat-mla-q: T %lld, H %lld -> %s/q_out.bin, meta.json\n", (long long)s->T,
            (long long)s->H, out);
  free(q);
  oracle_concat_spec_free(s);
  return rc;
}

int cmd_oracle(int argc, char **argv) {
  if (argc < 2) ll_die(LL_EXIT_USAGE, "%s", usage);
  const char *what = argv[1], *spec = NULL, *out = NULL;
  for (int i = 2; i < argc; i++) {
    /* a trailing --spec/--out was reported as an "unexpected argument": say what is missing */
    if ((strcmp(argv[i], "--spec") == 0 || strcmp(argv[i], "--out") == 0) && i + 1 >= argc)
      ll_die(LL_EXIT_USAGE, "oracle: %s needs a value\n%s", argv[i], usage);
    if ((strcmp(argv[i], "--spec") == 0 || strcmp(argv[i], "--out") == 0) && i + 1 < argc) {
      if (argv[i][2] == 's') spec = argv[++i];
      else out = argv[++i];
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      printf("%s\n", usage);
      return LL_EXIT_OK;
    } else {
      ll_die(LL_EXIT_USAGE, "oracle: unexpected argument '%s'\n%s", argv[i], usage);
    }
  }
  if (!spec || !out) ll_die(LL_EXIT_USAGE, "oracle: --spec and --out are both required\n%s", usage);
  if (strcmp(what, "attention") == 0) return run_attention(spec, out);
  if (strcmp(what, "concat-mla-q") == 0) return run_concat(spec, out);
  ll_die(LL_EXIT_USAGE, "oracle: unknown reference '%s' (expected attention or concat-mla-q)\n%s", what, usage);
}
