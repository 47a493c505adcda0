/* verify/prod — the production kernels (kernels/prod/) seen from the host: their launch
 * descriptions in ONE place (grid, block, LDS bytes, kernel arguments from an attention case),
 * used by the verify stages, tests/test_prod.c and bench; the verify matrix (quick and full);
 * the `prod` and `mutants` verify stages.
 *
 * Kernels (see the kernel files for the device side):
 *   prefill_{single,ragged,paged}_{f16,bf16}_d{64,128,256}   in build/<arch>/kernels/prefill_<kind>.co
 *     grid (query tiles of PROD_Q_TILE rows, num_qo_heads), block PROD_BLOCK, static LDS
 *     2 * 32 * head_dim * 2 bytes (K and V tiles), no dynamic LDS. O float32 [total_q, Hq, D],
 *     LSE base 2 float32 [total_q, Hq]. Soft cap, sliding window and custom mask run on the device.
 *   concat_mla_q                                            in build/<arch>/kernels/concat_mla_q.co
 *     grid ceil(T*H*72/256) (1 when T = 0: the kernel returns at once), block 256.
 *
 * Results are compared with oracle/ (oracle_attention_run, oracle_compare at the case's
 * tolerances; concat bit-exactly with oracle_concat_mla_q). */
#ifndef LANELAB_VERIFY_PROD_H
#define LANELAB_VERIFY_PROD_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/oracle.h"
#include "runtime/rt.h"
#include "verify/verify.h"

#define PROD_Q_TILE 64   /* query rows per workgroup (kernels/prod/prefill_impl.h kQTile) */
#define PROD_KV_BLK 32   /* keys per LDS step (kKvBlk) */
#define PROD_BLOCK 256   /* work-items per workgroup: 4 waves */
/* `flags` kernel argument (prefill_impl.h kFlag*) */
#define PROD_FLAG_CAUSAL 1u
#define PROD_FLAG_CUSTOM_MASK 2u
#define PROD_FLAG_HND 4u
/* The flag bits a kernel kind accepts (prefill_impl.h contract_ok): causal and custom mask, plus
 * HND for paged. Every combination of accepted bits is part of the contract (causal + custom mask:
 * the mask replaces causal); any other bit is refused with s_trap. */
#define PROD_FLAGS_ACCEPTED(kind) ((kind) == ORACLE_PAGED ? 7u : 3u)
#define PROD_MAX_ARGS 24

/* ---- one attention case --------------------------------------------------------------------- */
/* Numeric-extreme inputs (issue 30), applied to the generated q/k/v of a case (prod_case_spec):
 *   UNDERFLOW     every visible logit is about -400 after the scale (spread a few units): exp of
 *                 each underflows in f32, only the online softmax's running max keeps O defined
 *   FAR_BELOW_MAX a few keys (j % 53 == 45) have logit +60, all others about -60: the others'
 *                 weights underflow relative to the max, and a late dominant key resets the state
 *   DENORMAL_OUT  V in the dtype's subnormal range (f16 2^-16, bf16 2^-130): O there too
 *   EDGE_RANGE    Q at the top of the dtype's range, V at f16's top / bf16 2^116 (the f32
 *                 accumulator holds sum(P) <= kv_len <= 2^10 of them), K scaled so logits stay in
 *                 [-8, 8]: finite, no inf/NaN anywhere
 * The first two set q/k from the case's sm_scale so the logits after scaling are what they say
 * (soft cap applies after). */
typedef enum {
  PROD_VALUES_RANDOM = 0, PROD_VALUES_UNDERFLOW, PROD_VALUES_FAR_BELOW_MAX, PROD_VALUES_DENORMAL_OUT,
  PROD_VALUES_EDGE_RANGE, PROD_VALUES_N
} prod_values;
const char *prod_values_name(prod_values v); /* "random", "underflow", ... */

