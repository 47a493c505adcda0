/* runtime/rt_args — kernel arguments: matching values to the metadata, filling the kernarg
 * buffer (explicit and hidden arguments, LLVM AMDGPUUsage "Code Object V5 Metadata", hidden
 * argument kinds and sizes), and parsing `--arg` specs (README.md, "lanelab run"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

const char *rt_arg_kind_name(rt_arg_kind k) {
  static const char *n[] = {"pointer", "u32", "i32", "u64", "f32"};
  return (unsigned)k < 5 ? n[k] : "?";
}

size_t rt_explicit_arg_count(const emu_kernel *k) {
  size_t n = 0;
  for (size_t i = 0; i < k->nargs; i++) n += !k->args[i].hidden;
  return n;
}

static const emu_kernarg *explicit_arg(const emu_kernel *k, size_t idx) {
  for (size_t i = 0; i < k->nargs; i++)
    if (!k->args[i].hidden && idx-- == 0) return &k->args[i];
  return NULL;
}

/* "argument 2 ('n': by_value, 4 bytes at offset 16)" */
static void describe(char *b, size_t n, const emu_kernel *k, size_t idx, const emu_kernarg *a) {
  snprintf(b, n, "kernel '%s' argument %zu (%s%s%s%s, %u bytes at offset %u)", k->name, idx,
           a->name[0] ? "'" : "", a->name, a->name[0] ? "': " : "", a->value_kind, a->size, a->offset);
}

static void list_explicit(ll_buf *b, const emu_kernel *k) {
  size_t n = rt_explicit_arg_count(k);
  for (size_t i = 0; i < n; i++) {
    const emu_kernarg *a = explicit_arg(k, i);
    ll_buf_printf(b, "%s%s%s%s %u B", i ? ", " : "", a->name, a->name[0] ? " " : "", a->value_kind, a->size);
  }
  if (!n) ll_buf_puts(b, "none");
}

/* Kind and size of one value against one metadata argument (the rule in rt.h). */
static bool check_one(const emu_kernel *k, size_t idx, rt_arg_kind kind, ll_err *err) {
  const emu_kernarg *a = explicit_arg(k, idx);
  char d[512];
  describe(d, sizeof d, k, idx, a);
  bool ptr = strcmp(a->value_kind, "global_buffer") == 0, val = strcmp(a->value_kind, "by_value") == 0;
  if (!ptr && !val) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: value kind %s cannot be supplied by lanelab (only global_buffer "
              "pointers and by_value scalars)", d, a->value_kind);
    return false;
  }
  if (ptr && kind != RT_ARG_PTR) {
    ll_seterr(err, LL_EXIT_USAGE, "%s is a pointer; got a %s value (use in:, out: or io:)", d,
              rt_arg_kind_name(kind));
    return false;
  }
  if (ptr && a->size != 8) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: a global_buffer pointer should be 8 bytes", d);
    return false;
  }
  if (val && kind == RT_ARG_PTR) {
    ll_seterr(err, LL_EXIT_USAGE, "%s is a by-value argument; got a buffer (use u32:, i32:, u64: or f32:)", d);
    return false;
  }
  if (val) {
    bool ok = (kind == RT_ARG_U64 && a->size == 8) || (kind == RT_ARG_F32 && a->size == 4) ||
              ((kind == RT_ARG_U32 || kind == RT_ARG_I32) && (a->size == 4 || a->size == 2 || a->size == 1));
    if (!ok) {
      ll_seterr(err, LL_EXIT_USAGE, "%s: a %s value does not fit its %u bytes (%s)", d,
                rt_arg_kind_name(kind), a->size,
                a->size == 8 ? "use u64:" : a->size == 4 ? "use u32:, i32: or f32:" :
                a->size < 4 ? "use u32: or i32:" : "no scalar spec has this size");
      return false;
    }
  }
  return true;
}

bool rt_check_arg_kind(const emu_kernel *k, size_t idx, rt_arg_kind kind, ll_err *err) {
  if (idx >= rt_explicit_arg_count(k)) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s' has no argument %zu (it takes %zu)", k->name, idx,
              rt_explicit_arg_count(k));
    return false;
  }
  return check_one(k, idx, kind, err);
}

bool rt_check_arg_kinds(const emu_kernel *k, const rt_arg_kind *kinds, size_t n, ll_err *err) {
  size_t want = rt_explicit_arg_count(k);
  if (n != want) {
    ll_buf b = {0};
    list_explicit(&b, k);
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s' takes %zu argument%s (%s); %zu given", k->name, want,
              want == 1 ? "" : "s", ll_buf_str(&b), n);
    ll_buf_free(&b);
    return false;
  }
  for (size_t i = 0; i < n; i++)
    if (!check_one(k, i, kinds[i], err)) return false;
  return true;
}

