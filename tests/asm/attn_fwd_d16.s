// tests/asm/attn_fwd_d16.s — a hand-written attention forward kernel in the style of AMD's aiter
// assembly kernels (ROCm/aiter hsa/*/fmha_*.s): one wave computes O = softmax(Q K^T * scale) V for
// 16 query rows, 32 keys, head dim 16, fp16 in, f32 out. Written for llvm-mc-22; assemble with
//   llvm-mc -triple=amdgcn-amd-amdhsa --mcpu=gfx950 --defsym GFX950=1 -filetype=obj
//   llvm-mc -triple=amdgcn-amd-amdhsa --mcpu=gfx942 -filetype=obj
// and link with ld.lld -shared. Like aiter's kernels it carries its own metadata block
// (amdhsa.version [1, 0]), no .size and no .amdhsa_kernarg_size (descriptor kernarg size 0).
//
// Data flow (lane L, g = L/16, n = L%16; MFMA layouts from the CDNA3/CDNA4 ISA, v_mfma_f32_16x16x16_f16):
//   1. K and V (32x16 fp16 each, row-major) go global -> LDS with buffer_load_dword ... lds
//      (M0 = LDS base; K at 0, V at 1024).
//   2. S^T = K Q^T per 16-key block b: A = K rows (lane n + 16*(d/4), items d%4: ds_read_b64),
//      B = Q^T (the same pattern from global Q). Result: lane n holds S[i = n][j = 16b + 4g + r]
//      in VGPR r.
//   3. softmax over j for row i = n: max/sum over the 8 values of the lane, then across the lanes
//      n, n+16, n+32, n+48: xor 16 with ds_swizzle (SWAP 16), xor 32 with v_permlane32_swap_b32
//      v, v (gfx950) or ds_bpermute (gfx942). exp via v_exp_f32 (2^x) with scale*log2(e) folded in.
//   4. P (f32) packed to f16 in the MFMA A layout it is already in (lane i + 16*(j/4), item j%4).
//   5. B = V block: lane d + 16*(j/4) needs V[16b + 4g + t][d], t = 0..3: on gfx950 one
//      ds_read_b64_tr_b16 (lane L reads V row 4g + (L%16)/4, columns 4*(L%4)..+3; the transposing
//      read hands each lane its column), on gfx942 four ds_read_u16_d16(_hi).
//   6. O[i][d] accumulates over the two blocks: lane d + 16*(i/4), VGPR i%4; stored as f32.
// Arguments: q, k, v (fp16 device pointers), o (f32 device pointer).

