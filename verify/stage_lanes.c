/* verify/stage_lanes — the `lanes` stage: run every lane-dump micro-kernel on the device and diff what each of the
 * 64 lanes holds against what the lane-map model (lanes/) predicts, bit for bit.
 *
 * Expected values never come from a kernel run: data-movement kernels use lanes_expected_dump
 * (the model's own seeds and read rules); the cross-lane probe uses the model's bpermute /
 * permute / swizzle / DPP / permlane functions with the controls listed in lane_xlane.hip's
 * header; the MFMA probes use a CPU matrix product placed by the model's C/D layout. The MFMA
 * inputs are small integers, so every product and partial sum is exact in f32 and the comparison
 * is bit-exact whatever order the hardware accumulates in. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lanes/lanes.h"
#include "runtime/rt.h"
#include "verify/verify.h"

typedef struct micro_run {
  uint32_t *out;     /* 64*ndw result dwords then 64 addresses */
  size_t out_dw;
} micro_run;

/* Runs a planned micro-kernel case (grid 1, block 64, (out, image)) through the case runner. */
static bool run_micro(const verify_ctx *c, rt_device *dev, const vc_launch *l, bool keep_dump, micro_run *res,
                      ll_err *err) {
  vc_result r;
  bool ok = verify_case_run(dev, l, &r, err) == LL_EXIT_OK;
  size_t out_dw = l->args[0].bytes / 4;
  if (ok) {
    res->out = (uint32_t *)r.got[0];
    res->out_dw = out_dw;
    r.got[0] = NULL;
  }
  vc_result_free(&r);
  if (ok && keep_dump) { /* keep the raw dump for the report pages: u32 LE, 64*NDW results then 64 addresses */
    char *dir = ll_fmt("%s/dumps", c->results), *f = ll_fmt("%s/%s.bin", dir, l->kernel);
    ok = ll_mkdir_p(dir, err) && ll_write_file_atomic(f, res->out, out_dw * 4, err);
    free(f);
    free(dir);
  }
  return ok;
}

/* Saves what the model expects beside the dump (same layout: 64*ndw dwords, then 64 addresses,
 * zeros where the kernel has no seed), so report pages compare the two without re-deriving. */
static bool save_expected(const verify_ctx *c, const char *name, const uint32_t *want, int ndw,
                          const uint32_t *want_addr, ll_err *err) {
  size_t n = (size_t)64 * ndw + 64;
  uint32_t *buf = ll_xcalloc(n, 4);
  memcpy(buf, want, (size_t)64 * ndw * 4);
  if (want_addr) memcpy(buf + 64 * ndw, want_addr, 64 * 4);
  char *dir = ll_fmt("%s/dumps", c->results), *f = ll_fmt("%s/%s.expected.bin", dir, name);
  bool ok = ll_mkdir_p(dir, err) && ll_write_file_atomic(f, buf, n * 4, err);
  free(f);
  free(dir);
  free(buf);
  return ok;
}

/* Dumps of an earlier run must never be shown as this run's. */
static void clear_dumps(const verify_ctx *c) {
  char *dir = ll_fmt("%s/dumps", c->results);
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".bin") == 0) {
      char *f = ll_fmt("%s/%s", dir, e->d_name);
      unlink(f);
      free(f);
    }
  }
  if (d) closedir(d);
  free(dir);
}

static bool kernel_built(const verify_ctx *c, const char *name) {
  char *p = ll_fmt("%s/%s/kernels/%s.co", c->build, c->arch_name, name);
  size_t n;
  void *d = ll_read_file(p, &n, NULL);
  free(p);
  free(d);
  return d != NULL;
}

/* Per-kernel outcome, one row of the stage's table. */
typedef struct row {
  const char *kernel;
  char result[48];      /* "0/256 mismatches" */
  char addrs[48];
  char detail[400];
  verdict v;
} row;

