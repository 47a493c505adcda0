/* oracle/spec — attention spec: JSON parsing, validation, loading/generating inputs, writing
 * outputs. Every error names the spec field it is about (exit 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/oracle.h"

/* ---- derived sizes ---------------------------------------------------------------------------- */
int64_t oracle_attention_qo_len(const oracle_attention_spec *s, int b) {
  return (int64_t)s->qo_indptr[b + 1] - s->qo_indptr[b];
}
int64_t oracle_attention_kv_len(const oracle_attention_spec *s, int b) {
  int64_t n = (int64_t)s->kv_indptr[b + 1] - s->kv_indptr[b];
  if (s->kind != ORACLE_PAGED) return n;
  return n <= 0 ? 0 : (int64_t)s->page_size * (n - 1) + s->kv_last_page_len[b];
}
int64_t oracle_attention_total_q(const oracle_attention_spec *s) { return s->qo_indptr[s->batch]; }
int64_t oracle_attention_num_pages(const oracle_attention_spec *s) {
  if (s->num_pages > 0) return s->num_pages;
  int64_t m = -1;
  for (int64_t i = 0; i < s->kv_indptr[s->batch]; i++)
    if (s->kv_indices[i] > m) m = s->kv_indices[i];
  return m + 1;
}
int64_t oracle_attention_q_elems(const oracle_attention_spec *s) {
  return oracle_attention_total_q(s) * s->num_qo_heads * s->head_dim;
}
int64_t oracle_attention_kv_elems(const oracle_attention_spec *s) {
  int64_t tokens = s->kind == ORACLE_PAGED ? oracle_attention_num_pages(s) * s->page_size
                                           : (int64_t)s->kv_indptr[s->batch];
  return tokens * s->num_kv_heads * s->head_dim;
}
double oracle_attention_flops(const oracle_attention_spec *s) {
  double f = 0;
  for (int b = 0; b < s->batch; b++)
    f += (double)oracle_attention_qo_len(s, b) * (double)oracle_attention_kv_len(s, b);
  return 4.0 * s->head_dim * s->num_qo_heads * f;
}
double oracle_attention_sm_scale(const oracle_attention_spec *s) {
  return s->has_sm_scale ? s->sm_scale : 1.0 / sqrt((double)s->head_dim);
}

/* ---- validation ------------------------------------------------------------------------------- */
#define LIM_HEADS 4096
#define LIM_DIM 65536
#define LIM_PAGE (1 << 20)
#define LIM_ELEMS (1LL << 36) /* no tensor above 64 Gi elements: a typo, not a problem */

static bool check_indptr(const char *name, const int32_t *p, int batch, ll_err *err) {
  if (p[0] != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s[0] is %d: it must be 0", name, p[0]);
    return false;
  }
  for (int b = 0; b < batch; b++)
    if (p[b + 1] < p[b]) {
      ll_seterr(err, LL_EXIT_USAGE, "%s is not monotonic: %s[%d] = %d < %s[%d] = %d", name, name, b + 1,
                p[b + 1], name, b, p[b]);
      return false;
    }
  return true;
}

