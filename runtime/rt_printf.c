/* runtime/rt_printf — device printf as clang lowers it with -mprintf-kind=buffered (lanelab hipcc
 * and lanelab cc pass it; LLVM AMDGPUEmitPrintf, "Non hostcall printf support for HIP"):
 *
 * The kernel's hidden_printf_buffer argument points at a buffer whose first two dwords are the
 * bytes used so far and the buffer's capacity; records follow from byte 8. __printf_alloc (a
 * device function of lanelab's hip_runtime.h) reserves a record with one atomic add on the first
 * dword and returns NULL when it does not fit (printf then returns -1 and writes nothing; the
 * used count still grows, so the host sees how much was lost). A record is:
 *   u32 control: bit 0 stream (1 stderr), bit 1 the format is a constant, bits 31:2 the record's
 *                size in bytes (this dword included)
 *   constant format: u64 id = the low 64 bits of the format's MD5, which the code object's
 *                metadata maps back to the string (amdhsa.printf: "0:0:<id in hex>,<format>");
 *   else the format string itself, NUL-terminated, padded to 8 bytes
 *   each argument: 8 bytes (integers zero-extended to 64 bits, float promoted to double,
 *                pointers as 64-bit addresses); a %s argument as its bytes with the NUL, padded
 *                to 8 bytes.
 * The host formats each record with the C library's printf, one conversion at a time. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"

static void diag_line(ll_buf *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag_line(ll_buf *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ll_buf_vprintf(d, fmt, ap);
  va_end(ap);
  ll_buf_put(d, "\n", 1);
}

static uint64_t rd64u(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* The format whose id is `id` in co's amdhsa.printf table, or NULL. */
static const char *format_of(const emu_codeobj *co, uint64_t id) {
  for (size_t i = 0; i < co->nprintf_fmts; i++) {
    const char *e = co->printf_fmts[i];
    if (strncmp(e, "0:0:", 4)) continue;
    char *end;
    uint64_t h = strtoull(e + 4, &end, 16);
    if (end != e + 4 && *end == ',' && h == id) return end + 1;
  }
  return NULL;
}

/* Formats one record's arguments [a, a_end) against fmt into out; false (with why) if the record
 * holds fewer arguments than the format asks for. */
bool rt_printf_format(const char *fmt, const uint8_t *a, const uint8_t *a_end, ll_buf *out, char *why, size_t whyn) {
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      ll_buf_put(out, p, n);
      p += n;
      continue;
    }
    if (p[1] == '%') {
      ll_buf_put(out, "%", 1);
      p += 2;
      continue;
    }
    /* one conversion: %[flags][width][.precision][length]conv; '*' takes an int argument */
    char spec[64];
    size_t sn = 0;
    int stars[2], nstar = 0;
    const char *q = p + 1;
    spec[sn++] = '%';
    while (*q && strchr("-+ #0'", *q) && sn < 40) spec[sn++] = *q++;
    for (int part = 0; part < 2; part++) {
      if (part == 1) {
        if (*q != '.') break;
        spec[sn++] = *q++;
      }
      if (*q == '*') {
        if (a + 8 > a_end) goto short_record;
        stars[nstar++] = (int)(uint32_t)rd64u(a);
        a += 8;
        spec[sn++] = *q++;
      } else
        while (*q >= '0' && *q <= '9' && sn < 50) spec[sn++] = *q++;
    }
    int lng = 0; /* 0 int-sized, 1 char/short, 2 64-bit */
    bool shrt = false;
    while (*q && strchr("hlLjztq", *q)) {
      if (*q == 'h') shrt = true;
      else lng = 2;
      q++;
    }
    char conv = *q ? *q++ : 0;
    if (!conv || !strchr("diouxXcfFeEgGaAsp", conv)) {
      /* %n, an unknown or a truncated conversion: printed as written, as most C libraries do */
      ll_buf_put(out, p, (size_t)(q - p));
      p = q;
      continue;
    }
    char buf[512];
    int n = 0;
    if (conv == 's') {
      /* a null pointer's string is no bytes (clang's buffered printf stores strlen 0 for it); at the
       * record's end it prints as an empty string, as ROCm's host prints it (its formatter reads the
       * zero bytes there: ROCm/clr devhcprintf.cpp; AMD's hip-tests printfSpecifiersNonHost expects
       * an empty line) */
      const bool null_s = a >= a_end;
      const uint8_t *z = null_s ? NULL : memchr(a, 0, (size_t)(a_end - a));
      if (!null_s && !z) goto short_record;
      spec[sn++] = 's', spec[sn] = 0;
      char *txt = NULL;
      size_t len = null_s ? 0 : (size_t)(z - a);
      const char *sv = null_s ? "" : (const char *)a;
      /* the string may be longer than buf: let the C library size it */
      n = nstar == 2 ? snprintf(NULL, 0, spec, stars[0], stars[1], sv)
          : nstar == 1 ? snprintf(NULL, 0, spec, stars[0], sv)
                       : snprintf(NULL, 0, spec, sv);
      txt = ll_xmalloc((size_t)(n > 0 ? n : 0) + 1);
      if (nstar == 2) snprintf(txt, (size_t)n + 1, spec, stars[0], stars[1], sv);
      else if (nstar == 1) snprintf(txt, (size_t)n + 1, spec, stars[0], sv);
      else snprintf(txt, (size_t)n + 1, spec, sv);
      ll_buf_put(out, txt, (size_t)(n > 0 ? n : 0));
      free(txt);
      if (!null_s) a += (len + 1 + 7) & ~(size_t)7;
      p = q;
      continue;
    }
    if (a + 8 > a_end) goto short_record;
    uint64_t v = rd64u(a);
    a += 8;
