/* emu — lanelab's wave64 emulator of gfx942 (CDNA3) and gfx950 (CDNA4) code objects.
 *
 * This header is the module's whole public contract. Three parts:
 *   1. code objects: loading an AMDGPU ELF (sections by vaddr, kernel descriptors, MessagePack
 *      metadata) — emu/loader.c, emu/msgpack.c
 *   2. memory: global memory as a set of registered, bounds-checked buffers — emu/mem.c
 *   3. programs and launches: decode once (LLVM MC disassembler), execute many — emu/decode.c,
 *      emu/exec.c (the scheduler), the per-family semantics files and what they share
 *      (emu/operand.c, emu/addr.c, emu/waitcnt.c, emu/fault.c)
 * Everything else in emu/ is private (emu/internal.h).
 *
 * Facts used here are in docs/isa.md ("Code objects (for the loader)"). */
#ifndef LANELAB_EMU_H
#define LANELAB_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/util.h"

/* ---- arches ---------------------------------------------------------------------------------*/
typedef enum { EMU_GFX942 = 0, EMU_GFX950 = 1, EMU_NARCH } emu_arch;
const char *emu_arch_name(emu_arch a);              /* "gfx942" */
bool emu_arch_parse(const char *s, emu_arch *out);  /* false if unknown */
uint32_t emu_arch_lds_bytes(emu_arch a);            /* 65536 on gfx942, 163840 on gfx950 */
/* ELF e_flags & 0xff for the arch (0x4c, 0x4f). */
uint32_t emu_arch_elf_mach(emu_arch a);

/* ---- 1. code objects ------------------------------------------------------------------------*/
typedef struct emu_kernarg {
  char *name;          /* ".name" if present, else "" */
  char *value_kind;    /* ".value_kind": global_buffer, by_value, hidden_block_count_x, ... */
  char *address_space; /* ".address_space" or "" */
  uint32_t offset, size;
  bool hidden;         /* value_kind starts with "hidden_" */
  uint8_t hk;          /* the hidden arguments a runtime fills, from value_kind (EMU_HK_*; the loader sets it
                          once, so a launch compares no strings) */
} emu_kernarg;
enum {
  EMU_HK_OTHER = 0, /* explicit, or a hidden argument no runtime fills with more than 0 */
  EMU_HK_BLOCK_COUNT_X, EMU_HK_BLOCK_COUNT_Y, EMU_HK_BLOCK_COUNT_Z,
  EMU_HK_GROUP_SIZE_X, EMU_HK_GROUP_SIZE_Y, EMU_HK_GROUP_SIZE_Z,
  EMU_HK_GRID_DIMS, EMU_HK_DYNAMIC_LDS_SIZE, EMU_HK_PRINTF_BUFFER,
  EMU_HK_MULTIGRID_SYNC, /* hidden_multigrid_sync_arg: a cooperative launch's grid-barrier block (runtime/rt.c) */
  EMU_HK_HOSTCALL_BUFFER, /* hidden_hostcall_buffer: ROCm's hostcall buffer (runtime/rt_hostcall.c) */
  EMU_HK_HEAP_V1          /* hidden_heap_v1: the device heap's state that ockl's malloc keeps (runtime/rt_hostcall.c) */
};

typedef struct emu_kernel {
  char *name;                     /* symbol name, e.g. "lane_dump_tr16" */
  uint64_t kd_vaddr;              /* address of K.kd */
  uint64_t entry;                 /* vaddr the descriptor names (kd + signed entry offset): the code
                                     symbol, and with kernarg preload the 256-byte compatibility header */
  uint64_t start;                 /* where a wave begins: entry, or entry + 256 when the descriptor
                                     preloads kernel arguments (AMDGPUUsage "Preloaded Kernel
                                     Arguments": the firmware skips the header) */
  uint64_t code_size;             /* bytes of code from entry: the code symbol's st_size, or when it
                                     is 0 (hand-written kernels) up to the next function symbol /
                                     kernel entry, else the end of .text */
  /* kernel descriptor fields (AMDGPUUsage "Kernel Descriptor") */
  uint32_t group_segment_size;    /* static LDS bytes */
  uint32_t private_segment_size;
  uint32_t kernarg_size;           /* bytes lanelab allocates: the largest of the descriptor's
                                     KERNARG_SIZE, the metadata's .kernarg_segment_size and the end
                                     of the last argument (see emu_codeobj.notes) */
  uint32_t rsrc1, rsrc2, rsrc3;
  uint16_t code_properties;       /* kd+56 */
  uint16_t kernarg_preload;       /* kd+58 */
  /* decoded from the above */
  uint32_t user_sgpr_count;       /* rsrc2 bits 5:1 */
  bool en_dispatch_ptr, en_queue_ptr, en_kernarg_ptr, en_dispatch_id, en_flat_scratch_init,
       en_private_segment_size;   /* code_properties bits 0..6 (see AMDGPUUsage) */
  bool en_wg_id[3];               /* rsrc2 bits 7, 8, 9 */
  uint32_t workitem_id_dims;      /* rsrc2 bits 12:11: 0 = x, 1 = x,y, 2 = x,y,z */
  uint32_t accum_offset;          /* in VGPRs: (rsrc3 bits 5:0 + 1) * 4 */
  uint32_t kernarg_preload_count; /* KERNARG_PRELOAD_SPEC_LENGTH (kd+58 bits 6:0): dwords preloaded */
  uint32_t kernarg_preload_offset;/* KERNARG_PRELOAD_SPEC_OFFSET (kd+58 bits 15:7): first dword of the
                                     kernarg segment preloaded */
  uint32_t preload_sgpr;          /* first SGPR of the preloaded dwords: after every other user SGPR */
  /* from the metadata note */
  uint32_t vgpr_count, agpr_count, sgpr_count;
  uint32_t kernarg_segment_align;
  uint32_t max_flat_workgroup_size;
  uint32_t wavefront_size;
  emu_kernarg *args;
  size_t nargs;
} emu_kernel;

