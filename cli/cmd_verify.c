/* cli/cmd_verify — `lanelab verify --arch gfx942|gfx950|all [--base REV]
 * [--shapes quick|full|random:N] [--seed S] [--shard I/N] [--backend auto|hip|emu] [--build DIR]
 * [--strict-fidelity]`,
 * or `lanelab verify --manifest FILE.json [--arch ...] [--shard I/N] [--backend ...] [--build DIR]`
 * for a user's kernels (verify/manifest.h; --build defaults to build/lanelab beside the manifest,
 * --arch to all).
 *
 * Runs every stage for each selected arch, writes build/results/<arch>/<stage>.json and
 * summary.json (atomically), prints a summary, and exits with the worst verdict: 1 if any check
 * failed, else 2 for bad input, else 3 if any stage could not run (it says which and why), else 0.
 * --strict-fidelity: an emulated instruction resting on a stated choice (docs/fidelity.md) is a
 * failed check (exit 1), named with its first instruction. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/report.h"
#include "verify/manifest.h"
#include "verify/prod.h"
#include "verify/verify.h"

/* "I/N", 0 <= I < N <= 2^32-1. Each number is parsed whole and range-checked: sscanf's %u took
 * "1/99999999999" (N past 32 bits, undefined behaviour in sscanf) and ran a wrapped-around shard. */
static bool parse_shard(const char *s, uint32_t *i, uint32_t *n) {
  const char *slash = strchr(s, '/');
  if (!slash) return false;
  char *a_s = strndup(s, (size_t)(slash - s));
  uint64_t a, b;
  bool ok = ll_parse_u64(a_s, &a) && ll_parse_u64(slash + 1, &b);
  free(a_s);
  if (!ok || b == 0 || b > UINT32_MAX || a >= b) return false;
  *i = (uint32_t)a;
  *n = (uint32_t)b;
  return true;
}

/* The fidelity line (docs/fidelity.md) under the summary: every emulator launch of this verify.
 * With --strict-fidelity an instruction resting on a stated choice is a failed check. Returns the
 * verdict with that folded in. */
static verdict fidelity_note(report_table *summary, bool strict, verdict worst) {
  emu_fidelity fid;
  emu_fidelity_process(&fid);
  char line[1024] = "fidelity: no emulator launch (hip backend, or nothing ran)";
  if (fid.launches) emu_fidelity_format(&fid, line, sizeof line);
  report_table_note(summary, "%s", line);
  char choices[8192];
  if (!strict || !emu_fidelity_strict(&fid, choices, sizeof choices)) return worst;
  report_table_note(summary, "--strict-fidelity: %llu executed instruction%s rested on stated choices (a failed check):",
                    (unsigned long long)fid.choice_insns, fid.choice_insns == 1 ? "" : "s");
  for (char *l = strtok(choices, "\n"); l; l = strtok(NULL, "\n")) report_table_note(summary, "  %s", l);
  return verdict_worse(worst, VERDICT_FAIL);
}

