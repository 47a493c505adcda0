/* emu/dwarf — the code object's DWARF line table (.debug_line, versions 4 and 5), read once at
 * load, so faults, race and init reports and traces can name file:line beside a PC; and for
 * inlined code the line of the kernel's source it was inlined at (.debug_info, below). A relative
 * path is joined to the compilation directory: DWARF 5's directory 0, or for DWARF 2-4 the unit's
 * DW_AT_comp_dir from .debug_info (emu__comp_dirs), which those line tables leave out.
 *
 * Format: DWARF 5 standard section 6.2 "Line Number Information" (and DWARF 4 for the v4 header):
 * the header (unit length, version, for v5 address and segment selector sizes, header length,
 * minimum instruction length, maximum operations per instruction, default is_stmt, line base, line
 * range, opcode base, standard opcode lengths), the directory and file tables (v4: NUL-terminated
 * strings; v5: entry formats of (content type, form) pairs, with paths as DW_FORM_string,
 * DW_FORM_line_strp into .debug_line_str or DW_FORM_strp into .debug_str), then the line program
 * (special, standard and extended opcodes). Only rows with a line number are kept.
 *
 * Debug information is optional: a malformed table is noted (emu_codeobj.notes) and dropped,
 * never a load error. Every read is bounds-checked. */
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

typedef struct rd {
  const uint8_t *p, *end;
  bool bad;
} rd;

static uint64_t get(rd *r, unsigned n) { /* n <= 8 bytes, little-endian */
  if (r->bad || n > 8 || (size_t)(r->end - r->p) < n) {
    r->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * i);
  r->p += n;
  return v;
}

static uint64_t uleb(rd *r) {
  uint64_t v = 0;
  for (unsigned s = 0; s < 64; s += 7) {
    uint64_t b = get(r, 1);
    if (r->bad) return 0;
    v |= (b & 0x7f) << s;
    if (!(b & 0x80)) return v;
  }
  r->bad = true;
  return 0;
}

static int64_t sleb(rd *r) {
  uint64_t v = 0; /* unsigned: shifts into bit 63 are defined */
  unsigned s = 0;
  uint64_t b;
  do {
    b = get(r, 1);
    if (r->bad || s >= 64) return r->bad = true, 0;
    v |= (b & 0x7f) << s;
    s += 7;
  } while (b & 0x80);
  if (s < 64 && (b & 0x40)) v |= ~0ull << s;
  return (int64_t)v;
}

static const char *cstr(rd *r) {
  const uint8_t *z = memchr(r->p, 0, (size_t)(r->end - r->p));
  if (r->bad || !z) return r->bad = true, (const char *)NULL;
  const char *s = (const char *)r->p;
  r->p = z + 1;
  return s;
}

static const char *strsec(const uint8_t *sec, size_t n, uint64_t off) {
  if (!sec || off >= n || !memchr(sec + off, 0, n - off)) return NULL;
  return (const char *)sec + off;
}

typedef struct sections {
  const uint8_t *line_str, *str;
  size_t nline_str, nstr;
} sections;

/* One attribute of a v5 directory or file entry: a path (string forms) or a number. */
static bool entry_attr(rd *r, uint64_t form, bool dwarf64, const sections *s, const char **str, uint64_t *num) {
  *str = NULL, *num = 0;
  switch (form) {
  case 0x08: *str = cstr(r); break;                                                     /* string */
  case 0x1f: *str = strsec(s->line_str, s->nline_str, get(r, dwarf64 ? 8 : 4)); break; /* line_strp */
  case 0x0e: *str = strsec(s->str, s->nstr, get(r, dwarf64 ? 8 : 4)); break;           /* strp */
  case 0x0f: *num = uleb(r); break;                                                     /* udata */
  case 0x0b: *num = get(r, 1); break;                                                   /* data1 */
  case 0x05: *num = get(r, 2); break;                                                   /* data2 */
  case 0x06: *num = get(r, 4); break;                                                   /* data4 */
  case 0x07: *num = get(r, 8); break;                                                   /* data8 */
  case 0x1e: get(r, 8), get(r, 8); break;                                               /* data16 (MD5) */
  case 0x09: { uint64_t n = uleb(r); if ((uint64_t)(r->end - r->p) < n) r->bad = true; else r->p += n; break; } /* block */
  default: return false;
  }
  return !r->bad;
}

typedef struct table {
  emu_line *rows;
  size_t n, cap;
  char **files;       /* this unit's files, as paths */
  size_t nfiles;
} table;

static void add_row(emu_codeobj *co, uint64_t addr, uint32_t file, uint32_t line) {
  if (co->nlines == co->caplines)
    co->caplines = co->caplines ? 2 * co->caplines : 256, co->lines = ll_xrealloc(co->lines, co->caplines * sizeof *co->lines);
  co->lines[co->nlines] = (emu_line){addr, file, line, (uint32_t)co->nlines};
  co->nlines++;
}

