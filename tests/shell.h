/* Helpers for suites that run commands (lanelab itself, make, cp): a fresh temporary directory,
 * and a command's exit status and output. Header-only (tests are single files). */
#ifndef LANELAB_TESTS_SHELL_H
#define LANELAB_TESTS_SHELL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/tmpdir.h"
#include "util/util.h"

/* A new directory /tmp/lanelab-test-WHAT-XXXXXX (malloc'd), removed when the test ends. */
__attribute__((unused)) static char *sh_tmpdir(const char *what) {
  char *w = ll_fmt("test-%s", what), *t = tt_dir(w);
  free(w);
  return t;
}

/* This test's build folder relative to the repository ("build", or "build/san" for make SAN=1). */
__attribute__((unused)) static const char *sh_build_rel(void) { return LANELAB_BUILD + strlen(LANELAB_ROOT "/"); }
/* The make variable that selects that build: "SAN=1" or "SAN=". */
__attribute__((unused)) static const char *sh_san(void) { return strstr(sh_build_rel(), "san") ? "SAN=1" : "SAN="; }

/* `make -s install PREFIX=prefix` of this test's build (build/ or build/san/), with what it installs
 * taken as built (make -o): a suite must never relink the binary and libraries the suites beside it
 * are running, as it did when a file changed during make test (malloc'd). */
__attribute__((unused)) static char *sh_make_install(const char *prefix) {
  const char *rel = sh_build_rel();
  return ll_fmt("make -s -C %s install PREFIX=%s %s -o %s/lanelab -o %s/lib/liblanelab.a -o %s/lib/liblanelab_hip.so",
                LANELAB_ROOT, prefix, sh_san(), rel, rel, rel);
}

/* Runs the shell command line `full` as it is; returns its raw wait status and, when out is not
 * NULL, what it wrote to stdout (malloc'd). The one command runner the suites share. */
__attribute__((unused)) static int sh_capture(const char *full, char **out) {
  FILE *f = popen(full, "r");
  cr_assert_not_null(f, "popen %s", full);
  ll_buf b = {0};
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) ll_buf_put(&b, tmp, k);
  int st = pclose(f);
  ll_buf_str(&b);
  if (out) *out = b.data;
  else ll_buf_free(&b);
  return st;
}

/* Runs cmd with sh from /tmp, with no make variables inherited (a nested make must not join the
 * jobserver or take the outer make's command-line variables); returns its exit status (128 if
 * killed) and, when out is not NULL, its stdout and stderr (malloc'd). */
__attribute__((unused)) static int sh_run(const char *cmd, char **out) {
  char *full = ll_fmt("cd /tmp && unset MAKEFLAGS MFLAGS MAKELEVEL && { %s ; } 2>&1", cmd);
  int st = sh_capture(full, out);
  free(full);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#endif
