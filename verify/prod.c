/* verify/prod — host side of the production kernels: launch descriptions, case generation,
 * device runs compared with the oracle, the quick/full matrices and the `prod` verify stage.
 * Contract: verify/prod.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify/prod.h"

/* splitmix64 (Steele, Lea, Flood 2014), for page shuffles and custom masks: deterministic from
 * the case seed, independent of the oracle's generator. */
static uint64_t sm64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* ---- cases ----------------------------------------------------------------------------------- */
const char *prod_case_variant(const prod_case *c) {
  switch (c->kind) {
    case ORACLE_SINGLE: return "single";
    case ORACLE_RAGGED: return "ragged";
    default: return c->layout == ORACLE_HND ? "paged-HND" : "paged-NHD";
  }
}

char *prod_case_shape(const prod_case *c) {
  ll_buf b = {0};
  ll_buf_printf(&b, "B=%d q=", c->batch);
  for (int i = 0; i < c->batch; i++) ll_buf_printf(&b, "%s%d", i ? "," : "", c->qo_len[i]);
  ll_buf_puts(&b, " kv=");
  for (int i = 0; i < c->batch; i++) ll_buf_printf(&b, "%s%d", i ? "," : "", c->kv_len[i]);
  ll_buf_printf(&b, " H=%d/%d D=%d", c->hq, c->hkv, c->head_dim);
  if (c->kind == ORACLE_PAGED)
    ll_buf_printf(&b, " ps=%d%s%s", c->page_size, c->shuffle_pages ? " shuffled" : "",
                  c->shared_pages && c->batch > 1 ? " shared" : "");
  if (c->causal) ll_buf_puts(&b, " causal");
  if (c->has_window) ll_buf_printf(&b, " window=%d", c->window_left);
  if (c->soft_cap > 0) ll_buf_printf(&b, " cap=%g", c->soft_cap);
  if (c->custom_mask) ll_buf_puts(&b, " custom-mask");
  if (c->sm_scale > 0) ll_buf_printf(&b, " scale=%g", c->sm_scale);
  if (c->mask_lead_blocks) ll_buf_printf(&b, " mask-lead=%d", c->mask_lead_blocks);
  if (c->single_key) ll_buf_puts(&b, " single-key");
  if (c->values) ll_buf_printf(&b, " values=%s", prod_values_name(c->values));
  if (c->sched == EMU_SCHED_ADVERSARIAL) ll_buf_puts(&b, " sched=adversarial");
  if (c->sched == EMU_SCHED_RANDOM) ll_buf_puts(&b, " sched=random");
  char *s = ll_xstrdup(ll_buf_str(&b));
  ll_buf_free(&b);
  return s;
}

void prod_spec_free(oracle_attention_spec *s) {
  free(s->qo_indptr); free(s->kv_indptr); free(s->kv_indices); free(s->kv_last_page_len);
  free(s->custom_mask); free(s->q); free(s->k); free(s->v);
  memset(s, 0, sizeof *s);
}

/* ---- numeric-extreme inputs (prod_values, verify/prod.h) ----------------------------------- */
const char *prod_values_name(prod_values v) {
  static const char *n[PROD_VALUES_N] = {"random", "underflow", "far-below-max", "denormal-out", "edge-range"};
  return v >= 0 && v < PROD_VALUES_N ? n[v] : "?";
}

/* f16's largest finite 65504; bf16 2^116 (sum(P) <= 2^10 of them stays below f32's 2^128) */
#define EDGE_V_BF16 0x1p116
#define EDGE_Q_BF16 0x1.fcp127 /* bf16's largest finite: (2 - 2^-7) 2^127 */
double prod_case_v_scale(const prod_case *c) {
  bool f16 = c->dtype == ORACLE_F16;
  switch (c->values) {
    case PROD_VALUES_DENORMAL_OUT: return f16 ? 0x1p-16 : 0x1p-130;
    case PROD_VALUES_EDGE_RANGE: return f16 ? 65504.0 : EDGE_V_BF16;
    default: return 1.0;
  }
}

static float get16(const oracle_attention_spec *s, const uint16_t *p, size_t i) {
  return s->dtype == ORACLE_F16 ? oracle_f16_to_f32(p[i]) : oracle_bf16_to_f32(p[i]);
}
static uint16_t to16(const oracle_attention_spec *s, double x) {
  return s->dtype == ORACLE_F16 ? oracle_f32_to_f16((float)x) : oracle_f32_to_bf16((float)x);
}

/* Rewrites the generated q/k/v (uniform in [-1, 1)) per c->values. Logit recipes put the
 * whole logit on the last head dim: q[.][D-1] = A, k[.][D-1] = -+B(1 + n 2^-m) with B a power of two (so
 * every step n of the dtype's m mantissa bits is exact) and A = L / (B sm_scale): the logit
 * after scaling is -+L(1 + n 2^-m); the other dims are the random values / 8 (a small spread). */
static void apply_values(const prod_case *c, oracle_attention_spec *s) {
  if (c->values == PROD_VALUES_RANDOM) return;
  uint16_t *q = s->q, *k = s->k, *v = s->v;
  size_t D = (size_t)s->head_dim, nq = (size_t)oracle_attention_q_elems(s), nk = (size_t)oracle_attention_kv_elems(s);
  bool f16 = s->dtype == ORACLE_F16;
  double sc = oracle_attention_sm_scale(s);
  uint64_t rng = c->seed ^ 0x76616c756573ull; /* "values" */
  if (c->values == PROD_VALUES_UNDERFLOW || c->values == PROD_VALUES_FAR_BELOW_MAX) {
    double L = c->values == PROD_VALUES_UNDERFLOW ? 400.0 : 60.0;
    double B = exp2(round(log2(sqrt(L / sc)))), A = L / (B * sc), step = f16 ? 0x1p-10 : 0x1p-7;
    uint32_t steps = f16 ? 16 : 4;
    /* the logit sits on the last head dim: the MFMA and the oracle add it after the small
     * terms, so the f32 sum rounds once at its magnitude, not once per 16-dim chunk (on the first
     * dim, D = 256 and |logit| 400 put the correct kernel's error at 0.9x the f16 atol) */
    for (size_t i = 0; i < nq; i++) q[i] = i % D == D - 1 ? to16(s, A) : to16(s, get16(s, q, i) / 8);
    for (size_t i = 0; i < nk; i++) {
      if (i % D != D - 1) { k[i] = to16(s, get16(s, k, i) / 8); continue; }
      bool dominant = c->values == PROD_VALUES_FAR_BELOW_MAX && (i / D) % 53 == 45;
      k[i] = to16(s, dominant ? B : -B * (1 + step * (double)(sm64(&rng) % steps)));
    }
  } else if (c->values == PROD_VALUES_DENORMAL_OUT) {
    double vs = prod_case_v_scale(c);
    for (size_t i = 0; i < nk; i++) v[i] = to16(s, get16(s, v, i) * vs);
  } else if (c->values == PROD_VALUES_EDGE_RANGE) {
    double top = f16 ? 65504.0 : EDGE_Q_BF16, vs = prod_case_v_scale(c);
    double kap = 8.0 / (sqrt((double)D) * top * sc); /* typical |logit| a few units */
    for (size_t i = 0; i < nq; i++) {
      double u = get16(s, q, i);
      q[i] = to16(s, (u < 0 ? -1 : 1) * (0.5 + 0.5 * fabs(u)) * top);
    }
    for (size_t i = 0; i < nk; i++) {
      double u = get16(s, v, i);
      v[i] = to16(s, (u < 0 ? -1 : 1) * (0.5 + 0.5 * fabs(u)) * vs);
      k[i] = to16(s, get16(s, k, i) * kap);
    }
  }
}

bool prod_case_spec(const prod_case *c, oracle_attention_spec *s, ll_err *err) {
  memset(s, 0, sizeof *s);
  if (c->batch < 1 || c->batch > 8) {
    ll_seterr(err, LL_EXIT_USAGE, "case %s: batch %d is outside 1..8", c->name, c->batch);
    return false;
  }
  if ((c->mask_lead_blocks || c->single_key) && !c->custom_mask) {
    ll_seterr(err, LL_EXIT_USAGE, "case %s: mask_lead_blocks and single_key shape a custom mask; the case has none",
              c->name);
    return false;
  }
  s->kind = c->kind;
  s->dtype = c->dtype;
  s->num_qo_heads = c->hq;
  s->num_kv_heads = c->hkv;
  s->head_dim = c->head_dim;
  s->batch = c->batch;
  s->qo_indptr = ll_xcalloc(c->batch + 1, sizeof(int32_t));
  s->kv_indptr = ll_xcalloc(c->batch + 1, sizeof(int32_t));
  uint64_t rng = c->seed ^ 0x5eedull;
  for (int b = 0; b < c->batch; b++) s->qo_indptr[b + 1] = s->qo_indptr[b] + c->qo_len[b];
  if (c->kind == ORACLE_PAGED) {
    s->page_size = c->page_size;
    s->layout = c->layout;
    s->kv_last_page_len = ll_xcalloc(c->batch, sizeof(int32_t));
    int32_t total = 0;
    for (int b = 0; b < c->batch; b++) {
      if (c->kv_len[b] < 1 || c->page_size < 1) {
        ll_seterr(err, LL_EXIT_USAGE, "case %s: a paged request needs kv_len >= 1 and page_size >= 1", c->name);
        prod_spec_free(s);
        return false;
      }
      int pages = (c->kv_len[b] + c->page_size - 1) / c->page_size;
      s->kv_last_page_len[b] = c->kv_len[b] - (pages - 1) * c->page_size;
      s->kv_indptr[b + 1] = s->kv_indptr[b] + pages;
      total += pages;
    }
    /* shuffled: a permutation of total+3 physical pages (3 never referenced), first `total` used */
    int32_t np = c->shuffle_pages ? total + 3 : total;
    int32_t *ids = ll_xmalloc(np * sizeof *ids);
    for (int32_t i = 0; i < np; i++) ids[i] = i;
    if (c->shuffle_pages)
      for (int32_t i = np - 1; i > 0; i--) {
        int32_t j = (int32_t)(sm64(&rng) % (uint64_t)(i + 1)), t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
      }
    /* shared: request b >= 1 starts with request 0's first pages (only pages full in both, so
     * the shared keys are the same keys in both requests); the ids they displace become spares */
    if (c->shared_pages)
      for (int b = 1; b < c->batch; b++) {
        int32_t full0 = s->kv_indptr[1] - s->kv_indptr[0] - 1, fullb = s->kv_indptr[b + 1] - s->kv_indptr[b] - 1;
        for (int32_t i = 0; i < full0 && i < fullb; i++) ids[s->kv_indptr[b] + i] = ids[i];
      }
    s->kv_indices = ids;
    s->num_pages = np;
  } else {
    for (int b = 0; b < c->batch; b++) s->kv_indptr[b + 1] = s->kv_indptr[b] + c->kv_len[b];
  }
  s->causal = c->causal;
  s->window_left = c->has_window ? c->window_left : -1;
  s->logits_soft_cap = c->soft_cap;
  s->has_sm_scale = c->sm_scale > 0;
  s->sm_scale = c->sm_scale;
  if (c->custom_mask) {
    size_t bytes = 0;
    for (int b = 0; b < c->batch; b++) bytes += ((size_t)c->qo_len[b] * c->kv_len[b] + 7) / 8;
    s->custom_mask = ll_xcalloc(bytes ? bytes : 1, 1);
    s->custom_mask_bytes = bytes;
    size_t off = 0;
    for (int b = 0; b < c->batch; b++) {
      size_t bits = (size_t)c->qo_len[b] * c->kv_len[b];
      int lead = c->mask_lead_blocks * PROD_KV_BLK; /* keys 0..lead-1: the first visited blocks */
      for (size_t i = 0; i < bits; i++) {
        int j = (int)(i % (size_t)c->kv_len[b]);
        bool keep = sm64(&rng) % 4 != 0;
        if (c->single_key) {
          /* row i / kv_len keeps one key, drawn in [lead, kv_len) when that is not empty */
          if (j == 0) {
            int free_keys = c->kv_len[b] - lead;
            int pick_j = free_keys > 0 ? lead + (int)(sm64(&rng) % (uint64_t)free_keys) : -1;
            for (int jj = 0; jj < c->kv_len[b]; jj++)
              if (jj == pick_j) s->custom_mask[off + (i + jj) / 8] |= (uint8_t)(1u << ((i + jj) % 8));
          }
          continue;
        }
        if (j < lead) keep = false;
        if (keep) s->custom_mask[off + i / 8] |= (uint8_t)(1u << (i % 8));
      }
      off += (bits + 7) / 8;
    }
  }
  s->path = ORACLE_PATH_AUTO;
  if (!oracle_attention_validate(s, err)) {
    ll_err_prefix(err, "case %s", c->name);
    prod_spec_free(s);
    return false;
  }
  oracle_attention_generate(s, c->seed);
  apply_values(c, s);
  s->owns = false;
  return true;
}

