/* fuzz/fuzz_codeobj — libFuzzer harness for the code-object loader (emu/loader.c, emu/msgpack.c)
 * and, for whatever loads, the decoder over its .text (emu/decode.c through LLVM's disassembler).
 *
 * Any bytes: emu_codeobj_load must return a code object or NULL with LL_EXIT_USAGE (emu.h's
 * contract), never crash, leak or read outside the input. A code object that loads must keep the
 * promises the rest of emu relies on, checked here so a loader bug that lets through an
 * inconsistent object is a finding too (abort) rather than a later crash in exec.c:
 *   - .text lies inside the image; every kernel's entry lies inside .text and its descriptor
 *     inside the image; every argument lies inside the kernarg segment;
 *   - emu_codeobj_kernel finds each kernel by its name (names are unique) and refuses a name
 *     that is not there with LL_EXIT_USAGE;
 *   - the decoded program covers .text exactly: instructions back to back, sizes > 0. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu.h"

#define CHECK(c, ...)                                                                              \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "fuzz_codeobj: %s: ", #c);                                                   \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

/* FUZZ_LAST_INPUT=PATH (fuzz/run.sh sets it): each input is written there before it runs, so that
 * an input that kills the process before libFuzzer saves it (a crash inside libLLVM whose report
 * itself dies: 2026-12-05, a write to 0xffffffffffffff83 with no stack and no crash file, kept this
 * way as fuzz/corpus/codeobj/crash_llvm_sdwa_sel_7.co) is kept.
 * The file is opened once and rewritten in place (pwrite, then truncated to the input's length). */
static void keep_input(const uint8_t *data, size_t n) {
  static int fd = -2;
  if (fd == -2) {
    const char *p = getenv("FUZZ_LAST_INPUT");
    fd = p && p[0] ? open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
  }
  if (fd < 0) return;
  if (pwrite(fd, data, n, 0) != (ssize_t)n || ftruncate(fd, (off_t)n) != 0) close(fd), fd = -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
  keep_input(data, n);
  ll_err err = {0};
  emu_codeobj *co = emu_codeobj_load(data, n, "<fuzz>", &err);
  if (!co) {
    CHECK(err.code == LL_EXIT_USAGE && err.msg[0], "refused with code %d: %s", err.code, err.msg);
    return 0;
  }
  CHECK(co->text_vaddr <= co->image_size && co->text_size <= co->image_size - co->text_vaddr,
        ".text [0x%llx, +0x%llx) outside the image (0x%llx)", (unsigned long long)co->text_vaddr,
        (unsigned long long)co->text_size, (unsigned long long)co->image_size);
  CHECK(co->nkernels > 0, "loaded with no kernels");
  for (size_t i = 0; i < co->nkernels; i++) {
    const emu_kernel *k = &co->kernels[i];
    CHECK(k->kd_vaddr <= co->image_size && co->image_size - k->kd_vaddr >= 64,
          "descriptor of %s outside the image", k->name);
    CHECK(k->entry >= co->text_vaddr && k->entry + 4 <= co->text_vaddr + co->text_size,
          "entry of %s at 0x%llx outside .text", k->name, (unsigned long long)k->entry);
    for (size_t j = 0; j < k->nargs; j++)
      CHECK((uint64_t)k->args[j].offset + k->args[j].size <= k->kernarg_size,
            "argument %zu of %s outside the kernarg segment", j, k->name);
    ll_err e2 = {0};
    const emu_kernel *f = emu_codeobj_kernel(co, k->name, &e2);
    CHECK(f == k, "emu_codeobj_kernel(%s) found %p, expected kernel %zu", k->name, (void *)f, i);
  }
  ll_err e3 = {0};
  CHECK(!emu_codeobj_kernel(co, "lanelab fuzz: no such kernel", &e3) && e3.code == LL_EXIT_USAGE,
        "a missing kernel was not refused with LL_EXIT_USAGE (%d)", e3.code);

  ll_err e4 = {0};
  const emu_program *p = emu_codeobj_program(co, &e4);
  CHECK(p, "a loaded code object's .text did not decode: %s", e4.msg);
  uint64_t pc = co->text_vaddr;
  for (size_t i = 0; i < emu_program_count(p); i++) {
    const emu_insn_info *in = emu_program_insn(p, i);
    CHECK(in && in->pc == pc && in->size > 0 && in->text && in->mnem,
          "instruction %zu at 0x%llx (expected 0x%llx), size %u", i,
          in ? (unsigned long long)in->pc : 0ull, (unsigned long long)pc, in ? in->size : 0);
    pc += in->size;
  }
  CHECK(pc == co->text_vaddr + co->text_size, "program ends at 0x%llx, .text at 0x%llx",
        (unsigned long long)pc, (unsigned long long)(co->text_vaddr + co->text_size));
  /* debug information (emu/dwarf.c): the inlined calls' pieces sorted, apart, each with a chain of
   * call sites inside the pool, and every PC's file:line a string that fits */
  for (size_t i = 0; i < co->ninl; i++) {
    const struct emu_inline *c = &co->inl[i];
    CHECK(c->lo < c->hi && (!i || co->inl[i - 1].hi <= c->lo) && c->n > 0 && c->first <= co->ninl_sites &&
              c->n <= co->ninl_sites - c->first,
          "inlined piece %zu [0x%llx, 0x%llx) sites %u + %u of %zu", i, (unsigned long long)c->lo,
          (unsigned long long)c->hi, c->first, c->n, co->ninl_sites);
  }
  char buf[64];
  for (uint64_t a = co->text_vaddr; a < co->text_vaddr + co->text_size && a < co->text_vaddr + 4096; a += 4)
    if (emu_codeobj_srcline(co, a, buf, sizeof buf)) CHECK(memchr(buf, 0, sizeof buf), "file:line not terminated");
  emu_codeobj_free(co);
  return 0;
}
