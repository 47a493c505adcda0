/* isa/pch — precompiled headers for lanelab's HIP compiles (docs/hip-subset.md, "Precompiled
 * headers").
 *
 * A small HIP source spends about 0.9 s of its 1 s compile in clang's front end reading the same
 * headers: the standard headers lanelab's prelude brings in (as clang's own HIP wrapper does) and
 * lanelab's hip/hip_runtime.h. A precompiled header (PCH) of them, made once per set of compile
 * flags, takes that to about 0.1 s. It must not change what is compiled, so it is used only where
 * the translation unit it gives is the one the plain compile reads:
 *   - what the compile -includes first (`lanelab hipcc`: the prelude) may always come from a PCH
 *     ("-include-pch" is "-include" of the same header, already parsed);
 *   - hip/hip_runtime.h joins it only when it is the first thing the source includes: the first
 *     directive of the main file (after comments and a `#pragma once` or include guard) is
 *     `#include <hip/hip_runtime.h>`, or `#include "F"` of a file beside it whose own first
 *     directive is, up to three files deep. Nothing can then come between the prelude and
 *     hip_runtime.h, so reading it first changes nothing, and the source's own #include of it
 *     finds its guard set. A quoted "hip/hip_runtime.h" counts only when no such file is beside
 *     the source (quotes look there first).
 * A PCH is made only for flags seen before (so one-off compiles, such as a mutant's -D, never pay
 * for one), with exactly the compile's flags (clang refuses a PCH made with other language options,
 * and a -D or -I must reach the headers as it would), for each target the compile has (each
 * --offload-arch and, unless device-only, the host), in a folder of the cache that -include-pch
 * is given (clang picks the file made for its target). It is made only if clang prints nothing
 * while making it, so a warning in a header is never swallowed. The files it read are recorded
 * with their sizes and times; a change to any of them makes a new one. Anything unusual (no
 * cache, a failed build, an option such as -E or -M that prints what the headers hold) means no
 * PCH: the compile is then the plain one, never an error. LANELAB_NO_PCH=1 turns it off;
 * LANELAB_PCH_TRACE=1 says on stderr (=/PATH: in that file) which PCH, or none, each compile used. */
#define _GNU_SOURCE
#include "isa/isa.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PCH_KEEP 16            /* PCH folders kept (LANELAB_PCH_KEEP); the least recently used go first */
#define PCH_SEEN_KEEP 512      /* "seen once" markers kept */
#define PCH_SRC_HEAD (64 << 10) /* bytes of a source read to find its first directive */
#define PCH_DEPS_MAX (4 << 20)  /* a deps list larger than this is not ours */

/* ---- the cache folder ------------------------------------------------------------------------*/

