/* isa/budget — instruction budgets kept in the repository (isa/budgets.json), evaluated against
 * the census of every built kernel. Format and verdict rules: isa/isa.h. A rule naming a kernel
 * that does not exist fails; a kernel skipped on an arch by design (build/ARCH/kernels/NAME.skip,
 * written by isa_cc_build_dir) is reported "skipped: <reason>", never "pass". */
#define _GNU_SOURCE
#include "isa/isa.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define NARCH 2
static const char *const arch_names[NARCH] = {"gfx942", "gfx950"};
static int arch_index(const char *s) {
  for (int i = 0; i < NARCH; i++)
    if (s && strcmp(s, arch_names[i]) == 0) return i;
  return -1;
}

enum { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE };
static const char *const op_text[] = {"<", "<=", ">", ">=", "==", "!="};

typedef struct side {
  int arch;            /* -1: a constant */
  char expr[160];
  long constant;
} side;

typedef struct rule {
  char *kernel, *why, *text; /* text: the rule as shown in the table */
  int line;
  bool arch[NARCH];
  /* count rule */
  char *count;
  bool has_eq, has_min, has_max;
  long eq, min, max;
  /* relation rule */
  bool relation;
  side lhs, rhs;
  int op;
} rule;

struct isa_budgets {
  rule *rules;
  size_t n;
};

void isa_budgets_free(isa_budgets *b) {
  if (!b) return;
  for (size_t i = 0; i < b->n; i++) {
    free(b->rules[i].kernel);
    free(b->rules[i].why);
    free(b->rules[i].text);
    free(b->rules[i].count);
  }
  free(b->rules);
  free(b);
}

static bool valid_expr(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("_*?:[]", *s)) return false;
  return true;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

static bool parse_side(char *s, side *out) {
  s = trim(s);
  int64_t v;
  if (ll_parse_i64(s, &v)) {
    out->arch = -1;
    out->constant = (long)v;
    return true;
  }
  char *dot = strchr(s, '.');
  if (!dot) return false;
  *dot = 0;
  out->arch = arch_index(s);
  if (out->arch < 0 || !valid_expr(dot + 1) || strlen(dot + 1) >= sizeof out->expr) return false;
  strcpy(out->expr, dot + 1);
  return true;
}

static bool parse_relation(const char *text, rule *r) {
  char *s = ll_xstrdup(text);
  char *p = strpbrk(s, "<>=!");
  bool ok = false;
  if (p) {
    int op = -1;
    size_t oplen = p[1] == '=' ? 2 : 1;
    for (int i = 0; i < 6; i++)
      if (strlen(op_text[i]) == oplen && strncmp(p, op_text[i], oplen) == 0) op = i;
    if (op >= 0) {
      char *rhs = p + oplen;
      *p = 0;
      r->op = op;
      ok = !strpbrk(rhs, "<>=!") && parse_side(s, &r->lhs) && parse_side(rhs, &r->rhs) &&
           (r->lhs.arch >= 0 || r->rhs.arch >= 0);
    }
  }
  free(s);
  return ok;
}

static bool get_long(const ll_json *o, const char *key, long *v, bool *has, const char *what, ll_err *err) {
  ll_json *j = ll_json_get(o, key);
  if (!j) return true;
  if (j->type != LL_JNUM || !j->is_int) {
    ll_seterr(err, LL_EXIT_USAGE, "%s line %d: \"%s\" must be an integer", what, j->line, key);
    return false;
  }
  *v = (long)j->i;
  *has = true;
  return true;
}

