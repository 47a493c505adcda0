/* verify/manifest — the manifest reader (schema: docs/manifest.md). Every error names the JSON
 * path of the field that is wrong. */
#include "verify/manifest.h"

#include "oracle/oracle.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct { const char *name, *ctype; size_t size; bool fl; } dtypes[MF_NDTYPE] = {
    [MF_F32] = {"f32", "float", 4, true},          [MF_F16] = {"f16", "lanelab_half", 2, true},
    [MF_BF16] = {"bf16", "lanelab_bf16", 2, true}, [MF_F64] = {"f64", "double", 8, true},
    [MF_I32] = {"i32", "int32_t", 4, false},       [MF_U32] = {"u32", "uint32_t", 4, false},
    [MF_I16] = {"i16", "int16_t", 2, false},       [MF_U16] = {"u16", "uint16_t", 2, false},
    [MF_I8] = {"i8", "int8_t", 1, false},          [MF_U8] = {"u8", "uint8_t", 1, false},
    [MF_I64] = {"i64", "int64_t", 8, false},       [MF_U64] = {"u64", "uint64_t", 8, false},
    /* fp8 elements reach a C reference as their raw byte (lanelab/ref.h converts them) */
    [MF_FP8_E4M3] = {"fp8_e4m3", "uint8_t", 1, true},           [MF_FP8_E5M2] = {"fp8_e5m2", "uint8_t", 1, true},
    [MF_FP8_E4M3_FNUZ] = {"fp8_e4m3_fnuz", "uint8_t", 1, true}, [MF_FP8_E5M2_FNUZ] = {"fp8_e5m2_fnuz", "uint8_t", 1, true},
};
const char *mf_dtype_name(mf_dtype t) { return t < MF_NDTYPE ? dtypes[t].name : "?"; }
const char *mf_dtype_ctype(mf_dtype t) { return t < MF_NDTYPE ? dtypes[t].ctype : "?"; }
size_t mf_dtype_size(mf_dtype t) { return t < MF_NDTYPE ? dtypes[t].size : 0; }
bool mf_dtype_is_float(mf_dtype t) { return t < MF_NDTYPE && dtypes[t].fl; }
bool mf_dtype_parse(const char *s, mf_dtype *t) {
  for (int i = 0; i < MF_NDTYPE; i++)
    if (!strcmp(s, dtypes[i].name)) { *t = (mf_dtype)i; return true; }
  return false;
}
const char *mf_sched_name(emu_sched s) { return s == EMU_SCHED_ADVERSARIAL ? "adversarial" : "roundrobin"; }

/* ---- the JSON path of the value being read ------------------------------------------------- */
typedef struct jpath {
  char s[512];
  size_t len;
} jpath;
static size_t jp_key(jpath *p, const char *key) {
  size_t old = p->len;
  int n = snprintf(p->s + p->len, sizeof p->s - p->len, "%s%s", p->len ? "." : "", key);
  if (n > 0) p->len = p->len + (size_t)n < sizeof p->s ? p->len + (size_t)n : sizeof p->s - 1;
  return old;
}
static size_t jp_idx(jpath *p, size_t i) {
  size_t old = p->len;
  int n = snprintf(p->s + p->len, sizeof p->s - p->len, "[%zu]", i);
  if (n > 0) p->len = p->len + (size_t)n < sizeof p->s ? p->len + (size_t)n : sizeof p->s - 1;
  return old;
}
static void jp_pop(jpath *p, size_t old) { p->len = old; p->s[old] = 0; }

typedef struct rd {
  jpath p;
  const char *dir;
  bool check_files;               /* manifest_load: every path must name an existing file or folder */
  ll_err *err;
} rd;

