/* emu/internal.h — private contract between the emulator's decoder, executor and the per-family
 * semantics files. Not part of the public API (emu/emu.h).
 *
 * How the pieces fit:
 *   decode.c  LLVM's MC disassembler turns bytes into LLVM's canonical text, once per instruction;
 *             the text is parsed into an emu_insn (operands resolved to register-file indices,
 *             modifiers to fields) and the handler is looked up by mnemonic in the op table.
 *   exec.c    the scheduler: runs waves, workgroups and the grid:
 *             `in = &insns[w->ip++]; rc = in->fn(w, in);` — no LLVM, no allocation.
 *   op_*.c    one file per family; each handler is a few lines, cites the ISA section, and uses
 *             the shared operand helpers below (inline constants, literals, abs/neg, SDWA/DPP,
 *             writes under EXEC, clamp/omod are never repeated per opcode).
 *   operand.c the operand helpers' out-of-line cases; addr.c global/LDS addresses to host
 *             pointers; waitcnt.c the s_waitcnt model (outstanding operations, the hazard check);
 *             fault.c fault and memory-model warning records; lds_access.c an instruction's LDS
 *             access, described at decode.
 * Files call each other one way (mk/check-arch.sh --objs build/obj emu): exec.c calls the decoder,
 * the observer and the files the handlers use, and within emu/ only bench.c calls exec.c; the
 * handlers call operand.c, addr.c, waitcnt.c and fault.c, which never call a handler or the
 * scheduler (docs/architecture.md "Module map" lists every file and what it calls).
 *
 * Op tables. emu/ops.def is an X-macro with one row per mnemonic (without the _e32/_e64/_sdwa/
 * _dpp encoding suffix): EMU_OP(mnemonic, handler, flags). Families owned by another author
 * (MFMA in op_mfma.c, cross-lane ops/DPP/transposing reads in op_xlane.c) publish their own
 * table, emu_optab_mfma[] / emu_optab_xlane[] (terminated by a {NULL} row), so they can be written
 * without touching ops.def; the decoder merges all tables at first use (a mnemonic defined twice is
 * a startup error naming it).
 *
 * Writing a handler:
 *   int emu_op_v_add_u32(emu_wave *w, const emu_insn *in)
 *   {  // CDNA3 ISA "VOP2 Instructions": D = S0 + S1
 *     uint32_t t0[64], t1[64], d[64];
 *     const uint32_t *a = emu_src32(w, in, 1, t0), *b = emu_src32(w, in, 2, t1);
 *     for (int l = 0; l < 64; l++) d[l] = a[l] + b[l];
 *     emu_dst32(w, in, 0, d);
 *     return EMU_OK;
 *   }
 * Operand i is the i-th comma-separated operand of LLVM's text (so for VALU ops operand 0 is the
 * destination, for VOPC operand 0 is the SGPR-pair/VCC result). A handler returns EMU_OK, or
 * `return emu_raise(w, in, kind, lane, addr, fmt, ...)` which records the fault and returns
 * EMU_FAULT. Cross-lane handlers read every source lane into a temporary before writing any
 * destination (the helpers return pointers into the register file for plain VGPR sources, so a
 * handler that writes its destination lane by lane while reading another lane must copy first).
 */
#ifndef LANELAB_EMU_INTERNAL_H
#define LANELAB_EMU_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <string.h>
#include "emu/emu.h"

#define EMU_LANES 64
#define EMU_NVGPR 512 /* unified VGPR+AGPR file on gfx90a+ (CDNA3 ISA "Kernel State": unified VGPR file; AGPRs from accum_offset) */

/* Scalar file indexed by the hardware's SSRC/SDST operand encoding (CDNA3 ISA "Microcode Formats",
 * "SSRC encoding"): s0..s101, then specials. EXEC and VCC live in it, so a 64-bit read of
 * s[126:127] is EXEC. */
enum {
  EMU_NSGPR_GP = 102,
  EMU_S_FLAT_SCR = 102, /* flat_scratch_lo/hi 102, 103 */
  EMU_S_XNACK = 104,    /* xnack_mask_lo/hi 104, 105 */
  EMU_S_VCC = 106,      /* vcc_lo 106, vcc_hi 107 */
  EMU_S_TTMP = 108,     /* ttmp0..15: 108..123 */
  EMU_S_M0 = 124,
  EMU_S_EXEC = 126,     /* exec_lo 126, exec_hi 127 */
  EMU_NSFILE = 128,
};

/* ---- operands -------------------------------------------------------------------------------*/
typedef enum {
  EMU_OPK_NONE = 0,
  EMU_OPK_SGPR,   /* reg = scalar-file index (s0..s101 and the specials above), n = dwords */
  EMU_OPK_VGPR,   /* reg = VGPR index, n = dwords */
  EMU_OPK_AGPR,   /* reg = AGPR index (file index accum_offset + reg), n = dwords */
  EMU_OPK_IMM,    /* inline integer -16..64 (ival) */
  EMU_OPK_FIMM,   /* inline float constant: hw code 240..248 in reg (0.5,-0.5,1,-1,2,-2,4,-4,1/2pi) */
  EMU_OPK_LIT,    /* literal constant (ival: the 32-bit literal, or the printed 64-bit value) */
  EMU_OPK_SCC,    /* "scc" / "src_scc" */
  EMU_OPK_EXECZ,  /* src_execz */
  EMU_OPK_VCCZ,   /* src_vccz */
  EMU_OPK_APERT,  /* src_shared_base/limit, src_private_base/limit (reg = 235..238) */
  EMU_OPK_OFF,    /* "off" (no address register / no saddr) */
  EMU_OPK_FUNC,   /* hwreg(...), sendmsg(...), gpr_idx(...): text kept, args in fn_args */
  EMU_OPK_LABEL,  /* a branch target printed as a decimal word offset (ival) */
} emu_opk;

/* operand modifier bits (emu_opnd.mods) */
enum {
  EMU_M_NEG = 1,     /* "-x" */
  EMU_M_ABS = 2,     /* "|x|" */
  EMU_M_SEXT = 4,    /* "sext(x)" (SDWA integer) */
  EMU_M_NEGFN = 8,   /* printed "neg(x)" rather than "-x" */
  EMU_M_ABSFN = 16,  /* printed "abs(x)" rather than "|x|" */
  EMU_M_HEX = 32,    /* an integer printed in hex */
  EMU_M_LIT = 64,    /* a literal printed "lit(x)": forced into the literal dword though an inline constant could encode it */
};

typedef struct emu_opnd {
  uint8_t kind;   /* emu_opk */
  uint8_t n;      /* dwords (registers); 1 for constants */
  uint8_t mods;   /* EMU_M_* */
  uint8_t nfn;    /* FUNC: number of args */
  uint16_t reg;   /* register index (see kinds) */
  uint16_t fn;    /* FUNC: index of the interned text */
  int64_t ival;   /* IMM / LIT / LABEL value */
} emu_opnd;

/* ---- modifiers (the space-separated words after the operands) -------------------------------*/
typedef enum {
  EMU_MF_FLAG = 0,   /* "offen" */
  EMU_MF_DEC,        /* "offset:16" */
  EMU_MF_HEX,        /* "row_mask:0xf" */
  EMU_MF_LIST,       /* "op_sel:[0,1]" */
  EMU_MF_IDENT,      /* "dst_sel:WORD_1" (value = index into emu_mod_idents) */
  EMU_MF_PAREN,      /* "vmcnt(0)" */
  EMU_MF_FUNC,       /* "offset:swizzle(SWAP,1)" (value = index of the interned "swizzle(...)") */
} emu_modform;

typedef struct emu_mod {
  uint16_t name;     /* index into the interned modifier-name table */
  uint8_t form;      /* emu_modform */
  uint8_t nlist;
  int32_t val;       /* DEC/HEX/IDENT/PAREN value; LIST: unused */
  uint8_t list[8];   /* LIST values */
} emu_mod;

#define EMU_MAXOPND 6
#define EMU_BLK_HZ 6        /* emu_insn.blk_hzw entries */
#define EMU_BLK_HZ_ALL 0xff /* emu_insn.blk_hzn: more words than that */
#define EMU_MAXMOD 8

/* Encoding as named by LLVM's mnemonic suffix */
enum { EMU_ENC_NONE = 0, EMU_ENC_E32, EMU_ENC_E64, EMU_ENC_SDWA, EMU_ENC_DPP };

/* SDWA selects (CDNA3 ISA "SDWA" operand selects): BYTE_0..3 = 0..3, WORD_0/1 = 4/5, DWORD = 6 */
enum { EMU_SEL_BYTE0 = 0, EMU_SEL_WORD0 = 4, EMU_SEL_WORD1 = 5, EMU_SEL_DWORD = 6 };
/* dst_unused: UNUSED_PAD 0, UNUSED_SEXT 1, UNUSED_PRESERVE 2 */

/* DPP control as the hardware encodes it (DPP_CTRL, CDNA3 ISA "DPP" microcode format): quad_perm 0x000-0x0ff,
 * row_shl 0x101-0x10f, row_shr 0x111-0x11f, row_ror 0x121-0x12f, wave_shl 0x130, wave_rol 0x134,
 * wave_shr 0x138, wave_ror 0x13c, row_mirror 0x140, row_half_mirror 0x141, row_bcast15 0x142,
 * row_bcast31 0x143, row_newbcast:n 0x150+n. */

typedef struct emu_insn emu_insn;
typedef struct emu_wave emu_wave;
typedef int (*emu_handler)(emu_wave *w, const emu_insn *in);

enum { EMU_OK = 0, EMU_FAULT, EMU_BARRIER, EMU_END };

/* emu_insn.lk: how an instruction touches LDS. DS: per-lane address VGPR + offset (DS2: the two
 * accesses of ds_read2 / ds_write2 and their st64 forms); LOADLDS: a load to LDS (buffer_load_* lds, global_load_lds_*),
 * an LDS write at the M0-based destination (emu_load_lds_dest); FLAT: a flat access, LDS when its
 * address is in the LDS aperture. */
enum { EMU_LK_NONE = 0, EMU_LK_DS, EMU_LK_DS2, EMU_LK_LOADLDS, EMU_LK_FLAT };
/* emu_insn.vmf: a described access, its family, and whether it loads to LDS */
enum { EMU_VMF_OK = 1, EMU_VMF_BUFFER = 2, EMU_VMF_FLAT = 4, EMU_VMF_TO_LDS = 8 };

