#pragma once
// Part of engine::VectorPool<T>'s implementation: the free stack and slot reuse.
// Handing a claimed slot back when T's constructor throws, and erase_if's release of its
// victims when T has no destructor (listed at the far end of the free stack's arrays, pushed
// in address order; packed lists dense positions). The stack itself, the generations and the
// rebuilds clear() and shrink_to_fit() need are the slot table's (detail/slot_table.hpp).
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// A constructor threw: the claimed slot is free again (SlotTable::unclaim), its bytes poisoned.
template <class T>
void VectorPool<T>::unclaim(std::uint32_t index, void* where, bool from_free_stack) noexcept {
  if (where != nullptr) detail::mark_slot_released(where, sizeof(T));  // packed: the store already did
  table_.unclaim(index, from_free_stack);
}

// erase_if's release phase when no destructor runs (so nothing can call back into the pool):
// releases the live slots listed at stack depths [from, from + count) and pushes them, in
// that order, from the stack's top up. The stack's depth and the one-page view stay in locals:
// written through uint32_t pointers, members would be reloaded after every store.
template <class T>
void VectorPool<T>::release_listed(std::uint32_t from, std::uint32_t count) noexcept {
  const FlatView flat = flat_view();
  const bool prefetch = table_.capacity() >= prefetch_threshold;
  std::uint32_t free_count = table_.free_count();
  detail::PagedRun<std::uint32_t> push{nullptr, 0};  // where the next push goes, and how many fit in its page
  for (std::uint32_t k = 0; k < count;) {
    const detail::PagedRun<std::uint32_t> source = table_.stack_run(from + k);
    const std::uint32_t length = std::min(source.length, count - k);
    for (std::uint32_t i = 0; i < length; ++i) {
      if (prefetch && i + prefetch_distance < length) prefetch_release_in<false>(source.first[i + prefetch_distance]);
      const std::uint32_t index = source.first[i];
      const SlotRef at = flat.generations != nullptr ? flat.at(index) : locate(index);
      detail::mark_slot_released(at.slots[at.offset].bytes, sizeof(T));
      detail::SlotTable::retire(at.meta());
      if (push.length == 0) push = table_.stack_run(free_count);
      *push.first++ = index;
      --push.length;
      ++free_count;
    }
    k += length;
  }
  table_.set_free_count(free_count);
  state_.counters.releases += count;
}

// The packed form of release_listed (erase_if's victims when no destructor runs): the list
// holds dense positions, highest first, as the pass met them in order. A release moves only
// the last object, which sits above every victim still listed (those above it are gone
// already), so each listed position still names its victim when its turn comes, and no
// victim's position has to be looked up. Each release waits on cold lines (the victim's
// object and dense entry, then its generation, then the moved object's position entry), so
// they are asked for a few victims ahead, in two steps because the generation's address
// comes from the dense entry.
template <class T>
template <class Dense>
void VectorPool<T>::release_listed_positions(Dense& store, std::uint32_t from, std::uint32_t count) noexcept {
  const bool prefetch = table_.capacity() >= prefetch_threshold;
  // The list and the pushes go through page runs of the stack arrays, as in release_listed: a
  // paged table (packed_pages) would otherwise look a page up for every entry read or written.
  std::uint32_t free_count = table_.free_count();
  detail::PagedRun<std::uint32_t> push{nullptr, 0};
  for (std::uint32_t k = 0; k < count;) {
    const detail::PagedRun<std::uint32_t> source = table_.stack_run(from + k);
    const std::uint32_t length = std::min(source.length, count - k);
    const auto listed = [&](std::uint32_t i) {  // victim k + i, maybe in the next run
      return i < length ? source.first[i] : table_.stack_entry(from + k + i);
    };
    for (std::uint32_t i = 0; i < length; ++i) {
      if (prefetch) {
        if (k + i + 2 * prefetch_distance < count) store.prefetch_hole_at(listed(i + 2 * prefetch_distance));
        if (k + i + prefetch_distance < count) {
          prefetch_release_in<true>(store.index_at(listed(i + prefetch_distance)));
        }
        store.prefetch_tail(prefetch_distance);
      }
      const std::uint32_t position = source.first[i];
      const std::uint32_t index = store.index_at(position);
      detail::SlotTable::retire(table_.locate(index));
      store.drop_at(position);  // heap: frees the object's memory too
      if (push.length == 0) push = table_.stack_run(free_count);
      *push.first++ = index;
      --push.length;
      ++free_count;
    }
    k += length;
  }
  table_.set_free_count(free_count);
  state_.counters.releases += count;
}

}  // namespace engine
