/* oracle — CPU references the production kernels are checked against: prefill attention
 * (single, batch ragged, batch paged; causal, sliding window, soft cap, custom mask, GQA/MQA),
 * concat_mla_q, fp16/bf16 conversion, the tolerance rule, and the element-wise comparison of a
 * kernel's output with a reference behind `lanelab compare` (oracle/compare.c, "compare" below).
 * Depends on libc, libm, pthreads and util/ only.
 *
 * Semantics follow docs/oracle.md (FlashInfer conventions):
 *  - s_ij = (q_i . k_j) * sm_scale, sm_scale defaulting to 1/sqrt(head_dim); with a soft cap
 *    c > 0, s = c * tanh(s / c) (after scaling, before masking).
 *  - causal is bottom-right aligned: key j visible to query i iff j <= i + (kv_len - qo_len);
 *    window_left w >= 0 also requires j >= i + (kv_len - qo_len) - w; a custom mask replaces
 *    the causal flag (the window still applies). Masking is by -inf, never a finite sentinel.
 *  - kv_head = qo_head / (num_qo_heads / num_kv_heads) (contiguous blocks, not modulo).
 *  - O is float32 [total_q, num_qo_heads, head_dim]; LSE is base 2, float32
 *    [total_q, num_qo_heads], computed as m*log2(e) + log2(sum_j exp(s_ij - m)), m the row max
 *    in natural scale. A fully masked row has O = 0 and LSE = -inf, never NaN.
 *
 * Two paths compute the same thing:
 *  - plain: one row at a time, every product and sum in double. Obviously right; slow.
 *  - fast: float, blocked and multi-threaded (pthreads). A gather phase converts q, k and v from
 *    their dtype once (f16 with F16C where the CPU has it, bit-identical to oracle_to_f32) into
 *    one zeroed arena (2 MiB-aligned, advised MADV_HUGEPAGE): q head-major, K transposed and V,
 *    both in panels of 32 columns per (request, kv head). Then per (request, qo head, block of 32
 *    query rows) it forms the score block S = Q K^T over the visible key range, does an exact
 *    two-pass softmax per row (max, then exp and sum; no online rescaling) and O = P V, in chunks
 *    of 256 keys so each chunk's scores are reused while in L1. The inner kernel is a
 *    register-blocked C = A*B in GCC vector extensions, with the softmax row passes beside it,
 *    in three builds chosen at run time with __builtin_cpu_supports (a target attribute on each
 *    function, nothing else built for them):
 *      avx512  16-float zmm vectors, 8 rows x 32 columns (AVX-512F)
 *      avx2    8-float vectors, 4 rows x 16 columns (AVX2 + FMA)
 *      sse     4-float vectors, 2 rows x 16 columns (the x86-64 baseline; "scalar" elsewhere)
 *    The best the CPU runs is used; LANELAB_ORACLE_KERNEL=avx512|avx2|sse forces one ("auto"
 *    or empty: the default). Forcing a kernel the CPU lacks the instructions for fails the run
 *    with LL_EXIT_ENV, any other value with LL_EXIT_USAGE: never a silent fallback. meta.json's
 *    "kernel" names the one used. Each kernel is checked against the plain path in
 *    tests/test_oracle.c on many random shapes (skipped, saying so, on a CPU without it).
 *  ORACLE_PATH_AUTO picks plain below ORACLE_PLAIN_MAX_FLOP dense flops, fast above.
 *
 * Errors: functions taking ll_err * return false/NULL with err->code = LL_EXIT_USAGE (2) and a
 * message naming the spec field on bad input.
 *
 * Attention spec (JSON object; any other key is an error; file names are relative to the spec):
 *   "kind": "single" | "ragged" | "paged"            required
 *   "dtype": "f16" | "bf16" | "f32"                  required; the element type of q, k, v
 *   "num_qo_heads", "num_kv_heads", "head_dim": int  required; qo heads a multiple of kv heads
 *   "qo_indptr", "kv_indptr": [int, ...]             required, batch+1 entries each, from 0, non-
 *                                                    decreasing; single has 2; kv_indptr counts
 *                                                    pages for paged, tokens otherwise
 *   "kv_indices": [int], "kv_last_page_len": [int], "page_size": int, "layout": "NHD" | "HND"
 *                                                    required for paged, refused otherwise
 *   "num_pages": int                                 paged, optional: cache pages (default: from
 *                                                    the k file's size, or max(kv_indices)+1)
 *   "causal": bool (false), "window_left": int (-1), "logits_soft_cap": number (0),
 *   "sm_scale": number | null (null: 1/sqrt(head_dim)), "custom_mask": "FILE" (packed bits;
 *   with causal: true the mask replaces causal, as the kernels' header documents)
 *   "q", "k", "v": "FILE"                            raw little-endian dtype elements; or
 *   "seed": int                                      generate q, k, v (and write them to DIR)
 *   "path": "auto" | "plain" | "fast" (auto), "threads": int (0 = all CPUs),
 *   "round_output": bool (false: also write O rounded to dtype), "comment": string
 * Outputs in DIR: o.bin (f32 [total_q, Hq, D]), lse.bin (f32 [total_q, Hq], base 2),
 * meta.json (shapes, dtype, sm_scale used, path, kernel, threads, seconds, GFLOP), o_<dtype>.bin
 * with round_output, q.bin/k.bin/v.bin with seed.
 *
 * concat_mla_q spec: "T": int >= 0, "H": int >= 1, "dtype": "f16" | "bf16", "q_nope": "FILE",
 *   "q_pe": "FILE" (or "seed": int: raw random 16-bit patterns, written to DIR), optional
 *   "q_nope_strides": [stride_t, stride_h] (elements; default [H*512, 512]), "q_pe_strides"
 *   (default [H*64, 64]), "comment". A file must hold at least the elements the strided view
 *   reads ((T-1)*stride_t + (H-1)*stride_h + inner); trailing padding is allowed.
 *   Outputs: DIR/q_out.bin ([T, H, 576], same dtype), DIR/meta.json. */
