/* verify/stage_mutants — the `mutants` stage. A manifest run judges the manifest's mutants
 * (verify_manifest_mutants); lanelab's own run the deliberate-mismatch A/B suite (issue #5 section 4). Each mutant is the
 * real kernel source built with -DLANELAB_MUTANT=<name> -DLANELAB_MUTANT_<NAME>=1 (kernels/
 * mutants.txt, `make mutants`, into BUILD/<arch>/mutants/<name>/). Per arch and mutant:
 *   1. If the mutant's .text is byte-identical to the correct kernel's, the mutation does not
 *      exist on this arch: "not applicable", proven by the identity (isa_diff_files), never
 *      counted as caught. (v_seed_fragment on gfx942: the V path there already uses the
 *      load_fragment seed; the transpose mutants on gfx950: V comes from ds_read_b64_tr_b16 and
 *      this prefill has no S-fragment transpose.)
 *   2. Otherwise the correct kernel and the mutant run the same case (same inputs, same oracle
 *      reference, same wave schedule) and the mutant must fail it by the one mutant rule
 *      (verify.h, verify_mutant_judge): the oracle comparison, the phase census, or, for
 *      concat_no_nt, the ISA guard (no global_store_dwordx4:nt in its census).
 * The stage FAILS if any applicable mutant passes, or is caught only narrowly: below 100x the
 * noise floor with every value finite (issue #14: a narrow catch is a gap, not a kill). Reported per mutant: the correct kernel's
 * max abs error (the noise floor), the mutant's, their ratio (the detection ratio) and
 * atol / noise floor. Targets (issue #5): every mutant caught, numeric mutants >= 100x apart,
 * tolerance >= 3x the noise floor; the figures are reported as measured, met or not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "verify/prod.h"

typedef enum { MUT_ATTN, MUT_CONCAT_DATA, MUT_CONCAT_NT } mut_how;

typedef struct mutant_def {
  const char *name;   /* as in kernels/mutants.txt */
  const char *stem;   /* the source it mutates (code object stem) */
  mut_how how;
  emu_sched sched;
  const char *expect; /* where it is expected to apply, for the table */
  prod_case kase;
  prod_concat_case ccase;
} mutant_def;

#define F16 ORACLE_F16
static const mutant_def mutants[] = {
    {"v_seed_fragment", "prefill_ragged", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "gfx950 (gfx942 byte-identical)",
     {.name = "mut_ragged_f16_d128", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 2, .hkv = 2, .head_dim = 128,
      .batch = 2, .qo_len = {20, 40}, .kv_len = {50, 40}, .seed = 401}, {0}},
    {"transpose_no_quad_step", "prefill_single", MUT_ATTN, EMU_SCHED_ROUND_ROBIN,
     "gfx942 V path (gfx950 byte-identical)",
     {.name = "mut_single_f16_d64", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 64,
      .batch = 1, .qo_len = {40}, .kv_len = {40}, .seed = 402}, {0}},
    {"transpose_no_swap", "prefill_paged", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "gfx942 V path (gfx950 byte-identical)",
     {.name = "mut_paged_nhd_f16_d64_ps16", .kind = ORACLE_PAGED, .dtype = F16, .hq = 2, .hkv = 1, .head_dim = 64,
      .batch = 1, .qo_len = {30}, .kv_len = {45}, .page_size = 16, .layout = ORACLE_NHD, .shuffle_pages = true,
      .seed = 403}, {0}},
    {"causal_top_left", "prefill_single", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "both",
     {.name = "mut_single_f16_d64_causal_q20_kv50", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1,
      .head_dim = 64, .batch = 1, .qo_len = {20}, .kv_len = {50}, .causal = true, .seed = 404}, {0}},
    {"sm_scale_dropped", "prefill_single", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "both",
     {.name = "mut_single_f16_d64", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 64,
      .batch = 1, .qo_len = {32}, .kv_len = {48}, .seed = 405}, {0}},
    {"finite_mask_sentinel", "prefill_single", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "both",
     {.name = "mut_single_f16_d64_causal_q40_kv20", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1,
      .head_dim = 64, .batch = 1, .qo_len = {40}, .kv_len = {20}, .causal = true, .seed = 406}, {0}},
    {"gqa_modulo", "prefill_ragged", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "both",
     {.name = "mut_ragged_f16_d64_gqa2", .kind = ORACLE_RAGGED, .dtype = F16, .hq = 4, .hkv = 2, .head_dim = 64,
      .batch = 1, .qo_len = {30}, .kv_len = {30}, .seed = 407}, {0}},
    {"paged_ignore_last_page_len", "prefill_paged", MUT_ATTN, EMU_SCHED_ROUND_ROBIN, "both",
     {.name = "mut_paged_nhd_f16_d64_ps16_kv37", .kind = ORACLE_PAGED, .dtype = F16, .hq = 1, .hkv = 1,
      .head_dim = 64, .batch = 1, .qo_len = {16}, .kv_len = {37}, .page_size = 16, .layout = ORACLE_NHD,
      .shuffle_pages = true, .seed = 408}, {0}},
    {"missing_barrier", "prefill_single", MUT_ATTN, EMU_SCHED_ADVERSARIAL, "both (adversarial wave schedule)",
     {.name = "mut_single_f16_d64_q64_kv64", .kind = ORACLE_SINGLE, .dtype = F16, .hq = 1, .hkv = 1, .head_dim = 64,
      .batch = 1, .qo_len = {64}, .kv_len = {64}, .seed = 409}, {0}},
    {"concat_swap_pe_nope", "concat_mla_q", MUT_CONCAT_DATA, EMU_SCHED_ROUND_ROBIN, "both", {0},
     {.name = "mut_concat_f16_T4", .dtype = F16, .T = 4, .H = 16, .seed = 410}},
    {"concat_no_nt", "concat_mla_q", MUT_CONCAT_NT, EMU_SCHED_ROUND_ROBIN, "both (ISA guard)", {0},
     {.name = "mut_concat_f16_T4", .dtype = F16, .T = 4, .H = 16, .seed = 411}},
};
#define NMUT (sizeof mutants / sizeof *mutants)

