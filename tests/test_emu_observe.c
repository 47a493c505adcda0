/* Tests of the emulator's observation (emu/observe.c) through `lanelab run`: --racecheck
 * (a deliberate race in each direction, RAW, WAR and WAW, under every schedule; the fixed kernels
 * and LDS atomics report nothing), --racecheck=global, --initcheck (LDS and out: buffers),
 * --schedule, --dump-at, --trace with its JSON, and the MFMA reconstruction with --expect-a/-b.
 *
 * Kernels: tests/kernels/observe.hip, compiled at run time with clang-22 (tests/llvm_tools.h).
 * Expected values come from the kernels' source (which bytes two waves touch, which address a
 * lane reads) and from the ISA's MFMA operand layout written out here, never from lanelab. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu/emu.h"
#include "lanes/lanes.h"
#include "reports/report.h"
#include "runtime/rt.h"
#include "verify/prod.h"
#include "util/util.h"
#include "tests/llvm_tools.h"
#include "tests/co_cache.h"

#define LANELAB LANELAB_BUILD "/lanelab"
#define SRC LANELAB_ROOT "/tests/kernels/observe.hip"
#define INC "-I" LANELAB_ROOT "/kernels/include"

/* observe.hip's code object for arch, compiled once per content (tests/co_cache.h) rather than
 * once in each of the 12 tests (each its own process) that run it. The tests check the emulator's
 * observation of this code, not clang's compile of it. */
static char *co_for(const char *arch) {
  static char *cache[2];
  int i = !strcmp(arch, "gfx950");
  if (!cache[i]) cache[i] = coc_compile_src("observe-co", SRC, arch, INC, LANELAB_ROOT "/kernels/include");
  return cache[i];
}

/* Runs lanelab with args; returns the exit status, stdout in *out (stderr appended). */
static int cli(const char *args, char **out) {
  if (access(LANELAB, X_OK) != 0) cr_assert_fail(LANELAB " is missing: build it (make build/lanelab)");
  char f[] = "/tmp/lanelab-test-observe-XXXXXX";
  int fd = mkstemp(f);
  cr_assert_geq(fd, 0);
  close(fd);
  char *cmd = ll_fmt("env LANELAB_HIP_LIB=" LANELAB_BUILD "/stubs/nodev/libamdhip64.so %s %s >%s 2>&1", LANELAB, args, f);
  int st = system(cmd);
  free(cmd);
  size_t n;
  char *o = ll_read_file(f, &n, NULL);
  unlink(f);
  cr_assert_not_null(o);
  cr_assert(WIFEXITED(st), "lanelab %s died: %s", args, o);
  if (out) *out = o;
  else free(o);
  return WEXITSTATUS(st);
}

static char *dir;
static char *in_file, *out_file;

static void setup(void) {
  dir = tmpdir();
  in_file = ll_fmt("%s/in.bin", dir);
  out_file = ll_fmt("%s/out.bin", dir);
  uint32_t v[128];
  for (int i = 0; i < 128; i++) v[i] = (uint32_t)i * 3 + 1;
  cr_assert(ll_write_file_atomic(in_file, v, sizeof v, NULL));
}

static char *run_k(const char *arch, const char *kernel, const char *grid, const char *extra, int *rc) {
  char *args = ll_fmt("run %s %s --grid %s --block 128 --arg in:%s --arg out:512:%s %s", co_for(arch), kernel, grid,
                      in_file, out_file, extra);
  char *out = NULL;
  *rc = cli(args, &out);
  free(args);
  return out;
}

static const char *schedules[] = {"roundrobin", "adversarial", "random:1", "random:2", "random:99"};

/* kind: "RAW"/"WAR"/"WAW"; first/second: mnemonic prefixes of the two instructions in the report */
static void expect_race(const char *kernel, const char *kind, const char *first, const char *second) {
  const char *arches[] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++)
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
      char *extra = ll_fmt("--racecheck --schedule %s", schedules[s]);
      int rc;
      char *out = run_k(arches[a], kernel, "1", extra, &rc);
      cr_assert_eq(rc, 1, "%s %s %s: expected exit 1 (hazard): %s", kernel, arches[a], schedules[s], out);
      char *want = ll_fmt("racecheck: %s hazard on LDS byte", kind);
      cr_assert(strstr(out, want), "%s %s %s: no '%s': %s", kernel, arches[a], schedules[s], want, out);
      char *w1 = ll_fmt("'%s", first), *w2 = ll_fmt("'%s", second);
      char *p1 = strstr(out, w1), *p2 = p1 ? strstr(p1 + 1, w2) : NULL;
      cr_assert(p1 && p2, "%s: expected %s then %s: %s", kernel, first, second, out);
      cr_assert(strstr(out, "racecheck: 1 hazard\n"), "%s: exactly one report expected: %s", kernel, out);
      free(w1), free(w2), free(want), free(out), free(extra);
    }
}

TestSuite(observe, .init = setup, .timeout = 240);

/* thread t writes s[t] and reads s[(t+64)%128] with no barrier: the other wave's write */
Test(observe, raw_race_every_schedule) { expect_race("race_raw", "RAW", "ds_write", "ds_read"); }
/* read of the other wave's half, then an overwrite of its own half the other wave reads */
Test(observe, war_race_every_schedule) { expect_race("race_war", "WAR", "ds_read", "ds_write"); }
/* both waves write s[t % 64] */
Test(observe, waw_race_every_schedule) { expect_race("race_waw", "WAW", "ds_write", "ds_write"); }

/* The LDS race check takes a granule of 8 bytes in one state, and a run of a lane's bytes in one
 * state, once (emu/observe.c lds_bytes). By the kernels' indexing, under every schedule and on both
 * arches: a lane whose 8 bytes the other wave wrote half of meets 4 byte conflicts, not 0 or 8
 * (observe.hip race_runs, race_runs_bcast), 256 for 64 lanes; one whose 8 bytes it wrote all of
 * meets 8 (race_gran, race_gran_bcast), 512. With 16 lanes reading each element, a read that runs
 * first is recorded once per byte, by its first lane, and the later write meets it once: 4 elements
 * x 4 bytes, 16 (x 8 bytes, 32); a write that runs first meets all 64 lanes' reads. The round robin
 * runs the read first (the report says WAR: the lockstep model puts the read at the earlier step,
 * and the round robin runs in that order), the adversarial schedule wave 0 (the writer) whole
 * first; a random one either. */
Test(observe, lds_byte_runs_count_each_byte_in_conflict) {
  const char *arches[] = {"gfx942", "gfx950"}, *ks[] = {"race_runs", "race_runs_bcast", "race_gran", "race_gran_bcast"};
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < 4; k++)
      for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
        char *extra = ll_fmt("--racecheck --schedule %s", schedules[s]);
        int rc;
        char *out = run_k(arches[a], ks[k], "1", extra, &rc);
        cr_assert_eq(rc, 1, "%s %s %s: %s", arches[a], ks[k], schedules[s], out);
        const bool rr = s == 0, adv = s == 1, bcast = k % 2, gran = k >= 2;
        if (bcast && rr) cr_assert(strstr(out, "racecheck: WAR hazard on LDS byte 0x0:"), "%s: %s", arches[a], out);
        const char *all = gran ? "(512 byte conflicts)" : "(256 byte conflicts)", *once = gran ? "(32 byte conflicts)" : "(16 byte conflicts)";
        const char *want = !bcast || adv ? all : rr ? once : NULL;
        cr_assert(strstr(out, "hazard on LDS byte 0x0:") && strstr(out, "racecheck: 1 hazard\n") &&
                      (want ? strstr(out, want) != NULL : strstr(out, all) || strstr(out, once)),
                  "%s %s %s: one report of %s byte conflicts expected: %s", arches[a], ks[k], schedules[s],
                  want ? want : "either count", out);
        free(out), free(extra);
      }
}

static size_t count_of(const char *hay, const char *needle);

/* A granule split by part accesses and then written whole keeps its bytes apart while their
 * states still differ (emu/observe.c lds_bytes): observe.hip race_merge, run wave after wave, has
 * its two reports of 256 byte conflicts and no third pairing wave 0's read with wave 2's write, on
 * both arches. */
Test(observe, lds_granule_written_whole_keeps_its_bytes_apart) {
  const char *arches[] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    char *args = ll_fmt("run %s race_merge --grid 1 --block 192 --arg in:%s --arg out:512:%s --racecheck --schedule adversarial",
                        co_for(arches[a]), in_file, out_file);
    char *out = NULL;
    int rc = cli(args, &out);
    cr_assert_eq(rc, 1, "%s: %s", arches[a], out);
    cr_assert(strstr(out, "racecheck: 2 hazards\n") && strstr(out, "WAW hazard on LDS byte 0x4:") &&
                  count_of(out, "(256 byte conflicts)") == 2,
              "%s: two reports of 256 byte conflicts expected: %s", arches[a], out);
    free(args), free(out);
  }
}

Test(observe, fixed_and_atomic_kernels_report_nothing) {
  const char *ks[] = {"race_raw_fixed", "race_atomic_ok"};
  for (int k = 0; k < 2; k++)
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
      char *extra = ll_fmt("--racecheck --initcheck --schedule %s", schedules[s]);
      int rc;
      char *out = run_k("gfx942", ks[k], "2", extra, &rc);
      cr_assert_eq(rc, 0, "%s %s: %s", ks[k], schedules[s], out);
      cr_assert(strstr(out, "racecheck: 0 hazards") && strstr(out, "initcheck: 0 uninitialized reads"), "%s", out);
      free(out), free(extra);
    }
  /* the kernel's result is the schedule-independent one: out[t] = in[(t+64)%128] = 3((t+64)%128)+1 */
  int rc;
  free(run_k("gfx942", "race_raw_fixed", "1", "--schedule random:5", &rc));
  cr_assert_eq(rc, 0);
  size_t n;
  uint32_t *o = ll_read_file(out_file, &n, NULL);
  cr_assert_eq(n, 512);
  for (int t = 0; t < 128; t++) cr_assert_eq(o[t], 3u * ((t + 64) % 128) + 1, "out[%d] = %u", t, o[t]);
  free(o);
}

