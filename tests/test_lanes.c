/* Tests for lanes/ (the lane-map model) and the `lanelab mfma|lanes|seed` commands.
 * Expected values are written here independently: the ISA rules of docs/isa.md as
 * formulas, the microabi target definitions, published facts (docs/changes.md, change 000), or hand-worked
 * examples — never values produced by the code under test. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lanes/lanes.h"

/* ------------------------------------------------------------------------------------------ */
/* MFMA layouts                                                                                */

/* The general rule (docs/isa.md, CDNA4 ISA §7.1.4), restated: A[b][i][k] is item k%K_L of lane
 * i + M*(b + B*(k/K_L)), K_L = K*M*B/64; an item t of w bits starts at bit t*w of the tuple. */
static void ab_rule(const lanes_mfma *m, lanes_operand op, int row, int col, lanes_loc *l) {
  int MN = op == LANES_OPND_A ? m->m : m->n;
  int ij = op == LANES_OPND_A ? row % MN : col % MN, b = op == LANES_OPND_A ? row / MN : col / MN;
  int k = op == LANES_OPND_A ? col : row;
  int KL = m->k * MN * m->blocks / 64;
  l->lane = ij + MN * (b + m->blocks * (k / KL));
  l->reg = (k % KL) * m->ab_bits / 32;
  l->bit = (k % KL) * m->ab_bits % 32;
}

Test(lanes_mfma, every_layout_both_directions_exhaustive) {
  size_t n = lanes_mfma_count();
  cr_assert_gt(n, 40);
  for (size_t x = 0; x < n; x++) {
    const lanes_mfma *m = lanes_mfma_at(x);
    for (int o = 0; o < 4; o++) {
      lanes_operand op = (lanes_operand)o;
      int rows = lanes_mfma_rows(m, op), cols = lanes_mfma_cols(m, op);
      int w = lanes_mfma_elem_bits(m, op), regs = lanes_mfma_regs(m, op);
      /* every element has a distinct (lane, reg, bit) and maps back */
      if (op <= LANES_OPND_B) cr_assert_eq(rows * cols, 64 * m->k_per_lane, "%s %d", m->name, o);
      else cr_assert_eq(rows * cols * w, 64 * regs * 32, "%s %d: C/D elements do not fill the tuple", m->name, o);
      char *seen = calloc((size_t)64 * regs * 32, 1);
      for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
          lanes_loc l;
          cr_assert(lanes_mfma_locate(m, op, r, c, &l), "%s op %d (%d,%d)", m->name, o, r, c);
          if (op <= LANES_OPND_B) {
            lanes_loc e;
            ab_rule(m, op, r, c, &e);
            cr_assert(l.lane == e.lane && l.reg == e.reg && l.bit == e.bit, "%s op %d (%d,%d): got %d/%d/%d want %d/%d/%d",
                      m->name, o, r, c, l.lane, l.reg, l.bit, e.lane, e.reg, e.bit);
          }
          size_t key = ((size_t)l.lane * regs + l.reg) * 32 + l.bit;
          cr_assert_not(seen[key], "%s op %d: two elements at lane %d reg %d bit %d", m->name, o, l.lane, l.reg, l.bit);
          seen[key] = 1;
          int rr, cc;
          cr_assert(lanes_mfma_element(m, op, l, &rr, &cc));
          cr_assert(rr == r && cc == c, "%s op %d: (%d,%d) -> back (%d,%d)", m->name, o, r, c, rr, cc);
        }
      /* and the inverse direction, over every (lane, reg, bit): exactly the seen ones decode */
      int decoded = 0;
      for (int L = 0; L < 64; L++)
        for (int g = 0; g < regs; g++)
          for (int b = 0; b < 32; b++) {
            int rr, cc;
            bool ok = lanes_mfma_element(m, op, (lanes_loc){L, g, b}, &rr, &cc);
            cr_assert_eq(ok, (bool)seen[((size_t)L * regs + g) * 32 + b], "%s op %d lane %d reg %d bit %d", m->name, o,
                         L, g, b);
            decoded += ok;
          }
      cr_assert_eq(decoded, rows * cols);
      free(seen);
    }
  }
}

/* The per-instruction rows of docs/isa.md's table, each written as the table states it. */
Test(lanes_mfma, isa_table_rows) {
  ll_err e = {0};
  const lanes_mfma *m = lanes_mfma_lookup("v_mfma_f32_16x16x16_f16", LANES_GFX942, &e);
  cr_assert_not_null(m, "%s", e.msg);
  lanes_loc l;
  for (int i = 0; i < 16; i++)
    for (int k = 0; k < 16; k++) {
      lanes_mfma_locate(m, LANES_OPND_A, i, k, &l); /* lane i+16(k/4), item k%4 -> VGPR (k%4)/2, half */
      cr_assert(l.lane == i + 16 * (k / 4) && l.reg == (k % 4) / 2 && l.bit == 16 * (k % 2));
      lanes_mfma_locate(m, LANES_OPND_B, k, i, &l);
      cr_assert(l.lane == i + 16 * (k / 4) && l.reg == (k % 4) / 2 && l.bit == 16 * (k % 2));
      lanes_mfma_locate(m, LANES_OPND_D, i, k, &l); /* C/D[i][j]: lane j+16(i/4), VGPR i%4 */
      cr_assert(l.lane == k + 16 * (i / 4) && l.reg == i % 4 && l.bit == 0);
    }
  m = lanes_mfma_lookup("v_mfma_f32_32x32x8_f16", LANES_GFX950, &e);
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) {
      lanes_mfma_locate(m, LANES_OPND_C, i, j, &l);
      cr_assert(l.lane == j + 32 * ((i / 4) % 2) && l.reg == 4 * (i / 8) + i % 4);
      if (j < 8) {
        lanes_mfma_locate(m, LANES_OPND_A, i, j, &l);
        cr_assert(l.lane == i + 32 * (j / 4) && l.reg == (j % 4) / 2);
      }
    }
  m = lanes_mfma_lookup("v_mfma_f32_16x16x32_bf16", LANES_GFX950, &e);
  cr_assert_not_null(m);
  cr_assert_eq(m->ab_regs, 4);
  for (int k = 0; k < 32; k++) {
    lanes_mfma_locate(m, LANES_OPND_B, k, 5, &l);
    cr_assert(l.lane == 5 + 16 * (k / 8) && l.reg == (k % 8) / 2 && l.bit == 16 * (k % 2));
  }
  m = lanes_mfma_lookup("v_mfma_i32_16x16x64_i8", LANES_GFX950, &e);
  for (int k = 0; k < 64; k++) {
    lanes_mfma_locate(m, LANES_OPND_A, 3, k, &l); /* lane i+16(k/16), byte k%16 */
    cr_assert(l.lane == 3 + 16 * (k / 16) && l.reg == (k % 16) / 4 && l.bit == 8 * (k % 4));
  }
  m = lanes_mfma_lookup("v_mfma_f32_16x16x32_fp8_fp8", LANES_GFX942, &e);
  lanes_mfma_locate(m, LANES_OPND_A, 2, 13, &l); /* lane i+16(k/8), byte k%8 */
  cr_assert(l.lane == 2 + 16 && l.reg == 1 && l.bit == 8);
  m = lanes_mfma_lookup("v_mfma_f32_16x16x4_f32", LANES_GFX942, &e);
  lanes_mfma_locate(m, LANES_OPND_A, 7, 3, &l); /* lane i+16k */
  cr_assert(l.lane == 7 + 48 && l.reg == 0);
  m = lanes_mfma_lookup("v_mfma_f64_16x16x4_f64", LANES_GFX950, &e);
  for (int i = 0; i < 16; i++) {
    lanes_mfma_locate(m, LANES_OPND_D, i, 9, &l); /* lane j+16(i%4), VGPR pair 2(i/4) */
    cr_assert(l.lane == 9 + 16 * (i % 4) && l.reg == 2 * (i / 4) && l.bit == 0);
  }
  lanes_mfma_locate(m, LANES_OPND_A, 4, 2, &l); /* lane i+16k, VGPR pair */
  cr_assert(l.lane == 36 && l.reg == 0);
  cr_assert_eq(m->ab_regs, 2);
  cr_assert_eq(m->cd_regs, 8);
}