static bool exists(const char *p) {
  FILE *f = fopen(p, "rb");
  if (f) fclose(f);
  return f != NULL;
}

static long nt_stores(const char *co, ll_err *err) {
  isa_census *cs = isa_census_file(co, err);
  if (!cs) return -1;
  const isa_kernel_census *k = isa_census_kernel(cs, "concat_mla_q");
  long v = k ? isa_census_value(k, "global_store_dwordx4:nt") : -1;
  if (!k) ll_seterr(err, LL_EXIT_USAGE, "%s has no kernel concat_mla_q", co);
  isa_census_free(cs);
  return v;
}

/* The stage's running tally and its table. */
typedef struct mtally {
  const verify_ctx *c;
  rt_device *d;
  report_table *t;
  size_t caught, escaped, na, errors, numeric, below100, inshard;
  double min_ratio, min_margin;
  char first_err[400], escaped_names[256], narrow_names[256];
} mtally;

static void add_name(char *list, size_t n, const char *name) {
  size_t l = strlen(list);
  snprintf(list + l, n - l, "%s%s", l ? ", " : "", name);
}

static void error_row(mtally *T, const mutant_def *m, const char *check, const char *msg, bool first) {
  T->errors++;
  if (first && !T->first_err[0]) snprintf(T->first_err, sizeof T->first_err, "%s", msg);
  const char *case_name = m->how == MUT_ATTN ? m->kase.name : m->ccase.name;
  report_table_row(T->t, "%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\terror: %s", m->name, m->expect, case_name, check, msg);
}

/* One run of a prefill kernel as the mutant rule sees it; the phase census is its guard. */
static mut_run attn_run(emu_arch a, int rc, const prod_result *r, const ll_err *e, char *why, size_t wn) {
  mut_run m = {.rc = rc, .launched = r->launched, .pass = r->pass, .max_abs = r->max_abs,
               .mismatches = r->o.mismatches + r->lse.mismatches,
               .nonfinite = r->o.nonfinite_mismatches + r->lse.nonfinite_mismatches, .msg = e->msg};
  m.unimplemented = rc != LL_EXIT_OK && strstr(e->msg, "lacks semantics");
  if (rc == LL_EXIT_OK && r->have_stats && !prod_phase_check(a, r, why, wn)) {
    m.guard = "phase census";
    m.msg = why;
  }
  return m;
}

