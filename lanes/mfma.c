/* lanes/mfma — MFMA operand and result layouts (wave64), both directions.
 *
 * Sources: CDNA3/CDNA4 ISA §7.1.4 (docs/isa.md "MFMA operand and result layouts"): for an M x N x K
 * instruction with B blocks, each lane holds K_L = K*M*B/64 consecutive k values;
 * A[b][i][k] is item k%K_L of lane i + M*(b + B*(k/K_L)) (B operand: same with j, N); items pack
 * little-endian into the VGPR tuple. C/D (32-bit): rows come in groups of 4 consecutive rows;
 * group g = b*(M/4) + i/4 sits in lanes j + N*(g % (64/N)), VGPR 4*(g/(64/N)) + i%4 — for one
 * block this is docs/isa.md's "16x16: lane j+16(i/4), VGPR i%4" and "32x32: lane j+32((i/4)%2),
 * VGPR 4(i/8)+i%4"; for several blocks it is our generalisation (block-major registers), noted
 * in output. C/D (64-bit): docs/isa.md's 16x16x4 f64 rule lane j+16(i%4), VGPR pair 2(i/4),
 * generalised the same way.
 * Which instruction exists on which arch: probed with llvm-mc-22 --mcpu=gfx942/gfx950
 * (an instruction the assembler rejects is absent). */
#include <stdio.h>
#include <string.h>

#include "lanes/lanes.h"

#define G2 LANES_ARCH_BIT(LANES_GFX942)
#define G5 LANES_ARCH_BIT(LANES_GFX950)
#define BOTH (G2 | G5)

static const char NOTE_BLOCKS[] =
    "multi-block: A/B by the ISA's general rule; C/D registers block-major (generalised from the "
    "one-block rule, not cross-checked against AMD's calculator)";
static const char NOTE_F64_4X4[] =
    "C/D of 4x4x4_4b f64 generalised from the 16x16x4 f64 rule: unconfirmed";
static const char NOTE_F8F6F4_FP8[] =
    "fp8/bf8 operands of f8f6f4: this is the general (contiguous) rule, which composable_kernel "
    "assumes; the CDNA4 ISA table and Triton describe a different arrangement (docs/isa.md): unconfirmed";

typedef struct {
  const char *name;
  int m, n, k, b;
  const char *type;
  int ab_bits, cd_bits;
  unsigned arches;
} row_t;