static bool fail(rd *r, const ll_json *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(rd *r, const ll_json *at, const char *fmt, ...) {
  char msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (at) ll_seterr(r->err, LL_EXIT_USAGE, "%s: %s (line %d)", r->p.len ? r->p.s : "(top level)", msg, at->line);
  else ll_seterr(r->err, LL_EXIT_USAGE, "%s: %s", r->p.len ? r->p.s : "(top level)", msg);
  return false;
}

/* Unknown keys are errors (a typo must not silently drop a check). */
static bool known_keys(rd *r, const ll_json *o, const char *const *keys) {
  for (size_t i = 0; i < o->n; i++) {
    bool ok = false;
    for (const char *const *k = keys; *k && !ok; k++) ok = !strcmp(*k, o->keys[i]);
    if (!ok) {
      size_t old = jp_key(&r->p, o->keys[i]);
      ll_buf b = {0};
      for (const char *const *k = keys; *k; k++) ll_buf_printf(&b, "%s%s", k == keys ? "" : ", ", *k);
      fail(r, o->items[i], "unknown field (known here: %s)", ll_buf_str(&b));
      ll_buf_free(&b);
      jp_pop(&r->p, old);
      return false;
    }
  }
  return true;
}

static bool want_type(rd *r, const ll_json *j, ll_jtype t) {
  if (j->type == t) return true;
  return fail(r, j, "expected %s, got %s", ll_json_type_name(t), ll_json_type_name(j->type));
}

/* A name usable in file names and messages: [A-Za-z0-9_.-], 1..64 chars, not starting with '.'. */
static bool ident(rd *r, const ll_json *j, char **out) {
  if (!want_type(r, j, LL_JSTR)) return false;
  size_t n = strlen(j->str);
  bool ok = n > 0 && n <= 64 && j->str[0] != '.';
  for (size_t i = 0; ok && i < n; i++) {
    char c = j->str[i];
    ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  }
  if (!ok) return fail(r, j, "'%s' is not a name (1-64 of A-Z a-z 0-9 _ . -, not starting with '.')", j->str);
  *out = ll_xstrdup(j->str);
  return true;
}

static bool str(rd *r, const ll_json *j, char **out) {
  if (!want_type(r, j, LL_JSTR)) return false;
  if (!j->str[0]) return fail(r, j, "empty string");
  *out = ll_xstrdup(j->str);
  return true;
}

static bool path(rd *r, const ll_json *j, char **out) {
  if (!want_type(r, j, LL_JSTR)) return false;
  if (!j->str[0]) return fail(r, j, "empty path");
  *out = ll_path_join(r->dir, j->str);
  /* every path in a manifest is an input: a missing one is bad input, named here, before any stage
   * runs (not a later "cannot read ...co") */
  struct stat st;
  if (r->check_files && stat(*out, &st) != 0)
    return fail(r, j, "%s does not exist (%s: paths are relative to the manifest's folder)", j->str, *out);
  return true;
}

static bool uint_in(rd *r, const ll_json *j, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (j->type != LL_JNUM || !j->is_int || j->i < 0 || (uint64_t)j->i < lo || (uint64_t)j->i > hi)
    return fail(r, j, "expected an integer in [%llu, %llu]", (unsigned long long)lo, (unsigned long long)hi);
  *out = (uint64_t)j->i;
  return true;
}

static bool num(rd *r, const ll_json *j, double *out) {
  if (j->type != LL_JNUM || !isfinite(j->num)) return fail(r, j, "expected a finite number");
  *out = j->num;
  return true;
}

/* An array of strings (each checked by fn), at most MANIFEST_MAX_LIST. */
static bool strlist(rd *r, const ll_json *j, bool (*fn)(rd *, const ll_json *, char **), char ***out, size_t *n) {
  if (!want_type(r, j, LL_JARR)) return false;
  if (j->n > MANIFEST_MAX_LIST) return fail(r, j, "at most %d entries", MANIFEST_MAX_LIST);
  *out = ll_xcalloc(j->n ? j->n : 1, sizeof **out);
  *n = j->n;
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_idx(&r->p, i);
    bool ok = fn(r, j->items[i], &(*out)[i]);
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  return true;
}

/* A compiler define: "-DNAME", "-DNAME=VALUE" or "-UNAME"; no spaces or shell characters reach a
 * command line because lanelab runs compilers without a shell, but a flag that is not a define
 * (e.g. "-o x") is refused. */
static bool define(rd *r, const ll_json *j, char **out) {
  if (!str(r, j, out)) return false;
  const char *s = *out;
  bool ok = (!strncmp(s, "-D", 2) || !strncmp(s, "-U", 2)) && s[2] && s[2] != '=' && !strpbrk(s, " \t\n");
  if (!ok) return fail(r, j, "'%s' is not a define (-DNAME, -DNAME=VALUE or -UNAME)", s);
  return true;
}

/* "-O2", "-march=native": any flag starting with '-' except output/input redirection. */
static bool cflag(rd *r, const ll_json *j, char **out) {
  if (!str(r, j, out)) return false;
  const char *s = *out;
  if (s[0] != '-' || !strncmp(s, "-o", 2) || !strcmp(s, "-shared"))
    return fail(r, j, "'%s' is not an allowed compiler flag (flags start with '-'; -o and -shared are lanelab's)", s);
  return true;
}

/* arch: "gfx950", or an array of arch names. */
static bool arches(rd *r, const ll_json *j, bool out[EMU_NARCH]) {
  memset(out, 0, EMU_NARCH * sizeof *out);
  if (j->type == LL_JSTR) {
    emu_arch a;
    if (!emu_arch_parse(j->str, &a)) return fail(r, j, "unknown arch '%s' (gfx942 or gfx950)", j->str);
    out[a] = true;
    return true;
  }
  if (!want_type(r, j, LL_JARR)) return false;
  if (j->n == 0) return fail(r, j, "empty arch list");
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_idx(&r->p, i);
    emu_arch a;
    if (j->items[i]->type != LL_JSTR || !emu_arch_parse(j->items[i]->str, &a)) {
      fail(r, j->items[i], "expected an arch name (gfx942 or gfx950)");
      jp_pop(&r->p, old);
      return false;
    }
    if (out[a]) { fail(r, j->items[i], "arch listed twice"); jp_pop(&r->p, old); return false; }
    out[a] = true;
    jp_pop(&r->p, old);
  }
  return true;
}

/* {"gfx950": "x.co", ...} */
static bool code_objects(rd *r, const ll_json *j, char *out[EMU_NARCH]) {
  if (!want_type(r, j, LL_JOBJ)) return false;
  if (j->n == 0) return fail(r, j, "no code object given");
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_key(&r->p, j->keys[i]);
    emu_arch a;
    bool ok = emu_arch_parse(j->keys[i], &a) || fail(r, j->items[i], "unknown arch '%s' (gfx942 or gfx950)", j->keys[i]);
    ok = ok && path(r, j->items[i], &out[a]);
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  return true;
}

/* [x], [x, y] or [x, y, z], each >= 1; missing extents are 1. */
static bool dim3(rd *r, const ll_json *j, uint32_t out[3], uint64_t max) {
  if (j->type == LL_JNUM) {
    uint64_t v = 0;
    if (!uint_in(r, j, 1, max, &v)) return false;
    out[0] = (uint32_t)v; out[1] = out[2] = 1;
    return true;
  }
  if (!want_type(r, j, LL_JARR)) return false;
  if (j->n < 1 || j->n > 3) return fail(r, j, "expected 1 to 3 extents");
  out[0] = out[1] = out[2] = 1;
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_idx(&r->p, i);
    uint64_t v = 0;
    bool ok = uint_in(r, j->items[i], 1, max, &v);
    jp_pop(&r->p, old);
    if (!ok) return false;
    out[i] = (uint32_t)v;
  }
  return true;
}