static void diff_rows(row *rw, const uint32_t *want, const uint32_t *got, int ndw, int slot_bits,
                      const uint32_t *want_addr, const uint32_t *got_addr) {
  lanes_diff d;
  lanes_diff_dwords(want, got, ndw, slot_bits, &d);
  int addr_bad = 0, first = -1;
  for (int l = 0; l < 64 && want_addr; l++)
    if (want_addr[l] != got_addr[l]) { if (first < 0) first = l; addr_bad++; }
  snprintf(rw->result, sizeof rw->result, "%d/%d", d.mismatches, d.compared);
  if (want_addr) snprintf(rw->addrs, sizeof rw->addrs, "%d/64", addr_bad);
  else snprintf(rw->addrs, sizeof rw->addrs, "n/a");
  char f[300];
  lanes_diff_format(&d, f, sizeof f);
  if (addr_bad)
    snprintf(rw->detail, sizeof rw->detail, "%s; seed: lane %d used address %u, model says %u", f, first,
             got_addr[first], want_addr[first]);
  else
    snprintf(rw->detail, sizeof rw->detail, "%s", f);
  rw->v = (d.mismatches || addr_bad || d.compared == 0) ? VERDICT_FAIL : VERDICT_PASS;
}

/* ---- the cross-lane probe (lane_xlane.hip lists the ops, dword by dword) --------------------*/
static bool xlane_expected(lanes_arch la, const uint32_t v[64], uint32_t *want, int ndw, ll_err *err) {
  uint32_t a[64], dst[64];
  uint64_t all = LANES_EXEC_ALL;
#define PUT(d) for (int l = 0; l < 64; l++) want[l * ndw + (d)] = dst[l]
#define BPERM(d, expr) do { for (int L = 0; L < 64; L++) a[L] = (uint32_t)(expr); memset(dst, 0, sizeof dst); \
                            lanes_ds_bpermute(v, a, all, dst); PUT(d); } while (0)
#define PERM(d, expr) do { for (int L = 0; L < 64; L++) a[L] = (uint32_t)(expr); memset(dst, 0, sizeof dst); \
                           lanes_ds_permute(v, a, all, dst); PUT(d); } while (0)
#define SWZ(d, off) do { memset(dst, 0, sizeof dst); lanes_ds_swizzle(v, (off), all, dst); PUT(d); } while (0)
  BPERM(0, 4 * (L ^ 1));
  BPERM(1, 4 * ((L + 1) % 64));
  BPERM(2, 4 * (63 - L));
  BPERM(3, 20 * L + 2);
  PERM(4, 4 * ((L + 1) % 64));
  PERM(5, 4 * (L / 2));
  SWZ(6, 0x0C1F);
  SWZ(7, 0x0070);
  SWZ(8, 0x801B);
  SWZ(9, 0xC460);
  SWZ(10, 0xE005);
  static const char *dpp[] = {
      "quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", "row_shl:1 row_mask:0xf bank_mask:0xf",
      "row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:1", "row_ror:5 row_mask:0xf bank_mask:0xf",
      "row_mirror row_mask:0xf bank_mask:0xf", "row_half_mirror row_mask:0xf bank_mask:0xf",
      "row_bcast:15 row_mask:0xa bank_mask:0xf", "row_bcast:31 row_mask:0xc bank_mask:0xf",
      "wave_shr:1 row_mask:0xf bank_mask:0xf", "row_shl:1 row_mask:0x5 bank_mask:0x3 bound_ctrl:1"};
  for (int i = 0; i < 10; i++) {
    lanes_dpp d;
    if (!lanes_dpp_parse(dpp[i], la, &d, err)) return false;
    for (int l = 0; l < 64; l++) dst[l] = 0xDEADBEEFu; /* the builtin's "old" operand */
    lanes_dpp_apply(&d, v, all, dst);
    PUT(11 + i);
  }
  /* Partial EXEC: lanes with L % 3 == 0 are off and keep v(L). */
  uint64_t part = 0;
  for (int L = 0; L < 64; L++)
    if (L % 3) part |= 1ull << L;
  for (int L = 0; L < 64; L++) { a[L] = 4 * ((L + 63) % 64); dst[L] = v[L]; }
  lanes_ds_bpermute(v, a, part, dst);
  PUT(21);
  memcpy(dst, v, sizeof dst);
  lanes_ds_swizzle(v, 0x041F, part, dst);
  PUT(22);
  if (la == LANES_GFX950) {
    uint32_t vd[64], s0[64];
    for (int l = 0; l < 64; l++) { vd[l] = v[l]; s0[l] = ~v[l]; }
    if (!lanes_permlane16_swap(la, vd, s0, all, err)) return false;
    memcpy(dst, vd, sizeof dst); PUT(23);
    memcpy(dst, s0, sizeof dst); PUT(24);
    for (int l = 0; l < 64; l++) { vd[l] = v[l]; s0[l] = ~v[l]; }
    if (!lanes_permlane32_swap(la, vd, s0, all, err)) return false;
    memcpy(dst, vd, sizeof dst); PUT(25);
    memcpy(dst, s0, sizeof dst); PUT(26);
  }
