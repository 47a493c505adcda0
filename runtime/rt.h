/* runtime — one device API over two backends: `emu` (lanelab's wave64 emulator, emu/) and `hip`
 * (a real GPU through libamdhip64, opened with dlopen: no build-time ROCm dependency).
 *
 * Device memory is named by 64-bit device addresses on both backends. Errors follow util.h:
 * bad input or usage is LL_EXIT_USAGE, a missing runtime/GPU is LL_EXIT_ENV, a faulting or
 * failing launch is LL_EXIT_FAIL; messages name what was expected, what was found and where.
 *
 * Kernel arguments (code object v5/v6, LLVM AMDGPUUsage "Code Object V5 Metadata"): explicit
 * arguments are written at the offsets the metadata gives, after checking each value's kind and
 * size against the metadata. Hidden arguments are filled by rt_fill_kernargs:
 *   hidden_block_count_x/y/z   workgroups in the grid along x/y/z (grid[] below)
 *   hidden_group_size_x/y/z    work-items per workgroup along x/y/z (block[] below)
 *   hidden_remainder_x/y/z     0: grids are whole workgroups, so no partial workgroup exists
 *   hidden_grid_dims           3 if grid or block has a z extent > 1, else 2 if a y extent > 1,
 *                              else 1 (the AQL packet's setup dimensions)
 *   hidden_dynamic_lds_size    the dynamic LDS bytes of the launch
 *   hidden_global_offset_x/y/z 0
 *   hidden_multigrid_sync_arg  0, or in a cooperative launch (rt_launch_opts.cooperative) the
 *                              address of a zeroed 48-byte block laid out as ROCm's device
 *                              library reads it (ockl cg.cl struct mg_info: mgs 0, grid_id 0,
 *                              num_grids 1, prev_sum 0, all_sum = the grid's work-items, the
 *                              grid barrier's counter sgs at byte 32, num_wg = the workgroups
 *                              at byte 40)
 *   hidden_printf_buffer       a buffer for device printf (rt_printf.c)
 *   every other hidden_* kind  0 (hostcall buffer, heap, default queue,
 *                              completion action, private/shared base, queue ptr, none): a kernel
 *                              that needs one of these services does not get it.
 * On the hip backend the HIP runtime fills hidden arguments itself; ours are passed but ignored. */
#ifndef LANELAB_RT_H
#define LANELAB_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu/emu.h"
#include "util/util.h"

/* ---- devices --------------------------------------------------------------------------------*/
typedef enum { RT_AUTO = 0, RT_EMU = 1, RT_HIP = 2 } rt_backend;
bool rt_backend_parse(const char *s, rt_backend *out); /* "auto", "emu", "hip" */
const char *rt_backend_name(rt_backend b);

typedef struct rt_device rt_device;
/* Opens a device that runs code objects of `arch`.
 *   RT_EMU  the emulator; always available.
 *   RT_HIP  the first HIP GPU of `arch`. No libamdhip64.so, no device, or no device of that arch:
 *           NULL with LL_EXIT_ENV saying which and what to install or use instead.
 *   RT_AUTO a HIP GPU of `arch` when one is present, else the emulator.
 * rt_device_note() then says in one line which backend was chosen and why (for stderr).
 * The HIP library is looked up as $LANELAB_HIP_LIB if set, else libamdhip64.so. */
rt_device *rt_open(rt_backend b, emu_arch arch, ll_err *err);
void rt_close(rt_device *d);
rt_backend rt_device_backend(const rt_device *d); /* RT_EMU or RT_HIP */
emu_arch rt_device_arch(const rt_device *d);
const char *rt_device_note(const rt_device *d);   /* e.g. "backend emu (auto: no HIP GPU: ...)" */
/* The emulator's memory (NULL on hip): for tests and tools that inspect device buffers. */
emu_mem *rt_device_emu_mem(rt_device *d);
/* The device heap's live blocks (malloc in kernels built with lanelab's HIP headers, whose heap
 * markers the emulator's runtime follows: runtime/rt_hostcall.c), in address order, each to fn
 * (may be NULL) with the size its malloc asked for and "kernel K at FILE:LINE"; returns how many.
 * 0 on hip and before any kernel used the heap. */