typedef struct emu_symbol {
  char *name;                     /* as in the symbol table (mangled for C++ names) */
  uint64_t vaddr, size;           /* st_value, st_size */
  bool func;                      /* STT_FUNC, else STT_OBJECT */
} emu_symbol;

/* A row of the DWARF line table (emu/dwarf.c): the instruction at addr and those after it, up to
 * the next row, come from line `line` of line_files[file]; file EMU_LINE_END ends a sequence. */
typedef struct emu_line {
  uint64_t addr;
  uint32_t file, line;
  uint32_t ord;                   /* order in the line program */
} emu_line;
#define EMU_LINE_END UINT32_MAX

typedef struct emu_codeobj {
  emu_arch arch;
  char *path;                     /* where it was loaded from, or "<memory>" */
  uint8_t *image;                 /* loadable image, indexed by vaddr (image[vaddr]) */
  uint64_t image_size;
  uint64_t text_vaddr, text_size; /* the .text section */
  uint32_t e_flags;               /* the ELF header's (EF_AMDGPU_MACH in bits 7:0) */
  /* every STT_FUNC symbol of .text (kernels and any function left out of line), sorted by vaddr,
   * each with its extent by the rule of emu_kernel.code_size: one loader for the emulator and for
   * isa/'s census and diff (docs/isa.md "Code objects") */
  struct emu_func { char *name; uint64_t vaddr, size; } *funcs;
  size_t nfuncs;
  emu_kernel *kernels;
  size_t nkernels;
  uint32_t code_object_version;   /* from the ELF ABI version: 4, 5, 6 */
  struct emu_reloc { uint64_t offset, value; } *relocs; /* dynamic relocations: image[offset]
                                     gets load address + value (64-bit) */
  size_t nrelocs;
  emu_symbol *symbols;            /* defined data and function symbols (STT_OBJECT, STT_FUNC in a
                                     section), in symbol-table order */
  size_t nsymbols;
  char **printf_fmts;             /* metadata amdhsa.printf entries as written ("0:0:HASH,FORMAT"
                                     for clang's buffered printf) */
  size_t nprintf_fmts;
  emu_line *lines;                /* the .debug_line table sorted by address (NULL: no debug
                                     information, or a malformed table, noted in notes) */
  size_t nlines, caplines;
  char **line_files;              /* the paths lines name, as the compiler recorded them */
  size_t nline_files;
  /* the inlined calls around each address (emu/dwarf.c, from .debug_info): the code in [lo, hi)
   * lies inside n inlined calls, made at inl_sites[first .. first + n), the outermost's first
   * (a line of the function the code was compiled into: the kernel's source), each at line `line`
   * of line_files[file] (file >= nline_files: not named); sorted, not overlapping (NULL: none, or
   * no readable .debug_info, noted in notes) */
  struct emu_inline { uint64_t lo, hi; uint32_t first, n; } *inl;
  size_t ninl;
  struct emu_callsite { uint32_t file, line; } *inl_sites;
  size_t ninl_sites;
  char *notes;                    /* leniencies applied while loading, one per line (NULL: none);
                                     docs/emulator-choices.md "Loader" */
  void *priv;                     /* decoded program cache; owned by emu */
  void **kpriv;                   /* each kernel's own program, decoded at its first launch
                                     (emu_codeobj_kernel_program); owned by emu */
} emu_codeobj;