/* "uniform(-1,1)", "normal(0,1)", "iota", "iota(start,step)", "const(v)", "zeros", "ones", "poison" */
static bool parse_init(rd *r, const ll_json *j, mf_arg *a) {
  if (!want_type(r, j, LL_JSTR)) return false;
  const char *s = j->str;
  const char *open = strchr(s, '(');
  size_t nlen = open ? (size_t)(open - s) : strlen(s);
  double v[3] = {0, 0, 0};
  int nv = 0;
  if (open) {
    size_t l = strlen(open);
    if (l < 2 || open[l - 1] != ')') return fail(r, j, "'%s': unbalanced parentheses", s);
    char *body = strndup(open + 1, l - 2);
    char *save = NULL;
    for (char *tok = strtok_r(body, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      while (*tok == ' ') tok++;
      char *end = tok + strlen(tok);
      while (end > tok && end[-1] == ' ') *--end = 0;
      if (nv == 2 || !ll_parse_f64(tok, &v[nv]) || !isfinite(v[nv])) {
        free(body);
        return fail(r, j, "'%s': expected at most two finite numbers in the parentheses", s);
      }
      nv++;
    }
    free(body);
  }
#define IS(x) (nlen == strlen(x) && !strncmp(s, x, nlen))
  if (IS("uniform") && nv == 2 && v[0] < v[1]) { a->init = MF_INIT_UNIFORM; a->init_a = v[0]; a->init_b = v[1]; }
  else if (IS("normal") && nv == 2 && v[1] > 0) { a->init = MF_INIT_NORMAL; a->init_a = v[0]; a->init_b = v[1]; }
  else if (IS("iota") && (nv == 0 || nv == 2)) { a->init = MF_INIT_IOTA; a->init_a = nv ? v[0] : 0; a->init_b = nv ? v[1] : 1; }
  else if (IS("const") && nv == 1) { a->init = MF_INIT_CONST; a->init_a = v[0]; }
  else if (IS("zeros") && !open) { a->init = MF_INIT_CONST; a->init_a = 0; }
  else if (IS("ones") && !open) { a->init = MF_INIT_CONST; a->init_a = 1; }
  else if (IS("poison") && !open) { a->init = MF_INIT_POISON; }
  else
    return fail(r, j, "'%s' is not an init (uniform(lo,hi) with lo<hi, normal(mean,std) with std>0, iota, "
                      "iota(start,step), const(v), zeros, ones, poison)", s);
#undef IS
  return true;
}

/* {"dtype", "shape", "init", "seed", "file", "oracle"} of an in/out/inout argument. */
static bool buffer(rd *r, const ll_json *j, mf_arg *a, bool is_in) {
  static const char *const keys[] = {"dtype", "shape", "init", "seed", "file", "oracle", NULL};
  if (!want_type(r, j, LL_JOBJ) || !known_keys(r, j, keys)) return false;
  const ll_json *dt = ll_json_get(j, "dtype"), *sh = ll_json_get(j, "shape"), *in = ll_json_get(j, "init"),
                *sd = ll_json_get(j, "seed"), *fi = ll_json_get(j, "file"), *orc = ll_json_get(j, "oracle");
  size_t old;
  bool ok = true;
  a->dtype = MF_U8;
  if (dt) {
    old = jp_key(&r->p, "dtype");
    if (!want_type(r, dt, LL_JSTR)) ok = false;
    else if (!mf_dtype_parse(dt->str, &a->dtype))
      ok = fail(r, dt, "unknown buffer dtype '%s' (f32 f16 bf16 f64 i64 u64 i32 u32 i16 u16 i8 u8 fp8_e4m3 fp8_e5m2 "
                "fp8_e4m3_fnuz fp8_e5m2_fnuz)", dt->str);
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  if (sh) {
    old = jp_key(&r->p, "shape");
    if (!want_type(r, sh, LL_JARR)) ok = false;
    else if (sh->n < 1 || sh->n > MANIFEST_MAX_DIMS) ok = fail(r, sh, "expected 1 to %d extents", MANIFEST_MAX_DIMS);
    uint64_t count = 1;
    for (size_t i = 0; ok && i < sh->n; i++) {
      size_t o2 = jp_idx(&r->p, i);
      uint64_t v = 0;
      ok = uint_in(r, sh->items[i], 1, MANIFEST_MAX_BUFFER, &v);
      if (ok && count * v > MANIFEST_MAX_BUFFER / mf_dtype_size(a->dtype))
        ok = fail(r, sh->items[i], "the buffer would exceed %llu bytes", (unsigned long long)MANIFEST_MAX_BUFFER);
      jp_pop(&r->p, o2);
      if (ok) { a->shape[i] = (int64_t)v; count *= v; }
    }
    jp_pop(&r->p, old);
    if (!ok) return false;
    a->ndim = (int)sh->n;
    a->count = count;
    a->bytes = count * mf_dtype_size(a->dtype);
  }
  int sources = !!in + !!fi + !!orc;
  if (sources > 1) return fail(r, j, "give at most one of init, file and oracle");
  if (fi) {
    old = jp_key(&r->p, "file");
    ok = path(r, fi, &a->file);
    jp_pop(&r->p, old);
    if (!ok) return false;
    a->init = MF_INIT_FILE;
    if (!is_in) return fail(r, j, "an output buffer takes no file (compare against a file with reference.files)");
  } else if (orc) {
    old = jp_key(&r->p, "oracle");
    if (!want_type(r, orc, LL_JSTR)) ok = false;
    else if (strcmp(orc->str, "q") && strcmp(orc->str, "k") && strcmp(orc->str, "v"))
      ok = fail(r, orc, "'%s' is not an oracle input (q, k or v of the attention spec)", orc->str);
    else a->oracle_tensor = ll_xstrdup(orc->str);
    jp_pop(&r->p, old);
    if (!ok) return false;
    a->init = MF_INIT_ORACLE;
    if (!is_in) return fail(r, j, "an output buffer cannot be an oracle input");
  } else if (in) {
    old = jp_key(&r->p, "init");
    ok = parse_init(r, in, a);
    jp_pop(&r->p, old);
    if (!ok) return false;
  } else {
    /* inputs default to uniform(-1,1) (integers: uniform over 0..255 bytes would surprise; they
     * get iota); outputs start as poison (all bytes 0xff: NaN for floats, -1 for integers), so an
     * element the kernel never writes cannot match a reference that does */
    if (!is_in) a->init = MF_INIT_POISON;
    else if (mf_dtype_is_float(a->dtype)) { a->init = MF_INIT_UNIFORM; a->init_a = -1; a->init_b = 1; }
    else { a->init = MF_INIT_IOTA; a->init_a = 0; a->init_b = 1; }
  }
  if (a->init != MF_INIT_FILE && a->init != MF_INIT_ORACLE) {
    if (!dt) return fail(r, j, "dtype is required (unless the buffer comes from a file or the oracle)");
    if (!sh) return fail(r, j, "shape is required (unless the buffer comes from a file or the oracle)");
  } else if ((!!dt) != (!!sh) && a->init == MF_INIT_FILE && sh) {
    return fail(r, j, "a file buffer with a shape needs its dtype");
  }
  if (sd) {
    old = jp_key(&r->p, "seed");
    ok = uint_in(r, sd, 0, UINT64_MAX >> 1, &a->seed);
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  return true;
}


static bool arg(rd *r, const ll_json *j, mf_arg *a) {
  static const char *const keys[] = {"name", "in", "out", "inout", "f32", "f64", "u32", "i32", "u64", "i64",
                                     "u16", "i16", "u8", "i8", NULL};
  if (!want_type(r, j, LL_JOBJ) || !known_keys(r, j, keys)) return false;
  const ll_json *nm = ll_json_get(j, "name");
  if (!nm) return fail(r, j, "name is required");
  size_t old = jp_key(&r->p, "name");
  bool ok = ident(r, nm, &a->name);
  jp_pop(&r->p, old);
  if (!ok) return false;
  const char *role_key = NULL;
  const ll_json *role = NULL;
  int nroles = 0;
  for (size_t i = 0; i < j->n; i++)
    if (strcmp(j->keys[i], "name")) { role_key = j->keys[i]; role = j->items[i]; nroles++; }
  if (nroles != 1) return fail(r, j, "give exactly one of in, out, inout or a scalar (f32, u32, i32, u64, ...)");
  old = jp_key(&r->p, role_key);
  if (!strcmp(role_key, "in")) { a->role = MF_ARG_IN; ok = buffer(r, role, a, true); }
  else if (!strcmp(role_key, "inout")) { a->role = MF_ARG_INOUT; ok = buffer(r, role, a, true); }
  else if (!strcmp(role_key, "out")) { a->role = MF_ARG_OUT; ok = buffer(r, role, a, false); }
  else {
    a->role = MF_ARG_SCALAR;
    mf_dtype_parse(role_key, &a->dtype);
    a->count = 1;
    a->bytes = mf_dtype_size(a->dtype);
    if (mf_dtype_is_float(a->dtype)) {
      ok = num(r, role, &a->value.f);
      if (ok && a->dtype == MF_F32 && fabs(a->value.f) > 3.4028234663852886e38)
        ok = fail(r, role, "out of f32 range");
    } else if (role->type != LL_JNUM || !role->is_int) {
      ok = fail(r, role, "expected an integer");
    } else {
      bool sgn = a->dtype == MF_I32 || a->dtype == MF_I64 || a->dtype == MF_I16 || a->dtype == MF_I8;
      int bits = (int)mf_dtype_size(a->dtype) * 8;
      int64_t v = role->i;
      if (sgn) ok = bits == 64 || (v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1)));
      else ok = v >= 0 && (bits == 64 || v < (INT64_C(1) << bits));
      if (!ok) fail(r, role, "%" PRId64 " does not fit %s", v, role_key);
      a->value.i = v;
    }
  }
  jp_pop(&r->p, old);
  return ok;
}

static bool mutant(rd *r, const ll_json *j, mf_mutant *m) {
  static const char *const keys[] = {"name", "defines", "source", "code_object", "arch", NULL};
  if (!want_type(r, j, LL_JOBJ) || !known_keys(r, j, keys)) return false;
  const ll_json *nm = ll_json_get(j, "name"), *df = ll_json_get(j, "defines"), *sr = ll_json_get(j, "source"),
                *co = ll_json_get(j, "code_object");
  if (!nm) return fail(r, j, "name is required");
  if (!df && !sr && !co) return fail(r, j, "a mutant needs defines, a source or a code_object to differ by");
  if (co && (df || sr)) return fail(r, j, "a code_object mutant takes no defines or source");
  size_t old = jp_key(&r->p, "name");
  bool ok = ident(r, nm, &m->name);
  jp_pop(&r->p, old);
  if (ok && df) { old = jp_key(&r->p, "defines"); ok = strlist(r, df, define, &m->defines, &m->ndefines); jp_pop(&r->p, old); }
  if (ok && sr) { old = jp_key(&r->p, "source"); ok = path(r, sr, &m->source); jp_pop(&r->p, old); }
  if (ok && co) { old = jp_key(&r->p, "code_object"); ok = code_objects(r, co, m->code_object); jp_pop(&r->p, old); }
  /* its arches: "arch" when given, else those its code objects name, else every arch (the
   * kernel's own list bounds them: kernel() checks) */
  for (int a = 0; a < EMU_NARCH; a++) m->arch[a] = co ? m->code_object[a] != NULL : true;
  const ll_json *ar = ll_json_get(j, "arch");
  if (ok && ar) { old = jp_key(&r->p, "arch"); ok = arches(r, ar, m->arch); jp_pop(&r->p, old); }
  for (int a = 0; ok && co && ar && a < EMU_NARCH; a++)
    if (m->arch[a] && !m->code_object[a])
      ok = fail(r, co, "arch %s is listed but code_object has no %s entry", emu_arch_name((emu_arch)a),
                emu_arch_name((emu_arch)a));
  return ok;
}

static mf_arg *find_arg(mf_kernel *k, const char *name) {
  for (size_t i = 0; i < k->nargs; i++)
    if (!strcmp(k->args[i].name, name)) return &k->args[i];
  return NULL;
}

static bool reference(rd *r, const ll_json *j, mf_kernel *k) {
  static const char *const keys[] = {"c", "function", "abi", "cflags", "files", "oracle", "spec", "outputs", NULL};
  if (!want_type(r, j, LL_JOBJ) || !known_keys(r, j, keys)) return false;
  const ll_json *c = ll_json_get(j, "c"), *fn = ll_json_get(j, "function"), *abi = ll_json_get(j, "abi"),
                *cf = ll_json_get(j, "cflags"), *fi = ll_json_get(j, "files"), *orc = ll_json_get(j, "oracle"),
                *sp = ll_json_get(j, "spec"), *outs = ll_json_get(j, "outputs");
  if (!!c + !!fi + !!orc != 1) return fail(r, j, "give exactly one of c, files and oracle");
  size_t old;
  bool ok = true;
  k->ref_files = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *k->ref_files);
  k->oracle_out = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *k->oracle_out);
  if (c) {
    if (fi || orc || sp || outs) return fail(r, j, "a C reference takes c, function, abi and cflags only");
    k->ref = MF_REF_C;
    old = jp_key(&r->p, "c"); ok = path(r, c, &k->ref_c); jp_pop(&r->p, old);
    if (!ok) return false;
    if (!fn) return fail(r, j, "function is required with c");
    old = jp_key(&r->p, "function");
    ok = want_type(r, fn, LL_JSTR);
    for (const char *p = ok ? fn->str : ""; ok && *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (p != fn->str && *p >= '0' && *p <= '9')))
        ok = fail(r, fn, "'%s' is not a C identifier", fn->str);
    if (ok && !fn->str[0]) ok = fail(r, fn, "empty function name");
    if (ok) k->ref_function = ll_xstrdup(fn->str);
    jp_pop(&r->p, old);
    if (!ok) return false;
    if (abi) {
      old = jp_key(&r->p, "abi");
      if (!want_type(r, abi, LL_JSTR)) ok = false;
      else if (!strcmp(abi->str, "call")) k->ref_call_abi = true;
      else if (strcmp(abi->str, "args")) ok = fail(r, abi, "'%s' is not an abi (args or call)", abi->str);
      jp_pop(&r->p, old);
      if (!ok) return false;
    }
    if (cf) { old = jp_key(&r->p, "cflags"); ok = strlist(r, cf, cflag, &k->ref_cflags, &k->nref_cflags); jp_pop(&r->p, old); }
    return ok;
  }
  if (fn || abi || cf) return fail(r, j, "function, abi and cflags belong to a C reference");
  const ll_json *map = fi ? fi : outs;
  if (fi) k->ref = MF_REF_FILES;
  else {
    k->ref = MF_REF_ORACLE;
    old = jp_key(&r->p, "oracle");
    if (!want_type(r, orc, LL_JSTR)) ok = false;
    else if (strcmp(orc->str, "attention")) ok = fail(r, orc, "'%s' is not an oracle here (attention)", orc->str);
    else k->oracle = ll_xstrdup(orc->str);
    jp_pop(&r->p, old);
    if (!ok) return false;
    if (!sp) return fail(r, j, "spec is required with oracle");
    if (!outs) return fail(r, j, "outputs is required with oracle ({\"<out arg>\": \"o\" | \"lse\"})");
    old = jp_key(&r->p, "spec"); ok = path(r, sp, &k->oracle_spec); jp_pop(&r->p, old);
    if (!ok) return false;
  }
  const char *mkey = fi ? "files" : "outputs";
  old = jp_key(&r->p, mkey);
  if (!want_type(r, map, LL_JOBJ)) ok = false;
  else if (map->n == 0) ok = fail(r, map, "names no output");
  for (size_t i = 0; ok && i < map->n; i++) {
    size_t o2 = jp_key(&r->p, map->keys[i]);
    mf_arg *a = find_arg(k, map->keys[i]);
    if (!a) ok = fail(r, map->items[i], "no argument named '%s'", map->keys[i]);
    else if (a->role != MF_ARG_OUT && a->role != MF_ARG_INOUT) ok = fail(r, map->items[i], "'%s' is not an output", a->name);
    else if (fi) ok = path(r, map->items[i], &k->ref_files[a - k->args]);
    else if (!want_type(r, map->items[i], LL_JSTR)) ok = false;
    else if (strcmp(map->items[i]->str, "o") && strcmp(map->items[i]->str, "lse"))
      ok = fail(r, map->items[i], "'%s' is not an attention output (o or lse)", map->items[i]->str);
    else if (a->dtype != MF_F32) ok = fail(r, map->items[i], "the oracle's %s is f32; '%s' is %s", map->items[i]->str,
                                           a->name, mf_dtype_name(a->dtype));
    else k->oracle_out[a - k->args] = ll_xstrdup(map->items[i]->str);
    jp_pop(&r->p, o2);
  }
  jp_pop(&r->p, old);
  return ok;
}

