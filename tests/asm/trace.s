// trace.s: traces, the translated runs joined across the guards of masked code (emu/jit.c), end to
// end (tests/test_emu_asm.c trace_*):
//   trace_guards (out: 11 x 128 dwords, out[k * 128 + tid]): 64 iterations of a loop whose body holds
//     the guard forms the emulator's traces take:
//       s_and_saveexec_b64 / s_cbranch_execz / s_or_b64 exec over code that a quarter of a wave's
//         lanes 0-15 run in one iteration each (tid & 3 picks iteration 14, 30, 46 or 62; the other
//         lanes never: the mask then nonzero in its first 16 bits only), SCC read after it;
//       s_cbranch_vccnz over code every lane runs in iterations 9 and 40 (vcc zero there);
//       s_cbranch_vccz over code every lane runs except in iteration 50.
//       s_and_saveexec_b64 / s_cbranch_execz / s_or_b64 exec over code every lane runs but a wave's
//         even lanes 48-62 in iteration 20 and its odd lanes 49-63 in 36 (the mask then all ones in
//         its first 48 bits), then s_cbranch_scc0 (never taken: SCC 1);
//       s_cbranch_scc1 over code every lane runs in iteration 33; s_branch over code never run.
//     So each guard holds in most iterations and fails in a few (a trace's side exit). sX (s[0:1])
//     is set to 0x5678_00001234 before each s_and_saveexec_b64, which overwrites it with EXEC.
//     Expected values: the formulas in the test.
//   trace_nowait: a loop with the same saveexec guard (never taken into its body) and a global load
//     issued at the end of iteration 11 whose register the next iteration's first record reads:
//     "missing s_waitcnt" there, with traces or without (a trace runs only with nothing
//     outstanding).
.text
.global trace_guards
.p2align 8
.type trace_guards,@function
trace_guards:
  s_load_dwordx2 s[2:3], s[0:1], 0x0              // out
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[28:29], 0
  s_mov_b32 s20, 0x1234
  s_mov_b32 s21, 0x5678
  s_mov_b32 s8, 0                                 // i
  s_mov_b32 s18, 0                                // iterations with SCC 1 after s_or_b64 exec
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v9, 0
  v_mov_b32 v12, 0
  v_mov_b32 v7, 0x64                              // 100: no iteration's
  v_and_b32 v5, 63, v0                            // the lane in its wave
  v_and_b32 v4, 3, v0
  v_lshl_add_u32 v6, v4, 4, 14                    // 14 + 16 (tid & 3): the lane's iteration in A,
  v_cmp_gt_u32 vcc, 16, v5                        // lanes 0-15 only
  v_cndmask_b32 v6, v7, v6, vcc
  v_mov_b32 v8, 9
  v_mov_b32 v11, 50
  v_mov_b32 v19, 0
  v_mov_b32 v20, 0
  v_and_b32 v21, 1, v0
  v_lshl_add_u32 v21, v21, 4, 20                  // 20 + 16 (tid & 1): the lane's iteration out of D,
  v_cmp_le_u32 vcc, 48, v5                        // lanes 48-63 only
  v_cndmask_b32 v21, v7, v21, vcc
.Lloop:
  v_add_u32 v1, v1, v0                            // tid (i + 1)
  s_mov_b64 s[0:1], s[20:21]                      // sX before each saveexec
  v_xor_b32 v2, v2, v1
  v_cmp_eq_u32 s[12:13], s8, v6
  s_and_saveexec_b64 s[0:1], s[12:13]             // A
  s_cbranch_execz .LskipA
  v_add_u32 v3, v3, v1
.LskipA:
  s_or_b64 exec, exec, s[0:1]
  s_cselect_b32 s17, 1, 0
  s_add_i32 s18, s18, s17
  s_cmp_ge_u32 s8, 31
  s_cselect_b32 s19, 31, 0
  s_sub_u32 s19, s8, s19                          // i, or i - 31 from 31 on: 9 in iterations 9 and 40
  v_cmp_ne_u32 vcc, s19, v8
  s_cbranch_vccnz .LskipB                         // B
  v_sub_u32 v9, v9, v0