/* Malformed, truncated, wrong machine, unknown arch: NULL with err->code = LL_EXIT_USAGE. */
emu_codeobj *emu_codeobj_load(const void *bytes, size_t n, const char *path, ll_err *err);
emu_codeobj *emu_codeobj_load_file(const char *path, ll_err *err);
/* The same checks, but a code object without an NT_AMDGPU_METADATA note is accepted with no
 * kernels (its code and function symbols only: a hand-written object that was never meant to be
 * launched, which isa/'s census and diff still read). Metadata that is present is checked. */
emu_codeobj *emu_codeobj_load_code(const void *bytes, size_t n, const char *path, ll_err *err);
/* The kernel whose symbol is `name`; failing that, the one whose demangled C++ name matches it
 * (emu/kname.c: `row_softmax` finds `_Z11row_softmaxPKfPfS1_i`; so do its qualified name, its
 * signature, and its name with or without template arguments). NULL and LL_EXIT_USAGE if none
 * matches (naming the kernels that exist, with their signatures) or several do (listing them). */
const emu_kernel *emu_codeobj_kernel(const emu_codeobj *co, const char *name, ll_err *err);
/* "FILE:LINE" of the instruction at pc, from the code object's DWARF line table, into buf; NULL
 * when the object has no line table or no row covers pc. */
const char *emu_codeobj_srcline(const emu_codeobj *co, uint64_t pc, char *buf, size_t n);
/* The symbol named `name` (exactly), or NULL. */
const emu_symbol *emu_codeobj_symbol(const emu_codeobj *co, const char *name);
/* The demangled C++ name of an Itanium-mangled symbol (malloc'd), NULL if sym is not one. */
char *emu_demangle(const char *sym);
void emu_codeobj_free(emu_codeobj *co);
/* The code object's image as a kernel sees it once loaded at device address `base`: image (a
 * copy of co->image, co->image_size bytes) gets the dynamic relocations (.rela.dyn:
 * R_AMDGPU_RELATIVE64 and R_AMDGPU_ABS64 against defined symbols; the loader refuses others). A
 * runtime maps this copy at base, so the kernel's .rodata, .data and .bss (constant tables,
 * __constant__ and __device__ variables) are there, PC-relative to its code. */
void emu_codeobj_relocate(const emu_codeobj *co, uint8_t *image, uint64_t base);

/* ---- 2. memory ------------------------------------------------------------------------------*/
/* Global memory is a set of registered host buffers, each given a device address range that no
 * other buffer shares (with a gap between ranges, so running off one buffer never lands in the
 * next). Every access is checked against them. Thread-safe for concurrent access after setup. */
typedef struct emu_mem emu_mem;
emu_mem *emu_mem_new(void);
void emu_mem_free(emu_mem *m);
/* Device addresses emu_mem_map hands out lie in [EMU_MEM_BASE, EMU_MEM_LIMIT) (1 TiB from
 * 4 GiB), 64 KiB aligned, with at least 1 MiB unmapped after each buffer; an address is never
 * handed out twice. A host process that reserves this range (hip/: PROT_NONE) makes a host
 * dereference of a device address fault, as on a discrete GPU. */
#define EMU_MEM_BASE 0x100000000ull
#define EMU_MEM_LIMIT (EMU_MEM_BASE + (1ull << 40))
/* Register host memory [host, host+size); returns its device address (never 0), or 0 when the
 * range above is used up. The host memory stays owned by the caller and must outlive the
 * emu_mem (or its emu_mem_unmap). */
uint64_t emu_mem_map(emu_mem *m, void *host, size_t size, const char *name);
/* emu_mem_map for a region too large to shadow whole, mapped for later use in parts (the device
 * heap, runtime/rt_hostcall.c): --racecheck=global keeps no state for it (its 44 bytes of state per
 * 8 bytes would pass the shadow limit), so it finds no race between workgroups there; everything
 * else (faults, initcheck, in-workgroup racecheck) is as for any buffer */
uint64_t emu_mem_map_unshadowed(emu_mem *m, void *host, size_t size, const char *name);
/* Register host memory at its own address (device address == host pointer). false when size is
 * 0, or the range overlaps a registered buffer or [EMU_MEM_BASE, EMU_MEM_LIMIT). */
bool emu_mem_map_at(emu_mem *m, void *host, size_t size, const char *name);
/* Forget the buffer registered at device address base (its first byte); false if none starts
 * there. Not during a launch. Later accesses to its range fault as unregistered memory. */
bool emu_mem_unmap(emu_mem *m, uint64_t base);
/* Host pointer for [addr, addr+n) if it lies wholly inside one buffer, else NULL. */
void *emu_mem_translate(const emu_mem *m, uint64_t addr, size_t n);
/* Name of the buffer holding addr, or NULL. */
const char *emu_mem_name_of(const emu_mem *m, uint64_t addr);

