/* cli/cmd_bench — placeholder until issue #3 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_bench(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab bench' is not implemented yet (issue #3)");
}