static const row_t rows[] = {
    {"v_mfma_f32_32x32x1_2b_f32", 32, 32, 1, 2, "f32", 32, 32, BOTH},
    {"v_mfma_f32_16x16x1_4b_f32", 16, 16, 1, 4, "f32", 32, 32, BOTH},
    {"v_mfma_f32_4x4x1_16b_f32", 4, 4, 1, 16, "f32", 32, 32, BOTH},
    {"v_mfma_f32_32x32x2_f32", 32, 32, 2, 1, "f32", 32, 32, BOTH},
    {"v_mfma_f32_16x16x4_f32", 16, 16, 4, 1, "f32", 32, 32, BOTH},
    {"v_mfma_f32_32x32x4_2b_f16", 32, 32, 4, 2, "f16", 16, 32, BOTH},
    {"v_mfma_f32_16x16x4_4b_f16", 16, 16, 4, 4, "f16", 16, 32, BOTH},
    {"v_mfma_f32_4x4x4_16b_f16", 4, 4, 4, 16, "f16", 16, 32, BOTH},
    {"v_mfma_f32_32x32x8_f16", 32, 32, 8, 1, "f16", 16, 32, BOTH},
    {"v_mfma_f32_16x16x16_f16", 16, 16, 16, 1, "f16", 16, 32, BOTH},
    {"v_mfma_f32_32x32x4_2b_bf16", 32, 32, 4, 2, "bf16", 16, 32, BOTH},
    {"v_mfma_f32_16x16x4_4b_bf16", 16, 16, 4, 4, "bf16", 16, 32, BOTH},
    {"v_mfma_f32_4x4x4_16b_bf16", 4, 4, 4, 16, "bf16", 16, 32, BOTH},
    {"v_mfma_f32_32x32x8_bf16", 32, 32, 8, 1, "bf16", 16, 32, BOTH},
    {"v_mfma_f32_16x16x16_bf16", 16, 16, 16, 1, "bf16", 16, 32, BOTH},
    {"v_mfma_i32_32x32x4_2b_i8", 32, 32, 4, 2, "i8", 8, 32, BOTH},
    {"v_mfma_i32_16x16x4_4b_i8", 16, 16, 4, 4, "i8", 8, 32, BOTH},
    {"v_mfma_i32_4x4x4_16b_i8", 4, 4, 4, 16, "i8", 8, 32, BOTH},
    {"v_mfma_i32_32x32x16_i8", 32, 32, 16, 1, "i8", 8, 32, BOTH},
    {"v_mfma_i32_16x16x32_i8", 16, 16, 32, 1, "i8", 8, 32, BOTH},
    {"v_mfma_f32_16x16x8_xf32", 16, 16, 8, 1, "xf32", 32, 32, G2},
    {"v_mfma_f32_32x32x4_xf32", 32, 32, 4, 1, "xf32", 32, 32, G2},
    {"v_mfma_f64_16x16x4_f64", 16, 16, 4, 1, "f64", 64, 64, BOTH},
    {"v_mfma_f64_4x4x4_4b_f64", 4, 4, 4, 4, "f64", 64, 64, BOTH},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 1, "fp8,fp8", 8, 32, BOTH},
    {"v_mfma_f32_16x16x32_fp8_bf8", 16, 16, 32, 1, "fp8,bf8", 8, 32, BOTH},
    {"v_mfma_f32_16x16x32_bf8_fp8", 16, 16, 32, 1, "bf8,fp8", 8, 32, BOTH},
    {"v_mfma_f32_16x16x32_bf8_bf8", 16, 16, 32, 1, "bf8,bf8", 8, 32, BOTH},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 1, "fp8,fp8", 8, 32, BOTH},
    {"v_mfma_f32_32x32x16_fp8_bf8", 32, 32, 16, 1, "fp8,bf8", 8, 32, BOTH},
    {"v_mfma_f32_32x32x16_bf8_fp8", 32, 32, 16, 1, "bf8,fp8", 8, 32, BOTH},
    {"v_mfma_f32_32x32x16_bf8_bf8", 32, 32, 16, 1, "bf8,bf8", 8, 32, BOTH},
    {"v_mfma_f32_16x16x32_f16", 16, 16, 32, 1, "f16", 16, 32, G5},
    {"v_mfma_f32_16x16x32_bf16", 16, 16, 32, 1, "bf16", 16, 32, G5},
    {"v_mfma_f32_32x32x16_f16", 32, 32, 16, 1, "f16", 16, 32, G5},
    {"v_mfma_f32_32x32x16_bf16", 32, 32, 16, 1, "bf16", 16, 32, G5},
    {"v_mfma_i32_16x16x64_i8", 16, 16, 64, 1, "i8", 8, 32, G5},
    {"v_mfma_i32_32x32x32_i8", 32, 32, 32, 1, "i8", 8, 32, G5},
#define F8F6F4(base, m, n, k)                                                                          \
  {base ":fp8", m, n, k, 1, "fp8", 8, 32, G5}, {base ":bf8", m, n, k, 1, "bf8", 8, 32, G5},              \
      {base ":fp6", m, n, k, 1, "fp6", 6, 32, G5}, {base ":bf6", m, n, k, 1, "bf6", 6, 32, G5},          \
      {base ":fp4", m, n, k, 1, "fp4", 4, 32, G5}
    F8F6F4("v_mfma_f32_16x16x128_f8f6f4", 16, 16, 128),
    F8F6F4("v_mfma_f32_32x32x64_f8f6f4", 32, 32, 64),
    F8F6F4("v_mfma_scale_f32_16x16x128_f8f6f4", 16, 16, 128),
    F8F6F4("v_mfma_scale_f32_32x32x64_f8f6f4", 32, 32, 64),
};
#define NROWS (sizeof rows / sizeof rows[0])

/* Legacy spellings llvm-mc accepts and prints canonically (checked with llvm-mc-22). */
static const struct { const char *alias, *canon; } aliases[] = {
    {"v_mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1_2b_f32"}, {"v_mfma_f32_16x16x1f32", "v_mfma_f32_16x16x1_4b_f32"},
    {"v_mfma_f32_4x4x1f32", "v_mfma_f32_4x4x1_16b_f32"},    {"v_mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2_f32"},
    {"v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32"},    {"v_mfma_f32_32x32x4f16", "v_mfma_f32_32x32x4_2b_f16"},
    {"v_mfma_f32_16x16x4f16", "v_mfma_f32_16x16x4_4b_f16"}, {"v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4_16b_f16"},
    {"v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16"},    {"v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16"},
    {"v_mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4_2b_bf16"}, {"v_mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4_4b_bf16"},
    {"v_mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4_16b_bf16"}, {"v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8_bf16"},
    {"v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16"}, {"v_mfma_i32_32x32x4i8", "v_mfma_i32_32x32x4_2b_i8"},
    {"v_mfma_i32_16x16x4i8", "v_mfma_i32_16x16x4_4b_i8"},   {"v_mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4_16b_i8"},
    {"v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64"},    {"v_mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4_4b_f64"},
    {"v_mfma_f32_16x16x16_bf16_1k", "v_mfma_f32_16x16x16_bf16"},
};

