/* emu/decode — instruction bytes to compact records.
 *
 * Decoding is LLVM's job: each instruction is disassembled once by LLVM's MC disassembler (C API,
 * one context per arch, guarded by a mutex) into its canonical text, and that text is parsed into
 * an emu_insn: mnemonic -> op-table row, operands -> register-file indices or constants,
 * modifiers -> fields. No encoding tables live here. emu_insn_format prints a record back; the
 * test suite checks it against llvm-objdump for every instruction of every kernel we build. */
#include <ctype.h>
#include <errno.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "emu/internal.h"

/* These live in libLLVM; llvm-c/Target.h only declares them when the AMDGPU target is part of the
 * configured targets list the header was generated with, so declare them here. */
void LLVMInitializeAMDGPUTargetInfo(void);
void LLVMInitializeAMDGPUTargetMC(void);
void LLVMInitializeAMDGPUDisassembler(void);

/* ---- op table: ops.def rows + family tables ---------------------------------------------------*/
static const emu_opdef core_ops[] = {
#define EMU_OP(name, fn, flags) {#name, fn, flags},
#include "emu/ops.def"
#undef EMU_OP
    {NULL, NULL, 0}};

static emu_opdef *ops;
static size_t nops;
static int *ophash; /* open addressing, size ophash_n (power of 2), -1 = empty */
static size_t ophash_n;
static pthread_once_t ops_once = PTHREAD_ONCE_INIT;

