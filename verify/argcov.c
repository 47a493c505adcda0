/* verify/argcov — argument coverage of a case set. Contract: verify/argcov.h. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify/argcov.h"

/* ---- signatures ------------------------------------------------------------------------------ */
char **argcov_signature(const char *src, size_t *n, ll_err *err) {
  *n = 0;
  size_t len = 0;
  char *text = ll_read_file(src, &len, err);
  if (!text) return NULL;
  /* the function's '(' is the first one after __global__ that does not open __attribute__((...)) */
  const char *g = strstr(text, "__global__");
  const char *open = g ? strchr(g, '(') : NULL;
  while (open) {
    const char *e = open;
    while (e > g && isspace((unsigned char)e[-1])) e--;
    if (e - g < 13 || strncmp(e - 13, "__attribute__", 13)) break;
    int d = 0;
    const char *q = open;
    for (; *q; q++) {
      if (*q == '(') d++;
      else if (*q == ')' && --d == 0) break;
    }
    open = *q ? strchr(q, '(') : NULL;
  }
  if (!open) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: no __global__ function with a parameter list", src);
    free(text);
    return NULL;
  }
  char **names = NULL;
  const char *p = open + 1, *start = p;
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(') depth++;
    else if (*p == ')' && depth > 0) depth--;
    else if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0)) {
      /* the parameter's name: the last identifier of start..p (macro line continuations and
       * white space skipped) */
      const char *e = p;
      while (e > start && !(isalnum((unsigned char)e[-1]) || e[-1] == '_')) e--;
      const char *b = e;
      while (b > start && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
      if (e > b) {
        names = ll_xrealloc(names, (*n + 1) * sizeof *names);
        char *nm = ll_xmalloc((size_t)(e - b) + 1);
        memcpy(nm, b, (size_t)(e - b));
        nm[e - b] = 0;
        names[(*n)++] = nm;
      }
      start = p + 1;
      if (*p == ')') break;
    }
  }
  bool closed = *p != 0;
  free(text);
  if (!closed || *n == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: the __global__ function's parameter list is unterminated or empty", src);
    for (size_t i = 0; i < *n; i++) free(names[i]);
    free(names);
    *n = 0;
    return NULL;
  }
  return names;
}

/* ---- observations ---------------------------------------------------------------------------- */
typedef struct arg_obs {
  char *name;
  uint64_t *vals;       /* distinct values seen */
  size_t nvals, cases;  /* cases: where the kernel reads the argument */
  char first[48];       /* the first value, printed */
  bool has_off, seen_off, seen_on;        /* an "off" value (soft_cap 0, window_left -1) */
  bool entries_rule, entries_varied;      /* an index array whose entries can differ */
  bool stride_rule, stride_apart;         /* a stride: > dense and not a multiple, somewhere */
  bool no_rule;
} arg_obs;

typedef struct fam {
  const char *stem;
  bool attention;
  oracle_attention_kind kind;
  char **names;
  size_t nnames;
  arg_obs *obs;
  size_t cases;
  uint32_t flags_on, flags_off; /* bits seen set / clear */
  uint8_t combos[8];            /* flag combinations launched (low 3 bits) */
} fam;

