/* lanes/kernels — what the data-movement lane-dump micro-kernels must write (microabi), computed
 * by the model from the same image and the model's own seeds; and the model checks that the
 * verify "model" stage runs (the seed change's published facts, docs/changes.md, change 000 / docs/isa.md). */
#include <stdio.h>
#include <string.h>

#include "lanes/lanes.h"

#define G2 LANES_ARCH_BIT(LANES_GFX942)
#define G5 LANES_ARCH_BIT(LANES_GFX950)

typedef enum { K_FRAG, K_XPOSE, K_TR16_FRAG, K_TR16_SOLVED, K_TR8, K_TR4, K_TR6 } kind;

static const struct {
  lanes_kernel_info info;
  kind k;
  const char *target;
  lanes_ds_op op;
} kernels[] = {
    {{"lane_load_fragment", 2, 2048, G2 | G5, 16, "ds_read_b64 at the load_fragment seed (k128B region)"},
     K_FRAG, NULL, LANES_DS_READ_B64},
    {{"lane_fragment_transpose", 2, 2048, G2 | G5, 16, "load_fragment + transpose_mma_tile (k128B region)"},
     K_XPOSE, NULL, LANES_DS_READ_B64},
    {{"lane_tr16_fragment_seed", 2, 2048, G5, 16, "ds_read_b64_tr_b16 at the load_fragment seed"},
     K_TR16_FRAG, NULL, LANES_DS_READ_B64_TR_B16},
    {{"lane_tr16_solved_seed", 2, 2048, G5, 16, "ds_read_b64_tr_b16 at the solved seed"},
     K_TR16_SOLVED, "mfma16x16x16_b", LANES_DS_READ_B64_TR_B16},
    {{"lane_tr8", 2, 512, G5, 8, "ds_read_b64_tr_b8 at its solved seed (xorshift image)"},
     K_TR8, "mfma16x16x32_fp8_b", LANES_DS_READ_B64_TR_B8},
    {{"lane_tr4", 2, 1024, G5, 4, "ds_read_b64_tr_b4 at its solved seed (xorshift image)"},
     K_TR4, "mfma16x16x128_fp4_b", LANES_DS_READ_B64_TR_B4},
    {{"lane_tr6", 3, 2048, G5, 6, "ds_read_b96_tr_b6 at its solved seed (xorshift image)"},
     K_TR6, "mfma16x16x128_fp6_b", LANES_DS_READ_B96_TR_B6},
};
#define NK (int)(sizeof kernels / sizeof kernels[0])

static int find(const char *name, ll_err *err) {
  for (int i = 0; i < NK; i++)
    if (name && strcmp(name, kernels[i].info.name) == 0) return i;
  if (name && (strcmp(name, "lane_xlane") == 0 || strncmp(name, "lane_mfma_", 10) == 0))
    ll_seterr(err, LL_EXIT_USAGE, "micro-kernel %s is not a pure data movement: lanes_expected_dump covers "
              "lane_load_fragment, lane_fragment_transpose, lane_tr16_fragment_seed, lane_tr16_solved_seed, "
              "lane_tr8, lane_tr4, lane_tr6", name);
  else
    ll_seterr(err, LL_EXIT_USAGE, "unknown micro-kernel '%s'", name ? name : "(null)");
  return -1;
}

const lanes_kernel_info *lanes_kernel_find(const char *name, ll_err *err) {
  int i = find(name, err);
  return i < 0 ? NULL : &kernels[i].info;
}

bool lanes_kernel_image(const char *name, uint8_t *buf, size_t cap, size_t *n, ll_err *err) {
  int i = find(name, err);
  if (i < 0) return false;
  size_t sz = kernels[i].info.image_bytes;
  if (cap < sz) {
    ll_seterr(err, LL_EXIT_USAGE, "%s: image needs %zu bytes, buffer has %zu", name, sz, cap);
    return false;
  }
  if (kernels[i].k <= K_TR16_SOLVED) lanes_region_fill(LANES_SWZ_128B, buf);
  else lanes_xorshift_fill(buf, sz);
  *n = sz;
  return true;
}

