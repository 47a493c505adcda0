/* verify/merge — `lanelab merge`: the results of `verify --shard I/N` runs joined into one results
 * tree and report.
 *
 * Each input is a build directory holding results/<arch>/ (summary.json + <stage>.json) from one
 * shard. The inputs must be the shards 0..N-1 of one N, each exactly once, of the same kind of run
 * (same manifest or none, same shapes), with the same arches. Per arch and stage:
 *   - a stage that runs whole in every shard ("sharded": false) must report the same verdict in
 *     every shard; the first shard's results are kept and the others' verdicts noted;
 *   - a sharded stage's tables are joined by position: each distinct row is kept once, with a
 *     "shard" column listing the shards ("I/N") that produced it; the verdict is the worst of the
 *     shards'; the summary lists each shard's.
 * The merged summary.json records "merged_from" (the inputs, in shard order). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/report.h"
#include "verify/verify.h"

#define MERGE_MAX_SHARDS 4096

/* The rank of a results file's verdict word (verdict_rank; pass and not requested are 0). */
static int vrank(const char *v) {
  verdict d = VERDICT_PASS;
  verdict_parse(v, &d);
  return verdict_rank(d);
}

static char *node_text(const ll_json *j) {
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_value(&w, j);
  ll_buf_str(&b);
  return b.data;
}

static const char *jstr(const ll_json *o, const char *k) {
  const ll_json *v = ll_json_get(o, k);
  return v && v->type == LL_JSTR ? v->str : NULL;
}

/* The shard "I/N" of a results dir's summary ("0/1" when it ran unsharded). */
static bool parse_shard(const ll_json *sum, uint32_t *i, uint32_t *n) {
  const char *s = jstr(sum, "shard");
  if (!s) { *i = 0; *n = 1; return true; }
  unsigned a, b;
  char extra;
  if (sscanf(s, "%u/%u%c", &a, &b, &extra) != 2 || b == 0 || a >= b || b > MERGE_MAX_SHARDS) return false;
  *i = a; *n = b;
  return true;
}

typedef struct shard_in {
  const char *dir;
  uint32_t i, n;
  ll_json *sum[EMU_NARCH];   /* summary.json per arch, NULL if the arch has no results */
} shard_in;

static ll_json *load_json(const char *path, ll_err *err) {
  struct stat st;
  if (stat(path, &st) != 0) return NULL;
  if (!S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: not a regular file of at most 64 MiB", path);
    return NULL;
  }
  ll_json *j = ll_json_parse_file(path, err);
  if (!j) ll_err_prefix(err, "%s", path);
  else if (j->type != LL_JOBJ) { ll_seterr(err, LL_EXIT_USAGE, "%s: expected a JSON object", path); ll_json_free(j); j = NULL; }
  return j;
}

