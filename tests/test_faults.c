/* Fault injection (issue #7): kernels that break the rules, run the way users run them.
 *
 * Kernels: tests/kernels/fault_*.hip, compiled at run time with clang-22 (tests/llvm_tools.h).
 * Each fault is driven through `lanelab run` (exit status, no signal, the one-line report, no
 * output file) and, for the exact fields, through the runtime API (rt.h: emu_fault). Where the
 * fault sits is stated independently of the emulator:
 *   - the PC and instruction text come from llvm-objdump-22's disassembly of the same code
 *     object (the first instruction of that mnemonic in the kernel's symbol);
 *   - the lane and address from the kernel's indexing written out here (lane t accesses dword
 *     t + skew: the first lane whose 4 bytes end past the B-byte buffer is the first t with
 *     4 * (t + skew) + 4 > B), and the LDS allocation from llvm-readelf-22's
 *     .group_segment_fixed_size;
 *   - the budget rule: a budget of N lets N instructions run; the (N+1)-th faults.
 * And through `lanelab verify`: a micro-kernel swapped for one that faults makes the lanes stage
 * FAIL on exactly that kernel, with the fault in its row, and leaves no register dump for it. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/rt.h"
#include "util/util.h"
#include "tests/llvm_tools.h"
#include "tests/co_cache.h"

#define LANELAB LANELAB_BUILD "/lanelab"
/* the suite's HIP runtime that sees no GPU (Makefile HIPSTUBS): tests never load the host's */
#define HIP_NODEV LANELAB_BUILD "/stubs/nodev/libamdhip64.so"
#define KDIR LANELAB_ROOT "/tests/kernels/"
#define INC "-I" LANELAB_ROOT "/kernels/include"

/* compiled once per content (tests/co_cache.h): the tests run these objects and never change them */
static char *fault_co(const char *src, const char *arch, const char *extra) {
  char *flags = ll_fmt(INC " %s", extra ? extra : "");
  char *co = coc_compile_src("faults-co", src, arch, flags, LANELAB_ROOT "/kernels/include");
  free(flags);
  return co;
}

/* Runs lanelab with `args`; returns the exit status, stderr in *err_out. A signal is a failure. */
static int cli(const char *args, char **err_out) {
  if (access(LANELAB, X_OK) != 0) cr_assert_fail(LANELAB " is missing: build it (make build/lanelab)");
  char errf[] = "/tmp/lanelab-test-faults-XXXXXX";
  int fd = mkstemp(errf);
  cr_assert_geq(fd, 0);
  close(fd);
  char *cmd = ll_fmt("env LANELAB_HIP_LIB=" HIP_NODEV " %s %s >/dev/null 2>%s", LANELAB, args, errf);
  int st = system(cmd);
  free(cmd);
  size_t n;
  char *e = ll_read_file(errf, &n, NULL);
  unlink(errf);
  cr_assert_not_null(e);
  cr_assert(WIFEXITED(st), "lanelab %s died (status 0x%x): %s", args, st, e);
  if (err_out) *err_out = e; else free(e);
  return WEXITSTATUS(st);
}

/* ---- llvm-objdump: where an instruction is, independently of lanelab's decoder -----------------*/
typedef struct {
  unsigned long long pc;
  char text[160];
} dis_insn;

static void squash(char *s) { /* collapse runs of whitespace to one space, trim */
  char *w = s;
  bool sp = false;
  for (char *r = s; *r; r++) {
    if (isspace((unsigned char)*r)) { sp = w != s; continue; }
    if (sp) *w++ = ' ';
    sp = false;
    *w++ = *r;
  }
  *w = 0;
}