Test(observe, global_race_across_workgroups) {
  int rc;
  char *out = run_k("gfx942", "race_global", "3", "--racecheck=global", &rc);
  cr_assert_eq(rc, 1, "%s", out);
  cr_assert(strstr(out, "WAW hazard on global") && strstr(out, "in different workgroups"), "%s", out);
  cr_assert(strstr(out, "global_store_dword"), "%s", out);
  free(out);
  /* LDS-only racecheck does not look at global memory; one workgroup cannot race with itself here */
  out = run_k("gfx942", "race_global", "3", "--racecheck", &rc);
  cr_assert_eq(rc, 0, "%s", out);
  free(out);
  out = run_k("gfx942", "race_global", "1", "--racecheck=global", &rc);
  cr_assert_eq(rc, 0, "%s", out);
  free(out);
}

/* --racecheck=global takes a run of a lane's bytes in one shadow state once (emu/observe.c
 * global_bytes), and an access with an uninitialized byte byte by byte: 8-byte reads of elements
 * another workgroup wrote half of meet 4 byte conflicts a lane, 256 (observe.hip race_global_runs,
 * by its indexing), alone and with --initcheck, whose 256 unwritten bytes are reported too; both
 * arches */
Test(observe, global_race_runs_count_each_byte_in_conflict) {
  for (int a = 0; a < 2; a++)
    for (int init = 0; init < 2; init++) {
      const char *arch = a ? "gfx950" : "gfx942";
      int rc;
      char *out = run_k(arch, "race_global_runs", "2", init ? "--racecheck=global --initcheck" : "--racecheck=global", &rc);
      cr_assert_eq(rc, 1, "%s: %s", arch, out);
      cr_assert(strstr(out, "RAW hazard on global") && strstr(out, "in different workgroups") &&
                    strstr(out, "(256 byte conflicts)") && strstr(out, "racecheck: 1 hazard\n"),
                "%s%s: one RAW report of 256 byte conflicts expected: %s", arch, init ? " (initcheck)" : "", out);
      if (init)
        cr_assert(strstr(out, "UNINIT global") && strstr(out, "(256 bytes)") && strstr(out, "initcheck: 1 uninitialized read\n"),
                  "%s: 256 unwritten bytes expected: %s", arch, out);
      free(out);
    }
}

/* --racecheck=global keeps 44 bytes of state per 8-byte granule of every buffer (docs/trace.md),
 * and 320 more for each granule accessed in parts, all within 512 MiB. A buffer whose granules take
 * all but 256 KiB of that leaves room for 819 split granules: 256 one-byte stores to different
 * granules run; 2048 stop with the fault that names the limit, at the store (observe.hip
 * shadow_split). The buffer is never touched but by those stores, so the host backs little of it. */
Test(observe, global_race_shadow_limit_is_a_fault_not_a_crash) {
  const uint64_t limit = 512ull << 20, left = 256ull << 10;
  const uint64_t size = (limit - left) / 44 * 8 - 64; /* room for the kernarg's granules */
  uint8_t *big = calloc(1, size);
  cr_assert_not_null(big);
  for (int a = 0; a < 2; a++) {
    const char *arch = a ? "gfx950" : "gfx942";
    ll_err e = {0};
    emu_codeobj *co = emu_codeobj_load_file(co_for(arch), &e);
    cr_assert_not_null(co, "%s", e.msg);
    const emu_kernel *k = emu_codeobj_kernel(co, "shadow_split", &e);
    cr_assert_not_null(k, "%s", e.msg);
    for (int big_grid = 0; big_grid < 2; big_grid++) {
      emu_mem *m = emu_mem_new();
      uint64_t ka = emu_mem_map(m, big, size, "big");
      emu_dispatch d = {.co = co, .kernel = k, .grid = {big_grid ? 16u : 2u, 1, 1}, .block = {128, 1, 1},
                        .kernarg_addr = emu_mem_map(m, &ka, sizeof ka, "kernarg")};
      emu_observer *o = emu_observer_new();
      emu_observer_racecheck(o, true);
      emu_launch_opts opt = {.threads = 1, .observe = o};
      emu_fault f;
      int rc = emu_launch(m, &d, &opt, &f, NULL);
      if (!big_grid) {
        cr_assert_eq(rc, LL_EXIT_OK, "%s: 256 split granules: %s", arch, f.msg);
      } else {
        cr_assert_eq(rc, LL_EXIT_FAIL, "%s: 2048 split granules ran", arch);
        cr_assert(strstr(f.msg, "racecheck shadow exhausted") && strstr(f.msg, "512 MiB") && strstr(f.msg, "shadow_split") &&
                      strstr(f.msg, "global_store_byte"),
                  "%s: %s", arch, f.msg);
      }
      emu_observer_free(o);
      emu_mem_free(m);
    }
    emu_codeobj_free(co);
  }
  free(big);
}

Test(observe, initcheck_lds_and_out_buffers) {
  int rc;
  char *out = run_k("gfx942", "uninit_lds", "1", "--arg u32:0 --initcheck", &rc);
  cr_assert_eq(rc, 1, "%s", out);
  /* 128 lanes x 4 bytes of s[] read, none written */
  cr_assert(strstr(out, "UNINIT LDS byte 0x0 read before any write") && strstr(out, "ds_read_b32") &&
            strstr(out, "(512 bytes)"), "%s", out);
  free(out);
  out = run_k("gfx942", "uninit_lds", "1", "--arg u32:1 --initcheck", &rc);
  cr_assert_eq(rc, 0, "flag 1 writes s[t] first: %s", out);
  free(out);
  out = run_k("gfx942", "uninit_out", "1", "--initcheck", &rc);
  cr_assert_eq(rc, 1, "%s", out);
  cr_assert(strstr(out, "UNINIT global") && strstr(out, "global_load_dword") && strstr(out, "(512 bytes)"), "%s", out);
  free(out);
  /* without --initcheck the same run passes */
  out = run_k("gfx942", "uninit_out", "1", "", &rc);
  cr_assert_eq(rc, 0, "%s", out);
  free(out);
}

/* A dword read whose bytes were partly written: the bytes nothing wrote are counted, and the
 * report names the first of them. Thread 0 wrote bytes 0 and 1 of out[0], so its read leaves 2
 * (the first at out + 2, lane 0); the 63 other even threads wrote byte 1: 3 each; the 64 odd
 * threads wrote nothing: 4 each. 2 + 63 * 3 + 64 * 4 = 447 bytes, on both arches. */
Test(observe, initcheck_counts_the_unwritten_bytes_of_partly_written_dwords) {
  for (int a = 0; a < 2; a++) {
    int rc;
    const char *arch = a ? "gfx950" : "gfx942";
    char *out = run_k(arch, "uninit_partial", "1", "--initcheck", &rc);
    cr_assert_eq(rc, 1, "%s: %s", arch, out);
    cr_assert(strstr(out, "UNINIT global 0x") && strstr(out, "global_load_dword") && strstr(out, "wave 0 lane 0 (447 bytes)") &&
                  strstr(out, "initcheck: 1 uninitialized read\n"),
              "%s: %s", arch, out);
    /* the address: the out buffer's base + 2 (device buffers start 64 KiB aligned, emu/mem.c) */
    const char *g = strstr(out, "UNINIT global 0x");
    unsigned long long at = strtoull(g + strlen("UNINIT global "), NULL, 16);
    cr_assert_eq(at % 512, 2, "%s: the first unwritten byte is out + 2, reported 0x%llx: %s", arch, at, out);
    free(out);
  }
}

/* initcheck takes a store whose lanes' bytes follow one another, and a load whose whole span is
 * written, as one range of the bitmap (emu/observe.c global_init_span); a store with holes between
 * its lanes, and a load whose span has unwritten bytes, go lane by lane. The counts and first bytes
 * come from the kernels' indexing (observe.hip uninit_span, uninit_span_part): a span set too
 * widely would hide the holes, a span read too widely would count the written bytes. */
Test(observe, initcheck_of_whole_spans_counts_what_the_lanes_left_unwritten) {
  const struct { const char *k, *lane; unsigned bytes, first; } ks[] = {{"uninit_span", "wave 1 lane 1", 128, 260},
                                                                       {"uninit_span_part", "wave 1 lane 36", 112, 400}};
  for (int a = 0; a < 2; a++)
    for (int i = 0; i < 2; i++) {
      int rc;
      const char *arch = a ? "gfx950" : "gfx942";
      char *out = run_k(arch, ks[i].k, "1", "--initcheck", &rc);
      char *want = ll_fmt("%s (%u bytes)", ks[i].lane, ks[i].bytes);
      cr_assert_eq(rc, 1, "%s %s: %s", arch, ks[i].k, out);
      cr_assert(strstr(out, "UNINIT global 0x") && strstr(out, want) && strstr(out, "initcheck: 1 uninitialized read\n"),
                "%s %s: want '%s': %s", arch, ks[i].k, want, out);
      const char *g = strstr(out, "UNINIT global 0x");
      unsigned long long at = strtoull(g + strlen("UNINIT global "), NULL, 16);
      cr_assert_eq(at % 512, ks[i].first, "%s %s: the first unwritten byte is out + %u, reported 0x%llx", arch, ks[i].k,
                   ks[i].first, at);
      free(want), free(out);
    }
}

/* initcheck runs workgroups side by side, all sharing the bitmaps of what was written (emu/observe.c
 * bm_or): observe.hip init_lastblock's 8 workgroups each set one bit of every bitmap byte of out
 * past its first 64 bytes, and the workgroup that counts itself last reads all those bytes: by the
 * kernel, all written and ordered before the read (fence, atomic, fence), so nothing may be reported
 * (a bit lost to two workers' read-modify-write of one bitmap byte would be: planted, it is); in the
 * _gap twin workgroup 3 writes nothing, and the last one reads its byte of each of the 8184 groups
 * unwritten: one report of 8184 bytes, whichever workgroup is last. Three runs, both arches. */
Test(observe, initcheck_with_workgroups_side_by_side_sees_ordered_writes, .timeout = 300) {
  char *big = ll_fmt("%s/out64k.bin", dir);
  for (int a = 0; a < 2; a++)
    for (int gap = 0; gap < 2; gap++)
      for (int run = 0; run < 3; run++) {
        const char *arch = a ? "gfx950" : "gfx942";
        char *args = ll_fmt("run %s %s --grid 8 --block 128 --arg in:%s --arg out:65536:%s --initcheck", co_for(arch),
                            gap ? "init_lastblock_gap" : "init_lastblock", in_file, big);
        char *out = NULL;
        int rc = cli(args, &out);
        if (!gap) {
          cr_assert(rc == 0 && strstr(out, "initcheck: 0 uninitialized reads\n"), "%s run %d: %s", arch, run, out);
        } else {
          cr_assert(rc == 1 && strstr(out, "initcheck: 1 uninitialized read\n") && strstr(out, "global_load_dword") &&
                        strstr(out, " (8184 bytes)\n"),
                    "%s run %d: one report of 8184 bytes expected: %s", arch, run, out);
        }
        free(args), free(out);
      }
  free(big);
}

