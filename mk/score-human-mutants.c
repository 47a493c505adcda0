/* mk/score-human-mutants.c — the prod stage of `lanelab verify` alone, on one build directory,
 * for mk/score-human-mutants.sh: prints "pass", or "FAIL <summary>", and exits with the stage's
 * verdict (0 pass, 1 fail, 2/3 could not run). usage: score-human-mutants BUILD ARCH SHAPES SEED */
#include <stdio.h>
#include <stdlib.h>

#include "verify/prod.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: score-human-mutants BUILD ARCH quick|random:N SEED\n");
    return 2;
  }
  verify_ctx c = {.build = argv[1], .results = argv[1], .shapes = argv[3], .backend = "emu", .shard_n = 1};
  if (!emu_arch_parse(argv[2], &c.arch)) {
    fprintf(stderr, "unknown arch '%s'\n", argv[2]);
    return 2;
  }
  c.arch_name = emu_arch_name(c.arch);
  c.seed = strtoull(argv[4], NULL, 0);
  c.t0 = ll_now();
  verify_quiet = true;
  stage_result r = {.v = VERDICT_NOT_RUN};
  verify_stage_prod(&c, &r);
  printf("%s %s\n", r.v == VERDICT_PASS ? "pass" : r.v == VERDICT_FAIL ? "FAIL" : "ERROR", r.summary);
  return (int)r.v;
}
