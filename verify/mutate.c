/* verify/mutate — source-level mutation testing of the production kernels: the mutants' builds,
 * the gate (the prod matrix's cases through the one case runner, judged by the one mutant rule),
 * the results cache and the report. The mutator itself is verify/mutator.c. Contract:
 * verify/mutate.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "isa/isa.h"
#include "table/table.h"
#include "verify/mutate.h"
#include "verify/prod.h"
#include "verify/verify.h"

/* ---- running --------------------------------------------------------------------------------- */
/* The mutated files: the production sources and the headers they include (lanelab_micro.h is
 * micro-kernel only). */
static const char *const mut_files[] = {
    "kernels/prod/prefill_impl.h", "kernels/prod/prefill_single.hip", "kernels/prod/prefill_ragged.hip",
    "kernels/prod/prefill_paged.hip", "kernels/prod/concat_mla_q.hip", "kernels/include/lanelab_fragments.h",
    "kernels/include/lanelab_device.h"};
#define NFILES (sizeof mut_files / sizeof *mut_files)
static const char *const stems[] = {"prefill_single", "prefill_ragged", "prefill_paged", "concat_mla_q"};
#define NSTEMS 4

/* Which code objects a file reaches (by the kernels' #include graph: the three prefill entries
 * include prefill_impl.h, which includes lanelab_fragments.h, which includes lanelab_device.h;
 * concat_mla_q includes lanelab_device.h). Bit s = stems[s]. */
