/* emu/kname — finding a kernel by its C++ name. HIP kernels are C++ functions, so their symbols
 * are Itanium-mangled (`_Z11row_softmaxPKfPfS1_i`); users think of them as `row_softmax`.
 *
 * Demangling is libstdc++'s __cxa_demangle (the Itanium C++ ABI's runtime entry point, "Demangler
 * API" in the ABI document; declared here because it has C linkage and cxxabi.h is C++), so
 * lanelab links -lstdc++ — already a dependency of libLLVM. A symbol it cannot demangle (not C++,
 * or malformed) is only ever matched by its exact name.
 *
 * The rule (emu.h): a name NAME that is no kernel's exact symbol matches a kernel whose demangled
 * name, with spaces ignored, equals NAME as
 *   - the whole signature            "row_softmax(float const*, float*, float*, int)"
 *   - the qualified name             "ns::gemm<128>"   (return type and parameters dropped)
 *   - the qualified name, no template arguments          "ns::gemm"
 *   - the unqualified name, with or without template arguments   "gemm<128>", "gemm"
 * One match is the kernel; several are an ambiguity (LL_EXIT_USAGE listing each candidate's symbol
 * and signature, so the user can give the signature or the symbol instead). */
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/internal.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* libstdc++ before GCC 13 (Debian 12's) does not know C++23's DF16_ (_Float16, i.e. HIP's __half)
 * and DF16b (__bf16) manglings and fails the whole symbol. Both are builtin types, never
 * substitution candidates (Itanium C++ ABI, "Builtin types"), so each is retried as Dh (the
 * half-precision builtin): the kernel is then found by its name, and its listed signature says
 * "half" for either type. */
static char *demangle_f16_retry(const char *sym) {
  ll_buf b = {0};
  bool changed = false;
  for (const char *p = sym; *p; p++) {
    if (!strncmp(p, "DF16_", 5) || !strncmp(p, "DF16b", 5)) {
      ll_buf_puts(&b, "Dh");
      p += 4;
      changed = true;
    } else {
      ll_buf_put(&b, p, 1);
    }
  }
  char *d = NULL;
  if (changed) {
    int st = -1;
    d = __cxa_demangle(ll_buf_str(&b), NULL, NULL, &st);
    if (st != 0) {
      free(d);
      d = NULL;
    }
  }
  ll_buf_free(&b);
  return d;
}

char *emu_demangle(const char *sym) {
  if (!sym || strncmp(sym, "_Z", 2) != 0) return NULL;
  int st = -1;
  char *d = __cxa_demangle(sym, NULL, NULL, &st);
  if (st != 0) {
    free(d);
    return demangle_f16_retry(sym);
  }
  return d;
}

static char *nospace(const char *s, size_t n) {
  char *o = ll_xmalloc(n + 1), *p = o;
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ') *p++ = s[i];
  *p = 0;
  return o;
}

/* Drops every top-level <...> (template arguments) from s (no spaces). */
static char *no_targs(const char *s) {
  char *o = ll_xmalloc(strlen(s) + 1), *p = o;
  int depth = 0;
  for (; *s; s++) {
    if (*s == '<') depth++;
    else if (*s == '>' && depth > 0) depth--;
    else if (!depth) *p++ = *s;
  }
  *p = 0;
  return o;
}

/* Does demangled name d (as __cxa_demangle prints it) match want (spaces removed)? */
static bool matches(const char *d, const char *want) {
  size_t n = strlen(d);
  char *full = nospace(d, n);
  bool m = !strcmp(full, want);
  free(full);
  if (m) return true;
  /* the parameter list: the '(' matching the final ')' */
  size_t end = n;
  if (n && d[n - 1] == ')') {
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
      if (d[i] == ')') depth++;
      else if (d[i] == '(' && --depth == 0) { end = i; break; }
    }
  }
  /* the return type (template functions): up to the last space outside <> and () */
  size_t start = 0;
  int ad = 0, pd = 0;
  for (size_t i = 0; i < end; i++) {
    char c = d[i];
    if (c == '<') ad++;
    else if (c == '>' && ad) ad--;
    else if (c == '(') pd++;
    else if (c == ')' && pd) pd--;
    else if (c == ' ' && !ad && !pd) start = i + 1;
  }
  char *qual = nospace(d + start, end - start), *qual_nt = no_targs(qual);
  /* the unqualified name: after the last "::" outside <> and () */
  const char *base = qual;
  ad = pd = 0;
  for (const char *p = qual; *p; p++) {
    if (*p == '<') ad++;
    else if (*p == '>' && ad) ad--;
    else if (*p == '(') pd++;
    else if (*p == ')' && pd) pd--;
    else if (p[0] == ':' && p[1] == ':' && !ad && !pd) base = p + 2;
  }
  char *base_nt = no_targs(base);
  m = !strcmp(qual, want) || !strcmp(qual_nt, want) || !strcmp(base, want) || !strcmp(base_nt, want);
  free(qual);
  free(qual_nt);
  free(base_nt);
  return m;
}

static void list_kernels(ll_buf *b, const emu_codeobj *co, const bool *only) {
  bool first = true;
  for (size_t i = 0; i < co->nkernels; i++) {
    if (only && !only[i]) continue;
    char *d = emu_demangle(co->kernels[i].name);
    ll_buf_printf(b, "%s%s%s%s%s", first ? "" : ", ", co->kernels[i].name, d ? " (" : "", d ? d : "", d ? ")" : "");
    free(d);
    first = false;
  }
}

const emu_kernel *emu__kernel_by_cxx_name(const emu_codeobj *co, const char *name, ll_err *err) {
  size_t n = strlen(name);
  char *want = nospace(name, n);
  bool *hit = ll_xcalloc(co->nkernels + 1, sizeof *hit);
  size_t nhit = 0, last = 0;
  for (size_t i = 0; *want && i < co->nkernels; i++) {
    char *d = emu_demangle(co->kernels[i].name);
    if (d && matches(d, want)) hit[i] = true, nhit++, last = i;
    free(d);
  }
  free(want);
  const emu_kernel *k = NULL;
  ll_buf b = {0};
  if (nhit == 1) {
    k = &co->kernels[last];
  } else if (nhit > 1) {
    list_kernels(&b, co, hit);
    ll_seterr(err, LL_EXIT_USAGE, "%s: kernel name '%s' is ambiguous: %zu kernels match: %s; give the symbol or "
              "the signature", co->path, name, nhit, ll_buf_str(&b));
  } else {
    list_kernels(&b, co, NULL);
    ll_seterr(err, LL_EXIT_USAGE, "%s: no kernel named '%s'; kernels in it: %s", co->path, name,
              co->nkernels ? ll_buf_str(&b) : "none");
  }
  ll_buf_free(&b);
  free(hit);
  return k;
}