isa_budgets *isa_budgets_parse(const char *json_text, const char *what, ll_err *err) {
  ll_json *root = ll_json_parse(json_text, strlen(json_text), err);
  if (!root) { ll_err_prefix(err, "%s", what); return NULL; }
  isa_budgets *b = ll_xcalloc(1, sizeof *b);
  ll_json *rules = root->type == LL_JOBJ ? ll_json_get(root, "rules") : NULL;
#define BAD(line, ...) do { ll_seterr(err, LL_EXIT_USAGE, __VA_ARGS__); ll_err_prefix(err, "%s line %d", what, line); goto fail; } while (0)
  if (!rules || rules->type != LL_JARR) BAD(root->line, "expected an object with a \"rules\" array");
  for (size_t i = 0; i < root->n; i++)
    if (strcmp(root->keys[i], "rules") != 0 && strcmp(root->keys[i], "comment") != 0)
      BAD(root->items[i]->line, "unknown top-level key \"%s\" (expected \"rules\", \"comment\")", root->keys[i]);
  b->rules = ll_xcalloc(rules->n ? rules->n : 1, sizeof *b->rules);
  for (size_t i = 0; i < rules->n; i++) {
    ll_json *o = rules->items[i];
    rule *r = &b->rules[b->n++];
    r->line = o->line;
    if (o->type != LL_JOBJ) BAD(o->line, "rule %zu is a %s, expected an object", i, ll_json_type_name(o->type));
    static const char *known[] = {"kernel", "arch", "count", "eq", "min", "max", "relation", "why", NULL};
    for (size_t k = 0; k < o->n; k++) {
      bool ok = false;
      for (int q = 0; known[q]; q++) ok |= strcmp(o->keys[k], known[q]) == 0;
      if (!ok) BAD(o->items[k]->line, "unknown key \"%s\" in rule (expected kernel, arch, count, eq, min, max, relation, why)", o->keys[k]);
    }
    ll_json *k = ll_json_get(o, "kernel"), *a = ll_json_get(o, "arch"), *c = ll_json_get(o, "count"),
            *rel = ll_json_get(o, "relation"), *why = ll_json_get(o, "why");
    if (!k || k->type != LL_JSTR || !k->str[0]) BAD(o->line, "rule needs \"kernel\": a kernel name or glob");
    r->kernel = ll_xstrdup(k->str);
    if (why && why->type != LL_JSTR) BAD(why->line, "\"why\" must be a string");
    r->why = why ? ll_xstrdup(why->str) : NULL;
    if ((c != NULL) == (rel != NULL)) BAD(o->line, "rule needs exactly one of \"count\" and \"relation\"");
    if (c) {
      if (c->type != LL_JSTR || !valid_expr(c->str)) BAD(c->line, "\"count\" must be a count key or glob (letters, digits, _ * ? : [ ])");
      r->count = ll_xstrdup(c->str);
      if (!get_long(o, "eq", &r->eq, &r->has_eq, what, err) || !get_long(o, "min", &r->min, &r->has_min, what, err) ||
          !get_long(o, "max", &r->max, &r->has_max, what, err))
        goto fail;
      if (!r->has_eq && !r->has_min && !r->has_max) BAD(o->line, "count rule for %s needs \"eq\", \"min\" or \"max\"", r->kernel);
      if (r->has_eq && (r->has_min || r->has_max)) BAD(o->line, "\"eq\" cannot be combined with \"min\"/\"max\"");
      if (!a) r->arch[0] = r->arch[1] = true;
      else if (a->type == LL_JSTR && strcmp(a->str, "all") == 0) r->arch[0] = r->arch[1] = true;
      else if (a->type == LL_JSTR && arch_index(a->str) >= 0) r->arch[arch_index(a->str)] = true;
      else if (a->type == LL_JARR && a->n > 0) {
        for (size_t q = 0; q < a->n; q++) {
          int ai = a->items[q]->type == LL_JSTR ? arch_index(a->items[q]->str) : -1;
          if (ai < 0) BAD(a->line, "\"arch\" entries must be \"gfx942\" or \"gfx950\"");
          r->arch[ai] = true;
        }
      } else BAD(a->line, "\"arch\" must be \"gfx942\", \"gfx950\", \"all\" or an array of them");
      if (r->has_eq) r->text = ll_fmt("%s == %ld", r->count, r->eq);
      else if (r->has_min && r->has_max) r->text = ll_fmt("%ld <= %s <= %ld", r->min, r->count, r->max);
      else if (r->has_min) r->text = ll_fmt("%s >= %ld", r->count, r->min);
      else r->text = ll_fmt("%s <= %ld", r->count, r->max);
    } else {
      if (a) BAD(a->line, "a relation names its arches itself (\"gfx950.X < gfx942.X\"); drop \"arch\"");
      if (ll_json_get(o, "eq") || ll_json_get(o, "min") || ll_json_get(o, "max")) BAD(o->line, "eq/min/max belong to count rules, not relations");
      if (rel->type != LL_JSTR || !parse_relation(rel->str, r))
        BAD(rel->line, "relation must read \"ARCH.COUNT OP ARCH.COUNT\" or \"ARCH.COUNT OP INTEGER\" (ARCH gfx942|gfx950, OP < <= > >= == !=), got %s",
            rel->type == LL_JSTR ? rel->str : ll_json_type_name(rel->type));
      r->relation = true;
      if (r->lhs.arch >= 0) r->arch[r->lhs.arch] = true;
      if (r->rhs.arch >= 0) r->arch[r->rhs.arch] = true;
      r->text = ll_xstrdup(rel->str);
    }
  }
#undef BAD
  ll_json_free(root);
  return b;
fail:
  ll_json_free(root);
  isa_budgets_free(b);
  return NULL;
}