static unsigned file_stems(const char *f) {
  if (strstr(f, "prefill_single.hip")) return 1;
  if (strstr(f, "prefill_ragged.hip")) return 2;
  if (strstr(f, "prefill_paged.hip")) return 4;
  if (strstr(f, "concat_mla_q.hip")) return 8;
  if (strstr(f, "lanelab_device.h")) return 15;
  return 7; /* prefill_impl.h, lanelab_fragments.h */
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

typedef enum { ST_NOTRUN, ST_KILLED, ST_NARROW, ST_SURVIVED, ST_EQUIV, ST_STILLBORN, ST_ARGUED } mstatus;
static const char *const st_name[] = {"not run", "killed", "narrow", "SURVIVED", "equivalent", "stillborn", "argued"};

typedef struct mres {
  mstatus st[EMU_NARCH];
  char detail[EMU_NARCH][240];
} mres;

/* cache line: "<arch> <status> <detail>" */
static bool cache_read(const char *path, mres *r) {
  ll_err e = {0};
  size_t n;
  char *t = ll_read_file(path, &n, &e);
  if (!t) return false;
  char *save = NULL;
  for (char *ln = strtok_r(t, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
    char arch[16], st[16];
    int used = 0;
    if (sscanf(ln, "%15s %15s %n", arch, st, &used) < 2) continue;
    emu_arch a;
    if (!emu_arch_parse(arch, &a)) continue;
    for (int s = ST_KILLED; s <= ST_STILLBORN; s++)
      if (strcmp(st, st_name[s]) == 0 || (s == ST_SURVIVED && strcmp(st, "survived") == 0)) r->st[a] = (mstatus)s;
    snprintf(r->detail[a], sizeof r->detail[a], "%s", ln + used);
  }
  free(t);
  return true;
}

static bool cache_write(const char *path, const mres *r, const emu_arch *arches, size_t narch, ll_err *err) {
  ll_buf b = {0};
  for (size_t i = 0; i < narch; i++) {
    emu_arch a = arches[i];
    if (r->st[a] == ST_NOTRUN) continue;
    ll_buf_printf(&b, "%s %s %s\n", emu_arch_name(a), r->st[a] == ST_SURVIVED ? "survived" : st_name[r->st[a]],
                  r->detail[a]);
  }
  bool ok = ll_write_file_atomic(path, b.data ? b.data : "", b.len, err);
  ll_buf_free(&b);
  return ok;
}

/* ---- the gate -------------------------------------------------------------------------------- */
typedef struct gcase {
  bool attn;
  prod_case c;
  prod_concat_case cc;
  char name[40];
  int stem;                      /* index into stems[] */
  oracle_attention_spec spec;    /* attn */
  float *ro, *rl;
  bool have_ref;
  double noise[EMU_NARCH];       /* correct kernel's max abs error */
  uint64_t budget[EMU_NARCH];    /* per-wave instruction budget for mutants */
  bool have_noise[EMU_NARCH];
  long nt_stores[EMU_NARCH];     /* concat: correct kernel's global_store_dwordx4:nt */
} gcase;

static int stem_of_case(const prod_case *c) {
  return c->kind == ORACLE_SINGLE ? 0 : c->kind == ORACLE_RAGGED ? 1 : 2;
}

static double gate_work(const gcase *g) {
  if (!g->attn) return (double)(g->cc.T * g->cc.H) / 2048.0;
  double w = 0;
  for (int b = 0; b < g->c.batch; b++)
    w += (double)((g->c.qo_len[b] + 63) / 64) * (double)((g->c.kv_len[b] + 31) / 32 + 1);
  return w * g->c.hq * (g->c.head_dim / 64.0);
}
static int by_work(const void *a, const void *b) {
  double x = gate_work(a), y = gate_work(b);
  return x < y ? -1 : x > y;
}

static gcase *gate_cases(size_t random_n, uint64_t seed, size_t *n) { /* head_dim 64 cases only */
  prod_set q, r;
  ll_err e = {0};
  char rs[32];
  snprintf(rs, sizeof rs, "random:%zu", random_n);
  prod_set_make("quick", 0, &q, &e);
  bool have_r = random_n > 0 && prod_set_make(rs, seed, &r, &e);
  size_t cap = q.n + q.nc + (have_r ? r.n + r.nc : 0);
  gcase *g = ll_xcalloc(cap ? cap : 1, sizeof *g);
  size_t k = 0;
  /* cheapest first inside each set is not known without running; keep the matrix order */
  for (int pass = 0; pass < 2; pass++) {
    prod_set *s = pass == 0 ? &q : &r;
    if (pass == 1 && !have_r) break;
    for (size_t i = 0; i < s->n; i++) {
      if (s->cases[i].head_dim != 64) continue; /* mutant builds instantiate head_dim 64 only */
      g[k].attn = true;
      g[k].c = s->cases[i];
      snprintf(g[k].name, sizeof g[k].name, "%s", s->cases[i].name);
      g[k].c.name = g[k].name;
      g[k].stem = stem_of_case(&g[k].c);
      k++;
    }
    for (size_t i = 0; i < s->nc; i++, k++) {
      g[k].cc = s->concat[i];
      snprintf(g[k].name, sizeof g[k].name, "%s", s->concat[i].name);
      g[k].cc.name = g[k].name;
      g[k].stem = 3;
    }
  }
  prod_set_free(&q);
  if (have_r) prod_set_free(&r);
  *n = k;
  qsort(g, k, sizeof *g, by_work); /* cheapest first: most mutants die on the first case they meet */
  for (size_t i = 0; i < k; i++) g[i].c.name = g[i].cc.name = g[i].name; /* the names moved with qsort */
  return g;
}

static void gate_free(gcase *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (g[i].have_ref) prod_spec_free(&g[i].spec);
    free(g[i].ro);
    free(g[i].rl);
  }
  free(g);
}

static long nt_count(const char *co) {
  ll_err e = {0};
  isa_census *cs = isa_census_file(co, &e);
  if (!cs) return -1;
  const isa_kernel_census *k = isa_census_kernel(cs, "concat_mla_q");
  long v = k ? isa_census_value(k, "global_store_dwordx4:nt") : -1;
  isa_census_free(cs);
  return v;
}

/* The correct kernel's run of case g on arch: oracle reference, noise floor, budget. */
static bool gate_prepare(rt_device *d, const char *build, emu_arch a, gcase *g, ll_err *err) {
  if (g->have_noise[a]) return true;
  if (!g->attn) {
    char *co = prod_co_path(build, a, "concat_mla_q");
    prod_concat_result r;
    int rc = prod_concat_run(d, build, &g->cc, co, &r, err);
    g->nt_stores[a] = nt_count(co);
    free(co);
    if (rc != LL_EXIT_OK) return false;
    if (g->cc.T == 0 ? !r.t0_untouched : r.mismatches != 0) {
      ll_seterr(err, LL_EXIT_FAIL, "the correct concat_mla_q fails gate case %s on %s", g->name, emu_arch_name(a));
      return false;
    }
    g->have_noise[a] = true;
    return true;
  }
  if (!g->have_ref) {
    if (!prod_case_spec(&g->c, &g->spec, err)) return false;
    size_t no = (size_t)oracle_attention_q_elems(&g->spec);
    size_t nl = (size_t)oracle_attention_total_q(&g->spec) * (size_t)g->spec.num_qo_heads;
    g->ro = ll_xcalloc(no ? no : 1, sizeof(float));
    g->rl = ll_xcalloc(nl ? nl : 1, sizeof(float));
    g->have_ref = true;
    if (!oracle_attention_run(&g->spec, g->ro, g->rl, NULL, err)) return false;
  }
  prod_result r;
  prod_run_opts o = {0};
  int rc = prod_case_run_ref(d, build, &g->c, &o, &g->spec, g->ro, g->rl, &r, err);
  if (rc != LL_EXIT_OK) return false;
  if (!r.pass) {
    ll_seterr(err, LL_EXIT_FAIL, "the correct kernel fails gate case %s on %s", g->name, emu_arch_name(a));
    return false;
  }
  g->noise[a] = r.max_abs;
  /* a mutant that loops stops with a budget fault: no wave of the correct kernel runs more than
   * all of them together */
  g->budget[a] = 2 * r.wave_insns + 200000;
  g->have_noise[a] = true;
  return true;
}

/* One gate case of the mutant, judged by the one mutant rule (verify.h) against the correct
 * kernel's run (gate_prepare): the mutant runs under racecheck and initcheck with an instruction
 * budget; the phase census (prefill) and the non-temporal store count (concat_mla_q) are its
 * structural guards. */
static mut_judgement gate_case(rt_device *d, const char *build, emu_arch a, gcase *g, const char *co) {
  mut_run cr = {.rc = LL_EXIT_OK, .launched = true, .pass = true, .max_abs = g->attn ? g->noise[a] : 0};
  mut_run mr = {0};
  ll_err e = {0};
  char why[300] = "";
  if (!g->attn) {
    prod_concat_result r;
    mr.rc = prod_concat_run(d, build, &g->cc, co, &r, &e);
    long nt = nt_count(co);
    mr.launched = r.launched;
    mr.pass = g->cc.T == 0 ? r.t0_untouched : r.mismatches == 0;
    mr.mismatches = g->cc.T == 0 ? !r.t0_untouched : r.mismatches;
    if (nt != g->nt_stores[a]) {
      snprintf(why, sizeof why, "%ld global_store_dwordx4:nt (correct: %ld)", nt, g->nt_stores[a]);
      mr.guard = "ISA guard";
    }
    mr.msg = mr.guard ? why : e.msg;
    if (mr.rc == LL_EXIT_OK && !mr.pass) snprintf(why, sizeof why, "%zu of %zu elements differ (bit-exact)", r.mismatches, r.n);
  } else {
    prod_result r;
    prod_run_opts o = {.co_path = co, .insn_budget = g->budget[a], .racecheck = true, .initcheck = true};
    mr.rc = prod_case_run_ref(d, build, &g->c, &o, &g->spec, g->ro, g->rl, &r, &e);
    mr.launched = r.launched;
    mr.unimplemented = mr.rc != LL_EXIT_OK && strstr(e.msg, "lacks semantics");
    mr.pass = r.pass;
    mr.max_abs = r.max_abs;
    mr.mismatches = r.o.mismatches + r.lse.mismatches;
    mr.nonfinite = r.o.nonfinite_mismatches + r.lse.nonfinite_mismatches;
    mr.hazards = r.hazards;
    mr.msg = r.hazards ? r.hazard : e.msg;
    if (mr.rc == LL_EXIT_OK && r.have_stats && !prod_phase_check(a, &r, why, sizeof why)) {
      mr.guard = "phase census";
      if (!r.hazards) mr.msg = why;
    }
  }
  mut_judgement j;
  verify_mutant_judge(&cr, &mr, &j);
  /* the detail lanelab mutate caches: the case, then what caught it */
  char det[600];
  if (j.v == MUT_CAUGHT && !strcmp(j.check, "outputs") && !g->attn) snprintf(det, sizeof det, "%s: %s", g->name, why);
  else if (j.v == MUT_CAUGHT && !strcmp(j.check, "outputs"))
    snprintf(det, sizeof det, "%s: %llu mismatches, max abs err %.3g = %.3gx noise floor%s", g->name,
             (unsigned long long)mr.mismatches, mr.max_abs, mr.max_abs / (g->noise[a] > 1e-30 ? g->noise[a] : 1e-30),
             mr.nonfinite ? " (non-finite)" : "");
  else if (j.v == MUT_CAUGHT && !strcmp(j.check, "checks")) snprintf(det, sizeof det, "%s: racecheck/initcheck: %.180s", g->name, mr.msg);
  else if (j.v == MUT_CAUGHT && mr.guard && !strcmp(j.check, mr.guard))
    snprintf(det, sizeof det, "%s: %s: %.180s", g->name, mr.guard, why);
  else if (j.v == MUT_CAUGHT && !g->attn) snprintf(det, sizeof det, "%s: run failed: %.160s", g->name, e.msg);
  else if (j.v == MUT_CAUGHT) snprintf(det, sizeof det, "%s: %s: %.170s", g->name, j.check, e.msg);
  else if (j.v == MUT_ERROR) snprintf(det, sizeof det, "%s: the mutant could not be judged: %.170s", g->name, e.msg);
  else snprintf(det, sizeof det, "%s", g->name);
  snprintf(j.why, sizeof j.why, "%s", det);
  if (g->attn && j.v == MUT_NARROW) j.ratio = mr.max_abs / (g->noise[a] > 1e-30 ? g->noise[a] : 1e-30);
  return j;
}

/* Runs the gate on arch for a mutant whose changed code objects are in dir (stems bitmask): the
 * first case that catches it kills it; else the best narrow catch makes it narrow; else it
 * survived. Fills st/detail. */
static void gate_run(rt_device *d, const char *build, emu_arch a, gcase *g, size_t ng, const char *dir,
                     unsigned changed, mstatus *st, char *detail, size_t dn) {
  double best_narrow = 0;
  char narrow_case[48] = "";
  size_t ran = 0;
  for (size_t i = 0; i < ng; i++) {
    if (!(changed & (1u << g[i].stem))) continue;
    ll_err e = {0};
    if (!gate_prepare(d, build, a, &g[i], &e)) {
      *st = ST_NOTRUN;
      snprintf(detail, dn, "gate case %s could not run with the correct kernel: %.150s", g[i].name, e.msg);
      return;
    }
    ran++;
    char *co = ll_fmt("%s/%s.co", dir, stems[g[i].stem]);
    mut_judgement j = gate_case(d, build, a, &g[i], co);
    free(co);
    if (j.v == MUT_CAUGHT || j.v == MUT_ERROR) {
      *st = j.v == MUT_CAUGHT ? ST_KILLED : ST_NOTRUN;
      snprintf(detail, dn, "%s", j.why);
      return;
    }
    if (j.v == MUT_NARROW && j.ratio > best_narrow) {
      best_narrow = j.ratio;
      snprintf(narrow_case, sizeof narrow_case, "%s", g[i].name);
    }
  }
  /* the launch contract (verify/prod.h prod_refusals): a mutant that runs an out-of-contract
   * launch instead of refusing it with s_trap is killed */
  size_t nref = 0;
  const prod_refusal *rf = prod_refusals(&nref);
  for (size_t i = 0; i < nref; i++) {
    if (!(changed & (1u << rf[i].stem))) continue;
    char *co = ll_fmt("%s/%s.co", dir, stems[rf[i].stem]), why[400];
    int rc = prod_refusal_run(d, build, &rf[i], co, why, sizeof why);
    free(co);
    if (rc == LL_EXIT_FAIL) {
      *st = ST_KILLED;
      snprintf(detail, dn, "launch contract: %.220s", why);
      return;
    }
  }
  if (best_narrow > 0) {
    *st = ST_NARROW;
    snprintf(detail, dn, "caught only narrowly: best %.3gx the noise floor (%s); %zu gate cases", best_narrow,
             narrow_case, ran);
  } else {
    *st = ST_SURVIVED;
    snprintf(detail, dn, "passed all %zu gate cases of the changed code objects", ran);
  }
}

/* ---- builds ----------------------------------------------------------------------------------
 * Through lanelab's one compiler driver (isa_cc_build_dir, as make builds the kernels), with the
 * work tree's kernels/include first on the include path: the mutated headers are the ones used. */
static bool copy_file(const char *from, const char *to, ll_err *err) {
  size_t n;
  char *t = ll_read_file(from, &n, err);
  if (!t) return false;
  bool ok = ll_write_file_atomic(to, t, n, err);
  free(t);
  return ok;
}

/* Builds SUB/NAME.hip of the work tree for arch into WORK/DIR/ARCH. 1: NAME.co built, 0: the
 * source is not for this arch (NAME.skip), -1: it does not compile. */
static int build_in_work(const char *work, const char *sub, const char *name, const char *dir, emu_arch a,
                         const char *define) {
  const char *an = emu_arch_name(a);
  char *src = ll_fmt("%s/%s/%s.hip", work, sub, name), *odir = ll_fmt("%s/%s/%s", work, dir, an);
  char *co = ll_fmt("%s/%s.co", odir, name), *inc = ll_fmt("-I%s/kernels/include", work);
  char *extra[] = {inc, (char *)define, NULL};
  remove(co);
  ll_err e = {0};
  char *skipped = NULL;
  bool ok = isa_cc_build_dir(src, an, odir, extra, NULL, &skipped, &e);
  struct stat sb;
  int r = !ok ? -1 : skipped ? 0 : stat(co, &sb) == 0 ? 1 : -1;
  free(skipped); free(src); free(odir); free(co); free(inc);
  return r;
}

/* Builds stem for arch in the work tree into WORK/DIR/ARCH/STEM.co (prefill: head_dim 64 only,
 * LANELAB_PREFILL_D64_ONLY). Returns the path (malloc'd) or NULL when it does not compile. */
static char *build_stem(const char *work, const char *dir, emu_arch a, int s) {
  if (build_in_work(work, "kernels/prod", stems[s], dir, a, s < 3 ? "-DLANELAB_PREFILL_D64_ONLY" : NULL) != 1) return NULL;
  return ll_fmt("%s/%s/%s/%s.co", work, dir, emu_arch_name(a), stems[s]);
}

/* ---- the lanes gate of the headers ------------------------------------------------------------
 * lanelab_device.h and lanelab_fragments.h are also the micro-kernels' headers, and their contract
 * there is the lane map: what every lane holds and which address it reads, which the lanes stage
 * checks against the lanes model (verify/stage_lanes.c, an independent formula). A header mutant
 * that survives the production gate is therefore also run through that stage on the micro-kernels
 * it reaches (every one the lanes stage runs includes lanelab_device.h through lanelab_micro.h;
 * those that #include "lanelab_fragments.h" reach that header). A swizzle change, for example,
 * moves LDS addresses consistently for the production kernel's stores and loads (its output is
 * unchanged) but breaks the lane map the micro-kernels publish. */
typedef struct micro_k {
  char *name;
  bool fragments; /* includes lanelab_fragments.h */
} micro_k;

static micro_k *micro_list(const char *root, size_t *n, ll_err *err) {
  *n = 0;
  char *dir = ll_fmt("%s/kernels/micro", root);
  DIR *d = opendir(dir);
  if (!d) {
    ll_seterr(err, LL_EXIT_ENV, "%s: %s", dir, strerror(errno));
    free(dir);
    return NULL;
  }
  micro_k *v = NULL;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".hip")) continue;
    char *name = ll_xstrdup(e->d_name);
    name[len - 4] = 0;
    if (!verify_lanes_runs(name)) { free(name); continue; }
    char *p = ll_fmt("%s/%s", dir, e->d_name);
    size_t tn;
    char *t = ll_read_file(p, &tn, err);
    free(p);
    if (!t) { free(name); goto fail; }
    v = realloc(v, (*n + 1) * sizeof *v);
    v[*n] = (micro_k){name, strstr(t, "#include \"lanelab_fragments.h\"") != NULL};
    (*n)++;
    free(t);
  }
  closedir(d);
  free(dir);
  return v ? v : ll_xcalloc(1, sizeof *v);
