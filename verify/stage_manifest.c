/* verify/stage_manifest — a manifest as a case source, and the stages `lanelab verify --manifest
 * FILE.json` runs for one arch (entries of verify/stages.c's table):
 *   kernels   every manifest kernel (and mutant source) built for the arch, each one's checks
 *             named; a kernel no stage checks is NOT CHECKED (a failure unless the manifest gives
 *             the reason in "not_checked")
 *   isa       census of every code object; the kernel's "budgets" rules when it has them
 *   outputs   each (kernel, schedule) case: the kernel's outputs against its reference (C
 *             function, expected files or the oracle) at the per-output tolerances
 *   mutants   each manifest mutant run on the same inputs must fail; its detection ratio (mutant
 *             max abs error / the correct kernel's, the noise floor) is reported
 * Build outputs go under BUILD (BUILD/<arch>/kernels/<name>.co, BUILD/<arch>/mutants/<mutant>/,
 * BUILD/ref/<name>.so), results and reports where `lanelab verify` puts them. */
#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/isa.h"
#include "oracle/oracle.h"
#include "runtime/rt.h"
#include "verify/manifest.h"
#include "verify/prod.h"
#include "verify/verify.h"
#include "include/lanelab/ref.h"

#define MF_MAX_FILE (MANIFEST_MAX_BUFFER)

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- building ------------------------------------------------------------------------------
 * Through lanelab's one device-compiler driver (isa_cc_compile, `lanelab cc`), with lanelab's
 * device headers (kernels/include), the kernel's includes and defines after its own flags. */
static bool device_compile(const char *src, emu_arch arch, char **defines, size_t nd, char **defines2, size_t nd2,
                           char **includes, size_t ni, const char *out, ll_err *err) {
  char *inc = ll_data_path("kernels/include", err);
  if (!inc) return false;
  char *dir = ll_dirname(out);
  if (!ll_mkdir_p(dir, err)) { free(inc); free(dir); return false; }
  /* an earlier build's code object must not stand in for one that fails to build now */
  struct stat ost;
  if (lstat(out, &ost) == 0) {
    if (!S_ISREG(ost.st_mode)) {
      ll_seterr(err, LL_EXIT_USAGE, "%s exists and is not a regular file; not replacing it", out);
      free(inc); free(dir);
      return false;
    }
    unlink(out);
  }
  char **argv = ll_xcalloc(4 + nd + nd2 + 2 * ni, sizeof *argv);
  size_t n = 0;
  char *inc_flag = ll_fmt("-I%s", inc);
  argv[n++] = inc_flag;
  for (size_t i = 0; i < ni; i++) { argv[n++] = "-I"; argv[n++] = includes[i]; }
  for (size_t i = 0; i < nd; i++) argv[n++] = defines[i];
  for (size_t i = 0; i < nd2; i++) argv[n++] = defines2[i];
  argv[n] = NULL;
  ll_buf diag = {0};
  bool ok = isa_cc_compile(src, emu_arch_name(arch), out, NULL, argv, &diag, err);
  if (!ok && err->code == LL_EXIT_USAGE && diag.len)
    ll_seterr(err, LL_EXIT_USAGE, "compiling %s for %s failed: %.700s", src, emu_arch_name(arch), ll_buf_str(&diag));
  ll_buf_free(&diag);
  free(argv); free(inc_flag); free(dir); free(inc);
  return ok;
}

char *manifest_co_path(const verify_ctx *c, const mf_kernel *k, const mf_mutant *mu) {
  if (mu && mu->code_object[c->arch]) return ll_xstrdup(mu->code_object[c->arch]);
  if (!mu && k->code_object[c->arch]) return ll_xstrdup(k->code_object[c->arch]);
  if (mu) return ll_fmt("%s/%s/mutants/%s/%s.co", c->build, c->arch_name, mu->name, k->name);
  return ll_fmt("%s/%s/kernels/%s.co", c->build, c->arch_name, k->name);
}

/* Builds the kernel (mu NULL) or a mutant for c->arch unless it is a given code object; returns
 * its path (malloc'd) or NULL with err. */
static char *build_kernel(const verify_ctx *c, const mf_kernel *k, const mf_mutant *mu, ll_err *err) {
  char *co = manifest_co_path(c, k, mu);
  bool given = mu ? mu->code_object[c->arch] != NULL : k->code_object[c->arch] != NULL;
  if (given) {
    if (!is_file(co)) { ll_seterr(err, LL_EXIT_USAGE, "code object %s does not exist", co); free(co); return NULL; }
    return co;
  }
  const char *src = mu && mu->source ? mu->source : k->source;
  if (!src || !is_file(src)) {
    ll_seterr(err, LL_EXIT_USAGE, "kernel source %s does not exist", src ? src : "(none)");
    free(co);
    return NULL;
  }
  if (!device_compile(src, c->arch, k->defines, k->ndefines, mu ? mu->defines : NULL, mu ? mu->ndefines : 0,
                      k->includes, k->nincludes, co, err)) {
    free(co);
    return NULL;
  }
  return co;
}

/* ---- buffers -------------------------------------------------------------------------------- */
static void put_elem(mf_dtype t, void *p, size_t i, double v) {
  uint8_t *b = p;
  int64_t iv = isfinite(v) ? (v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)llround(v)) : 0;
  switch (t) {
    case MF_F32: { float f = (float)v; memcpy(b + 4 * i, &f, 4); break; }
    case MF_F64: memcpy(b + 8 * i, &v, 8); break;
    case MF_F16: { uint16_t h = oracle_f32_to_f16((float)v); memcpy(b + 2 * i, &h, 2); break; }
    case MF_BF16: { uint16_t h = oracle_f32_to_bf16((float)v); memcpy(b + 2 * i, &h, 2); break; }
    case MF_I32: case MF_U32: { uint32_t u = (uint32_t)iv; memcpy(b + 4 * i, &u, 4); break; }
    case MF_I16: case MF_U16: { uint16_t u = (uint16_t)iv; memcpy(b + 2 * i, &u, 2); break; }
    case MF_I8: case MF_U8: b[i] = (uint8_t)iv; break;
    case MF_I64: case MF_U64: memcpy(b + 8 * i, &iv, 8); break;
    case MF_FP8_E4M3: b[i] = oracle_f32_to_fp8((float)v, ORACLE_FP8_E4M3); break;
    case MF_FP8_E5M2: b[i] = oracle_f32_to_fp8((float)v, ORACLE_FP8_E5M2); break;
    case MF_FP8_E4M3_FNUZ: b[i] = oracle_f32_to_fp8((float)v, ORACLE_FP8_E4M3_FNUZ); break;
    case MF_FP8_E5M2_FNUZ: b[i] = oracle_f32_to_fp8((float)v, ORACLE_FP8_E5M2_FNUZ); break;
    default: break;
  }
}

