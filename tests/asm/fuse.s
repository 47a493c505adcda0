// fuse.s: runs of integer lane operations, which the emulator executes as one step (emu/fuse.c),
// end to end (tests/test_emu_asm.c):
//   fuse_ok (out: 7 x 64 dwords): a run of eight lane operations under EXEC all ones, while the
//           kernarg load is still outstanding (none of the run's registers is its), then a run under
//           a partial EXEC (lanes 0..15), which the executor leaves to the handlers. Expected values:
//           the formulas in the test.
//   fuse_nowait: an LDS load's result read by the third instruction of a run before s_waitcnt: the
//           fault "missing s_waitcnt" names that instruction, as without runs.
.text
.global fuse_ok
.p2align 8
.type fuse_ok,@function
fuse_ok:
  s_load_dwordx2 s[2:3], s[0:1], 0x0             // out
  s_mov_b32 s4, 0x9e3779b9
  s_mov_b32 s6, 0x55555555                        // v_cndmask mask: lanes 0..31 alternate,
  s_mov_b32 s7, 0x0f0f0f0f                        // lanes 32..63 in nibbles
  s_mov_b32 s8, 0xffff
  v_mul_lo_u32 v1, v0, s4                         // h = l * 0x9e3779b9
  v_lshrrev_b32 v2, 7, v1                         // h >> 7
  v_xor_b32 v1, v2, v1                            // g = h ^ (h >> 7)
  v_lshl_add_u32 v3, v0, 4, v1                    // (l << 4) + g
  v_and_or_b32 v4, v3, s8, v2                     // (v3 & 0xffff) | (h >> 7)
  v_cndmask_b32_e64 v5, v1, v3, s[6:7]            // mask ? v3 : g
  v_bfi_b32 v6, s4, v1, v3                        // (s4 & g) | (~s4 & v3)
  v_add3_u32 v7, v1, v3, 5
  v_lshlrev_b32 v8, 2, v0                         // byte offset
  s_mov_b32 exec_lo, 0xffff                       // lanes 0..15
  s_mov_b32 exec_hi, 0
  v_add_u32 v9, v0, v0
  v_xor_b32 v9, v9, v1                            // (2 l) ^ g; other lanes keep 0
  s_mov_b64 exec, -1
  s_waitcnt lgkmcnt(0)
  global_store_dword v8, v1, s[2:3]
  global_store_dword v8, v3, s[2:3] offset:256
  global_store_dword v8, v4, s[2:3] offset:512
  global_store_dword v8, v5, s[2:3] offset:768
  global_store_dword v8, v6, s[2:3] offset:1024
  global_store_dword v8, v7, s[2:3] offset:1280
  global_store_dword v8, v9, s[2:3] offset:1536
  s_endpgm

.global fuse_nowait
.p2align 8
.type fuse_nowait,@function
fuse_nowait:
  v_lshlrev_b32 v1, 2, v0
  ds_write_b32 v1, v0
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v5, v1
  v_add_u32 v2, v0, v0
  v_xor_b32 v3, v2, v0
  v_mov_b32 v4, v5                                // v5 still in flight
  v_or_b32 v6, v4, v0
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel fuse_ok
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel fuse_nowait
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_group_segment_fixed_size 256
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: fuse_ok
    .symbol: fuse_ok.kd
    .sgpr_count: 16
    .vgpr_count: 16
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
  - .name: fuse_nowait
    .symbol: fuse_nowait.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
