/* cli/cmd_seed — placeholder until issue #2 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_seed(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab seed' is not implemented yet (issue #2)");
}
