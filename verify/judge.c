/* verify/judge — the one mutant rule (verify.h): byte identity first, then the A/B of one case. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "verify/verify.h"

const char *mut_verdict_name(mut_verdict v) {
  switch (v) {
    case MUT_NOT_APPLICABLE: return "not applicable";
    case MUT_CAUGHT: return "caught";
    case MUT_NARROW: return "narrow";
    case MUT_ESCAPED: return "ESCAPED";
    default: return "error";
  }
}

bool verify_mutant_applies(const char *mutant_co, const char *correct_co, bool *applies, ll_err *err) {
  isa_diff_result dr;
  if (!isa_diff_files(mutant_co, correct_co, &dr, NULL, err)) return false;
  *applies = !dr.text_identical;
  return true;
}

void verify_mutant_judge(const mut_run *c, const mut_run *m, mut_judgement *j) {
  memset(j, 0, sizeof *j);
  j->check = "outputs";
  double noise = c->max_abs;
  j->ratio = noise > 0 ? m->max_abs / noise : m->mismatches ? INFINITY : NAN;
  if (c->rc != LL_EXIT_OK || !c->pass) {
    j->v = MUT_ERROR;
    snprintf(j->why, sizeof j->why, "%s", c->rc != LL_EXIT_OK ? "the correct kernel could not run" : "the correct kernel fails the case");
  } else if (m->rc != LL_EXIT_OK && (!m->launched || m->unimplemented || m->rc == LL_EXIT_ENV)) {
    j->v = MUT_ERROR;
    snprintf(j->why, sizeof j->why, "the mutant could not run: %s", m->msg ? m->msg : "");
  } else if (m->rc != LL_EXIT_OK) {
    j->v = MUT_CAUGHT;
    j->check = m->rc == LL_EXIT_FAIL ? "fault" : "launch refused";
    snprintf(j->why, sizeof j->why, "%s", m->msg ? m->msg : "");
  } else if (m->hazards || m->guard) {
    j->v = MUT_CAUGHT;
    j->check = m->hazards ? "checks" : m->guard;
    snprintf(j->why, sizeof j->why, "%s", m->msg ? m->msg : "");
  } else if (!m->pass && (m->nonfinite || j->ratio >= VERIFY_NARROW_RATIO)) {
    j->v = MUT_CAUGHT;
    snprintf(j->why, sizeof j->why, "%llu mismatches, max abs error %.3g = %.3gx the noise floor%s",
             (unsigned long long)m->mismatches, m->max_abs, j->ratio, m->nonfinite ? " (non-finite)" : "");
  } else if (!m->pass) {
    j->v = MUT_NARROW;
    snprintf(j->why, sizeof j->why, "caught only narrowly: %llu mismatches, max abs error %.3g = %.3gx the noise floor",
             (unsigned long long)m->mismatches, m->max_abs, j->ratio);
  } else {
    j->v = MUT_ESCAPED;
    snprintf(j->why, sizeof j->why, "its outputs match the reference");
  }
}
