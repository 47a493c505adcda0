/* emu/jit — runs of lane operations translated to AVX-512 machine code (issue #31, twelfth stop).
 *
 * The runner of emu/fuse.c executes a run one instruction at a time: each one loads its sources
 * from the wave's register file and stores its whole 256-byte result back, so a value that the next
 * instruction reads makes a round trip through memory, and a register the run overwrites is stored
 * for nothing. Here a run that has become hot (EMU_JIT_HOT executions) is translated once into x86-64
 * code for the host's AVX-512 unit: the 64 lanes in four chunks of 16 (one zmm register each), and
 * within a chunk every VGPR the run touches held in a zmm register from its first read or write to the
 * chunk's end, where the registers the run wrote are stored, once each. Uniform sources (SGPRs and
 * constants) are broadcast once before the first chunk. Lanes do not interact in these operations (no
 * cross-lane reads; none of them writes EXEC; compares and the 64-bit lane-mask scalar operations
 * write SGPR pairs bit l from lane l), so a lane's instructions in run order, chunk after chunk, give
 * every register the value that instruction order does.
 *
 * What is translated: the operations of emu/fuse.c's runner with the same instruction and operand
 * order (vpaddd for a + b, vpsllvd of the count masked to 5 bits, vpternlogd for the three-input
 * bitwise ones with the truth table as its immediate, vcvtdq2ps of the masked byte; the float
 * operations with the operand order of fuse.c's flt_avx2: vaddps/vmulps S1 op S0, vsubps, and
 * vfmadd132ps with S1 in the destination; compares by vcmpps/vpcmpd/vpcmpud with fuse.c cmp_avx2's
 * predicates into k1, the chunk's 16 mask bits stored into the SGPR pair; v_cndmask_b32 by vpblendmd
 * under the chunk's 16 bits of its mask pair; s_and_b64 and the other lane-mask scalar operations of
 * emu/fuse.c sop_mark by kandw/korw/kxorw/kandnw/kxnorw/knotw on the chunk's 16 bits of their pairs,
 * SCC set after the code from the piece's last SCC writer's pair, emu_insn.jit_scc, so a piece ends
 * before a record that overwrites that pair without setting SCC; the 64-bit operations of fuse.c
 * m64_mark on the chunk's low and high planes, the carry by vpcmpud into k1 and a masked vpsubd),
 * so the same bits, NaN payloads included; v_cvt_f16_f32 and v_cvt_f32_f16 by vcvtps2ph and
 * vcvtph2ps, the NaN payload bit vcvtph2ps sets put back (issue #31, sixteenth stop); v_pk_mul_f32 and
 * v_pk_fma_f32 (seventeenth stop) half by half with the operand order of emu/op_vop3p.c's FMA-host
 * kernels (vmulps with src1 first in the low half, src0 in the high one; vfmadd132ps with a, c, b, each
 * source xored with its half's sign mask first), both halves' results computed before either replaces
 * its destination. The 32-bit scalar ALU records of a run (FZ_SALU) have no code in the chunks: after
 * the last chunk the code calls their handlers in order, fn(w, record), which is their place in the
 * piece only while no lane record after one of them reads or writes an SGPR it writes or writes one
 * it reads (plan_run ends the piece before such a record; SCC: emu_insn.jit_scc is 0 when such a
 * handler set it last). v_mad_u64_u32 (forty-first stop, mad64) by vpmuludq on the even lanes and on
 * the odd ones with each qword's dwords swapped, the 64-bit sum on the two planes, its carry-out into the
 * pair as a compare's mask. v_max_f32 / v_min_f32 and v_max3_f32 / v_min3_f32 (thirty-eighth stop) as fuse.c
 * FZ_MINMAX's steps (minmax), IEEE mode from k7 (ieee_k7). A segment (plan_run) ends before
 * v_exp_f32, v_med3_f32 and the conversions to integer (the runner runs those: the piece ends too),
 * before a uniform source an earlier record of it wrote, and where its registers would not fit the 32
 * zmm registers; the piece then goes on with another segment (forty-second stop, plan_piece), which
 * broadcasts its uniforms again and reads from the register files what the segment before wrote.
 * Between two segments the piece runs a run's ds_bpermute_b32 and s_waitcnt records (emu/fuse.c
 * FZ_XCALL): the bpermute written out (bperm_inline) with its LDS-counter entry through emu_pend
 * unless elided, the wait as a test of the counts that calls emu_waitcnt only when it can retire
 * something (wait_inline); a solo wave's bpermute through emu_run_xcall. A piece shorter than JIT_MIN
 * records (one since the seventeenth stop) is left to the runner. The caller (emu/fuse.c
 * emu_fuse_runc, emu/exec.c rr_ahead) has checked everything the runner relies on; the code runs the
 * segments and calls that fit in the records the caller may run and returns how many (the runner
 * takes the rest). tests/test_emu_cvt.c compares the translated runs with the handlers (NaNs,
 * aliasing, every operation, predicate and uniform form, segments cut by registers and by compares,
 * parts of a piece, the counters after bpermutes and waits). LANELAB_EMU_NO_JIT=1 turns translation
 * off.
 *
 * The code lives in an arena of double-mapped pieces (written through one view, run through the
 * other: never writable and executable at once), found from the record (emu_insn.jit, published
 * after the code is written) and returned to the arena with the program (emu_jit_free). */
#define _GNU_SOURCE 1 /* memfd_create */
#include <immintrin.h> /* the _CMP_* predicates */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "emu/internal.h"

bool emu_jit_on = true;
bool emu_trace_on = true; /* traces (below) */


#if defined(__x86_64__) && defined(__linux__)

/* EVEX.L'L of the code: 2, 512-bit (zmm, four chunks of 16 lanes). 1 (ymm, eight chunks) was measured
 * too: no faster than the runner on the quick loop, 512-bit 15% faster than it (docs/performance.md) */
#define JIT_LL 2
#define JIT_CB (16 << JIT_LL) /* bytes of a register a chunk covers */

/* ---- an x86-64 EVEX encoder: the few AVX-512 forms the translation uses (Intel SDM vol. 2, 2.7) -- */
enum { MAP_0F = 1, MAP_0F38 = 2, MAP_0F3A = 3 };
enum { PP_NONE = 0, PP_66 = 1, PP_F3 = 2 };
enum { RM_REG, RM_MEM, RM_POOL };
enum { GPR_RSI = 6, GPR_RDI = 7 }; /* the code's arguments: VGPR file, SGPR file */

typedef struct {
  uint8_t *b;
  size_t n, cap;
  bool bad;
  /* RIP-relative references to the constant pool: the disp32's position, the end of its instruction,
   * the entry. A piece has at most EMU_FUSE_MAX (64) records; each segment broadcasts its records'
   * uniforms (at most six sources' dwords and three constants a record) and an inline bpermute three
   * constants, so at most 64 * 9 references and as many constants: a full table (cbuf.bad, the run left
   * to the runner) is not reached */
  struct { size_t at, end; int entry; } fix[1024];
  int nfix;
  uint32_t pool[1024]; /* each constant once (pool_add) */
  int npool;
} cbuf;

static void put(cbuf *c, uint8_t x)
{
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 4096;
    uint8_t *b = realloc(c->b, cap);
    if (!b) {
      c->bad = true;
      return;
    }
    c->b = b, c->cap = cap;
  }
  c->b[c->n++] = x;
}
static void put32(cbuf *c, uint32_t x)
{
  for (int i = 0; i < 4; i++) put(c, (uint8_t)(x >> (8 * i)));
}
/* constant k's pool entry (a full pool makes the code bad: the run stays with the runner) */
static int pool_add(cbuf *c, uint32_t k)
{
  for (int i = 0; i < c->npool; i++)
    if (c->pool[i] == k) return i;
  if (c->npool == (int)(sizeof c->pool / sizeof c->pool[0])) {
    c->bad = true;
    return 0;
  }
  c->pool[c->npool] = k;
  return c->npool++;
}

typedef struct {
  int kind, r; /* RM_REG: zmm r; RM_MEM: [GPR r + disp]; RM_POOL: pool entry r, RIP-relative */
  int32_t disp;
} rmo;
static rmo zr(int r) { return (rmo){RM_REG, r, 0}; }
static rmo mem(int gpr, int32_t disp) { return (rmo){RM_MEM, gpr, disp}; }

/* one EVEX.512 instruction with EVEX.W w (1 only for vpmuludq): reg (ModRM.reg: a zmm or an opcode
 * extension), vvvv (a zmm, -1 unused), rm; imm8 when imm >= 0; the opmask aaa */
static void evex_kw(cbuf *c, int map, int pp, uint8_t opc, int reg, int vvvv, rmo rm, int imm, int aaa, int w)
{
  const int v = vvvv < 0 ? 0 : vvvv;
  const int X = rm.kind == RM_REG ? (rm.r >> 4) & 1 : 0, B = rm.kind != RM_POOL ? (rm.r >> 3) & 1 : 0;
  put(c, 0x62);
  put(c, (uint8_t)(!((reg >> 3) & 1) << 7 | !X << 6 | !B << 5 | !((reg >> 4) & 1) << 4 | map));
  put(c, (uint8_t)((w & 1) << 7 | ((~v) & 15) << 3 | 1 << 2 | pp)); /* EVEX.W */
  put(c, (uint8_t)(JIT_LL << 5 | !((v >> 4) & 1) << 3 | aaa)); /* z 0, L'L the width, b 0, V', the opmask */
  put(c, opc);
  if (rm.kind == RM_REG) {
    put(c, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm.r & 7)));
  } else if (rm.kind == RM_MEM) {
    put(c, (uint8_t)(0x80 | (reg & 7) << 3 | (rm.r & 7))); /* [base + disp32]; base rsi or rdi, no SIB */
    put32(c, (uint32_t)rm.disp);
  } else {
    put(c, (uint8_t)(0x00 | (reg & 7) << 3 | 5)); /* [rip + disp32] */
    if (c->nfix == (int)(sizeof c->fix / sizeof c->fix[0])) c->bad = true;
    else c->fix[c->nfix].at = c->n, c->fix[c->nfix].entry = rm.r;
    put32(c, 0);
  }
  if (imm >= 0) put(c, (uint8_t)imm);
  if (rm.kind == RM_POOL && c->nfix < (int)(sizeof c->fix / sizeof c->fix[0])) c->fix[c->nfix++].end = c->n;
}

/* the W0 forms, all but vpmuludq */
static void evex_k(cbuf *c, int map, int pp, uint8_t opc, int reg, int vvvv, rmo rm, int imm, int aaa)
{
  evex_kw(c, map, pp, opc, reg, vvvv, rm, imm, aaa, 0);
}
static void evex(cbuf *c, int map, int pp, uint8_t opc, int reg, int vvvv, rmo rm, int imm)
{
  evex_k(c, map, pp, opc, reg, vvvv, rm, imm, 0);
}
/* kmovw k, [rsi + d] (VEX.L0.0F.W0 90 /r) and kmovw [rsi + d], k (91 /r): a chunk's 16 mask bits */
static void kmov_k(cbuf *c, uint8_t opc, int k, int32_t d)
{
  put(c, 0xc5), put(c, 0xf8), put(c, opc), put(c, (uint8_t)(0x80 | k << 3 | GPR_RSI));
  put32(c, (uint32_t)d);
}
static void kmov_k1(cbuf *c, uint8_t opc, int32_t d) { kmov_k(c, opc, 1, d); }
/* the 16-bit opmask operations (Intel SDM vol. 2, KANDW ...): d = a op b, VEX.L1.0F.W0 opc /r with
 * vvvv = a, rm = b (kandnw: ~a & b); knotw d, a: VEX.L0.0F.W0 44 /r */