Test(observe, bad_options_are_usage_errors) {
  int rc;
  const char *bad[] = {"--schedule fifo", "--schedule random:x", "--dump-at 0x100", "--dump-at zz --dump-regs /tmp/x",
                       "--trace ''", "--trace 'ds_read*@wave=3-1'", "--trace 'ds_read*@first=0'",
                       "--trace 'DS READ'", "--trace-out /tmp/x", "--tile t:base=0", "--trace ds_read* --tile t:rows=1",
                       "--backend hip --racecheck"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *out = run_k("gfx942", "race_raw", "1", bad[i], &rc);
    cr_assert_eq(rc, 2, "'%s' should be a usage error (2), got %d: %s", bad[i], rc, out);
    free(out);
  }
}

/* The ds_read of race_raw_fixed: lane t of wave w reads dword (64w + t + 64) % 128, which holds
 * in[that] = 3 * that + 1 (the kernel's source). */
Test(observe, trace_json_has_addresses_and_results) {
  char *tdir = ll_fmt("%s/trace", dir);
  char *extra = ll_fmt("--trace 'ds_read*@wg=1,wave=1' --trace-out %s "
                       "--tile s:base=0,rows=128,cols=1,elem=4,stride=4", tdir);
  int rc;
  char *out = run_k("gfx950", "race_raw_fixed", "2", extra, &rc);
  cr_assert_eq(rc, 0, "%s", out);
  char *jp = ll_fmt("%s/trace.json", tdir);
  ll_json *j = ll_json_parse_file(jp, NULL);
  cr_assert_not_null(j);
  ll_json *inst = ll_json_get(j, "instances");
  cr_assert(inst && inst->type == LL_JARR && inst->n == 1, "one ds_read in wg 1 wave 1");
  ll_json *r = inst->items[0];
  cr_assert_str_eq(ll_json_get(r, "space")->str, "lds");
  cr_assert_eq(ll_json_get(r, "wave")->num, 1);
  cr_assert_eq(ll_json_get(r, "wg")->items[0]->num, 1);
  ll_json *addr = ll_json_get(r, "addr")->items[0];
  ll_json *ops = ll_json_get(r, "operands");
  ll_json *dst = NULL;
  for (size_t k = 0; k < ops->n; k++)
    if (ll_json_get(ops->items[k], "dst")->b) dst = ops->items[k];
  cr_assert_not_null(dst, "the ds_read's destination is traced");
  ll_json *after = ll_json_get(dst, "after")->items[0];
  for (int l = 0; l < 64; l++) {
    uint32_t d = (64 + l + 64) % 128;
    cr_assert_eq((uint64_t)addr->items[l]->num, 4u * d, "lane %d address", l);
    cr_assert_eq((uint32_t)after->items[l]->num, 3u * d + 1, "lane %d result", l);
  }
  ll_json_free(j);
  char *hp = ll_fmt("%s/trace.html", tdir), *cp = ll_fmt("%s/trace.csv", tdir);
  size_t n;
  char *html = ll_read_file(hp, &n, NULL), *csv = ll_read_file(cp, &n, NULL);
  cr_assert(html && strstr(html, "Timeline (1 instances)") && strstr(html, "class=\"grid lanemap\""));
  /* the lane map decodes lane 0's address (dword 0) as row 0, col 0 */
  cr_assert(strstr(html, "<td class=\"lanecol\">0</td><td>0x0</td><td class=\"rc\">0,0</td>"), "lane 0 row");
  cr_assert(csv && strstr(csv, "seq,wg_x,wg_y,wg_z,wave"));
  /* the tile picture (reports/tile.h): 128 elements, each owned by the lane that read it */
  cr_assert(strstr(html, "<svg class=\"tile\" id=\"pic-0\""), "tile picture");
  /* tile.h's DOM: data-elements counts the elements, one <rect class="e lLANE"> each */
  cr_assert(strstr(html, "data-elements=\"128\""), "128 elements drawn");
  cr_assert(strstr(html, "<rect class=\"e l0\" "), "lane 0's element drawn");
  free(html), free(csv), free(hp), free(cp), free(jp), free(out), free(extra), free(tdir);
}

static size_t count_of(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

/* The page's timeline picture: race_raw_fixed (tests/kernels/observe.hip) on 2 workgroups of 2
 * waves; each wave loads in[t] (global), writes s[t] (LDS), passes the barrier, reads s[..] (LDS)
 * and stores out[t] (global): 4 rows, 16 marks (8 LDS, 8 global), one interval tick per row. */
Test(observe, trace_page_timeline_draws_one_mark_per_instance) {
  char *tdir = ll_fmt("%s/trace-tl", dir);
  char *extra = ll_fmt("--trace 'ds_*,global_*' --trace-out %s", tdir);
  int rc;
  char *out = run_k("gfx950", "race_raw_fixed", "2", extra, &rc);
  cr_assert_eq(rc, 0, "%s", out);
  char *hp = ll_fmt("%s/trace.html", tdir);
  char *html = ll_read_file(hp, NULL, NULL);
  cr_assert_not_null(html, "%s", hp);
  const char *svg = strstr(html, "<svg class=\"timeline\" id=\"timeline\"");
  cr_assert_not_null(svg, "the timeline picture");
  char *end = strstr(svg, "</svg>");
  cr_assert_not_null(end);
  *end = 0;
  cr_assert(strstr(svg, "data-instances=\"16\" data-rows=\"4\""), "%.300s", svg);
  cr_assert_eq(count_of(svg, "<rect class=\"tl "), 16, "one mark per instance");
  cr_assert_eq(count_of(svg, "<rect class=\"tl lds\""), 8, "the ds_write and ds_read of each wave");
  cr_assert_eq(count_of(svg, "<rect class=\"tl vmem\""), 8, "the global load and store of each wave");
  cr_assert_eq(count_of(svg, "class=\"tick\""), 4, "each wave crosses one barrier between its traced accesses");
  for (int w = 0; w < 2; w++)
    for (int g = 0; g < 2; g++) {
      char *lab = ll_fmt(">wg %d wave %d<", g, w);
      cr_assert(strstr(svg, lab), "row %s", lab);
      free(lab);
    }
  /* each mark's title names its instance; the first links to its section */
  cr_assert(strstr(svg, "<a href=\"#i0\"><rect class=\"tl vmem\"") && strstr(svg, "<title>#0 pc 0x"), "%.600s", svg);
  cr_assert_eq(count_of(svg, "<title>#"), 16);
  free(html), free(hp), free(out), free(extra), free(tdir);
}

Test(observe, dump_at_takes_registers_before_the_nth_execution) {
  /* the PC of race_raw_fixed's ds_read from llvm-objdump's "// ADDR: BYTES" comment, not from lanelab */
  char *cmd = ll_fmt(LLVM_BIN "llvm-objdump -d --no-show-raw-insn %s | awk '/<race_raw_fixed>:/{f=1} f && /ds_read_b32/{print; exit}'",
                     co_for("gfx942"));
  char *txt = run(cmd), *pcs = strstr(txt, "// ");
  free(cmd);
  cr_assert_not_null(pcs, "objdump line: %s", txt);
  unsigned long long pc = strtoull(pcs + 3, NULL, 16);
  cr_assert(pc > 0, "pc from objdump: %s", txt);
  char *dump = ll_fmt("%s/regs.json", dir);
  char *extra = ll_fmt("--dump-at 0x%llx --dump-regs %s", pc, dump);
  int rc;
  char *out = run_k("gfx942", "race_raw_fixed", "2", extra, &rc);
  cr_assert_eq(rc, 0, "%s", out);
  ll_json *j = ll_json_parse_file(dump, NULL);
  cr_assert_not_null(j);
  ll_json *waves = ll_json_get(j, "waves");
  cr_assert_eq(waves->n, 4, "2 workgroups x 2 waves each reach the read once");
  char want[32];
  snprintf(want, sizeof want, "0x%016llx", pc);
  cr_assert_str_eq(ll_json_get(waves->items[0], "pc")->str, want);
  ll_json_free(j);
  free(out), free(extra);
  /* the second execution never happens: exit 1 naming it */
  extra = ll_fmt("--dump-at 0x%llx:2 --dump-regs %s", pc, dump);
  out = run_k("gfx942", "race_raw_fixed", "1", extra, &rc);
  cr_assert_eq(rc, 1, "%s", out);
  cr_assert(strstr(out, "no wave executed the instruction at that PC 2 times"), "%s", out);
  free(out), free(extra), free(dump), free(txt);
}

/* v_mfma_f32_16x16x16_f16 operand layout (CDNA3 ISA, "Dependent Arithmetic: MFMA" layouts):
 * lane l holds A[l % 16][4 (l / 16) + j] and B[4 (l / 16) + j][l % 16] in half j of its pair. */
Test(observe, mfma_reconstruction_gives_back_a_and_b) {
  uint16_t a[256], b[256], A[256], B[256];
  float fa[256], fb[256];
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 16; c++) fa[r * 16 + c] = (float)(r * 16 + c), fb[r * 16 + c] = (float)((r * 3 + c) % 7);
  /* f16 of small integers: exact (sign 0, exponent bias 15, 10-bit mantissa) */
  for (int i = 0; i < 256; i++) {
    for (int k = 0; k < 2; k++) {
      float f = k ? fb[i] : fa[i];
      uint16_t h = 0;
      if (f != 0) {
        int e = 0;
        float m = f;
        while (m >= 2) m /= 2, e++;
        h = (uint16_t)((e + 15) << 10 | (uint16_t)((m - 1) * 1024));
      }
      (k ? B : A)[i] = h;
    }
  }
  for (int l = 0; l < 64; l++)
    for (int j = 0; j < 4; j++) {
      a[4 * l + j] = A[(l % 16) * 16 + 4 * (l / 16) + j];
      b[4 * l + j] = B[(4 * (l / 16) + j) * 16 + l % 16];
    }
  char *pa = ll_fmt("%s/a.bin", dir), *pb = ll_fmt("%s/b.bin", dir), *pA = ll_fmt("%s/A.bin", dir),
       *pB = ll_fmt("%s/B.bin", dir), *pA2 = ll_fmt("%s/A2.bin", dir), *tdir = ll_fmt("%s/tm", dir);
  cr_assert(ll_write_file_atomic(pa, a, sizeof a, NULL) && ll_write_file_atomic(pb, b, sizeof b, NULL) &&
            ll_write_file_atomic(pA, A, sizeof A, NULL) && ll_write_file_atomic(pB, B, sizeof B, NULL));
  A[3 * 16 + 5] ^= 1;
  cr_assert(ll_write_file_atomic(pA2, A, sizeof A, NULL));
  char *args = ll_fmt("run %s mfma_16x16x16 --grid 1 --block 64 --arg in:%s --arg in:%s --arg out:1024:%s/d.bin "
                      "--trace 'v_mfma*' --trace-out %s --expect-a %s --expect-b %s", co_for("gfx950"), pa, pb, dir, tdir,
                      pA, pB);
  char *out;
  int rc = cli(args, &out);
  cr_assert_eq(rc, 0, "%s", out);
  cr_assert(strstr(out, "MFMA #0 A matches") && strstr(out, "MFMA #0 B matches"), "%s", out);
  /* the rebuilt A.bin is the matrix itself */
  char *rb = ll_fmt("%s/mfma/0_A.bin", tdir);
  size_t n;
  uint16_t *got = ll_read_file(rb, &n, NULL);
  cr_assert(got && n == sizeof A);
  A[3 * 16 + 5] ^= 1;
  cr_assert(!memcmp(got, A, sizeof A));
  char *hp = ll_fmt("%s/trace.html", tdir);
  char *html = ll_read_file(hp, &n, NULL);
  cr_assert(html && strstr(html, "id=\"mfma-0-a\"") && strstr(html, "id=\"mfma-0-b\""), "A/B pictures on the page");
  free(html), free(hp);
  free(got), free(out), free(args);
  /* one wrong element is named with the lane and register it came from: A[3][5] is lane 3 + 16 * 1,
   * half 1 of the first register of the pair: bits 16..31 */
  args = ll_fmt("run %s mfma_16x16x16 --grid 1 --block 64 --arg in:%s --arg in:%s --arg out:1024:%s/d.bin "
                "--trace 'v_mfma*' --trace-out %s --expect-a %s", co_for("gfx950"), pa, pb, dir, tdir, pA2);
  rc = cli(args, &out);
  cr_assert_eq(rc, 1, "%s", out);
  cr_assert(strstr(out, "1 mismatching elements; first: A[3][5]") && strstr(out, "lane 19,") &&
            strstr(out, "register 0") && strstr(out, "bits 16..31"), "%s", out);
  free(out), free(args), free(rb), free(pa), free(pb), free(pA), free(pB), free(pA2), free(tdir);
}

