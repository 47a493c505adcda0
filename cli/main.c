/* cli/main — global options, then dispatch through the command table in cli/help.c. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "util/util.h"

int cli_quiet = 0;

/* Arch names are case-insensitive: "--arch GFX950" / "--arch=All" become lower case here, once,
 * so every command compares them as it always did. Only values that look like an arch name
 * (gfx..., all) are touched. */
static void lower_arch_values(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break; /* what follows is another program's (lanelab exec) */
    char *v = NULL;
    if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) v = argv[i + 1];
    else if (strncmp(argv[i], "--arch=", 7) == 0) v = argv[i] + 7;
    if (v && (strncasecmp(v, "gfx", 3) == 0 || strcasecmp(v, "all") == 0))
      for (char *p = v; *p; p++) *p = (char)tolower((unsigned char)*p);
  }
}

static bool wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
  return false;
}

int main(int argc, char **argv) {
  int i = 1;
  while (i < argc && argv[i][0] == '-') {
    if (strcmp(argv[i], "-q") == 0) cli_quiet = 1;
    else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      cli_help_overview(stdout);
      return LL_EXIT_OK;
    } else if (strcmp(argv[i], "--version") == 0) {
      printf("lanelab %s\n", cli_version());
      return LL_EXIT_OK;
    } else {
      fprintf(stderr, "lanelab: unknown option '%s'\n", argv[i]);
      cli_help_overview(stderr);
      return LL_EXIT_USAGE;
    }
    i++;
  }
  if (i >= argc) {
    cli_help_overview(stderr);
    return LL_EXIT_USAGE;
  }
  const cli_help *e = cli_help_find(argv[i]);
  if (!e || !e->fn) {
    fprintf(stderr, "lanelab: unknown command '%s'\n", argv[i]);
    cli_help_overview(stderr);
    return LL_EXIT_USAGE;
  }
  if (e->fn != cmd_help && wants_help(argc - i, argv + i)) {
    cli_help_print(stdout, cli_help_lookup(argc - i, argv + i));
    return LL_EXIT_OK;
  }
  lower_arch_values(argc - i, argv + i);
  return e->fn(argc - i, argv + i);
}