/* Deterministic initial contents (splitmix64 from the seed; normal by Box-Muller). */
static void fill(const mf_arg *a, size_t argi, uint8_t *buf) {
  uint64_t st = a->seed ? a->seed : argi + 1;
  switch (a->init) {
    case MF_INIT_POISON: memset(buf, 0xff, a->bytes); break;
    case MF_INIT_CONST: for (size_t i = 0; i < a->count; i++) put_elem(a->dtype, buf, i, a->init_a); break;
    case MF_INIT_IOTA: for (size_t i = 0; i < a->count; i++) put_elem(a->dtype, buf, i, a->init_a + a->init_b * (double)i); break;
    case MF_INIT_UNIFORM:
      for (size_t i = 0; i < a->count; i++) {
        double u = (double)(ll_splitmix64(&st) >> 11) * 0x1p-53;
        double v = a->init_a + u * (a->init_b - a->init_a);
        if (!mf_dtype_is_float(a->dtype)) v = floor(v);
        put_elem(a->dtype, buf, i, v);
      }
      break;
    case MF_INIT_NORMAL:
      for (size_t i = 0; i < a->count; i++) {
        double u1 = ((double)(ll_splitmix64(&st) >> 11) + 1) * 0x1p-53, u2 = (double)(ll_splitmix64(&st) >> 11) * 0x1p-53;
        put_elem(a->dtype, buf, i, a->init_a + a->init_b * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
      }
      break;
    default: break;
  }
}

/* A file of exactly `want` bytes (0: any size up to the cap), capped. */
static uint8_t *read_exact(const char *path, uint64_t want, uint64_t *got, const char *what, ll_err *err) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: %s is not a readable regular file", what, path);
    return NULL;
  }
  if ((uint64_t)st.st_size > MF_MAX_FILE || (want && (uint64_t)st.st_size != want) || st.st_size == 0) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: %s has %lld bytes, expected %llu", what, path, (long long)st.st_size,
              (unsigned long long)(want ? want : 1));
    return NULL;
  }
  size_t n;
  uint8_t *b = ll_read_file_max(path, MF_MAX_FILE, &n, err);
  if (b && want && n != want) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: %s changed size while read", what, path);
    free(b);
    return NULL;
  }
  *got = n;
  return b;
}

/* One case's host data: the initial contents of every argument and the reference outputs. */
typedef struct mf_data {
  mf_arg *args;             /* copies of the manifest's args with count/bytes/shape settled */
  uint8_t **init;           /* [nargs] initial bytes (buffers) */
  uint8_t **ref;            /* [nargs] reference outputs (outputs only) */
  size_t nargs;
} mf_data;

static void data_free(mf_data *d) {
  for (size_t i = 0; i < d->nargs; i++) { free(d->init[i]); free(d->ref[i]); }
  free(d->init); free(d->ref); free(d->args);
  memset(d, 0, sizeof *d);
}

/* ---- the C reference ------------------------------------------------------------------------ */
static char *ref_so_path(const verify_ctx *c, const mf_kernel *k) {
  return ll_fmt("%s/ref/%s.so", c->build, k->name);
}

/* "void NAME(const float *x, float a, ...)" as the manifest's arguments make the reference's
 * prototype (abi "args"), malloc'd. */
static char *ref_prototype(const mf_kernel *k, const char *name, bool names) {
  ll_buf b = {0};
  ll_buf_printf(&b, "void %s(", name);
  for (size_t i = 0; i < k->nargs; i++) {
    const mf_arg *a = &k->args[i];
    const char *t = mf_dtype_ctype(a->dtype), *sep = names ? " " : "", *nm = names ? a->name : "";
    if (a->role == MF_ARG_SCALAR) ll_buf_printf(&b, "%s%s%s%s", i ? ", " : "", t, sep, nm);
    else ll_buf_printf(&b, "%s%s%s *%s", i ? ", " : "", a->role == MF_ARG_IN ? "const " : "", t, nm);
  }
  ll_buf_puts(&b, k->nargs ? ")" : "void)");
  return b.data;
}

/* Compiles the reference into BUILD/ref/<name>.so: a generated file includes the user's source
 * and calls the function with the kernel's argument types (so a mismatch is a compile error). */
static bool ref_build(const verify_ctx *c, const mf_kernel *k, ll_err *err) {
  if (strpbrk(k->ref_c, "\"\\\n")) {
    ll_seterr(err, LL_EXIT_USAGE, "reference path %s contains a quote, backslash or newline", k->ref_c);
    return false;
  }
  if (!is_file(k->ref_c)) { ll_seterr(err, LL_EXIT_USAGE, "reference source %s does not exist", k->ref_c); return false; }
  char *incdir = ll_data_path("include", err);
  if (!incdir) return false;
  char *dir = ll_fmt("%s/ref", c->build);
  char *so = ref_so_path(c, k), *tmp = ll_fmt("%s.tmp-%d", so, (int)getpid()), *shim = ll_fmt("%s/%s.shim.c", dir, k->name);
  char *src_abs = k->ref_c[0] == '/' ? ll_xstrdup(k->ref_c) : realpath(k->ref_c, NULL);
  ll_buf s = {0};
  ll_buf_printf(&s, "/* generated by lanelab verify --manifest for kernel %s; do not edit */\n", k->name);
  ll_buf_printf(&s, "#include <lanelab/ref.h>\n#include \"%s\"\n", src_abs ? src_abs : k->ref_c);
  ll_buf_printf(&s, "int lanelab_ref_entry__(lanelab_ref_call *c);\nint lanelab_ref_entry__(lanelab_ref_call *c) {\n");
  if (k->ref_call_abi) {
    ll_buf_printf(&s, "  lanelab_ref_fn f = %s;\n  return f(c);\n}\n", k->ref_function);
  } else {
    /* the function through a pointer of exactly the types the manifest gives, so a prototype
     * that disagrees (an int n given as "f32") is a compile error, not a silent conversion */
    char *proto = ref_prototype(k, "(*lanelab_ref_typed__)", false);
    ll_buf_printf(&s, "  %s = %s;\n", proto, k->ref_function);
    free(proto);
    ll_buf_puts(&s, "  lanelab_ref_typed__(");
    for (size_t i = 0; i < k->nargs; i++) {
      const mf_arg *a = &k->args[i];
      const char *t = mf_dtype_ctype(a->dtype);
      if (a->role == MF_ARG_SCALAR) ll_buf_printf(&s, "%s*(const %s *)c->args[%zu].data", i ? ", " : "", t, i);
      else ll_buf_printf(&s, "%s(%s%s *)c->args[%zu].data", i ? ", " : "", a->role == MF_ARG_IN ? "const " : "", t, i);
    }
    ll_buf_puts(&s, ");\n  return 0;\n}\n");
  }
  free(src_abs);
  bool ok = ll_mkdir_p(dir, err) && ll_write_file_atomic(shim, s.data, s.len, err);
  ll_buf_free(&s);
  if (ok) {
    const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
    char *incf = ll_fmt("-I%s", incdir);
    char **argv = ll_xcalloc(24 + k->nref_cflags, sizeof *argv);
    size_t n = 0;
    argv[n++] = (char *)cc; argv[n++] = "-std=gnu11"; argv[n++] = "-O2"; argv[n++] = "-fPIC"; argv[n++] = "-shared";
    argv[n++] = "-Werror=incompatible-pointer-types"; argv[n++] = "-Werror=implicit-function-declaration";
    argv[n++] = "-Werror=int-conversion"; argv[n++] = "-Werror=discarded-qualifiers"; argv[n++] = incf;
    for (size_t i = 0; i < k->nref_cflags; i++) argv[n++] = k->ref_cflags[i];
    argv[n++] = "-o"; argv[n++] = tmp; argv[n++] = shim; argv[n++] = "-lm";
    argv[n] = NULL;
    ll_buf eo = {0};
    int rc = isa_run(argv, NULL, NULL, NULL, &eo, err);
    if (rc < 0) {
      ll_err_prefix(err, "C compiler '%s' for the reference", cc);
      err->code = LL_EXIT_ENV;
      ok = false;
    } else if (rc != 0 && strstr(ll_buf_str(&eo), "lanelab_ref_typed__") && !k->ref_call_abi) {
      char *want = ref_prototype(k, k->ref_function, true);
      ll_seterr(err, LL_EXIT_USAGE, "reference %s: %s's prototype disagrees with the kernel's arguments in the manifest: "
                "lanelab calls it as %s (a scalar's manifest type is the C type it gets); the compiler says: %.500s",
                k->ref_c, k->ref_function, want, ll_buf_str(&eo));
      free(want);
      ok = false;
    } else if (rc != 0) {
      ll_seterr(err, LL_EXIT_USAGE, "compiling reference %s (function %s) failed (exit %d): %.700s", k->ref_c,
                k->ref_function, rc, eo.len ? ll_buf_str(&eo) : "(no message)");
      ok = false;
    } else if (rename(tmp, so) != 0) {
      ll_seterr(err, LL_EXIT_FAIL, "cannot rename %s to %s", tmp, so);
      ok = false;
    }
    if (!ok) unlink(tmp);
    ll_buf_free(&eo);
    free(argv);
    free(incf);
  }
  free(incdir); free(dir); free(so); free(tmp); free(shim);
  return ok;
}


