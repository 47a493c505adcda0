/* api — the public C API (include/lanelab/lanelab.h) over runtime/ and oracle/: what liblanelab.a
 * offers a project's own tests. Thin: every check and message comes from the module underneath. */
#include <stdlib.h>
#include <string.h>

#include "include/lanelab/lanelab.h"
#include "oracle/oracle.h"
#include "runtime/rt.h"

struct lanelab_device { rt_device *d; };
struct lanelab_module { lanelab_device *dev; rt_module *m; };

static void seterr(lanelab_error *e, const ll_err *le) {
  if (!e) return;
  e->code = le->code ? le->code : 2;
  snprintf(e->msg, sizeof e->msg, "%s", le->msg);
}

lanelab_device *lanelab_open(const char *arch, const char *backend, lanelab_error *e) {
  ll_err le = {0};
  emu_arch a;
  rt_backend b = RT_EMU;
  if (!arch || !emu_arch_parse(arch, &a)) ll_seterr(&le, LL_EXIT_USAGE, "unknown arch '%s' (gfx942 or gfx950)", arch ? arch : "(null)");
  else if (backend && !rt_backend_parse(backend, &b)) ll_seterr(&le, LL_EXIT_USAGE, "unknown backend '%s' (emu, hip, auto)", backend);
  if (le.code) { seterr(e, &le); return NULL; }
  rt_device *d = rt_open(b, a, &le);
  if (!d) { seterr(e, &le); return NULL; }
  lanelab_device *ld = ll_xcalloc(1, sizeof *ld);
  ld->d = d;
  return ld;
}

void lanelab_close(lanelab_device *d) {
  if (!d) return;
  rt_close(d->d);
  free(d);
}

const char *lanelab_device_backend(const lanelab_device *d) { return rt_device_backend(d->d) == RT_HIP ? "hip" : "emu"; }

uint64_t lanelab_alloc(lanelab_device *d, size_t bytes, lanelab_error *e) {
  ll_err le = {0};
  uint64_t a = rt_alloc(d->d, bytes, "lanelab_alloc", &le);
  if (!a) seterr(e, &le);
  return a;
}

void lanelab_free(lanelab_device *d, uint64_t addr) { rt_free(d->d, addr); }

int lanelab_write(lanelab_device *d, uint64_t dst, const void *src, size_t bytes, lanelab_error *e) {
  ll_err le = {0};
  if (rt_copy_to_device(d->d, dst, src, bytes, &le)) return 0;
  seterr(e, &le);
  return e ? e->code : 2;
}

int lanelab_read(lanelab_device *d, void *dst, uint64_t src, size_t bytes, lanelab_error *e) {
  ll_err le = {0};
  if (rt_copy_from_device(d->d, dst, src, bytes, &le)) return 0;
  seterr(e, &le);
  return e ? e->code : 2;
}

lanelab_module *lanelab_load(lanelab_device *d, const char *path, lanelab_error *e) {
  ll_err le = {0};
  rt_module *m = rt_load_file(d->d, path, &le);
  if (!m) { seterr(e, &le); return NULL; }
  lanelab_module *lm = ll_xcalloc(1, sizeof *lm);
  lm->dev = d;
  lm->m = m;
  return lm;
}

void lanelab_unload(lanelab_module *m) {
  if (!m) return;
  rt_unload(m->m);
  free(m);
}

int lanelab_launch(lanelab_module *m, const char *name, const uint32_t grid[3], const uint32_t block[3],
                   const lanelab_arg *args, size_t nargs, const lanelab_launch_opts *opts, lanelab_error *e) {
  ll_err le = {0};
  rt_arg *ra = ll_xcalloc(nargs ? nargs : 1, sizeof *ra);
  for (size_t i = 0; i < nargs; i++) {
    switch (args[i].kind) {
      case LANELAB_ARG_PTR: ra[i].kind = RT_ARG_PTR; ra[i].ptr = args[i].v.ptr; break;
      case LANELAB_ARG_U32: ra[i].kind = RT_ARG_U32; ra[i].u32 = args[i].v.u32; break;
      case LANELAB_ARG_I32: ra[i].kind = RT_ARG_I32; ra[i].i32 = args[i].v.i32; break;
      case LANELAB_ARG_U64: ra[i].kind = RT_ARG_U64; ra[i].u64 = args[i].v.u64; break;
      case LANELAB_ARG_F32: ra[i].kind = RT_ARG_F32; ra[i].f32 = args[i].v.f32; break;
      default:
        ll_seterr(&le, LL_EXIT_USAGE, "argument %zu: unknown kind %d", i, (int)args[i].kind);
        free(ra);
        seterr(e, &le);
        return le.code;
    }
  }
  emu_fault fault = {0};
  rt_launch_opts o = {.fault = &fault};
  uint32_t lds = 0;
  if (opts) {
    o.insn_budget = opts->insn_budget;
    o.threads = opts->threads;
    o.sched = opts->adversarial ? EMU_SCHED_ADVERSARIAL : EMU_SCHED_ROUND_ROBIN;
    lds = opts->dynamic_lds;
  }
  int rc = rt_launch(m->dev->d, m->m, name, grid, block, ra, nargs, lds, &o, &le);
  free(ra);
  if (rc != LL_EXIT_OK) {
    if (!le.code) le.code = rc;
    seterr(e, &le);
  }
  return rc;
}

int lanelab_oracle_attention(const char *spec_path, float **o, size_t *o_count, float **lse, size_t *lse_count,
                             lanelab_error *e) {
  ll_err le = {0};
  oracle_attention_spec *s = oracle_attention_spec_load(spec_path, &le);
  if (!s) { seterr(e, &le); return le.code; }
  int64_t tq = oracle_attention_total_q(s), nl = tq * s->num_qo_heads, no = nl * s->head_dim;
  float *ob = ll_xmalloc((size_t)(no ? no : 1) * sizeof *ob), *lb = ll_xmalloc((size_t)(nl ? nl : 1) * sizeof *lb);
  if (!oracle_attention_run(s, ob, lb, NULL, &le)) {
    free(ob); free(lb);
    oracle_attention_spec_free(s);
    seterr(e, &le);
    return le.code;
  }
  oracle_attention_spec_free(s);
  *o = ob; *o_count = (size_t)no;
  *lse = lb; *lse_count = (size_t)nl;
  return 0;
}

size_t lanelab_compare_f32(const float *got, const float *ref, size_t n, double atol, double rtol, size_t *first,
                           double *max_abs) {
  oracle_cmp c;
  oracle_compare(got, ref, n, atol, rtol, &c);
  if (first && c.mismatches) {
    for (size_t i = 0; i < n; i++)
      if (!oracle_close(got[i], ref[i], atol, rtol)) { *first = i; break; }
  }
  if (max_abs) *max_abs = c.max_abs;
  return c.mismatches;
}