fail:
  closedir(d);
  free(dir);
  for (size_t i = 0; i < *n; i++) free(v[i].name);
  free(v);
  return NULL;
}

/* Builds micro-kernel NAME for arch into WORK/DIR/ARCH. 1: NAME.co built, 0: the source is not for
 * this arch (NAME.skip), -1: it does not compile. */
static int build_micro(const char *work, const char *dir, emu_arch a, const char *name) {
  return build_in_work(work, "kernels/micro", name, dir, a, NULL);
}

/* The lanes gate of a header mutant on arch (micro-kernels already copied to the work tree).
 * Rebuilds the micro-kernels the file reaches into WORK/micro-out/ARCH; the lanes stage then runs
 * on WORK/lanes/ARCH/kernels, the correct builds (WORK/micro-base) with the changed ones swapped
 * in. *changed is set when any micro-kernel's .text differs. */
static void lanes_gate(const char *work, emu_arch a, const micro_k *mk, size_t nmk,
                       bool base_only, bool fragments_only, bool *changed,
                       mstatus *st, char *detail, size_t dn) {
  const char *an = emu_arch_name(a);
  *changed = false;
  *st = ST_SURVIVED;
  char *kdir = ll_fmt("%s/lanes/%s/kernels", work, an), *res = ll_fmt("%s/lanes-results/%s", work, an);
  ll_err e = {0};
  if (!ll_mkdir_p(kdir, &e)) {
    *st = ST_NOTRUN;
    snprintf(detail, dn, "lanes gate: %.200s", e.msg);
    goto out;
  }
  for (size_t i = 0; i < nmk; i++) {
    char *base = ll_fmt("%s/micro-base/%s/%s.co", work, an, mk[i].name), *dst = ll_fmt("%s/%s.co", kdir, mk[i].name);
    struct stat sb;
    remove(dst);
    bool have = stat(base, &sb) == 0; /* no .co: not built for this arch (.skip) */
    if (have && !base_only && (!fragments_only || mk[i].fragments)) {
      int b = build_micro(work, "micro-out", a, mk[i].name);
      if (b < 0) {
        *st = ST_STILLBORN;
        snprintf(detail, dn, "micro-kernel %s.hip does not compile for %s", mk[i].name, an);
        free(base);
        free(dst);
        goto out;
      }
      char *co = ll_fmt("%s/micro-out/%s/%s.co", work, an, mk[i].name);
      isa_diff_result dr;
      ll_err de = {0};
      bool differs = b == 1 && (!isa_diff_files(co, base, &dr, NULL, &de) || !dr.text_identical);
      if (differs) *changed = true;
      if (have && !copy_file(differs ? co : base, dst, &e)) {
        *st = ST_NOTRUN;
        snprintf(detail, dn, "lanes gate: %.200s", e.msg);
        free(co);
        free(base);
        free(dst);
        goto out;
      }
      free(co);
    } else if (have && !copy_file(base, dst, &e)) {
      *st = ST_NOTRUN;
      snprintf(detail, dn, "lanes gate: %.200s", e.msg);
      free(base);
      free(dst);
      goto out;
    }
    free(base);
    free(dst);
  }
  if (base_only) *changed = true; /* the correct builds: the stage must pass on them */
  if (!*changed) goto out;
  char *bdir = ll_fmt("%s/lanes", work);
  verify_ctx c = {.arch = a, .arch_name = an, .build = bdir, .results = res, .shapes = "quick", .backend = "emu",
                  .shard_n = 1, .t0 = ll_now()};
  bool q = verify_quiet;
  verify_quiet = true;
  stage_result r = {.v = VERDICT_NOT_RUN};
  verify_stage_lanes(&c, &r);
  verify_quiet = q;
  if (r.v == VERDICT_FAIL) {
    *st = ST_KILLED;
    snprintf(detail, dn, "lane map (lanes stage on the micro-kernels): %.180s", r.summary);
  } else if (r.v != VERDICT_PASS) {
    *st = ST_NOTRUN;
    snprintf(detail, dn, "lanes gate did not run: %.190s", r.summary);
  } else {
    snprintf(detail, dn, "the micro-kernels' lane maps match the model");
  }
  for (size_t k = 0; k < r.ntables; k++) report_table_free(r.tables[k]);
  free(r.tables);
  free(r.device);
  free(bdir);
out:
  free(kdir);
  free(res);
}

