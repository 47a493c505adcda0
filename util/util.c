/* util — errors, allocation, buffers, files. */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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
void *ll_xaligned(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n ? n : 1) != 0) oom(n);
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
  if (n) memcpy(b->data + b->len, p, n); /* memcpy(dst, NULL, 0) is undefined (UBSan) */
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

/* ---- bounded reading ------------------------------------------------------------------------- */

static const char *file_kind(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
       : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symlink" : "not a regular file";
}

/* Reads up to max bytes from fd into a NUL-terminated buffer; *got the count; false on error. A
 * source with more than max bytes sets *more. */
static char *read_fd(int fd, uint64_t max, size_t *got, bool *more, int *eno) {
  ll_buf b = {0};
  char tmp[65536];
  *more = false;
  for (;;) {
    uint64_t room = max - b.len;
    size_t want = room < sizeof tmp ? (size_t)room + (room < sizeof tmp) : sizeof tmp; /* +1 sees "more" */
    ssize_t n = read(fd, tmp, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *eno = errno;
      ll_buf_free(&b);
      return NULL;
    }
    if (n == 0) break;
    if ((uint64_t)b.len + (uint64_t)n > max) {
      *more = true;
      ll_buf_put(&b, tmp, (size_t)(max - b.len));
      break;
    }
    ll_buf_put(&b, tmp, (size_t)n);
  }
  ll_buf_str(&b);
  *got = b.len;
  return b.data;
}

void *ll_read_file_max(const char *path, uint64_t max, size_t *size, ll_err *err) {
  /* O_NONBLOCK: opening a FIFO must not wait for a writer before it is refused */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: it is %s, not a regular file (its size is unknown)", path,
              file_kind(st.st_mode));
    close(fd);
    return NULL;
  }
  if ((uint64_t)st.st_size > max) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: it is %llu bytes, more than the %llu bytes lanelab reads here",
              path, (unsigned long long)st.st_size, (unsigned long long)max);
    close(fd);
    return NULL;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  size_t got;
  bool more;
  int eno = 0;
  char *d = read_fd(fd, max, &got, &more, &eno);
  close(fd);
  if (!d) {
    ll_seterr(err, LL_EXIT_USAGE, "error reading %s: %s", path, strerror(eno));
    return NULL;
  }
  if (more) { /* it grew while being read */
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: it grew past the %llu bytes lanelab reads here", path,
              (unsigned long long)max);
    free(d);
    return NULL;
  }
  if (size) *size = got;
  return d;
}

void *ll_read_file(const char *path, size_t *size, ll_err *err) {
  return ll_read_file_max(path, LL_CAP_TEXT, size, err);
}

void *ll_read_exact(const char *path, uint64_t n, ll_err *err) {
  struct stat st;
  if (stat(path, &st) != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  if (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: it is %s", path, file_kind(st.st_mode));
    return NULL;
  }
  if (n > SIZE_MAX - 1) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %llu bytes of %s on this host", (unsigned long long)n, path);
    return NULL;
  }
  /* a FIFO is opened blocking: its writer may come later */
  int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  char *d = malloc((size_t)n + 1);
  if (!d) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot allocate %llu bytes to read %s", (unsigned long long)n, path);
    close(fd);
    return NULL;
  }
  uint64_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, d + got, (size_t)(n - got < (1u << 30) ? n - got : (1u << 30)));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      if (k < 0) ll_seterr(err, LL_EXIT_USAGE, "error reading %s: %s", path, strerror(errno));
      else ll_seterr(err, LL_EXIT_USAGE, "%s ended after %llu of the %llu bytes stated", path,
                     (unsigned long long)got, (unsigned long long)n);
      free(d);
      close(fd);
      return NULL;
    }
    got += (uint64_t)k;
  }
  close(fd);
  d[n] = 0;
  return d;
}

/* ---- atomic, careful writing ------------------------------------------------------------------ */

int ll_test_write_errno = 0;

static char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return ll_xstrdup(s ? s + 1 : p);
}

/* The directory part of p resolved to an absolute, symlink-free path (NULL + errno on failure). */
static char *real_dir(const char *p) {
  char *d = ll_dirname(p);
  char *r = realpath(d, NULL);
  free(d);
  return r;
}