.text
.global attn_fwd_d16
.p2align 8
.type attn_fwd_d16,@function
attn_fwd_d16:
  s_load_dwordx8 s[4:11], s[0:1], 0x0            // q s[4:5], k s[6:7], v s[8:9], o s[10:11]
  v_and_b32 v1, 15, v0                           // n = L % 16
  v_lshrrev_b32 v2, 4, v0                        // g = L / 16
  v_lshlrev_b32 v3, 2, v0                        // L * 4: voffset for the LDS copies
  s_mov_b32 s14, 1024                            // K, V: 32 x 16 fp16 = 1024 bytes each
  s_mov_b32 s15, 0x00020000
  s_mov_b32 s18, 1024
  s_mov_b32 s19, 0x00020000
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s12, s6                              // K buffer resource s[12:15]
  s_and_b32 s13, s7, 0xffff
  s_mov_b32 s16, s8                              // V buffer resource s[16:19]
  s_and_b32 s17, s9, 0xffff

  // ---- 1. K, V -> LDS (4 x 256 bytes each) ----
  s_mov_b32 m0, 0
  buffer_load_dword v3, s[12:15], 0 offen lds
  buffer_load_dword v3, s[12:15], 0 offen offset:256 lds
  buffer_load_dword v3, s[12:15], 0 offen offset:512 lds
  buffer_load_dword v3, s[12:15], 0 offen offset:768 lds
  s_mov_b32 m0, 1024
  buffer_load_dword v3, s[16:19], 0 offen lds
  buffer_load_dword v3, s[16:19], 0 offen offset:256 lds
  buffer_load_dword v3, s[16:19], 0 offen offset:512 lds
  buffer_load_dword v3, s[16:19], 0 offen offset:768 lds

  // Q^T operand: lane reads Q[n][4g .. 4g+3] (8 bytes) at n*32 + g*8
  v_lshlrev_b32 v4, 5, v1
  v_lshl_add_u32 v4, v2, 3, v4                   // v4 = n*32 + g*8 (also K's A address in LDS)
  global_load_dwordx2 v[6:7], v4, s[4:5]
  s_waitcnt vmcnt(0)
  s_barrier

  // ---- 2. S^T blocks ----
  ds_read_b64 v[8:9], v4                         // K rows 0..15
  ds_read_b64 v[10:11], v4 offset:512            // K rows 16..31
  s_waitcnt lgkmcnt(0)
  v_mfma_f32_16x16x16_f16 v[12:15], v[8:9], v[6:7], 0
  v_mfma_f32_16x16x16_f16 v[16:19], v[10:11], v[6:7], 0
  s_nop 7
  s_nop 7

  // ---- 3. softmax over the 32 keys of row n ----
  s_mov_b32 s20, 0x3eb8aa3b                      // scale * log2(e) = 0.25 * 1.4426950
  v_mul_f32 v12, s20, v12
  v_mul_f32 v13, s20, v13
  v_mul_f32 v14, s20, v14
  v_mul_f32 v15, s20, v15
  v_mul_f32 v16, s20, v16
  v_mul_f32 v17, s20, v17
  v_mul_f32 v18, s20, v18
  v_mul_f32 v19, s20, v19
  v_max3_f32 v20, v12, v13, v14
  v_max3_f32 v20, v20, v15, v16
  v_max3_f32 v20, v20, v17, v18
  v_max_f32 v20, v20, v19
  ds_swizzle_b32 v21, v20 offset:swizzle(SWAP,16)
  s_waitcnt lgkmcnt(0)
  v_max_f32 v20, v20, v21
.ifdef GFX950
  v_mov_b32 v21, v20
  v_permlane32_swap_b32 v21, v21                 // v21 = v20 of lane L ^ 32
.else
  v_xor_b32 v22, 32, v0
  v_lshlrev_b32 v22, 2, v22
  ds_bpermute_b32 v21, v22, v20                  // v21 = v20 of lane L ^ 32
  s_waitcnt lgkmcnt(0)
.endif
  v_max_f32 v20, v20, v21                        // row max
  v_sub_f32 v12, v12, v20
  v_sub_f32 v13, v13, v20
  v_sub_f32 v14, v14, v20
  v_sub_f32 v15, v15, v20
  v_sub_f32 v16, v16, v20
  v_sub_f32 v17, v17, v20
  v_sub_f32 v18, v18, v20
  v_sub_f32 v19, v19, v20
  v_exp_f32 v12, v12
  v_exp_f32 v13, v13
  v_exp_f32 v14, v14
  v_exp_f32 v15, v15
  v_exp_f32 v16, v16
  v_exp_f32 v17, v17
  v_exp_f32 v18, v18
  v_exp_f32 v19, v19
  v_add_f32 v20, v12, v13
  v_add_f32 v20, v20, v14
  v_add_f32 v20, v20, v15
  v_add_f32 v20, v20, v16
  v_add_f32 v20, v20, v17
  v_add_f32 v20, v20, v18
  v_add_f32 v20, v20, v19
  ds_swizzle_b32 v21, v20 offset:swizzle(SWAP,16)
  s_waitcnt lgkmcnt(0)
  v_add_f32 v20, v20, v21
.ifdef GFX950
  v_mov_b32 v21, v20
  v_permlane32_swap_b32 v21, v21
.else
  ds_bpermute_b32 v21, v22, v20
  s_waitcnt lgkmcnt(0)
