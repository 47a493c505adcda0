/* Tests for buffer addressing and the buffer resource (V#) range check (emu/op_mem.c,
 * emu_buffer_access), one test per row of the rule in docs/isa.md "Buffer resource and range
 * checking": raw buffers (stride 0, or no index), structured buffers (stride and idxen or
 * add_tid_enable), soffset, per-dword components of dwordxN, add_tid_enable and its stride
 * extension, swizzled addressing, stores and atomics dropped, and an access the V# allows that
 * leaves the registered buffer. Snippets are assembled with llvm-mc-22 and run on a hand-built wave
 * (tests/emu_snippets/snippet.h) over one registered buffer X whose dword i holds 0xA0000000 + i.
 * Expected values are computed here from the rules as docs/isa.md states them, lane by lane, never
 * by running the emulator. */
#include "tests/emu_snippets/snippet.h"

#include "emu/emu.h"

enum { XW = 16384 }; /* X: 64 KiB */
static uint32_t X[XW];

typedef struct {
  snip *s;
  emu_mem *m;
  uint64_t bx; /* X's device address */
} bsnip;

static bsnip bnew(emu_arch arch, const char *src)
{
  bsnip b;
  b.s = sn_new(arch, src);
  for (uint32_t i = 0; i < XW; i++) X[i] = 0xA0000000u + i;
  b.m = emu_mem_new();
  b.bx = emu_mem_map(b.m, X, sizeof X, "X");
  b.s->g.mem = b.m;
  return b;
}

static void bfree(bsnip *b)
{
  sn_free(b->s);
  emu_mem_free(b->m);
}

/* V# in s[r:r+3]: base, stride dw1[29:16], num_records dw2, dw1 bits 31:30 and dw3 as given */
static void vsharp(snip *s, int r, uint64_t base, uint32_t stride, uint32_t nrec, uint32_t dw1_hi, uint32_t dw3)
{
  s->w.s[r] = (uint32_t)base;
  s->w.s[r + 1] = ((uint32_t)(base >> 32) & 0xffff) | stride << 16 | dw1_hi;
  s->w.s[r + 2] = nrec;
  s->w.s[r + 3] = dw3;
}

/* dword / byte of X at byte offset a from X's start */
static uint32_t xw(uint64_t a) { return X[a / 4]; }
static uint32_t xb(uint64_t a) { return ((const uint8_t *)X)[a]; }

#define ARCHES for (int ai = 0; ai < 2; ai++)
#define ARCH (ai ? EMU_GFX950 : EMU_GFX942)

/* Raw buffers: num_records counts bytes, and soffset + offset + size must stay within it. Stride 0,
 * and also a stride with no index (aiter's topksoftmax sets stride 4 and uses offen only). */
Test(emu_buffer, raw_buffers_check_bytes_with_soffset)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dword v10, v1, s[4:7], 0 offen\n"
                         "buffer_load_dword v11, v1, s[8:11], s20 offen offset:8\n"
                         "buffer_load_ubyte v12, v3, s[4:7], 0 offen\n"
                         "buffer_load_ushort v13, v3, s[4:7], 0 offen\n"
                         "buffer_load_dword v14, v5, s[12:15], 0 idxen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx + 64, 0, 200, 0, 0x27000);  /* raw, 200 bytes from X + 64 */
    vsharp(s, 8, b.bx + 64, 4, 200, 0, 0x27000);  /* stride 4, no index: still raw */
    vsharp(s, 12, b.bx + 64, 0, 8, 0, 0x27000);   /* stride 0 with idxen: index * 0 */
    s->w.s[20] = 12;                              /* soffset */
    for (int l = 0; l < 64; l++)
      sn_v(s, 1)[l] = 4u * l, sn_v(s, 3)[l] = 185u + l, sn_v(s, 5)[l] = 1000u * l;
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++) {
      cr_assert_eq(sn_v(s, 10)[l], 4 * l + 4 <= 200 ? xw(64 + 4 * l) : 0u, "%s v10 lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 11)[l], 12 + 4 * l + 8 + 4 <= 200 ? xw(64 + 12 + 4 * l + 8) : 0u, "%s v11 lane %u",
                   emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 12)[l], 185 + l + 1 <= 200 ? xb(64 + 185 + l) : 0u, "%s ubyte lane %u", emu_arch_name(ARCH), l);
      uint32_t sh = 185 + l + 2 <= 200 ? (xb(64 + 185 + l) | xb(64 + 186 + l) << 8) : 0u;
      cr_assert_eq(sn_v(s, 13)[l], sh, "%s ushort lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 14)[l], xw(64), "%s stride 0 + idxen lane %u: the index moves nothing", emu_arch_name(ARCH), l);
    }
    bfree(&b);
  }
}

