/* cli/cmd_bench — `lanelab bench [emu|oracle|all] [--build DIR]`: throughput benchmarks.
 * Speed targets are measured here, never by timed tests. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "emu/emu.h"
#include "oracle/oracle.h"
#include "util/util.h"

int emu_bench(FILE *out, const char *build_dir);

int cmd_bench(int argc, char **argv) {
  const char *which = "all", *build = "build";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--build") == 0 && i + 1 < argc) build = argv[++i];
    else if (!strcmp(argv[i], "emu") || !strcmp(argv[i], "oracle") || !strcmp(argv[i], "all")) which = argv[i];
    else ll_die(LL_EXIT_USAGE, "bench: unexpected argument '%s' (usage: lanelab bench [emu|oracle|all] [--build DIR])", argv[i]);
  }
  int rc = LL_EXIT_OK, r;
  if (!strcmp(which, "emu") || !strcmp(which, "all")) {
    r = emu_bench(stdout, build);
    if (r > rc) rc = r;
  }
  if (!strcmp(which, "oracle") || !strcmp(which, "all")) {
    r = oracle_bench(stdout);
    if (r > rc) rc = r;
  }
  return rc;
}
