/* Helpers shared by the loader and runtime suites: compile test kernels with clang-22 at run
 * time, and read LLVM's own tools' output (llvm-readelf-22) independently of lanelab's loader.
 * Header-only (tests are single files); every function is static and may be unused. */
#ifndef LANELAB_TESTS_LLVM_TOOLS_H
#define LANELAB_TESTS_LLVM_TOOLS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tmpdir.h"
#include "util/util.h"

#define LLVM_BIN "/usr/lib/llvm-22/bin/"
#define UNUSED __attribute__((unused))

/* ---- helpers --------------------------------------------------------------------------------*/
UNUSED static char *tmpdir(void) { return tt_dir("test-loader"); }

/* Compiles HIP source src for arch with extra flags into a fresh temp dir; returns the .co path. */
UNUSED static char *compile_src(const char *src, const char *arch, const char *extra) {
  if (access(LLVM_BIN "clang", X_OK) != 0 || access(LLVM_BIN "ld.lld", X_OK) != 0)
    cr_assert_fail("clang-22 / ld.lld-22 not found in " LLVM_BIN ": these tests compile real code objects; "
             "install clang-22 lld-22 (make deps)");
  char *dir = tmpdir();
  char *co = ll_fmt("%s/k_%s.co", dir, arch);
  char *cmd = ll_fmt(LLVM_BIN "clang -x hip --offload-arch=%s --cuda-device-only --no-gpu-bundle-output "
                     "-nogpuinc -nogpulib -fuse-ld=lld --ld-path=" LLVM_BIN "ld.lld -O2 %s -o %s %s",
                     arch, extra ? extra : "", co, src);
  int rc = system(cmd);
  cr_assert_eq(rc, 0, "compile failed (%d): %s", rc, cmd);
  free(cmd);
  free(dir);
  return co;
}

/* Assembles hand-written AMDHSA assembly (the text `src`, or the file `path` when src is NULL) for
 * arch with llvm-mc-22 (extra: more llvm-mc flags, e.g. --defsym, or NULL) and links it with
 * ld.lld-22 into a code object in a fresh temp dir; returns the .co path. The way AMD's
 * hand-written kernels are built. */
UNUSED static char *assemble_co(const char *src, const char *path, const char *arch, const char *extra) {
  char *dir = tmpdir();
  char *sp = ll_fmt("%s/k.s", dir), *op = ll_fmt("%s/k.o", dir), *co = ll_fmt("%s/k_%s.co", dir, arch);
  if (src) {
    ll_err e = {0};
    cr_assert(ll_write_file_atomic(sp, src, strlen(src), &e), "%s", e.msg);
  }
  char *cmd = ll_fmt(LLVM_BIN "llvm-mc -triple=amdgcn-amd-amdhsa --mcpu=%s %s -filetype=obj -o %s %s && "
                     LLVM_BIN "ld.lld -shared -o %s %s", arch, extra ? extra : "", op, src ? sp : path, co, op);
  int rc = system(cmd);
  cr_assert_eq(rc, 0, "assembling/linking failed (%d): %s", rc, cmd);
  free(cmd), free(sp), free(op), free(dir);
  return co;
}

/* Output of a command (must succeed). */
UNUSED static char *run(const char *cmd) {
  FILE *f = popen(cmd, "r");
  cr_assert_not_null(f, "popen %s", cmd);
  ll_buf b = {0};
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) ll_buf_put(&b, tmp, k);
  int rc = pclose(f);
  cr_assert_eq(rc, 0, "'%s' failed (%d)", cmd, rc);
  ll_buf_str(&b);
  return b.data;
}

/* ---- llvm-readelf --notes, parsed independently -------------------------------------------
 * The YAML has kernels as "  - " items under amdhsa.kernels (keys at column 4) and arguments as
 * "      - " items under ".args" (keys at column 8). */
typedef struct {
  long offset, size;
  char kind[64], as[32], name[64];
} rarg;
typedef struct {
  char name[128], symbol[128];
  long kseg, kalign, lds, sgpr, vgpr, agpr, wave, maxwg;
  int nargs;
  rarg args[64];
} rkern;