/* tile decoding: k128B is chunk j ^ (row % 8) in 8-byte chunks (lanes.h) */
Test(observe, tile_decode_inverts_the_swizzles) {
  report_trace_tile t;
  cr_assert(report_trace_tile_parse("v:base=256,rows=16,cols=64,elem=2,stride=128,swizzle=k128B", &t, NULL));
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 64; c++) {
      uint64_t addr = 256 + (uint64_t)r * 128 + 8 * ((uint64_t)(c / 4) ^ (uint64_t)(r % 8)) + 2 * (c % 4);
      int rr, cc;
      cr_assert(report_trace_tile_decode(&t, addr, &rr, &cc), "(%d,%d)", r, c);
      cr_assert(rr == r && cc == c, "(%d,%d) decoded as (%d,%d)", r, c, rr, cc);
    }
  int rr, cc;
  cr_assert(!report_trace_tile_decode(&t, 255, &rr, &cc), "below the base");
  cr_assert(!report_trace_tile_decode(&t, 257, &rr, &cc), "not an element start");
  cr_assert(!report_trace_tile_decode(&t, 256 + 16 * 128, &rr, &cc), "past the last row");
  cr_assert(report_trace_tile_parse("x:base=0,rows=4,cols=8,elem=4,stride=32,swizzle=xor:2:4", &t, NULL));
  cr_assert(t.xor_div == 2 && t.xor_mod == 4);
  cr_assert(!report_trace_tile_parse("x:base=0,rows=4,cols=9,elem=4,stride=32", &t, NULL), "cols*elem > stride");
}

/* The missing_barrier mutant (kernels/prod/prefill_impl.h without the barrier between the K/V
 * tile stores and the fragment reads) races under every schedule, and the production kernel does
 * not, on both arches. */
/* the quick matrix's single-prefill case (verify/prod.h) */
static const prod_case *quick_single_case(void) {
  size_t n;
  const prod_case *cases = prod_matrix("quick", &n);
  for (size_t i = 0; i < n; i++)
    if (cases[i].kind == ORACLE_SINGLE) return &cases[i];
  cr_assert_fail("the quick matrix has no single-prefill case");
  return NULL;
}

/* the emulator device of an arch */
static rt_device *emu_device(const char *name) {
  emu_arch arch;
  cr_assert(emu_arch_parse(name, &arch));
  ll_err err = {0};
  rt_device *d = rt_open(RT_EMU, arch, &err);
  cr_assert_not_null(d, "%s", err.msg);
  return d;
}

Test(observe, missing_barrier_mutant_races_under_every_schedule, .timeout = 600) {
  const prod_case *pc = quick_single_case();
  const char *arches[] = {"gfx942", "gfx950"};
  const struct { emu_sched s; uint64_t seed; } sch[] = {
      {EMU_SCHED_ROUND_ROBIN, 0}, {EMU_SCHED_ADVERSARIAL, 0}, {EMU_SCHED_RANDOM, 1}, {EMU_SCHED_RANDOM, 42}};
  for (int a = 0; a < 2; a++) {
    ll_err err = {0};
    rt_device *d = emu_device(arches[a]);
    char *mut = ll_fmt(LANELAB_BUILD "/%s/mutants/missing_barrier/prefill_single.co", arches[a]);
    char *good = ll_fmt(LANELAB_BUILD "/%s/kernels/prefill_single.co", arches[a]);
    cr_assert(access(mut, R_OK) == 0 && access(good, R_OK) == 0, "%s / %s missing: make kernels mutants", mut, good);
    for (size_t s = 0; s < sizeof sch / sizeof *sch; s++) {
      for (int which = 0; which < 2; which++) {
        prod_run_opts o = {.co_path = which ? mut : good, .sched = sch[s].s, .sched_seed = sch[s].seed,
                           .racecheck = true, .initcheck = !which}; /* the mutant: races only */
        prod_result r;
        int rc = prod_case_run(d, LANELAB_BUILD, pc, &o, &r, &err);
        cr_assert_eq(rc, LL_EXIT_OK, "%s %s: %s", arches[a], o.co_path, err.msg);
        cr_assert(r.checked);
        if (which) {
          cr_assert_gt(r.hazards, 0, "%s schedule %d: the missing barrier was not reported", arches[a], (int)s);
          cr_assert(strstr(r.hazard, "hazard on LDS"), "%s", r.hazard);
        } else {
          cr_assert_eq(r.hazards, 0, "%s schedule %d: false positive on the production kernel: %s", arches[a], (int)s,
                       r.hazard);
        }
      }
    }
    free(mut), free(good);
    rt_close(d);
  }
}

/* The findings of a run: its racecheck/initcheck lines, in order */
static char *finding_lines(const char *out) {
  char *r = ll_xstrdup("");
  for (const char *p = out; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (!strncmp(p, "racecheck", 9) || !strncmp(p, "initcheck", 9)) {
      char *t = ll_fmt("%s%.*s\n", r, (int)n, p);
      free(r);
      r = t;
    }
    p += n + (e != NULL);
  }
  return r;
}

/* An observer that looks only at memory instructions (racecheck, initcheck, no trace) lets the
 * round robin run every other instruction in its blocks and translated code (emu/exec.c run_rr),
 * giving each observed instruction the step the one-step path counts (emu_obs_step); a trace sees
 * every instruction and keeps the one-step path, the reference here. Both must report the same
 * findings, in the same order, with the same RAW/WAR labels (decided by the two waves' steps) and
 * counts: observe.hip's kernels, and the prefill kernel's missing-barrier mutant (a race between
 * every wave pair of the staging, at many step distances), on both arches. uninit_out on one
 * workgroup: on two, both read and write out[0..127] unordered, a race across workgroups whose
 * initcheck report depends on which ran first once initcheck runs them side by side (the traced
 * path runs them in grid order; docs/trace.md "Workgroups side by side"). */