typedef void (*rt_heap_block_fn)(void *user, uint64_t addr, uint64_t size, const char *site);
size_t rt_device_heap_blocks(rt_device *d, rt_heap_block_fn fn, void *user);
/* What device-heap byte addr belongs to, for a heapcheck finding (rt_launch_opts.heap_check): the
 * block holding it with its malloc's and free's places, or the nearest block below it; false (buf
 * untouched) on hip or before any kernel used the heap. */
bool rt_device_heap_where(rt_device *d, uint64_t addr, char *buf, size_t n);

/* ---- memory ---------------------------------------------------------------------------------*/
/* A zero-filled device buffer of n > 0 bytes; returns its device address, 0 on failure. On emu
 * the host memory behind it stays allocated until rt_close (emu_mem has no unmap). */
uint64_t rt_alloc(rt_device *d, size_t n, const char *name, ll_err *err);
void rt_free(rt_device *d, uint64_t addr);
/* [addr, addr+n) must lie inside one buffer from rt_alloc, else LL_EXIT_USAGE. */
bool rt_copy_to_device(rt_device *d, uint64_t dst, const void *src, size_t n, ll_err *err);
bool rt_copy_from_device(rt_device *d, void *dst, uint64_t src, size_t n, ll_err *err);

/* ---- code objects ---------------------------------------------------------------------------*/
typedef struct rt_module rt_module;
/* Parses the code object (emu loader: LL_EXIT_USAGE if malformed), checks its arch is the
 * device's (LL_EXIT_USAGE otherwise) and, on hip, loads it with hipModuleLoadData. */
rt_module *rt_load(rt_device *d, const void *bytes, size_t n, const char *path, ll_err *err);
rt_module *rt_load_file(rt_device *d, const char *path, ll_err *err);
const emu_codeobj *rt_module_codeobj(const rt_module *m);
/* emu: the device address at which the module's image (its .rodata, .data, .bss: __device__ and
 * __constant__ variables at image + their symbol's vaddr) is mapped; 0 on hip. */
uint64_t rt_module_image_addr(const rt_module *m);
void rt_unload(rt_module *m);

/* ---- arguments ------------------------------------------------------------------------------*/
typedef enum { RT_ARG_PTR, RT_ARG_U32, RT_ARG_I32, RT_ARG_U64, RT_ARG_F32 } rt_arg_kind;
const char *rt_arg_kind_name(rt_arg_kind k); /* "pointer", "u32", "i32", "u64", "f32" */
typedef struct rt_arg {
  rt_arg_kind kind;
  union {
    uint64_t ptr; /* device address */
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    float f32;
  };
} rt_arg;

/* Matching rule, per explicit (non-hidden) metadata argument, in order:
 *   pointer  <-> value_kind global_buffer, size 8
 *   u32, i32 <-> by_value of size 4; also size 1 or 2 when the value fits in that many bytes
 *   f32      <-> by_value of size 4
 *   u64      <-> by_value of size 8
 * Any other value kind (image, sampler, pipe, queue, dynamic_shared_pointer, ...) cannot be
 * supplied. A count, kind or size mismatch is LL_EXIT_USAGE naming the argument (index, name if
 * the metadata has one, value kind, size, offset). */