UNUSED static int readelf_kernels(const char *co, rkern *ks, int max, long *vmaj, long *vmin) {
  char *cmd = ll_fmt(LLVM_BIN "llvm-readelf --notes %s", co);
  char *out = run(cmd);
  free(cmd);
  int nk = 0, in_kernels = 0, in_version = 0, nver = 0;
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    int ind = 0;
    while (line[ind] == ' ') ind++;
    char *s = line + ind;
    int item = s[0] == '-' && s[1] == ' ';
    int col = ind + (item ? 2 : 0);
    if (item) s += 2;
    if (ind == 0) {
      in_kernels = strncmp(s, "amdhsa.kernels:", 15) == 0;
      in_version = strncmp(s, "amdhsa.version:", 15) == 0;
      continue;
    }
    if (in_version && item) { *(nver++ == 0 ? vmaj : vmin) = atol(s); continue; }
    if (!in_kernels) continue;
    if (item && col == 4) { cr_assert_lt(nk, max); memset(&ks[nk++], 0, sizeof *ks); ks[nk - 1].agpr = -1; }
    rkern *k = &ks[nk - 1];
    char key[64] = {0}, val[256] = {0};
    if (sscanf(s, "%63[^:]: %255s", key, val) < 1) continue;
    if (col == 8) {
      if (item) { cr_assert_lt(k->nargs, 64); k->nargs++; }
      rarg *a = &k->args[k->nargs - 1];
      if (!strcmp(key, ".offset")) a->offset = atol(val);
      else if (!strcmp(key, ".size")) a->size = atol(val);
      else if (!strcmp(key, ".value_kind")) snprintf(a->kind, sizeof a->kind, "%s", val);
      else if (!strcmp(key, ".address_space")) snprintf(a->as, sizeof a->as, "%s", val);
      else if (!strcmp(key, ".name")) snprintf(a->name, sizeof a->name, "%s", val);
    } else if (col == 4) {
      if (!strcmp(key, ".name")) snprintf(k->name, sizeof k->name, "%s", val);
      else if (!strcmp(key, ".symbol")) snprintf(k->symbol, sizeof k->symbol, "%s", val);
      else if (!strcmp(key, ".kernarg_segment_size")) k->kseg = atol(val);
      else if (!strcmp(key, ".kernarg_segment_align")) k->kalign = atol(val);
      else if (!strcmp(key, ".group_segment_fixed_size")) k->lds = atol(val);
      else if (!strcmp(key, ".sgpr_count")) k->sgpr = atol(val);
      else if (!strcmp(key, ".vgpr_count")) k->vgpr = atol(val);
      else if (!strcmp(key, ".agpr_count")) k->agpr = atol(val);
      else if (!strcmp(key, ".wavefront_size")) k->wave = atol(val);
      else if (!strcmp(key, ".max_flat_workgroup_size")) k->maxwg = atol(val);
    }
  }
  free(out);
  return nk;
}

/* Value of symbol NAME from llvm-readelf --symbols (first table listing it), -1 if absent. */
UNUSED static long long readelf_sym(const char *co, const char *name) {
  char *cmd = ll_fmt(LLVM_BIN "llvm-readelf --symbols %s", co);
  char *out = run(cmd);
  free(cmd);
  long long v = -1;
  for (char *line = strtok(out, "\n"); line && v < 0; line = strtok(NULL, "\n")) {
    char num[16], val[32], sz[32], type[32], bind[32], vis[32], ndx[32], nm[256];
    if (sscanf(line, "%15s %31s %31s %31s %31s %31s %31s %255s", num, val, sz, type, bind, vis, ndx, nm) == 8 &&
        strcmp(nm, name) == 0)
      v = strtoll(val, NULL, 16);
  }
  free(out);
  return v;
}

/* .text address, file offset and size from llvm-readelf --sections. */
UNUSED static void readelf_text(const char *co, unsigned long long *addr, unsigned long long *off,
                         unsigned long long *size) {
  char *cmd = ll_fmt(LLVM_BIN "llvm-readelf --sections %s", co);
  char *out = run(cmd);
  free(cmd);
  int found = 0;
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    char *t = strstr(line, " .text ");
    if (!t) continue;
    char type[32];
    cr_assert_eq(sscanf(t, " .text %31s %llx %llx %llx", type, addr, off, size), 4, "%s", line);
    found = 1;
  }
  cr_assert(found, ".text not in llvm-readelf --sections output");
  free(out);
}

#endif