static bool compare(rd *r, const ll_json *j, mf_kernel *k) {
  if (!want_type(r, j, LL_JOBJ)) return false;
  k->compare = ll_xcalloc(j->n ? j->n : 1, sizeof *k->compare);
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_key(&r->p, j->keys[i]);
    static const char *const keys[] = {"atol", "rtol", NULL};
    mf_arg *a = find_arg(k, j->keys[i]);
    mf_compare *c = &k->compare[k->ncompare];
    bool ok = true;
    if (!a) ok = fail(r, j->items[i], "no argument named '%s'", j->keys[i]);
    else if (a->role != MF_ARG_OUT && a->role != MF_ARG_INOUT) ok = fail(r, j->items[i], "'%s' is not an output", a->name);
    else if (!want_type(r, j->items[i], LL_JOBJ) || !known_keys(r, j->items[i], keys)) ok = false;
    else {
      c->arg = ll_xstrdup(a->name);
      k->ncompare++;
      const ll_json *at = ll_json_get(j->items[i], "atol"), *rt = ll_json_get(j->items[i], "rtol");
      if (!at || !rt) ok = fail(r, j->items[i], "atol and rtol are both required");
      size_t o2;
      if (ok) { o2 = jp_key(&r->p, "atol"); ok = num(r, at, &c->atol) && (c->atol >= 0 || fail(r, at, "negative")); jp_pop(&r->p, o2); }
      if (ok) { o2 = jp_key(&r->p, "rtol"); ok = num(r, rt, &c->rtol) && (c->rtol >= 0 || fail(r, rt, "negative")); jp_pop(&r->p, o2); }
    }
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  return true;
}

