/* verify/verdict — verdicts (names, the one ranking) and the helpers every stage calls to fill its
 * result (stage_set, stage_add_table), report progress and pick its shard's cases. It calls no
 * stage and not the stage runner (verify/run.c), so the stages and the runner use it one way. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verify/verify.h"

bool verify_quiet = false;

const char *verdict_name(verdict v) {
  switch (v) {
    case VERDICT_PASS: return "pass";
    case VERDICT_FAIL: return "FAIL";
    case VERDICT_BAD: return "error";
    default: return "not run";
  }
}

/* The one ranking (verify.h). */
int verdict_rank(verdict v) {
  switch (v) {
    case VERDICT_FAIL: return 3;
    case VERDICT_BAD: return 2;
    case VERDICT_NOT_RUN: return 1;
    default: return 0;
  }
}

verdict verdict_worse(verdict a, verdict b) { return verdict_rank(b) > verdict_rank(a) ? b : a; }

bool verdict_parse(const char *name, verdict *v) {
  static const verdict all[] = {VERDICT_PASS, VERDICT_FAIL, VERDICT_BAD, VERDICT_NOT_RUN};
  for (size_t i = 0; i < 4; i++)
    if (!strcmp(name, verdict_name(all[i]))) { *v = all[i]; return true; }
  if (!strcmp(name, "not requested")) { *v = VERDICT_PASS; return true; }
  return false;
}

void stage_add_table(stage_result *r, report_table *t) {
  r->tables = ll_xrealloc(r->tables, (r->ntables + 1) * sizeof *r->tables);
  r->tables[r->ntables++] = t;
}

void stage_set(stage_result *r, verdict v, const char *fmt, ...) {
  r->v = v;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->summary, sizeof r->summary, fmt, ap);
  va_end(ap);
}

void verify_progress(const verify_ctx *c, const char *stage, size_t i, size_t n, const char *what) {
  if (verify_quiet) return;
  fprintf(stderr, "[%s %s %zu/%zu %.1fs] %s\n", c->arch_name, stage, i, n, ll_now() - c->t0, what);
}

bool verify_in_shard(const verify_ctx *c, size_t k) {
  return c->shard_n <= 1 || k % c->shard_n == c->shard_i;
}