/* dwordx2..x4 are checked per dword: a lane straddling num_records keeps the dwords inside. */
Test(emu_buffer, multi_dword_accesses_check_each_dword)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dwordx4 v[10:13], v1, s[4:7], 0 offen\n"
                         "buffer_load_dwordx3 v[14:16], v1, s[4:7], 4 offen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx, 0, 402, 0, 0x27000); /* 402: not a multiple of 4, the dword at 400 is out */
    for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 12u * l;
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++)
      for (uint32_t k = 0; k < 4; k++) {
        uint32_t off = 12 * l + 4 * k;
        cr_assert_eq(sn_v(s, 10 + k)[l], off + 4 <= 402 ? xw(off) : 0u, "%s x4 lane %u dword %u", emu_arch_name(ARCH), l, k);
        if (k < 3)
          cr_assert_eq(sn_v(s, 14 + k)[l], 4 + off + 4 <= 402 ? xw(4 + off) : 0u, "%s x3 lane %u dword %u",
                       emu_arch_name(ARCH), l, k);
      }
    bfree(&b);
  }
}

/* Structured buffers (stride != 0 and idxen): num_records counts records; out of range when the
 * index reaches it or the access starts at or past the record's end (the dwords of a dwordxN are
 * not checked against the stride one by one); soffset is not part of the check. */
Test(emu_buffer, structured_buffers_check_index_and_record)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dword v10, v2, s[4:7], 0 idxen\n"
                         "buffer_load_dword v11, v[2:3], s[4:7], s20 idxen offen\n"
                         "buffer_load_dword v12, v2, s[4:7], 0 idxen offset:12\n"
                         "buffer_load_dwordx2 v[14:15], v[2:3], s[4:7], 0 idxen offen offset:4\n"
                         "buffer_load_dwordx4 v[16:19], v2, s[8:11], 0 idxen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx + 16, 12, 10, 0, 0x27000); /* 10 records of 12 bytes at X + 16 */
    vsharp(s, 8, b.bx, 4, 50, 0, 0x27000);       /* 50 records of 4 bytes, read 16 bytes at a time */
    s->w.s[20] = 4000;                            /* soffset: far past 10 * 12, yet in range */
    for (int l = 0; l < 64; l++) sn_v(s, 2)[l] = (uint32_t)l, sn_v(s, 3)[l] = 4u * (l % 4);
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++) {
      uint32_t off = 4 * (l % 4);
      cr_assert_eq(sn_v(s, 10)[l], l < 10 ? xw(16 + 12 * l) : 0u, "%s idxen lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 11)[l], l < 10 && off < 12 ? xw(16 + 4000 + off + 12 * l) : 0u, "%s idxen offen lane %u",
                   emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 12)[l], 0u, "%s offset 12 = the record's end, lane %u", emu_arch_name(ARCH), l);
      /* aiter's fmha bwd stores dwordx4 through records of 4 bytes: all 16 bytes move */
      for (uint32_t k = 0; k < 4; k++)
        cr_assert_eq(sn_v(s, 16 + k)[l], l < 50 ? xw(4 * l + 4 * k) : 0u, "%s x4 over 4-byte records lane %u dword %u",
                     emu_arch_name(ARCH), l, k);
      for (uint32_t k = 0; k < 2; k++) { /* the access starts at off + 4: both dwords or neither */
        uint32_t o = off + 4 + 4 * k;
        cr_assert_eq(sn_v(s, 14 + k)[l], l < 10 && off + 4 < 12 ? xw(16 + o + 12 * l) : 0u, "%s x2 lane %u dword %u",
                     emu_arch_name(ARCH), l, k);
      }
    }
    bfree(&b);
  }
}

/* add_tid_enable (dw3 bit 23): the lane joins the index, the buffer is structured without idxen,
 * and dw3[18:15] become stride bits 17:14. */
