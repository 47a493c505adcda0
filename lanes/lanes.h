/* lanes — the lane-map model of lanelab: where every value sits in each of a wavefront's 64 lanes.
 *
 * Contents: MFMA operand/result layouts (both directions), LDS reads (plain and gfx950's
 * transposing ds_read_*_tr_*) as functions of an LDS image and 64 per-lane addresses, cross-lane
 * operations under an EXEC mask (ds_bpermute/permute/swizzle, gfx9 DPP, permlane swaps), the
 * swizzled shared-memory layouts, the software fragment transpose (load_fragment +
 * transpose_mma_tile) built from those primitives, the seed solver, a lane-map diff, and the
 * expected values of the lane-dump micro-kernels (their conventions: kernels/include/lanelab_micro.h,
 * copied in the comments below).
 *
 * Depends on libc and util/ (ll_err) only. Facts come from docs/isa.md; each function's
 * comment in the .c files names the ISA section or public source.
 *
 * Errors: functions taking ll_err* return false/NULL on failure with err->code = LL_EXIT_USAGE
 * (bad input, e.g. an instruction that does not exist on the arch) or LL_EXIT_ENV (a case the
 * model does not implement: the message names it). A violated ISA *requirement* of an LDS read
 * (EXEC not all ones for a transposing read, misalignment, out of range) is not an error: it is
 * reported in the result's diagnostics (lanes_lds_result.ok == false, problems listed). */
#ifndef LANELAB_LANES_H
#define LANELAB_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define LANES_WAVE 64
#define LANES_EXEC_ALL UINT64_MAX

typedef enum { LANES_GFX942 = 0, LANES_GFX950 = 1 } lanes_arch;
#define LANES_ARCH_BIT(a) (1u << (a))
/* "gfx942" | "gfx950"; anything else is LL_EXIT_USAGE. */
bool lanes_arch_parse(const char *s, lanes_arch *out, ll_err *err);
const char *lanes_arch_name(lanes_arch a);

/* ======================================= MFMA layouts ======================================
 * Operands: A is (blocks*M) x K (row = block*M + i, col = k); B is K x (blocks*N)
 * (row = k, col = block*N + j); C and D are (blocks*M) x N (row = block*M + i, col = j).
 * An element lives at (lane, reg, bit): reg = VGPR index inside the operand's register tuple,
 * bit = the element's lowest bit in that VGPR (an fp6 item may straddle two VGPRs). */
typedef enum { LANES_OPND_A, LANES_OPND_B, LANES_OPND_C, LANES_OPND_D } lanes_operand;
bool lanes_operand_parse(const char *s, lanes_operand *out, ll_err *err); /* "A".."D" */
const char *lanes_operand_name(lanes_operand o);

typedef struct lanes_mfma {
  const char *name;       /* canonical mnemonic as llvm-mc prints it (f8f6f4: + ":fp8" etc.) */
  int m, n, k, blocks;
  const char *ab_type;    /* "f16", "bf16", "fp8", "bf8", "fp8/bf8", "i8", "f32", "xf32", "f64", "fp6", "bf6", "fp4" */
  int ab_bits;            /* bits per A/B item: 4, 6, 8, 16, 32, 64 */
  int cd_bits;            /* 32 or 64 */
  int k_per_lane;         /* K_L: consecutive k values held by one lane */
  int ab_regs, cd_regs;   /* VGPRs per lane of the A (= B) and C (= D) tuples */
  unsigned arches;        /* LANES_ARCH_BIT(LANES_GFX942) | ... : where llvm-mc-22 accepts it */
  bool unconfirmed;       /* layout not settled by an authoritative source (printed in output) */
  const char *note;       /* why unconfirmed / how derived; NULL if plain ISA rule */
} lanes_mfma;