typedef struct prod_case {
  const char *name;
  oracle_attention_kind kind;
  oracle_dtype dtype;             /* f16 or bf16 */
  int hq, hkv, head_dim;
  int batch;                      /* 1 for single */
  int qo_len[8], kv_len[8];       /* per request */
  int page_size;                  /* paged */
  oracle_kv_layout layout;        /* paged */
  bool shuffle_pages;             /* paged: physical page ids permuted (plus spare pages) */
  bool causal;
  bool has_window;                /* sliding window on */
  int window_left;                /* keys left of the diagonal (has_window) */
  double soft_cap;                /* 0 none */
  bool custom_mask;               /* random keep bits (p = 3/4) from the seed */
  double sm_scale;                /* 0: 1/sqrt(head_dim) */
  double atol, rtol;              /* 0: oracle_tolerance_default(dtype) */
  uint64_t seed;
  bool shared_pages;              /* paged, batch > 1: every later request's full pages start with
                                     request 0's first physical pages (a shared prefix) */
  emu_sched sched;                /* wave schedule on the emulator (random: seeded from seed) */
  prod_values values;             /* numeric-extreme inputs (PROD_VALUES_*) */
  int mask_lead_blocks;           /* custom mask: each row's first N 32-key blocks (the first
                                     visited ones) fully masked */
  bool single_key;                /* custom mask: exactly one visible key per row */
} prod_case;

/* The scale of V's elements under c->values (1, 2^-16, 2^-130, 65504 or 2^116): O's absolute
 * tolerance is the case's atol times it, so a scaled output is held to the same relative rule. */
double prod_case_v_scale(const prod_case *c);

/* The code object stem of a kind: "prefill_single", "prefill_ragged", "prefill_paged". */
const char *prod_kind_stem(oracle_attention_kind k);
/* "single", "ragged", "paged-NHD", "paged-HND" */
const char *prod_case_variant(const prod_case *c);
/* "B=2 q=37,64 kv=70,64 H=4/1 D=128 ps=16 causal" (malloc'd) */
char *prod_case_shape(const prod_case *c);

/* The in-memory oracle spec of a case, inputs generated from c->seed (oracle_attention_generate;
 * custom mask and page shuffle from the same seed). Free with prod_spec_free. */
bool prod_case_spec(const prod_case *c, oracle_attention_spec *s, ll_err *err);
/* The same spec without the generated q/k/v (s->q, k, v NULL; no seed recorded): the shape,
 * indptrs, pages, mask and flags alone, for a caller that plans a launch but runs nothing
 * (prod_attn_plan_make reads no data). Same checks and errors. Free with prod_spec_free. */
bool prod_case_spec_nodata(const prod_case *c, oracle_attention_spec *s, ll_err *err);
void prod_spec_free(oracle_attention_spec *s);

/* ---- launch description --------------------------------------------------------------------- */
typedef struct prod_attn_plan {
  char kernel[64];                /* "prefill_paged_bf16_d128" */
  char source[32];                /* code object stem: "prefill_paged" */
  uint32_t grid[3], block[3];
  uint32_t lds_bytes;             /* static LDS the kernel declares */
  uint32_t flags;
  float sm_scale, soft_cap;
  int32_t window_left;
  int32_t *tile_req, *tile_q0;    /* [ntiles] */
  uint32_t ntiles;
  int32_t *mask_off;              /* [batch] byte offset of each request's custom-mask segment */
  size_t mask_bytes;              /* the device mask buffer: mask_lead bytes, then the segments */
  uint32_t mask_lead;             /* custom mask: 1 + (total_q + total_kv) % 7 filler bytes before
                                     request 0's segment, so mask_off is never 0 (the single
                                     kernel's one offset varies too); 0 without a mask */
  uint8_t *mask_buf;              /* [mask_bytes]: the filler, then the spec's segments (NULL
                                     without a mask) */
} prod_attn_plan;

/* Device addresses of a case's buffers (0 where a kind has none). */
typedef struct prod_attn_dev {
  uint64_t q, k, v, o, lse, qo_indptr, kv_indptr, kv_indices, kv_last_page_len, tile_req, tile_q0,
      mask, mask_off;
} prod_attn_dev;

