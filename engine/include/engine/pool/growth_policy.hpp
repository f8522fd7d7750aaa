#pragma once
// engine::GrowthPolicy: how a VectorPool grows and where its objects live.
// Part of the header-only pool library (CMake target engine::pool).
#include <cstddef>
#include <cstdint>

namespace engine {

// Where the objects sit. All modes keep one index space (slot index = page * page_slots +
// offset; one page for contiguous and packed), so VectorPool::set_policy can switch between
// them while every handle stays valid.
enum class StorageMode : std::uint8_t {
  contiguous,    // one buffer: fastest iteration; growth relocates live objects (pointers move)
  stable,        // fixed pages that never move: pointers stay valid until release; growth adds a page
  packed,        // live objects dense at the front of one array, reached through a sparse index: a
                 // pass never meets a hole; any release moves the last object into the hole (pointers
                 // to it move), get() pays one more dependent load; growth as contiguous. Needs a T with
                 // a noexcept move constructor (else the constructor falls back to contiguous and
                 // set_policy() to packed returns false)
  packed_pages,  // packed, in fixed pages: the dense objects and the sparse index are cut into pages
                 // like stable's, so growth adds a page and nothing moves (EnTT's storage shape); a
                 // pass crosses a page edge every page_slots objects. Needs what packed needs (else
                 // the constructor falls back to stable and set_policy() returns false)
  heap,          // no pool: each object its own `new` (one allocation per emplace, one delete per
                 // release), found through pages of pointers walked in order, a release moving the
                 // last pointer into the hole: the std::vector<T*> a game without a pool keeps, with
                 // the pool's handles, so a game can switch pooling off and on live. Needs what packed
                 // needs (else the constructor falls back to stable and set_policy() returns false)
};

// The names scenario files, flags and reports use.
constexpr const char* storage_mode_name(StorageMode mode) noexcept {
  switch (mode) {
    case StorageMode::stable:
      return "stable";
    case StorageMode::packed:
      return "packed";
    case StorageMode::packed_pages:
      return "packed_pages";
    case StorageMode::heap:
      return "heap";
    case StorageMode::contiguous:
      break;
  }
  return "contiguous";
}

// Live objects dense over a DenseIndex: a PackedStore's objects, or a HeapStore's pointers (a
// release moves the last one into the hole).
constexpr bool is_packed_storage(StorageMode mode) noexcept {
  return mode == StorageMode::packed || mode == StorageMode::packed_pages || mode == StorageMode::heap;
}
// Fixed pages that growth adds to and nothing moves in (page_slots applies).
constexpr bool is_paged_storage(StorageMode mode) noexcept {
  return mode == StorageMode::stable || mode == StorageMode::packed_pages || mode == StorageMode::heap;
}

struct GrowthPolicy {
  std::size_t initial_capacity = 64;  // slots the constructor reserves (stable: rounded up to pages)
  std::size_t growth_step = 0;  // contiguous and packed: 0 doubles when full, N adds N slots; stable: one page per
                                // growth
  std::size_t max_capacity = 1u << 28;            // emplace() past this returns std::nullopt (clamped to 2^32 - 2)
  StorageMode storage = StorageMode::contiguous;  // see StorageMode
  std::size_t page_slots = 0;  // stable and packed_pages: slots per page (rounded up to a power of two in
                               // [min_page_slots, max_page_slots]); 0: automatic, see page_slots_for()
};

// The page sizes a stable pool accepts. Outside them a request is clamped, then rounded up.
inline constexpr std::size_t min_page_slots = 64;                    // one occupancy word
inline constexpr std::size_t max_page_slots = std::size_t{1} << 30;  // indices stay 32-bit with room

// The slots per page a stable pool really uses for GrowthPolicy::page_slots == `requested`,
// given the bytes one slot takes. The one definition of the default: a game that loads page
// sizes from a file and the pool itself both call this, so they cannot disagree.
// 0 (automatic) gives the largest power of two of about 1 MiB of objects, 64..16384 slots
// (16384 for 48-byte objects, 4096 for 256-byte ones): smaller pages cost a pass over a million
// objects ~20 % at every page boundary, and the pool's benchmark measured 4096-slot pages of
// 48-byte objects 1.5x std::vector against 1.3x for the automatic size.
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

// Passed to the growth listener once per growth (and once per storage-mode switch), so an
// overlay can show what growth cost without polling.
struct GrowthEvent {
  std::size_t old_capacity;       // slots before
  std::size_t new_capacity;       // slots after
  std::size_t bytes_allocated;    // bytes this growth allocated (objects + per-slot metadata)
  std::size_t relocated_objects;  // live objects moved to new memory (always 0 for stable growth)
  bool relocated;                 // true when live objects moved: raw pointers into the pool died
  double microseconds;            // wall time the growth took (steady_clock)
};

}  // namespace engine