bool ll_out_check(const char *path, ll_outpath *o, ll_err *err) {
  memset(o, 0, sizeof *o);
  o->path = ll_xstrdup(path);
  char *cur = ll_xstrdup(path);
  int hops = 0;
  struct stat st;
  bool exists = false;
  for (;;) {
    if (lstat(cur, &st) != 0) {
      if (errno != ENOENT) {
        ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: %s", cur, strerror(errno));
        goto fail;
      }
      break; /* a new file (or a dangling symlink's target) */
    }
    if (!S_ISLNK(st.st_mode)) {
      exists = true;
      break;
    }
    if (++hops > 16) {
      ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: more than 16 symlinks to follow", path);
      goto fail;
    }
    char link[PATH_MAX];
    ssize_t n = readlink(cur, link, sizeof link - 1);
    if (n < 0) {
      ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: reading symlink %s: %s", path, cur, strerror(errno));
      goto fail;
    }
    link[n] = 0;
    char *dir = ll_dirname(cur);
    char *next = ll_path_join(dir, link);
    free(dir);
    free(cur);
    cur = next;
  }
  const char *shown = hops ? ll_fmt("%s (a symlink to %s)", path, cur) : ll_xstrdup(path);
  if (exists && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "refusing to write %s: it is %s; lanelab writes only regular files and "
              "would replace it", shown, file_kind(st.st_mode));
    goto fail_shown;
  }
  o->name = base_name(cur);
  if (!o->name[0] || !strcmp(o->name, ".") || !strcmp(o->name, "..")) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: it names a directory, not a file", shown);
    goto fail_shown;
  }
  o->dir = real_dir(cur);
  if (!o->dir) {
    char *d = ll_dirname(cur);
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: directory %s: %s", shown, d, strerror(errno));
    free(d);
    goto fail_shown;
  }
  if (hops) { /* the target must lie in the directory of the path as named */
    char *named = real_dir(path);
    bool same = named && strcmp(named, o->dir) == 0;
    free(named);
    if (!same) {
      ll_seterr(err, LL_EXIT_USAGE, "refusing to write %s: the symlink leads out of the directory you named, "
                "into %s; name the target itself to write there", shown, o->dir);
      goto fail_shown;
    }
  }
  int dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat ds;
  struct statvfs vs;
  if (dfd < 0 || fstat(dfd, &ds) != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: directory %s: %s", shown, o->dir, strerror(errno));
    if (dfd >= 0) close(dfd);
    goto fail_shown;
  }
  bool ro = fstatvfs(dfd, &vs) == 0 && (vs.f_flag & ST_RDONLY);
  bool can = faccessat(dfd, ".", W_OK | X_OK, AT_EACCESS) == 0;
  close(dfd);
  if (ro || !can) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: directory %s is %s", shown, o->dir,
              ro ? "on a read-only file system" : "not writable");
    goto fail_shown;
  }
  if (exists && !(st.st_mode & 0222)) {
    ll_seterr(err, LL_EXIT_USAGE, "refusing to write %s: it is read-only (mode %04o)", shown,
              (unsigned)(st.st_mode & 07777));
    goto fail_shown;
  }
  o->dev = (uint64_t)ds.st_dev;
  o->ino = (uint64_t)ds.st_ino;
  o->mode = exists ? (unsigned)(st.st_mode & 07777) : 0;
  free((char *)shown);
  free(cur);
  return true;
fail_shown:
  free((char *)shown);
fail:
  free(cur);
  ll_out_free(o);
  return false;
}

void ll_out_free(ll_outpath *o) {
  if (!o) return;
  free(o->path);
  free(o->dir);
  free(o->name);
  memset(o, 0, sizeof *o);
}

