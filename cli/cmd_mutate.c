/* cli/cmd_mutate — `lanelab mutate [--arch gfx942|gfx950|all] [--max N] [--shard I/N]
 * [--random N] [--seed S] [--file PATH] [--only LIST] [--list] [--report] [--retry] [--build DIR]
 * [--root DIR]`:
 * source-level mutation testing of the production kernels (verify/mutate.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "verify/mutate.h"

static void usage_line(FILE *f) {
  fprintf(f, "usage: lanelab mutate [--arch gfx942|gfx950|all] [--max N] [--shard I/N] [--random N] [--seed S]\n"
             "                      [--file PATH] [--only LIST] [--list] [--report] [--retry] [--build DIR] [--root DIR]\n");
}

static uint64_t num(const char *opt, const char *v, uint64_t lo, uint64_t hi) {
  uint64_t x;
  if (!ll_parse_u64(v, &x) || x < lo || x > hi)
    ll_die(LL_EXIT_USAGE, "mutate: %s wants a number in %llu..%llu, got '%s'", opt, (unsigned long long)lo,
           (unsigned long long)hi, v);
  return x;
}

/* --only LIST: mutant indices as --list prints them, "I", "I-J", comma-separated. */
enum { ONLY_MAX = 1000000 };
__attribute__((noreturn)) static void bad_only(const char *v) {
  ll_die(LL_EXIT_USAGE, "mutate: --only wants mutant indices as --list prints them (I or I-J, comma-separated, < %d), got '%s'",
         ONLY_MAX, v);
}
static bool *parse_only(const char *v, size_t *n) {
  bool *set = NULL;
  *n = 0;
  size_t vl = strlen(v);
  if (!vl || v[0] == ',' || v[vl - 1] == ',' || strstr(v, ",,")) bad_only(v);
  char *copy = ll_xstrdup(v), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *dash = strchr(tok, '-');
    uint64_t lo, hi;
    if (dash) *dash = 0;
    bool ok = ll_parse_u64(tok, &lo) && (dash ? ll_parse_u64(dash + 1, &hi) : (hi = lo, true)) && lo <= hi && hi < ONLY_MAX;
    if (!ok) bad_only(v);
    if (hi + 1 > *n) {
      set = ll_xrealloc(set, hi + 1);
      memset(set + *n, 0, hi + 1 - *n);
      *n = hi + 1;
    }
    for (uint64_t i = lo; i <= hi; i++) set[i] = true;
  }
  free(copy);
  return set;
}

int cmd_mutate(int argc, char **argv) {
  static const struct option opts[] = {
      {"arch", required_argument, 0, 'a'},  {"max", required_argument, 0, 'm'},  {"shard", required_argument, 0, 'S'},
      {"random", required_argument, 0, 'r'}, {"seed", required_argument, 0, 'e'}, {"file", required_argument, 0, 'f'},
      {"list", no_argument, 0, 'l'},         {"report", no_argument, 0, 'R'},     {"build", required_argument, 0, 'd'},
      {"root", required_argument, 0, 'o'},   {"help", no_argument, 0, 'h'},      {"retry", no_argument, 0, 't'},
      {"only", required_argument, 0, 'O'},   {0, 0, 0, 0}};
  mutate_opts o = {.root = ".", .build = "build", .shard_n = 1, .random_n = 48, .seed = 1};
  const char *arch = "all";
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
    switch (c) {
      case 'a': arch = optarg; break;
      case 'm': o.max = (size_t)num("--max", optarg, 1, 1000000); break;
      case 'S': {
        const char *sl = strchr(optarg, '/');
        if (!sl) ll_die(LL_EXIT_USAGE, "mutate: --shard wants I/N with 0 <= I < N, got '%s'", optarg);
        char *i_s = strndup(optarg, (size_t)(sl - optarg));
        uint64_t i, n;
        bool ok = ll_parse_u64(i_s, &i) && ll_parse_u64(sl + 1, &n) && n >= 1 && n <= 100000 && i < n;
        free(i_s);
        if (!ok) ll_die(LL_EXIT_USAGE, "mutate: --shard wants I/N with 0 <= I < N <= 100000, got '%s'", optarg);
        o.shard_i = (uint32_t)i;
        o.shard_n = (uint32_t)n;
        break;
      }
      case 'r': o.random_n = (size_t)num("--random", optarg, 0, 10000); break;
      case 'e': o.seed = num("--seed", optarg, 0, UINT64_MAX); break;
      case 'f': o.only_file = optarg; break;
      case 'O': free((void *)o.only); o.only = parse_only(optarg, &o.nonly); break;
      case 'l': o.list = true; break;
      case 'R': o.report_only = true; break;
      case 't': o.retry = true; break;
      case 'd': o.build = optarg; break;
      case 'o': o.root = optarg; break;
      case 'h': usage_line(stdout); return LL_EXIT_OK;
      case ':': ll_die(LL_EXIT_USAGE, "mutate: %s needs a value", argv[optind - 1]);
      default: usage_line(stderr); ll_die(LL_EXIT_USAGE, "mutate: unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) ll_die(LL_EXIT_USAGE, "mutate: unexpected argument '%s'", argv[optind]);
  if (strcmp(arch, "all") == 0) {
    for (int a = 0; a < EMU_NARCH; a++) o.arches[o.narch++] = (emu_arch)a;
  } else {
    emu_arch a;
    if (!emu_arch_parse(arch, &a)) ll_die(LL_EXIT_USAGE, "mutate: unknown arch '%s' (gfx942, gfx950 or all)", arch);
    o.arches[o.narch++] = a;
  }
  ll_err err = {0};
  int rc = mutate_run(&o, &err);
  free((void *)o.only);
  if (rc != LL_EXIT_OK && err.msg[0]) return ll_report(&err);
  return rc;
}
