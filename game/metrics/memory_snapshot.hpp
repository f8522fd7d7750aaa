#pragma once
// game::MemorySnapshot: the memory map of all four stores plus the allocator's and the kernel's
// figures, as of one step. The overlay refreshes it a few times a second (kRefreshSteps), the
// report and --memory-map take one at the end of a run. Buffers are kept between refreshes, so
// a refresh at a steady pool size allocates nothing.
//
// Pooled: each store's VectorPool occupancy, and the walk view over the order the store walks.
// Heap mode: a scatter of the objects' addresses in the order of the store's pointer array.
#include "metrics/heap_figures.hpp"
#include "metrics/memory_map.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

struct PoolMemory {
  PoolId id = PoolId::bullets;
  bool pooled = true;
  engine::StorageMode storage = engine::StorageMode::contiguous;
  std::size_t object_bytes = 0;  // sizeof the stored type: the stride of the pool's slots
  std::size_t bytes_held = 0;    // StoreStats::bytes_held
  MemoryMap map;
};

class MemorySnapshot {
 public:
  static constexpr std::uint64_t kRefreshSteps = 15;  // four refreshes a second at 60 steps a second

  void refresh(const Simulation& sim);  // reads everything now
  bool due(std::uint64_t step) const noexcept { return !taken_ || step >= step_ + kRefreshSteps || step < step_; }
  bool taken() const noexcept { return taken_; }
  std::uint64_t step() const noexcept { return step_; }

  const std::array<PoolMemory, kPoolCount>& pools() const noexcept { return pools_; }
  const HeapFigures& heap() const noexcept { return heap_; }
  std::size_t pools_bytes_held() const noexcept;  // all four stores

 private:
  template <class T>
  void take(PoolId id, const ObjectStore<T>& store);

  std::array<PoolMemory, kPoolCount> pools_{};
  HeapFigures heap_;
  std::vector<std::uint32_t> walk_;   // the walk order fed to the walk view, reused
  std::vector<const void*> scatter_;  // heap mode: the objects' addresses, reused
  std::uint64_t step_ = 0;
  bool taken_ = false;
};

// The report's "memory" section: per pool the run-length summary of its map, then the
// allocator figures and the resident set.
nlohmann::json memory_json(const MemorySnapshot& snapshot);

}  // namespace game