static bool write_all(int fd, const void *data, size_t size, int *eno) {
  const char *p = data;
  while (size) {
    if (ll_test_write_errno) {
      *eno = ll_test_write_errno;
      ll_test_write_errno = 0;
      return false;
    }
    ssize_t n = write(fd, p, size < (1u << 30) ? size : (1u << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *eno = n < 0 ? errno : EIO;
      return false;
    }
    p += n;
    size -= (size_t)n;
  }
  return true;
}

bool ll_out_write(const ll_outpath *o, const void *data, size_t size, ll_err *err) {
  /* re-resolve: the path must still lead to the same name in the same directory */
  ll_outpath now;
  if (!ll_out_check(o->path, &now, err)) return false;
  bool same = now.dev == o->dev && now.ino == o->ino && strcmp(now.name, o->name) == 0;
  ll_out_free(&now);
  int dfd = same ? open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  struct stat ds;
  if (same && (dfd < 0 || fstat(dfd, &ds) != 0 || (uint64_t)ds.st_dev != o->dev || (uint64_t)ds.st_ino != o->ino))
    same = false;
  if (!same) {
    ll_seterr(err, LL_EXIT_USAGE, "not writing %s: where it leads changed since it was checked (its directory "
              "%s was moved or replaced, or a symlink changed)", o->path, o->dir);
    if (dfd >= 0) close(dfd);
    return false;
  }
  static unsigned counter;
  char *tmp = NULL;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; tries++) {
    free(tmp);
    tmp = ll_fmt(".%s.lanelab-%ld-%u", o->name, (long)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  int eno = errno;
  bool ok = fd >= 0;
  if (!ok) {
    ll_seterr(err, LL_EXIT_USAGE, "cannot write %s: creating a temporary file in %s: %s", o->path, o->dir,
              strerror(eno));
    free(tmp);
    close(dfd);
    return false;
  }
  if (o->mode) fchmod(fd, o->mode);
  ok = write_all(fd, data, size, &eno);
  if (close(fd) != 0 && ok) {
    ok = false;
    eno = errno;
  }
  struct stat st;
  if (ok && fstatat(dfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "not writing %s: %s/%s became %s since it was checked", o->path, o->dir, o->name,
              file_kind(st.st_mode));
    unlinkat(dfd, tmp, 0);
    free(tmp);
    close(dfd);
    return false;
  }
  if (ok && renameat(dfd, tmp, dfd, o->name) != 0) {
    ok = false;
    eno = errno;
  }
  if (!ok) {
    bool full = eno == ENOSPC || eno == EDQUOT;
    ll_seterr(err, full ? LL_EXIT_ENV : LL_EXIT_USAGE, "cannot write %s: %s%s", o->path, strerror(eno),
              full ? " (its previous content is unchanged)" : "");
    unlinkat(dfd, tmp, 0);
  }
  free(tmp);
  close(dfd);
  return ok;
}

bool ll_write_file_atomic(const char *path, const void *data, size_t size, ll_err *err) {
  ll_outpath o;
  if (!ll_out_check(path, &o, err)) return false;
  bool ok = ll_out_write(&o, data, size, err);
  ll_out_free(&o);
  return ok;
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

void ll_rm_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char *sub = ll_path_join(path, e->d_name);
      ll_rm_tree(sub);
      free(sub);
    }
    if (d) closedir(d);
  }
  remove(path);
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

int ll_ncpus(void) {
  static _Atomic int n; /* 0: not read yet; threads that race read the same value */
  int v = atomic_load_explicit(&n, memory_order_relaxed);
  if (v) return v;
  long c = sysconf(_SC_NPROCESSORS_ONLN);
  v = c > 0 && c < (1L << 20) ? (int)c : 1;
  atomic_store_explicit(&n, v, memory_order_relaxed);
  return v;
}

double ll_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double ll_cpu_now(void) {
  struct timespec ts;
  return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 ? (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec : 0;
}

/* lanelab's data (device headers, the HIP subset, public headers, budgets), found from where the
 * running binary is, never from a path compiled in (a build tree copied or restored from a CI cache
 * into another checkout must still work, issue #29): an installed binary (PREFIX/bin/lanelab) reads
 * PREFIX/share/lanelab, recognised by its stamp file lanelab.data, and never a source tree; a binary
 * in a build tree (ROOT/build/lanelab, ROOT/build/san/lanelab, ROOT/build/tests/test_x,
 * ROOT/build/tools/lanelab-cc) reads the source tree ROOT it sits in, recognised by lanelab's
 * public header and device headers, whose layout share/lanelab copies. */
#define LL_DATA_UP 4 /* how many folders above the binary's the source tree may be */
static bool is_source_tree(const char *dir) {
  char *h = ll_fmt("%s/include/lanelab/lanelab.h", dir), *k = ll_fmt("%s/kernels/include", dir);
  struct stat st;
  bool ok = stat(h, &st) == 0 && S_ISREG(st.st_mode) && stat(k, &st) == 0 && S_ISDIR(st.st_mode);
  free(h);
  free(k);
  return ok;
}

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
    char *dir = ll_xstrdup(bindir);
    for (int up = 0; up <= LL_DATA_UP && !out; up++) {
      if (up && !strrchr(dir, '/')) break;
      if (up) {
        char *slash = strrchr(dir, '/');
        *slash = 0;
        if (!dir[0]) break;
      }
      if (is_source_tree(dir)) out = ll_fmt("%s/%s", dir, rel);
    }
    free(dir);
    if (!out)
      ll_seterr(err, LL_EXIT_ENV, "lanelab's data is missing: %s is neither an installed lanelab (no %s; make install "
                "PREFIX=DIR puts bin/lanelab beside share/lanelab) nor inside a lanelab build tree (no folder up to %d "
                "above it holds include/lanelab/lanelab.h and kernels/include)", exe, stamp, LL_DATA_UP);
  }
  free(stamp);
  free(bindir);
  return out;
}

int ll_cmp_strp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

uint64_t ll_fnv1a64(uint64_t h, const void *data, size_t n) {
  const unsigned char *b = data;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

uint64_t ll_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