bool oracle_attention_validate(const oracle_attention_spec *s, ll_err *err) {
  if (s->kind < ORACLE_SINGLE || s->kind > ORACLE_PAGED) {
    ll_seterr(err, LL_EXIT_USAGE, "kind: unknown value %d", (int)s->kind);
    return false;
  }
  if (s->dtype < ORACLE_F16 || s->dtype > ORACLE_F32) {
    ll_seterr(err, LL_EXIT_USAGE, "dtype: unknown value %d", (int)s->dtype);
    return false;
  }
  if (s->num_qo_heads < 1 || s->num_qo_heads > LIM_HEADS || s->num_kv_heads < 1 || s->num_kv_heads > LIM_HEADS) {
    ll_seterr(err, LL_EXIT_USAGE, "num_qo_heads (%d) and num_kv_heads (%d) must be in 1..%d", s->num_qo_heads,
              s->num_kv_heads, LIM_HEADS);
    return false;
  }
  if (s->num_qo_heads % s->num_kv_heads) {
    ll_seterr(err, LL_EXIT_USAGE, "num_qo_heads (%d) is not a multiple of num_kv_heads (%d)", s->num_qo_heads,
              s->num_kv_heads);
    return false;
  }
  if (s->head_dim < 1 || s->head_dim > LIM_DIM) {
    ll_seterr(err, LL_EXIT_USAGE, "head_dim (%d) must be in 1..%d", s->head_dim, LIM_DIM);
    return false;
  }
  if (s->batch < 1 || !s->qo_indptr || !s->kv_indptr) {
    ll_seterr(err, LL_EXIT_USAGE, "qo_indptr and kv_indptr need at least 2 entries (batch + 1)");
    return false;
  }
  if (s->kind == ORACLE_SINGLE && s->batch != 1) {
    ll_seterr(err, LL_EXIT_USAGE, "qo_indptr: kind single has one request, so 2 entries (found %d)", s->batch + 1);
    return false;
  }
  if (!check_indptr("qo_indptr", s->qo_indptr, s->batch, err) || !check_indptr("kv_indptr", s->kv_indptr, s->batch, err))
    return false;
  if (s->kind == ORACLE_PAGED) {
    if (s->page_size < 1 || s->page_size > LIM_PAGE) {
      ll_seterr(err, LL_EXIT_USAGE, "page_size (%d) must be in 1..%d", s->page_size, LIM_PAGE);
      return false;
    }
    if (s->layout != ORACLE_NHD && s->layout != ORACLE_HND) {
      ll_seterr(err, LL_EXIT_USAGE, "layout: must be NHD or HND");
      return false;
    }
    if (!s->kv_indices || !s->kv_last_page_len) {
      ll_seterr(err, LL_EXIT_USAGE, "kv_indices and kv_last_page_len are required for kind paged");
      return false;
    }
    if (s->num_pages < 0 || s->num_pages > INT32_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "num_pages (%lld) must be in 1..%d", (long long)s->num_pages, INT32_MAX);
      return false;
    }
    for (int b = 0; b < s->batch; b++) {
      if (s->kv_indptr[b + 1] == s->kv_indptr[b]) {
        ll_seterr(err, LL_EXIT_USAGE, "kv_indptr: request %d has no pages (a paged request needs at least one)", b);
        return false;
      }
      if (s->kv_last_page_len[b] < 1 || s->kv_last_page_len[b] > s->page_size) {
        ll_seterr(err, LL_EXIT_USAGE, "kv_last_page_len[%d] = %d is not in 1..page_size (%d)", b,
                  s->kv_last_page_len[b], s->page_size);
        return false;
      }
    }
    for (int64_t i = 0; i < s->kv_indptr[s->batch]; i++)
      if (s->kv_indices[i] < 0 || (s->num_pages > 0 && s->kv_indices[i] >= s->num_pages)) {
        ll_seterr(err, LL_EXIT_USAGE, "kv_indices[%lld] = %d is out of range: the caches have %lld pages",
                  (long long)i, s->kv_indices[i], (long long)oracle_attention_num_pages(s));
        return false;
      }
  }
  if (s->window_left < -1) {
    ll_seterr(err, LL_EXIT_USAGE, "window_left (%d) must be -1 (none) or >= 0", s->window_left);
    return false;
  }
  if (!isfinite(s->logits_soft_cap) || s->logits_soft_cap < 0) {
    ll_seterr(err, LL_EXIT_USAGE, "logits_soft_cap (%g) must be finite and >= 0 (0 = none)", s->logits_soft_cap);
    return false;
  }
  if (s->has_sm_scale && !isfinite(s->sm_scale)) {
    ll_seterr(err, LL_EXIT_USAGE, "sm_scale (%g) must be finite", s->sm_scale);
    return false;
  }
  /* causal together with custom_mask is accepted: the production kernels' header
   * (kernels/prod/prefill_impl.h) documents that the mask replaces the causal flag, so the pair
   * computes exactly what the mask alone computes (visible() below ignores causal then). */
  /* sizes in double first: a hostile spec must not overflow int64 before it is refused */
  double dq = (double)oracle_attention_total_q(s) * s->num_qo_heads * s->head_dim;
  double dkv = (s->kind == ORACLE_PAGED ? (double)oracle_attention_num_pages(s) * s->page_size
                                        : (double)s->kv_indptr[s->batch]) * s->num_kv_heads * s->head_dim;
  if (dq > (double)LIM_ELEMS || dkv > (double)LIM_ELEMS) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: %.0f elements is beyond the oracle's limit of %lld", dq > (double)LIM_ELEMS ? "q" : "k/v",
              dq > dkv ? dq : dkv, (long long)LIM_ELEMS);
    return false;
  }
  /* Within the element limit a shape can still need more memory than the machine has, and an
   * allocation failure then aborts the process (lanelab oracle died with SIGABRT on a seeded
   * 4096-head, head_dim 65536 spec). The oracle holds q, k, v in the spec's dtype and as f32, and
   * O as f32: refuse shapes whose lower bound exceeds physical memory, naming the sizes. */
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  double need = (dq + 2 * dkv) * ((double)oracle_dtype_size(s->dtype) + 4) + dq * 4;
  if (pages > 0 && page > 0 && need > (double)pages * (double)page) {
    ll_seterr(err, LL_EXIT_USAGE, "q/k/v: %.0f q and %.0f k/v elements need at least %.1f GiB of host memory "
              "(inputs as %s and f32, O as f32); this machine has %.1f GiB", dq, dkv, need / 1073741824.0,
              oracle_dtype_name(s->dtype), (double)pages * (double)page / 1073741824.0);
    return false;
  }
  for (int b = 0; b < s->batch; b++)
    if (s->kind == ORACLE_PAGED &&
        (double)s->page_size * (s->kv_indptr[b + 1] - s->kv_indptr[b] - 1) + s->kv_last_page_len[b] > INT32_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "kv_indptr: request %d has more than 2^31-1 keys", b);
      return false;
    }
  if (s->custom_mask) {
    int64_t need = 0;
    for (int b = 0; b < s->batch; b++) {
      int64_t bits = oracle_attention_qo_len(s, b) * oracle_attention_kv_len(s, b);
      if (bits > 8 * LIM_ELEMS) {
        ll_seterr(err, LL_EXIT_USAGE, "custom_mask: request %d has %lld mask bits, beyond the limit", b, (long long)bits);
        return false;
      }
      need += (bits + 7) / 8;
    }
    if ((int64_t)s->custom_mask_bytes != need) {
      ll_seterr(err, LL_EXIT_USAGE,
                "custom_mask: %zu bytes, expected %lld (sum over requests of ceil(qo_len*kv_len/8))",
                s->custom_mask_bytes, (long long)need);
      return false;
    }
  }
  if (s->threads < 0 || s->threads > 1024) {
    ll_seterr(err, LL_EXIT_USAGE, "threads (%d) must be in 0..1024 (0 = all CPUs)", s->threads);
    return false;
  }
  return true;
}

