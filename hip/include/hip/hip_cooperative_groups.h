// hip/hip_cooperative_groups.h — HIP's cooperative groups (namespace cooperative_groups), for
// lanelab's HIP headers. Written here from HIP's documented interface (ROCm's "Cooperative
// groups" programming guide and hip/amd_detail/amd_hip_cooperative_groups.h):
//   thread_block   this_thread_block(): the work-group; thread_rank() is the linear thread id,
//                  size() the work-group's size, sync() is __syncthreads();
//   thread_block_tile<N>  tiled_partition<N>(parent), N a power of two up to 64 (a wave64 tile
//                  never crosses a wave): ranks are consecutive linear thread ids of the block,
//                  thread_rank() = block rank mod N, meta_group_rank() = block rank / N; shfl,
//                  shfl_up, shfl_down, shfl_xor within the tile (HIP's __shfl* with width N),
//                  ballot (bit r is the tile's rank r), any, all, match_any, match_all, sync();
//   thread_group   tiled_partition(parent, n): a tile of runtime size n (a power of two up to
//                  64) with size(), thread_rank(), sync();
//   coalesced_group  coalesced_threads(): the active lanes of the wave, ranked in lane order;
//                  shfl, shfl_up, shfl_down in rank space, ballot/any/all, match_any/match_all
//                  (rank bits), sync(); binary_partition(group or tile, pred): the lanes whose
//                  pred equals the caller's; tiled_partition(coalesced group, n): its ranks in
//                  runs of n, the caller's run;
//   grid_group     this_grid(): size() and thread_rank() over the grid; is_valid() is true in a
//                  cooperative launch (hipLaunchCooperativeKernel) and false in any other, and
//                  sync() is the grid-wide barrier of a cooperative launch (below); outside one
//                  it traps, as no barrier block was passed;
//   reduce(tile, v, op) with plus, less (the smaller), greater (the larger), bit_and, bit_or,
//   bit_xor: every thread of the tile receives the reduction; sync(g), group_size(g),
//   thread_rank(g).
// Multi-grid groups are not provided (no multi-device launch).
#ifndef LANELAB_HIP_COOPERATIVE_GROUPS_H
#define LANELAB_HIP_COOPERATIVE_GROUPS_H
#include "hip/hip_runtime.h"

