/* verify/prod — host side of the production kernels: launch descriptions, case generation,
 * device runs compared with the oracle, the quick/full matrices and the `prod` verify stage.
 * Contract: verify/prod.h. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "verify/prod.h"

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

bool prod_case_spec(const prod_case *c, oracle_attention_spec *s, ll_err *err) {
  memset(s, 0, sizeof *s);
  if (c->batch < 1 || c->batch > 8) {
    ll_seterr(err, LL_EXIT_USAGE, "case %s: batch %d is outside 1..8", c->name, c->batch);
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
        int32_t j = (int32_t)(ll_splitmix64(&rng) % (uint64_t)(i + 1)), t = ids[i];
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
      for (size_t i = 0; i < bits; i++)
        if (ll_splitmix64(&rng) % 4 != 0) s->custom_mask[off + i / 8] |= (uint8_t)(1u << (i % 8));
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
  s->owns = false;
  return true;
}

/* ---- launch description ---------------------------------------------------------------------- */
const char *prod_kind_stem(oracle_attention_kind k) {
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
  snprintf(p->source, sizeof p->source, "%s", prod_kind_stem(s->kind));
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
  size_t off = 0;
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

static rt_arg au32(uint32_t v) { rt_arg a = {.kind = RT_ARG_U32}; a.u32 = v; return a; }
static rt_arg ai32(int32_t v) { rt_arg a = {.kind = RT_ARG_I32}; a.i32 = v; return a; }
static rt_arg af32(float v) { rt_arg a = {.kind = RT_ARG_F32}; a.f32 = v; return a; }
static rt_arg au64(uint64_t v) { rt_arg a = {.kind = RT_ARG_U64}; a.u64 = v; return a; }

/* An input buffer of n bytes (an empty one still gets 16: a kernel argument needs an address). */
static vc_arg in_buf(const char *name, const void *data, size_t n) {
  return (vc_arg){.name = name, .role = VC_IN, .bytes = n ? n : 16, .init = data, .init_bytes = n};
}
static vc_arg scalar(const char *name, rt_arg v) { return (vc_arg){.name = name, .role = VC_SCALAR, .scalar = v}; }

/* The kernel's parameters in order (kernels/prod/prefill_{single,ragged,paged}.hip), each with its
 * host data: the one list the launch and prod_attn_args both follow. O and LSE are float32
 * outputs the kernel must write before reading (initcheck). */
static size_t attn_params(const prod_attn_plan *p, const oracle_attention_spec *s, vc_arg *a) {
  size_t n = 0, es = oracle_dtype_size(s->dtype);
  size_t nq = (size_t)oracle_attention_q_elems(s), nkv = (size_t)oracle_attention_kv_elems(s);
  size_t no = nq, nl = (size_t)oracle_attention_total_q(s) * (size_t)s->num_qo_heads;
  int B = s->batch;
  a[n++] = in_buf("q", s->q, nq * es);
  a[n++] = in_buf("k", s->k, nkv * es);
  a[n++] = in_buf("v", s->v, nkv * es);
  a[n++] = (vc_arg){.name = "o", .role = VC_OUT, .bytes = (no ? no : 4) * 4, .uninit = true};
  a[n++] = (vc_arg){.name = "lse", .role = VC_OUT, .bytes = (nl ? nl : 4) * 4, .uninit = true};
  vc_arg mask = in_buf("mask", s->custom_mask, s->custom_mask ? s->custom_mask_bytes : 0);
  vc_arg mask_off = in_buf("mask_off", p->mask_off, (size_t)B * 4);
  if (s->kind == ORACLE_SINGLE) {
    a[n++] = mask;
    a[n++] = mask_off;
    a[n++] = scalar("qo_len", au32((uint32_t)oracle_attention_qo_len(s, 0)));
    a[n++] = scalar("kv_len", au32((uint32_t)oracle_attention_kv_len(s, 0)));
  } else {
    a[n++] = in_buf("qo_indptr", s->qo_indptr, (size_t)(B + 1) * 4);
    a[n++] = in_buf("kv_indptr", s->kv_indptr, (size_t)(B + 1) * 4);
    if (s->kind == ORACLE_PAGED) {
      a[n++] = in_buf("kv_indices", s->kv_indices, (size_t)s->kv_indptr[B] * 4);
      a[n++] = in_buf("kv_last_page_len", s->kv_last_page_len, (size_t)B * 4);
    }
    a[n++] = in_buf("tile_req", p->tile_req, (size_t)p->ntiles * 4);
    a[n++] = in_buf("tile_q0", p->tile_q0, (size_t)p->ntiles * 4);
    a[n++] = mask;
    a[n++] = mask_off;
  }
  a[n++] = scalar("num_qo_heads", au32((uint32_t)s->num_qo_heads));
  a[n++] = scalar("num_kv_heads", au32((uint32_t)s->num_kv_heads));
  if (s->kind == ORACLE_PAGED) a[n++] = scalar("page_size", au32((uint32_t)s->page_size));
  a[n++] = scalar("flags", au32(p->flags));
  a[n++] = scalar("sm_scale", af32(p->sm_scale));
  a[n++] = scalar("soft_cap", af32(p->soft_cap));
  a[n++] = scalar("window_left", ai32(p->window_left));
  return n;
}

size_t prod_attn_args(const prod_attn_plan *p, const oracle_attention_spec *s, const prod_attn_dev *d,
                      rt_arg *a) {
  vc_arg v[PROD_MAX_ARGS];
  size_t n = attn_params(p, s, v);
  static const struct { const char *name; size_t off; } ptrs[] = {
#define F(x) {#x, offsetof(prod_attn_dev, x)}
      F(q), F(k), F(v), F(o), F(lse), F(qo_indptr), F(kv_indptr), F(kv_indices), F(kv_last_page_len), F(tile_req),
      F(tile_q0), F(mask), F(mask_off)
#undef F
  };
  for (size_t i = 0; i < n; i++) {
    if (v[i].role == VC_SCALAR) { a[i] = v[i].scalar; continue; }
    a[i] = (rt_arg){.kind = RT_ARG_PTR};
    for (size_t k = 0; k < sizeof ptrs / sizeof *ptrs; k++)
      if (!strcmp(ptrs[k].name, v[i].name)) memcpy(&a[i].ptr, (const char *)d + ptrs[k].off, sizeof a[i].ptr);
  }
  return n;
}

/* ---- running --------------------------------------------------------------------------------- */
char *prod_co_path(const char *build, emu_arch arch, const char *stem) {
  return ll_fmt("%s/%s/kernels/%s.co", build, emu_arch_name(arch), stem);
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

/* One output's comparison in the oracle_cmp form the prod tables report. */
static void cmp_of(const oracle_compare_result *c, double atol, double rtol, oracle_cmp *o) {
  memset(o, 0, sizeof *o);
  o->n = c->n;
  o->mismatches = c->over;
  o->nonfinite_mismatches = c->nonfinite;
  o->atol = atol;
  o->rtol = rtol;
  o->max_abs = c->max_abs;
  o->max_rel = c->max_rel;
  if (c->nfirst) {
    o->worst = c->first[0].flat;
    o->worst_got = c->first[0].got;
    o->worst_ref = c->first[0].ref;
  }
}

/* What a planned attention case owns (vc_case.data). */
typedef struct attn_data {
  prod_case kase;
  char name[64];
  oracle_attention_spec spec;
  bool own_spec;                  /* spec and refs generated here (else the caller's) */
  float *ro, *rl;
  prod_attn_plan plan;
  vc_arg args[PROD_MAX_ARGS];
  char *co;
} attn_data;

static void attn_data_free(void *p) {
  attn_data *d = p;
  if (d->own_spec) {
    prod_spec_free(&d->spec);
    free(d->ro);
    free(d->rl);
  }
  prod_attn_plan_free(&d->plan);
  free(d->co);
  free(d);
}

bool prod_case_launch(const prod_case *c, const prod_run_opts *o, const oracle_attention_spec *s, const float *ref_o,
                      const float *ref_lse, const char *co, const prod_attn_plan *p, vc_launch *l, vc_arg *args) {
  memset(l, 0, sizeof *l);
  l->nargs = attn_params(p, s, args);
  l->args = args;
  double atol = c ? c->atol : 0, rtol = c ? c->rtol : 0;
  if (atol <= 0 && rtol <= 0) oracle_tolerance_default(s->dtype, &atol, &rtol);
  size_t no = (size_t)oracle_attention_q_elems(s), nl = (size_t)oracle_attention_total_q(s) * (size_t)s->num_qo_heads;
  const float *refs[2] = {ref_o, ref_lse};
  size_t nref[2] = {no, nl};
  for (size_t i = 3; i < 5; i++) {
    args[i].ref = refs[i - 3];
    args[i].ref_bytes = nref[i - 3] * 4;
    args[i].etype = ORACLE_E_F32;
    args[i].atol = atol;
    args[i].rtol = rtol;
  }
  l->co = co;
  l->missing_hint = "run make kernels (and make mutants for mutants)";
  l->kernel = p->kernel;
  memcpy(l->grid, p->grid, sizeof l->grid);
  memcpy(l->block, p->block, sizeof l->block);
  prod_run_opts eo = o ? *o : (prod_run_opts){0};
  if (eo.sched == EMU_SCHED_ROUND_ROBIN && c) eo.sched = c->sched; /* the case's own schedule */
  if (!eo.sched_seed && c) eo.sched_seed = c->seed;
  l->sched = eo.sched;
  l->sched_seed = eo.sched_seed;
  l->insn_budget = eo.insn_budget;
  l->threads = eo.threads ? eo.threads : 2;
  /* the lab's own kernels rely on nothing the ISA leaves undocumented: a memory-model warning
   * (docs/emulator-choices.md "Memory-model strictness") is a fault here */
  l->strict_memory = true;
  l->stats = true;
  l->observe = eo.observe;
  l->racecheck = eo.racecheck;
  l->initcheck = eo.initcheck; /* LDS, and O/LSE: nothing may read them before writing them */
  return p->ntiles > 0;
}

bool prod_attn_case(const prod_case *c, const prod_run_opts *o, const oracle_attention_spec *s, const float *ref_o,
                    const float *ref_lse, const char *build, emu_arch arch, vc_case *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  attn_data *d = ll_xcalloc(1, sizeof *d);
  d->kase = *c;
  snprintf(d->name, sizeof d->name, "%s", c->name);
  d->kase.name = d->name;
  if (s) {
    d->spec = *s;
    d->ro = (float *)ref_o;
    d->rl = (float *)ref_lse;
  } else {
    d->own_spec = true;
    if (!prod_case_spec(c, &d->spec, err)) { d->own_spec = false; free(d); return false; }
    size_t no = (size_t)oracle_attention_q_elems(&d->spec);
    size_t nl = (size_t)oracle_attention_total_q(&d->spec) * (size_t)d->spec.num_qo_heads;
    d->ro = ll_xcalloc(no ? no : 1, sizeof(float));
    d->rl = ll_xcalloc(nl ? nl : 1, sizeof(float));
    if (!oracle_attention_run(&d->spec, d->ro, d->rl, NULL, err)) { attn_data_free(d); return false; }
  }
  if (!prod_attn_plan_make(&d->spec, &d->plan, err)) { attn_data_free(d); return false; }
  d->co = o && o->co_path ? ll_xstrdup(o->co_path) : prod_co_path(build, arch, d->plan.source);
  prod_case_launch(&d->kase, o, &d->spec, d->ro, d->rl, d->co, &d->plan, &out->l, d->args);
  snprintf(out->name, sizeof out->name, "%s", c->name);
  snprintf(out->klass, sizeof out->klass, "%s %s %s", d->plan.source, prod_case_variant(c), oracle_dtype_name(c->dtype));
  out->data = d;
  out->free_data = attn_data_free;
  return true;
}

void prod_attn_result(const vc_case *vc, const vc_result *vr, prod_result *r) {
  const attn_data *d = vc->data;
  memset(r, 0, sizeof *r);
  const vc_arg *a = vc->l.args;
  if (d->plan.ntiles == 0) { /* no query rows: nothing launched, nothing to compare */
    r->pass = true;
    cmp_of(&(oracle_compare_result){0}, a[3].atol, a[3].rtol, &r->o);
    cmp_of(&(oracle_compare_result){0}, a[4].atol, a[4].rtol, &r->lse);
    return;
  }
  r->seconds = vr->seconds;
  r->launched = vr->launched;
  r->checked = vr->checked;
  r->hazards = vr->hazards;
  snprintf(r->hazard, sizeof r->hazard, "%s", vr->hazard);
  if (vr->have_stats) count_stats(&vr->stats, r);
  if (vr->rc != LL_EXIT_OK) return;
  cmp_of(&vr->cmp[3], a[3].atol, a[3].rtol, &r->o);
  cmp_of(&vr->cmp[4], a[4].atol, a[4].rtol, &r->lse);
  r->pass = !r->o.mismatches && !r->lse.mismatches;
  r->max_abs = fmax(r->o.max_abs, r->lse.max_abs);
  r->max_rel = fmax(r->o.max_rel, r->lse.max_rel);
}

int prod_case_exec(rt_device *d, const vc_case *vc, vc_result *vr, ll_err *err) {
  const attn_data *ad = vc->free_data == attn_data_free ? vc->data : NULL;
  if (ad && ad->plan.ntiles == 0) { /* no query rows: nothing to launch, nothing to compare */
    memset(vr, 0, sizeof *vr);
    struct stat st;
    if (stat(vc->l.co, &st) != 0) ll_seterr(err, vr->rc = LL_EXIT_ENV, "%s is missing: %s", vc->l.co, vc->l.missing_hint);
    return vr->rc;
  }
  int rc = verify_case_run(d, &vc->l, vr, err);
  if (rc != LL_EXIT_OK && vr->launched) {
    if (ad) ll_err_prefix(err, "%s %s on %s", ad->name, ad->plan.kernel, emu_arch_name(rt_device_arch(d)));
    else ll_err_prefix(err, "concat case %s on %s", vc->name, emu_arch_name(rt_device_arch(d)));
  }
  return rc;
}

int prod_case_run_ref(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o,
                      const oracle_attention_spec *s, const float *ref_o, const float *ref_lse, prod_result *r,
                      ll_err *err) {
  memset(r, 0, sizeof *r);
  vc_case vc;
  if (!prod_attn_case(c, o, s, ref_o, ref_lse, build, rt_device_arch(d), &vc, err)) return err->code;
  vc_result vr;
  int rc = prod_case_exec(d, &vc, &vr, err);
  prod_attn_result(&vc, &vr, r);
  vc_result_free(&vr);
  vc_case_free(&vc);
  return rc;
}

int prod_case_run(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o, prod_result *r,
                  ll_err *err) {
  return prod_case_run_ref(d, build, c, o, NULL, NULL, NULL, r, err);
}

/* ---- concat_mla_q ---------------------------------------------------------------------------- */
void prod_concat_launch(int64_t T, int64_t H, uint32_t grid[3], uint32_t block[3]) {
  uint64_t threads = (uint64_t)T * (uint64_t)H * (ORACLE_MLA_OUT / 8);
  grid[0] = T == 0 ? 1 : (uint32_t)((threads + 255) / 256);
  grid[1] = grid[2] = 1;
  block[0] = 256; block[1] = block[2] = 1;
}

/* What a planned concat_mla_q case owns (vc_case.data). */
typedef struct concat_data {
  oracle_concat_spec s;
  uint16_t *ref;
  uint8_t *sentinel;
  size_t nout;
  vc_arg a[9];
  char *co;
} concat_data;

static void concat_data_free(void *p) {
  concat_data *d = p;
  free(d->s.q_nope);
  free(d->s.q_pe);
  free(d->ref);
  free(d->sentinel);
  free(d->co);
  free(d);
}

bool prod_concat_case_plan(const prod_concat_case *c, const char *co_path, const char *build, emu_arch arch,
                           vc_case *out, ll_err *err) {
  memset(out, 0, sizeof *out);
  int64_t T = c->T, H = c->H;
  concat_data *d = ll_xcalloc(1, sizeof *d);
  oracle_concat_spec *s = &d->s;
  s->dtype = c->dtype;
  s->T = T;
  s->H = H;
  if (c->transposed_nope) { s->nope_stride_t = ORACLE_MLA_NOPE; s->nope_stride_h = T * ORACLE_MLA_NOPE; }
  else { s->nope_stride_h = ORACLE_MLA_NOPE + c->extra_stride; s->nope_stride_t = H * s->nope_stride_h; }
  s->pe_stride_h = ORACLE_MLA_PE;
  s->pe_stride_t = H * ORACLE_MLA_PE;
  if (s->nope_stride_t % 8 || s->nope_stride_h % 8) {
    ll_seterr(err, LL_EXIT_USAGE, "concat case %s: q_nope strides must be multiples of 8 elements "
              "(the kernel moves 16 bytes per thread)", c->name);
    concat_data_free(d);
    return false;
  }
  s->q_nope_elems = (size_t)oracle_concat_extent(T, H, s->nope_stride_t, s->nope_stride_h, ORACLE_MLA_NOPE);
  s->q_pe_elems = (size_t)oracle_concat_extent(T, H, s->pe_stride_t, s->pe_stride_h, ORACLE_MLA_PE);
  s->q_nope = ll_xcalloc(s->q_nope_elems ? s->q_nope_elems : 1, 2);
  s->q_pe = ll_xcalloc(s->q_pe_elems ? s->q_pe_elems : 1, 2);
  uint64_t rng = c->seed;
  /* raw 16-bit patterns (NaN/inf/subnormal included: the copy must move bits, vLLM's test too) */
  for (size_t i = 0; i < s->q_nope_elems; i++) s->q_nope[i] = (uint16_t)ll_splitmix64(&rng);
  for (size_t i = 0; i < s->q_pe_elems; i++) s->q_pe[i] = (uint16_t)ll_splitmix64(&rng);
  size_t nout = d->nout = (size_t)(T * H * ORACLE_MLA_OUT), out_bytes = nout ? nout * 2 : 16;
  d->ref = ll_xcalloc(nout ? nout : 1, 2);
  d->sentinel = ll_xmalloc(out_bytes);
  memset(d->sentinel, 0xab, out_bytes);
  d->co = co_path ? ll_xstrdup(co_path) : prod_co_path(build, arch, "concat_mla_q");
  if (!oracle_concat_validate(s, err) || !oracle_concat_mla_q(s, d->ref, err)) {
    concat_data_free(d);
    return false;
  }
  /* bit-exact: every 16-bit element of the output equals the oracle's; T = 0: the kernel returns at
   * once, so the output keeps its sentinel bytes */
  vc_arg a[9] = {{.name = "q_out", .role = VC_OUT, .bytes = out_bytes, .init = d->sentinel, .init_bytes = out_bytes,
                  .ref = nout ? (const void *)d->ref : d->sentinel, .ref_bytes = nout ? nout * 2 : out_bytes,
                  .etype = nout ? ORACLE_E_U16 : ORACLE_E_U8},
                 in_buf("q_nope", s->q_nope, s->q_nope_elems * 2), in_buf("q_pe", s->q_pe, s->q_pe_elems * 2),
                 scalar("T", au32((uint32_t)T)), scalar("H", au32((uint32_t)H)),
                 scalar("nope_stride_t", au64((uint64_t)s->nope_stride_t)),
                 scalar("nope_stride_h", au64((uint64_t)s->nope_stride_h)),
                 scalar("pe_stride_t", au64((uint64_t)s->pe_stride_t)), scalar("pe_stride_h", au64((uint64_t)s->pe_stride_h))};
  memcpy(d->a, a, sizeof a);
  /* racecheck and initcheck (the output holds a sentinel, so only LDS could be read uninitialized) */
  out->l = (vc_launch){.co = d->co, .missing_hint = "run make kernels", .kernel = "concat_mla_q", .args = d->a,
                       .nargs = 9, .threads = 2, .racecheck = true, .initcheck = true, .strict_memory = true};
  prod_concat_launch(T, H, out->l.grid, out->l.block);
  snprintf(out->name, sizeof out->name, "%s", c->name);
  snprintf(out->klass, sizeof out->klass, "concat_mla_q %s %s", c->transposed_nope ? "transposed" : c->extra_stride ? "padded" : "contiguous",
           oracle_dtype_name(c->dtype));
  out->data = d;
  out->free_data = concat_data_free;
  return true;
}

void prod_concat_result_of(const vc_case *vc, const vc_result *vr, prod_concat_result *r) {
  const concat_data *d = vc->data;
  memset(r, 0, sizeof *r);
  r->seconds = vr->seconds;
  r->launched = vr->launched;
  r->hazards = vr->hazards;
  snprintf(r->hazard, sizeof r->hazard, "%s", vr->hazard);
  if (vr->rc != LL_EXIT_OK) return;
  if (d->nout == 0) r->t0_untouched = vr->cmp[0].over == 0;
  else {
    r->n = d->nout;
    r->mismatches = vr->cmp[0].over;
  }
}

int prod_concat_run(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                    prod_concat_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  vc_case vc;
  if (!prod_concat_case_plan(c, co_path, build, rt_device_arch(d), &vc, err)) return err->code;
  vc_result vr;
  int rc = prod_case_exec(d, &vc, &vr, err);
  prod_concat_result_of(&vc, &vr, r);
  vc_result_free(&vr);
  vc_case_free(&vc);
  return rc;
}

rt_device *prod_open_device(const verify_ctx *c, ll_err *err) {
  rt_backend b = RT_AUTO;
  if (c->backend && !rt_backend_parse(c->backend, &b)) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown backend '%s' (auto, emu, hip)", c->backend);
    return NULL;
  }
  return rt_open(b, c->arch, err);
}