/* ---- the report ------------------------------------------------------------------------------ */
typedef struct argued {
  char *file, *desc, *line, *why;
} argued;

/* kernels/mutants-equivalent.txt: "FILE | CHANGE | SOURCE LINE (trimmed) | WHY" per line. */
static argued *read_argued(const char *root, size_t *n) {
  char *p = ll_fmt("%s/kernels/mutants-equivalent.txt", root);
  ll_err e = {0};
  size_t len;
  char *t = ll_read_file(p, &len, &e);
  free(p);
  *n = 0;
  if (!t) return NULL;
  argued *v = NULL;
  char *save = NULL;
  for (char *ln = strtok_r(t, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
    if (ln[0] == '#' || !strchr(ln, '|')) continue;
    char *f[4] = {0};
    int k = 0;
    for (char *s = ln; k < 4; k++) {
      char *bar = k < 3 ? strstr(s, " | ") : NULL;
      if (bar) *bar = 0;
      while (*s == ' ') s++;
      f[k] = s;
      if (!bar) break;
      s = bar + 3;
    }
    if (k < 3) continue;
    v = ll_xrealloc(v, (*n + 1) * sizeof *v);
    v[*n] = (argued){ll_xstrdup(f[0]), ll_xstrdup(f[1]), ll_xstrdup(f[2]), ll_xstrdup(f[3])};
    (*n)++;
  }
  free(t);
  return v;
}

static const argued *find_argued(const argued *v, size_t n, const mutate_site *m) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v[i].file, m->file) && !strcmp(v[i].desc, m->desc) && !strcmp(v[i].line, m->src_line)) return &v[i];
  return NULL;
}