/* ---- 3. launches ----------------------------------------------------------------------------*/
/* The fault kind of an instruction whose encoding the ISA leaves undefined or calls not legal (an
 * MFMA broadcast CBSZ beyond the instruction's blocks, a reserved f8f6f4 format code). The
 * hardware's result is unspecified, so lanelab stops the kernel: a finding about the kernel. It
 * differs from "unimplemented", which is a gap in lanelab (docs/emulator-choices.md). */
#define EMU_FAULT_UNDEFINED "undefined by the ISA"
typedef struct emu_fault {
  bool faulted;
  char kind[48];       /* "out-of-bounds global access", "lds out of range", "unimplemented",
                          EMU_FAULT_UNDEFINED,
                          "budget exceeded", "transposing read needs full exec", ... */
  emu_arch arch;
  char kernel[128];
  uint64_t pc;         /* vaddr of the instruction */
  char insn[160];      /* its text as LLVM prints it */
  int lane;            /* -1 if not lane-specific */
  uint64_t addr;       /* faulting address, 0 if none */
  uint32_t wg[3];      /* workgroup id */
  uint32_t wave;       /* wave index within the workgroup */
  char src[320];       /* "FILE:LINE" of pc from the code object's line table, "" without one */
  char msg[1024];      /* one line: all of the above, human-readable */
} emu_fault;

/* What a wave looks like at s_endpgm (or at a requested PC). Register files are lane-major per
 * register: vgpr[r * 64 + lane]. On gfx942/gfx950 the VGPR file is unified: AGPR a is
 * vgpr[(accum_offset + a)], so agpr points into the same array. */
typedef struct emu_wave_view {
  uint32_t wg[3];
  uint32_t wave;            /* index within its workgroup */
  uint64_t pc;
  uint64_t exec, vcc;
  uint32_t m0;
  bool scc;
  const uint32_t *sgpr;     /* nsgpr entries */
  uint32_t nsgpr;
  const uint32_t *vgpr;     /* nvgpr * 64 entries (arch VGPRs) */
  uint32_t nvgpr;
  const uint32_t *agpr;     /* nagpr * 64 entries */
  uint32_t nagpr;
} emu_wave_view;

typedef void (*emu_wave_cb)(void *user, const emu_wave_view *w);

typedef enum {
  EMU_SCHED_ROUND_ROBIN = 0, /* one instruction per wave in turn */
  EMU_SCHED_ADVERSARIAL = 1, /* run each wave as far as it goes before the next: exposes
                                missing barriers between LDS writes and reads */
  EMU_SCHED_RANDOM = 2,      /* a random runnable wave runs a random 1..64 instructions, from a
                                generator seeded by sched_seed and the workgroup index (so the
                                same seed gives the same interleaving on any thread count) */
} emu_sched;

typedef struct emu_observer emu_observer; /* part 4 below */

struct emu_heap_event; /* below */
typedef struct emu_launch_opts {
  uint64_t insn_budget;     /* per wave; 0 = default (50 M) */
  int threads;              /* worker threads for workgroups; 0 = number of cores */
  emu_sched sched;
  emu_wave_cb on_wave_end;  /* called at each wave's s_endpgm, may be NULL */
  void *user;
  uint64_t snap_pc;         /* if nonzero, on_snap is called each time a wave reaches this PC */
  emu_wave_cb on_snap;
  uint64_t sched_seed;      /* EMU_SCHED_RANDOM */
  emu_observer *observe;    /* traces / race and init checks (part 4), NULL = none (no cost) */
  /* Memory-model strictness (docs/emulator-choices.md "Memory-model strictness"): patterns whose
   * hardware result the ISA does not document (an LDS access unordered with another wave's LDS
   * write: not yet waited for, or waited for with no s_barrier since; an LDS result used after
   * s_barrier without its s_waitcnt; a duplicated s_load in flight) are warnings by default, each kernel
   * PC reported once through on_warning (NULL: printed to stderr as "lanelab: warning: ...");
   * strict_memory makes them faults. A warning changes no register, memory, counter or queue. */
  bool strict_memory;
  void (*on_warning)(void *warn_user, const emu_fault *w); /* w->msg: one line as for faults */
  void *warn_user;
  /* private bytes per lane a kernel with a dynamic stack gets at least (HIP's hipLimitStackSize);
   * 0: 1024, HIP's default (docs/emulator-choices.md "Private memory") */
  uint32_t stack_bytes;
  /* a cooperative launch (hipLaunchCooperativeKernel): every workgroup resident at once, each a
   * coroutine with its own worker, run in turn on threads (default: one per core) and giving its
   * turn away at s_sleep (emu/exec.c "cooperative launches"); with an observer that keeps one
   * shadow of global memory (global racecheck, initcheck, traces) on one thread. At most
   * EMU_COOP_MAX_WG workgroups */
  bool cooperative;
  /* s_sendmsg sendmsg(MSG_INTERRUPT): the wave raises an interrupt to the host, M0[7:0] its event
   * id (CDNA3 ISA "S_SENDMSG"; ROCm's device library sends one after it rings a signal that has an
   * event mailbox, as its hostcall does). The host's handler runs before the wave's next
   * instruction, on the worker that runs the wave (a host that answers at once); it returns 0, or
   * nonzero with a message in msg, which the wave then faults with ("hostcall"). NULL: no host
   * listens and the message changes nothing. */
  int (*on_interrupt)(void *user, uint32_t event_id, char *msg, size_t msgn);
  void *interrupt_user;
  /* lanelab's device heap marker (s_ttracedata with M0 = EMU_HEAP_TAG | op, below): called before
   * the wave goes on, on the worker that runs it; returns 0, or nonzero with a message in msg,
   * the lane and address it names in e->lane and e->addr, which the wave then faults with ("device
   * heap", at the marker). NULL: markers change nothing. */
  int (*on_heap)(void *user, struct emu_heap_event *e, char *msg, size_t msgn);
  void *heap_user;
} emu_launch_opts;
#define EMU_COOP_MAX_WG 16384
#define EMU_PRIVATE_MAX (1u << 20) /* private bytes per lane: lanelab's limit (a launch asking more is refused) */

