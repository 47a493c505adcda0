/* cli/cmd_isa — `lanelab isa ...`: the static ISA guards (isa/isa.h).
 *   isa census CODEOBJ [--format F]                 counts per kernel; exit 0
 *   isa diff A.co B.co [--format F]                 exit 0 identical, 1 different
 *   isa probe --arch A 'ASM LINE' [--format F]      exit 0 accepted, 1 rejected by llvm-mc
 *   isa budgets [--arch A|all] [--budgets FILE] [--build DIR] [--format F]
 *                                                   exit 0 every rule passed, 1 one failed
 *   isa base REV [--arch A] [--format F]            exit 0 every kernel's .text identical to REV's
 *   isa coverage CODEOBJ... [--format F]            the emulator's fidelity per code object; exit 0
 * F is text|csv|md|json; 2 bad usage or input; 3 a tool is missing. Paths (isa/budgets.json,
 * build/) are relative to the repository root, where make runs lanelab. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/isa.h"
#include "table/table.h"
#include "util/util.h"

static int usage_err(const char *msg) {
  fprintf(stderr,
          "lanelab isa: %s\nusage: lanelab isa census CODEOBJ [--format text|csv|md|json]\n"
          "       lanelab isa diff A.co B.co [--format ...]\n"
          "       lanelab isa probe --arch gfx942|gfx950 'ASM LINE' [--format ...]\n"
          "       lanelab isa budgets [--arch gfx942|gfx950|all] [--budgets FILE] [--build DIR] [--format ...]\n"
          "       lanelab isa base REV [--arch gfx942|gfx950] [--format ...]\n"
          "       lanelab isa coverage CODEOBJ... [--format ...]\n",
          msg);
  return LL_EXIT_USAGE;
}

typedef struct opts {
  const char *pos[3];
  int npos;
  const char *arch, *format, *budgets, *build;
} opts;

/* Parses "--flag VALUE" options and positionals; returns false (message printed) on bad usage. */
static bool parse(int argc, char **argv, opts *o, int maxpos) {
  memset(o, 0, sizeof *o);
  o->format = "text";
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = strcmp(a, "--arch") == 0      ? &o->arch
                        : strcmp(a, "--format") == 0  ? &o->format
                        : strcmp(a, "--budgets") == 0 ? &o->budgets
                        : strcmp(a, "--build") == 0   ? &o->build
                                                      : NULL;
    if (slot) {
      if (i + 1 >= argc) { char *m = ll_fmt("%s needs a value", a); usage_err(m); free(m); return false; }
      *slot = argv[++i];
    } else if (a[0] == '-' && a[1] == '-') {
      char *m = ll_fmt("unknown option '%s' for 'isa %s'", a, argv[1]);
      usage_err(m);
      free(m);
      return false;
    } else {
      if (o->npos >= maxpos) { char *m = ll_fmt("unexpected argument '%s' for 'isa %s'", a, argv[1]); usage_err(m); free(m); return false; }
      o->pos[o->npos++] = a;
    }
  }
  return true;
}

static int print_table(report_table *t, const char *format, int rc) {
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(format, &f, &e)) { report_table_free(t); return ll_report(&e); }
  report_table_print(t, f);
  report_table_free(t);
  return rc;
}

static int census(int argc, char **argv) {
  opts o;
  if (!parse(argc, argv, &o, 1)) return LL_EXIT_USAGE;
  if (o.npos != 1) return usage_err("census needs one CODEOBJ");
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(o.format, &f, &e)) return ll_report(&e);
  isa_census *c = isa_census_file(o.pos[0], &e);
  if (!c) return ll_report(&e);
  report_table *t = isa_census_table(c);
  isa_census_free(c);
  return print_table(t, o.format, LL_EXIT_OK);
}

static int diff(int argc, char **argv) {
  opts o;
  if (!parse(argc, argv, &o, 2)) return LL_EXIT_USAGE;
  if (o.npos != 2) return usage_err("diff needs two code objects A.co B.co");
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(o.format, &f, &e)) return ll_report(&e);
  isa_diff_result r;
  report_table *t;
  if (!isa_diff_files(o.pos[0], o.pos[1], &r, &t, &e)) return ll_report(&e);
  return print_table(t, o.format, r.identical ? LL_EXIT_OK : LL_EXIT_FAIL);
}

static int probe(int argc, char **argv) {
  opts o;
  if (!parse(argc, argv, &o, 1)) return LL_EXIT_USAGE;
  if (!o.arch) return usage_err("probe needs --arch gfx942|gfx950");
  if (o.npos != 1) return usage_err("probe needs one quoted assembly line");
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(o.format, &f, &e)) return ll_report(&e);
  isa_probe_result r;
  if (!isa_probe(o.arch, o.pos[0], &r, &e)) return ll_report(&e);
  report_table *t = report_table_new("llvm-mc probe", "arch,line,verdict,text,encoding,message");
  report_table_row(t, "%s\t%s\t%s\t%s\t%s\t%s", o.arch, o.pos[0], r.accepted ? "accepted" : "rejected", r.text,
                   r.encoding, r.message);
  report_table_note(t, "exit status: 0 accepted, 1 rejected by llvm-mc");
  return print_table(t, o.format, r.accepted ? LL_EXIT_OK : LL_EXIT_FAIL);
}