enum { KANDW = 0x41, KANDNW = 0x42, KORW = 0x45, KXNORW = 0x46, KXORW = 0x47 };
static void kop(cbuf *c, uint8_t opc, int d, int a, int b)
{
  put(c, 0xc5), put(c, (uint8_t)(0x80 | ((~a) & 15) << 3 | 1 << 2)), put(c, opc), put(c, (uint8_t)(0xc0 | d << 3 | b));
}
static void knot(cbuf *c, int d, int a) { put(c, 0xc5), put(c, 0xf8), put(c, 0x44), put(c, (uint8_t)(0xc0 | d << 3 | a)); }
static void vload(cbuf *c, int z, int gpr, int32_t d) { evex(c, MAP_0F, PP_F3, 0x6f, z, -1, mem(gpr, d), -1); }  /* vmovdqu32 */
static void vstore(cbuf *c, int z, int gpr, int32_t d) { evex(c, MAP_0F, PP_F3, 0x7f, z, -1, mem(gpr, d), -1); } /* vmovdqu32 */
static void vmov(cbuf *c, int d, int s) { evex(c, MAP_0F, PP_66, 0x6f, d, -1, zr(s), -1); }                     /* vmovdqa32 */
static void bcast(cbuf *c, int z, rmo m) { evex(c, MAP_0F38, PP_66, 0x58, z, -1, m, -1); }                      /* vpbroadcastd */
/* d = a op b for the NDS forms (vvvv = a, rm = b) */
static void op3(cbuf *c, int map, int pp, uint8_t opc, int d, int a, int b) { evex(c, map, pp, opc, d, a, zr(b), -1); }
#define VPADDD(d, a, b) op3(c, MAP_0F, PP_66, 0xfe, d, a, b)
#define VPSUBD(d, a, b) op3(c, MAP_0F, PP_66, 0xfa, d, a, b)
#define VPANDD(d, a, b) op3(c, MAP_0F, PP_66, 0xdb, d, a, b)
#define VPORD(d, a, b) op3(c, MAP_0F, PP_66, 0xeb, d, a, b)
#define VPXORD(d, a, b) op3(c, MAP_0F, PP_66, 0xef, d, a, b)
#define VPMULLD(d, a, b) op3(c, MAP_0F38, PP_66, 0x40, d, a, b)
#define VPSLLVD(d, a, b) op3(c, MAP_0F38, PP_66, 0x47, d, a, b) /* d = a << b per lane */
#define VPSRLVD(d, a, b) op3(c, MAP_0F38, PP_66, 0x45, d, a, b)
#define VPSRAVD(d, a, b) op3(c, MAP_0F38, PP_66, 0x46, d, a, b)
#define VPMINSD(d, a, b) op3(c, MAP_0F38, PP_66, 0x39, d, a, b)
#define VPMINUD(d, a, b) op3(c, MAP_0F38, PP_66, 0x3b, d, a, b)
#define VPMAXSD(d, a, b) op3(c, MAP_0F38, PP_66, 0x3d, d, a, b)
#define VPMAXUD(d, a, b) op3(c, MAP_0F38, PP_66, 0x3f, d, a, b)
#define VADDPS(d, a, b) op3(c, MAP_0F, PP_NONE, 0x58, d, a, b)
#define VMULPS(d, a, b) op3(c, MAP_0F, PP_NONE, 0x59, d, a, b)
#define VSUBPS(d, a, b) op3(c, MAP_0F, PP_NONE, 0x5c, d, a, b)            /* d = a - b */
#define VFMADD132PS(d, a, b) op3(c, MAP_0F38, PP_66, 0x98, d, a, b)       /* d = d * b + a */
#define VTERNLOG(d, a, b, t) evex(c, MAP_0F3A, PP_66, 0x25, d, a, zr(b), t) /* d = t(d, a, b) */
#define VPSRLD_I(d, s, n) evex(c, MAP_0F, PP_66, 0x72, 2, d, zr(s), n)      /* d = s >> n (EVEX.NDD /2) */
#define VPSLLD_I(d, s, n) evex(c, MAP_0F, PP_66, 0x72, 6, d, zr(s), n)      /* d = s << n (EVEX.NDD /6) */
#define VPSRAD_I(d, s, n) evex(c, MAP_0F, PP_66, 0x72, 4, d, zr(s), n)      /* d = s >> n, signed (EVEX.NDD /4) */
#define VPSUBD_K1(d, a, b) evex_k(c, MAP_0F, PP_66, 0xfa, d, a, zr(b), -1, 1) /* d = k1 ? a - b : d */
#define VPBLENDMD_K1(d, a, b) evex_k(c, MAP_0F38, PP_66, 0x64, d, a, zr(b), -1, 1) /* d = k1 ? b : a */
#define VCMPPS_K1(a, b, p) evex(c, MAP_0F, PP_NONE, 0xc2, 1, a, zr(b), p)     /* k1 = a p b */
#define VPCMPD_K1(a, b, p) evex(c, MAP_0F3A, PP_66, 0x1f, 1, a, zr(b), p)
#define VPCMPUD_K1(a, b, p) evex(c, MAP_0F3A, PP_66, 0x1e, 1, a, zr(b), p)
#define VCVTDQ2PS(d, s) evex(c, MAP_0F, PP_NONE, 0x5b, d, -1, zr(s), -1)
/* the f16 conversions: vcvtps2ph ymm(d) <- zmm(s) with the immediate's rounding (ModRM.reg the
 * source), vpmovzxwd zmm(d) <- ymm(s), vpmovdw ymm(d) <- zmm(s) (ModRM.reg the source), vcvtph2ps
 * zmm(d) <- ymm(s); vpternlogd under k1 (the other lanes keep d) */
#define VCVTPS2PH(d, s, imm) evex(c, MAP_0F3A, PP_66, 0x1d, s, -1, zr(d), imm)
#define VPMOVZXWD(d, s) evex(c, MAP_0F38, PP_66, 0x33, d, -1, zr(s), -1)
#define VPMOVDW(d, s) evex(c, MAP_0F38, PP_F3, 0x33, s, -1, zr(d), -1)
#define VCVTPH2PS(d, s) evex(c, MAP_0F38, PP_66, 0x13, d, -1, zr(s), -1)
#define VTERNLOG_K1(d, a, b, t) evex_k(c, MAP_0F3A, PP_66, 0x25, d, a, zr(b), t, 1)
/* the float max/min's masks (minmax): compares into opmask k, a blend under k,
 * k = the sign bits (vpmovd2m), k = km & ((a & b) == 0) per lane (vptestnmd under km) */
#define VCMPPS_K(k, a, b, p) evex(c, MAP_0F, PP_NONE, 0xc2, k, a, zr(b), p)
#define VPCMPUD_K(k, a, b, p) evex(c, MAP_0F3A, PP_66, 0x1e, k, a, zr(b), p)
#define VPBLENDMD_K(k, d, a, b) evex_k(c, MAP_0F38, PP_66, 0x64, d, a, zr(b), -1, k) /* d = k ? b : a */
#define VPMOVD2M(k, a) evex(c, MAP_0F38, PP_F3, 0x39, k, -1, zr(a), -1)
#define VPTESTNMD_K(k, km, a, b) evex_k(c, MAP_0F38, PP_F3, 0x27, k, a, zr(b), -1, km)
/* v_mad_u64_u32 (mad64): vpmuludq d = a * b of each qword's low dwords (EVEX.66.0F.W1 F4 /r),
 * vpshufd d = s's dwords swapped within each qword (imm 0xb1), k = km & (a p b) unsigned */
#define VPMULUDQ(d, a, b) evex_kw(c, MAP_0F, PP_66, 0xf4, d, a, zr(b), -1, 0, 1)
#define VPSHUFD_SWAP(d, s) evex(c, MAP_0F, PP_66, 0x70, d, -1, zr(s), 0xb1)
#define VPCMPUD_KK(k, km, a, b, p) evex_k(c, MAP_0F3A, PP_66, 0x1e, k, a, zr(b), p, km)

/* vpternlogd's immediate for f(x, y, z) (x the destination's bit, y vvvv's, z rm's): bit x*4 + y*2 + z */
static int tl(int (*f)(int, int, int))
{
  int t = 0;
  for (int i = 0; i < 8; i++) t |= (f(i >> 2 & 1, i >> 1 & 1, i & 1) & 1) << i;
  return t;
}
static int f_not_y(int x, int y, int z) { return (void)x, (void)z, !y; }
static int f_and_or(int x, int y, int z) { return (x & y) | z; }
static int f_or3(int x, int y, int z) { return x | y | z; }
static int f_bfi(int x, int y, int z) { return (x & y) | ((!x) & z); }
static int f_sel_z(int x, int y, int z) { return z ? y : x; }

/* ---- the translation ------------------------------------------------------------------------- */
enum { ZT0 = 0, ZT1 = 1, ZFIRST = 2, NZ = 32 }; /* zmm0, zmm1 temporaries; VGPRs and uniforms in the rest */

/* a uniform the code broadcasts before its first chunk: an SGPR (sg) or a constant */
typedef struct {
  bool sg;
  uint32_t k;
} uni;
typedef struct {
  uni u[NZ + 8]; /* + 8: a record adds at most 7 (constants, sources, destination) before the check */
  int nu;
  uint16_t vg[NZ + 8]; /* the VGPRs the run touches */
  int nv;
  /* SGPR pairs the piece's compares write (their first SGPR). Per chunk, a compare writes the chunk's
   * 16 bits and a v_cndmask_b32 reads them, so a mask pair is read in instruction order (pairs are
   * even-aligned: LLVM prints an odd pair's encoding as the even pair below it, so two pairs are
   * the same or disjoint); a uniform source, broadcast before the piece, is not */
  uint16_t cw[EMU_FUSE_MAX];
  int ncw;
  /* the piece's last SCC writer's destination pair + 1 (emu_insn.jit_scc); 0 none (or a scalar
   * record's handler, called by the code, set SCC last) */
  uint16_t scc;
  /* the scalar records' (FZ_SALU) SGPRs: written (sw) and read (sr); their handlers run after the
   * chunks, so no lane record after them may read or write what they write, or write what they read */
  uint16_t sw[EMU_FUSE_MAX], sr[2 * EMU_FUSE_MAX];
  int nsw, nsr, nscal;
} plan;
static bool sop(unsigned op) { return op >= FZ_FIRST_S && op <= FZ_LAST_S; }
static bool m64(unsigned op) { return op == FZ_MOV64 || op == FZ_LSHL64 || op == FZ_LSHL_ADD64; }

static bool written(const plan *p, uint32_t k)
{
  for (int i = 0; i < p->ncw; i++)
    if (k == p->cw[i] || k == p->cw[i] + 1u) return true;
  return false;
}

static bool in_set(const uint16_t *a, int n, uint32_t k)
{
  for (int i = 0; i < n; i++)
    if (a[i] == k) return true;
  return false;
}
/* an SGPR pair (k, k + 1) a lane record reads per chunk: not one a scalar record wrote */
static bool pair_rd_ok(const plan *p, uint32_t k) { return !in_set(p->sw, p->nsw, k) && !in_set(p->sw, p->nsw, k + 1); }
/* an SGPR pair a lane record writes per chunk: not one a scalar record read or wrote */
static bool pair_wr_ok(const plan *p, uint32_t k)
{
  return pair_rd_ok(p, k) && !in_set(p->sr, p->nsr, k) && !in_set(p->sr, p->nsr, k + 1);
}

static bool translatable(unsigned op)
{
  switch (op) {
  case FZ_EXP_F:
  case FZ_MED3_F: case FZ_CVT_I32_F: case FZ_CVT_U32_F: case FZ_RNDNE_F:
    /* the runner's (emu/fuse.c) */
  case FZ_XCALL: /* the runner's: the handler in place (emu_run_xcall) */
  case FZ_NONE: case FZ_FMAC_F: /* FZ_FMAC_F is marked FZ_FMA_F */
    return false;
  default:
    return true;
  }
}
static int nsrc(unsigned op)
{
  switch (op) {
  case FZ_NOP: return 0;
  case FZ_MOV: case FZ_NOT: case FZ_CVT_UB0: case FZ_CVT_UB1: case FZ_CVT_UB2: case FZ_CVT_UB3:
  case FZ_CVT_I32_F: case FZ_CVT_U32_F: case FZ_RNDNE_F: case FZ_CVT_F32_F16: case FZ_CVT_F16_F32: return 1;
  case FZ_AND_OR: case FZ_OR3: case FZ_XAD: case FZ_LSHL_ADD: case FZ_ADD_LSHL: case FZ_ADD3: case FZ_LSHL_OR:
  case FZ_BFI: case FZ_BITOP3: case FZ_BFE_U: case FZ_FMA_F: case FZ_MED3_F: case FZ_MAX3_F: case FZ_MIN3_F: return 3;
  default: return 2;
  }
}
/* the constants an operation needs besides its operands */
enum { K31 = 31, K255 = 255, K1 = 1, KM1 = 0xffffffffu, KABS16 = 0x7fff, KINF16 = 0x7c00, KBIT22 = 1u << 22,
       KSIGN = 0x80000000u, KABS32 = 0x7fffffff, KINF32 = 0x7f800000 };
static int consts(const emu_insn *x, uint32_t k[3])
{
  switch (x->fz_op) {
  case FZ_CVT_F32_F16: k[0] = KABS16, k[1] = KINF16, k[2] = KBIT22; return 3;
  case FZ_LSHL: case FZ_LSHR: case FZ_ASHR: case FZ_LSHL_ADD: case FZ_ADD_LSHL: case FZ_LSHL_OR: k[0] = K31; return 1;
  case FZ_BFE_U: k[0] = K31, k[1] = K1, k[2] = KM1; return 3;
  case FZ_CVT_UB0: case FZ_CVT_UB1: case FZ_CVT_UB2: case FZ_CVT_UB3: k[0] = K255; return 1;
  case FZ_MAX_F: case FZ_MIN_F: case FZ_MAX3_F: case FZ_MIN3_F: k[0] = KABS32, k[1] = KINF32, k[2] = KBIT22; return 3;
  default: return 0;
  }
}

