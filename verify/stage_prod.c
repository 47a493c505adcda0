/* verify/stage_prod — the `prod` stage: every case of the prod source (quick, full or random:N)
 * through the one case runner on the arch, under racecheck and initcheck, compared with the oracle;
 * the prefill cases' phase census is checked against the rules of change 000 (prod_phase_check). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify/prod.h"

/* The stage's running tally: its tables and what its summary says. */
typedef struct ptally {
  const verify_ctx *c;
  const prod_set *set;
  const char *device;
  report_table *t, *tc;
  size_t ran, failed, errors, census_bad, census_ok, checked, hazard_cases, prefill_ran, nref, ref_bad;
  double worst_noise, min_margin;
  uint64_t tot_bp, tot_mfma;
  prod_census ph[PROD_NPHASE];
  char first_err[400], first_census[400], first_hazard[800], first_repro[200], first_ref[400];
} ptally;

static void census_add_to(prod_census *a, const prod_census *b) {
  a->insns += b->insns; a->bpermutes += b->bpermutes; a->mfmas += b->mfmas; a->tr_b16 += b->tr_b16;
  a->ds_read_b64 += b->ds_read_b64; a->ds_read2_b64 += b->ds_read2_b64; a->ds_writes += b->ds_writes;
}

/* "%.3f" of n/d, or "-" when d is 0, into buf. */
static const char *per(char *buf, size_t n, uint64_t num, uint64_t den) {
  if (den) snprintf(buf, n, "%.3f", (double)num / (double)den);
  else snprintf(buf, n, "-");
  return buf;
}

static void note_failure(ptally *T, const char *what, const char *repro) {
  fprintf(stderr, "lanelab: prod case %s failed on %s; reproduce: %s\n", what, T->c->arch_name, repro);
  if (!T->first_repro[0]) snprintf(T->first_repro, sizeof T->first_repro, "%s", repro);
}

/* The phase-census cell of a prefill run (and the stage's per-phase sums). */
static void census_cell(ptally *T, const prod_case *pc, const prod_result *res, char *census, size_t n) {
  for (int p = 0; p < PROD_NPHASE; p++) census_add_to(&T->ph[p], &res->phase[p]);
  char why[400];
  if (prod_phase_check(T->c->arch, res, why, sizeof why)) {
    T->census_ok++;
    snprintf(census, n, "pass");
  } else {
    T->census_bad++;
    snprintf(census, n, "FAIL: %s", why);
    if (!T->first_census[0]) snprintf(T->first_census, sizeof T->first_census, "%s: %s", pc->name, why);
  }
}

/* A prefill case's row once it ran. */
static void attn_row(ptally *T, const prod_case *pc, const prod_result *res, const char *shape, const char *repro,
                     double atol, double rtol) {
  T->ran++;
  T->prefill_ran++;
  if (res->checked) T->checked++;
  if (res->hazards) {
    T->hazard_cases++;
    if (!T->first_hazard[0]) snprintf(T->first_hazard, sizeof T->first_hazard, "%s: %s", pc->name, res->hazard);
  }
  if (!res->pass) T->failed++;
  /* O's error in units of V's scale (prod_case_v_scale: O's atol scales with it) */
  double vs = prod_case_v_scale(pc), noise = fmax(res->o.max_abs / vs, res->lse.max_abs);
  if (noise > T->worst_noise) T->worst_noise = noise;
  double margin = noise > 0 ? atol / noise : INFINITY;
  if (margin < T->min_margin) T->min_margin = margin;
  T->tot_bp += res->bpermutes;
  T->tot_mfma += res->mfmas;
  char bpm[32] = "-", qbpm[32] = "-", pbpm[32] = "-", census[420] = "-";
  if (res->have_stats) {
    per(bpm, sizeof bpm, res->bpermutes, res->mfmas);
    per(qbpm, sizeof qbpm, res->phase[PROD_PHASE_QK].bpermutes, res->phase[PROD_PHASE_QK].mfmas);
    per(pbpm, sizeof pbpm, res->phase[PROD_PHASE_PV].bpermutes, res->phase[PROD_PHASE_PV].mfmas);
    census_cell(T, pc, res, census, sizeof census);
  }
  char verdict_s[1000];
  if (res->hazards) snprintf(verdict_s, sizeof verdict_s, "FAIL (%zu racecheck/initcheck report%s; first: %s); reproduce: %s",
                             res->hazards, res->hazards == 1 ? "" : "s", res->hazard, repro);
  else if (res->pass) snprintf(verdict_s, sizeof verdict_s, "pass");
  else snprintf(verdict_s, sizeof verdict_s, "FAIL (O %zu/%zu, LSE %zu/%zu mismatches); reproduce: %s",
                res->o.mismatches, res->o.n, res->lse.mismatches, res->lse.n, repro);
  report_table_row(T->t, "%s\t%s\t%s\t%s\t%.3g\t%.3g\t%g\t%g\t%.3g\t%zu\t%s\t%s\t%s\t%llu\t%s\t%s\t%s", pc->name,
                   prod_case_variant(pc), shape, oracle_dtype_name(pc->dtype), res->max_abs, res->max_rel, atol, rtol,
                   margin, res->o.mismatches + res->lse.mismatches, bpm, qbpm, pbpm,
                   (unsigned long long)res->wave_insns, census, verdict_s, T->device);
}

