/* reports/results — reading verify's results files back into tables. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/internal.h"

/* The stages verify runs, in its order (verify/stages.c); a stage missing from the results is
 * shown as not run. Other stage files found in the directory are shown after these. */
static const char *known_stages[] = {"model", "kernels", "isa", "lanes", "prod", "mutants", "base"};
#define NKNOWN (sizeof known_stages / sizeof known_stages[0])

/* Strings a numeric column may hold besides numbers: the JSON writer's non-finite spellings, and
 * the placeholders stages write for "no value" ("-", "n/a", ""). */
static bool is_special_str(const ll_json *v) {
  static const char *ok[] = {"inf", "-inf", "nan", "-", "n/a", ""};
  if (v->type != LL_JSTR) return false;
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    if (strcmp(v->str, ok[i]) == 0) return true;
  return false;
}

static char *cell_text(const ll_json *v) {
  switch (v->type) {
    case LL_JNULL: return ll_xstrdup("");
    case LL_JBOOL: return ll_xstrdup(v->b ? "true" : "false");
    case LL_JNUM: return v->is_int ? ll_fmt("%lld", (long long)v->i) : ll_fmt("%.9g", v->num);
    case LL_JSTR: return ll_xstrdup(v->str);
    default: return NULL;
  }
}

report_table *report_table_from_json(const ll_json *j, const char *where, ll_err *err) {
  if (!j || j->type != LL_JOBJ) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: a table must be a JSON object, found %s", where, j ? ll_json_type_name(j->type) : "nothing");
    return NULL;
  }
  const ll_json *title = ll_json_get(j, "title"), *cols = ll_json_get(j, "columns"), *rows = ll_json_get(j, "rows"),
                *notes = ll_json_get(j, "notes");
  if (!cols || cols->type != LL_JARR || cols->n == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): table has no \"columns\" array of names", where, j->line);
    return NULL;
  }
  if (!rows || rows->type != LL_JARR) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): table has no \"rows\" array", where, j->line);
    return NULL;
  }
  if (title && title->type != LL_JSTR && title->type != LL_JNULL) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): \"title\" must be a string", where, title->line);
    return NULL;
  }
  for (size_t c = 0; c < cols->n; c++)
    if (cols->items[c]->type != LL_JSTR) {
      ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): column %zu is not a string", where, cols->items[c]->line, c);
      return NULL;
    }
  size_t nc = cols->n, nr = rows->n;
  report_table *t = ll_xcalloc(1, sizeof *t);
  t->title = title && title->type == LL_JSTR ? ll_xstrdup(title->str) : NULL;
  t->ncols = nc;
  t->cols = ll_xcalloc(nc, sizeof *t->cols);
  t->numeric = ll_xcalloc(nc, sizeof *t->numeric);
  t->cap_rows = nr ? nr : 1;
  t->cells = ll_xcalloc(t->cap_rows * nc, sizeof *t->cells);
  size_t *nnum = ll_xcalloc(nc, sizeof *nnum), *nother = ll_xcalloc(nc, sizeof *nother);
  for (size_t c = 0; c < nc; c++) t->cols[c] = ll_xstrdup(cols->items[c]->str);
  for (size_t r = 0; r < nr; r++) {
    const ll_json *row = rows->items[r];
    if (row->type != LL_JOBJ) {
      ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): row %zu is %s, expected an object", where, row->line, r,
                ll_json_type_name(row->type));
      goto bad;
    }
    for (size_t k = 0; k < row->n; k++) {
      bool known = false;
      for (size_t c = 0; c < nc; c++) known |= strcmp(row->keys[k], t->cols[c]) == 0;
      if (!known) {
        ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): row %zu has \"%s\", which is not a column", where,
                  row->items[k]->line, r, row->keys[k]);
        goto bad;
      }
    }
    for (size_t c = 0; c < nc; c++) {
      const ll_json *v = ll_json_get(row, t->cols[c]);
      if (!v) {
        ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): row %zu lacks column \"%s\"", where, row->line, r, t->cols[c]);
        goto bad;
      }
      char *s = cell_text(v);
      if (!s) {
        ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): row %zu column \"%s\" is %s, expected a scalar", where, v->line,
                  r, t->cols[c], ll_json_type_name(v->type));
        goto bad;
      }
      t->cells[t->nrows * nc + c] = s;
      if (v->type == LL_JNUM) nnum[c]++;
      else if (!is_special_str(v) && v->type != LL_JNULL) nother[c]++;
    }
    t->nrows++;
  }
  for (size_t c = 0; c < nc; c++) t->numeric[c] = nnum[c] > 0 && nother[c] == 0;
  if (notes && notes->type == LL_JARR)
    for (size_t i = 0; i < notes->n; i++)
      if (notes->items[i]->type == LL_JSTR) report_table_note(t, "%s", notes->items[i]->str);
  free(nnum);
  free(nother);
  return t;