static int uni_find(const plan *p, bool sg, uint32_t k)
{
  for (int i = 0; i < p->nu; i++)
    if (p->u[i].sg == sg && p->u[i].k == k) return i;
  return -1;
}
static int vg_find(const plan *p, uint16_t r)
{
  for (int i = 0; i < p->nv; i++)
    if (p->vg[i] == r) return i;
  return -1;
}

/* uniform (sg, k) into q: broadcast before the piece, so not an SGPR an earlier record of the piece
 * wrote (false: the piece ends before the record) */
static bool plan_uni(plan *q, bool sg, uint32_t k)
{
  if (sg && (k >= EMU_NSFILE || written(q, k) || in_set(q->sw, q->nsw, k))) return false;
  if (uni_find(q, sg, k) < 0) q->u[q->nu++] = (uni){sg, k};
  return true;
}
static void plan_vg(plan *q, uint16_t r)
{
  if (vg_find(q, r) < 0) q->vg[q->nv++] = r;
}

/* source j of a 64-bit (m64) or v_mad_u64_u32 record into q: its VGPR, or its pair's two VGPRs (pair),
 * or its uniform (two uniforms for a pair: an SGPR pair's SGPRs, an inline integer's dwords); false:
 * a uniform SGPR the piece wrote (plan_uni) */
static bool plan_src(plan *q, const emu_insn *x, int j, bool pair)
{
  if (x->fz_uni >> j & 1) {
    const bool sg = x->fz_sg >> j & 1;
    return plan_uni(q, sg, x->fz_k[j]) && (!pair || plan_uni(q, sg, emu_fz_hik(x, j)));
  }
  plan_vg(q, x->fz_src[j]);
  if (pair) plan_vg(q, (uint16_t)(x->fz_src[j] + 1));
  return true;
}

/* how many records from in (at most m) one translation covers: translatable operations whose
 * uniforms and VGPRs fit the registers (one more for a result before its register's old value goes) */
static int plan_run(const emu_insn *in, int m, plan *p)
{
  p->nu = p->nv = p->ncw = 0;
  p->nsw = p->nsr = p->nscal = 0;
  p->scc = 0;
  int n = 0;
  for (; n < m; n++) {
    const emu_insn *x = in + n;
    if (!translatable(x->fz_op)) break;
    plan q = *p;
    if (m64(x->fz_op)) {
      /* the destination pair and each source's pair of VGPRs or of uniforms (an SGPR pair's two
       * SGPRs, an inline integer's dwords); two results live at once before they replace the
       * destination's registers */
      const int ns = x->fz_op == FZ_LSHL_ADD64 ? 2 : 1;
      for (int j = 0; j < ns; j++)
        if (!plan_src(&q, x, j, true) || q.nu + q.nv + 2 > NZ - ZFIRST) goto full;
      plan_vg(&q, x->fz_dst), plan_vg(&q, (uint16_t)(x->fz_dst + 1));
      if (q.nu + q.nv + 2 > NZ - ZFIRST) goto full;
      *p = q;
      continue;
    }
    if (x->fz_op == FZ_MAD64) {
      /* S0 and S1 (a VGPR or a uniform each), S2's pair (as m64's sources), the destination pair, and
       * the carry pair written chunk by chunk as a compare's mask (not the pair SCC is read from
       * after the code, nor one a scalar record reads or writes); two results and two temporaries
       * live at once */
      const uint16_t co = x->o[1].reg; /* the carry pair (emu/fuse.c mad_mark) */
      if (co + 1u >= EMU_NSFILE || !pair_wr_ok(p, co) || p->scc == co + 1u) goto full;
      for (int j = 0; j < 3; j++)
        if (!plan_src(&q, x, j, j == 2) || q.nu + q.nv + 4 > NZ - ZFIRST) goto full;
      plan_vg(&q, x->fz_dst), plan_vg(&q, (uint16_t)(x->fz_dst + 1));
      if (q.nu + q.nv + 4 > NZ - ZFIRST) goto full;
      q.cw[q.ncw++] = co;
      *p = q;
      continue;
    }
    if (x->fz_op == FZ_SALU) {
      /* a scalar record: its handler after the chunks (translate). A destination in the pair SCC is
       * read from after the code only when it sets SCC itself (then the code's call sets it last) */
      const uint32_t d = x->fz_dst;
      const bool sets = x->fz_src[2] & 1;
      if (p->nscal == EMU_FUSE_MAX) goto full;
      if (d != EMU_FZ_NOREG && p->scc && !sets && (d == p->scc - 1u || d == p->scc)) goto full;
      for (int j = 0; j < 2; j++)
        if (x->fz_sg >> j & 1) q.sr[q.nsr++] = x->fz_src[j];
      if (d != EMU_FZ_NOREG) q.sw[q.nsw++] = (uint16_t)d;
      if (sets) q.scc = 0;
      q.nscal++;
      *p = q;
      continue;
    }
    if (x->fz_op == FZ_PK_FMA || x->fz_op == FZ_PK_MUL) {
      /* each half's sources (VGPRs, SGPRs, a constant's dwords: emu_vop3p_specialise's sp_*), the
       * sign mask, the two destinations; both results live before they replace the destinations */
      const int ns = x->fz_op == FZ_PK_MUL ? 2 : 3;
      for (int hh = 0; hh < 2; hh++)
        for (int j = 0; j < ns; j++) {
          if (!(x->sp_uni >> j & 1)) plan_vg(&q, x->sp_reg[1 + j][hh]);
          else if (x->sp_sgpr >> j & 1) {
            if (!plan_uni(&q, true, x->sp_reg[1 + j][hh])) goto full;
          } else {
            plan_uni(&q, false, (uint32_t)(x->sp_kv[j] >> (32 * hh)));
          }
          if (q.nu + q.nv + 2 > NZ - ZFIRST) goto full;
        }
      if (x->sp_neg) plan_uni(&q, false, KSIGN);
      plan_vg(&q, x->sp_reg[0][0]), plan_vg(&q, x->sp_reg[0][1]);
      if (q.nu + q.nv + 2 > NZ - ZFIRST) goto full;
      *p = q;
      continue;
    }
    if (sop(x->fz_op)) {
      /* mask bits only, chunk by chunk (emit_rec): no VGPR, no uniform. SCC is set after the code
       * from the last SCC writer's destination, so nothing after it in the piece may write that pair */
      if (p->scc == x->fz_dst + 1u && x->fz_op == FZ_S_MOV) goto full;
      if (!pair_wr_ok(p, x->fz_dst) || !pair_rd_ok(p, x->fz_src[0]) || !pair_rd_ok(p, x->fz_src[1])) goto full;
      if (x->fz_op != FZ_S_MOV) q.scc = (uint16_t)(x->fz_dst + 1u);
      q.cw[q.ncw++] = x->fz_dst;
      *p = q;
      continue;
    }
    /* a half-keeping row would read its destination (none in emu/ops.def: the runner runs it) */
    if (x->fz_op == FZ_CVT_F16_F32 && !(x->flags & EMU_F_D16Z)) goto full;
    const int ns = nsrc(x->fz_op);
    uint32_t k[3];
    const int nk = consts(x, k);
    for (int j = 0; j < nk; j++) plan_uni(&q, false, k[j]);
    const bool cmp = x->fz_op == FZ_CMP_F || x->fz_op == FZ_CMP_I || x->fz_op == FZ_CMP_U;
    if ((x->fz_op == FZ_CNDMASK && x->fz_src[2] + 1u >= EMU_NSFILE) || (cmp && x->fz_dst + 1u >= EMU_NSFILE)) goto full;
    if ((x->fz_op == FZ_CNDMASK && !pair_rd_ok(p, x->fz_src[2])) || (cmp && !pair_wr_ok(p, x->fz_dst))) goto full;
    for (int j = 0; j < ns; j++) {
      if (x->fz_uni >> j & 1) {
        if (!plan_uni(&q, x->fz_sg >> j & 1, x->fz_k[j])) goto full;
      } else {
        plan_vg(&q, x->fz_src[j]);
      }
      if (q.nu + q.nv + 1 > NZ - ZFIRST) goto full;
    }
    if (cmp && p->scc == x->fz_dst + 1u) goto full; /* the SCC pair overwritten */
    if (cmp) q.cw[q.ncw++] = x->fz_dst;
    else if (x->fz_op != FZ_NOP) plan_vg(&q, x->fz_dst);
    /* a result, and for max3 / min3 the first pair's besides */
    if (q.nu + q.nv + 1 + (x->fz_op == FZ_MAX3_F || x->fz_op == FZ_MIN3_F) > NZ - ZFIRST) goto full;
    *p = q;
  }
full:
  return n;
}

typedef struct {
  int zu[NZ];       /* uniform i's register */
  int zv[NZ];       /* VGPR i's register in this chunk, -1 none */
  bool dirty[NZ];
  bool busy[NZ];    /* a register holding a uniform or a VGPR */
} regs;

static int zalloc(regs *r)
{
  for (int z = ZFIRST; z < NZ; z++)
    if (!r->busy[z]) {
      r->busy[z] = true;
      return z;
    }
  return -1; /* not reached: plan_run kept one free */
}
/* the register of VGPR v in chunk ch, loaded at its first read */
static int vsrc(cbuf *c, const plan *p, regs *r, uint16_t v, int ch)
{
  const int i = vg_find(p, v);
  if (r->zv[i] < 0) {
    r->zv[i] = zalloc(r);
    vload(c, r->zv[i], GPR_RDI, (int32_t)(v * EMU_LANES * 4 + JIT_CB * ch));
  }
  return r->zv[i];
}
/* the register of a record's source j in chunk ch */
static int src(cbuf *c, const plan *p, regs *r, const emu_insn *x, int j, int ch)
{
  if (x->fz_uni >> j & 1) return r->zu[uni_find(p, x->fz_sg >> j & 1, x->fz_k[j])];
  return vsrc(c, p, r, x->fz_src[j], ch);
}
static int kreg(const plan *p, const regs *r, uint32_t k) { return r->zu[uni_find(p, false, k)]; }
/* a 64-bit source j's low and high registers in chunk ch (plan_run's uniforms or VGPR pair) */
static void src64(cbuf *c, const plan *p, regs *r, const emu_insn *x, int j, int ch, int *lo, int *hi)
{
  if (x->fz_uni >> j & 1) {
    const bool sg = x->fz_sg >> j & 1;
    *lo = r->zu[uni_find(p, sg, x->fz_k[j])], *hi = r->zu[uni_find(p, sg, emu_fz_hik(x, j))];
    return;
  }
  *lo = vsrc(c, p, r, x->fz_src[j], ch), *hi = vsrc(c, p, r, (uint16_t)(x->fz_src[j] + 1), ch);
}
/* VGPR v now in register z (written): its old register freed */
static void remap(const plan *p, regs *r, uint16_t v, int z)
{
  const int i = vg_find(p, v);
  if (r->zv[i] >= 0) r->busy[r->zv[i]] = false;
  r->zv[i] = z, r->dirty[i] = true;
}

/* packed source j's register for half hh (0 low, 1 high) in chunk ch */
static int pk_src(cbuf *c, const plan *p, regs *r, const emu_insn *x, int j, int hh, int ch)
{
  if (!(x->sp_uni >> j & 1)) return vsrc(c, p, r, x->sp_reg[1 + j][hh], ch);
  if (x->sp_sgpr >> j & 1) return r->zu[uni_find(p, true, x->sp_reg[1 + j][hh])];
  return r->zu[uni_find(p, false, (uint32_t)(x->sp_kv[j] >> (32 * hh)))];
}

/* v_max_f32 / v_min_f32 of registers a, b into d (none of them ZT0 or ZT1, d neither a nor b): emu/fuse.c
 * FZ_MINMAX's steps in its order, each a blend under a mask (k4 a's NaN lanes, k5 b's, k1 the ordered
 * compare then equality, k6 a's sign then the signalling NaNs; k7 all ones in IEEE mode, set before
 * the chunks by translate): the picked operand, on equality the one the sign decides (+0 and -0), b's
 * NaN gives a, a's NaN gives b or, both NaNs, a quieted; in IEEE mode a signalling NaN operand, b's
 * then a's, comes back quieted */