/* The shared objects this process built (each reference is compiled once per verify, so an edited
 * reference or a header it includes is always picked up). */
static char **built_refs;
static size_t nbuilt_refs;
static pthread_mutex_t built_lock = PTHREAD_MUTEX_INITIALIZER;

static bool ref_call_c(const verify_ctx *c, const mf_kernel *k, mf_data *d, ll_err *err) {
  char *so = ref_so_path(c, k);
  pthread_mutex_lock(&built_lock);
  bool have = false;
  for (size_t i = 0; i < nbuilt_refs && !have; i++) have = !strcmp(built_refs[i], so);
  if (!have && !ref_build(c, k, err)) { pthread_mutex_unlock(&built_lock); free(so); return false; }
  if (!have) {
    built_refs = ll_xrealloc(built_refs, (nbuilt_refs + 1) * sizeof *built_refs);
    built_refs[nbuilt_refs++] = ll_xstrdup(so);
  }
  pthread_mutex_unlock(&built_lock);
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) { ll_seterr(err, LL_EXIT_USAGE, "loading reference %s: %s", so, dlerror()); free(so); return false; }
  lanelab_ref_fn fn;
  *(void **)&fn = dlsym(h, "lanelab_ref_entry__");
  if (!fn) { ll_seterr(err, LL_EXIT_USAGE, "%s has no entry point (rebuild it)", so); dlclose(h); free(so); return false; }
  lanelab_ref_arg *ra = ll_xcalloc(d->nargs ? d->nargs : 1, sizeof *ra);
  uint8_t scal[MANIFEST_MAX_ARGS][8];
  for (size_t i = 0; i < d->nargs; i++) {
    mf_arg *a = &d->args[i];
    ra[i].name = a->name;
    ra[i].role = (lanelab_ref_role)a->role;
    ra[i].dtype = mf_dtype_name(a->dtype);
    ra[i].bytes = a->bytes;
    ra[i].count = a->count;
    ra[i].ndim = a->role == MF_ARG_SCALAR ? 0 : a->ndim;
    ra[i].shape = a->shape;
    if (a->role == MF_ARG_SCALAR) {
      memset(scal[i], 0, 8);
      if (mf_dtype_is_float(a->dtype)) put_elem(a->dtype, scal[i], 0, a->value.f);
      else memcpy(scal[i], &a->value.i, mf_dtype_size(a->dtype)); /* little-endian low bytes */
      ra[i].data = scal[i];
    } else {
      /* outputs start with the same contents the kernel's buffer had */
      if (a->role != MF_ARG_IN) {
        d->ref[i] = ll_xmalloc(a->bytes);
        memcpy(d->ref[i], d->init[i], a->bytes);
        ra[i].data = d->ref[i];
      } else {
        ra[i].data = ll_xmalloc(a->bytes); /* a copy: the reference must not change what the kernel gets */
        memcpy(ra[i].data, d->init[i], a->bytes);
      }
    }
  }
  char msg[512] = "";
  lanelab_ref_call call = {.abi = LANELAB_REF_ABI, .kernel = k->name, .arch = c->arch_name, .nargs = d->nargs,
                           .args = ra, .error = msg, .error_size = sizeof msg};
  memcpy(call.grid, k->grid, sizeof call.grid);
  memcpy(call.block, k->block, sizeof call.block);
  int rc = fn(&call);
  for (size_t i = 0; i < d->nargs; i++)
    if (d->args[i].role == MF_ARG_IN) free(ra[i].data);
  free(ra);
  dlclose(h);
  free(so);
  if (rc != 0) {
    ll_seterr(err, LL_EXIT_USAGE, "reference %s returned %d: %s", k->ref_function, rc, msg[0] ? msg : "(no message)");
    return false;
  }
  return true;
}

/* Settles every argument's size, makes its initial bytes and computes the reference outputs. */
static bool data_make(const verify_ctx *c, const mf_kernel *k, mf_data *d, ll_err *err) {
  d->nargs = k->nargs;
  d->args = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *d->args);
  d->init = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *d->init);
  d->ref = ll_xcalloc(k->nargs ? k->nargs : 1, sizeof *d->ref);
  memcpy(d->args, k->args, k->nargs * sizeof *k->args);
  oracle_attention_spec *spec = NULL;
  float *o = NULL, *lse = NULL;
  bool ok = true;
  if (k->ref == MF_REF_ORACLE) {
    spec = oracle_attention_spec_load(k->oracle_spec, err);
    if (!spec) { ll_err_prefix(err, "oracle spec of %s", k->name); return false; }
  }
  for (size_t i = 0; ok && i < k->nargs; i++) {
    mf_arg *a = &d->args[i];
    if (a->role == MF_ARG_SCALAR) continue;
    char *what = ll_fmt("%s argument %s", k->name, a->name);
    if (a->init == MF_INIT_FILE) {
      uint64_t got = 0;
      d->init[i] = read_exact(a->file, a->ndim ? a->bytes : 0, &got, what, err);
      if (!d->init[i]) ok = false;
      else if (!a->ndim) {
        if (got % mf_dtype_size(a->dtype)) {
          ll_seterr(err, LL_EXIT_USAGE, "%s: %s has %llu bytes, not a whole number of %s", what, a->file,
                    (unsigned long long)got, mf_dtype_name(a->dtype));
          ok = false;
        }
        a->count = got / mf_dtype_size(a->dtype);
        a->bytes = got;
        a->ndim = 1;
        a->shape[0] = (int64_t)a->count;
      }
    } else if (a->init == MF_INIT_ORACLE) {
      const void *src = a->oracle_tensor[0] == 'q' ? spec->q : a->oracle_tensor[0] == 'k' ? spec->k : spec->v;
      int64_t n = a->oracle_tensor[0] == 'q' ? oracle_attention_q_elems(spec) : oracle_attention_kv_elems(spec);
      mf_dtype dt = spec->dtype == ORACLE_F16 ? MF_F16 : spec->dtype == ORACLE_BF16 ? MF_BF16 : MF_F32;
      if (a->ndim && (a->count != (uint64_t)n || a->dtype != dt)) {
        ll_seterr(err, LL_EXIT_USAGE, "%s: the oracle's %s is %" PRId64 " %s elements, the manifest says %llu %s", what,
                  a->oracle_tensor, n, mf_dtype_name(dt), (unsigned long long)a->count, mf_dtype_name(a->dtype));
        ok = false;
      } else {
        a->dtype = dt;
        a->count = (uint64_t)n;
        a->bytes = a->count * mf_dtype_size(dt);
        if (!a->ndim) { a->ndim = 1; a->shape[0] = n; }
        d->init[i] = ll_xmalloc(a->bytes);
        memcpy(d->init[i], src, a->bytes);
      }
    } else {
      d->init[i] = ll_xmalloc(a->bytes);
      fill(a, i, d->init[i]);
    }
    free(what);
  }
  if (!ok) goto out;
  switch (k->ref) {
    case MF_REF_C: ok = ref_call_c(c, k, d, err); break;
    case MF_REF_FILES:
      for (size_t i = 0; ok && i < k->nargs; i++) {
        if (!k->ref_files[i]) continue;
        uint64_t got;
        char *what = ll_fmt("expected output %s of %s", d->args[i].name, k->name);
        d->ref[i] = read_exact(k->ref_files[i], d->args[i].bytes, &got, what, err);
        ok = d->ref[i] != NULL;
        free(what);
      }
      break;
    case MF_REF_ORACLE: {
      int64_t tq = oracle_attention_total_q(spec), nlse = tq * spec->num_qo_heads, no = nlse * spec->head_dim;
      o = ll_xmalloc((size_t)no * 4);
      lse = ll_xmalloc((size_t)nlse * 4);
      ok = oracle_attention_run(spec, o, lse, NULL, err);
      for (size_t i = 0; ok && i < k->nargs; i++) {
        if (!k->oracle_out[i]) continue;
        bool iso = k->oracle_out[i][0] == 'o';
        uint64_t n = (uint64_t)(iso ? no : nlse);
        if (d->args[i].count != n) {
          ll_seterr(err, LL_EXIT_USAGE, "%s argument %s has %llu elements, the oracle's %s has %llu", k->name,
                    d->args[i].name, (unsigned long long)d->args[i].count, k->oracle_out[i], (unsigned long long)n);
          ok = false;
          break;
        }
        d->ref[i] = ll_xmalloc(n * 4);
        memcpy(d->ref[i], iso ? o : lse, n * 4);
      }
      break;
    }
    default: break;
  }
