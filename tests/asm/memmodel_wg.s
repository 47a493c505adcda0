// tests/asm/memmodel_wg.s — the LDS ordering rule of docs/emulator-choices.md ("Memory-model
// strictness"): an LDS write another wave reads before the writer has waited for it. Two
// hand-written kernels of two waves (block 128) that publish an LDS write to the other wave with an
// s_barrier and no s_waitcnt for the write before it; the other wave's read is an "unordered LDS
// access" (warned once per kernel PC; the emulator has written LDS at issue, so the run goes on with
// the written value); `lanelab run --strict-memory` makes each a fault. Written for llvm-mc-22, for
// gfx942 and gfx950 alike. Arguments x (in, 64 dwords) and o (out, 64 dwords).
//
//   mm_store_barrier two waves; lane t writes x[t % 64] + t / 64 to LDS slot t, s_barrier with the
//                   ds_write not waited for (no s_waitcnt lgkmcnt(0)), then reads slot t ^ 64;
//                   wave 0 stores what it read: o[i] = x[i] + 1 (wave 1's value)
//   mm_store2_barrier as mm_store_barrier, the write a ds_write2st64_b32 whose second access is slot t
//                   and whose first lands at 1024 + 4 t, which no wave reads (the LDS ordering check
//                   must take each access's own span: a read of the second's bytes is the finding)
//   mm_dma_barrier  two waves; buffer_load_dword ... lds copies x to wave w's 256 LDS bytes, s_barrier
//                   with the load to LDS not waited for (no s_waitcnt vmcnt(0)); as above, wave 0
//                   reads wave 1's copy and stores o[i] = x[i] + 1
//   mm_store_nobar  as mm_store_barrier with no s_barrier at all: the other wave's read of a write
//                   in the same barrier interval, not yet waited for (the check's filter of the
//                   slots that can be a finding must see a write recorded since the last barrier)
//   mm_atomic_read  slots zeroed and published (s_waitcnt, s_barrier); lane t adds x[t % 64] + t / 64
//                   to slot t with ds_add_u32 and reads slot t ^ 64 with no wait or barrier between:
//                   a plain read of another wave's atomic update still outstanding is a finding
//   mm_atomic_atomic slots zeroed and published; every lane adds x[t % 64] + t / 64 to slot t % 64
//                   with ds_add_u32, both waves on the same words, no wait between them; then
//                   s_waitcnt, s_barrier, and wave 0 stores slot t: o[i] = 2 x[i] + 1. Two atomic
//                   updates are ordered by nothing and need nothing: no finding, strict or not

.text
.global mm_store_barrier
.p2align 8
.type mm_store_barrier,@function
mm_store_barrier:
  s_load_dwordx4 s[4:7], s[0:1], 0x0             // x s[4:5], o s[6:7]
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1                        // byte offset of lane t % 64 in x and o
  v_lshrrev_b32 v4, 6, v0                        // wave w = t / 64
  v_lshlrev_b32 v5, 2, v0                        // LDS slot t
  v_xor_b32 v6, 0x100, v5                        // LDS slot t ^ 64: the other wave's
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v4
  ds_write_b32 v5, v2
  s_barrier                                      // no s_waitcnt lgkmcnt(0) before it
  ds_read_b32 v3, v6
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc                 // wave 0 stores
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_store2_barrier
.p2align 8
.type mm_store2_barrier,@function
mm_store2_barrier:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_lshlrev_b32 v5, 2, v0                        // LDS slot t
  v_xor_b32 v6, 0x100, v5
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v4
  v_mov_b32 v7, 0x5a5a
  ds_write2st64_b32 v5, v7, v2 offset0:4         // 0x5a5a to 1024 + 4 t, v2 to slot t
  s_barrier                                      // no s_waitcnt lgkmcnt(0) before it
  ds_read_b32 v3, v6
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_dma_barrier
.p2align 8
.type mm_dma_barrier,@function
mm_dma_barrier:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_lshlrev_b32 v5, 2, v0
  v_xor_b32 v6, 0x100, v5
  s_mov_b32 s10, 256                             // num_records: x's 256 bytes
  s_mov_b32 s11, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                               // buffer resource s[8:11] over x
  s_and_b32 s9, s5, 0xffff
  v_readfirstlane_b32 s12, v4
  s_lshl_b32 m0, s12, 8                          // wave w's 256 LDS bytes
  buffer_load_dword v1, s[8:11], 0 offen lds     // LDS[256 w + 4 l] = x[l]
  s_barrier                                      // no s_waitcnt vmcnt(0) before it
  ds_read_b32 v3, v6
  s_waitcnt lgkmcnt(0)
  v_add_u32 v3, v3, 1
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_store_nobar
.p2align 8
.type mm_store_nobar,@function
mm_store_nobar:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_lshlrev_b32 v5, 2, v0                        // LDS slot t
  v_xor_b32 v6, 0x100, v5                        // LDS slot t ^ 64: the other wave's
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v4
  ds_write_b32 v5, v2
  ds_read_b32 v3, v6                             // no s_waitcnt, no s_barrier before it
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_atomic_read
.p2align 8
.type mm_atomic_read,@function
mm_atomic_read:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_lshlrev_b32 v5, 2, v0                        // LDS slot t
  v_xor_b32 v6, 0x100, v5                        // LDS slot t ^ 64: the other wave's
  v_mov_b32 v7, 0
  ds_write_b32 v5, v7                            // slots zeroed, waited for and published
  s_waitcnt lgkmcnt(0)
  s_barrier
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v4
  ds_add_u32 v5, v2
  ds_read_b32 v3, v6                             // no s_waitcnt, no s_barrier before it
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.global mm_atomic_atomic
.p2align 8
.type mm_atomic_atomic,@function
mm_atomic_atomic:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1                        // slot t % 64, and x's and o's byte offset
  v_lshrrev_b32 v4, 6, v0
  v_mov_b32 v7, 0
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc                 // wave 0 zeroes the 64 slots
  ds_write_b32 v1, v7
  s_mov_b64 exec, s[8:9]
  s_waitcnt lgkmcnt(0)
  s_barrier
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, v2, v4
  ds_add_u32 v1, v2                              // both waves, the same 64 words
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32 vcc, 0, v4
  s_and_saveexec_b64 s[8:9], vcc
  global_store_dword v1, v3, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel mm_store_barrier
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_store2_barrier
  .amdhsa_group_segment_fixed_size 1536
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_dma_barrier
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_store_nobar
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel mm_atomic_read
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel mm_atomic_atomic
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: mm_store_barrier
    .symbol: mm_store_barrier.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_store2_barrier
    .symbol: mm_store2_barrier.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 1536
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_dma_barrier
    .symbol: mm_dma_barrier.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_store_nobar
    .symbol: mm_store_nobar.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_atomic_read
    .symbol: mm_atomic_read.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: mm_atomic_atomic
    .symbol: mm_atomic_atomic.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata

