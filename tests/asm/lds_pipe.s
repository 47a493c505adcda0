// tests/asm/lds_pipe.s — loads to LDS across barriers, in the style of AMD's software-pipelined
// kernels (ROCm/aiter's fmha forward: `buffer_load_dword ... offen lds` with M0 set by s_add_u32,
// partial `s_waitcnt vmcnt(N)` waits, s_barrier with the next tile still loading). They exercise
// the LDS ordering rule of docs/emulator-choices.md ("Memory-model strictness"): an LDS write
// lands at some time between its issue and the s_waitcnt that retires it, and another wave may
// touch its bytes only after an s_barrier that follows that wait; an s_barrier reached with the
// write still outstanding is no finding by itself. Written for llvm-mc-22, gfx942 and gfx950 alike.
//
//   pipe_tiles        two waves (block 128), x = 4 tiles of 256 dwords, o = 256 dwords. Tiles go to
//                     two LDS buffers of 1 KiB (tile t to buffer t % 2); each wave loads its half of
//                     each tile with two loads to LDS (256 bytes each) and reads the other wave's half.
//                     Prologue: tiles 0 and 1 issued. Iteration t: s_waitcnt vmcnt(2) (retires tile
//                     t, the two loads of tile t + 1 stay in flight), s_barrier, read tile t, wait,
//                     s_barrier, issue tile t + 2. o[w*128 + k*64 + l] = sum over t of
//                     (t + 1) * x[t*256 + (1 - w)*128 + k*64 + l] (wave w, piece k, lane l).
//   pipe_tiles_early  the same with the reads of iterations 0..2 one tile early (tile t + 1, whose
//                     loads the other wave has not waited for): an ordering finding.
//   retire_order      two waves; args x, o, j, mode. Wave 0 issues four loads to LDS, region i
//                     (256 bytes at 256 i) <- x[64 i .. 64 i + 63], oldest first, then waits
//                     vmcnt(2): in order, regions 0 and 1 are retired, 2 and 3 still loading. Both
//                     pass an s_barrier; then wave 1 touches region j: mode 0 reads it at once (wave 0
//                     waits vmcnt(0) later), mode 1 writes it at once, mode 2 reads it after wave 0
//                     has waited vmcnt(0) but with no s_barrier since. Finally both wait, pass an
//                     s_barrier, and wave 1 stores region j: o[l] (x[64 j + l] unless mode 1).
//   own_wait          one wave; args x, o, wait. A load to LDS, then the wave's own ds_read of those
//                     bytes, with s_waitcnt vmcnt(0) between them only when wait != 0 (the
//                     vector-memory path that writes LDS is unordered with the wave's DS reads).
//                     o[l] = x[l].
//   keep_queue        two waves; x, o. A load into v2 (the oldest), four loads to LDS, s_barrier with
//                     all five outstanding, s_waitcnt vmcnt(4): exactly the oldest retires, and v2 is
//                     read. Then vmcnt(0), s_barrier, and each wave adds the other's region 0:
//                     o[w*64 + l] = 2 x[l] + 1. (Issue 25: a warning at the barrier used to drop the
//                     four loads from the vmcnt queue, so vmcnt(4) retired nothing and the read of v2
//                     faulted "missing s_waitcnt".)
//   lgkm_keep         one wave; x, o. Two ds_reads (v9 the older, then v3), s_barrier, a use of v3
//                     with no lgkmcnt wait: the tolerated "LDS result used after s_barrier" pattern,
//                     one warning. Then s_waitcnt lgkmcnt(1) retires v9's read (in order, the count
//                     includes v3's, which the warning leaves outstanding) and v9 is used: no second
//                     warning. o[l] = 2 x[l] + 1.
//   count_sat         one wave; x, o, mode. An s_load into s20 (x[0]) left in flight, then 64
//                     global_load_dword into v1 (the oldest) .. v64, all of x[l], no wait. vmcnt
//                     counts at most 63 (CDNA3 ISA "S_WAITCNT": VM_CNT is 6 bits), so the 64th
//                     issues only once v1's load has completed; lgkmcnt is a separate counter, so
//                     the s_load stays in flight. Then mode 0 reads v1 (ready), mode 1 reads v2
//                     (still loading: missing s_waitcnt), mode 2 reads s20 (still loading: missing
//                     s_waitcnt). o[l] = x[l] (mode 0).

.set NT, 4