size_t lanes_mfma_count(void);
const lanes_mfma *lanes_mfma_at(size_t i);
/* Find by mnemonic (canonical or legacy spelling, e.g. v_mfma_f32_16x16x16f16). The f8f6f4
 * instructions take their operand format from cbsz/blgp; name it with a suffix
 * ":fp8|bf8|fp6|bf6|fp4" (default fp8, i.e. cbsz:0 blgp:0). Unknown name, or known but absent
 * on `arch` -> NULL, LL_EXIT_USAGE, message says which arches have it. */
const lanes_mfma *lanes_mfma_lookup(const char *name, lanes_arch arch, ll_err *err);
int lanes_mfma_rows(const lanes_mfma *mf, lanes_operand op);
int lanes_mfma_cols(const lanes_mfma *mf, lanes_operand op);
int lanes_mfma_regs(const lanes_mfma *mf, lanes_operand op);
int lanes_mfma_elem_bits(const lanes_mfma *mf, lanes_operand op);

typedef struct lanes_loc { int lane, reg, bit; } lanes_loc;
/* element (row, col) -> location; false if out of range. */
bool lanes_mfma_locate(const lanes_mfma *mf, lanes_operand op, int row, int col, lanes_loc *out);
/* location -> element whose lowest bit is there; false if no element starts at (lane, reg, bit). */
bool lanes_mfma_element(const lanes_mfma *mf, lanes_operand op, lanes_loc loc, int *row, int *col);

/* ======================================= LDS reads =========================================*/
typedef enum {
  LANES_DS_READ_B32, LANES_DS_READ_B64, LANES_DS_READ_B96, LANES_DS_READ_B128,
  LANES_DS_READ_B64_TR_B16, LANES_DS_READ_B64_TR_B8, LANES_DS_READ_B64_TR_B4,
  LANES_DS_READ_B96_TR_B6,
} lanes_ds_op;
bool lanes_ds_op_parse(const char *mnemonic, lanes_ds_op *out, ll_err *err);
const char *lanes_ds_op_name(lanes_ds_op op);
int lanes_ds_op_dwords(lanes_ds_op op);          /* 1, 2, 3, 4 */
int lanes_ds_op_elem_bits(lanes_ds_op op);       /* tr: 16/8/4/6; plain: 32 */
bool lanes_ds_op_exists(lanes_ds_op op, lanes_arch arch); /* tr reads: gfx950 only */

#define LANES_MAX_PROBLEMS 16
typedef struct lanes_lds_result {
  uint32_t v[LANES_WAVE][4];   /* per lane: dwords 0..ndw-1 of the destination VGPRs */
  int ndw;
  bool ok;                     /* no ISA requirement violated */
  int nproblems;               /* total count (may exceed what is listed) */
  char problem[LANES_MAX_PROBLEMS][200];
} lanes_lds_result;
/* Every EXEC-on lane reads ndw dwords at addr[lane] (the byte address ADDR+OFFSET) from lds[0..n);
 * a transposing read then exchanges elements inside each 16-lane group:
 *   out(16g+m)[k] = in(16g + R*k + m/E)[m % E], E elements per lane, R = 16/E (docs/isa.md, rocRoller).
 * Checked and reported (not fatal): op absent on arch is an error (LL_EXIT_USAGE); EXEC not all
 * ones for a tr read; address not aligned (b32 4, b64 and tr b64 8, b96/b128 16, tr_b6 16 bytes
 * per rocRoller; a ROCm doc says 12 - check); LDS unaligned mode may relax plain reads);
 * bytes out of [0, n). EXEC-off lanes' results are 0; a lane whose read is out of range gets 0. */
bool lanes_ds_read(lanes_arch arch, lanes_ds_op op, const uint8_t *lds, size_t n,
                   const uint32_t addr[LANES_WAVE], uint64_t exec, lanes_lds_result *out, ll_err *err);

/* ===================================== cross-lane ops ======================================
 * All read every source lane before writing any destination. dst is in/out: lanes not written
 * keep their old value, as in hardware. */