typedef struct tally {
  char key[96];
  size_t k, s, nar, eq, sb, arg, nr;
} tally;

static tally *tally_get(tally **v, size_t *n, const char *key) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*v)[i].key, key)) return &(*v)[i];
  *v = ll_xrealloc(*v, (*n + 1) * sizeof **v);
  memset(&(*v)[*n], 0, sizeof **v);
  snprintf((*v)[*n].key, sizeof (*v)[*n].key, "%s", key);
  return &(*v)[(*n)++];
}

static void tally_add(tally *t, mstatus s) {
  switch (s) {
    case ST_KILLED: t->k++; break;
    case ST_NARROW: t->nar++; break;
    case ST_SURVIVED: t->s++; break;
    case ST_EQUIV: t->eq++; break;
    case ST_STILLBORN: t->sb++; break;
    case ST_ARGUED: t->arg++; break;
    default: t->nr++;
  }
}

/* killed / (killed + survived + narrow) in percent; NAN when nothing is scored (no mutant of the
 * row has run, or every one is equivalent or stillborn): such a row has no score, not 100%. */
static double score(const tally *t) {
  size_t d = t->k + t->s + t->nar;
  return d ? 100.0 * (double)t->k / (double)d : NAN;
}

static void tally_rows(report_table *tb, const char *arch, tally *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double sc = score(&v[i]);
    char sbuf[16];
    if (isnan(sc)) snprintf(sbuf, sizeof sbuf, "-");
    else snprintf(sbuf, sizeof sbuf, "%.1f", sc);
    report_table_row(tb, "%s\t%s\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t%s", arch, v[i].key, v[i].k, v[i].s, v[i].nar,
                     v[i].eq, v[i].arg, v[i].sb, v[i].nr, sbuf);
  }
}

/* ---- the run ----------------------------------------------------------------------------------- */
typedef struct mrun {
  const mutate_opts *o;
  mutate_site *sites;
  size_t nsites, inshard;
  char *texts[NFILES];
  size_t lens[NFILES];
  char *mdir, *rdir, *work;
  rt_device *dev[EMU_NARCH];
  gcase *g;                 /* the gate's cases */
  size_t ng;
  micro_k *mk;              /* the micro-kernels of the headers' lanes gate */
  size_t nmk;
  mres *res;                /* [nsites] */
  argued *arg;
  size_t argued_n;
} mrun;

static void mrun_free(mrun *M) {
  for (size_t i = 0; i < M->argued_n; i++) { free(M->arg[i].file); free(M->arg[i].desc); free(M->arg[i].line); free(M->arg[i].why); }
  free(M->arg);
  for (int a = 0; a < EMU_NARCH; a++) if (M->dev[a]) rt_close(M->dev[a]);
  if (M->g) gate_free(M->g, M->ng);
  for (size_t i = 0; i < M->nmk; i++) free(M->mk[i].name);
  free(M->mk);
  free(M->res);
  free(M->mdir); free(M->rdir); free(M->work);
  mutate_sites_free(M->sites, M->nsites);
  for (size_t f = 0; f < NFILES; f++) free(M->texts[f]);
}

