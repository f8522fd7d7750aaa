#pragma once
// game::GrowthLog: the one path a pool growth takes out of the simulation. The pool tells its
// ObjectStore (VectorPool's growth listener), the store writes a GrowthRecord here directly,
// and the overlay, the report, the CSV and the graph's growth ticks all read these records:
// one record type from the pool to every view, never converted or forwarded through another
// callback.
#include "sim/scenario.hpp"

#include <engine/pool/vector_pool.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace game {

// One pool growth, stamped with the pool and the step it happened in.
struct GrowthRecord {
  PoolId pool;
  std::uint64_t frame;        // the simulation step (0: built before the first step)
  engine::GrowthEvent event;  // as the pool reported it
  bool rebuild = false;       // the pool's memory coming back when pooling is switched on: not a growth
};

class GrowthLog {
 public:
  static constexpr std::size_t kCapacity = 1024;  // later growths are counted, not kept

  // `step`: the simulation's step counter, read when a growth is recorded.
  explicit GrowthLog(const std::uint64_t& step) : step_(&step) { records_.reserve(kCapacity); }
  GrowthLog(const GrowthLog&) = delete;
  GrowthLog& operator=(const GrowthLog&) = delete;

  void record(PoolId pool, const engine::GrowthEvent& event, bool rebuild) noexcept {
    // Never past its reservation: a growth must not allocate a second time here.
    if (records_.size() < records_.capacity()) {
      records_.push_back({pool, *step_, event, rebuild});
    } else {
      ++dropped_;
    }
  }
  const std::vector<GrowthRecord>& records() const noexcept { return records_; }  // oldest first
  std::uint64_t dropped() const noexcept { return dropped_; }

 private:
  const std::uint64_t* step_;
  std::vector<GrowthRecord> records_;
  std::uint64_t dropped_ = 0;
};

}  // namespace game