/* co->line_files gets each path once; returns its index. */
static uint32_t intern(emu_codeobj *co, const char *dir, const char *name) {
  char *p = (dir && dir[0] && name[0] != '/') ? ll_fmt("%s/%s", dir, name) : ll_xstrdup(name);
  for (size_t i = 0; i < co->nline_files; i++)
    if (!strcmp(co->line_files[i], p)) return free(p), (uint32_t)i;
  co->line_files = ll_xrealloc(co->line_files, (co->nline_files + 1) * sizeof *co->line_files);
  co->line_files[co->nline_files] = p;
  return (uint32_t)co->nline_files++;
}

/* A unit's length (32- or 64-bit DWARF) and its bytes as a reader of their own; r moves past them. */
static bool open_unit(rd *r, rd *u, bool *d64, char *why, size_t whyn) {
  uint64_t len = get(r, 4);
  *d64 = len == 0xffffffffu;
  if (*d64) len = get(r, 8);
  if (r->bad || len > (uint64_t)(r->end - r->p)) return snprintf(why, whyn, "unit length past the section"), false;
  *u = (rd){r->p, r->p + len, false};
  r->p += len;
  return true;
}

/* One line-number program (one unit); false with why on a malformed unit. */
/* a directory entry as a path: an entry other than the first that is relative names a directory
 * under the compilation directory, base (DWARF 5 section 6.2.4 items 11 and 20, "relative to the
 * current directory of the compilation"; DWARF 4 section 6.2.4 item 11 the same) */
static char *dir_path(const char *base, const char *d) {
  return base && base[0] && d[0] && d[0] != '/' ? ll_fmt("%s/%s", base, d) : ll_xstrdup(d);
}

/* the compilation directory a DWARF 2-4 compilation unit gives the line table at uoff, or "" */
static const char *comp_dir_of(const emu_comp_dirs *cd, uint64_t uoff) {
  for (size_t i = 0; cd && i < cd->n; i++)
    if (cd->v[i].line_off == uoff) return cd->v[i].dir;
  return "";
}

