/* isa/ccdir — one kernel source built into a kernel folder the way lanelab's own build keeps it
 * (`lanelab cc SRC --arch A --into DIR`, which `make kernels`, `make mutants` and `lanelab mutate`
 * use): DIR/NAME.co and DIR/NAME.s through the one compiler driver (isa_cc_compile_into), the
 * sidecar DIR/NAME.src naming the source (isa_output_is_stale), and DIR/NAME.skip in place of the
 * code object when the source's `// lanelab-arch:` line leaves the arch out. */
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The value of the first "// KEY: value" line of text, or NULL (malloc'd, trimmed). */
static char *marker(const char *text, const char *key) {
  size_t kl = strlen(key);
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, key, kl)) continue;
    const char *v = l + kl, *e = strchr(v, '\n');
    while (*v == ' ' || *v == '\t') v++;
    size_t n = e ? (size_t)(e - v) : strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r')) n--;
    return strndup(v, n);
  }
  return NULL;
}

/* Whether the space-separated list names arch. */
static bool lists(const char *list, const char *arch) {
  size_t al = strlen(arch);
  for (const char *p = list; (p = strstr(p, arch)); p += al)
    if ((p == list || p[-1] == ' ' || p[-1] == '\t') && (!p[al] || p[al] == ' ' || p[al] == '\t')) return true;
  return false;
}

char *isa_cc_arch_skip(const char *src_text, const char *arch) {
  char *arches = marker(src_text, "// lanelab-arch:");
  if (!arches || !arches[0] || lists(arches, arch)) {
    free(arches);
    return NULL;
  }
  char *why = marker(src_text, "// lanelab-why:");
  char *r = why && why[0] ? ll_fmt("built only for %s (%s)", arches, why) : ll_fmt("built only for %s", arches);
  free(why);
  free(arches);
  return r;
}

bool isa_cc_build_dir(const char *src, const char *arch, const char *dir, char *const *extra, ll_buf *diag,
                      char **skipped, ll_err *err) {
  if (skipped) *skipped = NULL;
  size_t n;
  char *text = ll_read_file(src, &n, err);
  if (!text) return false;
  if (!ll_mkdir_p(dir, err)) {
    free(text);
    return false;
  }
  char *stem = isa_cc_stem(src);
  char *abs = realpath(src, NULL);
  char *sidecar = ll_fmt("%s/%s.src", dir, stem), *line = ll_fmt("%s\n", abs ? abs : src);
  bool ok = ll_write_file_atomic(sidecar, line, strlen(line), err);
  char *why = ok ? isa_cc_arch_skip(text, arch) : NULL;
  char *co = ll_fmt("%s/%s.co", dir, stem), *s = ll_fmt("%s/%s.s", dir, stem), *skip = ll_fmt("%s/%s.skip", dir, stem);
  if (ok && why) {
    /* not for this arch: the reason replaces the code object, so nothing stale stands in for it */
    char *msg = ll_fmt("skip %s for %s: %s\n", stem, arch, why);
    ok = ll_write_file_atomic(skip, msg, strlen(msg), err);
    if (ok) {
      unlink(co);
      unlink(s);
    }
    if (ok && diag) ll_buf_puts(diag, msg);
    free(msg);
    if (ok && skipped) *skipped = ll_xstrdup(why);
  } else if (ok) {
    unlink(skip);
    /* clang names each HIP compile unit __hip_cuid_<hash of its command line>, which includes the
     * driver's temporary output path: a fixed -cuid from the source's path keeps a rebuild of the
     * same source byte-identical (lanelab's kernel folders are compared byte for byte) */
    const char *named = abs ? abs : src;
    uint64_t h = ll_fnv1a64(LL_FNV1A64_BASIS, named, strlen(named));
    size_t ne = 0;
    while (extra && extra[ne]) ne++;
    char **all = ll_xcalloc(ne + 2, sizeof *all);
    all[0] = ll_fmt("-cuid=%016llx", (unsigned long long)(h | 1ull << 63)); /* always 16 digits: clang drops leading zeros */
    for (size_t i = 0; i < ne; i++) all[i + 1] = extra[i];
    ok = isa_cc_compile_into(src, arch, dir, all, diag, NULL, err);
    free(all[0]);
    free(all);
  }
  free(why); free(co); free(s); free(skip); free(sidecar); free(line); free(abs); free(stem); free(text);
  return ok;
}