Test(observe, memory_only_observers_find_what_the_one_step_path_finds, .timeout = 600) {
  const char *arches[] = {"gfx942", "gfx950"};
  const struct { const char *k, *grid, *extra; } ks[] = {
      {"race_raw", "2", "--racecheck --initcheck"},       {"race_war", "2", "--racecheck --initcheck"},
      {"race_waw", "2", "--racecheck --initcheck"},       {"race_atomic_ok", "2", "--racecheck --initcheck"},
      {"uninit_lds", "1", "--arg u32:0 --racecheck --initcheck"}, {"uninit_out", "1", "--racecheck --initcheck"},
      {"uninit_partial", "1", "--racecheck --initcheck"}, {"race_global", "3", "--racecheck=global --initcheck"}};
  char *tdir = ll_fmt("%s/trace-none", dir);
  for (int a = 0; a < 2; a++)
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
      int rc1, rc2;
      char *fast = run_k(arches[a], ks[i].k, ks[i].grid, ks[i].extra, &rc1);
      char *traced_extra = ll_fmt("%s --trace 'no_such_mnemonic*' --trace-out %s", ks[i].extra, tdir);
      char *slow = run_k(arches[a], ks[i].k, ks[i].grid, traced_extra, &rc2);
      char *f1 = finding_lines(fast), *f2 = finding_lines(slow);
      cr_assert(strstr(f1, "racecheck:") && strstr(f1, "initcheck:"), "%s %s: %s", arches[a], ks[i].k, fast);
      cr_assert_eq(rc1, rc2, "%s %s: exit %d, traced %d", arches[a], ks[i].k, rc1, rc2);
      cr_assert_str_eq(f1, f2, "%s %s: findings differ from the one-step path's:\n%s\ntraced:\n%s", arches[a], ks[i].k,
                       f1, f2);
      free(f1), free(f2), free(fast), free(slow), free(traced_extra);
    }
  free(tdir);
  const prod_case *pc = quick_single_case();
  for (int a = 0; a < 2; a++) {
    ll_err err = {0};
    rt_device *d = emu_device(arches[a]);
    char *mut = ll_fmt(LANELAB_BUILD "/%s/mutants/missing_barrier/prefill_single.co", arches[a]);
    char *lines[2] = {NULL, NULL};
    size_t nh[2];
    for (int traced = 0; traced < 2; traced++) {
      emu_observer *o = emu_observer_new();
      emu_observer_racecheck(o, false);
      if (traced) cr_assert(emu_observer_trace(o, "no_such_mnemonic*", 16, &err), "%s", err.msg);
      prod_run_opts po = {.co_path = mut, .threads = 1, .observe = o};
      prod_result r;
      cr_assert_eq(prod_case_run(d, LANELAB_BUILD, pc, &po, &r, &err), LL_EXIT_OK, "%s: %s", arches[a], err.msg);
      nh[traced] = emu_observer_nhazards(o);
      lines[traced] = ll_xstrdup("");
      for (size_t h = 0; h < nh[traced]; h++) {
        char buf[2048];
        emu_hazard_format(emu_observer_hazard(o, h), buf, sizeof buf);
        char *t = ll_fmt("%s%s\n", lines[traced], buf);
        free(lines[traced]);
        lines[traced] = t;
      }
      emu_observer_free(o);
    }
    cr_assert_gt(nh[0], 1, "%s: the missing barrier was not reported", arches[a]);
    cr_assert(strstr(lines[0], "RAW") && strstr(lines[0], "WAR"), "%s: both labels expected:\n%s", arches[a], lines[0]);
    cr_assert_str_eq(lines[0], lines[1], "%s: the mutant's findings differ from the one-step path's:\n%s\ntraced:\n%s",
                     arches[a], lines[0], lines[1]);
    free(lines[0]), free(lines[1]), free(mut);
    rt_close(d);
  }
}

/* The hazard lines of a racecheck'd prefill run with `threads` workers (0: every core) */
static char *mutant_hazards(rt_device *d, const char *co, int threads, size_t *nh) {
  const prod_case *pc = quick_single_case();
  ll_err err = {0};
  emu_observer *o = emu_observer_new();
  emu_observer_racecheck(o, false);
  prod_run_opts po = {.co_path = co, .threads = threads, .observe = o};
  prod_result r;
  cr_assert_eq(prod_case_run(d, LANELAB_BUILD, pc, &po, &r, &err), LL_EXIT_OK, "%s: %s", co, err.msg);
  *nh = emu_observer_nhazards(o);
  char *lines = ll_xstrdup("");
  for (size_t h = 0; h < *nh; h++) {
    char buf[2048];
    emu_hazard_format(emu_observer_hazard(o, h), buf, sizeof buf);
    char *t = ll_fmt("%s%s\n", lines, buf);
    free(lines);
    lines = t;
  }
  cr_assert_eq(emu_observer_hazards_dropped(o), 0);
  emu_observer_free(o);
  return lines;
}

/* `--racecheck` runs workgroups side by side; its reports must still be the one-worker run's: each
 * names the pair met first in grid order and they are listed in that order (docs/trace.md).
 * observe.hip race_late0 on 8 workgroups: workgroup 0 loops while the others race, so a second
 * worker meets the WAR pair (workgroups 1-7) before workgroup 0 meets the RAW pair. By the kernel's
 * indexing and grid order: first the RAW pair of workgroup 0 (every workgroup: 128 lanes read 4
 * bytes the other wave wrote, 512 byte conflicts, 4096 in all), then the WAR pair of workgroup 1
 * (workgroups 1-7, 3584), in every run on both arches (before the fix most runs listed the WAR pair
 * first, named by workgroup 1). And the prefill kernel's missing-barrier mutant, racing in every
 * workgroup at many PC pairs: 8 workers (more than this machine's cores) give the one worker's
 * lines, byte for byte. */
/* kernel on grid under --racecheck three times: exit 1, check(arch, output) each time, and the
 * same finding lines each time */
static void racecheck_three_runs(const char *arch, const char *kernel, const char *grid,
                                 void (*check)(const char *arch, const char *out)) {
  char *first = NULL;
  for (int run = 0; run < 3; run++) {
    int rc;
    char *out = run_k(arch, kernel, grid, "--racecheck", &rc);
    cr_assert_eq(rc, 1, "%s %s run %d: %s", arch, kernel, run, out);
    check(arch, out);
    char *f = finding_lines(out);
    if (first) cr_assert_str_eq(f, first, "%s %s: runs differ", arch, kernel);
    else first = ll_xstrdup(f);
    free(f), free(out);
  }
  free(first);
}

static void late0_check(const char *arch, const char *out) {
  char *f = finding_lines(out);
  const char *raw = strstr(f, "racecheck: RAW hazard"), *war = strstr(f, "racecheck: WAR hazard");
  cr_assert(raw == f && war && strstr(f, "racecheck: 2 hazards\n"), "%s: RAW then WAR expected:\n%s", arch, f);
  char *l1 = ll_fmt("%.*s", (int)(war - raw), raw);
  cr_assert(count_of(l1, "wg (0,0,0)") == 2 && strstr(l1, "(4096 byte conflicts)"), "%s: %s", arch, l1);
  cr_assert(count_of(war, "wg (1,0,0)") == 2 && strstr(war, "(3584 byte conflicts)"), "%s: %s", arch, war);
  free(l1), free(f);
}

Test(observe, racecheck_reports_are_the_one_worker_runs_in_grid_order, .timeout = 600) {
  const char *arches[] = {"gfx942", "gfx950"};
  for (int a = 0; a < 2; a++) {
    racecheck_three_runs(arches[a], "race_late0", "8", late0_check);
    rt_device *d = emu_device(arches[a]);
    char *mut = ll_fmt(LANELAB_BUILD "/%s/mutants/missing_barrier/prefill_single.co", arches[a]);
    size_t n1, n8;
    char *one = mutant_hazards(d, mut, 1, &n1), *eight = mutant_hazards(d, mut, 8, &n8);
    cr_assert_gt(n1, 1, "%s: the missing barrier was not reported", arches[a]);
    cr_assert_str_eq(eight, one, "%s: 8 workers' reports differ from one's:\n%s\none worker:\n%s", arches[a], eight, one);
    free(one), free(eight), free(mut);
    rt_close(d);
  }
}

/* The observer keeps 256 reports; past that it says how many byte conflicts it did not list,
 * never dropping them unsaid (before 2026-12-06 it did), and which it keeps is grid order's choice,
 * the same in every run. observe.hip race_many has 289 racing PC pairs and, by its indexing,
 * 4352 byte conflicts a workgroup: on 4 workgroups the 256 kept reports and the line of the rest
 * add up to 17408, the same lines in three runs, on both arches. */
static void many_check(const char *arch, const char *out) {
  cr_assert(strstr(out, "racecheck: 256 hazards\n"), "%s: 256 kept reports expected: %s", arch, out);
  unsigned long long sum = 0, rest = 0, c;
  for (const char *p = out; (p = strstr(p, "hazard on LDS byte")); p++) {
    const char *e = strchr(p, '\n'), *q = strstr(p, " byte conflicts)\n");
    cr_assert(q && q < e + 1, "%s: no count in a report", arch);
    while (q > p && q[-1] != '(') q--;
    cr_assert(sscanf(q, "%llu", &c) == 1);
    sum += c;
  }
  const char *d = strstr(out, "hazards: ");
  cr_assert(d && sscanf(d, "hazards: %llu byte conflicts in reports past the 256 kept", &rest) == 1, "%s: %s", arch, out);
  cr_assert(rest > 0 && sum + rest == 17408, "%s: %llu listed + %llu not listed, 17408 expected", arch, sum, rest);
}

Test(observe, hazards_past_the_kept_reports_are_counted_not_dropped, .timeout = 300) {
  racecheck_three_runs("gfx942", "race_many", "4", many_check);
  racecheck_three_runs("gfx950", "race_many", "4", many_check);
}

/* The gfx950 prefill kernel, traced: (1) its first V read (ds_read_b64_tr_b16, wave 0 of
 * workgroup 0) decoded through the V tile gives, slot by slot, the solved seed's lane map: the
 * mfma16x16x16_b target the micro-kernel page shows (lanes_target_get, k128B); (2) the first QK
 * MFMA rebuilt from the lanes is A = the first 16 keys x dims 0..15 of K and B[k][n] = Q[n][k]
 * for the wave's first 16 queries (kernels/prod/prefill_impl.h: S^T = K Q^T), bit for bit the
 * oracle's inputs. Tile geometry from the kernel source: K tile at LDS 0, V tile at kKvBlk (32)
 * rows x D f16 = 64 D bytes, row stride 2 D bytes, k128B. */