/* 1. Every mutant of the mutated files (or of --file), checked against --file and --only. */
static bool enumerate(mrun *M, ll_err *err) {
  const mutate_opts *o = M->o;
  for (size_t f = 0; f < NFILES; f++) {
    if (o->only_file && strcmp(o->only_file, mut_files[f])) continue;
    char *p = ll_fmt("%s/%s", o->root, mut_files[f]);
    M->texts[f] = ll_read_file(p, &M->lens[f], err);
    free(p);
    if (!M->texts[f]) return false;
    mutate_scan(mut_files[f], M->texts[f], M->lens[f], &M->sites, &M->nsites);
  }
  if (o->only_file && M->nsites == 0) {
    bool known = false;
    for (size_t f = 0; f < NFILES; f++) known |= !strcmp(o->only_file, mut_files[f]);
    if (!known) {
      ll_seterr(err, LL_EXIT_USAGE, "--file %s is not one of the mutated files (kernels/prod/*, "
                "kernels/include/lanelab_{device,fragments}.h)", o->only_file);
      return false;
    }
  }
  if (o->only && o->nonly > M->nsites) {
    ll_seterr(err, LL_EXIT_USAGE, "--only %zu: there are %zu mutants%s%s (indices 0..%zu, as --list prints them)",
              o->nonly - 1, M->nsites, o->only_file ? " in " : "", o->only_file ? o->only_file : "",
              M->nsites ? M->nsites - 1 : 0);
    return false;
  }
  return true;
}

static void list_sites(const mrun *M) {
  const mutate_opts *o = M->o;
  for (size_t i = 0; i < M->nsites; i++)
    if (o->shard_n <= 1 || i % o->shard_n == o->shard_i)
      printf("%zu\t%s:%d:%d\t%s\t%s\t%s\n", i, M->sites[i].file, M->sites[i].line, M->sites[i].col, M->sites[i].func,
             M->sites[i].op, M->sites[i].desc);
  fprintf(stderr, "lanelab: mutate: %zu mutants\n", M->nsites);
}

/* 2a. The work tree (a copy of the mutated files), a device per arch, the correct code objects built
 * the way the mutants are (the .text they are compared with), and the gate's cases. */
static bool prepare_work(mrun *M, ll_err *err) {
  const mutate_opts *o = M->o;
  char *kp = ll_fmt("%s/kernels/prod", M->work), *ki = ll_fmt("%s/kernels/include", M->work);
  bool ok = ll_mkdir_p(M->rdir, err) && ll_mkdir_p(kp, err) && ll_mkdir_p(ki, err);
  free(kp);
  free(ki);
  if (!ok || o->report_only) return ok;
  for (size_t f = 0; f < NFILES; f++) {
    char *src = ll_fmt("%s/%s", o->root, mut_files[f]), *dst = ll_fmt("%s/%s", M->work, mut_files[f]);
    ok = copy_file(src, dst, err);
    free(src);
    free(dst);
    if (!ok) return false;
  }
  for (size_t i = 0; i < o->narch; i++) {
    emu_arch a = o->arches[i];
    if (!(M->dev[a] = rt_open(RT_EMU, a, err))) return false;
    for (int s = 0; s < NSTEMS; s++) {
      char *co = build_stem(M->work, "base", a, s);
      if (!co) {
        ll_seterr(err, LL_EXIT_ENV, "the correct %s.hip does not build for %s in %s", stems[s], emu_arch_name(a), M->work);
        return false;
      }
      free(co);
    }
  }
  M->g = gate_cases(o->random_n, o->seed, &M->ng);
  return true;
}

/* 2b. The headers' lanes gate: micro-kernel sources and their correct builds in the work tree,
 * which must pass the lanes stage as they are. */
static bool prepare_lanes_gate(mrun *M, ll_err *err) {
  const mutate_opts *o = M->o;
  if (o->report_only || (o->only_file && !strstr(o->only_file, "kernels/include/"))) return true;
  if (!(M->mk = micro_list(o->root, &M->nmk, err))) return false;
  char *md = ll_fmt("%s/kernels/micro", M->work);
  bool c = ll_mkdir_p(md, err);
  free(md);
  for (size_t i = 0; c && i <= M->nmk; i++) {
    char *r2 = i < M->nmk ? ll_fmt("kernels/micro/%s.hip", M->mk[i].name) : ll_xstrdup("kernels/include/lanelab_micro.h");
    char *src = ll_fmt("%s/%s", o->root, r2), *dst = ll_fmt("%s/%s", M->work, r2);
    c = copy_file(src, dst, err);
    free(src);
    free(dst);
    free(r2);
  }
  for (size_t ai = 0; c && ai < o->narch; ai++)
    for (size_t i = 0; c && i < M->nmk; i++)
      if (build_micro(M->work, "micro-base", o->arches[ai], M->mk[i].name) < 0) {
        ll_seterr(err, LL_EXIT_ENV, "the correct micro-kernel %s.hip does not build for %s in %s", M->mk[i].name,
                  emu_arch_name(o->arches[ai]), M->work);
        c = false;
      }
  for (size_t ai = 0; c && ai < o->narch; ai++) { /* as gate_prepare: the correct builds must pass */
    bool ch;
    mstatus ls;
    char ldet[240];
    lanes_gate(M->work, o->arches[ai], M->mk, M->nmk, true, false, &ch, &ls, ldet, sizeof ldet);
    if (ls != ST_SURVIVED) {
      ll_seterr(err, LL_EXIT_ENV, "the correct micro-kernels do not pass the lanes gate on %s: %s",
                emu_arch_name(o->arches[ai]), ldet);
      c = false;
    }
  }
  return c;
}

/* One mutant (its mutated file in the work tree) on one arch: code object by code object, build,
 * compare .text, run its gate cases; the first kill ends it (the other code objects need not be
 * built), equivalence needs them all; a header mutant the production gate does not kill also runs
 * the lanes gate. */