namespace cooperative_groups {
namespace internal {
enum group_type { cg_thread_block, cg_tiled_group, cg_coalesced_group, cg_grid };
__device__ inline unsigned block_rank() {
  return (__builtin_amdgcn_workitem_id_z() * __builtin_amdgcn_workgroup_size_y() + __builtin_amdgcn_workitem_id_y()) *
             __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}
__device__ inline unsigned block_size() {
  return (unsigned)__builtin_amdgcn_workgroup_size_x() * __builtin_amdgcn_workgroup_size_y() *
         __builtin_amdgcn_workgroup_size_z();
}
// A runtime tile size: a power of two up to 64; another traps (HIP asserts it).
__device__ inline void tile_size_check(unsigned n) {
  if (n == 0 || n > 64 || (n & (n - 1)) != 0) __builtin_trap();
}
// Lanes of the caller's tile of n (a power of two <= 64) in the wave, as a mask.
__device__ inline unsigned long long tile_lanes(unsigned n) {
  const unsigned base = __lane_id() & ~(n - 1);
  return (n >= 64 ? ~0ull : ((1ull << n) - 1)) << base;
}
__device__ inline void wave_sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
// The grid-wide barrier. Facts from ROCm's device library (ockl cg.cl, __ockl_grid_sync as built
// for gfx940-gfx942): a cooperative launch passes in the hidden argument
// hidden_multigrid_sync_arg (the 12th 8-byte implicit argument, byte 88 under code object v5) a
// block whose 32-bit word at byte 32 is the barrier's counter and at byte 40 the number of
// workgroups n; one work-item of each workgroup adds 1 to the counter; the one that finds
// n - 1 in its low 16 bits adds 0x10000 - n (the generation in bits 16-31 moves on and the
// count returns to 0); the others sleep until the generation moves. Written here with an
// agent-scope release by every thread before, and an agent-scope acquire by the waiting
// work-item before the workgroup barrier that lets the others go (and by every thread after it),
// so that each workgroup's writes before the barrier are seen by every workgroup after it, as
// HIP's memory model asks of grid.sync().
__device__ inline unsigned *grid_sync_block() {
  return *(unsigned *const __attribute__((address_space(4))) *)(
      (const __attribute__((address_space(4))) char *)__builtin_amdgcn_implicitarg_ptr() + 88);
}
__device__ inline void grid_sync() {
  unsigned *const b = grid_sync_block();
  if (!b) __builtin_trap(); // not a cooperative launch: there is no barrier to wait at
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  __builtin_amdgcn_s_barrier();
  if ((__builtin_amdgcn_workitem_id_x() | __builtin_amdgcn_workitem_id_y() | __builtin_amdgcn_workitem_id_z()) == 0) {
    unsigned *const count = b + 8; // byte 32
    const unsigned n = b[10];      // byte 40
    unsigned v = __hip_atomic_fetch_add(count, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    if ((v & 0xffffu) == n - 1) {
      __hip_atomic_fetch_add(count, 0x10000u - n, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    } else {
      v &= ~0xffffu;
      do {
        __builtin_amdgcn_s_sleep(1);
      } while ((__hip_atomic_load(count, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT) & ~0xffffu) == v);
    }
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
  }
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
}
} // namespace internal

class thread_group {
protected:
  internal::group_type type_;
  unsigned size_;
  __device__ thread_group(internal::group_type t, unsigned n) : type_(t), size_(n) {}

public:
  __device__ unsigned size() const { return size_; }
  __device__ unsigned num_threads() const { return size_; }
  __device__ unsigned thread_rank() const {
    switch (type_) {
    case internal::cg_thread_block: return internal::block_rank();
    case internal::cg_tiled_group: return internal::block_rank() & (size_ - 1);
    case internal::cg_coalesced_group:
      return (unsigned)__popcll(__builtin_amdgcn_read_exec() & ((1ull << __lane_id()) - 1));
    case internal::cg_grid: {
      const unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      return b * internal::block_size() + internal::block_rank();
    }
    }
    return 0;
  }
  __device__ bool is_valid() const { return type_ != internal::cg_grid || internal::grid_sync_block() != nullptr; }
  __device__ void sync() const {
    if (type_ == internal::cg_thread_block) __syncthreads();
    else if (type_ == internal::cg_grid) internal::grid_sync();
    else internal::wave_sync();
  }
};

class thread_block : public thread_group {
  friend __device__ thread_block this_thread_block();
  __device__ thread_block() : thread_group(internal::cg_thread_block, internal::block_size()) {}

public:
  __device__ unsigned thread_rank() const { return internal::block_rank(); }
  __device__ void sync() const { __syncthreads(); }
  __device__ bool is_valid() const { return true; }
  // the block's place in the grid, the thread's in the block, and the block's extent (HIP 6's
  // thread_block::group_index, thread_index, group_dim)
  static __device__ dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static __device__ dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};
__device__ inline thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
  friend __device__ grid_group this_grid();
  __device__ grid_group() : thread_group(internal::cg_grid, gridDim.x * gridDim.y * gridDim.z * internal::block_size()) {}

public:
  __device__ bool is_valid() const { return internal::grid_sync_block() != nullptr; }
  __device__ void sync() const { internal::grid_sync(); }
};
__device__ inline grid_group this_grid() { return grid_group(); }

template <unsigned N> class thread_block_tile;
class coalesced_group : public thread_group {
  friend __device__ coalesced_group coalesced_threads();
  unsigned long long mask_;
  __device__ explicit coalesced_group(unsigned long long m)
      : thread_group(internal::cg_coalesced_group, (unsigned)__popcll(m)), mask_(m) {}
  // The lane holding rank r (the r-th set bit of the mask); -1 when r is out of range.
  __device__ int lane_of(int r) const {
    unsigned long long m = mask_;
    for (int i = 0; i < r && m; i++) m &= m - 1;
    return m ? __builtin_ctzll(m) : -1;
  }

public:
  __device__ unsigned thread_rank() const { return (unsigned)__popcll(mask_ & ((1ull << __lane_id()) - 1)); }
  __device__ void sync() const { internal::wave_sync(); }
  __device__ unsigned meta_group_rank() const { return 0; }
  __device__ unsigned meta_group_size() const { return 1; }
  template <class T> __device__ T shfl(T v, int src_rank) const {
    const int l = lane_of(((unsigned)src_rank) % size_);
    return __shfl(v, l, 64);
  }
  // Ranks beyond the group return the caller's own value, as __shfl_down / __shfl_up do.
  template <class T> __device__ T shfl_down(T v, unsigned d) const {
    const int l = lane_of((int)(thread_rank() + d));
    return __shfl(v, thread_rank() + d < size_ && l >= 0 ? l : (int)__lane_id(), 64);
  }
  template <class T> __device__ T shfl_up(T v, unsigned d) const {
    const int r = (int)thread_rank() - (int)d;
    return __shfl(v, r >= 0 ? lane_of(r) : (int)__lane_id(), 64);
  }
  // Bit r of the result is the predicate of rank r.
  __device__ unsigned long long ballot(int pred) const { return ranks(__ballot(pred)); }
  // Over the group's own lanes (a binary_partition's group is fewer than the active lanes).
  __device__ int any(int pred) const { return (__ballot(pred) & mask_) != 0; }
  __device__ int all(int pred) const { return (__ballot(pred) & mask_) == mask_; }
  // Bit r of the result: rank r holds the same value as the caller (rank space, as ballot).
  template <class T> __device__ unsigned long long match_any(T v) const { return ranks(__match_any(v) & mask_); }
  // Every rank holds the same value: pred 1 and every rank's bit; else pred 0 and 0.
  template <class T> __device__ unsigned long long match_all(T v, int &pred) const {
    pred = (__match_any(v) & mask_) == mask_;
    return pred ? ranks(mask_) : 0;
  }

private:
  // the group's lanes among `lanes` as rank bits
  __device__ unsigned long long ranks(unsigned long long lanes) const {
    unsigned long long r = 0, m = mask_;
    for (int k = 0; m; k++, m &= m - 1)
      if (lanes >> __builtin_ctzll(m) & 1) r |= 1ull << k;
    return r;
  }
  template <unsigned N> friend __device__ coalesced_group binary_partition(const thread_block_tile<N> &, bool);
  friend __device__ coalesced_group binary_partition(const coalesced_group &, bool);
  friend __device__ coalesced_group tiled_partition(const coalesced_group &, unsigned);
};
__device__ inline coalesced_group coalesced_threads() { return coalesced_group(__builtin_amdgcn_read_exec()); }
// The group's lanes whose pred equals the caller's, ranked in lane order (HIP's binary_partition).
__device__ inline coalesced_group binary_partition(const coalesced_group &g, bool pred) {
  const unsigned long long b = __ballot(pred);
  return coalesced_group(g.mask_ & (pred ? b : ~b));
}

namespace internal {
template <unsigned N> struct tile_check {
  static_assert(N >= 1 && N <= 64 && (N & (N - 1)) == 0,
                "thread_block_tile<N>: N must be a power of two no larger than 64 (a tile must lie within one wave64)");
};
} // namespace internal

template <unsigned N> class thread_block_tile : public thread_group, internal::tile_check<N> {
  template <unsigned M, class P> friend __device__ thread_block_tile<M> tiled_partition(const P &);

public:
  __device__ thread_block_tile() : thread_group(internal::cg_tiled_group, N) {}
  static constexpr __device__ unsigned size() { return N; }
  static constexpr __device__ unsigned num_threads() { return N; }
  __device__ unsigned thread_rank() const { return internal::block_rank() & (N - 1); }
  __device__ unsigned meta_group_rank() const { return internal::block_rank() / N; }
  __device__ unsigned meta_group_size() const { return (internal::block_size() + N - 1) / N; }
  __device__ void sync() const { internal::wave_sync(); }
  __device__ bool is_valid() const { return true; }
  template <class T> __device__ T shfl(T v, int src_rank) const { return __shfl(v, src_rank, (int)N); }
  template <class T> __device__ T shfl_down(T v, unsigned d) const { return __shfl_down(v, d, (int)N); }
  template <class T> __device__ T shfl_up(T v, unsigned d) const { return __shfl_up(v, d, (int)N); }
  template <class T> __device__ T shfl_xor(T v, int m) const { return __shfl_xor(v, m, (int)N); }
  // Bit r of the result is the predicate of the tile's rank r.
  __device__ unsigned long long ballot(int pred) const {
    const unsigned long long lanes = internal::tile_lanes(N);
    return (__ballot(pred) & lanes) >> (__lane_id() & ~(N - 1));
  }
  __device__ int any(int pred) const { return ballot(pred) != 0; }
  __device__ int all(int pred) const {
    const unsigned long long lanes = internal::tile_lanes(N), active = __builtin_amdgcn_read_exec() & lanes;
    return (__ballot(pred) & lanes) == active;
  }
  template <class T> __device__ unsigned long long match_any(T v) const {
    return (__match_any(v) & internal::tile_lanes(N)) >> (__lane_id() & ~(N - 1));
  }
  template <class T> __device__ unsigned long long match_all(T v, int &pred) const {
    // all of the tile's lanes hold the same value as the tile's first active lane
    const unsigned long long lanes = internal::tile_lanes(N);
    const unsigned long long same = __match_any(v) & lanes, active = __builtin_amdgcn_read_exec() & lanes;
    pred = same == active;
    return pred ? active >> (__lane_id() & ~(N - 1)) : 0;
  }
};

template <unsigned N, class P> __device__ inline thread_block_tile<N> tiled_partition(const P &) {
  return thread_block_tile<N>();
}
// The tile's active lanes whose pred equals the caller's, as a coalesced group (HIP's).
template <unsigned N> __device__ inline coalesced_group binary_partition(const thread_block_tile<N> &, bool pred) {
  const unsigned long long b = __ballot(pred), lanes = internal::tile_lanes(N) & __builtin_amdgcn_read_exec();
  return coalesced_group(lanes & (pred ? b : ~b));
}

class tiled_group : public thread_group {
  friend __device__ thread_group tiled_partition(const thread_group &, unsigned);

public:
  __device__ explicit tiled_group(unsigned n) : thread_group(internal::cg_tiled_group, n) {}
};
// A tile of runtime size n: a power of two up to 64; another size traps (HIP asserts it).
__device__ inline thread_group tiled_partition(const thread_group &, unsigned n) {
  internal::tile_size_check(n);
  return tiled_group(n);
}
// A coalesced group's tiles (HIP's): its ranks in runs of n, the caller's run as a coalesced group;
// n a power of two up to 64, else a trap.
__device__ inline coalesced_group tiled_partition(const coalesced_group &g, unsigned n) {
  internal::tile_size_check(n);
  const unsigned mine = g.thread_rank() / n;
  unsigned long long out = 0, m = g.mask_;
  for (unsigned k = 0; m; k++, m &= m - 1)
    if (k / n == mine) out |= m & -m;
  return coalesced_group(out);
}

template <class G> __device__ inline void sync(const G &g) { g.sync(); }
template <class G> __device__ inline unsigned group_size(const G &g) { return g.size(); }
template <class G> __device__ inline unsigned thread_rank(const G &g) { return g.thread_rank(); }

// reduce: a butterfly over the tile with shfl_xor; every rank combines the same values in the
// same pairs, so each receives the same result for a commutative op (+ on floats included).
template <class T> struct plus {
  __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __device__ T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  __device__ T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  __device__ T operator()(const T &a, const T &b) const { return a ^ b; }
};
template <unsigned N, class T, class Op> __device__ inline T reduce(const thread_block_tile<N> &g, T v, Op op) {
  for (unsigned m = N / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, (int)m));
  return v;
}
} // namespace cooperative_groups

#endif // LANELAB_HIP_COOPERATIVE_GROUPS_H