static void minmax(cbuf *c, const plan *p, const regs *r, int d, int a, int b, bool mx)
{
  const int kabs = kreg(p, r, KABS32), kinf = kreg(p, r, KINF32), kq = kreg(p, r, KBIT22);
  VPANDD(ZT0, a, kabs); VPCMPUD_K(4, ZT0, kinf, 6); /* not <=: (a & 0x7fffffff) > 0x7f800000 */
  VPANDD(ZT0, b, kabs); VPCMPUD_K(5, ZT0, kinf, 6);
  VCMPPS_K(1, a, b, mx ? _CMP_GT_OQ : _CMP_LT_OQ);
  VPBLENDMD_K(1, d, b, a);
  VCMPPS_K(1, a, b, _CMP_EQ_OQ);
  VPMOVD2M(6, a);
  if (mx) VPBLENDMD_K(6, ZT0, a, b); /* a negative: b */
  else VPBLENDMD_K(6, ZT0, b, a);    /* a negative: a */
  VPBLENDMD_K(1, d, d, ZT0);
  VPBLENDMD_K(5, d, d, a);
  VPORD(ZT0, a, kq);
  VPBLENDMD_K(5, ZT1, b, ZT0);
  VPBLENDMD_K(4, d, d, ZT1);
  VPTESTNMD_K(6, 5, b, kq); kop(c, KANDW, 6, 6, 7);
  VPORD(ZT0, b, kq); VPBLENDMD_K(6, d, d, ZT0);
  VPTESTNMD_K(6, 4, a, kq); kop(c, KANDW, 6, 6, 7);
  VPORD(ZT0, a, kq); VPBLENDMD_K(6, d, d, ZT0);
}

/* v_mad_u64_u32 in chunk ch (emu/simd.c mad_u64_u32_512's arithmetic): the even lanes' 64-bit
 * products by vpmuludq, the odd lanes' from the sources with each qword's dwords swapped; the
 * products' low dwords and high dwords put in lane order by blends under k4 = the odd lanes; the low
 * sum lo = plo + clo with its carry k1 = lo < clo; t = phi + chi, whose wrap k2 = t < chi; the sum's
 * carry-out k2 | (k1 & t == ~0) (the product's high dword is at most 2^32 - 2, so at most one of the
 * two wraps); hi = t + k1. The carry-out's 16 bits into the chunk's part of the pair of operand 1, as
 * a compare's mask. */
static void mad64(cbuf *c, const plan *p, regs *r, const emu_insn *x, int ch)
{
  const int a = src(c, p, r, x, 0, ch), b = src(c, p, r, x, 1, ch);
  int cl, chh;
  src64(c, p, r, x, 2, ch, &cl, &chh);
  const int dl = zalloc(r), dh = zalloc(r), pe = zalloc(r), po = zalloc(r);
  put(c, 0xb8), put32(c, 0xaaaau);                          /* mov eax, 0xaaaa */
  put(c, 0xc5), put(c, 0xf8), put(c, 0x92), put(c, 0xe0); /* kmovw k4, eax */
  VPMULUDQ(pe, a, b);
  VPSHUFD_SWAP(ZT0, a);
  VPSHUFD_SWAP(ZT1, b);
  VPMULUDQ(po, ZT0, ZT1);
  VPSHUFD_SWAP(ZT0, po);           /* even dwords: the odd lanes' high halves; odd: their low ones */
  VPSHUFD_SWAP(ZT1, pe);           /* even dwords: the even lanes' high halves */
  VPBLENDMD_K(4, dl, pe, ZT0);     /* the products' low dwords in lane order */
  VPBLENDMD_K(4, dh, ZT1, po);     /* their high dwords */
  VPADDD(dl, dl, cl);
  VPCMPUD_K(1, dl, cl, 1);         /* k1 = lo < clo: the low sum's carry */
  VPADDD(dh, dh, chh);
  VPCMPUD_K(2, dh, chh, 1);        /* k2 = t < chi */
  VTERNLOG(ZT0, ZT0, ZT0, 0xff);   /* all ones */
  VPCMPUD_KK(3, 1, dh, ZT0, 0);    /* k3 = k1 & (t == ~0) */
  kop(c, KORW, 2, 2, 3);
  VPSUBD_K1(dh, dh, ZT0);          /* t + 1 where the low sum carried */
  kmov_k(c, 0x91, 2, (int32_t)(4 * x->o[1].reg + 2 * ch));
  r->busy[pe] = r->busy[po] = false;
  remap(p, r, x->fz_dst, dl);
  remap(p, r, (uint16_t)(x->fz_dst + 1), dh);
}

/* is source j a constant (uniform, not an SGPR: its value fz_k[j] known when translating)? */
static bool kconst(const emu_insn *x, int j) { return (x->fz_uni >> j & 1) && !(x->fz_sg >> j & 1); }
enum { SH_L, SH_R, SH_A }; /* shift left, right logical, right arithmetic */
/* d = s shifted (kind) by source j's bits 4:0, whose register is amt: a constant amount by the
 * immediate form, any other masked into ZT0 and by the variable form (s may be ZT0 only then: the
 * variable form reads it before writing d) */
static void shift_by(cbuf *c, const plan *p, regs *r, const emu_insn *x, int j, int amt, int d, int s, int kind)
{
  if (kconst(x, j)) {
    const int n = (int)(x->fz_k[j] & 31);
    if (kind == SH_L) VPSLLD_I(d, s, n);
    else if (kind == SH_R) VPSRLD_I(d, s, n);
    else VPSRAD_I(d, s, n);
    return;
  }
  VPANDD(ZT0, amt, kreg(p, r, K31));
  if (kind == SH_L) VPSLLVD(d, s, ZT0);
  else if (kind == SH_R) VPSRLVD(d, s, ZT0);
  else VPSRAVD(d, s, ZT0);
}

/* one record in chunk ch: the result in a fresh register, then the destination's mapping moved to it */
static void emit_rec(cbuf *c, const plan *p, regs *r, const emu_insn *x, int ch)
{
  const unsigned op = x->fz_op;
  if (op == FZ_NOP || op == FZ_SALU) return; /* a scalar record: after the chunks (translate) */
  if (op == FZ_PK_FMA || op == FZ_PK_MUL) {
    /* emu/op_vop3p.c's FMA-host kernels, half by half: v_pk_mul_f32 by vmulps with src1 first in the
     * low half and src0 first in the high one (pk_mul_half's operands as sp_kernel_ passes them);
     * v_pk_fma_f32 by vfmadd132ps with a, then c, then b as its operands (pk_fma_half: d = a * b + c),
     * each source xored with its sign mask of the half (sp_nm, in the order the halves run) first */
    int res[2];
    for (int hh = 0; hh < 2; hh++) {
      const int h = x->sp_hi_first ? 1 - hh : hh;
      const int a = pk_src(c, p, r, x, 0, hh, ch), b = pk_src(c, p, r, x, 1, hh, ch);
      const int d = zalloc(r);
      if (op == FZ_PK_MUL) {
        if (hh == 0) VMULPS(d, b, a);
        else VMULPS(d, a, b);
      } else {
        const int s2 = pk_src(c, p, r, x, 2, hh, ch), km = x->sp_neg ? kreg(p, r, KSIGN) : -1;
        int bb = b, cc = s2;
        if (x->sp_nm[h][0]) VPXORD(d, a, km);
        else vmov(c, d, a);
        if (x->sp_nm[h][1]) VPXORD(ZT0, b, km), bb = ZT0;
        if (x->sp_nm[h][2]) VPXORD(ZT1, s2, km), cc = ZT1;
        VFMADD132PS(d, cc, bb);
      }
      res[hh] = d;
    }
    remap(p, r, x->sp_reg[0][0], res[0]);
    remap(p, r, x->sp_reg[0][1], res[1]);
    return;
  }
  if (op == FZ_MAD64) {
    mad64(c, p, r, x, ch);
    return;
  }
  if (m64(op)) { /* fuse.c run64's operations on the chunk's low and high dwords */
    int al, ah, cl = -1, ch_ = -1;
    src64(c, p, r, x, 0, ch, &al, &ah);
    if (op == FZ_LSHL_ADD64) src64(c, p, r, x, 1, ch, &cl, &ch_);
    const unsigned n = x->fz_src[2];
    const int dl = zalloc(r), dh = zalloc(r);
    int tl_ = al; /* the shifted low half (dl or ZT0) */
    if (op == FZ_MOV64 || n == 0) {
      if (op != FZ_LSHL_ADD64) vmov(c, dl, al);
      vmov(c, dh, ah);
    } else if (n < 32) {
      VPSRLD_I(ZT1, al, (int)(32 - n));
      VPSLLD_I(dh, ah, (int)n);
      VPORD(dh, dh, ZT1);
      tl_ = op == FZ_LSHL_ADD64 ? ZT0 : dl;
      VPSLLD_I(tl_, al, (int)n);
    } else {
      VPXORD(dl, dl, dl);
      if (n == 32) vmov(c, dh, al);
      else VPSLLD_I(dh, al, (int)(n - 32));
    }
    if (op == FZ_LSHL_ADD64) { /* low sum, its carry (sum < addend) into the high sum */
      VPADDD(dl, tl_, cl);
      VPCMPUD_K1(dl, cl, 1);
      VPADDD(dh, dh, ch_);
      VTERNLOG(ZT1, ZT1, ZT1, 0xff);
      VPSUBD_K1(dh, dh, ZT1);
    }
    remap(p, r, x->fz_dst, dl);
    remap(p, r, (uint16_t)(x->fz_dst + 1), dh);
    return;
  }
  if (sop(op)) { /* k2, k3 the sources' chunk bits, k1 the result, into the destination pair */
    kmov_k(c, 0x90, 2, (int32_t)(4 * x->fz_src[0] + 2 * ch));
    if (op != FZ_S_MOV && op != FZ_S_NOT) kmov_k(c, 0x90, 3, (int32_t)(4 * x->fz_src[1] + 2 * ch));
    switch (op) {
    case FZ_S_AND: kop(c, KANDW, 1, 2, 3); break;
    case FZ_S_OR: kop(c, KORW, 1, 2, 3); break;
    case FZ_S_XOR: kop(c, KXORW, 1, 2, 3); break;
    case FZ_S_ANDN2: kop(c, KANDNW, 1, 3, 2); break; /* ~b & a */
    case FZ_S_ORN2: knot(c, 3, 3), kop(c, KORW, 1, 2, 3); break;
    case FZ_S_NAND: kop(c, KANDW, 1, 2, 3), knot(c, 1, 1); break;
    case FZ_S_NOR: kop(c, KORW, 1, 2, 3), knot(c, 1, 1); break;
    case FZ_S_XNOR: kop(c, KXNORW, 1, 2, 3); break;
    case FZ_S_NOT: knot(c, 1, 2); break;
    default: kop(c, KORW, 1, 2, 2); break; /* FZ_S_MOV: a | a */
    }
    kmov_k1(c, 0x91, (int32_t)(4 * x->fz_dst + 2 * ch));
    return;
  }
  const int ns = nsrc(op);
  int a = ns > 0 ? src(c, p, r, x, 0, ch) : -1, b = ns > 1 ? src(c, p, r, x, 1, ch) : -1,
      s3 = ns > 2 ? src(c, p, r, x, 2, ch) : -1;
  if (op == FZ_CMP_F || op == FZ_CMP_I || op == FZ_CMP_U) { /* k1 = the chunk's 16 bits, into the pair */
    static const uint8_t fp[] = {[CP_LT] = _CMP_LT_OQ,    [CP_EQ] = _CMP_EQ_OQ,   [CP_LE] = _CMP_LE_OQ,
                                 [CP_GT] = _CMP_GT_OQ,    [CP_GE] = _CMP_GE_OQ,   [CP_LG] = _CMP_NEQ_OQ,
                                 [CP_O] = _CMP_ORD_Q,     [CP_U] = _CMP_UNORD_Q,  [CP_NGE] = _CMP_NGE_UQ,
                                 [CP_NLG] = _CMP_EQ_UQ,   [CP_NGT] = _CMP_NGT_UQ, [CP_NLE] = _CMP_NLE_UQ,
                                 [CP_NEQ] = _CMP_NEQ_UQ,  [CP_NLT] = _CMP_NLT_UQ}; /* fuse.c cmp_avx2's */
    static const uint8_t ip[] = {[CP_LT] = 1, [CP_EQ] = 0, [CP_LE] = 2, [CP_GT] = 6, [CP_GE] = 5, [CP_NE] = 4}; /* vpcmp */
    const unsigned pr = x->fz_src[2];
    if (op == FZ_CMP_F && pr < sizeof fp && pr != CP_NE) VCMPPS_K1(a, b, fp[pr]);
    else if (op != FZ_CMP_F && pr <= CP_NE) {
      if (op == FZ_CMP_I) VPCMPD_K1(a, b, ip[pr]);
      else VPCMPUD_K1(a, b, ip[pr]);
    } else {
      c->bad = true;
    }
    kmov_k1(c, 0x91, (int32_t)(4 * x->fz_dst + 2 * ch));
    return;
  }
  const int d = zalloc(r);
  switch (op) {
  case FZ_CNDMASK: kmov_k1(c, 0x90, (int32_t)(4 * x->fz_src[2] + 2 * ch)); VPBLENDMD_K1(d, a, b); break; /* S1 where set */
  case FZ_MOV: vmov(c, d, a); break;
  case FZ_NOT: VTERNLOG(d, a, a, tl(f_not_y)); break;
  case FZ_ADD: VPADDD(d, a, b); break;
  case FZ_SUB: VPSUBD(d, a, b); break;
  case FZ_SUBREV: VPSUBD(d, b, a); break;
  case FZ_AND: VPANDD(d, a, b); break;
  case FZ_OR: VPORD(d, a, b); break;
  case FZ_XOR: VPXORD(d, a, b); break;
  case FZ_MUL_LO: VPMULLD(d, a, b); break;
  /* shifts: D = S1 shifted by S0[4:0] */
  /* a constant amount (an inline constant or literal, known here) by the immediate forms */
  case FZ_LSHL: shift_by(c, p, r, x, 0, a, d, b, SH_L); break;
  case FZ_LSHR: shift_by(c, p, r, x, 0, a, d, b, SH_R); break;
  case FZ_ASHR: shift_by(c, p, r, x, 0, a, d, b, SH_A); break;
  case FZ_MIN_I: VPMINSD(d, a, b); break;
  case FZ_MAX_I: VPMAXSD(d, a, b); break;
  case FZ_MIN_U: VPMINUD(d, a, b); break;
  case FZ_MAX_U: VPMAXUD(d, a, b); break;
  case FZ_AND_OR: vmov(c, d, a); VTERNLOG(d, b, s3, tl(f_and_or)); break;
  case FZ_OR3: vmov(c, d, a); VTERNLOG(d, b, s3, tl(f_or3)); break;
  case FZ_BFI: vmov(c, d, a); VTERNLOG(d, b, s3, tl(f_bfi)); break;
  case FZ_BITOP3: vmov(c, d, a); VTERNLOG(d, b, s3, x->bitop3); break; /* table bit a*4 + b*2 + c */
  case FZ_XAD: VPXORD(ZT0, a, b); VPADDD(d, ZT0, s3); break;
  case FZ_LSHL_ADD: shift_by(c, p, r, x, 1, b, ZT0, a, SH_L); VPADDD(d, ZT0, s3); break;
  case FZ_ADD_LSHL: VPADDD(ZT0, a, b); VPANDD(ZT1, s3, kreg(p, r, K31)); VPSLLVD(d, ZT0, ZT1); break;
  case FZ_ADD3: VPADDD(ZT0, a, b); VPADDD(d, ZT0, s3); break;
  case FZ_LSHL_OR: shift_by(c, p, r, x, 1, b, ZT0, a, SH_L); VPORD(d, ZT0, s3); break;
  case FZ_BFE_U: /* (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1) */
    VPANDD(ZT0, b, kreg(p, r, K31)); VPSRLVD(ZT0, a, ZT0);
    VPANDD(ZT1, s3, kreg(p, r, K31)); VPSLLVD(ZT1, kreg(p, r, K1), ZT1); VPADDD(ZT1, ZT1, kreg(p, r, KM1));
    VPANDD(d, ZT0, ZT1);
    break;
  case FZ_CVT_UB0: case FZ_CVT_UB1: case FZ_CVT_UB2: case FZ_CVT_UB3: {
    const int sh = 8 * (int)(op - FZ_CVT_UB0);
    if (sh) VPSRLD_I(ZT0, a, sh), VPANDD(ZT0, ZT0, kreg(p, r, K255));
    else VPANDD(ZT0, a, kreg(p, r, K255));
    VCVTDQ2PS(d, ZT0);
    break;
  }
  /* the f16 conversions as the runner's whole-wave kernels (emu/simd.c f32_to_f16_512, f16_to_f32_512
   * and its scalar redo of NaN halves) give them: vcvtps2ph with round to nearest even and exceptions
   * suppressed, zero-extended into the low half (the high half zeroed: plan_run takes only rows
   * flagged EMU_F_D16Z, every v_cvt_f16_f32 of emu/ops.def); vcvtph2ps of the low half, and in the
   * NaN lanes ((a & 0x7fff) > 0x7c00) bit 22, which vcvtph2ps sets to quiet the NaN, put back to the
   * half's bit 9 (emu_f16_to_f32 keeps the payload: s | 0x7f800000 | m << 13) */
  case FZ_CVT_F16_F32:
    VCVTPS2PH(ZT0, a, 8);
    VPMOVZXWD(d, ZT0);
    break;
  case FZ_CVT_F32_F16:
    VPMOVDW(ZT0, a);
    VCVTPH2PS(d, ZT0);
    VPANDD(ZT0, a, kreg(p, r, KABS16));
    VPCMPUD_K1(ZT0, kreg(p, r, KINF16), 6); /* k1 = > 0x7c00 (not less or equal) */
    VPSLLD_I(ZT1, a, 13);
    VTERNLOG_K1(d, ZT1, kreg(p, r, KBIT22), tl(f_sel_z));
    break;
  /* the float operations in flt_avx2's operand order (emu/fuse.c) */
  case FZ_ADD_F: VADDPS(d, b, a); break;
  case FZ_SUB_F: VSUBPS(d, a, b); break;
  case FZ_SUBREV_F: VSUBPS(d, b, a); break;
  case FZ_MUL_F: VMULPS(d, b, a); break;
  case FZ_FMA_F: vmov(c, d, b); VFMADD132PS(d, s3, a); break; /* d = S1 * S0 + S2 */
  /* the float max / min (minmax): emu/fuse.c FZ_MINMAX's steps */
  case FZ_MAX_F: case FZ_MIN_F: minmax(c, p, r, d, a, b, op == FZ_MAX_F); break;
  case FZ_MAX3_F: case FZ_MIN3_F: { /* the runner's order: (a op b) op c */
    const int t = zalloc(r);
    minmax(c, p, r, t, a, b, op == FZ_MAX3_F);
    minmax(c, p, r, d, t, s3, op == FZ_MAX3_F);
    r->busy[t] = false;
    break;
  }
  default: c->bad = true; return;
  }
  remap(p, r, x->fz_dst, d);
}