/* Gather: dst[L] = src[(addr[L]/4) % 64] for EXEC-on L; an EXEC-off source lane yields 0. */
void lanes_ds_bpermute(const uint32_t src[LANES_WAVE], const uint32_t addr[LANES_WAVE], uint64_t exec,
                       uint32_t dst[LANES_WAVE]);
/* Scatter: for EXEC-on L, dst[(addr[L]/4) % 64] = src[L]; highest lane wins; every EXEC-on
 * destination not targeted gets 0. */
void lanes_ds_permute(const uint32_t src[LANES_WAVE], const uint32_t addr[LANES_WAVE], uint64_t exec,
                      uint32_t dst[LANES_WAVE]);
/* Source lane that lane L reads under ds_swizzle_b32 offset:<off>, or -1 (reads 0). */
int lanes_swizzle_src(uint16_t offset, int lane);
void lanes_ds_swizzle(const uint32_t src[LANES_WAVE], uint16_t offset, uint64_t exec, uint32_t dst[LANES_WAVE]);

typedef enum {
  LANES_DPP_QUAD_PERM, LANES_DPP_ROW_SHL, LANES_DPP_ROW_SHR, LANES_DPP_ROW_ROR,
  LANES_DPP_WAVE_SHL, LANES_DPP_WAVE_ROL, LANES_DPP_WAVE_SHR, LANES_DPP_WAVE_ROR,
  LANES_DPP_ROW_MIRROR, LANES_DPP_ROW_HALF_MIRROR, LANES_DPP_ROW_BCAST15, LANES_DPP_ROW_BCAST31,
  LANES_DPP_ROW_NEWBCAST,
} lanes_dpp_kind;
typedef struct lanes_dpp {
  lanes_dpp_kind kind;
  int sel[4];          /* quad_perm */
  int amount;          /* shifts/rotates 1..15 (wave_*: 1), row_newbcast lane 0..15 */
  unsigned row_mask;   /* 4 bits, default 0xf */
  unsigned bank_mask;  /* 4 bits, default 0xf */
  bool bound_ctrl;     /* set: invalid source reads 0; clear: lane keeps old value */
} lanes_dpp;
/* Parse the llvm-mc spelling: "quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0x5 bound_ctrl:1",
 * "row_shl:3", "wave_ror:1", "row_bcast:15", "row_newbcast:7" (gfx950 / gfx90a+), ... */
bool lanes_dpp_parse(const char *text, lanes_arch arch, lanes_dpp *out, ll_err *err);
/* Source lane of L under the control (before masks), or -1 if out of range. */
int lanes_dpp_src(const lanes_dpp *d, int lane);
/* v_mov_b32_dpp semantics: for EXEC-on L in an enabled row and bank: source valid (in range and
 * EXEC-on) -> src[s]; invalid -> 0 if bound_ctrl else unchanged. */
void lanes_dpp_apply(const lanes_dpp *d, const uint32_t src[LANES_WAVE], uint64_t exec, uint32_t dst[LANES_WAVE]);

/* v_permlane16_swap_b32 vdst, src0 (gfx950): rows 1 and 3 of vdst swap with rows 0 and 2 of src0.
 * v_permlane32_swap_b32: lanes 32..63 of vdst swap with lanes 0..31 of src0. Both operands are
 * read and written. Only EXEC all ones is modelled (partial EXEC is an open question in docs/isa.md):
 * anything else, or gfx942, is false with a message. */
bool lanes_permlane16_swap(lanes_arch arch, uint32_t vdst[LANES_WAVE], uint32_t src0[LANES_WAVE], uint64_t exec, ll_err *err);
bool lanes_permlane32_swap(lanes_arch arch, uint32_t vdst[LANES_WAVE], uint32_t src0[LANES_WAVE], uint64_t exec, ll_err *err);

