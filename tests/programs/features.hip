// tests/programs/features — the small HIP programs of the corpus, built as one program: the
// program `features PART [ARGS]` runs tests/programs/features/PART.hip's main. Each part is a
// whole program as it stands (it includes what it uses and compiles alone with lanelab hipcc);
// here each is included with its main renamed. Why one program: a HIP compile's time is clang
// parsing the HIP and C++ standard headers, three times (host, gfx942, gfx950), about 5 s of CPU
// whatever the program's size, so N programs cost N times that in every build.
// A part's kernels, device variables and static helpers keep distinct names across parts (a
// clash is a compile error, never a silent mix-up).
#include <cstdio>
#include <cstring>
#include <type_traits>

#define main features_async_events
#include "features/async_events.hip"
#undef main
#define main features_constant_memory
#include "features/constant_memory.hip"
#undef main
#define main features_context_api
#include "features/context_api.hip"
#undef main
#define main features_device_assert
#include "features/device_assert.hip"
#undef main
#define main features_device_printf
#include "features/device_printf.hip"
#undef main
#define main features_device_props_tile
#include "features/device_props_tile.hip"
#undef main
#define main features_device_math
#include "features/device_math.hip"
#undef main
#define main features_device_heap
#include "features/device_heap.hip"
#undef main
#define main features_dynamic_shared
#include "features/dynamic_shared.hip"
#undef main
#define main features_faulting_kernel
#include "features/faulting_kernel.hip"
#undef main
#define main features_grid_sync
#include "features/grid_sync.hip"
#undef main
#define main features_graph_memory
#include "features/graph_memory.hip"
#undef main
#define main features_graphs
#include "features/graphs.hip"
#undef main
#define main features_hip_tests_idioms
#include "features/hip_tests_idioms.hip"
#undef main
#define main features_host_device_memory
#include "features/host_device_memory.hip"
#undef main
#define main features_ipc_handles
#include "features/ipc_handles.hip"
#undef main
#define main features_leaks_and_uaf
#include "features/leaks_and_uaf.hip"
#undef main
#define main features_managed_vars
#include "features/managed_vars.hip"
#undef main
#define main features_memory_pools
#include "features/memory_pools.hip"
#undef main
#define main features_module_load
#include "features/module_load.hip"
#undef main
#define main features_occupancy
#include "features/occupancy.hip"
#undef main
#define main features_pitched_3d
#include "features/pitched_3d.hip"
#undef main
#define main features_racy_shared
#include "features/racy_shared.hip"
#undef main
#define main features_reduction_streams
#include "features/reduction_streams.hip"
#undef main
#define main features_runtime_compilation
#include "features/runtime_compilation.hip"
#undef main
#define main features_stack_limit
#include "features/stack_limit.hip"
#undef main
#define main features_stream_values
#include "features/stream_values.hip"
#undef main
#define main features_template_ggl
#include "features/template_ggl.hip"
#undef main
#define main features_uninit_read
#include "features/uninit_read.hip"
#undef main

// A part's main takes (argc, argv) as the part's own program would get them, or nothing.
template <typename F> static int call_part(F f, int argc, char **argv) {
  if constexpr (std::is_invocable_v<F, int, char **>)
    return f(argc, argv);
  else
    return f();
}

int main(int argc, char **argv) {
#define PART(name) {#name, [](int c, char **v) { return call_part(features_##name, c, v); }}
  static const struct {
    const char *name;
    int (*run)(int, char **);
  } parts[] = {PART(async_events), PART(constant_memory), PART(context_api), PART(device_assert), PART(device_heap), PART(device_printf),
               PART(device_math), PART(device_props_tile), PART(dynamic_shared),
               PART(faulting_kernel), PART(graph_memory), PART(graphs), PART(grid_sync), PART(hip_tests_idioms), PART(host_device_memory), PART(ipc_handles),
               PART(leaks_and_uaf), PART(managed_vars), PART(memory_pools), PART(module_load), PART(occupancy), PART(pitched_3d),
               PART(racy_shared), PART(reduction_streams), PART(runtime_compilation), PART(stack_limit), PART(stream_values), PART(template_ggl),
               PART(uninit_read)};
#undef PART
  for (const auto &p : parts)
    if (argc >= 2 && !std::strcmp(argv[1], p.name)) {
      argv[1] = argv[0]; // the part sees its own arguments after its program name
      return p.run(argc - 1, argv + 1);
    }
  std::fprintf(stderr, "usage: %s PART [ARGS...]; parts:", argc ? argv[0] : "features");
  for (const auto &p : parts) std::fprintf(stderr, " %s", p.name);
  std::fprintf(stderr, "\n");
  return 2;
}