#ifndef LANELAB_ORACLE_H
#define LANELAB_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* ---- numbers -------------------------------------------------------------------------------- */
typedef enum { ORACLE_F16, ORACLE_BF16, ORACLE_F32 } oracle_dtype;

size_t oracle_dtype_size(oracle_dtype dt);
const char *oracle_dtype_name(oracle_dtype dt); /* "f16", "bf16", "f32" */
bool oracle_dtype_parse(const char *s, oracle_dtype *out);

/* IEEE binary16 and bfloat16 <-> binary32. Float -> 16-bit rounds to nearest, ties to even;
 * overflow gives +-inf; subnormals are produced and decoded exactly; +-0 keep their sign; NaN
 * stays NaN with its sign and the top payload bits, and is made quiet (so it cannot turn into
 * inf). */
float oracle_f16_to_f32(uint16_t h);
uint16_t oracle_f32_to_f16(float f);
float oracle_bf16_to_f32(uint16_t h);
uint16_t oracle_f32_to_bf16(float f);
/* The four 8-bit float encodings (docs/oracle.md "fp8"): OCP's E4M3 (FN: no infinity, one NaN per
 * sign, max 448) and E5M2 (IEEE-like: infinities and NaNs, max 57344), and the FNUZ forms gfx942's
 * MFMA takes (no infinity, no negative zero: 0x80 is the one NaN; E4M3FNUZ max 240, E5M2FNUZ max
 * 57344; exponent bias one more than OCP's). */
typedef enum { ORACLE_FP8_E4M3, ORACLE_FP8_E5M2, ORACLE_FP8_E4M3_FNUZ, ORACLE_FP8_E5M2_FNUZ } oracle_fp8;
float oracle_fp8_to_f32(uint8_t v, oracle_fp8 k);
/* Round to nearest, ties to even; a finite value beyond the largest finite saturates to it (an
 * input generator's choice: docs/oracle.md); NaN to the NaN encoding, and on E5M2 an infinity to
 * infinity (the others have none: they saturate). */
uint8_t oracle_f32_to_fp8(float f, oracle_fp8 k);
/* Bulk: raw little-endian elements of dt <-> float. */
void oracle_to_f32(oracle_dtype dt, const void *src, float *dst, size_t n);
void oracle_from_f32(oracle_dtype dt, const float *src, void *dst, size_t n);

