/* Tests for the emulator's cross-lane family (emu/op_xlane.c): DPP lane selection, ds_bpermute_b32,
 * ds_permute_b32, ds_swizzle_b32, v_permlane16/32_swap_b32 and the transposing LDS reads, on the
 * arches that have them. Snippets are assembled with llvm-mc-22 and run on a hand-built wave
 * (tests/emu_snippets/snippet.h). Expected values are computed here from the rules as
 * docs/isa.md states them (for the transposing reads: its per-instruction table, not the
 * one-form rule the emulator implements), never by running the emulator. */
#include "tests/emu_snippets/snippet.h"

static void fill(snip *s, int reg, uint32_t seed)
{
  for (int l = 0; l < 64; l++) sn_v(s, reg)[l] = sn_rand(&seed);
}

/* ---- ds_bpermute_b32 / ds_permute_b32 ---------------------------------------------------------*/
static void bpermute_case(emu_arch arch, uint64_t exec, int offset, uint32_t seed)
{
  char *t = ll_fmt("ds_bpermute_b32 v3, v1, v2%s", offset ? " offset:20" : "");
  snip *s = sn_new(arch, t);
  fill(s, 2, seed);
  fill(s, 3, seed * 7 + 1);
  uint32_t st = seed + 3, addr[64], data[64], old[64];
  for (int l = 0; l < 64; l++) addr[l] = sn_v(s, 1)[l] = sn_rand(&st) & 0x3ff; /* any address: lane = (a/4) mod 64 */
  memcpy(data, sn_v(s, 2), sizeof data);
  memcpy(old, sn_v(s, 3), sizeof old);
  sn_exec(s, exec);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    int src = (int)(((addr[l] + (offset ? 20 : 0)) / 4) % 64);
    uint32_t want = !(exec >> l & 1) ? old[l] : (exec >> src & 1) ? data[src] : 0;
    cr_assert_eq(sn_v(s, 3)[l], want, "%s exec %016llx lane %d (src %d)", t, (unsigned long long)exec, l, src);
  }
  free(t);
  sn_free(s);
}

Test(emu_xlane, bpermute)
{
  for (int a = 0; a < 2; a++) {
    emu_arch arch = a ? EMU_GFX950 : EMU_GFX942;
    bpermute_case(arch, ~0ull, 0, 11);
    bpermute_case(arch, ~0ull, 1, 12);
    bpermute_case(arch, 0x00ff00ff0f0f3c3cull, 0, 13);
    bpermute_case(arch, 0x8000000000000001ull, 1, 14);
  }
}

/* The destination in place of a source (gfx942's software transpose: `ds_bpermute_b32 v5, v3, v5`),
 * every lane on, on each SIMD path (emu/op_xlane.c writes the destination directly and
 * emu_bperm64 must read every source lane and address before it writes): the data register, the
 * address register, and neither. */
Test(emu_xlane, bpermute_into_a_source_register)
{
  static const struct { const char *text; int dst; } K[] = {
      {"ds_bpermute_b32 v2, v1, v2 offset:8", 2}, {"ds_bpermute_b32 v1, v1, v2 offset:8", 1},
      {"ds_bpermute_b32 v3, v1, v2 offset:8", 3}};
  bool had = emu_avx512, had2 = emu_avx2;
  for (int path = 0; path < 3; path++) {
    if (path == 1) emu_avx512 = false;
    if (path == 2) emu_avx512 = emu_avx2 = false;
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
      snip *s = sn_new(EMU_GFX942, K[k].text);
      uint32_t st = 77 + (uint32_t)k, addr[64], data[64];
      for (int l = 0; l < 64; l++) addr[l] = sn_v(s, 1)[l] = sn_rand(&st) & 0xfff, data[l] = sn_v(s, 2)[l] = sn_rand(&st);
      cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
      for (int l = 0; l < 64; l++)
        cr_assert_eq(sn_v(s, K[k].dst)[l], data[((addr[l] + 8) / 4) % 64], "%s path %d lane %d", K[k].text, path, l);
      sn_free(s);
    }
  }
  emu_avx512 = had, emu_avx2 = had2;
}

/* emu/simd.c's bperm_256 takes a vector path when every aligned 4-lane output group reads one
 * aligned 4-lane source group (bits 7:4 of addr + offset equal within each group), the scalar picks
 * otherwise. Address vectors on both sides of that test, on every SIMD path, in place and not: the
 * software transpose's five (lane ^ 1, ^ 2, ^ 16, ^ 32, the 4x4 transpose of 4-lane blocks) with
 * noise in bits 31:8 and 1:0 that the lane index drops and the offset taken back out (so the
 * groups are uniform only after the addition), then one lane of a random group strayed into another
 * source group (bit 4, bit 7 of its last lane, bit 5 of its first, bit 6 of its second). Expected:
 * the lane formula, source lane ((addr + offset) / 4) mod 64. */
static uint32_t bp_lane(int kind, int l)
{
  switch (kind) {
  case 0: return (uint32_t)(l ^ 1);
  case 1: return (uint32_t)(l ^ 2);
  case 2: return (uint32_t)(l ^ 16);
  case 3: return (uint32_t)(l ^ 32);
  default: return (uint32_t)((l & 3) | ((l >> 2) & 3) << 4 | ((l >> 4) & 3) << 2); /* 16a + 4b + c -> 16b + 4a + c */
  }
}