static bool schedules(rd *r, const ll_json *j, mf_kernel *k) {
  const ll_json *one[1] = {j};
  const ll_json *const *items = one;
  size_t n = 1;
  if (j->type == LL_JARR) {
    items = (const ll_json *const *)j->items;
    n = j->n;
    if (n < 1 || n > 2) return fail(r, j, "expected one or two schedules");
  }
  k->nsched = 0;
  for (size_t i = 0; i < n; i++) {
    size_t old = j->type == LL_JARR ? jp_idx(&r->p, i) : r->p.len;
    bool ok = want_type(r, items[i], LL_JSTR);
    emu_sched s = EMU_SCHED_ROUND_ROBIN;
    if (ok && !strcmp(items[i]->str, "adversarial")) s = EMU_SCHED_ADVERSARIAL;
    else if (ok && strcmp(items[i]->str, "roundrobin"))
      ok = fail(r, items[i], "'%s' is not a schedule (roundrobin or adversarial)", items[i]->str);
    for (size_t q = 0; ok && q < k->nsched; q++)
      if (k->sched[q] == s) ok = fail(r, items[i], "schedule listed twice");
    jp_pop(&r->p, old);
    if (!ok) return false;
    k->sched[k->nsched++] = s;
  }
  return true;
}

/* "checks": ["racecheck" | "racecheck=global" | "initcheck", ...], each at most once */
static bool checks(rd *r, const ll_json *j, mf_kernel *k) {
  if (!want_type(r, j, LL_JARR)) return false;
  if (j->n > 3) return fail(r, j, "at most 3 checks (racecheck or racecheck=global, initcheck)");
  for (size_t i = 0; i < j->n; i++) {
    size_t old = jp_idx(&r->p, i);
    bool ok = want_type(r, j->items[i], LL_JSTR), dup = false;
    const char *s = ok ? j->items[i]->str : "";
    if (ok && (!strcmp(s, "racecheck") || !strcmp(s, "racecheck=global"))) {
      dup = k->racecheck;
      k->racecheck = true;
      k->racecheck_global = s[9] == '=';
    } else if (ok && !strcmp(s, "initcheck")) {
      dup = k->initcheck;
      k->initcheck = true;
    } else if (ok) {
      ok = fail(r, j->items[i], "'%s' is not a check (racecheck, racecheck=global or initcheck)", s);
    }
    if (ok && dup) ok = fail(r, j->items[i], "'%s': that check is already listed", s);
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  return true;
}

static bool kernel(rd *r, const ll_json *j, mf_kernel *k) {
  static const char *const keys[] = {"name", "source", "code_object", "kernel", "arch", "defines", "includes", "grid",
                                     "block", "lds_bytes", "args", "reference", "compare", "mutants", "schedule",
                                     "budgets", "insn_budget", "not_checked", "checks", NULL};
  if (!want_type(r, j, LL_JOBJ) || !known_keys(r, j, keys)) return false;
  const ll_json *v;
  size_t old;
  bool ok = true;
#define FIELD(key, expr)                        \
  if ((v = ll_json_get(j, key))) {              \
    old = jp_key(&r->p, key);                   \
    ok = (expr);                                \
    jp_pop(&r->p, old);                         \
    if (!ok) return false;                      \
  }
  if (!ll_json_get(j, "name")) return fail(r, j, "name is required");
  FIELD("name", ident(r, v, &k->name));
  const ll_json *src = ll_json_get(j, "source"), *co = ll_json_get(j, "code_object");
  if (!!src == !!co) return fail(r, j, "give exactly one of source (a .hip file) and code_object ({arch: file})");
  FIELD("source", path(r, v, &k->source));
  FIELD("code_object", code_objects(r, v, k->code_object));
  FIELD("kernel", str(r, v, &k->symbol));
  if (!k->symbol) k->symbol = ll_xstrdup(k->name);
  for (int a = 0; a < EMU_NARCH; a++) k->arch[a] = co ? k->code_object[a] != NULL : true;
  FIELD("arch", arches(r, v, k->arch));
  if (co)
    for (int a = 0; a < EMU_NARCH; a++)
      if (k->arch[a] && !k->code_object[a])
        return fail(r, ll_json_get(j, "code_object"), "arch %s is listed but code_object has no %s entry",
                    emu_arch_name((emu_arch)a), emu_arch_name((emu_arch)a));
  FIELD("defines", strlist(r, v, define, &k->defines, &k->ndefines));
  FIELD("includes", strlist(r, v, path, &k->includes, &k->nincludes));
  if (co && (k->ndefines || k->nincludes)) return fail(r, j, "defines and includes need a source, not a code_object");
  if (!ll_json_get(j, "grid")) return fail(r, j, "grid is required (workgroups, [x, y, z])");
  if (!ll_json_get(j, "block")) return fail(r, j, "block is required (work-items per workgroup, [x, y, z])");
  FIELD("grid", dim3(r, v, k->grid, UINT32_MAX));
  FIELD("block", dim3(r, v, k->block, 1024));
  uint64_t u = 0;
  FIELD("lds_bytes", uint_in(r, v, 0, 160 * 1024, &u));
  if (ll_json_get(j, "lds_bytes")) k->lds_bytes = (uint32_t)u;
  FIELD("insn_budget", uint_in(r, v, 1, UINT64_MAX >> 1, &k->insn_budget));
  if (!ll_json_get(j, "args")) return fail(r, j, "args is required (the kernel's arguments, in order)");
  v = ll_json_get(j, "args");
  old = jp_key(&r->p, "args");
  if (!want_type(r, v, LL_JARR)) ok = false;
  else if (v->n > MANIFEST_MAX_ARGS) ok = fail(r, v, "at most %d arguments", MANIFEST_MAX_ARGS);
  if (ok) {
    k->args = ll_xcalloc(v->n ? v->n : 1, sizeof *k->args);
    for (size_t i = 0; ok && i < v->n; i++) {
      size_t o2 = jp_idx(&r->p, i);
      ok = arg(r, v->items[i], &k->args[i]);
      k->nargs = i + 1;
      for (size_t q = 0; ok && q < i; q++)
        if (!strcmp(k->args[q].name, k->args[i].name)) ok = fail(r, v->items[i], "argument name '%s' used twice", k->args[i].name);
      jp_pop(&r->p, o2);
    }
  }
  jp_pop(&r->p, old);
  if (!ok) return false;
  FIELD("not_checked", str(r, v, &k->not_checked));
  FIELD("reference", reference(r, v, k));
  if (k->ref == MF_REF_NONE && !k->ref_files) {
    k->ref_files = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *k->ref_files);
    k->oracle_out = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *k->oracle_out);
  }
  if (k->ref != MF_REF_NONE && k->not_checked)
    return fail(r, j, "a kernel with a reference is checked: drop not_checked");
  bool has_out = false, has_oracle_in = false;
  for (size_t i = 0; i < k->nargs; i++) {
    has_out |= k->args[i].role == MF_ARG_OUT || k->args[i].role == MF_ARG_INOUT;
    has_oracle_in |= k->args[i].init == MF_INIT_ORACLE;
  }
  if (k->ref != MF_REF_NONE && !has_out) return fail(r, j, "a reference needs at least one out or inout argument");
  if (has_oracle_in && k->ref != MF_REF_ORACLE) return fail(r, j, "an argument takes an oracle input but the reference is not the oracle");
  FIELD("compare", compare(r, v, k));
  if ((v = ll_json_get(j, "mutants"))) {
    old = jp_key(&r->p, "mutants");
    if (!want_type(r, v, LL_JARR)) ok = false;
    else if (v->n > MANIFEST_MAX_LIST) ok = fail(r, v, "at most %d mutants", MANIFEST_MAX_LIST);
    else if (k->ref == MF_REF_NONE) ok = fail(r, v, "mutants need a reference to fail against");
    if (ok) {
      k->mutants = ll_xcalloc(v->n ? v->n : 1, sizeof *k->mutants);
      for (size_t i = 0; ok && i < v->n; i++) {
        size_t o2 = jp_idx(&r->p, i);
        ok = mutant(r, v->items[i], &k->mutants[i]);
        k->nmutants = i + 1;
        if (ok && !k->source && !k->mutants[i].code_object[0] && !k->mutants[i].code_object[1])
          ok = fail(r, v->items[i], "the kernel is a code_object: its mutants need their own code_object");
        for (int a = 0; ok && a < EMU_NARCH; a++)
          if (k->mutants[i].arch[a] && !k->arch[a] && ll_json_get(v->items[i], "arch")) {
            size_t o3 = jp_key(&r->p, "arch");
            ok = fail(r, ll_json_get(v->items[i], "arch"), "%s is not an arch of the kernel", emu_arch_name((emu_arch)a));
            jp_pop(&r->p, o3);
          }
        for (size_t q = 0; ok && q < i; q++)
          if (!strcmp(k->mutants[q].name, k->mutants[i].name)) ok = fail(r, v->items[i], "mutant name used twice");
        jp_pop(&r->p, o2);
      }
    }
    jp_pop(&r->p, old);
    if (!ok) return false;
  }
  k->sched[0] = EMU_SCHED_ROUND_ROBIN;
  k->nsched = 1;
  FIELD("schedule", schedules(r, v, k));
  FIELD("budgets", path(r, v, &k->budgets));
  FIELD("checks", checks(r, v, k) && ((!k->racecheck && !k->initcheck) || k->ref != MF_REF_NONE ||
                                      fail(r, v, "checks run in the outputs stage, which needs a reference")));