/* The instructions of `kernel` in order (s_nop padding after s_endpgm excluded). */
static int disasm(const char *co, const char *kernel, dis_insn *out, int max) {
  char *cmd = ll_fmt(LLVM_BIN "llvm-objdump -d --no-show-raw-insn %s", co);
  char *txt = run(cmd);
  free(cmd);
  char *head = ll_fmt("<%s>:", kernel);
  int n = 0, in = 0, ended = 0;
  for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
    if (strstr(line, ">:") && line[0] != '\t' && line[0] != ' ') { in = strstr(line, head) != NULL; ended = 0; continue; }
    char *c = strstr(line, "//");
    if (!in || ended || !c) continue;
    unsigned long long pc;
    if (sscanf(c, "// %llx:", &pc) != 1) continue;
    cr_assert_lt(n, max);
    *c = 0;
    snprintf(out[n].text, sizeof out[n].text, "%s", line);
    squash(out[n].text);
    out[n].pc = pc;
    if (strncmp(out[n].text, "s_endpgm", 8) == 0) ended = 1;
    n++;
  }
  free(head);
  free(txt);
  cr_assert_gt(n, 0, "llvm-objdump lists no instructions for %s in %s", kernel, co);
  return n;
}

/* The first instruction of `kernel` whose mnemonic is `mnem`. */
static dis_insn find_insn(const char *co, const char *kernel, const char *mnem) {
  dis_insn d[512];
  int n = disasm(co, kernel, d, 512);
  size_t ml = strlen(mnem);
  for (int i = 0; i < n; i++)
    if (strncmp(d[i].text, mnem, ml) == 0 && (d[i].text[ml] == ' ' || d[i].text[ml] == 0)) return d[i];
  cr_assert_fail("%s has no %s in llvm-objdump's disassembly of %s", kernel, mnem, co);
  return d[0];
}

/* First lane t in [0, 64) whose 4-byte access at dword t + skew ends past `bytes`, or -1. */
static int first_bad_lane(uint32_t skew, uint64_t bytes) {
  for (int t = 0; t < 64; t++)
    if (4ull * (t + skew) + 4 > bytes) return t;
  return -1;
}

/* The CLI report: exit 1, one line naming kind, arch, kernel, pc, instruction and (when given)
 * lane and address / buffer offset; no output file. */
static void expect_cli_fault(const char *args, const char *outfile, const char *kind, const char *arch,
                             const char *kernel, const dis_insn *at, int lane, const char *where,
                             const char *where2) {
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 1, "'%s': exit %d, want 1 (a fault): %s", args, rc, err);
  char *want[6] = {ll_fmt("%s: %s kernel %s ", kind, arch, kernel), ll_fmt("pc 0x%llx '%s'", at->pc, at->text),
                   lane >= 0 ? ll_fmt("lane %d", lane) : NULL, where ? ll_xstrdup(where) : NULL,
                   where2 ? ll_xstrdup(where2) : NULL, NULL};
  for (int i = 0; i < 5; i++)
    if (want[i]) {
      cr_assert(strstr(err, want[i]), "'%s': the fault report lacks \"%s\":\n%s", args, want[i], err);
      free(want[i]);
    }
  if (outfile) cr_assert_neq(access(outfile, F_OK), 0, "'%s' wrote %s after a fault", args, outfile);
  free(err);
}

/* ---- the same faults through the runtime API: every field, exactly ---------------------------*/
typedef struct {
  rt_device *dev;
  rt_module *mod;
  uint64_t buf[2];
  emu_fault f;
  int rc;
  ll_err err;
} api_run;

/* Launches kernel (grid 1, block 64) with up to two buffers of the given sizes (0 = none) and an
 * optional trailing u32. */
static void api_launch(api_run *r, const char *co, emu_arch arch, const char *kernel, size_t b0, size_t b1,
                       bool has_u32, uint32_t u32, uint64_t budget) {
  memset(r, 0, sizeof *r);
  r->dev = rt_open(RT_EMU, arch, &r->err);
  cr_assert_not_null(r->dev, "%s", r->err.msg);
  r->mod = rt_load_file(r->dev, co, &r->err);
  cr_assert_not_null(r->mod, "%s", r->err.msg);
  rt_arg args[3];
  size_t n = 0;
  size_t sz[2] = {b0, b1};
  for (int i = 0; i < 2; i++)
    if (sz[i]) {
      r->buf[i] = rt_alloc(r->dev, sz[i], i ? "b1" : "b0", &r->err);
      cr_assert_neq(r->buf[i], 0, "%s", r->err.msg);
      args[n++] = (rt_arg){.kind = RT_ARG_PTR, .ptr = r->buf[i]};
    }
  if (has_u32) args[n++] = (rt_arg){.kind = RT_ARG_U32, .u32 = u32};
  uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  rt_launch_opts o = {.fault = &r->f, .insn_budget = budget};
  r->rc = rt_launch(r->dev, r->mod, kernel, grid, block, args, n, 0, &o, &r->err);
}

