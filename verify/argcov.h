/* verify/argcov — argument coverage of a case set (issue 30): does the gate vary every argument
 * the production kernels take?
 *
 * The arguments come from the kernels' own signatures (kernels/prod/<stem>.hip: the parameter
 * list of the first __global__ function, by name), never from a list kept here; every name must
 * have a rule below, or the check fails naming it (a new argument needs a rule before it can
 * pass). For each production kernel (prefill_single, prefill_ragged, prefill_paged, each over
 * both dtypes and every head_dim: one body, one signature; and concat_mla_q) and each argument,
 * over the cases of the sets that launch that kernel:
 *   - every argument takes at least two values that lead to different addresses or results:
 *     scalars by their bits as launched (verify/prod.h prod_attn_args); pointers by what they
 *     point at (q/k/v and the mask by their bytes, index arrays such as qo_indptr, kv_indices,
 *     tile_req by their elements, the outputs o/lse by their element count); the custom mask and
 *     mask_off count only in cases that set the custom-mask flag (the kernel reads them only then);
 *   - an index array that can hold different entries does so in some case (tile_req naming two
 *     requests, tile_q0 a second query tile, mask_off a non-zero offset, kv_last_page_len a
 *     partial page, kv_indices a permutation that is not the identity);
 *   - an argument with an "off" value (soft_cap 0, window_left -1) is seen off and on;
 *   - a stride argument (name containing "stride") is seen, in some case, larger than the dense
 *     layout's and not a multiple of it (a slice of a larger tensor);
 *   - `flags`: every bit the kernel accepts (PROD_FLAGS_ACCEPTED) seen on and off, and every
 *     combination of accepted bits launched.
 * The result is a table (kernel, argument, distinct values, rule, verdict) and a verdict naming
 * the first argument left uncovered. tests/test_argcov.c runs it on quick + the make-test random
 * sample, and shows it failing on sets with a constant argument. */
#ifndef LANELAB_VERIFY_ARGCOV_H
#define LANELAB_VERIFY_ARGCOV_H

#include "reports/table.h"
#include "verify/prod.h"

/* The parameter names of the first __global__ function in SRC (malloc'd array of malloc'd
 * strings, *n set); NULL with err when the file cannot be read or holds no such function. */
char **argcov_signature(const char *src, size_t *n, ll_err *err);

/* Checks the union of sets[0..nsets) against the signatures under root (the repository root:
 * root/kernels/prod/<stem>.hip). Returns LL_EXIT_OK when every argument of every production
 * kernel is covered, LL_EXIT_FAIL when one is not (why: "prefill_single: argument window_left
 * takes one value (-1) in 12 cases", the first four joined by "; ", then how many more), LL_EXIT_USAGE / LL_EXIT_ENV when a
 * signature cannot be read or a case is invalid (why says which). *table (if not NULL) gets the
 * detail table (caller frees). */
int argcov_check(const char *root, const prod_set *const *sets, size_t nsets, report_table **table, char *why,
                 size_t n);

#endif