/* Prefill case k of the source: run under racecheck and initcheck (docs/trace.md), compared. */
static void attn_case(ptally *T, rt_device *d, const verify_source *src, size_t k) {
  const prod_case *pc = &T->set->cases[k];
  ll_err e = {0};
  char *shape = prod_case_shape(pc), *repro = prod_set_repro(T->set, k, T->c->arch_name);
  double atol = pc->atol, rtol = pc->rtol;
  if (atol <= 0 && rtol <= 0) oracle_tolerance_default(pc->dtype, &atol, &rtol);
  vc_case vc;
  prod_result res = {0};
  int rc;
  if (!src->plan(src, k, T->c->build, T->c->arch, &vc, &e)) {
    rc = e.code;
  } else {
    vc.l.racecheck = vc.l.initcheck = true;
    vc_result vr;
    rc = prod_case_exec(d, &vc, &vr, &e);
    prod_attn_result(&vc, &vr, &res);
    vc_result_free(&vr);
    vc_case_free(&vc);
  }
  if (rc == LL_EXIT_FAIL || (rc == LL_EXIT_OK && (!res.pass || res.hazards))) { /* not for a missing code object */
    char *what = ll_fmt("%s (%s)", pc->name, shape);
    note_failure(T, what, repro);
    free(what);
  }
  if (rc != LL_EXIT_OK) {
    T->errors++;
    if (!T->first_err[0]) snprintf(T->first_err, sizeof T->first_err, "%s", e.msg);
    report_table_row(T->t, "%s\t%s\t%s\t%s\t-\t-\t%g\t%g\t-\t-\t-\t-\t-\t-\t-\tFAIL: %s; reproduce: %s\t%s", pc->name,
                     prod_case_variant(pc), shape, oracle_dtype_name(pc->dtype), atol, rtol, e.msg, repro, T->device);
  } else {
    attn_row(T, pc, &res, shape, repro, atol, rtol);
  }
  free(shape);
  free(repro);
}