static void api_done(api_run *r) {
  rt_unload(r->mod);
  rt_close(r->dev);
}

static void expect_api_fault(api_run *r, const char *kind, emu_arch arch, const char *kernel, const dis_insn *at,
                             int lane, uint64_t addr) {
  cr_assert_eq(r->rc, LL_EXIT_FAIL, "%s: launch returned %d, want a fault: %s", kernel, r->rc, r->err.msg);
  cr_assert(r->f.faulted);
  cr_assert_str_eq(r->f.kind, kind);
  cr_assert_eq(r->f.arch, arch);
  cr_assert_str_eq(r->f.kernel, kernel);
  cr_assert_eq(r->f.pc, at->pc, "%s: fault pc 0x%llx, llvm-objdump puts '%s' at 0x%llx", kernel,
               (unsigned long long)r->f.pc, at->text, at->pc);
  char insn[sizeof r->f.insn];
  snprintf(insn, sizeof insn, "%s", r->f.insn);
  squash(insn);
  cr_assert_str_eq(insn, at->text);
  cr_assert_eq(r->f.lane, lane, "%s: lane %d, want %d", kernel, r->f.lane, lane);
  cr_assert_eq(r->f.addr, addr, "%s: address 0x%llx, want 0x%llx", kernel, (unsigned long long)r->f.addr,
               (unsigned long long)addr);
  cr_assert_eq(r->f.wg[0] + r->f.wg[1] + r->f.wg[2] + r->f.wave, 0, "one workgroup of one wave");
  cr_assert_str_eq(r->err.msg, r->f.msg, "the runtime passes the fault line on unchanged");
}

/* ---- global memory -------------------------------------------------------------------------*/
static void write_oob(const char *arch_s, emu_arch arch) {
  char *co = fault_co(KDIR "fault_mem.hip", arch_s, NULL), *dir = tmpdir();
  const uint64_t B = 128; /* 32 dwords: lanes 32..63 write past it */
  int lane = first_bad_lane(0, B);
  cr_assert_eq(lane, 32);
  dis_insn st = find_insn(co, "fault_write_oob", "global_store_dword");
  char *out = ll_fmt("%s/out.bin", dir);
  char *args = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:%llu:%s --arg u32:0 --backend emu", co,
                      (unsigned long long)B, out);
  char *off = ll_fmt("at offset %llu of buffer", 4ull * lane);
  expect_cli_fault(args, out, "out-of-bounds global access", arch_s, "fault_write_oob", &st, lane, " address 0x", off);
  api_run r;
  api_launch(&r, co, arch, "fault_write_oob", B, 0, true, 0, 0);
  expect_api_fault(&r, "out-of-bounds global access", arch, "fault_write_oob", &st, lane, r.buf[0] + 4ull * lane);
  api_done(&r);
  free(off); free(args); free(out); free(dir); free(co);
}
Test(fault_global, write_out_of_bounds_gfx942, .timeout = 120) { write_oob("gfx942", EMU_GFX942); }
Test(fault_global, write_out_of_bounds_gfx950, .timeout = 120) { write_oob("gfx950", EMU_GFX950); }

