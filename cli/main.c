/* cli/main — dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/util.h"

int cli_quiet = 0;

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *usage;
} cmds[] = {
    {"mfma", cmd_mfma, "mfma INSTR [--arch gfx942|gfx950] [--operand A|B|C|D] [--format text|csv|md|json]"},
    {"lanes", cmd_lanes, "lanes PRIMITIVE [--arch A] [--seed fragment|solved] [--format text|csv|md|json]"},
    {"seed", cmd_seed, "seed --target LAYOUT --via PRIMITIVE [--swizzle MODE] [--arch A] [--format ...]"},
    {"run", cmd_run, "run CODEOBJ KERNEL --grid X[,Y,Z] --block X[,Y,Z] [--arg SPEC]... [--backend auto|hip|emu] [--dump-regs FILE] [--lds-bytes N] [--budget N]"},
    {"oracle", cmd_oracle, "oracle attention|concat-mla-q --spec FILE.json --out DIR"},
    {"isa", cmd_isa, "isa census CODEOBJ [--format text|csv|md|json] | isa diff A.co B.co | isa probe --arch A 'ASM LINE'\n"
                   "  lanelab isa budgets [--arch A|all] [--budgets FILE] [--build DIR] [--format F] | isa base REV [--arch A] [--format F]"},
    {"verify", cmd_verify, "verify --arch gfx942|gfx950|all [--base REV] [--shapes quick|full] [--shard I/N]"},
    {"bench", cmd_bench, "bench [emu|oracle|verify|seed|all] [--build DIR] [--seq N]"},
};

static int usage(FILE *f) {
  fprintf(f, "usage: lanelab [-q] COMMAND ...\n");
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) fprintf(f, "  lanelab %s\n", cmds[i].usage);
  return f == stderr ? LL_EXIT_USAGE : LL_EXIT_OK;
}

int main(int argc, char **argv) {
  int i = 1;
  while (i < argc && argv[i][0] == '-') {
    if (strcmp(argv[i], "-q") == 0) cli_quiet = 1;
    else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return usage(stdout);
    else {
      fprintf(stderr, "lanelab: unknown option '%s'\n", argv[i]);
      return usage(stderr);
    }
    i++;
  }
  if (i >= argc) return usage(stderr);
  for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
    if (strcmp(argv[i], cmds[c].name) == 0) return cmds[c].fn(argc - i, argv + i);
  fprintf(stderr, "lanelab: unknown command '%s'\n", argv[i]);
  return usage(stderr);
}