/* ---- launch description ---------------------------------------------------------------------- */
static const char *kind_stem(oracle_attention_kind k) {
  return k == ORACLE_SINGLE ? "prefill_single" : k == ORACLE_RAGGED ? "prefill_ragged" : "prefill_paged";
}

bool prod_attn_plan_make(const oracle_attention_spec *s, prod_attn_plan *p, ll_err *err) {
  memset(p, 0, sizeof *p);
  int D = s->head_dim;
  if (D != 64 && D != 128 && D != 256) {
    ll_seterr(err, LL_EXIT_USAGE, "prefill kernels exist for head_dim 64, 128, 256; got %d", D);
    return false;
  }
  if (s->dtype != ORACLE_F16 && s->dtype != ORACLE_BF16) {
    ll_seterr(err, LL_EXIT_USAGE, "prefill kernels take f16 or bf16 inputs; got %s", oracle_dtype_name(s->dtype));
    return false;
  }
  if (s->num_kv_heads <= 0 || s->num_qo_heads % s->num_kv_heads) {
    ll_seterr(err, LL_EXIT_USAGE, "num_qo_heads %d is not a multiple of num_kv_heads %d", s->num_qo_heads,
              s->num_kv_heads);
    return false;
  }
  snprintf(p->source, sizeof p->source, "%s", kind_stem(s->kind));
  snprintf(p->kernel, sizeof p->kernel, "%s_%s_d%d", p->source, oracle_dtype_name(s->dtype), D);
  /* the query tiles, as FlashInfer's request_indices / qo_tile_indices */
  uint32_t cap = 0;
  for (int b = 0; b < s->batch; b++) cap += (uint32_t)((oracle_attention_qo_len(s, b) + PROD_Q_TILE - 1) / PROD_Q_TILE);
  p->tile_req = ll_xcalloc(cap ? cap : 1, sizeof(int32_t));
  p->tile_q0 = ll_xcalloc(cap ? cap : 1, sizeof(int32_t));
  for (int b = 0; b < s->batch; b++)
    for (int64_t q0 = 0; q0 < oracle_attention_qo_len(s, b); q0 += PROD_Q_TILE) {
      p->tile_req[p->ntiles] = b;
      p->tile_q0[p->ntiles++] = (int32_t)q0;
    }
  p->grid[0] = p->ntiles; p->grid[1] = (uint32_t)s->num_qo_heads; p->grid[2] = 1;
  p->block[0] = PROD_BLOCK; p->block[1] = 1; p->block[2] = 1;
  p->lds_bytes = 2u * PROD_KV_BLK * (uint32_t)D * 2u;
  p->flags = (s->causal ? PROD_FLAG_CAUSAL : 0) | (s->custom_mask ? PROD_FLAG_CUSTOM_MASK : 0) |
             (s->kind == ORACLE_PAGED && s->layout == ORACLE_HND ? PROD_FLAG_HND : 0);
  p->sm_scale = (float)oracle_attention_sm_scale(s);
  p->soft_cap = (float)s->logits_soft_cap;
  p->window_left = s->window_left;
  p->mask_off = ll_xcalloc(s->batch, sizeof(int32_t));
  if (s->custom_mask)
    p->mask_lead = 1u + (uint32_t)((oracle_attention_total_q(s) + s->kv_indptr[s->batch]) % 7);
  size_t off = p->mask_lead;
  for (int b = 0; b < s->batch; b++) {
    p->mask_off[b] = (int32_t)off;
    off += ((size_t)oracle_attention_qo_len(s, b) * (size_t)oracle_attention_kv_len(s, b) + 7) / 8;
  }
  p->mask_bytes = s->custom_mask ? off : 0;
  return true;
}

void prod_attn_plan_free(prod_attn_plan *p) {
  free(p->tile_req); free(p->tile_q0); free(p->mask_off);
  memset(p, 0, sizeof *p);
}

static rt_arg aptr(uint64_t v) { rt_arg a = {.kind = RT_ARG_PTR}; a.ptr = v; return a; }
static rt_arg au32(uint32_t v) { rt_arg a = {.kind = RT_ARG_U32}; a.u32 = v; return a; }
static rt_arg ai32(int32_t v) { rt_arg a = {.kind = RT_ARG_I32}; a.i32 = v; return a; }
static rt_arg af32(float v) { rt_arg a = {.kind = RT_ARG_F32}; a.f32 = v; return a; }
static rt_arg au64(uint64_t v) { rt_arg a = {.kind = RT_ARG_U64}; a.u64 = v; return a; }

/* The order of each kernel's parameters (kernels/prod/prefill_{single,ragged,paged}.hip). */
size_t prod_attn_args(const prod_attn_plan *p, const oracle_attention_spec *s, const prod_attn_dev *d,
                      rt_arg *a) {
  size_t n = 0;
  a[n++] = aptr(d->q); a[n++] = aptr(d->k); a[n++] = aptr(d->v); a[n++] = aptr(d->o); a[n++] = aptr(d->lse);
  if (s->kind == ORACLE_SINGLE) {
    a[n++] = aptr(d->mask); a[n++] = aptr(d->mask_off);
    a[n++] = au32((uint32_t)oracle_attention_qo_len(s, 0));
    a[n++] = au32((uint32_t)oracle_attention_kv_len(s, 0));
  } else {
    a[n++] = aptr(d->qo_indptr); a[n++] = aptr(d->kv_indptr);
    if (s->kind == ORACLE_PAGED) { a[n++] = aptr(d->kv_indices); a[n++] = aptr(d->kv_last_page_len); }
    a[n++] = aptr(d->tile_req); a[n++] = aptr(d->tile_q0);
    a[n++] = aptr(d->mask); a[n++] = aptr(d->mask_off);
  }
  a[n++] = au32((uint32_t)s->num_qo_heads); a[n++] = au32((uint32_t)s->num_kv_heads);
  if (s->kind == ORACLE_PAGED) a[n++] = au32((uint32_t)s->page_size);
  a[n++] = au32(p->flags); a[n++] = af32(p->sm_scale); a[n++] = af32(p->soft_cap); a[n++] = ai32(p->window_left);
  return n;
}

/* ---- running --------------------------------------------------------------------------------- */
char *prod_co_path(const char *build, emu_arch arch, const char *stem) {
  return ll_fmt("%s/%s/kernels/%s.co", build, emu_arch_name(arch), stem);
}

static uint64_t put(rt_device *d, const void *src, size_t n, const char *name, ll_err *err) {
  size_t sz = n ? n : 16;
  uint64_t a = rt_alloc(d, sz, name, err);
  if (a && n && !rt_copy_to_device(d, a, src, n, err)) return 0;
  return a;
}

/* The device mask buffer: p->mask_lead filler bytes (0x5a: a kernel that ignores mask_off reads
 * them as mask bits), then the spec's segments. */
static uint64_t put_mask(rt_device *d, const oracle_attention_spec *s, const prod_attn_plan *p, ll_err *err) {
  if (!s->custom_mask) return put(d, NULL, 0, "custom_mask", err);
  uint8_t *buf = ll_xmalloc(p->mask_bytes);
  memset(buf, 0x5a, p->mask_lead);
  memcpy(buf + p->mask_lead, s->custom_mask, s->custom_mask_bytes);
  uint64_t a = put(d, buf, p->mask_bytes, "custom_mask", err);
  free(buf);
  return a;
}

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

/* Launch with the emulator's options; on a fault, err carries the fault line and (for
 * "unimplemented") the whole list of mnemonics the kernel needs and the emulator lacks. */
static int launch(rt_device *d, rt_module *m, const char *kernel, const uint32_t grid[3], const uint32_t block[3],
                  const rt_arg *args, size_t nargs, const prod_run_opts *o, emu_launch_stats *st,
                  double *secs, const uint64_t outs[][2], size_t nouts, prod_result *r, ll_err *err) {
  emu_fault f;
  memset(&f, 0, sizeof f);
  rt_launch_opts lo = {0};
  lo.threads = o && o->threads ? o->threads : 2;
  lo.sched = o ? o->sched : EMU_SCHED_ROUND_ROBIN;
  lo.sched_seed = o ? o->sched_seed : 0;
  lo.insn_budget = o ? o->insn_budget : 0;
  lo.fault = &f;
  lo.stats = rt_device_backend(d) == RT_EMU ? st : NULL;
  /* the lab's own kernels rely on nothing the ISA leaves undocumented: a memory-model warning
   * (docs/emulator-choices.md "Memory-model strictness") is a fault here */
  lo.strict_memory = true;
  /* racecheck (LDS) and initcheck (LDS, and the output buffers: nothing may read them before
   * writing them) on the emulator */
  emu_observer *obs = NULL;
  if (o && o->observe) {
    lo.observe = o->observe;
  } else if (o && (o->racecheck || o->initcheck) && rt_device_backend(d) == RT_EMU && r) {
    obs = emu_observer_new();
    if (o->racecheck) emu_observer_racecheck(obs, false);
    if (o->initcheck) {
      emu_observer_initcheck(obs);
      for (size_t i = 0; i < nouts; i++) emu_observer_uninit(obs, outs[i][0], outs[i][1]);
    }
    lo.observe = obs;
  }
  double t0 = ll_now();
  int rc = rt_launch(d, m, kernel, grid, block, args, nargs, 0, &lo, err);
  *secs = ll_now() - t0;
  if (obs) {
    r->checked = rc == LL_EXIT_OK;
    r->hazards = emu_observer_nhazards(obs);
    if (r->hazards) emu_hazard_format(emu_observer_hazard(obs, 0), r->hazard, sizeof r->hazard);
    emu_observer_free(obs);
  }
  if (rc != LL_EXIT_OK && f.faulted && strstr(f.kind, "unimplemented")) {
    char *miss = missing_mnemonics(m);
    ll_seterr(err, rc, "%s; the emulator lacks semantics for: %s", f.msg, miss ? miss : "(could not list)");
    free(miss);
  }
  return rc;
}

/* ---- dynamic census per phase ------------------------------------------------------------- */
const char *prod_phase_name(int p) {
  static const char *names[PROD_NPHASE] = {"prologue", "stage", "qk", "softmax", "pv", "epilogue"};
  return p >= 0 && p < PROD_NPHASE ? names[p] : "?";
}

void prod_census_add(prod_census *c, const emu_launch_stats *st, int p) {
  c->insns += p < 0 ? st->wave_insns : p < EMU_MAX_PHASES ? st->phase_insns[p] : 0;
  c->bpermutes += emu_stats_count(st, p, "ds_bpermute_b32");
  c->mfmas += emu_stats_count(st, p, "v_mfma_*");
  c->tr_b16 += emu_stats_count(st, p, "ds_read_b64_tr_b16");
  c->ds_read_b64 += emu_stats_count(st, p, "ds_read_b64");
  c->ds_read2_b64 += emu_stats_count(st, p, "ds_read2_b64") + emu_stats_count(st, p, "ds_read2st64_b64");
  c->ds_writes += emu_stats_count(st, p, "ds_write*");
}

static void count_stats(const emu_launch_stats *st, prod_result *r) {
  r->have_stats = true;
  r->wave_insns = st->wave_insns;
  r->bpermutes = emu_stats_count(st, -1, "ds_bpermute_b32");
  r->mfmas = emu_stats_count(st, -1, "v_mfma_*");
  for (int p = 0; p < PROD_NPHASE; p++) prod_census_add(&r->phase[p], st, p);
  for (int p = PROD_NPHASE; p < EMU_MAX_PHASES; p++) r->unmarked_phase_insns += st->phase_insns[p];
}

