// tests/asm/scratch.s — private (scratch) memory, hand-written for llvm-mc-22, gfx942 and gfx950 alike
// (docs/isa.md "Private memory (scratch)"). One wave of 64 lanes; lane l is v0. Each kernel's
// expected results are formulas in tests/test_emu_asm.c, from the ISA's rules:
//   private offset = (SADDR ? SGPR : 0) + (VADDR ? VGPR : 0) + inst_offset, in the lane's own segment
//   (CDNA3 ISA 10.1 Table 55 "SVE Bit": ST, SS, SV, SVS; 10.5 "Scratch"), a flat address in the
//   private aperture reaching the same segment at address - src_private_base.
//
//   priv_rw    (80 private bytes per lane, argument o): writes the segment with every form and
//              store size, partial EXEC and a misaligned dword, reads it back in another order with
//              other forms and sizes, and stores what it read to o: 16 dwords per lane at
//              o + 64 l (the segment's first 64 bytes), then 12 dwords per lane at o + 4096 + 64 l
//              (sub-dword and d16 loads, a partial-EXEC load, the flat private aperture).
//   priv_oob   (64 private bytes): lane l stores a dword at offset 4 l; lane 16 is the first past
//              the segment: fault "private out of range".
//   priv_nowait (16 private bytes): uses a scratch load's result before s_waitcnt vmcnt: fault
//              "missing s_waitcnt".