int cmd_verify(int argc, char **argv) {
  verify_quiet = cli_quiet;
  static const struct option opts[] = {
      {"arch", required_argument, 0, 'a'}, {"base", required_argument, 0, 'b'},
      {"shapes", required_argument, 0, 's'}, {"shard", required_argument, 0, 'S'},
      {"backend", required_argument, 0, 'B'}, {"build", required_argument, 0, 'd'},
      {"manifest", required_argument, 0, 'm'}, {"seed", required_argument, 0, 'e'},
      {"strict-fidelity", no_argument, 0, 'F'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  verify_ctx base = {.build = "build", .shapes = "quick", .backend = "auto", .shard_n = 1};
  const char *arch = NULL, *mpath = NULL;
  bool have_build = false, seed_given = false, strict_fidelity = false;
  optind = 1;
  opterr = 0;
  int o;
  /* leading ':' in optstring: a missing value is ':' (it was reported as "unknown or incomplete") */
  while ((o = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
    switch (o) {
      case 'a': arch = optarg; break;
      case 'b': base.base = optarg; break;
      case 's': base.shapes = optarg; break;
      case 'S':
        if (!parse_shard(optarg, &base.shard_i, &base.shard_n))
          ll_die(LL_EXIT_USAGE, "verify: --shard wants I/N with 0 <= I < N, got '%s'", optarg);
        break;
      case 'B': base.backend = optarg; break;
      case 'e':
        if (!ll_parse_u64(optarg, &base.seed))
          ll_die(LL_EXIT_USAGE, "verify: --seed wants an unsigned 64-bit number (decimal or 0x-hex), got '%s'", optarg);
        seed_given = true;
        break;
      case 'd': base.build = optarg; have_build = true; break;
      case 'm': mpath = optarg; break;
      case 'F': strict_fidelity = true; break;
      case 'h':
        printf("usage: lanelab verify --arch gfx942|gfx950|all [--base REV] [--shapes quick|full|random:N] "
               "[--seed S] [--shard I/N] [--backend auto|hip|emu] [--build DIR] [--strict-fidelity]\n"
               "       lanelab verify --manifest FILE.json [--arch gfx942|gfx950|all] [--shard I/N] "
               "[--backend auto|hip|emu] [--build DIR] [--strict-fidelity]\n");
        return 0;
      case ':':
        ll_die(LL_EXIT_USAGE, "verify: %s needs a value", argv[optind - 1]);
      default:
        ll_die(LL_EXIT_USAGE, "verify: unknown or incomplete option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) ll_die(LL_EXIT_USAGE, "verify: unexpected argument '%s'", argv[optind]);
  manifest *man = NULL;
  char *mbuild = NULL;
  if (mpath) {
    ll_err me = {0};
    man = manifest_load(mpath, &me);
    if (!man) return ll_report(&me);
    if (base.base) ll_die(LL_EXIT_USAGE, "verify: --base compares lanelab's own kernels; it does not apply to --manifest");
    if (!arch) arch = "all";
    if (!have_build) base.build = mbuild = ll_path_join(man->dir, "build/lanelab");
    base.manifest = man;
  }
  if (!arch) ll_die(LL_EXIT_USAGE, "verify: --arch is required (gfx942, gfx950 or all)");
  if (strncmp(base.shapes, "random:", 7) == 0) {
    uint64_t rn;
    if (!ll_parse_u64(base.shapes + 7, &rn) || rn < 1 || rn > PROD_RANDOM_MAX)
      ll_die(LL_EXIT_USAGE, "verify: --shapes random:N wants N in 1..%d, got '%s'", PROD_RANDOM_MAX, base.shapes);
    if (!seed_given) ll_die(LL_EXIT_USAGE, "verify: --shapes %s needs --seed S (the run is reproducible only "
                                           "from its seed)", base.shapes);
  } else if (strcmp(base.shapes, "quick") && strcmp(base.shapes, "full")) {
    ll_die(LL_EXIT_USAGE, "verify: --shapes must be quick, full or random:N, got '%s'", base.shapes);
  } else if (seed_given) {
    ll_die(LL_EXIT_USAGE, "verify: --seed only applies to --shapes random:N (quick and full are fixed)");
  }
  if (strcmp(base.backend, "auto") && strcmp(base.backend, "emu") && strcmp(base.backend, "hip"))
    ll_die(LL_EXIT_USAGE, "verify: --backend must be auto, hip or emu, got '%s'", base.backend);
  emu_arch arches[EMU_NARCH];
  size_t narch = 0;
  if (strcmp(arch, "all") == 0) {
    for (int a = 0; a < EMU_NARCH; a++) arches[narch++] = (emu_arch)a;
  } else {
    emu_arch a;
    if (!emu_arch_parse(arch, &a)) ll_die(LL_EXIT_USAGE, "verify: unknown arch '%s' (gfx942, gfx950 or all)", arch);
    arches[narch++] = a;
  }
  report_table *summary = report_table_new("lanelab verify", "arch,stage,verdict,seconds#,summary");
  verdict worst = VERDICT_PASS;
  for (size_t i = 0; i < narch; i++) {
    verify_ctx c = base;
    c.arch = arches[i];
    c.arch_name = emu_arch_name(arches[i]);
    c.t0 = ll_now();
    int v = verify_arch(&c, summary);
    worst = verdict_worse(worst, v);
    ll_err re = {0};
    if (!report_write_arch(c.build, c.arch_name, &re)) {
      ll_report(&re);
      worst = verdict_worse(worst, VERDICT_BAD);
    } else if (!cli_quiet) {
      fprintf(stderr, "lanelab: report %s/reports/%s/index.html\n", c.build, c.arch_name);
    }
  }
  ll_err re = {0};
  if (!report_write_index(base.build, &re) || !report_write_junit(base.build, &re)) {
    ll_report(&re);
    worst = verdict_worse(worst, VERDICT_BAD);
  }
  worst = fidelity_note(summary, strict_fidelity, worst);
  report_table_note(summary, "verdict: %s", verdict_name(worst));
  report_table_print(summary, REPORT_TEXT);
  report_table_free(summary);
  /* on failure: what failed first and where to look, per arch, at most 10 lines each */
  for (size_t i = 0; i < narch && worst != VERDICT_PASS; i++) {
    ll_buf fs = {0};
    ll_err fe = {0};
    if (report_failure_summary(base.build, emu_arch_name(arches[i]), &fs, &fe)) fputs(ll_buf_str(&fs), stderr);
    else fprintf(stderr, "lanelab verify: no failure summary for %s: %s\n", emu_arch_name(arches[i]), fe.msg);
    ll_buf_free(&fs);
  }
  if (man && !cli_quiet) fprintf(stderr, "lanelab: results %s/results, report %s/reports/index.html\n", base.build, base.build);
  manifest_free(man);
  free(mbuild);
  switch (worst) {
    case VERDICT_PASS: return LL_EXIT_OK;
    case VERDICT_FAIL: return LL_EXIT_FAIL;
    case VERDICT_BAD: return LL_EXIT_USAGE;
    default:
      fprintf(stderr, "lanelab: verify: some stages could not run (see 'not run' above); that is not a pass\n");
      return LL_EXIT_ENV;
  }
}