/* ---- JSON helpers ----------------------------------------------------------------------------- */
bool oracle__check_keys(const ll_json *root, const char *const *known, ll_err *err) {
  if (!root || root->type != LL_JOBJ) {
    ll_seterr(err, LL_EXIT_USAGE, "the spec must be a JSON object (found %s)",
              root ? ll_json_type_name(root->type) : "nothing");
    return false;
  }
  for (size_t i = 0; i < root->n; i++) {
    bool ok = false;
    for (const char *const *k = known; *k; k++) ok = ok || strcmp(*k, root->keys[i]) == 0;
    if (!ok) {
      ll_buf b = {0};
      for (const char *const *k = known; *k; k++) ll_buf_printf(&b, "%s%s", k == known ? "" : ", ", *k);
      ll_seterr(err, LL_EXIT_USAGE, "unknown key '%s' (line %d); known keys: %s", root->keys[i], root->items[i]->line,
                ll_buf_str(&b));
      ll_buf_free(&b);
      return false;
    }
  }
  return true;
}

/* 1 present and read, 0 absent (not required), -1 error. */
int oracle__get_int(const ll_json *root, const char *key, bool required, int64_t lo, int64_t hi, int64_t *out,
                    ll_err *err) {
  const ll_json *j = ll_json_get(root, key);
  if (!j) {
    if (!required) return 0;
    ll_seterr(err, LL_EXIT_USAGE, "%s: required field is missing", key);
    return -1;
  }
  if (j->type != LL_JNUM || !j->is_int || j->i < lo || j->i > hi) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected an integer in %lld..%lld, found %s", key, j->line,
              (long long)lo, (long long)hi, j->type == LL_JNUM ? "a number out of range or not integral" : ll_json_type_name(j->type));
    return -1;
  }
  *out = j->i;
  return 1;
}