#undef FIELD
  return true;
}

static manifest *parse(const char *text, size_t len, const char *dir, bool check_files, ll_err *err) {
  ll_err je = {0};
  if (len > MANIFEST_MAX_BYTES) {
    ll_seterr(err, LL_EXIT_USAGE, "manifest is %zu bytes, more than the %u allowed", len, MANIFEST_MAX_BYTES);
    return NULL;
  }
  ll_json *root = ll_json_parse(text, len, &je);
  if (!root) {
    ll_seterr(err, LL_EXIT_USAGE, "not JSON: %s", je.msg);
    return NULL;
  }
  manifest *m = ll_xcalloc(1, sizeof *m);
  m->dir = ll_xstrdup(dir);
  rd r = {.dir = dir, .check_files = check_files, .err = err};
  static const char *const keys[] = {"name", "kernels", "comment", NULL};
  bool ok = want_type(&r, root, LL_JOBJ) && known_keys(&r, root, keys);
  const ll_json *ks = ok ? ll_json_get(root, "kernels") : NULL;
  const ll_json *nm = ok ? ll_json_get(root, "name") : NULL;
  if (ok && nm) { size_t old = jp_key(&r.p, "name"); ok = ident(&r, nm, &m->project); jp_pop(&r.p, old); }
  if (ok && !ks) ok = fail(&r, root, "kernels is required");
  if (ok) {
    size_t old = jp_key(&r.p, "kernels");
    if (!want_type(&r, ks, LL_JARR)) ok = false;
    else if (ks->n == 0) ok = fail(&r, ks, "no kernels");
    else if (ks->n > MANIFEST_MAX_KERNELS) ok = fail(&r, ks, "at most %d kernels", MANIFEST_MAX_KERNELS);
    if (ok) {
      m->kernels = ll_xcalloc(ks->n, sizeof *m->kernels);
      for (size_t i = 0; ok && i < ks->n; i++) {
        size_t o2 = jp_idx(&r.p, i);
        ok = kernel(&r, ks->items[i], &m->kernels[i]);
        m->nkernels = i + 1;
        for (size_t q = 0; ok && q < i; q++)
          if (!strcmp(m->kernels[q].name, m->kernels[i].name))
            ok = fail(&r, ks->items[i], "kernel name '%s' used twice", m->kernels[i].name);
        jp_pop(&r.p, o2);
      }
    }
    jp_pop(&r.p, old);
  }
  ll_json_free(root);
  if (!ok) { manifest_free(m); return NULL; }
  return m;
}

