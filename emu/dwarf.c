/* emu/dwarf — the code object's DWARF line table (.debug_line, versions 4 and 5), read once at
 * load, so faults, race and init reports and traces can name file:line beside a PC.
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

static uint64_t get(rd *r, unsigned n) {
  if (r->bad || (size_t)(r->end - r->p) < n) {
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

/* One line-number program (one unit); false with why on a malformed unit. */
static bool unit(emu_codeobj *co, rd *r, const sections *s, char *why, size_t whyn) {
  uint64_t len = get(r, 4);
  bool d64 = len == 0xffffffffu;
  if (d64) len = get(r, 8);
  if (r->bad || len > (uint64_t)(r->end - r->p)) return snprintf(why, whyn, "unit length past the section"), false;
  rd u = {r->p, r->p + len, false};
  r->p += len;
  unsigned ver = (unsigned)get(&u, 2);
  if (ver < 2 || ver > 5) return snprintf(why, whyn, "line table version %u (2 to 5 are read)", ver), false;
  unsigned asize = 8;
  if (ver >= 5) {
    asize = (unsigned)get(&u, 1);
    get(&u, 1);
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
          dirs[ndirs++] = ll_xstrdup(path ? path : "");
        } else {
          fmap = ll_xrealloc(fmap, (nf + 1) * sizeof *fmap);
          fmap[nf++] = intern(co, dir < ndirs ? dirs[dir] : "", path ? path : "?");
        }
      }
    }
  } else {
    dirs = ll_xcalloc(1, sizeof *dirs);
    dirs[ndirs++] = ll_xstrdup(""); /* index 0: the compilation directory, unknown here */
    for (const char *d; (d = cstr(&u)) && d[0];) dirs = ll_xrealloc(dirs, (ndirs + 1) * sizeof *dirs), dirs[ndirs++] = ll_xstrdup(d);
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
  free(fmap);
  if (u.bad) return snprintf(why, whyn, "line program runs past its unit"), false;
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

void emu__read_lines(emu_codeobj *co, const uint8_t *line, size_t nline, const uint8_t *line_str, size_t nline_str,
                     const uint8_t *str, size_t nstr, char *why, size_t whyn) {
  why[0] = 0;
  sections s = {line_str, str, nline_str, nstr};
  rd r = {line, line + nline, false};
  while (r.p < r.end) {
    if (!unit(co, &r, &s, why, whyn)) break;
  }
  if (why[0]) { /* drop everything: half a table would name wrong lines */
    free(co->lines);
    co->lines = NULL, co->nlines = co->caplines = 0;
    return;
  }
  qsort(co->lines, co->nlines, sizeof *co->lines, cmp_rows);
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
  snprintf(buf, n, "%s:%u", co->line_files[l->file], l->line);
  return buf;
}