static uint32_t strhash(const char *s)
{
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static void ops_add(const emu_opdef *t)
{
  for (; t->name; t++) {
    ops = ll_xrealloc(ops, (nops + 1) * sizeof *ops);
    ops[nops++] = *t;
  }
}

static void ops_build(void)
{
  ops_add(core_ops);
  /* on AVX2 hosts (and not capped to the portable paths) the VALU families' AVX2 builds */
  if (emu_avx2) emu__ops_avx2(ops, nops);
  ops_add(emu_optab_mfma);
  ops_add(emu_optab_xlane);
  ophash_n = 1;
  while (ophash_n < nops * 2) ophash_n <<= 1;
  ophash = ll_xmalloc(ophash_n * sizeof *ophash);
  for (size_t i = 0; i < ophash_n; i++) ophash[i] = -1;
  for (size_t i = 0; i < nops; i++) {
    size_t h = strhash(ops[i].name) & (ophash_n - 1);
    while (ophash[h] >= 0) {
      if (strcmp(ops[ophash[h]].name, ops[i].name) == 0)
        ll_die(LL_EXIT_FAIL, "emu: mnemonic %s defined twice in the op tables", ops[i].name);
      h = (h + 1) & (ophash_n - 1);
    }
    ophash[h] = (int)i;
  }
}

size_t emu_ops_count(void)
{
  pthread_once(&ops_once, ops_build);
  return nops;
}
const emu_opdef *emu_ops_get(size_t i)
{
  pthread_once(&ops_once, ops_build);
  return i < nops ? &ops[i] : NULL;
}
int emu_ops_find(const char *name)
{
  pthread_once(&ops_once, ops_build);
  size_t h = strhash(name) & (ophash_n - 1);
  while (ophash[h] >= 0) {
    if (strcmp(ops[ophash[h]].name, name) == 0) return ophash[h];
    h = (h + 1) & (ophash_n - 1);
  }
  return -1;
}

/* ---- interned strings (modifier names, identifiers, function-operand texts) -----------------
 * Indices are uint16_t (emu_mod.name, emu_opnd.fn), so at most INTERN_MAX strings. Text that
 * would need more is refused by the parser (intern returns INTERN_NONE): it used to ll_die, so any
 * process parsing enough distinct texts (fuzz/fuzz_insn does, millions of them) exited. Lookup
 * is by hash (it was a linear scan with strlen per entry, which slowed fuzz_insn from 9,300 to
 * 1,100 parses/s as the table filled); the table, at 2^17 slots, is never more than half full. */
#define INTERN_MAX 65535
#define INTERN_NONE 0xffff
#define INTERN_SLOTS (1u << 17)
static pthread_mutex_t intern_mu = PTHREAD_MUTEX_INITIALIZER;
static char **interned;
static size_t ninterned, intern_cap;
static uint16_t *intern_slot; /* INTERN_SLOTS entries: an index into interned, or INTERN_NONE */

static uint16_t intern(const char *s, size_t n)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  pthread_mutex_lock(&intern_mu);
  if (!intern_slot) {
    intern_slot = ll_xmalloc(INTERN_SLOTS * sizeof *intern_slot);
    memset(intern_slot, 0xff, INTERN_SLOTS * sizeof *intern_slot);
  }
  uint32_t k = h & (INTERN_SLOTS - 1);
  for (; intern_slot[k] != INTERN_NONE; k = (k + 1) & (INTERN_SLOTS - 1)) {
    const char *t = interned[intern_slot[k]];
    if (strncmp(t, s, n) == 0 && t[n] == 0) {
      pthread_mutex_unlock(&intern_mu);
      return intern_slot[k];
    }
  }
  if (ninterned >= INTERN_MAX) {
    pthread_mutex_unlock(&intern_mu);
    return INTERN_NONE;
  }
  if (ninterned == intern_cap) {
    intern_cap = intern_cap ? 2 * intern_cap : 64;
    interned = ll_xrealloc(interned, intern_cap * sizeof *interned);
  }
  char *c = ll_xmalloc(n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  interned[ninterned] = c;
  uint16_t r = (uint16_t)ninterned++;
  intern_slot[k] = r;
  pthread_mutex_unlock(&intern_mu);
  return r;
}

const char *emu_mod_name(uint16_t i)
{
  pthread_mutex_lock(&intern_mu);
  const char *s = i < ninterned ? interned[i] : "?";
  pthread_mutex_unlock(&intern_mu);
  return s;
}

/* A refusal reason built in a scratch buffer, made to outlive it (emu_insn.why is kept per
 * instruction and shown by `isa coverage`). */
static const char *stable_why(const char *s)
{
  uint16_t i = intern(s, strlen(s));
  return i == INTERN_NONE ? "modifier not understood by the emulator" : emu_mod_name(i);
}

/* ---- operand parsing --------------------------------------------------------------------------*/
/* Inline float constants, hardware codes 240..248 (CDNA3 ISA "Inline Constants"), as LLVM prints
 * them. */
static const char *const fimm_text[9] = {"0.5",  "-0.5", "1.0", "-1.0",      "2.0",
                                         "-2.0", "4.0",  "-4.0", "0.15915494"};

static const struct {
  const char *name;
  uint8_t kind;
  uint16_t reg;
  uint8_t n;
} specials[] = {
    {"vcc", EMU_OPK_SGPR, EMU_S_VCC, 2},
    {"vcc_lo", EMU_OPK_SGPR, EMU_S_VCC, 1},
    {"vcc_hi", EMU_OPK_SGPR, EMU_S_VCC + 1, 1},
    {"exec", EMU_OPK_SGPR, EMU_S_EXEC, 2},
    {"exec_lo", EMU_OPK_SGPR, EMU_S_EXEC, 1},
    {"exec_hi", EMU_OPK_SGPR, EMU_S_EXEC + 1, 1},
    {"m0", EMU_OPK_SGPR, EMU_S_M0, 1},
    {"flat_scratch", EMU_OPK_SGPR, EMU_S_FLAT_SCR, 2},
    {"flat_scratch_lo", EMU_OPK_SGPR, EMU_S_FLAT_SCR, 1},
    {"flat_scratch_hi", EMU_OPK_SGPR, EMU_S_FLAT_SCR + 1, 1},
    {"xnack_mask", EMU_OPK_SGPR, EMU_S_XNACK, 2},
    {"xnack_mask_lo", EMU_OPK_SGPR, EMU_S_XNACK, 1},
    {"xnack_mask_hi", EMU_OPK_SGPR, EMU_S_XNACK + 1, 1},
    {"scc", EMU_OPK_SCC, 0, 1},
    {"src_scc", EMU_OPK_SCC, 1, 1},
    {"src_execz", EMU_OPK_EXECZ, 0, 1},
    {"execz", EMU_OPK_EXECZ, 1, 1},
    {"src_vccz", EMU_OPK_VCCZ, 0, 1},
    {"vccz", EMU_OPK_VCCZ, 1, 1},
    {"src_shared_base", EMU_OPK_APERT, 235, 1},
    {"src_shared_limit", EMU_OPK_APERT, 236, 1},
    {"src_private_base", EMU_OPK_APERT, 237, 1},
    {"src_private_limit", EMU_OPK_APERT, 238, 1},
    {"off", EMU_OPK_OFF, 0, 1},
};

static bool parse_uint(const char *s, size_t n, long long *out, bool *hex)
{
  char buf[40];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  char *end;
  errno = 0;
  bool neg = buf[0] == '-';
  const char *p = neg ? buf + 1 : buf;
  if (!isdigit((unsigned char)*p)) return false;
  *hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
  unsigned long long v = strtoull(p, &end, *hex ? 16 : 10);
  if (*end || errno) return false;
  /* Negate in unsigned arithmetic: -(long long)v overflowed for "-9223372036854775808" (v = 2^63,
   * found by fuzz/fuzz_insn). A magnitude above 2^63 has no negative int64 and is refused; a
   * non-negative value keeps its 64 bits (ival is the literal's bit pattern). */
  if (neg && v > 1ull << 63) return false;
  *out = (long long)(neg ? 0ull - v : v);
  return true;
}

/* A register index: decimal digits only, inside [p, e), at most 4 of them. strtol took a sign,
 * leading blanks and any length, so "s[0:1444...4]" overflowed hi - lo + 1 (signed overflow,
 * found by fuzz/fuzz_insn) and "v[-1:0]" parsed as register 65535 (an index past the register
 * file that exec.c would have used); LLVM prints neither, so both are refused. */
static bool reg_index(const char *p, const char *e, long *out, const char **end)
{
  long v = 0;
  const char *q = p;
  while (q < e && isdigit((unsigned char)*q) && q - p < 4) v = v * 10 + (*q++ - '0');
  if (q == p || (q < e && isdigit((unsigned char)*q))) return false;
  *out = v;
  *end = q;
  return true;
}

/* register "v5", "v[4:7]", "s3", "s[0:1]", "a0", "a[0:3]", "ttmp4", "ttmp[4:5]" */
static bool parse_reg(const char *s, size_t n, emu_opnd *o)
{
  uint8_t kind;
  size_t pl;
  int base = 0;
  if (n > 4 && strncmp(s, "ttmp", 4) == 0) kind = EMU_OPK_SGPR, pl = 4, base = EMU_S_TTMP;
  else if (s[0] == 'v') kind = EMU_OPK_VGPR, pl = 1;
  else if (s[0] == 's') kind = EMU_OPK_SGPR, pl = 1;
  else if (s[0] == 'a') kind = EMU_OPK_AGPR, pl = 1;
  else return false;
  const char *p = s + pl, *e = s + n;
  long lo, hi;
  const char *end;
  if (p < e && *p == '[') {
    if (!reg_index(p + 1, e, &lo, &end) || end >= e || *end != ':') return false;
    if (!reg_index(end + 1, e, &hi, &end) || end >= e || *end != ']' || end + 1 != e || hi < lo)
      return false;
  } else {
    if (!reg_index(p, e, &lo, &end) || end != e) return false;
    hi = lo;
  }
  if (hi - lo + 1 > 32) return false;
  if (kind == EMU_OPK_SGPR && base == 0 && hi >= EMU_NSGPR_GP) return false;
  if (kind == EMU_OPK_SGPR && base && hi > 15) return false;
  if (kind != EMU_OPK_SGPR && hi >= EMU_NVGPR) return false;
  o->kind = kind;
  o->reg = (uint16_t)(base + lo);
  o->n = (uint8_t)(hi - lo + 1);
  if (base) o->mods |= 0; /* ttmp printed by index range */
  return true;
}

static bool parse_operand(const char *s, size_t n, emu_opnd *o)
{
  memset(o, 0, sizeof *o);
  o->n = 1;
  /* modifiers around the operand */
  uint8_t mods = 0;
  if (n >= 5 && strncmp(s, "sext(", 5) == 0 && s[n - 1] == ')') mods |= EMU_M_SEXT, s += 5, n -= 6;
  if (n >= 4 && strncmp(s, "neg(", 4) == 0 && s[n - 1] == ')') mods |= EMU_M_NEG | EMU_M_NEGFN, s += 4, n -= 5;
  else if (n >= 2 && s[0] == '-' && (s[1] == '|' || isalpha((unsigned char)s[1]))) mods |= EMU_M_NEG, s++, n--;
  if (n >= 4 && strncmp(s, "abs(", 4) == 0 && s[n - 1] == ')') mods |= EMU_M_ABS | EMU_M_ABSFN, s += 4, n -= 5;
  else if (n >= 2 && s[0] == '|' && s[n - 1] == '|') mods |= EMU_M_ABS, s++, n -= 2;
  if (n == 0) return false;
  o->mods = mods;
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
    if (strlen(specials[i].name) == n && memcmp(specials[i].name, s, n) == 0) {
      o->kind = specials[i].kind, o->reg = specials[i].reg, o->n = specials[i].n;
      return true;
    }
  if (parse_reg(s, n, o)) return true;
  for (int i = 0; i < 9; i++)
    if (strlen(fimm_text[i]) == n && memcmp(fimm_text[i], s, n) == 0) {
      o->kind = EMU_OPK_FIMM, o->reg = (uint16_t)(240 + i);
      return true;
    }
  long long v;
  bool hex;
  if (parse_uint(s, n, &v, &hex)) {
    o->ival = v;
    if (hex) o->mods |= EMU_M_HEX;
    o->kind = (!hex && v >= -16 && v <= 64) ? EMU_OPK_IMM : EMU_OPK_LIT;
    return true;
  }
  /* lit(V): LLVM's spelling of a 32-bit literal dword whose value an inline constant could also
   * encode (AMDGPUInstPrinter::printLiteral); the operand is that dword, like any literal.
   * lit64(...) stays a FUNC and is refused in finish_insn. */
  if (n > 5 && strncmp(s, "lit(", 4) == 0 && s[n - 1] == ')' && parse_uint(s + 4, n - 5, &v, &hex) &&
      v >= INT32_MIN && v <= (long long)UINT32_MAX) {
    o->ival = v;
    o->mods |= EMU_M_LIT | (hex ? EMU_M_HEX : 0);
    o->kind = EMU_OPK_LIT;
    return true;
  }
  /* name(args): hwreg(...), sendmsg(...), gpr_idx(...) */
  const char *lp = memchr(s, '(', n);
  if (lp && s[n - 1] == ')' && lp > s) {
    o->kind = EMU_OPK_FUNC;
    o->fn = intern(s, n);
    /* s_sendmsg's one modelled message as its id (CDNA3 ISA "S_SENDMSG": MSG_INTERRUPT is 1), so that
     * its handler (op_branch.c) compares no strings; -1 for any other function operand */
    o->ival = n == 22 && memcmp(s, "sendmsg(MSG_INTERRUPT)", 22) == 0 ? 1 : -1;
    return !mods && o->fn != INTERN_NONE;
  }
  return false;
}

/* split a modifier word into an emu_mod */
static bool parse_mod(const char *s, size_t n, emu_mod *m)
{
  memset(m, 0, sizeof *m);
  size_t k = 0;
  while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_')) k++;
  if (k == 0) return false;
  m->name = intern(s, k);
  if (m->name == INTERN_NONE) return false;
  if (k == n) {
    m->form = EMU_MF_FLAG;
    return true;
  }
  const char *v = s + k + 1;
  size_t vn = n - k - 1;
  if (s[k] == '(') {
    if (s[n - 1] != ')') return false;
    long long x;
    bool hex;
    if (!parse_uint(v, vn - 1, &x, &hex) || hex) return false;
    m->form = EMU_MF_PAREN, m->val = (int32_t)x;
    return true;
  }
  if (s[k] != ':' || vn == 0) return false;
  if (v[0] == '[') {
    if (v[vn - 1] != ']') return false;
    m->form = EMU_MF_LIST;
    size_t i = 1;
    while (i < vn - 1) {
      if (!isdigit((unsigned char)v[i]) || m->nlist >= 8) return false;
      m->list[m->nlist++] = (uint8_t)(v[i] - '0');
      i++;
      if (i < vn - 1) {
        if (v[i] != ',') return false;
        i++;
      }
    }
    return m->nlist > 0;
  }
  long long x;
  bool hex;
  if (parse_uint(v, vn, &x, &hex)) {
    m->form = hex ? EMU_MF_HEX : EMU_MF_DEC;
    m->val = (int32_t)x;
    return true;
  }
  const char *lp = memchr(v, '(', vn);
  if (lp && lp > v && v[vn - 1] == ')') {
    m->form = EMU_MF_FUNC;
    m->val = intern(v, vn);
    return m->val != INTERN_NONE;
  }
  for (size_t i = 0; i < vn; i++)
    if (!(isalnum((unsigned char)v[i]) || v[i] == '_')) return false;
  m->form = EMU_MF_IDENT;
  m->val = intern(v, vn);
  return m->val != INTERN_NONE;
}

static bool is_waitcnt_word(const char *s, size_t n)
{
  return (n > 6 && strncmp(s, "vmcnt(", 6) == 0) || (n > 7 && strncmp(s, "expcnt(", 7) == 0) ||
         (n > 8 && strncmp(s, "lgkmcnt(", 8) == 0);
}

/* a cache-policy flag as the first word: the modifiers of a memory instruction without operands
 * (buffer_wbl2 sc1, buffer_inv sc0 sc1: HIP's __threadfence() on gfx942 and gfx950) */
static bool is_cache_flag_word(const char *s, size_t n)
{
  return (n == 3 && (!strncmp(s, "sc0", 3) || !strncmp(s, "sc1", 3) || !strncmp(s, "glc", 3) || !strncmp(s, "slc", 3))) ||
         (n == 2 && !strncmp(s, "nt", 2));
}

static const char *const sel_names[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                        "WORD_0", "WORD_1", "DWORD"};
static const char *const unused_names[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"};

static int ident_index(const char *id, const char *const *tab, int n)
{
  for (int i = 0; i < n; i++)
    if (strcmp(id, tab[i]) == 0) return i;
  return -1;
}

static uint8_t listbits(const emu_mod *m)
{
  uint8_t b = 0;
  for (int i = 0; i < m->nlist; i++) b |= (uint8_t)((m->list[i] & 1) << i);
  return b;
}

/* ds_swizzle_b32 offset macros as LLVM prints them (AMDGPU assembler syntax "swizzle"): the
 * 16-bit offset they stand for. Checked against llvm-mc encodings: QUAD_PERM sets bit 15 with
 * 2-bit lane selects; BITMASK_PERM/BROADCAST/SWAP/REVERSE are and/or/xor masks in bits
 * [4:0]/[9:5]/[14:10]; ROTATE is 0xC000 | dir << 10 | size << 5; FFT is 0xE000 | n. */
static bool swizzle_offset(const char *t, int32_t *out)
{
  int a[4] = {0, 0, 0, 0};
  char mask[8];
  if (sscanf(t, "swizzle(QUAD_PERM,%d,%d,%d,%d)", &a[0], &a[1], &a[2], &a[3]) == 4)
    *out = 0x8000 | (a[0] & 3) | (a[1] & 3) << 2 | (a[2] & 3) << 4 | (a[3] & 3) << 6;
  else if (sscanf(t, "swizzle(BROADCAST,%d,%d)", &a[0], &a[1]) == 2)
    *out = ((0x1f ^ (a[0] - 1)) & 0x1f) | (a[1] & 0x1f) << 5;
  else if (sscanf(t, "swizzle(SWAP,%d)", &a[0]) == 1) *out = 0x1f | (a[0] & 0x1f) << 10;
  else if (sscanf(t, "swizzle(REVERSE,%d)", &a[0]) == 1) *out = 0x1f | ((a[0] - 1) & 0x1f) << 10;
  else if (sscanf(t, "swizzle(ROTATE,%d,%d)", &a[0], &a[1]) == 2) *out = 0xc000 | (a[0] & 1) << 10 | (a[1] & 0x1f) << 5;
  else if (sscanf(t, "swizzle(FFT,%d)", &a[0]) == 1) *out = 0xe000 | (a[0] & 0x1fff);
  else if (sscanf(t, "swizzle(BITMASK_PERM,\"%5[01pi]\")", mask) == 1 && strlen(mask) == 5) {
    int andm = 0, orm = 0, xorm = 0;
    for (int i = 0; i < 5; i++) {
      int bit = 1 << (4 - i);
      switch (mask[i]) {
      case '1': orm |= bit; break;
      case 'p': andm |= bit; break;
      case 'i': andm |= bit, xorm |= bit; break;
      }
    }
    *out = andm | orm << 5 | xorm << 10;
  } else
    return false;
  return true;
}

/* Turn the generic modifier list into execution fields. Returns NULL or why it cannot. */
static const char *apply_mods(emu_insn *in)
{
  static char why[96];
  in->vmcnt = in->expcnt = in->lgkmcnt = -1;
  in->dst_sel = in->src0_sel = in->src1_sel = EMU_SEL_DWORD;
  in->dst_unused = 0;
  in->row_mask = in->bank_mask = 0xf;
  in->op_sel_hi = 0xf; /* VOP3P default: high halves from the high halves */
  for (int i = 0; i < in->nmod; i++) {
    const emu_mod *m = &in->mod[i];
    const char *nm = emu_mod_name(m->name);
    int v = m->val;
    bool flag = m->form == EMU_MF_FLAG, num = m->form == EMU_MF_DEC || m->form == EMU_MF_HEX;
    if (flag && !strcmp(nm, "offen")) in->offen = true;
    else if (flag && !strcmp(nm, "idxen")) in->idxen = true;
    else if (flag && !strcmp(nm, "sc0")) in->sc0 = true;
    else if (flag && !strcmp(nm, "sc1")) in->sc1 = true;
    else if (flag && !strcmp(nm, "nt")) in->nt = true;
    else if (flag && !strcmp(nm, "glc")) in->glc = true;
    else if (flag && !strcmp(nm, "slc")) in->slc = true;
    else if (flag && !strcmp(nm, "lds")) in->lds = true;
    else if (flag && !strcmp(nm, "gds")) in->gds = true;
    else if (flag && !strcmp(nm, "clamp")) in->clamp = 1;
    else if (flag && !strcmp(nm, "fi")) in->fi = true;
    else if (num && !strcmp(nm, "fi")) in->fi = v != 0; /* v_permlane*_swap's fi:1 */
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "neg")) in->neg = listbits(m); /* f64 MFMA */
    else if (num && !strcmp(nm, "offset")) in->offset = v;
    else if (m->form == EMU_MF_FUNC && !strcmp(nm, "offset")) {
      if (!swizzle_offset(emu_mod_name((uint16_t)v), &in->offset)) return "offset macro not understood";
    }
    else if (num && !strcmp(nm, "offset0")) in->offset0 = (uint8_t)v;
    else if (num && !strcmp(nm, "offset1")) in->offset1 = (uint8_t)v;
    else if (num && !strcmp(nm, "mul") && (v == 2 || v == 4)) in->omod = v == 2 ? 1 : 2;
    else if (num && !strcmp(nm, "div") && v == 2) in->omod = 3;
    else if (num && !strcmp(nm, "cbsz")) in->cbsz = (uint8_t)v;
    else if (num && !strcmp(nm, "abid")) in->abid = (uint8_t)v;
    else if (num && !strcmp(nm, "blgp")) in->blgp = (uint8_t)v;
    else if (num && !strcmp(nm, "bitop3")) in->bitop3 = (uint8_t)v;
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "op_sel")) {
      /* LLVM prints one entry per source and then the destination: with fewer than three sources
       * the destination entry moves to bit 3, where emu_insn.op_sel keeps it */
      in->op_sel = listbits(m);
      int nsrc = in->nop - in->src0i;
      if (m->nlist < 4 && m->nlist == nsrc + 1 && (in->op_sel >> nsrc & 1))
        in->op_sel = (uint8_t)((in->op_sel & ~(1u << nsrc)) | 8u);
    }
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "op_sel_hi")) in->op_sel_hi = listbits(m), in->has_op_sel_hi = true;
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "neg_lo")) in->neg_lo = listbits(m);
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "neg_hi")) in->neg_hi = listbits(m);
    else if (m->form == EMU_MF_PAREN && !strcmp(nm, "vmcnt")) in->vmcnt = (int8_t)v;
    else if (m->form == EMU_MF_PAREN && !strcmp(nm, "expcnt")) in->expcnt = (int8_t)v;
    else if (m->form == EMU_MF_PAREN && !strcmp(nm, "lgkmcnt")) in->lgkmcnt = (int8_t)v;
    else if (m->form == EMU_MF_IDENT && (!strcmp(nm, "dst_sel") || !strcmp(nm, "src0_sel") ||
                                         !strcmp(nm, "src1_sel"))) {
      int s = ident_index(emu_mod_name((uint16_t)v), sel_names, 7);
      if (s < 0) return "unknown SDWA select";
      if (nm[0] == 'd') in->dst_sel = (uint8_t)s;
      else if (nm[3] == '0') in->src0_sel = (uint8_t)s;
      else in->src1_sel = (uint8_t)s;
    } else if (m->form == EMU_MF_IDENT && !strcmp(nm, "dst_unused")) {
      int s = ident_index(emu_mod_name((uint16_t)v), unused_names, 3);
      if (s < 0) return "unknown SDWA dst_unused";
      in->dst_unused = (uint8_t)s;
    }
    /* DPP controls (encoding values: see internal.h) */
    else if (m->form == EMU_MF_LIST && !strcmp(nm, "quad_perm") && m->nlist == 4)
      in->dpp_ctrl = (uint16_t)(m->list[0] | m->list[1] << 2 | m->list[2] << 4 | m->list[3] << 6);
    else if (num && !strcmp(nm, "row_shl") && v >= 1 && v <= 15) in->dpp_ctrl = (uint16_t)(0x100 + v);
    else if (num && !strcmp(nm, "row_shr") && v >= 1 && v <= 15) in->dpp_ctrl = (uint16_t)(0x110 + v);
    else if (num && !strcmp(nm, "row_ror") && v >= 1 && v <= 15) in->dpp_ctrl = (uint16_t)(0x120 + v);
    else if (num && !strcmp(nm, "wave_shl") && v == 1) in->dpp_ctrl = 0x130;
    else if (num && !strcmp(nm, "wave_rol") && v == 1) in->dpp_ctrl = 0x134;
    else if (num && !strcmp(nm, "wave_shr") && v == 1) in->dpp_ctrl = 0x138;
    else if (num && !strcmp(nm, "wave_ror") && v == 1) in->dpp_ctrl = 0x13c;
    else if (flag && !strcmp(nm, "row_mirror")) in->dpp_ctrl = 0x140;
    else if (flag && !strcmp(nm, "row_half_mirror")) in->dpp_ctrl = 0x141;
    else if (num && !strcmp(nm, "row_bcast") && (v == 15 || v == 31)) in->dpp_ctrl = v == 15 ? 0x142 : 0x143;
    else if (num && !strcmp(nm, "row_newbcast") && v >= 0 && v <= 15) in->dpp_ctrl = (uint16_t)(0x150 + v);
    else if (num && !strcmp(nm, "row_mask")) in->row_mask = (uint8_t)v;
    else if (num && !strcmp(nm, "bank_mask")) in->bank_mask = (uint8_t)v;
    else if (num && !strcmp(nm, "bound_ctrl")) in->bound_ctrl = true; /* gfx9: :0 and :1 both set it */
    else {
      snprintf(why, sizeof why, "modifier '%s' not understood by the emulator", nm);
      return why;
    }
  }
  return NULL;
}