struct emu_insn {
  emu_handler fn;        /* never NULL: unimplemented instructions get emu_op_unimplemented */
  /* What the run-ahead loop (emu/exec.c rr_ahead) and the runner (emu/fuse.c) read for every
   * record, next to fn so that a record's first cache line or two hold them: placed further on
   * (a record is some 740 bytes), each block start and run start touched two more lines. */
  /* a run of integer lane operations starting here (emu/fuse.c, emu_fuse_prepare): fuse_n records
   * the run-ahead loop may execute as one step (0: not such an op); the compact form: fz_op,
   * fz_dst, fz_src (VGPR indices), fz_uni bit j when source j is uniform (read by emu_ssrc32) */
  uint8_t fuse_n, fz_op, fz_uni;
  /* emu/jit.c: how many records from here the translated code in jit runs, or, jit being EMU_JIT_NONE,
   * how many the runner runs before it looks for code again (set once, under emu/jit.c's lock) */
  uint8_t jit_n;
  /* that code's last SCC writer (a lane-mask scalar operation): its destination pair's first SGPR + 1,
   * whose value != 0 is SCC after the code (emu_jit_try); 0 none */
  uint8_t jit_scc;
  /* emu/jit.c traces: the most records the trace from here (emu_insn.tr) runs */
  uint8_t tr_max;
  uint16_t fz_dst, fz_src[3];
  /* uniform source j of a run's record (fz_uni bit j): an SGPR's number (fz_sg bit j) or the value
   * emu_ssrc32 reads for a constant, in fz_k[j], fixed at decode (issue #31, seventh stop) */
  uint32_t fz_k[3];
  uint8_t fz_sg;
  /* the same record pre-resolved for the runner (issue #31, eighth stop): fz_case the runner's
   * case (from fz_op and fz_uni; 32 bits: a narrower one costs a zero extension per record), fz_off
   * the byte offsets in the wave's VGPR file of the destination and of the three sources (fz_dst,
   * fz_src times a register's 256 bytes) */
  uint32_t fz_case;
  uint32_t fz_off[4];
  /* the straight-line block starting here (emu/decode.c block_prepare, emu/exec.c rr_ahead): how many
   * records from this one the run-ahead loop may execute after one check of budget, hazards,
   * VSKIP and VGPR indexing; 0 for an event (sched_ev) other than s_waitcnt, which a block of a
   * workgroup of several waves runs inside it (emu/decode.c block_prepare) */
  uint8_t blk_n;
  /* how many of that block's records come before its first s_waitcnt (blk_n when it has none): the
   * run-ahead loop stops there while the wave has an LDS write that the LDS ordering check has not
   * seen retired (such a wait must take its turn among the other waves' accesses) */
  uint8_t blk_wn;
  /* how many of that block's records come before its first LDS read (blk_n when it has none): the
   * run-ahead loop stops there unless no other wave of the workgroup can write LDS before the read
   * (emu/exec.c rr_quiet; else the read takes its turn among the other waves' accesses) */
  uint8_t blk_rn;
  /* from this record on, the wave may write LDS before it reaches an s_barrier (emu/decode.c
   * reach_prepare: any path through the program's branches, an LDS write, atomic, load to LDS or an
   * instruction of unknown effect on it; an indirect branch counts as reaching one) */
  uint8_t ldsw;
  /* the same for the memory outside LDS (emu/decode.c gmem_writer: any event that may write it) and
   * the block's records before its first global load (emu/decode.c gl_inblock), where the run-ahead
   * loop stops unless no other wave of the workgroup can write that memory before its next barrier */
  uint8_t gmw, blk_gn;
  /* some record of that block starts a run of lane operations (fuse_n >= 1: a run of one counts); clear, the
   * run-ahead loop runs the block without looking for runs */
  uint8_t blk_fz;
  /* the union of hz_* over that block (the whole chain from here when it is cut at 255 records):
   * blk_hzk the kinds, blk_hzw/blk_hzm its distinct map words and their bits, blk_hzn how many
   * (EMU_BLK_HZ_ALL when more than EMU_BLK_HZ: no union, check every record). No pending register
   * in the union, none in any record: the run-ahead loop checks the block once (emu/exec.c
   * rr_ahead; issue #31, seventh stop, second round) */
  uint8_t blk_hzk, blk_hzn;
  uint8_t blk_hzw[6];
  /* an event (sched_ev) a wave alone in its workgroup runs inside its run-ahead loop, through the
   * same steps as the careful one (emu/exec.c rr_ahead solo): memory (LDS, global, scalar) and
   * s_waitcnt, which return EMU_OK or a fault; not s_barrier, s_endpgm, unknown families */
  uint8_t solo_ev;
  /* the run from here translated to machine code (emu/jit.c): NULL not yet, EMU_JIT_NONE none;
   * written once with release order, read with acquire */
  void *jit;
  /* the trace from here (emu/jit.c emu_trace_get): runs joined across the guards of masked code;
   * NULL not yet, EMU_JIT_NONE none; published as jit is */
  void *tr;
  uint64_t blk_hzm[6];
  uint64_t pc;
  uint32_t size;
  int32_t target;        /* branch target as an instruction index, -1 if none/outside */
  uint16_t op;           /* index into the merged op table, 0xffff = unknown mnemonic */
  uint32_t flags;        /* the op table row's EMU_F_* flags (0 if unknown) */
  uint8_t enc;           /* EMU_ENC_* */
  uint8_t nop, nmod;
  uint8_t src0i;         /* operand index of src0 (1, or 2 after a carry-out SGPR destination) */
  bool parsed;           /* the whole text was understood */
  uint8_t sched_ev;      /* runs at its round-robin turn (memory, s_barrier, s_endpgm, unknown; emu/exec.c
                            run_rr): every other instruction touches only its wave's registers */
  bool implemented;
  emu_opnd o[EMU_MAXOPND];
  emu_mod mod[EMU_MAXMOD];
  /* modifiers decoded for execution (defaults when absent) */
  uint8_t clamp, omod;   /* omod: 0 none, 1 mul:2, 2 mul:4, 3 div:2 */
  uint8_t op_sel, op_sel_hi, neg_lo, neg_hi; /* bit i = source i (op_sel bit 3 = dst) */
  bool offen, idxen, sc0, sc1, nt, glc, slc, lds, gds, has_op_sel_hi;
  int32_t offset;        /* memory offset (DS/FLAT/GLOBAL/BUFFER/SMEM offset:) */
  uint8_t offset0, offset1;
  uint8_t cbsz, abid, blgp;
  uint8_t neg;            /* "neg:[a,b,c]" (the f64 MFMA's BLGP field, CDNA3 ISA §7.1.5.3): bit i = operand i */
  uint8_t bitop3;         /* v_bitop3 truth table */
  /* SDWA */
  uint8_t dst_sel, dst_unused, src0_sel, src1_sel;
  /* DPP */
  uint16_t dpp_ctrl;
  uint8_t row_mask, bank_mask;
  bool bound_ctrl, fi;
  /* s_waitcnt (-1 = not waited on) */
  int8_t vmcnt, expcnt, lgkmcnt;
  /* s_waitcnt hazard filter (emu_hazard_possible, emu/waitcnt.c): bit k set when an operand of register kind k (1 VGPR,
   * 2 AGPR, 3 SGPR) is named; the registers the operands name as hz_n words of the pending-register
   * bit map (emu_wave.pbits, flattened: hz_word = kind * 9 + reg / 64) with the bits in hz_mask,
   * one entry per distinct word (at most 2 per operand) */
  uint8_t hz_kinds, hz_n;
  uint8_t hz_word[2 * EMU_MAXOPND];
  uint64_t hz_mask[2 * EMU_MAXOPND];
  /* LDS access of the instruction, from its mnemonic at decode (emu/lds_access.c
   * emu_lds_access_prepare; used by the LDS ordering check and racecheck): lk is EMU_LK_*, lop
   * 'r'/'w'/'a', lbytes bytes per lane and access, lai the address operand (DS), loff0/loff1 the
   * byte offsets of the one or two accesses (DS) */
  uint8_t lk, lop, lbytes, lai;
  uint32_t loff0, loff1;
  /* the vector-memory form of a buffer_, flat_ or global_ load, store or atomic, from its mnemonic
   * at decode (emu/lds_access.c emu_vm_form_prepare; the observer's classify reads it): vmf the
   * EMU_VMF_* bits (0: none such), vmop 'r'/'w'/'a', vmbytes bytes per lane */
  uint8_t vmf, vmop, vmbytes;
  /* a handler specialised at decode (emu/op_vop3p.c emu_vop3p_specialise): VGPR numbers of the
   * destination (sp_reg[0][0]) and of each source's low and high dwords (sp_reg[1 + j][0..1]),
   * sp_uni bit j when source j is an SGPR or a constant instead (sp_sgpr bit j: an SGPR pair, whose
   * SGPR numbers sp_reg[1 + j] then holds), sp_hi_first when the high half must be written first */
  uint16_t sp_reg[4][2];
  uint8_t sp_uni, sp_sgpr, sp_hi_first;
  /* neg_lo / neg_hi of the specialised v_pk_fma_f32 as sign masks, sp_nm[h][j] for half h (0 low,
   * 1 high) and source j (0 or 0x80000000), in the order its halves run (sp_hi_first applied);
   * sp_neg when any is set: only the host-FMA path (emu_avx2) takes those records, the C loops
   * leave them to the general handler */
  uint32_t sp_nm[2][4];
  uint8_t sp_neg;
  /* the same record's operands as byte offsets, in the order its halves run: sp_off[h][j] of source
   * j's dwords from w->v (a VGPR) or from w->pk_fill (sp_uni bit j), sp_off[h][3] of the
   * destination's from w->v; sp_kv[j]: a constant source's two dwords (high << 32 | low) */
  uint32_t sp_off[2][4];
  uint64_t sp_kv[3];
  uint8_t sp_kvb;        /* bit j: sp_kv[j] holds source j */
  uint8_t sp_var;        /* the FMA host's form to run (emu_op_v_pk_fma_f32_sp) */
  uint8_t sp_mul;        /* the record is a v_pk_mul_f32 (sources 0 and 1 only, no neg) */
  /* a scalar ALU record specialised at decode (emu/op_salu.c emu_salu_specialise): the SGPR numbers
   * of its destination and sources (ss_d, ss_a, ss_b) and its constant source's value (ss_k, as
   * emu_ssrc32 / emu_ssrc64 read it) */
  uint16_t ss_d, ss_a, ss_b;
  uint64_t ss_k;
  uint64_t choices;      /* stated choices it rests on (emu_insn_choices), for the fidelity report */
  char *text;            /* LLVM's text, without the leading tab */
  char mnem[48];         /* LLVM's mnemonic, with encoding suffix */
  const char *why;       /* if !implemented: why (unknown mnemonic, unknown modifier, ...) */
  /* the same block for a wave alone in its workgroup (emu/decode.c block_prepare, emu/exec.c
   * rr_ahead solo; issue #31, seventeenth stop): LDS reads and writes (no atomics) and s_waitcnt run
   * inside it, not as events; a DS record's block ends before the first record naming its operand 0
   * (a read's destination). blk_sn, blk_sfz and the union blk_sh* as blk_n, blk_fz and blk_hz* */
  uint8_t blk_sn, blk_sfz, blk_shzk, blk_shzn;
  /* a DS record of a solo block whose LDS-counter entry an s_waitcnt lgkmcnt(0) sel records later,
   * in the same solo block, retires (emu/decode.c solo_elide); 0 none. When the block that runs
   * reaches that wait, the entry is not made (emu_wave.nopend): no record between names the
   * entry's registers (the block's cut), and the wait would retire it with every other */
  uint8_t sel;
  /* the same for a block of a workgroup of several waves (emu/decode.c several_elide): an LDS-counter
   * record of such a block (cross-lane, or an LDS read) whose entry the s_waitcnt wsel records later
   * in the block retires, the first that does: lgkmcnt(0), or lgkmcnt(N) with N or more entries
   * younger (such blocks count them exactly); waits between that do not are passed over; 0 none */
  uint8_t wsel;
  uint8_t blk_shzw[EMU_BLK_HZ];
  uint64_t blk_shzm[EMU_BLK_HZ];
};

/* ---- op table -------------------------------------------------------------------------------*/
enum {
  EMU_F_SALU = 1 << 0, EMU_F_SMEM = 1 << 1, EMU_F_VALU = 1 << 2, EMU_F_VOP3P = 1 << 3,
  EMU_F_MFMA = 1 << 4, EMU_F_DS = 1 << 5, EMU_F_VMEM = 1 << 6, EMU_F_BRANCH = 1 << 7,
  EMU_F_XLANE = 1 << 8,  /* cross-lane: reads other lanes */
  EMU_F_GFX950 = 1 << 9, /* exists on gfx950 only (informative; LLVM rejects it on gfx942) */
  EMU_F_CARRY = 1 << 10, /* VALU with an SGPR-pair/VCC second destination (v_add_co_u32 ...) */
  EMU_F_LOAD = 1 << 11,  /* memory op whose operand 0 receives loaded data */
  EMU_F_ATOMIC = 1 << 12,/* memory atomic (returns data into operand 0 when sc0/glc is set; the
                          ds_*_rtn_* forms always return and carry EMU_F_LOAD too) */
  EMU_F_D16Z = 1 << 13,  /* 16-bit result zeroes the high half of the VGPR (gfx9 VOP1/VOP2 16-bit
                            ops; LLVM GCNSubtarget::zeroesHigh16BitsOfDest, "derived from
                            experimentation"); without it the other half is preserved */
  EMU_F_ICLAMP = 1 << 14,/* multi-step integer op whose clamp saturates the exact result once: with
                            clamp it rests on the int-clamp-exact choice */
  EMU_F_NOCLAMP = 1 << 15,/* integer op whose clamp is not modelled: refused at decode */
  /* bits 16..31: stated choices the row rests on (EMU_F_C below) */
};

