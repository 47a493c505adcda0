/* mk/lanelab-cc — the device-compiler driver make builds kernels with: `lanelab cc`'s own code
 * (cli/cmd_cc.c over isa/cc.c and isa/ccdir.c, the one driver) linked alone, so that building the
 * kernels never waits for the whole lanelab binary, nor builds it in a base-revision worktree
 * (`verify --base`). Usage as `lanelab [-q] cc ...` (cli/help.c). */
#include <stdio.h>
#include <string.h>

int cli_quiet = 0;
int cmd_cc(int argc, char **argv);

int main(int argc, char **argv) {
  int i = 1;
  if (i < argc && !strcmp(argv[i], "-q")) cli_quiet = 1, i++;
  if (i >= argc || strcmp(argv[i], "cc")) {
    fprintf(stderr, "usage: lanelab-cc [-q] cc ARGS... (as lanelab [-q] cc ARGS...)\n");
    return 2;
  }
  return cmd_cc(argc - i, argv + i); /* argv[0] is "cc", as lanelab's dispatch passes it */
}