/* =============================== swizzled tiles and images =================================
 * Offsets in 8-byte units ("chunks" of 4 f16), docs/isa.md / FlashInfer:
 *   kLinear i*stride + j; k64B i*stride + (j ^ ((i/2)%4)); k128B i*stride + (j ^ (i%8));
 *   k128B_16Row i*stride + (j ^ (i%16)) (needs stride >= 16 units). */
typedef enum { LANES_SWZ_LINEAR, LANES_SWZ_64B, LANES_SWZ_128B, LANES_SWZ_128B_16ROW } lanes_swizzle;
bool lanes_swizzle_parse(const char *s, lanes_swizzle *out, ll_err *err); /* kLinear|k64B|k128B|k128B_16Row */
const char *lanes_swizzle_name(lanes_swizzle s);
uint32_t lanes_swizzle_offset(lanes_swizzle s, uint32_t stride_units, uint32_t i, uint32_t j);

/* The f16 tile region (microabi): 16 rows x 64 f16, row stride 128 bytes (16 units), 2048 bytes.
 * Logical T[r][c], c < 16, holds 16r+c; every other logical (r, c) holds 0x4000 + 64r + c. */
#define LANES_REGION_BYTES 2048u
#define LANES_REGION_ROWS 16
#define LANES_REGION_COLS 64
#define LANES_REGION_STRIDE_UNITS 16u
uint16_t lanes_region_tag(int r, int c);
/* Byte address of logical element (r, c) (c in f16 units) under swizzle s. */
uint32_t lanes_region_addr(lanes_swizzle s, int r, int c);
void lanes_region_fill(lanes_swizzle s, uint8_t out[LANES_REGION_BYTES]);
/* xorshift32 (x ^= x<<13; x ^= x>>17; x ^= x<<5), x0 = 0x1234567; one step per byte, byte = low
 * 8 bits of x after the step. Images of the b8/b4/b6 tiles (stored linearly, row-major, one row
 * per k): b8 32 rows x 16 B = 512 B; b4 128 rows x 8 B = 1024 B; b6 128 rows x 16 B (12 data +
 * 4 pad) = 2048 B. The whole image (padding included) is filled. */
void lanes_xorshift_fill(uint8_t *out, size_t n);

/* Seeds (byte addresses per lane) into the region / the b8/b4/b6 images. */
void lanes_seed_fragment(lanes_swizzle s, uint32_t addr[LANES_WAVE]);  /* row L%16, chunk L/16 */
void lanes_seed_tr16(lanes_swizzle s, uint32_t addr[LANES_WAVE]);      /* row 4(L/16)+(L%16)/4, chunk L%4 */

/* ============================ the software fragment transpose ==============================*/
typedef struct lanes_opcount {
  int ds_read_b64, ds_bpermute_b32, other;
} lanes_opcount;
/* load_fragment (ds_read_b64 at addr) then transpose_mma_tile (4x4 transpose in each quad:
 * shuffles xor 1, xor 2 (both dwords), xor 1 with 16-bit merges; then the inter-quad swap with
 * partner 16*((L%16)/4) + 4*(L/16) + L%4, both dwords). Every shuffle is a lanes_ds_bpermute
 * with address (partner*4), as HIP's __shfl lowers; ops counts what was issued (added to).
 * out[L][0..1] = the lane's two dwords. Diagnostics of the read land in rd (may be NULL). */
bool lanes_fragment_transpose(lanes_arch arch, const uint8_t *lds, size_t n, const uint32_t addr[LANES_WAVE],
                              uint32_t out[LANES_WAVE][2], lanes_opcount *ops, lanes_lds_result *rd, ll_err *err);