static void read_oob(const char *arch_s, emu_arch arch) {
  char *co = fault_co(KDIR "fault_mem.hip", arch_s, NULL), *dir = tmpdir();
  const uint64_t B = 256; /* 64 dwords; skew 16: lane 48 reads dword 64, the first past the end */
  const uint32_t skew = 16;
  int lane = first_bad_lane(skew, B);
  cr_assert_eq(lane, 48);
  dis_insn ld = find_insn(co, "fault_read_oob", "global_load_dword");
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir);
  uint32_t x[64] = {0};
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:%u --backend emu",
                      co, in, out, skew);
  char *off = ll_fmt("at offset %llu of buffer", 4ull * (lane + skew));
  expect_cli_fault(args, out, "out-of-bounds global access", arch_s, "fault_read_oob", &ld, lane, " address 0x", off);
  api_run r;
  api_launch(&r, co, arch, "fault_read_oob", B, 256, true, skew, 0);
  expect_api_fault(&r, "out-of-bounds global access", arch, "fault_read_oob", &ld, lane, r.buf[0] + 4ull * (lane + skew));
  api_done(&r);
  free(off); free(args); free(in); free(out); free(dir); free(co);
}
Test(fault_global, read_out_of_bounds_gfx942, .timeout = 120) { read_oob("gfx942", EMU_GFX942); }
Test(fault_global, read_out_of_bounds_gfx950, .timeout = 120) { read_oob("gfx950", EMU_GFX950); }

/* Far from every buffer (issue #29, "faults"): the report names the nearest buffer and how far the
 * access is from it, not only "outside every registered buffer". Buffers are 1 MiB apart
 * (emu/mem.c), so 100000 dwords past the 256-byte input lands in the gap after it: lane 0 reads
 * byte 400000 of a buffer 256 bytes long, 399744 bytes past its end. */
Test(fault_global, far_out_of_bounds_names_the_nearest_buffer, .timeout = 120) {
  char *co = fault_co(KDIR "fault_mem.hip", "gfx950", NULL), *dir = tmpdir();
  dis_insn ld = find_insn(co, "fault_read_oob", "global_load_dword");
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir);
  uint32_t x[64] = {0};
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  char *args = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:100000 --backend emu",
                      co, in, out);
  char *near = ll_fmt("the nearest is 'in:%s' (256 bytes at 0x", in);
  expect_cli_fault(args, out, "out-of-bounds global access", "gfx950", "fault_read_oob", &ld, 0, near,
                   "399744 bytes past its end");
  free(near); free(args); free(in); free(out); free(dir); free(co);
}

/* ---- LDS beyond the allocation -------------------------------------------------------------*/
static void lds_beyond(const char *arch_s, emu_arch arch) {
  char *co = fault_co(KDIR "fault_mem.hip", arch_s, NULL), *dir = tmpdir();
  rkern ks[8];
  long vmaj, vmin;
  int nk = readelf_kernels(co, ks, 8, &vmaj, &vmin);
  long lds = -1;
  for (int i = 0; i < nk; i++)
    if (!strcmp(ks[i].name, "fault_lds_beyond")) lds = ks[i].lds;
  cr_assert_eq(lds, 256, "readelf: fault_lds_beyond's static LDS is %ld bytes, the source declares 64 dwords", lds);
  const uint32_t skew = 8;
  int lane = first_bad_lane(skew, (uint64_t)lds);
  cr_assert_eq(lane, 56);
  uint64_t addr = 4ull * (lane + skew);
  dis_insn wr = find_insn(co, "fault_lds_beyond", "ds_write_b32");
  char *out = ll_fmt("%s/out.bin", dir);
  char *args = ll_fmt("run %s fault_lds_beyond --grid 1 --block 64 --arg out:256:%s --arg u32:%u --backend emu", co, out,
                      skew);
  char *where = ll_fmt("address 0x%llx", (unsigned long long)addr);
  expect_cli_fault(args, out, "lds out of range", arch_s, "fault_lds_beyond", &wr, lane, where, NULL);
  api_run r;
  api_launch(&r, co, arch, "fault_lds_beyond", 256, 0, true, skew, 0);
  expect_api_fault(&r, "lds out of range", arch, "fault_lds_beyond", &wr, lane, addr);
  api_done(&r);
  /* the same kernel inside its allocation runs clean: the fault is the access, not the kernel */
  api_launch(&r, co, arch, "fault_lds_beyond", 256, 0, true, 0, 0);
  cr_assert_eq(r.rc, LL_EXIT_OK, "skew 0 stays inside 256 bytes: %s", r.err.msg);
  api_done(&r);
  free(where); free(args); free(out); free(dir); free(co);
}
Test(fault_lds, beyond_allocation_gfx942, .timeout = 120) { lds_beyond("gfx942", EMU_GFX942); }
Test(fault_lds, beyond_allocation_gfx950, .timeout = 120) { lds_beyond("gfx950", EMU_GFX950); }