size_t rt_explicit_arg_count(const emu_kernel *k);
bool rt_check_arg_kinds(const emu_kernel *k, const rt_arg_kind *kinds, size_t n, ll_err *err);
/* One value against explicit argument idx (< rt_explicit_arg_count(k)). */
bool rt_check_arg_kind(const emu_kernel *k, size_t idx, rt_arg_kind kind, ll_err *err);
/* Bytes of the kernarg buffer for k (its kernarg segment size). */
size_t rt_kernarg_bytes(const emu_kernel *k);
/* k's hidden argument of kind hk (EMU_HK_*, not EMU_HK_OTHER), NULL when it has none */
const emu_kernarg *rt_hidden_arg(const emu_kernel *k, uint8_t hk);
/* k's hidden_printf_buffer argument, NULL when it has none (then it cannot print) */
const emu_kernarg *rt_printf_arg(const emu_kernel *k);
/* Writes every argument, explicit and hidden (see the top of this file), into buf (size >=
 * rt_kernarg_bytes(k)), zero-filling everything else. grid is in workgroups. */
bool rt_fill_kernargs(const emu_kernel *k, const rt_arg *args, size_t nargs, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dynamic_lds, uint8_t *buf, size_t size,
                      ll_err *err);

/* ---- launches -------------------------------------------------------------------------------*/
typedef struct rt_launch_opts {
  uint64_t insn_budget;    /* emu: per wave, 0 = emu default */
  int threads;             /* emu: worker threads, 0 = all cores */
  emu_sched sched;         /* emu */
  emu_wave_cb on_wave_end; /* emu: called at every wave's s_endpgm (from worker threads) */
  void *user;
  emu_fault *fault;        /* emu: filled when the launch faults (may be NULL) */
  emu_launch_stats *stats; /* emu: may be NULL */
  const uint8_t *kernarg;  /* raw explicit argument bytes (rt_fill_kernargs_raw), or NULL */
  size_t kernarg_size;     /* with kernarg: the launch takes no args (nargs 0) */
  uint64_t sched_seed;     /* emu: EMU_SCHED_RANDOM */
  uint64_t snap_pc;        /* emu: on_snap is called each time a wave reaches this PC (0: never) */
  emu_wave_cb on_snap;     /* emu: called with `user` */
  emu_observer *observe;   /* emu: traces, race and init checks (NULL: none) */
  bool strict_memory;      /* emu: memory-model warnings become faults (emu_launch_opts) */
  void (*on_warning)(void *warn_user, const emu_fault *w); /* emu: NULL prints to stderr */
  void *warn_user;
  /* emu: device printf (rt_printf_decode below). A kernel whose metadata has a
   * hidden_printf_buffer argument gets a buffer of printf_bytes (0: RT_PRINTF_BYTES); after the
   * launch, faulted or not, its records are written to printf_out (NULL: stdout; stream-1
   * records to stderr) and problems (records that did not fit, malformed ones) to stderr as
   * "lanelab: warning: ..." lines. */
  FILE *printf_out;
  uint32_t printf_bytes;
  uint32_t stack_bytes;    /* emu: private bytes per lane a dynamic-stack kernel gets at least (0: 1024) */
  /* emu: the device heap (malloc/free in kernels, runtime/rt_hostcall.c) holds max(heap_bytes,
   * 256 MiB) rounded up to 2 MiB; read at the device's first launch that needs a heap */
  uint64_t heap_bytes;
  /* emu, with an observer that runs initcheck: the device heap's blocks are watched too (bytes a
   * malloc handed out are unwritten until the program writes them; the rest of the heap, ockl's
   * own state among it, counts as written): rt_hostcall.c's bitmap, given to the observer */
  bool heap_initcheck;
  /* emu, with an observer: heapcheck, an access to the device heap outside every live block is a
   * finding (emu_observer_heap with rt_hostcall.c's bitmap of the live blocks) */
  bool heap_check;
  /* emu: a cooperative launch (emu_launch_opts.cooperative); a kernel with a
   * hidden_multigrid_sync_arg gets the grid-barrier block described at rt_launch */
  bool cooperative;
} rt_launch_opts;
/* ROCm's buffered printf buffer: 4096 bytes a work-item of a 1024-item workgroup (ROCm/clr
 * rocdevice.cpp printfBufferSize_, rocprintf.hpp WorkitemDebugSize); 1 MiB before 2026-12-06 */