bool prod_phase_check(emu_arch a, const prod_result *r, char *why, size_t n) {
#define BAD(...) do { snprintf(why, n, __VA_ARGS__); return false; } while (0)
  if (!r->have_stats) BAD("no dynamic census (not run on the emulator)");
  const prod_census *qk = &r->phase[PROD_PHASE_QK], *pv = &r->phase[PROD_PHASE_PV];
  if (r->unmarked_phase_insns)
    BAD("%llu instructions ran in a phase the kernel does not define", (unsigned long long)r->unmarked_phase_insns);
  /* the K/V tiles are the kernel's only LDS stores: every ds_write runs in the stage phase */
  for (int p = 0; p < PROD_NPHASE; p++)
    if (p != PROD_PHASE_STAGE && r->phase[p].ds_writes)
      BAD("%llu LDS stores (ds_write*) ran in the %s phase (want all in stage: the K/V staging is the kernel's only "
          "LDS store)", (unsigned long long)r->phase[p].ds_writes, prod_phase_name(p));
  if (r->mfmas && !r->phase[PROD_PHASE_STAGE].ds_writes)
    BAD("MFMAs ran but the stage phase stored nothing to LDS (stage marker missing or renumbered?)");
  if (qk->mfmas != pv->mfmas)
    BAD("QK ran %llu MFMAs but PV %llu (the kernel issues 2 x D/16 of each per kv step)",
        (unsigned long long)qk->mfmas, (unsigned long long)pv->mfmas);
  if (qk->bpermutes || qk->tr_b16)
    BAD("QK ran %llu ds_bpermute_b32 and %llu ds_read_b64_tr_b16 (want 0: K fragments are plain load_fragment reads)",
        (unsigned long long)qk->bpermutes, (unsigned long long)qk->tr_b16);
  uint64_t plain = pv->ds_read_b64 + 2 * pv->ds_read2_b64; /* 8-byte plain LDS reads per lane */
  if (a == EMU_GFX950) {
    if (pv->tr_b16 != pv->mfmas || pv->bpermutes || plain)
      BAD("gfx950 PV: %llu ds_read_b64_tr_b16, %llu ds_bpermute_b32, %llu plain 8-byte LDS reads for %llu MFMAs "
          "(want one tr_b16 read per V fragment = per MFMA, no bpermute, no plain read: docs/changes.md, change 000)",
          (unsigned long long)pv->tr_b16, (unsigned long long)pv->bpermutes, (unsigned long long)plain,
          (unsigned long long)pv->mfmas);
  } else {
    if (pv->tr_b16 || pv->bpermutes != 6 * pv->mfmas || plain != pv->mfmas)
      BAD("gfx942 PV: %llu ds_bpermute_b32, %llu plain 8-byte LDS reads, %llu ds_read_b64_tr_b16 for %llu MFMAs "
          "(want load_fragment + transpose_mma_tile per V fragment: 1 ds_read_b64 and 6 ds_bpermute_b32 per MFMA, "
          "docs/changes.md, change 000)",
          (unsigned long long)pv->bpermutes, (unsigned long long)plain, (unsigned long long)pv->tr_b16,
          (unsigned long long)pv->mfmas);
  }
  if (pv->mfmas == 0 && r->mfmas) BAD("MFMAs ran but none in the marked QK/PV phases (phase markers missing?)");
  snprintf(why, n, "ok");
  return true;
#undef BAD
}

int prod_case_run_ref(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o,
                      const oracle_attention_spec *s, const float *ref_o, const float *ref_lse, prod_result *r,
                      ll_err *err) {
  memset(r, 0, sizeof *r);
  prod_attn_plan p;
  if (!prod_attn_plan_make(s, &p, err)) return err->code;
  char *co = o && o->co_path ? ll_xstrdup(o->co_path) : prod_co_path(build, rt_device_arch(d), p.source);
  int rc = LL_EXIT_OK;
  rt_module *m = NULL;
  size_t es = oracle_dtype_size(s->dtype);
  size_t nq = (size_t)oracle_attention_q_elems(s), nkv = (size_t)oracle_attention_kv_elems(s);
  size_t no = nq, nl = (size_t)oracle_attention_total_q(s) * (size_t)s->num_qo_heads;
  float *got_o = ll_xcalloc(no ? no : 1, sizeof(float)), *got_lse = ll_xcalloc(nl ? nl : 1, sizeof(float));
  FILE *probe = fopen(co, "rb");
  if (!probe) {
    ll_seterr(err, LL_EXIT_ENV, "%s is missing: run make kernels (and make mutants for mutants)", co);
    rc = LL_EXIT_ENV;
    goto out;
  }
  fclose(probe);
  m = rt_load_file(d, co, err);
  if (!m) { rc = err->code; goto out; }
  prod_attn_dev dv = {0};
  int B = s->batch;
  if (!(dv.q = put(d, s->q, nq * es, "q", err)) || !(dv.k = put(d, s->k, nkv * es, "k", err)) ||
      !(dv.v = put(d, s->v, nkv * es, "v", err)) ||
      !(dv.qo_indptr = put(d, s->qo_indptr, (B + 1) * 4, "qo_indptr", err)) ||
      !(dv.kv_indptr = put(d, s->kv_indptr, (B + 1) * 4, "kv_indptr", err)) ||
      !(dv.tile_req = put(d, p.tile_req, p.ntiles * 4, "tile_req", err)) ||
      !(dv.tile_q0 = put(d, p.tile_q0, p.ntiles * 4, "tile_q0", err)) ||
      !(dv.mask = put_mask(d, s, &p, err)) ||
      !(dv.mask_off = put(d, p.mask_off, B * 4, "mask_off", err))) {
    rc = err->code ? err->code : LL_EXIT_FAIL;
    goto out;
  }
  if (!(dv.o = rt_alloc(d, (no ? no : 4) * 4, "o", err)) || !(dv.lse = rt_alloc(d, (nl ? nl : 4) * 4, "lse", err))) {
    rc = err->code;
    goto out;
  }
  if (s->kind == ORACLE_PAGED &&
      (!(dv.kv_indices = put(d, s->kv_indices, s->kv_indptr[B] * 4, "kv_indices", err)) ||
       !(dv.kv_last_page_len = put(d, s->kv_last_page_len, B * 4, "kv_last_page_len", err)))) {
    rc = err->code;
    goto out;
  }
  if (p.ntiles > 0) {
    rt_arg args[PROD_MAX_ARGS];
    size_t na = prod_attn_args(&p, s, &dv, args);
    for (size_t i = 0; o && i < o->npatch && i < 4; i++)
      if (o->patch[i].index < na) args[o->patch[i].index] = o->patch[i].value;
    emu_launch_stats st;
    memset(&st, 0, sizeof st);
    const uint64_t outs[2][2] = {{dv.o, (no ? no : 4) * 4}, {dv.lse, (nl ? nl : 4) * 4}};
    prod_run_opts eo = o ? *o : (prod_run_opts){0};
    if (eo.sched == EMU_SCHED_ROUND_ROBIN && c) eo.sched = c->sched; /* the case's own schedule */
    if (!eo.sched_seed && c) eo.sched_seed = c->seed;
    rc = launch(d, m, p.kernel, p.grid, p.block, args, na, &eo, &st, &r->seconds, outs, 2, r, err);
    if (rc == LL_EXIT_OK && rt_device_backend(d) == RT_EMU) count_stats(&st, r);
    emu_launch_stats_free(&st);
    if (rc != LL_EXIT_OK) {
      ll_err_prefix(err, "%s %s on %s", c ? c->name : "case", p.kernel, emu_arch_name(rt_device_arch(d)));
      goto out;
    }
    if (!rt_copy_from_device(d, got_o, dv.o, no * 4, err) || !rt_copy_from_device(d, got_lse, dv.lse, nl * 4, err)) {
      rc = err->code;
      goto out;
    }
  }
  double atol = c ? c->atol : 0, rtol = c ? c->rtol : 0;
  if (atol <= 0 && rtol <= 0) oracle_tolerance_default(s->dtype, &atol, &rtol);
  /* O is a weighted mean of V rows: its absolute tolerance scales with V's magnitude */
  bool ok_o = oracle_compare(got_o, ref_o, no, atol * (c ? prod_case_v_scale(c) : 1.0), rtol, &r->o);
  bool ok_l = oracle_compare(got_lse, ref_lse, nl, atol, rtol, &r->lse);
  r->pass = ok_o && ok_l;
  r->max_abs = fmax(r->o.max_abs, r->lse.max_abs);
  r->max_rel = fmax(r->o.max_rel, r->lse.max_rel);
out:
  if (m) rt_unload(m);
  free(co);
  free(got_o);
  free(got_lse);
  prod_attn_plan_free(&p);
  return rc;
}

int prod_case_run(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o, prod_result *r,
                  ll_err *err) {
  oracle_attention_spec s;
  memset(r, 0, sizeof *r);
  if (!prod_case_spec(c, &s, err)) return err->code;
  size_t no = (size_t)oracle_attention_q_elems(&s), nl = (size_t)oracle_attention_total_q(&s) * s.num_qo_heads;
  float *ro = ll_xcalloc(no ? no : 1, sizeof(float)), *rl = ll_xcalloc(nl ? nl : 1, sizeof(float));
  int rc;
  if (!oracle_attention_run(&s, ro, rl, NULL, err)) rc = err->code;
  else rc = prod_case_run_ref(d, build, c, o, &s, ro, rl, r, err);
  free(ro);
  free(rl);
  prod_spec_free(&s);
  return rc;
}

/* ---- concat_mla_q ---------------------------------------------------------------------------- */
void prod_concat_launch(int64_t T, int64_t H, uint32_t grid[3], uint32_t block[3]) {
  uint64_t threads = (uint64_t)T * (uint64_t)H * (ORACLE_MLA_OUT / 8);
  grid[0] = T == 0 ? 1 : (uint32_t)((threads + 255) / 256);
  grid[1] = grid[2] = 1;
  block[0] = 256; block[1] = block[2] = 1;
}

void prod_concat_strides(const prod_concat_case *c, int64_t st[4]) {
  int64_t T = c->T > 0 ? c->T : 1, H = c->H; /* T = 0: a transposed view still has a head stride >= 1 */
  if (c->transposed_nope) { st[0] = ORACLE_MLA_NOPE; st[1] = T * ORACLE_MLA_NOPE + c->nope_token_pad; }
  else { st[1] = ORACLE_MLA_NOPE + c->extra_stride; st[0] = H * st[1] + c->nope_token_pad; }
  if (c->transposed_pe) { st[2] = ORACLE_MLA_PE; st[3] = T * ORACLE_MLA_PE + c->pe_token_pad; }
  else { st[3] = ORACLE_MLA_PE + c->pe_extra_stride; st[2] = H * st[3] + c->pe_token_pad; }
}

int prod_concat_run(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                    prod_concat_result *r, ll_err *err) {
  return prod_concat_run_opts(d, build, c, co_path, NULL, r, err);
}