static bool unit(emu_codeobj *co, rd *r, const sections *s, const emu_comp_dirs *cd, emu_line_units *lu, uint64_t uoff,
                 char *why, size_t whyn) {
  rd u;
  bool d64;
  if (!open_unit(r, &u, &d64, why, whyn)) return false;
  unsigned ver = (unsigned)get(&u, 2);
  if (ver < 2 || ver > 5) return snprintf(why, whyn, "line table version %u (2 to 5 are read)", ver), false;
  unsigned asize = 8;
  if (ver >= 5) {
    asize = (unsigned)get(&u, 1);
    get(&u, 1);
    if (asize != 4 && asize != 8) return snprintf(why, whyn, "address size %u (4 or 8 are read)", asize), false;
  }
  uint64_t hlen = get(&u, d64 ? 8 : 4);
  if (u.bad || hlen > (uint64_t)(u.end - u.p)) return snprintf(why, whyn, "header length past the unit"), false;
  const uint8_t *prog = u.p + hlen;
  unsigned min_len = (unsigned)get(&u, 1);
  if (ver >= 4) get(&u, 1); /* maximum operations per instruction: 1 on AMDGPU */
  get(&u, 1);               /* default is_stmt */
  int line_base = (int8_t)get(&u, 1);
  unsigned line_range = (unsigned)get(&u, 1), opcode_base = (unsigned)get(&u, 1);
  if (u.bad || !line_range || !opcode_base) return snprintf(why, whyn, "line range or opcode base is 0"), false;
  uint8_t std_len[256] = {0};
  for (unsigned i = 1; i < opcode_base; i++) std_len[i] = (uint8_t)get(&u, 1);
  /* directories and files: paths, each file interned with its directory */
  char **dirs = NULL;
  size_t ndirs = 0;
  uint32_t *fmap = NULL; /* unit file index -> co->line_files index */
  size_t nf = 0;
  bool ok = true;
  if (ver >= 5) {
    for (int pass = 0; pass < 2 && ok; pass++) {
      unsigned nfmt = (unsigned)get(&u, 1);
      uint64_t fmt[32][2];
      if (nfmt > 32) { ok = false; break; }
      for (unsigned i = 0; i < nfmt; i++) fmt[i][0] = uleb(&u), fmt[i][1] = uleb(&u);
      uint64_t count = uleb(&u);
      if (u.bad || count > 100000) { ok = false; break; }
      for (uint64_t e = 0; e < count && ok; e++) {
        const char *path = NULL;
        uint64_t dir = 0;
        for (unsigned i = 0; i < nfmt && ok; i++) {
          const char *sv;
          uint64_t nv;
          if (!entry_attr(&u, fmt[i][1], d64, s, &sv, &nv)) { ok = false; break; }
          if (fmt[i][0] == 1) path = sv;      /* DW_LNCT_path */
          else if (fmt[i][0] == 2) dir = nv;  /* DW_LNCT_directory_index */
        }
        if (!ok) break;
        if (pass == 0) {
          dirs = ll_xrealloc(dirs, (ndirs + 1) * sizeof *dirs);
          dirs[ndirs] = dir_path(ndirs ? dirs[0] : NULL, path ? path : "");
          ndirs++;
        } else {
          fmap = ll_xrealloc(fmap, (nf + 1) * sizeof *fmap);
          fmap[nf++] = intern(co, dir < ndirs ? dirs[dir] : "", path ? path : "?");
        }
      }
    }
  } else {
    dirs = ll_xcalloc(1, sizeof *dirs);
    dirs[ndirs++] = ll_xstrdup(comp_dir_of(cd, uoff)); /* index 0: the compilation directory, from .debug_info */
    for (const char *d; (d = cstr(&u)) && d[0];)
      dirs = ll_xrealloc(dirs, (ndirs + 1) * sizeof *dirs), dirs[ndirs] = dir_path(dirs[0], d), ndirs++;
    fmap = ll_xcalloc(1, sizeof *fmap);
    fmap[nf++] = UINT32_MAX; /* v4 file numbers start at 1 */
    for (const char *f; (f = cstr(&u)) && f[0];) {
      uint64_t dir = uleb(&u);
      uleb(&u), uleb(&u);
      fmap = ll_xrealloc(fmap, (nf + 1) * sizeof *fmap);
      fmap[nf++] = intern(co, dir < ndirs ? dirs[dir] : "", f);
    }
    ok = !u.bad;
  }
  for (size_t i = 0; i < ndirs; i++) free(dirs[i]);
  free(dirs);
  if (!ok || u.bad || prog > u.end) {
    free(fmap);
    return snprintf(why, whyn, "malformed directory or file table"), false;
  }
  /* the program */
  u.p = prog;
  uint64_t addr = 0, file = 1, line = 1;
  while (u.p < u.end && !u.bad) {
    unsigned op = (unsigned)get(&u, 1);
    bool emit = false, end = false;
    if (op >= opcode_base) {
      unsigned adj = op - opcode_base;
      addr += (uint64_t)(adj / line_range) * min_len;
      line += (int64_t)line_base + (int64_t)(adj % line_range);
      emit = true;
    } else if (op == 0) {
      uint64_t n = uleb(&u);
      if (u.bad || n == 0 || n > (uint64_t)(u.end - u.p)) { u.bad = true; break; }
      const uint8_t *next = u.p + n;
      unsigned ext = (unsigned)get(&u, 1);
      if (ext == 1) emit = end = true;            /* DW_LNE_end_sequence */
      else if (ext == 2) addr = get(&u, asize);   /* DW_LNE_set_address */
      u.p = next;
    } else {
      switch (op) {
      case 1: emit = true; break;                                  /* copy */
      case 2: addr += uleb(&u) * min_len; break;                   /* advance_pc */
      case 3: line += sleb(&u); break;                             /* advance_line */
      case 4: file = uleb(&u); break;                              /* set_file */
      case 8: addr += (uint64_t)((255 - opcode_base) / line_range) * min_len; break; /* const_add_pc */
      case 9: addr += get(&u, 2); break;                           /* fixed_advance_pc */
      default:
        for (unsigned i = 0; i < std_len[op]; i++) uleb(&u);       /* operands we do not need */
      }
    }
    if (emit) {
      uint32_t f = file < nf ? fmap[file] : UINT32_MAX;
      add_row(co, addr, end ? EMU_LINE_END : f, end ? 0 : (uint32_t)line);
      if (end) addr = 0, file = 1, line = 1;
    }
  }
  if (u.bad) return free(fmap), snprintf(why, whyn, "line program runs past its unit"), false;
  /* the unit's file map, for the call sites of inlined calls (DW_AT_call_file, emu__read_inlines) */
  lu->u = ll_xrealloc(lu->u, (lu->n + 1) * sizeof *lu->u);
  lu->u[lu->n++] = (struct emu_line_unit){uoff, fmap, nf};
  return true;
}

/* By address; at one address an end-of-sequence row first (the sequence starting there wins the
 * lookup), then the rows in program order (the last one read is the one that holds). */
static int cmp_rows(const void *a, const void *b) {
  const emu_line *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  bool xe = x->file == EMU_LINE_END, ye = y->file == EMU_LINE_END;
  if (xe != ye) return xe ? -1 : 1;
  return x->ord < y->ord ? -1 : x->ord > y->ord;
}

void emu__line_units_free(emu_line_units *lu) {
  for (size_t i = 0; i < lu->n; i++) free(lu->u[i].fmap);
  free(lu->u);
  lu->u = NULL, lu->n = 0;
}

void emu__read_lines(emu_codeobj *co, const uint8_t *line, size_t nline, const uint8_t *line_str, size_t nline_str,
                     const uint8_t *str, size_t nstr, const emu_comp_dirs *cd, emu_line_units *lu, char *why,
                     size_t whyn) {
  why[0] = 0;
  sections s = {line_str, str, nline_str, nstr};
  rd r = {line, line + nline, false};
  while (r.p < r.end) {
    if (!unit(co, &r, &s, cd, lu, (uint64_t)(r.p - line), why, whyn)) break;
  }
  if (why[0]) { /* drop everything: half a table would name wrong lines */
    free(co->lines);
    co->lines = NULL, co->nlines = co->caplines = 0;
    emu__line_units_free(lu);
    return;
  }
  if (co->nlines) qsort(co->lines, co->nlines, sizeof *co->lines, cmp_rows);
}

