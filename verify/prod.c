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
      k[i] = to16(s, dominant ? B : -B * (1 + step * (double)(ll_splitmix64(&rng) % steps)));
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

static bool case_spec(const prod_case *c, oracle_attention_spec *s, bool data, ll_err *err) {
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
      int lead = c->mask_lead_blocks * PROD_KV_BLK; /* keys 0..lead-1: the first visited blocks */
      for (size_t i = 0; i < bits; i++) {
        int j = (int)(i % (size_t)c->kv_len[b]);
        bool keep = ll_splitmix64(&rng) % 4 != 0;
        if (c->single_key) {
          /* row i / kv_len keeps one key, drawn in [lead, kv_len) when that is not empty */
          if (j == 0) {
            int free_keys = c->kv_len[b] - lead;
            int pick_j = free_keys > 0 ? lead + (int)(ll_splitmix64(&rng) % (uint64_t)free_keys) : -1;
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
  if (data) {
    oracle_attention_generate(s, c->seed);
    apply_values(c, s);
  }
  s->owns = false;
  return true;
}

bool prod_case_spec(const prod_case *c, oracle_attention_spec *s, ll_err *err) {
  return case_spec(c, s, true, err);
}

bool prod_case_spec_nodata(const prod_case *c, oracle_attention_spec *s, ll_err *err) {
  return case_spec(c, s, false, err);
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
  if (s->custom_mask)
    p->mask_lead = 1u + (uint32_t)((oracle_attention_total_q(s) + s->kv_indptr[s->batch]) % 7);
  size_t off = p->mask_lead;
  for (int b = 0; b < s->batch; b++) {
    p->mask_off[b] = (int32_t)off;
    off += ((size_t)oracle_attention_qo_len(s, b) * (size_t)oracle_attention_kv_len(s, b) + 7) / 8;
  }
  p->mask_bytes = s->custom_mask ? off : 0;
  /* the device mask buffer: mask_lead filler bytes (0x5a: a kernel that ignores mask_off reads them
   * as mask bits), then the spec's segments */
  if (s->custom_mask) {
    p->mask_buf = ll_xmalloc(p->mask_bytes);
    memset(p->mask_buf, 0x5a, p->mask_lead);
    memcpy(p->mask_buf + p->mask_lead, s->custom_mask, s->custom_mask_bytes);
  }
  return true;
}

void prod_attn_plan_free(prod_attn_plan *p) {
  free(p->tile_req); free(p->tile_q0); free(p->mask_off); free(p->mask_buf);
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
  vc_arg mask = in_buf("mask", p->mask_buf, p->mask_bytes);
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

/* o's argument patches (tests of the launch contract: an out-of-contract value must be refused):
 * the replaced argument becomes a scalar of the patch's value under its own name. */
static void patch_args(vc_arg *a, size_t n, const prod_run_opts *o) {
  for (size_t i = 0; o && i < o->npatch && i < 4; i++)
    if (o->patch[i].index < n) a[o->patch[i].index] = scalar(a[o->patch[i].index].name, o->patch[i].value);
}

bool prod_case_launch(const prod_case *c, const prod_run_opts *o, const oracle_attention_spec *s, const float *ref_o,
                      const float *ref_lse, const char *co, const prod_attn_plan *p, vc_launch *l, vc_arg *args) {
  memset(l, 0, sizeof *l);
  l->nargs = attn_params(p, s, args);
  patch_args(args, l->nargs, o);
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
    /* O is a weighted mean of V rows: its absolute tolerance scales with V's magnitude */
    args[i].atol = i == 3 && c ? atol * prod_case_v_scale(c) : atol;
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
  r->cpu_seconds = vr->cpu_seconds;
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

void prod_concat_strides(const prod_concat_case *c, int64_t st[4]) {
  int64_t T = c->T > 0 ? c->T : 1, H = c->H; /* T = 0: a transposed view still has a head stride >= 1 */
  if (c->transposed_nope) { st[0] = ORACLE_MLA_NOPE; st[1] = T * ORACLE_MLA_NOPE + c->nope_token_pad; }
  else { st[1] = ORACLE_MLA_NOPE + c->extra_stride; st[0] = H * st[1] + c->nope_token_pad; }
  if (c->transposed_pe) { st[2] = ORACLE_MLA_PE; st[3] = T * ORACLE_MLA_PE + c->pe_token_pad; }
  else { st[3] = ORACLE_MLA_PE + c->pe_extra_stride; st[2] = H * st[3] + c->pe_token_pad; }
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
  int64_t st[4];
  prod_concat_strides(c, st);
  s->nope_stride_t = st[0]; s->nope_stride_h = st[1]; s->pe_stride_t = st[2]; s->pe_stride_h = st[3];
  if (st[0] % 8 || st[1] % 8 || st[2] % 8 || st[3] % 8) {
    ll_seterr(err, LL_EXIT_USAGE, "concat case %s: strides must be multiples of 8 elements "
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
  return prod_concat_run_opts(d, build, c, co_path, NULL, r, err);
}

int prod_concat_run_opts(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                         const prod_run_opts *po, prod_concat_result *r, ll_err *err) {
  memset(r, 0, sizeof *r);
  vc_case vc;
  if (!prod_concat_case_plan(c, co_path, build, rt_device_arch(d), &vc, err)) return err->code;
  patch_args(((concat_data *)vc.data)->a, 9, po);
  vc_result vr;
  int rc = prod_case_exec(d, &vc, &vr, err);
  prod_concat_result_of(&vc, &vr, r);
  vc_result_free(&vr);
  vc_case_free(&vc);
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

rt_device *prod_open_device(const verify_ctx *c, ll_err *err) {
  rt_backend b = RT_AUTO;
  if (c->backend && !rt_backend_parse(c->backend, &b)) {
    ll_seterr(err, LL_EXIT_USAGE, "unknown backend '%s' (auto, emu, hip)", c->backend);
    return NULL;
  }
  return rt_open(b, c->arch, err);
}