/* Stated choices (docs/emulator-choices.md, "Stated choices: index"; docs/fidelity.md): semantics
 * no AMD document fixes, so lanelab chose them. An op row names the choices its semantics always
 * rest on with EMU_F_C(x) in bits 16..31 of its flags (one bit per choice, so only choices 1..16 can
 * be named by a row); emu/fidelity.c adds those that depend on an instruction's modifiers or
 * operands (omod, clamp, DPP, ...). Ids and titles: emu/fidelity.c; public side: emu.h part 5. */
enum {
  EMU_CH_NONE = 0,
  /* row-tagged (1..16) */
  EMU_CH_TRANSCENDENTAL, /* transcendental-rounding */
  EMU_CH_MAD_F16,        /* mad-f16-precision */
  EMU_CH_SCALE_E8M0,     /* scale-e8m0-mantissa */
  EMU_CH_FP4_FP6_SAT,    /* fp4-fp6-nan-saturate */
  EMU_CH_FP6_BLOCK,      /* fp6-block-order */
  EMU_CH_SR,             /* stochastic-rounding */
  EMU_CH_CVT_U8,         /* cvt-u8 */
  EMU_CH_MFMA_ORDER,     /* mfma-accumulation */
  EMU_CH_MFMA_SCALE,     /* mfma-scale-fp8 */
  EMU_CH_SMFMAC,         /* smfmac-index-order */
  EMU_CH_CVT_NORM,       /* cvt-norm */
  EMU_CH_CVT_PK_INT,     /* cvt-pk-int-saturate */
  EMU_CH_D16_HIGH,       /* d16-high-half (also from EMU_F_D16Z, emu/fidelity.c) */
  EMU_CH_CLOCK,          /* clock-counter */
  EMU_CH_LAST_ROW = EMU_CH_CLOCK,
  /* from modifiers and operands (emu/fidelity.c) */
  EMU_CH_DPP_INACTIVE,   /* dpp-inactive-lane */
  EMU_CH_OMOD_IEEE,      /* omod-ieee */
  EMU_CH_CLAMP_SIGN,     /* float-clamp-zero-sign */
  EMU_CH_CVT_F8_OPSEL,   /* cvt-f8-vop3-op-sel */
  EMU_CH_INT_CLAMP,      /* int-clamp-exact */
  EMU_CH_PERMLANE_SAME,  /* permlane-swap-same-register */
  EMU_CH_PERMLANE_FI,    /* permlane-swap-fi-bound-ctrl */
  EMU_CH_LDS_DMA,        /* lds-dma-at-issue */
  EMU_CH_MFMA_F8,        /* mfma-f8f6f4-fp8-layout */
  EMU_CH_PRIVATE,        /* private-memory */
  EMU_CH_ATOMIC_FMINMAX, /* atomic-float-min-max */
  EMU_CH_N
};
/* the per-wave instruction budget a launch with these options gives each wave */
static inline uint64_t emu_launch_budget(const emu_launch_opts *o) { return (o && o->insn_budget) ? o->insn_budget : 50000000ull; }
#define EMU_F_C(x) (1u << (15 + (x))) /* x in 1..EMU_CH_LAST_ROW (<= 16) */
/* The choices a decoded instruction rests on, as bits 1 << EMU_CH_* (0: none); the reason the
 * record alone shows it would be refused (a modifier its handler does not model), NULL if none. */
uint64_t emu_insn_choices(const emu_insn *in);
const char *emu_insn_static_refusal(const emu_insn *in);
/* After a launch (emu/exec.c): all[i] = executions of instruction i. Adds the launch to the
 * process's fidelity total (emu_fidelity_process) and, when stats is not NULL, fills its
 * choice_* fields. */
void emu__fidelity_launch(const emu_program *prog, const uint64_t *all, const char *kernel,
                          emu_launch_stats *stats);

typedef struct emu_opdef {
  const char *name;      /* mnemonic without encoding suffix */
  emu_handler fn;
  uint32_t flags;
} emu_opdef;

extern const emu_opdef emu_optab_mfma[];  /* op_mfma.c, {NULL} terminated */
extern const emu_opdef emu_optab_xlane[]; /* op_xlane.c, {NULL} terminated */

/* Merged table, built once (thread-safe). */
size_t emu_ops_count(void);
const emu_opdef *emu_ops_get(size_t i);

/* emu/kname.c: the C++-name half of emu_codeobj_kernel (called when no symbol is `name`); sets
 * the not-found and ambiguity errors. */
const emu_kernel *emu__kernel_by_cxx_name(const emu_codeobj *co, const char *name, ll_err *err);
/* each line-number unit's offset in .debug_line and its file map (unit file index -> line_files
 * index, UINT32_MAX none), kept by emu__read_lines for emu__read_inlines */
typedef struct emu_line_units {
  struct emu_line_unit { uint64_t off; uint32_t *fmap; size_t nf; } *u;
  size_t n;
} emu_line_units;
/* emu/dwarf.c: co->lines and co->line_files from .debug_line (.debug_line_str, .debug_str for
 * the names; cd, may be NULL, the DWARF 2-4 units' compilation directories: relative paths are
 * joined to the compilation directory, as DWARF 5 and 4 section 6.2.4 define them), and each unit's
 * file map into lu; why[0] != 0 when the table was malformed (then no
 * rows are kept, nor maps). */
struct emu_comp_dirs;
void emu__read_lines(emu_codeobj *co, const uint8_t *line, size_t nline, const uint8_t *line_str, size_t nline_str,
                     const uint8_t *str, size_t nstr, const struct emu_comp_dirs *cd, emu_line_units *lu, char *why,
                     size_t whyn);
void emu__line_units_free(emu_line_units *lu);
/* emu/dwarf.c: co->inl and co->inl_sites, the inlined calls around each address, from
 * .debug_info's DW_TAG_inlined_subroutine entries (their ranges from .debug_rnglists /
 * .debug_ranges and .debug_addr, their call sites through lu); why[0] != 0 when unreadable (then
 * none are kept) */
typedef struct emu_dbg_secs {
  const uint8_t *info, *abbrev, *rnglists, *ranges, *addr, *str, *line_str;
  size_t ninfo, nabbrev, nrnglists, nranges, naddr, nstr, nline_str;
} emu_dbg_secs;
/* emu/dwarf.c: each DWARF 2-4 compilation unit's line table (DW_AT_stmt_list, an offset in
 * .debug_line) and its compilation directory (DW_AT_comp_dir), which such a line table leaves out
 * (its directory 0); the strings point into the sections. Read from each unit's first entry only; a
 * unit that cannot be read gives none (its paths stay as the table writes them). */
typedef struct emu_comp_dirs {
  struct emu_comp_dir { uint64_t line_off; const char *dir; } *v;
  size_t n;
} emu_comp_dirs;
void emu__comp_dirs(const emu_dbg_secs *s, emu_comp_dirs *cd);
void emu__read_inlines(emu_codeobj *co, const emu_dbg_secs *s, const emu_line_units *lu, char *why, size_t whyn);
int emu_ops_find(const char *name); /* -1 if absent */

int emu_op_unimplemented(emu_wave *w, const emu_insn *in);

/* A handler's name where it is defined: the name itself, or the name with _avx2 appended in
 * emu/op_avx2.c, which compiles the VALU families (op_valu.c, op_vop3p.c, op_cvt.c) a second time
 * for AVX2; emu__ops_avx2 then puts those twins in the op table when emu_avx2 is set. */
#ifndef EMU_H
#define EMU_H(f) f
#endif
/* The fused multiply-add lane loops of those files: an FMA clone beside the default build, or in
 * emu/op_avx2.c (whose twins run only where the CPU has FMA) the FMA build alone. */
#ifndef EMU_FMA_CLONES
#define EMU_FMA_CLONES __attribute__((target_clones("fma", "default")))
#endif
/* Decode-time specialisation of packed f32 instructions (emu/op_vop3p.c): in->fn replaced by a
 * handler for the form the record has, when it has one. */
void emu_vop3p_specialise(emu_insn *in);
/* Decode-time specialisation of scalar ALU instructions (emu/op_salu.c): the common 32-bit adds,
 * subtracts and compares and the 64-bit bitwise operations with SGPR and integer-constant operands
 * get a handler with their register numbers and constant fixed (ss_*); others keep theirs. */
void emu_salu_specialise(emu_insn *in);
int emu_op_v_pk_fma_f32_sp(emu_wave *w, const emu_insn *in); /* the specialised v_pk_fma_f32 */
int emu_op_v_pk_mul_f32_sp(emu_wave *w, const emu_insn *in); /* the specialised v_pk_mul_f32 */
/* Replace rows 0..n-1 of the op table (ops.def's order) by their AVX2 twins where one exists
 * (emu/op_avx2.c; a no-op where that file has nothing to compile). */
void emu__ops_avx2(emu_opdef *ops, size_t n);

/* declarations of every handler named in ops.def */
#define EMU_OP(name, fn, flags) int fn(emu_wave *w, const emu_insn *in);
#include "emu/ops.def"
#undef EMU_OP

/* ---- programs -------------------------------------------------------------------------------*/
struct emu_program {
  emu_arch arch;
  emu_insn *insns;
  size_t n;
  emu_insn_info *info;
  uint64_t vaddr, size;
  uint32_t max_vgpr, max_agpr, max_sgpr; /* highest register index referenced + 1 */
  uint32_t *choice_ix;   /* the indices of the records that rest on stated choices (emu_insn.choices), ascending */
  size_t nchoice;
};
/* Index of the instruction at pc, -1 if none starts there. */
long emu_program_index(const emu_program *p, uint64_t pc);
/* The record's vector-memory form (emu_insn.vmf, vmop, vmbytes) from name, its op-table row's;
 * called by the decoder once the row is known (emu/lds_access.c). */
void emu_vm_form_prepare(emu_insn *in, const char *name);
/* The record's LDS access descriptor (emu_insn.lk ...) from its mnemonic (name: the op-table
 * row's) and modifiers; called by the decoder once the handler and flags are known
 * (emu/lds_access.c). */
void emu_lds_access_prepare(emu_insn *in, const char *name);
/* Bytes per lane of a FLAT/GLOBAL/BUFFER access from its mnemonic's suffix (emu/lds_access.c). */
uint32_t emu_vm_bytes(const char *mnem);
/* Print a record back as LLVM's text (tested against llvm-objdump). */
void emu_insn_format(const emu_insn *in, char *buf, size_t n);
/* Decode one instruction's text (no LLVM involved): for tests and for the decoder itself. */
bool emu_insn_parse(const char *text, emu_insn *in);
const char *emu_mod_name(uint16_t i);
/* Parse text and resolve it as the decoder does (handler, modifiers); true if implemented. */
bool emu_insn_prepare(const char *text, emu_insn *in);

/* ---- memory ---------------------------------------------------------------------------------*/
typedef struct emu_membuf {
  uint64_t base, size;
  uint8_t *host;
  char *name;
  bool unshadowed; /* emu_mem_map_unshadowed: --racecheck=global keeps no state for it */
} emu_membuf;
struct emu_mem {
  emu_membuf *b;
  size_t n, cap;
  uint64_t next;
  /* the last EMU_MEM_FREED buffers of emu_mem_map's range unmapped (base, size, name; host NULL),
   * a ring: freed[(freed0 + k) % EMU_MEM_FREED] for k < nfreed, oldest first. A fault in one of
   * their ranges names it as a use after free (emu_mem_freed_at) */
  emu_membuf *freed;
  size_t nfreed, freed0;
};
#define EMU_MEM_FREED 4096
/* The most recently unmapped buffer whose range held addr, or NULL (not one of the last
 * EMU_MEM_FREED unmapped). Addresses emu_mem_map hands out are never reused, so such an address
 * can only be a use of freed memory. */