/* ===================================== seed solver ==========================================
 * A target says which tile element each (lane, slot) must hold; the tile is stored in LDS:
 *   16-bit targets: row stride 128 B, swizzle in 8-byte chunks (default k128B), base 0;
 *   8/4/6-bit targets: linear, row stride 16 / 8 / 16 B (microabi).
 * Targets: mfma16x16x16_a, mfma16x16x16_b, mfma16x16x32_a, mfma16x16x32_b (f16),
 *          mfma16x16x32_fp8_a, mfma16x16x32_fp8_b, mfma16x16x128_fp4_b, mfma16x16x128_fp6_b
 *          (the last two: the first 16 items of each lane's B operand). Built from lanes_mfma. */
#define LANES_MAX_SLOTS 32
typedef struct lanes_target {
  char name[48];
  const char *instr;                 /* the MFMA it feeds */
  lanes_operand operand;
  int rows, cols;                    /* tile shape (row = k for B, = i for A) */
  int elem_bits;                     /* 16, 8, 4, 6 */
  int slots;                         /* items per lane */
  int row_bytes;                     /* LDS row stride */
  lanes_swizzle swizzle;
  int16_t row[LANES_WAVE][LANES_MAX_SLOTS], col[LANES_WAVE][LANES_MAX_SLOTS];
} lanes_target;
bool lanes_target_get(const char *name, lanes_swizzle swz, lanes_target *out, ll_err *err);
size_t lanes_target_count(void);
const char *lanes_target_name(size_t i);
/* Bit address (in bits from LDS byte 0) of tile element (r, c) of target t. */
uint64_t lanes_target_bitaddr(const lanes_target *t, int r, int c);
/* Fill an image holding t's tile: 16-bit targets get tags 16r+c (rows*cols < 65536), narrower ones
 * xorshift bytes; returns the image size (<= cap), 0 if cap is too small. */
size_t lanes_target_image(const lanes_target *t, uint8_t *buf, size_t cap);

typedef struct lanes_affine {       /* f(L) = c0 + sum coef[t] * ((L >> lo[t]) & (2^w[t]-1)) */
  int c0, nterms;
  int coef[6], lo[6], w[6];
  bool ok;                          /* false: not affine in lane bit-fields */
} lanes_affine;
/* "4*(L/16) + (L%16)/4" */
void lanes_affine_format(const lanes_affine *f, char *buf, size_t cap);
int lanes_affine_eval(const lanes_affine *f, int lane);
/* Fit f from 64 samples; ok=false if no affine bit-field form reproduces all 64. */
lanes_affine lanes_affine_fit(const int v[LANES_WAVE]);

typedef struct lanes_seed {
  bool found;
  char why[400];                    /* when !found: the reason, naming the lane and elements */
  lanes_ds_op via;
  int reads;                        /* primitive issues per lane (slots / elements per read) */
  /* per read r and lane: the tile element the lane's read starts at, and its byte address */
  int row[4][LANES_WAVE], col[4][LANES_WAVE];
  uint32_t addr[4][LANES_WAVE];
  lanes_affine row_form[4], col_form[4];
  char closed_form[4][200];          /* "row = 4*(L/16) + (L%16)/4, col = 4*(L%4)" */
  /* end-to-end check: the primitive model run on element-index images reproduces the target */
  int checked, mismatches;          /* over lanes x slots */
  char check_note[200];
  /* what each (lane, slot) holds after running the primitive at the seed, traced through the
   * model: row-major tile element index (row*cols + col), -1 if not a tile element */
  int32_t traced[LANES_WAVE][LANES_MAX_SLOTS];
} lanes_seed;
/* What one read of `via` at addr delivers from t's tile, traced through the read model on
 * bit-plane images of (element index + 1): elem[L][k] (k < 32*dwords/t->elem_bits) = the
 * row-major element index (row*cols + col) slot k of lane L holds, -1 if none; diag gets the
 * read's ISA-requirement problems. */
bool lanes_trace_read(const lanes_target *t, lanes_ds_op via, lanes_arch arch, const uint32_t addr[LANES_WAVE],
                      int32_t elem[LANES_WAVE][LANES_MAX_SLOTS], lanes_lds_result *diag, ll_err *err);
