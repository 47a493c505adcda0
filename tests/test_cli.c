/* The `lanelab` command line as a user meets it: `lanelab help [COMMAND]`, `COMMAND --help`,
 * `--version`, case-insensitive arch names, and the agreement of README.md's "Command line"
 * block with the command table in cli/help.c. Every entry of the table is checked (the list comes
 * from `lanelab help --list`), so a command added to the table is covered without editing this
 * file. Expected values come from README.md, git and the synopsis text itself. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

#define LANELAB LANELAB_BUILD "/lanelab"
/* the suite's HIP runtime that sees no GPU (Makefile HIPSTUBS): tests never load the host's */
#define HIP_NODEV LANELAB_BUILD "/stubs/nodev/libamdhip64.so"

typedef struct {
  int rc;
  char *out, *err;
} result;

/* Runs `lanelab ARGS` from the repository root; a signal fails the test. */
static result lanelab(const char *args) {
  cr_assert(access(LANELAB, X_OK) == 0, LANELAB " is missing: build it (make build/lanelab)");
  char of[] = "/tmp/lanelab-test-cli-out-XXXXXX", ef[] = "/tmp/lanelab-test-cli-err-XXXXXX";
  int a = mkstemp(of), b = mkstemp(ef);
  cr_assert(a >= 0 && b >= 0);
  close(a);
  close(b);
  char *cmd = ll_fmt("cd " LANELAB_ROOT " && env LANELAB_HIP_LIB=" HIP_NODEV " " LANELAB " %s >%s 2>%s", args, of, ef);
  int st = system(cmd);
  free(cmd);
  result r = {0};
  r.out = ll_read_file(of, NULL, NULL);
  r.err = ll_read_file(ef, NULL, NULL);
  unlink(of);
  unlink(ef);
  cr_assert(r.out && r.err);
  cr_assert(WIFEXITED(st), "'lanelab %s' died (status 0x%x)", args, st);
  r.rc = WEXITSTATUS(st);
  return r;
}
static void result_free(result *r) {
  free(r->out);
  free(r->err);
}

/* Collapses runs of blanks to one space and trims. In place. */
static char *squeeze(char *s) {
  char *w = s;
  for (char *p = s; *p; p++) {
    if (isspace((unsigned char)*p)) {
      if (w > s && w[-1] != ' ') *w++ = ' ';
    } else *w++ = *p;
  }
  while (w > s && w[-1] == ' ') w--;
  *w = 0;
  return s;
}

/* The synopsis lines of README.md's "## Command line" block: the first ``` block after that
 * heading; an indented line continues the one above. Returns a NULL-terminated array. */
static char **readme_synopses(void) {
  char *md = ll_read_file(LANELAB_ROOT "/README.md", NULL, NULL);
  cr_assert_not_null(md, "cannot read README.md");
  char *sec = strstr(md, "\n## Command line\n");
  cr_assert_not_null(sec, "README.md has no '## Command line' section");
  char *open = strstr(sec, "\n```\n");
  cr_assert_not_null(open, "README.md's Command line section has no ``` block");
  open += 5;
  char *close = strstr(open, "\n```");
  cr_assert_not_null(close);
  *close = 0;
  char **v = ll_xcalloc(256, sizeof *v);
  size_t n = 0;
  for (char *line = strtok(open, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == ' ' && n > 0) {
      char *j = ll_fmt("%s %s", v[n - 1], line);
      free(v[n - 1]);
      v[n - 1] = j;
    } else {
      cr_assert_lt(n, 255);
      v[n++] = ll_xstrdup(line);
    }
  }
  for (size_t i = 0; i < n; i++) squeeze(v[i]);
  free(md);
  return v;
}

/* Names of every help entry, from the binary's own table. NULL-terminated. */
static char **entry_names(size_t *count) {
  result r = lanelab("help --list");
  cr_assert_eq(r.rc, 0, "help --list: exit %d: %s", r.rc, r.err);
  char **v = ll_xcalloc(256, sizeof *v);
  size_t n = 0;
  for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
    cr_assert_lt(n, 255);
    v[n++] = ll_xstrdup(line);
  }
  result_free(&r);
  cr_assert_gt(n, 10, "help --list printed only %zu entries", n);
  *count = n;
  return v;
}

/* The "usage: lanelab ..." line of a help text (its first line), squeezed; NULL if none. */
static char *usage_line(const char *help) {
  if (strncmp(help, "usage: lanelab ", 15) != 0) return NULL;
  const char *end = strchr(help, '\n');
  char *s = strndup(help + 15, end ? (size_t)(end - help - 15) : strlen(help + 15));
  return squeeze(s);
}