/* The comparison rule: |got - ref| <= atol + rtol*|ref|. A non-finite value on either side
 * fails unless both sides are the same infinity (so NaN never matches, not even NaN; -inf LSE
 * of a masked row matches -inf). */
bool oracle_close(double got, double ref, double atol, double rtol);

/* A per-case comparison report. max_abs / max_rel are over the pairs where both sides are
 * finite (max_rel only where ref != 0); worst is the index with the largest excess over the
 * bound (or the first non-finite mismatch). */
typedef struct oracle_cmp {
  size_t n, mismatches, nonfinite_mismatches;
  double atol, rtol, max_abs, max_rel;
  size_t worst;           /* valid when mismatches > 0 */
  double worst_got, worst_ref;
} oracle_cmp;
/* Fill *c; true iff zero mismatches. */
bool oracle_compare(const float *got, const float *ref, size_t n, double atol, double rtol,
                    oracle_cmp *c);
/* For table/table.h: the column list and one row's cells ('\t'-separated, malloc'd), so any
 * module can render comparisons with report_table_new(title, oracle_cmp_columns) and
 * report_table_row(t, "%s", cells). (oracle/ uses only util/.) */
extern const char oracle_cmp_columns[];
char *oracle_cmp_cells(const char *name, const oracle_cmp *c);

/* Tolerances used in the field, as data. Source: docs/oracle.md, "Tolerances
 * used in the field" (FlashInfer + ROCm port, composable_kernel fmha, AITER batch prefill), and
 * the CDNA4 prefill change (docs/changes.md, change 000). dtype ORACLE_F32 rows do not exist. */
typedef struct oracle_tolerance {
  const char *source;  /* who uses it */
  const char *what;    /* for which comparison */
  oracle_dtype dtype;
  double atol, rtol;
} oracle_tolerance;
extern const oracle_tolerance oracle_tolerances[];
extern const size_t oracle_num_tolerances;
/* The default for a production kernel's O and LSE: the FlashInfer row (fp16 1e-3/1e-3, bf16
 * 1e-2/1e-2). For f32 inputs: 1e-5/1e-5 (our own choice, no field source). */
void oracle_tolerance_default(oracle_dtype dt, double *atol, double *rtol);

/* ---- attention ------------------------------------------------------------------------------ */
typedef enum { ORACLE_SINGLE, ORACLE_RAGGED, ORACLE_PAGED } oracle_attention_kind;
typedef enum { ORACLE_NHD, ORACLE_HND } oracle_kv_layout;
typedef enum { ORACLE_PATH_AUTO, ORACLE_PATH_PLAIN, ORACLE_PATH_FAST } oracle_path;
#define ORACLE_PLAIN_MAX_FLOP 2e8

/* One attention problem. Built by oracle_attention_spec_parse/_load, or in memory by a caller
 * (zero it, fill the fields, call oracle_attention_validate). Tensors are raw little-endian
 * elements of dtype:
 *   q [total_q, num_qo_heads, head_dim], total_q = qo_indptr[batch];
 *   single/ragged: k, v [total_kv, num_kv_heads, head_dim], total_kv = kv_indptr[batch];
 *   paged: k, v caches [num_pages, page_size, num_kv_heads, head_dim] (NHD) or
 *          [num_pages, num_kv_heads, page_size, head_dim] (HND); request b owns pages
 *          kv_indices[kv_indptr[b] .. kv_indptr[b+1]) in order, each request has >= 1 page and
 *          kv_len_b = page_size*(pages_b - 1) + kv_last_page_len[b].
 *   custom_mask: for each request, qo_len*kv_len booleans row-major, packed LSB-first, each
 *          request's segment starting on a byte (ceil(qo_len*kv_len/8) bytes). */
