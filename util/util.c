/* util — errors, allocation, buffers, files. */
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void ll_seterr(ll_err *err, int code, const char *fmt, ...) {
  if (!err) return;
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
}

void ll_err_prefix(ll_err *err, const char *fmt, ...) {
  if (!err) return;
  char pre[512], old[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof old);
  snprintf(err->msg, sizeof err->msg, "%s: %s", pre, old);
}

int ll_report(const ll_err *err) {
  fprintf(stderr, "lanelab: %s\n", err->msg);
  return err->code ? err->code : LL_EXIT_FAIL;
}

void ll_die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("lanelab: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(code);
}

static void oom(size_t n) {
  fprintf(stderr, "lanelab: out of memory allocating %zu bytes\n", n);
  abort();
}
void *ll_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom(n);
  return p;
}
void *ll_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) oom(n * size);
  return p;
}
void *ll_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom(n);
  return q;
}
char *ll_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(ll_xmalloc(n), s, n);
}
char *ll_fmt(const char *fmt, ...) {
  ll_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  ll_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ll_buf_str(&b);
  return b.data;
}

static void buf_reserve(ll_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = ll_xrealloc(b->data, cap);
  b->cap = cap;
}
void ll_buf_put(ll_buf *b, const void *p, size_t n) {
  buf_reserve(b, n);
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = 0;
}
void ll_buf_puts(ll_buf *b, const char *s) { ll_buf_put(b, s, strlen(s)); }
void ll_buf_vprintf(ll_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}
void ll_buf_printf(ll_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ll_buf_vprintf(b, fmt, ap);
  va_end(ap);
}
void ll_buf_free(ll_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
const char *ll_buf_str(ll_buf *b) {
  buf_reserve(b, 0);
  b->data[b->len] = 0;
  return b->data;
}

void *ll_read_file(const char *path, size_t *size, ll_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  ll_buf b = {0};
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) ll_buf_put(&b, tmp, n);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    ll_seterr(err, LL_EXIT_USAGE, "error reading %s", path);
    ll_buf_free(&b);
    return NULL;
  }
  ll_buf_str(&b);
  if (size) *size = b.len;
  return b.data;
}

bool ll_write_file_atomic(const char *path, const void *data, size_t size, ll_err *err) {
  char *tmp = ll_fmt("%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
    free(tmp);
    return false;
  }
  bool ok = fwrite(data, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return false;
  }
  free(tmp);
  return true;
}

bool ll_mkdir_p(const char *path, ll_err *err) {
  char *p = ll_xstrdup(path);
  for (char *s = p + 1;; s++) {
    if (*s == '/' || *s == 0) {
      char c = *s;
      *s = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST) {
        ll_seterr(err, LL_EXIT_USAGE, "cannot create directory %s: %s", p, strerror(errno));
        free(p);
        return false;
      }
      *s = c;
      if (!c) break;
    }
  }
  struct stat st;
  bool ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
  if (!ok) ll_seterr(err, LL_EXIT_USAGE, "%s exists and is not a directory", path);
  free(p);
  return ok;
}

char *ll_path_join(const char *dir, const char *rel) {
  if (rel[0] == '/' || !dir || !dir[0]) return ll_xstrdup(rel);
  return ll_fmt("%s/%s", dir, rel);
}

char *ll_dirname(const char *path) {
  const char *s = strrchr(path, '/');
  if (!s) return ll_xstrdup(".");
  if (s == path) return ll_xstrdup("/");
  char *d = ll_xmalloc((size_t)(s - path) + 1);
  memcpy(d, path, (size_t)(s - path));
  d[s - path] = 0;
  return d;
}

bool ll_parse_i64(const char *s, int64_t *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || *end) return false;
  *out = v;
  return true;
}
bool ll_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-') return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return false;
  *out = v;
  return true;
}
bool ll_parse_f64(const char *s, double *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno == ERANGE && isinf(v)) return false;
  if (*end) return false;
  *out = v;
  return true;
}

double ll_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* lanelab's data (device headers, the HIP subset, public headers, budgets): an installed binary
 * (PREFIX/bin/lanelab) reads PREFIX/share/lanelab, recognised by its stamp file lanelab.data, and
 * never the source tree; a binary run from the build tree it was built in (LANELAB_SRC_ROOT/build
 * ...) reads the source tree itself, whose layout share/lanelab copies. */
char *ll_data_path(const char *rel, ll_err *err) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    ll_seterr(err, LL_EXIT_ENV, "cannot find lanelab's own binary (/proc/self/exe: %s)", strerror(errno));
    return NULL;
  }
  exe[n] = 0;
  char *bindir = ll_dirname(exe);
  char *stamp = ll_fmt("%s/../share/lanelab/lanelab.data", bindir);
  struct stat st;
  char *out = NULL;
  if (stat(stamp, &st) == 0 && S_ISREG(st.st_mode)) {
    out = ll_fmt("%s/../share/lanelab/%s", bindir, rel);
  } else {
#ifdef LANELAB_SRC_ROOT
    size_t rl = strlen(LANELAB_SRC_ROOT "/build/");
    if (!strncmp(exe, LANELAB_SRC_ROOT "/build/", rl)) out = ll_fmt("%s/%s", LANELAB_SRC_ROOT, rel);
#endif
    if (!out)
      ll_seterr(err, LL_EXIT_ENV, "lanelab's data is missing: expected %s (install with make install PREFIX=DIR, "
                "which puts bin/lanelab beside share/lanelab)", stamp);
  }
  free(stamp);
  free(bindir);
  return out;
}
