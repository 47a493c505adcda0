/* cli/cmd_merge — `lanelab merge [--out DIR] BUILD_DIR...`: joins the results of `lanelab verify
 * --shard I/N` runs (one build directory per shard, all N of them) into DIR/results and
 * DIR/reports (default DIR: merged), prints the merged summary and exits with its verdict like
 * verify: 1 a check failed, 2 bad input (a missing or duplicated shard, runs that differ), 3 a
 * stage did not run, 0 pass. See verify/merge.c. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/report.h"
#include "verify/verify.h"

int cmd_merge(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  const char *out = "merged";
  optind = 1;
  opterr = 0;
  int o;
  while ((o = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
    switch (o) {
      case 'o': out = optarg; break;
      case 'h': printf("usage: lanelab merge [--out DIR] BUILD_DIR...  (the --build directories of verify --shard I/N runs)\n"); return 0;
      case ':': ll_die(LL_EXIT_USAGE, "merge: %s needs a value", argv[optind - 1]);
      default: ll_die(LL_EXIT_USAGE, "merge: unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) ll_die(LL_EXIT_USAGE, "merge: give the build directories of every shard (lanelab merge [--out DIR] DIR...)");
  for (int i = optind; i < argc; i++)
    if (!strcmp(argv[i], out)) ll_die(LL_EXIT_USAGE, "merge: --out %s is one of the inputs", out);
  report_table *summary = report_table_new("lanelab merge", "arch,stage,verdict,seconds#,summary");
  ll_err err = {0};
  int v = verify_merge(argv + optind, (size_t)(argc - optind), out, summary, &err);
  if (v < 0) { report_table_free(summary); return ll_report(&err); }
  report_table_note(summary, "verdict: %s", verdict_name((verdict)v));
  report_table_print(summary, REPORT_TEXT);
  report_table_free(summary);
  if (!cli_quiet) fprintf(stderr, "lanelab: merged results %s/results, report %s/reports/index.html\n", out, out);
  switch (v) {
    case VERDICT_PASS: return LL_EXIT_OK;
    case VERDICT_FAIL: return LL_EXIT_FAIL;
    case VERDICT_BAD: return LL_EXIT_USAGE;
    default: return LL_EXIT_ENV;
  }
}