const char *emu_codeobj_srcline(const emu_codeobj *co, uint64_t pc, char *buf, size_t n) {
  if (!co || !co->nlines || !n) return NULL;
  size_t lo = 0, hi = co->nlines;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (co->lines[mid].addr <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return NULL; /* the last row at or below pc: an end marker means pc is in no sequence */
  const emu_line *l = &co->lines[lo - 1];
  if (l->file == EMU_LINE_END || l->file >= co->nline_files || !l->line) return NULL;
  /* inlined code (a HIP header's atomicAdd, __shfl_xor, a helper): the lines it was inlined at, the
   * innermost call's first and the kernel's own (the outermost call's) last, any between as "..." */
  int k = snprintf(buf, n, "%s:%u", co->line_files[l->file], l->line);
  lo = 0, hi = co->ninl;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (co->inl[mid].lo <= pc) lo = mid + 1;
    else hi = mid;
  }
  if (!lo || pc >= co->inl[lo - 1].hi || k < 0 || (size_t)k >= n) return buf;
  const struct emu_inline *c = &co->inl[lo - 1];
  const struct emu_callsite *cs = co->inl_sites + c->first;
  for (uint32_t i = c->n; i-- > 0;) { /* deepest first */
    if (c->n > 2 && i != c->n - 1 && i != 0) {
      if (i == c->n - 2) k += snprintf(buf + k, n - (size_t)k, ", ...");
    } else {
      const char *f = cs[i].file < co->nline_files ? co->line_files[cs[i].file] : "?";
      k += cs[i].file < co->nline_files ? snprintf(buf + k, n - (size_t)k, "%s%s:%u", i == c->n - 1 ? " (inlined at " : ", ", f, cs[i].line)
                                       : snprintf(buf + k, n - (size_t)k, "%s?", i == c->n - 1 ? " (inlined at " : ", ");
    }
    if (k < 0 || (size_t)k >= n) return buf;
  }
  snprintf(buf + k, n - (size_t)k, ")");
  return buf;
}

/* ---- inlined calls (.debug_info) -------------------------------------------------------------
 * DWARF 5 sections 3.3.8.2 "Concrete Instances of Inlined Subroutines" (DW_TAG_inlined_subroutine
 * with DW_AT_low_pc / DW_AT_high_pc or DW_AT_ranges, DW_AT_call_file, DW_AT_call_line), 7.5 "Format
 * of Debugging Information" (unit headers, abbreviations, attribute forms), 2.17.3 and 7.25 (range
 * lists: .debug_rnglists, DW_RLE_*; DWARF 4's .debug_ranges pairs), 7.27 (.debug_addr). Only what
 * naming the call sites needs is read: every attribute of every entry is skipped by its form, and
 * each inlined call gives its ranges, its call site and how many inlined calls it lies inside (the
 * outermost's call site is a line of the function the code was compiled into: the kernel's own
 * source). A form or range entry that is not known makes the whole section unread (noted): a
 * half-read tree could name a wrong call site. */
typedef struct abbrev {
  uint64_t code, tag;
  bool children;
  uint32_t first, n; /* its attribute specs: spec[first .. first + n) */
} abbrev;
typedef struct aspec {
  uint64_t at, form;
  int64_t ic; /* DW_FORM_implicit_const's value */
} aspec;
typedef struct abbrevs {
  abbrev *a;
  size_t n;
  aspec *spec;
  size_t nspec;
} abbrevs;

static bool read_abbrevs(const emu_dbg_secs *s, uint64_t off, abbrevs *t) {
  t->n = t->nspec = 0;
  if (off >= s->nabbrev) return false;
  rd r = {s->abbrev + off, s->abbrev + s->nabbrev, false};
  size_t cap = 0, capspec = 0;
  for (;;) {
    uint64_t code = uleb(&r);
    if (r.bad) return false;
    if (!code) return true;
    if (t->n == cap) cap = cap ? 2 * cap : 64, t->a = ll_xrealloc(t->a, cap * sizeof *t->a);
    abbrev *a = &t->a[t->n++];
    a->code = code, a->tag = uleb(&r), a->children = get(&r, 1) != 0;
    a->first = (uint32_t)t->nspec, a->n = 0;
    for (;;) {
      uint64_t at = uleb(&r), form = uleb(&r);
      int64_t ic = form == 0x21 ? sleb(&r) : 0; /* DW_FORM_implicit_const */
      if (r.bad || t->nspec > 1000000) return false;
      if (!at && !form) break;
      if (t->nspec == capspec) capspec = capspec ? 2 * capspec : 256, t->spec = ll_xrealloc(t->spec, capspec * sizeof *t->spec);
      t->spec[t->nspec++] = (aspec){at, form, ic};
      a->n++;
    }
  }
}

/* the abbreviation with code `code`, NULL if the table has none: codes 1, 2, ... as written, else a search */
static const abbrev *abbrev_find(const abbrevs *ab, uint64_t code) {
  if (code && code <= ab->n && ab->a[code - 1].code == code) return &ab->a[code - 1];
  for (size_t i = 0; i < ab->n; i++)
    if (ab->a[i].code == code) return &ab->a[i];
  return NULL;
}