int prod_concat_run_opts(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                         const prod_run_opts *po, prod_concat_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  int64_t T = c->T, H = c->H;
  oracle_concat_spec s;
  memset(&s, 0, sizeof s);
  s.dtype = c->dtype;
  s.T = T;
  s.H = H;
  int64_t st[4];
  prod_concat_strides(c, st);
  s.nope_stride_t = st[0]; s.nope_stride_h = st[1]; s.pe_stride_t = st[2]; s.pe_stride_h = st[3];
  if (st[0] % 8 || st[1] % 8 || st[2] % 8 || st[3] % 8) {
    ll_seterr(err, LL_EXIT_USAGE, "concat case %s: strides must be multiples of 8 elements "
              "(the kernel moves 16 bytes per thread)", c->name);
    return LL_EXIT_USAGE;
  }
  s.q_nope_elems = (size_t)oracle_concat_extent(T, H, s.nope_stride_t, s.nope_stride_h, ORACLE_MLA_NOPE);
  s.q_pe_elems = (size_t)oracle_concat_extent(T, H, s.pe_stride_t, s.pe_stride_h, ORACLE_MLA_PE);
  s.q_nope = ll_xcalloc(s.q_nope_elems ? s.q_nope_elems : 1, 2);
  s.q_pe = ll_xcalloc(s.q_pe_elems ? s.q_pe_elems : 1, 2);
  uint64_t rng = c->seed;
  /* raw 16-bit patterns (NaN/inf/subnormal included: the copy must move bits, vLLM's test too) */
  for (size_t i = 0; i < s.q_nope_elems; i++) s.q_nope[i] = (uint16_t)sm64(&rng);
  for (size_t i = 0; i < s.q_pe_elems; i++) s.q_pe[i] = (uint16_t)sm64(&rng);
  size_t nout = (size_t)(T * H * ORACLE_MLA_OUT);
  uint16_t *ref = ll_xcalloc(nout ? nout : 1, 2), *got = ll_xcalloc(nout ? nout : 8, 2);
  int rc = LL_EXIT_OK;
  rt_module *m = NULL;
  char *co = co_path ? ll_xstrdup(co_path) : prod_co_path(build, rt_device_arch(d), "concat_mla_q");
  if (!oracle_concat_validate(&s, err) || !oracle_concat_mla_q(&s, ref, err)) { rc = err->code; goto out; }
  FILE *probe = fopen(co, "rb");
  if (!probe) {
    ll_seterr(err, LL_EXIT_ENV, "%s is missing: run make kernels", co);
    rc = LL_EXIT_ENV;
    goto out;
  }
  fclose(probe);
  if (!(m = rt_load_file(d, co, err))) { rc = err->code; goto out; }
  uint64_t dn, dp, dout;
  size_t out_bytes = nout ? nout * 2 : 16;
  uint8_t *sentinel = ll_xmalloc(out_bytes);
  memset(sentinel, 0xab, out_bytes);
  if (!(dn = put(d, s.q_nope, s.q_nope_elems * 2, "q_nope", err)) || !(dp = put(d, s.q_pe, s.q_pe_elems * 2, "q_pe", err)) ||
      !(dout = put(d, sentinel, out_bytes, "q_out", err))) {
    free(sentinel);
    rc = err->code;
    goto out;
  }
  rt_arg a[9] = {aptr(dout), aptr(dn), aptr(dp), au32((uint32_t)T), au32((uint32_t)H), au64((uint64_t)s.nope_stride_t),
                 au64((uint64_t)s.nope_stride_h), au64((uint64_t)s.pe_stride_t), au64((uint64_t)s.pe_stride_h)};
  for (size_t i = 0; po && i < po->npatch && i < 4; i++)
    if (po->patch[i].index < 9) a[po->patch[i].index] = po->patch[i].value;
  uint32_t grid[3], block[3];
  prod_concat_launch(T, H, grid, block);
  /* racecheck and initcheck (the output holds a sentinel, so only LDS could be read uninitialized) */
  prod_run_opts o = {.racecheck = true, .initcheck = true};
  prod_result hz;
  memset(&hz, 0, sizeof hz);
  rc = launch(d, m, "concat_mla_q", grid, block, a, 9, &o, NULL, &r->seconds, NULL, 0, &hz, err);
  r->hazards = hz.hazards;
  snprintf(r->hazard, sizeof r->hazard, "%s", hz.hazard);
  if (rc != LL_EXIT_OK) {
    ll_err_prefix(err, "concat case %s on %s", c->name, emu_arch_name(rt_device_arch(d)));
    free(sentinel);
    goto out;
  }
  uint8_t *back = ll_xmalloc(out_bytes);
  if (!rt_copy_from_device(d, back, dout, out_bytes, err)) { free(back); free(sentinel); rc = err->code; goto out; }
  if (nout == 0) {
    r->t0_untouched = memcmp(back, sentinel, out_bytes) == 0;
  } else {
    memcpy(got, back, nout * 2);
    r->n = nout;
    for (size_t i = 0; i < nout; i++) r->mismatches += got[i] != ref[i];
  }
  free(back);
  free(sentinel);
out:
  if (m) rt_unload(m);
  free(co);
  free(ref);
  free(got);
  free(s.q_nope);
  free(s.q_pe);
  return rc;
}

/* ---- the launch contract's refusals ---------------------------------------------------------- */
static prod_refusal refusal_list[48];
static size_t refusal_n;

static void refusal_add(int stem, const char *what, size_t index, rt_arg v) {
  prod_refusal *r = &refusal_list[refusal_n++];
  static const char *const stems[] = {"prefill_single", "prefill_ragged", "prefill_paged", "concat_mla_q"};
  snprintf(r->what, sizeof r->what, "%s: %s", stems[stem], what);
  r->stem = stem;
  r->index = index;
  r->value = v;
  if (stem < 3) {
    static const oracle_attention_kind kinds[] = {ORACLE_SINGLE, ORACLE_RAGGED, ORACLE_PAGED};
    r->c = (prod_case){.name = "contract", .kind = kinds[stem], .dtype = ORACLE_F16, .hq = 2, .hkv = 1,
                       .head_dim = 64, .batch = 1, .qo_len = {5}, .kv_len = {9}, .page_size = 4, .causal = true,
                       .seed = 31};
  } else {
    r->cc = (prod_concat_case){.name = "contract_concat", .dtype = ORACLE_F16, .T = 2, .H = 3, .seed = 32};
  }
}

const prod_refusal *prod_refusals(size_t *n) {
  if (!refusal_n) {
    /* argument indices from the kernels' signatures (kernels/prod/<stem>.hip): ..., [page_size,]
     * flags, sm_scale, soft_cap, window_left last, num_qo_heads and num_kv_heads before them;
     * tests/test_prod.c checks them against prod_attn_args */
    for (int k = 0; k < 3; k++) {
      size_t na = k == 0 ? 15 : k == 1 ? 17 : 20, paged = k == 2;
      size_t flags = na - 4, scale = na - 3, cap = na - 2, win = na - 1, hkv = na - 5 - paged, hq = hkv - 1;
      refusal_add(k, "flags bit 3 (no such flag)", flags, au32(PROD_FLAG_CAUSAL | 8u));
      refusal_add(k, "flags bit 31", flags, au32(0x80000000u));
      if (!paged) refusal_add(k, "the HND flag without pages", flags, au32(PROD_FLAG_HND));
      refusal_add(k, "window_left -2", win, ai32(-2));
      refusal_add(k, "soft_cap -1", cap, af32(-1.0f));
      refusal_add(k, "soft_cap NaN", cap, af32(NAN));
      refusal_add(k, "soft_cap inf", cap, af32(INFINITY));
      refusal_add(k, "sm_scale inf", scale, af32(INFINITY));
      refusal_add(k, "sm_scale NaN", scale, af32(NAN));
      refusal_add(k, "num_kv_heads 0", hkv, au32(0));
      refusal_add(k, "num_qo_heads 0", hq, au32(0));
      refusal_add(k, "num_kv_heads 3 not dividing num_qo_heads 2", hkv, au32(3));
      if (paged) refusal_add(k, "page_size 0", na - 5, au32(0));
    }
    /* concat: q_out, q_nope, q_pe, T, H, then the strides (dense ones + 4: not a multiple of 8) */
    prod_concat_case cc = {.T = 2, .H = 3};
    int64_t st[4];
    prod_concat_strides(&cc, st);
    static const char *const sn[] = {"nope_stride_t", "nope_stride_h", "pe_stride_t", "pe_stride_h"};
    for (int i = 0; i < 4; i++) {
      char what[48];
      snprintf(what, sizeof what, "%s %lld (not a multiple of 8)", sn[i], (long long)st[i] + 4);
      refusal_add(3, what, 5 + (size_t)i, au64((uint64_t)st[i] + 4));
    }
  }
  *n = refusal_n;
  return refusal_list;
}

int prod_refusal_run(rt_device *d, const char *build, const prod_refusal *r, const char *co_path, char *why,
                     size_t n) {
  prod_run_opts o = {.co_path = co_path, .npatch = 1};
  o.patch[0].index = r->index;
  o.patch[0].value = r->value;
  ll_err e = {0};
  int rc;
  bool matched = false;
  if (r->stem == 3) {
    prod_concat_result res;
    rc = prod_concat_run_opts(d, build, &r->cc, co_path, &o, &res, &e);
    matched = rc == LL_EXIT_OK && res.mismatches == 0;
  } else {
    prod_result res;
    rc = prod_case_run(d, build, &r->c, &o, &res, &e);
    matched = rc == LL_EXIT_OK && res.pass;
  }
  if (rc == LL_EXIT_FAIL && strstr(e.msg, "s_trap")) {
    snprintf(why, n, "refused: %s", e.msg);
    return LL_EXIT_OK;
  }
  if (rc == LL_EXIT_OK) {
    snprintf(why, n, "%s: the kernel accepted the launch (it ran%s) instead of refusing it", r->what,
             matched ? " and matched the in-contract oracle" : "");
    return LL_EXIT_FAIL;
  }
  snprintf(why, n, "%s: not refused by s_trap: %s", r->what, e.msg);
  return rc == LL_EXIT_FAIL ? LL_EXIT_FAIL : rc;
}

/* ---- the matrices ---------------------------------------------------------------------------- */
#define F16 ORACLE_F16
#define BF16 ORACLE_BF16
/* quick: every variant (single, ragged, paged NHD/HND) x head_dim 64/128/256 x f16/bf16 x
 * causal/not, GQA, qo_len < and > kv_len, page sizes 1/5/16 with partial last pages and shuffled
 * pages, one case each of soft cap and sliding window, custom masks on the ragged and the single
 * kernel (two query tiles), and a causal bound just past a key block. Half of the cases run under
 * the adversarial or the random wave schedule (the rest in lockstep round-robin), so each of the
 * kernel's two barriers is guarded by several cases, not one. Small: the emulator runs both
 * arches in well under a few minutes. */