const emu_membuf *emu_mem_freed_at(const emu_mem *m, uint64_t addr);

/* ---- waves and workgroups --------------------------------------------------------------------*/
/* Counters an outstanding memory operation is tracked by (CDNA3 ISA "S_WAITCNT"): vector memory
 * (vmcnt; loads and stores return in order), LDS (lgkmcnt, in order) and scalar memory (lgkmcnt,
 * may return out of order, so only lgkmcnt(0) is known to retire it). */
enum { EMU_CNT_VM = 0, EMU_CNT_DS = 1, EMU_CNT_SMEM = 2 };
/* The counters' widths on gfx9/CDNA (CDNA3 ISA "S_WAITCNT": VM_CNT is SIMM16[3:0] and [15:14],
 * LGKM_CNT SIMM16[11:8]; LLVM docs/AMDGPU/gfx9_waitcnt.rst: 0..63 and 0..15): at most 63 vector
 * memory and 15 LDS/scalar operations can be counted as outstanding. */
#define EMU_VMCNT_MAX 63
#define EMU_LGKMCNT_MAX 15
/* emu_wave.pring: the rings of vector memory (64 entries), LDS and scalar memory (16 each), each a
 * power of two above its counter's maximum */
#define EMU_PRING_BASE(c) ((c) == EMU_CNT_VM ? 0 : (c) == EMU_CNT_DS ? 64 : 80)
#define EMU_PRING_CAP(c) ((c) == EMU_CNT_VM ? 64 : 16)
#define EMU_PEND_WARNED 4

/* Memory-model warnings of one launch (emu_memwarn): one per PC, reported when the launch ends
 * (emu_warns_report): of a PC's occurrences, the first of the earliest workgroup in grid order
 * (key: the workgroup's linear index << 32 | its own count of warnings so far), so that which one
 * is reported does not depend on how the workers' threads interleave; occurrences in all. */
typedef struct emu_warns {
  pthread_mutex_t mu;
  uint64_t *key;
  emu_fault *ev; /* per PC (ev[i].pc) the occurrence kept, key[i] its key */
  size_t n, cap;
  uint64_t total;
} emu_warns;
/* The launch has ended: each PC's warning through on_warning (or stderr), in key order, those of
 * workgroups past fault_idx (a fault's workgroup; UINT32_MAX: none) left out, since whether those
 * ran at all depends on timing. Returns how many it reported; frees the records. */
size_t emu_warns_report(emu_warns *ws, const emu_launch_opts *o, uint32_t fault_idx);

typedef struct emu_wg {
  const emu_dispatch *d;
  const emu_launch_opts *opts;
  emu_mem *mem;
  const emu_program *prog;
  emu_arch arch;
  uint32_t id[3];
  uint8_t *lds;
  uint32_t lds_size;     /* bytes allocated to this workgroup: group_segment_size + dynamic */
  emu_warns *warns;      /* the launch's memory-model warnings (NULL: each one reported at once, none counted) */
  uint32_t idx;          /* the workgroup's linear index in the grid (emu_warns' key) */
  uint32_t nwarn;        /* its memory-model warnings so far */
  /* the worker's MFMA state (emu/op_mfma.c: converted B operands), made on the worker's first
   * MFMA and freed by emu_mfma_ctx_free when the worker ends, so a process, thread or launch that
   * runs no MFMA pays nothing for it; NULL: none (hand-built waves run without it) */
  struct emu_mfma_ctx **mfma;
  /* a cooperative launch's shared state, NULL for any other launch, and what its s_sleep does
   * (emu/exec.c coop_sleep: reached through the pointer, the semantics files call nothing there) */
  struct emu_coop *coop;
  int (*coop_sleep)(emu_wave *w, const struct emu_insn *in);
  uint32_t nbar;         /* barrier releases so far (emu/exec.c run_wg): a cooperative wave's progress */
  bool coop_abort;       /* the workgroup stopped because another one faulted: its fault is not the launch's */
  bool coop_spin;        /* its waves spin on s_sleep (counted in emu_coop.spinning) */
} emu_wg;
void emu_mfma_ctx_free(struct emu_mfma_ctx *c);
/* A launch worker's memory (emu/wmem.c): at least n bytes, page-aligned, in pages no other
 * allocation shares, contents arbitrary; given back, it waits for the next launch's worker */
typedef struct {
  uint8_t *p;
  size_t len;
} emu_wmem;
emu_wmem emu_wmem_take(size_t n);
void emu_wmem_give(emu_wmem m);

struct emu_wave {
  uint32_t s[EMU_NSFILE];   /* scalar file incl. VCC, EXEC, M0 (hardware indices) */
  bool scc;
  uint32_t ip;              /* index of the next instruction */
  uint32_t *v;              /* VGPR r lane l: v[r * 64 + l] */
  uint32_t *a;              /* AGPR r lane l: a[r * 64 + l] (= v + accum_offset * 64) */
  uint32_t nv, na;          /* registers available */
  uint32_t emask[EMU_LANES];/* 0 or ~0 per lane, mirrors EXEC (refresh with emu_exec_sync) */
  uint64_t emask_of;        /* the EXEC value emask was computed from */
  const emu_insn *insns;
  size_t ninsn;
  emu_wg *wg;
  uint32_t wave_id;         /* within the workgroup */
  uint32_t nlanes;          /* lanes that exist */
  uint64_t budget;          /* instructions left */
  uint64_t *counts;         /* executed count per instruction index, of the current phase:
                               the worker's array + phase * ninsn (see EMU_PHASE_TAG) */
  uint32_t phase;           /* current phase (emu.h EMU_PHASE_TAG; s_ttracedata switches it) */
  uint8_t *phused;          /* the worker's phases in use, bit p (phase 0 always): a phase's counts are
                               zeroed when a wave first enters it (emu_op_s_ttracedata), summed only if used */
  emu_fault *fault;
  /* per-wave translation cache for global memory */
  const emu_membuf *last;
  /* state */
  int state;                /* 0 running, 1 at barrier, 2 ended, 3 faulted */
  bool vskip;               /* s_setvskip: vector instructions are skipped */
  bool gpr_idx;             /* s_set_gpr_idx_on: VGPR indexing by M0 (emu_exec_indexed) */
  /* outstanding memory operations (s_waitcnt validation, see emu_pend): one ring per counter, in
   * issue order, so retiring a counter's oldest moves no entry (emu/waitcnt.c: counter c's i-th
   * oldest is pring[EMU_PRING_BASE(c) + (phead[c] + i) % EMU_PRING_CAP(c)], i < ncnt[c]); ord
   * orders entries of different counters. 16 bytes an entry: what the counter, the in-order
   * sequence number and the map words would add is derived (emu/waitcnt.c) */
  uint8_t ncnt[4];          /* entries per counter (EMU_CNT_*); [3] stays 0, so that one load asks
                               whether any is outstanding (emu_pending) */
  uint8_t phead[3];
  uint32_t pord;            /* ord of the next operation */
  struct {
    uint64_t pc;
    uint32_t ord;           /* pord when issued */
    uint16_t reg;
    uint8_t n;
    uint8_t kw;             /* register kind (emu_regkind) | EMU_PEND_WARNED: emu_hazard_check reported a
                               tolerated pattern on it, not again */
  } pring[64 + 16 + 16];
  uint32_t pbar;            /* pseq[EMU_CNT_DS] when the wave last executed s_barrier: an LDS entry
                               of a higher seq was issued after it (emu_hazard_check) */
  /* per counter (EMU_CNT_VM, EMU_CNT_DS, in-order): operations issued (the last entry's seq) and
   * the seq of the youngest retired. Both return in order, so what has retired is always a prefix:
   * seq <= pret[cnt] is retired, and the live entries' seqs are pret + 1 .. pseq, one each. The LDS
   * ordering check (emu/observe.c) reads them. */
  uint32_t pseq[2], pret[2];
  /* the pending entries' registers per kind (as emu_insn.hz_*): an instruction whose registers miss
   * them all cannot trigger emu_hazard_check. Kept by emu/waitcnt.c: pbits has the bits of every
   * live entry's registers, pkinds bit k while a live entry names kind k (pkc[k] of them); pover: two
   * live entries may name the same register (then retiring rebuilds pbits). */
  uint8_t pkinds, pkc[4];
  bool pover;
  uint64_t pbits[4][9];     /* one bit per register (a spare word at the end; emu_insn.hz_word
                               indexes it flattened) */
  /* emu/op_vop3p.c emu_op_v_pk_fma_f32_sp: source j's uniform dwords spread over the lanes (low,
   * high), valid when pk_ok bit j is set, for the values in pk_key[j] (high << 32 | low) */
  uint32_t pk_fill[3][2][EMU_LANES];
  uint64_t pk_key[3];
  uint8_t pk_ok;
  uint32_t rr_k;            /* round robin (emu/exec.c run_rr): instructions begun since the barrier release */
  uint32_t rr_pos;          /* the step of its next event, or of its fault (state 3) */
  uint8_t nopend;           /* the DS record running makes no LDS-counter entry (emu_insn.sel, emu/exec.c rr_ahead) */
  uint8_t rr_solo;          /* rr_ahead runs the wave alone in its workgroup (its blocks are the solo ones) */
  const struct emu_insn *rr_end; /* the end of the part of the block rr_ahead runs (emu_run_xcall) */
  uint64_t pf_last[64];     /* global loads: lane 0's last address per instruction slot (emu/op_mem.c prefetch;
                               only which lines are prefetched follows from it, so it is kept from wave to
                               wave as gl_buf is, not cleared) */
  uint32_t gl_buf[64];      /* global loads: 1 + the index in wg->mem of the buffer the slot's last whole-wave
                               load read, 0 none (emu/op_mem.c gload_wave; checked there, so any value is safe) */
  /* private (scratch) memory, docs/isa.md "Private memory (scratch)": lane l's segment is
   * priv[l * priv_size, (l + 1) * priv_size) (priv_size = emu_private_size; 0: none) */
  uint8_t *priv;
  uint32_t priv_size;
  /* cooperative launches (emu/exec.c coop_sleep): the wave's last s_sleep, by its budget then
   * and the workgroup's barrier releases then, and how many s_sleeps in a row came close together */
  uint64_t sleep_budget;
  uint32_t sleep_bar, sleep_run;
  /* the calls the wave is in (emu/op_salu.c): the vaddr of each s_swappc_b64 not yet returned from,
   * outermost first, the first EMU_CALLS kept; cdepth counts them all. Read only by the fault
   * record (emu/fault.c "called from"); the machine has no such stack */
  uint64_t calls[8];
  uint32_t cdepth;
};
#define EMU_CALLS 8

/* Register kind of an operand as the s_waitcnt bookkeeping numbers it (emu_wave.pring[].kw,
 * pkinds/pbits, emu_insn.hz_*): 1 VGPR, 2 AGPR, 3 SGPR, 0 not a register. */
static inline int emu_regkind(const emu_opnd *o)
{
  return o->kind == EMU_OPK_VGPR ? 1 : o->kind == EMU_OPK_AGPR ? 2 : o->kind == EMU_OPK_SGPR ? 3 : 0;
}

/* Execute `in` with VGPR indexing mode or VSKIP in effect, through the LDS ordering check and the
 * observer when present (emu/exec.c; rare, off the hot path). */
struct emu_obs_worker;
struct emu_ldso;
int emu_exec_special(emu_wave *w, const emu_insn *in, struct emu_obs_worker *ow, struct emu_ldso *lo);

/* Record a fault and return EMU_FAULT. kind is one of the emu_fault kinds; lane -1 if none
 * (emu/fault.c, as emu_memwarn and emu_op_unimplemented). */