/* the value of one attribute: a number (constants, references, offsets, indices, addresses), or
 * skipped (strings, blocks, expressions); false on a form not known */
typedef struct form_ctx {
  bool d64;        /* offsets of 8 bytes */
  unsigned asize;  /* address size */
  unsigned ver;
} form_ctx;
static bool attr_val(rd *r, uint64_t form, int64_t ic, const form_ctx *c, uint64_t *v) {
  *v = 0;
  const unsigned os = c->d64 ? 8 : 4;
  uint64_t n;
  switch (form) {
  case 0x01: *v = get(r, c->asize); break;                          /* addr */
  case 0x03: n = get(r, 2); goto skip;                              /* block2 */
  case 0x04: n = get(r, 4); goto skip;                              /* block4 */
  case 0x05: case 0x12: case 0x26: case 0x2a: *v = get(r, 2); break; /* data2 ref2 strx2 addrx2 */
  case 0x06: case 0x13: case 0x1c: case 0x28: case 0x2c: *v = get(r, 4); break; /* data4 ref4 ref_sup4 strx4 addrx4 */
  case 0x07: case 0x14: case 0x20: case 0x24: *v = get(r, 8); break; /* data8 ref8 ref_sig8 ref_sup8 */
  case 0x08: cstr(r); break;                                         /* string */
  case 0x09: case 0x18: n = uleb(r); goto skip;                      /* block exprloc */
  case 0x0a: n = get(r, 1); goto skip;                               /* block1 */
  case 0x0b: case 0x0c: case 0x11: case 0x25: case 0x29: *v = get(r, 1); break; /* data1 flag ref1 strx1 addrx1 */
  case 0x0d: *v = (uint64_t)sleb(r); break;                          /* sdata */
  case 0x0e: case 0x17: case 0x1d: case 0x1f: *v = get(r, os); break; /* strp sec_offset strp_sup line_strp */
  case 0x10: *v = get(r, c->ver <= 2 ? c->asize : os); break;        /* ref_addr */
  case 0x0f: case 0x15: case 0x1a: case 0x1b: case 0x22: case 0x23: *v = uleb(r); break; /* udata ref_udata strx addrx loclistx rnglistx */
  case 0x1e: get(r, 8), get(r, 8); break;                            /* data16 */
  case 0x19: *v = 1; break;                                          /* flag_present */
  case 0x21: *v = (uint64_t)ic; break;                               /* implicit_const */
  case 0x27: case 0x2b: *v = get(r, 3); break;                       /* strx3 addrx3 */
  case 0x16: {                                                       /* indirect */
    uint64_t f = uleb(r);
    return !r->bad && f != 0x16 && f != 0x21 && attr_val(r, f, 0, c, v);
  }
  default: return false;
  }
  return !r->bad;
skip:
  if (r->bad || n > (uint64_t)(r->end - r->p)) return r->bad = true, false;
  r->p += n;
  return true;
}

static bool addr_form(uint64_t form) { return form == 0x01; }
static bool addrx_form(uint64_t form) { return form == 0x1b || (form >= 0x29 && form <= 0x2c); }

/* .debug_addr entry i from base (the unit's DW_AT_addr_base, past the section's header) */
static bool addr_ix(const emu_dbg_secs *s, uint64_t base, uint64_t i, unsigned asize, uint64_t *a) {
  if (!s->addr || base > s->naddr || i > (s->naddr - base) / asize) return false;
  uint64_t off = base + i * asize;
  if (off + asize > s->naddr) return false;
  rd r = {s->addr + off, s->addr + s->naddr, false};
  *a = get(&r, asize);
  return !r.bad;
}

/* an inlined call's address range: [lo, hi) with its call site (file UINT32_MAX: not named) and
 * how many inlined calls it lies inside (0: the outermost) */
typedef struct rng {
  uint64_t lo, hi;
  uint32_t file, line, depth;
} rng;
typedef struct rngs {
  rng *v;
  size_t n, cap;
  uint32_t depth; /* of the call being read */
} rngs;
#define INL_MAX_RANGES (1u << 20) /* more is not read (noted) */
static void rng_add(rngs *o, uint64_t lo, uint64_t hi, uint32_t file, uint32_t line) {
  if (hi <= lo || o->n >= INL_MAX_RANGES) return;
  if (o->n == o->cap) o->cap = o->cap ? 2 * o->cap : 64, o->v = ll_xrealloc(o->v, o->cap * sizeof *o->v);
  o->v[o->n++] = (rng){lo, hi, file, line, o->depth};
}

typedef struct cu_ctx {
  form_ctx f;
  uint64_t base;           /* the unit's base address (its DW_AT_low_pc) */
  uint64_t addr_base, rnglists_base;
  bool has_rnglists_base;
} cu_ctx;