manifest *manifest_parse(const char *text, size_t len, const char *dir, ll_err *err) {
  return parse(text, len, dir, false, err);
}

manifest *manifest_load(const char *file, ll_err *err) {
  struct stat st;
  if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "manifest %s: not a readable regular file", file);
    return NULL;
  }
  if ((uint64_t)st.st_size > MANIFEST_MAX_BYTES) {
    ll_seterr(err, LL_EXIT_USAGE, "manifest %s is %lld bytes, more than the %u allowed", file, (long long)st.st_size,
              MANIFEST_MAX_BYTES);
    return NULL;
  }
  size_t n;
  char *text = ll_read_file(file, &n, err);
  if (!text) return NULL;
  char *dir = ll_dirname(file);
  manifest *m = parse(text, n, dir, true, err);
  free(text);
  free(dir);
  if (!m) { ll_err_prefix(err, "manifest %s", file); return NULL; }
  m->path = ll_xstrdup(file);
  return m;
}

static void freelist(char **l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i]);
  free(l);
}

void manifest_free(manifest *m) {
  if (!m) return;
  for (size_t i = 0; i < m->nkernels; i++) {
    mf_kernel *k = &m->kernels[i];
    free(k->name); free(k->source); free(k->symbol);
    for (int a = 0; a < EMU_NARCH; a++) free(k->code_object[a]);
    freelist(k->defines, k->ndefines);
    freelist(k->includes, k->nincludes);
    for (size_t q = 0; q < k->nargs; q++) {
      free(k->args[q].name); free(k->args[q].file); free(k->args[q].oracle_tensor);
      if (k->ref_files) free(k->ref_files[q]);
      if (k->oracle_out) free(k->oracle_out[q]);
    }
    free(k->args); free(k->ref_files); free(k->oracle_out);
    free(k->ref_c); free(k->ref_function); free(k->oracle); free(k->oracle_spec);
    freelist(k->ref_cflags, k->nref_cflags);
    for (size_t q = 0; q < k->ncompare; q++) free(k->compare[q].arg);
    free(k->compare);
    for (size_t q = 0; q < k->nmutants; q++) {
      mf_mutant *mu = &k->mutants[q];
      free(mu->name); free(mu->source);
      freelist(mu->defines, mu->ndefines);
      for (int a = 0; a < EMU_NARCH; a++) free(mu->code_object[a]);
    }
    free(k->mutants);
    free(k->budgets); free(k->not_checked);
  }
  free(m->kernels);
  free(m->path); free(m->dir); free(m->project);
  free(m);
}