Test(emu_buffer, add_tid_enable_indexes_by_lane_and_extends_the_stride)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dword v10, off, s[4:7], 0\n"
                         "buffer_load_dword v11, off, s[8:11], 0 offset:4\n"
                         "buffer_load_dword v12, v1, s[4:7], 0 idxen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx, 8, 40, 0, 1u << 23);                        /* stride 8, 40 records */
    vsharp(s, 8, b.bx, 8, 3, 0, 1u << 23 | 1u << 15);               /* stride 8 + (1 << 14) */
    for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 5;
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++) {
      cr_assert_eq(sn_v(s, 10)[l], l < 40 ? xw(8 * l) : 0u, "%s add_tid lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 11)[l], l < 3 ? xw(16392 * l + 4) : 0u, "%s extended stride lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 12)[l], 5 + l < 40 ? xw(8 * (5 + l)) : 0u, "%s idxen + add_tid lane %u", emu_arch_name(ARCH), l);
    }
    bfree(&b);
  }
}

/* swizzle_enable (dw1 bit 31): index_stride dw3[22:21] (8 << n), element_size dw3[20:19] (2 << n);
 * the dwords of one access are element_size * index_stride bytes apart. */
static uint64_t swz(uint64_t idx, uint64_t off, uint64_t stride, uint64_t es, uint64_t is)
{
  return (idx / is * stride + off / es * es) * is + idx % is * es + off % es;
}

Test(emu_buffer, swizzled_addressing)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dword v10, v[2:3], s[4:7], 0 idxen offen\n"
                         "buffer_load_dwordx2 v[12:13], v2, s[8:11], 0 idxen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx, 16, 40, 1u << 31, 0u << 21 | 1u << 19);  /* index stride 8, element 4 bytes */
    vsharp(s, 8, b.bx, 32, 64, 1u << 31, 1u << 21 | 1u << 19);  /* index stride 16, element 4 bytes */
    for (int l = 0; l < 64; l++) sn_v(s, 2)[l] = (uint32_t)l, sn_v(s, 3)[l] = 4u * (l % 5);
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++) {
      uint32_t off = 4 * (l % 5);
      cr_assert_eq(sn_v(s, 10)[l], l < 40 && off < 16 ? xw(swz(l, off, 16, 4, 8)) : 0u, "%s swizzled lane %u",
                   emu_arch_name(ARCH), l);
      for (uint32_t k = 0; k < 2; k++)
        cr_assert_eq(sn_v(s, 12 + k)[l], xw(swz(l, 4 * k, 32, 4, 16)), "%s swizzled x2 lane %u dword %u",
                     emu_arch_name(ARCH), l, k);
    }
    bfree(&b);
  }
}

/* Out of range, a store writes nothing (per dword) and an atomic does nothing and returns 0
 * (all or nothing, even for a 64-bit atomic half inside). */