/* Phases. A kernel marks that a wave enters phase p (1 <= p < EMU_MAX_PHASES) by executing
 * s_ttracedata with M0 = EMU_PHASE_TAG | p (kernels/include/lanelab_device.h LL_PHASE; on
 * hardware s_ttracedata only sends M0 to the thread trace when tracing is on). Every wave starts
 * in phase 0; an s_ttracedata with any other M0 value leaves the phase unchanged. The marker
 * itself is counted in the phase it ends. */
#define EMU_PHASE_TAG 0x4c4c0000u
#define EMU_MAX_PHASES 8

/* Device heap markers. lanelab's HIP headers (hip/include/hip/lanelab_hip_heap.h) follow each
 * device malloc with s_ttracedata, M0 = EMU_HEAP_TAG | EMU_HEAP_ALLOC, v[0:1] the block malloc
 * returned and v[2:3] the bytes asked for, and precede each free of a non-NULL pointer with one of
 * M0 = EMU_HEAP_TAG | EMU_HEAP_FREE, v[0:1] the pointer (per lane, the lanes in EXEC). Like the
 * phase markers, a no-op on hardware with thread trace off; the emulator hands them to the
 * launch's on_heap (the runtime's block table: leakcheck, frees of what no malloc returned). */
#define EMU_HEAP_TAG 0x4c480000u
enum { EMU_HEAP_ALLOC = 1, EMU_HEAP_FREE = 2 };
typedef struct emu_heap_event {
  int op;                   /* EMU_HEAP_ALLOC or EMU_HEAP_FREE */
  uint64_t exec;            /* the lanes that called */
  uint64_t ptr[64], size[64]; /* per lane: v[0:1] and (alloc) v[2:3] */
  uint64_t pc;              /* the marker's vaddr */
  const char *kernel;
  const emu_codeobj *co;    /* whose line table names the marker's line (emu_codeobj_srcline), or NULL */
  uint64_t image_addr;      /* where co is loaded (emu_dispatch.image_addr; 0 none) */
  uint32_t wg[3], wave;
  int lane;                 /* set by a handler that refuses: the lane it names, and its address */
  uint64_t addr;
} emu_heap_event;

#define EMU_MAX_CHOICES 64 /* stated choices the fidelity report can name (part 5) */
typedef struct emu_launch_stats {
  uint64_t waves;
  uint64_t wave_insns;      /* executed wave-instructions */
  /* executed wave-instructions per mnemonic, sorted by mnemonic */
  size_t nmnem;
  char **mnem;
  uint64_t *count;
  /* the same split by phase: phase_count[p * nmnem + i] of mnem[i] executed in phase p (the
   * sum over p is count[i]); phase_insns[p] all wave-instructions executed in phase p */
  uint64_t *phase_count;
  uint64_t phase_insns[EMU_MAX_PHASES];
  uint64_t mem_warnings;    /* memory-model warnings (occurrences; each PC reported once) */
  uint64_t mem_warning_pcs; /* distinct kernel PCs that warned */
  /* fidelity (part 5): wave-instructions that rested on at least one stated choice, the count per
   * choice (choice_count[c], c an emu_choice index) and, per choice, the first instruction (in
   * program order) that rested on it: "0xPC: TEXT" (malloc'd, NULL when the count is 0) */
  uint64_t choice_insns;
  uint64_t choice_count[EMU_MAX_CHOICES];
  char *choice_example[EMU_MAX_CHOICES];
} emu_launch_stats;
/* Executed count of mnemonics matching `pattern` (a prefix ending in '*', else exact: e.g.
 * "v_mfma_*", "ds_bpermute_b32") in phase p, or over all phases when p < 0. */