/* A folder we may write into: missing ones are made; a symlink or non-folder is not used. */
static bool own_dir(const char *p) {
  struct stat st;
  if (lstat(p, &st) == 0) return S_ISDIR(st.st_mode);
  return ll_mkdir_p(p, NULL) && lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* LANELAB_CACHE_DIR, else $XDG_CACHE_HOME/lanelab, else ~/.cache/lanelab; then /pch. */
static char *cache_root(void) {
  const char *env = getenv("LANELAB_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *base = env && env[0] ? ll_xstrdup(env)
               : xdg && xdg[0] ? ll_fmt("%s/lanelab", xdg)
               : home && home[0] ? ll_fmt("%s/.cache/lanelab", home) : NULL;
  if (!base) return NULL;
  char *root = ll_fmt("%s/pch", base);
  free(base);
  if (!own_dir(root)) {
    free(root);
    return NULL;
  }
  return root;
}

typedef struct { char *path; struct timespec t; } aged;
static int by_age(const void *a, const void *b) {
  const struct timespec *x = &((const aged *)a)->t, *y = &((const aged *)b)->t;
  return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1) : (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/* Keeps the `keep` most recently used entries whose names end in `suffix` (a PCH folder's age is
 * its "ok" file's, touched on every use) and removes the rest. */
static void prune(const char *root, const char *suffix, size_t keep) {
  DIR *d = opendir(root);
  if (!d) return;
  aged *v = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t l = strlen(e->d_name), s = strlen(suffix);
    if (l <= s || strcmp(e->d_name + l - s, suffix)) continue;
    char *p = ll_path_join(root, e->d_name), *ok = ll_fmt("%s/ok", p);
    struct stat st;
    if (stat(strcmp(suffix, ".d") ? p : ok, &st) == 0) {
      v = ll_xrealloc(v, (n + 1) * sizeof *v);
      v[n++] = (aged){p, st.st_mtim};
    } else {
      free(p);
    }
    free(ok);
  }
  closedir(d);
  if (n > keep) {
    qsort(v, n, sizeof *v, by_age);
    for (size_t i = 0; i < n - keep; i++) ll_rm_tree(v[i].path);
  }
  for (size_t i = 0; i < n; i++) free(v[i].path);
  free(v);
}

/* ---- which header the source lets us read first ----------------------------------------------*/

/* The first preprocessor directive of text, after comments, blank lines, `#pragma once` and an
 * include guard (#ifndef X then #define X): its text up to the end of the line, in *dir (malloc'd);
 * false when there is none or something else (code, a continued line) comes first. */
static bool first_directive(const char *s, char **dir) {
  char guard[128] = "";
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    if (s[0] == '/' && s[1] == '/') {
      const char *e = strchr(s, '\n');
      if (!e) return false;
      if (e > s && e[-1] == '\\') return false; /* a comment continued onto the next line */
      s = e + 1;
      continue;
    }
    if (s[0] == '/' && s[1] == '*') {
      const char *e = strstr(s + 2, "*/");
      if (!e) return false;
      s = e + 2;
      continue;
    }
    if (*s != '#') return false;
    const char *e = strchr(s, '\n');
    if (!e) e = s + strlen(s);
    size_t len = (size_t)(e - s);
    if (len && s[len - 1] == '\r') len--;
    if (len && s[len - 1] == '\\') return false;
    char *line = ll_fmt("%.*s", (int)len, s);
    /* normalise "#  include" to "#include" */
    char *w = line + 1;
    while (*w == ' ' || *w == '\t') w++;
    memmove(line + 1, w, strlen(w) + 1);
    char name[128];
    if (!strcmp(line, "#pragma once")) {
      free(line);
      s = e;
      continue;
    }
    if (!guard[0] && sscanf(line, "#ifndef %127[A-Za-z0-9_]", name) == 1 && strlen(line) == 8 + strlen(name)) {
      snprintf(guard, sizeof guard, "%s", name);
      free(line);
      s = e;
      continue;
    }
    if (guard[0] && guard[0] != '!' && sscanf(line, "#define %127[A-Za-z0-9_]", name) == 1 && !strcmp(name, guard) &&
        strlen(line) == 8 + strlen(name)) {
      guard[0] = '!'; /* the guard is complete; the next directive is the one */
      free(line);
      s = e;
      continue;
    }
    if (guard[0] && guard[0] != '!') { /* #ifndef X not followed by #define X: not a guard */
      free(line);
      return false;
    }
    *dir = line;
    return true;
  }
}

/* Whether the first thing src includes is lanelab's hip/hip_runtime.h (see the top of the file). */
static bool runtime_first(const char *src, int depth) {
  int fd = open(src, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  char *buf = NULL;
  bool yes = false;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    buf = ll_xcalloc(PCH_SRC_HEAD + 1, 1);
    ssize_t n = read(fd, buf, PCH_SRC_HEAD);
    if (n < 0) n = 0;
    buf[n] = 0;
  }
  close(fd);
  char *d = NULL, inc[512];
  if (buf && first_directive(buf, &d)) {
    char *srcdir = ll_dirname(src);
    if (!strcmp(d, "#include <hip/hip_runtime.h>")) {
      yes = true;
    } else if (sscanf(d, "#include \"%511[^\"]\"", inc) == 1 && strlen(d) == strlen(inc) + 11) {
      char *beside = ll_path_join(srcdir, inc);
      struct stat bs;
      bool there = stat(beside, &bs) == 0;
      if (!strcmp(inc, "hip/hip_runtime.h")) yes = !there;
      else if (there && S_ISREG(bs.st_mode) && depth < 3) yes = runtime_first(beside, depth + 1);
      free(beside);
    }
    free(srcdir);
  }
  free(d);
  free(buf);
  return yes;
}

/* ---- the key and the files a PCH was made from ----------------------------------------------*/

/* The key: two FNV-1a lanes from different bases (128 bits), each field followed by its length. */
static void fnv(uint64_t h[2], const void *p, size_t n) {
  h[0] = ll_fnv1a64(h[0], p, n), h[1] = ll_fnv1a64(h[1], p, n);
  h[0] = ll_fnv1a64(h[0], &n, sizeof n), h[1] = ll_fnv1a64(h[1], &n, sizeof n); /* field boundaries */
}
static void fnv_stat(uint64_t h[2], const char *path) {
  struct stat st;
  memset(&st, 0, sizeof st);
  stat(path, &st);
  uint64_t v[4] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino};
  fnv(h, v, sizeof v);
}