.text
// tile t: this wave's half (512 bytes at 512 w, s13) of x's tile t into LDS buffer t % 2, two loads
.macro LOAD_TILE t
  s_add_u32 s12, s13, (\t) * 1024                      // soffset: tile t, this wave's half
  s_add_u32 m0, s13, ((\t) % 2) * 1024                 // LDS: buffer t % 2, this wave's half
  buffer_load_dword v1, s[8:11], s12 offen lds       // piece 0: lane l -> +4 l
  s_add_u32 s12, 0x100, s12
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], s12 offen lds       // piece 1
.endm

// iteration t: read tile rt (t, or t + 1 early) from the other wave's half (v5)
.macro ITER t, rt
  .if (\t) < NT - 1
  s_waitcnt vmcnt(2)                                 // tile t retired; tile t + 1 still loading
  .else
  s_waitcnt vmcnt(0)
  .endif
  s_barrier
  ds_read_b32 v8, v5 offset:((\rt) % 2) * 1024
  ds_read_b32 v9, v5 offset:((\rt) % 2) * 1024 + 256
  s_waitcnt lgkmcnt(0)
  v_mad_u32_u24 v6, v8, (\t) + 1, v6
  v_mad_u32_u24 v7, v9, (\t) + 1, v7
  s_barrier                                          // every wave is done with buffer t % 2
  .if (\t) + 2 < NT
  LOAD_TILE (\t) + 2
  .endif
.endm

.macro PIPE early
  s_load_dwordx4 s[4:7], s[0:1], 0x0                 // x s[4:5], o s[6:7]
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1                            // lane byte offset 4 l
  v_lshrrev_b32 v4, 6, v0
  v_readfirstlane_b32 s15, v4                        // wave w
  s_lshl_b32 s13, s15, 9                             // 512 w: this wave's half
  s_sub_u32 s14, 1, s15
  s_lshl_b32 s14, s14, 9                             // 512 (1 - w): the other wave's half
  v_add_u32 v5, s14, v1
  v_mov_b32 v6, 0
  v_mov_b32 v7, 0
  s_mov_b32 s10, NT * 1024                           // num_records: x
  s_mov_b32 s11, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                                   // buffer resource s[8:11] over x
  s_and_b32 s9, s5, 0xffff
  LOAD_TILE 0
  LOAD_TILE 1
  ITER 0, \early
  ITER 1, 1 + \early
  ITER 2, 2 + \early
  ITER 3, 3
  v_add_u32 v10, s13, v1
  global_store_dword v10, v6, s[6:7]
  global_store_dword v10, v7, s[6:7] offset:256
  s_endpgm
.endm

.global pipe_tiles
.p2align 8
.type pipe_tiles,@function
pipe_tiles:
  PIPE 0

.global pipe_tiles_early
.p2align 8
.type pipe_tiles_early,@function
pipe_tiles_early:
  PIPE 1

.global retire_order
.p2align 8
.type retire_order,@function
retire_order:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[16:17], s[0:1], 0x10              // j s16, mode s17
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_readfirstlane_b32 s15, v4
  s_mov_b32 s10, 1024
  s_mov_b32 s11, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_lshl_b32 s18, s16, 8                             // region j: 256 j
  v_add_u32 v5, s18, v1
  s_cmp_lg_u32 s15, 0
  s_cbranch_scc1 L_ro_barrier
  s_mov_b32 s12, 0
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], s12 offen lds       // region 0, the oldest
  s_add_u32 s12, 0x100, s12
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], s12 offen lds       // region 1
  s_add_u32 s12, 0x100, s12
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], s12 offen lds       // region 2
  s_add_u32 s12, 0x100, s12
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], s12 offen lds       // region 3, the youngest
  s_waitcnt vmcnt(2)                                 // in order: regions 0 and 1
L_ro_barrier:
  s_barrier
  s_cmp_lg_u32 s15, 0
  s_cbranch_scc1 L_ro_reader
  s_bitcmp1_b32 s17, 1                               // mode 2: wave 0 waits at once
  s_cbranch_scc1 L_ro_wait
  .rept 8
  s_nop 0
  .endr
L_ro_wait:
  s_waitcnt vmcnt(0)
  s_branch L_ro_join
L_ro_reader:
  s_bitcmp1_b32 s17, 1                               // mode 2: wave 1 touches region j later
  s_cbranch_scc0 L_ro_access
  .rept 12
  s_nop 0
  .endr
L_ro_access:
  s_bitcmp1_b32 s17, 0                               // mode 1: a write
  s_cbranch_scc1 L_ro_write
  ds_read_b32 v6, v5
  s_branch L_ro_join
L_ro_write:
  v_mov_b32 v7, 0x5a5a
  ds_write_b32 v5, v7