static size_t word_end(const char *s, size_t i, size_t n, bool stop_at_comma)
{
  int depth = 0;
  for (; i < n; i++) {
    char c = s[i];
    if (c == '(' || c == '[') depth++;
    else if (c == ')' || c == ']') depth--;
    else if (depth == 0 && (c == ' ' || (stop_at_comma && c == ','))) break;
  }
  return i;
}

static const char *const enc_suffix[] = {"", "_e32", "_e64", "_sdwa", "_dpp"};

bool emu_insn_parse(const char *text, emu_insn *in)
{
  while (*text == '\t' || *text == ' ') text++;
  size_t n = strlen(text);
  while (n && (text[n - 1] == ' ' || text[n - 1] == '\n')) n--;
  size_t i = 0;
  while (i < n && text[i] != ' ') i++;
  if (i == 0 || i >= sizeof in->mnem) return false;
  memcpy(in->mnem, text, i);
  in->mnem[i] = 0;
  in->enc = EMU_ENC_NONE;
  for (int e = 1; e <= 4; e++) {
    size_t sl = strlen(enc_suffix[e]);
    if (i > sl && strcmp(in->mnem + i - sl, enc_suffix[e]) == 0) in->enc = (uint8_t)e;
  }
  in->nop = in->nmod = 0;
  bool in_mods = false;
  while (i < n) {
    while (i < n && text[i] == ' ') i++;
    if (i >= n) break;
    size_t e = word_end(text, i, n, !in_mods);
    const char *w = text + i;
    size_t wn = e - i;
    if (!in_mods && !is_waitcnt_word(w, wn) && !(in->nop == 0 && is_cache_flag_word(w, wn))) {
      if (in->nop >= EMU_MAXOPND) return false;
      if (!parse_operand(w, wn, &in->o[in->nop++])) return false;
      if (e < n && text[e] == ',') {
        i = e + 1;
        continue;
      }
      in_mods = true; /* words after the last operand are modifiers */
      i = e;
      continue;
    }
    in_mods = true;
    if (in->nmod >= EMU_MAXMOD) return false;
    if (!parse_mod(w, wn, &in->mod[in->nmod++])) return false;
    i = e;
  }
  return true;
}

/* ---- formatter ------------------------------------------------------------------------------*/
typedef struct {
  char *p;
  size_t n, len;
} sbuf;
static void sb_put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_put(sbuf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (b->len < b->n) {
    int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    if (k > 0) b->len += (size_t)k;
  }
  va_end(ap);
  if (b->len >= b->n) b->len = b->n ? b->n - 1 : 0;
}

static void fmt_reg(sbuf *b, const char *pfx, unsigned lo, unsigned n)
{
  if (n == 1) sb_put(b, "%s%u", pfx, lo);
  else sb_put(b, "%s[%u:%u]", pfx, lo, lo + n - 1);
}