Test(emu_xlane, bpermute_quad_groups)
{
  static const struct { const char *text; int dst; uint32_t off; } K[] = {
      {"ds_bpermute_b32 v3, v1, v2", 3, 0}, {"ds_bpermute_b32 v2, v1, v2 offset:12", 2, 12},
      {"ds_bpermute_b32 v1, v1, v2 offset:0xfffc", 1, 0xfffc}};
  bool had = emu_avx512, had2 = emu_avx2;
  for (int path = 0; path < 3; path++) {
    if (path == 1) emu_avx512 = false;
    if (path == 2) emu_avx512 = emu_avx2 = false;
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
      for (int kind = 0; kind < 5; kind++)
        for (int stray = 0; stray < 5; stray++) {
          snip *s = sn_new(EMU_GFX942, K[k].text);
          uint32_t st = 91 + (uint32_t)(k * 25 + kind * 5 + stray), addr[64], data[64];
          for (int l = 0; l < 64; l++) {
            /* bits 31:8 and 1:0 are noise the lane index drops; the offset is taken back out */
            addr[l] = bp_lane(kind, l) * 4 + (sn_rand(&st) & 0xffffff03u) - K[k].off;
            data[l] = sn_v(s, 2)[l] = sn_rand(&st);
          }
          int g = (int)(sn_rand(&st) % 16), last = 4 * g + 3;
          if (stray == 1) addr[last] ^= 0x10; /* four source lanes away: another group */
          if (stray == 2) addr[last] ^= 0x80; /* 32 source lanes away */
          if (stray == 3) addr[4 * g] ^= 0x20;
          if (stray == 4) addr[4 * g + 1] ^= 0x40;
          for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = addr[l];
          cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
          for (int l = 0; l < 64; l++)
            cr_assert_eq(sn_v(s, K[k].dst)[l], data[((addr[l] + K[k].off) / 4) % 64], "%s path %d kind %d stray %d lane %d",
                         K[k].text, path, kind, stray, l);
          sn_free(s);
        }
  }
  emu_avx512 = had, emu_avx2 = had2;
}

/* __shfl_xor lowering: address (lane ^ mask) * 4 */
Test(emu_xlane, bpermute_shfl_xor)
{
  snip *s = sn_new(EMU_GFX942, "ds_bpermute_b32 v3, v1, v2");
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = (uint32_t)(l ^ 5) * 4, sn_v(s, 2)[l] = 100 + l;
  cr_assert_eq(sn_run(s), EMU_OK);
  for (int l = 0; l < 64; l++) cr_assert_eq(sn_v(s, 3)[l], 100u + (l ^ 5));
  sn_free(s);
}

static void permute_case(emu_arch arch, uint64_t exec, uint32_t seed)
{
  snip *s = sn_new(arch, "ds_permute_b32 v3, v1, v2 offset:8");
  fill(s, 2, seed);
  fill(s, 3, seed + 1);
  uint32_t st = seed + 2, addr[64], data[64], old[64];
  for (int l = 0; l < 64; l++) addr[l] = sn_v(s, 1)[l] = (sn_rand(&st) % 40) * 4; /* collisions likely */
  memcpy(data, sn_v(s, 2), sizeof data);
  memcpy(old, sn_v(s, 3), sizeof old);
  sn_exec(s, exec);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int d = 0; d < 64; d++) {
    /* the highest EXEC-on lane that targets d wins; none: 0; d itself EXEC-off: unchanged */
    int from = -1;
    for (int l = 0; l < 64; l++)
      if ((exec >> l & 1) && (int)(((addr[l] + 8) / 4) % 64) == d) from = l;
    uint32_t want = !(exec >> d & 1) ? old[d] : from < 0 ? 0 : data[from];
    cr_assert_eq(sn_v(s, 3)[d], want, "permute exec %016llx lane %d (from %d)", (unsigned long long)exec, d, from);
  }
  sn_free(s);
}

Test(emu_xlane, permute)
{
  permute_case(EMU_GFX942, ~0ull, 21);
  permute_case(EMU_GFX950, ~0ull, 22);
  permute_case(EMU_GFX942, 0xfff0000fff0000ffull, 23);
  permute_case(EMU_GFX950, 0x5555aaaa5555aaaaull, 24);
}

/* ---- ds_swizzle_b32 ----------------------------------------------------------------------------
 * LLVM prints the offset as a swizzle(...) macro the record parser does not read yet, so these
 * cases give the harness the record in LLVM's numeric syntax (the handler reads in->offset) and
 * swizzle_record_from_llvm_text checks the decoder separately. */
static snip *swizzle_snip(emu_arch arch, unsigned off)
{
  char *t = ll_fmt("ds_swizzle_b32 v3, v2 offset:0x%04x", off);
  snip *s = sn_new(arch, t);
  emu_insn *in = &s->p->insns[0];
  if (!in->implemented) { /* stand in for the decoder: numeric text, offset from the encoding */
    uint32_t dw0;
    memcpy(&dw0, s->code, 4);
    cr_assert_eq(dw0 & 0xffff, off, "encoding offset 0x%x", dw0 & 0xffff);
    char *num = ll_fmt("ds_swizzle_b32 v3, v2 offset:0x%x", off);
    char *keep = in->text;
    cr_assert(emu_insn_parse(num, in), "parse %s", num);
    in->text = keep;
    in->offset = (int32_t)off;
    int op = emu_ops_find("ds_swizzle_b32");
    cr_assert(op >= 0, "ds_swizzle_b32 has no row");
    in->fn = emu_ops_get((size_t)op)->fn;
    in->implemented = true;
    free(num);
  }
  free(t);
  return s;
}

/* source lane from the docs/isa.md text (within 32-lane halves for bitmask/rotate) */
static int swz_src(unsigned off, int l)
{
  int half = l & 32, i = l & 31;
  if (off < 0x8000) {
    int andm = off & 31, orm = (off >> 5) & 31, xorm = (off >> 10) & 31;
    return half + (((i & andm) | orm) ^ xorm);
  }
  if (off < 0xc000) {
    int sel[4] = {off & 3, (off >> 2) & 3, (off >> 4) & 3, (off >> 6) & 3};
    return (l / 4) * 4 + sel[l % 4];
  }
  if (off < 0xe000) {
    /* rotate (ROTATE,dir,n): dir 0 = left (lane i reads i+n), 1 = right (i reads i-n), mod 32 */
    int n = (off >> 5) & 31, dir = (off >> 10) & 1;
    return half + ((dir ? i - n + 32 : i + n) % 32);
  }
  /* FFT, from the ISA guide's DS_SWIZZLE_B32 pseudocode: j = reverse_bits(i & 0x1f) >>
   * count_ones(mask) | (i & mask), mask = offset[4:0], 5-bit reversal; built here digit by digit
   * from the most significant end. */
  int mask = off & 31, rev = 0, ones = 0;
  for (int b = 4, x = i; b >= 0; b--, x >>= 1) rev += (x & 1) << b;
  for (int b = 0; b < 5; b++) ones += (mask >> b) & 1;
  return half + ((rev >> ones) | (i & mask));
}