typedef struct oracle_attention_spec {
  oracle_attention_kind kind;
  oracle_dtype dtype;
  int num_qo_heads, num_kv_heads, head_dim;
  int batch;                    /* number of requests; 1 for single */
  int32_t *qo_indptr;           /* [batch+1] */
  int32_t *kv_indptr;           /* [batch+1]: tokens (single, ragged) or pages (paged) */
  int32_t *kv_indices;          /* paged: [kv_indptr[batch]] physical page ids */
  int32_t *kv_last_page_len;    /* paged: [batch], each 1..page_size */
  int page_size;                /* paged */
  int64_t num_pages;            /* paged: pages in each cache; 0 = max(kv_indices)+1, or
                                   from the file size when loaded from files */
  oracle_kv_layout layout;      /* paged */
  bool causal;
  int window_left;              /* -1 = no window */
  double logits_soft_cap;       /* 0 = none */
  bool has_sm_scale;            /* false: 1/sqrt(head_dim) */
  double sm_scale;
  uint8_t *custom_mask;         /* NULL = none */
  size_t custom_mask_bytes;
  void *q, *k, *v;
  /* run options */
  oracle_path path;
  int threads;                  /* fast path; 0 = LANELAB_THREADS or all online CPUs */
  bool round_output;            /* also write O rounded to dtype (o_<dtype>.bin) */
  /* filled by the parser (for the CLI) */
  bool has_seed;
  uint64_t seed;
  char *q_file, *k_file, *v_file, *mask_file; /* as written in the spec, or NULL */
  bool owns;                    /* oracle_attention_spec_free frees every pointer above */
} oracle_attention_spec;

/* Check everything (see the bad-spec list in the issue). Changes nothing. Does not look at
 * q/k/v contents; file sizes are checked by the loader. */
bool oracle_attention_validate(const oracle_attention_spec *s, ll_err *err);
/* Pages in each cache: num_pages, or max(kv_indices)+1 when num_pages is 0. */
int64_t oracle_attention_num_pages(const oracle_attention_spec *s);
int64_t oracle_attention_total_q(const oracle_attention_spec *s);
int64_t oracle_attention_kv_len(const oracle_attention_spec *s, int b);
int64_t oracle_attention_qo_len(const oracle_attention_spec *s, int b);
/* Element counts of q and of each of k, v (the whole cache for paged). */
int64_t oracle_attention_q_elems(const oracle_attention_spec *s);
int64_t oracle_attention_kv_elems(const oracle_attention_spec *s);
/* Dense flops, 4*head_dim*num_qo_heads*sum_b(qo_len*kv_len) (QK^T and PV, 2 per MAC). */
double oracle_attention_flops(const oracle_attention_spec *s);
double oracle_attention_sm_scale(const oracle_attention_spec *s);

/* Parse a spec's JSON text (no file I/O: q/k/v/custom_mask stay names). Unknown keys, wrong
 * types and every validate() failure are errors naming the field. The fuzz entry point. */
oracle_attention_spec *oracle_attention_spec_parse(const char *json, size_t len, ll_err *err);
/* Parse the spec file, then read q/k/v/custom_mask relative to its directory (checking sizes),
 * or, with "seed", generate q/k/v (oracle_attention_generate). */
oracle_attention_spec *oracle_attention_spec_load(const char *path, ll_err *err);
/* Deterministic inputs from a seed: uniform in [-1, 1) rounded to dtype (splitmix64). Allocates
 * q/k/v (owned by the spec). */
void oracle_attention_generate(oracle_attention_spec *s, uint64_t seed);
void oracle_attention_spec_free(oracle_attention_spec *s);

typedef struct oracle_attention_info {
  oracle_path path;   /* the path that ran (never AUTO) */
  int threads;
  double seconds, flops;
  const char *kernel; /* "double" (plain), "avx512", "avx2", "sse" or "scalar" (fast) */
} oracle_attention_info;
/* Compute O [total_q*Hq*D] and LSE [total_q*Hq] (caller-allocated) with s->path. The spec
 * must have passed validate. info may be NULL. */
bool oracle_attention_run(const oracle_attention_spec *s, float *o, float *lse,
                          oracle_attention_info *info, ll_err *err);
/* Write DIR/o.bin, DIR/lse.bin, DIR/meta.json (+ o_<dtype>.bin if round_output, + q.bin,
 * k.bin, v.bin if the inputs were generated from a seed), each atomically. */
