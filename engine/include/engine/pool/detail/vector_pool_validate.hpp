#pragma once
// Part of engine::VectorPool<T>'s implementation: statistics and validation.
// stats() (O(pages) to sum bytes_held) and validate(), which walks every invariant of the
// index space, the free stack, the release queue and the packed store (O(capacity)).
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

template <class T>
PoolStats VectorPool<T>::stats() const noexcept {
  PoolStats s;
  s.live = size();
  s.capacity = state_.capacity;
  s.free = state_.capacity - s.live;
  s.peak_live = state_.counters.peak_used;
  s.bytes_held = pages_.capacity() * sizeof(Page);  // the pages hold the free stack and release queue too
  for (const Page& page : pages_) s.bytes_held += page.bytes();
  s.bytes_held += store_.bytes();  // packed: the dense objects and both index arrays
  s.emplaces = state_.counters.emplaces;
  s.releases = state_.counters.releases;
  s.failed_emplaces = state_.counters.failed_emplaces;
  s.failed_releases = state_.counters.failed_releases;
  s.stale_gets = state_.stale_gets;
  s.refused_during_iteration = state_.counters.refused_during_iteration;
  s.growth_events = state_.counters.growth_events;
  return s;
}

template <class T>
bool VectorPool<T>::validate() const {
  const std::size_t live_count = size();
  // Inside T's constructor or destructor a claimed or dying slot is neither live nor free.
  if (state_.used > state_.capacity || live_count > state_.used || state_.free_count > state_.used - live_count)
    return false;
  if (callbacks_ == 0 && state_.free_count != state_.used - live_count) return false;
  const bool stable = is_paged_storage(state_.policy.storage);  // stable or packed_pages: fixed pages
  if (stable ? (state_.shift != detail::log2_exact(state_.policy.page_slots) ||
                state_.mask != state_.policy.page_slots - 1)
             : (state_.shift != contiguous_shift || pages_.size() > 1)) {
    return false;  // the index -> (page, offset) split does not match the policy
  }
  std::size_t slots = 0, live = 0;
  for (std::size_t p = 0; p < pages_.size(); ++p) {
    const Page& page = pages_[p];
    // Stable: page p starts at p * page_slots, so only the last page may be short.
    if (stable && ((p << state_.shift) != slots || page.slot_count() > state_.policy.page_slots ||
                   (p + 1 < pages_.size() && page.slot_count() != state_.policy.page_slots))) {
      return false;
    }
    for (std::size_t offset = 0; offset < page.slot_count(); ++offset) {
      const bool occupied = page.is_occupied(offset);
      if (slots + offset >= state_.used) {  // never handed out: no object, generation not yet set
        if (occupied) return false;
        continue;
      }
      if (occupied != detail::is_live_generation(page.generations()[offset])) return false;
      live += occupied ? 1 : 0;
    }
    slots += page.slot_count();
  }
  if (live != live_count || state_.counters.peak_used < state_.used) return false;
  // Packed: the dense array holds exactly the live objects, each slot knows its position, and
  // the pages hold no object bytes; other layouts have no store at all.
  if (state_.packed != is_packed_storage(state_.policy.storage)) return false;
  if (state_.packed) {
    if (store_.capacity() != slots || store_.page_count() != pages_.size()) return false;
    for (std::size_t p = 0; p < pages_.size(); ++p) {  // one store page beside each page of metadata
      if (pages_[p].holds_objects() || store_.page_length(p) != pages_[p].slot_count()) return false;
    }
    if (callbacks_ == 0) {
      if (store_.size() != live_count) return false;
      for (std::uint32_t p = 0; p < store_.size(); ++p) {
        const std::uint32_t index = store_.index_at(p);
        if (index >= state_.used || !detail::is_live_generation(generation(index)) || store_.position_of(index) != p)
          return false;
      }
    }
  } else if (store_.capacity() != 0) {
    return false;
  }
  // Every slot the pages hold is usable up to the cap: below it, a stable pool's capacity
  // is whole pages, so growth starts its new page exactly at index state_.capacity.
  if (state_.capacity != (stable ? std::min(slots, state_.policy.max_capacity) : slots)) return false;
  std::vector<bool> seen(state_.used, false);
  for (std::uint32_t depth = 0; depth < state_.free_count; ++depth) {
    const std::uint32_t index = stack_entry(depth);
    if (index >= state_.used || seen[index]) return false;  // out of range or twice on the stack
    if (detail::is_live_generation(generation(index))) return false;
    seen[index] = true;
  }
  // The release queue: entries name handed-out slots; once indexed, one entry per slot, each
  // found again through its slot's position.
  if (state_.pending_count > state_.capacity || state_.queue_ready > slots) return false;
  if (state_.queue_indexed && state_.pending_count > state_.used) return false;
  if (state_.queue_room != 0 && (state_.queue_indexed || state_.pending_count + state_.queue_room > state_.capacity ||
                                 state_.queue_tail != &pending_entry(state_.pending_count))) {
    return false;  // the append cursor points somewhere else than the queue's end
  }
  for (std::uint32_t position = 0; position < state_.pending_count; ++position) {
    const std::uint32_t index = pending_entry(position).index;
    if (index >= state_.used) return false;
    if (state_.queue_indexed && (index >= state_.queue_ready || queue_position(index) != position)) return false;
  }
  return true;
}

}  // namespace engine