out:
  free(o); free(lse);
  if (spec) oracle_attention_spec_free(spec);
  return ok;
}

/* ---- running on the device ------------------------------------------------------------------ */
static rt_arg scalar_arg(const mf_arg *a) {
  rt_arg r = {0};
  switch (a->dtype) {
    case MF_F32: r.kind = RT_ARG_F32; r.f32 = (float)a->value.f; break;
    case MF_F64: r.kind = RT_ARG_U64; memcpy(&r.u64, &a->value.f, 8); break;
    case MF_I64: case MF_U64: r.kind = RT_ARG_U64; r.u64 = (uint64_t)a->value.i; break;
    case MF_I32: case MF_I16: case MF_I8: r.kind = RT_ARG_I32; r.i32 = (int32_t)a->value.i; break;
    default: r.kind = RT_ARG_U32; r.u32 = (uint32_t)a->value.i; break;
  }
  return r;
}

/* What the kernel's "checks" found in one run (docs/trace.md). */
typedef struct mf_findings {
  bool checked;             /* the observers ran (the emulator; the hip backend has none) */
  size_t n;                 /* reports (each folds the byte conflicts of one kind and PC pair) */
  char first[1200];          /* emu_hazard_format of the first */
} mf_findings;

static bool wants_checks(const mf_kernel *k) { return k->racecheck || k->initcheck; }

/* The case as the one case runner launches it: every argument by name with its initial bytes, out
 * buffers marked for initcheck (their poison is no value to read), outputs with a reference
 * compared at the kernel's tolerances. args: k->nargs entries. */
static void case_launch(const mf_kernel *k, const mf_data *d, const char *co, emu_sched sched, vc_launch *l,
                        vc_arg *args) {
  *l = (vc_launch){.co = co, .kernel = k->symbol, .lds_bytes = k->lds_bytes, .args = args, .nargs = d->nargs,
                   .sched = sched, .insn_budget = k->insn_budget, .threads = 2, .racecheck = k->racecheck,
                   .racecheck_global = k->racecheck_global, .initcheck = k->initcheck};
  memcpy(l->grid, k->grid, sizeof l->grid);
  memcpy(l->block, k->block, sizeof l->block);
  for (size_t i = 0; i < d->nargs; i++) {
    const mf_arg *a = &d->args[i];
    vc_arg *v = &args[i];
    *v = (vc_arg){.name = a->name};
    if (a->role == MF_ARG_SCALAR) {
      v->role = VC_SCALAR;
      v->scalar = scalar_arg(a);
      continue;
    }
    v->role = a->role == MF_ARG_IN ? VC_IN : a->role == MF_ARG_OUT ? VC_OUT : VC_INOUT;
    v->bytes = a->bytes;
    v->init = d->init[i];
    v->init_bytes = a->bytes;
    v->uninit = a->role == MF_ARG_OUT;
    if (!d->ref[i]) continue;
    v->ref = d->ref[i];
    v->ref_bytes = a->bytes;
    oracle_etype_parse(mf_dtype_name(a->dtype), &v->etype); /* buffers are oracle element types (manifest.c) */
    manifest_tolerance(k, a, &v->atol, &v->rtol);
    v->ndims = (size_t)a->ndim;
    for (int q = 0; q < a->ndim; q++) v->dims[q] = (uint64_t)a->shape[q];
  }
}

/* One run of a code object on a case: outputs compared with the reference. */
typedef struct mf_outcome {
  int rc;                   /* LL_EXIT_OK compared; else the run failed (err) */
  bool launched;            /* the launch was made */
  bool pass;
  double max_abs;           /* over all outputs (finite pairs) */
  uint64_t mismatches, nonfinite;
  char first[512];          /* the first failing output's first mismatch, for the console */
  mf_findings found;        /* the kernel's checks; any report fails the case */
} mf_outcome;

/* Runs a planned case (its code object and schedule as l says) and compares every output. */
static void run_and_compare(rt_device *dev, const vc_launch *lp, const mf_data *d, report_table *t, const char *label,
                            mf_outcome *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  const vc_launch l = *lp;
  const vc_arg *args = l.args;
  vc_result r;
  out->rc = verify_case_run(dev, &l, &r, err);
  out->launched = r.launched;
  out->found = (mf_findings){.checked = r.checked, .n = r.hazards};
  snprintf(out->found.first, sizeof out->found.first, "%s", r.hazard);
  out->pass = out->rc == LL_EXIT_OK && r.pass;
  out->max_abs = r.max_abs;
  out->mismatches = r.mismatches;
  out->nonfinite = r.nonfinite;
  for (size_t i = 0; out->rc == LL_EXIT_OK && i < d->nargs; i++) {
    if (!args[i].ref) continue;
    const oracle_compare_result *c = &r.cmp[i];
    char *first = vc_first_index(&l, &r, i);
    const oracle_mismatch *f = c->nfirst ? &c->first[0] : NULL;
    if (c->over && !out->first[0] && !r.hazards) /* a hazard's line leads (verify_stage_outputs) */
      snprintf(out->first, sizeof out->first, "argument %s: %llu of %llu elements outside |got-ref| <= atol + rtol*|ref| "
               "(atol %g, rtol %g); first mismatch %s: got %.9g, expected %.9g", args[i].name,
               (unsigned long long)c->over, (unsigned long long)c->n, args[i].atol, args[i].rtol, first, f->got, f->ref);
    if (t) {
      char fm[200] = "-";
      if (f) snprintf(fm, sizeof fm, "%s got %.9g expected %.9g", first, f->got, f->ref);
      report_table_row(t, "%s\t%s\t%s\t%llu\t%llu\t%llu\t%g\t%g\t%g\t%g\t%s\t%s", label, args[i].name,
                       mf_dtype_name(d->args[i].dtype), (unsigned long long)c->n, (unsigned long long)c->over,
                       (unsigned long long)c->nonfinite, c->max_abs, c->max_rel, args[i].atol, args[i].rtol, fm,
                       c->over ? "FAIL" : "pass");
    }
    free(first);
  }
  vc_result_free(&r);
}

