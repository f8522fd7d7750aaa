#include "metrics/memory_snapshot.hpp"

#include <nlohmann/json.hpp>

#include <numeric>

namespace game {

template <class T>
void MemorySnapshot::take(PoolId id, const ObjectStore<T>& store) {
  PoolMemory& m = pools_[static_cast<std::size_t>(id)];
  m.id = id;
  m.pooled = store.pooled();
  m.storage = store.policy().storage;
  m.object_bytes = sizeof(T);
  m.bytes_held = store.stats().bytes_held;
  if (m.pooled) {
    m.map.build(store.pool(), sizeof(T));
    // The walk view: the order the store's update() walks its objects. A list walk goes
    // through the manager's active-index list (then the spawns queued since its last update);
    // the bitmap walk goes in slot order.
    walk_.reserve(store.pool().capacity());  // allocates only after the pool grew
    const bool packed = is_dense_storage(store.pool().policy().storage);
    if (store.walks_list()) {
      const engine::ActiveIndexList& list = store.active_list();
      walk_.assign(list.indices().begin(), list.indices().end());
      walk_.insert(walk_.end(), list.queued().begin(), list.queued().end());
    } else if (packed) {
      walk_.resize(store.pool().size());  // the pool's own walk goes down the dense array
      std::iota(walk_.begin(), walk_.end(), std::uint32_t{0});
    } else {
      store.pool().active_indices(walk_);
    }
    m.map.build_walk_view(walk_.data(), walk_.size());
  } else {  // the heap layout: each object's own address, in the order its walk reads them
    scatter_.clear();
    scatter_.reserve(store.size());  // allocates only after the store grew
    store.for_each([&](const T& object) { scatter_.push_back(&object); });
    m.map.build_scatter(scatter_.data(), scatter_.size(), sizeof(T));
  }
}

void MemorySnapshot::refresh(const Simulation& sim) {
  sim.visit_stores([this](PoolId id, const auto& store) { take(id, store); });
  heap_ = read_heap_figures();
  step_ = sim.frame();
  taken_ = true;
}

std::size_t MemorySnapshot::pools_bytes_held() const noexcept {
  std::size_t bytes = 0;
  for (const PoolMemory& m : pools_) bytes += m.bytes_held;
  return bytes;
}

nlohmann::json memory_json(const MemorySnapshot& snapshot) {
  nlohmann::json pools = nlohmann::json::object();
  for (const PoolMemory& m : snapshot.pools()) {
    const MapSummary& s = m.map.summary();
    nlohmann::json p = {{"pooled", m.pooled},
                        {"object_bytes", m.object_bytes},
                        {"live", s.live},
                        {"bytes_held", m.bytes_held}};
    if (m.pooled) {
      p["storage"] = engine::storage_mode_name(m.storage);
      p["positions"] = s.positions;
      p["live_runs"] = s.live_runs;
      p["holes"] = s.holes;
      p["hole_slots"] = s.hole_slots;
      p["longest_hole"] = s.longest_hole;
      p["tail_slots"] = s.tail_slots;
      p["lines_spanned"] = s.lines_spanned;
      p["lines_live"] = s.lines_live;
      const std::optional<double> share = s.line_share();
      p["live_line_share"] = share ? nlohmann::json(*share) : nlohmann::json(nullptr);  // null: no live object
    } else {
      // Heap mode: how widely the objects are spread, against the bytes they fill.
      p["span_bytes"] = s.span_bytes;
      const std::optional<double> density = s.heap_density(m.object_bytes);
      p["density"] = density ? nlohmann::json(*density) : nlohmann::json(nullptr);  // null: no object
    }
    pools[pool_name(m.id)] = p;
  }
  nlohmann::json out = {{"step", snapshot.step()}, {"pools", pools}, {"pools_bytes_held", snapshot.pools_bytes_held()}};
  out["heap"] = heap_figures_json(snapshot.heap());
  return out;
}

}  // namespace game