/* MFMAs of earlier arches that neither gfx942 nor gfx950 has (llvm-mc-22: "instruction not
 * supported on this GPU" / "invalid instruction"). */
static const char *gone[] = {
    "v_mfma_f32_32x32x2bf16", "v_mfma_f32_16x16x2bf16", "v_mfma_f32_4x4x2bf16", "v_mfma_f32_32x32x4bf16",
    "v_mfma_f32_16x16x8bf16", "v_mfma_i32_32x32x8i8", "v_mfma_i32_16x16x16i8", "v_mfma_i32_32x32x8_i8",
    "v_mfma_i32_16x16x16_i8",
};

static lanes_mfma table[NROWS];
static bool built;

static void build(void) {
  if (built) return;
  for (size_t i = 0; i < NROWS; i++) {
    const row_t *r = &rows[i];
    lanes_mfma *t = &table[i];
    t->name = r->name;
    t->m = r->m; t->n = r->n; t->k = r->k; t->blocks = r->b;
    t->ab_type = r->type;
    t->ab_bits = r->ab_bits;
    t->cd_bits = r->cd_bits;
    t->k_per_lane = r->k * r->m * r->b / LANES_WAVE;
    t->ab_regs = (t->k_per_lane * r->ab_bits + 31) / 32;
    t->cd_regs = r->m * r->n * r->b * r->cd_bits / 32 / LANES_WAVE;
    t->arches = r->arches;
    if (strstr(r->name, "f8f6f4") && r->ab_bits == 8) { t->unconfirmed = true; t->note = NOTE_F8F6F4_FP8; }
    else if (r->cd_bits == 64 && r->b > 1) { t->unconfirmed = true; t->note = NOTE_F64_4X4; }
    else if (r->b > 1) t->note = NOTE_BLOCKS;
  }
  built = true;
}

size_t lanes_mfma_count(void) { return NROWS; }
const lanes_mfma *lanes_mfma_at(size_t i) {
  build();
  return i < NROWS ? &table[i] : NULL;
}

static const char *arch_list(unsigned a) {
  return a == BOTH ? "gfx942 and gfx950" : a == G2 ? "gfx942 only" : "gfx950 only";
}

const lanes_mfma *lanes_mfma_lookup(const char *name, lanes_arch arch, ll_err *err) {
  build();
  char key[96];
  snprintf(key, sizeof key, "%s", name ? name : "");
  /* clang's builtin names (BuiltinsAMDGPU.def): __builtin_amdgcn_mfma_X is the instruction v_mfma_X,
   * spelled as llvm-mc's legacy alias where the builtin keeps the old spelling (16x16x16f16,
   * 32x32x8bf16_1k), so the aliases below finish the mapping */
  static const char bi[] = "__builtin_amdgcn_";
  if (!strncmp(key, bi, sizeof bi - 1)) snprintf(key, sizeof key, "v_%s", name + sizeof bi - 1);
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (strcmp(key, aliases[i].alias) == 0) snprintf(key, sizeof key, "%s", aliases[i].canon);
  if (strstr(key, "f8f6f4") && !strchr(key, ':')) strncat(key, ":fp8", sizeof key - strlen(key) - 1);
  for (size_t i = 0; i < NROWS; i++)
    if (strcmp(key, table[i].name) == 0) {
      if (!(table[i].arches & LANES_ARCH_BIT(arch))) {
        ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s (it is on %s; llvm-mc-22 rejects it for %s)", name,
                  lanes_arch_name(arch), arch_list(table[i].arches), lanes_arch_name(arch));
        return NULL;
      }
      return &table[i];
    }
  for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
    if (strcmp(key, gone[i]) == 0) {
      ll_seterr(err, LL_EXIT_USAGE, "%s does not exist on %s: an older MFMA that neither gfx942 nor gfx950 has "
                "(llvm-mc-22 rejects it)", name, lanes_arch_name(arch));
      return NULL;
    }
  if (strstr(key, "f8f6f4"))
    ll_seterr(err, LL_EXIT_USAGE, "unknown MFMA '%s': an f8f6f4 operand format suffix must be one of :fp8 :bf8 "
              ":fp6 :bf6 :fp4", name);
  else if (strstr(key, "smfmac"))
    ll_seterr(err, LL_EXIT_USAGE, "'%s' is a sparse MFMA; lanelab models dense MFMAs only", name);
  else
    ll_seterr(err, LL_EXIT_USAGE, "unknown MFMA '%s' (try e.g. v_mfma_f32_16x16x16_f16; `lanelab mfma list` "
              "prints all)", name);
  return NULL;
}