int oracle__get_str(const ll_json *root, const char *key, bool required, const char **out, ll_err *err) {
  const ll_json *j = ll_json_get(root, key);
  if (!j) {
    if (!required) return 0;
    ll_seterr(err, LL_EXIT_USAGE, "%s: required field is missing", key);
    return -1;
  }
  if (j->type != LL_JSTR) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected a string, found %s", key, j->line, ll_json_type_name(j->type));
    return -1;
  }
  *out = j->str;
  return 1;
}

static int get_bool(const ll_json *root, const char *key, bool *out, ll_err *err) {
  const ll_json *j = ll_json_get(root, key);
  if (!j) return 0;
  if (j->type != LL_JBOOL) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected true or false, found %s", key, j->line, ll_json_type_name(j->type));
    return -1;
  }
  *out = j->b;
  return 1;
}

static int get_num(const ll_json *root, const char *key, double *out, bool *is_null, ll_err *err) {
  const ll_json *j = ll_json_get(root, key);
  if (!j) return 0;
  if (is_null && j->type == LL_JNULL) { *is_null = true; return 1; }
  if (j->type != LL_JNUM) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected a number%s, found %s", key, j->line, is_null ? " or null" : "",
              ll_json_type_name(j->type));
    return -1;
  }
  if (is_null) *is_null = false;
  *out = j->num;
  return 1;
}

static int get_i32_array(const ll_json *root, const char *key, bool required, int32_t **out, int64_t *n, ll_err *err) {
  const ll_json *j = ll_json_get(root, key);
  if (!j) {
    if (!required) return 0;
    ll_seterr(err, LL_EXIT_USAGE, "%s: required field is missing", key);
    return -1;
  }
  if (j->type != LL_JARR) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected an array of integers, found %s", key, j->line, ll_json_type_name(j->type));
    return -1;
  }
  int32_t *a = ll_xmalloc((j->n ? j->n : 1) * sizeof *a);
  for (size_t i = 0; i < j->n; i++) {
    const ll_json *e = j->items[i];
    if (e->type != LL_JNUM || !e->is_int || e->i < INT32_MIN || e->i > INT32_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "%s[%zu] (line %d): expected a 32-bit integer, found %s", key, i, e->line,
                e->type == LL_JNUM ? "a number out of range or not integral" : ll_json_type_name(e->type));
      free(a);
      return -1;
    }
    a[i] = (int32_t)e->i;
  }
  *out = a;
  *n = (int64_t)j->n;
  return 1;
}

/* ---- parse ------------------------------------------------------------------------------------ */
static const char *const attn_keys[] = {
    "kind", "dtype", "num_qo_heads", "num_kv_heads", "head_dim", "qo_indptr", "kv_indptr", "kv_indices",
    "kv_last_page_len", "page_size", "num_pages", "layout", "causal", "window_left", "logits_soft_cap",
    "sm_scale", "custom_mask", "q", "k", "v", "seed", "path", "threads", "round_output", "comment", NULL};

void oracle_attention_spec_free(oracle_attention_spec *s) {
  if (!s) return;
  if (s->owns) {
    free(s->qo_indptr);
    free(s->kv_indptr);
    free(s->kv_indices);
    free(s->kv_last_page_len);
    free(s->custom_mask);
    free(s->q);
    free(s->k);
    free(s->v);
    free(s->q_file);
    free(s->k_file);
    free(s->v_file);
    free(s->mask_file);
    free(s);
  }
}