isa_budgets *isa_budgets_load(const char *path, ll_err *err) {
  size_t n;
  char *t = ll_read_file(path, &n, err);
  if (!t) return NULL;
  char *z = ll_xmalloc(n + 1);
  memcpy(z, t, n);
  z[n] = 0;
  free(t);
  if (strlen(z) != n) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: contains a NUL byte", path);
    free(z);
    return NULL;
  }
  isa_budgets *b = isa_budgets_parse(z, path, err);
  free(z);
  return b;
}

/* ---- evaluation -----------------------------------------------------------------------------*/
typedef struct built {
  char *co;                         /* NAME of NAME.co */
  const isa_kernel_census *k;
} built;

typedef struct archset {
  bool loaded;
  char *dir;
  isa_census **cs;
  size_t ncs;
  built *ks;
  size_t nks;
  char **skip, **skip_why;          /* NAME of NAME.skip, its reason */
  size_t nskip;
} archset;


static bool load_arch(archset *s, const char *build_dir, int arch, ll_err *err) {
  if (s->loaded) return true;
  s->loaded = true;
  s->dir = ll_fmt("%s/%s/kernels", build_dir, arch_names[arch]);
  DIR *d = opendir(s->dir);
  if (!d) {
    ll_seterr(err, LL_EXIT_USAGE, "no kernels built for %s: cannot open %s (run make kernels)", arch_names[arch], s->dir);
    return false;
  }
  char **names = NULL;
  size_t nn = 0;
  for (struct dirent *de; (de = readdir(d));) {
    size_t l = strlen(de->d_name);
    if (de->d_name[0] == '.') continue;
    if ((l > 3 && strcmp(de->d_name + l - 3, ".co") == 0) || (l > 5 && strcmp(de->d_name + l - 5, ".skip") == 0)) {
      char *full = ll_fmt("%s/%s", s->dir, de->d_name);
      bool stale = isa_output_is_stale(full); /* its source is gone: not counted */
      free(full);
      if (stale) continue;
      names = ll_xrealloc(names, (nn + 1) * sizeof *names);
      names[nn++] = ll_xstrdup(de->d_name);
    }
  }
  closedir(d);
  if (nn) qsort(names, nn, sizeof *names, ll_cmp_strp); /* deterministic order */
  bool ok = true;
  for (size_t i = 0; i < nn; i++) {
    char *path = ll_fmt("%s/%s", s->dir, names[i]);
    size_t l = strlen(names[i]);
    if (strcmp(names[i] + l - 5, ".skip") == 0) {
      size_t n;
      char *why = ok ? ll_read_file(path, &n, err) : NULL;
      if (!why) ok = false;
      else {
        why = ll_xrealloc(why, n + 1);
        why[n] = 0;
        s->skip = ll_xrealloc(s->skip, (s->nskip + 1) * sizeof *s->skip);
        s->skip_why = ll_xrealloc(s->skip_why, (s->nskip + 1) * sizeof *s->skip_why);
        s->skip[s->nskip] = ll_fmt("%.*s", (int)(l - 5), names[i]);
        s->skip_why[s->nskip++] = ll_xstrdup(trim(why));
        free(why);
      }
    } else if (ok) {
      isa_census *c = isa_census_file(path, err);
      if (!c) ok = false;
      else {
        s->cs = ll_xrealloc(s->cs, (s->ncs + 1) * sizeof *s->cs);
        s->cs[s->ncs++] = c;
        for (size_t k = 0; k < c->nkernels; k++) {
          s->ks = ll_xrealloc(s->ks, (s->nks + 1) * sizeof *s->ks);
          s->ks[s->nks++] = (built){ll_fmt("%.*s", (int)(l - 3), names[i]), &c->kernels[k]};
        }
      }
    }
    free(path);
    free(names[i]);
  }
  free(names);
  return ok;
}

static void free_arch(archset *s) {
  for (size_t i = 0; i < s->ncs; i++) isa_census_free(s->cs[i]);
  for (size_t i = 0; i < s->nks; i++) free(s->ks[i].co);
  for (size_t i = 0; i < s->nskip; i++) { free(s->skip[i]); free(s->skip_why[i]); }
  free(s->cs);
  free(s->ks);
  free(s->skip);
  free(s->skip_why);
  free(s->dir);
}

/* One kernel identity across arches: (code object NAME, symbol); symbol NULL for a code object
 * known only from its .skip files. */
