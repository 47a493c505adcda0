/* util — what every lanelab module shares: exit codes, error values, files written atomically,
 * a growable byte buffer, and a small JSON reader and writer. libc only.
 *
 * Contract: functions that can fail take an `ll_err *` (may be NULL) and return NULL / -1 / false
 * on failure with err->code set to one of the LL_EXIT_* values and err->msg saying what was
 * expected, what was found, and where. */
#ifndef LANELAB_UTIL_H
#define LANELAB_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status is the verdict (docs/architecture.md): 0 pass, 1 a check failed, 2 bad usage or input,
 * 3 the environment lacks something. */
enum { LL_EXIT_OK = 0, LL_EXIT_FAIL = 1, LL_EXIT_USAGE = 2, LL_EXIT_ENV = 3 };

typedef struct ll_err {
  int code;        /* LL_EXIT_* ; 0 = no error */
  char msg[1024];
} ll_err;

void ll_seterr(ll_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prefix an existing message with context ("loading x.co: ..."). */
void ll_err_prefix(ll_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "lanelab: <msg>" to stderr and return err->code (for cli). */
int ll_report(const ll_err *err);
/* Print "lanelab: <msg>" and exit(code). */
void ll_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Allocation that never returns NULL (aborts with a message on out-of-memory). */
void *ll_xmalloc(size_t n);
void *ll_xcalloc(size_t n, size_t size);
/* n bytes at a 64-byte boundary (a cache line), released with free(): what vector loads and stores
 * of whole lines read and write, so that none of them spans two lines */
void *ll_xaligned(size_t n);
void *ll_xrealloc(void *p, size_t n);
char *ll_xstrdup(const char *s);
char *ll_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* malloc'd */

/* Growable buffer. */
typedef struct ll_buf {
  char *data;
  size_t len, cap;
} ll_buf;
void ll_buf_put(ll_buf *b, const void *p, size_t n);
void ll_buf_puts(ll_buf *b, const char *s);
void ll_buf_printf(ll_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ll_buf_vprintf(ll_buf *b, const char *fmt, va_list ap);
void ll_buf_free(ll_buf *b);
/* NUL-terminated view (len excludes the NUL). */
const char *ll_buf_str(ll_buf *b);

/* ---- reading files: always bounded ---------------------------------------------------------
 * Every reader states the most it will read. A path that is not a regular file (a device, FIFO,
 * socket or directory: its size is unknown, /dev/zero never ends) is refused, and so is a file
 * larger than the cap, before it is read (LL_EXIT_USAGE, naming the file, its size and the cap).
 * A missing or unreadable file is LL_EXIT_USAGE too. The result is NUL-terminated (not counted
 * in *size). The caps below are what lanelab's readers use (docs/architecture.md, "Files"). */
#define LL_MIB ((uint64_t)1 << 20)
#define LL_CAP_TEXT (16 * LL_MIB)      /* specs, manifests, budgets, results, dumps as JSON/text */
#define LL_CAP_CODEOBJ (256 * LL_MIB)  /* code objects */
#define LL_CAP_DATA ((uint64_t)4 << 30) /* data: kernel buffers, oracle inputs (4 GiB) */
void *ll_read_file_max(const char *path, uint64_t max, size_t *size, ll_err *err);
/* ll_read_file_max(path, LL_CAP_TEXT, ...). */
void *ll_read_file(const char *path, size_t *size, ll_err *err);
/* Exactly n bytes from the start of path, which may be a device or FIFO (for `in:FILE:BYTES`);
 * a directory or socket is refused, and so is a source that ends before n bytes. */
void *ll_read_exact(const char *path, uint64_t n, ll_err *err);

/* ---- writing files: atomic, never through what is not ours ------------------------------------
 * An output is written to a temporary file in its directory, then renamed over the path, so a
 * reader never sees a half-written file and a failed write (full disk, I/O error) leaves the
 * previous content as it was. An existing output that is not a regular file (device, FIFO,
 * socket, directory) is refused (LL_EXIT_USAGE) and left alone. A symlink is followed (chains
 * too, dangling ones create their target) and the target is replaced, keeping its mode, but only
 * when the target lies in the directory of the path as named: a symlink never leads a write into
 * a directory the user did not name. A regular file without write permission bits is refused
 * (read-only), as is a directory on a read-only file system. A full disk is LL_EXIT_ENV.
 *
 * Two steps, for commands that check every output before a long run and write after it:
 * ll_out_check resolves and checks; ll_out_write re-resolves, refuses (LL_EXIT_USAGE) if the
 * file's directory is no longer the one checked (moved, replaced, a symlink changed), and
 * writes relative to that directory's descriptor. ll_write_file_atomic does both at once. */
typedef struct ll_outpath {
  char *path;        /* as named */
  char *dir, *name;  /* where the file is written: the final symlink target's directory, name */
  uint64_t dev, ino; /* identity of dir when checked */
  unsigned mode;     /* permission bits of an existing target (0 = create: 0666 & ~umask) */
} ll_outpath;
bool ll_out_check(const char *path, ll_outpath *o, ll_err *err);
bool ll_out_write(const ll_outpath *o, const void *data, size_t size, ll_err *err);
void ll_out_free(ll_outpath *o);
bool ll_write_file_atomic(const char *path, const void *data, size_t size, ll_err *err);
/* Tests only: when nonzero, the next data write of ll_out_write fails with this errno (used
 * where no small full file system can be mounted). Reset to 0 after use. */
extern int ll_test_write_errno;
bool ll_mkdir_p(const char *path, ll_err *err);
/* Removes path and, when it is a directory, everything under it; a symlink is removed, never
 * followed. Best effort: what cannot be removed stays. For folders lanelab made itself. */
void ll_rm_tree(const char *path);
/* Join a directory and a relative path ("dir/rel"); an absolute rel is returned as is. */
char *ll_path_join(const char *dir, const char *rel);
/* Directory part of a path ("." if none). malloc'd. */
char *ll_dirname(const char *path);
/* DATA/rel, malloc'd, where DATA is lanelab's data directory, found from the running binary's own
 * location: PREFIX/share/lanelab beside an installed PREFIX/bin/lanelab, or the source tree a build
 * tree sits in (up to 4 folders above the binary), wherever that tree has been moved. NULL +
 * LL_EXIT_ENV when neither applies (the message says where it looked). */
char *ll_data_path(const char *rel, ll_err *err);

/* ---- JSON reader ---------------------------------------------------------------------------
 * A DOM over RFC 8259 JSON. Numbers are kept as double and, when integral and in range, also
 * as int64. Object keys keep their order; duplicate keys are an error. */
typedef enum { LL_JNULL, LL_JBOOL, LL_JNUM, LL_JSTR, LL_JARR, LL_JOBJ } ll_jtype;
typedef struct ll_json ll_json;
struct ll_json {
  ll_jtype type;
  bool b;
  double num;
  bool is_int;      /* num is integral and fits int64 */
  int64_t i;
  char *str;        /* LL_JSTR (NUL-terminated, may contain no NUL) */
  size_t n;         /* element / member count */
  ll_json **items;  /* LL_JARR elements, LL_JOBJ values */
  char **keys;      /* LL_JOBJ keys */
  int line;         /* 1-based line of the value in the source, for messages */
};
ll_json *ll_json_parse(const char *text, size_t len, ll_err *err);
ll_json *ll_json_parse_file(const char *path, ll_err *err);
void ll_json_free(ll_json *j);
ll_json *ll_json_get(const ll_json *obj, const char *key); /* NULL if absent or not an object */
const char *ll_json_type_name(ll_jtype t);

/* ---- JSON writer ---------------------------------------------------------------------------
 * Streaming, into an ll_buf, pretty-printed with two-space indents. Keys are given with
 * ll_jw_key before each member value. Non-finite doubles are written as strings "inf", "-inf",
 * "nan" (JSON has no such numbers); readers of lanelab output know this. */
typedef struct ll_jw {
  ll_buf *out;
  int depth;
  bool first[64];
  bool after_key;
} ll_jw;
void ll_jw_init(ll_jw *w, ll_buf *out);
void ll_jw_obj_begin(ll_jw *w);
void ll_jw_obj_end(ll_jw *w);
void ll_jw_arr_begin(ll_jw *w);
void ll_jw_arr_end(ll_jw *w);
void ll_jw_key(ll_jw *w, const char *key);
void ll_jw_str(ll_jw *w, const char *s);
void ll_jw_int(ll_jw *w, int64_t v);
void ll_jw_uint(ll_jw *w, uint64_t v);
void ll_jw_num(ll_jw *w, double v);   /* %.9g, enough to round-trip a float */
void ll_jw_bool(ll_jw *w, bool v);
void ll_jw_null(ll_jw *w);
/* A value already rendered as JSON text (trailing newlines dropped). */
void ll_jw_raw(ll_jw *w, const char *json, size_t len);
/* A parsed value written back (integers as integers, object keys in order). */
void ll_jw_value(ll_jw *w, const ll_json *j);
/* Escape s as a JSON string body into b (no quotes). */
void ll_json_escape(ll_buf *b, const char *s);

/* ---- small things ---------------------------------------------------------------------------*/
/* Parse a whole string as an integer / double; false if anything is left over or it overflows. */
bool ll_parse_i64(const char *s, int64_t *out);
bool ll_parse_u64(const char *s, uint64_t *out);
bool ll_parse_f64(const char *s, double *out);
/* Monotonic seconds. */
double ll_now(void);
/* The process's CPU seconds, every thread's (CLOCK_PROCESS_CPUTIME_ID; 0 if it cannot be read). */
double ll_cpu_now(void);
/* The number of online CPUs (sysconf _SC_NPROCESSORS_ONLN, at least 1), read once per process:
 * glibc reads it from /sys each call, an open, a read and a close (some 5 us, as long as the launch
 * of a small kernel on the emulator). CPUs brought online later are not seen. */
int ll_ncpus(void);
/* splitmix64 (Steele, Lea, Flood 2014): advances *state and returns the next 64 random bits. The
 * one generator behind every seeded input lanelab makes (oracle inputs, manifest inits, the prod
 * matrix's masks, page shuffles and random cases), so a seed means the same stream everywhere. */
uint64_t ll_splitmix64(uint64_t *state);
/* 64-bit FNV-1a of n bytes, continuing from h (start with LL_FNV1A64_BASIS): the one name hash
 * (a fixed -cuid per kernel source, the precompiled-header cache's keys). Not for security. */
#define LL_FNV1A64_BASIS 0xcbf29ce484222325ull
uint64_t ll_fnv1a64(uint64_t h, const void *data, size_t n);

/* qsort comparator for an array of char *: strcmp of the strings pointed to. */
int ll_cmp_strp(const void *a, const void *b);

#endif
