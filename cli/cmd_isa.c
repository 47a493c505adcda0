/* cli/cmd_isa — placeholder until issue #5 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_isa(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab isa' is not implemented yet (issue #5)");
}