uint64_t emu_stats_count(const emu_launch_stats *s, int p, const char *pattern);
void emu_launch_stats_free(emu_launch_stats *s);

typedef struct emu_dispatch {
  const emu_codeobj *co;
  const emu_kernel *kernel;
  uint32_t grid[3];         /* in workgroups */
  uint32_t block[3];        /* work-items per workgroup */
  uint32_t dynamic_lds;     /* bytes beyond group_segment_size */
  uint64_t kernarg_addr;    /* device address of the filled kernarg buffer (in mem) */
  uint64_t dispatch_ptr;    /* device address of an hsa_kernel_dispatch_packet, or 0 */
  uint64_t image_addr;      /* device address of the code object's image in mem (mapped and
                               relocated by the caller, emu_codeobj_relocate), or 0: what
                               s_getpc_b64 adds to an instruction's vaddr */
} emu_dispatch;

/* Runs the whole grid. Returns LL_EXIT_OK, or LL_EXIT_FAIL with *fault filled (the first fault
 * in grid order wins), or LL_EXIT_USAGE for a dispatch that cannot be set up (message in
 * fault->msg). stats may be NULL. */
int emu_launch(emu_mem *m, const emu_dispatch *d, const emu_launch_opts *o, emu_fault *fault,
               emu_launch_stats *stats);

/* ---- decoding, for isa/ and tests -------------------------------------------------------------
 * Every instruction of [vaddr, vaddr+size) decoded once by LLVM's MC disassembler. */
typedef struct emu_insn_info {
  uint64_t pc;
  uint32_t size;            /* bytes */
  const char *text;         /* LLVM's canonical text ("v_add_u32_e32 v1, 63, v1") */
  const char *mnem;         /* "v_add_u32_e32" */
  bool implemented;         /* the emulator has semantics for it */
  const char *why;          /* !implemented: why it is refused (it faults "unimplemented" if run) */
  uint64_t choices;         /* implemented: the stated choices it rests on, bit c = emu_choice c
                               (part 5); 0 = semantics from AMD's documents only */
} emu_insn_info;
typedef struct emu_program emu_program;
emu_program *emu_program_decode(emu_arch a, const uint8_t *code, size_t size, uint64_t vaddr,
                                ll_err *err);
void emu_program_free(emu_program *p);
size_t emu_program_count(const emu_program *p);
const emu_insn_info *emu_program_insn(const emu_program *p, size_t i);
/* The program of a code object's .text, decoded on first use and cached in co->priv. */
const emu_program *emu_codeobj_program(emu_codeobj *co, ll_err *err);
/* The program a launch of kernel k runs: the kernel's own code [entry, entry + code_size), decoded
 * on its first launch and cached, when control cannot leave it (no s_setpc_b64 / s_swappc_b64, every
 * branch target inside, a last record that cannot fall through); else the whole .text's
 * (emu_codeobj_program). A HIP program's code object holds every kernel it was built with, and most
 * launch a few (docs/emulator.md "Decoding"). */
const emu_program *emu_codeobj_kernel_program(emu_codeobj *co, const emu_kernel *k, ll_err *err);
/* Frees both caches (emu_codeobj_free). */
void emu_codeobj_programs_free(emu_codeobj *co);

/* ---- 4. observation (emu/observe.c) ----------------------------------------------------------
 * An observer attached to a launch (emu_launch_opts.observe) sees every executed instruction of
 * every wave: the executor checks one pointer per instruction and calls nothing when it is NULL.
 * Per-lane memory addresses are computed from the instruction's operands before it runs (DS,
 * GLOBAL, FLAT, BUFFER, SMEM; a load to LDS is a global read and an LDS write, both recorded at
 * issue). docs/trace.md has the rules.
 *
 * racecheck (LDS): shadow state per LDS byte holds, for the current barrier interval, which waves
 * wrote, read or atomically updated it and where (PC, lane). Two different waves of a workgroup
 * touching one byte between the same pair of s_barriers, at least one writing (two atomics do not
 * race), is a hazard. Every conflicting pair is found whichever access runs first, so whether a
 * kernel races does not depend on the schedule. The label comes from a lockstep model: each wave's
 * instruction count since the barrier orders the two accesses (write earlier: RAW, read earlier:
 * WAR; two writes: WAW). racecheck global does the same for global memory across all waves and
 * workgroups of the launch (different workgroups never synchronize). initcheck: an LDS byte read
 * before any wave of its workgroup wrote it, or a byte of a range marked with
 * emu_observer_uninit (lanelab marks out: buffers) read before any write in the launch (atomics on
 * such memory are the accumulate idiom on zeroed buffers and count as writes there).
 * Global checks, initcheck of ranges and traces run the workgroups on one thread in grid order. */