/* k7 = all ones when the wave runs in IEEE mode (emu_ieee_mode: the kernel's rsrc1 bit 23, none
 * without a workgroup, dispatch or kernel), from the wave in rdx: the float max/min's signalling NaNs */
static void ieee_k7(cbuf *c)
{
  static const int32_t off[3] = {(int32_t)offsetof(emu_wave, wg), (int32_t)offsetof(emu_wg, d),
                                 (int32_t)offsetof(emu_dispatch, kernel)};
  size_t jz[3];
  put(c, 0x31), put(c, 0xc0); /* xor eax, eax */
  for (int i = 0; i < 3; i++) {
    put(c, i ? 0x4d : 0x4c), put(c, 0x8b), put(c, i ? 0x80 : 0x82), put32(c, (uint32_t)off[i]); /* mov r8, [rdx|r8 + off] */
    put(c, 0x4d), put(c, 0x85), put(c, 0xc0);                                                    /* test r8, r8 */
    put(c, 0x74), put(c, 0), jz[i] = c->n;                                                       /* jz done */
  }
  put(c, 0x41), put(c, 0x8b), put(c, 0x80), put32(c, (uint32_t)offsetof(emu_kernel, rsrc1)); /* mov eax, [r8 + rsrc1] */
  put(c, 0xc1), put(c, 0xe8), put(c, 23);                                                    /* shr eax, 23 */
  put(c, 0x83), put(c, 0xe0), put(c, 1);                                                     /* and eax, 1 */
  put(c, 0xf7), put(c, 0xd8);                                                                /* neg eax */
  for (int i = 0; i < 3 && !c->bad; i++) c->b[jz[i] - 1] = (uint8_t)(c->n - jz[i]);
  put(c, 0xc5), put(c, 0xf8), put(c, 0x92), put(c, 0xf8); /* kmovw k7, eax */
}

/* a piece's segments (forty-second stop): a piece is the records of up to JIT_SEGS segments, each
 * records planned as one plan_run (its lane records in the four chunks, then its scalar records'
 * handlers) followed by its ncall FZ_XCALL records (ds_bpermute_b32, s_waitcnt), called in place
 * through emu_run_xcall as the runner calls them. Between two segments every register is in the
 * register files: the next segment broadcasts its uniforms again and reads what the calls wrote, so
 * the whole of a warp reduction (bpermute, max3, s_waitcnt, max ...) is one piece rather than a
 * piece between each two calls and a return to the run-ahead loop for each call. A segment also
 * ends where plan_run's registers or SCC rule end a piece (full), and the piece goes on with the
 * next; it ends at a record with no code (the runner's: v_exp_f32 ...), at the run's end, and at the
 * end of the record's block of several waves (emu_insn.blk_n: a piece runs only when the part of
 * the run that runs holds all of it, emu_jit_try, and a piece past the block's end would leave that
 * part to the runner at every run; a block cut shorter at run time still does) */
enum { JIT_SEGS = 32 };
typedef struct {
  int at, n, ncall; /* its first record (from the piece's), its planned records, the calls after them */
  plan p;
} seg;
static int plan_piece(const emu_insn *in, int m, seg *sg, int *nseg)
{
  int n = 0;
  *nseg = 0;
  while (n < m && *nseg < JIT_SEGS) {
    seg *g = &sg[(*nseg)++];
    g->at = n;
    g->n = plan_run(in + n, m - n, &g->p);
    n += g->n;
    g->ncall = 0;
    while (n < m && in[n].fz_op == FZ_XCALL) n++, g->ncall++;
    /* on past calls, and past a full plan (the next record translatable); else the piece ends */
    if (n < m && !g->ncall && !(g->n && translatable(in[n].fz_op))) break;
  }
  return n;
}

/* The code's frame when it calls handlers: the wave, the counts, the register files, m and the IEEE
 * mask in callee-saved registers (rbx, rbp, r12, r13, r14, r15) around the calls, the stack 16-byte
 * aligned (the return address, six pushes and 8 bytes: 64). Without calls: the arguments where they
 * came, and k7 (ieee_k7) computed where a segment needs it */
static void frame_enter(cbuf *c)
{
  put(c, 0x53), put(c, 0x55), put(c, 0x41), put(c, 0x54), put(c, 0x41), put(c, 0x55), put(c, 0x41), put(c, 0x56);
  put(c, 0x41), put(c, 0x57), put(c, 0x48), put(c, 0x83), put(c, 0xec), put(c, 0x08);
  /* push rbx; push rbp; push r12; push r13; push r14; push r15; sub rsp, 8 */
  put(c, 0x48), put(c, 0x89), put(c, 0xd3); /* mov rbx, rdx (the wave) */
  put(c, 0x48), put(c, 0x89), put(c, 0xcd); /* mov rbp, rcx (the counts) */
  put(c, 0x49), put(c, 0x89), put(c, 0xfc); /* mov r12, rdi (VGPR file) */
  put(c, 0x49), put(c, 0x89), put(c, 0xf5); /* mov r13, rsi (SGPR file) */
  put(c, 0x45), put(c, 0x89), put(c, 0xc6); /* mov r14d, r8d (m) */
}
static void frame_leave(cbuf *c)
{
  put(c, 0x48), put(c, 0x83), put(c, 0xc4), put(c, 0x08), put(c, 0x41), put(c, 0x5f);
  put(c, 0x41), put(c, 0x5e), put(c, 0x41), put(c, 0x5d), put(c, 0x41), put(c, 0x5c), put(c, 0x5d), put(c, 0x5b);
  /* add rsp, 8; pop r15; pop r14; pop r13; pop r12; pop rbp; pop rbx */
}
/* does the segment's code need k7 (the float max/min's IEEE mode)? */
static bool seg_ieee(const emu_insn *in, int n)
{
  for (int j = 0; j < n; j++)
    if (in[j].fz_op == FZ_MAX_F || in[j].fz_op == FZ_MIN_F || in[j].fz_op == FZ_MAX3_F || in[j].fz_op == FZ_MIN3_F) return true;
  return false;
}
static void restore_args(cbuf *c)
{
  put(c, 0x4c), put(c, 0x89), put(c, 0xe7); /* mov rdi, r12 */
  put(c, 0x4c), put(c, 0x89), put(c, 0xee); /* mov rsi, r13 */
  put(c, 0x48), put(c, 0x89), put(c, 0xda); /* mov rdx, rbx */
}
/* add qword [counts + 8j], 1 */
static void count(cbuf *c, bool frame, int j)
{
  put(c, 0x48), put(c, 0x83), put(c, frame ? 0x85 : 0x81), put32(c, (uint32_t)(8 * j)), put(c, 0x01);
}
/* rel32 jumps to a place emitted later (the exits below, bperm_inline, wait_inline): the jump's end
 * kept, patched by jfix_here once the place is reached */
