/* oracle/concat — concat_mla_q (vLLM): q_out[t, h, :] = q_nope[t, h, 0:512] ++ q_pe[t, h, 0:64].
 * A copy of 16-bit patterns: never converted, so NaN payloads, -0 and subnormals come through
 * bit for bit. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/oracle.h"

/* Saturates at INT64_MAX: within the spec limits (T <= 2^31, strides <= 2^40) the true extent can
 * reach 2^71, and the plain products overflowed (found by fuzz/fuzz_spec). With wrapping, T =
 * 2^24 + 1 and stride_t = 2^40 gave an extent of 512, so validate passed a 512-element buffer
 * for a view that reads 2^64 elements past it. No buffer holds INT64_MAX elements, so a
 * saturated extent is always refused. */
int64_t oracle_concat_extent(int64_t T, int64_t H, int64_t st, int64_t sh, int64_t inner) {
  if (T <= 0 || H <= 0) return 0;
  int64_t a, b, r;
  if (__builtin_mul_overflow(T - 1, st, &a) || __builtin_mul_overflow(H - 1, sh, &b) ||
      __builtin_add_overflow(a, b, &r) || __builtin_add_overflow(r, inner, &r))
    return INT64_MAX;
  return r;
}

#define LIM_T (1LL << 31)
#define LIM_H 65536
#define LIM_STRIDE (1LL << 40)

bool oracle_concat_validate(const oracle_concat_spec *s, ll_err *err) {
  if (s->dtype != ORACLE_F16 && s->dtype != ORACLE_BF16) {
    ll_seterr(err, LL_EXIT_USAGE, "dtype: concat_mla_q takes f16 or bf16, not %s", oracle_dtype_name(s->dtype));
    return false;
  }
  if (s->T < 0 || s->T > LIM_T) {
    ll_seterr(err, LL_EXIT_USAGE, "T (%lld) must be in 0..%lld", (long long)s->T, (long long)LIM_T);
    return false;
  }
  if (s->H < 1 || s->H > LIM_H) {
    ll_seterr(err, LL_EXIT_USAGE, "H (%lld) must be in 1..%d", (long long)s->H, LIM_H);
    return false;
  }
  const int64_t st[4] = {s->nope_stride_t, s->nope_stride_h, s->pe_stride_t, s->pe_stride_h};
  for (int i = 0; i < 4; i++)
    if (st[i] < 1 || st[i] > LIM_STRIDE) {
      ll_seterr(err, LL_EXIT_USAGE, "%s[%d] (%lld) must be in 1..%lld", i < 2 ? "q_nope_strides" : "q_pe_strides", i % 2,
                (long long)st[i], (long long)LIM_STRIDE);
      return false;
    }
  int64_t en = oracle_concat_extent(s->T, s->H, s->nope_stride_t, s->nope_stride_h, ORACLE_MLA_NOPE);
  int64_t ep = oracle_concat_extent(s->T, s->H, s->pe_stride_t, s->pe_stride_h, ORACLE_MLA_PE);
  if ((s->q_nope || s->T > 0) && (int64_t)s->q_nope_elems < en) {
    ll_seterr(err, LL_EXIT_USAGE, "q_nope: %zu elements, but T %lld, H %lld and strides [%lld, %lld] read %lld",
              s->q_nope_elems, (long long)s->T, (long long)s->H, (long long)s->nope_stride_t, (long long)s->nope_stride_h,
              (long long)en);
    return false;
  }
  if ((s->q_pe || s->T > 0) && (int64_t)s->q_pe_elems < ep) {
    ll_seterr(err, LL_EXIT_USAGE, "q_pe: %zu elements, but T %lld, H %lld and strides [%lld, %lld] read %lld",
              s->q_pe_elems, (long long)s->T, (long long)s->H, (long long)s->pe_stride_t, (long long)s->pe_stride_h,
              (long long)ep);
    return false;
  }
  return true;
}

