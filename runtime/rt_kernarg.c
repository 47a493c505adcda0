/* runtime/rt_kernarg — the two ways of giving a kernel its arguments beyond one positional --arg
 * each (docs/run.md):
 *   - by metadata name, `--arg NAME=SPEC`, in any order and mixed with positional ones;
 *   - as raw bytes, `--kernarg FILE`, for kernels launched with a packed struct (AMD's library
 *     kernels take by-value arguments of 12, 320 or 656 bytes), with device buffers given by
 *     `--buf NAME@OFF[,OFF...]:SPEC` and their addresses written at the stated byte offsets.
 * Hidden arguments are filled by the runtime in both cases (rt.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/internal.h"

/* ---- named arguments --------------------------------------------------------------------------*/
/* NAME= at the start of s: an identifier (C's, plus '.') followed by '='. */
static size_t name_prefix(const char *s) {
  size_t i = 0;
  if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
  while (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.') i++;
  return s[i] == '=' ? i : 0;
}

bool rt_argspec_parse_any(const char *s, rt_argspec *o, ll_err *err) {
  size_t nl = name_prefix(s);
  if (!nl) return rt_argspec_parse(s, o, err);
  if (!rt_argspec_parse(s + nl + 1, o, err)) {
    ll_err_prefix(err, "--arg '%s'", s);
    return false;
  }
  o->name = strndup(s, nl);
  free(o->text);
  o->text = ll_xstrdup(s);
  return true;
}

static const emu_kernarg *explicit_arg(const emu_kernel *k, size_t idx, size_t *which) {
  for (size_t i = 0; i < k->nargs; i++)
    if (!k->args[i].hidden && idx-- == 0) {
      if (which) *which = i;
      return &k->args[i];
    }
  return NULL;
}

static void list_names(ll_buf *b, const emu_kernel *k) {
  size_t n = rt_explicit_arg_count(k);
  for (size_t i = 0; i < n; i++) {
    const emu_kernarg *a = explicit_arg(k, i, NULL);
    ll_buf_printf(b, "%s%s", i ? ", " : "", a->name[0] ? a->name : "(unnamed)");
  }
}

bool rt_argspecs_order(const emu_kernel *k, rt_argspec *specs, size_t n, ll_err *err) {
  size_t want = rt_explicit_arg_count(k);
  rt_argspec *slot = ll_xcalloc(want + 1, sizeof *slot);
  bool *filled = ll_xcalloc(want + 1, sizeof *filled);
  size_t next = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    rt_argspec *s = &specs[i];
    size_t idx;
    if (!s->name) {
      idx = next++;
      if (idx >= want) {
        ll_buf b = {0};
        list_names(&b, k);
        ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': kernel '%s' takes %zu argument%s (%s); %zu given", s->text,
                  k->name, want, want == 1 ? "" : "s", want ? ll_buf_str(&b) : "none", n);
        ll_buf_free(&b);
        ok = false;
        break;
      }
    } else {
      for (idx = 0; idx < want; idx++)
        if (!strcmp(explicit_arg(k, idx, NULL)->name, s->name)) break;
      if (idx == want) {
        ll_buf b = {0};
        list_names(&b, k);
        bool any = false;
        for (size_t j = 0; j < want; j++) any |= explicit_arg(k, j, NULL)->name[0] != 0;
        ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': kernel '%s' has no argument named '%s'; %s%s%s", s->text,
                  k->name, s->name, any ? "its arguments: " : "its metadata names no arguments (clang keeps them "
                  "with -fhip-kernel-arg-name; give them in order instead)", any ? ll_buf_str(&b) : "", "");
        ll_buf_free(&b);
        ok = false;
        break;
      }
    }
    if (filled[idx]) {
      const emu_kernarg *a = explicit_arg(k, idx, NULL);
      ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': argument %zu%s%s%s is already given by --arg '%s'", s->text, idx,
                a->name[0] ? " ('" : "", a->name, a->name[0] ? "')" : "", slot[idx].text);
      ok = false;
      break;
    }
    filled[idx] = true;
    slot[idx] = *s;
  }
  if (ok) {
    ll_buf b = {0};
    size_t missing = 0;
    for (size_t i = 0; i < want; i++)
      if (!filled[i]) {
        const emu_kernarg *a = explicit_arg(k, i, NULL);
        ll_buf_printf(&b, "%s%zu%s%s%s (%s, %u bytes)", missing++ ? ", " : "", i, a->name[0] ? " '" : "", a->name,
                      a->name[0] ? "'" : "", a->value_kind, a->size);
      }
    if (missing) {
      ll_seterr(err, LL_EXIT_USAGE, "kernel '%s' takes %zu argument%s; %zu given; missing: %s", k->name, want,
                want == 1 ? "" : "s", n, ll_buf_str(&b));
      ok = false;
    }
    ll_buf_free(&b);
  }
  if (ok && n) memcpy(specs, slot, n * sizeof *specs); /* n == want here; moves, nothing freed twice; memcpy(NULL, .., 0) is undefined */
  free(slot);
  free(filled);
  return ok;
}