/* The correct kernel and the mutant on the same prefill case, judged by the mutant rule. */
static void attn_ab(mtally *T, const mutant_def *m, const char *cco, const char *mco) {
  const verify_ctx *c = T->c;
  const char *case_name = m->kase.name;
  ll_err e = {0};
  oracle_attention_spec s;
  if (!prod_case_spec(&m->kase, &s, &e)) { error_row(T, m, "-", e.msg, false); return; }
  size_t no = (size_t)oracle_attention_q_elems(&s), nl = (size_t)oracle_attention_total_q(&s) * s.num_qo_heads;
  float *ro = ll_xcalloc(no, sizeof(float)), *rl = ll_xcalloc(nl, sizeof(float));
  prod_result good, bad;
  prod_run_opts og = {.co_path = cco, .sched = m->sched}, om = {.co_path = mco, .sched = m->sched};
  int rc = oracle_attention_run(&s, ro, rl, NULL, &e) ? LL_EXIT_OK : e.code;
  if (rc == LL_EXIT_OK) rc = prod_case_run_ref(T->d, c->build, &m->kase, &og, &s, ro, rl, &good, &e);
  if (rc != LL_EXIT_OK || !good.pass) {
    /* without a passing correct run there is no A/B */
    char *msg = rc != LL_EXIT_OK ? ll_fmt("correct kernel could not run: %s", e.msg)
                                 : ll_fmt("the correct kernel fails this case (O %zu, LSE %zu mismatches)",
                                          good.o.mismatches, good.lse.mismatches);
    error_row(T, m, "oracle", msg, true);
    free(msg);
    goto out;
  }
  ll_err em = {0};
  int rm = prod_case_run_ref(T->d, c->build, &m->kase, &om, &s, ro, rl, &bad, &em);
  double atol = m->kase.atol, rtol = m->kase.rtol;
  if (atol <= 0 && rtol <= 0) oracle_tolerance_default(m->kase.dtype, &atol, &rtol);
  double margin = good.max_abs > 0 ? atol / good.max_abs : INFINITY;
  if (margin < T->min_margin) T->min_margin = margin;
  char gw[400], bw[400];
  mut_run cr = attn_run(c->arch, rc, &good, &e, gw, sizeof gw), mr = attn_run(c->arch, rm, &bad, &em, bw, sizeof bw);
  cr.guard = NULL; /* the correct kernel's census is the prod stage's business */
  mut_judgement j;
  verify_mutant_judge(&cr, &mr, &j);
  if (j.v == MUT_ERROR) {
    T->errors++;
    if (!T->first_err[0]) snprintf(T->first_err, sizeof T->first_err, "%s", em.msg);
    report_table_row(T->t, "%s\t%s\t%s\toracle\t%.3g\t-\t-\t%.3g\t-\t-\terror: %s", m->name, m->expect, case_name,
                     good.max_abs, margin, em.msg);
  } else if (j.v == MUT_CAUGHT && !strcmp(j.check, "fault")) {
    T->caught++; /* the mutant faulted (out-of-bounds access etc.): detected, by the emulator */
    report_table_row(T->t, "%s\t%s\t%s\toracle\t%.3g\t-\t-\t%.3g\t-\t-\tcaught: fault: %s", m->name, m->expect,
                     case_name, good.max_abs, margin, em.msg);
  } else {
    T->numeric++;
    double ratio = good.max_abs > 0 ? bad.max_abs / good.max_abs : INFINITY;
    size_t nonfinite = bad.o.nonfinite_mismatches + bad.lse.nonfinite_mismatches;
    const char *verdict = "caught";
    char gv[500];
    if (j.v == MUT_ESCAPED) {
      T->escaped++;
      add_name(T->escaped_names, sizeof T->escaped_names, m->name);
      verdict = "ESCAPED: the mutant passes the oracle comparison";
    } else {
      T->caught++;
      if (!bad.pass && ratio < T->min_ratio) T->min_ratio = ratio;
      if (j.v == MUT_NARROW) { /* caught below 100x (and all finite) is a gap: the next kernel change may hide it */
        T->below100++;
        char nm[96];
        snprintf(nm, sizeof nm, "%s (%.3gx)", m->name, ratio);
        add_name(T->narrow_names, sizeof T->narrow_names, nm);
        verdict = "NARROW: caught below 100x the noise floor (a gap)";
      } else if (bad.pass) { /* the outputs match: a guard caught it */
        snprintf(gv, sizeof gv, "caught by the %s: %s", j.check, j.why);
        verdict = gv;
      }
    }
    report_table_row(T->t, "%s\t%s\t%s\toracle%s\t%.3g\t%.3g\t%.3g\t%.3g\t%zu\t%zu\t%s", m->name, m->expect, case_name,
                     m->sched == EMU_SCHED_ADVERSARIAL ? " (adversarial schedule)" : "", good.max_abs, bad.max_abs,
                     ratio, margin, bad.o.mismatches + bad.lse.mismatches, nonfinite, verdict);
  }
out:
  free(ro);
  free(rl);
  prod_spec_free(&s);
}

