/* cli/cmd_mfma — placeholder until issue #2 lands: fails loudly, never pretends. */
#include "cli/cli.h"
#include "util/util.h"

int cmd_mfma(int argc, char **argv) {
  (void)argc; (void)argv;
  ll_die(LL_EXIT_ENV, "'lanelab mfma' is not implemented yet (issue #2)");
}