static void fmt_operand(sbuf *b, const emu_opnd *o)
{
  if (o->mods & EMU_M_SEXT) sb_put(b, "sext(");
  if (o->mods & EMU_M_NEG) sb_put(b, (o->mods & EMU_M_NEGFN) ? "neg(" : "-");
  if (o->mods & EMU_M_ABS) sb_put(b, (o->mods & EMU_M_ABSFN) ? "abs(" : "|");
  switch (o->kind) {
  case EMU_OPK_SGPR: {
    bool done = false;
    if (o->reg >= EMU_S_TTMP && o->reg < EMU_S_TTMP + 16) {
      fmt_reg(b, "ttmp", o->reg - EMU_S_TTMP, o->n);
      done = true;
    }
    for (size_t i = 0; !done && i < sizeof specials / sizeof specials[0]; i++)
      if (specials[i].kind == EMU_OPK_SGPR && specials[i].reg == o->reg && specials[i].n == o->n) {
        sb_put(b, "%s", specials[i].name);
        done = true;
      }
    if (!done) fmt_reg(b, "s", o->reg, o->n);
    break;
  }
  case EMU_OPK_VGPR: fmt_reg(b, "v", o->reg, o->n); break;
  case EMU_OPK_AGPR: fmt_reg(b, "a", o->reg, o->n); break;
  case EMU_OPK_IMM:
  case EMU_OPK_LIT:
  case EMU_OPK_LABEL:
    if (o->mods & EMU_M_LIT) sb_put(b, "lit(");
    /* magnitude negated as unsigned: -ival overflows for INT64_MIN ("-0x8000000000000000") */
    if (o->mods & EMU_M_HEX) sb_put(b, "%s0x%llx", o->ival < 0 ? "-" : "",
                                    o->ival < 0 ? 0ull - (unsigned long long)o->ival
                                                : (unsigned long long)o->ival);
    else sb_put(b, "%lld", (long long)o->ival);
    if (o->mods & EMU_M_LIT) sb_put(b, ")");
    break;
  case EMU_OPK_FIMM: sb_put(b, "%s", fimm_text[o->reg - 240]); break;
  default:
    if (o->kind == EMU_OPK_FUNC) {
      sb_put(b, "%s", emu_mod_name(o->fn));
      break;
    }
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
      if (specials[i].kind == o->kind && specials[i].reg == o->reg) {
        sb_put(b, "%s", specials[i].name);
        break;
      }
  }
  if (o->mods & EMU_M_ABS) sb_put(b, (o->mods & EMU_M_ABSFN) ? ")" : "|");
  if ((o->mods & EMU_M_NEG) && (o->mods & EMU_M_NEGFN)) sb_put(b, ")");
  if (o->mods & EMU_M_SEXT) sb_put(b, ")");
}

static void fmt_mod(sbuf *b, const emu_mod *m)
{
  sb_put(b, "%s", emu_mod_name(m->name));
  switch (m->form) {
  case EMU_MF_FLAG: break;
  case EMU_MF_DEC: sb_put(b, ":%d", m->val); break;
  case EMU_MF_HEX: sb_put(b, ":0x%x", (unsigned)m->val); break;
  case EMU_MF_IDENT:
  case EMU_MF_FUNC: sb_put(b, ":%s", emu_mod_name((uint16_t)m->val)); break;
  case EMU_MF_PAREN: sb_put(b, "(%d)", m->val); break;
  case EMU_MF_LIST:
    sb_put(b, ":[");
    for (int i = 0; i < m->nlist; i++) sb_put(b, "%s%d", i ? "," : "", m->list[i]);
    sb_put(b, "]");
    break;
  }
}

void emu_insn_format(const emu_insn *in, char *buf, size_t n)
{
  sbuf b = {buf, n, 0};
  if (n) buf[0] = 0;
  sb_put(&b, "%s", in->mnem);
  for (int i = 0; i < in->nop; i++) {
    sb_put(&b, i ? ", " : " ");
    fmt_operand(&b, &in->o[i]);
  }
  for (int i = 0; i < in->nmod; i++) {
    sb_put(&b, " ");
    fmt_mod(&b, &in->mod[i]);
  }
}

/* ---- LLVM ---------------------------------------------------------------------------------*/
static pthread_mutex_t llvm_mu = PTHREAD_MUTEX_INITIALIZER;
static LLVMDisasmContextRef llvm_ctx[EMU_NARCH];
static bool llvm_inited;

static LLVMDisasmContextRef llvm_get(emu_arch a, ll_err *err)
{
  /* caller holds llvm_mu */
  if (!llvm_inited) {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    llvm_inited = true;
  }
  if (!llvm_ctx[a]) {
    llvm_ctx[a] = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", emu_arch_name(a), NULL, 0, NULL, NULL);
    if (!llvm_ctx[a])
      ll_seterr(err, LL_EXIT_ENV,
                "LLVM's AMDGPU disassembler could not be created for %s (libLLVM 22 with the "
                "AMDGPU target is needed: apt-get install llvm-22)",
                emu_arch_name(a));
  }
  return llvm_ctx[a];
}

long emu_program_index(const emu_program *p, uint64_t pc)
{
  size_t lo = 0, hi = p->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (p->insns[mid].pc < pc) lo = mid + 1;
    else hi = mid;
  }
  return (lo < p->n && p->insns[lo].pc == pc) ? (long)lo : -1;
}

/* Straight-line blocks (emu_insn.blk_n), worked out here at decode like the runs and events; emu/exec.c
 * rr_ahead runs them. rr_ahead checks the budget, VSKIP, VGPR indexing, the end of .text and
 * the s_waitcnt hazard filter once per block instead of once per instruction, then runs the block's
 * records in a tight loop (counts, ip and the handler call only). A block starts at any record
 * that is not an event and runs to the next event, or to and including the first record that
 * changes what those checks read: a branch (s_branch, s_cbranch_*, s_setpc_b64, s_swappc_b64: ip),
 * s_setvskip, s_set_gpr_idx_on/off, s_ttracedata (the counts' phase). Inside a block nothing else
 * changes them (s_waitcnt, an event that block_prepare takes into blocks, only retires pending
 * loads), so a check at the block's start holds for each of its records. The one exception: a cross-lane DS instruction that is not an
 * event (ds_bpermute_b32 ...) adds an LDS-counter entry, its destination registers pending. It used
 * to end its block; a block now runs on past it up to, not including, the first record that names
 * one of those registers (mem_cut), which the start's check could not have seen: the records it
 * does take name none of them, so the check still holds for each (issue #31, ninth stop: gfx942's
 * attention kernels issue ds_bpermute_b32 in long runs with address arithmetic between them, a
 * block start each). */
static bool xlane_ahead(const emu_insn *in)
{
  return (in->flags & EMU_F_DS) && (in->flags & EMU_F_XLANE) && in->lk == EMU_LK_NONE && !in->sched_ev;
}
static bool blk_term(const emu_insn *in)
{
  return (in->flags & (EMU_F_BRANCH | EMU_F_VMEM | EMU_F_SMEM)) || ((in->flags & EMU_F_DS) && !xlane_ahead(in)) ||
         in->fn == emu_op_s_setpc_b64 || in->fn == emu_op_s_swappc_b64 || in->fn == emu_op_s_setvskip ||
         in->fn == emu_op_s_set_gpr_idx_on || in->fn == emu_op_s_set_gpr_idx_off || in->fn == emu_op_s_ttracedata ||
         !in->implemented;
}
/* An LDS read (ds_read*, the transposing reads: no atomic, no cross-lane form) that a block of a
 * workgroup of several waves runs inside it when, at the block's start, no other wave of the workgroup
 * can write LDS before its next s_barrier and the LDS ordering check has nothing to check
 * (emu/exec.c rr_quiet; else the block stops before it, at blk_rn, and the read takes its turn). Then
 * every LDS write that comes before the read in the round-robin order (step, wave) has happened and
 * none that comes after it can happen before the read's wave reaches a barrier, so the read returns
 * what it would at its turn; a fault it meets is kept at its step like any other in a block. Each
 * such handler makes exactly one LDS-counter entry (emu/op_ds.c, emu/op_xlane.c tr_read), which
 * mem_cut counts (issue #31, fortieth stop: the attention kernels' K and V reads, each a turn of its
 * own and two blocks' ends, 393,216 of the seed's 709,632 turns at seq 512). */
static bool rd_inblock(const emu_insn *in)
{
  return in->implemented && (in->flags & EMU_F_DS) && !(in->flags & EMU_F_ATOMIC) &&
         (in->lk == EMU_LK_DS || in->lk == EMU_LK_DS2) && in->lop == 'r';
}
/* A global or buffer load into VGPRs (no atomic, no flat form, no load to LDS) that a block of a
 * workgroup of several waves runs inside it when, at the start of the wave's turn, no other wave of
 * the workgroup can write global memory before its next s_barrier (emu_insn.gmw; else the block
 * stops before it, at blk_gn): the same argument as for LDS reads, for the memory the workgroup's
 * waves share (other workgroups run on other threads in no defined order). Each such handler makes
 * exactly one vector-memory entry (emu/op_mem.c mem_load, gload_wave), which mem_cut counts (issue
 * #31, fortieth stop: the K and V tile loads, 131,072 of the seed's 316,416 turns at seq 512). */
static bool gl_inblock(const emu_insn *in)
{
  return in->implemented && (in->flags & EMU_F_VMEM) && (in->flags & EMU_F_LOAD) && !(in->flags & EMU_F_ATOMIC) &&
         in->lk == EMU_LK_NONE && !in->lds && (in->vmf & EMU_VMF_OK) && !(in->vmf & (EMU_VMF_FLAT | EMU_VMF_TO_LDS)) &&
         in->vmop == 'r';
}
/* How many of the len records after the cross-lane DS record x may share its block: up to the first
 * that names a register of x's destination (operand 0, what emu_pend makes pending), of its kind and
 * overlapping as emu_hazard_check compares them. With waits (a block of a workgroup of several
 * waves, which runs s_waitcnt inside it), a record after an s_waitcnt that retires x's entry may name
 * them: emu_waitcnt retires the LDS counter's entries oldest first, all at lgkmcnt(0) and all but
 * the N youngest at lgkmcnt(N), so the wait retires x when at least N LDS entries are younger. Such a
 * block's only LDS-counter records are cross-lane DS ones (xlane_ahead) and LDS reads (rd_inblock:
 * every other DS, SMEM and memory record is an event), and each of their handlers makes exactly one
 * entry (emu/op_xlane.c, emu/op_ds.c; nopend, which makes none, is a solo block's, and an entry
 * several_elide leaves out is one the wait retires anyway), so the records between count the younger
 * entries exactly; a counter at its maximum retires more, never fewer. */
/* A global load of such a block (gl_inblock) is cut the same way on the vector-memory counter:
 * vmcnt(0) retires every entry and vmcnt(N) all but the N youngest (in order, CDNA3 ISA
 * "S_WAITCNT"), and the block's only vector-memory records are such loads, one entry each. */
/* in a block of several waves, does r make one entry on the vector-memory (vm) or the LDS counter? */
static bool counter_entry(const emu_insn *r, bool vm) { return vm ? gl_inblock(r) : xlane_ahead(r) || rd_inblock(r); }
/* does r wait on that counter, and so retire an entry with `younger` entries of it issued after it
 * (N 0, or at least N younger); -1: r waits on it for nothing, 0 no, 1 yes */