/* ---- the source ------------------------------------------------------------------------------- */
/* What a planned manifest case owns (vc_case.data). */
typedef struct mf_case {
  const mf_kernel *k;
  mf_data d;
  vc_arg *args;
  char *co;
} mf_case;

static void mf_case_free(void *p) {
  mf_case *m = p;
  data_free(&m->d);
  free(m->args);
  free(m->co);
  free(m);
}

/* Kernel i, schedule s of case k of the manifest on arch (manifest_case_run's numbering). */
static bool case_of(const manifest *m, size_t k, emu_arch a, size_t *ki, size_t *si) {
  for (size_t i = 0; i < m->nkernels; i++)
    for (size_t s = 0; s < m->kernels[i].nsched; s++)
      if (manifest_case_run(m, i, a, s) == k) { *ki = i; *si = s; return true; }
  return false;
}

static bool plan_manifest_case(const verify_source *src, size_t k, const char *build, emu_arch arch, vc_case *out,
                               ll_err *err) {
  const manifest *m = src->self;
  memset(out, 0, sizeof *out);
  size_t i, s;
  if (!case_of(m, k, arch, &i, &s)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s has no case %zu on %s", m->path ? m->path : "the manifest", k, emu_arch_name(arch));
    return false;
  }
  verify_ctx c = {.arch = arch, .arch_name = emu_arch_name(arch), .build = build, .manifest = m};
  mf_case *mc = ll_xcalloc(1, sizeof *mc);
  mc->k = &m->kernels[i];
  if (!data_make(&c, mc->k, &mc->d, err)) {
    mf_case_free(mc);
    return false;
  }
  mc->co = manifest_co_path(&c, mc->k, NULL);
  mc->args = ll_xcalloc(mc->d.nargs ? mc->d.nargs : 1, sizeof *mc->args);
  case_launch(mc->k, &mc->d, mc->co, mc->k->sched[s], &out->l, mc->args);
  snprintf(out->name, sizeof out->name, "%s/%s", mc->k->name, mf_sched_name(mc->k->sched[s]));
  snprintf(out->klass, sizeof out->klass, "%s", mc->k->name);
  out->data = mc;
  out->free_data = mf_case_free;
  return true;
}

verify_source manifest_source(const manifest *m) {
  return (verify_source){.name = "manifest", .n = manifest_ncases(m), .plan = plan_manifest_case, .self = (void *)m};
}

/* ---- the stages ------------------------------------------------------------------------------ */
/* "racecheck=global+initcheck" and the like: the kernel's checks, for tables and console lines */
static const char *checks_text(const mf_kernel *k) {
  if (k->racecheck && k->initcheck) return k->racecheck_global ? "racecheck=global+initcheck" : "racecheck+initcheck";
  if (k->racecheck) return k->racecheck_global ? "racecheck=global" : "racecheck";
  return k->initcheck ? "initcheck" : "";
}

static const char *ref_text(const mf_kernel *k, char *buf, size_t n) {
  switch (k->ref) {
    case MF_REF_C: snprintf(buf, n, "C reference %s (%s)", k->ref_function, k->ref_c); break;
    case MF_REF_FILES: snprintf(buf, n, "expected output files"); break;
    case MF_REF_ORACLE: snprintf(buf, n, "oracle %s (%s)", k->oracle, k->oracle_spec); break;
    default: snprintf(buf, n, "none"); break;
  }
  return buf;
}

/* The manifest's arguments against the kernel's own (its code object's metadata): as many, a buffer
 * for each global_buffer pointer, and each scalar exactly as wide as the kernel's by-value
 * argument (a "f64" for a 4-byte int is refused here, before any case runs). false with err naming
 * the argument (LL_EXIT_USAGE: the manifest is wrong). */
static bool check_kernargs(const mf_kernel *k, size_t ki, const char *co_path, ll_err *err) {
  emu_codeobj *co = emu_codeobj_load_file(co_path, err);
  if (!co) return false;
  const emu_kernel *ek = emu_codeobj_kernel(co, k->symbol, err);
  bool ok = ek != NULL;
  size_t want = ok ? rt_explicit_arg_count(ek) : 0;
  if (ok && want != k->nargs) {
    ll_seterr(err, LL_EXIT_USAGE, "kernels[%zu].args: the manifest gives %zu arguments; kernel %s in %s takes %zu", ki,
              k->nargs, k->symbol, co_path, want);
    ok = false;
  }
  for (size_t i = 0, x = 0; ok && ek && x < ek->nargs; x++) {
    const emu_kernarg *ka = &ek->args[x];
    if (ka->hidden) continue;
    const mf_arg *a = &k->args[i];
    bool ptr = !strcmp(ka->value_kind, "global_buffer");
    if (ptr != (a->role != MF_ARG_SCALAR)) {
      ll_seterr(err, LL_EXIT_USAGE, "kernels[%zu].args[%zu] '%s': the manifest gives %s; the kernel's argument %zu is %s",
                ki, i, a->name, a->role == MF_ARG_SCALAR ? "a scalar" : "a buffer", i,
                ptr ? "a pointer (in, out or inout)" : "a by-value scalar");
      ok = false;
    } else if (!ptr && ka->size != mf_dtype_size(a->dtype)) {
      ll_seterr(err, LL_EXIT_USAGE, "kernels[%zu].args[%zu] '%s': the manifest gives %s (%zu bytes); the kernel's "
                "argument %zu is %u bytes", ki, i, a->name, mf_dtype_name(a->dtype), mf_dtype_size(a->dtype), i, ka->size);
      ok = false;
    }
    i++;
  }
  emu_codeobj_free(co);
  return ok;
}