/* ---- the transposing read's rules (gfx950) -------------------------------------------------*/
Test(fault_tr, partial_exec_gfx950, .timeout = 120) {
  char *co = fault_co(KDIR "fault_tr.hip", "gfx950", NULL), *dir = tmpdir();
  dis_insn tr = find_insn(co, "fault_tr_exec", "ds_read_b64_tr_b16");
  char *out = ll_fmt("%s/out.bin", dir);
  char *args = ll_fmt("run %s fault_tr_exec --grid 1 --block 64 --arg out:256:%s --backend emu", co, out);
  /* `if (t & 1)`: the odd lanes, bit L set for odd L */
  expect_cli_fault(args, out, "transposing read needs full exec", "gfx950", "fault_tr_exec", &tr, -1,
                   "EXEC is 0xaaaaaaaaaaaaaaaa", NULL);
  api_run r;
  api_launch(&r, co, EMU_GFX950, "fault_tr_exec", 256, 0, false, 0, 0);
  expect_api_fault(&r, "transposing read needs full exec", EMU_GFX950, "fault_tr_exec", &tr, -1, 0);
  api_done(&r);
  free(args); free(out); free(dir); free(co);
}

Test(fault_tr, misaligned_gfx950, .timeout = 120) {
  char *co = fault_co(KDIR "fault_tr.hip", "gfx950", NULL), *dir = tmpdir();
  dis_insn tr = find_insn(co, "fault_tr_misaligned", "ds_read_b64_tr_b16");
  char *out = ll_fmt("%s/out.bin", dir);
  /* lane t reads at 8t + 4: lane 0 at byte 4 is the first not 8-byte aligned (CDNA4 ISA §11.4) */
  char *args = ll_fmt("run %s fault_tr_misaligned --grid 1 --block 64 --arg out:256:%s --arg u32:4 --backend emu", co, out);
  expect_cli_fault(args, out, "misaligned lds access", "gfx950", "fault_tr_misaligned", &tr, 0, "address 0x4", "needs 8-byte alignment");
  api_run r;
  api_launch(&r, co, EMU_GFX950, "fault_tr_misaligned", 256, 0, true, 4, 0);
  expect_api_fault(&r, "misaligned lds access", EMU_GFX950, "fault_tr_misaligned", &tr, 0, 4);
  api_done(&r);
  /* aligned (skew 8: lane 63 reads bytes 512..519 of the 520-byte array) it runs */
  api_launch(&r, co, EMU_GFX950, "fault_tr_misaligned", 256, 0, true, 8, 0);
  cr_assert_eq(r.rc, LL_EXIT_OK, "%s", r.err.msg);
  api_done(&r);
  free(args); free(out); free(dir); free(co);
}

/* ---- a kernel that never ends: the budget stops it -----------------------------------------*/
static void hang(const char *arch_s, emu_arch arch) {
  char *co = fault_co(KDIR "fault_hang.hip", arch_s, NULL), *dir = tmpdir();
  char *out = ll_fmt("%s/out.bin", dir), *regs = ll_fmt("%s/regs.json", dir);
  char *args = ll_fmt("run %s fault_hang --grid 1 --block 64 --arg out:256:%s --budget 100000 --dump-regs %s "
                      "--backend emu", co, out, regs);
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
  char *want = ll_fmt("budget exceeded: %s kernel fault_hang ", arch_s);
  cr_assert(strstr(err, want) && strstr(err, "budget of 100000 exhausted") && strstr(err, " pc 0x"), "%s", err);
  cr_assert_neq(access(out, F_OK), 0, "output written after a fault");
  cr_assert_neq(access(regs, F_OK), 0, "register dump written after a fault");
  /* the PC the budget ran out at is one of the kernel's own instructions */
  dis_insn d[256];
  int n = disasm(co, "fault_hang", d, 256);
  api_run r;
  api_launch(&r, co, arch, "fault_hang", 256, 0, false, 0, 100000);
  cr_assert_eq(r.rc, LL_EXIT_FAIL);
  cr_assert_str_eq(r.f.kind, "budget exceeded");
  int hit = -1;
  for (int i = 0; i < n; i++)
    if (d[i].pc == r.f.pc) hit = i;
  cr_assert_geq(hit, 0, "budget fault at 0x%llx, not an instruction of fault_hang", (unsigned long long)r.f.pc);
  api_done(&r);
  free(want); free(err); free(args); free(out); free(regs); free(dir); free(co);
}
Test(fault_budget, hang_stops_at_the_budget_gfx942, .timeout = 120) { hang("gfx942", EMU_GFX942); }
Test(fault_budget, hang_stops_at_the_budget_gfx950, .timeout = 120) { hang("gfx950", EMU_GFX950); }