Test(emu_buffer, stores_and_atomics_out_of_range_are_dropped)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_store_dword v20, v1, s[4:7], 0 offen\n"
                         "buffer_store_dwordx2 v[20:21], v3, s[8:11], 0 offen\n"
                         "buffer_atomic_add v22, v1, s[12:15], 0 offen sc0\n"
                         "buffer_atomic_add_x2 v[24:25], v5, s[16:19], 0 offen sc0\n"
                         "buffer_store_dword v20, v7, s[28:31], 0 idxen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx, 0, 64, 0, 0x27000);            /* 16 dwords at X */
    vsharp(s, 8, b.bx + 1024, 0, 36, 0, 0x27000);     /* 9 dwords at X + 1024 */
    vsharp(s, 12, b.bx + 2048, 0, 100, 0, 0x27000);   /* 25 dwords at X + 2048 */
    vsharp(s, 16, b.bx + 4096, 0, 28, 0, 0x27000);    /* 28 bytes at X + 4096 */
    vsharp(s, 28, b.bx + 8192, 4, 5, 0, 0x27000);     /* 5 records of 4 bytes at X + 8192 */
    for (int l = 0; l < 64; l++) {
      sn_v(s, 1)[l] = 4u * l, sn_v(s, 3)[l] = 8u * l, sn_v(s, 5)[l] = 8u * l, sn_v(s, 7)[l] = (uint32_t)l;
      sn_v(s, 20)[l] = 0x5000u + l, sn_v(s, 21)[l] = 0x6000u + l;
      sn_v(s, 22)[l] = 1, sn_v(s, 24)[l] = 2, sn_v(s, 25)[l] = 0;
    }
    cr_assert_eq(sn_run(s), EMU_OK, "%s", s->f.msg);
    for (uint32_t l = 0; l < 64; l++) {
      /* the store over X: lanes 0..15; dword l at X + 4l, untouched beyond */
      if (l < 16) cr_assert_eq(X[l], 0x5000u + l, "%s store lane %u", emu_arch_name(ARCH), l);
      else cr_assert_eq(X[l], 0xA0000000u + l, "%s dropped store lane %u wrote", emu_arch_name(ARCH), l);
      /* x2 store at X + 1024 + 8l: dword 0 needs 8l + 4 <= 36, dword 1 8l + 8 <= 36 */
      uint32_t w0 = 256 + 2 * l, w1 = w0 + 1;
      cr_assert_eq(X[w0], 8 * l + 4 <= 36 ? 0x5000u + l : 0xA0000000u + w0, "%s x2 lane %u dword 0", emu_arch_name(ARCH), l);
      cr_assert_eq(X[w1], 8 * l + 8 <= 36 ? 0x6000u + l : 0xA0000000u + w1, "%s x2 lane %u dword 1", emu_arch_name(ARCH), l);
      /* atomic add of 1 at X + 2048 + 4l for l < 25, old value returned, else 0 and no change */
      uint32_t a = 512 + l;
      cr_assert_eq(X[a], l < 25 ? 0xA0000000u + a + 1 : 0xA0000000u + a, "%s atomic lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 22)[l], l < 25 ? 0xA0000000u + a : 0u, "%s atomic return lane %u", emu_arch_name(ARCH), l);
    }
    /* 64-bit atomics at X + 4096 + 8l: in range only when 8l + 8 <= 28 (l <= 2); lane 3 is half in */
    for (uint32_t l = 0; l < 64; l++) {
      bool in = 8 * l + 8 <= 28;
      uint32_t w = 1024 + 2 * l;
      cr_assert_eq(sn_v(s, 24)[l], in ? 0xA0000000u + w : 0u, "%s atomic_x2 return lane %u", emu_arch_name(ARCH), l);
      cr_assert_eq(sn_v(s, 25)[l], in ? 0xA0000000u + w + 1 : 0u, "%s atomic_x2 return hi lane %u", emu_arch_name(ARCH), l);
      if (l < 8) {
        cr_assert_eq(X[w], 0xA0000000u + w + (in ? 2 : 0), "%s atomic_x2 lane %u low word", emu_arch_name(ARCH), l);
        cr_assert_eq(X[w + 1], 0xA0000000u + w + 1, "%s atomic_x2 lane %u high word (no carry)", emu_arch_name(ARCH), l);
      }
    }
    /* structured store: 5 records */
    for (uint32_t l = 0; l < 64; l++)
      cr_assert_eq(X[2048 + l], l < 5 ? 0x5000u + l : 0xA0000000u + 2048 + l, "%s structured store lane %u",
                   emu_arch_name(ARCH), l);
    bfree(&b);
  }
}

/* The V# allows it but the registered buffer ends first: the kernel's bug, a fault naming the
 * buffer and how far past its end the access goes. */
Test(emu_buffer, inside_the_vsharp_but_past_the_registered_buffer_faults_naming_it)
{
  ARCHES {
    bsnip b = bnew(ARCH, "buffer_load_dword v10, v1, s[4:7], 0 offen\n");
    snip *s = b.s;
    vsharp(s, 4, b.bx + sizeof X - 64, 0, 0xffffffffu, 0, 0x27000);
    for (int l = 0; l < 64; l++) sn_v(s, 1)[l] = 4u * l;
    cr_assert_eq(sn_run(s), EMU_FAULT);
    cr_assert_str_eq(s->f.kind, "out-of-bounds global access");
    cr_assert_eq(s->f.lane, 16);
    cr_assert(strstr(s->f.msg, "inside the buffer resource's range") && strstr(s->f.msg, "num_records 4294967295") &&
                  strstr(s->f.msg, "lies 0 bytes past the end of buffer 'X' (65536 bytes"),
              "%s", s->f.msg);
    bfree(&b);
  }
}

/* Plain global loads and stores find each EXEC lane's own registered buffer (emu/op_mem.c: the
 * whole-wave path when every lane is in one buffer, lane by lane otherwise): lanes in X only,
 * lanes alternating between X and Y, all in Y after X, colliding stores (the higher lane's value
 * stays, lane order), and lanes outside EXEC whose addresses are in no buffer. */
enum { YW = 64 }; /* Y: 256 bytes */
static uint32_t Y[YW];
static void set_addr(snip *s, int r, int l, uint64_t a) { sn_v(s, r)[l] = (uint32_t)a, sn_v(s, r + 1)[l] = (uint32_t)(a >> 32); }