/* the range list at off of .debug_rnglists (v5) or .debug_ranges (v4), each range added */
static bool read_ranges(const emu_dbg_secs *s, const cu_ctx *cu, uint64_t off, rngs *o, uint32_t file, uint32_t line) {
  const unsigned as = cu->f.asize;
  if (cu->f.ver >= 5) {
    if (!s->rnglists || off >= s->nrnglists) return false;
    rd r = {s->rnglists + off, s->rnglists + s->nrnglists, false};
    uint64_t base = cu->base, a, b;
    for (int k = 0; k < 100000; k++) {
      unsigned kind = (unsigned)get(&r, 1);
      if (r.bad) return false;
      switch (kind) {
      case 0: return true; /* end_of_list */
      case 1: if (!addr_ix(s, cu->addr_base, uleb(&r), as, &base)) return false; break; /* base_addressx */
      case 2: /* startx_endx */
        if (!addr_ix(s, cu->addr_base, uleb(&r), as, &a) || !addr_ix(s, cu->addr_base, uleb(&r), as, &b)) return false;
        rng_add(o, a, b, file, line);
        break;
      case 3: /* startx_length */
        if (!addr_ix(s, cu->addr_base, uleb(&r), as, &a)) return false;
        rng_add(o, a, a + uleb(&r), file, line);
        break;
      case 4: a = uleb(&r), b = uleb(&r), rng_add(o, base + a, base + b, file, line); break; /* offset_pair */
      case 5: base = get(&r, as); break;                                                   /* base_address */
      case 6: a = get(&r, as), b = get(&r, as), rng_add(o, a, b, file, line); break;       /* start_end */
      case 7: a = get(&r, as), rng_add(o, a, a + uleb(&r), file, line); break;             /* start_length */
      default: return false;
      }
      if (r.bad) return false;
    }
    return false;
  }
  if (!s->ranges || off >= s->nranges) return false;
  rd r = {s->ranges + off, s->ranges + s->nranges, false};
  const uint64_t maxa = as == 8 ? UINT64_MAX : (1ull << (8 * as)) - 1;
  uint64_t base = cu->base;
  for (int k = 0; k < 100000; k++) {
    uint64_t a = get(&r, as), b = get(&r, as);
    if (r.bad) return false;
    if (!a && !b) return true;
    if (a == maxa) base = b; /* base address selection */
    else rng_add(o, base + a, base + b, file, line);
  }
  return false;
}

