/* verify/run — runs the stages for one arch and writes their results. The verdicts and the
 * helpers the stages fill their results with are verify/verdict.c's, so the stages never call back
 * into this file. */
#include <stdlib.h>
#include <string.h>

#include "verify/manifest.h"
#include "verify/verify.h"

/* "I/N" of the run, or "" when not sharded. */
static void shard_text(const verify_ctx *c, char *buf, size_t n) {
  if (c->shard_n > 1) snprintf(buf, n, "%u/%u", c->shard_i, c->shard_n);
  else buf[0] = 0;
}

/* The stage's one line for this kind of run. */
static const char *stage_what(const verify_ctx *c, const verify_stage *s) {
  return c->manifest && s->what_user ? s->what_user : s->what;
}

static bool write_stage_json(const verify_ctx *c, const verify_stage *s, const stage_result *r,
                             double secs, ll_err *err) {
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab verify; do not edit");
  ll_jw_key(&w, "arch"); ll_jw_str(&w, c->arch_name);
  ll_jw_key(&w, "stage"); ll_jw_str(&w, s->name);
  ll_jw_key(&w, "what"); ll_jw_str(&w, stage_what(c, s));
  ll_jw_key(&w, "verdict"); ll_jw_str(&w, verdict_name(r->v));
  ll_jw_key(&w, "summary"); ll_jw_str(&w, r->summary);
  ll_jw_key(&w, "device"); if (r->device) ll_jw_str(&w, r->device); else ll_jw_null(&w);
  ll_jw_key(&w, "shapes"); ll_jw_str(&w, c->shapes);
  if (strncmp(c->shapes, "random:", 7) == 0) { ll_jw_key(&w, "seed"); ll_jw_uint(&w, c->seed); }
  ll_jw_key(&w, "seconds"); ll_jw_num(&w, secs);
  char shard[32];
  shard_text(c, shard, sizeof shard);
  ll_jw_key(&w, "shard"); if (shard[0]) ll_jw_str(&w, shard); else ll_jw_null(&w);
  ll_jw_key(&w, "sharded"); ll_jw_bool(&w, s->sharded);
  ll_jw_key(&w, "tables");
  ll_jw_arr_begin(&w);
  for (size_t i = 0; i < r->ntables; i++) {
    ll_buf t = {0};
    report_table_render(r->tables[i], REPORT_JSON, &t);
    ll_jw_raw(&w, t.data, t.len);
    ll_buf_free(&t);
  }
  ll_jw_arr_end(&w);
  ll_jw_obj_end(&w);
  char *path = ll_fmt("%s/%s.json", c->results, s->name);
  bool ok = ll_write_file_atomic(path, b.data, b.len, err);
  free(path);
  ll_buf_free(&b);
  return ok;
}

int verify_arch(verify_ctx *c, report_table *summary) {
  unsigned kind = c->manifest ? VERIFY_USER : VERIFY_LAB;
  const verify_stage **stages = ll_xcalloc(verify_nstages, sizeof *stages);
  size_t nstages = 0;
  for (size_t i = 0; i < verify_nstages; i++)
    if (verify_stages[i].runs & kind) stages[nstages++] = &verify_stages[i];
  ll_err err = {0};
  char *results = ll_fmt("%s/results/%s", c->build, c->arch_name);
  c->results = results;
  if (!ll_mkdir_p(results, &err)) { free(results); free(stages); return ll_report(&err); }
  verdict worst = VERDICT_PASS;
  ll_buf sj = {0};
  ll_jw w;
  ll_jw_init(&w, &sj);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab verify; do not edit");
  ll_jw_key(&w, "arch"); ll_jw_str(&w, c->arch_name);
  ll_jw_key(&w, "shapes"); ll_jw_str(&w, c->shapes);
  char shard[32];
  shard_text(c, shard, sizeof shard);
  ll_jw_key(&w, "shard"); if (shard[0]) ll_jw_str(&w, shard); else ll_jw_null(&w);
  ll_jw_key(&w, "manifest"); if (c->manifest) ll_jw_str(&w, c->manifest->path); else ll_jw_null(&w);
  ll_jw_key(&w, "stages");
  ll_jw_arr_begin(&w);
  for (size_t i = 0; i < nstages; i++) {
    const verify_stage *s = stages[i];
    if (s->needs_base && !c->base) {
      report_table_row(summary, "%s\t%s\t%s\t%.2f\t%s", c->arch_name, s->name, "not requested", 0.0,
                       "byte-identity against a base revision runs with --base REV (make verify BASE=rev)");
      continue;
    }
    stage_result r = {.v = VERDICT_NOT_RUN};
    snprintf(r.summary, sizeof r.summary, "stage did not report");
    verify_progress(c, s->name, i + 1, nstages, stage_what(c, s));
    double t = ll_now();
    s->run(c, &r);
    double secs = ll_now() - t;
    if (!write_stage_json(c, s, &r, secs, &err)) {
      ll_report(&err);
      r.v = VERDICT_BAD;
    }
    report_table_row(summary, "%s\t%s\t%s\t%.2f\t%s", c->arch_name, s->name, verdict_name(r.v), secs,
                     r.summary);
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "stage"); ll_jw_str(&w, s->name);
    ll_jw_key(&w, "verdict"); ll_jw_str(&w, verdict_name(r.v));
    ll_jw_key(&w, "summary"); ll_jw_str(&w, r.summary);
    ll_jw_key(&w, "device"); if (r.device) ll_jw_str(&w, r.device); else ll_jw_null(&w);
    ll_jw_key(&w, "seconds"); ll_jw_num(&w, secs);
    ll_jw_key(&w, "sharded"); ll_jw_bool(&w, s->sharded);
    ll_jw_obj_end(&w);
    worst = verdict_worse(worst, r.v);
    for (size_t k = 0; k < r.ntables; k++) report_table_free(r.tables[k]);
    free(r.tables);
    free(r.device);
  }
  ll_jw_arr_end(&w);
  ll_jw_key(&w, "verdict"); ll_jw_str(&w, verdict_name(worst));
  ll_jw_obj_end(&w);
  char *sp = ll_fmt("%s/summary.json", results);
  if (!ll_write_file_atomic(sp, sj.data, sj.len, &err)) { ll_report(&err); worst = VERDICT_BAD; }
  free(sp);
  ll_buf_free(&sj);
  free(stages);
  free(results);
  c->results = NULL;
  return worst;
}

