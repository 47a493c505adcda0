// tests/asm/memmodel.s — three small hand-written kernels, patterns found in AMD's own assembly
// kernels (ROCm/aiter). The first two are memory-model patterns whose hardware result the ISA leaves
// undocumented (docs/emulator-choices.md, "Memory-model strictness"): lanelab warns on each (once
// per kernel PC) and runs on; `lanelab run --strict-memory` makes each a fault. The third,
// mm_soffset, is a buffer read the range check drops (no warning). Written for llvm-mc-22, for
// gfx942 and gfx950 alike; metadata as aiter's kernels carry it (amdhsa.version [1, 0]).
// Each kernel: one wave of 64 lanes, arguments x (in, 64 dwords) and o (out, 64 dwords).
// The fourth pattern needs two waves: tests/asm/memmodel_wg.s.
//
//   mm_lds_barrier  ds_read_b32 -> s_barrier -> use with no s_waitcnt lgkmcnt: o[i] = x[i] + 1
//   mm_dup_sload    the same s_load_dwordx4 issued twice while the first is in flight:
//                   o[i] = 2 * x[i]
//   mm_soffset      buffer_load_dword through a resource of num_records 256 with soffset 256: the
//                   range check counts soffset (docs/isa.md "Buffer resource and range checking"),
//                   every lane is out of range and reads 0, so o[i] = x[i] + 0; no warning

.text
.global mm_lds_barrier
.p2align 8
.type mm_lds_barrier,@function
mm_lds_barrier:
  s_load_dwordx4 s[4:7], s[0:1], 0x0             // x s[4:5], o s[6:7]
  v_lshlrev_b32 v1, 2, v0                        // byte offset of lane L
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v3, v1
  s_barrier                                      // no s_waitcnt lgkmcnt(0) before the use below
  v_add_u32 v3, 1, v3
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_dup_sload
.p2align 8
.type mm_dup_sload,@function
mm_dup_sload:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx4 s[4:7], s[0:1], 0x0             // the same load again, the first still in flight
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v2
  global_store_dword v1, v2, s[6:7]
  s_endpgm

.global mm_soffset
.p2align 8
.type mm_soffset,@function
mm_soffset:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_mov_b32 s10, 256                             // num_records: x's 256 bytes
  s_mov_b32 s11, 0x00020000
  s_mov_b32 s12, 256                             // soffset: one buffer length on
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                               // buffer resource s[8:11] over x
  s_and_b32 s9, s5, 0xffff
  buffer_load_dword v3, v1, s[8:11], s12 offen   // prefetch past the end of x
  buffer_load_dword v2, v1, s[8:11], 0 offen
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v3
  global_store_dword v1, v2, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel mm_lds_barrier
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_dup_sload
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_soffset
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel


.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: mm_lds_barrier
    .symbol: mm_lds_barrier.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_dup_sload
    .symbol: mm_dup_sload.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_soffset
    .symbol: mm_soffset.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