/* One unit of .debug_info; false with why. */
static bool info_unit(const emu_dbg_secs *s, rd *r, const emu_line_units *lu, abbrevs *ab, rngs *o, char *why, size_t whyn) {
  rd u;
  bool d64;
  if (!open_unit(r, &u, &d64, why, whyn)) return false;
  cu_ctx cu = {.f = {.d64 = d64, .ver = (unsigned)get(&u, 2)}};
  uint64_t aoff;
  if (cu.f.ver < 2 || cu.f.ver > 5) return snprintf(why, whyn, "unit version %u (2 to 5 are read)", cu.f.ver), false;
  if (cu.f.ver >= 5) {
    unsigned ut = (unsigned)get(&u, 1);
    cu.f.asize = (unsigned)get(&u, 1);
    aoff = get(&u, d64 ? 8 : 4);
    if (ut != 1 && ut != 3) return true; /* type, skeleton and split units hold no inlined code here */
  } else {
    aoff = get(&u, d64 ? 8 : 4);
    cu.f.asize = (unsigned)get(&u, 1);
  }
  if (u.bad || (cu.f.asize != 4 && cu.f.asize != 8)) return snprintf(why, whyn, "unit header"), false;
  if (!read_abbrevs(s, aoff, ab)) return snprintf(why, whyn, "abbreviation table at 0x%llx", (unsigned long long)aoff), false;
  const struct emu_line_unit *lines = NULL; /* the unit's file map (DW_AT_stmt_list) */
  enum { MAXLEV = 256 };
  uint32_t inl_at[MAXLEV]; /* per tree level: how many inlined calls its entries lie inside */
  int depth = 0;           /* the tree level */
  inl_at[0] = 0;
  bool first = true;
  while (u.p < u.end) {
    uint64_t code = uleb(&u);
    if (u.bad) break;
    if (!code) { /* the end of a level's children */
      if (--depth < 0) break;
      continue;
    }
    const abbrev *a = abbrev_find(ab, code);
    if (!a) return snprintf(why, whyn, "abbreviation %llu not in its table", (unsigned long long)code), false;
    uint64_t lo = 0, hi = 0, ranges = 0, cfile = 0, cline = 0, lo_ix = 0, hi_ix = 0, stmt = 0;
    bool has_lo = false, lo_isx = false, has_hi = false, hi_off = false, hi_isx = false, has_ranges = false,
         ranges_x = false, has_stmt = false, has_cfile = false;
    for (uint32_t j = 0; j < a->n; j++) {
      const aspec *sp = &ab->spec[a->first + j];
      uint64_t v;
      if (!attr_val(&u, sp->form, sp->ic, &cu.f, &v))
        return snprintf(why, whyn, "attribute form 0x%llx", (unsigned long long)sp->form), false;
      switch (sp->at) {
      case 0x10: stmt = v, has_stmt = true; break;                                                 /* stmt_list */
      case 0x11: has_lo = true, lo_isx = addrx_form(sp->form), lo = v, lo_ix = v; break;            /* low_pc */
      case 0x12: /* high_pc: an address (an index into .debug_addr too) or, a constant, the size */
        has_hi = true, hi = hi_ix = v, hi_isx = addrx_form(sp->form), hi_off = !addr_form(sp->form) && !hi_isx;
        break;
      case 0x55: has_ranges = true, ranges = v, ranges_x = sp->form == 0x23; break;                 /* ranges */
      case 0x58: cfile = v, has_cfile = true; break;                                                /* call_file */
      case 0x59: cline = v; break;                                                                  /* call_line */
      case 0x73: cu.addr_base = v; break;                                                           /* addr_base */
      case 0x74: cu.rnglists_base = v, cu.has_rnglists_base = true; break;                          /* rnglists_base */
      }
    }
    const bool first_entry = first;
    if (first) { /* the unit's own entry: its base address and its line table */
      first = false;
      if (has_lo && lo_isx && !addr_ix(s, cu.addr_base, lo_ix, cu.f.asize, &lo)) return snprintf(why, whyn, "unit address index"), false;
      cu.base = has_lo ? lo : 0;
      if (has_stmt)
        for (size_t i = 0; i < lu->n; i++)
          if (lu->u[i].off == stmt) lines = &lu->u[i];
    }
    uint32_t below = inl_at[depth]; /* what its children lie inside */
    if (!first_entry && a->tag == 0x1d) { /* DW_TAG_inlined_subroutine */
      uint32_t file = lines && has_cfile && cfile < lines->nf ? lines->fmap[cfile] : UINT32_MAX;
      o->depth = inl_at[depth], below = inl_at[depth] + 1;
      if (has_ranges) {
        uint64_t off = ranges;
        if (ranges_x) { /* an index into the unit's offsets table */
          const unsigned os = d64 ? 8 : 4;
          if (!cu.has_rnglists_base || !s->rnglists || cu.rnglists_base > s->nrnglists ||
              ranges >= (s->nrnglists - cu.rnglists_base) / os)
            return snprintf(why, whyn, "range list index"), false;
          rd x = {s->rnglists + cu.rnglists_base + ranges * os, s->rnglists + s->nrnglists, false};
          off = cu.rnglists_base + get(&x, os);
        }
        if (!read_ranges(s, &cu, off, o, cline ? file : UINT32_MAX, (uint32_t)cline))
          return snprintf(why, whyn, "range list at 0x%llx", (unsigned long long)off), false;
      } else if (has_lo && has_hi) {
        if ((lo_isx && !addr_ix(s, cu.addr_base, lo_ix, cu.f.asize, &lo)) || (hi_isx && !addr_ix(s, cu.addr_base, hi_ix, cu.f.asize, &hi)))
          return snprintf(why, whyn, "address index"), false;
        rng_add(o, lo, hi_off ? lo + hi : hi, cline ? file : UINT32_MAX, (uint32_t)cline);
      }
    }
    if (a->children) {
      if (++depth >= MAXLEV) return snprintf(why, whyn, "entries nested deeper than %d", MAXLEV), false;
      inl_at[depth] = below;
    }
  }
  if (u.bad) return snprintf(why, whyn, "entries run past their unit"), false;
  return true;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* the nested ranges as pieces that do not overlap, each with its chain of call sites (co->inl,
 * co->inl_sites): cut at every range's ends, each piece gets the call site of the range at each
 * depth that covers it, outermost first; a chain stops at a depth no range covers (a deeper
 * range outside its outer one would be malformed). Neighbouring pieces with one chain merge.
 * False when the table of pieces by depth would pass INL_MAX_CELLS entries (64 MiB). */
#define INL_MAX_CELLS (1u << 24)
static bool inl_build(emu_codeobj *co, const rngs *o) {
  size_t nb = 2 * o->n, m = 0;
  uint32_t width = 0; /* depths 0 .. width - 1 (below MAXLEV, info_unit) */
  for (size_t i = 0; i < o->n; i++)
    if (o->v[i].depth >= width) width = o->v[i].depth + 1;
  uint64_t *b = ll_xmalloc(nb * sizeof *b);
  for (size_t i = 0; i < o->n; i++) b[2 * i] = o->v[i].lo, b[2 * i + 1] = o->v[i].hi;
  qsort(b, nb, sizeof *b, cmp_u64);
  for (size_t i = 0; i < nb; i++)
    if (!m || b[i] != b[m - 1]) b[m++] = b[i];
  const size_t np = m - 1;
  if (np > INL_MAX_CELLS / width) return free(b), false;
  /* chain[p * width + d]: the range at depth d over piece p (UINT32_MAX none; ranges < 2^20) */
  uint32_t *chain = ll_xmalloc(np * width * sizeof *chain);
  memset(chain, 0xff, np * width * sizeof *chain);
  for (size_t i = 0; i < o->n; i++) {
    const rng *r = &o->v[i];
    size_t lo = 0, hi = np; /* the first piece starting at r->lo */
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (b[mid] < r->lo) lo = mid + 1;
      else hi = mid;
    }
    for (size_t p = lo; p < np && b[p] < r->hi; p++)
      if (chain[p * width + r->depth] == UINT32_MAX) chain[p * width + r->depth] = (uint32_t)i; /* the first unit's wins */
  }
  struct emu_inline *v = NULL;
  struct emu_callsite *sites = NULL;
  size_t nv = 0, ns = 0, capv = 0, caps = 0;
  for (size_t p = 0; p < np; p++) {
    const uint32_t *ch = chain + p * width;
    uint32_t n = 0;
    while (n < width && ch[n] != UINT32_MAX) n++;
    if (!n) continue;
    if (nv && v[nv - 1].hi == b[p] && v[nv - 1].n == n) { /* the same chain as the piece before: merge */
      bool same = true;
      for (uint32_t d = 0; d < n && same; d++)
        same = sites[v[nv - 1].first + d].file == o->v[ch[d]].file && sites[v[nv - 1].first + d].line == o->v[ch[d]].line;
      if (same) {
        v[nv - 1].hi = b[p + 1];
        continue;
      }
    }
    if (nv == capv) capv = capv ? 2 * capv : 64, v = ll_xrealloc(v, capv * sizeof *v);
    v[nv++] = (struct emu_inline){b[p], b[p + 1], (uint32_t)ns, n};
    while (ns + n > caps) caps = caps ? 2 * caps : 256, sites = ll_xrealloc(sites, caps * sizeof *sites);
    for (uint32_t d = 0; d < n; d++) sites[ns++] = (struct emu_callsite){o->v[ch[d]].file, o->v[ch[d]].line};
  }
  free(b), free(chain);
  co->inl = v, co->ninl = nv, co->inl_sites = sites, co->ninl_sites = ns;
  return true;
}