Test(emu_buffer, global_loads_and_stores_find_each_lanes_buffer)
{
  ARCHES {
    bsnip b = bnew(ARCH, "global_load_dword v10, v[0:1], off\n"
                         "global_load_dwordx2 v[12:13], v[2:3], off offset:8\n"
                         "global_load_dword v14, v[4:5], off\n"
                         "global_store_dword v[6:7], v20, off\n"
                         "global_store_dwordx2 v[8:9], v[22:23], off offset:-8\n"
                         "global_load_dword v15, v[30:31], off\n"
                         "global_store_dword v[30:31], v20, off\n"
                         "global_load_dwordx2 v[16:17], v[24:25], off\n");
    snip *s = b.s;
    for (uint32_t i = 0; i < YW; i++) Y[i] = 0xB0000000u + i;
    uint64_t by = emu_mem_map(b.m, Y, sizeof Y, "Y");
    for (int l = 0; l < 64; l++) {
      set_addr(s, 0, l, b.bx + 4u * l);
      set_addr(s, 2, l, l % 2 ? by + 4u * (l / 2) : b.bx + 400u + 8u * l); /* X and Y by turns */
      set_addr(s, 4, l, by + 4u * (63 - l));
      set_addr(s, 6, l, by + 4u * (l % 8));                                /* 8 lanes per dword */
      set_addr(s, 8, l, b.bx + 2048u + 8u * (l % 16) + 8); /* 4 lanes per pair of dwords */
      set_addr(s, 24, l, b.bx + 12288u + 8u * l);
      set_addr(s, 30, l, l % 3 ? b.bx + 4096u + 4u * l : 0xdead00000000ull + l); /* only l % 3 != 0 in EXEC */
      sn_v(s, 20)[l] = 0x5000u + l, sn_v(s, 22)[l] = 0x6000u + l, sn_v(s, 23)[l] = 0x7000u + l;
      sn_v(s, 15)[l] = 0x1234u, sn_v(s, 16)[l] = sn_v(s, 17)[l] = 0x1234u;
    }
    uint64_t ex = 0;
    for (int l = 0; l < 64; l++) ex |= (uint64_t)(l % 3 != 0) << l;
    /* the first five instructions with full EXEC, the next two under ex, the last again full */
    snip *t = s;
    for (size_t i = 0; i < t->p->n; i++) {
      const emu_insn *in = &t->p->insns[i];
      if (i == 5) sn_exec(t, ex);
      if (i == 7) sn_exec(t, ~0ull);
      cr_assert_eq(in->fn(&t->w, in), EMU_OK, "%s: %s", in->text, t->f.msg);
    }
    for (uint32_t l = 0; l < 64; l++) {
      const char *an = emu_arch_name(ARCH);
      cr_assert_eq(sn_v(s, 10)[l], 0xA0000000u + l, "%s v10 lane %u", an, l);
      uint32_t lo = l % 2 ? 0xB0000000u + l / 2 + 2 : 0xA0000000u + 100 + 2 * l + 2; /* offset:8 = 2 dwords */
      cr_assert_eq(sn_v(s, 12)[l], lo, "%s x2 dword 0 lane %u", an, l);
      cr_assert_eq(sn_v(s, 13)[l], lo + 1, "%s x2 dword 1 lane %u", an, l);
      cr_assert_eq(sn_v(s, 14)[l], 0xB0000000u + 63 - l, "%s v14 lane %u", an, l);
      /* X + 2048 + 8 (l % 16) (offset -8 cancels the +8): dwords 512 + 2j, 513 + 2j for j < 16, the
       * last of lanes j, j + 16, j + 32, j + 48 in lane order */
      if (l < 16) {
        cr_assert_eq(X[512 + 2 * l], 0x6000u + l + 48, "%s x2 store dword %u", an, 512 + 2 * l);
        cr_assert_eq(X[513 + 2 * l], 0x7000u + l + 48, "%s x2 store dword %u", an, 513 + 2 * l);
      } else {
        cr_assert_eq(X[512 + 2 * l], 0xA0000000u + 512 + 2 * l, "%s x2 store wrote dword %u", an, 512 + 2 * l);
      }
      cr_assert_eq(sn_v(s, 16)[l], 0xA0000000u + 3072 + 2 * l, "%s x2 load (one buffer) dword 0 lane %u", an, l);
      cr_assert_eq(sn_v(s, 17)[l], 0xA0000000u + 3073 + 2 * l, "%s x2 load (one buffer) dword 1 lane %u", an, l);
      bool on = l % 3 != 0;
      cr_assert_eq(sn_v(s, 15)[l], on ? 0xA0000000u + 1024 + l : 0x1234u, "%s v15 lane %u (EXEC %d)", an, l, on);
      cr_assert_eq(X[1024 + l], on ? 0x5000u + l : 0xA0000000u + 1024 + l, "%s store under EXEC lane %u", an, l);
    }
    /* Y[j] for j < 8: written by lanes j, j + 8, ..., j + 56 in lane order, so lane j + 56's value */
    for (uint32_t j = 0; j < YW; j++)
      cr_assert_eq(Y[j], j < 8 ? 0x5000u + j + 56 : 0xB0000000u + j, "%s Y[%u]", emu_arch_name(ARCH), j);
    bfree(&b);
  }
}