/* --budget N lets exactly N instructions run: the (N+1)-th instruction of the kernel, in program
 * order from llvm-objdump (the kernel is straight-line up to its store), is where it stops. */
Test(fault_budget, budget_n_stops_at_instruction_n_plus_1, .timeout = 120) {
  char *co = fault_co(KDIR "fault_mem.hip", "gfx942", NULL), *dir = tmpdir();
  dis_insn d[64];
  int n = disasm(co, "fault_write_oob", d, 64);
  char *out = ll_fmt("%s/out.bin", dir);
  for (int budget = 1; budget <= 3 && budget < n; budget++) {
    char *args = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u32:0 --budget %d", co, out,
                        budget);
    char *where = ll_fmt("budget of %d exhausted", budget);
    expect_cli_fault(args, out, "budget exceeded", "gfx942", "fault_write_oob", &d[budget], -1, where, NULL);
    free(where);
    free(args);
  }
  /* a budget the kernel fits in changes nothing: it runs and writes its output */
  char *args = ll_fmt("run %s fault_write_oob --grid 1 --block 64 --arg out:256:%s --arg u32:0 --budget %d", co, out, n);
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 0, "a budget of %d (the kernel's length) must suffice: exit %d: %s", n, rc, err);
  cr_assert(strstr(err, "backend emu (auto: --budget is the emulator's)"), "%s", err);
  cr_assert_eq(access(out, F_OK), 0);
  free(err); free(args); free(out); free(dir); free(co);
}

/* ---- unimplemented instructions ------------------------------------------------------------*/
static void unimpl(const char *arch_s, emu_arch arch, const char *kernel, const char *mnem, const char *why) {
  char *co = fault_co(KDIR "fault_unimpl.hip", arch_s, NULL), *dir = tmpdir();
  dis_insn at = find_insn(co, kernel, mnem);
  char *out = ll_fmt("%s/out.bin", dir);
  char *args = ll_fmt("run %s %s --grid 1 --block 64 --arg out:256:%s --backend emu", co, kernel, out);
  expect_cli_fault(args, out, "unimplemented", arch_s, kernel, &at, -1, why, NULL);
  api_run r;
  api_launch(&r, co, arch, kernel, 256, 0, false, 0, 0);
  expect_api_fault(&r, "unimplemented", arch, kernel, &at, -1, 0);
  api_done(&r);
  free(args); free(out); free(dir); free(co);
}
Test(fault_unimpl, s_getreg_gfx942, .timeout = 120) { unimpl("gfx942", EMU_GFX942, "fault_getreg", "s_getreg_b32", "no semantics"); }
Test(fault_unimpl, s_getreg_gfx950, .timeout = 120) { unimpl("gfx950", EMU_GFX950, "fault_getreg", "s_getreg_b32", "no semantics"); }
Test(fault_unimpl, scratch_load_lds_gfx942, .timeout = 120) {
  unimpl("gfx942", EMU_GFX942, "fault_scratch", "scratch_load_lds_dword", "scratch_load_lds_* (private memory to LDS) is not modelled");
}
Test(fault_unimpl, scratch_load_lds_gfx950, .timeout = 120) {
  unimpl("gfx950", EMU_GFX950, "fault_scratch", "scratch_load_lds_dword", "scratch_load_lds_* (private memory to LDS) is not modelled");
}

