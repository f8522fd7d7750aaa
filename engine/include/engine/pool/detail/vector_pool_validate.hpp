#pragma once
// Part of engine::VectorPool<T>'s implementation: statistics and validation.
// stats() (O(pages) to sum bytes_held) and validate(), which walks every invariant of the
// slot table (index space, free stack, release queue), the layout and the packed store
// (O(capacity)).
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// ENGINE_POOL_VALIDATE's self-check after a mutation, for the outermost call only. Inside T's
// constructor or destructor (callbacks_ counts how deep) an outer call is half-way through
// its own objects (erase_if's victims are dead but not yet counted or freed; a flush is
// mid-queue), and validate() would report that as broken. The outer call checks when it
// completes, so a corruption made inside a callback is still found, one call later.
template <class T>
inline bool VectorPool<T>::valid_or_nested() const {
  return callbacks_ != 0 || validate();
}

template <class T>
PoolStats VectorPool<T>::stats() const noexcept {
  PoolStats s;
  s.live = size();
  s.capacity = table_.capacity();
  s.free = table_.capacity() - s.live;
  s.peak_live = state_.counters.peak_used;
  s.bytes_held = table_.bytes() + objects_.bytes();  // the table holds stack and queue too
  s.bytes_held += store_.bytes() + heap_.bytes();    // dense: the objects (or pointers) and both index arrays
  s.emplaces = state_.counters.emplaces;
  s.releases = state_.counters.releases;
  s.failed_emplaces = state_.counters.failed_emplaces;
  s.failed_releases = state_.counters.failed_releases;
  s.stale_gets = state_.stale_gets;
  s.refused_during_iteration = state_.counters.refused_during_iteration;
  s.growth_events = state_.counters.growth_events;
  return s;
}

// The slot table checks its own invariants (SlotTable::validate); this adds what the layout
// promises: the page geometry the policy names, object pages beside the table's (empty when
// packed), the packed store's dense array, and the capacity the pages give under the cap.
template <class T>
bool VectorPool<T>::validate() const {
  const std::size_t live_count = size();
  if (!table_.validate(live_count, callbacks_ != 0)) return false;
  if (state_.counters.peak_used < table_.used()) return false;
  const bool stable = is_paged_storage(state_.policy.storage);  // stable or packed_pages: fixed pages
  const std::size_t pages = table_.page_count();
  if (stable ? (table_.shift() != detail::log2_exact(state_.policy.page_slots) ||
                table_.mask() != state_.policy.page_slots - 1)
             : (table_.shift() != detail::SlotTable::one_page_shift || pages > 1)) {
    return false;  // the index -> (page, offset) split does not match the policy
  }
  if (objects_.page_count() != pages) return false;
  std::size_t slots = 0;
  for (std::size_t p = 0; p < pages; ++p) {
    const std::size_t length = table_.page(p).slot_count();
    // Stable: page p starts at p * page_slots, so only the last page may be short.
    if (stable && (length > state_.policy.page_slots || (p + 1 < pages && length != state_.policy.page_slots))) {
      return false;
    }
    if (objects_.page(p).slot_count() != (state_.packed ? 0 : length)) return false;
    slots += length;
  }
  // Packed: the dense array holds exactly the live objects and each slot knows its position;
  // other layouts have no store at all.
  if (state_.packed != is_packed_storage(state_.policy.storage)) return false;
  if (state_.heap != (state_.policy.storage == StorageMode::heap)) return false;
  const detail::DenseIndex& unused = state_.heap ? static_cast<const detail::DenseIndex&>(store_) : heap_;
  if (unused.capacity() != 0 || unused.size() != 0) return false;  // the store not in use holds nothing
  if (state_.packed) {
    const detail::DenseIndex& index_of = dense();
    if (index_of.capacity() != slots || index_of.page_count() != pages) return false;
    for (std::size_t p = 0; p < pages; ++p) {  // one store page beside each page of metadata
      if (index_of.page_length(p) != table_.page(p).slot_count()) return false;
    }
    if (callbacks_ == 0) {
      if (index_of.size() != live_count) return false;
      for (std::uint32_t p = 0; p < index_of.size(); ++p) {
        const std::uint32_t index = index_of.index_at(p);
        if (index >= table_.used() || !detail::is_live_generation(table_.generation(index)) ||
            index_of.position_of(index) != p) {
          return false;
        }
      }
    }
  } else if (store_.capacity() != 0) {
    return false;
  }
  // Every slot the pages hold is usable up to the cap: below it, a stable pool's capacity
  // is whole pages, so growth starts its new page exactly at index capacity().
  return table_.capacity() == (stable ? std::min(slots, state_.policy.max_capacity) : slots);
}

}  // namespace engine