/* Grid, block, LDS, flags and the tile list of a validated spec. LL_EXIT_USAGE when the kernels
 * cannot run it (head_dim not 64/128/256, dtype not f16/bf16, Hq % Hkv != 0). */
bool prod_attn_plan_make(const oracle_attention_spec *s, prod_attn_plan *p, ll_err *err);
void prod_attn_plan_free(prod_attn_plan *p);
/* The kernel arguments, in the kernel's order; returns their count (<= PROD_MAX_ARGS). */
size_t prod_attn_args(const prod_attn_plan *p, const oracle_attention_spec *s,
                      const prod_attn_dev *d, rt_arg *args);

/* ---- running -------------------------------------------------------------------------------- */
typedef struct prod_run_opts {
  const char *co_path;            /* NULL: BUILD/<arch>/kernels/<source>.co */
  emu_sched sched;                /* EMU_SCHED_ROUND_ROBIN (0): the case's own c->sched */
  uint64_t sched_seed;            /* EMU_SCHED_RANDOM (set from the case's seed by prod_case_run_ref) */
  uint64_t insn_budget;           /* per wave; 0 = the emulator's default */
  int threads;                    /* emu worker threads; 0 = 2 (the machine's shared cores) */
  bool racecheck, initcheck;      /* emu: LDS race check; LDS and output-buffer init check
                                     (emu.h part 4); findings land in prod_result.hazards */
  emu_observer *observe;          /* emu: a caller's observer (traces) instead of the above; its
                                     findings are left in it */
  size_t npatch;                  /* kernel arguments replaced before the launch (tests of the launch
                                     contract: an out-of-contract value must be refused) */
  struct { size_t index; rt_arg value; } patch[4];
} prod_run_opts;

/* Phases the prefill kernel marks with LL_PHASE (kernels/include/lanelab_device.h ll_phase; the
 * emulator's side: emu.h EMU_PHASE_TAG). Phase 0 is everything before the first marker (the Q
 * fragments). The numbering must match ll_phase. */
enum {
  PROD_PHASE_PROLOGUE = 0, PROD_PHASE_STAGE = 1, PROD_PHASE_QK = 2, PROD_PHASE_SOFTMAX = 3, PROD_PHASE_PV = 4,
  PROD_PHASE_EPILOGUE = 5, PROD_NPHASE = 6
};
const char *prod_phase_name(int p); /* "prologue", "stage", "qk", "softmax", "pv", "epilogue" */

/* Executed wave-instructions of one phase (emulator dynamic census). */
typedef struct prod_census {
  uint64_t insns;                 /* all */
  uint64_t bpermutes;             /* ds_bpermute_b32 */
  uint64_t mfmas;                 /* v_mfma_* */
  uint64_t tr_b16;                /* ds_read_b64_tr_b16 */
  uint64_t ds_read_b64;           /* ds_read_b64 (exactly: one 8-byte LDS read per lane) */
  uint64_t ds_read2_b64;          /* ds_read2_b64 / ds_read2st64_b64 (two 8-byte reads per lane) */
  uint64_t ds_writes;             /* ds_write* (LDS stores: the K/V staging) */
} prod_census;
/* Adds st's phase-p counts to *c (all phases when p < 0). */
void prod_census_add(prod_census *c, const emu_launch_stats *st, int p);

typedef struct prod_result {
  oracle_cmp o, lse;              /* device vs oracle */
  bool pass;                      /* both compare clean */
  double max_abs, max_rel;        /* over O and LSE (finite pairs) */
  uint64_t bpermutes, mfmas, wave_insns; /* executed (emu dynamic census) */
  bool have_stats;
  double seconds;                 /* device launch */
  double cpu_seconds;             /* the launch's process CPU time (every thread's) */
  prod_census phase[PROD_NPHASE]; /* executed per phase (have_stats) */
  uint64_t unmarked_phase_insns;  /* executed in a phase number the kernel does not define (must be 0) */
  size_t hazards;                 /* racecheck/initcheck reports (prod_run_opts asked for them) */
  char hazard[1024];              /* the first one, emu_hazard_format's line */
  bool checked;                   /* racecheck/initcheck ran (emulator) */
  bool launched;                  /* the kernel was launched (a failure after it: a fault or a refusal) */
} prod_result;