int emu_raise(emu_wave *w, const emu_insn *in, const char *kind, int lane, uint64_t addr,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* A memory-model pattern whose hardware result is undocumented (docs/emulator-choices.md): with
 * the launch's strict_memory a fault of `kind` (returns EMU_FAULT), else a warning reported once
 * per kernel PC and counted (returns EMU_OK; the caller then does the documented fallback). */
int emu_memwarn(emu_wave *w, const emu_insn *in, const char *kind, int lane, uint64_t addr,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static inline bool emu_strict_memory(const emu_wave *w) { return w->wg->opts && w->wg->opts->strict_memory; }

/* ---- the s_waitcnt model (emu/waitcnt.c) ---------------------------------------------------------
 * Record an outstanding memory operation whose result registers are operand dst (-1: none, e.g.
 * a store). Until an s_waitcnt retires it, any instruction naming one of those registers faults
 * "missing s_waitcnt" (checked by the executor before each instruction while any are pending). */
void emu_pend(emu_wave *w, const emu_insn *in, int cnt, int dst);
/* s_waitcnt: retire what the given counts guarantee (-1: that counter is not waited on). */
void emu_waitcnt(emu_wave *w, int vmcnt, int lgkmcnt);
/* No outstanding operations, no pending registers (a new wave; inline in the scheduler's
 * init_wave, as it was when it lived in exec.c). */
static inline void emu_pend_clear(emu_wave *w)
{
  /* the map is the union of the live entries' registers (emu/waitcnt.c): with no kind live it is
   * zero already (a wave's struct starts zeroed; the last wave may have left entries). It is a
   * filter in any case: emu_hazard_check decides from the live entries themselves */
  if (w->pkinds | w->pover) memset(w->pbits, 0, sizeof w->pbits);
  memset(w->phead, 0, sizeof w->phead);
  w->pord = 0;
  w->pkinds = 0;
  memset(w->pkc, 0, sizeof w->pkc);
  w->pover = false;
}
/* Is any memory operation of the wave outstanding (an entry on any counter)? */
static inline bool emu_pending(const emu_wave *w)
{
  uint32_t n;
  memcpy(&n, w->ncnt, sizeof n);
  return n != 0;
}
/* Can `in` touch a pending register? False only when none of its register operands names a
 * pending register of its kind (then emu_hazard_check would find nothing): the operands' registers,
 * kept by the decoder as words of the pending map (emu_insn.hz_word/hz_mask), against the map.
 * Inline: the scheduler asks it before every instruction while any operation is pending. */
static inline bool emu_hazard_possible(const emu_wave *w, const emu_insn *in)
{
  if (!(in->hz_kinds & w->pkinds)) return false;
  const uint64_t *pb = &w->pbits[0][0];
  for (int i = 0; i < in->hz_n; i++)
    if (pb[in->hz_word[i]] & in->hz_mask[i]) return true;
  return false;
}
/* none of the records of the block from `in` (emu_insn.blk_hz*) names a pending register: false
 * whenever emu_hazard_possible is false for each of them; true also when the block has no union */
static inline bool emu_hazard_union_possible(const emu_wave *w, uint8_t hzk, uint8_t hzn, const uint8_t *hzw,
                                             const uint64_t *hzm)
{
  if (!(hzk & w->pkinds)) return false;
  if (hzn == EMU_BLK_HZ_ALL) return true;
  const uint64_t *pb = &w->pbits[0][0];
  for (int i = 0; i < hzn; i++)
    if (pb[hzw[i]] & hzm[i]) return true;
  return false;
}
static inline bool emu_hazard_block_possible(const emu_wave *w, const emu_insn *in)
{
  return emu_hazard_union_possible(w, in->blk_hzk, in->blk_hzn, in->blk_hzw, in->blk_hzm);
}
/* the same for the solo block from `in` (emu_insn.blk_sh*) */
static inline bool emu_hazard_sblock_possible(const emu_wave *w, const emu_insn *in)
{
  return emu_hazard_union_possible(w, in->blk_shzk, in->blk_shzn, in->blk_shzw, in->blk_shzm);
}
/* The scheduler's check before `in` runs (emu/waitcnt.c): an operand naming a register an
 * outstanding operation still loads faults "missing s_waitcnt" (EMU_FAULT), or, for the tolerated
 * patterns of docs/emulator-choices.md, warns once per operation (emu_memwarn). */
int emu_hazard_check(emu_wave *w, const emu_insn *in);

/* ---- EXEC -----------------------------------------------------------------------------------*/
static inline uint64_t emu_rd64s(const emu_wave *w, unsigned r)
{
  return (uint64_t)w->s[r] | (uint64_t)w->s[r + 1] << 32;
}
static inline void emu_wr64s(emu_wave *w, unsigned r, uint64_t v)
{
  w->s[r] = (uint32_t)v;
  w->s[r + 1] = (uint32_t)(v >> 32);
}
static inline uint64_t emu_exec(const emu_wave *w) { return emu_rd64s(w, EMU_S_EXEC); }
static inline uint64_t emu_vcc(const emu_wave *w) { return emu_rd64s(w, EMU_S_VCC); }
static inline const uint32_t *emu_emask(emu_wave *w)
{
  uint64_t e = emu_exec(w);
  if (e != w->emask_of) {
    for (int l = 0; l < EMU_LANES; l++) w->emask[l] = (e >> l & 1) ? ~0u : 0u;
    w->emask_of = e;
  }
  return w->emask;
}

/* Float mode of the running kernel, from its descriptor's COMPUTE_PGM_RSRC1 (AMDGPUUsage
 * "compute_pgm_rsrc1"): DX10_CLAMP bit 21 (clamp turns NaN into 0), IEEE_MODE bit 23 (min/max
 * quiet signalling NaNs; OMOD is ignored). clang sets both for compute kernels. s_setreg of the
 * MODE register is not modelled (no kernel lanelab runs changes them). */
static inline uint32_t emu_rsrc1(const emu_wave *w)
{
  return w->wg && w->wg->d && w->wg->d->kernel ? w->wg->d->kernel->rsrc1 : 0;
}
static inline bool emu_ieee_mode(const emu_wave *w) { return emu_rsrc1(w) >> 23 & 1; }
static inline bool emu_dx10_clamp(const emu_wave *w) { return emu_rsrc1(w) >> 21 & 1; }

/* bit reversal (gcc has no __builtin_bitreverse) */
static inline uint32_t emu_brev32(uint32_t v)
{
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(v);
}
static inline uint64_t emu_brev64(uint64_t v)
{
  return (uint64_t)emu_brev32((uint32_t)v) << 32 | emu_brev32((uint32_t)(v >> 32));
}

/* ---- float bit views --------------------------------------------------------------------------*/
static inline float emu_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t emu_u32f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double emu_f64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t emu_u64f(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
/* The floating atomic min/max of LDS and global memory (docs/emulator-choices.md
 * atomic-float-min-max): IEEE minNum/maxNum, a NaN operand yielding the other, else a < b ? a : b
 * (max: a > b), so a tie gives b; the callers choose which of memory and data is b */
static inline float emu_minnum_f32(float a, float b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline float emu_maxnum_f32(float a, float b) { return a != a ? b : b != b ? a : a > b ? a : b; }
static inline double emu_minnum_f64(double a, double b) { return a != a ? b : b != b ? a : a < b ? a : b; }
static inline double emu_maxnum_f64(double a, double b) { return a != a ? b : b != b ? a : a > b ? a : b; }
/* IEEE binary16 and bfloat16 <-> float, round to nearest even (emu/fp.c). */
float emu_f16_to_f32(uint16_t h);
uint16_t emu_f32_to_f16(float f);
/* double -> IEEE binary16, round to nearest even, NaN quieted with its top payload bits (as
 * emu_f32_to_f16 of the same value rounded to f32, for NaNs) */
uint16_t emu_f64_to_f16(double x);
/* h[i] = the exact a[i] * b[i] + c[i] of f16 values rounded once to f16 (clamped to [0, 1] first with
 * clamp), i < n (a multiple of 8), on the AVX2 path (emu/simd.c); false, nothing written, without
 * AVX2 or when an operand is an infinity or a NaN */
bool emu_fma_f16_n(uint16_t *h, const uint16_t *a, const uint16_t *b, const uint16_t *c, int n, bool clamp);
/* d[l] = bits 63:32 of a[l] * b[l] (sgn: signed), and d[l] = popcount(a[l]) + b[l], for a whole wave
 * (emu/simd.c; d may be a or b) */
void emu_mulhi64(uint32_t *d, const uint32_t *a, const uint32_t *b, bool sgn);
void emu_bcnt64(uint32_t *d, const uint32_t *a, const uint32_t *b);
/* d[l] for a whole wave: kind 0 v_ffbh_u32, 1 v_ffbl_b32, 2 v_ffbh_i32, 3 v_bfrev_b32 of a[l]
 * (emu/simd.c; d may be a) */
void emu_bitscan64(uint32_t *d, const uint32_t *a, int kind);
/* The exact a * b + c rounded to odd at double precision, for a and b whose product a double holds
 * exactly (f16 and f32 values): rounding that to f16 once (emu_f64_to_f16) is the fused result
 * rounded once, where the product rounded to f32 on the way could decide a tie the exact sum does
 * not have. */
static inline double emu_fma_ro(double a, double b, double c)
{
  /* a NaN operand: the first of a, b, c (quieted by the f16 conversion; x86 VFMADD's order, which
   * these handlers had through libm's fma, now independent of how a file is compiled;
   * docs/emulator-choices.md "NaN handling") */
  if (a != a) return a;
  if (b != b) return b;
  if (c != c) return c;
  double p = a * b; /* exact: at most 48 significant bits, inside double's range */
  double s = p + c;
  if (!__builtin_isfinite(s)) return s; /* an infinity, or the default NaN of inf * 0 or inf - inf */
  /* TwoSum (Knuth): e = p + c - s exactly */
  double cb = s - p, pb = s - cb, e = (p - pb) + (c - cb);
  if (e != 0) {
    uint64_t u;
    memcpy(&u, &s, 8);
    if (!(u & 1)) { /* to odd: one unit toward the exact sum */
      u += (e > 0) == (s > 0) ? 1 : (uint64_t)-1;
      memcpy(&s, &u, 8);
    }
  }
  return s;
}
float emu_bf16_to_f32(uint16_t h);
/* f32 -> bf16, round to nearest even; a NaN quieted with its top payload bits kept. Inline and
 * without a branch, so that a lane loop over it vectorises (v_cvt_pk_bf16_f32) */
static inline uint16_t emu_f32_to_bf16(float f)
{
  const uint32_t u = emu_u32f(f), q = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16, n = (u >> 16) | 0x40u;
  return (uint16_t)((u & 0x7fffffffu) > 0x7f800000u ? n : q);
}

/* libm's floor, ceil, trunc, nearbyint and rintf called out of line (emu/fp.c), for emu/op_avx2.c */
float emu_libm_floorf(float x);
float emu_libm_ceilf(float x);
float emu_libm_truncf(float x);
float emu_libm_nearbyintf(float x);
float emu_libm_rintf(float x);
double emu_libm_floor(double x);
double emu_libm_ceil(double x);
double emu_libm_trunc(double x);
double emu_libm_nearbyint(double x);

/* IEEE-754-2008 minNum/maxNum as v_min/v_max compute them (emu/op_valu.c explains), and the
 * VOP3 clamp to [0, 1] (emu/operand.c omod_clamp explains NaN and -0). */
static inline bool emu_snan32(float x)
{
  uint32_t u = emu_u32f(x);
  return (u & 0x7f800000u) == 0x7f800000u && (u & 0x3fffffu) && !(u & 0x400000u);
}
static inline float emu_quiet32(float x) { return emu_f32(emu_u32f(x) | 0x400000u); }
static inline float emu_fmin_ieee(bool ieee, float a, float b)
{
  if (ieee && emu_snan32(a)) return emu_quiet32(a);
  if (ieee && emu_snan32(b)) return emu_quiet32(b);
  if (a != a) return b != b ? emu_quiet32(a) : b;
  if (b != b) return a;
  if (a == b) return emu_u32f(a) >> 31 ? a : b;
  return a < b ? a : b;
}
static inline float emu_fmax_ieee(bool ieee, float a, float b)
{
  if (ieee && emu_snan32(a)) return emu_quiet32(a);
  if (ieee && emu_snan32(b)) return emu_quiet32(b);
  if (a != a) return b != b ? emu_quiet32(a) : b;
  if (b != b) return a;
  if (a == b) return emu_u32f(a) >> 31 ? b : a;
  return a > b ? a : b;
}
static inline float emu_clampf(bool dx10, float x)
{
  if (x != x) return dx10 ? 0.0f : emu_quiet32(x);
  return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
/* emu_clampf's rule on a double (f64 results, the f16 fma's value rounded to odd): a NaN 0 with
 * DX10_CLAMP, else quieted */
static inline double emu_clampd(bool dx10, double x)
{
  if (x != x) return dx10 ? 0.0 : emu_f64(emu_u64f(x) | (1ull << 51));
  return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* ---- operand helpers (emu/operand.c) ---------------------------------------------------------
 * srcN: 32-bit source per lane. Returns a pointer to 64 values: straight into the register file
 * for a plain VGPR/AGPR source, else `tmp` filled (scalar broadcast, inline constant as a 32-bit
 * value, SDWA select applied, DPP lane selection applied).
 * Typed variants resolve inline float constants for the type and apply abs/neg. */
const uint32_t *emu_src32_slow(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp);
const float *emu_srcf32(emu_wave *w, const emu_insn *in, int i, float *tmp);
/* 64-bit sources: value per lane into tmp (always a copy). */
void emu_src64(emu_wave *w, const emu_insn *in, int i, uint64_t *tmp);
void emu_srcf64(emu_wave *w, const emu_insn *in, int i, double *tmp);
/* 16-bit sources (VOP1/2/3 f16/u16 ops): low 16 bits, or high with op_sel (VOP3) / WORD_1 (SDWA);
 * the f16 variant converts to float after abs/neg. */
void emu_src16(emu_wave *w, const emu_insn *in, int i, uint16_t *tmp);
/* emu_src16 with the operand's abs and neg applied to the bits (emu_srcf16's f16 values before
 * their conversion) */
void emu_src16m(emu_wave *w, const emu_insn *in, int i, uint16_t *tmp);
void emu_srcf16(emu_wave *w, const emu_insn *in, int i, float *tmp);
/* Packed 2x16 source for VOP3P: halves selected by op_sel/op_sel_hi into lo/hi. kind, the
 * instruction's halves (EMU_PK_INT, EMU_PK_F16, EMU_PK_BF16), says what a float inline constant
 * supplies and whether neg_lo/neg_hi apply (the float kinds). */
enum { EMU_PK_INT = 0, EMU_PK_F16 = 1, EMU_PK_BF16 = 2 };
void emu_srcpk(emu_wave *w, const emu_insn *in, int i, int kind, uint16_t *lo, uint16_t *hi);
/* Scalar (uniform) value of operand i: SGPR/constant/literal (for VGPR: lane 0 — don't). */
uint32_t emu_ssrc32_slow(const emu_wave *w, const emu_insn *in, int i);
/* An integer, float or literal constant operand's 32 bits as emu_ssrc32 reads them, with no wave:
 * for the decoder's specialisations, which fix a constant's value in the record */
uint32_t emu_const32(const emu_insn *in, int i);
uint64_t emu_ssrc64_slow(const emu_wave *w, const emu_insn *in, int i);
/* Inline: an SGPR or an integer constant (the common cases of every SALU instruction) without a
 * call; the other kinds (float constants, SCC, apertures, ...) in emu/operand.c. */
static inline uint32_t emu_ssrc32(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_SGPR, 1)) return w->s[o->reg];
  if (o->kind == EMU_OPK_IMM || o->kind == EMU_OPK_LIT) return (uint32_t)o->ival;
  return emu_ssrc32_slow(w, in, i);
}
static inline uint64_t emu_ssrc64(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_SGPR, 1))
    return o->n >= 2 ? (uint64_t)w->s[o->reg] | (uint64_t)w->s[o->reg + 1] << 32 : w->s[o->reg];
  if (o->kind == EMU_OPK_IMM) return (uint64_t)o->ival; /* sign-extended */
  return emu_ssrc64_slow(w, in, i);
}
/* Scalar results: an SGPR destination is written, anything else (none) is not. */
static inline void emu_sdst32(emu_wave *w, const emu_insn *in, int i, uint32_t v)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_SGPR) w->s[o->reg] = v;
}
/* A pair is written as one 8-byte store, not two 4-byte ones: the readers of EXEC (emu_exec) load
 * the pair as one 8-byte load, which a CPU cannot forward from two narrower stores still in its
 * store queue (it waits for them to retire: about 10 ns against 4 per s_and_b64 exec, exec,
 * s[n:n+1] and its next vector instruction on Zen 1, docs/performance.md, ninth stop). Two 4-byte
 * loads are forwarded from one 8-byte store, so the 32-bit readers lose nothing. s[r] is the low
 * half: little-endian layout. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "s[r] is the low half of an SGPR pair's 8 bytes");
static inline void emu_wr_pair(emu_wave *w, unsigned r, uint64_t v) { memcpy(&w->s[r], &v, sizeof v); }
static inline void emu_sdst64(emu_wave *w, const emu_insn *in, int i, uint64_t v)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind != EMU_OPK_SGPR) return;
  if (o->n >= 2) emu_wr_pair(w, o->reg, v);
  else w->s[o->reg] = (uint32_t)v;
}

/* Writes under EXEC. dst32 applies SDWA dst_sel/dst_unused; dstf32 applies omod then clamp. */
void emu_dst32_slow(emu_wave *w, const emu_insn *in, int i, const uint32_t *d);
void emu_dstf32(emu_wave *w, const emu_insn *in, int i, float *d);
void emu_dst64(emu_wave *w, const emu_insn *in, int i, const uint64_t *d);
void emu_dstf64(emu_wave *w, const emu_insn *in, int i, double *d);
/* 16-bit result: written into the low half, the high half zeroed (ops flagged EMU_F_D16Z) or
 * preserved (VOP3 op_sel-capable ops such as v_fma_f16), or into the high half with op_sel[3]
 * (low half preserved). Clamp applied for f16. */