int lanes_mfma_rows(const lanes_mfma *mf, lanes_operand op) {
  return op == LANES_OPND_B ? mf->k : mf->blocks * mf->m;
}
int lanes_mfma_cols(const lanes_mfma *mf, lanes_operand op) {
  return op == LANES_OPND_A ? mf->k : op == LANES_OPND_B ? mf->blocks * mf->n : mf->n;
}
int lanes_mfma_regs(const lanes_mfma *mf, lanes_operand op) {
  return op <= LANES_OPND_B ? mf->ab_regs : mf->cd_regs;
}
int lanes_mfma_elem_bits(const lanes_mfma *mf, lanes_operand op) {
  return op <= LANES_OPND_B ? mf->ab_bits : mf->cd_bits;
}

bool lanes_mfma_locate(const lanes_mfma *mf, lanes_operand op, int row, int col, lanes_loc *out) {
  if (row < 0 || col < 0 || row >= lanes_mfma_rows(mf, op) || col >= lanes_mfma_cols(mf, op)) return false;
  int B = mf->blocks;
  if (op <= LANES_OPND_B) {
    int MN = op == LANES_OPND_A ? mf->m : mf->n;
    int ij = op == LANES_OPND_A ? row % MN : col % MN;
    int b = op == LANES_OPND_A ? row / MN : col / MN;
    int k = op == LANES_OPND_A ? col : row;
    int KL = mf->k_per_lane, w = mf->ab_bits;
    int t = k % KL;
    out->lane = ij + MN * (b + B * (k / KL));
    out->reg = t * w / 32;
    out->bit = t * w % 32;
    return true;
  }
  int i = row % mf->m, b = row / mf->m, j = col;
  int G = LANES_WAVE / mf->n;
  if (mf->cd_bits == 32) {
    int g = b * (mf->m / 4) + i / 4;
    out->lane = j + mf->n * (g % G);
    out->reg = 4 * (g / G) + i % 4;
  } else {
    int g = b * mf->m + i;
    out->lane = j + mf->n * (g % G);
    out->reg = 2 * (g / G);
  }
  out->bit = 0;
  return true;
}

bool lanes_mfma_element(const lanes_mfma *mf, lanes_operand op, lanes_loc loc, int *row, int *col) {
  if (loc.lane < 0 || loc.lane >= LANES_WAVE || loc.reg < 0 || loc.reg >= lanes_mfma_regs(mf, op) || loc.bit < 0 ||
      loc.bit >= 32)
    return false;
  int B = mf->blocks;
  if (op <= LANES_OPND_B) {
    int w = mf->ab_bits, pos = loc.reg * 32 + loc.bit;
    if (pos % w) return false;
    int t = pos / w;
    if (t >= mf->k_per_lane) return false;
    int MN = op == LANES_OPND_A ? mf->m : mf->n;
    int ij = loc.lane % MN, rest = loc.lane / MN, b = rest % B, k = (rest / B) * mf->k_per_lane + t;
    if (k >= mf->k) return false;
    if (op == LANES_OPND_A) { *row = b * MN + ij; *col = k; }
    else { *row = k; *col = b * MN + ij; }
    return true;
  }
  if (loc.bit != 0) return false;
  int G = LANES_WAVE / mf->n, j = loc.lane % mf->n, lg = loc.lane / mf->n, b, i;
  if (mf->cd_bits == 32) {
    int g = (loc.reg / 4) * G + lg;
    b = g / (mf->m / 4);
    i = (g % (mf->m / 4)) * 4 + loc.reg % 4;
  } else {
    if (loc.reg % 2) return false;
    int g = (loc.reg / 2) * G + lg;
    b = g / mf->m;
    i = g % mf->m;
  }
  if (b >= B) return false;
  *row = b * mf->m + i;
  *col = j;
  return true;
}