/* ---- outputs after a fault -----------------------------------------------------------------*/
/* An output file from an earlier run is left byte for byte as it was (never half-overwritten),
 * and neither the other outputs nor the register dump appear. */
Test(fault_outputs, earlier_output_untouched_and_nothing_new_written, .timeout = 120) {
  char *co = fault_co(KDIR "fault_mem.hip", "gfx950", NULL), *dir = tmpdir();
  char *in = ll_fmt("%s/in.bin", dir), *out = ll_fmt("%s/out.bin", dir), *regs = ll_fmt("%s/regs.json", dir);
  uint32_t x[64], old[64];
  for (int i = 0; i < 64; i++) x[i] = (uint32_t)i, old[i] = 0xC0FFEE00u + (uint32_t)i;
  cr_assert(ll_write_file_atomic(in, x, sizeof x, NULL));
  cr_assert(ll_write_file_atomic(out, old, sizeof old, NULL));
  char *args = ll_fmt("run %s fault_read_oob --grid 1 --block 64 --arg in:%s --arg out:256:%s --arg u32:1 "
                      "--dump-regs %s", co, in, out, regs);
  char *err;
  int rc = cli(args, &err);
  cr_assert_eq(rc, 1, "lane 63 reads dword 64 of 64: exit %d: %s", rc, err);
  size_t n;
  uint32_t *got = ll_read_file(out, &n, NULL);
  cr_assert(got && n == sizeof old && memcmp(got, old, n) == 0, "the earlier out.bin changed");
  cr_assert_neq(access(regs, F_OK), 0, "register dump written after a fault");
  DIR *d = opendir(dir); /* no temporary file left behind either */
  struct dirent *e;
  int files = 0;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') files++;
  closedir(d);
  cr_assert_eq(files, 2, "want only in.bin and out.bin in %s", dir);
  free(got); free(err); free(args); free(in); free(out); free(regs); free(dir); free(co);
}

/* ---- verify: a faulting micro-kernel -------------------------------------------------------*/
/* A copy of build/<arch>/kernels' micro-kernels with `victim` replaced by fault_micro.hip built
 * under its name; then `lanelab verify --build COPY`. Other stages fail for the kernels the copy
 * lacks; the lanes stage is the one under test. */
static char *verify_with_fault(const char *arch, const char *victim, char **err_out, int *rc) {
  char *dir = tmpdir(), *kd = ll_fmt("%s/%s/kernels", dir, arch);
  char *cmd = ll_fmt("mkdir -p %s && cp " LANELAB_BUILD "/%s/kernels/lane_*.co %s/", kd, arch, kd);
  cr_assert_eq(system(cmd), 0, "%s (build the kernels first: make kernels)", cmd);
  free(cmd);
  char *def = ll_fmt("-DFAULT_MICRO_NAME=%s", victim);
  char *co = fault_co(KDIR "fault_micro.hip", arch, def);
  cmd = ll_fmt("cp %s %s/%s.co", co, kd, victim);
  cr_assert_eq(system(cmd), 0, "%s", cmd);
  char *args = ll_fmt("-q verify --arch %s --backend emu --build %s", arch, dir);
  *rc = cli(args, err_out);
  free(args); free(cmd); free(co); free(def); free(kd);
  return dir;
}