static void swizzle_case(emu_arch arch, unsigned off, uint64_t exec)
{
  snip *s = swizzle_snip(arch, off);
  fill(s, 2, off + 1);
  fill(s, 3, off + 2);
  uint32_t data[64], old[64];
  memcpy(data, sn_v(s, 2), sizeof data);
  memcpy(old, sn_v(s, 3), sizeof old);
  sn_exec(s, exec);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    int src = swz_src(off, l);
    uint32_t want = !(exec >> l & 1) ? old[l] : (exec >> src & 1) ? data[src] : 0;
    cr_assert_eq(sn_v(s, 3)[l], want, "swizzle 0x%04x exec %016llx lane %d (src %d)", off, (unsigned long long)exec, l, src);
  }
  sn_free(s);
}

Test(emu_xlane, swizzle_bitmask)
{
  /* SWAP,1 (0x041f), REVERSE,4 (0x0c1f), BROADCAST,16,3 (0x0070), an arbitrary pattern */
  unsigned offs[] = {0x041f, 0x0c1f, 0x0070, 0x1234, 0x7fff, 0x0000};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
    swizzle_case(EMU_GFX942, offs[i], ~0ull);
    swizzle_case(EMU_GFX950, offs[i], 0x0123456789abcdefull);
  }
}

Test(emu_xlane, swizzle_quad_perm)
{
  swizzle_case(EMU_GFX942, 0x801b, ~0ull); /* QUAD_PERM 3,2,1,0 */
  swizzle_case(EMU_GFX950, 0x80e4, ~0ull); /* identity */
  swizzle_case(EMU_GFX942, 0x8055, 0xf0f0f0f0ffff0000ull);
}

Test(emu_xlane, swizzle_rotate)
{
  swizzle_case(EMU_GFX942, 0xc460, ~0ull);  /* ROTATE,1,3 */
  swizzle_case(EMU_GFX950, 0xc0a0, ~0ull);  /* ROTATE,0,5 */
  swizzle_case(EMU_GFX950, 0xc7e0, 0x00ffff0000ffff00ull); /* ROTATE,1,31 */
}

/* FFT mode, per the ISA guide's pseudocode (lane_xlane's op 10 uses FFT,5) */
Test(emu_xlane, swizzle_fft)
{
  swizzle_case(EMU_GFX942, 0xe005, ~0ull);  /* FFT,5 */
  swizzle_case(EMU_GFX950, 0xe000, ~0ull);  /* FFT,0: plain 5-bit reversal */
  swizzle_case(EMU_GFX950, 0xe01f, 0x0123456789abcdefull);
  swizzle_case(EMU_GFX942, 0xe010, 0xfedcba9876543210ull);
}

/* The decoder must hand the handler the swizzle offset for LLVM's printed form
 * ("offset:swizzle(QUAD_PERM,3,2,1,0)"); the macro text is lossy for rotate (0xc01f prints as
 * ROTATE,0,0), so the offset should come from the encoding. */
/* Regression: the offset came from LLVM's printed macro, which drops the rotate mode's mask:
 * 0xc03f (rotate by 1, mask 0x1f: every lane bit kept, so each lane reads itself) prints as
 * swizzle(ROTATE,0,1). The decoder must take the offset from the encoding. */
Test(emu_xlane, swizzle_offset_from_encoding_not_the_lossy_macro)
{
  snip *s = sn_new(EMU_GFX942, "ds_swizzle_b32 v3, v2 offset:0xc03f");
  const emu_insn *in = &s->p->insns[0];
  cr_assert(strstr(in->text, "ROTATE,0,1") != NULL, "LLVM's text: %s", in->text);
  cr_assert_eq(in->offset, 0xc03f, "decoder gives offset 0x%x for '%s'", (unsigned)in->offset, in->text);
  fill(s, 2, 7);
  uint32_t data[64];
  memcpy(data, sn_v(s, 2), sizeof data);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) cr_assert_eq(sn_v(s, 3)[l], data[l], "lane %d", l);
  sn_free(s);
}

Test(emu_xlane, swizzle_record_from_llvm_text)
{
  snip *s = sn_new(EMU_GFX942, "ds_swizzle_b32 v3, v2 offset:0x801b");
  const emu_insn *in = &s->p->insns[0];
  cr_expect(in->implemented, "decoder: '%s' not usable: %s", in->text, in->why ? in->why : "");
  cr_expect_eq(in->offset, 0x801b, "decoder gives offset 0x%x for '%s'", (unsigned)in->offset, in->text);
  sn_free(s);
}

/* ---- DPP (v_mov_b32_dpp: the lane selection is the only thing under test) ---------------------*/
/* source lane per docs/isa.md's DPP list (rows of 16), -1 if none */
static int dpp_src(const char *ctl, int arg, const int *qp, int l)
{
  int r = l % 16, row = l / 16 * 16;
  if (!strcmp(ctl, "quad_perm")) return l / 4 * 4 + qp[l % 4];
  if (!strcmp(ctl, "row_shl")) return r + arg < 16 ? l + arg : -1;
  if (!strcmp(ctl, "row_shr")) return r - arg >= 0 ? l - arg : -1;
  if (!strcmp(ctl, "row_ror")) return row + (r - arg + 16) % 16;
  if (!strcmp(ctl, "wave_shl")) return l + 1 < 64 ? l + 1 : -1;
  if (!strcmp(ctl, "wave_shr")) return l - 1 >= 0 ? l - 1 : -1;
  if (!strcmp(ctl, "wave_rol")) return (l + 1) % 64;
  if (!strcmp(ctl, "wave_ror")) return (l + 63) % 64;
  if (!strcmp(ctl, "row_mirror")) return row + 15 - r;
  if (!strcmp(ctl, "row_half_mirror")) return l / 8 * 8 + 7 - l % 8;
  if (!strcmp(ctl, "row_bcast15")) return l >= 16 ? row - 1 : -1;
  if (!strcmp(ctl, "row_bcast31")) return l >= 32 ? 31 : -1;
  if (!strcmp(ctl, "row_newbcast")) return row + arg;
  return -2;
}