bool oracle_attention_write(const oracle_attention_spec *s, const float *o, const float *lse,
                            const oracle_attention_info *info, const char *dir, ll_err *err);

/* ---- concat_mla_q (vLLM) -------------------------------------------------------------------- */
#define ORACLE_MLA_NOPE 512
#define ORACLE_MLA_PE 64
#define ORACLE_MLA_OUT 576

/* q_nope [T, H, 512] and q_pe [T, H, 64], 16-bit elements, strides in elements (innermost 1);
 * q_out [T, H, 576] contiguous. A pure copy: bits are moved, never converted. */
typedef struct oracle_concat_spec {
  oracle_dtype dtype;           /* f16 or bf16 */
  int64_t T, H;
  int64_t nope_stride_t, nope_stride_h, pe_stride_t, pe_stride_h;
  uint16_t *q_nope, *q_pe;
  size_t q_nope_elems, q_pe_elems; /* buffer sizes, for bounds checks */
  bool has_seed;
  uint64_t seed;
  char *q_nope_file, *q_pe_file;
  bool owns;
} oracle_concat_spec;
/* Smallest buffer (elements) a [T, H, inner] view with these strides reads. */
int64_t oracle_concat_extent(int64_t T, int64_t H, int64_t st, int64_t sh, int64_t inner);
bool oracle_concat_validate(const oracle_concat_spec *s, ll_err *err);
oracle_concat_spec *oracle_concat_spec_parse(const char *json, size_t len, ll_err *err);
oracle_concat_spec *oracle_concat_spec_load(const char *path, ll_err *err);
void oracle_concat_spec_free(oracle_concat_spec *s);
/* out: T*H*576 elements (nothing is touched when T = 0). */
bool oracle_concat_mla_q(const oracle_concat_spec *s, uint16_t *out, ll_err *err);
/* DIR/q_out.bin, DIR/meta.json (+ q_nope.bin, q_pe.bin when generated from a seed). */
bool oracle_concat_write(const oracle_concat_spec *s, const uint16_t *out, double seconds,
                         const char *dir, ll_err *err);

/* ---- compare (`lanelab compare`) ---------------------------------------------------------------
 * Element-wise comparison of two raw little-endian buffers, GOT (what a kernel wrote) and REF (a
 * reference), under the rule above: an element passes iff |got - ref| <= atol + rtol*|ref|.
 * Non-finite values (floating types only):
 *   - the same infinity on both sides agrees (oracle_close);
 *   - NaN on both sides agrees and is counted in nan_both: a reference that says NaN is matched
 *     by a NaN (the default of numpy.testing.assert_allclose, equal_nan=True). This is the one
 *     difference from oracle_close, where NaN never matches: the oracle's own outputs never
 *     contain NaN, a user's reference may;
 *   - NaN against a number, +inf against -inf and an infinity against a finite value are
 *     non-finite disagreements, always over tolerance whatever atol/rtol are.
 * max_abs is over the pairs where both are finite; max_rel over those where also ref != 0.
 * Integer types are compared exactly in double (every value of these types is exact there), with
 * default tolerance 0/0; the defaults for floating types are oracle_tolerance_default's (f16
 * 1e-3/1e-3, bf16 1e-2/1e-2, f32 1e-5/1e-5) and for f64 1e-7/1e-7 (torch.testing.assert_close's
 * float64 default).
 *
 * Shape: dims d0..d(k-1), row-major (the last index varies fastest); both buffers must hold
 * exactly d0*..*d(k-1) elements, and without a shape the same whole number of elements. Mismatches
 * are reported by multi-index in flat order, the first ORACLE_COMPARE_FIRST of them.
 *
 * Lanes (--lanes[=ROWS]): the buffers are register dumps of 32-bit dwords in rows of 64 lanes,
 * lane fastest: dword d is lane d % 64 of row d / 64. That is the layout of the --dump-regs JSON's
 * "vgprs" arrays (one array of 64 lanes per VGPR) and of lanelab's micro-kernel dumps
 * (out[dword*64 + lane]). With ROWS, each wave's dump is ROWS rows (dwords per lane) and row r is
 * dword r % ROWS of wave r / ROWS; without it the whole buffer is one wave. A mismatch at byte
 * offset o is then reported as wave, dword and lane (and the byte within the dword for 8- and
 * 16-bit types; an 8-byte element is reported at its low dword, its high dword being the next
 * lane). A lanes buffer must be a whole number of rows (of waves with ROWS). */