bool oracle_concat_mla_q(const oracle_concat_spec *s, uint16_t *out, ll_err *err) {
  if (!oracle_concat_validate(s, err)) return false;
  for (int64_t t = 0; t < s->T; t++)
    for (int64_t h = 0; h < s->H; h++) {
      uint16_t *o = out + (t * s->H + h) * ORACLE_MLA_OUT;
      memcpy(o, s->q_nope + t * s->nope_stride_t + h * s->nope_stride_h, ORACLE_MLA_NOPE * 2);
      memcpy(o + ORACLE_MLA_NOPE, s->q_pe + t * s->pe_stride_t + h * s->pe_stride_h, ORACLE_MLA_PE * 2);
    }
  return true;
}

void oracle_concat_spec_free(oracle_concat_spec *s) {
  if (!s || !s->owns) return;
  free(s->q_nope);
  free(s->q_pe);
  free(s->q_nope_file);
  free(s->q_pe_file);
  free(s);
}

static const char *const concat_keys[] = {"T", "H", "dtype", "q_nope", "q_pe", "q_nope_strides", "q_pe_strides",
                                          "seed", "comment", NULL};

static int get_strides(const ll_json *r, const char *key, int64_t *st, int64_t *sh, ll_err *err) {
  const ll_json *j = ll_json_get(r, key);
  if (!j) return 0;
  if (j->type != LL_JARR || j->n != 2) {
    ll_seterr(err, LL_EXIT_USAGE, "%s (line %d): expected [stride_t, stride_h] in elements, found %s", key, j->line,
              j->type == LL_JARR ? "an array of another length" : ll_json_type_name(j->type));
    return -1;
  }
  int64_t v[2];
  for (int i = 0; i < 2; i++) {
    const ll_json *e = j->items[i];
    if (e->type != LL_JNUM || !e->is_int || e->i < 1 || e->i > LIM_STRIDE) {
      ll_seterr(err, LL_EXIT_USAGE, "%s[%d] (line %d): expected an integer in 1..%lld", key, i, e->line, (long long)LIM_STRIDE);
      return -1;
    }
    v[i] = e->i;
  }
  *st = v[0];
  *sh = v[1];
  return 1;
}

oracle_concat_spec *oracle_concat_spec_parse(const char *json, size_t len, ll_err *err) {
  ll_json *r = ll_json_parse(json, len, err);
  if (!r) return NULL;
  oracle_concat_spec *s = ll_xcalloc(1, sizeof *s);
  s->owns = true;
  const char *str;
  int64_t v;
  if (!oracle__check_keys(r, concat_keys, err)) goto bad;
  if (oracle__get_str(r, "comment", false, &str, err) < 0) goto bad;
  if (oracle__get_str(r, "dtype", true, &str, err) < 0) goto bad;
  if (!oracle_dtype_parse(str, &s->dtype) || s->dtype == ORACLE_F32) {
    ll_seterr(err, LL_EXIT_USAGE, "dtype: '%s' is not f16 or bf16", str);
    goto bad;
  }
  if (oracle__get_int(r, "T", true, 0, LIM_T, &s->T, err) < 0) goto bad;
  if (oracle__get_int(r, "H", true, 1, LIM_H, &s->H, err) < 0) goto bad;
  s->nope_stride_h = ORACLE_MLA_NOPE;
  s->nope_stride_t = s->H * ORACLE_MLA_NOPE;
  s->pe_stride_h = ORACLE_MLA_PE;
  s->pe_stride_t = s->H * ORACLE_MLA_PE;
  if (get_strides(r, "q_nope_strides", &s->nope_stride_t, &s->nope_stride_h, err) < 0) goto bad;
  if (get_strides(r, "q_pe_strides", &s->pe_stride_t, &s->pe_stride_h, err) < 0) goto bad;
  int have = 0, g;
  if ((g = oracle__get_str(r, "q_nope", false, &str, err)) < 0) goto bad;
  if (g) { s->q_nope_file = ll_xstrdup(str); have++; }
  if ((g = oracle__get_str(r, "q_pe", false, &str, err)) < 0) goto bad;
  if (g) { s->q_pe_file = ll_xstrdup(str); have++; }
  if ((g = oracle__get_int(r, "seed", false, 0, INT64_MAX, &v, err)) < 0) goto bad;
  s->has_seed = g == 1;
  s->seed = (uint64_t)v;
  if (s->has_seed && have) {
    ll_seterr(err, LL_EXIT_USAGE, "seed: give either seed or the q_nope and q_pe files, not both");
    goto bad;
  }
  if (!s->has_seed && have != 2) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: missing; q_nope and q_pe files are required unless seed is given",
              s->q_nope_file ? "q_pe" : "q_nope");
    goto bad;
  }
  /* sizes are checked once the buffers exist */
  oracle_concat_spec chk = *s;
  chk.T = 0;
  if (!oracle_concat_validate(&chk, err)) goto bad;
  ll_json_free(r);
  return s;