static void dpp_case(emu_arch arch, const char *ctl, int arg, const char *ctltext, unsigned rowm, unsigned bankm,
                     bool bound, uint64_t exec)
{
  static const int qp[4] = {2, 0, 3, 1};
  char *t = ll_fmt("v_mov_b32_dpp v3, v2 %s row_mask:0x%x bank_mask:0x%x%s", ctltext, rowm, bankm,
                   bound ? " bound_ctrl:1" : "");
  if (sn_collecting) { /* sn_with_prefill's first pass: note the text, run nothing */
    sn_note(arch, t);
    free(t);
    return;
  }
  snip *s = sn_new(arch, t);
  fill(s, 2, 77 + arg);
  fill(s, 3, 78 + arg);
  uint32_t data[64], old[64];
  memcpy(data, sn_v(s, 2), sizeof data);
  memcpy(old, sn_v(s, 3), sizeof old);
  sn_exec(s, exec);
  cr_assert_eq(sn_run(s), EMU_OK, "%s: %s", t, s->f.msg);
  for (int l = 0; l < 64; l++) {
    int src = dpp_src(ctl, arg, qp, l);
    cr_assert(src >= -1);
    bool valid = src >= 0 && (exec >> src & 1);
    /* written: EXEC on, row and bank (lanes 4b..4b+3 of each row) enabled, and a valid source or
     * bound_ctrl (then an invalid source reads 0) */
    bool wr = (exec >> l & 1) && (rowm >> (l / 16) & 1) && (bankm >> ((l % 16) / 4) & 1) && (valid || bound);
    uint32_t want = !wr ? old[l] : valid ? data[src] : 0;
    cr_assert_eq(sn_v(s, 3)[l], want, "%s exec %016llx lane %d src %d", t, (unsigned long long)exec, l, src);
  }
  free(t);
  sn_free(s);
}

static void dpp_sweep(const void *u)
{
  const uint64_t ex[] = {~0ull, 0xfedcba9876543210ull};
  for (int a = 0; a < 2; a++) {
    emu_arch arch = a ? EMU_GFX950 : EMU_GFX942;
    for (int e = 0; e < 2; e++)
      for (int b = 0; b < 2; b++) {
        uint64_t x = ex[e];
        dpp_case(arch, "quad_perm", 0, "quad_perm:[2,0,3,1]", 0xf, 0xf, b, x);
        for (int n = 1; n <= 15; n += 7) {
          char c1[32], c2[32], c3[32];
          snprintf(c1, sizeof c1, "row_shl:%d", n), snprintf(c2, sizeof c2, "row_shr:%d", n);
          snprintf(c3, sizeof c3, "row_ror:%d", n);
          dpp_case(arch, "row_shl", n, c1, 0xf, 0xf, b, x);
          dpp_case(arch, "row_shr", n, c2, 0xf, 0xf, b, x);
          dpp_case(arch, "row_ror", n, c3, 0xf, 0xf, b, x);
        }
        dpp_case(arch, "wave_shl", 1, "wave_shl:1", 0xf, 0xf, b, x);
        dpp_case(arch, "wave_shr", 1, "wave_shr:1", 0xf, 0xf, b, x);
        dpp_case(arch, "wave_rol", 1, "wave_rol:1", 0xf, 0xf, b, x);
        dpp_case(arch, "wave_ror", 1, "wave_ror:1", 0xf, 0xf, b, x);
        dpp_case(arch, "row_mirror", 0, "row_mirror", 0xf, 0xf, b, x);
        dpp_case(arch, "row_half_mirror", 0, "row_half_mirror", 0xf, 0xf, b, x);
        dpp_case(arch, "row_bcast15", 0, "row_bcast:15", 0xa, 0xf, b, x);
        dpp_case(arch, "row_bcast31", 0, "row_bcast:31", 0xc, 0xf, b, x);
        dpp_case(arch, "row_bcast15", 0, "row_bcast:15", 0xf, 0xf, b, x);
        dpp_case(arch, "row_newbcast", 5, "row_newbcast:5", 0xf, 0xf, b, x);
        dpp_case(arch, "row_shl", 1, "row_shl:1", 0x5, 0x3, b, x); /* row and bank masks */
        dpp_case(arch, "row_mirror", 0, "row_mirror", 0x6, 0x9, b, x);
      }
  }
}

/* the sweep's texts assembled in one llvm-mc run per arch (sn_with_prefill), then the sweep */
Test(emu_xlane, dpp_controls) { sn_with_prefill(dpp_sweep, NULL); }

/* DPP on a VOP2: only src0 goes through the lane selection */
Test(emu_xlane, dpp_vop2_src0_only)
{
  snip *s = sn_new(EMU_GFX950, "v_add_u32_dpp v3, v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1");
  for (int l = 0; l < 64; l++) sn_v(s, 2)[l] = 1000u * l, sn_v(s, 1)[l] = l;
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    uint32_t src0 = l % 16 ? 1000u * (l - 1) : 0;
    cr_assert_eq(sn_v(s, 3)[l], src0 + l, "lane %d", l);
  }
  sn_free(s);
}

/* 64-bit DPP (gfx90a+: row_newbcast only): both halves come from the selected lane. The 64-bit
 * source path (emu_src64, emu/exec.c) must apply the lane selection too. */