static const prod_case quick_cases[] = {
    {.name = "single_f16_d64_causal", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 64,
     .batch = 1, .qo_len = {37}, .kv_len = {70}, .causal = true, .seed = 101},
    {.name = "single_bf16_d128_gqa2", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 1, .head_dim = 128,
     .batch = 1, .qo_len = {40}, .kv_len = {33}, .seed = 102},
    {.name = "single_f16_d256_causal", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 256,
     .batch = 1, .qo_len = {20}, .kv_len = {20}, .causal = true, .seed = 103, .sched = EMU_SCHED_ADVERSARIAL},
    {.name = "ragged_f16_d128_gqa4_causal", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 4, .hkv = 1, .head_dim = 128,
     .batch = 2, .qo_len = {17, 64}, .kv_len = {50, 64}, .causal = true, .seed = 104, .sched = EMU_SCHED_RANDOM},
    {.name = "ragged_bf16_d64", .kind = ORACLE_RAGGED, .dtype = BF16, .hq = 2, .hkv = 2, .head_dim = 64,
     .batch = 3, .qo_len = {1, 30, 65}, .kv_len = {5, 30, 40}, .seed = 105},
    {.name = "ragged_bf16_d256_causal_qo_gt_kv", .kind = ORACLE_RAGGED, .dtype = BF16, .hq = 2, .hkv = 1,
     .head_dim = 256, .batch = 2, .qo_len = {40, 10}, .kv_len = {24, 10}, .causal = true, .seed = 106},
    {.name = "paged_nhd_f16_d128_ps16_causal", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 128,
     .batch = 2, .qo_len = {20, 33}, .kv_len = {37, 60}, .page_size = 16, .layout = ORACLE_NHD,
     .shuffle_pages = true, .causal = true, .seed = 107, .sched = EMU_SCHED_ADVERSARIAL},
    {.name = "paged_hnd_bf16_d64_ps1", .kind = ORACLE_PAGED, .dtype = BF16, .hq = 4, .hkv = 2, .head_dim = 64,
     .batch = 2, .qo_len = {9, 16}, .kv_len = {13, 7}, .page_size = 1, .layout = ORACLE_HND,
     .shuffle_pages = true, .seed = 108, .sched = EMU_SCHED_RANDOM},
    {.name = "paged_hnd_f16_d256_ps5_causal", .kind = ORACLE_PAGED, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 256,
     .batch = 1, .qo_len = {12}, .kv_len = {23}, .page_size = 5, .layout = ORACLE_HND, .shuffle_pages = true,
     .causal = true, .seed = 109},
    {.name = "single_f16_d64_softcap", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 64,
     .batch = 1, .qo_len = {24}, .kv_len = {40}, .soft_cap = 1.0, .sm_scale = 1.0, .seed = 110},
    {.name = "ragged_f16_d128_window16_causal", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 2, .hkv = 2,
     .head_dim = 128, .batch = 2, .qo_len = {40, 70}, .kv_len = {70, 70}, .causal = true, .has_window = true,
     .window_left = 16, .seed = 111, .sched = EMU_SCHED_ADVERSARIAL},
    {.name = "ragged_bf16_d64_custom_mask_gqa2", .kind = ORACLE_RAGGED, .dtype = BF16, .hq = 4, .hkv = 2,
     .head_dim = 64, .batch = 2, .qo_len = {20, 33}, .kv_len = {25, 40}, .custom_mask = true, .seed = 112,
     .sched = EMU_SCHED_RANDOM},
    /* Found by `lanelab mutate` (survivors at prefill_impl.h 196 and 198): the single kernel with
     * a custom mask over two query tiles (the second tile's q0 and the mask offset of request 0). */
    {.name = "single_bf16_d64_custom_mask_2tiles", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {100}, .kv_len = {90}, .custom_mask = true, .seed = 113,
     .sched = EMU_SCHED_ADVERSARIAL},
    /* Found by `lanelab mutate` (survivor at prefill_impl.h 247, the causal kv bound 2 too low):
     * a query tile that is not the last, whose causal bound q_last + delta + 1 = 65 is just past a
     * 32-key block, so a bound off by one or two drops the block holding key 64; the 3-key window
     * makes that one key a third of row 63's softmax, far above the noise floor. */
    {.name = "single_f16_d64_causal_window2_kv_block_edge", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {128}, .kv_len = {129}, .causal = true, .has_window = true,
     .window_left = 2, .seed = 114},
    /* Found by `lanelab mutate` (survivors at prefill_impl.h 305, `window_left >= 0` -> `> 0` or
     * `>= 1`): a window of 0 keys to the left, which keeps only the diagonal key qi + delta, so
     * each O row is exactly that key's V row; a mutant that drops the window at 0 averages the
     * whole causal prefix instead. Two query tiles, kv > qo (delta 20). */
    {.name = "single_bf16_d64_causal_window0", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {70}, .kv_len = {90}, .causal = true, .has_window = true,
     .window_left = 0, .seed = 115},
    /* Found by `lanelab mutate` (survivor of the last full run: kFlagHnd 4 -> 5, which makes every
     * causal launch read K/V as HND): the gate's head_dim 64 builds had no paged NHD causal case.
     * NHD with 2 KV heads and 7-token pages, so NHD and HND address differently; a one-key
     * request (delta = -5: only the last query row sees it). */
    {.name = "paged_nhd_f16_d64_ps7_causal", .kind = ORACLE_PAGED, .dtype = F16, .hq = 4, .hkv = 2,
     .head_dim = 64, .batch = 3, .qo_len = {15, 6, 40}, .kv_len = {30, 1, 61}, .page_size = 7,
     .layout = ORACLE_NHD, .shuffle_pages = true, .causal = true, .seed = 116},
    /* Issue 30: every accepted flag combination of every kernel (causal + custom mask: the mask
     * replaces causal; paged NHD and HND each with none/causal/mask/both) and the numeric
     * extremes in both dtypes, one extreme per case: rows whose first 1-3 visited key blocks are
     * fully masked with every visible logit underflowing (-400 after the scale) — the running
     * softmax state alone then decides O —, logits far below the row max, a single visible key,
     * outputs in the dtype's subnormal range, inputs at the top of the range, sm_scale 24/16/40
     * and 1e-3/2e-3 with and without a soft cap. */
    {.name = "paged_nhd_f16_d64_ps16_mask_lead2_underflow", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 2, .qo_len = {70, 20}, .kv_len = {110, 75}, .page_size = 16, .layout = ORACLE_NHD,
     .shuffle_pages = true, .custom_mask = true, .mask_lead_blocks = 2, .values = PROD_VALUES_UNDERFLOW, .seed = 117},
    /* the window (12 keys left of the bottom-right diagonal, delta 30 and 35) cuts into the keys
     * the mask leaves visible (>= 32), so a top-left window bound shows */
    {.name = "paged_hnd_bf16_d64_ps8_causal_mask_window12_lead1_underflow_scale16", .kind = ORACLE_PAGED,
     .dtype = BF16, .hq = 2, .hkv = 2, .head_dim = 64, .batch = 2, .qo_len = {40, 9}, .kv_len = {70, 44},
     .page_size = 8, .layout = ORACLE_HND, .shuffle_pages = true, .causal = true, .has_window = true,
     .window_left = 12, .custom_mask = true, .mask_lead_blocks = 1,
     .values = PROD_VALUES_UNDERFLOW, .sm_scale = 16.0, .seed = 118, .sched = EMU_SCHED_RANDOM},
    {.name = "ragged_f16_d64_causal_mask_far_below_max_scale24", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 2,
     .hkv = 1, .head_dim = 64, .batch = 2, .qo_len = {30, 70}, .kv_len = {100, 60}, .causal = true,
     .custom_mask = true, .mask_lead_blocks = 3, .values = PROD_VALUES_FAR_BELOW_MAX, .sm_scale = 24.0, .seed = 119},
    {.name = "single_bf16_d64_window_far_below_max_scale24_cap50", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2,
     .hkv = 2, .head_dim = 64, .batch = 1, .qo_len = {70}, .kv_len = {110}, .has_window = true, .window_left = 40,
     .values = PROD_VALUES_FAR_BELOW_MAX, .sm_scale = 24.0, .soft_cap = 50.0, .seed = 120,
     .sched = EMU_SCHED_ADVERSARIAL},
    {.name = "paged_hnd_f16_d64_ps4_mask_single_key_scale1e-3_cap1", .kind = ORACLE_PAGED, .dtype = F16, .hq = 4,
     .hkv = 2, .head_dim = 64, .batch = 2, .qo_len = {20, 37}, .kv_len = {50, 23}, .page_size = 4,
     .layout = ORACLE_HND, .shuffle_pages = true, .custom_mask = true, .single_key = true, .sm_scale = 1e-3,
     .soft_cap = 1.0, .seed = 121},
    {.name = "paged_nhd_bf16_d64_ps3_causal_mask_single_key_scale1e-3", .kind = ORACLE_PAGED, .dtype = BF16,
     .hq = 2, .hkv = 2, .head_dim = 64, .batch = 2, .qo_len = {12, 25}, .kv_len = {40, 66}, .page_size = 3,
     .layout = ORACLE_NHD, .shuffle_pages = true, .causal = true, .custom_mask = true, .single_key = true,
     .mask_lead_blocks = 1, .sm_scale = 1e-3, .seed = 122, .sched = EMU_SCHED_RANDOM},
    /* sm_scale 40 with a cap of 1: the scaled logits are far beyond the cap (|x / c| up to
     * ~100), where a tanh built as (e - 1)/(e + 1) from exp(+2|x|) overflows to NaN */
    {.name = "paged_nhd_f16_d128_ps16_denormal_out_scale40_cap1", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2,
     .hkv = 2, .head_dim = 128, .batch = 1, .qo_len = {30}, .kv_len = {45}, .page_size = 16, .layout = ORACLE_NHD,
     .shuffle_pages = true, .values = PROD_VALUES_DENORMAL_OUT, .sm_scale = 40.0, .soft_cap = 1.0, .seed = 123},
    {.name = "ragged_bf16_d64_causal_denormal_out_scale2e-3_cap0.5", .kind = ORACLE_RAGGED, .dtype = BF16,
     .hq = 2, .hkv = 1, .head_dim = 64, .batch = 2, .qo_len = {20, 45}, .kv_len = {30, 45}, .causal = true,
     .values = PROD_VALUES_DENORMAL_OUT, .sm_scale = 2e-3, .soft_cap = 0.5, .seed = 124},
    /* the single kernel's capped case with logits far beyond the cap (quick had none: a tanh that
     * overflows for |x / c| > 44 passed it in prefill_single, mk/score-human-mutants.sh) */
    {.name = "single_bf16_d64_causal_scale40_cap1", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 1, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {20}, .kv_len = {40}, .causal = true, .sm_scale = 40.0, .soft_cap = 1.0,
     .seed = 127},
    {.name = "single_f16_d64_edge_range_scale1e-3", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {40}, .kv_len = {77}, .values = PROD_VALUES_EDGE_RANGE, .sm_scale = 1e-3,
     .seed = 125},
    {.name = "single_bf16_d128_causal_mask_edge_range", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 2,
     .head_dim = 128, .batch = 1, .qo_len = {50}, .kv_len = {64}, .causal = true, .custom_mask = true,
     .values = PROD_VALUES_EDGE_RANGE, .seed = 126, .sched = EMU_SCHED_ADVERSARIAL},
};

/* full: the quick set plus edge lengths 1023/1024, qo_len > kv_len causal, page sizes 1 and 16
 * with partial last pages and shuffled pages in both layouts, GQA groups 1/4/8, every head_dim
 * in both dtypes. */
static const prod_case full_extra[] = {
    {.name = "single_f16_d128_1024_causal", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 128,
     .batch = 1, .qo_len = {1024}, .kv_len = {1024}, .causal = true, .seed = 201},
    {.name = "single_bf16_d128_1023", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 2, .head_dim = 128,
     .batch = 1, .qo_len = {1023}, .kv_len = {1023}, .seed = 202},
    {.name = "single_f16_d64_1023x1024_gqa4", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 4, .hkv = 1, .head_dim = 64,
     .batch = 1, .qo_len = {1023}, .kv_len = {1024}, .causal = true, .seed = 203},
    {.name = "single_bf16_d256_1024_gqa8", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 8, .hkv = 1, .head_dim = 256,
     .batch = 1, .qo_len = {200}, .kv_len = {1024}, .causal = true, .seed = 204},
    {.name = "ragged_f16_d128_causal_qo_gt_kv", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 4, .hkv = 4, .head_dim = 128,
     .batch = 3, .qo_len = {300, 130, 1}, .kv_len = {100, 129, 1}, .causal = true, .seed = 205},
    {.name = "ragged_bf16_d64_gqa8", .kind = ORACLE_RAGGED, .dtype = BF16, .hq = 8, .hkv = 1, .head_dim = 64,
     .batch = 4, .qo_len = {64, 65, 127, 3}, .kv_len = {64, 200, 127, 300}, .causal = true, .seed = 206},
    {.name = "ragged_f16_d256_gqa1", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 256,
     .batch = 2, .qo_len = {100, 33}, .kv_len = {257, 31}, .seed = 207},
    {.name = "paged_nhd_f16_d128_ps1_gqa4", .kind = ORACLE_PAGED, .dtype = F16, .hq = 4, .hkv = 1, .head_dim = 128,
     .batch = 2, .qo_len = {50, 7}, .kv_len = {77, 130}, .page_size = 1, .layout = ORACLE_NHD, .shuffle_pages = true,
     .causal = true, .seed = 208},
    {.name = "paged_hnd_bf16_d128_ps16_gqa8", .kind = ORACLE_PAGED, .dtype = BF16, .hq = 8, .hkv = 1, .head_dim = 128,
     .batch = 3, .qo_len = {64, 100, 5}, .kv_len = {65, 333, 16}, .page_size = 16, .layout = ORACLE_HND,
     .shuffle_pages = true, .causal = true, .seed = 209},
    {.name = "paged_nhd_bf16_d256_ps16", .kind = ORACLE_PAGED, .dtype = BF16, .hq = 2, .hkv = 1, .head_dim = 256,
     .batch = 2, .qo_len = {90, 17}, .kv_len = {1023, 47}, .page_size = 16, .layout = ORACLE_NHD,
     .shuffle_pages = true, .seed = 210},
    {.name = "paged_hnd_f16_d64_ps16_qo_gt_kv", .kind = ORACLE_PAGED, .dtype = F16, .hq = 4, .hkv = 2, .head_dim = 64,
     .batch = 2, .qo_len = {80, 40}, .kv_len = {33, 1}, .page_size = 16, .layout = ORACLE_HND, .shuffle_pages = true,
     .causal = true, .seed = 211},
    {.name = "paged_nhd_f16_d64_ps16_1024", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 64,
     .batch = 1, .qo_len = {1024}, .kv_len = {1024}, .page_size = 16, .layout = ORACLE_NHD, .shuffle_pages = true,
     .causal = true, .seed = 212},
    {.name = "single_bf16_d64_softcap30_scale", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {100}, .kv_len = {150}, .soft_cap = 30.0, .sm_scale = 4.0, .causal = true,
     .seed = 213},
    {.name = "paged_hnd_f16_d128_ps16_window", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 128,
     .batch = 2, .qo_len = {100, 20}, .kv_len = {200, 20}, .page_size = 16, .layout = ORACLE_HND,
     .shuffle_pages = true, .causal = true, .has_window = true, .window_left = 40, .seed = 214},
    {.name = "single_f16_d128_custom_mask", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 2, .hkv = 1, .head_dim = 128,
     .batch = 1, .qo_len = {130}, .kv_len = {97}, .custom_mask = true, .seed = 215},
};