static oracle_attention_spec *parse_root(const ll_json *r, ll_err *err) {
  oracle_attention_spec *s = ll_xcalloc(1, sizeof *s);
  s->owns = true;
  s->window_left = -1;
  const char *str;
  int64_t v;
  if (!oracle__check_keys(r, attn_keys, err)) goto bad;
  if (oracle__get_str(r, "comment", false, &str, err) < 0) goto bad;
  if (oracle__get_str(r, "kind", true, &str, err) < 0) goto bad;
  if (strcmp(str, "single") == 0) s->kind = ORACLE_SINGLE;
  else if (strcmp(str, "ragged") == 0) s->kind = ORACLE_RAGGED;
  else if (strcmp(str, "paged") == 0) s->kind = ORACLE_PAGED;
  else {
    ll_seterr(err, LL_EXIT_USAGE, "kind: '%s' is not single, ragged or paged", str);
    goto bad;
  }
  if (oracle__get_str(r, "dtype", true, &str, err) < 0) goto bad;
  if (!oracle_dtype_parse(str, &s->dtype)) {
    ll_seterr(err, LL_EXIT_USAGE, "dtype: '%s' is not f16, bf16 or f32", str);
    goto bad;
  }
  if (oracle__get_int(r, "num_qo_heads", true, 1, LIM_HEADS, &v, err) < 0) goto bad;
  s->num_qo_heads = (int)v;
  if (oracle__get_int(r, "num_kv_heads", true, 1, LIM_HEADS, &v, err) < 0) goto bad;
  s->num_kv_heads = (int)v;
  if (oracle__get_int(r, "head_dim", true, 1, LIM_DIM, &v, err) < 0) goto bad;
  s->head_dim = (int)v;
  int64_t nq, nk;
  if (get_i32_array(r, "qo_indptr", true, &s->qo_indptr, &nq, err) < 0) goto bad;
  if (get_i32_array(r, "kv_indptr", true, &s->kv_indptr, &nk, err) < 0) goto bad;
  if (nq < 2) {
    ll_seterr(err, LL_EXIT_USAGE, "qo_indptr: needs at least 2 entries (batch + 1), found %lld", (long long)nq);
    goto bad;
  }
  if (nk != nq) {
    ll_seterr(err, LL_EXIT_USAGE, "kv_indptr has %lld entries but qo_indptr has %lld: they must match (batch + 1 each)",
              (long long)nk, (long long)nq);
    goto bad;
  }
  s->batch = (int)(nq - 1);
  static const char *const paged_only[] = {"kv_indices", "kv_last_page_len", "page_size", "num_pages", "layout", NULL};
  if (s->kind != ORACLE_PAGED) {
    for (const char *const *k = paged_only; *k; k++)
      if (ll_json_get(r, *k)) {
        ll_seterr(err, LL_EXIT_USAGE, "%s: only valid with kind paged (this spec is %s)", *k,
                  s->kind == ORACLE_SINGLE ? "single" : "ragged");
        goto bad;
      }
  } else {
    int64_t ni, nl;
    if (get_i32_array(r, "kv_indices", true, &s->kv_indices, &ni, err) < 0) goto bad;
    if (get_i32_array(r, "kv_last_page_len", true, &s->kv_last_page_len, &nl, err) < 0) goto bad;
    if (oracle__get_int(r, "page_size", true, 1, LIM_PAGE, &v, err) < 0) goto bad;
    s->page_size = (int)v;
    if (oracle__get_int(r, "num_pages", false, 1, INT32_MAX, &s->num_pages, err) < 0) goto bad;
    if (oracle__get_str(r, "layout", true, &str, err) < 0) goto bad;
    if (strcmp(str, "NHD") == 0) s->layout = ORACLE_NHD;
    else if (strcmp(str, "HND") == 0) s->layout = ORACLE_HND;
    else {
      ll_seterr(err, LL_EXIT_USAGE, "layout: '%s' is not NHD or HND", str);
      goto bad;
    }
    if (nl != s->batch) {
      ll_seterr(err, LL_EXIT_USAGE, "kv_last_page_len has %lld entries, expected %d (one per request)", (long long)nl, s->batch);
      goto bad;
    }
    /* indptr checked before its last entry is used as a count */
    if (!check_indptr("kv_indptr", s->kv_indptr, s->batch, err)) goto bad;
    if (ni != s->kv_indptr[s->batch]) {
      ll_seterr(err, LL_EXIT_USAGE, "kv_indices has %lld entries but kv_indptr ends at %d: they must match", (long long)ni,
                s->kv_indptr[s->batch]);
      goto bad;
    }
  }
  if (get_bool(r, "causal", &s->causal, err) < 0) goto bad;
  if (oracle__get_int(r, "window_left", false, -1, INT32_MAX, &v, err) < 0) goto bad;
  else if (ll_json_get(r, "window_left")) s->window_left = (int)v;
  if (get_num(r, "logits_soft_cap", &s->logits_soft_cap, NULL, err) < 0) goto bad;
  bool null_scale = true;
  if (get_num(r, "sm_scale", &s->sm_scale, &null_scale, err) < 0) goto bad;
  s->has_sm_scale = !null_scale;
  if (oracle__get_str(r, "custom_mask", false, &str, err) < 0) goto bad;
  if (ll_json_get(r, "custom_mask")) s->mask_file = ll_xstrdup(str);
  const char *tn[3] = {"q", "k", "v"};
  char **tf[3] = {&s->q_file, &s->k_file, &s->v_file};
  int have = 0;
  for (int i = 0; i < 3; i++) {
    int g = oracle__get_str(r, tn[i], false, &str, err);
    if (g < 0) goto bad;
    if (g) { *tf[i] = ll_xstrdup(str); have++; }
  }
  int g = oracle__get_int(r, "seed", false, 0, INT64_MAX, &v, err);
  if (g < 0) goto bad;
  s->has_seed = g == 1;
  s->seed = (uint64_t)v;
  if (s->has_seed && have) {
    ll_seterr(err, LL_EXIT_USAGE, "seed: give either seed or the q, k, v files, not both");
    goto bad;
  }
  if (!s->has_seed && have != 3) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: missing; q, k and v files are required unless seed is given",
              !s->q_file ? "q" : !s->k_file ? "k" : "v");
    goto bad;
  }
  if (oracle__get_str(r, "path", false, &str, err) < 0) goto bad;
  if (ll_json_get(r, "path")) {
    if (strcmp(str, "auto") == 0) s->path = ORACLE_PATH_AUTO;
    else if (strcmp(str, "plain") == 0) s->path = ORACLE_PATH_PLAIN;
    else if (strcmp(str, "fast") == 0) s->path = ORACLE_PATH_FAST;
    else {
      ll_seterr(err, LL_EXIT_USAGE, "path: '%s' is not auto, plain or fast", str);
      goto bad;
    }
  }
  if (oracle__get_int(r, "threads", false, 0, 1024, &v, err) < 0) goto bad;
  else if (ll_json_get(r, "threads")) s->threads = (int)v;
  if (get_bool(r, "round_output", &s->round_output, err) < 0) goto bad;
  /* the mask's size is checked by the loader, once the file is read */
  uint8_t *mask = s->custom_mask;
  s->custom_mask = NULL;
  bool ok = oracle_attention_validate(s, err);
  s->custom_mask = mask;
  if (!ok) goto bad;
  return s;