.endif
  v_add_f32 v20, v20, v21                        // row sum
  v_rcp_f32 v20, v20
  v_mul_f32 v12, v12, v20
  v_mul_f32 v13, v13, v20
  v_mul_f32 v14, v14, v20
  v_mul_f32 v15, v15, v20
  v_mul_f32 v16, v16, v20
  v_mul_f32 v17, v17, v20
  v_mul_f32 v18, v18, v20
  v_mul_f32 v19, v19, v20

  // ---- 4. P -> fp16, MFMA A layout ----
.ifdef GFX950
  v_cvt_pk_f16_f32 v24, v12, v13
  v_cvt_pk_f16_f32 v25, v14, v15
  v_cvt_pk_f16_f32 v26, v16, v17
  v_cvt_pk_f16_f32 v27, v18, v19
.else
  v_cvt_f16_f32 v24, v12
  v_cvt_f16_f32 v28, v13
  v_pack_b32_f16 v24, v24, v28
  v_cvt_f16_f32 v25, v14
  v_cvt_f16_f32 v28, v15
  v_pack_b32_f16 v25, v25, v28
  v_cvt_f16_f32 v26, v16
  v_cvt_f16_f32 v28, v17
  v_pack_b32_f16 v26, v26, v28
  v_cvt_f16_f32 v27, v18
  v_cvt_f16_f32 v28, v19
  v_pack_b32_f16 v27, v27, v28
.endif

  // ---- 5. V operand ----
.ifdef GFX950
  // lane L reads V row 4g + (L%16)/4, columns 4*(L%4)..+3: byte (4g + (L%16)/4)*32 + (L%4)*8
  v_lshrrev_b32 v29, 2, v1                       // (L%16)/4
  v_lshl_add_u32 v29, v2, 2, v29                 // row = 4g + (L%16)/4
  v_lshlrev_b32 v29, 5, v29
  v_and_b32 v30, 3, v0
  v_lshl_add_u32 v29, v30, 3, v29
  ds_read_b64_tr_b16 v[32:33], v29 offset:1024   // keys 0..15
  ds_read_b64_tr_b16 v[34:35], v29 offset:1536   // keys 16..31
.else
  // lane L reads V[4g + t][n], t = 0..3: byte g*128 + n*2 + t*32
  v_lshlrev_b32 v29, 7, v2
  v_lshl_add_u32 v29, v1, 1, v29
  ds_read_u16_d16 v32, v29 offset:1024
  ds_read_u16_d16_hi v32, v29 offset:1056
  ds_read_u16_d16 v33, v29 offset:1088
  ds_read_u16_d16_hi v33, v29 offset:1120
  ds_read_u16_d16 v34, v29 offset:1536
  ds_read_u16_d16_hi v34, v29 offset:1568
  ds_read_u16_d16 v35, v29 offset:1600
  ds_read_u16_d16_hi v35, v29 offset:1632
.endif
  s_waitcnt lgkmcnt(0)

  // ---- 6. O = P V ----
  v_mfma_f32_16x16x16_f16 v[36:39], v[24:25], v[32:33], 0
  v_mfma_f32_16x16x16_f16 v[36:39], v[26:27], v[34:35], v[36:39]
  s_nop 7
  s_nop 7
  // O[i = 4g + r][d = n] at byte (4g + r)*64 + n*4
  v_lshlrev_b32 v40, 8, v2
  v_lshl_add_u32 v40, v1, 2, v40
  global_store_dword v40, v36, s[10:11]
  global_store_dword v40, v37, s[10:11] offset:64
  global_store_dword v40, v38, s[10:11] offset:128
  global_store_dword v40, v39, s[10:11] offset:192
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel attn_fwd_d16
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 48
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 48
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: attn_fwd_d16
    .symbol: attn_fwd_d16.kd
    .sgpr_count: 24
    .vgpr_count: 48
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 64
    .args:
    - { .name: q, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
    - { .name: k, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
    - { .name: v, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global }
    - { .name: o, .size: 8, .offset: 24, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