/* --arch value -> list; "all" or NULL -> both. */
static bool arch_list(const char *a, const char **list, size_t *n) {
  if (!a || strcmp(a, "all") == 0) { list[0] = "gfx942"; list[1] = "gfx950"; *n = 2; return true; }
  if (strcmp(a, "gfx942") == 0 || strcmp(a, "gfx950") == 0) { list[0] = a; *n = 1; return true; }
  return false;
}

static int budgets(int argc, char **argv) {
  opts o;
  if (!parse(argc, argv, &o, 0)) return LL_EXIT_USAGE;
  const char *arches[2];
  size_t na;
  if (!arch_list(o.arch, arches, &na)) {
    char *m = ll_fmt("unknown --arch '%s' (expected gfx942, gfx950 or all)", o.arch);
    int rc = usage_err(m);
    free(m);
    return rc;
  }
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(o.format, &f, &e)) return ll_report(&e);
  char *bpath = o.budgets ? ll_xstrdup(o.budgets) : ll_xstrdup("isa/budgets.json");
  char *build = o.build ? ll_xstrdup(o.build) : ll_xstrdup("build");
  isa_budgets *b = isa_budgets_load(bpath, &e);
  int rc;
  if (!b) rc = ll_report(&e);
  else {
    report_table *t;
    int fails = isa_budgets_eval(b, build, arches, na, &t, &e);
    rc = fails < 0 ? ll_report(&e) : print_table(t, o.format, fails ? LL_EXIT_FAIL : LL_EXIT_OK);
  }
  isa_budgets_free(b);
  free(bpath);
  free(build);
  return rc;
}

static int base(int argc, char **argv) {
  opts o;
  if (!parse(argc, argv, &o, 1)) return LL_EXIT_USAGE;
  if (o.npos != 1) return usage_err("base needs a git revision");
  const char *arch = o.arch ? o.arch : "gfx942";
  if (strcmp(arch, "gfx942") != 0 && strcmp(arch, "gfx950") != 0) return usage_err("--arch must be gfx942 or gfx950");
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(o.format, &f, &e)) return ll_report(&e);
  char *cur = ll_fmt("build/%s/kernels", arch);
  isa_base_result r;
  report_table *t;
  int n = isa_base_compare(".", o.pos[0], arch, cur, &r, &t, cli_quiet ? NULL : stderr, &e);
  free(cur);
  if (n < 0) return ll_report(&e);
  return print_table(t, o.format, n ? LL_EXIT_FAIL : LL_EXIT_OK);
}

/* isa coverage CODEOBJ... [--format F] (docs/fidelity.md): every code object is loaded before anything
 * is printed, so a bad one costs no partial table. */
static int coverage(int argc, char **argv) {
  const char *format = "text";
  const char **paths = ll_xcalloc((size_t)argc, sizeof *paths);
  size_t np = 0;
  int rc = LL_EXIT_OK;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--format")) {
      if (i + 1 >= argc) { rc = usage_err("--format needs a value"); goto out; }
      format = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1] == '-') {
      char *m = ll_fmt("unknown option '%s' for 'isa coverage'", argv[i]);
      rc = usage_err(m);
      free(m);
      goto out;
    } else {
      paths[np++] = argv[i];
    }
  }
  if (!np) { rc = usage_err("coverage needs at least one CODEOBJ"); goto out; }
  report_format f;
  ll_err e = {0};
  if (!report_format_parse(format, &f, &e)) { rc = ll_report(&e); goto out; }
  isa_coverage **cs = ll_xcalloc(np, sizeof *cs);
  for (size_t i = 0; i < np && rc == LL_EXIT_OK; i++)
    if (!(cs[i] = isa_coverage_file(paths[i], &e))) rc = ll_report(&e);
  if (rc == LL_EXIT_OK) rc = print_table(isa_coverage_table(cs, np), format, LL_EXIT_OK);
  for (size_t i = 0; i < np; i++) isa_coverage_free(cs[i]);
  free(cs);
out:
  free(paths);
  return rc;
}

int cmd_isa(int argc, char **argv) {
  if (argc < 2) return usage_err("missing subcommand");
  const char *s = argv[1];
  if (strcmp(s, "census") == 0) return census(argc, argv);
  if (strcmp(s, "diff") == 0) return diff(argc, argv);
  if (strcmp(s, "probe") == 0) return probe(argc, argv);
  if (strcmp(s, "budgets") == 0) return budgets(argc, argv);
  if (strcmp(s, "base") == 0) return base(argc, argv);
  if (strcmp(s, "coverage") == 0) return coverage(argc, argv);
  char *m = ll_fmt("unknown subcommand '%s'", s);
  int rc = usage_err(m);
  free(m);
  return rc;
}