/* Each DWARF 2-4 compilation unit's DW_AT_stmt_list and DW_AT_comp_dir (DW_FORM_string, strp or
 * line_strp), from its first entry; DWARF 5 units are passed over (their line tables name the
 * compilation directory themselves, directory 0). A unit whose header, abbreviations or first entry
 * cannot be read gives nothing, and the units after it are still read (each has its own length). */
void emu__comp_dirs(const emu_dbg_secs *s, emu_comp_dirs *cd) {
  cd->v = NULL, cd->n = 0;
  if (!s->info || !s->abbrev) return;
  rd r = {s->info, s->info + s->ninfo, false};
  abbrevs ab = {0};
  char why[8];
  for (rd u; r.p < r.end;) {
    bool d64;
    if (!open_unit(&r, &u, &d64, why, sizeof why)) break;
    form_ctx f = {.d64 = d64, .ver = (unsigned)get(&u, 2)};
    if (f.ver < 2 || f.ver > 4) continue;
    uint64_t aoff = get(&u, d64 ? 8 : 4);
    f.asize = (unsigned)get(&u, 1);
    if (u.bad || (f.asize != 4 && f.asize != 8) || !read_abbrevs(s, aoff, &ab)) continue;
    uint64_t code = uleb(&u);
    const abbrev *a = u.bad ? NULL : abbrev_find(&ab, code);
    if (!a) continue;
    uint64_t stmt = 0;
    bool has_stmt = false;
    const char *dir = NULL;
    for (uint32_t j = 0; j < a->n; j++) {
      const aspec *sp = &ab.spec[a->first + j];
      const uint8_t *at = u.p;
      uint64_t v;
      if (!attr_val(&u, sp->form, sp->ic, &f, &v)) break;
      if (sp->at == 0x10) stmt = v, has_stmt = true; /* DW_AT_stmt_list */
      else if (sp->at == 0x1b) /* DW_AT_comp_dir */
        dir = sp->form == 0x08 ? (const char *)at : sp->form == 0x0e ? strsec(s->str, s->nstr, v)
              : sp->form == 0x1f ? strsec(s->line_str, s->nline_str, v) : NULL;
    }
    if (!has_stmt || !dir || !dir[0]) continue;
    cd->v = ll_xrealloc(cd->v, (cd->n + 1) * sizeof *cd->v);
    cd->v[cd->n++] = (struct emu_comp_dir){stmt, dir};
  }
  free(ab.a), free(ab.spec);
}

void emu__read_inlines(emu_codeobj *co, const emu_dbg_secs *s, const emu_line_units *lu, char *why, size_t whyn) {
  why[0] = 0;
  if (!s->info || !s->abbrev) return;
  rd r = {s->info, s->info + s->ninfo, false};
  abbrevs ab = {0};
  rngs o = {0};
  while (r.p < r.end && !why[0]) info_unit(s, &r, lu, &ab, &o, why, whyn);
  free(ab.a), free(ab.spec);
  if (!why[0] && o.n >= INL_MAX_RANGES) snprintf(why, whyn, "more than %u inlined address ranges", INL_MAX_RANGES);
  if (!why[0] && o.n && !inl_build(co, &o))
    snprintf(why, whyn, "more than %u pieces of inlined code by depth", INL_MAX_CELLS);
  free(o.v);
}