#undef PUT
#undef BPERM
#undef PERM
#undef SWZ
  return true;
}

/* ---- MFMA probes: image = A (M x K f16, row-major) then B (K x N f16, row-major) ----------*/
static uint16_t f16_of_small_int(int x) {
  /* Exact binary16 encoding of an integer |x| <= 8 (sign, exponent, 10-bit mantissa). */
  if (x == 0) return 0;
  uint16_t s = x < 0 ? 0x8000 : 0;
  unsigned a = (unsigned)abs(x), e = 0;
  while ((a >> e) > 1) e++;
  return (uint16_t)(s | (uint16_t)((e + 15) << 10) | (uint16_t)(((a << 10) >> e) & 0x3ff));
}

static bool mfma_probe(lanes_arch la, const char *instr, int m, int n, int k, uint8_t *image,
                       size_t *image_bytes, uint32_t *want, int *ndw, ll_err *err) {
  const lanes_mfma *mf = lanes_mfma_lookup(instr, la, err);
  if (!mf) return false;
  int A[32 * 32], B[32 * 32];
  uint32_t x = 0x9E3779B9u;
  for (int i = 0; i < m * k; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; A[i] = (int)(x % 7) - 3; }
  for (int i = 0; i < k * n; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; B[i] = (int)(x % 7) - 3; }
  /* little-endian f16 elements written byte by byte: image need not be 2-byte aligned (it sits
   * after a char array in lane_data; UBSan caught the misaligned uint16_t stores) */
  for (int i = 0; i < m * k + k * n; i++) {
    uint16_t h = f16_of_small_int(i < m * k ? A[i] : B[i - m * k]);
    image[2 * i] = (uint8_t)h;
    image[2 * i + 1] = (uint8_t)(h >> 8);
  }
  *image_bytes = 2 * (size_t)(m * k + k * n);
  *ndw = mf->cd_regs;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      int acc = 0;
      for (int t = 0; t < k; t++) acc += A[i * k + t] * B[t * n + j];
      lanes_loc loc;
      if (!lanes_mfma_locate(mf, LANES_OPND_D, i, j, &loc)) {
        ll_seterr(err, LL_EXIT_FAIL, "model has no D location for (%d,%d) of %s", i, j, instr);
        return false;
      }
      float f = (float)acc;
      memcpy(&want[loc.lane * *ndw + loc.reg], &f, 4);
    }
  return true;
}

static const struct {
  const char *kernel, *instr;
  int m, n, k;
} mfma_probes[] = {
    {"lane_mfma_16x16x16_f16", "v_mfma_f32_16x16x16_f16", 16, 16, 16},
    {"lane_mfma_32x32x8_f16", "v_mfma_f32_32x32x8_f16", 32, 32, 8},
    {"lane_mfma_16x16x32_f16", "v_mfma_f32_16x16x32_f16", 16, 16, 32},
};

static const char *data_kernels[] = {"lane_load_fragment", "lane_fragment_transpose", "lane_tr16_fragment_seed",
                                     "lane_tr16_solved_seed", "lane_tr8", "lane_tr4", "lane_tr6"};

/* The stage's running tally: one table row per kernel, pass/fail/not-applicable counts. */
typedef struct lanes_tally {
  const verify_ctx *c;
  rt_device *dev;
  report_table *t;
  size_t pass, fail, skipped;
} lanes_tally;

/* A kernel whose primitive or instruction does not exist on this arch: "not applicable" when it
 * was (rightly) not built, FAIL when a code object exists anyway. */