Test(observe, prefill_v_lane_map_and_qk_matrices_from_a_trace, .timeout = 300) {
  size_t n;
  const prod_case *cases = prod_matrix("quick", &n);
  const prod_case *pc = NULL;
  for (size_t i = 0; i < n; i++)
    if (cases[i].kind == ORACLE_SINGLE && cases[i].dtype == ORACLE_F16 && cases[i].head_dim == 64) pc = &cases[i];
  cr_assert_not_null(pc, "a single f16 d64 quick case");
  const uint32_t D = 64;
  ll_err err = {0};
  rt_device *d = rt_open(RT_EMU, EMU_GFX950, &err);
  cr_assert_not_null(d, "%s", err.msg);
  emu_observer *obs = emu_observer_new();
  cr_assert(emu_observer_trace(obs, "ds_read_b64_tr_b16,v_mfma*@wg=0,wave=0", 0, &err), "%s", err.msg);
  prod_run_opts o = {.observe = obs};
  prod_result r;
  cr_assert_eq(prod_case_run(d, LANELAB_BUILD, pc, &o, &r, &err), LL_EXIT_OK, "%s", err.msg);
  const emu_trace_rec *tr = NULL, *mf = NULL;
  for (size_t i = 0; i < emu_observer_ntrace(obs); i++) {
    const emu_trace_rec *x = emu_observer_trace_rec(obs, i);
    if (!tr && strstr(x->mnem, "ds_read_b64_tr_b16")) tr = x;
    if (!mf && !strncmp(x->mnem, "v_mfma", 6)) mf = x;
  }
  cr_assert(tr && mf, "the trace holds a V read and an MFMA");
  /* (1) the lane map */
  char *spec = ll_fmt("V:base=%u,rows=32,cols=%u,elem=2,stride=%u,swizzle=k128B", 64 * D, D, 2 * D);
  report_trace_tile t;
  cr_assert(report_trace_tile_parse(spec, &t, &err), "%s", err.msg);
  lanes_target tg;
  cr_assert(lanes_target_get("mfma16x16x16_b", LANES_SWZ_128B, &tg, &err), "%s", err.msg);
  cr_assert_eq(tr->bytes, 8);
  for (int L = 0; L < 64; L++)
    for (int k = 0; k < 4; k++) {
      /* tr_b16: slot k of lane 16g+m is element m%4 of lane 16g+4k+m/4 (E = 4, R = 4) */
      int src = 16 * (L / 16) + 4 * k + (L % 16) / 4, e = (L % 16) % 4, row, col;
      cr_assert(report_trace_tile_decode(&t, tr->addr[0][src] + 2u * (unsigned)e, &row, &col), "lane %d slot %d", L, k);
      cr_assert(row == tg.row[L][k] && col == tg.col[L][k], "lane %d slot %d: (%d,%d), the seed's map has (%d,%d)", L,
                k, row, col, tg.row[L][k], tg.col[L][k]);
    }
  /* the page draws it */
  char *tdir = ll_fmt("%s/prefill_trace", dir);
  report_trace_info info = {.arch = "gfx950", .kernel = "prefill", .co_path = "-", .spec = "-", .tiles = &t, .ntiles = 1};
  cr_assert(report_trace_write(tdir, obs, &info, &err), "%s", err.msg);
  /* (2) the QK matrices, against the oracle's inputs */
  oracle_attention_spec s;
  cr_assert(prod_case_spec(pc, &s, &err), "%s", err.msg);
  char *pa = ll_fmt("%s/mfma/%llu_A.bin", tdir, (unsigned long long)mf->seq);
  char *pb = ll_fmt("%s/mfma/%llu_B.bin", tdir, (unsigned long long)mf->seq);
  size_t na, nb;
  uint16_t *A = ll_read_file(pa, &na, NULL), *B = ll_read_file(pb, &nb, NULL);
  cr_assert(A && B && na == 512 && nb == 512);
  const uint16_t *q = s.q, *kk = s.k;
  for (int i = 0; i < 16; i++)
    for (int k = 0; k < 16; k++) {
      uint16_t want_a = kk[((size_t)i * (size_t)s.num_kv_heads + 0) * D + (size_t)k];
      uint16_t want_b = q[((size_t)i * (size_t)s.num_qo_heads + 0) * D + (size_t)k];
      cr_assert_eq(A[i * 16 + k], want_a, "A[%d][%d] = 0x%x, K[%d][%d] = 0x%x", i, k, A[i * 16 + k], i, k, want_a);
      cr_assert_eq(B[k * 16 + i], want_b, "B[%d][%d] = 0x%x, Q[%d][%d] = 0x%x", k, i, B[k * 16 + i], i, k, want_b);
    }
  free(A), free(B), free(pa), free(pb), free(tdir), free(spec);
  prod_spec_free(&s);
  emu_observer_free(obs);
  rt_close(d);
}

/* ---- loads to LDS (buffer_load_* ... lds, global_load_lds_*), hand-written assembly -------------
 * One kernel per load form, assembled with llvm-mc-22 (tests/llvm_tools.h) for its arch. Arguments
 * x (2048 bytes; the buffer forms see its first 1024), o (256 bytes), sync (u32). Wave 0 of the workgroup issues the load (lane l's
 * vaddr = vstride * l, every lane or, with `half`, lanes 0..31) and waits for it (s_waitcnt vmcnt(0));
 * with sync != 0 both waves then pass an s_barrier; wave 1 runs ACCESS. The LDS bytes lane l of the
 * load writes come from the ISA (CDNA4 ISA 9.1.9 "Buffer Load to LDS", 10.3 / 10.4 global loads to
 * LDS; the formula test_emu.c's execution tests use): base + l * stride, base = M0[17:0] + offset
 * (MUBUF) or M0[17:2] * 4 + offset (global), stride 4, or 16 for dwordx3/dwordx4, a dword per lane
 * for byte and short loads (zero/sign-extended). Registers wave 1 can use: v1 = 4l, v4 = 4((l+8)%64),
 * v5 = l, v6 = stride * l. */
typedef struct {
  const char *arch, *load;
  bool buffer;
  uint32_t m0, ioff, vstride, mem_bytes;
} lds_form;

static const lds_form lds_forms[] = {
    {"gfx942", "buffer_load_dword v1, s[8:11], 0 offen offset:8 lds", true, 0x100, 8, 4, 4},
    {"gfx950", "buffer_load_dword v1, s[8:11], 0 offen offset:8 lds", true, 0x100, 8, 4, 4},
    {"gfx942", "global_load_lds_dword v1, s[4:5] offset:4", false, 0x102, 4, 4, 4},
    {"gfx950", "global_load_lds_dword v1, s[4:5] offset:4", false, 0x102, 4, 4, 4},
    {"gfx942", "buffer_load_ubyte v1, s[8:11], 0 offen lds", true, 0x100, 0, 4, 1},
    {"gfx950", "buffer_load_dwordx4 v3, s[8:11], 0 offen lds", true, 0x100, 0, 16, 16},
    {"gfx950", "global_load_lds_dwordx4 v3, s[4:5] offset:16", false, 0x203, 16, 16, 16},
};
#define NFORMS (sizeof lds_forms / sizeof lds_forms[0])

/* the ISA's LDS destination of lane l (see above) */
static uint32_t lds_base(const lds_form *f) { return (f->buffer ? (f->m0 & 0x3ffffu) : (f->m0 >> 2 & 0xffffu) * 4u) + f->ioff; }
static uint32_t lds_stride(const lds_form *f) { return f->mem_bytes > 4 ? 16u : 4u; }
static uint32_t lds_wbytes(const lds_form *f) { return f->mem_bytes < 4 ? 4u : f->mem_bytes; }

static char *lds_kernel(const lds_form *f, bool half, const char *access) {
  char *src = ll_fmt(
      ".text\n.global ldsk\n.p2align 8\n.type ldsk,@function\nldsk:\n"
      "  s_load_dwordx4 s[4:7], s[0:1], 0x0\n"          /* x s[4:5], o s[6:7] */
      "  s_load_dword s20, s[0:1], 0x10\n"              /* sync */
      "  v_and_b32 v5, 63, v0\n"                        /* lane l */
      "  v_lshlrev_b32 v1, 2, v5\n"                     /* 4 l */
      "  v_lshlrev_b32 v3, 4, v5\n"                     /* 16 l */
      "  v_add_u32 v4, 8, v5\n"
      "  v_and_b32 v4, 63, v4\n"
      "  v_lshlrev_b32 v4, 2, v4\n"                     /* 4 ((l + 8) %% 64) */
      "  v_lshlrev_b32 v6, %d, v5\n"                    /* stride l */
      "  v_readfirstlane_b32 s21, v0\n"
      "  s_lshr_b32 s21, s21, 6\n"                      /* wave */
      "  s_waitcnt lgkmcnt(0)\n"
      "  s_mov_b32 s8, s4\n"                            /* buffer resource s[8:11] over x */
      "  s_and_b32 s9, s5, 0xffff\n"
      "  s_mov_b32 s10, 1024\n"
      "  s_mov_b32 s11, 0x00020000\n"
      "  s_mov_b32 m0, 0x%x\n"
      "  s_cmp_eq_u32 s21, 0\n"
      "  s_cbranch_scc0 .Lskip\n"
      "%s"
      "  %s\n"
      "  s_mov_b64 exec, -1\n"
      "  s_waitcnt vmcnt(0)\n"
      ".Lskip:\n"
      "  s_cmp_eq_u32 s20, 0\n"
      "  s_cbranch_scc1 .Lnobar\n"
      "  s_barrier\n"
      ".Lnobar:\n"
      "  s_cmp_eq_u32 s21, 1\n"
      "  s_cbranch_scc0 .Lend\n"
      "%s\n"
      ".Lend:\n"
      "  s_endpgm\n"
      ".rodata\n.p2align 6\n.amdhsa_kernel ldsk\n"
      "  .amdhsa_group_segment_fixed_size 4096\n"
      "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
      "  .amdhsa_next_free_vgpr 8\n  .amdhsa_next_free_sgpr 24\n  .amdhsa_accum_offset 8\n"
      ".end_amdhsa_kernel\n"
      ".amdgpu_metadata\n---\namdhsa.version: [ 1, 0 ]\namdhsa.kernels:\n"
      "  - .name: ldsk\n    .symbol: ldsk.kd\n    .sgpr_count: 24\n    .vgpr_count: 8\n"
      "    .kernarg_segment_align: 8\n    .kernarg_segment_size: 24\n    .group_segment_fixed_size: 4096\n"
      "    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n    .max_flat_workgroup_size: 128\n"
      "    .args:\n"
      "    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }\n"
      "    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }\n"
      "    - { .name: sync, .size: 4, .offset: 16, .value_kind: by_value }\n"
      "...\n.end_amdgpu_metadata\n",
      lds_stride(f) == 16 ? 4 : 2, f->m0, half ? "  s_mov_b32 exec_hi, 0\n" : "", f->load, access);
  char *co = assemble_co(src, NULL, f->arch, NULL);
  free(src);
  return co;
}

/* PC of the first instruction of co whose llvm-objdump line starts with mnem (objdump's
 * "// ADDR:" comment, not lanelab's decoder) */
static unsigned long long objdump_pc(const char *co, const char *mnem) {
  char *cmd = ll_fmt(LLVM_BIN "llvm-objdump -d --no-show-raw-insn %s | awk '$1 == \"%s\" {print; exit}'", co, mnem);
  char *txt = run(cmd), *p = strstr(txt, "// ");
  cr_assert_not_null(p, "%s: no '%s' in the disassembly", co, mnem);
  unsigned long long pc = strtoull(p + 3, NULL, 16);
  free(cmd), free(txt);
  return pc;
}

static char *x_file(void) {
  char *p = ll_fmt("%s/x2048.bin", dir);
  uint32_t v[512];
  for (int i = 0; i < 512; i++) v[i] = 0x1000u + 7u * (uint32_t)i;
  cr_assert(ll_write_file_atomic(p, v, sizeof v, NULL));
  return p;
}