/* concat_mla_q is bit-exact: a mutant that moves data must change some 16-bit element. */
static void concat_data_ab(mtally *T, const mutant_def *m, const char *cco, const char *mco) {
  prod_concat_result good, bad;
  ll_err e = {0};
  int rc = prod_concat_run(T->d, T->c->build, &m->ccase, cco, &good, &e);
  if (rc == LL_EXIT_OK) rc = prod_concat_run(T->d, T->c->build, &m->ccase, mco, &bad, &e);
  if (rc != LL_EXIT_OK) { error_row(T, m, "bit-exact", e.msg, true); return; }
  mut_run cr = {.rc = LL_EXIT_OK, .launched = true, .pass = good.mismatches == 0, .mismatches = good.mismatches};
  mut_run mr = {.rc = LL_EXIT_OK, .launched = true, .pass = bad.mismatches == 0, .mismatches = bad.mismatches};
  mut_judgement j;
  verify_mutant_judge(&cr, &mr, &j);
  if (j.v == MUT_ERROR) T->errors++;
  else if (j.v == MUT_CAUGHT) T->caught++;
  else { T->escaped++; add_name(T->escaped_names, sizeof T->escaped_names, m->name); }
  /* counts of mismatching elements go in mutant_mismatches only: noise_floor and mutant_max_abs are
   * errors, and a count there was plotted as a 36863 "error" */
  report_table_row(T->t, "%s\t%s\t%s\tbit-exact (correct kernel: %zu mismatching elements)\t-\t-\t-\t-\t%zu\t0\t%s",
                   m->name, m->expect, m->ccase.name, good.mismatches, bad.mismatches,
                   j.v == MUT_ERROR ? "error: the correct kernel is not bit-exact"
                   : j.v == MUT_CAUGHT ? "caught (mismatching 16-bit elements vs 0)" : "ESCAPED");
}

/* concat_no_nt: numerically the same copy, so only the ISA guard (non-temporal stores) sees it. */
static void concat_nt_ab(mtally *T, const mutant_def *m, const char *cco, const char *mco) {
  ll_err e = {0};
  long g = nt_stores(cco, &e), b = g >= 0 ? nt_stores(mco, &e) : -1;
  if (g < 0 || b < 0) { error_row(T, m, "ISA census", e.msg, true); return; }
  /* also run it: numerically it is the same copy, which is why only the ISA guard sees it */
  prod_concat_result bad;
  ll_err e2 = {0};
  int rc = prod_concat_run(T->d, T->c->build, &m->ccase, mco, &bad, &e2);
  char data[200];
  if (rc == LL_EXIT_OK) snprintf(data, sizeof data, "data %zu/%zu mismatches", bad.mismatches, bad.n);
  else snprintf(data, sizeof data, "data run failed: %.150s", e2.msg);
  mut_run cr = {.rc = LL_EXIT_OK, .launched = true, .pass = g >= 1};
  mut_run mr = {.rc = LL_EXIT_OK, .launched = true, .pass = true, .guard = b == 0 ? "ISA guard" : NULL};
  mut_judgement j;
  verify_mutant_judge(&cr, &mr, &j);
  if (j.v == MUT_ERROR) T->errors++;
  else if (j.v == MUT_CAUGHT) T->caught++;
  else { T->escaped++; add_name(T->escaped_names, sizeof T->escaped_names, m->name); }
  report_table_row(T->t, "%s\t%s\t%s\tISA census global_store_dwordx4:nt: correct %ld, mutant %ld (%s)\t-\t-\t-\t-\t-\t-\t%s",
                   m->name, m->expect, m->ccase.name, g, b, data,
                   j.v == MUT_ERROR ? "error: the correct kernel has no nt store"
                   : j.v == MUT_CAUGHT ? "caught by the ISA guard (correct: nt stores, mutant: none)" : "ESCAPED");
}