bool lanes_expected_dump(const char *name, lanes_arch arch, const uint8_t *image, size_t n, uint32_t *out_dwords,
                         uint32_t *out_addrs, int *ndw, ll_err *err) {
  int i = find(name, err);
  if (i < 0) return false;
  const lanes_kernel_info *ki = &kernels[i].info;
  if (!(ki->arches & LANES_ARCH_BIT(arch))) {
    ll_seterr(err, LL_EXIT_USAGE, "micro-kernel %s does not apply to %s: %s does not exist there", name,
              lanes_arch_name(arch), lanes_ds_op_name(kernels[i].op));
    return false;
  }
  uint32_t addr[LANES_WAVE];
  switch (kernels[i].k) {
  case K_FRAG: case K_XPOSE: case K_TR16_FRAG: lanes_seed_fragment(LANES_SWZ_128B, addr); break;
  default: {
    lanes_target t;
    lanes_seed s;
    lanes_swizzle swz = kernels[i].k == K_TR16_SOLVED ? LANES_SWZ_128B : LANES_SWZ_LINEAR;
    if (!lanes_target_get(kernels[i].target, swz, &t, err) || !lanes_seed_solve(&t, kernels[i].op, arch, &s, err))
      return false;
    if (!s.found || s.reads != 1) {
      ll_seterr(err, LL_EXIT_FAIL, "%s: the solver found no single-read seed for %s via %s: %s", name, t.name,
                lanes_ds_op_name(kernels[i].op), s.why);
      return false;
    }
    memcpy(addr, s.addr[0], sizeof addr);
  }
  }
  *ndw = ki->ndw;
  memcpy(out_addrs, addr, sizeof addr);
  if (kernels[i].k == K_XPOSE) {
    uint32_t o[LANES_WAVE][2];
    lanes_lds_result rd;
    if (!lanes_fragment_transpose(arch, image, n, addr, o, NULL, &rd, err)) return false;
    if (!rd.ok) {
      ll_seterr(err, LL_EXIT_FAIL, "%s: the model's own read is not clean: %s", name, rd.problem[0]);
      return false;
    }
    for (int L = 0; L < LANES_WAVE; L++) out_dwords[2 * L] = o[L][0], out_dwords[2 * L + 1] = o[L][1];
    return true;
  }
  lanes_lds_result r;
  if (!lanes_ds_read(arch, kernels[i].op, image, n, addr, LANES_EXEC_ALL, &r, err)) return false;
  if (!r.ok) {
    ll_seterr(err, LL_EXIT_FAIL, "%s: the model's own read is not clean: %s", name, r.problem[0]);
    return false;
  }
  for (int L = 0; L < LANES_WAVE; L++)
    for (int d = 0; d < ki->ndw; d++) out_dwords[ki->ndw * L + d] = r.v[L][d];
  return true;
}

/* ---------------------------------------------------------------------------------------------*/
static lanes_check *add(lanes_checks *c, const char *name, const char *expected) {
  if (c->n >= LANES_MAX_CHECKS) return NULL;
  lanes_check *k = &c->c[c->n++];
  snprintf(k->name, sizeof k->name, "%s", name);
  snprintf(k->expected, sizeof k->expected, "%s", expected);
  return k;
}

static void done(lanes_checks *c, lanes_check *k, bool pass) {
  if (!k) return;
  k->pass = pass;
  if (!pass) c->failed++;
}

static void lane0_tags(const uint32_t d[2], char *buf, size_t cap) {
  snprintf(buf, cap, "{%u,%u,%u,%u}", d[0] & 0xffff, d[0] >> 16, d[1] & 0xffff, d[1] >> 16);
}