void verify_manifest_kernels(const verify_ctx *c, stage_result *r) {
  const manifest *m = c->manifest;
  report_table *t = report_table_new("manifest kernels built for this arch", "kernel,source,status,checked_by,detail");
  size_t built = 0, skipped = 0, failed = 0, unchecked = 0, unchecked_ok = 0, env = 0, bad = 0;
  char first[600] = "";
  for (size_t i = 0; i < m->nkernels; i++) {
    const mf_kernel *k = &m->kernels[i];
    const char *src = k->source ? k->source : "(code object)";
    if (!k->arch[c->arch]) {
      report_table_row(t, "%s\t%s\tskipped\t-\tthe manifest lists no %s for this kernel", k->name, src, c->arch_name);
      skipped++;
      continue;
    }
    verify_progress(c, "kernels", i + 1, m->nkernels, k->name);
    ll_err e = {0};
    char *co = build_kernel(c, k, NULL, &e);
    char checks[400], rt[300];
    if (k->ref != MF_REF_NONE)
      snprintf(checks, sizeof checks, "outputs (%s)%s", ref_text(k, rt, sizeof rt), k->nmutants ? ", mutants" : "");
    else if (k->not_checked)
      snprintf(checks, sizeof checks, "NOT CHECKED: %s", k->not_checked);
    else
      snprintf(checks, sizeof checks, "NOT CHECKED (no reference, and no not_checked reason)");
    if (k->budgets) strncat(checks, ", isa budgets", sizeof checks - strlen(checks) - 1);
    if (wants_checks(k)) {
      strncat(checks, ", ", sizeof checks - strlen(checks) - 1);
      strncat(checks, checks_text(k), sizeof checks - strlen(checks) - 1);
    }
    if (co && !check_kernargs(k, i, co, &e)) {
      bad++;
      if (!first[0]) snprintf(first, sizeof first, "%s: %s", k->name, e.msg);
      report_table_row(t, "%s\t%s\terror\t%s\t%s", k->name, src, checks, e.msg);
      fprintf(stderr, "lanelab: %s\n", e.msg);
      free(co);
      continue;
    }
    if (!co) {
      failed++;
      if (e.code == LL_EXIT_ENV) env++;
      if (!first[0]) snprintf(first, sizeof first, "%s: %s", k->name, e.msg);
      report_table_row(t, "%s\t%s\tFAIL\t%s\t%s", k->name, src, checks, e.msg);
      continue;
    }
    built++;
    if (k->ref == MF_REF_NONE) { if (k->not_checked) unchecked_ok++; else unchecked++; }
    report_table_row(t, "%s\t%s\t%s\t%s\t%s", k->name, src, k->ref == MF_REF_NONE && !k->not_checked ? "NOT CHECKED" : "built",
                     checks, co);
    free(co);
  }
  stage_add_table(r, t);
  /* a kernel that does not compile fails the gate; a missing compiler or data is the environment;
   * arguments that do not fit the kernel are bad input */
  if (bad) stage_set(r, VERDICT_BAD, "%zu %s arguments do not fit the kernel: %s", bad, bad == 1 ? "kernel's" : "kernels'",
                     first);
  else if (failed && env == failed) stage_set(r, VERDICT_NOT_RUN, "%zu kernels could not be built here: %s", failed, first);
  else if (failed) stage_set(r, VERDICT_FAIL, "%zu of %zu kernels failed to build: %s", failed, m->nkernels, first);
  else if (unchecked)
    stage_set(r, VERDICT_FAIL, "%zu kernel%s NOT CHECKED by any stage (give a reference, or the reason in not_checked)",
              unchecked, unchecked == 1 ? "" : "s");
  else
    stage_set(r, VERDICT_PASS, "%zu kernels built, %zu skipped on this arch, %zu NOT CHECKED with a stated reason", built,
              skipped, unchecked_ok);
}

void verify_manifest_isa(const verify_ctx *c, stage_result *r) {
  const manifest *m = c->manifest;
  size_t ncensus = 0, rules = 0, failed_rules = 0, nbudget = 0, nmissing = 0;
  ll_err err = {0};
  for (size_t i = 0; i < m->nkernels; i++) {
    const mf_kernel *k = &m->kernels[i];
    if (!k->arch[c->arch]) continue;
    char *co = manifest_co_path(c, k, NULL);
    if (!is_file(co)) { /* the kernels stage says why */
      nmissing++;
      free(co);
      continue;
    }
    isa_census *cs = isa_census_file(co, &err);
    if (!cs) {
      stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "census of %s: %s", co, err.msg);
      free(co);
      return;
    }
    report_table *ct = isa_census_table(cs);
    free(ct->title);
    ct->title = ll_fmt("census %s", co);
    stage_add_table(r, ct);
    isa_census_free(cs);
    ncensus++;
    free(co);
    if (!k->budgets) continue;
    nbudget++;
    isa_budgets *b = isa_budgets_load(k->budgets, &err);
    if (!b) { stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "budgets of %s: %s", k->name, err.msg); return; }
    report_table *bt = NULL;
    const char *arches[] = {c->arch_name};
    int f = isa_budgets_eval(b, c->build, arches, 1, &bt, &err);
    isa_budgets_free(b);
    if (f < 0) { stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "budgets of %s: %s", k->name, err.msg); return; }
    free(bt->title);
    bt->title = ll_fmt("budgets of %s (%s)", k->name, k->budgets);
    rules += bt->nrows;
    failed_rules += (size_t)f;
    stage_add_table(r, bt);
  }
  if (failed_rules) stage_set(r, VERDICT_FAIL, "%zu of %zu budget rules failed", failed_rules, rules);
  else if (nmissing) stage_set(r, VERDICT_NOT_RUN, "%zu code objects were not built (see the kernels stage)", nmissing);
  else stage_set(r, VERDICT_PASS, "census of %zu code objects; %zu budget rules of %zu kernels passed", ncensus, rules, nbudget);
}

static const char outputs_cols[] =
    "case,argument,dtype,n#,mismatches#,nonfinite#,max_abs#,max_rel#,atol#,rtol#,first_mismatch,verdict";

void verify_stage_outputs(const verify_ctx *c, stage_result *r) {
  const manifest *m = c->manifest;
  ll_err err = {0};
  rt_device *dev = prod_open_device(c, &err);
  if (!dev) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "no device for %s: %s", c->arch_name, err.msg);
    return;
  }
  r->device = ll_xstrdup(rt_device_backend(dev) == RT_EMU ? "emulator" : "hip");
  report_table *t = report_table_new("manifest kernels against their references", outputs_cols);
  report_table *cases = report_table_new("cases", "case,kernel,schedule,reference,verdict,detail");
  size_t ran = 0, failed = 0, errors = 0, unchecked = 0;
  char first[900] = "";
  verdict worst_err = VERDICT_BAD;
  verify_source src = manifest_source(m);
  for (size_t i = 0; i < m->nkernels; i++) {
    const mf_kernel *k = &m->kernels[i];
    if (!k->arch[c->arch]) continue;
    char rt[300];
    for (size_t s = 0; s < k->nsched; s++) {
      if (!verify_in_shard(c, manifest_case_run(m, i, c->arch, s))) continue;
      char *label = ll_fmt("%s/%s", k->name, mf_sched_name(k->sched[s]));
      if (k->ref == MF_REF_NONE) {
        unchecked++;
        report_table_row(cases, "%s\t%s\t%s\tnone\tNOT CHECKED\t%s", label, k->name, mf_sched_name(k->sched[s]),
                         k->not_checked ? k->not_checked : "no reference and no not_checked reason");
        free(label);
        continue;
      }
      verify_progress(c, "outputs", i + 1, m->nkernels, label);
      ll_err e = {0};
      mf_outcome oc = {.rc = LL_EXIT_USAGE};
      vc_case vc;
      char *co = manifest_co_path(c, k, NULL);
      bool built = is_file(co);
      free(co);
      if (!built) /* the cause is the kernels stage's (a compile error: FAIL there; a missing compiler or
                   * data: not run there); here the case did not run, as the isa stage says */
        ll_seterr(&e, oc.rc = LL_EXIT_ENV, "%s was not built for %s: the kernels stage says why", k->name, c->arch_name);
      else if (!src.plan(&src, manifest_case_run(m, i, c->arch, s), c->build, c->arch, &vc, &e)) oc.rc = e.code;
      else {
        run_and_compare(dev, &vc.l, &((mf_case *)vc.data)->d, t, label, &oc, &e);
        vc_case_free(&vc);
      }
      ran++;
      const char *v;
      char detail[900];
      if (oc.rc != LL_EXIT_OK) {
        /* a fault is a failed check; bad input or a missing tool is an error */
        bool fault = oc.rc == LL_EXIT_FAIL;
        if (fault) failed++; else { errors++; if (e.code == LL_EXIT_ENV) worst_err = VERDICT_NOT_RUN; }
        v = fault ? "FAIL" : "error";
        snprintf(detail, sizeof detail, "%s", e.msg);
      } else if (oc.found.n) {
        /* a hazard fails the case even when the outputs match (this schedule got lucky) */
        failed++;
        v = "FAIL";
        snprintf(detail, sizeof detail, "%s: %zu report%s; first: %s%s%s", checks_text(k), oc.found.n,
                 oc.found.n == 1 ? "" : "s", oc.found.first, oc.first[0] ? "; and " : "", oc.first);
      } else if (!oc.pass) {
        failed++;
        v = "FAIL";
        snprintf(detail, sizeof detail, "%s", oc.first);
      } else {
        v = "pass";
        snprintf(detail, sizeof detail, "max abs error %g%s%s%s", oc.max_abs, wants_checks(k) ? "; " : "",
                 wants_checks(k) ? checks_text(k) : "",
                 !wants_checks(k) ? "" : oc.found.checked ? ": clean" : ": not run (the observers need the emulator)");
      }
      report_table_row(cases, "%s\t%s\t%s\t%s\t%s\t%s", label, k->name, mf_sched_name(k->sched[s]), ref_text(k, rt, sizeof rt),
                       v, detail);
      if (strcmp(v, "pass")) {
        /* the console line a CI log shows: kernel, argument, first mismatch, where the report is */
        fprintf(stderr, "lanelab: %s %s on %s (%s schedule): %s; report %s/reports/%s/stage-outputs.html\n", v, k->name,
                c->arch_name, mf_sched_name(k->sched[s]), detail, c->build, c->arch_name);
        if (!first[0]) snprintf(first, sizeof first, "%s: %s", label, detail);
      }
      free(label);
    }
  }
  rt_close(dev);
  stage_add_table(r, cases);
  stage_add_table(r, t);
  if (failed) stage_set(r, VERDICT_FAIL, "%zu of %zu cases failed; first: %s", failed, ran, first);
  else if (errors) stage_set(r, worst_err, "%zu of %zu cases could not run; first: %s", errors, ran, first);
  else if (ran == 0 && unchecked == 0) stage_set(r, VERDICT_PASS, "no case of this arch in this shard");
  else stage_set(r, VERDICT_PASS, "%zu cases matched their references%s", ran,
                 unchecked ? " (kernels NOT CHECKED are in the kernels stage)" : "");
}