bad:
  oracle_attention_spec_free(s);
  return NULL;
}

oracle_attention_spec *oracle_attention_spec_parse(const char *json, size_t len, ll_err *err) {
  ll_json *r = ll_json_parse(json, len, err);
  if (!r) return NULL;
  oracle_attention_spec *s = parse_root(r, err);
  ll_json_free(r);
  return s;
}

/* ---- inputs ----------------------------------------------------------------------------------- */
static void fill_uniform(oracle_dtype dt, void *dst, size_t n, uint64_t *st) {
  float *f = ll_xmalloc((n ? n : 1) * sizeof *f);
  for (size_t i = 0; i < n; i++) f[i] = (float)((double)(ll_splitmix64(st) >> 11) * 0x1p-53 * 2.0 - 1.0);
  oracle_from_f32(dt, f, dst, n);
  free(f);
}

void oracle_attention_generate(oracle_attention_spec *s, uint64_t seed) {
  size_t es = oracle_dtype_size(s->dtype), nq = (size_t)oracle_attention_q_elems(s),
         nkv = (size_t)oracle_attention_kv_elems(s);
  uint64_t st = seed;
  s->q = ll_xmalloc((nq ? nq : 1) * es);
  s->k = ll_xmalloc((nkv ? nkv : 1) * es);
  s->v = ll_xmalloc((nkv ? nkv : 1) * es);
  fill_uniform(s->dtype, s->q, nq, &st);
  fill_uniform(s->dtype, s->k, nkv, &st);
  fill_uniform(s->dtype, s->v, nkv, &st);
  s->has_seed = true;
  s->seed = seed;
}

static void *read_sized(const char *dir, const char *field, const char *name, size_t *size, ll_err *err) {
  char *p = ll_path_join(dir, name);
  void *d = ll_read_file_max(p, LL_CAP_DATA, size, err);
  if (!d) ll_err_prefix(err, "%s", field);
  free(p);
  return d;
}