/* EMU_HZ_HEAP: an access to device-heap bytes outside every live block (emu_observer_heap) */
typedef enum { EMU_HZ_RAW = 0, EMU_HZ_WAR, EMU_HZ_WAW, EMU_HZ_UNINIT, EMU_HZ_HEAP } emu_hazard_kind;
const char *emu_hazard_kind_name(emu_hazard_kind k); /* "RAW" ... "UNINIT" */

typedef struct emu_access {
  uint64_t pc;
  char insn[96];           /* instruction text */
  uint32_t wg[3], wave;
  int lane;
  char op;                 /* 'r' read, 'w' write, 'a' atomic */
  char src[320];           /* "FILE:LINE" of pc (emu_codeobj_srcline), "" without debug info */
} emu_access;

typedef struct emu_hazard {
  emu_hazard_kind kind;
  bool lds;                /* LDS, else global memory */
  uint64_t addr;           /* first byte found (LDS offset or device address) */
  char buffer[64];         /* global: the registered buffer's name */
  emu_access first;        /* RAW: the write; WAR: the read; WAW: one write; UNINIT: unused */
  emu_access second;       /* the other access; UNINIT: the read */
  uint64_t count;          /* byte conflicts folded into this report (same kind and PC pair) */
} emu_hazard;
/* One line: kind, space, address, both PCs/instructions, waves, lanes, workgroup. */
void emu_hazard_format(const emu_hazard *h, char *buf, size_t n);

/* Trace records: one per selected executed instruction instance. */
typedef struct emu_trace_opnd {
  char name[24];           /* "v[4:5]", "a0", "s[2:3]", "vcc", "exec" */
  char kind;               /* 'v', 'a', 's' */
  uint16_t reg;
  uint8_t n;               /* registers */
  uint8_t index;           /* operand position in the instruction text */
  bool dst;                /* written by the instruction */
  uint32_t *before;        /* vector: before[k * 64 + lane] for register k; scalar: before[k] */
  uint32_t *after;         /* dst only, same shape; NULL otherwise */
} emu_trace_opnd;

typedef struct emu_trace_rec {
  uint64_t seq;            /* 0, 1, ... in execution order over the launch */
  uint32_t wg[3], wave;
  uint32_t wg_index;       /* linear workgroup index (x fastest) */
  uint32_t step;           /* the wave's instruction count since its last barrier */
  uint32_t interval;       /* barriers the workgroup had passed */
  uint64_t pc, exec;
  char *text, *mnem;
  char *src;               /* "FILE:LINE" of pc, NULL without debug info */
  size_t nop;
  emu_trace_opnd op[6];
  /* memory operations: per lane (EXEC lanes only; others 0) address and bytes, up to two
   * accesses per lane (ds_read2/ds_write2) */
  char space;              /* 0 none, 'l' LDS, 'g' global */
  char access;             /* 'r', 'w', 'a' */
  uint32_t bytes;
  int naddr;               /* 0, 1 or 2 */
  uint64_t addr[2][64];
  /* loads to LDS (buffer_load_* lds, global_load_lds_*): space 'g', access 'r' above is the
   * global read; each EXEC lane also writes lds_bytes bytes of LDS at lds_addr[lane] */
  uint32_t lds_bytes;      /* 0: not a load to LDS */
  uint64_t lds_addr[64];
} emu_trace_rec;

emu_observer *emu_observer_new(void);
void emu_observer_free(emu_observer *o);
void emu_observer_racecheck(emu_observer *o, bool global);
void emu_observer_initcheck(emu_observer *o);
/* Mark device range [addr, addr+size) as not initialized by the host (out: buffers). */
void emu_observer_uninit(emu_observer *o, uint64_t addr, uint64_t size);
/* Trace SPEC (docs/trace.md): SEL[,SEL...][@FILTER[,FILTER...]]; SEL is a mnemonic glob
 * ("ds_read*", "v_mfma*", "*") or pc=LO[-HI]; FILTER is wg=N[-M] (linear index), wave=N[-M],
 * first=N (instances in all). max_records caps what is kept (0 = 4096); past it the trace is
 * marked truncated. false and LL_EXIT_USAGE naming the bad part. */
bool emu_observer_trace(emu_observer *o, const char *spec, size_t max_records, ll_err *err);
/* emu_observer_uninit for a runtime that tracks initialization across launches (hip/): bits, the
 * caller's bitmap of the bytes already initialized (bit i % 8 of bits[i / 8] is byte addr + i;
 * (size + 7) / 8 bytes), is read and updated in place by the launches of this observer as their
 * writes initialize bytes, so after a launch it holds the state the next one starts from. It stays
 * the caller's: the observer never frees it, and the caller must not touch it during a launch. No
 * copy is made (a 128 MB buffer's bitmap is 16 MB, which copying in and out took at each launch). */