L_ro_join:
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_barrier
  ds_read_b32 v6, v5                                 // region j, waited for and past a barrier
  s_waitcnt lgkmcnt(0)
  s_cmp_lg_u32 s15, 1
  s_cbranch_scc1 L_ro_end
  global_store_dword v1, v6, s[6:7]
L_ro_end:
  s_endpgm

.global own_wait
.p2align 8
.type own_wait,@function
own_wait:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s16, s[0:1], 0x10                     // wait
  v_lshlrev_b32 v1, 2, v0
  s_mov_b32 s10, 256
  s_mov_b32 s11, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_cmp_eq_u32 s16, 0
  s_cbranch_scc1 L_ow_read
  s_waitcnt vmcnt(0)
L_ow_read:
  ds_read_b32 v2, v1                                 // the wave's own load to LDS
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm

.global keep_queue
.p2align 8
.type keep_queue,@function
keep_queue:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  v_lshrrev_b32 v4, 6, v0
  v_readfirstlane_b32 s15, v4
  s_lshl_b32 s13, s15, 10                            // this wave's 1 KiB of LDS
  s_sub_u32 s14, 1, s15
  s_lshl_b32 s14, s14, 10
  v_add_u32 v5, s14, v1                              // the other wave's region 0
  s_mov_b32 s10, 256
  s_mov_b32 s11, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  buffer_load_dword v2, v1, s[8:11], 0 offen         // the oldest: into v2
  s_mov_b32 m0, s13
  buffer_load_dword v1, s[8:11], 0 offen lds         // four loads to LDS: regions 0..3
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_add_u32 m0, 0x100, m0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_barrier                                          // five loads outstanding
  s_waitcnt vmcnt(4)                                 // exactly the oldest: v2
  v_add_u32 v3, 1, v2
  s_waitcnt vmcnt(0)
  s_barrier
  ds_read_b32 v4, v5
  s_waitcnt lgkmcnt(0)
  v_add_u32 v3, v3, v4
  v_lshlrev_b32 v6, 2, v0
  global_store_dword v6, v3, s[6:7]
  s_endpgm

.global lgkm_keep
.p2align 8
.type lgkm_keep,@function
lgkm_keep:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v9, v1                                 // the older read
  ds_read_b32 v3, v1
  s_barrier
  v_add_u32 v3, 1, v3                                // no lgkmcnt wait: one warning
  s_waitcnt lgkmcnt(1)                               // retires v9's read, v3's stays counted
  v_add_u32 v9, v9, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v9, s[6:7]
  s_endpgm

.global count_sat
.p2align 8
.type count_sat,@function
count_sat:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s16, s[0:1], 0x10                     // mode
  v_lshlrev_b32 v100, 2, v0
  s_waitcnt lgkmcnt(0)
  s_load_dword s20, s[4:5], 0x0                      // in flight until the final wait
.irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64
  global_load_dword v\r, v100, s[4:5]                  // v1 the oldest
.endr
  s_cmp_eq_u32 s16, 1
  s_cbranch_scc1 .Lsat_v2
  s_cmp_eq_u32 s16, 2
  s_cbranch_scc1 .Lsat_s20
  v_mov_b32 v70, v1                                  // mode 0: retired by the 64th load's issue
  s_branch .Lsat_done
.Lsat_v2:
  v_mov_b32 v70, v2                                  // mode 1: still loading
  s_branch .Lsat_done
.Lsat_s20:
  v_mov_b32 v70, s20                                 // mode 2: the s_load, still loading
.Lsat_done:
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v100, v70, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel count_sat
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 104
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 104
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel pipe_tiles
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel pipe_tiles_early
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel retire_order
  .amdhsa_group_segment_fixed_size 1024
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel own_wait
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel lgkm_keep
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel keep_queue
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: pipe_tiles
    .symbol: pipe_tiles.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: pipe_tiles_early
    .symbol: pipe_tiles_early.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: retire_order
    .symbol: retire_order.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
    - { .name: j, .size: 4, .offset: 16, .value_kind: by_value }
    - { .name: mode, .size: 4, .offset: 20, .value_kind: by_value }
  - .name: own_wait
    .symbol: own_wait.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
    - { .name: wait, .size: 4, .offset: 16, .value_kind: by_value }
  - .name: keep_queue
    .symbol: keep_queue.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
  - .name: count_sat
    .symbol: count_sat.kd
    .sgpr_count: 24
    .vgpr_count: 104
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
    - { .name: mode, .size: 4, .offset: 16, .value_kind: by_value }
  - .name: lgkm_keep
    .symbol: lgkm_keep.kd
    .sgpr_count: 24
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: x, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