.LskipB:
  v_cmp_ne_u32 vcc, s8, v11
  s_cbranch_vccz .LskipC                          // C
  v_add_u32 v12, v12, 3
.LskipC:
  v_cmp_ne_u32 s[22:23], s8, v21                  // D: every lane but the even ones of 48-63 in
  s_and_saveexec_b64 s[24:25], s[22:23]           // iteration 20, the odd ones in 36
  s_cbranch_execz .LskipD
  v_add_u32 v19, v19, 1
  s_and_b64 s[26:27], s[26:27], s[28:29]          // zero: SCC 0 here, s_or_b64 exec sets it to 1
.LskipD:
  s_or_b64 exec, exec, s[24:25]
  s_cbranch_scc0 .Lbad                            // never taken: SCC is 1 after s_or_b64 exec
  v_xor_b32 v23, v23, v0                          // a lane record: the compare joins its run
  s_cmp_lg_u32 s8, 33
  s_cbranch_scc1 .LskipE                          // E: taken but in iteration 33
  v_add_u32 v20, v20, v0
.LskipE:
  s_branch .LjoinF
.Lbad:
  v_add_u32 v19, 0x3e8, v19
.LjoinF:
  v_lshl_add_u32 v13, v12, 1, v9
  s_add_u32 s8, s8, 1
  s_cmp_lt_u32 s8, 64
  s_cbranch_scc1 .Lloop
  v_lshlrev_b32 v14, 2, v0
  v_add_u32 v18, 0x800, v14
  v_mov_b32 v15, s0
  v_mov_b32 v16, s1
  v_mov_b32 v17, s18
  global_store_dword v14, v1, s[2:3]
  global_store_dword v14, v2, s[2:3] offset:512
  global_store_dword v14, v3, s[2:3] offset:1024
  global_store_dword v14, v9, s[2:3] offset:1536
  global_store_dword v18, v12, s[2:3]
  global_store_dword v18, v13, s[2:3] offset:512
  global_store_dword v18, v15, s[2:3] offset:1024
  global_store_dword v18, v16, s[2:3] offset:1536
  global_store_dword v18, v17, s[2:3] offset:2048
  v_add_u32 v22, 0x1200, v14
  global_store_dword v22, v19, s[2:3]
  global_store_dword v22, v20, s[2:3] offset:512
  s_endpgm

.global trace_nowait
.p2align 8
.type trace_nowait,@function
trace_nowait:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, 0
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v20, 0
  v_mov_b32 v6, 100                               // no iteration's: the guard holds every time
  v_lshlrev_b32 v14, 2, v0
.Lnw_loop:
  v_add_u32 v1, v1, v20                           // v20 in flight after iteration 11
  v_cmp_eq_u32 s[12:13], s8, v6
  s_and_saveexec_b64 s[0:1], s[12:13]
  s_cbranch_execz .Lnw_skip
  v_add_u32 v3, v3, v1
.Lnw_skip:
  s_or_b64 exec, exec, s[0:1]
  v_add_u32 v2, v2, v0
  s_add_u32 s8, s8, 1
  s_cmp_eq_u32 s8, 12
  s_cbranch_scc0 .Lnw_noload
  global_load_dword v20, v14, s[2:3]
.Lnw_noload:
  s_cmp_lt_u32 s8, 64
  s_cbranch_scc1 .Lnw_loop
  s_waitcnt vmcnt(0)
  global_store_dword v14, v1, s[2:3]
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel trace_guards
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 32
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel trace_nowait
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 24
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: trace_guards
    .symbol: trace_guards.kd
    .sgpr_count: 32
    .vgpr_count: 32
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
  - .name: trace_nowait
    .symbol: trace_nowait.kd
    .sgpr_count: 24
    .vgpr_count: 24
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .max_flat_workgroup_size: 128
    .args:
    - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