/* concat_mla_q case k of the source (index n + k): bit-exact against the oracle. */
static void concat_case(ptally *T, rt_device *d, const verify_source *src, size_t k) {
  const prod_concat_case *pc = &T->set->concat[k];
  prod_concat_result res = {0};
  ll_err e = {0};
  vc_case vc;
  int rc;
  if (!src->plan(src, T->set->n + k, T->c->build, T->c->arch, &vc, &e)) {
    rc = e.code;
  } else {
    vc_result vr;
    rc = prod_case_exec(d, &vc, &vr, &e);
    prod_concat_result_of(&vc, &vr, &res);
    vc_result_free(&vr);
    vc_case_free(&vc);
  }
  int64_t st[4];
  prod_concat_strides(pc, st);
  char lay[160];
  snprintf(lay, sizeof lay, "%s; strides nope %lld/%lld pe %lld/%lld",
           pc->transposed_nope ? "transposed" : pc->extra_stride ? "padded stride" : "contiguous", (long long)st[0],
           (long long)st[1], (long long)st[2], (long long)st[3]);
  bool ok = rc == LL_EXIT_OK && (pc->T == 0 ? res.t0_untouched : res.mismatches == 0);
  if ((!ok || res.hazards) && (rc == LL_EXIT_OK || rc == LL_EXIT_FAIL)) {
    char *repro = prod_set_repro(T->set, T->set->n + k, T->c->arch_name);
    char *what = ll_fmt("%s (concat T=%lld H=%lld %s)", pc->name, (long long)pc->T, (long long)pc->H, lay);
    note_failure(T, what, repro);
    free(what);
    free(repro);
  }
  if (rc != LL_EXIT_OK) {
    T->errors++;
    if (!T->first_err[0]) snprintf(T->first_err, sizeof T->first_err, "%s", e.msg);
    report_table_row(T->tc, "%s\t%s\t%lld\t%lld\t%s\t-\t-\tFAIL: %s\t%s", pc->name, oracle_dtype_name(pc->dtype),
                     (long long)pc->T, (long long)pc->H, lay, e.msg, T->device);
    return;
  }
  T->ran++;
  if (!ok) T->failed++;
  if (res.hazards) {
    T->hazard_cases++;
    if (!T->first_hazard[0]) snprintf(T->first_hazard, sizeof T->first_hazard, "%s: %s", pc->name, res.hazard);
  }
  char hzv[700] = "";
  if (res.hazards) snprintf(hzv, sizeof hzv, "FAIL (racecheck/initcheck: %s)", res.hazard);
  report_table_row(T->tc, "%s\t%s\t%lld\t%lld\t%s\t%zu\t%zu\t%s\t%s", pc->name, oracle_dtype_name(pc->dtype),
                   (long long)pc->T, (long long)pc->H, lay, res.n, res.mismatches,
                   res.hazards ? hzv
                   : ok ? (pc->T == 0 ? "pass (T=0: output untouched)" : "pass")
                        : (pc->T == 0 ? "FAIL (T=0 wrote the output)" : "FAIL"),
                   T->device);
}

/* The launch contract: every out-of-contract launch refused (shard 0 runs them). */
static report_table *refusal_table(ptally *T, rt_device *d) {
  const prod_refusal *rf = prod_refusals(&T->nref);
  report_table *tr = report_table_new("launch contract: out-of-contract launches (each must be refused with s_trap)",
                                      "launch,verdict");
  for (size_t k = 0; T->c->shard_i == 0 && k < T->nref; k++) {
    char why[700];
    int rc = prod_refusal_run(d, T->c->build, &rf[k], NULL, why, sizeof why);
    if (rc != LL_EXIT_OK) {
      T->ref_bad++;
      if (!T->first_ref[0]) snprintf(T->first_ref, sizeof T->first_ref, "%s", why);
    }
    report_table_row(tr, "%s\t%s", rf[k].what, rc == LL_EXIT_OK ? "pass (refused: s_trap)" : why);
  }
  report_table_note(tr, "The contract: kernels/prod/prefill_impl.h (contract_ok) and concat_mla_q.hip; every combination "
                        "of the accepted flag bits runs against the oracle in the matrix (causal + custom mask: the mask "
                        "replaces causal).");
  return tr;
}