oracle_attention_spec *oracle_attention_spec_load(const char *path, ll_err *err) {
  size_t len;
  char *text = ll_read_file(path, &len, err);
  if (!text) return NULL;
  oracle_attention_spec *s = oracle_attention_spec_parse(text, len, err);
  free(text);
  if (!s) {
    ll_err_prefix(err, "spec %s", path);
    return NULL;
  }
  char *dir = ll_dirname(path);
  size_t es = oracle_dtype_size(s->dtype);
  if (s->mask_file) {
    s->custom_mask = read_sized(dir, "custom_mask", s->mask_file, &s->custom_mask_bytes, err);
    if (!s->custom_mask) goto bad;
  }
  if (s->has_seed) {
    if (!oracle_attention_validate(s, err)) goto bad;
    oracle_attention_generate(s, s->seed);
  } else {
    size_t sz[3];
    void **dst[3] = {&s->q, &s->k, &s->v};
    const char *fn[3] = {s->q_file, s->k_file, s->v_file}, *nm[3] = {"q", "k", "v"};
    for (int i = 0; i < 3; i++) {
      *dst[i] = read_sized(dir, nm[i], fn[i], &sz[i], err);
      if (!*dst[i]) goto bad;
    }
    int64_t want_q = oracle_attention_q_elems(s) * (int64_t)es;
    if ((int64_t)sz[0] != want_q) {
      ll_seterr(err, LL_EXIT_USAGE, "q: file %s has %zu bytes, expected %lld (total_q %lld x num_qo_heads %d x head_dim %d x %zu bytes)",
                s->q_file, sz[0], (long long)want_q, (long long)oracle_attention_total_q(s), s->num_qo_heads, s->head_dim, es);
      goto bad;
    }
    if (sz[1] != sz[2]) {
      ll_seterr(err, LL_EXIT_USAGE, "v: file %s has %zu bytes but k (%s) has %zu: they must have the same shape", s->v_file,
                sz[2], s->k_file, sz[1]);
      goto bad;
    }
    if (s->kind == ORACLE_PAGED && s->num_pages == 0) {
      size_t page = (size_t)s->page_size * s->num_kv_heads * s->head_dim * es;
      if (sz[1] % page || sz[1] == 0) {
        ll_seterr(err, LL_EXIT_USAGE, "k: file %s has %zu bytes, not a whole non-zero number of pages (%zu bytes each: page_size %d x num_kv_heads %d x head_dim %d x %zu bytes)",
                  s->k_file, sz[1], page, s->page_size, s->num_kv_heads, s->head_dim, es);
        goto bad;
      }
      s->num_pages = (int64_t)(sz[1] / page);
    }
    if (!oracle_attention_validate(s, err)) goto bad;
    int64_t want_kv = oracle_attention_kv_elems(s) * (int64_t)es;
    if ((int64_t)sz[1] != want_kv) {
      ll_seterr(err, LL_EXIT_USAGE, "k: file %s has %zu bytes, expected %lld for its shape", s->k_file, sz[1], (long long)want_kv);
      goto bad;
    }
  }
  free(dir);
  return s;
bad:
  ll_err_prefix(err, "spec %s", path);
  free(dir);
  oracle_attention_spec_free(s);
  return NULL;
}

/* ---- outputs ---------------------------------------------------------------------------------- */
static const char *path_name(oracle_path p) {
  return p == ORACLE_PATH_PLAIN ? "plain" : p == ORACLE_PATH_FAST ? "fast" : "auto";
}

static void jw_shape(ll_jw *w, const char *key, const char *file, const char *dtype, const int64_t *dims, int n) {
  ll_jw_key(w, key);
  ll_jw_obj_begin(w);
  ll_jw_key(w, "file"); ll_jw_str(w, file);
  ll_jw_key(w, "dtype"); ll_jw_str(w, dtype);
  ll_jw_key(w, "shape");
  ll_jw_arr_begin(w);
  for (int i = 0; i < n; i++) ll_jw_int(w, dims[i]);
  ll_jw_arr_end(w);
  ll_jw_obj_end(w);
}

static bool write_in(const char *dir, const char *name, const void *d, size_t n, ll_err *err) {
  char *p = ll_path_join(dir, name);
  bool ok = ll_write_file_atomic(p, d, n, err);
  free(p);
  return ok;
}