#define LL_PF(...)                                                                                 \
  (nstar == 2 ? snprintf(buf, sizeof buf, spec, stars[0], stars[1], __VA_ARGS__)                    \
   : nstar == 1 ? snprintf(buf, sizeof buf, spec, stars[0], __VA_ARGS__)                            \
                : snprintf(buf, sizeof buf, spec, __VA_ARGS__))
    if (strchr("fFeEgGaA", conv)) {
      double d;
      memcpy(&d, &v, 8);
      spec[sn++] = conv, spec[sn] = 0;
      n = LL_PF(d);
    } else if (conv == 'p') {
      spec[sn++] = 'p', spec[sn] = 0;
      n = LL_PF((void *)(uintptr_t)v);
    } else if (conv == 'c') {
      spec[sn++] = 'c', spec[sn] = 0;
      n = LL_PF((int)(uint32_t)v);
    } else if (strchr("di", conv)) {
      spec[sn++] = 'l', spec[sn++] = 'l', spec[sn++] = 'd', spec[sn] = 0;
      long long x = lng == 2 ? (long long)v : shrt ? (long long)(int16_t)v : (long long)(int32_t)v;
      if (shrt && q - p >= 3 && q[-2] == 'h' && q[-3] == 'h') x = (int8_t)v;
      n = LL_PF(x);
    } else {
      spec[sn++] = 'l', spec[sn++] = 'l', spec[sn++] = conv, spec[sn] = 0;
      unsigned long long x = lng == 2 ? v : shrt ? (uint16_t)v : (uint32_t)v;
      if (shrt && q - p >= 3 && q[-2] == 'h' && q[-3] == 'h') x = (uint8_t)v;
      n = LL_PF(x);
    }
#undef LL_PF
    if (n > 0) ll_buf_put(out, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
    p = q;
  }
  return true;
short_record:
  snprintf(why, whyn, "the record holds fewer arguments than its format '%s' converts", fmt);
  return false;
}

bool rt_printf_decode(const emu_codeobj *co, const uint8_t *buf, size_t n, ll_buf *out, ll_buf *errout,
                      ll_buf *diag) {
  if (n < 8) {
    diag_line(diag, "printf buffer of %zu bytes has no header", n);
    return false;
  }
  uint32_t used, cap;
  memcpy(&used, buf, 4);
  memcpy(&cap, buf + 4, 4);
  if (cap > n) cap = (uint32_t)n;
  uint64_t room = cap - 8, end = used < room ? used : room;
  bool ok = true;
  /* Reservations are made in increasing offsets, so once one did not fit none after it did: the
   * records are [0, the first reservation that did not fit), which ends at a zero control word (or
   * at the end of the buffer) when the used count passed the capacity. */
  uint64_t valid = end;
  for (uint64_t off = 0; off < end;) {
    const uint8_t *r = buf + 8 + off;
    uint32_t ctrl = 0;
    if (end - off >= 4) memcpy(&ctrl, r, 4);
    uint32_t size = ctrl >> 2;
    if (used > room && size == 0) {
      valid = off;
      break;
    }
    if (size < 4 || size > end - off) {
      diag_line(diag, "device printf record at byte %" PRIu64 " of the buffer has size %u, past the %" PRIu64
                    " bytes written; the rest of the buffer is not printed", off, size, end);
      return false;
    }
    const uint8_t *a = r + 4, *a_end = r + size;
    const char *fmt = NULL;
    char *owned = NULL;
    if (ctrl & 2) {
      if (a_end - a < 8) {
        diag_line(diag, "device printf record at byte %" PRIu64 " is too short for its format id", off);
        return false;
      }
      uint64_t id = rd64u(a);
      a += 8;
      fmt = format_of(co, id);
      if (!fmt) {
        diag_line(diag, "device printf record at byte %" PRIu64 " names format id %" PRIx64
                      ", which the code object's amdhsa.printf metadata does not list; record skipped", off, id);
        ok = false;
        off += size;
        continue;
      }
    } else {
      const uint8_t *z = memchr(a, 0, (size_t)(a_end - a));
      if (!z) {
        diag_line(diag, "device printf record at byte %" PRIu64 " has an unterminated format string", off);
        return false;
      }
      owned = ll_xstrdup((const char *)a);
      fmt = owned;
      a += ((size_t)(z - a) + 1 + 7) & ~(size_t)7;
    }
    char why[256];
    ll_buf *dst = (ctrl & 1) ? errout : out;
    if (!rt_printf_format(fmt, a, a_end, dst, why, sizeof why)) {
      diag_line(diag, "device printf record at byte %" PRIu64 ": %s", off, why);
      ok = false;
    }
    free(owned);
    off += size;
  }
  if (used > room) {
    diag_line(diag, "device printf: %" PRIu64 " bytes of records did not fit in the %u-byte buffer and were "
                  "not printed (HIP: hipDeviceSetLimit(hipLimitPrintfFifoSize, N) enlarges it)",
                  (uint64_t)used - valid, cap);
    ok = false;
  }
  return ok;
}