Test(lanes_mfma, arch_existence_and_flags) {
  ll_err e = {0};
  cr_assert_null(lanes_mfma_lookup("v_mfma_f32_16x16x32_bf16", LANES_GFX942, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "does not exist on gfx942"), "%s", e.msg);
  e = (ll_err){0};
  cr_assert_null(lanes_mfma_lookup("v_mfma_f32_16x16x8_xf32", LANES_GFX950, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  e = (ll_err){0};
  cr_assert_null(lanes_mfma_lookup("v_mfma_f32_32x32x2bf16", LANES_GFX942, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  e = (ll_err){0};
  cr_assert_null(lanes_mfma_lookup("v_mfma_nonsense", LANES_GFX950, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  const char *g950[] = {"v_mfma_f32_16x16x32_f16", "v_mfma_f32_32x32x16_bf16", "v_mfma_i32_16x16x64_i8",
                        "v_mfma_i32_32x32x32_i8", "v_mfma_f32_16x16x128_f8f6f4", "v_mfma_f32_32x32x64_f8f6f4:fp4",
                        "v_mfma_scale_f32_16x16x128_f8f6f4:fp6"};
  for (size_t i = 0; i < sizeof g950 / sizeof *g950; i++) {
    cr_assert_not_null(lanes_mfma_lookup(g950[i], LANES_GFX950, &e), "%s: %s", g950[i], e.msg);
    cr_assert_null(lanes_mfma_lookup(g950[i], LANES_GFX942, &e), "%s on gfx942", g950[i]);
  }
  /* legacy spelling resolves to the canonical instruction */
  const lanes_mfma *a = lanes_mfma_lookup("v_mfma_f32_16x16x16bf16_1k", LANES_GFX942, &e);
  cr_assert_not_null(a);
  cr_assert_str_eq(a->name, "v_mfma_f32_16x16x16_bf16");
  /* fp8 f8f6f4 flagged unconfirmed; fp4/fp6 by the general rule are not */
  cr_assert(lanes_mfma_lookup("v_mfma_f32_16x16x128_f8f6f4", LANES_GFX950, &e)->unconfirmed);
  const lanes_mfma *f4 = lanes_mfma_lookup("v_mfma_f32_16x16x128_f8f6f4:fp4", LANES_GFX950, &e);
  cr_assert_not(f4->unconfirmed);
  cr_assert_eq(f4->k_per_lane, 32);
  cr_assert_eq(f4->ab_regs, 4);
  cr_assert_eq(lanes_mfma_lookup("v_mfma_f32_16x16x128_f8f6f4:fp6", LANES_GFX950, &e)->ab_regs, 6);
  /* fp6 item 5 straddles VGPR 0/1: starts at bit 30 */
  lanes_loc l;
  lanes_mfma_locate(lanes_mfma_lookup("v_mfma_f32_16x16x128_f8f6f4:fp6", LANES_GFX950, &e), LANES_OPND_B, 5, 0, &l);
  cr_assert(l.lane == 0 && l.reg == 0 && l.bit == 30);
}

/* ------------------------------------------------------------------------------------------ */
/* LDS reads                                                                                   */

static uint32_t rnd_state = 12345;
static uint32_t rnd(void) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return rnd_state >> 8;
}

static uint32_t bits_of(const uint8_t *p, int pos, int w) {
  uint32_t v = 0;
  for (int b = 0; b < w; b++) v |= (uint32_t)((p[(pos + b) / 8] >> ((pos + b) % 8)) & 1) << b;
  return v;
}

/* docs/isa.md's table, one rule per instruction as printed there */
static void tr_expected(lanes_ds_op op, const uint8_t *img, const uint32_t *addr, int L, int j, uint32_t *want, int *w) {
  int g = L / 16, m = L % 16, src, e;
  switch (op) {
  case LANES_DS_READ_B64_TR_B16: *w = 16; src = 16 * g + 4 * j + m / 4; e = m % 4; break; /* out(16g+4a+b)[j] = in(16g+4j+a)[b] */
  case LANES_DS_READ_B64_TR_B8: *w = 8; src = 16 * g + 2 * j + m / 8; e = m % 8; break;   /* out(16g+8a+b)[j] = in(16g+2j+a)[b] */
  case LANES_DS_READ_B64_TR_B4: *w = 4; src = 16 * g + j; e = m; break;                     /* out(16g+n)[j] = in(16g+j)[n] */
  default: *w = 6; src = 16 * g + j; e = m; break;
  }
  *want = bits_of(img + addr[src], *w * e, *w);
}

Test(lanes_lds, transposing_reads_follow_isa_table) {
  uint8_t img[4096];
  for (size_t i = 0; i < sizeof img; i++) img[i] = (uint8_t)rnd();
  lanes_ds_op ops[] = {LANES_DS_READ_B64_TR_B16, LANES_DS_READ_B64_TR_B8, LANES_DS_READ_B64_TR_B4,
                       LANES_DS_READ_B96_TR_B6};
  for (int t = 0; t < 4; t++)
    for (int trial = 0; trial < 20; trial++) {
      uint32_t addr[64];
      for (int L = 0; L < 64; L++) addr[L] = (rnd() % 250) * 16;
      lanes_lds_result r;
      ll_err e = {0};
      cr_assert(lanes_ds_read(LANES_GFX950, ops[t], img, sizeof img, addr, LANES_EXEC_ALL, &r, &e), "%s", e.msg);
      cr_assert(r.ok, "%s", r.problem[0]);
      int slots = ops[t] == LANES_DS_READ_B64_TR_B16 ? 4 : ops[t] == LANES_DS_READ_B64_TR_B8 ? 8 : 16;
      for (int L = 0; L < 64; L++)
        for (int j = 0; j < slots; j++) {
          uint32_t want;
          int w;
          tr_expected(ops[t], img, addr, L, j, &want, &w);
          cr_assert_eq(lanes_slot_get(r.v[L], j, w), want, "%s lane %d slot %d", lanes_ds_op_name(ops[t]), L, j);
        }
    }
}

Test(lanes_lds, plain_reads_and_requirements) {
  uint8_t img[256];
  for (int i = 0; i < 256; i++) img[i] = (uint8_t)i;
  uint32_t addr[64];
  for (int L = 0; L < 64; L++) addr[L] = 16 * (L % 8);
  lanes_lds_result r;
  ll_err e = {0};
  cr_assert(lanes_ds_read(LANES_GFX942, LANES_DS_READ_B128, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert(r.ok);
  cr_assert_eq(r.v[3][0], 0x33323130u); /* bytes 48..51 little-endian */
  cr_assert_eq(r.v[3][3], 0x3f3e3d3cu);
  /* EXEC-off lanes read nothing */
  cr_assert(lanes_ds_read(LANES_GFX942, LANES_DS_READ_B32, img, sizeof img, addr, 0x1, &r, &e));
  cr_assert_eq(r.v[1][0], 0);
  cr_assert_eq(r.v[0][0], 0x03020100u);
  /* misalignment and out-of-range are reported, not fatal */
  addr[5] = 4;
  cr_assert(lanes_ds_read(LANES_GFX942, LANES_DS_READ_B64, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert_not(r.ok);
  cr_assert(strstr(r.problem[0], "lane 5") && strstr(r.problem[0], "aligned"), "%s", r.problem[0]);
  addr[5] = 256;
  cr_assert(lanes_ds_read(LANES_GFX942, LANES_DS_READ_B64, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert_not(r.ok);
  cr_assert(strstr(r.problem[0], "outside"), "%s", r.problem[0]);
  /* tr_b6 alignment is 16 bytes */
  for (int L = 0; L < 64; L++) addr[L] = 0;
  addr[9] = 12;
  cr_assert(lanes_ds_read(LANES_GFX950, LANES_DS_READ_B96_TR_B6, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert_not(r.ok);
}

Test(lanes_lds, exec_not_all_ones_transposing_read_is_reported) {
  uint8_t img[LANES_REGION_BYTES];
  uint32_t addr[64];
  lanes_region_fill(LANES_SWZ_128B, img);
  lanes_seed_tr16(LANES_SWZ_128B, addr);
  lanes_lds_result r;
  ll_err e = {0};
  cr_assert(lanes_ds_read(LANES_GFX950, LANES_DS_READ_B64_TR_B16, img, sizeof img, addr, ~(1ull << 17), &r, &e));
  cr_assert_not(r.ok);
  cr_assert_geq(r.nproblems, 1);
  cr_assert(strstr(r.problem[0], "EXEC"), "%s", r.problem[0]);
  cr_assert(lanes_ds_read(LANES_GFX950, LANES_DS_READ_B64_TR_B16, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert(r.ok);
}

Test(lanes_lds, tr_reads_do_not_exist_on_gfx942) {
  uint8_t img[64] = {0};
  uint32_t addr[64] = {0};
  lanes_lds_result r;
  ll_err e = {0};
  cr_assert_not(lanes_ds_read(LANES_GFX942, LANES_DS_READ_B64_TR_B8, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert(strstr(e.msg, "does not exist on gfx942"), "%s", e.msg);
}

/* ------------------------------------------------------------------------------------------ */
/* The seed change's facts (docs/changes.md, change 000, docs/isa.md)                                               */

static void lane0(const uint32_t *d, uint32_t t[4]) {
  t[0] = d[0] & 0xffff; t[1] = d[0] >> 16; t[2] = d[1] & 0xffff; t[3] = d[1] >> 16;
}

Test(lanes_seed_facts, fragment_seed_hardware_vs_software_lane0) {
  uint8_t img[LANES_REGION_BYTES];
  uint32_t addr[64], t[4];
  lanes_swizzle modes[] = {LANES_SWZ_LINEAR, LANES_SWZ_64B, LANES_SWZ_128B, LANES_SWZ_128B_16ROW};
  for (int s = 0; s < 4; s++) {
    lanes_region_fill(modes[s], img);
    lanes_seed_fragment(modes[s], addr);
    lanes_lds_result r;
    ll_err e = {0};
    cr_assert(lanes_ds_read(LANES_GFX950, LANES_DS_READ_B64_TR_B16, img, sizeof img, addr, LANES_EXEC_ALL, &r, &e));
    lane0(r.v[0], t);
    cr_assert(t[0] == 0 && t[1] == 64 && t[2] == 128 && t[3] == 192, "%s: {%u,%u,%u,%u}", lanes_swizzle_name(modes[s]),
              t[0], t[1], t[2], t[3]);
    uint32_t sw[64][2];
    lanes_opcount ops = {0};
    cr_assert(lanes_fragment_transpose(LANES_GFX942, img, sizeof img, addr, sw, &ops, NULL, &e));
    lane0(sw[0], t);
    cr_assert(t[0] == 0 && t[1] == 16 && t[2] == 32 && t[3] == 48);
    cr_assert_eq(ops.ds_read_b64, 1);
    cr_assert_eq(ops.ds_bpermute_b32, 6);
    /* the software path yields the B layout: lane L holds T[4(L/16)+j][L%16] (microabi) */
    for (int L = 0; L < 64; L++)
      for (int j = 0; j < 4; j++)
        cr_assert_eq(lanes_slot_get(sw[L], j, 16), (uint32_t)(16 * (4 * (L / 16) + j) + L % 16));
  }
}

Test(lanes_seed_facts, solved_seed_matches_software_path_0_of_256) {
  uint8_t img[LANES_REGION_BYTES];
  uint32_t frag[64], tr[64], sw[64][2];
  lanes_region_fill(LANES_SWZ_128B, img);
  lanes_seed_fragment(LANES_SWZ_128B, frag);
  /* the published seed, written here: row = 4(L/16) + (L%16)/4, chunk = L%4, k128B */
  for (int L = 0; L < 64; L++) {
    int row = 4 * (L / 16) + (L % 16) / 4, chunk = L % 4;
    tr[L] = (uint32_t)(row * 128 + 8 * (chunk ^ (row % 8)));
  }
  ll_err e = {0};
  lanes_lds_result r;
  cr_assert(lanes_fragment_transpose(LANES_GFX950, img, sizeof img, frag, sw, NULL, NULL, &e));
  cr_assert(lanes_ds_read(LANES_GFX950, LANES_DS_READ_B64_TR_B16, img, sizeof img, tr, LANES_EXEC_ALL, &r, &e));
  uint32_t a[128], b[128];
  for (int L = 0; L < 64; L++) a[2 * L] = sw[L][0], a[2 * L + 1] = sw[L][1], b[2 * L] = r.v[L][0], b[2 * L + 1] = r.v[L][1];
  lanes_diff d;
  lanes_diff_dwords(a, b, 2, 16, &d);
  char buf[256];
  lanes_diff_format(&d, buf, sizeof buf);
  cr_assert_str_eq(buf, "0/256 mismatches");
}

Test(lanes_seed_facts, solver_finds_the_cdna4_prefill_seed) {
  lanes_target t;
  lanes_seed s;
  ll_err e = {0};
  cr_assert(lanes_target_get("mfma16x16x16_b", LANES_SWZ_128B, &t, &e), "%s", e.msg);
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B16, LANES_GFX950, &s, &e), "%s", e.msg);
  cr_assert(s.found, "%s", s.why);
  cr_assert_eq(s.reads, 1);
  for (int L = 0; L < 64; L++) {
    cr_assert_eq(s.row[0][L], 4 * (L / 16) + (L % 16) / 4);
    cr_assert_eq(s.col[0][L], 4 * (L % 4));
  }
  cr_assert_str_eq(s.closed_form[0], "row = 4*(L/16) + (L%16)/4, col = 4*(L%4) (chunk = L%4)");
  cr_assert_eq(s.checked, 256);
  cr_assert_eq(s.mismatches, 0);
  uint32_t ref[64];
  lanes_seed_tr16(LANES_SWZ_128B, ref);
  cr_assert_arr_eq(s.addr[0], ref, sizeof ref);
  /* every swizzle mode: the logical seed is the same, addresses follow the swizzle */
  lanes_swizzle modes[] = {LANES_SWZ_LINEAR, LANES_SWZ_64B, LANES_SWZ_128B_16ROW};
  for (int m = 0; m < 3; m++) {
    cr_assert(lanes_target_get("mfma16x16x16_b", modes[m], &t, &e));
    cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B16, LANES_GFX950, &s, &e));
    cr_assert(s.found);
    cr_assert_str_eq(s.closed_form[0], "row = 4*(L/16) + (L%16)/4, col = 4*(L%4) (chunk = L%4)");
  }
}

Test(lanes_seed_solver, narrow_targets_and_x32) {
  ll_err e = {0};
  lanes_target t;
  lanes_seed s;
  /* b8: lane s (in group g) must read row 8g + (s%16)/2, bytes 8(s%2).. (from the microabi target
   * and the tr_b8 rule: out(16g+8a+b)[j] = in(16g+2j+a)[b] = T[8g+j][8a+b]) */
  cr_assert(lanes_target_get("mfma16x16x32_fp8_b", LANES_SWZ_LINEAR, &t, &e), "%s", e.msg);
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B8, LANES_GFX950, &s, &e));
  cr_assert(s.found, "%s", s.why);
  for (int L = 0; L < 64; L++) cr_assert_eq(s.addr[0][L], (uint32_t)(16 * (8 * (L / 16) + (L % 16) / 2) + 8 * (L % 2)));
  cr_assert_str_eq(s.closed_form[0], "row = 8*(L/16) + (L%16)/2, col = 8*(L%2)");
  /* b4 / b6: lane s reads the whole row 32g + s%16 */
  cr_assert(lanes_target_get("mfma16x16x128_fp4_b", LANES_SWZ_LINEAR, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B4, LANES_GFX950, &s, &e));
  cr_assert(s.found, "%s", s.why);
  for (int L = 0; L < 64; L++) cr_assert_eq(s.addr[0][L], (uint32_t)(8 * (32 * (L / 16) + L % 16)));
  cr_assert_str_eq(s.closed_form[0], "row = 32*(L/16) + L%16, col = 0");
  cr_assert(lanes_target_get("mfma16x16x128_fp6_b", LANES_SWZ_LINEAR, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B96_TR_B6, LANES_GFX950, &s, &e));
  cr_assert(s.found, "%s", s.why);
  for (int L = 0; L < 64; L++) cr_assert_eq(s.addr[0][L], (uint32_t)(16 * (32 * (L / 16) + L % 16)));
  cr_assert_eq(s.checked, 64 * 16);
  /* 16x16x32 f16 B: two reads, rows 8(L/16) + 4r + (L%16)/4 */
  cr_assert(lanes_target_get("mfma16x16x32_b", LANES_SWZ_128B, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B16, LANES_GFX950, &s, &e));
  cr_assert(s.found, "%s", s.why);
  cr_assert_eq(s.reads, 2);
  for (int r = 0; r < 2; r++)
    for (int L = 0; L < 64; L++) cr_assert_eq(s.row[r][L], 8 * (L / 16) + 4 * r + (L % 16) / 4);
  /* A layouts via plain ds_read_b64: the load_fragment seed */
  cr_assert(lanes_target_get("mfma16x16x16_a", LANES_SWZ_128B, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64, LANES_GFX942, &s, &e));
  cr_assert(s.found);
  cr_assert_str_eq(s.closed_form[0], "row = L%16, col = 4*(L/16) (chunk = L/16)");
  cr_assert(lanes_target_get("mfma16x16x32_a", LANES_SWZ_128B, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64, LANES_GFX942, &s, &e));
  cr_assert(s.found);
  cr_assert_eq(s.reads, 2);
  for (int L = 0; L < 64; L++) cr_assert_eq(s.col[1][L], 8 * (L / 16) + 4);
}

Test(lanes_seed_solver, no_seed_cases_say_why) {
  ll_err e = {0};
  lanes_target t;
  lanes_seed s;
  cr_assert(lanes_target_get("mfma16x16x16_b", LANES_SWZ_128B, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64, LANES_GFX950, &s, &e));
  cr_assert_not(s.found);
  /* lane 0 would need T[0][0] and T[1][0] side by side: they are a row (128 B) apart */
  cr_assert(strstr(s.why, "T[0][0]") && strstr(s.why, "T[1][0]") && strstr(s.why, "not adjacent"), "%s", s.why);
  cr_assert(lanes_target_get("mfma16x16x16_a", LANES_SWZ_128B, &t, &e));
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B16, LANES_GFX950, &s, &e));
  cr_assert_not(s.found);
  cr_assert(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B8, LANES_GFX950, &s, &e));
  cr_assert_not(s.found);
  cr_assert(strstr(s.why, "8-bit"), "%s", s.why);
  /* an op absent on the arch is bad input, not "no seed" */
  cr_assert_not(lanes_seed_solve(&t, LANES_DS_READ_B64_TR_B16, LANES_GFX942, &s, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  e = (ll_err){0};
  cr_assert_not(lanes_target_get("mfma16x16x32_fp8_b", LANES_SWZ_128B, &t, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert_not(lanes_target_get("nope", LANES_SWZ_128B, &t, &e));
}

Test(lanes_seed_solver, affine_fit_and_format) {
  int v[64];
  for (int L = 0; L < 64; L++) v[L] = 5 + 2 * (L % 4) - 3 * (L / 16);
  lanes_affine f = lanes_affine_fit(v);
  cr_assert(f.ok);
  char b[128];
  lanes_affine_format(&f, b, sizeof b);
  cr_assert_str_eq(b, "-3*(L/16) + 2*(L%4) + 5");
  for (int L = 0; L < 64; L++) cr_assert_eq(lanes_affine_eval(&f, L), v[L]);
  for (int L = 0; L < 64; L++) v[L] = (L & 1) ^ ((L >> 1) & 1); /* xor of bits: not affine */
  f = lanes_affine_fit(v);
  cr_assert_not(f.ok);
}

/* ------------------------------------------------------------------------------------------ */
/* Cross-lane ops                                                                               */

static void iota(uint32_t *s, uint32_t base) {
  for (int L = 0; L < 64; L++) s[L] = base + (uint32_t)L;
}

Test(lanes_xlane, bpermute_worked_examples) {
  uint32_t src[64], addr[64], dst[64];
  iota(src, 100);
  /* __shfl_xor(v, 1) lowers to ds_bpermute with address (lane^1)*4 */
  for (int L = 0; L < 64; L++) addr[L] = (uint32_t)(L ^ 1) * 4, dst[L] = 7;
  lanes_ds_bpermute(src, addr, LANES_EXEC_ALL, dst);
  cr_assert_eq(dst[0], 101);
  cr_assert_eq(dst[1], 100);
  cr_assert_eq(dst[63], 162);
  /* address is taken mod 64 lanes: byte 4*65 reads lane 1; low 2 bits ignored */
  addr[0] = 4 * 65 + 3;
  /* EXEC off on lane 5: lane 4 (reading 5) gets 0; lane 5 is not written */
  uint64_t exec = LANES_EXEC_ALL & ~(1ull << 5);
  for (int L = 0; L < 64; L++) dst[L] = 7;
  lanes_ds_bpermute(src, addr, exec, dst);
  cr_assert_eq(dst[0], 101);
  cr_assert_eq(dst[4], 0);
  cr_assert_eq(dst[5], 7);
  /* in place: every source read before any write */
  uint32_t v[64];
  iota(v, 0);
  for (int L = 0; L < 64; L++) addr[L] = (uint32_t)((L + 1) % 64) * 4;
  lanes_ds_bpermute(v, addr, LANES_EXEC_ALL, v);
  for (int L = 0; L < 64; L++) cr_assert_eq(v[L], (uint32_t)((L + 1) % 64));
}

Test(lanes_xlane, permute_worked_examples) {
  uint32_t src[64], addr[64], dst[64];
  iota(src, 200);
  /* every lane targets lane 0: the highest lane wins; untargeted EXEC-on lanes get 0 */
  for (int L = 0; L < 64; L++) addr[L] = 0, dst[L] = 9;
  lanes_ds_permute(src, addr, LANES_EXEC_ALL, dst);
  cr_assert_eq(dst[0], 263);
  for (int L = 1; L < 64; L++) cr_assert_eq(dst[L], 0);
  /* lanes 62, 63 off: lane 61 wins; off destinations keep their value */
  uint64_t exec = LANES_EXEC_ALL >> 2;
  for (int L = 0; L < 64; L++) dst[L] = 9;
  lanes_ds_permute(src, addr, exec, dst);
  cr_assert_eq(dst[0], 261);
  cr_assert_eq(dst[62], 9);
  /* a scatter that reverses the wave */
  for (int L = 0; L < 64; L++) addr[L] = (uint32_t)(63 - L) * 4;
  lanes_ds_permute(src, addr, LANES_EXEC_ALL, dst);
  for (int L = 0; L < 64; L++) cr_assert_eq(dst[L], 200u + (uint32_t)(63 - L));
}

Test(lanes_xlane, swizzle_every_mode) {
  /* offsets as llvm-mc-22 encodes them: swizzle(SWAP,1) = and 0x1f, xor 1 -> 0x041f;
   * swizzle(BROADCAST,32,5) = and 0, or 5 -> 0x00a0; swizzle(REVERSE,32) = xor 0x1f -> 0x7c1f;
   * swizzle(QUAD_PERM,3,2,1,0) = 0x801b; swizzle(ROTATE,0,1) = 0xc020; swizzle(ROTATE,1,3) = 0xc460;
   * swizzle(FFT,0) = 0xe000; swizzle(FFT,31) = 0xe01f */
  for (int L = 0; L < 64; L++) {
    int h = L & 32, i = L & 31;
    cr_assert_eq(lanes_swizzle_src(0x041f, L), L ^ 1);
    cr_assert_eq(lanes_swizzle_src(0x00a0, L), h | 5);
    cr_assert_eq(lanes_swizzle_src(0x7c1f, L), h | (31 - i));
    cr_assert_eq(lanes_swizzle_src(0x801b, L), (L & ~3) | (3 - (L & 3)));
    cr_assert_eq(lanes_swizzle_src(0xc020, L), h | ((i + 1) % 32));
    cr_assert_eq(lanes_swizzle_src(0xc460, L), h | ((i + 29) % 32));
    int rev = ((i & 1) << 4) | ((i & 2) << 2) | (i & 4) | ((i & 8) >> 2) | ((i & 16) >> 4);
    cr_assert_eq(lanes_swizzle_src(0xe000, L), h | rev);
    cr_assert_eq(lanes_swizzle_src(0xe01f, L), L);
  }
  uint32_t src[64], dst[64];
  iota(src, 1000);
  for (int L = 0; L < 64; L++) dst[L] = 3;
  lanes_ds_swizzle(src, 0x041f, LANES_EXEC_ALL & ~1ull, dst);
  cr_assert_eq(dst[1], 0); /* reads EXEC-off lane 0 */
  cr_assert_eq(dst[0], 3); /* not written */
  cr_assert_eq(dst[2], 1003);
}

Test(lanes_xlane, dpp_every_control) {
  uint32_t src[64], dst[64];
  iota(src, 500);
  struct { const char *ctl; int (*want)(int); } cases[] = {
      {"quad_perm:[1,0,3,2]", NULL}, {"row_shl:1", NULL},      {"row_shr:3", NULL},       {"row_ror:4", NULL},
      {"wave_shl:1", NULL},          {"wave_rol:1", NULL},     {"wave_shr:1", NULL},      {"wave_ror:1", NULL},
      {"row_mirror", NULL},          {"row_half_mirror", NULL}, {"row_bcast:15", NULL},   {"row_bcast:31", NULL},
      {"row_newbcast:5", NULL},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (int bc = 0; bc < 2; bc++) {
      char txt[96];
      snprintf(txt, sizeof txt, "%s%s", cases[c].ctl, bc ? " bound_ctrl:0" : "");
      lanes_dpp d;
      ll_err e = {0};
      cr_assert(lanes_dpp_parse(txt, LANES_GFX942, &d, &e), "%s: %s", txt, e.msg);
      for (int L = 0; L < 64; L++) dst[L] = 7;
      lanes_dpp_apply(&d, src, LANES_EXEC_ALL, dst);
      for (int L = 0; L < 64; L++) {
        int r = L % 16, row = L / 16, s;
        switch (c) { /* the DPP_CTRL table, by hand */
        case 0: s = L ^ 1; break;
        case 1: s = r < 15 ? L + 1 : -1; break;
        case 2: s = r >= 3 ? L - 3 : -1; break;
        case 3: s = 16 * row + (r + 12) % 16; break;
        case 4: s = L < 63 ? L + 1 : -1; break;
        case 5: s = (L + 1) % 64; break;
        case 6: s = L > 0 ? L - 1 : -1; break;
        case 7: s = (L + 63) % 64; break;
        case 8: s = 16 * row + 15 - r; break;
        case 9: s = 8 * (L / 8) + 7 - L % 8; break;
        case 10: s = row ? 16 * row - 1 : -1; break;
        case 11: s = row >= 2 ? 31 : -1; break;
        default: s = 16 * row + 5; break;
        }
        uint32_t want = s >= 0 ? 500u + (uint32_t)s : bc ? 0 : 7;
        cr_assert_eq(dst[L], want, "%s lane %d", txt, L);
      }
    }
  }
  /* row/bank masks gate only the write; an EXEC-off source is invalid */
  lanes_dpp d;
  ll_err e = {0};
  cr_assert(lanes_dpp_parse("row_shr:1 row_mask:0xa bank_mask:0x1", LANES_GFX950, &d, &e));
  for (int L = 0; L < 64; L++) dst[L] = 7;
  lanes_dpp_apply(&d, src, LANES_EXEC_ALL & ~(1ull << 16), dst);
  for (int L = 0; L < 64; L++) {
    int row = L / 16, r = L % 16;
    bool writes = L != 16 && (row == 1 || row == 3) && r < 4;  /* EXEC, row_mask 0xa, bank 0 */
    bool valid = r >= 1 && L - 1 != 16;                         /* in the row, source EXEC on */
    cr_assert_eq(dst[L], writes && valid ? 500u + (uint32_t)(L - 1) : 7u, "lane %d", L);
  }
  cr_assert_not(lanes_dpp_parse("row_shl:16", LANES_GFX950, &d, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert_not(lanes_dpp_parse("row_bcast:7", LANES_GFX950, &d, &e));
  cr_assert_not(lanes_dpp_parse("row_mask:0xf", LANES_GFX950, &d, &e));
  cr_assert_not(lanes_dpp_parse("quad_perm:[0,1,2,4]", LANES_GFX950, &d, &e));
}

Test(lanes_xlane, permlane_swaps) {
  uint32_t a[64], b[64];
  iota(a, 0);
  iota(b, 100);
  ll_err e = {0};
  cr_assert(lanes_permlane16_swap(LANES_GFX950, a, b, LANES_EXEC_ALL, &e));
  for (int L = 0; L < 64; L++) {
    int row = L / 16, r = L % 16;
    /* vdst rows 1, 3 <- src0 rows 0, 2; src0 rows 0, 2 <- vdst rows 1, 3 */
    cr_assert_eq(a[L], row % 2 ? 100u + (uint32_t)(16 * (row - 1) + r) : (uint32_t)L);
    cr_assert_eq(b[L], row % 2 ? 100u + (uint32_t)L : (uint32_t)(16 * (row + 1) + r));
  }
  iota(a, 0);
  iota(b, 100);
  cr_assert(lanes_permlane32_swap(LANES_GFX950, a, b, LANES_EXEC_ALL, &e));
  for (int L = 0; L < 64; L++) {
    cr_assert_eq(a[L], L < 32 ? (uint32_t)L : 100u + (uint32_t)(L - 32));
    cr_assert_eq(b[L], L < 32 ? (uint32_t)(L + 32) : 100u + (uint32_t)L);
  }
  cr_assert_not(lanes_permlane32_swap(LANES_GFX942, a, b, LANES_EXEC_ALL, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert_not(lanes_permlane16_swap(LANES_GFX950, a, b, 0xffff, &e));
  cr_assert(strstr(e.msg, "partial-EXEC"), "%s", e.msg);
}

/* ------------------------------------------------------------------------------------------ */
/* Swizzled layouts, images, diff                                                              */

Test(lanes_tile, swizzle_offsets_and_region) {
  /* docs/isa.md: k128B i*stride + (j ^ (i%8)); k128B_16Row j ^ (i%16); k64B j ^ ((i/2)%4) */
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_LINEAR, 16, 3, 1), 49);
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_128B, 16, 3, 1), 48 + 2);
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_128B, 16, 11, 0), 176 + 3);
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_128B_16ROW, 16, 11, 0), 176 + 11);
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_64B, 16, 5, 1), 80 + 3);
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_64B, 16, 9, 1), 144 + 1);   /* (9/2)%4 = 0 */
  cr_assert_eq(lanes_swizzle_offset(LANES_SWZ_64B, 16, 14, 3), 224 + 0);  /* 3 ^ 3 */
  uint8_t img[LANES_REGION_BYTES];
  lanes_region_fill(LANES_SWZ_128B, img);
  /* T[3][5] = 16*3+5 at byte 3*128 + 8*(1^3) + 2*1 */
  cr_assert_eq(img[3 * 128 + 16 + 2] | img[3 * 128 + 16 + 3] << 8, 53);
  /* stray element (r=2, c=20): 0x4000 + 128 + 20 at chunk 5^2 = 7 */
  cr_assert_eq(img[2 * 128 + 56] | img[2 * 128 + 57] << 8, 0x4000 + 148);
  lanes_swizzle s;
  ll_err e = {0};
  cr_assert(lanes_swizzle_parse("k128B_16Row", &s, &e) && s == LANES_SWZ_128B_16ROW);
  cr_assert_not(lanes_swizzle_parse("k256B", &s, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
}

Test(lanes_tile, xorshift_image) {
  uint8_t b[4];
  lanes_xorshift_fill(b, 4);
  uint32_t x = 0x1234567u; /* microabi: x ^= x<<13; x ^= x>>17; x ^= x<<5; byte = low 8 bits */
  for (int i = 0; i < 4; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    cr_assert_eq(b[i], x & 0xff);
  }
}

Test(lanes_tile, diff_counts_and_lists) {
  uint32_t a[128] = {0}, b[128] = {0};
  lanes_diff d;
  char buf[256];
  lanes_diff_dwords(a, b, 2, 16, &d);
  lanes_diff_format(&d, buf, sizeof buf);
  cr_assert_str_eq(buf, "0/256 mismatches");
  b[2 * 3 + 1] = 0x00050000; /* lane 3 slot 3 */
  lanes_diff_dwords(a, b, 2, 16, &d);
  lanes_diff_format(&d, buf, sizeof buf);
  cr_assert_str_eq(buf, "1/256 mismatches: lane 3 slot 3 want 0x0 got 0x5");
}

/* ------------------------------------------------------------------------------------------ */
/* Micro-kernel expectations and model checks                                                  */

Test(lanes_kernels, expected_dumps_follow_microabi_targets) {
  uint8_t img[4096];
  uint32_t dw[192], ad[64];
  int ndw;
  size_t n;
  ll_err e = {0};
  /* tr8: lane L slot j = T[8(L/16)+j][L%16], T linear 16 B rows */
  cr_assert(lanes_kernel_image("lane_tr8", img, sizeof img, &n, &e) && n == 512);
  cr_assert(lanes_expected_dump("lane_tr8", LANES_GFX950, img, n, dw, ad, &ndw, &e), "%s", e.msg);
  cr_assert_eq(ndw, 2);
  for (int L = 0; L < 64; L++)
    for (int j = 0; j < 8; j++)
      cr_assert_eq(lanes_slot_get(dw + 2 * L, j, 8), img[16 * (8 * (L / 16) + j) + L % 16]);
  /* tr4: T[32(L/16)+j][L%16] nibbles, 8 B rows */
  cr_assert(lanes_kernel_image("lane_tr4", img, sizeof img, &n, &e) && n == 1024);
  cr_assert(lanes_expected_dump("lane_tr4", LANES_GFX950, img, n, dw, ad, &ndw, &e), "%s", e.msg);
  for (int L = 0; L < 64; L++)
    for (int j = 0; j < 16; j++) {
      int row = 32 * (L / 16) + j, c = L % 16;
      cr_assert_eq(lanes_slot_get(dw + 2 * L, j, 4), (uint32_t)(img[8 * row + c / 2] >> (4 * (c % 2))) & 15);
    }
  /* tr6: 6-bit items, 16 B rows, 3 dwords */
  cr_assert(lanes_kernel_image("lane_tr6", img, sizeof img, &n, &e) && n == 2048);
  cr_assert(lanes_expected_dump("lane_tr6", LANES_GFX950, img, n, dw, ad, &ndw, &e), "%s", e.msg);
  cr_assert_eq(ndw, 3);
  for (int L = 0; L < 64; L++)
    for (int j = 0; j < 16; j++) {
      int row = 32 * (L / 16) + j, c = L % 16;
      cr_assert_eq(lanes_slot_get(dw + 3 * L, j, 6), bits_of(img + 16 * row, 6 * c, 6));
    }
  /* the two tr16 kernels and the software path */
  uint32_t xp[128], fr[128];
  cr_assert(lanes_kernel_image("lane_fragment_transpose", img, sizeof img, &n, &e) && n == 2048);
  cr_assert(lanes_expected_dump("lane_fragment_transpose", LANES_GFX942, img, n, xp, ad, &ndw, &e));
  cr_assert(lanes_expected_dump("lane_tr16_solved_seed", LANES_GFX950, img, n, dw, ad, &ndw, &e));
  for (int L = 0; L < 64; L++) cr_assert_eq(ad[L], (uint32_t)(128 * (4 * (L / 16) + (L % 16) / 4) + 8 * ((L % 4) ^ ((4 * (L / 16) + (L % 16) / 4) % 8))));
  lanes_diff d;
  lanes_diff_dwords(xp, dw, 2, 16, &d);
  cr_assert_eq(d.mismatches, 0);
  cr_assert(lanes_expected_dump("lane_tr16_fragment_seed", LANES_GFX950, img, n, fr, ad, &ndw, &e));
  cr_assert(fr[0] == (0u | 64u << 16) && fr[1] == (128u | 192u << 16));
  cr_assert(lanes_expected_dump("lane_load_fragment", LANES_GFX942, img, n, fr, ad, &ndw, &e));
  for (int L = 0; L < 64; L++) /* A layout: lane 16c+r holds T[r][4c..4c+3] */
    for (int j = 0; j < 4; j++) cr_assert_eq(lanes_slot_get(fr + 2 * L, j, 16), (uint32_t)(16 * (L % 16) + 4 * (L / 16) + j));
  /* bad input */
  cr_assert_not(lanes_expected_dump("lane_tr8", LANES_GFX942, img, n, dw, ad, &ndw, &e));
  cr_assert_eq(e.code, LL_EXIT_USAGE);
  cr_assert_null(lanes_kernel_find("lane_xlane", &e));
  cr_assert(strstr(e.msg, "not a pure data movement"), "%s", e.msg);
}

Test(lanes_kernels, model_checks_pass_on_both_arches) {
  for (int a = 0; a < 2; a++) {
    lanes_checks c;
    bool ok = lanes_model_checks((lanes_arch)a, &c);
    for (int i = 0; i < c.n; i++)
      cr_expect(c.c[i].pass, "%s: %s: expected %s, got %s", lanes_arch_name((lanes_arch)a), c.c[i].name,
                c.c[i].expected, c.c[i].got);
    cr_assert(ok);
    cr_assert_eq(c.failed, 0);
    cr_assert_geq(c.n, a == LANES_GFX950 ? 14 : 4);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* CLI                                                                                          */

static int run(const char *args, char *out, size_t cap) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s/lanelab %s 2>/dev/null", LANELAB_BUILD, args);
  FILE *p = popen(cmd, "r");
  cr_assert_not_null(p);
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = 0;
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool starts_with(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

Test(lanes_cli, mfma) {
  static char out[1 << 20];
  cr_assert_eq(run("mfma v_mfma_f32_16x16x32_bf16 --arch gfx950 --format csv", out, sizeof out), 0);
  cr_assert(starts_with(out, "operand,row,col,lane,reg,bit\n"), "%.80s", out);
  cr_assert_eq(count_lines(out), 1 + 512 + 512 + 256 + 256);
  cr_assert(strstr(out, "\nB,9,5,21,0,16\n"), "B[9][5]: lane 5+16, VGPR 0, high half"); /* k=9: lane j+16(k/8), item 1 */
  cr_assert_eq(run("mfma v_mfma_f32_16x16x32_bf16 --arch gfx942", out, sizeof out), 2);
  cr_assert_eq(run("mfma v_mfma_f32_32x32x8_f16 --operand C --format json", out, sizeof out), 0);
  cr_assert_eq(run("mfma v_mfma_f32_16x16x128_f8f6f4 --operand A --format md", out, sizeof out), 0);
  cr_assert(strstr(out, "UNCONFIRMED"), "fp8 f8f6f4 must be flagged");
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --operand E", out, sizeof out), 2);
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --format xml", out, sizeof out), 2);
  cr_assert_eq(run("mfma", out, sizeof out), 2);
  /* one element: 16x16x16 f16 B(k=7, n=3) is item k%4 = 3 of lane n + 16*(k/4) = 19: VGPR 1, bits 16..31 */
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --operand B --at 7,3 --format csv", out, sizeof out), 0);
  cr_assert_str_eq(out, "operand,k,n,lane,reg,bit,bits\nB,7,3,19,1,16,16..31\n");
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --operand B --at 7,3", out, sizeof out), 0);
  cr_assert(strstr(out, "B(k=7, n=3) is in lane 19, VGPR 1 of the operand tuple, bits 16..31"), "%s", out);
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --operand B --at 16,0", out, sizeof out), 2, "k past 15");
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --at 1,1", out, sizeof out), 2, "--at needs --operand");
  cr_assert_eq(run("mfma v_mfma_f32_16x16x16_f16 --operand A --at 1", out, sizeof out), 2);
}

Test(lanes_cli, lanes) {
  static char out[1 << 18];
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --format csv", out, sizeof out), 0);
  cr_assert(starts_with(out, "lane,slot,tag\n0,0,0\n0,1,64\n0,2,128\n0,3,192\n"), "%.80s", out);
  cr_assert_eq(count_lines(out), 257);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --seed solved --format csv", out, sizeof out), 0);
  cr_assert(starts_with(out, "lane,slot,tag\n0,0,0\n0,1,16\n0,2,32\n0,3,48\n"), "%.80s", out);
  cr_assert_eq(run("lanes fragment_transpose --arch gfx942 --format csv", out, sizeof out), 0);
  cr_assert(starts_with(out, "lane,slot,tag\n0,0,0\n0,1,16\n0,2,32\n0,3,48\n"), "%.80s", out);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --arch gfx942", out, sizeof out), 2);
  cr_assert_eq(run("lanes ds_read_b96_tr_b6 --format csv", out, sizeof out), 0);
  cr_assert_eq(count_lines(out), 1 + 64 * 16);
  cr_assert_eq(run("lanes ds_read_b64_tr_b8 --seed fragment", out, sizeof out), 2);
  cr_assert_eq(run("lanes ds_read_b32 --seed solved", out, sizeof out), 2, "no built-in solved seed for a plain b32 read");
  cr_assert_eq(run("lanes ds_write_b32", out, sizeof out), 2);
  /* any LDS read at a per-lane formula: lane L reads stored 8-byte unit L/16 of row L%16; under
   * k128B that unit holds logical chunk (L/16) ^ (row % 8): lane 17 reads row 1, unit 1 = logical
   * chunk 0, i.e. tags 16*1 + 0 and + 1 */
  cr_assert_eq(run("lanes ds_read_b32 --addr '128*(L%16)+8*(L/16)' --format csv", out, sizeof out), 0);
  cr_assert_eq(count_lines(out), 1 + 64 * 2);
  cr_assert(strstr(out, "\n17,0,16\n17,1,17\n"), "%.200s", out);
  cr_assert_eq(run("lanes ds_read_b64 --seed sideways", out, sizeof out), 2);
}

/* The fragment seed restated as a formula (row L%16, chunk L/16, k128B: byte 128*row +
 * 8*(chunk ^ (row%8))) must deliver what the built-in seed does: lane 0 {0,64,128,192}. */
Test(lanes_cli, addr_formula_and_file_and_diff) {
  static char out[1 << 18], ref[1 << 18];
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --addr '128*(L%16) + 8*((L/16) ^ (L%8))' --format csv", out, sizeof out), 0);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --format csv", ref, sizeof ref), 0);
  cr_assert_str_eq(out, ref);
  char path[] = "/tmp/lanelab-addr-XXXXXX";
  int fd = mkstemp(path);
  cr_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fprintf(f, "# fragment seed, one per lane\n");
  for (int L = 0; L < 64; L++) fprintf(f, "%d%s", 128 * (L % 16) + 8 * ((L / 16) ^ (L % 8)), L % 8 == 7 ? "\n" : ", ");
  fclose(f);
  char *cmd = ll_fmt("lanes ds_read_b64_tr_b16 --addr %s --format csv", path);
  cr_assert_eq(run(cmd, out, sizeof out), 0);
  cr_assert_str_eq(out, ref);
  free(cmd);
  f = fopen(path, "w");
  fprintf(f, "1 2 3\n");
  fclose(f);
  cmd = ll_fmt("lanes ds_read_b64_tr_b16 --addr %s", path);
  cr_assert_eq(run(cmd, out, sizeof out), 2, "3 addresses is bad input");
  free(cmd);
  unlink(path);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --addr '8*(L%16' ", out, sizeof out), 2);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --addr 'L/0'", out, sizeof out), 2);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --addr 'L' --seed solved", out, sizeof out), 2);
  /* the seed change in one command: lane 0 {0,64,128,192} at the fragment seed, {0,16,32,48} solved */
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --diff fragment,solved --format csv", out, sizeof out), 0);
  cr_assert(starts_with(out, "lane,slot,fragment,solved,differs\n0,0,0,0,\n0,1,64,16,yes\n0,2,128,32,yes\n0,3,192,48,yes\n"),
            "%.120s", out);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --diff fragment,solved", out, sizeof out), 0);
  cr_assert(strstr(out, "lane 0: fragment {0,64,128,192} vs solved {0,16,32,48}"), "%s", out + strlen(out) - 300);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --diff fragment", out, sizeof out), 2);
  /* the picture: an SVG with one element group per tile element and both seeds side by side */
  char svg[] = "/tmp/lanelab-pic-XXXXXX.svg";
  fd = mkstemps(svg, 4);
  cr_assert(fd >= 0);
  close(fd);
  cmd = ll_fmt("lanes ds_read_b64_tr_b16 --diff fragment,solved --picture %s", svg);
  cr_assert_eq(run(cmd, out, sizeof out), 0);
  free(cmd);
  size_t n;
  ll_err e = {0};
  char *s = ll_read_file(svg, &n, &e);
  cr_assert_not_null(s, "%s", e.msg);
  int groups = 0, bad = 0;
  for (char *p = s; (p = strstr(p, "<rect class=\"e ")); p++) groups++;
  for (char *p = s; (p = strstr(p, " bad\" data-rc")); p++) bad++;
  cr_assert_eq(groups, 2 * 256, "16 x 16 elements under each seed");
  /* the holders differ wherever the two seeds put different elements in a lane's slot. tr_b16
   * (docs/isa.md): out(16g+m)[k] = in(16g + 4k + m/4)[m%4]; at the fragment seed lane i reads row i%16,
   * cols 4*(i/16).. so lane 16g+m slot k holds (4k + m/4, 4g + m%4); the solved seed gives the B
   * layout: lane 16g+m slot k holds (4g + k, m) */
  int differ = 0;
  for (int L = 0; L < 64; L++)
    for (int k = 0; k < 4; k++) {
      int g = L / 16, m = L % 16;
      differ += !(4 * k + m / 4 == 4 * g + k && 4 * g + m % 4 == m);
    }
  cr_assert_eq(differ, 240);
  cr_assert_eq(bad, 2 * differ, "the elements held elsewhere, outlined in both pictures");
  free(s);
  unlink(svg);
  cr_assert_eq(run("lanes ds_read_b64_tr_b16 --picture /tmp/x.gif", out, sizeof out), 2);
}

Test(lanes_cli, seed) {
  static char out[1 << 16];
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16", out, sizeof out), 0);
  cr_assert(strstr(out, "row = 4*(L/16) + (L%16)/4, col = 4*(L%4)"), "%s", out);
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16 --format csv", out, sizeof out), 0);
  /* addr: k128B, 128 B rows, chunk ^ (row%8): lane 1 (0,4) chunk 1 -> 8; lane 4 (1,0) chunk 0^1 -> 128+8 */
  cr_assert(starts_with(out, "lane,row,col,addr\n0,0,0,0\n1,0,4,8\n2,0,8,16\n3,0,12,24\n4,1,0,136\n"), "%.80s", out);
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16", out, sizeof out), 0);
  cr_assert(strstr(out, "128*row + 8*(chunk ^ (row%8)) + 2*(col%4)"), "the swizzle formula: %s", out);
  /* gfx950-only MFMA targets are refused on gfx942 (they once got gfx942 seeds) */
  cr_assert_eq(run("seed --target mfma16x16x32_a --via ds_read_b64 --arch gfx942", out, sizeof out), 2);
  cr_assert_eq(run("seed --target mfma16x16x32_a --via ds_read_b64 --arch gfx950", out, sizeof out), 0);
  cr_assert_eq(run("seed --target mfma16x16x16_a --via ds_read_b64 --arch gfx942", out, sizeof out), 0);
  cr_assert_eq(run("seed --target mfma16x16x32_fp8_b --via ds_read_b64_tr_b8 --format csv", out, sizeof out), 0);
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64", out, sizeof out), 1);
  cr_assert(strstr(out, "no seed"), "%s", out);
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16 --arch gfx942", out, sizeof out), 2);
  cr_assert_eq(run("seed --target mfma16x16x16_b --via ds_read_b64_tr_b16 --swizzle k999", out, sizeof out), 2);
  cr_assert_eq(run("seed --via ds_read_b64_tr_b16", out, sizeof out), 2);
  cr_assert_eq(run("seed --target mfma16x16x32_fp8_b --via ds_read_b64_tr_b8 --swizzle k128B", out, sizeof out), 2);
}

/* ---- a user's own names and tiles (issue #29, "lane maps") ------------------------------------ */
/* clang's builtin names name the instruction clang emits for them: compiled here (lanelab cc) and
 * disassembled (llvm-objdump), the mnemonic is what `lanelab mfma` looks the builtin up as. */
Test(lanes_mfma, clang_builtin_names_are_the_instructions_clang_emits, .timeout = 120) {
  const char *src = "#include <hip/hip_runtime.h>\n"
                    "typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));\n"
                    "typedef _Float16 h4 __attribute__((ext_vector_type(4)));\n"
                    "typedef short s4 __attribute__((ext_vector_type(4)));\n"
                    "typedef float f16v __attribute__((ext_vector_type(16)));\n"
                    "typedef float f4v __attribute__((ext_vector_type(4)));\n"
                    "extern \"C\" __global__ void k(const bf16x8 *a, const h4 *h, const s4 *s, f16v *o, f4v *p) {\n"
                    "  o[0] = __builtin_amdgcn_mfma_f32_32x32x16_bf16(a[0], a[1], o[1], 0, 0, 0);\n"
                    "  p[0] = __builtin_amdgcn_mfma_f32_16x16x16f16(h[0], h[1], p[1], 0, 0, 0);\n"
                    "  o[2] = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(s[0], s[1], o[3], 0, 0, 0);\n"
                    "}\n";
  char dir[] = "/tmp/lanelab-test-builtins-XXXXXX";
  cr_assert_not_null(mkdtemp(dir));
  char *path = ll_fmt("%s/k.hip", dir), *co = ll_fmt("%s/k.co", dir);
  cr_assert(ll_write_file_atomic(path, src, strlen(src), NULL));
  char *cmd = ll_fmt("%s/lanelab -q cc %s --arch gfx950 -o %s && /usr/lib/llvm-22/bin/llvm-objdump -d --no-show-raw-insn "
                     "--mcpu=gfx950 %s | grep -o 'v_mfma_[a-z0-9_]*' | sort -u", LANELAB_BUILD, path, co, co);
  FILE *f = popen(cmd, "r");
  cr_assert_not_null(f);
  char emitted[1024] = "";
  size_t n = fread(emitted, 1, sizeof emitted - 1, f);
  emitted[n] = 0;
  cr_assert_eq(pclose(f), 0, "%s", cmd);
  const char *builtins[] = {"__builtin_amdgcn_mfma_f32_32x32x16_bf16", "__builtin_amdgcn_mfma_f32_16x16x16f16",
                            "__builtin_amdgcn_mfma_f32_32x32x8bf16_1k"};
  for (size_t i = 0; i < 3; i++) {
    ll_err e = {0};
    const lanes_mfma *m = lanes_mfma_lookup(builtins[i], LANES_GFX950, &e);
    cr_assert_not_null(m, "%s: %s", builtins[i], e.msg);
    char *line = ll_fmt("%s\n", m->name);
    cr_expect(strstr(emitted, line), "%s is %s in lanelab; clang emitted:\n%s", builtins[i], m->name, emitted);
    free(line);
  }
  char *rm = ll_fmt("rm -rf %s", dir);
  system(rm);
  free(rm); free(cmd); free(co); free(path);
}

/* The gfx950 32x32x16 operand layouts are targets the solver and `lanelab seed` know by name; their
 * shape is the instruction's (A 32x16, B 16x32: docs/isa.md, the MFMA A/B rule above). */
Test(lanes_seed_solver, gfx950_32x32x16_operands_are_named_targets) {
  const struct { const char *name; int rows, cols; } want[] = {{"mfma32x32x16_a", 32, 16}, {"mfma32x32x16_b", 16, 32}};
  for (size_t i = 0; i < 2; i++) {
    lanes_target t;
    ll_err e = {0};
    cr_assert(lanes_target_get(want[i].name, LANES_SWZ_128B, &t, &e), "%s: %s", want[i].name, e.msg);
    cr_expect(t.rows == want[i].rows && t.cols == want[i].cols && t.elem_bits == 16, "%s: %dx%d %d-bit", want[i].name,
              t.rows, t.cols, t.elem_bits);
    lanes_seed s;
    lanes_ds_op via = i == 0 ? LANES_DS_READ_B64 : LANES_DS_READ_B64_TR_B16;
    cr_assert(lanes_seed_solve(&t, via, LANES_GFX950, &s, &e), "%s: %s", want[i].name, e.msg);
    cr_expect(s.found, "%s via %s: no seed (%s)", want[i].name, lanes_ds_op_name(via), s.why);
  }
}

/* `lanelab lanes --addr ... --tile`: the user's own tile. Each lane's ds_read_b64 takes 8 bytes at its
 * address, so over a row-major tile of 2-byte elements with row stride S, the lane reading byte b
 * gets elements (b / S, (b % S) / 2 + s), s = 0..3 — written here from that rule, with a padded
 * stride and with the k128B swizzle (8-byte chunk j of row r stored at chunk j ^ (r % 8)). */
static void tile_case(const char *spec, int stride, int cols, bool swz) {
  lanes_target t;
  ll_err e = {0};
  cr_assert(lanes_tile_parse(spec, &t, &e), "%s: %s", spec, e.msg);
  uint32_t addr[LANES_WAVE];
  for (int L = 0; L < LANES_WAVE; L++) addr[L] = (uint32_t)(stride * (L % 32) + 8 * (L / 32)); /* physical chunk L/32 */
  lanes_delivery d;
  cr_assert(lanes_deliver_tile(LANES_GFX950, "ds_read_b64", addr, &t, &d, &e), "%s: %s", spec, e.msg);
  cr_assert_eq(d.slots, 4);
  for (int L = 0; L < LANES_WAVE; L++)
    for (int s = 0; s < 4; s++) {
      int r = L % 32, chunk = L / 32, logical = swz ? chunk ^ (r % 8) : chunk;
      int want = r * cols + 4 * logical + s;
      cr_assert_eq(d.elem[L][s], want, "%s lane %d slot %d: %d, want %d", spec, L, s, d.elem[L][s], want);
    }
}

Test(lanes_tile, a_users_tile_names_what_every_lane_holds) {
  tile_case("rows=32,cols=16,elem=2,stride=40", 40, 16, false);
  tile_case("rows=32,cols=64,elem=2,stride=128,swizzle=k128B", 128, 64, true);
  lanes_target t;
  ll_err e = {0};
  cr_expect_not(lanes_tile_parse("rows=32,cols=16,elem=2,stride=16", &t, &e), "a row wider than its stride");
  cr_expect(strstr(e.msg, "--tile"), "%s", e.msg);
  e = (ll_err){0};
  cr_expect_not(lanes_tile_parse("rows=32,cols=16,elem=3,stride=64", &t, &e), "elem 3");
  e = (ll_err){0};
  cr_expect_not(lanes_tile_parse("rows=32,cols=16,stride=64", &t, &e), "no elem");
}
