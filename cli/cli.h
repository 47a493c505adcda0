/* cli — the `lanelab` command. One file per subcommand (cli/cmd_NAME.c, int cmd_NAME(argc, argv)
 * with argv[0] the subcommand name); main.c only dispatches. Exit status is the verdict:
 * 0 pass, 1 a check failed, 2 bad usage or input, 3 the environment lacks something. */
#ifndef LANELAB_CLI_H
#define LANELAB_CLI_H

#include <stddef.h>
#include <stdio.h>

int cmd_mfma(int argc, char **argv);
int cmd_lanes(int argc, char **argv);
int cmd_seed(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_oracle(int argc, char **argv);
int cmd_isa(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_cc(int argc, char **argv);
int cmd_hipcc(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_mutate(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* The command table (cli/help.c): one entry per command and subcommand; main.c dispatches through
 * it. name is "run" or "isa census"; fn is NULL for a subcommand (its parent dispatches it);
 * synopsis is the usage line without "lanelab " (NULL for a parent whose usage is its
 * subcommands'); body has Operands/Options/Example sections. */
typedef struct cli_help {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *synopsis;
  const char *body;
} cli_help;
size_t cli_help_count(void);
const cli_help *cli_help_at(size_t i);
const cli_help *cli_help_find(const char *name);
/* The entry named by argv[0], or by "argv[0] argv[1]" when that is a subcommand entry. */
const cli_help *cli_help_lookup(int argc, char **argv);
void cli_help_print(FILE *f, const cli_help *e);
void cli_help_overview(FILE *f);
/* "VERSION (git REVISION)" as built. */
const char *cli_version(void);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Quiet mode (-q before the subcommand): progress lines on stderr are suppressed. */
extern int cli_quiet;

#endif
