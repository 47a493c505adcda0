/* verify/src_prod — the prod case source: lanelab's production kernels' case sets, quick, full
 * and random:N (docs/verify-matrix.md), each case planned for the one case runner (prod.c).
 * Contract: verify/prod.h ("the matrix") and verify.h (case sources). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify/prod.h"

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
    /* a window with qo_len > kv_len (delta = kv_len - qo_len < 0, bottom-right aligned): the second
     * query tile's first visible key (q0 + delta - window_left = 64 - 30 - 8 = 26) lies in key block
     * 0, which a kv_lo computed without delta (or with -delta) would skip */
    {.name = "single_bf16_d64_window8_qo_gt_kv", .kind = ORACLE_SINGLE, .dtype = BF16, .hq = 2, .hkv = 1,
     .head_dim = 64, .batch = 1, .qo_len = {70}, .kv_len = {40}, .has_window = true, .window_left = 8,
     .seed = 134},
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
  return (size_t)(ll_splitmix64(&r) % PROD_RANDOM_CLASSES);
}

uint64_t prod_random_case_seed(uint64_t seed, size_t k) {
  uint64_t cs = seed + (uint64_t)k * RANDOM_STEP;
  while (prod_random_class_of(cs) != k % PROD_RANDOM_CLASSES) cs += RANDOM_STEP2;
  return cs;
}

bool prod_random_stem_present(size_t n, const char *stem) {
  for (size_t i = 0; i < n && i < PROD_RANDOM_CLASSES; i++)
    if (!strcmp(stem, classes[i].attention ? prod_kind_stem(classes[i].kind) : "concat_mla_q")) return true;
  return false;
}

static uint32_t pick(uint64_t *r, uint32_t n) { return (uint32_t)(ll_splitmix64(r) % n); }
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

/* ---- the source ------------------------------------------------------------------------------- */
static bool plan_case(const verify_source *src, size_t k, const char *build, emu_arch arch, vc_case *out, ll_err *err) {
  const prod_set *s = src->self;
  if (k < s->n) return prod_attn_case(&s->cases[k], NULL, NULL, NULL, NULL, build, arch, out, err);
  return prod_concat_case_plan(&s->concat[k - s->n], NULL, build, arch, out, err);
}

verify_source prod_source(const prod_set *s) {
  return (verify_source){.name = "prod", .n = s->n + s->nc, .plan = plan_case, .self = (void *)s};
}
