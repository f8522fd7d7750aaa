#pragma once
// Part of engine::VectorPool<T>'s implementation: the free stack and slot reuse.
// Handing a claimed slot back when T's constructor throws, erase_if's release of its victims
// when T has no destructor (listed at the far end of the free stack's arrays, pushed in
// address order; packed lists dense positions), and what clear() / shrink_to_fit() need:
// generations that restart above every one a stale handle could carry, and a free stack
// rebuilt from the generations. The pop and the push themselves are in the hot paths
// (vector_pool_class.hpp).
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// A constructor threw: the claimed slot is free again. Unless the constructor itself changed
// the pool, that is exactly the state before the emplace (the slot back on top of the stack,
// or state_.used back down); otherwise the slot joins the free stack with its free generation.
template <class T>
void VectorPool<T>::unclaim(std::uint32_t index, void* where, bool from_free_stack) noexcept {
  if (where != nullptr) detail::mark_slot_released(where, sizeof(T));  // packed: the store already did
  if (!from_free_stack && state_.used == index + 1) {
    state_.used = index;
    return;
  }
  stack_entry(state_.free_count++) = index;
}

// erase_if's release phase when no destructor runs (so nothing can call back into the pool):
// releases the live slots listed at stack depths [from, from + count) and pushes them, in
// that order, from the stack's top up. The counters and the cached one-page view stay in
// locals: written through uint32_t pointers, members would be reloaded after every store.
template <class T>
void VectorPool<T>::release_listed(std::uint32_t from, std::uint32_t count) noexcept {
  const FlatView flat = state_.flat;
  const bool prefetch = state_.capacity >= prefetch_threshold;
  std::uint32_t free_count = state_.free_count;
  Run<std::uint32_t> push{nullptr, 0};  // where the next push goes, and how many fit in its page
  for (std::uint32_t k = 0; k < count;) {
    const Run<std::uint32_t> source = stack_run(from + k);
    const std::uint32_t length = std::min(source.length, count - k);
    for (std::uint32_t i = 0; i < length; ++i) {
      if (prefetch && i + prefetch_distance < length) prefetch_release(source.first[i + prefetch_distance]);
      const std::uint32_t index = source.first[i];
      const SlotRef at =
          flat.generations != nullptr ? SlotRef{flat.slots, flat.generations, flat.occupied, index} : locate(index);
      detail::mark_slot_released(at.slots[at.offset].bytes, sizeof(T));
      at.generations[at.offset] += 1u;
      detail::clear_bit(at.occupied, at.offset);
      if (push.length == 0) push = stack_run(free_count);
      *push.first++ = index;
      --push.length;
      ++free_count;
    }
    k += length;
  }
  state_.free_count = free_count;
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
void VectorPool<T>::release_listed_positions(std::uint32_t from, std::uint32_t count) noexcept {
  const bool prefetch = state_.capacity >= prefetch_threshold;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (prefetch) {
      if (k + 2 * prefetch_distance < count) store_.prefetch_hole_at(stack_entry(from + k + 2 * prefetch_distance));
      if (k + prefetch_distance < count) prefetch_release(store_.index_at(stack_entry(from + k + prefetch_distance)));
      store_.prefetch_tail(prefetch_distance);
    }
    const std::uint32_t position = stack_entry(from + k);
    const std::uint32_t index = store_.index_at(position);
    const SlotRef at = locate(index);
    at.generations[at.offset] += 1u;
    detail::clear_bit(at.occupied, at.offset);
    store_.drop_at(position);  // heap: frees the object's memory too
    stack_entry(state_.free_count++) = index;
  }
  state_.counters.releases += count;
}

// Slots about to disappear take their generations with them; new slots later created at
// the same indices must start above every generation a stale handle could still carry.
template <class T>
void VectorPool<T>::retire_generations(std::uint32_t first, std::uint32_t last) noexcept {
  std::uint32_t highest_age = state_.fresh_generation - state_.seed;
  for (std::uint32_t index = first; index < last; ++index) {
    highest_age = std::max(highest_age, generation(index) - state_.seed);
  }
  state_.fresh_generation = state_.seed + ((highest_age + 2u) & ~1u);
}

// Free slots below state_.used, pushed highest first so the lowest index is reused first.
template <class T>
void VectorPool<T>::rebuild_free_stack() noexcept {
  state_.free_count = 0;
  for (std::uint32_t index = state_.used; index-- > 0;) {
    if (!detail::is_live_generation(generation(index))) stack_entry(state_.free_count++) = index;
  }
}

}  // namespace engine