static int run_lds(const char *co, const char *x_arg, const char *grid, int sync, const char *extra, char **out) {
  char *args = ll_fmt("run %s ldsk --grid %s --block 128 --arg %s --arg out:256:%s/o.bin --arg u32:%d %s", co, grid,
                      x_arg, dir, sync, extra);
  int rc = cli(args, out);
  free(args);
  return rc;
}

/* One hazard line of `lanelab run` (emu_hazard_format): the address, and per access the PC, the
 * instruction's mnemonic, wave and lane; the folded byte-conflict count. */
typedef struct {
  unsigned long long addr, pc[2], count;
  char mnem[2][48];
  unsigned wave[2];
  int lane[2];
} hz_line;

static bool parse_hazard(const char *out, const char *head, hz_line *h) {
  const char *p = strstr(out, head);
  if (!p) return false;
  h->addr = strtoull(p + strlen(head), NULL, 16);
  for (int k = 0; k < 2; k++) {
    if (!(p = strstr(p, " pc 0x"))) return false;
    char *end;
    h->pc[k] = strtoull(p + 6, &end, 16);
    if (sscanf(end, " '%47[a-z0-9_]", h->mnem[k]) != 1 || !(p = strstr(end, "' wg (")) || !(p = strstr(p, ") wave ")) ||
        sscanf(p, ") wave %u lane %d", &h->wave[k], &h->lane[k]) != 2)
      return false;
  }
  p = strstr(p, " (");
  return p && sscanf(p, " (%llu byte conflicts)", &h->count) == 1;
}

/* the PC of form f's load in its kernel co (from the disassembly) */
static unsigned long long load_pc(const lds_form *f, const char *co) {
  char mn[48];
  sscanf(f->load, "%47s", mn);
  return objdump_pc(co, mn);
}

/* One run of an LDS-load form's kernel under `schedule` that must report exactly one hazard of
 * `kind` ("RAW", "WAW"): the load (wave 0, at pc_load) first, then `mn2` of wave 1 at pc2, on a
 * byte of the 256 from base. Returns the parsed line; *out is the run's output (to free). */
static hz_line lds_hazard_run(const lds_form *f, const char *co, const char *xa, const char *schedule, const char *kind,
                              unsigned long long pc_load, unsigned long long pc2, const char *mn2, char **out) {
  char mn[48];
  sscanf(f->load, "%47s", mn);
  uint32_t base = lds_base(f);
  char *extra = ll_fmt("--racecheck --schedule %s", schedule), *head = ll_fmt("racecheck: %s hazard on LDS byte 0x", kind);
  int rc = run_lds(co, xa, "1", 0, extra, out);
  cr_assert_eq(rc, 1, "%s %s %s: expected a hazard: %s", f->arch, f->load, schedule, *out);
  hz_line h;
  cr_assert(parse_hazard(*out, head, &h), "%s %s: %s", f->arch, f->load, *out);
  cr_assert(strstr(*out, "racecheck: 1 hazard\n"), "%s", *out);
  cr_assert(h.pc[0] == pc_load && !strcmp(h.mnem[0], mn) && h.wave[0] == 0, "%s %s: write %s at 0x%llx: %s", f->arch,
            f->load, mn, pc_load, *out);
  cr_assert(h.pc[1] == pc2 && !strcmp(h.mnem[1], mn2) && h.wave[1] == 1, "%s: %s", f->load, *out);
  cr_assert(h.addr >= base && h.addr < base + 256u, "%s: byte 0x%llx outside the access", f->load, h.addr);
  free(extra), free(head);
  return h;
}

/* (a) the load's LDS write by wave 0, then wave 1's ds_read of the same bytes (lane l reads dword
 * (l + 8) % 64 from the base) with no barrier: a RAW hazard under every schedule, naming both PCs,
 * the writing lane (the byte's (offset / stride)) and the reading lane; all 256 bytes read conflict.
 * With s_waitcnt vmcnt(0) + s_barrier between: clean. */
Test(observe, load_to_lds_then_ds_read_of_another_wave_is_a_raw_hazard, .timeout = 400) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < NFORMS; i++) {
    const lds_form *f = &lds_forms[i];
    uint32_t base = lds_base(f), stride = lds_stride(f);
    char *acc = ll_fmt("  ds_read_b32 v2, v4 offset:%u\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v2, s[6:7]", base);
    char *co = lds_kernel(f, false, acc);
    unsigned long long pc_load = load_pc(f, co), pc_read = objdump_pc(co, "ds_read_b32");
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
      char *out;
      hz_line h = lds_hazard_run(f, co, xa, schedules[s], "RAW", pc_load, pc_read, "ds_read_b32", &out);
      cr_assert(strstr(out, "with no s_barrier between"), "%s", out);
      uint32_t off = (uint32_t)(h.addr - base);
      cr_assert_eq(h.lane[0], (int)(off / stride), "%s %s: byte 0x%llx is written by lane %u: %s", f->arch, f->load,
                   h.addr, off / stride, out);
      cr_assert_eq(h.lane[1], (int)((off / 4 + 64 - 8) % 64), "%s: byte 0x%llx is read by lane %u: %s", f->load, h.addr,
                   (off / 4 + 56) % 64, out);
      cr_assert_eq(h.count, 256, "%s: 64 lanes x 4 bytes read, all written by the load: %s", f->load, out);
      free(out);
    }
    char *out;
    int rc = run_lds(co, xa, "1", 1, "--racecheck --initcheck", &out);
    cr_assert_eq(rc, 0, "%s %s with vmcnt(0) + s_barrier: %s", f->arch, f->load, out);
    cr_assert(strstr(out, "racecheck: 0 hazards") && strstr(out, "initcheck: 0 uninitialized reads"), "%s", out);
    free(out);
    /* and the data is the load's: o[l] = the dword at LDS base + 4((l+8)%64), written by lane
     * (4((l+8)%64)) / stride from x at vstride * lane + offset (byte loads: zero-extended) */
    size_t n;
    char *op = ll_fmt("%s/o.bin", dir);
    uint32_t *o = ll_read_file(op, &n, NULL), xv[512];
    for (int k = 0; k < 512; k++) xv[k] = 0x1000u + 7u * (uint32_t)k;
    cr_assert(o && n == 256);
    for (uint32_t l = 0; l < 64; l++) {
      uint32_t off = 4 * ((l + 8) % 64), wl = off / stride, in_lane = off % stride;
      uint32_t src = wl * f->vstride + f->ioff + in_lane, want;
      if (f->mem_bytes == 1) want = in_lane ? 0 : ((const uint8_t *)xv)[src];
      else memcpy(&want, (const uint8_t *)xv + src, 4);
      cr_assert_eq(o[l], want, "%s %s: o[%u] = 0x%x, want 0x%x", f->arch, f->load, l, o[l], want);
    }
    free(o), free(op), free(acc), free(co);
  }
  free(xa), free(x);
}

/* (a2) the same with a read that lanes share: wave 1's lane l reads dword l % 8 from the base, so
 * 8 lanes read each of 8 dwords. When the load runs first (round robin, adversarial), every reading
 * lane's 4 bytes conflict with its write: 64 x 4 = 256 byte conflicts, the first named by lane 0
 * reading the base byte that the load's lane 0 wrote, as when each lane reads its own dword (the
 * race check takes each address once and counts its lanes: emu/observe.c lds_read_lanes). Under a
 * random schedule the read may run first; the load's write then meets each read byte's first
 * reader once: 8 dwords x 4 = 32. (The old lane-by-lane walk gives the same counts.) */
Test(observe, lanes_reading_one_lds_address_count_as_many_conflicts, .timeout = 400) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < 2; i++) { /* buffer_load_dword ... lds, gfx942 and gfx950 */
    const lds_form *f = &lds_forms[i];
    uint32_t base = lds_base(f);
    char *acc = ll_fmt("  v_and_b32 v7, 7, v5\n  v_lshlrev_b32 v7, 2, v7\n  ds_read_b32 v2, v7 offset:%u\n"
                       "  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v2, s[6:7]", base);
    char *co = lds_kernel(f, false, acc);
    unsigned long long pc_load = load_pc(f, co), pc_read = objdump_pc(co, "ds_read_b32");
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
      char *out;
      hz_line h = lds_hazard_run(f, co, xa, schedules[s], "RAW", pc_load, pc_read, "ds_read_b32", &out);
      const bool write_first = !strcmp(schedules[s], "roundrobin") || !strcmp(schedules[s], "adversarial");
      cr_assert(h.addr == base && h.lane[0] == 0 && h.lane[1] == 0 && (h.count == 256 || (!write_first && h.count == 32)),
                "%s %s: want byte 0x%x, written by lane 0, read by lane 0, %s byte conflicts: %s", f->arch, schedules[s],
                base, write_first ? "256" : "256 or 32", out);
      free(out);
    }
    free(acc), free(co);
  }
  free(xa), free(x);
}

/* (b) the load's LDS write by wave 0 and a ds_write_b32 of the same bytes by wave 1 (lane l writes
 * dword (l + 8) % 64 from the base), no barrier: one WAW hazard under every schedule, the load
 * (the lower PC) first, with the writing lanes the ISA formula gives. */
Test(observe, load_to_lds_and_ds_write_of_another_wave_is_a_waw_hazard, .timeout = 400) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < NFORMS; i++) {
    const lds_form *f = &lds_forms[i];
    uint32_t base = lds_base(f), stride = lds_stride(f);
    char *acc = ll_fmt("  ds_write_b32 v4, v5 offset:%u\n  s_waitcnt lgkmcnt(0)", base);
    char *co = lds_kernel(f, false, acc);
    unsigned long long pc_load = load_pc(f, co), pc_write = objdump_pc(co, "ds_write_b32");
    for (size_t s = 0; s < sizeof schedules / sizeof *schedules; s++) {
      char *out;
      hz_line h = lds_hazard_run(f, co, xa, schedules[s], "WAW", pc_load, pc_write, "ds_write_b32", &out);
      uint32_t off = (uint32_t)(h.addr - base);
      cr_assert_eq(h.lane[0], (int)(off / stride), "%s: %s", f->load, out);
      cr_assert_eq(h.lane[1], (int)((off / 4 + 56) % 64), "%s: %s", f->load, out);
      cr_assert_eq(h.count, 256, "%s: the ds_write's 256 bytes all overlap the load's: %s", f->load, out);
      free(out);
    }
    char *out;
    int rc = run_lds(co, xa, "1", 1, "--racecheck", &out);
    cr_assert_eq(rc, 0, "%s %s with vmcnt(0) + s_barrier: %s", f->arch, f->load, out);
    free(out), free(acc), free(co);
  }
  free(xa), free(x);
}

