// isa_census — a kernel with a known number of each guarded instruction, for tests/test_isa.c.
// Built by the test itself (not by make kernels); only clang builtins, no lanelab headers.
// Expected census, from this source:
//   ds_bpermute_b32 3 (three __builtin_amdgcn_ds_bpermute with different addresses, all feeding
//   the output), ds_swizzle_b32 1, DPP-controlled instructions 2 (two update_dpp), v_mfma_* 1
//   (one 16x16x16 f16 MFMA), global_store_dwordx4 with nt 1 (four nontemporal stores to
//   consecutive dwords coalesce into one dwordx4 nt store: docs/isa.md, docs/changes.md, change 002),
//   ds_read_b64_tr_b16 1 on gfx950 only; kernel isa_census_plain: no cross-lane op, 1
//   global_store_dword. -DISA_XOR=N changes one shuffle's lane mask (for the diff tests).
#ifndef ISA_XOR
#define ISA_XOR 1
#endif
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef short s4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));

extern "C" __attribute__((global)) void isa_census(float *out, const int *in) {
  const int l = __builtin_amdgcn_workitem_id_x();
  const int v = in[l];
  const int a = __builtin_amdgcn_ds_bpermute((l ^ ISA_XOR) * 4, v);
  const int b = __builtin_amdgcn_ds_bpermute((l ^ 2) * 4, v + 1);
  const int c = __builtin_amdgcn_ds_bpermute((l ^ 4) * 4, v + 2);
  const int s = __builtin_amdgcn_ds_swizzle(v, 0x041F);
  const int d0 = __builtin_amdgcn_update_dpp(0, v, 0xB1, 0xF, 0xF, false);
  const int d1 = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xF, 0xF, false);
  h4 x = {(_Float16)a, (_Float16)b, (_Float16)c, (_Float16)s};
  h4 y = {(_Float16)d0, (_Float16)d1, (_Float16)1, (_Float16)2};
#if defined(__gfx950__)
  __attribute__((shared)) short lds[256];
  lds[l] = (short)v;
  lds[l + 64] = (short)(v >> 16);
  __builtin_amdgcn_s_barrier();
  s4 t = __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) s4 *)
                                                  ((__attribute__((address_space(3))) short *)lds + 4 * l));
  y[2] = (_Float16)t[0] + (_Float16)t[1] + (_Float16)t[2] + (_Float16)t[3];
#endif
  f4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, acc, 0, 0, 0);
  for (int i = 0; i < 4; i++) __builtin_nontemporal_store(acc[i], &out[4 * l + i]);
}

extern "C" __attribute__((global)) void isa_census_plain(float *out) {
  out[__builtin_amdgcn_workitem_id_x()] = 1.0f;
}
