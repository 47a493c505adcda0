/* cli/cmd_run — placeholder until issue #3 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_run(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab run' is not implemented yet (issue #3)");
}