static mstatus judge_on_arch(mrun *M, const mutate_site *m, emu_arch a, char *best_detail, size_t dn) {
  const char *an = emu_arch_name(a);
  char *odir = ll_fmt("%s/out/%s", M->work, an);
  unsigned reach = file_stems(m->file);
  mstatus best = ST_EQUIV;
  best_detail[0] = 0;
  for (int s = 0; s < NSTEMS; s++) {
    if (!(reach & (1u << s))) continue;
    char *co = build_stem(M->work, "out", a, s);
    if (!co) {
      best = ST_STILLBORN;
      snprintf(best_detail, dn, "%s.hip does not compile for %s", stems[s], an);
      break;
    }
    char *orig = ll_fmt("%s/base/%s/%s.co", M->work, an, stems[s]);
    ll_err de = {0};
    bool applies = true;
    bool changed = !verify_mutant_applies(co, orig, &applies, &de) || applies; /* rule 1 of the mutant rule */
    free(orig);
    free(co);
    if (!changed) continue;
    mstatus st;
    char det[240];
    gate_run(M->dev[a], M->o->build, a, M->g, M->ng, odir, 1u << s, &st, det, sizeof det);
    /* rank: killed > not run > narrow > survived > equivalent */
    static const int rank[] = {[ST_EQUIV] = 0, [ST_SURVIVED] = 1, [ST_NARROW] = 2, [ST_NOTRUN] = 3, [ST_KILLED] = 4};
    if (rank[st] > rank[best] || best == ST_EQUIV) {
      best = st;
      snprintf(best_detail, dn, "%s", det);
    }
    if (st == ST_KILLED) break;
  }
  bool header = strstr(m->file, "kernels/include/") != NULL;
  if (header && M->mk && best != ST_KILLED && best != ST_STILLBORN) {
    bool mchanged;
    mstatus ls;
    char ldet[240];
    lanes_gate(M->work, a, M->mk, M->nmk, false, strstr(m->file, "lanelab_fragments.h") != NULL, &mchanged, &ls, ldet,
               sizeof ldet);
    if (ls == ST_KILLED || ls == ST_NOTRUN || (ls == ST_STILLBORN && best == ST_EQUIV)) {
      best = ls;
      snprintf(best_detail, dn, "%s", ldet);
    } else if (mchanged && best == ST_EQUIV) {
      best = ST_SURVIVED;
      snprintf(best_detail, dn, "production .text unchanged; %s", ldet);
    } else if (mchanged && best != ST_STILLBORN) {
      size_t bl = strlen(best_detail);
      snprintf(best_detail + bl, dn - bl, "; %s", ldet);
    }
  }
  if (best == ST_EQUIV) snprintf(best_detail, dn, ".text byte-identical to the correct code objects");
  free(odir);
  return best;
}

/* 2c. Mutant i: from the cache, or (unless cache_only) built and judged on every arch (then
 * cached). false only when the mutated file cannot be written into the work tree. */
static bool run_mutant(mrun *M, size_t i, bool cache_only, size_t *ran_now, double t0, ll_err *err) {
  const mutate_opts *o = M->o;
  const mutate_site *m = &M->sites[i];
  size_t f = 0;
  while (strcmp(mut_files[f], m->file)) f++;
  size_t mlen;
  char *mt = mutate_apply(M->texts[f], M->lens[f], m, &mlen);
  uint64_t key = fnv(fnv(0xcbf29ce484222325ull, m->file, strlen(m->file)), mt, mlen);
  if (strstr(m->file, "kernels/include/")) key = fnv(key, "lanes-gate-1", 12); /* results from before the lanes gate are stale */
  char *cpath = ll_fmt("%s/%016llx.txt", M->rdir, (unsigned long long)key);
  bool cached = cache_read(cpath, &M->res[i]);
  for (size_t ai = 0; ai < o->narch && cached; ai++) {
    mstatus cs = M->res[i].st[o->arches[ai]];
    cached = cs != ST_NOTRUN && !(o->retry && (cs == ST_SURVIVED || cs == ST_NARROW));
  }
  bool ok = true;
  if (!cached && !cache_only && !(o->max && *ran_now >= o->max)) {
    (*ran_now)++;
    char *dst = ll_fmt("%s/%s", M->work, m->file);
    ok = ll_write_file_atomic(dst, mt, mlen, err);
    for (size_t ai = 0; ok && ai < o->narch; ai++) {
      emu_arch a = o->arches[ai];
      M->res[i].st[a] = judge_on_arch(M, m, a, M->res[i].detail[a], sizeof M->res[i].detail[a]);
    }
    ll_err we = {0};
    if (ok) ll_write_file_atomic(dst, M->texts[f], M->lens[f], &we); /* restore the original file in the work tree */
    if (ok && !cache_write(cpath, &M->res[i], o->arches, o->narch, &we)) ll_report(&we);
    if (ok) {
      fprintf(stderr, "[mutate %zu/%zu %.0fs] %s:%d %s: ", i, M->nsites, ll_now() - t0, m->file, m->line, m->desc);
      for (size_t ai = 0; ai < o->narch; ai++)
        fprintf(stderr, "%s%s %s", ai ? ", " : "", emu_arch_name(o->arches[ai]), st_name[M->res[i].st[o->arches[ai]]]);
      for (size_t ai = 0; ai < o->narch; ai++) /* why a mutant could not be judged: it is not cached */
        if (M->res[i].st[o->arches[ai]] == ST_NOTRUN)
          fprintf(stderr, "\n  %s not run: %s", emu_arch_name(o->arches[ai]), M->res[i].detail[o->arches[ai]]);
      fputc('\n', stderr);
    }
    free(dst);
  }
  free(mt);
  free(cpath);
  return ok;
}