static void expect_lanes_fail(const char *dir, const char *arch, const char *victim, const char *kind) {
  ll_err e = {0};
  char *p = ll_fmt("%s/results/%s/lanes.json", dir, arch);
  ll_json *j = ll_json_parse_file(p, &e);
  cr_assert_not_null(j, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(j, "verdict")->str, "FAIL");
  ll_json *t = ll_json_get(j, "tables");
  cr_assert(t && t->n >= 1);
  ll_json *rows = ll_json_get(t->items[0], "rows");
  cr_assert(rows && rows->type == LL_JARR && rows->n >= 8, "lanes table has %zu rows", rows ? rows->n : 0);
  int fails = 0, victim_rows = 0;
  for (size_t i = 0; i < rows->n; i++) {
    ll_json *r = rows->items[i];
    const char *k = ll_json_get(r, "kernel")->str, *v = ll_json_get(r, "verdict")->str;
    if (!strcmp(v, "FAIL")) fails++;
    if (strcmp(k, victim)) continue;
    victim_rows++;
    const char *detail = ll_json_get(r, "detail")->str;
    cr_assert_str_eq(v, "FAIL");
    char *want = ll_fmt("%s: %s kernel %s ", kind, arch, victim);
    cr_assert(strstr(detail, want) && strstr(detail, " pc 0x"), "row detail lacks \"%s\": %s", want, detail);
    free(want);
  }
  cr_assert_eq(victim_rows, 1);
  cr_assert_eq(fails, 1, "only the swapped kernel may fail; %d rows FAIL", fails);
  ll_json_free(j);
  free(p);
  /* no register dump of the faulting kernel, and the summary does not pass */
  p = ll_fmt("%s/results/%s/dumps/%s.bin", dir, arch, victim);
  cr_assert_neq(access(p, F_OK), 0, "%s exists after a fault", p);
  free(p);
  p = ll_fmt("%s/results/%s/summary.json", dir, arch);
  j = ll_json_parse_file(p, &e);
  cr_assert_not_null(j, "%s", e.msg);
  cr_assert_str_eq(ll_json_get(j, "verdict")->str, "FAIL");
  ll_json_free(j);
  free(p);
}

Test(fault_verify, faulting_tr_micro_kernel_fails_lanes_gfx950, .timeout = 120) {
  char *err;
  int rc;
  char *dir = verify_with_fault("gfx950", "lane_tr16_solved_seed", &err, &rc);
  cr_assert_eq(rc, 1, "verify exit %d: %s", rc, err);
  expect_lanes_fail(dir, "gfx950", "lane_tr16_solved_seed", "transposing read needs full exec");
  free(err); free(dir);
}

Test(fault_verify, faulting_lds_micro_kernel_fails_lanes_gfx942, .timeout = 120) {
  char *err;
  int rc;
  char *dir = verify_with_fault("gfx942", "lane_load_fragment", &err, &rc);
  cr_assert_eq(rc, 1, "verify exit %d: %s", rc, err);
  expect_lanes_fail(dir, "gfx942", "lane_load_fragment", "lds out of range");
  free(err); free(dir);
}

/* ---- regression: flat access to LDS through src_shared_base ---------------------------------*/
/* The 64-bit operand src_shared_base read as the aperture's high dword in the low half and 0 in
 * the high half, so clang's generic-pointer LDS accesses (`s_mov_b64 s[2:3], src_shared_base`,
 * high dword s3) went to a bare LDS offset in global memory and faulted. Found by the gfx942
 * fault_micro kernel reporting "out-of-bounds global access" where "lds out of range" was due. */
static void flat_lds(const char *arch_s, emu_arch arch) {
  char *co = fault_co(KDIR "fault_mem.hip", arch_s, NULL);
  char *cmd = ll_fmt(LLVM_BIN "llvm-objdump -d %s", co);
  char *dis = run(cmd);
  cr_assert(strstr(dis, "src_shared_base") && strstr(dis, "flat_store_dword") && strstr(dis, "flat_load_dword"),
            "flat_lds_roundtrip no longer goes through flat instructions and src_shared_base");
  free(dis);
  free(cmd);
  api_run r;
  api_launch(&r, co, arch, "flat_lds_roundtrip", 256, 0, false, 0, 0);
  cr_assert_eq(r.rc, LL_EXIT_OK, "%s", r.err.msg);
  uint32_t out[64];
  cr_assert(rt_copy_from_device(r.dev, out, r.buf[0], sizeof out, &r.err), "%s", r.err.msg);
  for (uint32_t t = 0; t < 64; t++) cr_assert_eq(out[t], 3 * (63 - t) + 1, "%s out[%u] = %u", arch_s, t, out[t]);
  api_done(&r);
  free(co);
}
Test(emu_regression, flat_lds_via_src_shared_base_64bit_gfx942, .timeout = 120) { flat_lds("gfx942", EMU_GFX942); }
Test(emu_regression, flat_lds_via_src_shared_base_64bit_gfx950, .timeout = 120) { flat_lds("gfx950", EMU_GFX950); }