/* ---- raw kernel arguments ---------------------------------------------------------------------*/
void rt_explicit_extent(const emu_kernel *k, uint32_t *end, uint32_t *first_hidden, const char **hidden_kind) {
  uint32_t e = 0, h = k->kernarg_size;
  const char *hk = NULL;
  for (size_t i = 0; i < k->nargs; i++) {
    const emu_kernarg *a = &k->args[i];
    if (!a->hidden && a->offset + a->size > e) e = a->offset + a->size;
    if (a->hidden && a->offset < h) h = a->offset, hk = a->value_kind;
  }
  *end = e;
  *first_hidden = h;
  if (hidden_kind) *hidden_kind = hk;
}

void *rt_kernarg_read(const char *path, const emu_kernel *k, size_t *n, ll_err *err) {
  /* a FIFO would block the open and a device has no size: regular files only (util.h, reading) */
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "--kernarg: %s is not a regular file", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    ll_seterr(err, LL_EXIT_USAGE, "--kernarg: cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = (size_t)k->kernarg_size + 1; /* one byte more than can be right: a bigger file is refused */
  uint8_t *b = ll_xmalloc(cap);
  size_t len = fread(b, 1, cap, f);
  bool bad = ferror(f);
  fclose(f);
  if (bad) ll_seterr(err, LL_EXIT_USAGE, "--kernarg: error reading %s", path);
  else if (len == cap)
    ll_seterr(err, LL_EXIT_USAGE, "--kernarg: %s is larger than the %u-byte kernarg segment of kernel '%s'", path,
              k->kernarg_size, k->name);
  if (bad || len == cap) {
    free(b);
    return NULL;
  }
  *n = len;
  return b;
}

bool rt_kernarg_check(const emu_kernel *k, size_t n, ll_err *err) {
  uint32_t end, hid;
  const char *hk;
  rt_explicit_extent(k, &end, &hid, &hk);
  if (n < end) {
    ll_seterr(err, LL_EXIT_USAGE, "--kernarg: %zu bytes, but the explicit arguments of kernel '%s' end at "
              "byte %u (its metadata); give all of them", n, k->name, end);
    return false;
  }
  if (n > hid) {
    ll_seterr(err, LL_EXIT_USAGE, "--kernarg: %zu bytes would overwrite %s at byte %u of kernel '%s' (hidden "
              "arguments are the runtime's); give at most %u bytes", n, hk ? hk : "the kernarg segment's end",
              hid, k->name, hid);
    return false;
  }
  return true;
}

bool rt_fill_kernargs_raw(const emu_kernel *k, const uint8_t *raw, size_t n, const uint32_t grid[3],
                          const uint32_t block[3], uint32_t dynamic_lds, uint8_t *buf, size_t size,
                          ll_err *err) {
  if (!rt_kernarg_check(k, n, err)) return false;
  /* The hidden arguments alone, through the one filler (rt_args.c): a copy of k without its
   * explicit arguments, then the raw bytes below the first hidden one. */
  emu_kernel kh = *k;
  kh.args = ll_xcalloc(k->nargs + 1, sizeof *kh.args);
  kh.nargs = 0;
  for (size_t i = 0; i < k->nargs; i++)
    if (k->args[i].hidden) kh.args[kh.nargs++] = k->args[i];
  bool ok = rt_fill_kernargs(&kh, NULL, 0, grid, block, dynamic_lds, buf, size, err);
  free(kh.args);
  if (ok && n) memcpy(buf, raw, n);
  return ok;
}

/* ---- --buf NAME@OFF[,OFF...]:SPEC -------------------------------------------------------------*/
void rt_bufspec_free(rt_bufspec *b) {
  if (!b) return;
  free(b->name);
  free(b->offsets);
  rt_argspec_free(&b->spec);
  memset(b, 0, sizeof *b);
}

bool rt_bufspec_parse(const char *s, rt_bufspec *o, ll_err *err) {
  memset(o, 0, sizeof *o);
  const char *at = strchr(s, '@'), *colon = at ? strchr(at, ':') : NULL;
  size_t nl = at ? (size_t)(at - s) : 0;
  bool name_ok = nl > 0 && (isalpha((unsigned char)s[0]) || s[0] == '_');
  for (size_t i = 0; name_ok && i < nl; i++) name_ok = isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.';
  if (!name_ok || !colon || colon == at + 1) {
    ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': expected NAME@OFFSET[,OFFSET...]:in:FILE, :out:N:FILE or "
              ":io:FILE:OUTFILE (NAME a C identifier, OFFSET a byte offset into the --kernarg bytes)", s);
    return false;
  }
  o->name = strndup(s, nl);
  char *offs = strndup(at + 1, (size_t)(colon - at - 1)), *save = NULL;
  bool ok = offs[strlen(offs) - 1] != ',' && offs[0] != ',' && !strstr(offs, ",,");
  for (char *t = strtok_r(offs, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
    uint64_t v;
    if (!ll_parse_u64(t, &v) || v > UINT32_MAX) ok = false;
    else {
      o->offsets = ll_xrealloc(o->offsets, (o->noffsets + 1) * sizeof *o->offsets);
      o->offsets[o->noffsets++] = (uint32_t)v;
    }
  }
  free(offs);
  if (!ok) {
    ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': offsets must be byte offsets (decimal or 0x-hex), comma-separated", s);
    rt_bufspec_free(o);
    return false;
  }
  if (!rt_argspec_parse(colon + 1, &o->spec, err)) {
    ll_err_prefix(err, "--buf '%s'", s);
    rt_bufspec_free(o);
    return false;
  }
  if (o->spec.value.kind != RT_ARG_PTR) {
    ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': a buffer is in:, out: or io:; by-value data belongs in the "
              "--kernarg bytes", s);
    rt_bufspec_free(o);
    return false;
  }
  free(o->spec.text);
  o->spec.text = ll_xstrdup(s); /* messages about this buffer quote the whole option */
  return true;
}