.text
.global priv_rw
.p2align 8
.type priv_rw,@function
priv_rw:
  s_load_dwordx2 s[2:3], s[0:1], 0x0             // o
  // ---- stores --------------------------------------------------------------------------------
  v_mad_u32_u24 v2, v0, 3, 1                      // 3l + 1
  scratch_store_dword off, v2, off                // ST: [0,4) = 3l + 1
  v_or_b32 v3, 0xaaaa0000, v0
  scratch_store_dword off, v3, off offset:4       // [4,8) = 0xaaaa0000 | l
  s_mov_b32 exec_lo, 0x55555555                   // even lanes
  s_mov_b32 exec_hi, 0x55555555
  v_or_b32 v3, 0xe000, v0
  scratch_store_dword off, v3, off offset:4       // even lanes: [4,8) = 0xe000 | l
  s_mov_b64 exec, -1
  s_mov_b32 s4, 8
  v_add_u32 v4, 100, v0
  v_xor_b32 v5, 0x55, v0
  scratch_store_dwordx2 off, v[4:5], s4           // SS: [8,16) = l + 100, l ^ 0x55
  v_or_b32 v20, 0xc0de0000, v0
  v_or_b32 v21, 0xc0de0100, v0
  v_or_b32 v22, 0xc0de0200, v0
  v_or_b32 v23, 0xc0de0300, v0
  scratch_store_dwordx4 off, v[20:23], off offset:16 // [16,32) dword k = 0xc0de0000 | k << 8 | l
  v_and_b32 v6, 3, v0
  v_lshl_add_u32 v6, v6, 2, 16                    // 16 + 4 (l & 3)
  v_or_b32 v7, 0x1000, v0
  scratch_store_dword v6, v7, off                 // SV: dword (l & 3) of [16,32) = 0x1000 | l
  s_mov_b32 s5, 12
  v_mov_b32 v8, 16
  v_lshlrev_b32 v10, 4, v0                        // 16 l + k
  v_add_u32 v11, 1, v10
  v_add_u32 v12, 2, v10
  scratch_store_dwordx3 v8, v[10:12], s5 offset:4 // SVS: 12 + 16 + 4 = 32: [32,44) = 16 l + k
  v_or_b32 v14, 0x12345680, v0
  scratch_store_byte off, v14, off offset:44      // byte 44 = 0x80 + l
  v_add_u32 v15, 1, v0
  v_lshlrev_b32 v15, 16, v15
  v_or_b32 v15, 0xffff, v15
  scratch_store_byte_d16_hi off, v15, off offset:45 // byte 45 = l + 1
  v_or_b32 v16, 0xdead7f00, v0
  scratch_store_short off, v16, off offset:46     // short 46 = 0x7f00 | l
  v_or_b32 v17, 0x8000, v0
  v_lshlrev_b32 v17, 16, v17
  v_or_b32 v17, 0x1111, v17
  scratch_store_short_d16_hi off, v17, off offset:48 // short 48 = 0x8000 | l
  v_or_b32 v18, 0xf000, v0
  scratch_store_short off, v18, off offset:50     // short 50 = 0xf000 | l
  v_or_b32 v24, 0x5a5a5a00, v0
  v_or_b32 v25, 0x6b6b6b00, v0
  v_or_b32 v26, 0x7c7c7c00, v0
  scratch_store_dwordx3 off, v[24:26], off offset:52 // [52,64)
  v_or_b32 v19, 0x11223300, v0
  scratch_store_dword off, v19, off offset:53     // misaligned: bytes 53..56 = l, 0x33, 0x22, 0x11
  s_mov_b64 s[10:11], src_private_base
  v_mov_b32 v40, 64
  v_mov_b32 v41, s11                              // flat address src_private_base + 64
  v_mul_u32_u24 v42, 5, v0
  v_not_b32 v43, v0
  flat_store_dwordx2 v[40:41], v[42:43]           // private [64,72) = 5 l, ~l
  // ---- loads, in another order ---------------------------------------------------------------
  v_mov_b32 v1, 48
  scratch_load_dwordx4 v[60:63], v1, off          // SV [48,64)
  s_mov_b32 s6, 40
  scratch_load_dwordx2 v[58:59], off, s6          // SS [40,48)
  s_mov_b32 s7, 30
  v_mov_b32 v2, 1
  scratch_load_dwordx2 v[56:57], v2, s7 offset:1  // SVS [32,40)
  scratch_load_dwordx3 v[52:54], off, off offset:16 // ST [16,28)
  scratch_load_dword v55, off, off offset:28      // [28,32)
  v_mov_b32 v3, 8
  scratch_load_dwordx4 v[48:51], v3, off offset:-8 // SV, negative offset: [0,16)
  v_mov_b32 v70, 0xcafebabe
  v_mov_b32 v71, 0xcafebabe
  v_mov_b32 v72, 0x12345678
  v_mov_b32 v73, 0x12345678
  v_mov_b32 v76, 0xdeadbeef
  scratch_load_sbyte v64, off, off offset:44
  scratch_load_ubyte v65, off, off offset:44
  scratch_load_sshort v66, off, off offset:48
  scratch_load_ushort v67, off, off offset:48
  scratch_load_short_d16 v70, off, off offset:50
  scratch_load_short_d16_hi v71, off, off offset:50
  scratch_load_ubyte_d16 v72, off, off offset:44
  scratch_load_sbyte_d16 v73, off, off offset:44
  s_waitcnt vmcnt(0)
  scratch_load_sbyte_d16_hi v72, off, off offset:44
  scratch_load_ubyte_d16_hi v73, off, off offset:45
  scratch_load_dwordx2 v[74:75], off, off offset:64 // what the flat store wrote
  s_mov_b32 exec_lo, 0xaaaaaaaa                   // odd lanes
  s_mov_b32 exec_hi, 0xaaaaaaaa
  scratch_load_dword v76, off, off                // odd lanes: 3l + 1; even lanes keep 0xdeadbeef
  s_mov_b64 exec, -1
  v_mov_b32 v4, 0
  v_mov_b32 v5, s11
  flat_load_dword v77, v[4:5]                     // flat, private aperture offset 0: 3l + 1
  v_mov_b32 v78, 0
  v_mov_b32 v79, 0
  // ---- out ----------------------------------------------------------------------------------
  v_lshlrev_b32 v80, 6, v0                        // 64 l
  v_add_u32 v81, 0x1000, v80                      // 4096 + 64 l
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dwordx4 v80, v[48:51], s[2:3]
  global_store_dwordx4 v80, v[52:55], s[2:3] offset:16
  global_store_dwordx4 v80, v[56:59], s[2:3] offset:32
  global_store_dwordx4 v80, v[60:63], s[2:3] offset:48
  global_store_dwordx4 v81, v[64:67], s[2:3]
  global_store_dwordx4 v81, v[70:73], s[2:3] offset:16
  global_store_dwordx4 v81, v[74:77], s[2:3] offset:32
  s_endpgm

.global priv_oob
.p2align 8
.type priv_oob,@function
priv_oob:
  v_lshlrev_b32 v1, 2, v0                         // 4 l
  scratch_store_dword v1, v0, off                 // lanes 16..63 are past the 64-byte segment
  s_endpgm

.global priv_nowait
.p2align 8
.type priv_nowait,@function
priv_nowait:
  scratch_store_dword off, v0, off
  scratch_load_dword v1, off, off
  v_add_u32 v2, v1, v1                            // v1 still in flight
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel priv_rw
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_private_segment_fixed_size 80
  .amdhsa_enable_private_segment 1
  .amdhsa_next_free_vgpr 96
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 96
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel priv_oob
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_private_segment_fixed_size 64
  .amdhsa_enable_private_segment 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel priv_nowait
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_private_segment_fixed_size 16
  .amdhsa_enable_private_segment 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: priv_rw
    .symbol: priv_rw.kd
    .sgpr_count: 16
    .vgpr_count: 96
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 80
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: o, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
  - .name: priv_oob
    .symbol: priv_oob.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 64
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: o, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
  - .name: priv_nowait
    .symbol: priv_nowait.kd
    .sgpr_count: 16
    .vgpr_count: 8
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: o, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