bad:
  ll_json_free(r);
  oracle_concat_spec_free(s);
  return NULL;
}

oracle_concat_spec *oracle_concat_spec_load(const char *path, ll_err *err) {
  size_t len;
  char *text = ll_read_file(path, &len, err);
  if (!text) return NULL;
  oracle_concat_spec *s = oracle_concat_spec_parse(text, len, err);
  free(text);
  if (!s) {
    ll_err_prefix(err, "spec %s", path);
    return NULL;
  }
  if (s->has_seed) {
    /* raw random 16-bit patterns (NaNs, infinities, subnormals included): the copy must be
     * bit-exact whatever the bits are */
    uint64_t st = s->seed;
    s->q_nope_elems = (size_t)oracle_concat_extent(s->T, s->H, s->nope_stride_t, s->nope_stride_h, ORACLE_MLA_NOPE);
    s->q_pe_elems = (size_t)oracle_concat_extent(s->T, s->H, s->pe_stride_t, s->pe_stride_h, ORACLE_MLA_PE);
    if (s->q_nope_elems > (1ull << 34) || s->q_pe_elems > (1ull << 34)) {
      ll_seterr(err, LL_EXIT_USAGE, "spec %s: T, H and strides describe more than 2^34 elements to generate", path);
      oracle_concat_spec_free(s);
      return NULL;
    }
    /* Within that limit a shape can still need more memory than the machine has, and an
     * allocation failure aborts the process ({"T": 29000000, "H": 1, "seed": 1} died with
     * SIGABRT): the generated inputs and the [T, H, 576] output are all 16-bit. */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double need = 2.0 * ((double)s->q_nope_elems + (double)s->q_pe_elems + (double)s->T * (double)s->H * 576.0);
    if (pages > 0 && page > 0 && need > (double)pages * (double)page) {
      ll_seterr(err, LL_EXIT_USAGE, "spec %s: T = %lld, H = %lld need at least %.1f GiB of host memory for the "
                "generated inputs and the output; this machine has %.1f GiB", path, (long long)s->T, (long long)s->H,
                need / 1073741824.0, (double)pages * (double)page / 1073741824.0);
      oracle_concat_spec_free(s);
      return NULL;
    }
    s->q_nope = ll_xmalloc(s->q_nope_elems * 2 + 2);
    s->q_pe = ll_xmalloc(s->q_pe_elems * 2 + 2);
    for (size_t i = 0; i < s->q_nope_elems; i++) s->q_nope[i] = (uint16_t)ll_splitmix64(&st);
    for (size_t i = 0; i < s->q_pe_elems; i++) s->q_pe[i] = (uint16_t)ll_splitmix64(&st);
  } else {
    char *dir = ll_dirname(path);
    char *fn[2] = {s->q_nope_file, s->q_pe_file};
    uint16_t **dst[2] = {&s->q_nope, &s->q_pe};
    size_t *ne[2] = {&s->q_nope_elems, &s->q_pe_elems};
    for (int i = 0; i < 2; i++) {
      char *p = ll_path_join(dir, fn[i]);
      size_t n;
      *dst[i] = ll_read_file_max(p, LL_CAP_DATA, &n, err);
      free(p);
      if (!*dst[i]) {
        ll_err_prefix(err, "spec %s: %s", path, i ? "q_pe" : "q_nope");
        free(dir);
        oracle_concat_spec_free(s);
        return NULL;
      }
      if (n % 2) {
        ll_seterr(err, LL_EXIT_USAGE, "spec %s: %s: file %s has %zu bytes, not a whole number of 16-bit elements", path,
                  i ? "q_pe" : "q_nope", fn[i], n);
        free(dir);
        oracle_concat_spec_free(s);
        return NULL;
      }
      *ne[i] = n / 2;
    }
    free(dir);
  }
  if (!oracle_concat_validate(s, err)) {
    ll_err_prefix(err, "spec %s", path);
    oracle_concat_spec_free(s);
    return NULL;
  }
  return s;
}