bool rt_kernarg_patch(uint8_t *raw, size_t n, const rt_bufspec *bufs, size_t nb, const uint64_t *addrs,
                      ll_err *err) {
  for (size_t i = 0; i < nb; i++) {
    for (size_t j = 0; j < i; j++)
      if (!strcmp(bufs[i].name, bufs[j].name)) {
        ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': buffer name '%s' is used twice", bufs[i].spec.text, bufs[i].name);
        return false;
      }
    for (size_t a = 0; a < bufs[i].noffsets; a++) {
      uint64_t off = bufs[i].offsets[a];
      if (off + 8 > n) {
        ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': offset %llu: an 8-byte address there ends past the %zu --kernarg bytes",
                  bufs[i].spec.text, (unsigned long long)off, n);
        return false;
      }
      for (size_t j = 0; j <= i; j++)
        for (size_t b = 0; b < bufs[j].noffsets; b++) {
          if (j == i && b == a) break;
          uint64_t o2 = bufs[j].offsets[b];
          if (off < o2 + 8 && o2 < off + 8) {
            ll_seterr(err, LL_EXIT_USAGE, "--buf '%s': the address at offset %llu overlaps the address of '%s' at offset %llu",
                      bufs[i].spec.text, (unsigned long long)off, bufs[j].name, (unsigned long long)o2);
            return false;
          }
        }
      if (addrs)
        for (int k = 0; k < 8; k++) raw[off + k] = (uint8_t)(addrs[i] >> (8 * k));
    }
  }
  return true;
}