void emu_dst16(emu_wave *w, const emu_insn *in, int i, const uint16_t *d);
/* emu_dstf16 for results held at double precision rounded to odd (emu_fma_ro): omod and clamp on
 * the double, then one rounding to f16 */
void emu_dstf16_d(emu_wave *w, const emu_insn *in, int i, const double *d);
void emu_dstf16(emu_wave *w, const emu_insn *in, int i, float *d);
/* Register-file pointer of VGPR/AGPR operand i, dword k (no EXEC): for memory ops. */
static inline uint32_t *emu_vreg(emu_wave *w, const emu_insn *in, int i, int k)
{
  const emu_opnd *o = &in->o[i];
  return (o->kind == EMU_OPK_AGPR ? w->a : w->v) + (size_t)(o->reg + k) * EMU_LANES;
}
/* Lane mask written by a VOPC-style result (SGPR pair / VCC): bits for EXEC lanes replaced. */
void emu_dstmask(emu_wave *w, const emu_insn *in, int i, uint64_t bits);
/* Lane mask read from an SGPR pair / VCC operand (constants broadcast as for hardware). */
uint64_t emu_srcmask_slow(const emu_wave *w, const emu_insn *in, int i);
static inline uint64_t emu_srcmask(const emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_SGPR && o->n >= 2, 1)) return emu_rd64s(w, o->reg);
  return emu_srcmask_slow(w, in, i);
}

/* Hot-path versions of emu_src32 / emu_dst32: a plain VGPR operand without SDWA/DPP is read in
 * place, and written with one memcpy when EXEC is all ones. */
static inline const uint32_t *emu_src32(emu_wave *w, const emu_insn *in, int i, uint32_t *tmp)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_VGPR && in->enc < EMU_ENC_SDWA, 1))
    return w->v + (size_t)o->reg * EMU_LANES;
  return emu_src32_slow(w, in, i, tmp);
}
/* The register of 32-bit destination i when a result may be written straight into it (a plain
 * VGPR, no SDWA, EXEC all ones), else NULL. */
static inline uint32_t *emu_dst32_direct(emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_VGPR && in->enc < EMU_ENC_SDWA && emu_exec(w) == ~0ull, 1))
    return w->v + (size_t)o->reg * EMU_LANES;
  return NULL;
}
static inline void emu_dst32(emu_wave *w, const emu_insn *in, int i, const uint32_t *d)
{
  uint32_t *dst = emu_dst32_direct(w, in, i);
  if (__builtin_expect(dst != NULL, 1)) {
    memcpy(dst, d, EMU_LANES * 4);
    return;
  }
  emu_dst32_slow(w, in, i, d);
}

/* A 64-bit source as two dword arrays (whole-wave fast paths of the 64-bit integer ops): a VGPR or
 * AGPR pair in place, any other operand (SGPR pair, constant) as emu_ssrc64 reads it, broadcast into
 * tlo/thi. False for a DPP source (emu_src64 moves its lanes). */
static inline bool emu_src64_pair(emu_wave *w, const emu_insn *in, int i, uint32_t *tlo, uint32_t *thi,
                                  const uint32_t **lo, const uint32_t **hi)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR) {
    if (in->enc == EMU_ENC_DPP && i == in->src0i) return false;
    *lo = emu_vreg(w, in, i, 0), *hi = emu_vreg(w, in, i, 1);
    return true;
  }
  uint64_t u = emu_ssrc64(w, in, i);
  for (int l = 0; l < EMU_LANES; l++) tlo[l] = (uint32_t)u, thi[l] = (uint32_t)(u >> 32);
  *lo = tlo, *hi = thi;
  return true;
}
/* A uniform 32-bit source (SGPR or constant, not a VGPR): its value in *v. */
static inline bool emu_src32_uniform(const emu_wave *w, const emu_insn *in, int i, uint32_t *v)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR || o->kind == EMU_OPK_AGPR || in->enc >= EMU_ENC_SDWA) return false;
  *v = emu_ssrc32(w, in, i);
  return true;
}
/* The two dwords of a 64-bit VGPR destination when a whole-wave result may be copied straight in
 * (a VGPR pair, no SDWA/DPP, EXEC all ones: as emu_dst32_direct); NULL otherwise. */
static inline uint32_t *emu_dst64_direct(emu_wave *w, const emu_insn *in, int i)
{
  const emu_opnd *o = &in->o[i];
  if (o->kind == EMU_OPK_VGPR && o->n >= 2 && in->enc < EMU_ENC_SDWA && emu_exec(w) == ~0ull)
    return w->v + (size_t)o->reg * EMU_LANES;
  return NULL;
}

/* f32 source without a copy when possible: a plain VGPR without abs/neg/SDWA/DPP is returned in
 * place (through a may_alias float type, the register file being uint32_t); otherwise tmp is
 * filled as by emu_srcf32. */
typedef float emu_f32a __attribute__((may_alias));
static inline const emu_f32a *emu_srcf32p(emu_wave *w, const emu_insn *in, int i, float *tmp)
{
  const emu_opnd *o = &in->o[i];
  if (__builtin_expect(o->kind == EMU_OPK_VGPR && in->enc < EMU_ENC_SDWA && !(o->mods & (EMU_M_ABS | EMU_M_NEG)), 1))
    return (const emu_f32a *)(const void *)(w->v + (size_t)o->reg * EMU_LANES);
  emu_srcf32(w, in, i, tmp);
  return tmp;
}

/* ---- whole-wave kernels (emu/simd.c): an AVX-512 path when the CPU has it (emu_avx512, set at
 * start-up), else an AVX2+FMA+F16C one (emu_avx2), else the portable one, same results.
 * LANELAB_EMU_SIMD=portable|avx2 caps the paths; LANELAB_EMU_NO_AVX512=1 forces the portable one. */