/* The notes of the attention table (what its columns mean, what ran). */
static void attn_notes(const ptally *T, rt_device *d) {
  report_table *t = T->t;
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
                         "read before any write); concat_mla_q cases too.", T->checked, T->prefill_ran, T->hazard_cases);
  if (rt_device_backend(d) == RT_EMU && T->tot_mfma)
    report_table_note(t, "all cases: %llu ds_bpermute_b32 / %llu v_mfma = %.3f bpermutes per MFMA on %s",
                      (unsigned long long)T->tot_bp, (unsigned long long)T->tot_mfma,
                      (double)T->tot_bp / (double)T->tot_mfma, T->c->arch_name);
  report_table_note(t, "qk_/pv_bpermute_per_mfma: the same ratio inside the kernel's QK and PV phases (LL_PHASE markers, "
                       "lanelab_device.h). phase_census: the rules prod_phase_check enforces (verify/prod.h): QK has no "
                       "bpermute; PV has per MFMA one ds_read_b64_tr_b16 and no bpermute on gfx950, one ds_read_b64 and "
                       "six ds_bpermute_b32 on gfx942 (docs/changes.md, change 000); QK and PV issue the same MFMAs; every LDS store (ds_write*) runs in the stage "
                       "phase, and it has some.");
}

/* The per-phase census table. */
static report_table *phase_table(const ptally *T) {
  const prod_census *ph = T->ph;
  report_table *tp = report_table_new(
      "dynamic census per phase (emulator; executed wave-instructions summed over this shard's prefill cases)",
      "phase,wave_insns#,ds_bpermute_b32#,v_mfma#,ds_read_b64_tr_b16#,ds_read_b64#,ds_read2_b64#,bpermute_per_mfma#");
  for (int p = 0; p < PROD_NPHASE; p++) {
    char bpm[32];
    report_table_row(tp, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%s", prod_phase_name(p),
                     (unsigned long long)ph[p].insns, (unsigned long long)ph[p].bpermutes,
                     (unsigned long long)ph[p].mfmas, (unsigned long long)ph[p].tr_b16,
                     (unsigned long long)ph[p].ds_read_b64, (unsigned long long)ph[p].ds_read2_b64,
                     per(bpm, sizeof bpm, ph[p].bpermutes, ph[p].mfmas));
  }
  report_table_note(tp, "Phases are marked in kernels/prod/prefill_impl.h with LL_PHASE (s_ttracedata, a no-op unless "
                        "thread trace is on; lanelab_device.h): prologue = before the kv loop (Q fragments), stage = "
                        "barriers + K/V tiles to LDS, qk = K fragments + QK MFMAs, softmax = scale/mask, row max "
                        "shuffles, exp2, rescale, pv = V fragments + PV MFMAs, epilogue = row sum shuffles and stores. "
                        "ds_read2_b64 counts ds_read2_b64 and ds_read2st64_b64 (two 8-byte reads each).");
  char pv[32];
  report_table_note(tp, "docs/changes.md, change 000 claims the V transpose costs bpermutes in PV on gfx942 and none on gfx950: "
                        "%s PV here: %llu ds_bpermute_b32 / %llu MFMA = %s per MFMA; QK: %llu / %llu.",
                    T->c->arch_name, (unsigned long long)ph[PROD_PHASE_PV].bpermutes,
                    (unsigned long long)ph[PROD_PHASE_PV].mfmas,
                    per(pv, sizeof pv, ph[PROD_PHASE_PV].bpermutes, ph[PROD_PHASE_PV].mfmas),
                    (unsigned long long)ph[PROD_PHASE_QK].bpermutes, (unsigned long long)ph[PROD_PHASE_QK].mfmas);
  return tp;
}

