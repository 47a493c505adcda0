/* host_test — a project's own C test through lanelab's C API: load the saxpy code object, run it
 * on lanelab's emulator, compare with a plain loop. Exit 0 pass, 1 mismatch, 2+ error. */
#include <lanelab/lanelab.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: host_test SAXPY.co\n"); return 2; }
  enum { N = 1000 };
  static float x[N], y[N], out[N], want[N];
  for (int i = 0; i < N; i++) { x[i] = (float)i * 0.25f; y[i] = 1.0f - (float)i; want[i] = 3.0f * x[i] + y[i]; }
  lanelab_error e = {0};
  lanelab_device *d = lanelab_open("gfx950", "emu", &e);
  lanelab_module *m = d ? lanelab_load(d, argv[1], &e) : NULL;
  if (!m) { fprintf(stderr, "host_test: %s\n", e.msg); return e.code ? e.code : 2; }
  uint64_t dx = lanelab_alloc(d, sizeof x, &e), dy = lanelab_alloc(d, sizeof y, &e), dout = lanelab_alloc(d, sizeof out, &e);
  if (!dx || !dy || !dout || lanelab_write(d, dx, x, sizeof x, &e) || lanelab_write(d, dy, y, sizeof y, &e)) {
    fprintf(stderr, "host_test: %s\n", e.msg);
    return 2;
  }
  lanelab_arg args[] = {lanelab_ptr(dx), lanelab_ptr(dy), lanelab_ptr(dout), lanelab_f32(3.0f), lanelab_u32(N)};
  uint32_t grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
  if (lanelab_launch(m, "saxpy", grid, block, args, 5, NULL, &e) || lanelab_read(d, out, dout, sizeof out, &e)) {
    fprintf(stderr, "host_test: %s\n", e.msg);
    return e.code ? e.code : 2;
  }
  size_t first = 0;
  double max_abs = 0;
  size_t bad = lanelab_compare_f32(out, want, N, 1e-6, 1e-6, &first, &max_abs);
  lanelab_unload(m);
  lanelab_close(d);
  if (bad) {
    fprintf(stderr, "host_test: saxpy: %zu of %d outside tolerance; first out[%zu] = %g, expected %g\n", bad, N, first,
            out[first], want[first]);
    return 1;
  }
  printf("host_test: saxpy on the %s backend matches (%d elements, max abs error %g)\n", "emu", N, max_abs);
  return 0;
}
