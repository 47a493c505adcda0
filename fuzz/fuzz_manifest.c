/* fuzz/fuzz_manifest — libFuzzer harness for the manifest reader (verify/manifest.c). No file I/O:
 * manifest_parse only resolves paths.
 *
 * For any bytes, manifest_parse returns a manifest or NULL with LL_EXIT_USAGE and a message that
 * starts with a JSON path or "(top level)" / "not JSON". A manifest it returns holds what its
 * callers rely on: 1..MANIFEST_MAX_KERNELS kernels with unique names, each with a source or a code
 * object for every arch it lists, grid and block extents >= 1 (block <= 1024), buffers whose
 * bytes = count * dtype size with count = the product of the shape, scalars of a known dtype, a
 * reference for every output it names, 1-2 schedules, and case numbers that are all distinct and
 * below manifest_ncases. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/manifest.h"

#define CHECK(c, ...)                                                                              \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "fuzz_manifest: %s: ", #c);                                                  \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ll_err err = {0};
  manifest *m = manifest_parse((const char *)data, size, "/fuzz", &err);
  if (!m) {
    CHECK(err.code == LL_EXIT_USAGE, "code %d: %s", err.code, err.msg);
    CHECK(err.msg[0], "empty message");
    return 0;
  }
  CHECK(m->nkernels >= 1 && m->nkernels <= MANIFEST_MAX_KERNELS, "%zu kernels", m->nkernels);
  size_t ncases = manifest_ncases(m);
  uint8_t *seen = calloc(ncases ? ncases : 1, 1);
  for (size_t i = 0; i < m->nkernels; i++) {
    const mf_kernel *k = &m->kernels[i];
    CHECK(k->name && k->name[0] && k->symbol, "kernel %zu unnamed", i);
    for (size_t q = 0; q < i; q++) CHECK(strcmp(m->kernels[q].name, k->name), "duplicate %s", k->name);
    CHECK(!!k->source != !!(k->code_object[0] || k->code_object[1]), "%s: source xor code_object", k->name);
    for (int a = 0; a < EMU_NARCH; a++) CHECK(!k->arch[a] || k->source || k->code_object[a], "%s: arch %d without code", k->name, a);
    for (int d = 0; d < 3; d++) CHECK(k->grid[d] >= 1 && k->block[d] >= 1 && k->block[d] <= 1024, "%s: extents", k->name);
    CHECK(k->nargs <= MANIFEST_MAX_ARGS, "%s: %zu args", k->name, k->nargs);
    CHECK(k->nsched >= 1 && k->nsched <= 2, "%s: %zu schedules", k->name, k->nsched);
    for (size_t q = 0; q < k->nargs; q++) {
      const mf_arg *a = &k->args[q];
      CHECK(a->dtype < MF_NDTYPE, "%s.%s dtype", k->name, a->name);
      if (a->role == MF_ARG_SCALAR || !a->ndim) continue;
      uint64_t c = 1;
      for (int d = 0; d < a->ndim; d++) { CHECK(a->shape[d] >= 1, "extent"); c *= (uint64_t)a->shape[d]; }
      CHECK(c == a->count && a->bytes == c * mf_dtype_size(a->dtype) && a->bytes <= MANIFEST_MAX_BUFFER,
            "%s.%s: count %llu bytes %llu", k->name, a->name, (unsigned long long)a->count, (unsigned long long)a->bytes);
      if (k->ref == MF_REF_FILES && k->ref_files[q]) CHECK(a->role != MF_ARG_IN, "expected file for an input");
    }
    for (int a = 0; a < EMU_NARCH; a++) {
      for (size_t s = 0; s < k->nsched; s++) {
        size_t c = manifest_case_run(m, i, (emu_arch)a, s);
        CHECK(c < ncases && !seen[c], "run case %zu of %zu", c, ncases);
        seen[c] = 1;
      }
      for (size_t q = 0; q < k->nmutants; q++) {
        size_t c = manifest_case_mutant(m, i, q, (emu_arch)a);
        CHECK(c < ncases && !seen[c], "mutant case %zu of %zu", c, ncases);
        seen[c] = 1;
      }
    }
  }
  free(seen);
  manifest_free(m);
  return 0;
}
