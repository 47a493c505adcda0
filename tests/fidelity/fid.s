// tests/fidelity/fid.s — one small hand-written kernel for the fidelity report
// (docs/fidelity.md), written for llvm-mc-22, gfx942 and gfx950 alike. One wave of 64 lanes,
// arguments x (in, 64 dwords) and o (out, 128 dwords).
//
// Assembled without CHOICE, every instruction has semantics from AMD's documents only:
//   o[i] = x[i] + 1, o[64 + i] = x[i] * 2.
// With --defsym CHOICE=1 two instructions resting on stated choices replace those results:
//   v_exp_f32 (transcendental-rounding): o[i] = 2^x[i]
//   v_cvt_pk_u16_u32 (cvt-pk-int-saturate): o[64 + i] = {sat16(x[i] * 2), sat16(x[i])}

.text
.global fid
.p2align 8
.type fid,@function
fid:
  s_load_dwordx4 s[4:7], s[0:1], 0x0             // x s[4:5], o s[6:7]
  v_lshlrev_b32 v1, 2, v0                        // byte offset of lane L
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v4, v2, v2                           // x * 2
.ifdef CHOICE
  v_exp_f32 v3, v2
  v_cvt_pk_u16_u32 v4, v2, v4
.else
  v_add_u32 v3, 1, v2
  v_mov_b32 v4, v4
.endif
  global_store_dword v1, v3, s[6:7]
  v_add_u32 v1, 0x100, v1
  global_store_dword v1, v4, s[6:7]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel fid
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: fid
    .symbol: fid.kd
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