static void not_applicable(lanes_tally *ls, const char *name, const char *from, const char *why) {
  if (kernel_built(ls->c, name)) {
    report_table_row(ls->t, "%s\t%s\t-\t-\tFAIL\tbuilt for %s, but the model says: %s", name, from,
                     ls->c->arch_name, why);
    ls->fail++;
  } else {
    report_table_row(ls->t, "%s\t%s\t-\t-\tnot applicable\t%s", name, from, why);
    ls->skipped++;
  }
}

/* ---- the source ------------------------------------------------------------------------------
 * Case k: the data kernels, the cross-lane probe, the MFMA probes, in that order. A planned case
 * owns the model's expectation (what every lane must hold, and each lane's seed address when the
 * kernel publishes one); a kernel whose primitive or instruction does not exist on the arch plans
 * as not applicable, with the model's reason. */
typedef struct lane_data {
  char from[48];            /* where the expectation comes from */
  char *from_detail;
  bool applies;
  char why[400];            /* not applicable: the model's reason */
  uint8_t image[8192];
  size_t n;
  uint32_t want[64 * 32 + 64], want_addr[64];
  bool have_addr;
  int ndw, slot_bits;
  bool scrambled;           /* also run on a scrambled image (data kernels) */
  lanes_arch la;
  vc_arg args[2];
  char *co;
} lane_data;

static void lane_data_free(void *p) {
  lane_data *d = p;
  free(d->from_detail);
  free(d->co);
  free(d);
}

#define NDATA (sizeof data_kernels / sizeof *data_kernels)
#define NMFMA (sizeof mfma_probes / sizeof *mfma_probes)

static const char *lane_case_name(size_t k) {
  return k < NDATA ? data_kernels[k] : k == NDATA ? "lane_xlane" : mfma_probes[k - NDATA - 1].kernel;
}

/* The model's expectation of case k on la into d; false with err (the model cannot say). */
static bool expect(size_t k, lanes_arch la, lane_data *d, ll_err *err) {
  const char *name = lane_case_name(k);
  if (k < NDATA) {
    const lanes_kernel_info *ki = lanes_kernel_find(name, err);
    if (!ki) return false;
    snprintf(d->from, sizeof d->from, "lanes model");
    d->applies = ki->arches & LANES_ARCH_BIT(la);
    snprintf(d->why, sizeof d->why, "%s", ki->what);
    if (!d->applies) return true;
    d->from_detail = ll_fmt("lanes model (%s)", ki->what);
    d->slot_bits = ki->slot_bits;
    d->scrambled = d->have_addr = true;
    if (!lanes_kernel_image(name, d->image, sizeof d->image, &d->n, err) ||
        !lanes_expected_dump(name, la, d->image, d->n, d->want, d->want_addr, &d->ndw, err)) {
      ll_err_prefix(err, "%s", name);
      return false;
    }
    return true;
  }
  if (k == NDATA) { /* the cross-lane probe */
    snprintf(d->from, sizeof d->from, "lanes cross-lane ops");
    d->applies = d->have_addr = true;
    d->ndw = la == LANES_GFX950 ? 27 : 23;
    d->slot_bits = 32;
    uint32_t v[64];
    for (int l = 0; l < 64; l++) v[l] = 0xA5000000u | (uint32_t)(l * 0x010203 + 7);
    memcpy(d->image, v, sizeof v);
    d->n = 256;
    if (!xlane_expected(la, v, d->want, d->ndw, err)) { ll_err_prefix(err, "lane_xlane model"); return false; }
    for (int l = 0; l < 64; l++) d->want_addr[l] = 4u * (uint32_t)l;
    d->from_detail = ll_fmt("lanes cross-lane ops (%d ops x 64 lanes)", d->ndw);
    return true;
  }
  const __typeof__(mfma_probes[0]) *mp = &mfma_probes[k - NDATA - 1];
  snprintf(d->from, sizeof d->from, "CPU matmul + lanes D layout");
  ll_err e2 = {0};
  d->applies = lanes_mfma_lookup(mp->instr, la, &e2) != NULL;
  snprintf(d->why, sizeof d->why, "%s", e2.msg);
  if (!d->applies) return true;
  d->slot_bits = 32;
  d->from_detail = ll_xstrdup("CPU matmul + lanes D layout (integer inputs, exact)");
  if (!mfma_probe(la, mp->instr, mp->m, mp->n, mp->k, d->image, &d->n, d->want, &d->ndw, err)) {
    ll_err_prefix(err, "%s", name);
    return false;
  }
  return true;
}