#define RT_PRINTF_BYTES (4096u * 1024u)

/* Runs kernel `name` of m over grid[0..2] workgroups of block[0..2] work-items, waits for it.
 * Checks before launching (LL_EXIT_USAGE): the kernel exists (the message lists those that do),
 * the arguments match (above), no zero extent, block size <= the kernel's
 * max_flat_workgroup_size, grid*block fits 32 bits per dimension, static + dynamic LDS fits the
 * arch. On emu the kernarg buffer and an HSA kernel dispatch packet are placed in emulator
 * memory. Returns LL_EXIT_OK, LL_EXIT_FAIL (fault; err->msg = fault message), or an error code.
 * Register callbacks need the emu backend: on hip they are LL_EXIT_USAGE. */
int rt_launch(rt_device *d, rt_module *m, const char *name, const uint32_t grid[3],
              const uint32_t block[3], const rt_arg *args, size_t nargs, uint32_t dynamic_lds,
              const rt_launch_opts *o, ll_err *err);

/* ---- device printf (rt_printf.c) -------------------------------------------------------------
 * Decodes a printf buffer of n bytes as clang's buffered printf writes it (the record format is
 * at the top of rt_printf.c) with co's amdhsa.printf formats: stream-0 text to out, stream-1 text
 * to errout, problems to diag (one line each). false when something was not printed. */
bool rt_printf_decode(const emu_codeobj *co, const uint8_t *buf, size_t n, ll_buf *out, ll_buf *errout,
                      ll_buf *diag);

/* ---- host memory for the device (emu only) ----------------------------------------------------
 * Registers host memory [host, host+n) with the emulator at its own address, so a kernel reaches
 * it through the host pointer (HIP's pinned and managed memory). LL_EXIT_USAGE when it overlaps
 * memory already registered; LL_EXIT_USAGE on the hip backend. */
bool rt_map_host(rt_device *d, void *host, size_t n, const char *name, ll_err *err);
void rt_unmap_host(rt_device *d, void *host);

/* ---- register dumps -------------------------------------------------------------------------
 * A thread-safe collector of wave states: pass rt_regdump_cb as on_wave_end with the dump as
 * user. Waves are kept sorted by (workgroup z, y, x, wave index). */
typedef struct rt_regdump rt_regdump;
rt_regdump *rt_regdump_new(void);
void rt_regdump_cb(void *user, const emu_wave_view *w);
size_t rt_regdump_count(const rt_regdump *r);
const emu_wave_view *rt_regdump_wave(rt_regdump *r, size_t i); /* sorted order */
/* JSON: {"generated_by", "arch", "kernel", "grid", "block", "waves": [{"wg": [x,y,z], "wave",
 * "pc", "exec", "vcc" (hex strings: 64-bit values do not survive JSON numbers), "m0", "scc",
 * "sgprs": [...], "vgprs": [[64 lanes]...], "agprs": [[64 lanes]...]}]} */
void rt_regdump_json(rt_regdump *r, ll_buf *out, emu_arch arch, const char *kernel,
                     const uint32_t grid[3], const uint32_t block[3]);
void rt_regdump_free(rt_regdump *r);

/* ---- `--arg` specs (README.md, "lanelab run") --------------------------------------
 *   in:FILE            pointer to a buffer holding FILE's bytes (a regular file)
 *   in:FILE:BYTES      the first BYTES bytes of FILE, which may be a device or FIFO (FILE may
 *                      contain ':' unless what follows its last ':' is a number)
 *   out:N:FILE         pointer to N zeroed bytes, written to FILE after a successful run
 *   io:FILE:OUTFILE    buffer from FILE, written to OUTFILE after a successful run
 *   u32:V i32:V u64:V f32:V   by-value scalars (integers decimal or 0x-hex) */
typedef enum { RT_SPEC_IN, RT_SPEC_OUT, RT_SPEC_IO, RT_SPEC_U32, RT_SPEC_I32, RT_SPEC_U64,
               RT_SPEC_F32 } rt_spec_kind;