static size_t jrel(cbuf *c, uint8_t op2)
{
  if (op2) put(c, 0x0f), put(c, op2); /* jcc rel32 (0x85 jne, 0x87 ja) */
  else put(c, 0xe9);                  /* jmp rel32 */
  put32(c, 0);
  return c->n;
}
static void jfix_here(cbuf *c, size_t end)
{
  const int32_t d = (int32_t)(c->n - end);
  if (!c->bad) memcpy(c->b + end - 4, &d, 4);
}
/* the code returns `done` (records run) unless m >= need: cmp m, need; jae over; mov eax, done; jmp
 * to the return (its rel32's end kept in ex[] for translate to patch) */
static void exit_unless(cbuf *c, bool frame, int need, int done, size_t *ex, int *nex)
{
  put(c, 0x41), put(c, 0x81), put(c, frame ? 0xfe : 0xf8), put32(c, (uint32_t)need); /* cmp r14d|r8d, need */
  put(c, 0x73), put(c, 10);                                                         /* jae +10 */
  put(c, 0xb8), put32(c, (uint32_t)done);                                           /* mov eax, done */
  ex[(*nex)++] = jrel(c, 0);                                                        /* jmp rel32 */
}
/* fn(w, record) for the wave in rbx */
static void call_rec(cbuf *c, const emu_insn *x, const void *fn)
{
  const uint64_t rec = (uint64_t)(uintptr_t)x, f = (uint64_t)(uintptr_t)fn;
  put(c, 0x48), put(c, 0x89), put(c, 0xdf);                                           /* mov rdi, rbx */
  put(c, 0x48), put(c, 0xbe), put32(c, (uint32_t)rec), put32(c, (uint32_t)(rec >> 32)); /* mov rsi, imm64 */
  put(c, 0x48), put(c, 0xb8), put32(c, (uint32_t)f), put32(c, (uint32_t)(f >> 32));     /* mov rax, imm64 */
  put(c, 0xff), put(c, 0xd0);                                                         /* call rax */
}
/* the code's call of a FZ_XCALL record */
static void jit_xcall(emu_wave *w, const emu_insn *x) { emu_run_xcall(w, x); }

static void pend_ds(emu_wave *w, const emu_insn *x) { emu_pend(w, x, EMU_CNT_DS, 0); }
/* A ds_bpermute_b32 whose three operands are single VGPRs, in a wave of a workgroup of several
 * (emu_wave.rr_solo 0; a solo wave's record is called): the handler's whole-wave path written out,
 * emu/simd.c bperm_512's sequence (d[l] = src[((addr[l] + offset) >> 2) & 63] by two vpermt2d over
 * the four source chunks and a blend by bit 5 of the index; every chunk's index read before any
 * result is stored, the source before the first: d may be either source), then its LDS-counter
 * entry unless the wait that retires it (emu_insn.wsel records later) lies in the part of the block
 * that runs, as emu_run_xcall decides */
static bool bperm_inline_ok(const emu_insn *x)
{
  return x->fn != emu_op_s_waitcnt && x->nop == 3 && x->o[0].kind == EMU_OPK_VGPR && x->o[0].n == 1 &&
         x->o[1].kind == EMU_OPK_VGPR && x->o[1].n == 1 && x->o[2].kind == EMU_OPK_VGPR && x->o[2].n == 1 &&
         !x->o[0].mods && !x->o[1].mods && !x->o[2].mods;
}
#define VPERMT2D(d, i, t) op3(c, MAP_0F38, PP_66, 0x7e, d, i, t) /* d = (i bit 4 ? t : d)[i & 15] */
#define VPTESTMD_K(k, a, b) evex(c, MAP_0F38, PP_66, 0x27, k, a, zr(b), -1) /* k = (a & b) != 0 per lane */
static void bperm_inline(cbuf *c, const emu_insn *x)
{
  put(c, 0x80), put(c, 0xbb), put32(c, (uint32_t)offsetof(emu_wave, rr_solo)), put(c, 0); /* cmp byte [rbx + rr_solo], 0 */
  const size_t to_call = jrel(c, 0x85);                                                  /* jne: the handler */
  put(c, 0x4c), put(c, 0x89), put(c, 0xe7);                                              /* mov rdi, r12 */
  const int32_t R = EMU_LANES * 4;
  if (x->offset) bcast(c, 2, (rmo){RM_POOL, pool_add(c, (uint32_t)x->offset), 0});
  bcast(c, 4, (rmo){RM_POOL, pool_add(c, 32), 0});
  for (int k = 0; k < 4; k++) vload(c, 5 + k, GPR_RDI, (int32_t)(x->o[2].reg * R + JIT_CB * k));
  for (int ch = 0; ch < 4; ch++) {
    /* no & 63: vpermt2d reads bits 3:0 of the index and bit 4 for the table, vptestmd bit 5 (the
     * pair), and no instruction here reads a higher one; no add for an offset of 0 */
    vload(c, 9, GPR_RDI, (int32_t)(x->o[1].reg * R + JIT_CB * ch));
    if (x->offset) VPADDD(9, 9, 2);
    VPSRLD_I(9, 9, 2);
    vmov(c, 10, 5), VPERMT2D(10, 9, 6);
    vmov(c, 11, 7), VPERMT2D(11, 9, 8);
    VPTESTMD_K(1, 9, 4);
    VPBLENDMD_K1(12 + ch, 10, 11);
  }
  for (int ch = 0; ch < 4; ch++) vstore(c, 12 + ch, GPR_RDI, (int32_t)(x->o[0].reg * R + JIT_CB * ch));
  put(c, 0xc5), put(c, 0xf8), put(c, 0x77); /* vzeroupper */
  size_t to_skip = 0;
  if (x->wsel) { /* elided when the wait lies before the end of the block's part that runs (emu_run_xcall) */
    const uint64_t at = (uint64_t)(uintptr_t)(x + x->wsel);
    put(c, 0x48), put(c, 0xb8), put32(c, (uint32_t)at), put32(c, (uint32_t)(at >> 32));    /* mov rax, imm64 */
    put(c, 0x48), put(c, 0x3b), put(c, 0x83), put32(c, (uint32_t)offsetof(emu_wave, rr_end)); /* cmp rax, [rbx + rr_end] */
    to_skip = jrel(c, 0x82);                                                                /* jb: no entry */
  }
  call_rec(c, x, (const void *)pend_ds);
  if (to_skip) jfix_here(c, to_skip);
  const size_t to_done = jrel(c, 0);
  jfix_here(c, to_call);
  call_rec(c, x, (const void *)jit_xcall);
  jfix_here(c, to_done);
}
/* s_waitcnt: emu/waitcnt.c emu_waitcnt retires nothing when no counter it waits on is above its
 * count (lgkmcnt(0) also waits for the scalar loads): then nothing is called */
static void wait_inline(cbuf *c, const emu_insn *x)
{
  size_t slow[3];
  int ns = 0;
  const int32_t nc = (int32_t)offsetof(emu_wave, ncnt);
  if (x->vmcnt >= 0) {
    put(c, 0x0f), put(c, 0xb6), put(c, 0x83), put32(c, (uint32_t)(nc + EMU_CNT_VM)); /* movzx eax, byte [rbx + ncnt + VM] */
    put(c, 0x3d), put32(c, (uint32_t)x->vmcnt);                                      /* cmp eax, vmcnt */
    slow[ns++] = jrel(c, 0x87);                                                      /* ja */
  }
  if (x->lgkmcnt >= 0) {
    put(c, 0x0f), put(c, 0xb6), put(c, 0x83), put32(c, (uint32_t)(nc + EMU_CNT_DS));
    put(c, 0x3d), put32(c, (uint32_t)x->lgkmcnt);
    slow[ns++] = jrel(c, 0x87);
    if (x->lgkmcnt == 0) {
      put(c, 0x80), put(c, 0xbb), put32(c, (uint32_t)(nc + EMU_CNT_SMEM)), put(c, 0); /* cmp byte [rbx + ncnt + SMEM], 0 */
      slow[ns++] = jrel(c, 0x85);                                                   /* jne */
    }
  }
  const size_t to_done = jrel(c, 0);
  for (int i = 0; i < ns; i++) jfix_here(c, slow[i]);
  call_rec(c, x, (const void *)jit_xcall);
  jfix_here(c, to_done);
}

/* one segment's records in .. in + n (plan p): its uniforms, four chunks, its scalar records' handlers */
static void translate_seg(cbuf *c, const emu_insn *in, int n, const plan *p)
{
  regs r;
  memset(&r, 0, sizeof r);
  r.busy[ZT0] = r.busy[ZT1] = true;
  for (int i = 0; i < p->nu; i++) {
    r.zu[i] = NZ - 1 - i, r.busy[NZ - 1 - i] = true;
    if (p->u[i].sg) bcast(c, r.zu[i], mem(GPR_RSI, (int32_t)(4 * p->u[i].k)));
    else bcast(c, r.zu[i], (rmo){RM_POOL, pool_add(c, p->u[i].k), 0});
  }
  for (int ch = 0; ch < EMU_LANES * 4 / JIT_CB && n; ch++) {
    for (int i = 0; i < p->nv; i++) r.zv[i] = -1, r.dirty[i] = false;
    for (int j = 0; j < n; j++) emit_rec(c, p, &r, in + j, ch);
    for (int i = 0; i < p->nv; i++) {
      if (r.zv[i] < 0) continue;
      if (r.dirty[i]) vstore(c, r.zv[i], GPR_RDI, (int32_t)(p->vg[i] * EMU_LANES * 4 + JIT_CB * ch));
      r.busy[r.zv[i]] = false;
    }
  }
  put(c, 0xc5), put(c, 0xf8), put(c, 0x77); /* vzeroupper */
  /* the scalar records' handlers in order, each as the runner calls it: fn(w, record) */
  for (int j = 0; j < n; j++)
    if (in[j].fz_op == FZ_SALU) call_rec(c, in + j, (const void *)in[j].fn);
}

/* SGPR pair r (the frame's SGPR file in r13) folded into ax by op (PF_OR: ZF when it is zero; PF_AND:
 * ax 0xffff when it is all ones): its four 16-bit chunks as the code stored them (kmovw), loads of
 * the stores' own size, which the store buffer forwards (one 64-bit load over four 16-bit stores
 * waits for them to reach the cache; emu_pair_nz) */
enum { PF_OR = 0x0b, PF_AND = 0x23 }; /* or / and r16, r/m16 */
static void pair_fold(cbuf *c, unsigned r, uint8_t op)
{
  const int32_t d = (int32_t)(4 * r);
  put(c, 0x41), put(c, 0x0f), put(c, 0xb7), put(c, 0x85), put32(c, (uint32_t)d); /* movzx eax, word [r13 + d] */
  for (int h = 1; h < 4; h++)
    put(c, 0x66), put(c, 0x41), put(c, op), put(c, 0x85), put32(c, (uint32_t)(d + 2 * h)); /* op ax, [r13 + d + 2h] */
}
static void pair_test(cbuf *c, unsigned r) { pair_fold(c, r, PF_OR); }
/* SCC from the pair whose first SGPR is scc - 1 (emu_insn.jit_scc's form) */
static void scc_store(cbuf *c, unsigned scc)
{
  pair_test(c, scc - 1u);
  put(c, 0x0f), put(c, 0x95), put(c, 0x83), put32(c, (uint32_t)offsetof(emu_wave, scc)); /* setne byte [rbx + scc] */
}

/* The code of the piece's records (segments sg[0 .. nseg)) into c. It runs the records of the piece
 * the caller's m allows (the part of the run that runs may end inside a piece: a block of several
 * waves cut at run time before or after an s_waitcnt, emu/exec.c rr_ahead) up to the last segment or
 * call that fits, counts those, and returns how many (0: not even the first segment). SCC: a
 * segment's last SCC writer's pair (plan.scc) is read into the wave's SCC at the segment's end when
 * another follows (the next segment's plan does not know that pair); the last segment's after a
 * whole piece (emu_insn.jit_scc, emu_jit_try) */