typedef struct ident {
  char *co, *sym;
} ident;

static void add_ident(ident **v, size_t *n, const char *co, const char *sym) {
  for (size_t i = 0; i < *n; i++)
    if (strcmp((*v)[i].co, co) == 0 && ((!sym && !(*v)[i].sym) || (sym && (*v)[i].sym && strcmp((*v)[i].sym, sym) == 0))) return;
  *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = (ident){ll_xstrdup(co), sym ? ll_xstrdup(sym) : NULL};
}

static const isa_kernel_census *find_built(const archset *s, const ident *id) {
  for (size_t i = 0; i < s->nks; i++)
    if (strcmp(s->ks[i].co, id->co) == 0 && strcmp(s->ks[i].k->name, id->sym) == 0) return s->ks[i].k;
  return NULL;
}

static const char *find_skip(const archset *s, const char *co) {
  for (size_t i = 0; i < s->nskip; i++)
    if (strcmp(s->skip[i], co) == 0) return s->skip_why[i];
  return NULL;
}

static bool co_built(const archset *s, const char *co) {
  for (size_t i = 0; i < s->ncs; i++) {
    const char *p = strrchr(s->cs[i]->path, '/');
    p = p ? p + 1 : s->cs[i]->path;
    if (strncmp(p, co, strlen(co)) == 0 && strcmp(p + strlen(co), ".co") == 0) return true;
  }
  return false;
}

static bool holds(long a, int op, long b) {
  switch (op) {
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_EQ: return a == b;
    default: return a != b;
  }
}

static char *label(const ident *id) {
  if (!id->sym) return ll_xstrdup(id->co);
  if (strcmp(id->co, id->sym) == 0) return ll_xstrdup(id->sym);
  return ll_fmt("%s.co:%s", id->co, id->sym);
}