bad:
  /* cells of the row being read are freed with the table: count it as a row if any was set */
  for (size_t c = 0; c < nc; c++)
    if (t->cells[t->nrows * nc + c]) { t->nrows++; break; }
  for (size_t i = 0; i < t->nrows * nc; i++)
    if (!t->cells[i]) t->cells[i] = ll_xstrdup("");
  report_table_free(t);
  free(nnum);
  free(nother);
  return NULL;
}

static char *opt_str(const ll_json *j, const char *key) {
  const ll_json *v = ll_json_get(j, key);
  return v && v->type == LL_JSTR ? ll_xstrdup(v->str) : NULL;
}

static bool load_stage(report_ctx *c, report_stage *s) {
  char *path = ll_fmt("%s/%s.json", c->results, s->name);
  struct stat st;
  if (stat(path, &st) != 0) {
    s->present = false;
    s->verdict = ll_xstrdup("not run");
    s->summary = ll_fmt("no results file %s: the stage did not run", path);
    free(path);
    return true;
  }
  ll_json *j = ll_json_parse_file(path, c->err);
  if (!j) { ll_err_prefix(c->err, "stage results %s", path); free(path); return false; }
  bool ok = false;
  const ll_json *tables = ll_json_get(j, "tables"), *secs = ll_json_get(j, "seconds");
  s->present = true;
  s->verdict = opt_str(j, "verdict");
  s->summary = opt_str(j, "summary");
  s->what = opt_str(j, "what");
  s->device = opt_str(j, "device");
  s->shapes = opt_str(j, "shapes");
  s->seconds = secs && secs->type == LL_JNUM ? secs->num : 0;
  if (j->type != LL_JOBJ || !s->verdict || !s->summary) {
    ll_seterr(c->err, LL_EXIT_USAGE, "%s: expected an object with string \"verdict\" and \"summary\"", path);
    goto out;
  }
  if (strcmp(s->verdict, "pass") && strcmp(s->verdict, "FAIL") && strcmp(s->verdict, "error") &&
      strcmp(s->verdict, "not run")) {
    ll_seterr(c->err, LL_EXIT_USAGE, "%s: verdict \"%s\" is not one of pass, FAIL, error, not run", path, s->verdict);
    goto out;
  }
  if (tables && tables->type != LL_JARR) {
    ll_seterr(c->err, LL_EXIT_USAGE, "%s: \"tables\" must be an array", path);
    goto out;
  }
  for (size_t i = 0; tables && i < tables->n; i++) {
    char *where = ll_fmt("%s table %zu", path, i);
    report_table *t = report_table_from_json(tables->items[i], where, c->err);
    free(where);
    if (!t) goto out;
    s->tables = ll_xrealloc(s->tables, (s->ntables + 1) * sizeof *s->tables);
    s->tables[s->ntables++] = t;
  }
  ok = true;
out:
  ll_json_free(j);
  free(path);
  return ok;
}


/* summary.json's view of the run: which stages it lists, with which verdict. */
typedef struct { char **names, **verdicts; size_t n; bool present; } run_list;

static bool load_summary(report_ctx *c, run_list *rl) {
  char *sp = ll_fmt("%s/summary.json", c->results);
  struct stat st;
  bool ok = true;
  if (stat(sp, &st) == 0) {
    ll_json *j = ll_json_parse_file(sp, c->err);
    if (!j) { ll_err_prefix(c->err, "verify summary %s", sp); free(sp); return false; }
    const ll_json *stages = ll_json_get(j, "stages");
    c->overall = opt_str(j, "verdict");
    c->shapes = opt_str(j, "shapes");
    c->manifest = opt_str(j, "manifest");
    if (!c->overall || !stages || stages->type != LL_JARR) {
      ll_seterr(c->err, LL_EXIT_USAGE, "%s: expected a string \"verdict\" and a \"stages\" array", sp);
      ok = false;
    }
    for (size_t i = 0; ok && i < stages->n; i++) {
      const ll_json *nm = ll_json_get(stages->items[i], "stage"), *v = ll_json_get(stages->items[i], "verdict");
      if (!nm || nm->type != LL_JSTR || !v || v->type != LL_JSTR) {
        ll_seterr(c->err, LL_EXIT_USAGE, "%s (line %d): stage entry needs string \"stage\" and \"verdict\"", sp,
                  stages->items[i]->line);
        ok = false;
        break;
      }
      rl->names = ll_xrealloc(rl->names, (rl->n + 1) * sizeof *rl->names);
      rl->verdicts = ll_xrealloc(rl->verdicts, (rl->n + 1) * sizeof *rl->verdicts);
      rl->names[rl->n] = ll_xstrdup(nm->str);
      rl->verdicts[rl->n++] = ll_xstrdup(v->str);
    }
    rl->present = true;
    ll_json_free(j);
  }
  free(sp);
  return ok;
}