static bool same_str(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Merges one stage of one arch; writes OUT/results/<arch>/<stage>.json; fills verdict/summary. */
static bool merge_stage(shard_in *sh, size_t ns, int arch, const char *stage, const char *outdir, char **verdict,
                        char **summary, bool *sharded_out, double *secs, ll_err *err) {
  ll_json **st = ll_xcalloc(ns, sizeof *st);
  bool ok = true;
  const char *an = emu_arch_name((emu_arch)arch);
  for (size_t k = 0; k < ns && ok; k++) {
    char *p = ll_fmt("%s/results/%s/%s.json", sh[k].dir, an, stage);
    err->code = 0;
    st[k] = load_json(p, err);
    if (!st[k]) {
      if (!err->code) ll_seterr(err, LL_EXIT_USAGE, "%s is missing (shard %u/%u lists stage %s)", p, sh[k].i, sh[k].n, stage);
      ok = false;
    }
    free(p);
  }
  if (!ok) goto out;
  const ll_json *shv = ll_json_get(st[0], "sharded");
  bool sharded = shv && shv->type == LL_JBOOL && shv->b;
  *sharded_out = sharded;
  int worst = -1;
  const char *wv = "pass";
  bool differ = false;
  ll_buf sum = {0};
  *secs = 0;
  for (size_t k = 0; k < ns; k++) {
    const char *v = jstr(st[k], "verdict"), *s = jstr(st[k], "summary");
    const ll_json *sec = ll_json_get(st[k], "seconds");
    if (!v || !s) { ll_seterr(err, LL_EXIT_USAGE, "%s/results/%s/%s.json: no verdict or summary", sh[k].dir, an, stage); ok = false; goto out; }
    if (sec && sec->type == LL_JNUM) *secs += sec->num;
    if (vrank(v) > worst) { worst = vrank(v); wv = v; }
    differ |= strcmp(v, jstr(st[0], "verdict")) != 0;
    ll_buf_printf(&sum, "%s[shard %u/%u] %s: %s", sum.len ? "; " : "", sh[k].i, sh[k].n, v, s);
  }
  if (!sharded && !differ) {
    ll_buf_free(&sum);
    ll_buf_printf(&sum, "%s (the same in all %zu shards)", jstr(st[0], "summary"), ns);
  } else if (!sharded && worst < 2) {
    wv = "error"; /* a stage every shard runs whole must agree with itself */
  }
  *verdict = ll_xstrdup(wv);
  *summary = ll_xstrdup(ll_buf_str(&sum));
  ll_buf_free(&sum);
  /* the merged stage file */
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  for (size_t i = 0; i < st[0]->n; i++) {
    const char *key = st[0]->keys[i];
    if (!strcmp(key, "verdict")) { ll_jw_key(&w, key); ll_jw_str(&w, *verdict); continue; }
    if (!strcmp(key, "summary")) { ll_jw_key(&w, key); ll_jw_str(&w, *summary); continue; }
    if (!strcmp(key, "seconds")) { ll_jw_key(&w, key); ll_jw_num(&w, *secs); continue; }
    if (!strcmp(key, "shard")) { ll_jw_key(&w, key); ll_jw_null(&w); continue; }
    if (strcmp(key, "tables") || !sharded) { ll_jw_key(&w, key); ll_jw_value(&w, st[0]->items[i]); continue; }
    /* sharded tables: joined by position, each distinct row once with the shards that had it */
    ll_jw_key(&w, "tables");
    ll_jw_arr_begin(&w);
    const ll_json *t0 = st[0]->items[i];
    for (size_t t = 0; t0->type == LL_JARR && t < t0->n; t++) {
      const ll_json *tab = t0->items[t];
      ll_jw_obj_begin(&w);
      ll_jw_key(&w, "title"); ll_jw_str(&w, jstr(tab, "title") ? jstr(tab, "title") : "");
      ll_jw_key(&w, "columns");
      ll_jw_arr_begin(&w);
      const ll_json *cols = ll_json_get(tab, "columns");
      for (size_t c = 0; cols && cols->type == LL_JARR && c < cols->n; c++) ll_jw_value(&w, cols->items[c]);
      ll_jw_str(&w, "shard");
      ll_jw_arr_end(&w);
      /* rows */
      char **keys = NULL, **who = NULL;
      const ll_json **rows = NULL;
      size_t nr = 0;
      for (size_t k = 0; k < ns; k++) {
        const ll_json *tk = ll_json_get(st[k], "tables");
        if (!tk || tk->type != LL_JARR || t >= tk->n) {
          ll_seterr(err, LL_EXIT_USAGE, "%s/results/%s/%s.json has no table %zu (the shards differ)", sh[k].dir, an, stage, t + 1);
          ok = false;
          break;
        }
        const ll_json *rk = ll_json_get(tk->items[t], "rows");
        for (size_t q = 0; rk && rk->type == LL_JARR && q < rk->n; q++) {
          char *txt = node_text(rk->items[q]);
          size_t f = 0;
          while (f < nr && strcmp(keys[f], txt)) f++;
          if (f < nr) {
            char *old = who[f];
            who[f] = ll_fmt("%s %u/%u", old, sh[k].i, sh[k].n);
            free(old);
            free(txt);
          } else {
            keys = ll_xrealloc(keys, (nr + 1) * sizeof *keys);
            who = ll_xrealloc(who, (nr + 1) * sizeof *who);
            rows = ll_xrealloc(rows, (nr + 1) * sizeof *rows);
            keys[nr] = txt;
            who[nr] = ll_fmt("%u/%u", sh[k].i, sh[k].n);
            rows[nr++] = rk->items[q];
          }
        }
      }
      ll_jw_key(&w, "rows");
      ll_jw_arr_begin(&w);
      for (size_t q = 0; q < nr; q++) {
        ll_jw_obj_begin(&w);
        for (size_t c = 0; c < rows[q]->n; c++) { ll_jw_key(&w, rows[q]->keys[c]); ll_jw_value(&w, rows[q]->items[c]); }
        ll_jw_key(&w, "shard"); ll_jw_str(&w, who[q]);
        ll_jw_obj_end(&w);
        free(keys[q]); free(who[q]);
      }
      ll_jw_arr_end(&w);
      free(keys); free(who); free(rows);
      ll_jw_key(&w, "notes");
      ll_jw_arr_begin(&w);
      const ll_json *notes = ll_json_get(tab, "notes");
      for (size_t c = 0; notes && notes->type == LL_JARR && c < notes->n; c++) ll_jw_value(&w, notes->items[c]);
      char *nt = ll_fmt("merged from %zu shards by lanelab merge; column shard: the shards (I/N) that ran the row", ns);
      ll_jw_str(&w, nt);
      free(nt);
      ll_jw_arr_end(&w);
      ll_jw_obj_end(&w);
      if (!ok) break;
    }
    ll_jw_arr_end(&w);
  }
  ll_jw_obj_end(&w);
  if (ok) {
    char *p = ll_fmt("%s/%s.json", outdir, stage);
    ok = ll_write_file_atomic(p, b.data, b.len, err);
    free(p);
  }
  ll_buf_free(&b);
out:
  for (size_t k = 0; k < ns; k++) ll_json_free(st[k]);
  free(st);
  return ok;
}

int verify_merge(char *const *dirs, size_t ndirs, const char *out, report_table *summary, ll_err *err) {
  if (ndirs == 0 || ndirs > MERGE_MAX_SHARDS) {
    ll_seterr(err, LL_EXIT_USAGE, "merge: give 1 to %d results directories", MERGE_MAX_SHARDS);
    return -1;
  }
  shard_in *sh = ll_xcalloc(ndirs, sizeof *sh);
  int worst = -1;
  bool ok = true;
  for (size_t k = 0; k < ndirs && ok; k++) {
    sh[k].dir = dirs[k];
    bool any = false;
    for (int a = 0; a < EMU_NARCH && ok; a++) {
      char *p = ll_fmt("%s/results/%s/summary.json", dirs[k], emu_arch_name((emu_arch)a));
      err->code = 0;
      sh[k].sum[a] = load_json(p, err);
      if (!sh[k].sum[a] && err->code) ok = false;
      if (sh[k].sum[a]) {
        uint32_t i = 0, n = 1;
        if (!parse_shard(sh[k].sum[a], &i, &n)) { ll_seterr(err, LL_EXIT_USAGE, "%s: bad \"shard\"", p); ok = false; }
        else if (any && (i != sh[k].i || n != sh[k].n)) {
          ll_seterr(err, LL_EXIT_USAGE, "%s: shard %u/%u, but the other arch of %s says %u/%u", p, i, n, dirs[k], sh[k].i, sh[k].n);
          ok = false;
        }
        sh[k].i = i; sh[k].n = n;
        any = true;
      }
      free(p);
    }
    if (ok && !any) { ll_seterr(err, LL_EXIT_USAGE, "merge: %s has no results/<arch>/summary.json (not a verify build directory)", dirs[k]); ok = false; }
  }
  /* shards 0..N-1 of one N, each once, in shard order */
  for (size_t k = 0; ok && k < ndirs; k++) {
    if (sh[k].n != sh[0].n) {
      ll_seterr(err, LL_EXIT_USAGE, "merge: %s is a shard of %u, %s of %u", sh[k].dir, sh[k].n, sh[0].dir, sh[0].n);
      ok = false;
    }
    for (size_t q = 0; ok && q < k; q++)
      if (sh[q].i == sh[k].i) { ll_seterr(err, LL_EXIT_USAGE, "merge: %s and %s are both shard %u/%u", sh[q].dir, sh[k].dir, sh[k].i, sh[k].n); ok = false; }
    for (int a = 0; ok && a < EMU_NARCH; a++) {
      if (!!sh[k].sum[a] != !!sh[0].sum[a]) {
        ll_seterr(err, LL_EXIT_USAGE, "merge: %s has %s results and %s has not", sh[sh[k].sum[a] ? k : 0].dir,
                  emu_arch_name((emu_arch)a), sh[sh[k].sum[a] ? 0 : k].dir);
        ok = false;
      } else if (sh[k].sum[a] && (!same_str(jstr(sh[k].sum[a], "manifest"), jstr(sh[0].sum[a], "manifest")) ||
                                  !same_str(jstr(sh[k].sum[a], "shapes"), jstr(sh[0].sum[a], "shapes")))) {
        ll_seterr(err, LL_EXIT_USAGE, "merge: %s and %s are different runs (manifest or shapes differ)", sh[k].dir, sh[0].dir);
        ok = false;
      }
    }
  }
  if (ok && ndirs != sh[0].n) {
    ll_buf miss = {0};
    for (uint32_t i = 0; i < sh[0].n; i++) {
      bool have = false;
      for (size_t k = 0; k < ndirs; k++) have |= sh[k].i == i;
      if (!have) ll_buf_printf(&miss, "%s%u/%u", miss.len ? ", " : "", i, sh[0].n);
    }
    ll_seterr(err, LL_EXIT_USAGE, "merge: shard%s %s missing (give every shard's directory)", strchr(ll_buf_str(&miss), ',') ? "s" : "",
              ll_buf_str(&miss));
    ll_buf_free(&miss);
    ok = false;
  }
  if (ok) { /* shard order */
    for (size_t k = 0; k < ndirs; k++)
      for (size_t q = k + 1; q < ndirs; q++)
        if (sh[q].i < sh[k].i) { shard_in t = sh[k]; sh[k] = sh[q]; sh[q] = t; }
  }
  for (int a = 0; ok && a < EMU_NARCH; a++) {
    if (!sh[0].sum[a]) continue;
    const char *an = emu_arch_name((emu_arch)a);
    char *outdir = ll_fmt("%s/results/%s", out, an);
    if (!ll_mkdir_p(outdir, err)) { free(outdir); ok = false; break; }
    const ll_json *stages = ll_json_get(sh[0].sum[a], "stages");
    ll_buf sj = {0};
    ll_jw w;
    ll_jw_init(&w, &sj);
    ll_jw_obj_begin(&w);
    ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab merge; do not edit");
    ll_jw_key(&w, "arch"); ll_jw_str(&w, an);
    const ll_json *shapes = ll_json_get(sh[0].sum[a], "shapes"), *man = ll_json_get(sh[0].sum[a], "manifest");
    ll_jw_key(&w, "shapes"); if (shapes) ll_jw_value(&w, shapes); else ll_jw_null(&w);
    ll_jw_key(&w, "shard"); ll_jw_null(&w);
    ll_jw_key(&w, "manifest"); if (man) ll_jw_value(&w, man); else ll_jw_null(&w);
    ll_jw_key(&w, "merged_from");
    ll_jw_arr_begin(&w);
    for (size_t k = 0; k < ndirs; k++) ll_jw_str(&w, sh[k].dir);
    ll_jw_arr_end(&w);
    ll_jw_key(&w, "stages");
    ll_jw_arr_begin(&w);
    int aw = 0;
    for (size_t s = 0; ok && stages && stages->type == LL_JARR && s < stages->n; s++) {
      const char *name = jstr(stages->items[s], "stage");
      if (!name || strchr(name, '/') || name[0] == '.') { ll_seterr(err, LL_EXIT_USAGE, "%s/results/%s/summary.json: bad stage entry", sh[0].dir, an); ok = false; break; }
      char *v = NULL, *sm = NULL;
      bool sharded = false;
      double secs = 0;
      ok = merge_stage(sh, ndirs, a, name, outdir, &v, &sm, &sharded, &secs, err);
      if (!ok) break;
      ll_jw_obj_begin(&w);
      ll_jw_key(&w, "stage"); ll_jw_str(&w, name);
      ll_jw_key(&w, "verdict"); ll_jw_str(&w, v);
      ll_jw_key(&w, "summary"); ll_jw_str(&w, sm);
      ll_jw_key(&w, "device"); { const ll_json *d = ll_json_get(stages->items[s], "device"); if (d) ll_jw_value(&w, d); else ll_jw_null(&w); }
      ll_jw_key(&w, "seconds"); ll_jw_num(&w, secs);
      ll_jw_key(&w, "sharded"); ll_jw_bool(&w, sharded);
      ll_jw_obj_end(&w);
      if (summary) report_table_row(summary, "%s\t%s\t%s\t%.2f\t%s", an, name, v, secs, sm);
      if (vrank(v) > aw) aw = vrank(v);
      free(v); free(sm);
    }
    static const char *const vn[] = {"pass", "not run", "error", "FAIL"};
    ll_jw_arr_end(&w);
    ll_jw_key(&w, "verdict"); ll_jw_str(&w, vn[aw]);
    ll_jw_obj_end(&w);
    if (ok) {
      char *p = ll_fmt("%s/summary.json", outdir);
      ok = ll_write_file_atomic(p, sj.data, sj.len, err);
      free(p);
    }
    ll_buf_free(&sj);
    free(outdir);
    if (ok && aw > worst) worst = aw;
    if (ok && !report_write_arch(out, an, err)) ok = false;
  }
  if (ok && (!report_write_index(out, err) || !report_write_junit(out, err))) ok = false;
  for (size_t k = 0; k < ndirs; k++)
    for (int a = 0; a < EMU_NARCH; a++) ll_json_free(sh[k].sum[a]);
  free(sh);
  if (!ok) return -1;
  /* back from the rank to the verdict (verdict_rank) */
  static const verdict by_rank[] = {VERDICT_PASS, VERDICT_NOT_RUN, VERDICT_BAD, VERDICT_FAIL};
  return worst < 0 ? VERDICT_PASS : by_rank[worst];
}