/* One mutant on this arch: rule 1 (byte identity), then its A/B. */
static void one_mutant(mtally *T, const mutant_def *m) {
  const verify_ctx *c = T->c;
  char *mco = ll_fmt("%s/%s/mutants/%s/%s.co", c->build, c->arch_name, m->name, m->stem);
  char *cco = prod_co_path(c->build, c->arch, m->stem);
  const char *case_name = m->how == MUT_ATTN ? m->kase.name : m->ccase.name;
  ll_err e = {0};
  bool applies = true;
  if (!exists(mco) || !exists(cco)) {
    char *msg = ll_fmt("%s missing: run make kernels mutants", exists(mco) ? cco : mco);
    error_row(T, m, "-", msg, true);
    free(msg);
  } else if (!verify_mutant_applies(mco, cco, &applies, &e)) {
    error_row(T, m, "isa diff", e.msg, true);
  } else if (!applies) {
    T->na++;
    report_table_row(T->t, "%s\t%s\t%s\t.text identity\t-\t-\t-\t-\t-\t-\tnot applicable on %s: .text byte-identical "
                           "to the correct %s.co (isa diff)",
                     m->name, m->expect, case_name, c->arch_name, m->stem);
  } else if (m->how == MUT_ATTN) {
    attn_ab(T, m, cco, mco);
  } else if (m->how == MUT_CONCAT_DATA) {
    concat_data_ab(T, m, cco, mco);
  } else {
    concat_nt_ab(T, m, cco, mco);
  }
  free(mco);
  free(cco);
}

static void lab_mutants(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  rt_device *d = prod_open_device(c, &err);
  if (!d) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "no device for %s: %s", c->arch_name, err.msg);
    return;
  }
  r->device = ll_xstrdup(rt_device_backend(d) == RT_EMU ? "emulator" : "hip");
  mtally T = {.c = c, .d = d, .min_ratio = INFINITY, .min_margin = INFINITY};
  T.t = report_table_new("deliberate-mismatch mutants (A/B against the correct kernel on the same case)",
                         "mutant,applies,case,check,noise_floor#,mutant_max_abs#,detection_ratio#,atol_over_noise#,"
                         "mutant_mismatches#,nonfinite#,verdict");
  for (size_t k = 0; k < NMUT; k++) {
    if (!verify_in_shard(c, k)) continue;
    T.inshard++;
    verify_progress(c, "mutants", k + 1, NMUT, mutants[k].name);
    one_mutant(&T, &mutants[k]);
  }
  report_table_note(T.t, "noise_floor = the correct kernel's max abs error (O and LSE) on the mutant's case; "
                         "detection_ratio = mutant max abs error / noise floor (finite pairs; nonfinite counts "
                         "mismatches like a finite LSE where the oracle has -inf); targets: >= 100x, atol >= 3x noise.");
  report_table_note(T.t, "not applicable = the mutation compiles to the same .text on this arch (proven by isa diff), "
                         "so there is nothing to catch there.");
  stage_add_table(r, T.t);
  if (T.escaped)
    stage_set(r, VERDICT_FAIL, "%zu mutant(s) passed on %s: %s", T.escaped, c->arch_name, T.escaped_names);
  else if (T.errors)
    stage_set(r, VERDICT_FAIL, "%zu mutant check(s) could not be made on %s; first: %s", T.errors, c->arch_name, T.first_err);
  else if (T.below100)
    stage_set(r, VERDICT_FAIL, "%zu mutant(s) caught only narrowly (< 100x the noise floor) on %s: %s", T.below100,
              c->arch_name, T.narrow_names);
  else if (T.inshard == 0)
    stage_set(r, VERDICT_PASS, "no case in this shard");
  else
    stage_set(r, VERDICT_PASS,
              "%zu caught, %zu not applicable (.text identical); min detection ratio %.3gx (%zu numeric below 100x), "
              "atol >= %.3gx noise",
              T.caught, T.na, T.numeric ? T.min_ratio : 0.0, T.below100, T.min_margin);
  rt_close(d);
}

void verify_stage_mutants(const verify_ctx *c, stage_result *r) {
  if (c->manifest) verify_manifest_mutants(c, r);
  else lab_mutants(c, r);
}