bool oracle_attention_write(const oracle_attention_spec *s, const float *o, const float *lse,
                            const oracle_attention_info *info, const char *dir, ll_err *err) {
  if (!ll_mkdir_p(dir, err)) return false;
  int64_t tq = oracle_attention_total_q(s), Hq = s->num_qo_heads, D = s->head_dim;
  size_t no = (size_t)(tq * Hq * D), nl = (size_t)(tq * Hq), es = oracle_dtype_size(s->dtype);
  if (!write_in(dir, "o.bin", o, no * 4, err) || !write_in(dir, "lse.bin", lse, nl * 4, err)) return false;
  char *rname = ll_fmt("o_%s.bin", oracle_dtype_name(s->dtype));
  if (s->round_output) {
    void *r = ll_xmalloc((no ? no : 1) * es);
    oracle_from_f32(s->dtype, o, r, no);
    bool ok = write_in(dir, rname, r, no * es, err);
    free(r);
    if (!ok) { free(rname); return false; }
  }
  size_t nq = (size_t)oracle_attention_q_elems(s), nkv = (size_t)oracle_attention_kv_elems(s);
  if (s->has_seed && (!write_in(dir, "q.bin", s->q, nq * es, err) || !write_in(dir, "k.bin", s->k, nkv * es, err) ||
                      !write_in(dir, "v.bin", s->v, nkv * es, err))) {
    free(rname);
    return false;
  }
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab oracle attention; do not edit");
  static const char *kinds[] = {"single", "ragged", "paged"};
  ll_jw_key(&w, "kind"); ll_jw_str(&w, kinds[s->kind]);
  ll_jw_key(&w, "dtype"); ll_jw_str(&w, oracle_dtype_name(s->dtype));
  ll_jw_key(&w, "batch"); ll_jw_int(&w, s->batch);
  ll_jw_key(&w, "num_qo_heads"); ll_jw_int(&w, Hq);
  ll_jw_key(&w, "num_kv_heads"); ll_jw_int(&w, s->num_kv_heads);
  ll_jw_key(&w, "head_dim"); ll_jw_int(&w, D);
  ll_jw_key(&w, "total_q"); ll_jw_int(&w, tq);
  ll_jw_key(&w, "sm_scale"); ll_jw_num(&w, oracle_attention_sm_scale(s));
  ll_jw_key(&w, "causal"); ll_jw_bool(&w, s->causal);
  ll_jw_key(&w, "window_left"); ll_jw_int(&w, s->window_left);
  ll_jw_key(&w, "logits_soft_cap"); ll_jw_num(&w, s->logits_soft_cap);
  ll_jw_key(&w, "custom_mask"); ll_jw_bool(&w, s->custom_mask != NULL);
  int64_t od[3] = {tq, Hq, D};
  jw_shape(&w, "o", "o.bin", "f32", od, 3);
  jw_shape(&w, "lse", "lse.bin", "f32", od, 2);
  ll_jw_key(&w, "lse_base"); ll_jw_int(&w, 2);
  if (s->round_output) jw_shape(&w, "o_rounded", rname, oracle_dtype_name(s->dtype), od, 3);
  if (s->has_seed) {
    ll_jw_key(&w, "seed"); ll_jw_uint(&w, s->seed);
    int64_t qd[3] = {oracle_attention_total_q(s), Hq, D};
    jw_shape(&w, "q", "q.bin", oracle_dtype_name(s->dtype), qd, 3);
    int64_t kd[4];
    int nk = 3;
    if (s->kind == ORACLE_PAGED) {
      kd[0] = oracle_attention_num_pages(s);
      kd[1] = s->layout == ORACLE_NHD ? s->page_size : s->num_kv_heads;
      kd[2] = s->layout == ORACLE_NHD ? s->num_kv_heads : s->page_size;
      kd[3] = D;
      nk = 4;
    } else {
      kd[0] = s->kv_indptr[s->batch];
      kd[1] = s->num_kv_heads;
      kd[2] = D;
    }
    jw_shape(&w, "k", "k.bin", oracle_dtype_name(s->dtype), kd, nk);
    jw_shape(&w, "v", "v.bin", oracle_dtype_name(s->dtype), kd, nk);
  }
  if (info) {
    ll_jw_key(&w, "path"); ll_jw_str(&w, path_name(info->path));
    ll_jw_key(&w, "threads"); ll_jw_int(&w, info->threads);
    ll_jw_key(&w, "kernel"); ll_jw_str(&w, info->kernel ? info->kernel : "?");
    ll_jw_key(&w, "seconds"); ll_jw_num(&w, info->seconds);
    ll_jw_key(&w, "gflop"); ll_jw_num(&w, info->flops * 1e-9);
  }
  ll_jw_obj_end(&w);
  ll_buf_puts(&b, "\n");
  bool ok = write_in(dir, "meta.json", b.data, b.len, err);
  ll_buf_free(&b);
  free(rname);
  return ok;
}
