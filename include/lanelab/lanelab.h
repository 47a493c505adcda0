/* lanelab/lanelab.h — lanelab's public C API (liblanelab.a, `pkg-config --cflags --libs lanelab`):
 * load a gfx942/gfx950 code object, run a kernel on lanelab's wave64 emulator (or a real GPU
 * through the HIP runtime when one of the arch is present and asked for), and call the CPU
 * attention oracle, from a project's own C/C++ tests.
 *
 * Errors: functions return 0 (or a non-NULL handle / non-zero address) on success; otherwise the
 * lanelab_error says why, with code 1 (a kernel faulted: the message names arch, kernel, PC,
 * instruction, lane and address), 2 (bad input or usage) or 3 (the environment lacks something).
 * The API is not thread-safe per device; separate devices are independent. */
#ifndef LANELAB_LANELAB_H
#define LANELAB_LANELAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LANELAB_API_VERSION 1

typedef struct lanelab_error {
  int code;          /* 0 none, 1 fault / check failed, 2 bad input, 3 environment */
  char msg[1024];
} lanelab_error;

typedef struct lanelab_device lanelab_device;
typedef struct lanelab_module lanelab_module;

/* arch: "gfx942" or "gfx950". backend: "emu" (lanelab's emulator; also NULL), "hip" (a GPU of the
 * arch, else code 3), "auto" (a GPU of the arch when present, else the emulator). */
lanelab_device *lanelab_open(const char *arch, const char *backend, lanelab_error *e);
void lanelab_close(lanelab_device *d);
/* "emu" or "hip" */
const char *lanelab_device_backend(const lanelab_device *d);

/* Device memory, named by 64-bit device addresses. lanelab_alloc returns a zero-filled buffer's
 * address (0 on failure); reads and writes must lie inside one buffer. Buffers live until
 * lanelab_free or lanelab_close. */
uint64_t lanelab_alloc(lanelab_device *d, size_t bytes, lanelab_error *e);
void lanelab_free(lanelab_device *d, uint64_t addr);
int lanelab_write(lanelab_device *d, uint64_t dst, const void *src, size_t bytes, lanelab_error *e);
int lanelab_read(lanelab_device *d, void *dst, uint64_t src, size_t bytes, lanelab_error *e);

/* A code object file (ELF for amdgcn-amd-amdhsa) of the device's arch. */
lanelab_module *lanelab_load(lanelab_device *d, const char *path, lanelab_error *e);
void lanelab_unload(lanelab_module *m);

typedef enum { LANELAB_ARG_PTR, LANELAB_ARG_U32, LANELAB_ARG_I32, LANELAB_ARG_U64, LANELAB_ARG_F32 } lanelab_arg_kind;
typedef struct lanelab_arg {
  lanelab_arg_kind kind;
  union { uint64_t ptr; uint32_t u32; int32_t i32; uint64_t u64; float f32; } v;
} lanelab_arg;
static inline lanelab_arg lanelab_ptr(uint64_t a) { lanelab_arg r; r.kind = LANELAB_ARG_PTR; r.v.ptr = a; return r; }
static inline lanelab_arg lanelab_u32(uint32_t x) { lanelab_arg r; r.kind = LANELAB_ARG_U32; r.v.u32 = x; return r; }
static inline lanelab_arg lanelab_i32(int32_t x) { lanelab_arg r; r.kind = LANELAB_ARG_I32; r.v.i32 = x; return r; }
static inline lanelab_arg lanelab_u64(uint64_t x) { lanelab_arg r; r.kind = LANELAB_ARG_U64; r.v.u64 = x; return r; }
static inline lanelab_arg lanelab_f32(float x) { lanelab_arg r; r.kind = LANELAB_ARG_F32; r.v.f32 = x; return r; }

typedef struct lanelab_launch_opts {
  uint32_t dynamic_lds;   /* bytes */
  uint64_t insn_budget;   /* emulator: per wave, 0 = default (50 M) */
  int threads;            /* emulator worker threads, 0 = all cores */
  int adversarial;        /* emulator: run each wave as far as it goes (exposes missing barriers) */
} lanelab_launch_opts;

/* Runs kernel `name` over grid[3] workgroups of block[3] work-items and waits. The arguments are
 * checked against the kernel's metadata (count, kind, size); hidden arguments are filled by
 * lanelab. opts may be NULL. */
int lanelab_launch(lanelab_module *m, const char *name, const uint32_t grid[3], const uint32_t block[3],
                   const lanelab_arg *args, size_t nargs, const lanelab_launch_opts *opts, lanelab_error *e);

/* The attention oracle on a spec file (the format of `lanelab oracle attention --spec`; "seed"
 * generates q/k/v). o gets [total_q, num_qo_heads, head_dim] floats and lse [total_q,
 * num_qo_heads] (base 2), each allocated with malloc; the counts are returned. */
int lanelab_oracle_attention(const char *spec_path, float **o, size_t *o_count, float **lse, size_t *lse_count,
                             lanelab_error *e);

/* |got - ref| <= atol + rtol*|ref| elementwise (NaN never matches; an infinity only itself).
 * Returns the number of elements outside; *first the first such index (if any), *max_abs the
 * largest finite difference. */
size_t lanelab_compare_f32(const float *got, const float *ref, size_t n, double atol, double rtol, size_t *first,
                           double *max_abs);

#ifdef __cplusplus
}
#endif
#endif