static bool write_in(const char *dir, const char *name, const void *d, size_t n, ll_err *err) {
  char *p = ll_path_join(dir, name);
  bool ok = ll_write_file_atomic(p, d, n, err);
  free(p);
  return ok;
}

bool oracle_concat_write(const oracle_concat_spec *s, const uint16_t *out, double seconds, const char *dir,
                         ll_err *err) {
  if (!ll_mkdir_p(dir, err)) return false;
  if (!write_in(dir, "q_out.bin", out, (size_t)(s->T * s->H * ORACLE_MLA_OUT) * 2, err)) return false;
  if (s->has_seed && (!write_in(dir, "q_nope.bin", s->q_nope, s->q_nope_elems * 2, err) ||
                      !write_in(dir, "q_pe.bin", s->q_pe, s->q_pe_elems * 2, err)))
    return false;
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "generated_by"); ll_jw_str(&w, "lanelab oracle concat-mla-q; do not edit");
  ll_jw_key(&w, "dtype"); ll_jw_str(&w, oracle_dtype_name(s->dtype));
  ll_jw_key(&w, "T"); ll_jw_int(&w, s->T);
  ll_jw_key(&w, "H"); ll_jw_int(&w, s->H);
  ll_jw_key(&w, "q_out");
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "file"); ll_jw_str(&w, "q_out.bin");
  ll_jw_key(&w, "shape"); ll_jw_arr_begin(&w); ll_jw_int(&w, s->T); ll_jw_int(&w, s->H); ll_jw_int(&w, ORACLE_MLA_OUT); ll_jw_arr_end(&w);
  ll_jw_obj_end(&w);
  ll_jw_key(&w, "q_nope_strides"); ll_jw_arr_begin(&w); ll_jw_int(&w, s->nope_stride_t); ll_jw_int(&w, s->nope_stride_h); ll_jw_arr_end(&w);
  ll_jw_key(&w, "q_pe_strides"); ll_jw_arr_begin(&w); ll_jw_int(&w, s->pe_stride_t); ll_jw_int(&w, s->pe_stride_h); ll_jw_arr_end(&w);
  if (s->has_seed) {
    ll_jw_key(&w, "seed"); ll_jw_uint(&w, s->seed);
    ll_jw_key(&w, "q_nope_file"); ll_jw_str(&w, "q_nope.bin");
    ll_jw_key(&w, "q_pe_file"); ll_jw_str(&w, "q_pe.bin");
  }
  ll_jw_key(&w, "seconds"); ll_jw_num(&w, seconds);
  ll_jw_obj_end(&w);
  ll_buf_puts(&b, "\n");
  bool ok = write_in(dir, "meta.json", b.data, b.len, err);
  ll_buf_free(&b);
  return ok;
}