static int counter_wait(const emu_insn *r, bool vm, uint32_t younger)
{
  const int c = r->fn != emu_op_s_waitcnt ? -1 : vm ? r->vmcnt : r->lgkmcnt;
  return c < 0 ? -1 : c == 0 || younger >= (uint32_t)c;
}
static uint32_t mem_cut(const emu_insn *x, uint32_t len, bool waits)
{
  const emu_opnd *d = &x->o[0];
  const int kd = x->nop ? emu_regkind(d) : 0;
  if (!kd) return len;
  const bool vm = (x->flags & EMU_F_VMEM) != 0;
  uint32_t younger = 0; /* entries of x's counter issued after x so far */
  for (uint32_t j = 1; j <= len; j++) {
    const emu_insn *r = x + j;
    if (waits && counter_wait(r, vm, younger) == 1) return len;
    younger += counter_entry(r, vm); /* read only with waits */
    for (int i = 0; i < r->nop; i++) {
      const emu_opnd *o = &r->o[i];
      if (emu_regkind(o) == kd && o->reg < d->reg + d->n && d->reg < o->reg + o->n) return j - 1;
    }
  }
  return len;
}

/* A wave alone in its workgroup has no other wave to order its memory operations against: its LDS
 * reads and writes (no atomics) and its s_waitcnt run inside its blocks (solo blocks: emu_insn.blk_s*),
 * through the same handler and LDS ordering check as the event path of emu/exec.c rr_ahead. An LDS
 * read adds an LDS-counter entry with its destination pending, as a cross-lane DS record does, so its
 * block is cut the same way (mem_cut; for every DS record, a write's address included: no DS
 * handler makes a register other than operand 0 pending); s_waitcnt only retires entries, so the
 * check at a block's start still holds after it. */
static bool solo_inblock(const emu_insn *in)
{
  return in->implemented && in->solo_ev &&
         (((in->flags & EMU_F_DS) && !(in->flags & EMU_F_ATOMIC)) || in->fn == emu_op_s_waitcnt);
}
/* may write LDS: a DS instruction other than such a read and the cross-lane ones (which touch no
 * LDS bytes), a load to LDS, a flat write or atomic (a flat address may be LDS), anything of no
 * known semantics */
static bool lds_writer(const emu_insn *in)
{
  if (!in->implemented) return true;
  if (in->flags & EMU_F_DS) return !rd_inblock(in) && !xlane_ahead(in);
  if (in->lk == EMU_LK_LOADLDS || (in->vmf & EMU_VMF_TO_LDS)) return true;
  return in->lk == EMU_LK_FLAT && in->lop != 'r';
}
/* may write memory other waves of the workgroup read outside LDS: any event (only an event touches
 * more than the wave's own registers, emu_insn.sched_ev) but a load into registers (global, buffer,
 * scalar), an LDS access, s_waitcnt, s_barrier, s_endpgm; anything of no known semantics */
static bool gmem_writer(const emu_insn *in)
{
  if (!in->implemented) return true;
  if (!in->sched_ev || gl_inblock(in) || (in->flags & EMU_F_DS)) return false;
  if ((in->flags & EMU_F_SMEM) && (in->flags & EMU_F_LOAD)) return false;
  return in->fn != emu_op_s_waitcnt && in->fn != emu_op_s_barrier && in->fn != emu_op_s_endpgm;
}
/* the field at byte offset off of every record (emu_insn.ldsw, gmw): from record i on, the wave may
 * execute a writer before it reaches an s_barrier, along any path of the program's branches: a least
 * fixed point from the writers backwards, stopped at s_barrier and s_endpgm, an unresolved or
 * indirect branch (s_setpc_b64, s_swappc_b64) counting as a writer (its target unknown). Iterated to
 * the fixed point: a loop's back branch carries its body's writers to the loop's head and on to what
 * comes before it. */
static void reach_prepare(emu_insn *insns, size_t n, size_t off, bool (*writer)(const emu_insn *))
{
#define RF(i) (*((uint8_t *)&insns[i] + off))
  for (size_t i = 0; i < n; i++) RF(i) = writer(&insns[i]);
  for (bool more = true; more;) {
    more = false;
    for (size_t i = n; i-- > 0;) {
      const emu_insn *in = &insns[i];
      if (RF(i) || in->fn == emu_op_s_barrier || in->fn == emu_op_s_endpgm) continue;
      bool w;
      if (in->fn == emu_op_s_setpc_b64 || in->fn == emu_op_s_swappc_b64) {
        w = true;
      } else if (in->flags & EMU_F_BRANCH) {
        const bool uncond = in->fn == emu_op_s_branch;
        w = in->target < 0 || RF((size_t)in->target) || (!uncond && i + 1 < n && RF(i + 1));
      } else {
        w = i + 1 < n && RF(i + 1);
      }
      if (w) RF(i) = 1, more = true;
    }
  }
#undef RF
}

/* a block of len records (len 0: an event) starting at a record that is (at) or is not the kind
 * counted: how many of its records come before the first of that kind, from *next, the count of the
 * block from the record after it, which this one's replaces (blk_wn, blk_rn, blk_gn) */
static uint8_t before_first(bool at, uint32_t len, uint32_t *next)
{
  uint32_t c = at ? 0 : len <= 1 ? len : 1 + (*next < len - 1 ? *next : len - 1);
  *next = c;
  return (uint8_t)(c > 255 ? 255 : c);
}
/* one kind of block's fields of a record: the run-ahead loop's (blk_*) or a solo wave's (blk_s*) */
typedef struct {
  uint8_t *n, *fz, *hzk, *hzn, *hzw;
  uint64_t *hzm;
} blk_fields;
static blk_fields blk_of(emu_insn *in, bool solo)
{
  if (solo) return (blk_fields){&in->blk_sn, &in->blk_sfz, &in->blk_shzk, &in->blk_shzn, in->blk_shzw, in->blk_shzm};
  return (blk_fields){&in->blk_n, &in->blk_fz, &in->blk_hzk, &in->blk_hzn, in->blk_hzw, in->blk_hzm};
}

static void block_prepare(emu_insn *insns, size_t n, bool solo)
{
  uint32_t next = 0; /* the block length from i + 1 */
  bool fz_next = false; /* a run starts in the block from i + 1 */
  uint32_t wn_next = 0; /* blk_wn of the record i + 1 */
  uint32_t rn_next = 0; /* blk_rn of the record i + 1 */
  uint32_t gn_next = 0; /* blk_gn of the record i + 1 */
  for (size_t i = n; i-- > 0;) {
    emu_insn *in = &insns[i];
    /* in a workgroup of several waves s_waitcnt runs inside the block too: it touches only the
     * wave's own counters, so its turn among the other waves is unobservable unless it can retire an
     * LDS write of the wave that the LDS ordering check has seen (emu/exec.c rr_ahead stops the block
     * before it then, at blk_wn). Issue #31, thirty-ninth stop: gfx942's software transpose waits on
     * its ds_bpermute_b32 results every few instructions, each wait a block's end */
    const bool waitcnt = in->fn == emu_op_s_waitcnt && in->implemented;
    const bool rd = !solo && rd_inblock(in);
    const bool gl = !solo && gl_inblock(in);
    const bool inb = solo ? solo_inblock(in) : waitcnt || rd || gl;
    uint32_t len = in->sched_ev && !inb ? 0 : blk_term(in) && !inb ? 1 : 1 + next;
    /* a cross-lane DS record's block (and a solo block's DS record's: whichever of them makes its
     * operand 0 pending, a read's destination) stops before a record naming operand 0's registers
     * (in a block of several waves, unless an s_waitcnt between retires it); the blocks of the records
     * before it, 1 + this one's, inherit the cut */
    if (len > 1 && (xlane_ahead(in) || (inb && (in->flags & EMU_F_DS)) || gl))
      len = 1 + mem_cut(in, next > 255 ? 255 : next, !solo);
    const blk_fields b = blk_of(in, solo);
    *b.n = (uint8_t)(len > 255 ? 255 : len);
    if (!solo) { /* the records before the block's first s_waitcnt, LDS read, global load */
      in->blk_wn = before_first(waitcnt, len, &wn_next);
      in->blk_rn = before_first(rd, len, &rn_next);
      in->blk_gn = before_first(gl, len, &gn_next);
    }
    /* over the whole chain, so also for a block cut at 255 records; after a cross-lane cut, over the
     * chain from the next record (more records than the block: a run flag or hazard union too wide
     * only sends the block through the slower, still exact, paths) */
    bool fz = len && (in->fuse_n >= 1 || (len > 1 && fz_next));
    *b.fz = fz;
    next = len, fz_next = fz;
    /* the hazard union: this record's words merged into the next record's union (len > 1) */
    const blk_fields nx = blk_of(in + (len > 1 ? 1 : 0), solo);
    *b.hzk = (uint8_t)(in->hz_kinds | (len > 1 ? *nx.hzk : 0));
    *b.hzn = len > 1 ? *nx.hzn : 0;
    if (len > 1) memcpy(b.hzw, nx.hzw, EMU_BLK_HZ), memcpy(b.hzm, nx.hzm, EMU_BLK_HZ * sizeof *b.hzm);
    for (int i = 0; i < in->hz_n && *b.hzn != EMU_BLK_HZ_ALL; i++) {
      int j = 0;
      while (j < *b.hzn && b.hzw[j] != in->hz_word[i]) j++;
      if (j == EMU_BLK_HZ) {
        *b.hzn = EMU_BLK_HZ_ALL;
        break;
      }
      if (j == *b.hzn) b.hzw[(*b.hzn)++] = in->hz_word[i], b.hzm[j] = 0;
      b.hzm[j] |= in->hz_mask[i];
    }
  }
}

/* emu_insn.sel: for a DS record of a solo block, the distance to the first s_waitcnt lgkmcnt(0) of
 * that block (blk_sn records from it), which retires its LDS-counter entry with every other LDS and
 * scalar one. No record between names the entry's registers (the block stops before one that does,
 * mem_cut), so while the block runs the entry is seen by nothing: not made (emu/exec.c rr_ahead,
 * only when the block that runs reaches the wait). Only lgkmcnt(0): a wait for fewer than all
 * retires a DS record by how many entries are younger, which depends on EXEC at run time. */
static void solo_elide(emu_insn *insns, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    emu_insn *in = &insns[i];
    in->sel = 0;
    if (!(in->flags & EMU_F_DS) || in->blk_sn < 2) continue;
    for (uint32_t j = 1; j < in->blk_sn && i + j < n; j++) {
      const emu_insn *r = &insns[i + j];
      if (r->fn == emu_op_s_waitcnt && r->lgkmcnt == 0) {
        in->sel = (uint8_t)j;
        break;
      }
    }
  }
}

/* emu_insn.wsel: for an LDS-counter record of a block of several waves (a cross-lane DS record or an
 * LDS read, each making exactly one entry, mem_cut), the distance to the first s_waitcnt after it in
 * its block that retires its entry (lgkmcnt(0), or lgkmcnt(N) with at least N such records between);
 * waits before that one, which retire other entries but not this one, are passed over (issue #31,
 * forty-third stop: gfx942's transpose waits with lgkmcnt(N) between a bpermute and the wait for
 * it). It is not made when the part of the block that runs reaches that wait (emu/exec.c solo_call):
 * - no record before the wait names its registers (the block's cut);
 * - a wait between counts one entry fewer, so where the machine's counter keeps it among its N
 *   youngest, such a wait may keep an older entry outstanding that the machine retires there: the
 *   model keeps entries longer inside the part that runs, never shorter, and nothing is checked
 *   there (the checks run at a block's start);
 * - entries are left out in issue order up to the first that is not (a later record's wait is never
 *   earlier), so the last one left out has its N or more younger entries all made, and its wait keeps
 *   exactly those N youngest and retires everything older, as the machine's does. When the part ends,
 *   the counters are the machine's less the entries left out (all retired by then): what the next
 *   block's checks read. A counter at its maximum then retires fewer entries out of turn, never more.
 * tests/test_emu_cvt.c bpermute_and_waits_in_runs_give_the_handlers_bits_and_counters compares the
 * counters after runs with every entry made. */
static void several_elide(emu_insn *insns, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    emu_insn *in = &insns[i];
    in->wsel = 0;
    if (in->blk_n < 2 || !counter_entry(in, false)) continue;
    uint32_t younger = 0;
    for (uint32_t j = 1; j < in->blk_n && i + j < n; j++) {
      const emu_insn *r = &insns[i + j];
      if (counter_wait(r, false, younger) == 1) {
        in->wsel = (uint8_t)j;
        break;
      }
      younger += counter_entry(r, false);
    }
  }
}

/* the registers an instruction names, per kind (emu_insn.hz_*: the executor's s_waitcnt filter):
 * the bits of operand registers [reg, reg + min(n, 64)) below 512, as the pending-register map
 * (emu/waitcnt.c emu_pend) keeps them, merged per map word */
static void hazard_summary(emu_insn *in)
{
  in->hz_kinds = 0;
  in->hz_n = 0;
  for (int i = 0; i < in->nop; i++) {
    const emu_opnd *o = &in->o[i];
    int k = emu_regkind(o);
    if (!k) continue;
    in->hz_kinds |= (uint8_t)(1u << k);
    unsigned reg = o->reg, n = o->n > 64 ? 64 : o->n;
    if (reg + n > 512) n = reg < 512 ? 512 - reg : 0;
    while (n) {
      unsigned sh = reg & 63, c = 64 - sh < n ? 64 - sh : n;
      uint64_t bits = (c == 64 ? ~0ull : (1ull << c) - 1) << sh;
      uint8_t word = (uint8_t)(k * 9 + (reg >> 6));
      int j = 0;
      while (j < in->hz_n && in->hz_word[j] != word) j++;
      if (j == in->hz_n) in->hz_word[in->hz_n++] = word, in->hz_mask[j] = 0;
      in->hz_mask[j] |= bits;
      reg += c, n -= c;
    }
  }
}

static void finish_insn(emu_insn *in)
{
  in->fz_op = 0, in->fuse_n = 0; /* no run (emu/fuse.c) unless emu_fuse_mark says so below */
  hazard_summary(in);
  in->lk = EMU_LK_NONE;
  in->vmf = in->vmop = in->vmbytes = 0;
  in->sched_ev = 1; /* until known to touch only its own wave's registers */
  in->solo_ev = 0;
  in->target = -1;
  in->implemented = false;
  in->fn = emu_op_unimplemented;
  in->op = 0xffff;
  if (!in->parsed) {
    in->why = "LLVM's text for it could not be parsed";
    return;
  }
  char base[48];
  snprintf(base, sizeof base, "%s", in->mnem);
  size_t sl = strlen(enc_suffix[in->enc]);
  base[strlen(base) - sl] = 0;
  int op = emu_ops_find(base);
  if (op < 0) {
    in->why = strncmp(base, "scratch_load_lds_", 17) == 0
                  ? "scratch_load_lds_* (private memory to LDS) is not modelled"
                  : "no semantics for this mnemonic";
    return;
  }
  in->op = (uint16_t)op;
  in->flags = emu_ops_get((size_t)op)->flags;
  in->src0i = (in->flags & EMU_F_CARRY) ? 2 : 1; /* apply_mods needs the source count */
  const char *why = apply_mods(in);
  /* the observer's description of a buffer/flat/global access (its lds modifier parsed), for a
   * record refused below too */
  emu_vm_form_prepare(in, emu_ops_get((size_t)op)->name);
  if (why) {
    in->why = stable_why(why);
    return;
  }
  /* LLVM prints a literal that an inline constant could also encode as lit(0x1) / lit64(...).
   * lit(V) is parsed as the literal it is (parse_operand); lit64(...) has no value in the operand
   * helpers (they would read it as 0), so an instruction carrying one is refused here and faults
   * "unimplemented" if executed, rather than computing with a wrong value. */
  for (int i = 0; i < in->nop; i++)
    if (in->o[i].kind == EMU_OPK_FUNC && strncmp(emu_mod_name(in->o[i].fn), "lit", 3) == 0) {
      in->why = "a lit(...) operand (forced literal) is not modelled";
      return;
    }
  const emu_opdef *d = emu_ops_get((size_t)op);
  if (!d->fn) {
    in->why = "no semantics for this mnemonic";
    return;
  }
  if (in->enc == EMU_ENC_DPP && !emu_dpp_implemented) {
    in->why = "DPP lane selection is not implemented yet";
    return;
  }
  in->src0i = (d->flags & EMU_F_CARRY) ? 2 : 1;
  if ((why = emu_insn_static_refusal(in))) {
    in->why = stable_why(why);
    return;
  }
  in->fn = d->fn;
  in->implemented = true;
  emu_vop3p_specialise(in); /* packed f32 forms with a specialised handler (emu/op_vop3p.c) */
  emu_salu_specialise(in);  /* scalar ALU forms with a specialised handler (emu/op_salu.c) */
  emu_lds_access_prepare(in, d->name); /* the LDS ordering check and racecheck read it */
  in->choices = emu_insn_choices(in);
  emu_fuse_mark(in, d->name); /* an integer lane operation a run may take (emu/fuse.c) */
  /* the round-robin scheduler (emu/exec.c) lets a wave run ahead through instructions that read
   * and write nothing but its own registers; memory (LDS, global, scalar), s_barrier, s_endpgm,
   * s_waitcnt (the LDS ordering rule, emu/observe.c, asks whether another wave's access comes before
   * or after the writer's wait) and anything of no known family wait for their turn. The cross-lane
   * DS instructions (ds_bpermute_b32, ds_permute_b32, ds_swizzle_b32) use the LDS hardware but no
   * LDS memory (lk none): they move lanes of the wave's own registers, and the lgkmcnt entry they
   * add is the wave's own (other waves read a wave's counters only at its s_waitcnt and at barrier
   * releases, both events), so they run ahead like VALU */
  bool xlane_ds = (in->flags & EMU_F_DS) && (in->flags & EMU_F_XLANE) && in->lk == EMU_LK_NONE;
  in->sched_ev = ((in->flags & (EMU_F_DS | EMU_F_VMEM | EMU_F_SMEM)) && !xlane_ds) || d->fn == emu_op_s_barrier ||
                 d->fn == emu_op_s_endpgm || d->fn == emu_op_s_waitcnt ||
                 !(in->flags & (EMU_F_SALU | EMU_F_VALU | EMU_F_VOP3P | EMU_F_MFMA | EMU_F_BRANCH | EMU_F_XLANE));
  in->solo_ev = in->sched_ev && ((in->flags & (EMU_F_DS | EMU_F_VMEM | EMU_F_SMEM)) || d->fn == emu_op_s_waitcnt);
}

/* A record from text alone, resolved as the decoder resolves a code object's (handler,
 * modifiers): for the throughput bench's handler loops. False if it is not an implemented
 * instruction (in->why says why). */
bool emu_insn_prepare(const char *text, emu_insn *in)
{
  memset(in, 0, sizeof *in);
  in->parsed = emu_insn_parse(text, in);
  finish_insn(in);
  return in->implemented;
}