/* One `help NAME`, `NAME --help` and `NAME -h` per entry, and on that `help NAME` text the checks
 * of what were three tests (2026-12-04), which each ran `lanelab help NAME` for every entry
 * (5 runs of lanelab per entry, now 3; the same assertions on the same output):
 * - help exits 0 both ways (help NAME, NAME --help, NAME -h agree and start right);
 * - every help explains its options and has an example (formerly
 *   every_help_explains_its_options_and_has_an_example): each entry with a synopsis has an
 *   Example line running that very command, every option of the synopsis described in Options, and
 *   every optional option that takes a value stating its default; a parent lists its subcommands;
 * - README's command block and help agree both ways (formerly
 *   readme_command_block_and_help_agree_both_ways). */
static void explains_its_options_and_has_an_example(char **names, size_t n, size_t i, const char *args,
                                                    const char *out, const char *syn) {
  if (syn) { /* NULL: a parent, whose usage is its subcommands' */
    cr_expect(strncmp(syn, names[i], strlen(names[i])) == 0, "'lanelab %s' shows the usage of another command: %s",
              args, syn);
    char *ex = strstr(out, "\nExample:\n");
    cr_expect_not_null(ex, "'lanelab %s' has no Example section", args);
    if (ex) {
      char *want = ll_fmt("\n  lanelab %s", names[i]);
      cr_expect(strncmp(ex + 9, want, strlen(want)) == 0, "'lanelab %s': the example does not run '%s'", args,
                names[i]);
      free(want);
    }
    /* options of the synopsis: "--opt" tokens; "[--opt VALUE]" optional with a value */
    for (const char *p = syn; (p = strstr(p, "--")); p += 2) {
      size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-") + 2;
      char *opt = strndup(p, len);
      char *desc_key = ll_fmt("\n  %s", opt);
      char *d = strstr(out, desc_key);
      cr_expect_not_null(d, "'lanelab %s': option %s is not described under Options", args, opt);
      bool optional = p > syn + 1 && p[-1] == '[';
      bool valued = p[len] == ' ' && p[len + 1] && p[len + 1] != '[' && p[len + 1] != '-' && p[len + 1] != ']';
      if (d && optional && valued) {
        /* its description runs until the next option line or section */
        const char *e = d + 1;
        while ((e = strchr(e, '\n')) && e[1] == ' ' && !(e[1] == ' ' && e[2] == ' ' && e[3] == '-')) e++;
        char *desc = strndup(d, e ? (size_t)(e - d) : strlen(d));
        cr_expect(strstr(desc, "default"), "'lanelab %s': optional %s does not state its default", args, opt);
        free(desc);
      }
      free(desc_key);
      free(opt);
    }
  }
  /* a parent (or any entry with subcommands) lists each of them */
  for (size_t k = 0; k < n; k++) {
    size_t l = strlen(names[i]);
    if (strncmp(names[k], names[i], l) || names[k][l] != ' ') continue;
    char *sub = ll_fmt("\n  lanelab %s", names[k]);
    cr_expect(strstr(out, sub), "'lanelab %s' does not list its subcommand '%s'", args, names[k]);
    free(sub);
  }
}

