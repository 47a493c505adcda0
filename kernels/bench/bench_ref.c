/* C references for the throughput kernels (kernels/manifest.json, lanelab/ref.h "abi": "call"),
 * so `make verify` checks what they compute and no file in kernels/ goes unchecked. Each follows
 * its kernel's source line by line for every lane of every workgroup (one 64-lane wave each). */
#include <lanelab/ref.h>
#include <stdio.h>

/* bench_valu_ds(float *out, int iters): the wave runs in lock step, so in each iteration every
 * lane's LDS write lands before any lane reads its neighbour's slot. */
int bench_valu_ds_ref(lanelab_ref_call *c) {
  float *out = (float *)c->args[0].data;
  int32_t iters = *(const int32_t *)c->args[1].data;
  if (c->block[0] != 64 || c->block[1] * c->block[2] != 1) {
    snprintf(c->error, c->error_size, "bench_valu_ds is written for one 64-lane wave per workgroup");
    return 1;
  }
  for (uint32_t wg = 0; wg < c->grid[0]; wg++) {
    float a[64], b[64], cc[64], lds[64];
    uint32_t u[64];
    for (uint32_t t = 0; t < 64; t++) { a[t] = (float)t * 0.5f; b[t] = 1.0f; cc[t] = 0.0f; u[t] = t * 2654435761u; }
    for (int32_t i = 0; i < iters; i++) {
      for (uint32_t t = 0; t < 64; t++) {
        a[t] = a[t] * 1.0001f + b[t];
        b[t] = b[t] * 0.999f - cc[t] * 0.5f;
        u[t] = (u[t] ^ (u[t] << 3)) + 0x9e3779b9u;
        u[t] ^= u[t] >> 7;
        lds[t] = a[t] + (float)(u[t] & 255);
      }
      for (uint32_t t = 0; t < 64; t++) cc[t] += lds[(t + 1) & 63];
    }
    for (uint32_t t = 0; t < 64; t++) out[wg * 64 + t] = a[t] + b[t] + cc[t] + (float)(u[t] & 1023);
  }
  return 0;
}

/* bench_valu(float *out, int iters): x = x * m + c on the pair (t/4, 1), m = (0.999, 0.9999),
 * c = (0.5, -0.25), then x.x + x.y per lane. */
int bench_valu_ref(lanelab_ref_call *c) {
  float *out = (float *)c->args[0].data;
  int32_t iters = *(const int32_t *)c->args[1].data;
  if (c->block[0] != 64 || c->block[1] * c->block[2] != 1) {
    snprintf(c->error, c->error_size, "bench_valu is written for one 64-lane wave per workgroup");
    return 1;
  }
  for (uint32_t wg = 0; wg < c->grid[0]; wg++)
    for (uint32_t t = 0; t < 64; t++) {
      float x = (float)t * 0.25f, y = 1.0f;
      for (int32_t i = 0; i < iters; i++) x = x * 0.999f + 0.5f, y = y * 0.9999f - 0.25f;
      out[wg * 64 + t] = x + y;
    }
  return 0;
}

/* bench_mfma(float *out, int iters): acc = A*B + acc with v_mfma_f32_16x16x16_f16, whose operand
 * layout (AMD's MI300 ISA guide, the 16x16x16 f16 MFMA; `lanelab mfma v_mfma_f32_16x16x16_f16`)
 * is: lane l holds A[l%16][4*(l/16)+i] and B[4*(l/16)+i][l%16] for i = 0..3 of its 4 halves, and
 * D[4*(l/16)+j][l%16] for j = 0..3 of its 4 floats. Each lane's a.x (i = 0) steps by 0.001,
 * rounded to half, after every MFMA. */
int bench_mfma_ref(lanelab_ref_call *c) {
  float *out = (float *)c->args[0].data;
  int32_t iters = *(const int32_t *)c->args[1].data;
  float A[16][16], B[16][16], D[16][16] = {{0}};
  for (uint32_t l = 0; l < 64; l++) {
    float av[4] = {(float)(l & 7), 1.0f, 0.5f, (float)(l >> 4)};
    float bv[4] = {0.25f, (float)(l & 3), 1.0f, -1.0f};
    for (int i = 0; i < 4; i++) { A[l % 16][4 * (l / 16) + i] = av[i]; B[4 * (l / 16) + i][l % 16] = bv[i]; }
  }
  for (int32_t it = 0; it < iters; it++) {
    float N[16][16];
    for (int r = 0; r < 16; r++)
      for (int col = 0; col < 16; col++) {
        float s = D[r][col];
        for (int k = 0; k < 16; k++) s += A[r][k] * B[k][col]; /* half x half is exact in float */
        N[r][col] = s;
      }
    for (int r = 0; r < 16; r++)
      for (int col = 0; col < 16; col++) D[r][col] = N[r][col];
    for (uint32_t l = 0; l < 64; l++) {
      float *x = &A[l % 16][4 * (l / 16)];
      *x = lanelab_half_to_float(lanelab_float_to_half(*x + 0.001f));
    }
  }
  for (uint32_t wg = 0; wg < c->grid[0]; wg++)
    for (uint32_t l = 0; l < 64; l++) {
      uint32_t col = l % 16, r0 = 4 * (l / 16);
      out[wg * 64 + l] = D[r0][col] + D[r0 + 1][col] + D[r0 + 2][col] + D[r0 + 3][col];
    }
  return 0;
}
