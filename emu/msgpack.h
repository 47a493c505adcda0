/* emu/msgpack — a small, bounds-checked MessagePack reader for the AMDGPU metadata note.
 * Private to emu/ (the loader is its only user). Format: the MessagePack specification
 * (github.com/msgpack/msgpack/blob/master/spec.md), all type families; the AMDGPU note uses maps,
 * arrays, strings, unsigned/signed ints and booleans (LLVM AMDGPUUsage, "Code Object V3+
 * Metadata"). */
#ifndef LANELAB_EMU_MSGPACK_H
#define LANELAB_EMU_MSGPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/util.h"

typedef enum {
  EMU_MP_NIL, EMU_MP_BOOL, EMU_MP_UINT, EMU_MP_INT, EMU_MP_FLOAT, EMU_MP_STR, EMU_MP_BIN,
  EMU_MP_EXT, EMU_MP_ARR, EMU_MP_MAP
} emu_mp_type;

typedef struct emu_mp emu_mp;
struct emu_mp {
  emu_mp_type type;
  bool b;
  uint64_t u;          /* EMU_MP_UINT */
  int64_t i;           /* EMU_MP_INT (only negative values land here; non-negative are UINT) */
  double f;            /* EMU_MP_FLOAT */
  const char *s;       /* STR/BIN/EXT payload, points into the parsed bytes; NOT NUL-terminated */
  uint32_t len;        /* payload length */
  int8_t ext_type;
  size_t n;            /* ARR: elements; MAP: pairs */
  emu_mp *items;       /* ARR: n items; MAP: 2n items, key then value */
};

/* Parses exactly one value that must fill [p, p+n). NULL + LL_EXIT_USAGE with the byte offset
 * of the problem on truncation, a reserved byte (0xc1), nesting deeper than 64 or trailing data. */
emu_mp *emu_mp_parse(const uint8_t *p, size_t n, ll_err *err);
void emu_mp_free(emu_mp *v);
/* Map lookup by string key; NULL if v is not a map or the key is absent. */
const emu_mp *emu_mp_get(const emu_mp *map, const char *key);
/* Integer value as uint64 if it is a non-negative integer. */
bool emu_mp_as_u64(const emu_mp *v, uint64_t *out);
/* malloc'd NUL-terminated copy of a STR value; NULL if not a string or it contains a NUL. */
char *emu_mp_strdup(const emu_mp *v);
bool emu_mp_str_eq(const emu_mp *v, const char *s);
const char *emu_mp_type_name(emu_mp_type t);

#endif