Test(emu_xlane, dpp_64bit_row_newbcast)
{
  snip *s = sn_new(EMU_GFX942, "v_mov_b64_dpp v[4:5], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf");
  for (int l = 0; l < 64; l++) sn_v(s, 2)[l] = 100u + l, sn_v(s, 3)[l] = 200u + l;
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  int bad = 0, first = -1;
  for (int l = 0; l < 64; l++) {
    int src = l / 16 * 16 + 1;
    if (sn_v(s, 4)[l] != 100u + src || sn_v(s, 5)[l] != 200u + src) bad++, first = first < 0 ? l : first;
  }
  cr_expect_eq(bad, 0, "%d lanes wrong, first lane %d = (%u, %u), expected lane %d's (%u, %u)", bad, first,
               first >= 0 ? sn_v(s, 4)[first] : 0, first >= 0 ? sn_v(s, 5)[first] : 0, first / 16 * 16 + 1,
               100u + first / 16 * 16 + 1, 200u + first / 16 * 16 + 1);
  sn_free(s);
}

/* ---- v_permlane16_swap_b32 / v_permlane32_swap_b32 (gfx950) ---------------------------------*/
static void permlane_case(int half)
{
  char *t = ll_fmt("v_permlane%d_swap_b32 v3, v2", half);
  snip *s = sn_new(EMU_GFX950, t);
  fill(s, 2, 5u + half);
  fill(s, 3, 6u + half);
  uint32_t vd[64], vs[64];
  memcpy(vd, sn_v(s, 3), sizeof vd);
  memcpy(vs, sn_v(s, 2), sizeof vs);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    /* docs/isa.md: 16: rows 0 and 2 of src0 <-> rows 1 and 3 of vdst; 32: lanes 0..31 of src0 <-> lanes 32..63 of vdst */
    bool src_side = half == 16 ? (l / 16) % 2 == 0 : l < 32;
    cr_assert_eq(sn_v(s, 2)[l], src_side ? vd[l + half] : vs[l], "%s src0 lane %d", t, l);
    cr_assert_eq(sn_v(s, 3)[l], !src_side ? vs[l - half] : vd[l], "%s vdst lane %d", t, l);
  }
  free(t);
  sn_free(s);
}

Test(emu_xlane, permlane_swaps)
{
  permlane_case(16);
  permlane_case(32);
}

/* vdst == src0 (aiter's `v_permlane32_swap_b32 v1, v1`): the lanes written through vdst and through
 * src0 are disjoint, so each taking-part lane gets its partner's old value: lane l <-> l + half for
 * the src0-side lanes (rows 0, 2 for 16; lanes 0..31 for 32). */
static void permlane_same_case(int half)
{
  char *t = ll_fmt("v_permlane%d_swap_b32 v3, v3", half);
  snip *s = sn_new(EMU_GFX950, t);
  fill(s, 3, 9u + half);
  uint32_t v[64];
  memcpy(v, sn_v(s, 3), sizeof v);
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  for (int l = 0; l < 64; l++) {
    bool src_side = half == 16 ? (l / 16) % 2 == 0 : l < 32;
    cr_assert_eq(sn_v(s, 3)[l], src_side ? v[l + half] : v[l - half], "%s lane %d", t, l);
  }
  free(t);
  sn_free(s);
}
Test(emu_xlane, permlane_swap_same_register_swaps_halves)
{
  permlane_same_case(16);
  permlane_same_case(32);
}

Test(emu_xlane, permlane_swap_exec)
{
  snip *s = sn_new(EMU_GFX950, "v_permlane32_swap_b32 v3, v2");
  fill(s, 2, 1), fill(s, 3, 2);
  uint32_t a[64], b[64];
  memcpy(a, sn_v(s, 2), sizeof a), memcpy(b, sn_v(s, 3), sizeof b);
  sn_exec(s, 0);
  cr_assert_eq(sn_run(s), EMU_OK, "EXEC = 0 is a no-op");
  cr_assert(!memcmp(a, sn_v(s, 2), sizeof a) && !memcmp(b, sn_v(s, 3), sizeof b));
  sn_exec(s, 0xffffffff00000000ull);
  cr_assert_eq(sn_run(s), EMU_FAULT);
  cr_assert_str_eq(s->f.kind, "unimplemented");
  cr_assert(strstr(s->f.msg, "partial EXEC"), "%s", s->f.msg);
  sn_free(s);
}

/* ---- transposing reads (gfx950) -------------------------------------------------------------*/
/* element e (s bits) of the little-endian bytes p */
static uint32_t elem(const uint8_t *p, int s, int e)
{
  uint32_t v = 0;
  for (int q = 0; q < s; q++) {
    int bit = s * e + q;
    v |= (uint32_t)(p[bit / 8] >> (bit % 8) & 1) << q;
  }
  return v;
}

/* expected out(L)[k] from docs/isa.md's table (which lane/element of `in` it comes from) */
static void tr_source(int kind, int L, int k, int *sl, int *se)
{
  int g = L / 16 * 16, m = L % 16;
  switch (kind) {
  case 16: /* out(16g+4a+b)[j] = in(16g+4j+a)[b] */
    *sl = g + 4 * k + m / 4, *se = m % 4;
    return;
  case 8: /* out(16g+8a+b)[j] = in(16g+2j+a)[b] */
    *sl = g + 2 * k + m / 8, *se = m % 8;
    return;
  default: /* b4, b6: out(16g+n)[j] = in(16g+j)[n] */
    *sl = g + k, *se = m;
  }
}

/* dst: the first destination register (0: the address register v1 is overwritten); portable: the
 * lane loops (emu/simd.c's paths switched off) instead of this CPU's whole-wave kernels */