extern bool emu_avx512, emu_avx2;
void emu_sel64(uint32_t *d, const uint32_t *a, const uint32_t *b, uint64_t m); /* d = m ? b : a (d may be a or b) */
/* one source of emu_sel64x: lanes p[0..63], or the uniform value s when p is NULL; each value
 * taken as (x & andm) ^ xorm */
typedef struct emu_selsrc {
  const uint32_t *p;
  uint32_t s, andm, xorm;
} emu_selsrc;
void emu_sel64x(uint32_t *d, const emu_selsrc *a, const emu_selsrc *b, uint64_t m); /* d may be a->p or b->p */
void emu_fill64(uint32_t *a, uint32_t va); /* a[l] = va */
void emu_fill2_64(uint32_t *a, uint32_t va, uint32_t *b, uint32_t vb); /* a[l] = va, b[l] = vb */
void emu_blend64(uint32_t *dst, const uint32_t *d, uint64_t e);
                   /* dst = e ? d : dst */
void emu_bperm64(uint32_t *d, const uint32_t *src, const uint32_t *addr, uint32_t off);
void emu_addr64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off); /* d = (lo | hi << 32) + off */
void emu_split64(uint32_t *lo, uint32_t *hi, const uint64_t *d); /* lo = d, hi = d >> 32: emu_addr64's inverse */
/* v_mad_u64_u32 of 64 lanes: dhi:dlo = a * b + chi:clo, the carry-out mask returned; the pair may be a
 * source */
uint64_t emu_mad_u64_u32_64(uint32_t *dlo, uint32_t *dhi, const uint32_t *a, const uint32_t *b, const uint32_t *clo,
                            const uint32_t *chi);
/* f64 add, mul or fma (d = s0 * s1 + s2) of 64 lanes into the VGPR pair dlo/dhi under EXEC e, on
 * AVX-512 (false, nothing written, without it: the generic handler runs). A source is a register
 * pair (lo, hi) or, lo NULL, the uniform u; each value taken as (bits & andm) ^ xorm (abs, neg). */
enum { EMU_F64_ADD, EMU_F64_MUL, EMU_F64_FMA };
typedef struct { const uint32_t *lo, *hi; uint64_t u, andm, xorm; } emu_f64src;
bool emu_f64_arith64(int op, const emu_f64src *s, uint32_t *dlo, uint32_t *dhi, uint64_t e);
uint64_t emu_outside64(const uint64_t *a, uint64_t base, uint64_t lim); /* bit l: a[l] - base > lim (unsigned) */
/* emu_addr64 then emu_outside64 (d, base, lim) in one pass: the addresses into d, the outside mask returned */
uint64_t emu_addr_outside64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off, uint64_t base, uint64_t lim);
/* emu_addr_outside64, and *nl = emu_newline64(d, step), in one pass */
uint64_t emu_addr_outside_nl64(uint64_t *d, const uint32_t *lo, const uint32_t *hi, uint64_t off, uint64_t base,
                               uint64_t lim, uint64_t step, uint64_t *nl);
/* every lane's global dword (d1 NULL) or dwordx2 (low dword to d0, high to d1) from host address
 * h + a[l]; the caller has checked every lane's bytes lie in one buffer (emu/op_mem.c) */
void emu_gload64(uint32_t *d0, uint32_t *d1, uintptr_t h, const uint64_t *a);
/* bit l: (a[l] + step) >> 6 != (a[l - 1] + step) >> 6; bit 0 set */
uint64_t emu_newline64(const uint64_t *a, uint64_t step);
/* every lane's global store of nw dwords (s[k][l] at host address h + a[l] + 4k), lane after lane;
 * the caller has checked every lane's bytes lie in one buffer (emu/op_mem.c) */
void emu_gstore64(uintptr_t h, const uint64_t *a, const uint32_t *const *s, uint32_t nw);
void emu_minmax64(const uint32_t *a, uint32_t *mn, uint32_t *mx); /* unsigned min and max of a[0..63] */
/* d[l] = a[l] + off (32-bit), and emu_minmax64 of d */
void emu_add_minmax64(uint32_t *d, const uint32_t *a, uint32_t off, uint32_t *mn, uint32_t *mx);
/* every (uint32_t)(a[l] + off) <= last (emu/op_ds.c's quick range test) */
bool emu_lds_in64(const uint32_t *a, uint32_t off, uint32_t last);
/* every a[l] + off a multiple of align (a power of two) with a[l] + off + bytes <= lim (exact) */
bool emu_lds_ok64(const uint32_t *a, uint32_t off, uint32_t align, uint32_t bytes, uint64_t lim);
/* ds_read_b64_tr_b16's registers d0, d1 from each lane's 8 bytes at lds + (a[l] + off) (emu/op_xlane.c),
 * every lane's address aligned to 8 with a[l] + off + 8 <= lim, the LDS's size (the caller checked) */
void emu_tr16_64(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off, uint32_t lim);
/* d0[l], d1[l] = the two dwords at lds + (uint32_t)(a[l] + off), every lane in range (emu/op_ds.c) */
void emu_lds_read8_64(uint32_t *d0, uint32_t *d1, const uint8_t *lds, const uint32_t *a, uint32_t off);
/* d[l] = the dword at lds + (uint32_t)(a[l] + off), every lane in range (emu/op_ds.c ds_read_b32) */
void emu_lds_read4_64(uint32_t *d, const uint8_t *lds, const uint32_t *a, uint32_t off);
/* ds_write_b32, every lane in range: s[l] to lds + (uint32_t)(a[l] + off), lane after lane */
void emu_lds_write4_64(uint8_t *lds, const uint32_t *a, uint32_t off, const uint32_t *s);
/* ds_write2*_b64, every lane in range: lane by lane, s0 at lds + (a[l] + off0) then s1 at a[l] + off1
 * (8 bytes each: low dword from *lo, high from *hi) */
void emu_lds_write2_8_64(uint8_t *lds, const uint32_t *a, uint32_t off0, uint32_t off1, const uint32_t *s0lo,
                         const uint32_t *s0hi, const uint32_t *s1lo, const uint32_t *s1hi);
void emu_f32_to_f16_64(uint16_t *h, const float *f);
/* h[l] = emu_f64_to_f16(emu_fma_ro(a[l], b[l], c[l])): the exact a * b + c rounded once to f16
 * (AVX-512 when present, else the lane loop) */
void emu_fma_f16_64(uint16_t *h, const float *a, const float *b, const float *c);
void emu_f16_to_f32_64(float *f, const uint16_t *h);
void emu_exp2_64(float *d, const float *a); /* d = (float)exp2((double)a), v_exp_f32's definition */
/* compare predicates (the F_* of emu/op_valu.c's VOPC); the functions return false when they have
 * no fast path for p (the caller then loops) */
enum { EMU_CMP_NONE = 0, EMU_CMP_LT, EMU_CMP_EQ, EMU_CMP_LE, EMU_CMP_GT, EMU_CMP_GE, EMU_CMP_NE,
       EMU_CMP_LG, EMU_CMP_O, EMU_CMP_U, EMU_CMP_NGE, EMU_CMP_NLG, EMU_CMP_NGT, EMU_CMP_NLE,
       EMU_CMP_NEQ, EMU_CMP_NLT };
bool emu_cmpf32_64(const float *a, const float *b, int p, uint64_t *r);
bool emu_cmpi32_64(const uint32_t *a, const uint32_t *b, int p, bool sgn, uint64_t *r);

/* DPP (emu/dpp.c, part of the core). emu_dpp_src fills out[] with src0
 * values as DPP lane selection (in->dpp_ctrl, in->bound_ctrl; the decoder accepts only valid
 * controls) delivers them to each lane; emu_dpp_wmask returns the lanes row_mask/bank_mask let
 * write. While emu_dpp_implemented is false, the decoder marks every DPP form unimplemented (it
 * faults "unimplemented" if executed). */
extern const bool emu_dpp_implemented;
void emu_dpp_src(emu_wave *w, const emu_insn *in, const uint32_t *src, uint32_t *out);
uint64_t emu_dpp_wmask(const emu_wave *w, const emu_insn *in);

/* ---- runs of integer lane operations (emu/fuse.c) ---------------------------------------------
 * emu_fuse_mark gives a record its compact form (fz_*; name: its op-table row's mnemonic) when it is
 * such an operation, emu_fuse_prepare a decoded program its runs (fuse_n); emu_fuse_run executes the
 * m >= 2 records from in (a prefix of its run) as their handlers would, without the per-instruction
 * bookkeeping (budget, counts, ip: the caller's, emu/exec.c rr_ahead), which has checked that EXEC
 * is all ones and that none of the m may name a register an outstanding load writes. With
 * emu_fuse_on false when a program is decoded (LANELAB_EMU_NO_FUSE=1 at start-up), it has no runs. */
#define EMU_FUSE_MAX 64
/* a run record's operation (emu_insn.fz_op), as emu/fuse.c marks it */
enum {
  FZ_NONE = 0, FZ_MOV, FZ_NOT, FZ_ADD, FZ_SUB, FZ_SUBREV, FZ_AND, FZ_OR, FZ_XOR, FZ_LSHL, FZ_LSHR, FZ_ASHR,
  FZ_MUL_LO, FZ_MIN_I, FZ_MAX_I, FZ_MIN_U, FZ_MAX_U, FZ_CNDMASK, FZ_AND_OR, FZ_OR3, FZ_XAD, FZ_LSHL_ADD,
  FZ_ADD_LSHL, FZ_ADD3, FZ_LSHL_OR, FZ_BFI, FZ_BITOP3, FZ_BFE_U, FZ_CVT_UB0, FZ_CVT_UB1, FZ_CVT_UB2, FZ_CVT_UB3,
  FZ_NOP, FZ_EXP_F, FZ_CVT_F32_F16, FZ_CVT_F16_F32, FZ_CMP_F, FZ_CMP_I, FZ_CMP_U,
  FZ_MAX_F, FZ_MIN_F, FZ_MED3_F, FZ_CVT_I32_F, FZ_CVT_U32_F, FZ_RNDNE_F, FZ_MAX3_F, FZ_MIN3_F, /* exact at any width: every build */
  /* 64-bit lane-mask scalar operations (s_and_b64 ...: bit l of the result from bit l of the sources,
   * SCC = result != 0 but for s_mov_b64): exact, every build */
  FZ_S_AND, FZ_S_OR, FZ_S_XOR, FZ_S_ANDN2, FZ_S_ORN2, FZ_S_NAND, FZ_S_NOR, FZ_S_XNOR, FZ_S_MOV, FZ_S_NOT,
  FZ_FIRST_S = FZ_S_AND, FZ_LAST_S = FZ_S_NOT,
  /* 64-bit lane operations on VGPR pairs (clang's address arithmetic): v_mov_b64, v_lshlrev_b64 and
   * v_lshl_add_u64 with constant counts (fz_src[2]), exact, every build */
  FZ_MOV64, FZ_LSHL64, FZ_LSHL_ADD64,
  /* v_mad_u64_u32 (emu/fuse.c mad_mark: D = S0 * S1 + S2 over a VGPR pair, the carry-out mask into
   * the SGPR pair of operand 1), exact, every build */
  FZ_MAD64,
  /* 32-bit scalar ALU operations that read no SCC (s_add_i32, s_cmp_eq_u32, s_mov_b32 ...: emu/fuse.c
   * salu_mark): the runner calls their handlers in place; every build */
  FZ_SALU,
  /* ds_bpermute_b32 and s_waitcnt (issue #31, forty-second stop): the runner calls their handlers in
   * place, as the run-ahead loop would (emu_run_xcall); every build */
  FZ_XCALL,
  /* the float operations (FZ_FIRST_F on): only where emu/fuse.c defines FZ_FLOAT_ASM */
  FZ_ADD_F, FZ_SUB_F, FZ_SUBREV_F, FZ_MUL_F, FZ_FMA_F, FZ_FMAC_F,
  /* v_pk_fma_f32 and v_pk_mul_f32 in their specialised forms (emu/op_vop3p.c emu_vop3p_specialise):
   * the runner calls the specialised handler in place */
  FZ_PK_FMA, FZ_PK_MUL,
  FZ_FIRST_F = FZ_ADD_F,
};
#define EMU_FZ_NOREG 0xffffu /* a run scalar record's fz_dst when it writes no SGPR (s_cmp_*) */
/* a run compare's predicate (fz_src[2]), as emu/op_valu.c's F_* macros define it */
enum { CP_LT, CP_EQ, CP_LE, CP_GT, CP_GE, CP_NE, CP_LG, CP_O, CP_U, CP_NGE, CP_NLG, CP_NGT, CP_NLE, CP_NEQ, CP_NLT };
/* the uniform of a run record's 64-bit uniform source j's high dword (emu/fuse.c m64_mark): the SGPR
 * after the pair's first (fz_sg bit j), or the inline integer's sign extension */
