#pragma once
// Test support: the scaffolding every VectorPool test file used to write for itself — the
// engine names they use, a GrowthPolicy builder, the StorageMode parameter printer, a
// handle order for reference maps, a comparison of every PoolStats count, a small object and
// two runners for the chunked passes, and the fixture that checks Tracked lifetimes. Test
// files put their anonymous namespace inside namespace pool_test to see all of it.
#include <engine/pool/handle.hpp>
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "instance_tracker.hpp"

namespace pool_test {

// The engine names the pool tests use, so no test file repeats a block of using-declarations.
using engine::GrowthEvent;
using engine::GrowthPolicy;
using engine::PoolHandle;
using engine::PoolPtr;
using engine::PoolStats;
using engine::StorageMode;
using engine::VectorPool;

// Storages whose walk follows a dense list, not slot order (a release fills the hole with the
// last), and storages whose objects sit in many blocks (addresses do not follow walk order).
inline bool is_packed_storage(StorageMode m) { return m != StorageMode::contiguous && m != StorageMode::stable; }
inline bool is_paged_storage(StorageMode m) { return m != StorageMode::contiguous && m != StorageMode::packed; }

// The library's default cap, for callers that must name it to reach the page-size argument.
inline constexpr std::size_t kDefaultMaxCapacity = std::size_t{1} << 28;
static_assert(kDefaultMaxCapacity == GrowthPolicy{}.max_capacity, "keep in step with GrowthPolicy");

// A policy in `mode` that starts at `initial` slots and grows by `step` (0: doubles) up to
// `max`. Pages default to 64 slots, far below the library's 4096, so a few hundred objects
// already span several pages of a stable pool. The default of 8 slots grows within a
// handful of emplaces.
inline GrowthPolicy policy(StorageMode mode, std::size_t initial = 8, std::size_t step = 0,
                           std::size_t max = kDefaultMaxCapacity, std::size_t page = 64) {
  GrowthPolicy p;
  p.initial_capacity = initial;
  p.growth_step = step;
  p.max_capacity = max;
  p.storage = mode;
  p.page_slots = page;
  return p;
}

// Names the instances of a suite parameterised on StorageMode ("…/Contiguous", "…/Stable", "…/Packed", "…/PackedPages",
// "…/Heap") for INSTANTIATE_TEST_SUITE_P, so a failure says which mode broke.
inline std::string mode_name(const ::testing::TestParamInfo<StorageMode>& info) {
  switch (info.param) {
    case StorageMode::contiguous:
      return "Contiguous";
    case StorageMode::stable:
      return "Stable";
    case StorageMode::packed:
      return "Packed";
    case StorageMode::packed_pages:
      return "PackedPages";
    case StorageMode::heap:
      return "Heap";
  }
  return "Unknown";
}

// Every storage mode, for INSTANTIATE_TEST_SUITE_P(..., ::testing::ValuesIn(kAllModes), mode_name).
inline constexpr StorageMode kAllModes[] = {StorageMode::contiguous, StorageMode::stable, StorageMode::packed,
                                            StorageMode::packed_pages, StorageMode::heap};

// A strict order on handles, so a std::map can be the reference model of a pool's live set.
struct HandleLess {
  bool operator()(PoolHandle a, PoolHandle b) const {
    return a.index != b.index ? a.index < b.index : a.generation < b.generation;
  }
};

// Every count PoolStats keeps, compared: a refused operation must leave all of them as they were.
inline bool same_counts(const PoolStats& a, const PoolStats& b) {
  return a.live == b.live && a.free == b.free && a.capacity == b.capacity && a.peak_live == b.peak_live &&
         a.bytes_held == b.bytes_held && a.emplaces == b.emplaces && a.releases == b.releases &&
         a.failed_emplaces == b.failed_emplaces && a.failed_releases == b.failed_releases &&
         a.stale_gets == b.stale_gets && a.refused_during_iteration == b.refused_during_iteration &&
         a.growth_events == b.growth_events;
}

// A small trivially destructible object for the chunked passes: erase_if's listed release paths.
struct Body {
  std::uint32_t id;
  std::uint32_t steps;
};

// Runners for a pool's chunked passes without a thread team: run(n, task) calls every task in
// order on this thread, or in reverse order (the result must not depend on which task runs first).
struct InlineRun {
  template <class Task>
  void operator()(std::size_t n, Task&& task) const {
    for (std::size_t k = 0; k < n; ++k) task(k);
  }
};
struct BackwardsRun {
  template <class Task>
  void operator()(std::size_t n, Task&& task) const {
    for (std::size_t k = n; k-- > 0;) task(k);
  }
};

// Base fixture for tests of Tracked objects: counts start from zero, and no test may end
// having destroyed something that was not alive. Base is ::testing::Test or a
// ::testing::TestWithParam<...>.
template <class Base = ::testing::Test>
class LifetimeChecked : public Base {
 protected:
  void SetUp() override { Lifetimes::reset(); }
  void TearDown() override { EXPECT_EQ(Lifetimes::bad_destructions, 0); }
};

}  // namespace pool_test