/* The phase-census rules the prod stage enforces on a prefill run (formulas from the kernel
 * source and docs/changes.md, change 000, not from a run): in QK no ds_bpermute_b32 and no transposing read;
 * in PV, per V fragment (= per PV MFMA): on gfx950 one ds_read_b64_tr_b16 and no bpermute, on
 * gfx942 one ds_read_b64 and the six ds_bpermute_b32 of transpose_mma_tile; QK and PV issue the
 * same number of MFMAs; no instruction outside the defined phases. Returns true if all hold;
 * else false with why (a sentence naming the rule and the counts). */
bool prod_phase_check(emu_arch a, const prod_result *r, char *why, size_t n);

/* The case as the one case runner launches it (verify.h vc_launch): the plan's kernel, grid and
 * block, the kernel's parameters by name in order (args: PROD_MAX_ARGS entries) with the spec's
 * host data, O and LSE compared with ref_o / ref_lse at the case's tolerance, the case's schedule
 * and o's options. Returns false when the plan has no query tile (nothing to launch). */
bool prod_case_launch(const prod_case *c, const prod_run_opts *o, const oracle_attention_spec *s, const float *ref_o,
                      const float *ref_lse, const char *co, const prod_attn_plan *p, vc_launch *l, vc_arg *args);
/* The case planned for the one case runner (vc_case.l, as prod_case_launch), with the data it owns:
 * s/ref_o/ref_lse when given (the caller keeps them), else the case's spec and the oracle's O and
 * LSE made here. Its class is "<code object stem> <variant> <dtype>". */
bool prod_attn_case(const prod_case *c, const prod_run_opts *o, const oracle_attention_spec *s, const float *ref_o,
                    const float *ref_lse, const char *build, emu_arch arch, vc_case *out, ll_err *err);
/* Runs a planned prod case (attention or concat) on d: a case without query rows launches nothing;
 * a failed launch's message is prefixed with the case, kernel and arch. */
int prod_case_exec(rt_device *d, const vc_case *vc, vc_result *vr, ll_err *err);
/* The run of a planned attention case as a prod_result (the comparison, census and checks). */
void prod_attn_result(const vc_case *vc, const vc_result *vr, prod_result *r);
/* Runs a case on d and compares with the oracle. Returns LL_EXIT_OK when the comparison was
 * made (r->pass says how it went); LL_EXIT_FAIL when the launch faulted (err names the fault;
 * for an unimplemented instruction also every mnemonic of the kernel the emulator lacks);
 * LL_EXIT_ENV when the code object is missing (run make kernels); LL_EXIT_USAGE for a bad case. */
int prod_case_run(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o,
                  prod_result *r, ll_err *err);
/* Same with the oracle's O/LSE precomputed (so A/B runs share it). */
int prod_case_run_ref(rt_device *d, const char *build, const prod_case *c, const prod_run_opts *o,
                      const oracle_attention_spec *s, const float *ref_o, const float *ref_lse,
                      prod_result *r, ll_err *err);

/* ---- concat_mla_q --------------------------------------------------------------------------- */
typedef struct prod_concat_case {
  const char *name;
  oracle_dtype dtype;
  int64_t T, H;
  bool transposed_nope;           /* q_nope a [H, T, 512] tensor viewed as [T, H, 512] */
  int64_t extra_stride;           /* elements of padding added to the nope head stride (x8) */
  uint64_t seed;
  /* issue 30: every stride argument varies (q_pe's too), as slices of larger tensors do */
  bool transposed_pe;             /* q_pe a [H, T, 64] tensor viewed as [T, H, 64] */
  int64_t pe_extra_stride;        /* elements added to the pe head stride (x8) */
  int64_t nope_token_pad, pe_token_pad; /* elements added to the token stride (x8; transposed:
                                     to the head stride, the outer one) */
} prod_concat_case;
/* The four stride arguments of a concat case, in elements (the kernel's order: nope_t, nope_h,
 * pe_t, pe_h); dense: [T, H, 512] and [T, H, 64]. */
