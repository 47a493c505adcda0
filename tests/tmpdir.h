/* Temporary directories for the suites. Each one is removed, with everything in it, when the
 * process that made it exits: criterion runs every test in its own process, so a test's
 * directories go when the test ends and a full `make test` leaves nothing in /tmp (it used to
 * leave about a thousand). A test that crashes keeps its directory for a post-mortem, and
 * LANELAB_TEST_KEEP_TMP=1 keeps them all. Header-only (tests are single files). */
#ifndef LANELAB_TESTS_TMPDIR_H
#define LANELAB_TESTS_TMPDIR_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/util.h"

static char **tt_made;
static size_t tt_nmade;
static pid_t tt_owner;

/* Runs at exit: removes the directories this process made (a forked child inherits the list but
 * not the ownership, so only the maker removes them). */
__attribute__((destructor, unused)) static void tt_cleanup(void) {
  if (tt_owner != getpid() || getenv("LANELAB_TEST_KEEP_TMP")) return;
  for (size_t i = 0; i < tt_nmade; i++) ll_rm_tree(tt_made[i]);
}

/* A new directory /tmp/lanelab-WHAT-XXXXXX (malloc'd), removed when this process exits. */
__attribute__((unused)) static char *tt_dir(const char *what) {
  char *t = ll_fmt("/tmp/lanelab-%s-XXXXXX", what);
  cr_assert_not_null(mkdtemp(t), "mkdtemp %s", t);
  if (tt_owner != getpid()) tt_owner = getpid(), tt_nmade = 0, tt_made = NULL;
  tt_made = realloc(tt_made, (tt_nmade + 1) * sizeof *tt_made);
  cr_assert_not_null(tt_made);
  tt_made[tt_nmade++] = ll_xstrdup(t);
  return t;
}

#endif