static bool plan_lane_case(const verify_source *src, size_t k, const char *build, emu_arch arch, vc_case *out,
                           ll_err *err) {
  memset(out, 0, sizeof *out);
  lane_data *d = ll_xcalloc(1, sizeof *d);
  if (!lanes_arch_parse(emu_arch_name(arch), &d->la, err) || !expect(k, d->la, d, err)) {
    lane_data_free(d);
    return false;
  }
  const char *name = lane_case_name(k);
  d->co = ll_fmt("%s/%s/kernels/%s.co", build, emu_arch_name(arch), name);
  d->args[0] = (vc_arg){.name = "out", .role = VC_OUT, .bytes = ((size_t)64 * d->ndw + 64) * 4};
  d->args[1] = (vc_arg){.name = "image", .role = VC_IN, .bytes = d->n, .init = d->image, .init_bytes = d->n};
  out->l = (vc_launch){.co = d->co, .kernel = name, .grid = {1, 1, 1}, .block = {64, 1, 1}, .args = d->args, .nargs = 2};
  snprintf(out->name, sizeof out->name, "%s", name);
  snprintf(out->klass, sizeof out->klass, "%s", d->from);
  out->data = d;
  out->free_data = lane_data_free;
  return true;
}

verify_source verify_lanes_source(void) {
  return (verify_source){.name = "lanes", .n = NDATA + 1 + NMFMA, .plan = plan_lane_case};
}

/* The same kernel on the image with every byte XORed with a xorshift stream: a bit the readable
 * tags hold constant (bit 0 of every even column's tag 16r + c) must move right too. Not kept as a
 * dump: the report pages show the readable run. */
static void scrambled_run(lanes_tally *ls, const vc_case *vc, row *rw) {
  const lane_data *d = vc->data;
  uint8_t img2[8192];
  uint32_t want2[64 * 32 + 64], addr2[64];
  int ndw2;
  micro_run m2 = {0};
  ll_err e2 = {0};
  uint32_t x = 0x9e3779b9u; /* not lanes_xorshift_fill's seed: its images would XOR to zero */
  for (size_t i = 0; i < d->n && i < sizeof img2; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    img2[i] = d->image[i] ^ (uint8_t)(x >> 11);
  }
  vc_arg args2[2] = {d->args[0], d->args[1]};
  args2[1].init = img2;
  vc_launch l2 = vc->l;
  l2.args = args2;
  if (d->n > sizeof img2 || !lanes_expected_dump(vc->name, d->la, img2, d->n, want2, addr2, &ndw2, &e2) ||
      ndw2 != d->ndw || !run_micro(ls->c, ls->dev, &l2, false, &m2, &e2)) {
    rw->v = VERDICT_FAIL;
    snprintf(rw->detail, sizeof rw->detail, "scrambled image: %s", e2.msg[0] ? e2.msg : "the model's expectation differs in size");
  } else {
    row r2 = {.kernel = vc->name};
    diff_rows(&r2, want2, m2.out, d->ndw, d->slot_bits, addr2, m2.out + 64 * d->ndw);
    if (r2.v != VERDICT_PASS) {
      rw->v = VERDICT_FAIL;
      snprintf(rw->result, sizeof rw->result, "%s (scrambled)", r2.result);
      snprintf(rw->addrs, sizeof rw->addrs, "%s", r2.addrs);
      snprintf(rw->detail, sizeof rw->detail, "scrambled image: %s", r2.detail);
    } else {
      size_t dl = strlen(rw->detail);
      snprintf(rw->detail + dl, sizeof rw->detail - dl, "%sscrambled image: %s", dl ? "; " : "", r2.result);
    }
  }
  free(m2.out);
}

/* Keeps the model's expectation beside the dump, runs the planned case, diffs what every lane holds
 * (and its seed address, when the kernel publishes one) and adds the row. A kernel that cannot run
 * is a FAIL row; false only when the expectation cannot be written (err set). */
