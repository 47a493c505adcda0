/* verify/runner — the one case runner: a vc_launch (verify.h) on a device, its outputs compared
 * with their references. Every launch verify makes goes through verify_case_run: the prod matrix,
 * the micro-kernels' lane dumps, manifest cases, the mutants and lanelab mutate's gate. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verify/verify.h"

/* Every mnemonic of the module's code the emulator has no semantics for (", "-joined), or NULL. */
static char *missing_mnemonics(rt_module *m) {
  ll_err e = {0};
  const emu_program *p = emu_codeobj_program((emu_codeobj *)rt_module_codeobj(m), &e);
  if (!p) return NULL;
  ll_buf b = {0};
  size_t n = emu_program_count(p), found = 0;
  char **seen = NULL;
  for (size_t i = 0; i < n; i++) {
    const emu_insn_info *in = emu_program_insn(p, i);
    if (in->implemented) continue;
    bool dup = false;
    for (size_t k = 0; k < found && !dup; k++) dup = strcmp(seen[k], in->mnem) == 0;
    if (dup) continue;
    seen = ll_xrealloc(seen, (found + 1) * sizeof *seen);
    seen[found++] = (char *)in->mnem;
    ll_buf_printf(&b, "%s%s", b.len ? ", " : "", in->mnem);
  }
  free(seen);
  char *s = found ? ll_xstrdup(ll_buf_str(&b)) : NULL;
  ll_buf_free(&b);
  return s;
}

/* Allocates and fills every buffer argument; args[] gets the kernel arguments. */
static bool place(rt_device *d, const vc_launch *l, uint64_t *addr, rt_arg *args, ll_err *err) {
  for (size_t i = 0; i < l->nargs; i++) {
    const vc_arg *a = &l->args[i];
    if (a->role == VC_SCALAR) {
      args[i] = a->scalar;
      continue;
    }
    if (!(addr[i] = rt_alloc(d, a->bytes, a->name, err))) return false;
    if (a->init && a->init_bytes && !rt_copy_to_device(d, addr[i], a->init, a->init_bytes, err)) return false;
    args[i] = (rt_arg){.kind = RT_ARG_PTR, .ptr = addr[i]};
  }
  return true;
}

/* The observer the launch asks for (racecheck, initcheck with its out buffers), or NULL. */
static emu_observer *observer(rt_device *d, const vc_launch *l, const uint64_t *addr) {
  if (l->observe || !(l->racecheck || l->initcheck) || rt_device_backend(d) != RT_EMU) return NULL;
  emu_observer *obs = emu_observer_new();
  if (l->racecheck) emu_observer_racecheck(obs, l->racecheck_global);
  if (l->initcheck) {
    emu_observer_initcheck(obs);
    for (size_t i = 0; i < l->nargs; i++)
      if (l->args[i].uninit && addr[i]) emu_observer_uninit(obs, addr[i], l->args[i].bytes);
  }
  return obs;
}

/* Reads every output back and compares those with a reference. */
static bool read_and_compare(rt_device *d, const vc_launch *l, const uint64_t *addr, vc_result *r, ll_err *err) {
  r->pass = r->hazards == 0;
  for (size_t i = 0; i < l->nargs; i++) {
    const vc_arg *a = &l->args[i];
    if (a->role != VC_OUT && a->role != VC_INOUT) continue;
    r->got[i] = ll_xmalloc(a->bytes ? a->bytes : 1);
    if (!rt_copy_from_device(d, r->got[i], addr[i], a->bytes, err)) return false;
    if (!a->ref || !a->ref_bytes) continue;
    oracle_compare_opts o;
    oracle_compare_opts_init(&o, a->etype);
    o.atol = a->atol;
    o.rtol = a->rtol;
    o.ndims = a->ndims;
    memcpy(o.dims, a->dims, sizeof o.dims);
    oracle_compare_result *c = &r->cmp[i];
    int rc = oracle_compare_buffers(r->got[i], a->ref_bytes, a->ref, a->ref_bytes, &o, "kernel output", "reference", c, err);
    if (rc != LL_EXIT_OK && rc != LL_EXIT_FAIL) return false; /* a malformed case: shape and sizes disagree */
    if (c->max_abs > r->max_abs) r->max_abs = c->max_abs;
    if (c->max_rel > r->max_rel) r->max_rel = c->max_rel;
    r->mismatches += c->over;
    r->nonfinite += c->nonfinite;
    if (c->over) r->pass = false;
  }
  return true;
}