static const prod_concat_case concat_quick[] = {
    {.name = "concat_f16_T4_contig", .dtype = F16, .T = 4, .H = 16, .seed = 301},
    {.name = "concat_bf16_T16_transposed", .dtype = BF16, .T = 16, .H = 8, .transposed_nope = true, .seed = 302},
    {.name = "concat_f16_T1_padded_stride", .dtype = F16, .T = 1, .H = 128, .extra_stride = 64, .seed = 303},
    {.name = "concat_bf16_T0", .dtype = BF16, .T = 0, .H = 128, .seed = 304},
    /* issue 30: q_pe's strides vary too (they were dense in every case: a kernel ignoring
     * pe_stride_h passed), token strides padded past H * head stride (a slice of a larger q) */
    {.name = "concat_bf16_T5_H3_sliced", .dtype = BF16, .T = 5, .H = 3, .extra_stride = 40, .pe_extra_stride = 24,
     .nope_token_pad = 16, .pe_token_pad = 8, .seed = 305},
    {.name = "concat_f16_T3_H2_pe_transposed", .dtype = F16, .T = 3, .H = 2, .transposed_pe = true,
     .pe_token_pad = 8, .extra_stride = 8, .nope_token_pad = 24, .seed = 306},
};
/* vLLM's test grid: T in {1, 4, 16, 64, 128}, H = 128, contiguous and transposed q_nope. */
static const prod_concat_case concat_full_extra[] = {
    {.name = "concat_f16_T1_H128", .dtype = F16, .T = 1, .H = 128, .seed = 311},
    {.name = "concat_bf16_T4_H128_transposed", .dtype = BF16, .T = 4, .H = 128, .transposed_nope = true, .seed = 312},
    {.name = "concat_f16_T16_H128", .dtype = F16, .T = 16, .H = 128, .seed = 313},
    {.name = "concat_bf16_T64_H128", .dtype = BF16, .T = 64, .H = 128, .seed = 314},
    {.name = "concat_f16_T128_H128_transposed", .dtype = F16, .T = 128, .H = 128, .transposed_nope = true, .seed = 315},
};

#define NQ (sizeof quick_cases / sizeof *quick_cases)
#define NF (sizeof full_extra / sizeof *full_extra)
static prod_case full_cases[NQ + NF];
static prod_concat_case concat_full[sizeof concat_quick / sizeof *concat_quick +
                                    sizeof concat_full_extra / sizeof *concat_full_extra];

const prod_case *prod_matrix(const char *shapes, size_t *n) {
  if (shapes && strcmp(shapes, "quick") == 0) { *n = NQ; return quick_cases; }
  if (shapes && strcmp(shapes, "full") == 0) {
    memcpy(full_cases, quick_cases, sizeof quick_cases);
    memcpy(full_cases + NQ, full_extra, sizeof full_extra);
    *n = NQ + NF;
    return full_cases;
  }
  *n = 0;
  return NULL;
}

const prod_concat_case *prod_concat_matrix(const char *shapes, size_t *n) {
  size_t a = sizeof concat_quick / sizeof *concat_quick, b = sizeof concat_full_extra / sizeof *concat_full_extra;
  if (shapes && strcmp(shapes, "quick") == 0) { *n = a; return concat_quick; }
  if (shapes && strcmp(shapes, "full") == 0) {
    memcpy(concat_full, concat_quick, sizeof concat_quick);
    memcpy(concat_full + a, concat_full_extra, sizeof concat_full_extra);
    *n = a + b;
    return concat_full;
  }
  *n = 0;
  return NULL;
}

/* ---- the random matrix ----------------------------------------------------------------------- */
#define RANDOM_STEP 0x9e3779b97f4a7c15ull
#define RANDOM_STEP2 0xd1b54a32d192ed03ull

/* The strata (verify/prod.h prod_random_class): every prefill kernel (kind x dtype x head_dim)
 * with both paged layouts, and concat_mla_q in both dtypes. The order puts every variant and
 * dtype (and concat) in the first 10, so even a small sample has each. */
#define A_(k, l, d, D) {true, k, l, d, D}
static const prod_random_class classes[PROD_RANDOM_CLASSES] = {
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_F16, 64),   A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_BF16, 64),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_F16, 128),   A_(ORACLE_PAGED, ORACLE_HND, ORACLE_BF16, 64),
    {false, ORACLE_SINGLE, ORACLE_NHD, ORACLE_F16, 0},
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_BF16, 128), A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_F16, 256),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_BF16, 64),   A_(ORACLE_PAGED, ORACLE_HND, ORACLE_F16, 256),
    {false, ORACLE_SINGLE, ORACLE_NHD, ORACLE_BF16, 0},
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_F16, 256),  A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_BF16, 128),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_F16, 64),    A_(ORACLE_PAGED, ORACLE_HND, ORACLE_BF16, 128),
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_BF16, 64),  A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_F16, 128),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_BF16, 256),  A_(ORACLE_PAGED, ORACLE_HND, ORACLE_F16, 64),
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_F16, 128),  A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_BF16, 256),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_F16, 256),   A_(ORACLE_PAGED, ORACLE_HND, ORACLE_BF16, 256),
    A_(ORACLE_SINGLE, ORACLE_NHD, ORACLE_BF16, 256), A_(ORACLE_RAGGED, ORACLE_NHD, ORACLE_F16, 64),
    A_(ORACLE_PAGED, ORACLE_NHD, ORACLE_BF16, 128),  A_(ORACLE_PAGED, ORACLE_HND, ORACLE_F16, 128),
};
#undef A_

const prod_random_class *prod_random_class_at(size_t i) { return i < PROD_RANDOM_CLASSES ? &classes[i] : NULL; }

size_t prod_random_class_of(uint64_t case_seed) {
  uint64_t r = case_seed ^ 0x636c617373ull; /* "class": apart from the case's other draws */
  return (size_t)(sm64(&r) % PROD_RANDOM_CLASSES);
}

uint64_t prod_random_case_seed(uint64_t seed, size_t k) {
  uint64_t cs = seed + (uint64_t)k * RANDOM_STEP;
  while (prod_random_class_of(cs) != k % PROD_RANDOM_CLASSES) cs += RANDOM_STEP2;
  return cs;
}

bool prod_random_stem_present(size_t n, const char *stem) {
  for (size_t i = 0; i < n && i < PROD_RANDOM_CLASSES; i++)
    if (!strcmp(stem, classes[i].attention ? kind_stem(classes[i].kind) : "concat_mla_q")) return true;
  return false;
}

static uint32_t pick(uint64_t *r, uint32_t n) { return (uint32_t)(sm64(r) % n); }
static bool chance(uint64_t *r, uint32_t percent) { return pick(r, 100) < percent; }

/* A length: 0 (when allowed) and 1, the tile and LDS-step boundaries +-1 (query tile 64, kv step
 * 32, MFMA sub-tile 16), small odd lengths, or many tiles (up to `big`). */
static int rand_len(uint64_t *r, bool allow0, int big) {
  static const int edge[] = {15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129};
  uint32_t w = pick(r, 20);
  if (w == 0) return allow0 ? 0 : 1;
  if (w <= 2) return 1;
  if (w <= 7) return edge[pick(r, sizeof edge / sizeof *edge)];
  if (w <= 9) return 130 + (int)pick(r, (uint32_t)(big - 129));
  return 2 + (int)pick(r, 60);
}

/* Work of a case in units of one (64-row tile, 32-key step, head) at head_dim 64: the emulator's
 * time is about proportional. */
static double case_work(const prod_case *c) {
  double w = 0;
  for (int b = 0; b < c->batch; b++)
    w += (double)((c->qo_len[b] + 63) / 64) * (double)((c->kv_len[b] + 31) / 32 + 1);
  return w * c->hq * (c->head_dim / 64.0);
}

bool prod_random_case(uint64_t case_seed, prod_case *c, prod_concat_case *cc, char *name, size_t n) {
  uint64_t r = case_seed ^ 0x72616e646f6dull; /* "random": apart from the input generator's stream */
  snprintf(name, n, "rnd_%016llx", (unsigned long long)case_seed);
  const prod_random_class *cl = &classes[prod_random_class_of(case_seed)];
  if (!cl->attention) { /* concat_mla_q */
    memset(cc, 0, sizeof *cc);
    cc->name = name;
    cc->seed = case_seed;
    cc->dtype = cl->dtype;
    uint32_t w = pick(&r, 10);
    cc->T = w == 0 ? 0 : w <= 2 ? 1 : w <= 6 ? 2 + pick(&r, 30) : 33 + pick(&r, 160);
    static const int64_t hs[] = {1, 2, 3, 7, 8, 16, 33, 128};
    cc->H = hs[pick(&r, sizeof hs / sizeof *hs)];
    while (cc->T * cc->H > 4096) cc->T /= 2;
    if (chance(&r, 35)) cc->transposed_nope = true;
    else if (chance(&r, 50)) cc->extra_stride = 8 * (1 + pick(&r, 16));
    if (chance(&r, 25)) cc->transposed_pe = true;
    else if (chance(&r, 50)) cc->pe_extra_stride = 8 * (1 + pick(&r, 16));
    if (chance(&r, 40)) cc->nope_token_pad = 8 * (1 + pick(&r, 8));
    if (chance(&r, 40)) cc->pe_token_pad = 8 * (1 + pick(&r, 8));
    return false;
  }
  memset(c, 0, sizeof *c);
  c->name = name;
  c->seed = case_seed;
  c->kind = cl->kind;
  c->layout = cl->layout;
  c->dtype = cl->dtype;
  c->head_dim = cl->head_dim;
  /* Hq/Hkv: 1, 2, 4, 8 with Hkv 1..3, or MQA (Hkv 1, Hq 3..6); Hq <= 8 */
  uint32_t ratio = pick(&r, 5);
  if (ratio == 4) {
    c->hkv = 1;
    c->hq = 3 + (int)pick(&r, 4);
  } else {
    int g = 1 << ratio;
    c->hkv = 1 + (int)pick(&r, 3);
    while (c->hkv > 1 && c->hkv * g > 8) c->hkv--;
    c->hq = c->hkv * g;
  }
  c->batch = c->kind == ORACLE_SINGLE ? 1 : chance(&r, 25) ? 1 : chance(&r, 60) ? 2 + (int)pick(&r, 2) : 4 + (int)pick(&r, 5);
  bool paged = c->kind == ORACLE_PAGED;
  for (int b = 0; b < c->batch; b++) {
    c->qo_len[b] = rand_len(&r, c->batch > 1 || c->kind == ORACLE_SINGLE, 300);
    c->kv_len[b] = rand_len(&r, !paged, 600);
  }
  if (paged) {
    /* page size 1..64: 1, small, 16, odd middle sizes, 64 */
    uint32_t w = pick(&r, 10);
    c->page_size = w == 0 ? 1 : w <= 3 ? 2 + (int)pick(&r, 14) : w == 4 ? 16 : w <= 7 ? 17 + (int)pick(&r, 47) : 64;
    /* strides apart: NHD token stride Hkv*D vs head stride D needs Hkv > 1 (drawn above); HND
     * head stride page_size*D vs token stride D needs page_size > 1; page_size == Hkv would make
     * the NHD page stride equal the HND head-major page stride of a transposed reading */
    if (c->page_size == c->hkv && c->hkv > 1) c->page_size++;
    c->shuffle_pages = chance(&r, 70);
    c->shared_pages = c->batch > 1 && chance(&r, 35);
  }
  c->causal = chance(&r, 50);
  if (chance(&r, 30)) {
    c->has_window = true;
    static const int wl[] = {0, 1, 15, 16, 17, 31, 32, 33, 63, 64};
    c->window_left = chance(&r, 60) ? wl[pick(&r, 10)] : (int)pick(&r, 200);
  }
  if (chance(&r, 25)) {
    static const double caps[] = {0.5, 1.0, 2.5, 5.0, 13.0, 30.0};
    c->soft_cap = caps[pick(&r, 6)];
  }
  if (chance(&r, 45)) {
    /* the last five are the extremes (issue 30): tiny and large, with or without the cap above */
    static const double sc[] = {0.03, 0.2, 0.5, 0.9, 1.0, 1.5, 2.5, 4.0, 1e-3, 2e-3, 16.0, 24.0, 40.0};
    c->sm_scale = sc[pick(&r, 13)];
  }
  c->custom_mask = chance(&r, 20);
  /* causal stays on with a custom mask half the time: the kernels accept the pair and the mask
   * replaces causal (prefill_impl.h, oracle/oracle.h); the window stays */
  /* numeric extremes (verify/prod.h prod_values): a third of the cases */
  if (chance(&r, 33)) {
    c->values = (prod_values)(1 + pick(&r, PROD_VALUES_N - 1));
    /* edge-range K is scaled by 1/sm_scale from the top of Q's range: a large scale would push
     * K below the dtype's subnormals, so the recipe keeps a scale <= 4 */
    if (c->values == PROD_VALUES_EDGE_RANGE && c->sm_scale > 4.0) c->sm_scale = 0;
  }
  if (c->custom_mask && chance(&r, 40)) c->mask_lead_blocks = 1 + (int)pick(&r, 3);
  if (c->custom_mask && chance(&r, 20)) c->single_key = true;
  uint32_t sch = pick(&r, 4);
  c->sched = sch == 0 ? EMU_SCHED_ADVERSARIAL : sch == 1 ? EMU_SCHED_RANDOM : EMU_SCHED_ROUND_ROBIN;
  /* keep a case's emulator time bounded: halve the largest length until the work fits */
  while (case_work(c) > 400) {
    int *big = NULL;
    for (int b = 0; b < c->batch; b++) {
      if (!big || c->qo_len[b] * 2 > *big) big = &c->qo_len[b];
      if (c->kv_len[b] > *big) big = &c->kv_len[b];
    }
    if (*big > 1) *big = *big / 2 + (*big & 1); /* stays >= 1 */
    else if (c->batch > 1) c->batch--;          /* every length is 1 already */
    else if (c->hq > c->hkv) c->hq = c->hkv;
    else c->head_dim = 64;                       /* 1 request, 1 head group, lengths 1: fits */
  }
  return true;
}