static void tr_case(int kind, uint32_t seed, int offset, int dst, bool portable)
{
  const char *mn = kind == 16 ? "ds_read_b64_tr_b16" : kind == 8 ? "ds_read_b64_tr_b8" : kind == 4 ? "ds_read_b64_tr_b4"
                                                                                                   : "ds_read_b96_tr_b6";
  int bytes = kind == 6 ? 12 : 8, s = kind, E = bytes * 8 / s, slot = kind == 6 ? 16 : 8;
  char *t = ll_fmt("%s v[%d:%d], v1%s", mn, dst, dst + bytes / 4 - 1, offset ? " offset:64" : "");
  snip *sn = sn_new(EMU_GFX950, t);
  uint32_t st = seed;
  for (int i = 0; i < 8192; i++) sn->lds[i] = (uint8_t)sn_rand(&st);
  /* each lane reads a distinct aligned slot (a pseudo-random permutation of 64 slots) */
  int perm[64];
  for (int i = 0; i < 64; i++) perm[i] = i;
  for (int i = 63; i > 0; i--) {
    int j = (int)(sn_rand(&st) % (uint32_t)(i + 1)), x = perm[i];
    perm[i] = perm[j], perm[j] = x;
  }
  for (int l = 0; l < 64; l++) sn_v(sn, 1)[l] = (uint32_t)(perm[l] * slot);
  bool had = emu_avx512, had2 = emu_avx2;
  if (portable) emu_avx512 = emu_avx2 = false;
  int rc = sn_run(sn);
  emu_avx512 = had, emu_avx2 = had2;
  cr_assert_eq(rc, EMU_OK, "%s: %s", t, sn->f.msg);
  for (int L = 0; L < 64; L++) {
    uint8_t got[12] = {0};
    for (int r = 0; r < bytes / 4; r++) memcpy(got + 4 * r, &sn_v(sn, dst + r)[L], 4);
    for (int k = 0; k < E; k++) {
      int sl, se;
      tr_source(kind, L, k, &sl, &se);
      const uint8_t *in = sn->lds + perm[sl] * slot + (offset ? 64 : 0);
      cr_assert_eq(elem(got, s, k), elem(in, s, se), "%s (%s) lane %d element %d (from lane %d element %d)", t,
                   portable ? "portable" : "this CPU's path", L, k, sl, se);
    }
  }
  free(t);
  sn_free(sn);
}

Test(emu_xlane, transposing_reads)
{
  int kinds[] = {16, 8, 4, 6};
  for (int p = 0; p < 2; p++)
    for (int i = 0; i < 4; i++) {
      tr_case(kinds[i], 100u + i, 0, 4, p);
      tr_case(kinds[i], 200u + i, 1, 4, p);
      tr_case(kinds[i], 300u + i, 1, 0, p); /* the address register v1 among the destinations */
    }
}

static void tr_fault(const char *text, uint64_t exec, uint32_t addr, int bad_lane, const char *kind)
{
  snip *s = sn_new(EMU_GFX950, text);
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 16u * l;
  if (bad_lane >= 0) sn_v(s, 1)[bad_lane] = addr;
  sn_exec(s, exec);
  cr_assert_eq(sn_run(s), EMU_FAULT, "%s should fault (%s)", text, kind);
  cr_assert_str_eq(s->f.kind, kind, "%s: %s", text, s->f.msg);
  const char *m = s->f.msg;
  cr_assert(strstr(m, "gfx950") && strstr(m, "kernel snippet") && strstr(m, "pc 0x0"), "%s", m);
  cr_assert(strstr(m, text), "message lacks the instruction text: %s", m);
  if (bad_lane >= 0) {
    char want[64];
    snprintf(want, sizeof want, "lane %d address 0x%x", bad_lane, addr);
    cr_assert(strstr(m, want), "message lacks '%s': %s", want, m);
    cr_assert_eq(s->f.lane, bad_lane);
    cr_assert_eq(s->f.addr, addr);
  }
  sn_free(s);
}

Test(emu_xlane, transposing_read_faults)
{
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", 0x7fffffffffffffffull, 0, -1, "transposing read needs full exec");
  tr_fault("ds_read_b96_tr_b6 v[4:6], v1", 0xffffffff, 0, -1, "transposing read needs full exec");
  tr_fault("ds_read_b64_tr_b8 v[4:5], v1", ~0ull, 0x104, 9, "misaligned lds access");
  tr_fault("ds_read_b96_tr_b6 v[4:6], v1", ~0ull, 0x10c, 17, "misaligned lds access"); /* 12- but not 16-aligned */
  tr_fault("ds_read_b64_tr_b4 v[4:5], v1", ~0ull, 163840, 40, "lds out of range");
  tr_fault("ds_read_b96_tr_b6 v[4:6], v1", ~0ull, 163840 - 8, 3, "misaligned lds access");
  tr_fault("ds_read_b96_tr_b6 v[4:6], v1", ~0ull, 163840 - 16 + 16, 63, "lds out of range");
  /* b16 (its whole-wave path takes only a wave with every lane aligned and in range) */
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", ~0ull, 0x204, 0, "misaligned lds access");
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", ~0ull, 0x1002, 63, "misaligned lds access");
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", ~0ull, 163840 - 4, 21, "misaligned lds access");
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", ~0ull, 163840, 33, "lds out of range");
  tr_fault("ds_read_b64_tr_b16 v[4:5], v1", ~0ull, 0xfffffff8u, 7, "lds out of range");
}

/* a b6 read at a 16-aligned address ending exactly at the LDS end is fine; so is a b16 read */
Test(emu_xlane, transposing_read_last_slot)
{
  snip *s = sn_new(EMU_GFX950, "ds_read_b96_tr_b6 v[4:6], v1");
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 163840u - 16;
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  sn_free(s);
  s = sn_new(EMU_GFX950, "ds_read_b64_tr_b16 v[4:5], v1 offset:8");
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 163840u - 16;
  s->lds[163840 - 8] = 0x34, s->lds[163840 - 7] = 0x12, s->lds[163840 - 2] = 0x78, s->lds[163840 - 1] = 0x56;
  cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
  /* every lane read the same 4 words (w0 = 0x1234, w3 = 0x5678): lane m of a group takes word m % 4
   * in both halves of both registers */
  for (int l = 0; l < 64; l++) {
    uint32_t wd = l % 4 == 0 ? 0x1234u : l % 4 == 3 ? 0x5678u : 0;
    cr_assert_eq(sn_v(s, 4)[l], wd | wd << 16, "lane %d: 0x%08x", l, sn_v(s, 4)[l]);
    cr_assert_eq(sn_v(s, 5)[l], wd | wd << 16, "lane %d: 0x%08x", l, sn_v(s, 5)[l]);
  }
  sn_free(s);
}

/* ---- integration: the compiled micro-kernels (make kernels) on the full emulator --------------
 * Expected values come from the micro-kernel ABI (each kernel's header comment): the target lane
 * map each seed is meant to produce, computed here from the image; the emulator is not consulted. */
static void xs_fill(uint8_t *p, size_t n)
{
  uint32_t x = 0x1234567; /* the ABI's image generator: xorshift32, low byte per step */
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    p[i] = (uint8_t)x;
  }
}

/* tr_b16 at the solved seed: lane L holds T[4*(L/16)+j][L%16], j = 0..3 (the B operand of
 * v_mfma_f32_16x16x16_f16), T[r][c] = 16r+c stored in the k128B-swizzled f16 tile region */
Test(emu_xlane, micro_tr16_solved_seed)
{
  uint16_t img[1024];
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 64; c++) {
      int unit = 16 * r + ((c / 4) ^ (r % 8)); /* 8-byte unit of logical chunk c/4 */
      img[unit * 4 + c % 4] = (uint16_t)(c < 16 ? 16 * r + c : 0x4000 + 64 * r + c);
    }
  uint32_t out[64 * 2 + 64] = {0};
  emu_fault f;
  cr_assert_eq(sn_micro(EMU_GFX950, "lane_tr16_solved_seed", img, sizeof img, out, 192, &f), LL_EXIT_OK, "%s", f.msg);
  for (int L = 0; L < 64; L++) {
    int R = 4 * (L / 16) + (L % 16) / 4, C = L % 4;
    cr_assert_eq(out[128 + L], 8u * (16 * R + (C ^ (R % 8))), "lane %d address", L);
    for (int j = 0; j < 4; j++) {
      uint16_t got = (uint16_t)(out[2 * L + j / 2] >> (16 * (j % 2)));
      cr_assert_eq(got, 16 * (4 * (L / 16) + j) + L % 16, "lane %d element %d = 0x%04x", L, j, got);
    }
  }
}

/* tr_b8 / tr_b4 / tr_b6 at their hand-derived seeds (lane_tr8/4/6 header comments) */
static void micro_tr(const char *name, int bits, int img_bytes, int stride, int ndw, int rows_per_group, int nelem)
{
  uint8_t img[2048];
  xs_fill(img, (size_t)img_bytes);
  uint32_t out[64 * 3 + 64] = {0};
  emu_fault f;
  cr_assert_eq(sn_micro(EMU_GFX950, name, img, (size_t)img_bytes, out, (size_t)(64 * ndw + 64), &f), LL_EXIT_OK, "%s: %s",
               name, f.msg);
  for (int L = 0; L < 64; L++) {
    uint8_t got[12];
    memcpy(got, &out[ndw * L], (size_t)ndw * 4);
    for (int j = 0; j < nelem; j++) {
      int row = rows_per_group * (L / 16) + j, col = L % 16; /* target: T[rpg*(L/16)+j][L%16] */
      uint32_t want = elem(img + stride * row, bits, col);
      cr_assert_eq(elem(got, bits, j), want, "%s lane %d element %d", name, L, j);
    }
  }
}

Test(emu_xlane, micro_tr8_tr4_tr6)
{
  micro_tr("lane_tr8", 8, 512, 16, 2, 8, 8);
  micro_tr("lane_tr4", 4, 1024, 8, 2, 32, 16);
  micro_tr("lane_tr6", 6, 2048, 16, 3, 32, 16);
}

/* every micro-kernel of both arches runs to s_endpgm (what each lane holds is checked by the
 * lanes stage, tests/test_verify.c) */
Test(emu_xlane, micro_kernels_run)
{
  const char *names[] = {"lane_load_fragment", "lane_fragment_transpose", "lane_mfma_16x16x16_f16",
                         "lane_mfma_32x32x8_f16", "lane_mfma_16x16x32_f16", "lane_tr16_fragment_seed",
                         "lane_tr16_solved_seed", "lane_tr8", "lane_tr4", "lane_tr6", "lane_xlane"};
  uint8_t img[4096];
  xs_fill(img, sizeof img);
  for (int a = 0; a < 2; a++) {
    emu_arch arch = a ? EMU_GFX950 : EMU_GFX942;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      char *co = ll_fmt(LANELAB_BUILD "/%s/kernels/%s.co", emu_arch_name(arch), names[i]);
      char *skip = ll_fmt(LANELAB_BUILD "/%s/kernels/%s.skip", emu_arch_name(arch), names[i]);
      bool have = access(co, R_OK) == 0;
      cr_assert(have || access(skip, R_OK) == 0, "%s: neither built nor skipped: run `make kernels`", co);
      free(co), free(skip);
      if (!have) continue; /* arch-restricted kernel (the .skip file states why) */
      static uint32_t out[64 * 32 + 64];
      emu_fault f;
      int rc = sn_micro(arch, names[i], img, sizeof img, out, sizeof out / 4, &f);
      cr_expect_eq(rc, LL_EXIT_OK, "%s %s: %s", emu_arch_name(arch), names[i], f.msg);
    }
  }
}