/* A lane whose dword ends exactly at a buffer's end is in it; one that runs 2 bytes past faults at
 * that lane. A load then writes no register (every lane is read first); a store has written the
 * lanes before it (lane order) and none after. A first EXEC lane in no buffer faults at itself. */
Test(emu_buffer, global_access_running_past_a_buffer_faults_at_its_lane)
{
  ARCHES {
    for (int store = 0; store < 2; store++)
      for (int first = 0; first < 2; first++) {
        bsnip b = bnew(ARCH, store ? "global_store_dword v[0:1], v20, off\n" : "global_load_dword v10, v[0:1], off\n");
        snip *s = b.s;
        for (uint32_t i = 0; i < YW; i++) Y[i] = 0xB0000000u + i;
        uint64_t by = emu_mem_map(b.m, Y, sizeof Y, "Y");
        int bad = first ? 5 : 50; /* `first`: lanes 0..4 off, lane 5 past X's end */
        uint64_t ex = first ? ~0ull << 5 : ~0ull;
        for (int l = 0; l < 64; l++) {
          /* lanes 0..48 to dwords 0..48, lane 49 to the last dword, 51..63 to dwords 50..62 */
          set_addr(s, 0, l, l == 49 ? by + sizeof Y - 4 : l == 50 ? by + sizeof Y - 2 : by + 4u * (l < 49 ? l : l - 1));
          if (first && l < 5) set_addr(s, 0, l, 0xdead00000000ull); /* outside EXEC */
          if (first && l == bad) set_addr(s, 0, l, b.bx + sizeof X + 8);
          sn_v(s, 20)[l] = 0x5000u + l, sn_v(s, 10)[l] = 0x1234u;
        }
        sn_exec(s, ex);
        cr_assert_eq(sn_run(s), EMU_FAULT, "%s store %d first %d: no fault", emu_arch_name(ARCH), store, first);
        cr_assert_str_eq(s->f.kind, "out-of-bounds global access");
        cr_assert_eq(s->f.lane, bad, "%s store %d first %d: lane %d", emu_arch_name(ARCH), store, first, s->f.lane);
        for (int l = 0; l < 64; l++) cr_assert_eq(sn_v(s, 10)[l], 0x1234u, "a faulting load wrote lane %d", l);
        for (uint32_t j = 0; j < YW; j++) {
          /* only the lanes before the faulting lane 50 stored: 0..48 and 49 (to the last dword) */
          uint32_t want = 0xB0000000u + j;
          if (store && !first && j <= 48) want = 0x5000u + j;
          if (store && !first && j == 63) want = 0x5000u + 49;
          cr_assert_eq(Y[j], want, "%s store %d first %d: Y[%u]", emu_arch_name(ARCH), store, first, j);
        }
        bfree(&b);
      }
  }
}

/* The whole-wave global load (emu/op_mem.c gload_wave: every lane on, a VGPR-pair address, every
 * lane inside the buffer the instruction read the last time it ran, or the wave's last one) against
 * the per-lane definition, run after run of the same two instructions with other addresses: X, then
 * Y (the instruction's remembered buffer is wrong), lanes in both, back to X while the other
 * instruction has just read Y, a remembered buffer index left stale or out of range, and then, with
 * X the buffer that path checks, lanes inside X but for one that runs 2 bytes past its end (lane 63)
 * or lies in no buffer (lane 31): the fault names that lane, no register written. dword and dwordx2,
 * with an offset. */