bool prod_set_make(const char *shapes, uint64_t seed, prod_set *st, ll_err *err) {
  memset(st, 0, sizeof *st);
  if (shapes && strncmp(shapes, "random:", 7) == 0) {
    uint64_t n;
    if (!ll_parse_u64(shapes + 7, &n) || n < 1 || n > PROD_RANDOM_MAX) {
      ll_seterr(err, LL_EXIT_USAGE, "--shapes random:N wants N in 1..%d, got '%s'", PROD_RANDOM_MAX, shapes + 7);
      return false;
    }
    st->random = true;
    st->seed = seed;
    st->cases = ll_xcalloc(n, sizeof *st->cases);
    st->concat = ll_xcalloc(n, sizeof *st->concat);
    st->names = ll_xcalloc(n, sizeof *st->names);
    st->case_seed = ll_xcalloc(n, sizeof *st->case_seed);
    uint64_t *cs_attn = ll_xcalloc(n, sizeof *cs_attn), *cs_cat = ll_xcalloc(n, sizeof *cs_cat);
    for (size_t k = 0; k < n; k++) {
      /* random:1 runs its seed as the case seed (the reproduction of any case); N >= 2 is stratified */
      uint64_t cs = n == 1 ? seed : prod_random_case_seed(seed, k);
      if (prod_random_case(cs, &st->cases[st->n], &st->concat[st->nc], st->names[k], sizeof st->names[k]))
        cs_attn[st->n++] = cs;
      else
        cs_cat[st->nc++] = cs;
    }
    memcpy(st->case_seed, cs_attn, st->n * sizeof *cs_attn);
    memcpy(st->case_seed + st->n, cs_cat, st->nc * sizeof *cs_cat);
    free(cs_attn);
    free(cs_cat);
    return true;
  }
  const prod_case *pc = prod_matrix(shapes, &st->n);
  const prod_concat_case *cc = prod_concat_matrix(shapes, &st->nc);
  st->shapes = pc ? (strcmp(shapes, "full") == 0 ? "full" : "quick") : NULL;
  if (!pc || !cc) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown shape set '%s' (quick, full, random:N)", shapes ? shapes : "(null)");
    return false;
  }
  st->cases = ll_xmalloc((st->n ? st->n : 1) * sizeof *st->cases);
  st->concat = ll_xmalloc((st->nc ? st->nc : 1) * sizeof *st->concat);
  memcpy(st->cases, pc, st->n * sizeof *pc);
  memcpy(st->concat, cc, st->nc * sizeof *cc);
  return true;
}

void prod_set_free(prod_set *st) {
  free(st->cases); free(st->concat); free(st->names); free(st->case_seed);
  memset(st, 0, sizeof *st);
}

char *prod_set_repro(const prod_set *st, size_t k, const char *arch) {
  if (st->random)
    return ll_fmt("lanelab verify --arch %s --shapes random:1 --seed 0x%016llx", arch,
                  (unsigned long long)st->case_seed[k]);
  return ll_fmt("lanelab verify --arch %s --shapes %s --shard %zu/%zu", arch, st->shapes, k, st->n + st->nc);
}

rt_device *prod_open_device(const verify_ctx *c, ll_err *err) {
  rt_backend b = RT_AUTO;
  if (c->backend && !rt_backend_parse(c->backend, &b)) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown backend '%s' (auto, emu, hip)", c->backend);
    return NULL;
  }
  return rt_open(b, c->arch, err);
}

static char *device_name(rt_device *d) {
  return ll_xstrdup(rt_device_backend(d) == RT_EMU ? "emulator" : "hip");
}

/* ---- the prod stage -------------------------------------------------------------------------- */
static void prod_census_add_to(prod_census *a, const prod_census *b) {
  a->insns += b->insns; a->bpermutes += b->bpermutes; a->mfmas += b->mfmas; a->tr_b16 += b->tr_b16;
  a->ds_read_b64 += b->ds_read_b64; a->ds_read2_b64 += b->ds_read2_b64; a->ds_writes += b->ds_writes;
}

/* "%.3f" of n/d in a static buffer (one use per expression) */
static const char *ratio3(uint64_t n, uint64_t d) {
  static _Thread_local char buf[32];
  snprintf(buf, sizeof buf, "%.3f", (double)n / (double)d);
  return buf;
}