/* (c) initcheck: the load with lanes 0..31 only writes LDS [base, base + 32 stride); after
 * vmcnt(0) + s_barrier wave 1's lane l reads 4 bytes at base + stride l: lanes 0..31 read written
 * bytes (no report), lanes 32..63 bytes nothing wrote: one UNINIT report starting at
 * base + 32 stride, lane 32, 32 x 4 bytes. With every lane loading: nothing. And the global side:
 * a load to LDS from an out: buffer nothing wrote is an UNINIT global read of its 64 lanes' bytes. */
Test(observe, initcheck_counts_loads_to_lds_as_lds_writes_and_global_reads, .timeout = 400) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < NFORMS; i++) {
    const lds_form *f = &lds_forms[i];
    uint32_t base = lds_base(f), stride = lds_stride(f);
    char *acc = ll_fmt("  ds_read_b32 v2, v6 offset:%u\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v2, s[6:7]", base);
    for (int half = 0; half < 2; half++) {
      char *co = lds_kernel(f, half, acc), *out;
      int rc = run_lds(co, xa, "1", 1, "--initcheck --racecheck", &out);
      if (!half) {
        cr_assert_eq(rc, 0, "%s %s: %s", f->arch, f->load, out);
        cr_assert(strstr(out, "initcheck: 0 uninitialized reads"), "%s", out);
      } else {
        cr_assert_eq(rc, 1, "%s %s: expected an uninitialized read: %s", f->arch, f->load, out);
        char *want = ll_fmt("initcheck: UNINIT LDS byte 0x%x read before any write: pc 0x%llx 'ds_read_b32", base + 32 * stride,
                            objdump_pc(co, "ds_read_b32"));
        cr_assert(strstr(out, want), "%s %s: no '%s': %s", f->arch, f->load, want, out);
        cr_assert(strstr(out, "wave 1 lane 32 (128 bytes)") && strstr(out, "initcheck: 1 uninitialized read\n") &&
                      strstr(out, "racecheck: 0 hazards"),
                  "%s %s: %s", f->arch, f->load, out);
        free(want);
      }
      free(out);
      if (!half) { /* the global side: x is an out: buffer (zeroed, nothing wrote it) */
        char *xo = ll_fmt("out:2048:%s/xo.bin", dir);
        rc = run_lds(co, xo, "1", 1, "--initcheck", &out);
        free(xo);
        cr_assert_eq(rc, 1, "%s %s: %s", f->arch, f->load, out);
        char mn[48];
        sscanf(f->load, "%47s", mn);
        char *want = ll_fmt("pc 0x%llx '%s", objdump_pc(co, mn), mn), *cnt = ll_fmt("(%u bytes)", 64 * f->mem_bytes);
        const char *h = strstr(out, "initcheck: UNINIT global 0x");
        cr_assert(h && strstr(h, want) && strstr(h, "wave 0 lane 0 ") && strstr(h, cnt), "%s %s: %s", f->arch, f->load, out);
        free(want), free(cnt), free(out);
      }
      free(co);
    }
    free(acc);
  }
  free(xa), free(x);
}

/* --racecheck=global sees the load's global read: each workgroup loads x to LDS, then (after the
 * barrier) its wave 1 stores into x what it read from LDS. Workgroup 1's load reads bytes
 * workgroup 0's store wrote, nothing ordering them. */
Test(observe, load_to_lds_global_read_races_across_workgroups) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < 4; i++) { /* the dword forms, both arches */
    const lds_form *f = &lds_forms[i];
    char *acc = ll_fmt("  ds_read_b32 v2, v4 offset:%u\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v2, s[4:5]",
                       lds_base(f));
    char *co = lds_kernel(f, false, acc), *out;
    char mn[48];
    sscanf(f->load, "%47s", mn);
    int rc = run_lds(co, xa, "2", 1, "--racecheck=global", &out);
    cr_assert_eq(rc, 1, "%s %s: %s", f->arch, f->load, out);
    char *w = ll_fmt("'global_store_dword"), *r = ll_fmt("then read by pc 0x%llx '%s", objdump_pc(co, mn), mn);
    const char *h = strstr(out, "racecheck: RAW hazard on global 0x");
    cr_assert(h && strstr(h, w) && strstr(h, r) && strstr(h, "in different workgroups"), "%s %s: %s", f->arch, f->load,
              out);
    free(w), free(r), free(out);
    rc = run_lds(co, xa, "1", 1, "--racecheck=global", &out);
    cr_assert_eq(rc, 0, "one workgroup: the barrier orders its load and store: %s", out);
    free(out), free(acc), free(co);
  }
  free(xa), free(x);
}

/* (d) a traced load to LDS: per lane its global address (the V# / saddr base from the traced
 * operand, + vstride l + offset) and the LDS address it writes (the ISA formula), in the JSON, the
 * CSV's lds_addr column and the page, where a --tile over the LDS destination decodes lane l's
 * element k as (row l, col k). */
Test(observe, trace_of_a_load_to_lds_has_global_and_lds_addresses, .timeout = 300) {
  char *x = x_file(), *xa = ll_fmt("in:%s", x);
  for (size_t i = 0; i < NFORMS; i++) {
    const lds_form *f = &lds_forms[i];
    uint32_t base = lds_base(f), stride = lds_stride(f);
    uint32_t elem = f->mem_bytes < 4 ? f->mem_bytes : 4, cols = f->mem_bytes / elem;
    char *acc = ll_fmt("  ds_read_b32 v2, v4 offset:%u\n  s_waitcnt lgkmcnt(0)\n  global_store_dword v1, v2, s[6:7]", base);
    char *co = lds_kernel(f, false, acc), *out;
    char *tdir = ll_fmt("%s/trace-lds-%zu", dir, i);
    char *extra = ll_fmt("--trace 'buffer_load*,global_load_lds*' --trace-out %s --tile L:base=%u,rows=64,cols=%u,elem=%u,stride=%u",
                         tdir, base, cols, elem, stride);
    int rc = run_lds(co, xa, "1", 1, extra, &out);
    cr_assert_eq(rc, 0, "%s %s: %s", f->arch, f->load, out);
    char *jp = ll_fmt("%s/trace.json", tdir);
    ll_json *j = ll_json_parse_file(jp, NULL);
    cr_assert_not_null(j);
    ll_json *inst = ll_json_get(j, "instances");
    cr_assert(inst && inst->n == 1, "%s: the one load of wave 0", f->load);
    ll_json *r = inst->items[0];
    cr_assert(ll_json_get(r, "space") && ll_json_get(r, "lds_bytes") && ll_json_get(r, "lds_addr"),
              "%s: a memory instance with its LDS side", f->load);
    cr_assert_str_eq(ll_json_get(r, "space")->str, "global");
    cr_assert_str_eq(ll_json_get(r, "access")->str, "read");
    cr_assert_eq(ll_json_get(r, "bytes")->num, f->mem_bytes);
    cr_assert_eq(ll_json_get(r, "lds_bytes")->num, lds_wbytes(f));
    /* the base address from the traced registers: V# dword 0 | dword 1 [15:0] << 32, or saddr */
    uint64_t gbase = 0;
    ll_json *ops = ll_json_get(r, "operands");
    for (size_t k = 0; k < ops->n; k++) {
      ll_json *op = ops->items[k];
      const char *nm = ll_json_get(op, "name")->str;
      ll_json *b = ll_json_get(op, "before");
      if (!strcmp(nm, f->buffer ? "s[8:11]" : "s[4:5]"))
        gbase = (uint64_t)b->items[0]->num | ((uint64_t)b->items[1]->num & (f->buffer ? 0xffffu : 0xffffffffu)) << 32;
      if (ll_json_get(op, "index")->num == 0)
        cr_assert(!ll_json_get(op, "dst")->b && !ll_json_get(op, "after"), "%s: the vaddr is no destination", f->load);
    }
    cr_assert_neq(gbase, 0, "%s: base register traced", f->load);
    ll_json *ga = ll_json_get(r, "addr")->items[0], *la = ll_json_get(r, "lds_addr");
    cr_assert(la && la->n == 64);
    for (uint32_t l = 0; l < 64; l++) {
      cr_assert_eq((uint64_t)ga->items[l]->num, gbase + f->vstride * l + f->ioff, "%s lane %u global address", f->load, l);
      cr_assert_eq((uint64_t)la->items[l]->num, base + stride * l, "%s lane %u LDS address", f->load, l);
    }
    ll_json_free(j);
    char *cp = ll_fmt("%s/trace.csv", tdir), *hp = ll_fmt("%s/trace.html", tdir);
    char *csv = ll_read_file(cp, NULL, NULL), *html = ll_read_file(hp, NULL, NULL);
    cr_assert(csv && strstr(csv, ",addr0,addr1,lds_addr,sources,results\n"), "csv header");
    char *row5 = ll_fmt(",5,1,0x%llx,,0x%x,", (unsigned long long)(gbase + 5 * f->vstride + f->ioff), base + 5 * stride);
    cr_assert(strstr(csv, row5), "%s: csv lane 5 '%s'", f->load, row5);
    /* lane 5: global address, LDS address, then its elements decoded through the LDS tile */
    ll_buf want = {0};
    ll_buf_printf(&want, "<td class=\"lanecol\">5</td><td>0x%llx</td><td>0x%x</td>",
                  (unsigned long long)(gbase + 5 * f->vstride + f->ioff), base + 5 * stride);
    for (uint32_t k = 0; k < cols; k++) ll_buf_printf(&want, "<td class=\"rc\">5,%u</td>", k);
    cr_assert(html && strstr(html, ll_buf_str(&want)), "%s: page lane 5 '%s'", f->load, ll_buf_str(&want));
    char *cells = ll_fmt("data-elements=\"%u\"", 64 * cols);
    cr_assert(strstr(html, "as the lanes wrote it") && strstr(html, cells), "%s: the tile picture of the LDS side", f->load);
    free(cells), free(row5), free(csv), free(html), free(cp), free(hp), free(jp), free(extra), free(tdir), free(out);
    free(acc), free(co);
    ll_buf_free(&want);
  }
  free(xa), free(x);
}