Test(cli, every_entry_has_help_that_exits_0_both_ways) {
  size_t n;
  char **names = entry_names(&n);
  char **readme = readme_synopses();
  size_t nr = 0;
  while (readme[nr]) nr++;
  bool *matched = ll_xcalloc(nr + 1, 1);
  for (size_t i = 0; i < n; i++) {
    char *a1 = ll_fmt("help %s", names[i]), *a2 = ll_fmt("%s --help", names[i]), *a3 = ll_fmt("%s -h", names[i]);
    result r1 = lanelab(a1), r2 = lanelab(a2), r3 = lanelab(a3);
    cr_expect_eq(r1.rc, 0, "'lanelab %s': exit %d: %s", a1, r1.rc, r1.err);
    cr_expect_eq(r2.rc, 0, "'lanelab %s': exit %d: %s", a2, r2.rc, r2.err);
    cr_expect_eq(r3.rc, 0, "'lanelab %s': exit %d: %s", a3, r3.rc, r3.err);
    cr_expect_str_eq(r1.out, r2.out, "'lanelab %s' and 'lanelab %s' differ", a1, a2);
    cr_expect_str_eq(r2.out, r3.out, "'lanelab %s' and 'lanelab %s' differ", a2, a3);
    char *head = ll_fmt("lanelab %s: ", names[i]);
    cr_expect(strstr(r1.out, "usage: lanelab ") == r1.out || strstr(r1.out, head) == r1.out,
              "'lanelab %s' starts with neither a usage line nor '%s'", a1, head);
    free(head);
    /* every_help_explains_its_options_and_has_an_example, on the same `help NAME` (its exit is
     * checked just above) */
    char *syn = usage_line(r1.out);
    if (r1.rc == 0) explains_its_options_and_has_an_example(names, n, i, a1, r1.out, syn);
    /* readme_command_block_and_help_agree_both_ways, on the same `help NAME` */
    if (syn) {
      char *want = ll_fmt("lanelab %s", syn);
      bool found = false;
      for (size_t k = 0; k < nr; k++)
        if (strcmp(readme[k], want) == 0) found = matched[k] = true;
      cr_expect(found, "'lanelab %s' shows \"%s\", which README.md's Command line block lacks", a1, want);
      free(want);
    }
    free(syn);
    result_free(&r1), result_free(&r2), result_free(&r3);
    free(a1), free(a2), free(a3);
  }
  for (size_t k = 0; k < nr; k++)
    cr_expect(matched[k], "README.md's Command line block has \"%s\", which no `lanelab help` entry shows", readme[k]);
}

Test(cli, overview_lists_every_synopsis_and_bare_lanelab_is_usage_error) {
  result r = lanelab("help");
  cr_assert_eq(r.rc, 0);
  result h = lanelab("--help");
  cr_expect_eq(h.rc, 0);
  cr_expect_str_eq(r.out, h.out);
  char **readme = readme_synopses();
  for (size_t k = 0; readme[k]; k++) {
    char *line = ll_fmt("  %s\n", readme[k]);
    cr_expect(strstr(r.out, line), "`lanelab help` does not list \"%s\"", readme[k]);
    free(line);
  }
  result b = lanelab("");
  cr_expect_eq(b.rc, 2, "bare lanelab: exit %d, want 2", b.rc);
  result u = lanelab("help no-such-command");
  cr_expect_eq(u.rc, 2);
  cr_expect(strstr(u.err, "no-such-command"), "%s", u.err);
  result x = lanelab("no-such-command --help");
  cr_expect_eq(x.rc, 2, "an unknown command with --help: exit %d, want 2", x.rc);
}

/* --version: "lanelab VERSION (git REV)" with REV the commit git says HEAD is (12 hex digits,
 * "-dirty" when the tree had uncommitted changes at build time). */
Test(cli, version_names_the_git_revision) {
  result r = lanelab("--version");
  cr_assert_eq(r.rc, 0, "%s", r.err);
  FILE *g = popen("git -C " LANELAB_ROOT " rev-parse --short=12 HEAD 2>/dev/null", "r");
  char rev[64] = "";
  if (g) {
    if (!fgets(rev, sizeof rev, g)) rev[0] = 0;
    pclose(g);
  }
  rev[strcspn(rev, "\n")] = 0;
  cr_assert(strncmp(r.out, "lanelab ", 8) == 0 && strstr(r.out, " (git "), "%s", r.out);
  if (rev[0]) {
    char *want = ll_fmt("(git %s", rev);
    cr_expect(strstr(r.out, want), "--version says \"%s\", HEAD is %s (rebuild if HEAD moved since)", r.out, rev);
    free(want);
  }
}

Test(cli, arch_names_are_case_insensitive) {
  result lo = lanelab("mfma v_mfma_f32_16x16x16_f16 --arch gfx942 --operand A --format csv");
  result up = lanelab("mfma v_mfma_f32_16x16x16_f16 --arch GFX942 --operand A --format csv");
  cr_assert_eq(lo.rc, 0, "%s", lo.err);
  cr_expect_eq(up.rc, 0, "--arch GFX942: exit %d: %s", up.rc, up.err);
  cr_expect_str_eq(lo.out, up.out);
  result s = lanelab("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16 --arch Gfx950 --format csv");
  cr_expect_eq(s.rc, 0, "--arch Gfx950: exit %d: %s", s.rc, s.err);
  /* a transposing read does not exist on gfx942 whatever the case */
  result t = lanelab("lanes ds_read_b64_tr_b16 --arch GFX942");
  cr_expect_eq(t.rc, 2, "lanes tr_b16 on GFX942: exit %d, want 2", t.rc);
}