size_t rt_kernarg_bytes(const emu_kernel *k) { return k->kernarg_size; }

const emu_kernarg *rt_hidden_arg(const emu_kernel *k, uint8_t hk) {
  for (size_t i = 0; i < k->nargs; i++)
    if (k->args[i].hk == hk) return &k->args[i];
  return NULL;
}

const emu_kernarg *rt_printf_arg(const emu_kernel *k) { return rt_hidden_arg(k, EMU_HK_PRINTF_BUFFER); }

bool rt_hidden_ptr_fits(const emu_kernel *k, const emu_kernarg *a, size_t size, ll_err *err) {
  if (a->size == 8 && a->offset + 8 <= size) return true;
  ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': %s at offset %u size %u does not fit its %zu-byte kernarg segment", k->name,
            a->value_kind, a->offset, a->size, size);
  return false;
}

static void put_le(uint8_t *p, uint64_t v, uint32_t size) {
  for (uint32_t i = 0; i < size && i < 8; i++) p[i] = (uint8_t)(v >> 8 * i);
}

/* Value of a hidden argument (the table at the top of rt.h), by the kind the loader found
 * (emu_kernarg.hk): this runs for every hidden argument of every launch, so it compares no names */
static uint64_t hidden_value(uint8_t hk, const uint32_t grid[3], const uint32_t block[3], uint32_t dynamic_lds) {
  switch (hk) {
  case EMU_HK_BLOCK_COUNT_X: case EMU_HK_BLOCK_COUNT_Y: case EMU_HK_BLOCK_COUNT_Z: return grid[hk - EMU_HK_BLOCK_COUNT_X];
  case EMU_HK_GROUP_SIZE_X: case EMU_HK_GROUP_SIZE_Y: case EMU_HK_GROUP_SIZE_Z: return block[hk - EMU_HK_GROUP_SIZE_X];
  case EMU_HK_GRID_DIMS: return (grid[2] > 1 || block[2] > 1) ? 3 : (grid[1] > 1 || block[1] > 1) ? 2 : 1;
  case EMU_HK_DYNAMIC_LDS_SIZE: return dynamic_lds;
  default: return 0; /* remainders, global offsets and every service pointer: see rt.h */
  }
}

bool rt_fill_kernargs(const emu_kernel *k, const rt_arg *args, size_t nargs, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dynamic_lds, uint8_t *buf, size_t size,
                      ll_err *err) {
  if (size < rt_kernarg_bytes(k)) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': kernarg buffer of %zu bytes, needs %zu", k->name, size,
              rt_kernarg_bytes(k));
    return false;
  }
  rt_arg_kind *kinds = ll_xcalloc(nargs ? nargs : 1, sizeof *kinds);
  for (size_t i = 0; i < nargs; i++) kinds[i] = args[i].kind;
  bool ok = rt_check_arg_kinds(k, kinds, nargs, err);
  free(kinds);
  if (!ok) return false;
  memset(buf, 0, size);
  size_t idx = 0;
  for (size_t i = 0; i < k->nargs; i++) {
    const emu_kernarg *a = &k->args[i];
    uint8_t *p = buf + a->offset; /* offset + size <= kernarg size: checked by the loader */
    if (a->hidden) {
      uint64_t v = hidden_value(a->hk, grid, block, dynamic_lds);
      if (a->size < 8 && v >> (8 * a->size)) {
        ll_seterr(err, LL_EXIT_USAGE, "kernel '%s': %s = %llu does not fit its %u bytes", k->name,
                  a->value_kind, (unsigned long long)v, a->size);
        return false;
      }
      put_le(p, v, a->size);
      continue;
    }
    const rt_arg *v = &args[idx];
    char d[512];
    describe(d, sizeof d, k, idx, a);
    idx++;
    switch (v->kind) {
    case RT_ARG_PTR: put_le(p, v->ptr, 8); break;
    case RT_ARG_U64: put_le(p, v->u64, 8); break;
    case RT_ARG_F32: memcpy(p, &v->f32, 4); break;
    case RT_ARG_U32:
      if (a->size < 4 && v->u32 >> (8 * a->size)) {
        ll_seterr(err, LL_EXIT_USAGE, "%s: u32 value %u does not fit in %u bytes", d, v->u32, a->size);
        return false;
      }
      put_le(p, v->u32, a->size);
      break;
    case RT_ARG_I32: {
      int64_t lo = -((int64_t)1 << (8 * a->size - 1)), hi = ((int64_t)1 << (8 * a->size - 1)) - 1;
      if (v->i32 < lo || v->i32 > hi) {
        ll_seterr(err, LL_EXIT_USAGE, "%s: i32 value %d does not fit in %u bytes", d, v->i32, a->size);
        return false;
      }
      put_le(p, (uint64_t)(int64_t)v->i32, a->size);
      break;
    }
    }
  }
  return true;
}