void prod_concat_strides(const prod_concat_case *c, int64_t st[4]);
typedef struct prod_concat_result {
  size_t n, mismatches;           /* bit-exact: 16-bit elements that differ */
  bool t0_untouched;              /* T = 0: the output sentinel was left alone */
  double seconds;
  size_t hazards;                 /* racecheck/initcheck reports (emulator; always run) */
  char hazard[1024];              /* the first one */
  bool launched;                  /* the kernel was launched */
} prod_concat_result;
/* grid/block for T, H */
void prod_concat_launch(int64_t T, int64_t H, uint32_t grid[3], uint32_t block[3]);
int prod_concat_run(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                    prod_concat_result *r, ll_err *err);
/* The same with o's argument patches (o->npatch; NULL: none). */
int prod_concat_run_opts(rt_device *d, const char *build, const prod_concat_case *c, const char *co_path,
                         const prod_run_opts *o, prod_concat_result *r, ll_err *err);

/* ---- the launch contract's refusals ---------------------------------------------------------- */
/* Launches outside the kernels' contract (prefill_impl.h contract_ok, concat_mla_q.hip): a small
 * in-contract case per kernel with one argument replaced (an unknown flag bit, HND without pages,
 * window_left -2, soft_cap -1/NaN/inf, sm_scale inf/NaN, head counts 0 or not dividing, page_size
 * 0, a concat stride not a multiple of 8). Each must be refused with s_trap. The prod stage runs
 * them (a kernel that accepts one fails it), and so does lanelab mutate's gate. */
typedef struct prod_refusal {
  char what[80];                  /* "prefill_paged: window_left -2" */
  int stem;                       /* 0 single, 1 ragged, 2 paged, 3 concat */
  prod_case c;                    /* stem < 3 */
  prod_concat_case cc;            /* stem == 3 */
  size_t index;                   /* the replaced kernel argument */
  rt_arg value;
} prod_refusal;
/* The list (static storage); *n set. */
const prod_refusal *prod_refusals(size_t *n);
/* Launches r (co_path: the code object, NULL for the build's). LL_EXIT_OK when the kernel refused
 * it with s_trap; LL_EXIT_FAIL when it ran (why says so) or failed another way (why names it);
 * LL_EXIT_ENV/USAGE as prod_case_run. */
int prod_refusal_run(rt_device *d, const char *build, const prod_refusal *r, const char *co_path, char *why,
                     size_t n);
/* The concat case planned for the one case runner (inputs from its seed, the oracle's output as the
 * bit-exact reference; T = 0: the output's sentinel bytes must stay), racecheck and initcheck on. */
bool prod_concat_case_plan(const prod_concat_case *c, const char *co_path, const char *build, emu_arch arch,
                           vc_case *out, ll_err *err);
void prod_concat_result_of(const vc_case *vc, const vc_result *vr, prod_concat_result *r);

/* ---- the matrix ----------------------------------------------------------------------------- */
/* "quick" or "full"; *n set; NULL for another name. Cases are static data. */
const prod_case *prod_matrix(const char *shapes, size_t *n);
const prod_concat_case *prod_concat_matrix(const char *shapes, size_t *n);

/* The random matrix (`--shapes random:N --seed S`, docs/verify-matrix.md). Case k of it is
 * generated from its own case seed prod_random_case_seed(S, k) (the strata below) and nothing
 * else, so case k of (S, N) is case 0 of (its case seed, 1): that is the one-command
 * reproduction the stage prints. A case seed's class fixes the kernel (kind, paged layout, dtype,
 * head_dim, or concat); every other variant is drawn independently (Hq/Hkv ratio 1/2/4/8/MQA,
 * qo/kv lengths incl. 0, 1, tile boundaries +-1 and many tiles, causal, window with and without
 * causal, soft cap, sm_scale != 1 incl. tiny and large, custom mask with and without causal, its
 * first visited key blocks masked, a single visible key, the numeric extremes of prod_values,
 * page size 1..64 with partial, shuffled and shared pages, batch 1..8 uneven, wave schedule
 * round-robin/adversarial/random; concat: padded and transposed q_nope and q_pe, padded token
 * strides), head-, token- and page-strides kept apart where the variant allows it. */
