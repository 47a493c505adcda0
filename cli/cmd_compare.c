/* cli/cmd_compare — `lanelab compare GOT REF --dtype T [--shape D0,D1,..] [--atol A] [--rtol R]
 *                    [--format text|json] [--lanes[=ROWS]] [--max-bytes N]`
 * Only parses arguments: the comparison, its rules and both renderings are oracle/compare.c's
 * (oracle.h, "compare"), so manifests and tests run the same code. Exit 0 every element within
 * tolerance, 1 some over, 2 bad usage or a size that does not match the shape/dtype. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "oracle/oracle.h"
#include "util/util.h"

static const char *usage =
    "usage: lanelab compare GOT REF --dtype f32|f16|bf16|f64|i64|u64|i32|u32|i16|u16|i8|u8|fp8_e4m3|fp8_e5m2|fp8_e4m3_fnuz|fp8_e5m2_fnuz [--shape D0,D1,..]\n"
    "                       [--atol A] [--rtol R] [--format text|json] [--lanes[=ROWS]] [--max-bytes N]";

int cmd_compare(int argc, char **argv) {
  ll_err err = {0};
  const char *pos[2], *dtype = NULL, *shape = NULL, *atol_s = NULL, *rtol_s = NULL, *format = "text";
  int npos = 0;
  bool lanes = false;
  uint64_t lane_rows = 0, max_bytes = ORACLE_COMPARE_MAX_BYTES;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s\n", usage);
      return LL_EXIT_OK;
    }
    if (!strcmp(a, "--lanes")) { lanes = true; continue; }
    if (!strncmp(a, "--lanes=", 8)) {
      lanes = true;
      if (!ll_parse_u64(a + 8, &lane_rows) || lane_rows == 0 || lane_rows > 65536) {
        ll_seterr(&err, LL_EXIT_USAGE, "--lanes=ROWS '%s': expected the dwords per lane of one wave (1..65536)", a + 8);
        return ll_report(&err);
      }
      continue;
    }
    const char **slot = !strcmp(a, "--dtype") ? &dtype : !strcmp(a, "--shape") ? &shape :
                        !strcmp(a, "--atol") ? &atol_s : !strcmp(a, "--rtol") ? &rtol_s :
                        !strcmp(a, "--format") ? &format : NULL;
    if (slot || !strcmp(a, "--max-bytes")) {
      if (i + 1 >= argc) {
        ll_seterr(&err, LL_EXIT_USAGE, "%s needs a value\n%s", a, usage);
        return ll_report(&err);
      }
      const char *v = argv[++i];
      if (slot) *slot = v;
      else if (!ll_parse_u64(v, &max_bytes) || max_bytes == 0 || max_bytes > SIZE_MAX / 2) {
        ll_seterr(&err, LL_EXIT_USAGE, "--max-bytes '%s': expected a positive byte count", v);
        return ll_report(&err);
      }
    } else if (a[0] == '-' && a[1]) {
      ll_seterr(&err, LL_EXIT_USAGE, "compare: unknown option '%s'\n%s", a, usage);
      return ll_report(&err);
    } else if (npos < 2) {
      pos[npos++] = a;
    } else {
      ll_seterr(&err, LL_EXIT_USAGE, "compare: unexpected argument '%s'\n%s", a, usage);
      return ll_report(&err);
    }
  }
  if (npos < 2 || !dtype) {
    ll_seterr(&err, LL_EXIT_USAGE, "compare needs GOT, REF and --dtype\n%s", usage);
    return ll_report(&err);
  }
  oracle_etype t;
  if (!oracle_etype_parse(dtype, &t)) {
    ll_seterr(&err, LL_EXIT_USAGE, "--dtype '%s': expected f32, f16, bf16, f64, i64, u64, i32, u32, i16, u16, i8, u8, "
              "fp8_e4m3, fp8_e5m2, fp8_e4m3_fnuz or fp8_e5m2_fnuz", dtype);
    return ll_report(&err);
  }
  bool json = !strcmp(format, "json");
  if (!json && strcmp(format, "text")) {
    ll_seterr(&err, LL_EXIT_USAGE, "--format '%s': expected text or json", format);
    return ll_report(&err);
  }
  oracle_compare_opts o;
  oracle_compare_opts_init(&o, t);
  o.lanes = lanes;
  o.lane_rows = lane_rows;
  if (shape && !oracle_compare_shape_parse(shape, &o, &err)) return ll_report(&err);
  const char *tol_s[2] = {atol_s, rtol_s}, *tol_n[2] = {"--atol", "--rtol"};
  double *tol[2] = {&o.atol, &o.rtol};
  for (int k = 0; k < 2; k++)
    if (tol_s[k] && (!ll_parse_f64(tol_s[k], tol[k]) || !(*tol[k] >= 0) || *tol[k] > 1e300)) {
      ll_seterr(&err, LL_EXIT_USAGE, "%s '%s': expected a finite number >= 0", tol_n[k], tol_s[k]);
      return ll_report(&err);
    }
  oracle_compare_result r;
  int rc = oracle_compare_files(pos[0], pos[1], &o, (size_t)max_bytes, &r, &err);
  if (rc != LL_EXIT_OK && rc != LL_EXIT_FAIL) return ll_report(&err);
  ll_buf b = {0};
  if (json) oracle_compare_json(&r, pos[0], pos[1], &b);
  else oracle_compare_text(&r, pos[0], pos[1], &b);
  fwrite(b.data, 1, b.len, stdout);
  ll_buf_free(&b);
  return rc;
}
