/* Tests for util/: JSON reader/writer, atomic files, number parsing. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "table/table.h"
#include "tests/tmpdir.h"
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
  char *dir = tt_dir("util");
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
  free(d); free(f); free(sub); free(dn); free(dir);
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

/* ---- output paths (issue #12): never clobber what is not ours ------------------------------------
 * Each case gives ll_write_file_atomic (or the check/write pair) an output path it must refuse or
 * write through, and then checks from the file system itself (lstat, the bytes on disk) that the
 * previous content survived. We are root in CI: a device node is made with mknod in a private
 * directory (char 1,3 is the null device on Linux: Documentation/admin-guide/devices.txt). */
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

static char *scratch(void) {
  return tt_dir("util-out");
}
static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}
/* The file's bytes as a string, read without lanelab's reader. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s: %s", path, strerror(errno));
  static char b[4096];
  size_t n = fread(b, 1, sizeof b - 1, f);
  b[n] = 0;
  fclose(f);
  return ll_xstrdup(b);
}
/* The directory holds exactly `want` entries (no temporary file left behind). */
static void entries_are(const char *dir, int want) {
  char *cmd = ll_fmt("test $(ls -A %s | wc -l) -eq %d", dir, want);
  cr_expect_eq(system(cmd), 0, "%s has leftovers: %s", dir, cmd);
  free(cmd);
}
static void expect_refused(const char *path, int code, const char *why) {
  ll_err e = {0};
  cr_expect(!ll_write_file_atomic(path, "NEW", 3, &e), "wrote %s (%s)", path, why);
  cr_expect_eq(e.code, code, "%s: code %d, want %d: %s", path, e.code, code, e.msg);
  cr_expect(strstr(e.msg, why), "%s: message lacks \"%s\": %s", path, why, e.msg);
}