#define PROD_RANDOM_MAX 100000
/* Strata (issue 30): the draw is stratified over PROD_RANDOM_CLASSES classes, every prefill kernel
 * (kind x dtype x head_dim, paged in both layouts: 24) and concat_mla_q in each dtype (2). A
 * case seed's class is prod_random_class_of(seed), a hash of the seed alone, and case k of
 * (S, N) has the first case seed S + k*0x9e3779b97f4a7c15 + j*0xd1b54a32d192ed03 (j = 0, 1, ...)
 * whose class is k mod PROD_RANDOM_CLASSES: so every class (every kernel and variant) is present
 * for any N >= PROD_RANDOM_CLASSES and any seed. random:1 is not stratified: its one case has
 * the seed itself as case seed, so case k of (S, N) is case 0 of (its case seed, 1). The first
 * 10 classes hold every variant in both dtypes and concat. */
#define PROD_RANDOM_CLASSES 26
typedef struct prod_random_class {
  bool attention;                 /* false: concat_mla_q */
  oracle_attention_kind kind;
  oracle_kv_layout layout;
  oracle_dtype dtype;
  int head_dim;
} prod_random_class;
const prod_random_class *prod_random_class_at(size_t i); /* NULL past the last */
size_t prod_random_class_of(uint64_t case_seed);
/* True if the first n cases of any random set run code object `stem` ("prefill_paged", ...). */
bool prod_random_stem_present(size_t n, const char *stem);
/* The make-test sample (tests/test_verify.c, tests/test_argcov.c): random:16 at this seed. */
#define PROD_TEST_SAMPLE_N 16
#define PROD_TEST_SAMPLE_SEED 20261201u
uint64_t prod_random_case_seed(uint64_t seed, size_t k);
/* Case from one case seed: true with *c filled (name written into name[0..n)), false with *cc. */
bool prod_random_case(uint64_t case_seed, prod_case *c, prod_concat_case *cc, char *name, size_t n);

/* A case set: quick, full or random:N (seed used by random only). Case index k (sharding,
 * progress) runs over the attention cases, then the concat cases. */
typedef struct prod_set {
  prod_case *cases;
  size_t n;
  prod_concat_case *concat;
  size_t nc;
  bool random;                    /* random:N */
  const char *shapes;             /* "quick" | "full" (fixed sets) */
  uint64_t seed;
  uint64_t *case_seed;            /* random: [n + nc] the case seed of each case, in index order */
  char (*names)[32];
} prod_set;
/* Parses "quick" | "full" | "random:N" (1 <= N <= PROD_RANDOM_MAX); false with LL_EXIT_USAGE. */
bool prod_set_make(const char *shapes, uint64_t seed, prod_set *s, ll_err *err);
void prod_set_free(prod_set *s);
/* The one-line reproduction of case k of the set on arch (malloc'd), e.g.
 * "lanelab verify --arch gfx942 --shapes random:1 --seed 0x1234" or, for a fixed set,
 * "lanelab verify --arch gfx942 --shapes quick --shard 3/16". */
char *prod_set_repro(const prod_set *s, size_t k, const char *arch);
/* The set as a case source (verify.h): case k < s->n is attention case k, the rest the concat
 * cases; each planned without checks (the caller sets them on the launch). s must outlive it. */
verify_source prod_source(const prod_set *s);

/* Opens the device verify asked for (c->backend) for c->arch. */
rt_device *prod_open_device(const verify_ctx *c, ll_err *err);
/* Build path of a kernel code object, malloc'd: BUILD/ARCH/kernels/STEM.co */
char *prod_co_path(const char *build, emu_arch arch, const char *stem);


#endif