/* Solve: derive each lane's address from the primitive's rule inverted, then verify by running
 * the model. !found is a result, not an error; err only for bad input (unknown combination). */
bool lanes_seed_solve(const lanes_target *t, lanes_ds_op via, lanes_arch arch, lanes_seed *out, ll_err *err);

/* ===================================== lane-map diff =======================================
 * Compare per-lane dword arrays slot by slot (slot_bits 4/6/8/16/32 over ndw dwords per lane). */
#define LANES_DIFF_LIST 64
typedef struct lanes_mismatch { int lane, slot; uint32_t want, got; } lanes_mismatch;
typedef struct lanes_diff {
  int compared, mismatches, listed;
  lanes_mismatch list[LANES_DIFF_LIST];
} lanes_diff;
void lanes_diff_dwords(const uint32_t *want, const uint32_t *got, int ndw, int slot_bits, lanes_diff *out);
/* "0/256 mismatches" or "3/256 mismatches: lane 0 slot 1 want 0x10 got 0x40, ..." */
void lanes_diff_format(const lanes_diff *d, char *buf, size_t cap);
uint32_t lanes_slot_get(const uint32_t *dwords, int slot, int slot_bits);

/* ======================== micro-kernel expectations (for verify) ===========================
 * Data-movement micro-kernels (microabi): lane_load_fragment, lane_fragment_transpose (both
 * arches), lane_tr16_fragment_seed, lane_tr16_solved_seed, lane_tr8, lane_tr4, lane_tr6 (gfx950).
 * The kernel writes out[lane*ndw + d] then out[64*ndw + lane] = its LDS byte address. */
typedef struct lanes_kernel_info {
  const char *name;
  int ndw;                    /* 2 or 3 */
  size_t image_bytes;         /* 2048, 512, 1024, 2048 */
  unsigned arches;
  int slot_bits;              /* for lanes_diff_dwords: 16, 8, 4, 6 */
  const char *what;
} lanes_kernel_info;
/* NULL + LL_EXIT_USAGE if unknown or not a pure data-movement kernel (lane_xlane, lane_mfma_*
 * are named in the message as not covered). */
const lanes_kernel_info *lanes_kernel_find(const char *name, ll_err *err);
/* The image the kernel gets (k128B region for the f16 kernels, xorshift bytes otherwise). */
bool lanes_kernel_image(const char *name, uint8_t *buf, size_t cap, size_t *n, ll_err *err);
/* Expected result of the kernel on `image`: out_dwords[64*ndw], out_addrs[64] (the model's own
 * seeds), ndw. Fails (LL_EXIT_USAGE) on arch mismatch, e.g. a tr kernel on gfx942. The model's
 * read diagnostics must be clean; otherwise false with the problem (a model bug: LL_EXIT_FAIL). */
bool lanes_expected_dump(const char *name, lanes_arch arch, const uint8_t *image, size_t n,
                         uint32_t *out_dwords, uint32_t *out_addrs, int *ndw, ll_err *err);

/* ============================ delivery at any addresses (deliver.c) ========================
 * PRIMITIVE: an LDS read mnemonic (ds_read_b32/b64/b96/b128, ds_read_b64_tr_b16/_b8/_b4,
 * ds_read_b96_tr_b6) or "fragment_transpose" (load_fragment + transpose_mma_tile). */
bool lanes_primitive_parse(const char *prim, bool *xpose, lanes_ds_op *op, ll_err *err);
/* Per-lane byte addresses from a formula in L: integers (C syntax), L, + - * / % << >> & | ^ ~ and
 * parentheses, e.g. "8*(L%16)+128*(L/16)"; bad syntax, division by zero or an address outside
 * 0..2^32-1 is LL_EXIT_USAGE naming it. */