static bool check_kernel(lanes_tally *ls, const vc_case *vc, ll_err *err) {
  const lane_data *d = vc->data;
  const char *name = vc->name;
  const uint32_t *want_addr = d->have_addr ? d->want_addr : NULL;
  if (!save_expected(ls->c, name, d->want, d->ndw, want_addr, err)) return false;
  micro_run mr = {0};
  if (!run_micro(ls->c, ls->dev, &vc->l, true, &mr, err)) {
    report_table_row(ls->t, "%s\t%s\t-\t-\tFAIL\t%s", name, d->from, err->msg);
    ls->fail++;
    return true;
  }
  row rw = {.kernel = name};
  diff_rows(&rw, d->want, mr.out, d->ndw, d->slot_bits, want_addr, want_addr ? mr.out + 64 * d->ndw : NULL);
  if (rw.v == VERDICT_PASS && d->scrambled) scrambled_run(ls, vc, &rw);
  report_table_row(ls->t, "%s\t%s\t%s\t%s\t%s\t%s", name, d->from_detail, rw.result, rw.addrs, verdict_name(rw.v),
                   rw.detail);
  if (rw.v == VERDICT_PASS) ls->pass++; else ls->fail++;
  free(mr.out);
  return true;
}

void verify_stage_lanes(const verify_ctx *c, stage_result *r) {
  ll_err err = {0};
  lanes_arch la;
  if (!lanes_arch_parse(c->arch_name, &la, &err)) { stage_set(r, VERDICT_BAD, "%s", err.msg); return; }
  rt_backend be;
  if (!rt_backend_parse(c->backend, &be)) { stage_set(r, VERDICT_BAD, "unknown backend %s", c->backend); return; }
  rt_device *dev = rt_open(be, c->arch, &err);
  if (!dev) { stage_set(r, err.code == LL_EXIT_ENV ? VERDICT_NOT_RUN : VERDICT_BAD, "%s", err.msg); return; }
  /* the same short device name the prod and mutants stages report; the backend choice (why
   * auto picked the emulator) goes in the table's notes */
  r->device = ll_xstrdup(rt_device_backend(dev) == RT_EMU ? "emulator" : "hip");
  clear_dumps(c);
  report_table *t = report_table_new("micro-kernel lane dumps against the lane-map model",
                                     "kernel,expected from,lane x slot mismatches,seed mismatches,verdict,detail");
  report_table_note(t, "%s", rt_device_note(dev));
  lanes_tally ls = {.c = c, .dev = dev, .t = t};
  verify_source src = verify_lanes_source();
  /* case k runs only in its shard (verify_in_shard); `ran` counts the ones this shard owns */
  size_t ran = 0;
  bool bad = false;
  for (size_t k = 0; k < src.n && !bad; k++) {
    if (!verify_in_shard(c, k)) continue;
    ran++;
    verify_progress(c, "lanes", k + 1, src.n, lane_case_name(k));
    vc_case vc;
    if (!src.plan(&src, k, c->build, c->arch, &vc, &err)) {
      stage_set(r, VERDICT_BAD, "%s", err.msg);
      bad = true;
      continue;
    }
    const lane_data *d = vc.data;
    if (!d->applies) not_applicable(&ls, vc.name, d->from, d->why);
    else if (!check_kernel(&ls, &vc, &err)) {
      stage_set(r, VERDICT_BAD, "%s", err.msg);
      bad = true;
    }
    vc_case_free(&vc);
  }
  if (bad) ;
  else if (ls.fail) stage_set(r, VERDICT_FAIL, "%zu of %zu micro-kernels differ from the model (%zu not applicable on %s)",
                              ls.fail, ls.pass + ls.fail, ls.skipped, c->arch_name);
  else if (ran == 0) stage_set(r, VERDICT_PASS, "no case in this shard");
  else stage_set(r, VERDICT_PASS, "%zu micro-kernels match the model bit for bit (%zu not applicable on %s)", ls.pass,
                 ls.skipped, c->arch_name);
  stage_add_table(r, t);
  rt_close(dev);
}

bool verify_lanes_runs(const char *kernel) {
  for (size_t i = 0; i < sizeof data_kernels / sizeof *data_kernels; i++)
    if (!strcmp(data_kernels[i], kernel)) return true;
  for (size_t i = 0; i < sizeof mfma_probes / sizeof *mfma_probes; i++)
    if (!strcmp(mfma_probes[i].kernel, kernel)) return true;
  return !strcmp(kernel, "lane_xlane");
}