Test(emu_buffer, whole_wave_global_loads_follow_each_lanes_buffer_run_after_run)
{
  ARCHES {
    bsnip b = bnew(ARCH, "global_load_dword v10, v[0:1], off offset:4\n"
                         "global_load_dwordx2 v[12:13], v[2:3], off offset:-8\n");
    snip *s = b.s;
    for (uint32_t i = 0; i < YW; i++) Y[i] = 0xB0000000u + i;
    uint64_t by = emu_mem_map(b.m, Y, sizeof Y, "Y");
    const char *an = emu_arch_name(ARCH);
    for (int run = 0; run < 9; run++) {
      int bad = run == 7 ? 63 : run == 8 ? 31 : -1; /* a lane past X's end, a lane in no buffer */
      for (int l = 0; l < 64; l++) {
        /* the dword instruction's buffer per run: X, Y, both, then X (runs 7 and 8 with a bad lane) */
        bool iny = run == 1 || (run == 2 && l % 5 == 0);
        uint64_t a0 = iny ? by + 4u * (uint32_t)((l * 7) % YW) - 4 : b.bx + 4u * (uint32_t)(l * 3 + run) - 4;
        if (l == bad) a0 = run == 7 ? b.bx + sizeof X - 2 - 4 : 0xdead00000000ull;
        set_addr(s, 0, l, a0);
        /* the dwordx2 instruction: Y in run 3 (so the wave's last buffer is Y when run 4's dword
         * load, remembered in X, runs), X otherwise */
        uint64_t a1 = run == 3 ? by + 8u * (uint32_t)(l % 32) + 8 : b.bx + 8u * (uint32_t)(63 - l) + 16 + 8;
        set_addr(s, 2, l, a1);
        sn_v(s, 10)[l] = sn_v(s, 12)[l] = sn_v(s, 13)[l] = 0x1234u;
      }
      if (run == 5) s->w.gl_buf[0] = 2;   /* a stale guess: Y's index for an X access */
      if (run == 6) s->w.gl_buf[0] = 999; /* an index past the buffer list: the wave's last buffer, X, is taken */
      /* dwordx2 first, so the wave's last buffer is the one it read */
      const emu_insn *ld = &s->p->insns[0], *ld2 = &s->p->insns[1];
      cr_assert_eq(ld2->fn(&s->w, ld2), EMU_OK, "%s run %d: %s", an, run, s->f.msg);
      int rc = ld->fn(&s->w, ld);
      if (bad >= 0) {
        cr_assert_eq(rc, EMU_FAULT, "%s run %d: no fault", an, run);
        cr_assert_str_eq(s->f.kind, "out-of-bounds global access");
        cr_assert_eq(s->f.lane, bad, "%s run %d: fault at lane %d", an, run, s->f.lane);
        for (int l = 0; l < 64; l++) cr_assert_eq(sn_v(s, 10)[l], 0x1234u, "%s run %d: a faulting load wrote lane %d", an, run, l);
        memset(&s->f, 0, sizeof s->f);
        s->w.state = 0;
      } else {
        cr_assert_eq(rc, EMU_OK, "%s run %d: %s", an, run, s->f.msg);
      }
      for (int l = 0; l < 64; l++) {
        uint64_t a0 = (uint64_t)sn_v(s, 0)[l] | (uint64_t)sn_v(s, 1)[l] << 32, a1 = (uint64_t)sn_v(s, 2)[l] | (uint64_t)sn_v(s, 3)[l] << 32;
        if (bad < 0) {
          const uint32_t *w0 = a0 + 4 >= by && a0 + 4 < by + sizeof Y ? &Y[(a0 + 4 - by) / 4] : &X[(a0 + 4 - b.bx) / 4];
          cr_assert_eq(sn_v(s, 10)[l], *w0, "%s run %d: dword lane %d", an, run, l);
        }
        const uint32_t *w1 = a1 - 8 >= by && a1 - 8 < by + sizeof Y ? &Y[(a1 - 8 - by) / 4] : &X[(a1 - 8 - b.bx) / 4];
        cr_assert(sn_v(s, 12)[l] == w1[0] && sn_v(s, 13)[l] == w1[1], "%s run %d: dwordx2 lane %d", an, run, l);
      }
    }
    bfree(&b);
  }
}

/* The s_waitcnt bookkeeping of vector memory operations (emu/waitcnt.c, its short body for VGPR
 * destinations and stores): after every record of a run of global loads, stores and waits, the
 * registers the wave holds as still loading (emu_wave.pbits) are exactly the destinations of the
 * operations the ISA still counts: each issued adds one, s_waitcnt vmcnt(k) retires the oldest until
 * k remain (vector memory returns in order). One, two and four registers, four across a 64-register
 * word, an AGPR destination (the general body), stores (none), registers named again while their
 * first load is outstanding (two live entries on one register: the general body until a wait). */