static void summarize(const ptally *T, stage_result *r) {
  const prod_census *ph = T->ph;
  const char *rep = T->first_repro[0] ? "; reproduce: " : "";
  if (T->errors)
    stage_set(r, VERDICT_FAIL, "%zu case(s) could not run on %s; first: %s%s%s", T->errors, r->device, T->first_err, rep,
              T->first_repro);
  else if (T->hazard_cases)
    stage_set(r, VERDICT_FAIL, "%zu case(s) have racecheck/initcheck findings; first: %s%s%s", T->hazard_cases,
              T->first_hazard, rep, T->first_repro);
  else if (T->failed)
    stage_set(r, VERDICT_FAIL, "%zu of %zu cases mismatch the oracle; reproduce the first: %s", T->failed, T->ran,
              T->first_repro);
  else if (T->census_bad)
    stage_set(r, VERDICT_FAIL, "%zu case(s) break the phase-census rules; first: %s", T->census_bad, T->first_census);
  else if (T->ref_bad)
    stage_set(r, VERDICT_FAIL, "%zu of %zu out-of-contract launches not refused; first: %s", T->ref_bad, T->nref,
              T->first_ref);
  else if (T->ran == 0)
    stage_set(r, VERDICT_PASS, "no case in this shard");
  else
    stage_set(r, VERDICT_PASS,
              "%zu cases match the oracle; noise floor (max abs err, O's over V's scale) %.3g, atol >= %.3gx it; "
              "phase census (%zu cases): QK %.3g, PV %.3g bpermutes per MFMA; %zu out-of-contract launches refused",
              T->ran, T->worst_noise, T->min_margin, T->census_ok,
              ph[PROD_PHASE_QK].mfmas ? (double)ph[PROD_PHASE_QK].bpermutes / (double)ph[PROD_PHASE_QK].mfmas : 0.0,
              ph[PROD_PHASE_PV].mfmas ? (double)ph[PROD_PHASE_PV].bpermutes / (double)ph[PROD_PHASE_PV].mfmas : 0.0,
              T->c->shard_i == 0 ? T->nref : (size_t)0);
}

void verify_stage_prod(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  prod_set set;
  if (!prod_set_make(c->shapes, c->seed, &set, &err)) {
    stage_set(r, VERDICT_BAD, "%s", err.msg);
    return;
  }
  rt_device *d = prod_open_device(c, &err);
  if (!d) {
    stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "no device for %s: %s", c->arch_name, err.msg);
    prod_set_free(&set);
    return;
  }
  r->device = ll_xstrdup(rt_device_backend(d) == RT_EMU ? "emulator" : "hip");
  ptally T = {.c = c, .set = &set, .device = r->device, .min_margin = INFINITY};
  T.t = report_table_new(
      "prefill attention vs oracle (O float32 and LSE base 2; max over both; noise floor = max abs err)",
      "case,variant,shape,dtype,max_abs#,max_rel#,atol#,rtol#,atol_over_noise#,mismatches#,bpermute_per_mfma#,"
      "qk_bpermute_per_mfma#,pv_bpermute_per_mfma#,wave_insns#,phase_census,verdict,device");
  T.tc = report_table_new("concat_mla_q vs oracle (bit-exact)", "case,dtype,T#,H#,q_nope,elements#,mismatches#,verdict,device");
  verify_source src = prod_source(&set);
  for (size_t k = 0; k < src.n; k++) {
    if (!verify_in_shard(c, k)) continue;
    verify_progress(c, "prod", k + 1, src.n, k < set.n ? set.cases[k].name : set.concat[k - set.n].name);
    if (k < set.n) attn_case(&T, d, &src, k);
    else concat_case(&T, d, &src, k - set.n);
  }
  attn_notes(&T, d);
  stage_add_table(r, T.t);
  stage_add_table(r, phase_table(&T));
  stage_add_table(r, T.tc);
  stage_add_table(r, refusal_table(&T, d));
  if (set.random)
    report_table_note(T.t, "random:%zu --seed 0x%016llx: case k's case seed is the first seed + k*0x9e3779b97f4a7c15 + "
                           "j*0xd1b54a32d192ed03 (j = 0, 1, ...) whose class is k mod %d (random:1: the seed itself; its name is rnd_<case seed>), and "
                           "it is case 0 of --shapes random:1 --seed <its case seed> (docs/verify-matrix.md); sched= is the "
                           "emulator's wave schedule for the case.", set.n + set.nc, (unsigned long long)set.seed,
                      PROD_RANDOM_CLASSES);
  summarize(&T, r);
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
    if (!strcmp(prod_kind_stem(cs[i].kind), stem)) return true;
  prod_concat_matrix(shapes, &n);
  return n > 0 && !strcmp(stem, "concat_mla_q");
}