static void translate(cbuf *c, const emu_insn *in, int n, const seg *sg, int nseg)
{
  const bool frame = nseg > 1 || sg[0].ncall || sg[0].p.nscal;
  size_t ex[2 * JIT_SEGS + EMU_FUSE_MAX];
  int nex = 0;
  bool ieee = false; /* some segment needs k7 */
  for (int s = 0; s < nseg; s++) ieee |= seg_ieee(in + sg[s].at, sg[s].n);
  if (frame) frame_enter(c);
  if (ieee && frame) { /* eax the mask (ieee_k7 clobbers r8: m is in r14 by now), kept in r15d for the segments after a call */
    ieee_k7(c);
    put(c, 0x41), put(c, 0x89), put(c, 0xc7); /* mov r15d, eax */
  }
  for (int s = 0; s < nseg; s++) {
    const seg *g = &sg[s];
    if (g->n) {
      exit_unless(c, frame, g->at + g->n, g->at, ex, &nex);
      if (s) restore_args(c);
      if (ieee && !frame) ieee_k7(c); /* after the one exit's test of r8d */
      if (s && seg_ieee(in + g->at, g->n)) put(c, 0xc4), put(c, 0xc1), put(c, 0x78), put(c, 0x92), put(c, 0xff); /* kmovw k7, r15d */
      for (int j = 0; j < g->n; j++) count(c, frame, g->at + j);
      translate_seg(c, in + g->at, g->n, &g->p);
    }
    if (s + 1 < nseg && g->p.scc) scc_store(c, g->p.scc);
    for (int j = 0; j < g->ncall; j++) {
      const int at = g->at + g->n + j;
      const emu_insn *x = in + at;
      exit_unless(c, frame, at + 1, at, ex, &nex);
      count(c, frame, at);
      if (bperm_inline_ok(x)) bperm_inline(c, x);
      else if (x->fn == emu_op_s_waitcnt) wait_inline(c, x);
      else call_rec(c, x, (const void *)jit_xcall);
    }
  }
  put(c, 0xb8), put32(c, (uint32_t)n); /* mov eax, n */
  for (int i = 0; i < nex; i++) jfix_here(c, ex[i]);
  if (frame) frame_leave(c);
  put(c, 0xc3); /* ret */
}

/* ---- the code arena -----------------------------------------------------------------------------
 * Pieces of 1 MiB, each a memfd mapped twice: written through its read-write view, run through its
 * read-and-execute one (no mapping is ever writable and executable). A block is a 64-byte header in
 * the write view (its piece, its length, the next free block) and the code and pool after it, 64-byte
 * aligned, so that runs lie side by side in few pages. emu_jit_free returns a program's blocks to a
 * free list that later translations take first (first fit, a block whole); at most ARENA_MAX bytes in
 * all, after which runs stay with the runner. All under jit_mu. */
typedef struct piece {
  uint8_t *rw, *rx;
  size_t used;
  struct piece *next;
} piece;
typedef struct blk {
  piece *pc;
  size_t len; /* header included */
  struct blk *next_free;
} blk;
enum { PIECE = 1 << 20, ARENA_MAX = 64 << 20, HDR = 64 };
static piece *pieces;
static size_t arena_bytes;
static blk *free_blocks;