Test(emu_buffer, vm_waits_leave_exactly_the_outstanding_destinations_pending)
{
  static const sn_pend_op ops[] = {
      {"global_load_dword v10, v[0:1], off", 10, 1, 0},
      {"global_load_dwordx2 v[62:63], v[0:1], off offset:8", 62, 2, 0},
      {"global_store_dword v[0:1], v20, off offset:64", 0, 0, 0},
      {"global_load_dwordx4 v[62:65], v[0:1], off", 62, 4, 0},
      {"global_load_dword a5, v[0:1], off", 5, 1, 1},
      {"global_load_dword v10, v[0:1], off offset:4", 10, 1, 0},
      {"global_load_dwordx2 v[30:31], v[0:1], off", 30, 2, 0},
      {"global_load_dword v10, v[0:1], off offset:4", 10, 1, 0},
      {"global_load_dwordx4 v[126:129], v[0:1], off", 126, 4, 0},
      {"global_store_dwordx2 v[0:1], v[20:21], off offset:128", 0, 0, 0},
      {"global_load_dword v11, v[0:1], off", 11, 1, 0},
      /* 19 outstanding: more than the LDS counter's 15 */
      {"global_load_dword v40, v[0:1], off", 40, 1, 0},
      {"global_load_dword v41, v[0:1], off", 41, 1, 0},
      {"global_load_dword v42, v[0:1], off", 42, 1, 0},
      {"global_load_dword v43, v[0:1], off", 43, 1, 0},
      {"global_load_dword v44, v[0:1], off", 44, 1, 0},
      {"global_load_dword v45, v[0:1], off", 45, 1, 0},
      {"global_load_dword v46, v[0:1], off", 46, 1, 0},
      {"global_load_dword v47, v[0:1], off", 47, 1, 0},
      {"global_load_dword v48, v[0:1], off", 48, 1, 0},
      {"global_load_dword v49, v[0:1], off", 49, 1, 0},
      {"global_load_dword v50, v[0:1], off", 50, 1, 0},
      {"global_load_dword v51, v[0:1], off", 51, 1, 0},
      {"global_load_dword v52, v[0:1], off", 52, 1, 0},
      {"global_load_dword v53, v[0:1], off", 53, 1, 0},
      {"global_load_dword v54, v[0:1], off", 54, 1, 0},
      {"global_load_dword v55, v[0:1], off", 55, 1, 0},
      {"global_load_dword v56, v[0:1], off", 56, 1, 0},
      {"global_load_dword v57, v[0:1], off", 57, 1, 0},
  };
  /* the vmcnt wait after op i (-1: none) */
  static const int wait_after[] = {-1, -1, -1, -1, 2,  -1, -1, 1,  -1, 0,  -1, -1, -1, -1, -1,
                                   -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  const int nops = (int)(sizeof ops / sizeof ops[0]);
  char *src = ll_xstrdup("");
  for (int i = 0; i < nops; i++) {
    char *t = wait_after[i] >= 0 ? ll_fmt("%s%s\ns_waitcnt vmcnt(%d)\n", src, ops[i].text, wait_after[i])
                                 : ll_fmt("%s%s\n", src, ops[i].text);
    free(src), src = t;
  }
  char *t = ll_fmt("%ss_waitcnt vmcnt(0)\n", src);
  free(src), src = t;
  ARCHES {
    bsnip b = bnew(ARCH, src);
    snip *s = b.s;
    for (int l = 0; l < 64; l++) set_addr(s, 0, l, b.bx + 4u * (uint32_t)l);
    int out[32], nout = 0; /* indices into ops, oldest first */
    size_t r = 0;
    for (int i = 0; i <= nops; i++)
      for (int step = 0; step < 2; step++) {
        int k = -1;
        if (i < nops && step == 0) out[nout++] = i;
        else if (i < nops && wait_after[i] >= 0) k = wait_after[i];
        else if (i == nops && step == 0) k = 0;
        else continue;
        if (k >= 0)
          while (nout > k) memmove(out, out + 1, --nout * sizeof out[0]);
        const emu_insn *in = &s->p->insns[r++];
        cr_assert_eq(in->fn(&s->w, in), EMU_OK, "%s: %s", in->text, s->f.msg);
        cr_assert_eq(s->w.ncnt[EMU_CNT_VM] + s->w.ncnt[EMU_CNT_DS] + s->w.ncnt[EMU_CNT_SMEM], nout, "after %s", in->text);
        cr_assert_eq(s->w.ncnt[EMU_CNT_VM], nout, "after %s", in->text);
        sn_assert_pending(&s->w, ops, out, nout, in->text);
      }
    bfree(&b);
  }
  free(src);
}