Test(util_out, device_fifo_socket_directory_are_refused_and_left_alone) {
  char *d = scratch();
  char *dev = ll_fmt("%s/null", d), *fifo = ll_fmt("%s/fifo", d), *sock = ll_fmt("%s/sock", d),
       *sub = ll_fmt("%s/sub", d);
  cr_assert_eq(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0, "mknod: %s (the suite runs as root)", strerror(errno));
  cr_assert_eq(mkfifo(fifo, 0666), 0);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  snprintf(a.sun_path, sizeof a.sun_path, "%s", sock);
  cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
  cr_assert_eq(mkdir(sub, 0777), 0);
  expect_refused(dev, LL_EXIT_USAGE, "a character device");
  expect_refused(fifo, LL_EXIT_USAGE, "a FIFO");
  expect_refused(sock, LL_EXIT_USAGE, "a socket");
  expect_refused(sub, LL_EXIT_USAGE, "a directory");
  struct stat st;
  cr_expect(lstat(dev, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3), "the device was replaced");
  cr_expect(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
  cr_expect(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode), "the socket was replaced");
  cr_expect(lstat(sub, &st) == 0 && S_ISDIR(st.st_mode), "the directory was replaced");
  /* a symlink to the device is refused the same way */
  char *ln = ll_fmt("%s/to-null", d);
  cr_assert_eq(symlink("null", ln), 0);
  expect_refused(ln, LL_EXIT_USAGE, "a character device");
  cr_expect(lstat(dev, &st) == 0 && S_ISCHR(st.st_mode));
  entries_are(d, 5);
  close(s);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

Test(util_out, symlinks_are_written_through_to_their_target) {
  char *d = scratch();
  char *t = ll_fmt("%s/target", d), *l1 = ll_fmt("%s/l1", d), *l2 = ll_fmt("%s/l2", d), *dang = ll_fmt("%s/dang", d),
       *dt = ll_fmt("%s/created", d);
  put(t, "OLD");
  chmod(t, 0640);
  cr_assert_eq(symlink("target", l1), 0);
  cr_assert_eq(symlink(l1, l2), 0); /* chained, absolute */
  cr_assert_eq(symlink("created", dang), 0);
  ll_err e = {0};
  cr_assert(ll_write_file_atomic(l2, "NEW", 3, &e), "%s", e.msg);
  struct stat st;
  cr_expect(lstat(l1, &st) == 0 && S_ISLNK(st.st_mode), "l1 is no longer a symlink");
  cr_expect(lstat(l2, &st) == 0 && S_ISLNK(st.st_mode), "l2 is no longer a symlink");
  cr_expect(lstat(t, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0640, "target mode %o",
            st.st_mode & 07777);
  cr_expect_str_eq(slurp(t), "NEW");
  /* a dangling symlink creates its target */
  cr_assert(ll_write_file_atomic(dang, "D", 1, &e), "%s", e.msg);
  cr_expect(lstat(dang, &st) == 0 && S_ISLNK(st.st_mode));
  cr_expect_str_eq(slurp(dt), "D");
  entries_are(d, 5);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

Test(util_out, a_symlink_never_leads_into_a_directory_not_named) {
  char *d = scratch(), *other = scratch();
  char *victim = ll_fmt("%s/victim", other), *ln = ll_fmt("%s/out.bin", d), *loop = ll_fmt("%s/loop", d);
  char *dang = ll_fmt("%s/dang", d);
  put(victim, "OLD");
  cr_assert_eq(symlink(victim, ln), 0);
  expect_refused(ln, LL_EXIT_USAGE, "leads out of the directory you named");
  cr_expect_str_eq(slurp(victim), "OLD");
  /* dangling into another directory: nothing is created there */
  char *ghost = ll_fmt("%s/ghost", other);
  cr_assert_eq(symlink(ghost, dang), 0);
  expect_refused(dang, LL_EXIT_USAGE, "leads out of the directory you named");
  cr_expect_neq(access(ghost, F_OK), 0, "the write created %s", ghost);
  /* a symlink loop */
  cr_assert_eq(symlink("loop", loop), 0);
  expect_refused(loop, LL_EXIT_USAGE, "symlinks");
  /* naming the target itself is fine */
  ll_err e = {0};
  cr_expect(ll_write_file_atomic(victim, "NEW", 3, &e), "%s", e.msg);
  cr_expect_str_eq(slurp(victim), "NEW");
  entries_are(d, 3);
  entries_are(other, 1);
  char *rm = ll_fmt("rm -rf %s %s", d, other);
  system(rm);
}

Test(util_out, read_only_target_and_directory_change_between_check_and_write) {
  char *d = scratch();
  char *ro = ll_fmt("%s/ro", d);
  put(ro, "OLD");
  chmod(ro, 0444);
  expect_refused(ro, LL_EXIT_USAGE, "read-only");
  cr_expect_str_eq(slurp(ro), "OLD");
  /* checked, then its directory is moved away and replaced by another one */
  char *sub = ll_fmt("%s/sub", d), *moved = ll_fmt("%s/moved", d), *f = ll_fmt("%s/sub/f", d);
  cr_assert_eq(mkdir(sub, 0777), 0);
  put(f, "OLD");
  ll_outpath o;
  ll_err e = {0};
  cr_assert(ll_out_check(f, &o, &e), "%s", e.msg);
  cr_assert_eq(rename(sub, moved), 0);
  cr_assert_eq(mkdir(sub, 0777), 0);
  cr_expect(!ll_out_write(&o, "NEW", 3, &e), "wrote into a directory that replaced the checked one");
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  cr_expect(strstr(e.msg, "changed since it was checked"), "%s", e.msg);
  char *mf = ll_fmt("%s/moved/f", d);
  cr_expect_str_eq(slurp(mf), "OLD");
  entries_are(sub, 0);
  entries_are(moved, 1);
  /* checked, then the file is replaced by a FIFO */
  ll_outpath o2;
  char *g = ll_fmt("%s/g", d);
  put(g, "OLD");
  cr_assert(ll_out_check(g, &o2, &e), "%s", e.msg);
  unlink(g);
  cr_assert_eq(mkfifo(g, 0666), 0);
  cr_expect(!ll_out_write(&o2, "NEW", 3, &e));
  struct stat st;
  cr_expect(lstat(g, &st) == 0 && S_ISFIFO(st.st_mode));
  ll_out_free(&o);
  ll_out_free(&o2);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

/* A full disk: a 64 KiB tmpfs when this process may mount one (root in CI), else an injected
 * ENOSPC; either way the write fails as LL_EXIT_ENV and the old content survives, with no
 * temporary file left. A read-only mount is refused before writing. */
Test(util_out, full_disk_and_read_only_file_system_keep_the_old_content) {
  char *d = scratch();
  bool mounted = mount("tmpfs", d, "tmpfs", 0, "size=64k") == 0;
  char *f = ll_fmt("%s/f", d);
  put(f, "OLD");
  size_t big = 256 * 1024;
  char *data = ll_xcalloc(big, 1);
  if (!mounted) ll_test_write_errno = ENOSPC;
  ll_err e = {0};
  cr_expect(!ll_write_file_atomic(f, data, big, &e), "256 KiB fit in a 64 KiB tmpfs");
  ll_test_write_errno = 0;
  cr_expect_eq(e.code, LL_EXIT_ENV, "%s", e.msg);
  cr_expect(strstr(e.msg, strerror(ENOSPC)), "%s", e.msg);
  cr_expect_str_eq(slurp(f), "OLD");
  entries_are(d, 1);
  if (mounted) {
    cr_assert_eq(mount(NULL, d, NULL, MS_REMOUNT | MS_RDONLY, NULL), 0, "remount ro: %s", strerror(errno));
    expect_refused(f, LL_EXIT_USAGE, "read-only file system");
    cr_expect_str_eq(slurp(f), "OLD");
    cr_assert_eq(umount(d), 0);
  }
  free(data);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

/* ---- bounded reads ------------------------------------------------------------------------------ */
Test(util_read, non_regular_inputs_are_refused_unless_sized) {
  char *d = scratch();
  char *fifo = ll_fmt("%s/fifo", d);
  cr_assert_eq(mkfifo(fifo, 0666), 0);
  ll_err e = {0};
  size_t n;
  cr_expect_null(ll_read_file("/dev/zero", &n, &e));
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  cr_expect(strstr(e.msg, "a character device"), "%s", e.msg);
  cr_expect_null(ll_read_file(fifo, &n, &e)); /* returns at once: no writer is waited for */
  cr_expect(strstr(e.msg, "a FIFO"), "%s", e.msg);
  cr_expect_null(ll_read_file(d, &n, &e));
  cr_expect(strstr(e.msg, "a directory"), "%s", e.msg);
  /* stated size: exactly that many bytes from a device */
  unsigned char *z = ll_read_exact("/dev/zero", 4096, &e);
  cr_assert_not_null(z, "%s", e.msg);
  for (int i = 0; i < 4096; i++) cr_assert_eq(z[i], 0);
  free(z);
  /* ...from a FIFO with a writer */
  char *cmd = ll_fmt("printf 'abcdef' > %s &", fifo);
  system(cmd);
  char *ab = ll_read_exact(fifo, 4, &e);
  cr_assert_not_null(ab, "%s", e.msg);
  cr_expect(memcmp(ab, "abcd", 4) == 0);
  /* a source shorter than stated */
  char *small = ll_fmt("%s/small", d);
  put(small, "xy");
  cr_expect_null(ll_read_exact(small, 3, &e));
  cr_expect(strstr(e.msg, "ended after 2 of the 3 bytes"), "%s", e.msg);
  cr_expect_null(ll_read_exact(d, 3, &e));
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

Test(util_read, a_file_over_the_cap_is_refused_before_it_is_read) {
  char *d = scratch();
  char *f = ll_fmt("%s/sparse", d);
  int fd = open(f, O_CREAT | O_WRONLY, 0644);
  cr_assert_geq(fd, 0);
  cr_assert_eq(ftruncate(fd, (off_t)LL_CAP_DATA + 1), 0); /* sparse: no disk used */
  close(fd);
  ll_err e = {0};
  size_t n;
  cr_expect_null(ll_read_file_max(f, LL_CAP_DATA, &n, &e));
  cr_expect_eq(e.code, LL_EXIT_USAGE);
  char *want = ll_fmt("%llu bytes, more than the %llu bytes", (unsigned long long)LL_CAP_DATA + 1,
                      (unsigned long long)LL_CAP_DATA);
  cr_expect(strstr(e.msg, want), "%s", e.msg);
  /* the default cap of ll_read_file is LL_CAP_TEXT */
  fd = open(f, O_WRONLY | O_TRUNC);
  cr_assert_eq(ftruncate(fd, (off_t)LL_CAP_TEXT + 1), 0);
  close(fd);
  cr_expect_null(ll_read_file(f, &n, &e));
  cr_expect(strstr(e.msg, "more than"), "%s", e.msg);
  /* exactly at the cap is fine */
  fd = open(f, O_WRONLY | O_TRUNC);
  cr_assert_eq(ftruncate(fd, 5), 0);
  close(fd);
  void *p = ll_read_file_max(f, 5, &n, &e);
  cr_expect_not_null(p, "%s", e.msg);
  cr_expect_eq(n, 5);
  free(p);
  char *rm = ll_fmt("rm -rf %s", d);
  system(rm);
}

/* ll_rm_tree removes a folder and everything under it, and never follows a symlink: neither one
 * inside the folder nor the path itself when it is one. */
Test(util_files, rm_tree_removes_everything_and_follows_no_symlink) {
  char *d = tt_dir("util-rmtree"), *tree = ll_fmt("%s/tree", d), *deep = ll_fmt("%s/tree/a/b", d),
       *outside = ll_fmt("%s/outside", d), *keep = ll_fmt("%s/outside/keep.txt", d);
  cr_assert(ll_mkdir_p(deep, NULL) && ll_mkdir_p(outside, NULL));
  put(keep, "kept");
  char *f = ll_fmt("%s/x.txt", deep), *l1 = ll_fmt("%s/tree/a/to-dir", d), *l2 = ll_fmt("%s/tree/to-file", d),
       *top = ll_fmt("%s/link-to-outside", d);
  put(f, "x");
  cr_assert(symlink(outside, l1) == 0 && symlink(keep, l2) == 0 && symlink(outside, top) == 0);
  ll_rm_tree(tree);
  cr_expect_neq(access(tree, F_OK), 0, "the tree is still there");
  ll_rm_tree(top);
  struct stat st;
  cr_expect_neq(lstat(top, &st), 0, "the symlink itself is still there");
  cr_expect_eq(access(keep, F_OK), 0, "a file reached through a symlink was removed");
  free(d), free(tree), free(deep), free(outside), free(keep), free(f), free(l1), free(l2), free(top);
}