typedef enum {
  ORACLE_E_F32, ORACLE_E_F16, ORACLE_E_BF16, ORACLE_E_F64, ORACLE_E_I32, ORACLE_E_U32,
  ORACLE_E_I16, ORACLE_E_U16, ORACLE_E_I8, ORACLE_E_U8, ORACLE_E_I64, ORACLE_E_U64,
  ORACLE_E_FP8_E4M3, ORACLE_E_FP8_E5M2, ORACLE_E_FP8_E4M3_FNUZ, ORACLE_E_FP8_E5M2_FNUZ, ORACLE_E_COUNT
} oracle_etype;
/* "f32", "f16", ..., "u8", "i64", "u64", "fp8_e4m3", "fp8_e5m2", "fp8_e4m3_fnuz", "fp8_e5m2_fnuz".
 * Integers compare exactly (bit for bit) at zero tolerance, so 64-bit values above 2^53 never
 * agree by rounding; an fp8 element is compared as the value its encoding denotes
 * (oracle_fp8_to_f32). */
bool oracle_etype_parse(const char *s, oracle_etype *out);
const char *oracle_etype_name(oracle_etype t);
size_t oracle_etype_size(oracle_etype t);
bool oracle_etype_is_float(oracle_etype t);
void oracle_compare_default_tol(oracle_etype t, double *atol, double *rtol);

#define ORACLE_COMPARE_MAX_DIMS 8
#define ORACLE_COMPARE_FIRST 10
/* Default cap on each input file (bytes); --max-bytes changes it. */
#define ORACLE_COMPARE_MAX_BYTES ((size_t)1 << 32)

typedef struct oracle_compare_opts {
  oracle_etype etype;
  size_t ndims;                            /* 0: flat, one dim of the buffers' element count */
  uint64_t dims[ORACLE_COMPARE_MAX_DIMS];
  double atol, rtol;                       /* >= 0 */
  bool lanes;
  uint64_t lane_rows;                      /* dwords per lane per wave; 0 = one wave */
} oracle_compare_opts;
/* Defaults for etype: flat, default tolerance, no lanes. */
void oracle_compare_opts_init(oracle_compare_opts *o, oracle_etype etype);
/* "D0,D1,..": 1..ORACLE_COMPARE_MAX_DIMS positive integers whose product fits 2^62. */
bool oracle_compare_shape_parse(const char *s, oracle_compare_opts *o, ll_err *err);

typedef enum {
  ORACLE_MM_VALUE,       /* both finite, over tolerance */
  ORACLE_MM_NAN_GOT,     /* got NaN, ref a number */
  ORACLE_MM_NAN_REF,     /* ref NaN, got a number */
  ORACLE_MM_INF_SIGN,    /* +inf against -inf */
  ORACLE_MM_INF_GOT,     /* got +-inf, ref finite */
  ORACLE_MM_INF_REF      /* ref +-inf, got finite */
} oracle_mismatch_kind;
const char *oracle_mismatch_kind_name(oracle_mismatch_kind k); /* "value", "nan_vs_number", ... */

typedef struct oracle_mismatch {
  uint64_t flat;                           /* element index */
  uint64_t idx[ORACLE_COMPARE_MAX_DIMS];   /* multi-index */
  double got, ref;                         /* values (exact for every type) */
  uint64_t got_bits, ref_bits;             /* raw element bits */
  oracle_mismatch_kind kind;
  uint64_t wave, dword, lane;              /* lanes only */
  unsigned byte;                           /* lanes only: byte within the dword */
} oracle_mismatch;