/* the little-endian dword at b (an encoding's words) */
static uint32_t le32(const uint8_t *b)
{
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The same libLLVM 22 crash (an error path that reports "cannot read literal") is reached on
 * gfx942 by any 64-bit encoding whose source field selects a literal (255), however many bytes
 * follow: LLVM caps a gfx942 instruction at 8 bytes (CDNA3 has no literal in 64-bit encodings),
 * e.g. 24 42 68 e0 24 44 68 ff (buffer_store_short, SOFFSET = 255; found by fuzz/fuzz_codeobj)
 * or a VOP3P/MFMA with SRC0 = 255. No valid gfx942 instruction has these fields, so they are not
 * instructions (an unused SRC2 = 255 of a two-source op, harmless to LLVM, is refused as well:
 * assemblers leave unused fields 0). Fields, CDNA3 ISA "Microcode Formats": VOP3A/VOP3B/VOP3P (bits 31:26 = 110100)
 * SRC0/1/2 in bits 40:32, 49:41, 58:50; MUBUF (111000) and MTBUF (111010) SOFFSET in 63:56.
 * gfx950 takes 12-byte instructions and decodes them (checked through LLVMDisasmInstruction). b has at least 8
 * readable bytes (the padded copy above). */
static bool literal_crashes_llvm(emu_arch a, const uint8_t *b)
{
  if (a != EMU_GFX942) return false;
  const uint32_t d0 = le32(b), d1 = le32(b + 4);
  switch (d0 >> 26) {
  case 0x34: /* VOP3A, VOP3B, VOP3P (incl. MFMA) */
    return (d1 & 0x1ff) == 255 || (d1 >> 9 & 0x1ff) == 255 || (d1 >> 18 & 0x1ff) == 255;
  case 0x38: /* MUBUF */
  case 0x3a: /* MTBUF */
    return d1 >> 24 == 255;
  default: return false;
  }
}

/* libLLVM 22 also crashes (SIGSEGV under LLVMDisasmInstruction, both arches; found by
 * fuzz/fuzz_codeobj, input fuzz/corpus/codeobj/crash_llvm_sdwa_sel_7.co) on an SDWA instruction
 * (a VOP1, VOP2 or VOPC word whose SRC0 field is 249, the SDWA word after it) with a select field it
 * prints set to 7: its printer knows BYTE_0 .. WORD_1 and DWORD, 0 to 6 (llvm/lib/Target/AMDGPU
 * SIDefines.h, AMDGPU::SDWA::SdwaSel), and 7 names none. SDWA word fields (CDNA3 ISA "Microcode
 * Formats", VOP_SDWA and VOP_SDWAB): DST_SEL 10:8, SRC0_SEL 18:16, SRC1_SEL 26:24; in VOPC's form
 * bits 14:8 are the SGPR destination, so only the two source selects count there (a VOP1's unused
 * SRC1_SEL of 7 LLVM refuses as an invalid encoding, as here). No valid instruction has such a
 * field, so these are not instructions. b has at least 8 readable bytes (the padded copy below). */
/* The VOP2 forms with a mandatory literal constant K in the dword after the instruction (CDNA3 ISA
 * "Microcode Formats" VOP2; V_FMAMK_F32 op 23 and V_MADMK_F16 op 36: D = S0 * K + S1; V_FMAAK_F32
 * op 24 and V_MADAK_F16 op 37: D = S0 * S1 + K; the f16 forms take K's low 16 bits). libLLVM 22
 * reads a K of 0x80 .. 0xf8 as an inline-constant code, not as the literal it is (0x80 is printed
 * as 0x0, 0xc1 as -1, 0xf0 as 0.5: `v_fmaak_f32 v5, v1, v0, 0xf0` assembles to K = 0x000000f0 and
 * disassembles as 0x3f000000), and crashes on the f16 forms' K = 0xff (found by fuzz/fuzz_codeobj,
 * input fuzz/corpus/codeobj/crash_llvm_madak_k_ff.co). So LLVM decodes these from a copy whose K is
 * 1, and the K operand (and a literal SRC0, which shares K's dword) gets the encoding's own K:
 * returns K's operand index (2 for the mk forms, 3 for the ak forms), 0 for any other encoding. */
static int vop2_k_operand(const uint8_t *b)
{
  const uint32_t d0 = le32(b);
  if (d0 >> 31) return 0;
  switch (d0 >> 25) {
  case 23: case 36: return 2;
  case 24: case 37: return 3;
  default: return 0;
  }
}

static bool sdwa_sel_crashes_llvm(const uint8_t *b)
{
  const uint32_t d0 = le32(b), d1 = le32(b + 4);
  if (d0 >> 31 || (d0 & 0x1ff) != 249) return false; /* VOP1 (31:25 = 0x3f), VOPC (0x3e), VOP2 (bit 31 clear) */
  const bool vopc = d0 >> 25 == 0x3e;
  return (!vopc && (d1 >> 8 & 7) == 7) || (d1 >> 16 & 7) == 7 || (d1 >> 24 & 7) == 7;
}

/* The records of code (size bytes at vaddr) from byte off on, one per instruction, until one would start
 * at or past end: into out[0 ..], their count returned, *next the byte after the last. A record depends
 * only on the bytes at its offset and the code's end, so a span decoded on its own gives the records a
 * decode from 0 gives wherever the two streams meet at an instruction start (emu_program_decode_n). */
static size_t decode_span(LLVMDisasmContextRef ctx, emu_arch a, const uint8_t *code, size_t size, uint64_t vaddr,
                          size_t off, size_t end, emu_insn *out, size_t *next)
{
  size_t n = 0;
  char txt[512];
  while (off < end) {
    emu_insn *in = &out[n++];
    /* libLLVM 22 crashes (SIGSEGV in Twine::print, under LLVMDisasmInstruction) when an
     * instruction needs a 32-bit literal and fewer than 4 bytes follow it, e.g. ff 00 00 00
     * (v_cndmask_b32_e32 with src0 = literal) as the last dword of the buffer (found by
     * fuzz/fuzz_codeobj). So near the end of the code LLVM is handed a zero-padded copy of at
     * least the longest gfx9 instruction (8-byte encoding + 4-byte literal), and an instruction
     * that would extend past the real end is treated as not an instruction, as LLVM would
     * report it. */
    enum { MAX_INSN = 12 };
    uint8_t tail[2 * MAX_INSN] = {0};
    const uint8_t *at = code + off;
    size_t avail = size - off;
    if (avail < sizeof tail) {
      memcpy(tail, at, avail);
      at = tail;
    }
    const int kop = avail >= 8 ? vop2_k_operand(at) : 0;
    uint8_t kcopy[sizeof tail] = {0};
    if (kop) memcpy(kcopy, at, 8), kcopy[4] = 1, kcopy[5] = kcopy[6] = kcopy[7] = 0;
    size_t k = literal_crashes_llvm(a, at) || sdwa_sel_crashes_llvm(at) ? 0
               : kop ? LLVMDisasmInstruction(ctx, kcopy, sizeof kcopy, vaddr + off, txt, sizeof txt)
                     : LLVMDisasmInstruction(ctx, (uint8_t *)at, avail < sizeof tail ? sizeof tail : avail,
                                             vaddr + off, txt, sizeof txt);
    if (k > avail || (kop && k != 8)) k = 0;
    in->pc = vaddr + off;
    if (k == 0) {
      /* not an instruction (data, padding): kept so PCs stay contiguous; faults if executed */
      in->size = size - off >= 4 ? 4 : (uint32_t)(size - off);
      in->text = ll_xstrdup("<unknown>");
      snprintf(in->mnem, sizeof in->mnem, "<unknown>");
      in->parsed = false;
    } else {
      in->size = (uint32_t)k;
      const char *t = txt;
      while (*t == '\t' || *t == ' ') t++;
      in->text = ll_xstrdup(t);
      in->parsed = emu_insn_parse(t, in);
      if (in->parsed && kop && in->nop > kop) { /* K from the encoding (vop2_k_operand) */
        const int64_t K = le32(at + 4);
        for (int i = 1; i <= kop; i++)
          if ((i == kop || (le32(at) & 0x1ff) == 255) && in->o[i].kind == EMU_OPK_LIT && in->o[i].ival == 1) in->o[i].ival = K;
        char buf[sizeof txt];
        emu_insn_format(in, buf, sizeof buf);
        free(in->text);
        in->text = ll_xstrdup(buf);
      }
      if (!in->parsed) {
        size_t mi = strcspn(t, " ");
        snprintf(in->mnem, sizeof in->mnem, "%.*s", (int)(mi < 47 ? mi : 47), t);
        in->nop = in->nmod = 0;
      }
    }
    off += in->size;
  }
  *next = off;
  return n;
}

typedef struct {
  LLVMDisasmContextRef ctx;
  emu_arch a;
  const uint8_t *code;
  size_t size, start, end, n, next;
  uint64_t vaddr;
  emu_insn *out;
} dspan;
static void *dspan_run(void *arg)
{
  dspan *d = arg;
  d->n = decode_span(d->ctx, d->a, d->code, d->size, d->vaddr, d->start, d->end, d->out, &d->next);
  return NULL;
}
static void drop_records(emu_insn *in, size_t n)
{
  for (size_t i = 0; i < n; i++) free(in[i].text);
}

/* LLVM disassembler contexts beyond llvm_get's one, for the spans of a parallel decode: pool[a][t]
 * for t >= 1, made by llvm_get's call once llvm_get has initialised LLVM (caller holds llvm_mu; a
 * context is used by one thread at a time); NULL when it cannot be made */
enum { DECODE_MAXT = 16, DECODE_SPAN_MIN = 64 * 1024 };
static LLVMDisasmContextRef llvm_pool[EMU_NARCH][DECODE_MAXT];
static LLVMDisasmContextRef llvm_get_t(emu_arch a, int t)
{
  if (!llvm_pool[a][t]) llvm_pool[a][t] = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", emu_arch_name(a), NULL, 0, NULL, NULL);
  return llvm_pool[a][t];
}

emu_program *emu_program_decode_n(emu_arch a, const uint8_t *code, size_t size, uint64_t vaddr, int nthreads,
                                  ll_err *err)
{
  if ((unsigned)a >= EMU_NARCH) {
    ll_seterr(err, LL_EXIT_USAGE, "emu_program_decode: unknown arch %d", (int)a);
    return NULL;
  }
  emu_program *p = ll_xcalloc(1, sizeof *p);
  p->arch = a;
  p->vaddr = vaddr;
  p->size = size;
  size_t cap = size / 4 + 1;
  p->insns = ll_xcalloc(cap, sizeof *p->insns);
  pthread_mutex_lock(&llvm_mu);
  LLVMDisasmContextRef ctx = llvm_get(a, err);
  if (!ctx) {
    pthread_mutex_unlock(&llvm_mu);
    free(p->insns);
    free(p);
    return NULL;
  }
  /* Large code objects (a HIP program's holds every kernel it was built with: a whole text is decoded
   * for a kernel whose code can leave it, emu_codeobj_kernel_program, and for isa/ and verify/) in
   * spans, one per thread (issue #31, thirty-seventh stop). A span starting inside an instruction
   * decodes misaligned until its stream meets the true one; the merge takes each span's records from
   * the instruction where the previous span's stream ended, and decodes a span again from there on
   * this thread when its records never start at that byte. So the records are those of one decode
   * from 0, at any number of threads (tests/test_emu.c compares them). */
  int nt = nthreads > 0 ? nthreads : ll_ncpus();
  if (nt > DECODE_MAXT) nt = DECODE_MAXT;
  if (nthreads <= 0 && (size_t)nt > size / DECODE_SPAN_MIN) nt = (int)(size / DECODE_SPAN_MIN);
  if ((size_t)nt > size / 16) nt = (int)(size / 16);
  LLVMDisasmContextRef ctxs[DECODE_MAXT] = {ctx};
  for (int t = 1; t < nt; t++)
    if (!(ctxs[t] = llvm_get_t(a, t))) nt = t; /* fewer threads when no more contexts */
  if (nt <= 1) {
    size_t next;
    p->n = decode_span(ctx, a, code, size, vaddr, 0, size, p->insns, &next);
  } else {
    dspan sp[DECODE_MAXT];
    pthread_t th[DECODE_MAXT];
    bool started[DECODE_MAXT] = {false};
    for (int t = 0; t < nt; t++) {
      const size_t b = (size * (size_t)t / (size_t)nt) & ~(size_t)3, e = t + 1 < nt ? (size * (size_t)(t + 1) / (size_t)nt) & ~(size_t)3 : size;
      /* span t's records in the slots from b / 4: each record takes 4 bytes or more, so they end
       * before span t + 1's first slot */
      sp[t] = (dspan){ctxs[t], a, code, size, b, e, 0, 0, vaddr, p->insns + b / 4};
    }
    for (int t = 1; t < nt; t++) started[t] = pthread_create(&th[t], NULL, dspan_run, &sp[t]) == 0;
    dspan_run(&sp[0]);
    for (int t = 1; t < nt; t++) {
      if (started[t]) pthread_join(th[t], NULL);
      else dspan_run(&sp[t]); /* no thread: this one */
    }
    size_t n = 0, next = 0;
    for (int t = 0; t < nt; t++) {
      dspan *d = &sp[t];
      if (next >= d->end) { /* the stream passed this span whole (no instruction is that long) */
        drop_records(d->out, d->n);
        continue;
      }
      size_t j = 0;
      while (j < d->n && d->out[j].pc - vaddr < next) j++;
      if (j == d->n || d->out[j].pc - vaddr != next) {
        /* this span's stream never started an instruction where the last one ended: again from there */
        drop_records(d->out, d->n);
        emu_insn *tmp = ll_xcalloc((d->end - next) / 4 + 1, sizeof *tmp);
        const size_t m = decode_span(ctx, a, code, size, vaddr, next, d->end, tmp, &next);
        memcpy(p->insns + n, tmp, m * sizeof *tmp);
        free(tmp);
        n += m;
        continue;
      }
      drop_records(d->out, j);
      memmove(p->insns + n, d->out + j, (d->n - j) * sizeof *d->out);
      n += d->n - j;
      next = d->next;
    }
    p->n = n;
    /* the slots past n hold stale copies (nothing reads past p->n): their whole pages back to the
     * system, zero again if ever touched (anonymous memory) */
    size_t hi = n;
    for (int t = 0; t < nt; t++)
      if (sp[t].start / 4 + sp[t].n > hi) hi = sp[t].start / 4 + sp[t].n;
    const uintptr_t pg = 4096, lo_b = ((uintptr_t)(p->insns + n) + pg - 1) & ~(pg - 1),
                    hi_b = (uintptr_t)(p->insns + hi) & ~(pg - 1);
    if (hi_b > lo_b) madvise((void *)lo_b, hi_b - lo_b, MADV_DONTNEED);
  }
  pthread_mutex_unlock(&llvm_mu);

  p->info = ll_xcalloc(p->n ? p->n : 1, sizeof *p->info);
  for (size_t i = 0; i < p->n; i++) {
    emu_insn *in = &p->insns[i];
    finish_insn(in);
    /* LLVM prints ds_swizzle_b32's offset as a swizzle(...) macro that can drop bits (0xc03f,
     * rotate by 1 with every lane bit kept, prints as ROTATE,0,1 without the mask), so the
     * offset the handler uses is the DS encoding's OFFSET field, bits 15:0 of the first dword
     * (CDNA3 ISA "DS" microcode format). */
    if (in->parsed && in->size >= 8 && strncmp(in->mnem, "ds_swizzle_b32", 14) == 0) {
      const uint8_t *b = code + (in->pc - vaddr);
      in->offset = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8);
    }
    if (in->implemented && (emu_ops_get(in->op)->flags & EMU_F_BRANCH) && in->nop >= 1 &&
        (in->o[0].kind == EMU_OPK_IMM || in->o[0].kind == EMU_OPK_LIT)) {
      /* SOPP branch: target = PC + 4 + SIMM16 * 4 (CDNA3 ISA "SOPP Instructions") */
      int16_t simm = (int16_t)(uint16_t)in->o[0].ival;
      long t = emu_program_index(p, in->pc + 4 + (int64_t)simm * 4);
      in->target = (int32_t)t;
    }
    for (int j = 0; j < in->nop; j++) {
      const emu_opnd *o = &in->o[j];
      uint32_t top = o->reg + o->n;
      if (o->kind == EMU_OPK_VGPR && top > p->max_vgpr) p->max_vgpr = top;
      if (o->kind == EMU_OPK_AGPR && top > p->max_agpr) p->max_agpr = top;
      if (o->kind == EMU_OPK_SGPR && o->reg < EMU_NSGPR_GP && top > p->max_sgpr) p->max_sgpr = top;
    }
    p->info[i].pc = in->pc;
    p->info[i].size = in->size;
    p->info[i].text = in->text;
    p->info[i].mnem = in->mnem;
    p->info[i].implemented = in->implemented;
    p->info[i].why = in->implemented ? NULL : in->why ? in->why : "no semantics";
    p->info[i].choices = in->choices;
  }
  /* the records that rest on stated choices, for the per-launch sums of emu/fidelity.c */
  for (size_t i = 0; i < p->n; i++) p->nchoice += p->insns[i].choices != 0;
  p->choice_ix = ll_xmalloc((p->nchoice ? p->nchoice : 1) * sizeof *p->choice_ix);
  for (size_t i = 0, j = 0; i < p->n; i++)
    if (p->insns[i].choices) p->choice_ix[j++] = (uint32_t)i;
  emu_fuse_prepare(p->insns, p->n); /* runs of integer lane operations (emu/fuse.c) */
  /* where a wave may still write LDS, or other memory, before a barrier */
  reach_prepare(p->insns, p->n, offsetof(emu_insn, ldsw), lds_writer);
  reach_prepare(p->insns, p->n, offsetof(emu_insn, gmw), gmem_writer);
  block_prepare(p->insns, p->n, false); /* straight-line blocks (emu/exec.c rr_ahead) */
  block_prepare(p->insns, p->n, true);  /* and a solo wave's */
  solo_elide(p->insns, p->n);            /* its LDS-counter entries that need not be made */
  several_elide(p->insns, p->n);         /* and those of the blocks of several waves */
  return p;
}

