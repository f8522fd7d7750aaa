#pragma once
// engine::PoolStats: what a VectorPool has done, as plain counts (cheap to copy each frame).
// Part of the header-only pool library (CMake target engine::pool).
#include <cstddef>
#include <cstdint>

namespace engine {

struct PoolStats {
  std::size_t live = 0;               // objects alive now
  std::size_t free = 0;               // slots that exist but hold no object (capacity - live)
  std::size_t capacity = 0;           // slots that exist now
  std::size_t peak_live = 0;          // highest `live` ever reached
  std::size_t bytes_held = 0;         // bytes the pool owns: slots, metadata, queues
  std::uint64_t emplaces = 0;         // objects constructed
  std::uint64_t releases = 0;         // objects destroyed (release, flush, erase_if, clear)
  std::uint64_t failed_emplaces = 0;  // emplace refused: at max_capacity, bad_alloc, or would relocate mid-iteration
  std::uint64_t failed_releases = 0;  // release refused: null, stale, foreign or double
  std::uint64_t stale_gets = 0;       // get() that returned nullptr
  std::uint64_t refused_during_iteration = 0;  // release/erase/clear/... refused inside for_each or erase_if
  std::uint64_t growth_events = 0;             // growths (and storage-mode switches) so far
};

}  // namespace engine
