/* fuzz/fuzz_compare — libFuzzer harness for `lanelab compare`'s input side (oracle/compare.c):
 * the --shape parser, the size/dtype/lanes checks and the element reader of
 * oracle_compare_buffers, and both renderings. No file I/O: the reader's bytes come from the input.
 *
 * Input layout: byte 0 picks the dtype (mod 10), byte 1 the options (bit 0 --lanes, bits 1-3
 * ROWS 0..7, bit 4 a tolerance of 0 instead of the default, bit 5 no --shape), bytes 2-3 (little-
 * endian) GOT's length; then a --shape text up to the first '\n' (at most 64 bytes); the rest is GOT then REF.
 * For any bytes:
 *   - oracle_compare_shape_parse accepts or refuses with LL_EXIT_USAGE and a message;
 *   - oracle_compare_buffers returns 0, 1 or 2 (2 with a message); with 0/1 the counts agree:
 *     over <= n, nonfinite = nan_got + nan_ref + inf_sign + inf_vs_finite <= over,
 *     nfirst = min(over, 10) and ascending flat indices whose multi-index maps back to them, each
 *     of which really is a mismatch under the stated rule, and a verdict matching over;
 *   - the text rendering ends in PASS/FAIL, and the JSON rendering parses back with the same n,
 *     over_tolerance and number of first mismatches. */
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
      fprintf(stderr, "fuzz_compare: %s: ", #c);                                                   \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
  if (n < 4) return 0;
  oracle_etype t = (oracle_etype)(data[0] % ORACLE_E_COUNT);
  uint8_t flags = data[1];
  size_t split = data[2] | (size_t)data[3] << 8;
  const uint8_t *p = data + 4;
  size_t rest = n - 4, sl = 0;
  while (sl < rest && sl < 64 && p[sl] != '\n') sl++;
  char shape[65];
  memcpy(shape, p, sl);
  shape[sl] = 0;
  if (sl < rest && p[sl] == '\n') sl++;
  p += sl;
  rest -= sl;

  oracle_compare_opts o;
  oracle_compare_opts_init(&o, t);
  o.lanes = flags & 1;
  o.lane_rows = (flags >> 1) & 7;
  if (flags & 16) o.atol = o.rtol = 0;
  if (!(flags & 32)) {
    ll_err es = {0};
    oracle_compare_opts o2 = o;
    if (!oracle_compare_shape_parse(shape, &o2, &es))
      CHECK(es.code == LL_EXIT_USAGE && es.msg[0], "shape '%s' refused with code %d", shape, es.code);
    else {
      CHECK(o2.ndims >= 1 && o2.ndims <= ORACLE_COMPARE_MAX_DIMS, "ndims %zu", o2.ndims);
      o = o2;
    }
  }
  size_t gn = split <= rest ? split : rest;
  const uint8_t *g = p, *r = p + gn;
  size_t rn = rest - gn;

  oracle_compare_result res;
  ll_err e = {0};
  int rc = oracle_compare_buffers(g, gn, r, rn, &o, "GOT", "REF", &res, &e);
  CHECK(rc == LL_EXIT_OK || rc == LL_EXIT_FAIL || rc == LL_EXIT_USAGE, "rc %d", rc);
  if (rc == LL_EXIT_USAGE) {
    CHECK(e.code == LL_EXIT_USAGE && e.msg[0], "usage without a message");
    return 0;
  }
  size_t es = oracle_etype_size(t);
  CHECK(res.n * es == gn && gn == rn, "n %llu of %zu bytes, sizes %zu/%zu", (unsigned long long)res.n, es, gn, rn);
  CHECK(res.over <= res.n, "over %llu > n", (unsigned long long)res.over);
  CHECK(res.nonfinite == res.nan_got + res.nan_ref + res.inf_sign + res.inf_vs_finite && res.nonfinite <= res.over,
        "nonfinite counts");
  CHECK(res.nfirst == (res.over < ORACLE_COMPARE_FIRST ? res.over : ORACLE_COMPARE_FIRST), "nfirst %zu", res.nfirst);
  CHECK((rc == LL_EXIT_FAIL) == (res.over > 0), "rc %d with %llu over", rc, (unsigned long long)res.over);
  for (size_t i = 0; i < res.nfirst; i++) {
    const oracle_mismatch *m = &res.first[i];
    CHECK(i == 0 || m->flat > res.first[i - 1].flat, "first mismatches out of order at %zu", i);
    uint64_t f = 0;
    for (size_t d = 0; d < res.opts.ndims; d++) {
      CHECK(m->idx[d] < res.opts.dims[d], "index %zu out of its dim", d);
      f = f * res.opts.dims[d] + m->idx[d];
    }
    CHECK(f == m->flat, "multi-index maps to %llu, not %llu", (unsigned long long)f, (unsigned long long)m->flat);
    /* integers at zero tolerance compare bit for bit (a double rounds 64-bit values past 2^53
     * together: docs/oracle.md) */
    const bool exact = !oracle_etype_is_float(t) && res.opts.atol == 0 && res.opts.rtol == 0;
    bool agree = exact ? m->got_bits == m->ref_bits
                       : (isnan(m->got) && isnan(m->ref)) ||
                             (isinf(m->got) && isinf(m->ref) && (m->got > 0) == (m->ref > 0)) ||
                             (isfinite(m->got) && isfinite(m->ref) &&
                              fabs(m->got - m->ref) <= res.opts.atol + res.opts.rtol * fabs(m->ref));
    CHECK(!agree, "reported mismatch %zu agrees under the rule", i);
    if (o.lanes) CHECK(m->lane < 64 && m->byte < 4, "lane %llu byte %u", (unsigned long long)m->lane, m->byte);
  }
  ll_buf b = {0};
  oracle_compare_text(&res, "GOT", "REF", &b);
  const char *txt = ll_buf_str(&b);
  CHECK(b.len >= 5 && !strcmp(txt + b.len - 5, res.over ? "FAIL\n" : "PASS\n"), "text ends: %s", txt);
  ll_buf_free(&b);
  oracle_compare_json(&res, "GOT", "REF", &b);
  ll_err ej = {0};
  ll_json *j = ll_json_parse(b.data, b.len, &ej);
  CHECK(j, "the JSON rendering does not parse: %s\n%s", ej.msg, ll_buf_str(&b));
  const ll_json *jn = ll_json_get(j, "n"), *jo = ll_json_get(j, "over_tolerance"), *jf = ll_json_get(j, "first_mismatches");
  CHECK(jn && jn->is_int && (uint64_t)jn->i == res.n && jo && jo->is_int && (uint64_t)jo->i == res.over && jf &&
        jf->n == res.nfirst, "JSON n/over/first disagree");
  ll_json_free(j);
  ll_buf_free(&b);
  return 0;
}