typedef struct rt_argspec {
  rt_spec_kind kind;
  char *text;    /* the spec as given, for messages */
  char *name;    /* NAME of a NAME=SPEC (rt_argspec_parse_any), else NULL */
  char *file;    /* in, io: input file */
  char *outfile; /* out, io: output file */
  uint64_t size; /* out: N; in: the stated BYTES (0 = the whole regular file) */
  rt_arg value;  /* scalars: the value; pointers: kind RT_ARG_PTR, address filled at run time */
} rt_argspec;
/* LL_EXIT_USAGE naming the spec if it is malformed or a value is out of range. */
bool rt_argspec_parse(const char *s, rt_argspec *out, ll_err *err);
void rt_argspec_free(rt_argspec *s);

/* ---- arguments by name, raw kernel-argument bytes (rt_kernarg.c; docs/run.md) ----------------
 * rt_argspec_parse_any: `NAME=SPEC` (NAME a C identifier: the metadata's .name of an explicit
 * argument; rt_argspec.name set) or a positional SPEC (name NULL).
 * rt_argspecs_order: puts specs in the kernel's explicit-argument order. Positional specs fill
 * arguments 0, 1, ... in the order given; named ones fill the argument of that name wherever they
 * stand. LL_EXIT_USAGE naming the spec for: an unknown name (listing the kernel's names, or
 * saying its metadata has none: clang emits them with -fhip-kernel-arg-name), an argument given
 * twice, more positional specs than arguments, or arguments left without a value (listing them).
 * On success specs[0..n) is in argument order (n equals rt_explicit_arg_count). */
bool rt_argspec_parse_any(const char *s, rt_argspec *out, ll_err *err);
bool rt_argspecs_order(const emu_kernel *k, rt_argspec *specs, size_t n, ll_err *err);

/* Raw explicit arguments (`--kernarg FILE`): bytes [0, n) of the kernarg segment exactly as the
 * kernel reads them (a packed struct's bytes, by-value arguments of any size). n must cover every
 * explicit argument of the metadata (>= their end) and stop below the first hidden argument,
 * which the runtime fills as for rt_fill_kernargs; else LL_EXIT_USAGE saying which bound. */
void rt_explicit_extent(const emu_kernel *k, uint32_t *end, uint32_t *first_hidden, const char **hidden_kind);
bool rt_kernarg_check(const emu_kernel *k, size_t n, ll_err *err);
/* The --kernarg file, at most k's kernarg segment size (a larger one is LL_EXIT_USAGE). */
void *rt_kernarg_read(const char *path, const emu_kernel *k, size_t *n, ll_err *err);
bool rt_fill_kernargs_raw(const emu_kernel *k, const uint8_t *raw, size_t n, const uint32_t grid[3],
                          const uint32_t block[3], uint32_t dynamic_lds, uint8_t *buf, size_t size,
                          ll_err *err);
/* `--buf NAME@OFF[,OFF...]:SPEC`, SPEC one of in:FILE, out:N:FILE, io:FILE:OUTFILE: a device
 * buffer whose 64-bit address is written little-endian at each byte offset OFF of the raw kernel
 * arguments. spec.text is the whole option value, for messages. */
typedef struct rt_bufspec {
  char *name;
  uint32_t *offsets;
  size_t noffsets;
  rt_argspec spec;
} rt_bufspec;
bool rt_bufspec_parse(const char *s, rt_bufspec *out, ll_err *err);
void rt_bufspec_free(rt_bufspec *b);
/* Checks every buffer's offsets against raw's n bytes (each address inside, no two overlapping,
 * no name twice) and, when addrs is not NULL, writes addrs[i] at bufs[i]'s offsets. */
bool rt_kernarg_patch(uint8_t *raw, size_t n, const rt_bufspec *bufs, size_t nb, const uint64_t *addrs,
                      ll_err *err);

#endif
