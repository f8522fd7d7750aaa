// SPDX-License-Identifier: MIT
#pragma once
// engine::PoolHandle, GrowthPolicy and PoolStats: the small values every pool speaks in.
#include <cstddef>
#include <cstdint>

namespace engine {

// Names one object in one pool: a slot index plus the generation the slot had when the object
// was made. The pool steps a slot's generation on every emplace and release (odd while live),
// so a handle kept past its object's release is refused instead of reaching the next occupant.
// Generation 0 is never issued: PoolHandle{} is null.
struct PoolHandle {
  std::uint32_t index = 0;       // slot number inside the pool
  std::uint32_t generation = 0;  // 0 only for the null handle

  constexpr bool is_null() const noexcept { return generation == 0; }
  constexpr explicit operator bool() const noexcept { return generation != 0; }
};
constexpr bool operator==(PoolHandle a, PoolHandle b) noexcept {
  return a.index == b.index && a.generation == b.generation;
}
constexpr bool operator!=(PoolHandle a, PoolHandle b) noexcept { return !(a == b); }

// Where objects sit (one storage type each, in storage/): the names VectorPool switches
// between, and the names files, flags and reports use.
enum class StorageMode : std::uint8_t {
  contiguous,    // Contiguous: one buffer, slot i at position i; growth relocates
  stable,        // StablePages: pages that never move; growth adds a page
  packed,        // Packed: live objects dense in one buffer; growth relocates
  packed_pages,  // PackedPages: live objects dense in pages that never move (the default)
  heap,          // HeapNodes: one new T per object: "pooling off", with the pool's handles
};
constexpr const char* storage_mode_name(StorageMode mode) noexcept {
  constexpr const char* names[] = {"contiguous", "stable", "packed", "packed_pages", "heap"};
  return names[static_cast<int>(mode) < 5 ? static_cast<int>(mode) : 0];
}

struct GrowthPolicy {
  std::size_t initial_capacity = 64;                // slots the constructor reserves (paged: rounded up to pages)
  std::size_t growth_step = 0;                      // one-buffer storages: 0 doubles when full (at least 16
                                                    // slots), N adds N; paged storages add one page
  std::size_t max_capacity = std::size_t{1} << 28;  // emplace() past this returns nullopt (at most 2^32 - 2)
  StorageMode storage = StorageMode::contiguous;    // VectorPool's storage; a Pool<T, S> reports S's
  std::size_t page_slots = 0;  // paged storages: slots per page (a power of two, 64..2^30); 0: page_slots_for
};

inline constexpr std::size_t min_page_slots = 64;  // one occupancy word
inline constexpr std::size_t max_page_slots = std::size_t{1} << 30;

// The slots per page a paged storage uses for GrowthPolicy::page_slots == `requested` and slots
// of `slot_bytes`. 0 picks the largest power of two of at most 1 MiB of objects, 64..16384 slots
// (16384 for 48-byte objects): a walk pays a little at every page edge, and a page is what one
// growth allocates.
constexpr std::size_t page_slots_for(std::size_t requested, std::size_t slot_bytes) noexcept {
  std::size_t slots = requested;
  if (slots == 0) {
    slots = min_page_slots;
    while (slots < 16384 && 2 * slots * slot_bytes <= (std::size_t{1} << 20)) slots *= 2;
  }
  slots = slots < min_page_slots ? min_page_slots : slots > max_page_slots ? max_page_slots : slots;
  std::size_t pow2 = 1;
  while (pow2 < slots) pow2 <<= 1;
  return pow2;
}

// What a pool has done, as plain counts (cheap to copy each frame).
struct PoolStats {
  std::size_t live = 0;                        // objects alive now
  std::size_t free = 0;                        // slots that exist but hold no object (capacity - live)
  std::size_t capacity = 0;                    // slots that exist now
  std::size_t peak_live = 0;                   // highest `live` so far
  std::size_t bytes_held = 0;                  // bytes the pool owns: objects' memory and per-slot metadata
  std::uint64_t emplaces = 0;                  // objects constructed
  std::uint64_t releases = 0;                  // objects destroyed (release, flush, erase_if, clear)
  std::uint64_t failed_emplaces = 0;           // emplace refused: at max_capacity, out of memory, or mid-pass
  std::uint64_t failed_releases = 0;           // release refused: null, stale, foreign or double
  std::uint64_t stale_gets = 0;                // get() that returned nullptr
  std::uint64_t refused_during_iteration = 0;  // calls refused inside a pass or T's callbacks
  std::uint64_t growth_events = 0;             // growths (VectorPool: and storage switches) so far
};

}  // namespace engine