bool lanes_model_checks(lanes_arch arch, lanes_checks *c) {
  memset(c, 0, sizeof *c);
  ll_err e = {0};
  uint8_t img[LANES_REGION_BYTES];
  uint32_t frag[LANES_WAVE], solved[LANES_WAVE];
  lanes_region_fill(LANES_SWZ_128B, img);
  lanes_seed_fragment(LANES_SWZ_128B, frag);

  /* software path (both arches) */
  uint32_t sw[LANES_WAVE][2];
  lanes_opcount ops = {0};
  lanes_lds_result rd;
  lanes_check *k = add(c, "software path, lane 0 tags (fragment seed)", "{0,16,32,48}");
  bool ok = lanes_fragment_transpose(arch, img, sizeof img, frag, sw, &ops, &rd, &e);
  if (ok) lane0_tags(sw[0], k->got, sizeof k->got);
  else snprintf(k->got, sizeof k->got, "error: %s", e.msg);
  done(c, k, ok && strcmp(k->got, k->expected) == 0);

  k = add(c, "software path op count per 16x16 tile", "1 ds_read_b64 + 6 ds_bpermute_b32");
  snprintf(k->got, sizeof k->got, "%d ds_read_b64 + %d ds_bpermute_b32", ops.ds_read_b64, ops.ds_bpermute_b32);
  done(c, k, ok && strcmp(k->got, k->expected) == 0);

  /* the software path must produce the B operand of v_mfma_f32_16x16x16_f16 (lanes/mfma.c) */
  lanes_target tb;
  k = add(c, "software path = mfma16x16x16_b layout", "0/256 mismatches");
  if (ok && lanes_target_get("mfma16x16x16_b", LANES_SWZ_128B, &tb, &e)) {
    uint32_t want[2 * LANES_WAVE], got[2 * LANES_WAVE];
    for (int L = 0; L < LANES_WAVE; L++) {
      got[2 * L] = sw[L][0];
      got[2 * L + 1] = sw[L][1];
      for (int d = 0; d < 2; d++)
        want[2 * L + d] = lanes_region_tag(tb.row[L][2 * d], tb.col[L][2 * d]) |
                          (uint32_t)lanes_region_tag(tb.row[L][2 * d + 1], tb.col[L][2 * d + 1]) << 16;
    }
    lanes_diff df;
    lanes_diff_dwords(want, got, 2, 16, &df);
    lanes_diff_format(&df, k->got, sizeof k->got);
    done(c, k, df.mismatches == 0);
  } else {
    snprintf(k->got, sizeof k->got, "error: %s", e.msg);
    done(c, k, false);
  }

  /* the solver: CDNA4 prefill seed (docs/changes.md, change 000) */
  lanes_seed s;
  if (arch == LANES_GFX942) {
    k = add(c, "ds_read_b64_tr_b16 on gfx942", "does not exist");
    ll_err e2 = {0};
    lanes_lds_result r;
    bool exists = lanes_ds_read(arch, LANES_DS_READ_B64_TR_B16, img, sizeof img, frag, LANES_EXEC_ALL, &r, &e2);
    snprintf(k->got, sizeof k->got, "%s", exists ? "modelled as existing" : "does not exist");
    done(c, k, !exists && e2.code == LL_EXIT_USAGE);
    return c->failed == 0;
  }
  k = add(c, "solver closed form: mfma16x16x16_b via ds_read_b64_tr_b16", "row = 4*(L/16) + (L%16)/4, col = 4*(L%4)");
  bool sok = lanes_seed_solve(&tb, LANES_DS_READ_B64_TR_B16, arch, &s, &e) && s.found;
  if (sok) {
    char rf[96], cf[96];
    lanes_affine_format(&s.row_form[0], rf, sizeof rf);
    lanes_affine_format(&s.col_form[0], cf, sizeof cf);
    snprintf(k->got, sizeof k->got, "row = %s, col = %s", rf, cf);
    memcpy(solved, s.addr[0], sizeof solved);
  } else snprintf(k->got, sizeof k->got, "%s", e.code ? e.msg : s.why);
  done(c, k, sok && strcmp(k->got, k->expected) == 0);

  k = add(c, "solved seed addresses = microabi tr16 seed (k128B)", "64/64 lanes equal");
  uint32_t ref[LANES_WAVE];
  lanes_seed_tr16(LANES_SWZ_128B, ref);
  int eq = 0;
  for (int L = 0; sok && L < LANES_WAVE; L++) eq += solved[L] == ref[L];
  snprintf(k->got, sizeof k->got, "%d/64 lanes equal", eq);
  done(c, k, eq == 64);

  lanes_lds_result hf, hs;
  k = add(c, "ds_read_b64_tr_b16, lane 0 tags (fragment seed)", "{0,64,128,192}");
  ok = lanes_ds_read(arch, LANES_DS_READ_B64_TR_B16, img, sizeof img, frag, LANES_EXEC_ALL, &hf, &e);
  if (ok) lane0_tags(hf.v[0], k->got, sizeof k->got);
  done(c, k, ok && hf.ok && strcmp(k->got, k->expected) == 0);

  k = add(c, "ds_read_b64_tr_b16 at solved seed vs software path", "0/256 mismatches");
  if (sok && lanes_ds_read(arch, LANES_DS_READ_B64_TR_B16, img, sizeof img, solved, LANES_EXEC_ALL, &hs, &e)) {
    uint32_t a[2 * LANES_WAVE], b[2 * LANES_WAVE];
    for (int L = 0; L < LANES_WAVE; L++) {
      a[2 * L] = sw[L][0]; a[2 * L + 1] = sw[L][1];
      b[2 * L] = hs.v[L][0]; b[2 * L + 1] = hs.v[L][1];
    }
    lanes_diff df;
    lanes_diff_dwords(a, b, 2, 16, &df);
    lanes_diff_format(&df, k->got, sizeof k->got);
    done(c, k, hs.ok && df.mismatches == 0);
  } else {
    snprintf(k->got, sizeof k->got, "not run: %s", sok ? e.msg : "no solved seed");
    done(c, k, false);
  }

  k = add(c, "ds_read_b64_tr_b16 at fragment seed vs software path", "mismatches > 0 (seed not a drop-in)");
  {
    uint32_t a[2 * LANES_WAVE], b[2 * LANES_WAVE];
    for (int L = 0; L < LANES_WAVE; L++) {
      a[2 * L] = sw[L][0]; a[2 * L + 1] = sw[L][1];
      b[2 * L] = hf.v[L][0]; b[2 * L + 1] = hf.v[L][1];
    }
    lanes_diff df;
    lanes_diff_dwords(a, b, 2, 16, &df);
    snprintf(k->got, sizeof k->got, "%d/%d mismatches", df.mismatches, df.compared);
    done(c, k, df.mismatches > 0);
  }

  k = add(c, "EXEC not all ones on a transposing read", "reported");
  lanes_lds_result rx;
  ok = lanes_ds_read(arch, LANES_DS_READ_B64_TR_B16, img, sizeof img, solved, LANES_EXEC_ALL >> 1, &rx, &e);
  snprintf(k->got, sizeof k->got, "%s", ok && !rx.ok ? "reported" : "not reported");
  done(c, k, ok && !rx.ok);

  static const struct { const char *t; lanes_ds_op op; } nar[] = {
      {"mfma16x16x32_fp8_b", LANES_DS_READ_B64_TR_B8},
      {"mfma16x16x128_fp4_b", LANES_DS_READ_B64_TR_B4},
      {"mfma16x16x128_fp6_b", LANES_DS_READ_B96_TR_B6},
      {"mfma16x16x32_b", LANES_DS_READ_B64_TR_B16},
  };
  for (size_t i = 0; i < sizeof nar / sizeof nar[0]; i++) {
    char nm[80];
    snprintf(nm, sizeof nm, "seed for %s via %s", nar[i].t, lanes_ds_op_name(nar[i].op));
    k = add(c, nm, "found, all slots verified");
    lanes_target t;
    if (lanes_target_get(nar[i].t, strstr(nar[i].t, "fp") ? LANES_SWZ_LINEAR : LANES_SWZ_128B, &t, &e) &&
        lanes_seed_solve(&t, nar[i].op, arch, &s, &e)) {
      if (s.found) snprintf(k->got, sizeof k->got, "found, %d/%d slots verified: %s", s.checked - s.mismatches,
                            s.checked, s.closed_form[0]);
      else snprintf(k->got, sizeof k->got, "not found: %s", s.why);
      done(c, k, s.found && s.mismatches == 0 && s.checked == 64 * t.slots);
    } else {
      snprintf(k->got, sizeof k->got, "error: %s", e.msg);
      done(c, k, false);
    }
  }

  k = add(c, "no seed: mfma16x16x16_b via plain ds_read_b64", "no seed (elements not adjacent in LDS)");
  if (lanes_seed_solve(&tb, LANES_DS_READ_B64, arch, &s, &e)) {
    snprintf(k->got, sizeof k->got, "%s", s.found ? "found (unexpected)" : "no seed (elements not adjacent in LDS)");
    done(c, k, !s.found && strstr(s.why, "not adjacent") != NULL);
  } else {
    snprintf(k->got, sizeof k->got, "error: %s", e.msg);
    done(c, k, false);
  }
  return c->failed == 0;
}