int verify_case_run(rt_device *d, const vc_launch *l, vc_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  struct stat st;
  if (l->missing_hint && stat(l->co, &st) != 0) {
    ll_seterr(err, LL_EXIT_ENV, "%s is missing: %s", l->co, l->missing_hint);
    return r->rc = LL_EXIT_ENV;
  }
  r->nargs = l->nargs;
  r->got = ll_xcalloc(l->nargs ? l->nargs : 1, sizeof *r->got);
  r->cmp = ll_xcalloc(l->nargs ? l->nargs : 1, sizeof *r->cmp);
  rt_module *m = rt_load_file(d, l->co, err);
  if (!m) return r->rc = err->code ? err->code : LL_EXIT_USAGE;
  uint64_t *addr = ll_xcalloc(l->nargs ? l->nargs : 1, sizeof *addr);
  rt_arg *args = ll_xcalloc(l->nargs ? l->nargs : 1, sizeof *args);
  emu_observer *obs = NULL;
  if (!place(d, l, addr, args, err)) {
    r->rc = err->code ? err->code : LL_EXIT_FAIL;
    goto out;
  }
  rt_launch_opts lo = {.threads = l->threads, .sched = l->sched, .sched_seed = l->sched_seed,
                       .insn_budget = l->insn_budget, .fault = &r->fault, .strict_memory = l->strict_memory};
  lo.stats = l->stats && rt_device_backend(d) == RT_EMU ? &r->stats : NULL;
  obs = observer(d, l, addr);
  lo.observe = l->observe ? l->observe : obs;
  double t0 = ll_now(), c0 = ll_cpu_now();
  r->launched = true;
  r->rc = rt_launch(d, m, l->kernel, l->grid, l->block, args, l->nargs, l->lds_bytes, &lo, err);
  r->seconds = ll_now() - t0;
  r->cpu_seconds = ll_cpu_now() - c0;
  r->have_stats = lo.stats && r->rc == LL_EXIT_OK;
  if (obs) {
    r->checked = r->rc == LL_EXIT_OK;
    r->hazards = emu_observer_nhazards(obs);
    if (r->hazards) emu_hazard_format(emu_observer_hazard(obs, 0), r->hazard, sizeof r->hazard);
  }
  if (r->rc != LL_EXIT_OK) {
    if (r->fault.faulted && strstr(r->fault.kind, "unimplemented")) {
      char *miss = missing_mnemonics(m);
      ll_seterr(err, r->rc, "%s; the emulator lacks semantics for: %s", r->fault.msg, miss ? miss : "(could not list)");
      free(miss);
    }
    goto out;
  }
  if (!read_and_compare(d, l, addr, r, err)) r->rc = err->code ? err->code : LL_EXIT_USAGE;
out:
  if (obs) emu_observer_free(obs);
  for (size_t i = 0; i < l->nargs; i++)
    if (addr[i]) rt_free(d, addr[i]);
  free(addr);
  free(args);
  rt_unload(m);
  return r->rc;
}

void vc_result_free(vc_result *r) {
  if (!r) return;
  for (size_t i = 0; r->got && i < r->nargs; i++) free(r->got[i]);
  free(r->got);
  free(r->cmp);
  emu_launch_stats_free(&r->stats);
  r->got = NULL;
  r->cmp = NULL;
}

void vc_case_free(vc_case *c) {
  if (c && c->free_data) c->free_data(c->data);
  if (c) c->data = NULL;
}

char *vc_first_index(const vc_launch *l, const vc_result *r, size_t i) {
  const oracle_compare_result *c = &r->cmp[i];
  if (!c->nfirst) return ll_xstrdup("-");
  ll_buf b = {0};
  ll_buf_printf(&b, "%s[", l->args[i].name);
  for (size_t d = 0; d < c->opts.ndims; d++) ll_buf_printf(&b, "%s%llu", d ? "," : "", (unsigned long long)c->first[0].idx[d]);
  ll_buf_puts(&b, "]");
  return b.data;
}
