/* Tests for util/: JSON reader/writer, atomic files, number parsing. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "reports/table.h"
#include "util/util.h"

Test(util_json, parses_nested_values_with_lines) {
  const char *t = "{\n \"a\": [1, 2.5, -3e2],\n \"b\": {\"c\": \"x\\u00e9\\n\"},\n \"d\": null, \"e\": true}";
  ll_err e = {0};
  ll_json *j = ll_json_parse(t, strlen(t), &e);
  cr_assert_not_null(j, "%s", e.msg);
  ll_json *a = ll_json_get(j, "a");
  cr_assert_eq(a->type, LL_JARR);
  cr_assert_eq(a->n, 3);
  cr_assert(a->items[0]->is_int && a->items[0]->i == 1);
  cr_assert(!a->items[1]->is_int && a->items[1]->num == 2.5);
  cr_assert(a->items[2]->is_int && a->items[2]->i == -300);
  cr_assert_eq(a->line, 2);
  cr_assert_str_eq(ll_json_get(ll_json_get(j, "b"), "c")->str, "x\xc3\xa9\n");
  cr_assert_eq(ll_json_get(j, "d")->type, LL_JNULL);
  cr_assert(ll_json_get(j, "e")->b);
  cr_assert_null(ll_json_get(j, "zz"));
  ll_json_free(j);
}

Test(util_json, rejects_bad_input_with_line) {
  const char *bad[] = {"{\"a\":1,}", "[1 2]", "{\"a\":1,\"a\":2}", "01", "\"abc", "{} x", "", "[1,\n\n-]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ll_err e = {0};
    ll_json *j = ll_json_parse(bad[i], strlen(bad[i]), &e);
    cr_assert_null(j, "accepted %s", bad[i]);
    cr_assert_eq(e.code, LL_EXIT_USAGE);
    cr_assert(strstr(e.msg, "JSON line") != NULL, "%s", e.msg);
  }
  ll_err e = {0};
  cr_assert_null(ll_json_parse("[1,\n\n-]", 8, &e));
  cr_assert(strstr(e.msg, "line 3") != NULL, "%s", e.msg);
}

Test(util_json, writer_round_trips) {
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  ll_jw_obj_begin(&w);
  ll_jw_key(&w, "s"); ll_jw_str(&w, "q\"\\\t");
  ll_jw_key(&w, "arr"); ll_jw_arr_begin(&w); ll_jw_int(&w, -5); ll_jw_num(&w, 0.1f); ll_jw_num(&w, -INFINITY); ll_jw_arr_end(&w);
  ll_jw_key(&w, "empty"); ll_jw_obj_begin(&w); ll_jw_obj_end(&w);
  ll_jw_obj_end(&w);
  ll_err e = {0};
  ll_json *j = ll_json_parse(b.data, b.len, &e);
  cr_assert_not_null(j, "%s\n%s", e.msg, b.data);
  cr_assert_str_eq(ll_json_get(j, "s")->str, "q\"\\\t");
  ll_json *a = ll_json_get(j, "arr");
  cr_assert_eq(a->items[0]->i, -5);
  cr_assert_eq((float)a->items[1]->num, 0.1f);
  cr_assert_str_eq(a->items[2]->str, "-inf");
  cr_assert_eq(ll_json_get(j, "empty")->n, 0);
  ll_json_free(j);
  ll_buf_free(&b);
}

Test(util_files, atomic_write_and_read_back) {
  char dir[] = "/tmp/lanelab-util-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char *sub = ll_fmt("%s/a/b", dir);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(sub, &e), "%s", e.msg);
  char *f = ll_path_join(sub, "x.bin");
  cr_assert(ll_write_file_atomic(f, "hello", 5, &e), "%s", e.msg);
  size_t n;
  char *d = ll_read_file(f, &n, &e);
  cr_assert_eq(n, 5);
  cr_assert_str_eq(d, "hello");
  cr_assert_null(ll_read_file("/nonexistent/zz", &n, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(!ll_write_file_atomic("/nonexistent/dir/x", "a", 1, &e));
  char *dn = ll_dirname(f);
  cr_assert_str_eq(dn, sub);
  free(d); free(f); free(sub); free(dn);
}

Test(util_parse, numbers_whole_string_only) {
  int64_t i; uint64_t u; double d;
  cr_assert(ll_parse_i64("-12", &i) && i == -12);
  cr_assert(ll_parse_i64("0x10", &i) && i == 16);
  cr_assert(!ll_parse_i64("12x", &i));
  cr_assert(!ll_parse_u64("-1", &u));
  cr_assert(ll_parse_f64("1.5e3", &d) && d == 1500);
  cr_assert(!ll_parse_f64("", &d));
}

Test(report_table, renders_four_formats) {
  report_table *t = report_table_new("demo", "lane#,name");
  report_table_row(t, "%d\t%s", 3, "a,b");
  report_table_row(t, "%d\t%s", 12, "c|d");
  ll_buf b = {0};
  report_table_render(t, REPORT_CSV, &b);
  cr_assert_str_eq(b.data, "lane,name\n3,\"a,b\"\n12,c|d\n");
  b.len = 0;
  report_table_render(t, REPORT_MD, &b);
  cr_assert(strstr(b.data, "| 12 | c\\|d |") != NULL, "%s", b.data);
  b.len = 0;
  report_table_render(t, REPORT_JSON, &b);
  ll_err e = {0};
  ll_json *j = ll_json_parse(b.data, b.len, &e);
  cr_assert_not_null(j, "%s", e.msg);
  ll_json *rows = ll_json_get(j, "rows");
  cr_assert_eq(rows->n, 2);
  cr_assert_eq(ll_json_get(rows->items[1], "lane")->i, 12);
  cr_assert_str_eq(ll_json_get(rows->items[0], "name")->str, "a,b");
  ll_json_free(j);
  b.len = 0;
  report_table_render(t, REPORT_TEXT, &b);
  cr_assert(strstr(b.data, "  3  a,b") != NULL, "%s", b.data);
  report_format f;
  cr_assert(!report_format_parse("xml", &f, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  ll_buf_free(&b);
  report_table_free(t);
}

/* Regression (found by fuzz/fuzz_spec, input fuzz/corpus/spec/crash_jw_nesting_over_63.json):
 * the writer stopped counting depth at 63 but kept decrementing it, so closing a value nested
 * deeper than 63 levels read first[-1] and wrote broken JSON. 100 nested arrays, each level d
 * (outermost 1) holding [level d+1, d] and the innermost [100]: the structure is fixed by
 * construction, and must come back from the reader exactly. */
Test(util_json, writer_nesting_deeper_than_63_levels) {
  enum { D = 100 };
  ll_buf b = {0};
  ll_jw w;
  ll_jw_init(&w, &b);
  for (int d = 0; d < D; d++) ll_jw_arr_begin(&w);
  ll_jw_int(&w, D);
  for (int d = D; d >= 1; d--) {
    ll_jw_arr_end(&w);
    if (d > 1) ll_jw_int(&w, d - 1); /* a sibling after the closed array, at level d-1 */
  }
  ll_err e = {0};
  ll_json *j = ll_json_parse(b.data, b.len, &e);
  cr_assert_not_null(j, "%s\n%s", e.msg, b.data);
  const ll_json *a = j;
  for (int d = 1; d < D; d++) {
    cr_assert(a->type == LL_JARR && a->n == 2, "level %d: type %d, %zu items", d, a->type, a->n);
    cr_assert(a->items[1]->is_int && a->items[1]->i == d, "level %d: sibling %lld", d, (long long)a->items[1]->i);
    a = a->items[0];
  }
  cr_assert(a->type == LL_JARR && a->n == 1 && a->items[0]->i == D, "innermost level");
  ll_json_free(j);
  ll_buf_free(&b);
}