emu_program *emu_program_decode(emu_arch a, const uint8_t *code, size_t size, uint64_t vaddr, ll_err *err)
{
  return emu_program_decode_n(a, code, size, vaddr, 0, err);
}

void emu_program_free(emu_program *p)
{
  if (!p) return;
  emu_jit_free(p->insns, p->n); /* translated runs (emu/jit.c) */
  for (size_t i = 0; i < p->n; i++) free(p->insns[i].text);
  free(p->insns);
  free(p->info);
  free(p->choice_ix);
  free(p);
}

size_t emu_program_count(const emu_program *p) { return p ? p->n : 0; }

const emu_insn_info *emu_program_insn(const emu_program *p, size_t i)
{
  return (p && i < p->n) ? &p->info[i] : NULL;
}

static pthread_mutex_t co_mu = PTHREAD_MUTEX_INITIALIZER;

static const emu_program *codeobj_program_locked(emu_codeobj *co, ll_err *err)
{
  if (!co->priv) {
    if (co->text_vaddr + co->text_size > co->image_size) {
      ll_seterr(err, LL_EXIT_USAGE, "%s: .text [0x%llx, +0x%llx) lies outside the image", co->path,
                (unsigned long long)co->text_vaddr, (unsigned long long)co->text_size);
    } else {
      co->priv = emu_program_decode(co->arch, co->image + co->text_vaddr, co->text_size,
                                    co->text_vaddr, err);
      if (!co->priv) ll_err_prefix(err, "%s: ", co->path);
    }
  }
  return co->priv;
}

const emu_program *emu_codeobj_program(emu_codeobj *co, ll_err *err)
{
  pthread_mutex_lock(&co_mu);
  const emu_program *p = codeobj_program_locked(co, err);
  pthread_mutex_unlock(&co_mu);
  return p;
}

/* A kernel's own program holds what the kernel can execute when its code alone decides where
 * control goes: every branch's target inside its code, no s_setpc_b64 or s_swappc_b64 (a call or
 * a jump to an address computed at run time, which may be another function's code), and a last
 * record that cannot fall through (s_endpgm, s_branch) with the records ending where the code
 * does. Then no execution leaves [entry, entry + code_size), and the records there are those of the
 * whole .text's decode (a decode from the kernel's entry, an instruction start, meets the same
 * stream). */
static bool kernel_self_contained(const emu_program *p, uint64_t end)
{
  if (p->n == 0) return false;
  const emu_insn *last = &p->insns[p->n - 1];
  if (last->pc + last->size != end) return false;
  if (last->fn != emu_op_s_endpgm && last->fn != emu_op_s_branch) return false;
  for (size_t i = 0; i < p->n; i++) {
    const emu_insn *in = &p->insns[i];
    if (in->fn == emu_op_s_setpc_b64 || in->fn == emu_op_s_swappc_b64) return false;
    if (in->implemented && (emu_ops_get(in->op)->flags & EMU_F_BRANCH) && in->target < 0) return false;
  }
  return true;
}

static char whole_text; /* emu_codeobj.kpriv[i]: kernel i runs on the whole .text's program */

const emu_program *emu_codeobj_kernel_program(emu_codeobj *co, const emu_kernel *k, ll_err *err)
{
  if (!k || k < co->kernels || k >= co->kernels + co->nkernels) return emu_codeobj_program(co, err);
  const size_t ki = (size_t)(k - co->kernels);
  pthread_mutex_lock(&co_mu);
  if (!co->kpriv) co->kpriv = ll_xcalloc(co->nkernels, sizeof *co->kpriv);
  if (!co->kpriv[ki]) {
    co->kpriv[ki] = &whole_text;
    const uint64_t t0 = co->text_vaddr, t1 = co->text_vaddr + co->text_size;
    if (k->code_size && k->entry >= t0 && k->entry < t1 && k->code_size <= t1 - k->entry && t1 <= co->image_size) {
      ll_err e = {0};
      emu_program *p = emu_program_decode(co->arch, co->image + k->entry, k->code_size, k->entry, &e);
      if (p && kernel_self_contained(p, k->entry + k->code_size)) co->kpriv[ki] = p;
      else emu_program_free(p);
    }
  }
  const emu_program *p = co->kpriv[ki] == &whole_text ? codeobj_program_locked(co, err) : co->kpriv[ki];
  pthread_mutex_unlock(&co_mu);
  return p;
}

void emu_codeobj_programs_free(emu_codeobj *co)
{
  if (co->kpriv)
    for (size_t i = 0; i < co->nkernels; i++)
      if (co->kpriv[i] != &whole_text) emu_program_free(co->kpriv[i]);
  free(co->kpriv);
  co->kpriv = NULL;
  if (co->priv) emu_program_free((emu_program *)co->priv);
  co->priv = NULL;
}