int isa_budgets_eval(const isa_budgets *b, const char *build_dir, const char *const *arches, size_t narches,
                     report_table **out, ll_err *err) {
  *out = NULL;
  bool want[NARCH] = {narches == 0, narches == 0};
  for (size_t i = 0; i < narches; i++) {
    int a = arch_index(arches[i]);
    if (a < 0) { ll_seterr(err, LL_EXIT_USAGE, "unknown arch '%s' (expected gfx942 or gfx950)", arches[i]); return -1; }
    want[a] = true;
  }
  archset sets[NARCH] = {0};
  report_table *t = report_table_new("ISA budgets", "kernel,arch,rule,value,verdict");
  int fails = 0;
  size_t evaluated = 0, skipped = 0, out_of_scope = 0;
  for (size_t ri = 0; ri < b->n; ri++) {
    const rule *r = &b->rules[ri];
    bool scope[NARCH], any = false;
    for (int a = 0; a < NARCH; a++) any |= (scope[a] = r->arch[a] && want[a]);
    if (!any) { out_of_scope++; continue; }
    /* A relation is evaluated when any arch it names is requested; it reads the other arch's
     * build too (make kernels builds both), so a per-arch verify still checks it. */
    if (r->relation)
      for (int a = 0; a < NARCH; a++) scope[a] = r->arch[a];
    evaluated++;
    ident *ids = NULL;
    size_t nid = 0;
    char scope_txt[32] = "";
    for (int a = 0; a < NARCH; a++) {
      if (!scope[a]) continue;
      if (!load_arch(&sets[a], build_dir, a, err)) {
        for (size_t i = 0; i < nid; i++) { free(ids[i].co); free(ids[i].sym); }
        free(ids);
        goto error;
      }
      snprintf(scope_txt + strlen(scope_txt), sizeof scope_txt - strlen(scope_txt), "%s%s", scope_txt[0] ? "," : "", arch_names[a]);
      for (size_t i = 0; i < sets[a].nks; i++)
        if (fnmatch(r->kernel, sets[a].ks[i].k->name, 0) == 0) add_ident(&ids, &nid, sets[a].ks[i].co, sets[a].ks[i].k->name);
      for (size_t i = 0; i < sets[a].nskip; i++)
        if (fnmatch(r->kernel, sets[a].skip[i], 0) == 0) add_ident(&ids, &nid, sets[a].skip[i], NULL);
    }
    /* a skip-only identity is redundant when some symbol of that code object matched */
    for (size_t i = 0; i < nid; i++) {
      if (ids[i].sym) continue;
      for (size_t j = 0; j < nid; j++)
        if (ids[j].sym && strcmp(ids[j].co, ids[i].co) == 0) { ids[i].co[0] = 0; break; }
    }
    if (nid == 0) {
      report_table_row(t, "%s\t%s\t%s\t\tFAIL: no kernel matches '%s' on %s%s%s", r->kernel, scope_txt, r->text, r->kernel,
                       scope_txt, r->why ? " -- " : "", r->why ? r->why : "");
      fails++;
    }
    for (size_t i = 0; i < nid; i++) {
      const ident *id = &ids[i];
      if (!id->co[0]) continue;
      char *lab = label(id);
      if (!r->relation) {
        for (int a = 0; a < NARCH; a++) {
          if (!scope[a]) continue;
          const isa_kernel_census *k = id->sym ? find_built(&sets[a], id) : NULL;
          const char *why = find_skip(&sets[a], id->co);
          if (k) {
            long v = isa_census_value(k, r->count);
            bool ok = (!r->has_eq || v == r->eq) && (!r->has_min || v >= r->min) && (!r->has_max || v <= r->max);
            if (ok) report_table_row(t, "%s\t%s\t%s\t%ld\tpass", lab, arch_names[a], r->text, v);
            else {
              report_table_row(t, "%s\t%s\t%s\t%ld\tFAIL: expected %s, found %ld%s%s", lab, arch_names[a], r->text, v,
                               r->text, v, r->why ? " -- " : "", r->why ? r->why : "");
              fails++;
            }
          } else if (why) {
            report_table_row(t, "%s\t%s\t%s\t\tskipped: %s", lab, arch_names[a], r->text, why);
            skipped++;
          } else {
            report_table_row(t, "%s\t%s\t%s\t\tFAIL: %s on %s (neither built with that kernel nor skipped in %s)", lab,
                             arch_names[a], r->text, co_built(&sets[a], id->co) ? "kernel missing from its code object" : "not built",
                             arch_names[a], sets[a].dir);
            fails++;
          }
        }
      } else {
        const side *sd[2] = {&r->lhs, &r->rhs};
        long v[2] = {0, 0};
        char vals[96] = "", problem[512] = "";
        bool skip = false, missing = false;
        for (int q = 0; q < 2; q++) {
          if (sd[q]->arch < 0) { v[q] = sd[q]->constant; continue; }
          const archset *s = &sets[sd[q]->arch];
          const isa_kernel_census *k = id->sym ? find_built(s, id) : NULL;
          const char *why = find_skip(s, id->co);
          if (k) {
            v[q] = isa_census_value(k, sd[q]->expr);
            snprintf(vals + strlen(vals), sizeof vals - strlen(vals), "%s%s.%s=%ld", vals[0] ? " " : "",
                     arch_names[sd[q]->arch], sd[q]->expr, v[q]);
          } else if (why) {
            if (!skip && !missing) snprintf(problem, sizeof problem, "skipped: %s: %s", arch_names[sd[q]->arch], why);
            skip = true;
          } else {
            snprintf(problem, sizeof problem, "FAIL: %s on %s", id->sym ? "not built" : "no matching kernel", arch_names[sd[q]->arch]);
            missing = true;
          }
        }
        if (missing) {
          report_table_row(t, "%s\t%s\t%s\t%s\t%s", lab, scope_txt, r->text, vals, problem);
          fails++;
        } else if (skip) {
          report_table_row(t, "%s\t%s\t%s\t%s\t%s", lab, scope_txt, r->text, vals, problem);
          skipped++;
        } else if (holds(v[0], r->op, v[1])) {
          report_table_row(t, "%s\t%s\t%s\t%s\tpass", lab, scope_txt, r->text, vals);
        } else {
          report_table_row(t, "%s\t%s\t%s\t%s\tFAIL: %ld %s %ld is false%s%s", lab, scope_txt, r->text, vals, v[0],
                           op_text[r->op], v[1], r->why ? " -- " : "", r->why ? r->why : "");
          fails++;
        }
      }
      free(lab);
    }
    for (size_t i = 0; i < nid; i++) { free(ids[i].co); free(ids[i].sym); }
    free(ids);
  }
  report_table_note(t, "%zu rules evaluated, %zu rows, %d failed, %zu skipped by design (NAME.skip)", evaluated, t->nrows,
                    fails, skipped);
  if (out_of_scope) report_table_note(t, "%zu rules concern only arches not requested here", out_of_scope);
  for (int a = 0; a < NARCH; a++) free_arch(&sets[a]);
  *out = t;
  return fails;
error:
  for (int a = 0; a < NARCH; a++) free_arch(&sets[a]);
  report_table_free(t);
  return -1;
}