/* ---- the s_waitcnt bookkeeping of LDS operations (emu/waitcnt.c) ------------------------------
 * After every record of a run of LDS operations and waits, the registers the wave holds as still
 * loading (the hazard filter's map, emu_wave.pbits) are exactly the destinations of the LDS
 * operations the ISA still counts as outstanding: each one issued adds one, a 16th retires the
 * oldest (LGKM_CNT is 0..15, CDNA3 ISA "S_WAITCNT"), s_waitcnt lgkmcnt(k) retires the oldest until k
 * remain; LDS returns in order. The outstanding list is kept here from that rule. Covers
 * one-register destinations (ds_bpermute_b32, ds_read_b32), two registers across a 64-register word
 * (v[62:64]), no destination (ds_write_b32), an AGPR destination, partial waits and lgkmcnt(0). */
Test(emu_xlane, lds_waits_leave_exactly_the_outstanding_destinations_pending)
{
  static const sn_pend_op ops[] = {
      {"ds_bpermute_b32 v10, v1, v2", 10, 1, 0}, {"ds_read_b96 v[62:64], v1", 62, 3, 0},
      {"ds_write_b32 v1, v2", 0, 0, 0},          {"ds_bpermute_b32 v11, v1, v2", 11, 1, 0},
      {"ds_read_b32 v70, v1 offset:4", 70, 1, 0}, {"ds_bpermute_b32 v10, v1, v2", 10, 1, 0},
      {"ds_bpermute_b32 v12, v1, v2", 12, 1, 0}, {"ds_bpermute_b32 v13, v1, v2", 13, 1, 0},
      {"ds_read_b64 v[20:21], v1", 20, 2, 0},    {"ds_bpermute_b32 v14, v1, v2", 14, 1, 0},
      {"ds_bpermute_b32 v15, v1, v2", 15, 1, 0}, {"ds_bpermute_b32 v30, v1, v2", 30, 1, 0},
      {"ds_bpermute_b32 v31, v1, v2", 31, 1, 0}, {"ds_bpermute_b32 v32, v1, v2", 32, 1, 0},
      {"ds_bpermute_b32 v33, v1, v2", 33, 1, 0}, {"ds_bpermute_b32 v34, v1, v2", 34, 1, 0},
      {"ds_bpermute_b32 v24, v1, v2", 24, 1, 0}, {"ds_write_b32 v1, v2 offset:8", 0, 0, 0},
      {"ds_bpermute_b32 v16, v1, v2", 16, 1, 0}, {"ds_bpermute_b32 v17, v1, v2", 17, 1, 0},
      {"ds_bpermute_b32 v18, v1, v2", 18, 1, 0}, {"ds_bpermute_b32 v19, v1, v2", 19, 1, 0},
      {"ds_read_b32 a5, v1", 5, 1, 1},         {"ds_read_b96 v[126:128], v1", 126, 3, 0},
      {"ds_bpermute_b32 v23, v1, v2", 23, 1, 0},
  };
  const int nops = (int)(sizeof ops / sizeof ops[0]);
  /* the waits after op i (-1: none): op 5 names v10 again while op 0 is outstanding (two live
   * entries on one register until a full counter retires op 0), op 17 is the only one left after
   * its wait */
  static const int wait_after[] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, 1,  -1, -1, -1, -1, -1, 5,  3};
  char *src = ll_xstrdup("");
  for (int i = 0; i < nops; i++) {
    char *t = wait_after[i] >= 0 ? ll_fmt("%s%s\ns_waitcnt lgkmcnt(%d)\n", src, ops[i].text, wait_after[i])
                                 : ll_fmt("%s%s\n", src, ops[i].text);
    free(src), src = t;
  }
  char *t = ll_fmt("%ss_waitcnt lgkmcnt(0)\n", src);
  free(src), src = t;
  snip *s = sn_new(EMU_GFX942, src);
  for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 16, sn_v(s, 2)[l] = (uint32_t)l * 4;
  int out[32], nout = 0; /* indices into ops, oldest first */
  size_t r = 0;
  for (int i = 0; i <= nops; i++) {
    /* op i (or, at i == nops, the final wait), then its wait */
    for (int step = 0; step < 2; step++) {
      int k = -1;
      if (i < nops && step == 0) {
        if (nout == 15) memmove(out, out + 1, --nout * sizeof out[0]);
        out[nout++] = i;
      } else if (i < nops && wait_after[i] >= 0) k = wait_after[i];
      else if (i == nops && step == 0) k = 0;
      else continue;
      if (k >= 0)
        while (nout > k) memmove(out, out + 1, --nout * sizeof out[0]);
      const emu_insn *in = &s->p->insns[r++];
      cr_assert_eq(in->fn(&s->w, in), EMU_OK, "%s: %s", in->text, s->f.msg);
      cr_assert_eq(s->w.ncnt[EMU_CNT_VM] + s->w.ncnt[EMU_CNT_DS] + s->w.ncnt[EMU_CNT_SMEM], nout, "after %s", in->text);
      /* every op is an LDS one, numbered 1, 2, ... in issue order and retired oldest first: the
       * youngest retired (the LDS ordering check's prefix, emu/observe.c) is the issued count less
       * the outstanding ones, whether a wait or a full counter retired it */
      const int issued = i < nops ? i + 1 : nops;
      cr_assert_eq(s->w.pseq[EMU_CNT_DS], (uint32_t)issued, "after %s", in->text);
      cr_assert_eq(s->w.pret[EMU_CNT_DS], (uint32_t)(issued - nout), "after %s: youngest retired", in->text);
      sn_assert_pending(&s->w, ops, out, nout, in->text);
      for (int kind = 1; kind <= 3; kind++) {
        bool named = false;
        for (int j = 0; j < nout; j++) named |= ops[out[j]].n && kind == (ops[out[j]].agpr ? 2 : 1);
        cr_assert_eq((s->w.pkinds >> kind & 1) != 0, named, "after %s: kind %d", in->text, kind);
      }
    }
  }
  for (int k = 0; k < 4; k++)
    for (int j = 0; j < 9; j++) cr_assert_eq(s->w.pbits[k][j], 0, "after lgkmcnt(0): map word %d of kind %d", j, k);
  cr_assert_eq(s->w.pkinds, 0, "after lgkmcnt(0): no kind named");
  free(src);
  sn_free(s);
}