/* 3. The report: score per arch, file and function; survivors and narrow kills; argued ones. */
static int report(mrun *M) {
  const mutate_opts *o = M->o;
  ll_buf md = {0};
  ll_buf_printf(&md, "<!-- generated by lanelab mutate; do not edit -->\n# Mutation testing of the production kernels\n\n"
                     "%zu mutants over %zu files (this shard: %zu); gate: quick matrix + random:%zu --seed %llu.\n\n",
                M->nsites, NFILES, M->inshard, o->random_n, (unsigned long long)o->seed);
  report_table *tf = report_table_new("mutation score per file (score = killed / (killed + survived + narrow))",
                                      "arch,file,killed#,survived#,narrow#,equivalent#,argued#,stillborn#,not_run#,score#");
  report_table *tfn = report_table_new("mutation score per function",
                                       "arch,function,killed#,survived#,narrow#,equivalent#,argued#,stillborn#,not_run#,score#");
  report_table *tsv = report_table_new("survivors, narrow kills and mutants not run (gaps), by file, line and change",
                                       "arch,where,function,change,status,detail");
  report_table *ta = report_table_new("argued equivalent (kernels/mutants-equivalent.txt)", "arch,where,change,why");
  bool all_ok = true;
  for (size_t ai = 0; ai < o->narch; ai++) {
    emu_arch a = o->arches[ai];
    const char *an = emu_arch_name(a);
    tally *tfiles = NULL, *tfuncs = NULL, total = {.key = "(all)"};
    size_t nf = 0, nfn = 0;
    for (size_t i = 0; i < M->nsites; i++) {
      if (o->shard_n > 1 && i % o->shard_n != o->shard_i) continue;
      const mutate_site *m = &M->sites[i];
      mstatus s = M->res[i].st[a];
      const argued *ar = NULL;
      if ((s == ST_SURVIVED || s == ST_NARROW) && (ar = find_argued(M->arg, M->argued_n, m))) {
        s = ST_ARGUED;
        report_table_row(ta, "%s\t%s:%d\t%s\t%s", an, m->file, m->line, m->desc, ar->why);
      }
      char fk[96];
      snprintf(fk, sizeof fk, "%s", m->file);
      tally_add(tally_get(&tfiles, &nf, fk), s);
      snprintf(fk, sizeof fk, "%s %s", strrchr(m->file, '/') + 1, m->func);
      tally_add(tally_get(&tfuncs, &nfn, fk), s);
      tally_add(&total, s);
      if (s == ST_SURVIVED || s == ST_NARROW || (s == ST_NOTRUN && M->res[i].detail[a][0]))
        report_table_row(tsv, "%s\t%s:%d:%d\t%s\t%s\t%s\t%s", an, m->file, m->line, m->col, m->func, m->desc,
                         st_name[s], M->res[i].detail[a]);
    }
    tally_rows(tf, an, tfiles, nf);
    tally_rows(tf, an, &total, 1);
    tally_rows(tfn, an, tfuncs, nfn);
    double sc = score(&total);
    char sbuf[24];
    if (isnan(sc)) snprintf(sbuf, sizeof sbuf, "- (nothing scored)");
    else snprintf(sbuf, sizeof sbuf, "%.1f%%", sc);
    ll_buf_printf(&md, "- **%s**: score %s (%zu killed of %zu non-equivalent: %zu survived, %zu narrow); "
                       "%zu equivalent by .text identity, %zu argued equivalent, %zu stillborn, %zu not run\n",
                  an, sbuf, total.k, total.k + total.s + total.nar, total.s, total.nar, total.eq, total.arg, total.sb,
                  total.nr);
    printf("mutate %s: score %s (%zu killed / %zu non-equivalent; %zu survived, %zu narrow; %zu equivalent "
           "(.text), %zu argued, %zu stillborn, %zu not run)\n",
           an, sbuf, total.k, total.k + total.s + total.nar, total.s, total.nar, total.eq, total.arg, total.sb, total.nr);
    if (isnan(sc) || sc < 98.0 || total.nr) all_ok = false;
    free(tfiles);
    free(tfuncs);
  }
  report_table_note(tsv, "narrow = the mutant fails the oracle comparison but below 100x the correct kernel's noise "
                         "floor: a gap, like a survivor. Triage: kill it with a new matrix case, or argue it "
                         "equivalent in kernels/mutants-equivalent.txt (never by widening a tolerance).");
  report_table *tabs[] = {tf, tfn, tsv, ta};
  for (size_t t = 0; t < 4; t++) {
    ll_buf b = {0};
    report_table_render(tabs[t], REPORT_MD, &b);
    ll_buf_printf(&md, "\n%s\n", ll_buf_str(&b));
    ll_buf_free(&b);
  }
  report_table_print(tf, REPORT_TEXT);
  report_table_print(tsv, REPORT_TEXT);
  char *rp = ll_fmt("%s/report.md", M->mdir);
  ll_err we = {0};
  if (!ll_write_file_atomic(rp, md.data, md.len, &we)) ll_report(&we);
  else fprintf(stderr, "lanelab: mutate: report %s\n", rp);
  free(rp);
  ll_buf_free(&md);
  for (size_t t = 0; t < 4; t++) report_table_free(tabs[t]);
  return all_ok ? LL_EXIT_OK : LL_EXIT_FAIL;
}

int mutate_run(const mutate_opts *o, ll_err *err) {
  mrun M = {.o = o};
  int rc = LL_EXIT_OK;
  if (!enumerate(&M, err)) {
    rc = err->code ? err->code : LL_EXIT_USAGE;
  } else if (o->list) {
    list_sites(&M);
  } else {
    M.mdir = ll_fmt("%s/mutate", o->build);
    M.rdir = ll_fmt("%s/mutate/results", o->build);
    M.work = ll_fmt("%s/mutate/work-%u-%u", o->build, o->shard_i, o->shard_n);
    M.res = ll_xcalloc(M.nsites ? M.nsites : 1, sizeof *M.res);
    M.arg = read_argued(o->root, &M.argued_n);
    bool ok = prepare_work(&M, err) && prepare_lanes_gate(&M, err);
    size_t ran_now = 0;
    double t0 = ll_now();
    for (size_t i = 0; ok && i < M.nsites; i++) {
      if (o->shard_n > 1 && i % o->shard_n != o->shard_i) continue;
      M.inshard++;
      bool skip = o->only && !(i < o->nonly && o->only[i]); /* --only: the rest are reported from the cache */
      ok = run_mutant(&M, i, skip || o->report_only, &ran_now, t0, err);
    }
    rc = ok ? report(&M) : (err->code ? err->code : LL_EXIT_FAIL);
  }
  mrun_free(&M);
  return rc;
}