static const char mutant_cols[] =
    "mutant,case,check,noise_floor#,mutant_max_abs#,detection_ratio#,atol_over_noise#,mutant_mismatches#,nonfinite#,verdict";

/* The mutants stage's running tally and its table. */
typedef struct mu_tally {
  const verify_ctx *c;
  rt_device *dev;
  report_table *t;
  size_t caught, escaped, na, errors, env_errors, ran;
  double min_ratio;
  char first[1200];
} mu_tally;

static void mu_error(mu_tally *T, const mf_kernel *k, const mf_mutant *mu, const char *label, const ll_err *e) {
  T->errors++;
  if (e->code == LL_EXIT_ENV) T->env_errors++;
  report_table_row(T->t, "%s\t%s\t-\t-\t-\t-\t-\t-\t-\terror: %s", mu->name, k->name, e->msg);
  if (!T->first[0]) snprintf(T->first, sizeof T->first, "%s: %s", label, e->msg);
}

static mut_run mu_run(const mf_outcome *o, const ll_err *e) {
  return (mut_run){.rc = o->rc, .launched = o->launched, .unimplemented = o->rc != LL_EXIT_OK && strstr(e->msg, "lacks semantics"),
                   .pass = o->rc == LL_EXIT_OK && o->mismatches == 0, .max_abs = o->max_abs, .mismatches = o->mismatches,
                   .nonfinite = o->nonfinite, .hazards = o->found.n, .msg = o->found.n ? o->found.first : e->msg};
}

/* The correct kernel and the mutant on the same inputs under each schedule, judged by the one
 * mutant rule (verify.h); caught when any schedule catches it. */
static void mu_ab(mu_tally *T, const mf_kernel *k, const mf_mutant *mu, const mf_data *d, const char *cco,
                  const char *mco, const char *label) {
  vc_arg *args = ll_xcalloc(d->nargs ? d->nargs : 1, sizeof *args);
  vc_launch lc, lm;
  case_launch(k, d, cco, EMU_SCHED_ROUND_ROBIN, &lc, args);
  lm = lc;
  lm.co = mco;
  double noise = 0, mabs = 0, ratio = NAN;
  uint64_t mm = 0, nf = 0;
  mut_verdict best = MUT_ESCAPED;
  const char *check = "outputs";
  char fault[400] = ""; /* what the fault that caught it said (which buffer, how far off) */
  ll_err e = {0};
  for (size_t s = 0; s < k->nsched; s++) {
    mf_outcome co_, mo;
    ll_err me = {0};
    lc.sched = lm.sched = k->sched[s];
    run_and_compare(T->dev, &lc, d, NULL, NULL, &co_, &e);
    if (co_.rc == LL_EXIT_OK && co_.pass) run_and_compare(T->dev, &lm, d, NULL, NULL, &mo, &me);
    else mo = (mf_outcome){.rc = LL_EXIT_OK};
    mut_run cr = mu_run(&co_, &e), mr = mu_run(&mo, &me);
    cr.pass = co_.rc == LL_EXIT_OK && co_.pass;
    mut_judgement j;
    verify_mutant_judge(&cr, &mr, &j);
    if (j.v == MUT_ERROR) {
      if (co_.rc == LL_EXIT_OK && !co_.pass)
        snprintf(e.msg, sizeof e.msg, "the correct kernel fails %s: %s", co_.found.n ? checks_text(k) : "its reference",
                 co_.found.n ? co_.found.first : co_.first);
      else if (co_.rc == LL_EXIT_OK) e = me;
      mu_error(T, k, mu, label, &e);
      free(args);
      return;
    }
    if (co_.max_abs > noise) noise = co_.max_abs;
    if (mo.max_abs > mabs) mabs = mo.max_abs;
    mm += mo.mismatches;
    nf += mo.nonfinite;
    if (j.v == MUT_CAUGHT || (j.v == MUT_NARROW && best != MUT_CAUGHT)) {
      if (best != MUT_CAUGHT) check = !strcmp(j.check, "checks") ? checks_text(k) : j.check;
      if (best != MUT_CAUGHT && j.v == MUT_CAUGHT && !strcmp(j.check, "fault")) snprintf(fault, sizeof fault, "%s", me.msg);
      best = j.v;
    }
  }
  free(args);
  ratio = noise > 0 ? mabs / noise : (mabs > 0 ? INFINITY : NAN);
  bool caught = best != MUT_ESCAPED; /* a manifest's narrow catch is caught, its ratio reported (verify.h) */
  if (caught && isfinite(ratio) && ratio < T->min_ratio) T->min_ratio = ratio;
  if (caught) T->caught++;
  else {
    T->escaped++;
    fprintf(stderr, "lanelab: FAIL mutant %s of %s on %s was not caught: its outputs match the reference; "
            "report %s/reports/%s/stage-mutants.html\n", mu->name, k->name, T->c->arch_name, T->c->build, T->c->arch_name);
    if (!T->first[0]) snprintf(T->first, sizeof T->first, "%s escaped (outputs match the reference)", label);
  }
  double atol = 0;
  for (size_t a = 0; a < k->nargs; a++)
    if (d->ref[a]) { double x, y; manifest_tolerance(k, &d->args[a], &x, &y); if (x > atol) atol = x; }
  char verdict[600];
  if (best == MUT_NARROW) snprintf(verdict, sizeof verdict, "caught (narrow: %.3gx the noise floor, below %gx)", ratio, VERIFY_NARROW_RATIO);
  else if (fault[0]) snprintf(verdict, sizeof verdict, "caught: fault: %s", fault);
  else snprintf(verdict, sizeof verdict, "%s", caught ? "caught" : "FAIL: escaped");
  report_table_row(T->t, "%s\t%s\t%s\t%g\t%g\t%g\t%g\t%llu\t%llu\t%s", mu->name, k->name, check, noise, mabs, ratio,
                   noise > 0 ? atol / noise : INFINITY, (unsigned long long)mm, (unsigned long long)nf, verdict);
}

