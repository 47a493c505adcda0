/* Code objects the suites compile from fixed sources, kept once per content: each test runs in its
 * own process, and several tests compiled the same source again (clang's time, in both CI passes).
 * A cached file lives in LANELAB_BUILD/tests/SUB/ under a name holding a key of everything the
 * compile reads: the source's bytes, any header directory it may include from (every file in it,
 * by name and bytes), the arch, the flags and the recipe (a caller's text), and clang's identity
 * (resolved path, size, mtime). A changed input is a new name, so a stale file is never used; a
 * file is put in place whole (written under a name unique to the process, then renamed), since
 * tests of one suite run at once. What the tests check is the code, not clang's compile of it;
 * tests that check a compile itself compile afresh. Old keys stay until `make clean`.
 * Header-only (tests are single files); every function is static and may be unused. */
#ifndef LANELAB_TESTS_CO_CACHE_H
#define LANELAB_TESTS_CO_CACHE_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

#define COC_UNUSED __attribute__((unused))

/* FNV-1a, 64-bit */
COC_UNUSED static uint64_t coc_bytes(uint64_t h, const void *p, size_t n) {
  for (size_t k = 0; k < n; k++) h = (h ^ ((const uint8_t *)p)[k]) * 0x100000001b3ull;
  return h;
}
COC_UNUSED static uint64_t coc_text(uint64_t h, const char *s) { return coc_bytes(h, s, strlen(s) + 1); }

/* a file's name and bytes (a missing file hashes as its name alone) */
COC_UNUSED static uint64_t coc_file(uint64_t h, const char *path) {
  h = coc_text(h, path);
  size_t n = 0;
  uint8_t *b = ll_read_file(path, &n, NULL);
  if (b) h = coc_bytes(h, b, n);
  free(b);
  return h;
}

/* every file of dir (not its subfolders' contents), in name order */
COC_UNUSED static uint64_t coc_dir(uint64_t h, const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  size_t nn = 0, cap = 16;
  char **names = malloc(cap * sizeof *names);
  for (struct dirent *de; (de = readdir(d));) {
    if (de->d_name[0] == '.') continue;
    if (nn == cap) names = realloc(names, (cap *= 2) * sizeof *names);
    names[nn++] = ll_xstrdup(de->d_name);
  }
  closedir(d);
  qsort(names, nn, sizeof *names, ll_cmp_strp);
  for (size_t k = 0; k < nn; k++) {
    char *p = ll_fmt("%s/%s", dir, names[k]);
    h = coc_file(h, p);
    free(p), free(names[k]);
  }
  free(names);
  return h;
}

/* The key of a compile of src by clang (the binary, resolved) for arch; recipe names the flags and
 * the way it is compiled; incdir (or NULL) is a folder every header the source may include is in. */
COC_UNUSED static uint64_t coc_key(const char *src, const char *incdir, const char *clang, const char *arch,
                                   const char *recipe) {
  uint64_t h = coc_file(0xcbf29ce484222325ull, src);
  if (incdir) h = coc_dir(h, incdir);
  char *real = realpath(clang, NULL);
  struct stat st;
  cr_assert(real && stat(real, &st) == 0, "no %s", clang);
  char *id = ll_fmt("%s|%s|%s|%lld|%lld.%09ld", arch, recipe, real, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    st.st_mtim.tv_nsec);
  h = coc_text(h, id);
  free(id), free(real);
  return h;
}

/* LANELAB_BUILD/tests/SUB/STEM_ARCH_KEY.EXT (the folder is made) */
COC_UNUSED static char *coc_path(const char *sub, const char *stem, const char *arch, uint64_t key, const char *ext) {
  char *dir = ll_fmt("%s/tests/%s", LANELAB_BUILD, sub);
  ll_err e = {0};
  cr_assert(ll_mkdir_p(dir, &e), "%s: %s", dir, e.msg);
  char *p = ll_fmt("%s/%s_%s_%016llx.%s", dir, stem, arch, (unsigned long long)key, ext);
  free(dir);
  return p;
}

/* A name beside path unique to this process, to write into and then coc_put */
COC_UNUSED static char *coc_tmp(const char *path) { return ll_fmt("%s.tmp-%ld", path, (long)getpid()); }

/* Puts the finished file tmp in place as path (a rename: whole or not at all) */
COC_UNUSED static void coc_put(const char *tmp, const char *path) {
  cr_assert_eq(rename(tmp, path), 0, "rename %s -> %s", tmp, path);
}

/* Copies the file fresh (made elsewhere) into place as path, whole */
COC_UNUSED static void coc_copy(const char *fresh, const char *path) {
  size_t n = 0;
  uint8_t *b = ll_read_file(fresh, &n, NULL);
  ll_err e = {0};
  cr_assert(b && ll_write_file_atomic(path, b, n, &e), "%s: %s", path, e.msg);
  free(b);
}

/* compile_src (tests/llvm_tools.h, included before this header) kept once per content in
 * BUILD/tests/SUB: the key holds the source, every file of its folder (what a quoted #include can
 * reach), every file of incdir (NULL: none) and the extra flags. For tests that run the code; the
 * file is shared, so a test that changes a code object copies it first. */
#ifdef LANELAB_TESTS_LLVM_TOOLS_H
COC_UNUSED static char *coc_compile_src(const char *sub, const char *src, const char *arch, const char *extra,
                                        const char *incdir) {
  char *recipe = ll_fmt("compile_src -O2 %s", extra ? extra : ""), *folder = ll_xstrdup(src), *slash = strrchr(folder, '/');
  if (slash) *slash = 0;
  uint64_t key = coc_dir(coc_key(src, incdir, LLVM_BIN "clang", arch, recipe), slash ? folder : ".");
  const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
  char *stem = ll_xstrdup(base), *dot = strrchr(stem, '.');
  if (dot) *dot = 0;
  char *co = coc_path(sub, stem, arch, key, "co");
  if (access(co, R_OK) != 0) {
    char *fresh = compile_src(src, arch, extra);
    coc_copy(fresh, co);
    free(fresh);
  }
  free(recipe), free(folder), free(stem);
  return co;
}
#endif

#endif