/* deps: the compiler's -dependency-file output ("pch: a b \ c ..."), made into lines
 * "SIZE MTIME_SEC MTIME_NSEC PATH" of the files as they are now. */
static bool deps_record(const char *dfile, ll_buf *out) {
  size_t n = 0;
  char *t = ll_read_file_max(dfile, PCH_DEPS_MAX, &n, NULL);
  if (!t) return false;
  char *p = strchr(t, ':');
  if (!p) {
    free(t);
    return false;
  }
  for (p++;;) {
    while (*p == ' ' || *p == '\\' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    if (!*p) break;
    char *e = p;
    while (*e && *e != ' ' && *e != '\n' && *e != '\r' && *e != '\t' && !(*e == '\\' && (e[1] == '\n' || e[1] == ' ')))
      e++;
    char save = *e;
    *e = 0;
    struct stat st;
    if (stat(p, &st) != 0) {
      free(t);
      return false;
    }
    char *line = ll_fmt("%lld %lld %ld %s\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                        (long)st.st_mtim.tv_nsec, p);
    ll_buf_put(out, line, strlen(line));
    free(line);
    *e = save;
    p = e;
  }
  free(t);
  return true;
}

/* Whether every file a PCH folder's deps list names is as it was. */
static bool deps_fresh(const char *dir) {
  char *path = ll_fmt("%s/deps", dir);
  size_t n = 0;
  char *t = ll_read_file_max(path, PCH_DEPS_MAX, &n, NULL);
  free(path);
  if (!t) return false;
  bool ok = n > 0;
  for (char *line = t, *next; ok && line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    long long size, sec;
    long nsec;
    int used = 0;
    if (sscanf(line, "%lld %lld %ld %n", &size, &sec, &nsec, &used) != 3 || !used) {
      ok = false;
      break;
    }
    struct stat st;
    ok = stat(line + used, &st) == 0 && st.st_size == size && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
  }
  free(t);
  return ok;
}

/* ---- making one ------------------------------------------------------------------------------*/

/* Flags after which the compile prints or keeps what the headers hold, names its own first
 * header, or lets a quoted "hip/hip_runtime.h" find another file (-iquote, -I-): no PCH then.
 * -g too: clang's debug info from a PCH leaves out the standard library's using-declarations
 * (std::acos and the like: 346 names in a plain -g compile of a small program, 34 with a PCH),
 * while the code and the rest are the same; a debug build stays the plain one. */
static bool pch_unsafe_flag(const char *f) {
  static const char *const exact[] = {"-E", "-P", "-C", "-H", "-v"};
  static const char *const prefix[] = {"-M", "-x", "-X", "-g", "-save-temps", "-include", "-imacros", "-fmodules",
                                       "-emit-pch", "-ftime-trace", "--precompile", "-fsyntax-only", "-print",
                                       "--print", "-###", "-iquote", "-I-"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
    if (!strcmp(f, exact[i])) return true;
  for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
    if (!strncmp(f, prefix[i], strlen(prefix[i]))) return true;
  return false;
}

/* Builds the PCH files of one key into tmp: one per device target, and the host's unless
 * device_only. True only when every build exits 0 and prints nothing. */
static bool build_into(const isa_pch_req *r, const char *header, const char *tmp, ll_buf *deps) {
  size_t nargs = 0;
  while (r->args[nargs]) nargs++;
  const char **arches = ll_xcalloc(nargs + 1, sizeof *arches);
  size_t na = 0;
  for (size_t i = 0; i < nargs; i++)
    if (!strncmp(r->args[i], "--offload-arch=", 15)) arches[na++] = r->args[i];
  bool ok = na > 0;
  for (size_t t = 0; ok && t < na + (r->device_only ? 0 : 1); t++) {
    bool host = t == na;
    char **argv = ll_xcalloc(nargs + na + 24, sizeof *argv);
    size_t n = 0;
    argv[n++] = (char *)r->clang;
    for (size_t i = 0; i < nargs; i++) {
      const char *a = r->args[i];
      if (!strncmp(a, "--offload-arch=", 15) || !strcmp(a, "--cuda-device-only") || !strcmp(a, "--cuda-host-only"))
        continue;
      argv[n++] = (char *)a;
    }
    if (host) {
      for (size_t k = 0; k < na; k++) argv[n++] = (char *)arches[k];
      argv[n++] = "--cuda-host-only";
    } else {
      argv[n++] = (char *)arches[t];
      argv[n++] = "--cuda-device-only";
    }
    char *out = ll_fmt("%s/%s.pch", tmp, host ? "host" : arches[t] + 15);
    char *dfile = ll_fmt("%s/%s.d", tmp, host ? "host" : arches[t] + 15);
    const char *tail[] = {"-Wno-unused-command-line-argument", "-fsyntax-only", "-Xclang", "-emit-pch", "-Xclang",
                          "-fpch-instantiate-templates", "-Xclang", "-o", "-Xclang", out, "-Xclang", "-dependency-file",
                          "-Xclang", dfile, "-Xclang", "-sys-header-deps", "-Xclang", "-MT", "-Xclang", "pch", header};
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) argv[n++] = (char *)tail[i];
    argv[n] = NULL;
    ll_buf so = {0}, se = {0};
    int rc = isa_run(argv, NULL, NULL, &so, &se, NULL);
    ok = rc == 0 && so.len == 0 && se.len == 0 && deps_record(dfile, deps);
    unlink(dfile);
    ll_buf_free(&so), ll_buf_free(&se);
    free(out), free(dfile), free(argv);
  }
  free(arches);
  return ok;
}

/* LANELAB_PCH_TRACE=1: one line per compile on stderr; =/PATH: appended to that file instead
 * (one write per line, so compiles running side by side do not interleave). */
static char *trace(const isa_pch_req *r, char *result, const char *why) {
  const char *t = getenv("LANELAB_PCH_TRACE");
  if (!t || !t[0]) return result;
  char *line = ll_fmt("lanelab: pch: %s for %s (%s)\n", result ? result : "none", r->src, why);
  int fd = t[0] == '/' ? open(t, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644) : 2;
  if (fd >= 0) {
    ssize_t w = write(fd, line, strlen(line)); /* a trace that cannot be written is not an error */
    (void)w;
  }
  if (fd > 2) close(fd);
  free(line);
  return result;
}

char *isa_pch_find(const isa_pch_req *r) {
  const char *off = getenv("LANELAB_NO_PCH");
  if (off && off[0] && strcmp(off, "0")) return trace(r, NULL, "LANELAB_NO_PCH");
  if (!r->clang || !r->args || !r->hip_include || !r->src) return NULL;
  for (size_t i = 0; r->user && r->user[i]; i++)
    if (pch_unsafe_flag(r->user[i])) return trace(r, NULL, r->user[i]);
  bool with_runtime = runtime_first(r->src, 0);
  /* what the PCH holds: the forced header (the prelude), hip_runtime.h when it comes first, or
   * both (hip/lanelab_hip_pch.h, which includes the two in that order) */
  char *header = r->first_header ? (with_runtime ? ll_fmt("%s/hip/lanelab_hip_pch.h", r->hip_include)
                                                 : ll_xstrdup(r->first_header))
                 : with_runtime ? ll_fmt("%s/hip/hip_runtime.h", r->hip_include) : NULL;
  if (!header) return trace(r, NULL, "hip_runtime.h not first");
  char *root = cache_root();
  if (!root) {
    free(header);
    return NULL;
  }
  uint64_t h[2] = {LL_FNV1A64_BASIS, 0x84222325cbf29ce4ull};
  fnv(h, "lanelab-pch-1", 13);
  fnv(h, r->clang, strlen(r->clang));
  fnv_stat(h, r->clang);
  fnv(h, header, strlen(header));
  fnv(h, &r->device_only, sizeof r->device_only);
  for (size_t i = 0; r->args[i]; i++) fnv(h, r->args[i], strlen(r->args[i]));
  char *key = ll_fmt("%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
  char *dir = ll_fmt("%s/%s.d", root, key), *okf = ll_fmt("%s/ok", dir), *seen = ll_fmt("%s/%s.seen", root, key);
  char *result = NULL;
  struct stat st;
  if (stat(okf, &st) == 0) {
    if (deps_fresh(dir)) {
      utimensat(AT_FDCWD, okf, NULL, 0); /* used now: the last to be pruned */
      result = ll_xstrdup(dir);
      goto done;
    }
    char *stale = ll_fmt("%s/stale.%ld.%d", root, (long)time(NULL), (int)getpid());
    if (rename(dir, stale) == 0) ll_rm_tree(stale);
    free(stale);
  }
  if (lstat(seen, &st) != 0) { /* first sight of these flags: compile plainly, remember them */
    int fd = open(seen, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
    prune(root, ".seen", PCH_SEEN_KEEP);
    goto done;
  }
  char *tmp = ll_fmt("%s/tmp.%s.%d", root, key, (int)getpid());
  ll_rm_tree(tmp);
  ll_buf deps = {0};
  if (mkdir(tmp, 0755) == 0 && build_into(r, header, tmp, &deps)) {
    char *depf = ll_fmt("%s/deps", tmp), *tok = ll_fmt("%s/ok", tmp);
    bool wrote = ll_write_file_atomic(depf, deps.data, deps.len, NULL) && ll_write_file_atomic(tok, "", 0, NULL);
    free(depf), free(tok);
    /* another process may have made the same folder meanwhile: then its copy is used */
    if (wrote && (rename(tmp, dir) == 0 || stat(okf, &st) == 0)) result = ll_xstrdup(dir);
    const char *keep = getenv("LANELAB_PCH_KEEP");
    long k = keep && keep[0] ? strtol(keep, NULL, 10) : PCH_KEEP;
    prune(root, ".d", k > 0 ? (size_t)k : PCH_KEEP);
  }
  ll_buf_free(&deps);
  ll_rm_tree(tmp);
  free(tmp);
done:
  trace(r, result, with_runtime ? "hip_runtime.h first" : "hip_runtime.h not first");
  free(key), free(dir), free(okf), free(seen), free(root), free(header);
  return result;
}