bool lanes_addr_expr(const char *expr, uint32_t addr[LANES_WAVE], ll_err *err);
/* 64 unsigned integers (decimal or 0x), separated by spaces, newlines or commas; '#' comments. */
bool lanes_addr_file(const char *path, uint32_t addr[LANES_WAVE], ll_err *err);
/* A path to an existing file is read as the file, anything else as the formula. */
bool lanes_addr_arg(const char *arg, uint32_t addr[LANES_WAVE], ll_err *err);
/* The built-in seeds: "fragment" (row L%16, chunk L/16, k128B; 16-bit primitives only) or "solved"
 * (lanes_seed_solve for the primitive's target: mfma16x16x16_a for ds_read_b64 and
 * fragment_transpose, _b for tr_b16, the fp8/fp4/fp6 B targets for tr_b8/b4/b6). form gets
 * "fragment seed: row = L%16, col = 4*(L/16)" or the solver's closed form. */
bool lanes_seed_named(const char *prim, const char *seed, lanes_arch arch, uint32_t addr[LANES_WAVE], char *form,
                      size_t cap, ll_err *err);
typedef struct lanes_delivery {
  uint32_t addr[LANES_WAVE];
  int slots, slot_bits;                     /* items per lane and their width */
  int rows, cols;                           /* the tile the elements are named in */
  int32_t tag[LANES_WAVE][LANES_MAX_SLOTS];  /* 16-bit: the value; narrow: = elem */
  int32_t elem[LANES_WAVE][LANES_MAX_SLOTS]; /* row-major tile element index (row*cols + col), -1 if none */
  char tile[240];                           /* what the tile is and what a tag means */
  lanes_lds_result diag;                    /* the read's ISA-requirement problems */
  lanes_opcount ops;                        /* fragment_transpose: what it issued */
} lanes_delivery;
/* Runs PRIMITIVE at addr: 16-bit and plain reads on the f16 region (lanes_region_fill, k128B;
 * elements 16 x 64), the narrow transposing reads on their target's linear tile, traced. */
bool lanes_deliver(lanes_arch arch, const char *prim, const uint32_t addr[LANES_WAVE], lanes_delivery *out, ll_err *err);
/* A user's own LDS tile: "rows=R,cols=C,elem=BYTES,stride=ROW_BYTES[,swizzle=S]" (elem 1, 2 or 4;
 * S kLinear (default), k64B, k128B or k128B_16Row, which apply to 2-byte elements in 8-byte
 * chunks as lanelab's own tiles do; the tile must fit 64 KiB). false + LL_EXIT_USAGE naming the
 * part. lanes_deliver_tile runs a plain read PRIMITIVE (not fragment_transpose) at addr over that
 * tile and names what every slot holds by the tile's row-major element index (tag = elem). */
bool lanes_tile_parse(const char *spec, lanes_target *t, ll_err *err);
bool lanes_deliver_tile(lanes_arch arch, const char *prim, const uint32_t addr[LANES_WAVE], const lanes_target *tile,
                        lanes_delivery *out, ll_err *err);

/* ================================ model checks (verify "model") ============================
 * The seed change's facts, computed by the model and compared with the published values:
 * lane 0 tags at the fragment seed {0,64,128,192} (tr_b16) vs software {0,16,32,48}; 0/256 at
 * the solved seed; the solver's closed form; op count 1 ds_read_b64 + 6 ds_bpermute_b32;
 * tr reads are absent on gfx942; every tr target solved and verified. Render with
 * table/table.h columns "check,expected,got,result" (lanes/ uses only util/). */
#define LANES_MAX_CHECKS 32
typedef struct lanes_check {
  char name[80], expected[160], got[200];
  bool pass;
} lanes_check;
typedef struct lanes_checks {
  int n, failed;
  lanes_check c[LANES_MAX_CHECKS];
} lanes_checks;
/* true iff every check passed. */
bool lanes_model_checks(lanes_arch arch, lanes_checks *out);

#endif