void verify_stage_prod(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  prod_set set;
  if (!prod_set_make(c->shapes, c->seed, &set, &err)) {
    stage_set(r, VERDICT_BAD, "%s", err.msg);
    return;
  }
  size_t n = set.n, nc = set.nc;
  const prod_case *cases = set.cases;
  const prod_concat_case *cc = set.concat;
  rt_device *d = prod_open_device(c, &err);
  if (!d) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "no device for %s: %s", c->arch_name, err.msg);
    prod_set_free(&set);
    return;
  }
  r->device = device_name(d);
  report_table *t = report_table_new(
      "prefill attention vs oracle (O float32 and LSE base 2; max over both; noise floor = max abs err)",
      "case,variant,shape,dtype,max_abs#,max_rel#,atol#,rtol#,atol_over_noise#,mismatches#,bpermute_per_mfma#,"
      "qk_bpermute_per_mfma#,pv_bpermute_per_mfma#,wave_insns#,phase_census,verdict,device");
  report_table *tc = report_table_new("concat_mla_q vs oracle (bit-exact)",
                                      "case,dtype,T#,H#,q_nope,elements#,mismatches#,verdict,device");
  size_t ran = 0, failed = 0, errors = 0;
  double worst_noise = 0, min_margin = INFINITY;
  uint64_t tot_bp = 0, tot_mfma = 0;
  prod_census ph[PROD_NPHASE];
  memset(ph, 0, sizeof ph);
  size_t census_bad = 0, census_ok = 0;
  char first_err[400] = "", first_census[400] = "", first_hazard[800] = "", first_repro[200] = "";
  size_t checked = 0, hazard_cases = 0, prefill_ran = 0;
  for (size_t k = 0; k < n; k++) {
    if (!verify_in_shard(c, k)) continue;
    const prod_case *pc = &cases[k];
    verify_progress(c, "prod", k + 1, n + nc, pc->name);
    prod_result res;
    /* every production case runs under racecheck and initcheck on the emulator (docs/trace.md) */
    prod_run_opts o = {.racecheck = true, .initcheck = true};
    ll_err e = {0};
    char *shape = prod_case_shape(pc);
    int rc = prod_case_run(d, c->build, pc, &o, &res, &e);
    double atol = pc->atol, rtol = pc->rtol;
    if (atol <= 0 && rtol <= 0) oracle_tolerance_default(pc->dtype, &atol, &rtol);
    char *repro = prod_set_repro(&set, k, c->arch_name);
    if (rc == LL_EXIT_FAIL || (rc == LL_EXIT_OK && (!res.pass || res.hazards))) { /* not for a missing code object */
      fprintf(stderr, "lanelab: prod case %s (%s) failed on %s; reproduce: %s\n", pc->name, shape, c->arch_name, repro);
      if (!first_repro[0]) snprintf(first_repro, sizeof first_repro, "%s", repro);
    }
    if (rc != LL_EXIT_OK) {
      errors++;
      if (!first_err[0]) snprintf(first_err, sizeof first_err, "%s", e.msg);
      report_table_row(t, "%s\t%s\t%s\t%s\t-\t-\t%g\t%g\t-\t-\t-\t-\t-\t-\t-\tFAIL: %s; reproduce: %s\t%s", pc->name,
                       prod_case_variant(pc), shape, oracle_dtype_name(pc->dtype), atol, rtol, e.msg, repro, r->device);
    } else {
      ran++;
      prefill_ran++;
      if (res.checked) checked++;
      if (res.hazards) {
        hazard_cases++;
        if (!first_hazard[0]) snprintf(first_hazard, sizeof first_hazard, "%s: %s", pc->name, res.hazard);
      }
      if (!res.pass) failed++;
      /* O's error in units of V's scale (prod_case_v_scale: O's atol scales with it) */
      double vs = prod_case_v_scale(pc), noise = fmax(res.o.max_abs / vs, res.lse.max_abs);
      if (noise > worst_noise) worst_noise = noise;
      double margin = noise > 0 ? atol / noise : INFINITY;
      if (margin < min_margin) min_margin = margin;
      tot_bp += res.bpermutes;
      tot_mfma += res.mfmas;
      char bpm[32] = "-", qbpm[32] = "-", pbpm[32] = "-", census[420] = "-";
      if (res.have_stats && res.mfmas) snprintf(bpm, sizeof bpm, "%.3f", (double)res.bpermutes / (double)res.mfmas);
      if (res.have_stats) {
        const prod_census *q = &res.phase[PROD_PHASE_QK], *v = &res.phase[PROD_PHASE_PV];
        if (q->mfmas) snprintf(qbpm, sizeof qbpm, "%.3f", (double)q->bpermutes / (double)q->mfmas);
        if (v->mfmas) snprintf(pbpm, sizeof pbpm, "%.3f", (double)v->bpermutes / (double)v->mfmas);
        for (int p = 0; p < PROD_NPHASE; p++) prod_census_add_to(&ph[p], &res.phase[p]);
        char why[400];
        if (prod_phase_check(c->arch, &res, why, sizeof why)) {
          census_ok++;
          snprintf(census, sizeof census, "pass");
        } else {
          census_bad++;
          snprintf(census, sizeof census, "FAIL: %s", why);
          if (!first_census[0]) snprintf(first_census, sizeof first_census, "%s: %s", pc->name, why);
        }
      }
      char verdict_s[1000];
      if (res.hazards) snprintf(verdict_s, sizeof verdict_s, "FAIL (%zu racecheck/initcheck report%s; first: %s); reproduce: %s",
                                res.hazards, res.hazards == 1 ? "" : "s", res.hazard, repro);
      else if (res.pass) snprintf(verdict_s, sizeof verdict_s, "pass");
      else snprintf(verdict_s, sizeof verdict_s, "FAIL (O %zu/%zu, LSE %zu/%zu mismatches); reproduce: %s",
                    res.o.mismatches, res.o.n, res.lse.mismatches, res.lse.n, repro);
      report_table_row(t, "%s\t%s\t%s\t%s\t%.3g\t%.3g\t%g\t%g\t%.3g\t%zu\t%s\t%s\t%s\t%llu\t%s\t%s\t%s", pc->name,
                       prod_case_variant(pc), shape, oracle_dtype_name(pc->dtype), res.max_abs, res.max_rel, atol, rtol,
                       margin, res.o.mismatches + res.lse.mismatches, bpm, qbpm, pbpm,
                       (unsigned long long)res.wave_insns, census, verdict_s, r->device);
    }
    free(shape);
    free(repro);
  }
  for (size_t k = 0; k < nc; k++) {
    if (!verify_in_shard(c, n + k)) continue;
    const prod_concat_case *pc = &cc[k];
    verify_progress(c, "prod", n + k + 1, n + nc, pc->name);
    prod_concat_result res;
    ll_err e = {0};
    int rc = prod_concat_run(d, c->build, pc, NULL, &res, &e);
    int64_t st[4];
    prod_concat_strides(pc, st);
    char lay[160];
    snprintf(lay, sizeof lay, "%s; strides nope %lld/%lld pe %lld/%lld",
             pc->transposed_nope ? "transposed" : pc->extra_stride ? "padded stride" : "contiguous", (long long)st[0],
             (long long)st[1], (long long)st[2], (long long)st[3]);
    bool ok = rc == LL_EXIT_OK && (pc->T == 0 ? res.t0_untouched : res.mismatches == 0);
    if ((!ok || res.hazards) && (rc == LL_EXIT_OK || rc == LL_EXIT_FAIL)) {
      char *repro = prod_set_repro(&set, n + k, c->arch_name);
      fprintf(stderr, "lanelab: prod case %s (concat T=%lld H=%lld %s) failed on %s; reproduce: %s\n", pc->name,
              (long long)pc->T, (long long)pc->H, lay, c->arch_name, repro);
      if (!first_repro[0]) snprintf(first_repro, sizeof first_repro, "%s", repro);
      free(repro);
    }
    if (rc != LL_EXIT_OK) {
      errors++;
      if (!first_err[0]) snprintf(first_err, sizeof first_err, "%s", e.msg);
      report_table_row(tc, "%s\t%s\t%lld\t%lld\t%s\t-\t-\tFAIL: %s\t%s", pc->name, oracle_dtype_name(pc->dtype),
                       (long long)pc->T, (long long)pc->H, lay, e.msg, r->device);
      continue;
    }
    ran++;
    if (!ok) failed++;
    if (res.hazards) {
      hazard_cases++;
      if (!first_hazard[0]) snprintf(first_hazard, sizeof first_hazard, "%s: %s", pc->name, res.hazard);
    }
    char hzv[700] = "";
    if (res.hazards) snprintf(hzv, sizeof hzv, "FAIL (racecheck/initcheck: %s)", res.hazard);
    report_table_row(tc, "%s\t%s\t%lld\t%lld\t%s\t%zu\t%zu\t%s\t%s", pc->name, oracle_dtype_name(pc->dtype),
                     (long long)pc->T, (long long)pc->H, lay, res.n, res.mismatches,
                     res.hazards ? hzv
                     : ok ? (pc->T == 0 ? "pass (T=0: output untouched)" : "pass")
                          : (pc->T == 0 ? "FAIL (T=0 wrote the output)" : "FAIL"),
                     r->device);
  }
  /* the launch contract: every out-of-contract launch refused (shard 0 runs them) */
  size_t nref = 0, ref_bad = 0;
  const prod_refusal *rf = prod_refusals(&nref);
  report_table *tr = report_table_new("launch contract: out-of-contract launches (each must be refused with s_trap)",
                                      "launch,verdict");
  char first_ref[400] = "";
  for (size_t k = 0; c->shard_i == 0 && k < nref; k++) {
    char why[700];
    int rc = prod_refusal_run(d, c->build, &rf[k], NULL, why, sizeof why);
    if (rc != LL_EXIT_OK) {
      ref_bad++;
      if (!first_ref[0]) snprintf(first_ref, sizeof first_ref, "%s", why);
    }
    report_table_row(tr, "%s\t%s", rf[k].what, rc == LL_EXIT_OK ? "pass (refused: s_trap)" : why);
  }
  report_table_note(tr, "The contract: kernels/prod/prefill_impl.h (contract_ok) and concat_mla_q.hip; every combination "
                        "of the accepted flag bits runs against the oracle in the matrix (causal + custom mask: the mask "
                        "replaces causal).");
  report_table_note(t, "O is float32, so the error is the kernel's alone (no output rounding); tolerance from "
                       "oracle_tolerance_default (FlashInfer: f16 1e-3/1e-3, bf16 1e-2/1e-2) unless the case sets one.");
  report_table_note(t, "bpermute_per_mfma: executed ds_bpermute_b32 / executed v_mfma_* (emulator dynamic census). "
                       "gfx942: 6 per V fragment (transpose_mma_tile) + 2 per kv step (row max) + 2 at the end (row sum); "
                       "gfx950: the V fragment is one ds_read_b64_tr_b16, so only the softmax shuffles remain. "
                       "This kernel computes S^T = K Q^T, so P is already in the PV B layout: no S-fragment transpose on "
                       "either arch (FlashInfer's ROCm kernel keeps one).");
  report_table_note(t, "Soft cap, sliding window and custom mask run on the device (cases *_softcap, *_window*, *_custom_mask).");
  if (rt_device_backend(d) == RT_EMU)
    report_table_note(t, "racecheck + initcheck (emulator, docs/trace.md): %zu of %zu prefill cases checked, %zu with a "
                         "finding (LDS bytes two waves touch between the same barriers, one writing; LDS or O/LSE bytes "
                         "read before any write); concat_mla_q cases too.", checked, prefill_ran, hazard_cases);
  if (rt_device_backend(d) == RT_EMU && tot_mfma)
    report_table_note(t, "all cases: %llu ds_bpermute_b32 / %llu v_mfma = %.3f bpermutes per MFMA on %s",
                      (unsigned long long)tot_bp, (unsigned long long)tot_mfma, (double)tot_bp / (double)tot_mfma,
                      c->arch_name);
  report_table_note(t, "qk_/pv_bpermute_per_mfma: the same ratio inside the kernel's QK and PV phases (LL_PHASE markers, "
                       "lanelab_device.h). phase_census: the rules prod_phase_check enforces (verify/prod.h): QK has no "
                       "bpermute; PV has per MFMA one ds_read_b64_tr_b16 and no bpermute on gfx950, one ds_read_b64 and "
                       "six ds_bpermute_b32 on gfx942 (docs/changes.md, change 000); QK and PV issue the same MFMAs; every LDS store (ds_write*) runs in the stage "
                       "phase, and it has some.");
  stage_add_table(r, t);
  report_table *tp = report_table_new(
      "dynamic census per phase (emulator; executed wave-instructions summed over this shard's prefill cases)",
      "phase,wave_insns#,ds_bpermute_b32#,v_mfma#,ds_read_b64_tr_b16#,ds_read_b64#,ds_read2_b64#,bpermute_per_mfma#");
  for (int p = 0; p < PROD_NPHASE; p++) {
    char bpm[32] = "-";
    if (ph[p].mfmas) snprintf(bpm, sizeof bpm, "%.3f", (double)ph[p].bpermutes / (double)ph[p].mfmas);
    report_table_row(tp, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%s", prod_phase_name(p),
                     (unsigned long long)ph[p].insns, (unsigned long long)ph[p].bpermutes,
                     (unsigned long long)ph[p].mfmas, (unsigned long long)ph[p].tr_b16,
                     (unsigned long long)ph[p].ds_read_b64, (unsigned long long)ph[p].ds_read2_b64, bpm);
  }
  report_table_note(tp, "Phases are marked in kernels/prod/prefill_impl.h with LL_PHASE (s_ttracedata, a no-op unless "
                        "thread trace is on; lanelab_device.h): prologue = before the kv loop (Q fragments), stage = "
                        "barriers + K/V tiles to LDS, qk = K fragments + QK MFMAs, softmax = scale/mask, row max "
                        "shuffles, exp2, rescale, pv = V fragments + PV MFMAs, epilogue = row sum shuffles and stores. "
                        "ds_read2_b64 counts ds_read2_b64 and ds_read2st64_b64 (two 8-byte reads each).");
  report_table_note(tp, "docs/changes.md, change 000 claims the V transpose costs bpermutes in PV on gfx942 and none on gfx950: "
                        "%s PV here: %llu ds_bpermute_b32 / %llu MFMA = %s per MFMA; QK: %llu / %llu.",
                    c->arch_name, (unsigned long long)ph[PROD_PHASE_PV].bpermutes,
                    (unsigned long long)ph[PROD_PHASE_PV].mfmas,
                    ph[PROD_PHASE_PV].mfmas ? ratio3(ph[PROD_PHASE_PV].bpermutes, ph[PROD_PHASE_PV].mfmas) : "-",
                    (unsigned long long)ph[PROD_PHASE_QK].bpermutes, (unsigned long long)ph[PROD_PHASE_QK].mfmas);
  stage_add_table(r, tp);
  stage_add_table(r, tc);
  stage_add_table(r, tr);
  if (set.random)
    report_table_note(t, "random:%zu --seed 0x%016llx: case k has case seed seed + k*0x9e3779b97f4a7c15 and is case 0 of "
                         "--shapes random:1 --seed <its case seed> (docs/verify-matrix.md); sched= is the emulator's wave "
                         "schedule for the case.", n + nc, (unsigned long long)set.seed);
  if (errors)
    stage_set(r, VERDICT_FAIL, "%zu case(s) could not run on %s; first: %s%s%s", errors, r->device, first_err,
              first_repro[0] ? "; reproduce: " : "", first_repro);
  else if (hazard_cases)
    stage_set(r, VERDICT_FAIL, "%zu case(s) have racecheck/initcheck findings; first: %s%s%s", hazard_cases,
              first_hazard, first_repro[0] ? "; reproduce: " : "", first_repro);
  else if (failed)
    stage_set(r, VERDICT_FAIL, "%zu of %zu cases mismatch the oracle; reproduce the first: %s", failed, ran, first_repro);
  else if (census_bad)
    stage_set(r, VERDICT_FAIL, "%zu case(s) break the phase-census rules; first: %s", census_bad, first_census);
  else if (ref_bad)
    stage_set(r, VERDICT_FAIL, "%zu of %zu out-of-contract launches not refused; first: %s", ref_bad, nref, first_ref);
  else if (ran == 0)
    stage_set(r, VERDICT_PASS, "no case in this shard");
  else
    stage_set(r, VERDICT_PASS,
              "%zu cases match the oracle; noise floor (max abs err, O's over V's scale) %.3g, atol >= %.3gx it; phase census (%zu cases): "
              "QK %.3g, PV %.3g bpermutes per MFMA; %zu out-of-contract launches refused",
              ran, worst_noise, min_margin, census_ok,
              ph[PROD_PHASE_QK].mfmas ? (double)ph[PROD_PHASE_QK].bpermutes / (double)ph[PROD_PHASE_QK].mfmas : 0.0,
              ph[PROD_PHASE_PV].mfmas ? (double)ph[PROD_PHASE_PV].bpermutes / (double)ph[PROD_PHASE_PV].mfmas : 0.0,
              c->shard_i == 0 ? nref : (size_t)0);
  rt_close(d);
  prod_set_free(&set);
}

bool verify_prod_runs(const char *shapes, const char *stem) {
  size_t n = 0;
  uint64_t nr;
  /* random:N: the strata put the classes in the first N cases whatever the seed */
  if (shapes && strncmp(shapes, "random:", 7) == 0)
    return ll_parse_u64(shapes + 7, &nr) && prod_random_stem_present((size_t)nr, stem);
  const prod_case *cs = prod_matrix(shapes, &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(kind_stem(cs[i].kind), stem)) return true;
  prod_concat_matrix(shapes, &n);
  return n > 0 && !strcmp(stem, "concat_mla_q");
}