static piece *piece_new(void)
{
  if (arena_bytes + PIECE > ARENA_MAX) return NULL;
  int fd = memfd_create("lanelab-jit", MFD_CLOEXEC);
  if (fd < 0) return NULL;
  piece *p = calloc(1, sizeof *p);
  void *rw = MAP_FAILED, *rx = MAP_FAILED;
  if (p && ftruncate(fd, PIECE) == 0) {
    rw = mmap(NULL, PIECE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    rx = mmap(NULL, PIECE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
  }
  close(fd);
  if (!p || rw == MAP_FAILED || rx == MAP_FAILED) {
    if (rw != MAP_FAILED) munmap(rw, PIECE);
    if (rx != MAP_FAILED) munmap(rx, PIECE);
    free(p);
    return NULL;
  }
  p->rw = rw, p->rx = rx, p->next = pieces, pieces = p;
  arena_bytes += PIECE;
  return p;
}

/* the code and pool of c into a block; its run address, NULL when the arena is full */
static void *install(cbuf *c)
{
  const size_t pool_at = (c->n + 63) & ~(size_t)63, need = HDR + ((pool_at + 4 * (size_t)c->npool + 63) & ~(size_t)63);
  if (need > PIECE) return NULL;
  blk *b = NULL;
  for (blk **f = &free_blocks; *f; f = &(*f)->next_free)
    if ((*f)->len >= need) {
      b = *f, *f = b->next_free;
      break;
    }
  if (!b) {
    piece *p = pieces && pieces->used + need <= PIECE ? pieces : piece_new();
    if (!p) return NULL;
    b = (blk *)(void *)(p->rw + p->used);
    b->pc = p, b->len = need;
    p->used += need;
  }
  b->next_free = NULL;
  uint8_t *code = (uint8_t *)b + HDR;
  memcpy(code, c->b, c->n);
  memcpy(code + pool_at, c->pool, 4 * (size_t)c->npool);
  for (int i = 0; i < c->nfix; i++) {
    const int32_t d = (int32_t)((int64_t)(pool_at + 4 * (size_t)c->fix[i].entry) - (int64_t)c->fix[i].end);
    memcpy(code + c->fix[i].at, &d, 4);
  }
  return b->pc->rx + (code - b->pc->rw);
}

/* the block whose code runs at rx */
static blk *block_of(void *rx)
{
  for (piece *p = pieces; p; p = p->next)
    if ((uint8_t *)rx >= p->rx && (uint8_t *)rx < p->rx + PIECE) return (blk *)(void *)(p->rw + ((uint8_t *)rx - p->rx) - HDR);
  return NULL;
}

static pthread_mutex_t jit_mu = PTHREAD_MUTEX_INITIALIZER;

/* A piece's memory is shared (MAP_SHARED) with a child made by fork: after a fork neither process
 * writes into a piece that existed before it (each takes new pieces, the free list is dropped), so
 * neither changes code the other may still run. The old pieces stay mapped for that code. */
static void fork_prepare(void) { pthread_mutex_lock(&jit_mu); }
static piece *retired; /* the pieces of before a fork: kept (reachable) for the code in them */
static void fork_done(void)
{
  while (pieces) {
    piece *p = pieces;
    pieces = p->next, p->next = retired, retired = p;
  }
  free_blocks = NULL;
  pthread_mutex_unlock(&jit_mu);
}
__attribute__((constructor)) static void jit_init(void)
{
  const char *e = getenv("LANELAB_EMU_NO_JIT");
  if (e && *e && strcmp(e, "0") != 0) emu_jit_on = false;
  e = getenv("LANELAB_EMU_NO_TRACE");
  if (e && *e && strcmp(e, "0") != 0) emu_trace_on = false;
  pthread_atfork(fork_prepare, fork_done, fork_done);
}

/* the fewest records worth code. 3 from the twelfth stop (translating the seed kernels' runs of one
 * or two records made gfx942's seed slower then) to the seventeenth, when pieces of one and two
 * records measured faster than the runner: seed seq 2048 (pinned pairs) gfx950 3.33 -> 3.225, gfx942
 * 4.21 -> 4.18; the VALU/DS loop 3% (docs/performance.md) */
enum { JIT_MIN = 1 };

/* the most records a piece from in covers: the run, cut at the end of the record's
 * block of several waves (plan_piece) */
static int piece_lim(const emu_insn *in) { return in->fuse_n < in->blk_n || !in->blk_n ? in->fuse_n : in->blk_n; }

/* translates the run from in (once: the first caller; the others find it done); NULL when another
 * thread holds the lock and wait is false */
static void *compile(const emu_insn *in, bool wait)
{
  if (!wait && pthread_mutex_trylock(&jit_mu) != 0) return NULL; /* another worker translates: run on */
  if (wait) pthread_mutex_lock(&jit_mu);
  void *code = __atomic_load_n(&((emu_insn *)(uintptr_t)in)->jit, __ATOMIC_ACQUIRE);
  if (!code) {
    static seg sg[JIT_SEGS]; /* under jit_mu */
    int nseg;
    int n = plan_piece(in, piece_lim(in), sg, &nseg);
    cbuf c = {0};
    if (n >= JIT_MIN) {
      translate(&c, in, n, sg, nseg);
      code = c.bad ? NULL : install(&c);
    }
    if (!code) { /* nothing here: the runner takes the records up to where a piece worth code starts */
      code = EMU_JIT_NONE;
      for (n = 1; n < in->fuse_n; n++) {
        int ns;
        if (plan_piece(in + n, in->fuse_n - n, sg, &ns) >= JIT_MIN) break;
      }
    }
    free(c.b);
    ((emu_insn *)(uintptr_t)in)->jit_n = (uint8_t)n;
    ((emu_insn *)(uintptr_t)in)->jit_scc = code != EMU_JIT_NONE ? (uint8_t)sg[nseg - 1].p.scc : 0;
    __atomic_store_n(&((emu_insn *)(uintptr_t)in)->jit, code, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&jit_mu);
  return code;
}

/* ---- traces: runs joined across the guards of masked code (emu/internal.h emu_trace_fn; issue #31,
 * forty-sixth stop) ------------------------------------------------------------------------------
 * The seed's softmax, like most compiled HIP, tests each element's bounds and soft cap in code that
 * no lane usually runs: `s_and_saveexec_b64 s[0:1], s[42:43]; s_cbranch_execz` over a masked load,
 * then `s_or_b64 exec, exec, s[0:1]`, and `s_cbranch_vccnz` over the soft cap's division. Each of
 * those records ends a run and a block, so the run-ahead loop took a step, a handler call and a
 * piece's entry for each (at seq 2048 3.2 M such groups a launch, 13.8 M records outside translated
 * code). A trace is those runs' translated segments one after another with each guard tested in
 * between: a step of TR_PIECE (records planned by plan_piece, as a piece's) or a guard. */

enum { TR_PIECE, TR_SKIPX, TR_SAVEX, TR_OREXEC, TR_VCC, TR_SCC, TR_JMP };
enum { TR_MAXSTEP = 64, TR_MAXG = 24, TR_MAXREC = 240 };
typedef struct {
  int kind;
  int at;        /* its first record (a program index) */
  int n;         /* TR_PIECE: its records */
  int next;      /* a guard: where the trace goes on */
  unsigned pair; /* a guard: the SGPR pair tested, sY (TR_SKIPX, TR_SAVEX) or VCC (TR_VCC) */
  unsigned dst;  /* TR_SKIPX, TR_SAVEX: sX, written all ones */
  bool nz;       /* TR_VCC, TR_SCC: the trace goes on when the pair is not zero, SCC 1 (else when 0) */
} tstep;
/* the records a step runs */
static int tr_len(const tstep *g) { return g->kind == TR_PIECE ? g->n : g->kind == TR_SKIPX ? 3 : g->kind == TR_SAVEX ? 2 : 1; }

static bool tr_pair(const emu_opnd *o)
{
  return o->kind == EMU_OPK_SGPR && o->n == 2 && !o->mods && o->reg + 1u < EMU_NSFILE && o->reg != EMU_S_EXEC;
}
static bool tr_exec(const emu_opnd *o) { return o->kind == EMU_OPK_SGPR && o->n == 2 && !o->mods && o->reg == EMU_S_EXEC; }
/* c at most an eighth of t; c (counted as at most t) at least seven eighths of it */
static bool tr_rare(uint64_t c, uint64_t t) { return c * 8 <= t; }
static bool tr_most(uint64_t c, uint64_t t) { return tr_rare(t - (c < t ? c : t), t); }

/* a forward branch at i to t: taken as a rule (1), not taken as a rule (0), neither (-1): its next
 * record's count bounds the falls through, the target's less those the arrivals from elsewhere */
static int tr_way(const uint64_t *cnt, int i, int t)
{
  const uint64_t fall = cnt[i + 1] < cnt[i] ? cnt[i + 1] : cnt[i];
  if (tr_rare(cnt[i + 1], cnt[i])) return 1;
  if (tr_most(cnt[i + 1], cnt[i]) && tr_rare(cnt[t] - (cnt[t] < fall ? cnt[t] : fall), cnt[i])) return 0;
  return -1;
}

/* the guard or branch at record i of the program (n records, cnt its counts so far), if there is one
 * the trace can take in the direction the counts say is usual. EXEC is all ones throughout a trace */
static bool guard_at(const emu_insn *insns, int n, const uint64_t *cnt, int i, tstep *g)
{
  const emu_insn *x = &insns[i];
  if (cnt[i] < EMU_JIT_HOT) return false;
  if (!strcmp(x->mnem, "s_or_b64") && x->nop == 3 && tr_exec(&x->o[0]) && (tr_exec(&x->o[1]) || tr_exec(&x->o[2]))) {
    *g = (tstep){.kind = TR_OREXEC, .at = i, .next = i + 1}; /* EXEC all ones | anything: all ones, SCC 1 */
    return true;
  }
  if (!strcmp(x->mnem, "s_and_saveexec_b64") && i + 2 < n && x->nop == 2 && tr_pair(&x->o[0]) && tr_pair(&x->o[1]) &&
      (x->o[0].reg + 1u < EMU_NSGPR_GP || x->o[0].reg == EMU_S_VCC)) {
    const emu_insn *b = &insns[i + 1];
    const int t = b->target;
    if (strcmp(b->mnem, "s_cbranch_execz") || t <= i + 1 || t >= n) return false;
    if (tr_most(cnt[i + 2], cnt[i])) { /* the masked code runs as a rule, every lane */
      *g = (tstep){.kind = TR_SAVEX, .at = i, .next = i + 2, .pair = x->o[1].reg, .dst = x->o[0].reg};
      return true;
    }
    const emu_insn *o = &insns[t];
    if (strcmp(o->mnem, "s_or_b64") || o->nop != 3 || !tr_exec(&o->o[0])) return false;
    const bool sx = (tr_exec(&o->o[1]) && tr_pair(&o->o[2]) && o->o[2].reg == x->o[0].reg) ||
                    (tr_exec(&o->o[2]) && tr_pair(&o->o[1]) && o->o[1].reg == x->o[0].reg);
    /* the masked code skipped as a rule: its first record ran at most an eighth as often */
    if (!sx || (t > i + 2 && !tr_rare(cnt[i + 2], cnt[i]))) return false;
    *g = (tstep){.kind = TR_SKIPX, .at = i, .next = t + 1, .pair = x->o[1].reg, .dst = x->o[0].reg};
    return true;
  }
  if (x->target <= i + 1 || x->target >= n) return false; /* forward branches only: a trace never loops */
  if (!strcmp(x->mnem, "s_branch")) {
    *g = (tstep){.kind = TR_JMP, .at = i, .next = x->target};
    return true;
  }
  const bool vnz = !strcmp(x->mnem, "s_cbranch_vccnz"), vz = !strcmp(x->mnem, "s_cbranch_vccz");
  const bool s1 = !strcmp(x->mnem, "s_cbranch_scc1"), s0 = !strcmp(x->mnem, "s_cbranch_scc0");
  if (!(vnz || vz || s1 || s0)) return false;
  const int way = tr_way(cnt, i, x->target);
  if (way < 0) return false;
  /* nz: the branch is taken when the pair is not zero (vccnz) or SCC is 1 (scc1); the trace goes on
   * where the usual way leads and leaves when the test says otherwise */
  const bool taken_nz = vnz || s1;
  *g = (tstep){.kind = vnz || vz ? TR_VCC : TR_SCC, .at = i, .next = way ? x->target : i + 1, .pair = EMU_S_VCC,
               .nz = way ? taken_nz : !taken_nz};
  return true;
}

static seg tr_sg[JIT_SEGS]; /* under jit_mu */

/* the trace from record s: its steps (at least one guard among them, two records in all), where it
 * ends, and the most records it runs; 0 steps: no trace */
static int plan_trace(const emu_insn *insns, int n, const uint64_t *cnt, int s, tstep *st, int *end, int *max)
{
  int ns = 0, ng = 0, cur = s, tot = 0;
  while (cur < n && ns < TR_MAXSTEP) {
    /* a piece: the run's records before its first call (ds_bpermute_b32, s_waitcnt), as far as
     * plan_piece covers them */
    int lim = 0;
    while (lim < insns[cur].fuse_n && tot + lim < TR_MAXREC && insns[cur + lim].fz_op != FZ_XCALL) lim++;
    int nseg, k = lim ? plan_piece(insns + cur, lim, tr_sg, &nseg) : 0;
    if (k > 0) {
      st[ns++] = (tstep){.kind = TR_PIECE, .at = cur, .n = k};
      cur += k, tot += k;
      continue;
    }
    tstep g;
    if (ng == TR_MAXG || tot + 3 > TR_MAXREC || !guard_at(insns, n, cnt, cur, &g)) break;
    st[ns++] = g, ng++;
    tot += tr_len(&g);
    cur = g.next;
  }
  *end = cur, *max = tot;
  return ng && tot >= 2 ? ns : 0; /* a trace of one record (an `s_or_b64 exec` alone) saves nothing */
}

static void mov_rax(cbuf *c, uint64_t x) { put(c, 0x48), put(c, 0xb8), put32(c, (uint32_t)x), put32(c, (uint32_t)(x >> 32)); }
static uint64_t tr_ret(int where, int done) { return (uint64_t)(uint32_t)where << 32 | (uint32_t)done; }

/* the code of the trace from record s (plan_trace's steps) into c */
static void translate_trace(cbuf *c, const emu_insn *insns, int s, const tstep *st, int ns, int end)
{
  size_t side[TR_MAXG], back[TR_MAXG + 1];
  uint64_t side_rax[TR_MAXG];
  int nside = 0, nback = 0, done = 0;
  bool ieee = false;
  for (int i = 0; i < ns; i++)
    if (st[i].kind == TR_PIECE) ieee |= seg_ieee(insns + st[i].at, st[i].n);
  frame_enter(c);
  if (ieee) {
    ieee_k7(c);
    put(c, 0x41), put(c, 0x89), put(c, 0xc7); /* mov r15d, eax */
  }
  for (int i = 0; i < ns; i++) {
    const tstep *g = &st[i];
    if (g->kind == TR_PIECE) {
      int nseg;
      if (plan_piece(insns + g->at, g->n, tr_sg, &nseg) != g->n) { /* plan_trace planned it so: not reached */
        c->bad = true;
        return;
      }
      for (int q = 0; q < nseg; q++) {
        const seg *p = &tr_sg[q];
        const emu_insn *x = insns + g->at + p->at;
        restore_args(c);
        if (seg_ieee(x, p->n)) put(c, 0xc4), put(c, 0xc1), put(c, 0x78), put(c, 0x92), put(c, 0xff); /* kmovw k7, r15d */
        for (int j = 0; j < p->n; j++) count(c, true, g->at + p->at + j - s);
        translate_seg(c, x, p->n, &p->p);
        if (p->p.scc) scc_store(c, p->p.scc); /* SCC as of the segment's end, for a side exit or the end */
      }
      done += g->n;
      continue;
    }
    /* a guard: a side exit before its first record unless it holds (a branch or s_or_b64 exec
     * needs no test) */
    const uint32_t so = (uint32_t)offsetof(emu_wave, scc);
    int jcc = 0;
    if (g->kind == TR_SKIPX || g->kind == TR_VCC) {
      pair_test(c, g->pair); /* ZF: the pair is zero */
      jcc = g->kind == TR_SKIPX || !g->nz ? 0x85 : 0x84;
    } else if (g->kind == TR_SAVEX) {
      pair_fold(c, g->pair, PF_AND);                          /* every lane: the chunks ANDed */
      put(c, 0x66), put(c, 0x3d), put(c, 0xff), put(c, 0xff); /* cmp ax, 0xffff: all ones */
      jcc = 0x85;
    } else if (g->kind == TR_SCC) {
      put(c, 0x80), put(c, 0xbb), put32(c, so), put(c, 0); /* cmp byte [rbx + scc], 0 */
      jcc = g->nz ? 0x84 : 0x85;
    }
    if (jcc) {
      side[nside] = jrel(c, (uint8_t)jcc); /* je | jne */
      side_rax[nside++] = tr_ret(g->at - s, done);
    }
    count(c, true, g->at - s);
    if (g->kind == TR_SKIPX) {
      /* s_and_saveexec_b64: sX = EXEC (all ones), EXEC = sY & EXEC = 0, SCC 0; s_cbranch_execz taken;
       * s_or_b64 exec, exec, sX: EXEC all ones again, SCC 1 */
      count(c, true, g->at + 1 - s), count(c, true, g->next - 1 - s);
    } else if (g->kind == TR_SAVEX) {
      /* s_and_saveexec_b64: sX = EXEC (all ones), EXEC = sY & EXEC = all ones, SCC 1; s_cbranch_execz
       * not taken */
      count(c, true, g->at + 1 - s);
    }
    if (g->kind == TR_SKIPX || g->kind == TR_SAVEX)
      put(c, 0x49), put(c, 0xc7), put(c, 0x85), put32(c, 4 * g->dst), put32(c, 0xffffffffu); /* mov qword [r13 + 4 sX], -1 */
    if (g->kind == TR_SKIPX || g->kind == TR_SAVEX || g->kind == TR_OREXEC)
      put(c, 0xc6), put(c, 0x83), put32(c, so), put(c, 1); /* mov byte [rbx + scc], 1 */
    done += tr_len(g);
  }
  mov_rax(c, tr_ret(end - s, done));
  back[nback++] = jrel(c, 0);
  for (int i = 0; i < nside; i++) {
    jfix_here(c, side[i]);
    mov_rax(c, side_rax[i]);
    back[nback++] = jrel(c, 0);
  }
  for (int i = 0; i < nback; i++) jfix_here(c, back[i]);
  frame_leave(c);
  put(c, 0xc3); /* ret */
}

void *emu_trace_get(emu_wave *w, const emu_insn *in, uint32_t ip)
{
  if (!emu_trace_on || !emu_jit_ready()) return EMU_JIT_NONE;
  if (w->counts[ip] < EMU_JIT_HOT) return NULL;
  pthread_mutex_lock(&jit_mu);
  void *code = __atomic_load_n(&in->tr, __ATOMIC_ACQUIRE);
  if (!code) {
    static tstep st[TR_MAXSTEP]; /* under jit_mu */
    int end, max;
    const int ns = plan_trace(w->insns, (int)w->ninsn, w->counts, (int)ip, st, &end, &max);
    cbuf c = {0};
    code = EMU_JIT_NONE;
    if (ns) {
      translate_trace(&c, w->insns, (int)ip, st, ns, end);
      void *x = c.bad ? NULL : install(&c);
      if (x) code = x;
    }
    free(c.b);
    ((emu_insn *)(uintptr_t)in)->tr_max = (uint8_t)max;
    __atomic_store_n(&((emu_insn *)(uintptr_t)in)->tr, code, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&jit_mu);
  return code;
}

int emu_jit_segments(const emu_insn *in, int *at, int *len, int *ncall, unsigned *scc, int max)
{
  static seg sg[JIT_SEGS]; /* under jit_mu */
  int nseg;
  pthread_mutex_lock(&jit_mu);
  plan_piece(in, piece_lim(in), sg, &nseg);
  for (int i = 0; i < nseg && i < max; i++) at[i] = sg[i].at, len[i] = sg[i].n, ncall[i] = sg[i].ncall, scc[i] = sg[i].p.scc;
  pthread_mutex_unlock(&jit_mu);
  return nseg;
}

int emu_jit_step(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt, bool hot)
{
  void *code = __atomic_load_n(&in->jit, __ATOMIC_ACQUIRE);
  if (!code) {
    if (!hot && cnt[0] < EMU_JIT_HOT) return -m;
    code = compile(in, hot);
    if (!code) return -m;
  }
  if (code == EMU_JIT_NONE) return -in->jit_n;
  const int k = emu_jit_try(w, in, m, cnt); /* the code, its records counted; 0: longer than m */
  return k ? k : -m;
}

void emu_jit_free(emu_insn *insns, size_t n)
{
  pthread_mutex_lock(&jit_mu);
  for (size_t i = 0; i < n; i++) {
    void *code[2] = {insns[i].jit, insns[i].tr};
    insns[i].jit = insns[i].tr = NULL;
    for (int k = 0; k < 2; k++) {
      if (!code[k] || code[k] == EMU_JIT_NONE) continue;
      blk *b = block_of(code[k]);
      if (b) b->next_free = free_blocks, free_blocks = b;
    }
  }
  pthread_mutex_unlock(&jit_mu);
}

#else /* no translation off x86-64 Linux */

int emu_jit_step(emu_wave *w, const emu_insn *in, int m, uint64_t *cnt, bool hot)
{
  (void)w, (void)in, (void)cnt, (void)hot;
  return -m;
}
void emu_jit_free(emu_insn *insns, size_t n) { (void)insns, (void)n; }
int emu_jit_segments(const emu_insn *in, int *at, int *len, int *ncall, unsigned *scc, int max)
{
  (void)in, (void)at, (void)len, (void)ncall, (void)scc, (void)max;
  return 0;
}
void *emu_trace_get(emu_wave *w, const emu_insn *in, uint32_t ip)
{
  (void)w, (void)in, (void)ip;
  return EMU_JIT_NONE;
}

#endif