void emu_observer_uninit_in_place(emu_observer *o, uint64_t addr, uint64_t size, uint8_t *bits);
/* heapcheck: [addr, addr + size) is the device heap, whose bytes a kernel may touch only inside the
 * blocks malloc handed out and free has not taken back: bit i % 8 of live[i / 8] set for byte
 * addr + i (the caller's bitmap: runtime/rt_hostcall.c keeps it from the heap markers; read, never
 * written, during a launch). Any access (load, store, atomic; vector or scalar) to a byte of the
 * range whose bit is clear is a finding, EMU_HZ_HEAP (a use after free, past a block's end, between
 * blocks), unless the instruction lies in one of the code object's device-library functions
 * (__ockl_*: ockl's allocator keeps its slabs' state in the heap itself). The check changes nothing
 * the machine does; the access proceeds. */
void emu_observer_heap(emu_observer *o, uint64_t addr, uint64_t size, const uint8_t *live);
/* The hazard reports, one per kind, space and PC pair, with their byte conflicts counted; each
 * names the pair met first in grid order, and they are listed in that order, whatever the number
 * of worker threads (the same reports as a one-thread run). At most 256 are kept: the byte
 * conflicts of the rest (the latest in that order) are emu_observer_hazards_dropped's. */
size_t emu_observer_nhazards(const emu_observer *o);
const emu_hazard *emu_observer_hazard(const emu_observer *o, size_t i);
uint64_t emu_observer_hazards_dropped(const emu_observer *o);
size_t emu_observer_ntrace(const emu_observer *o);
const emu_trace_rec *emu_observer_trace_rec(const emu_observer *o, size_t i);
bool emu_observer_trace_truncated(const emu_observer *o);
/* Forget hazards and trace records (keeps the configuration), for another launch. */
void emu_observer_reset(emu_observer *o);

/* ---- 5. fidelity (emu/fidelity.c; docs/fidelity.md) --------------------------------------------
 * How much of a run rests on semantics AMD's documents fix, and how much on choices lanelab made
 * where they are silent (docs/emulator-choices.md "Stated choices: index"; each choice's id is the
 * anchor of its row there). Every decoded instruction carries the set of choices it rests on
 * (emu_insn_info.choices: from its op row and its modifiers); a launch sums its executed counts per
 * choice (emu_launch_stats). Choice 0 is "none". */
typedef struct emu_choice {
  const char *id;           /* "mfma-accumulation": stable, the anchor in docs/emulator-choices.md */
  const char *title;        /* one line */
} emu_choice;
size_t emu_choice_count(void);           /* choices 1..count-1 exist */
const emu_choice *emu_choice_get(size_t c);
/* Several launches summed (lanelab run, exec, verify): add each launch's stats, then print the
 * line. kernel names the launch in the examples (may be NULL). */
typedef struct emu_fidelity {
  uint64_t launches, insns, choice_insns;
  uint64_t count[EMU_MAX_CHOICES];
  char example[EMU_MAX_CHOICES][160];  /* first instruction seen per choice: "KERNEL 0xPC: TEXT" */
} emu_fidelity;
void emu_fidelity_add(emu_fidelity *f, const emu_launch_stats *s, const char *kernel);
/* The one fidelity line (no newline), e.g.
 *   "fidelity: 1200 instructions executed, none rests on a stated choice"
 *   "fidelity: 1200 instructions executed, 64 (5.3%) rest on stated choices: mfma-accumulation 64
 *    (docs/emulator-choices.md)" */
void emu_fidelity_format(const emu_fidelity *f, char *buf, size_t n);
/* --strict-fidelity: false when no executed instruction rested on a choice; else true, and buf
 * holds one line per choice: "ID (TITLE): N instructions, first KERNEL 0xPC: TEXT". */
bool emu_fidelity_strict(const emu_fidelity *f, char *buf, size_t n);
/* Every launch of the process adds itself to one process-wide total (thread-safe), whether or not
 * its caller asked for stats: the hook for commands that launch through layers they do not
 * control (lanelab verify, lanelab exec's HIP runtime). _process copies the total since the start
 * or the last _process_reset. */
void emu_fidelity_process(emu_fidelity *out);
void emu_fidelity_process_reset(void);

/* ---- throughput (emu/bench.c) -----------------------------------------------------------------
 * Runs BUILD_DIR/gfx950/kernels/bench_valu_ds.co and bench_mfma.co on one core and on all cores
 * and prints wave-instructions/s and MFMAs/s to out. LL_EXIT_OK, LL_EXIT_FAIL if a run faulted or
 * MFMA has no semantics yet (said loudly), LL_EXIT_ENV if the kernels are not built. */
int emu_bench(FILE *out, const char *build_dir);

#endif