static inline uint32_t emu_fz_hik(const emu_insn *x, int j)
{
  return (x->fz_sg >> j & 1) ? x->fz_k[j] + 1 : (uint32_t)((int32_t)x->fz_k[j] >> 31);
}
/* does the LDS-counter record x of a block make no entry? When the wait that retires it (emu_insn.sel
 * in a solo block, wsel in one of several waves) lies before end, the end of the block's part that
 * runs (emu/exec.c solo_call, emu_run_xcall; emu/jit.c bperm_inline tests the same in its code) */
static inline bool emu_nopend_at(const emu_insn *x, const emu_insn *end, bool solo)
{
  const unsigned d = solo ? x->sel : x->wsel;
  return d && d < (unsigned)(end - x);
}
/* a run's FZ_XCALL record x, called in place as rr_ahead's solo_call calls it outside runs (the block
 * in w->rr_end and rr_solo, set by the caller of the run) */
static inline void emu_run_xcall(emu_wave *w, const emu_insn *x)
{
  if (emu_nopend_at(x, w->rr_end, w->rr_solo)) {
    w->nopend = 1;
    (void)x->fn(w, x);
    w->nopend = 0;
    return;
  }
  (void)x->fn(w, x);
}
extern bool emu_fuse_on;
void emu_fuse_mark(emu_insn *in, const char *name);
void emu_fuse_prepare(emu_insn *insns, size_t n);
/* emu_program_decode with its text decoded in nthreads spans (0: one per core for large code, as
 * emu_program_decode does); the same records at any count (emu/decode.c) */
emu_program *emu_program_decode_n(emu_arch a, const uint8_t *code, size_t size, uint64_t vaddr, int nthreads,
                                  ll_err *err);
void emu_fuse_run(emu_wave *w, const emu_insn *in, int m);
/* the same, adding 1 to cnt[j] for each record j of the run (the run-ahead loop's w->counts) */
void emu_fuse_runc(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt);

/* ---- runs translated to AVX-512 machine code (emu/jit.c) ----------------------------------------
 * emu_jit_step runs records from in (at most m, a prefix of a run the caller may execute as one
 * step: EXEC all ones, no pending load's register) through code translated from them: > 0 how many
 * it ran (their counts cnt[] incremented), < 0 minus how many the caller's runner should run first
 * (no code starts at in, or not yet: a run is translated once it has run EMU_JIT_HOT times, or at
 * once when hot). Only with emu_jit_ready (an AVX-512 host, AVX2 and AVX-512 paths not capped,
 * LANELAB_EMU_NO_JIT unset). emu_jit_free releases the code of a program's records. */
#define EMU_JIT_NONE ((void *)1)
#define EMU_JIT_HOT 4
extern bool emu_jit_on;
static inline bool emu_jit_ready(void) { return emu_jit_on && emu_avx512 && emu_avx2; }
/* the code: VGPR file, SGPR file, the wave (for the handlers it calls), the records' execution counts
 * (it adds 1 to each record it runs), m the records the caller may run; returns how many it ran: the
 * piece, or the segments and calls of it that fit in m (emu/jit.c translate), 0 none */
typedef int (*emu_jit_fn)(uint32_t *v, const uint32_t *s, emu_wave *w, uint64_t *cnt, int m);
int emu_jit_step(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt, bool hot);
void emu_jit_free(emu_insn *insns, size_t n);
/* for tests: the segments a piece from in is planned as (emu/jit.c plan_piece), at most max of them:
 * each one's first record (from in), its planned records, the calls after them, its SCC pair + 1 (0
 * none); returns how many segments (0 where nothing is translated) */
int emu_jit_segments(const emu_insn *in, int *at, int *len, int *ncall, unsigned *scc, int max);
/* SGPR pair r nonzero, read as the translated code writes a lane mask: four 16-bit chunks (kmovw).
 * Loads of the stores' own size are forwarded from the store buffer; two 32-bit loads over them
 * waited for the stores to reach the cache (after a piece, 18% of the run-ahead loop's samples on
 * the gfx942 seed; issue #31, forty-third stop) */
typedef uint16_t __attribute__((may_alias)) emu_u16a;
static inline bool emu_pair_nz(const emu_wave *w, unsigned r)
{
  const emu_u16a *h = (const emu_u16a *)(const void *)&w->s[r];
  return (h[0] | h[1] | h[2] | h[3]) != 0;
}
/* ---- traces (emu/jit.c, issue #31, forty-sixth stop) -------------------------------------------
 * A trace joins the runs of masked code across its guards, the way the compiler's code skips what no
 * lane needs: `s_and_saveexec_b64 sX, sY; s_cbranch_execz T ... T: s_or_b64 exec, exec, sX` with sY
 * zero (EXEC all ones before and after; sX all ones, SCC 1) or all ones (into the masked code), a
 * lone `s_or_b64 exec, exec, sZ` (EXEC stays all ones, SCC 1), `s_cbranch_vccnz/vccz/scc0/scc1` and
 * `s_branch` forward, in the direction the records' counts say is usual (docs/emulator.md
 * "Traces"). Each guard is tested in the code; one
 * that does not hold ends the trace before its first record (a side exit), and the run-ahead loop
 * goes on from there as without traces. The code: VGPR file, SGPR file, the wave, the counts from
 * the trace's first record (it adds 1 to each record it runs), m unused; returns the records it ran
 * in the low 32 bits and where it stopped, from its first record, in the high 32. It runs only with
 * EXEC all ones, no outstanding load (so no hazard), no VSKIP or VGPR indexing, and a budget of at
 * least emu_insn.tr_max: it holds lane records, their scalar records and the guards, nothing that
 * touches memory, waits or ends a turn, so running it at once is what the loop would do record by
 * record. emu_trace_get: the trace from in (ip its index; NULL not yet hot, EMU_JIT_NONE none).
 * LANELAB_EMU_NO_TRACE=1 turns traces off (emu_trace_on). */
typedef uint64_t (*emu_trace_fn)(uint32_t *v, const uint32_t *s, emu_wave *w, uint64_t *cnt, int m);
extern bool emu_trace_on;
void *emu_trace_get(emu_wave *w, const emu_insn *in, uint32_t ip);

/* the common case, inlined in the run-ahead loop: the code of a run's first k <= m records, if
 * there is some; returns k (0: none). SCC from the piece's last writer after a whole piece (a part
 * of one has set it in the code) */
static inline int emu_jit_try(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt)
{
  void *code = __atomic_load_n(&in->jit, __ATOMIC_ACQUIRE);
  if ((uintptr_t)code <= (uintptr_t)EMU_JIT_NONE || !emu_jit_ready()) return 0;
  const int k = ((emu_jit_fn)code)(w->v, w->s, w, cnt, m); /* counts its k records */
  if (k == in->jit_n && in->jit_scc) w->scc = emu_pair_nz(w, in->jit_scc - 1u);
  return k;
}

/* ---- memory helpers (emu/addr.c) --------------------------------------------------------------
 * Host pointer for a global access of n bytes by `lane` at addr; NULL after recording a fault
 * ("out-of-bounds global access" / "misaligned global access"). align: required alignment in
 * bytes (1 = none). */
void *emu_gptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, uint32_t align,
               int lane);
/* LDS pointer for [addr, addr+n); NULL after recording "lds out of range". */
void *emu_ldsptr(emu_wave *w, const emu_insn *in, uint64_t addr, uint32_t n, int lane);
/* One atomic read-modify-write of the naturally aligned 4- or 8-byte word at host pointer p:
 * MEM = f(MEM, d, c), returning the old MEM. It is a host atomic (a compare-and-swap loop), because
 * workgroups run on several threads and an atomic must not lose another workgroup's update
 * (emu/mem.c). */
typedef uint64_t (*emu_atom_fn)(uint64_t mem, uint64_t d, uint64_t c);
uint64_t emu_atomic_rmw(void *p, uint32_t bytes, emu_atom_fn f, uint64_t d, uint64_t c);

/* Buffer addressing through a buffer resource (V#) and its range check (emu/op_mem.c; the rules and
 * their sources are in docs/isa.md "Buffer resource and range checking"). An access of `bytes`
 * bytes is checked in components: one of `bytes` for a byte, short or dword (and for an atomic,
 * all or nothing), one per dword for dwordx2/x3/x4. For each EXEC lane, addr[k] is component k's
 * address (base + soffset + its buffer offset; not contiguous in a swizzled buffer) and bit k of
 * in[] says it passed the range check: a load of a failing component gives 0, a store or atomic
 * to it is dropped. Reads the registers only; false (with the reason in why) for an operand that
 * is not a buffer access. The executor and the observer (emu/observe.c) both address buffers
 * through it. */
typedef struct {
  uint64_t base;             /* V# base address, dw0 | dw1[15:0] << 32 */
  uint32_t stride, nrec;     /* stride (add_tid_enable extends it), num_records */
  uint32_t soff;             /* the instruction's soffset */
  bool structured, swizzled; /* range checked by index (else in bytes); addresses swizzled */
  uint8_t ncomp, csize;      /* components, bytes each */
  uint8_t in[EMU_LANES];     /* bit k: component k passed */
  uint64_t addr[4][EMU_LANES];
} emu_bufacc;
bool emu_buffer_access(emu_wave *w, const emu_insn *in, int vi, uint32_t bytes, bool whole, uint64_t exec,
                       emu_bufacc *b, char *why, size_t whyn);

/* Loads to LDS (`buffer_load_* ... lds`, `global_load_lds_*`; emu/op_mem.c): lane l writes `bytes`
 * bytes of LDS at base + l * stride (CDNA4 ISA 9.1.9 / 10.3: the M0-based address, the instruction
 * offset, a 4-byte lane stride, 16 for dwordx3/dwordx4; a byte or short is written as a zero- or
 * sign-extended dword). mem_bytes: the bytes each lane reads from memory (1, 2, 4, 12, 16);
 * buffer: the MUBUF form (M0[17:0]) rather than the global one (M0[17:2] * 4). The executor and the
 * observer (emu/observe.c) both take the LDS destination from here. */
typedef struct { uint32_t base, stride, bytes; } emu_lds_dest;
emu_lds_dest emu_load_lds_dest(const emu_wave *w, const emu_insn *in, bool buffer, uint32_t mem_bytes);

/* LDS aperture base for flat addressing (src_shared_base): flat addresses in
 * [EMU_LDS_APERTURE, +4 GiB) address LDS. */
#define EMU_LDS_APERTURE 0x1000000000000ull
#define EMU_PRIVATE_APERTURE 0x2000000000000ull

/* Bytes of private memory per lane a launch of k gets (emu/op_mem.c): the descriptor's private
 * segment size, at least stack_bytes (0: 1024) when the kernel uses a dynamic stack, rounded up to
 * a dword (docs/emulator-choices.md "Private memory"). */
uint32_t emu_private_size(const emu_kernel *k, uint32_t stack_bytes);

#endif