/* ---- specs ----------------------------------------------------------------------------------*/
void rt_argspec_free(rt_argspec *s) {
  if (!s) return;
  free(s->text);
  free(s->name);
  free(s->file);
  free(s->outfile);
  memset(s, 0, sizeof *s);
}

bool rt_argspec_parse(const char *s, rt_argspec *o, ll_err *err) {
  memset(o, 0, sizeof *o);
  const char *c = strchr(s, ':');
  size_t kl = c ? (size_t)(c - s) : 0;
  const char *rest = c ? c + 1 : "";
  static const char *form = "in:FILE[:BYTES], out:N:FILE, io:FILE:OUTFILE, u32:V, i32:V, u64:V or f32:V";
#define KIND(str) (kl == strlen(str) && strncmp(s, str, kl) == 0)
  o->text = ll_xstrdup(s);
  if (!c) goto bad;
  if (KIND("in")) {
    if (!*rest) goto bad;
    o->kind = RT_SPEC_IN;
    const char *c2 = strrchr(rest, ':');
    uint64_t n;
    if (c2 && c2 > rest && ll_parse_u64(c2 + 1, &n)) { /* in:FILE:BYTES */
      if (n == 0) {
        ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': BYTES must be a positive byte count", s);
        goto fail;
      }
      o->size = n;
      o->file = strndup(rest, (size_t)(c2 - rest));
    } else {
      o->file = ll_xstrdup(rest);
    }
  } else if (KIND("out")) {
    const char *c2 = strchr(rest, ':');
    if (!c2 || !c2[1]) goto bad;
    char *n = strndup(rest, (size_t)(c2 - rest));
    bool ok = ll_parse_u64(n, &o->size) && o->size > 0;
    free(n);
    if (!ok) {
      ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': N must be a positive byte count", s);
      goto fail;
    }
    o->kind = RT_SPEC_OUT;
    o->outfile = ll_xstrdup(c2 + 1);
  } else if (KIND("io")) {
    const char *c2 = strchr(rest, ':');
    if (!c2 || c2 == rest || !c2[1]) goto bad;
    o->kind = RT_SPEC_IO;
    o->file = strndup(rest, (size_t)(c2 - rest));
    o->outfile = ll_xstrdup(c2 + 1);
  } else if (KIND("u32") || KIND("u64")) {
    uint64_t v;
    bool is64 = KIND("u64");
    if (!ll_parse_u64(rest, &v) || (!is64 && v > UINT32_MAX)) {
      ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': '%s' is not an unsigned %d-bit integer", s, rest, is64 ? 64 : 32);
      goto fail;
    }
    o->kind = is64 ? RT_SPEC_U64 : RT_SPEC_U32;
    o->value.kind = is64 ? RT_ARG_U64 : RT_ARG_U32;
    if (is64) o->value.u64 = v; else o->value.u32 = (uint32_t)v;
  } else if (KIND("i32")) {
    int64_t v;
    if (!ll_parse_i64(rest, &v) || v < INT32_MIN || v > INT32_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': '%s' is not a signed 32-bit integer", s, rest);
      goto fail;
    }
    o->kind = RT_SPEC_I32;
    o->value.kind = RT_ARG_I32;
    o->value.i32 = (int32_t)v;
  } else if (KIND("f32")) {
    double v;
    if (!ll_parse_f64(rest, &v) || (isfinite(v) && isinf((float)v))) {
      ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': '%s' is not a number in f32 range", s, rest);
      goto fail;
    }
    o->kind = RT_SPEC_F32;
    o->value.kind = RT_ARG_F32;
    o->value.f32 = (float)v;
  } else {
    goto bad;
  }
  if (o->kind <= RT_SPEC_IO) o->value.kind = RT_ARG_PTR;
  return true;
bad:
  ll_seterr(err, LL_EXIT_USAGE, "--arg '%s': expected %s", s, form);
fail:
  rt_argspec_free(o);
  return false;
#undef KIND
}
