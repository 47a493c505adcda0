/* cli/cmd_oracle — placeholder until issue #4 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_oracle(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab oracle' is not implemented yet (issue #4)");
}
