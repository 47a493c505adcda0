/* cli — the `lanelab` command. One file per subcommand (cli/cmd_NAME.c, int cmd_NAME(argc, argv)
 * with argv[0] the subcommand name); main.c only dispatches. Exit status is the verdict:
 * 0 pass, 1 a check failed, 2 bad usage or input, 3 the environment lacks something. */
#ifndef LANELAB_CLI_H
#define LANELAB_CLI_H

int cmd_mfma(int argc, char **argv);
int cmd_lanes(int argc, char **argv);
int cmd_seed(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_oracle(int argc, char **argv);
int cmd_isa(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Quiet mode (-q before the subcommand): progress lines on stderr are suppressed. */
extern int cli_quiet;

#endif
