/* fuzz/fuzz_spec — libFuzzer harness for the JSON reader (util/json.c) and the two oracle spec
 * parsers built on it (oracle/spec.c, oracle/concat.c). No file I/O: *_spec_parse leave file
 * names as names (oracle.h).
 *
 * For any bytes:
 *   - ll_json_parse returns a DOM or NULL with LL_EXIT_USAGE. A DOM written back with the
 *     ll_jw writer must parse again to the same tree (types, keys, strings, booleans, integers),
 *     so reader and writer agree on everything the reader accepts.
 *   - oracle_attention_spec_parse returns a spec or NULL with LL_EXIT_USAGE; a spec it returns
 *     passes oracle_attention_validate again, and the derived sizes a caller uses to allocate
 *     (q/kv elements, flops, pages) are computed without overflow (UBSan watches).
 *   - oracle_concat_spec_parse: the same, with oracle_concat_validate and the view extents. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"
#include "util/util.h"

#define CHECK(c, ...)                                                                              \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "fuzz_spec: %s: ", #c);                                                      \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

/* Same tree? Non-integral numbers are written with %.9g (util.h: enough for a float, not a
 * double) and non-finite ones as strings, so only their being numbers is compared. */
static bool same(const ll_json *a, const ll_json *b) {
  if (a->type == LL_JNUM && !a->is_int) return !isfinite(a->num) || b->type == LL_JNUM;
  if (a->type != b->type || a->n != b->n) return false;
  switch (a->type) {
  case LL_JBOOL: return a->b == b->b;
  case LL_JNUM: return b->is_int && a->i == b->i;
  case LL_JSTR: return strcmp(a->str, b->str) == 0;
  case LL_JARR:
  case LL_JOBJ:
    for (size_t i = 0; i < a->n; i++)
      if ((a->type == LL_JOBJ && strcmp(a->keys[i], b->keys[i]) != 0) || !same(a->items[i], b->items[i]))
        return false;
    return true;
  default: return true;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
  const char *text = (const char *)data;
  ll_err err = {0};
  ll_json *j = ll_json_parse(text, n, &err);
  if (!j) {
    CHECK(err.code == LL_EXIT_USAGE && err.msg[0], "JSON refused with code %d: %s", err.code, err.msg);
  } else {
    ll_buf b = {0};
    ll_jw w;
    ll_jw_init(&w, &b);
    ll_jw_value(&w, j);
    ll_err e2 = {0};
    ll_json *j2 = ll_json_parse(b.data ? b.data : "", b.len, &e2);
    CHECK(j2, "the writer's output does not parse (%s):\n%s", e2.msg, ll_buf_str(&b));
    CHECK(same(j, j2), "the writer's output parses to another tree:\n%s", ll_buf_str(&b));
    ll_json_free(j2);
    ll_buf_free(&b);
    ll_json_free(j);
  }

  ll_err ea = {0};
  oracle_attention_spec *s = oracle_attention_spec_parse(text, n, &ea);
  if (!s) {
    CHECK(ea.code == LL_EXIT_USAGE && ea.msg[0], "attention spec refused with code %d: %s", ea.code, ea.msg);
  } else {
    ll_err ev = {0};
    /* parse() checks the mask's size only once the file is read (oracle/spec.c) */
    CHECK(oracle_attention_validate(s, &ev), "a parsed attention spec fails validate: %s", ev.msg);
    int64_t q = oracle_attention_q_elems(s), kv = oracle_attention_kv_elems(s);
    CHECK(q >= 0 && kv >= 0, "negative sizes q %lld kv %lld", (long long)q, (long long)kv);
    double f = oracle_attention_flops(s);
    CHECK(f >= 0 && isfinite(f), "flops %g", f);
    for (int b = 0; b < s->batch; b++)
      CHECK(oracle_attention_qo_len(s, b) >= 0 && oracle_attention_kv_len(s, b) >= 0, "request %d lengths", b);
    (void)oracle_attention_sm_scale(s);
    oracle_attention_spec_free(s);
  }

  ll_err ec = {0};
  oracle_concat_spec *c = oracle_concat_spec_parse(text, n, &ec);
  if (!c) {
    CHECK(ec.code == LL_EXIT_USAGE && ec.msg[0], "concat spec refused with code %d: %s", ec.code, ec.msg);
  } else {
    int64_t en = oracle_concat_extent(c->T, c->H, c->nope_stride_t, c->nope_stride_h, ORACLE_MLA_NOPE);
    int64_t ep = oracle_concat_extent(c->T, c->H, c->pe_stride_t, c->pe_stride_h, ORACLE_MLA_PE);
    CHECK(en >= 0 && ep >= 0, "extents %lld %lld", (long long)en, (long long)ep);
    oracle_concat_spec_free(c);
  }
  return 0;
}