void manifest_tolerance(const mf_kernel *k, const mf_arg *a, double *atol, double *rtol) {
  for (size_t i = 0; i < k->ncompare; i++)
    if (!strcmp(k->compare[i].arg, a->name)) { *atol = k->compare[i].atol; *rtol = k->compare[i].rtol; return; }
  oracle_etype et;
  if (oracle_etype_parse(mf_dtype_name(a->dtype), &et)) oracle_compare_default_tol(et, atol, rtol);
  else *atol = *rtol = 0;
}

size_t manifest_case_run(const manifest *m, size_t kernel, emu_arch arch, size_t sched) {
  size_t k = 0;
  for (size_t i = 0; i < kernel; i++) k += EMU_NARCH * m->kernels[i].nsched;
  return k + (size_t)arch * m->kernels[kernel].nsched + sched;
}

static size_t nrun_cases(const manifest *m) {
  return m->nkernels ? manifest_case_run(m, m->nkernels - 1, EMU_NARCH - 1, m->kernels[m->nkernels - 1].nsched - 1) + 1 : 0;
}

size_t manifest_case_mutant(const manifest *m, size_t kernel, size_t mutant, emu_arch arch) {
  size_t k = nrun_cases(m);
  for (size_t i = 0; i < kernel; i++) k += EMU_NARCH * m->kernels[i].nmutants;
  return k + mutant * EMU_NARCH + (size_t)arch;
}

size_t manifest_ncases(const manifest *m) {
  size_t k = nrun_cases(m);
  for (size_t i = 0; i < m->nkernels; i++) k += EMU_NARCH * m->kernels[i].nmutants;
  return k;
}
