/* cli/cmd_verify — placeholder until issue #2 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_verify(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab verify' is not implemented yet (issue #2)");
}