static uint64_t fnv(const void *p, size_t n, uint64_t h) {
  const uint8_t *b = p;
  if (!h) h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static void observe(arg_obs *o, uint64_t v, const char *shown) {
  o->cases++;
  for (size_t i = 0; i < o->nvals; i++)
    if (o->vals[i] == v) return;
  if (!o->nvals) snprintf(o->first, sizeof o->first, "%s", shown);
  o->vals = ll_xrealloc(o->vals, (o->nvals + 1) * sizeof *o->vals);
  o->vals[o->nvals++] = v;
}

static bool entries_differ(const int32_t *a, size_t n) {
  for (size_t i = 1; i < n; i++)
    if (a[i] != a[0]) return true;
  return false;
}

/* One attention case: each signature argument observed per its rule. */
static void obs_attention(fam *f, const prod_case *c, const oracle_attention_spec *s, const prod_attn_plan *p,
                          const rt_arg *args, size_t nargs) {
  f->cases++;
  bool custom = (p->flags & PROD_FLAG_CUSTOM_MASK) != 0;
  uint32_t acc = PROD_FLAGS_ACCEPTED(s->kind);
  int B = s->batch;
  size_t es = oracle_dtype_size(s->dtype);
  for (size_t i = 0; i < f->nnames && i < nargs; i++) {
    arg_obs *o = &f->obs[i];
    const char *nm = o->name;
    const rt_arg *a = &args[i];
    char shown[48];
    if (a->kind != RT_ARG_PTR) {
      uint64_t bits = a->kind == RT_ARG_U64 ? a->u64 : a->u32; /* i32/f32 share u32's bits */
      if (a->kind == RT_ARG_F32) snprintf(shown, sizeof shown, "%g", a->f32);
      else if (a->kind == RT_ARG_I32) snprintf(shown, sizeof shown, "%d", a->i32);
      else snprintf(shown, sizeof shown, "%llu", (unsigned long long)bits);
      if (!strcmp(nm, "flags")) {
        f->flags_on |= a->u32;
        f->flags_off |= ~a->u32 & acc;
        f->combos[a->u32 & 7] = 1;
      } else if (!strcmp(nm, "soft_cap")) {
        o->has_off = true;
        if (a->f32 == 0) o->seen_off = true; else o->seen_on = true;
      } else if (!strcmp(nm, "window_left")) {
        o->has_off = true;
        if (a->i32 == -1) o->seen_off = true; else o->seen_on = true;
      } else if (strcmp(nm, "qo_len") && strcmp(nm, "kv_len") && strcmp(nm, "num_qo_heads") &&
                 strcmp(nm, "num_kv_heads") && strcmp(nm, "page_size") && strcmp(nm, "sm_scale")) {
        o->no_rule = true;
      }
      observe(o, bits, shown);
      continue;
    }
    /* pointers: what they point at */
    uint64_t h;
    snprintf(shown, sizeof shown, "(buffer)");
    if (!strcmp(nm, "q")) h = fnv(s->q, (size_t)oracle_attention_q_elems(s) * es, 0);
    else if (!strcmp(nm, "k")) h = fnv(s->k, (size_t)oracle_attention_kv_elems(s) * es, 0);
    else if (!strcmp(nm, "v")) h = fnv(s->v, (size_t)oracle_attention_kv_elems(s) * es, 0);
    else if (!strcmp(nm, "o")) h = (uint64_t)oracle_attention_q_elems(s);
    else if (!strcmp(nm, "lse")) h = (uint64_t)oracle_attention_total_q(s) * (uint64_t)s->num_qo_heads;
    else if (!strcmp(nm, "qo_indptr")) h = fnv(s->qo_indptr, (size_t)(B + 1) * 4, 0);
    else if (!strcmp(nm, "kv_indptr")) h = fnv(s->kv_indptr, (size_t)(B + 1) * 4, 0);
    else if (!strcmp(nm, "kv_last_page_len")) {
      h = fnv(s->kv_last_page_len, (size_t)B * 4, 0);
      o->entries_rule = true;
      for (int b = 0; b < B; b++) o->entries_varied |= s->kv_last_page_len[b] != s->page_size;
    } else if (!strcmp(nm, "kv_indices")) {
      int32_t np = s->kv_indptr[B];
      h = fnv(s->kv_indices, (size_t)np * 4, 0);
      o->entries_rule = true;
      for (int32_t j = 0; j < np; j++) o->entries_varied |= s->kv_indices[j] != j;
    } else if (!strcmp(nm, "tile_req")) {
      h = fnv(p->tile_req, (size_t)p->ntiles * 4, 0);
      o->entries_rule = true;
      o->entries_varied |= entries_differ(p->tile_req, p->ntiles);
    } else if (!strcmp(nm, "tile_q0")) {
      h = fnv(p->tile_q0, (size_t)p->ntiles * 4, 0);
      o->entries_rule = true;
      for (uint32_t t = 0; t < p->ntiles; t++) o->entries_varied |= p->tile_q0[t] != 0;
    } else if (!strcmp(nm, "mask") || !strcmp(nm, "mask_off")) {
      if (!custom) continue; /* read only under the custom-mask flag */
      if (!strcmp(nm, "mask")) {
        h = fnv(s->custom_mask, s->custom_mask_bytes, fnv(&p->mask_lead, sizeof p->mask_lead, 0));
      } else {
        h = fnv(p->mask_off, (size_t)B * 4, 0);
        o->entries_rule = true;
        for (int b = 0; b < B; b++) o->entries_varied |= p->mask_off[b] != 0;
      }
    } else {
      o->no_rule = true;
      h = 0;
    }
    observe(o, h, shown);
  }
  (void)c;
}

static void obs_concat(fam *f, const prod_concat_case *c) {
  if (c->T == 0) return; /* the kernel returns before reading any argument but T */
  f->cases++;
  int64_t st[4];
  prod_concat_strides(c, st);
  for (size_t i = 0; i < f->nnames; i++) {
    arg_obs *o = &f->obs[i];
    const char *nm = o->name;
    char shown[48];
    uint64_t v;
    if (!strcmp(nm, "q_out")) v = (uint64_t)(c->T * c->H);
    else if (!strcmp(nm, "q_nope") || !strcmp(nm, "q_pe")) v = fnv(&c->seed, 8, fnv(st, sizeof st, 0)); /* bits from the seed */
    else if (!strcmp(nm, "T")) v = (uint64_t)c->T;
    else if (!strcmp(nm, "H")) v = (uint64_t)c->H;
    else if (strstr(nm, "stride")) {
      bool nope = !strncmp(nm, "nope", 4), tok = nm[strlen(nm) - 1] == 't';
      int idx = (nope ? 0 : 2) + (tok ? 0 : 1);
      /* a token stride moves an address only when T >= 2, a head stride when H >= 2 */
      if ((tok && c->T < 2) || (!tok && c->H < 2)) continue;
      v = (uint64_t)st[idx];
      int64_t row = nope ? ORACLE_MLA_NOPE : ORACLE_MLA_PE, dense = tok ? c->H * row : row;
      o->stride_rule = true;
      o->stride_apart |= st[idx] > dense && st[idx] % dense != 0;
    } else {
      o->no_rule = true;
      v = 0;
    }
    snprintf(shown, sizeof shown, "%llu", (unsigned long long)v);
    observe(o, v, shown);
  }
}

/* ---- the check ------------------------------------------------------------------------------- */
int argcov_check(const char *root, const prod_set *const *sets, size_t nsets, report_table **table, char *why,
                 size_t wn) {
  fam fams[4] = {{.stem = "prefill_single", .attention = true, .kind = ORACLE_SINGLE},
                 {.stem = "prefill_ragged", .attention = true, .kind = ORACLE_RAGGED},
                 {.stem = "prefill_paged", .attention = true, .kind = ORACLE_PAGED},
                 {.stem = "concat_mla_q", .attention = false, .kind = ORACLE_SINGLE}};
  int rc = LL_EXIT_OK;
  snprintf(why, wn, "ok");
  for (int fi = 0; fi < 4; fi++) {
    char *src = ll_fmt("%s/kernels/prod/%s.hip", root, fams[fi].stem);
    ll_err e = {0};
    fams[fi].names = argcov_signature(src, &fams[fi].nnames, &e);
    free(src);
    if (!fams[fi].names) {
      snprintf(why, wn, "%s", e.msg);
      rc = e.code ? e.code : LL_EXIT_USAGE;
      goto out;
    }
    fams[fi].obs = ll_xcalloc(fams[fi].nnames, sizeof *fams[fi].obs);
    for (size_t i = 0; i < fams[fi].nnames; i++) fams[fi].obs[i].name = fams[fi].names[i];
  }
  for (size_t si = 0; si < nsets; si++) {
    const prod_set *st = sets[si];
    for (size_t k = 0; k < st->n; k++) {
      const prod_case *c = &st->cases[k];
      oracle_attention_spec s;
      prod_attn_plan p;
      ll_err e = {0};
      if (!prod_case_spec(c, &s, &e)) {
        snprintf(why, wn, "%s", e.msg);
        rc = e.code;
        goto out;
      }
      if (!prod_attn_plan_make(&s, &p, &e)) {
        snprintf(why, wn, "case %s: %s", c->name, e.msg);
        prod_spec_free(&s);
        rc = e.code;
        goto out;
      }
      fam *f = &fams[c->kind == ORACLE_SINGLE ? 0 : c->kind == ORACLE_RAGGED ? 1 : 2];
      prod_attn_dev dv = {0};
      rt_arg args[PROD_MAX_ARGS];
      size_t na = prod_attn_args(&p, &s, &dv, args);
      if (na != f->nnames) {
        snprintf(why, wn, "%s: the signature has %zu arguments, the host passes %zu (verify/prod.c prod_attn_args)",
                 f->stem, f->nnames, na);
        prod_attn_plan_free(&p);
        prod_spec_free(&s);
        rc = LL_EXIT_FAIL;
        goto out;
      }
      if (p.ntiles > 0) obs_attention(f, c, &s, &p, args, na); /* no tile: no launch */
      prod_attn_plan_free(&p);
      prod_spec_free(&s);
    }
    for (size_t k = 0; k < st->nc; k++) obs_concat(&fams[3], &st->concat[k]);
  }
  /* verdicts */
  report_table *t = report_table_new("argument coverage of the production kernels (quick + sample)",
                                     "kernel,argument,cases#,distinct_values#,first_value,rule,verdict");
  size_t bad = 0;
  char first[1300] = "";
#define FAILED(...)                                                                                                    \
  do {                                                                                                                 \
    char m_[300];                                                                                                      \
    snprintf(m_, sizeof m_, __VA_ARGS__);                                                                              \
    size_t l_ = strlen(first);                                                                                       \
    if (bad++ < 4) snprintf(first + l_, sizeof first - l_, "%s%s", l_ ? "; " : "", m_);                              \
    snprintf(verdict, sizeof verdict, "FAIL: %s", m_);                                                                 \
  } while (0)
  for (int fi = 0; fi < 4; fi++) {
    fam *f = &fams[fi];
    for (size_t i = 0; i < f->nnames; i++) {
      arg_obs *o = &f->obs[i];
      char verdict[400] = "pass", rule[200] = ">= 2 values";
      if (o->no_rule) {
        FAILED("%s: argument %s has no coverage rule (verify/argcov.c)", f->stem, o->name);
      } else if (!strcmp(o->name, "flags") && f->attention) {
        uint32_t acc = PROD_FLAGS_ACCEPTED(f->kind);
        snprintf(rule, sizeof rule, "each accepted bit (0x%x) on and off; every combination launched", acc);
        for (uint32_t b = 1; b <= acc && !strncmp(verdict, "pass", 4); b <<= 1)
          if ((acc & b) && (!(f->flags_on & b) || !(f->flags_off & b)))
            FAILED("%s: flag bit 0x%x of argument flags is never %s", f->stem, b, f->flags_on & b ? "off" : "on");
        for (uint32_t m = 0; m <= acc && !strncmp(verdict, "pass", 4); m++)
          if ((m & ~acc) == 0 && !f->combos[m])
            FAILED("%s: flag combination flags = 0x%x (an accepted one) is never launched", f->stem, m);
      } else if (o->nvals < 2) {
        FAILED("%s: argument %s takes one value (%s) in %zu case%s", f->stem, o->name, o->nvals ? o->first : "none",
               o->cases, o->cases == 1 ? "" : "s");
      } else if (o->has_off && (!o->seen_off || !o->seen_on)) {
        snprintf(rule, sizeof rule, ">= 2 values, off and on");
        FAILED("%s: argument %s is never %s", f->stem, o->name, o->seen_off ? "on" : "off");
      } else if (o->entries_rule && !o->entries_varied) {
        snprintf(rule, sizeof rule, ">= 2 values; entries that differ in some case");
        FAILED("%s: argument %s never holds differing entries (a second request, tile, offset, partial page or "
               "permuted page)", f->stem, o->name);
      } else if (o->stride_rule && !o->stride_apart) {
        snprintf(rule, sizeof rule, ">= 2 values; > dense and not a multiple of it somewhere");
        FAILED("%s: stride argument %s is never larger than the dense layout's and not a multiple of it", f->stem,
               o->name);
      } else {
        if (o->has_off) snprintf(rule, sizeof rule, ">= 2 values, off and on");
        if (o->entries_rule) snprintf(rule, sizeof rule, ">= 2 values; entries that differ in some case");
        if (o->stride_rule) snprintf(rule, sizeof rule, ">= 2 values; > dense and not a multiple of it somewhere");
      }
      report_table_row(t, "%s\t%s\t%zu\t%zu\t%s\t%s\t%s", f->stem, o->name, o->cases, o->nvals, o->first, rule,
                       verdict);
    }
  }
#undef FAILED
  if (bad) {
    if (bad > 4) snprintf(why, wn, "%s (and %zu more)", first, bad - 4);
    else snprintf(why, wn, "%s", first);
    rc = LL_EXIT_FAIL;
  }
  if (table) *table = t;
  else report_table_free(t);
out:
  for (int fi = 0; fi < 4; fi++) {
    for (size_t i = 0; i < fams[fi].nnames; i++) {
      free(fams[fi].names[i]);
      if (fams[fi].obs) free(fams[fi].obs[i].vals);
    }
    free(fams[fi].names);
    free(fams[fi].obs);
  }
  return rc;
}