typedef struct oracle_compare_result {
  oracle_compare_opts opts;                /* as used: a flat compare has ndims 1, dims[0] = n */
  uint64_t n;
  uint64_t over;                           /* elements over tolerance, non-finite ones included */
  uint64_t nonfinite;                      /* non-finite disagreements (the sum of the four below) */
  uint64_t nan_got, nan_ref, inf_sign, inf_vs_finite;
  uint64_t nan_both;                       /* NaN on both sides: agreements */
  double max_abs, max_rel;
  uint64_t max_abs_at, max_rel_at;         /* flat index; valid when the max is > 0 */
  size_t nfirst;
  oracle_mismatch first[ORACLE_COMPARE_FIRST];
  uint64_t lane_mask;                      /* lanes: lanes holding a mismatch */
  uint64_t rows_with_mismatch;             /* lanes: (wave, dword) rows holding a mismatch */
  bool from_dump;                          /* the inputs were --dump-regs JSON files */
  uint64_t dump_vgprs;                     /* from_dump: row r < dump_vgprs is v[r], else a[r - it] */
} oracle_compare_result;

/* Compares got[0..got_bytes) with ref[0..ref_bytes). Returns LL_EXIT_OK (every element within
 * tolerance), LL_EXIT_FAIL (some over; *r says which), or LL_EXIT_USAGE with err naming the
 * input whose size does not match the shape or dtype ("GOT", "REF": got_name/ref_name in the
 * message when given), a negative or NaN tolerance, or a lanes buffer that is not whole rows. */
int oracle_compare_buffers(const void *got, size_t got_bytes, const void *ref, size_t ref_bytes,
                           const oracle_compare_opts *o, const char *got_name,
                           const char *ref_name, oracle_compare_result *r, ll_err *err);
/* Reads a whole file of at most max_bytes (0 = ORACLE_COMPARE_MAX_BYTES); a larger one, a
 * directory or an unreadable one is LL_EXIT_USAGE naming it. Pipes and devices are read up to
 * the cap. The result is malloc'd (never NULL on success, even when empty). */
void *oracle_compare_read(const char *path, size_t max_bytes, size_t *n, ll_err *err);
/* Both files through oracle_compare_read, then oracle_compare_buffers. With o->lanes, two
 * `lanelab run --dump-regs` JSON files (recognised by their leading '{') are compared as register
 * dumps instead: each wave's VGPR rows then AGPR rows, 64 lanes each (SGPRs hold no lanes and are
 * not compared), ROWS = VGPRs + AGPRs, so a mismatch is reported as wave (its index in "waves"),
 * register (v5, a3) and lane. Both dumps must have the same waves and register counts, the dtype
 * must be 4 bytes, and --shape/=ROWS do not apply (LL_EXIT_USAGE otherwise). */
int oracle_compare_files(const char *got_path, const char *ref_path, const oracle_compare_opts *o,
                         size_t max_bytes, oracle_compare_result *r, ll_err *err);
/* Renderings of a result. text: a few lines ending in "PASS"/"FAIL"; json: one object
 * ({"generated_by", "got", "ref", "dtype", "shape", "n", "atol", "rtol", "max_abs",
 * "max_abs_at", "max_rel", "max_rel_at", "over_tolerance", "nonfinite": {...},
 * "first_mismatches": [...], "lanes": {...} with --lanes, "verdict": "pass"|"FAIL"}). */
void oracle_compare_text(const oracle_compare_result *r, const char *got_name, const char *ref_name,
                         ll_buf *out);
void oracle_compare_json(const oracle_compare_result *r, const char *got_name, const char *ref_name,
                         ll_buf *out);

/* ---- bench ---------------------------------------------------------------------------------- */
/* Times the fast path on MHA 32/32 heads, head_dim 128, non-causal, f16 at seq 1024 and at
 * seq 4096 (the seed change's shape, ~275 GFLOP) and prints GFLOP/s to out. 0 on success. */
int oracle_bench(FILE *out);

/* ---- shared by the oracle sources only, not a contract ------------------------------------------- */
bool oracle__check_keys(const ll_json *root, const char *const *known, ll_err *err);
int oracle__get_int(const ll_json *root, const char *key, bool required, int64_t lo, int64_t hi,
                    int64_t *out, ll_err *err);
int oracle__get_str(const ll_json *root, const char *key, bool required, const char **out,
                    ll_err *err);

#endif