/* One mutant on this arch: its arch list, then rule 1 (byte identity), then the A/B. */
static void one_mutant(mu_tally *T, const mf_kernel *k, const mf_mutant *mu, const char *label) {
  const verify_ctx *c = T->c;
  if (!mu->arch[c->arch]) {
    T->na++;
    report_table_row(T->t, "%s\t%s\tarch\t-\t-\t-\t-\t-\t-\tnot applicable on %s: the manifest lists this mutant for "
                     "other arches only", mu->name, k->name, c->arch_name);
    return;
  }
  T->ran++;
  ll_err e = {0};
  mf_data d = {0};
  char *mco = NULL, *cco = manifest_co_path(c, k, NULL);
  bool applies = true;
  if (!data_make(c, k, &d, &e) || !(mco = build_kernel(c, k, mu, &e)) || !verify_mutant_applies(mco, cco, &applies, &e)) {
    mu_error(T, k, mu, label, &e);
  } else if (!applies) {
    T->ran--;
    T->na++;
    report_table_row(T->t, "%s\t%s\t.text identity\t-\t-\t-\t-\t-\t-\tnot applicable on %s: .text byte-identical to the "
                     "correct %s.co (isa diff)", mu->name, k->name, c->arch_name, k->name);
  } else {
    mu_ab(T, k, mu, &d, cco, mco, label);
  }
  free(mco);
  free(cco);
  data_free(&d);
}

void verify_manifest_mutants(const verify_ctx *c, stage_result *r) {
  const manifest *m = c->manifest;
  ll_err err = {0};
  size_t total = 0;
  for (size_t i = 0; i < m->nkernels; i++) total += m->kernels[i].arch[c->arch] ? m->kernels[i].nmutants : 0;
  if (total == 0) { stage_set(r, VERDICT_PASS, "the manifest lists no mutants for %s", c->arch_name); return; }
  rt_device *dev = prod_open_device(c, &err);
  if (!dev) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "no device for %s: %s", c->arch_name, err.msg);
    return;
  }
  r->device = ll_xstrdup(rt_device_backend(dev) == RT_EMU ? "emulator" : "hip");
  mu_tally T = {.c = c, .dev = dev, .min_ratio = INFINITY};
  T.t = report_table_new("manifest mutants (each must fail against the reference)", mutant_cols);
  size_t idx = 0;
  for (size_t i = 0; i < m->nkernels; i++) {
    const mf_kernel *k = &m->kernels[i];
    if (!k->arch[c->arch]) continue;
    for (size_t q = 0; q < k->nmutants; q++) {
      idx++;
      if (!verify_in_shard(c, manifest_case_mutant(m, i, q, c->arch))) continue;
      char *label = ll_fmt("%s/%s", k->name, k->mutants[q].name);
      verify_progress(c, "mutants", idx, total, label);
      one_mutant(&T, k, &k->mutants[q], label);
      free(label);
    }
  }
  rt_close(dev);
  report_table_note(T.t, "noise floor = the correct kernel's max abs error against the reference on the same inputs; "
                         "detection ratio = the mutant's max abs error / noise floor (inf when the correct kernel is exact)");
  if (T.na)
    report_table_note(T.t, "not applicable = the mutant lists other arches, or compiles to the same .text as the correct "
                           "kernel on this arch (proven by isa diff): there is nothing to catch there");
  stage_add_table(r, T.t);
  char na[96] = "";
  if (T.na) snprintf(na, sizeof na, "; %zu not applicable on %s", T.na, c->arch_name);
  if (T.escaped) stage_set(r, VERDICT_FAIL, "%zu of %zu mutants escaped; first: %s", T.escaped, T.ran, T.first);
  else if (T.errors) stage_set(r, T.env_errors == T.errors ? VERDICT_NOT_RUN : VERDICT_BAD, "%zu of %zu mutants could not run; first: %s",
                               T.errors, T.ran, T.first);
  else if (T.ran == 0 && !T.na) stage_set(r, VERDICT_PASS, "no mutant of this arch in this shard");
  else if (T.ran == 0) stage_set(r, VERDICT_PASS, "no mutant applies on %s%s", c->arch_name, na);
  else if (isfinite(T.min_ratio))
    stage_set(r, VERDICT_PASS, "%zu of %zu mutants caught; smallest detection ratio %g%s", T.caught, T.ran, T.min_ratio, na);
  else
    stage_set(r, VERDICT_PASS, "%zu of %zu mutants caught; detection ratio inf (the correct kernels match exactly)%s", T.caught,
              T.ran, na);
}

void verify_stage_own_manifest(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  manifest *m = manifest_load(VERIFY_OWN_MANIFEST, &err);
  if (!m) { stage_set(r, VERDICT_BAD, "%s", err.msg); return; }
  /* lanelab's own kernels are built by `make kernels` (`lanelab cc --into`) into BUILD/<arch>/kernels:
   * those code objects are the ones checked, not a second build of the sources */
  for (size_t i = 0; i < m->nkernels; i++) {
    mf_kernel *k = &m->kernels[i];
    if (!k->source) continue;
    const char *base = strrchr(k->source, '/') ? strrchr(k->source, '/') + 1 : k->source;
    char *stem = ll_xstrdup(base);
    char *dot = strrchr(stem, '.');
    if (dot) *dot = 0;
    for (int a = 0; a < EMU_NARCH; a++)
      if (k->arch[a] && !k->code_object[a])
        k->code_object[a] = ll_fmt("%s/%s/kernels/%s.co", c->build, emu_arch_name((emu_arch)a), stem);
    free(stem);
  }
  verify_ctx sub = *c;
  sub.manifest = m;
  char *b = ll_fmt("%s/manifest", c->build);
  sub.build = b;
  static void (*const parts[])(const verify_ctx *, stage_result *) = {verify_manifest_kernels, verify_stage_outputs, verify_manifest_mutants};
  static const char *const names[] = {"kernels", "outputs", "mutants"};
  ll_buf sum = {0};
  r->v = VERDICT_PASS;
  for (size_t i = 0; i < 3; i++) {
    stage_result p = {.v = VERDICT_NOT_RUN};
    snprintf(p.summary, sizeof p.summary, "did not report");
    parts[i](&sub, &p);
    for (size_t t = 0; t < p.ntables; t++) stage_add_table(r, p.tables[t]);
    free(p.tables);
    if (p.device && !r->device) r->device = p.device; else free(p.device);
    r->v = verdict_worse(r->v, p.v);
    ll_buf_printf(&sum, "%s%s: %s", i ? "; " : "", names[i], p.summary);
    if (i == 0 && p.v != VERDICT_PASS) break; /* nothing to run */
  }
  snprintf(r->summary, sizeof r->summary, "%s: %s", VERIFY_OWN_MANIFEST, ll_buf_str(&sum));
  ll_buf_free(&sum);
  free(b);
  manifest_free(m);
}