bool report_load_stages(report_ctx *c) {
  run_list rl = {0};
  char **names = NULL;
  size_t n = 0;
  bool ok = load_summary(c, &rl);
  /* a --manifest run has its own stages (kernels, isa, outputs, mutants): the lab's are not its */
  for (size_t i = 0; i < NKNOWN && !c->manifest; i++) {
    names = ll_xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = ll_xstrdup(known_stages[i]);
  }
  DIR *d = opendir(c->results);
  if (d) {
    struct dirent *e;
    size_t first_extra = n;
    while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len <= 5 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.' ||
          strcmp(e->d_name, "summary.json") == 0)
        continue;
      char *nm = ll_xstrdup(e->d_name);
      nm[len - 5] = 0;
      bool dup = false;
      for (size_t i = 0; i < n; i++) dup |= strcmp(names[i], nm) == 0;
      if (dup) { free(nm); continue; }
      names = ll_xrealloc(names, (n + 1) * sizeof *names);
      names[n++] = nm;
    }
    closedir(d);
    qsort(names + first_extra, n - first_extra, sizeof *names, ll_cmp_strp);
  }
  c->stages = ll_xcalloc(n, sizeof *c->stages);
  c->nstages = n;
  for (size_t i = 0; i < n; i++) {
    report_stage *s = &c->stages[i];
    s->name = names[i];
    if (!ok) continue;
    const char *listed = NULL;
    for (size_t k = 0; k < rl.n; k++)
      if (!strcmp(rl.names[k], s->name)) listed = rl.verdicts[k];
    char *path = ll_fmt("%s/%s.json", c->results, s->name);
    struct stat st;
    bool file = stat(path, &st) == 0;
    if (rl.present && !listed) {
      /* the last verify did not run this stage: a file left by an earlier run is not its result.
       * base runs only when asked for (--base REV): verify calls it "not requested", which is
       * neither a pass nor a stage that failed to run, and the report says the same (it once
       * showed NOT RUN and "not run is not a pass" beside an overall pass). */
      bool base = !strcmp(s->name, "base");
      s->verdict = ll_xstrdup(base ? "not requested" : "not run");
      const char *why = base ? "not requested: byte identity against a base revision runs only with --base REV "
                               "(make verify BASE=rev)"
                             : "not run in the last verify (summary.json does not list it)";
      s->summary = file ? ll_fmt("%s; %s is from an earlier run and is not shown as a result", why, path)
                        : ll_xstrdup(why);
    } else {
      ok = load_stage(c, s);
      if (ok && listed && s->present && strcmp(listed, s->verdict)) {
        /* verify could not write this stage's file (summary says so): the file is an older run's */
        char *old = s->summary;
        s->summary = ll_fmt("summary.json says \"%s\" but %s says \"%s\" (stale file from an earlier run?): %s", listed,
                            path, s->verdict, old);
        free(old);
        free(s->verdict);
        s->verdict = ll_xstrdup("error");
        for (size_t k = 0; k < s->ntables; k++) report_table_free(s->tables[k]);
        s->ntables = 0;
      }
    }
    free(path);
  }
  free(names);
  for (size_t k = 0; k < rl.n; k++) { free(rl.names[k]); free(rl.verdicts[k]); }
  free(rl.names);
  free(rl.verdicts);
  return ok;
}

void report_free_stages(report_ctx *c) {
  for (size_t i = 0; i < c->nstages; i++) {
    report_stage *s = &c->stages[i];
    for (size_t k = 0; k < s->ntables; k++) report_table_free(s->tables[k]);
    free(s->tables);
    free(s->name); free(s->what); free(s->verdict); free(s->summary); free(s->device); free(s->shapes);
  }
  free(c->stages);
  c->stages = NULL;
  c->nstages = 0;
  free(c->overall);
  free(c->shapes);
  free(c->manifest);
}

const report_stage *report_find_stage(const report_ctx *c, const char *name) {
  for (size_t i = 0; i < c->nstages; i++)
    if (strcmp(c->stages[i].name, name) == 0) return &c->stages[i];
  return NULL;
}

/* Table i of stage s is named by its content: "<stage>-<title words>" (e.g.
 * isa-census-lane_tr8.co, prod-prefill-attention-vs-oracle), cut to 60 characters; a title shared
 * with an earlier table of the stage gets "-2", "-3"... */
static char *title_stem(const report_stage *s, size_t i) {
  const char *t = s->tables[i]->title;
  ll_buf b = {0};
  ll_buf_printf(&b, "%s-", s->name);
  size_t start = b.len;
  bool dash = true;
  for (const char *q = t ? t : ""; *q && b.len < start + 48; q++) {
    char ch = *q;
    bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_';
    if (keep) { ll_buf_put(&b, &ch, 1); dash = false; }
    else if (!dash) { ll_buf_puts(&b, "-"); dash = true; }
  }
  while (b.len > start && b.data[b.len - 1] == '-') b.len--;
  if (b.len == start) ll_buf_puts(&b, "table");
  char *r = ll_xstrdup(ll_buf_str(&b));
  ll_buf_free(&b);
  return r;
}

char *report_table_stem(const report_stage *s, size_t i) {
  char *base = title_stem(s, i);
  int n = 1;
  for (size_t k = 0; k < i; k++) {
    char *o = title_stem(s, k);
    n += !strcmp(o, base);
    free(o);
  }
  if (n == 1) return base;
  char *r = ll_fmt("%s-%d", base, n);
  free(base);
  return r;
}
