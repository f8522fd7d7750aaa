#pragma once
// Part of engine::VectorPool<T>'s implementation: growth.
// An emplace into a full pool (a new stable page, or a contiguous/packed rebuild built
// before anything moves), reserve(), the capacity arithmetic (page lengths under the cap) and
// the growth listener. The layouts growth builds and the relocation are vector_pool_layout.hpp.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// A paged growth (stable, packed_pages) publishes the new page, then builds the object in its
// first slot (packed_pages: at the back of the dense array, the new store page's first
// position) like any bump emplace. If the constructor throws and did not itself use the new
// page, the page goes again and the page table is the one from before: the pool is exactly as
// it was.
template <class T>
template <class... Args>
void VectorPool<T>::construct_in_new_page(std::uint32_t index, std::vector<detail::SlotTablePage>* old_table,
                                          std::vector<ObjectPage>* old_objects, Args&&... args) {
  const bool packed = state_.packed;
  void* const where = packed ? with_dense([&](auto& store) { return store.claim_reserved(index); })
                             : locate(index).slots[locate(index).offset].bytes;
  if (!packed) detail::unpoison_bytes(where, sizeof(T));
  building_ += packed ? 1u : 0u;  // see construct_packed
  build_object(
      where,
      [&] {
        building_ -= packed ? 1u : 0u;
        if (packed) {  // objects its nested emplaces built stay
          with_dense([&](auto& store) { store.unclaim(store.position_of(index)); });
        }
        if (table_.used() != index + 1 || table_.pending_count() > index) {  // the constructor used the page: keep it
          unclaim(index, packed ? nullptr : where, false);
          return;
        }
        if (!packed) detail::mark_slot_released(where, sizeof(T));
        table_.unclaim(index, false);  // the last slot: used goes back down
        table_.pop_page();
        objects_.pop_page();
        if (packed) with_dense([](auto& store) { store.pop_page(); });
        if (old_table != nullptr) {  // back into the old tables: same capacity, same bytes_held
          table_.swap_page_table(*old_table);
          objects_.swap_page_table(*old_objects);
        }
        table_.set_capacity(stable_capacity());
      },
      std::forward<Args>(args)...);
  building_ -= packed ? 1u : 0u;
}

// The new object is constructed in the new memory before anything is committed, so a
// throwing constructor (or a failed allocation) leaves the pool exactly as it was.
template <class T>
template <class... Args>
PoolHandle VectorPool<T>::emplace_with_growth(Args&&... args) {
  const auto started = Clock::now();
  const std::uint32_t index = table_.capacity();  // used == capacity and the free stack is empty
  if (table_.capacity() >= state_.policy.max_capacity) {
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  const std::size_t old_capacity = table_.capacity();

  if (is_paged_storage(state_.policy.storage)) {
    // Below the cap every page is whole (a short page only ends a pool at its cap), so the
    // next index is exactly where the new page starts.
    const std::size_t pages = table_.page_count();
    ENGINE_POOL_ASSERT(std::size_t{index} == pages << table_.shift(),
                       "paged pool: capacity does not end on a page boundary");
    const std::size_t length = stable_page_length(pages, state_.policy.page_slots);
    const std::size_t bytes_before_store = with_dense([](const auto& store) { return store.bytes(); });
    std::optional<detail::SlotTablePage> meta;
    std::optional<ObjectPage> objects;
    std::vector<detail::SlotTablePage> table;  // bigger page tables, when the current ones are full
    std::vector<ObjectPage> object_table;
    try {  // allocate everything first: if anything fails, no page table has even changed its capacity
      if (state_.heap) heap_.reserve_boxes(1);  // the new object's own memory
      meta.emplace(length);
      objects.emplace(state_.packed ? 0 : length);
      // Full page arrays grow geometrically (O(1) amortised), both together.
      if (pages == table_.page_table_capacity() || pages == objects_.page_table_capacity()) {
        const std::size_t room = std::max<std::size_t>(8, pages * 2);
        table.reserve(room);
        object_table.reserve(room);
      }
      if (state_.packed) {  // last: when it throws, it added nothing
        with_dense([&](auto& store) { store.add_page(length); });
      }
    } catch (const std::bad_alloc&) {
      ++state_.counters.failed_emplaces;
      return PoolHandle{};
    }
    const bool new_table = table.capacity() != 0;
    if (new_table) {                  // page moves keep their buffers: no object moves
      table_.swap_page_table(table);  // `table` keeps the old array (hollow pages) for a rollback
      objects_.swap_page_table(object_table);
    }
    const std::size_t bytes =
        meta->bytes() + objects->bytes() +
        (state_.packed ? with_dense([](const auto& store) { return store.bytes(); }) - bytes_before_store : 0);
    table_.push_page(std::move(*meta));
    objects_.push_page(std::move(*objects));  // two pages now: every index goes through the page tables
    table_.set_capacity(stable_capacity());
    table_.claim_next_unused();  // claimed, as in emplace()
    construct_in_new_page(index, new_table ? &table : nullptr, new_table ? &object_table : nullptr,
                          std::forward<Args>(args)...);
    const PoolHandle handle = commit_emplace(index, locate(index));
    announce(GrowthEvent{old_capacity, table_.capacity(), bytes, 0, false,
                         std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
    return handle;
  }

  if (iterating_ != 0) {  // relocation would pull the objects out from under the pass
    ENGINE_POOL_ASSERT(
        false, "emplace() needs a relocating growth inside for_each/erase_if; reserve() first or use stable storage");
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  if (callbacks_ != 0) {  // inside T's constructor or destructor: that object would move
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  if (refuse_immovable("emplace() needs a contiguous growth, which would move objects of a T that can be neither moved "
                       "nor copied; use stable storage or reserve() up front")) {
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  Layout layout;
  try {
    layout = make_layout(growth_mode(), 0, next_contiguous_capacity());
  } catch (const std::bad_alloc&) {
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  // Built in the new buffer before anything moves. Its constructor may call back: relocating
  // growth is refused meanwhile (callbacks_), anything else it changes is in the old layout
  // and moves across with the rest below. Packed: the old array is full (every slot live), so
  // the new object goes at position capacity(), behind the ones that move in below.
  ObjectPage& target = layout.objects.front();
  void* const where = layout.packed ? layout.store.raw(store_.size()) : target.raw(index);  // heap is paged: not here
  detail::unpoison_bytes(where, sizeof(T));
  // Packed: `where` is the position after the old objects; a release would shrink them by one.
  const std::uint32_t building = layout.packed ? 1u : 0u;
  building_ += building;
  build_object(
      where,
      [&] {
        building_ -= building;
        detail::poison_bytes(where, sizeof(T));  // the new buffer goes; the pool never changed
      },
      std::forward<Args>(args)...);
  building_ -= building;
  std::size_t moved = 0;
  if constexpr (std::is_nothrow_move_constructible_v<T> || !std::is_move_constructible_v<T>) {
    moved = relocate_into(layout);
  } else {
    try {
      moved = relocate_into(layout);
    } catch (...) {
      target.object(index)->~T();
      throw;
    }
  }
  if (layout.packed) layout.store.adopt_back(index);
  table_.copy_into(layout.table, 0, layout.shift, layout.mask);
  const std::size_t bytes = layout.bytes;
  adopt(std::move(layout));
  table_.claim_next_unused();
  const PoolHandle handle = commit_emplace(index, locate(index));
  announce(GrowthEvent{old_capacity, table_.capacity(), bytes, moved, moved != 0,
                       std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
  return handle;
}

template <class T>
std::size_t VectorPool<T>::next_contiguous_capacity() const noexcept {
  const std::size_t capacity = table_.capacity();
  const std::size_t grown =
      state_.policy.growth_step == 0 ? std::max<std::size_t>(capacity * 2, 16) : capacity + state_.policy.growth_step;
  return std::min(grown, state_.policy.max_capacity);
}

// Pages are page_slots long, except the last one when max_capacity cuts it short (kept a
// multiple of 64): a pool capped at 100 slots with 4096-slot pages holds 128, not 4096.
// Page p always starts at index p * page_slots, so a short page may only ever be the last
// one: when the cap rises, set_policy() rebuilds it at full length before anything grows
// past it (see make_longer_last_page), or the next page would leave a hole in the index space.
template <class T>
std::size_t VectorPool<T>::stable_page_length(std::size_t page_number, std::size_t page_slots) const noexcept {
  const std::size_t first = page_number * page_slots;
  if (first >= state_.policy.max_capacity) return page_slots;  // not reached: growth stops at the cap
  return std::min(page_slots, detail::round_up_to_word(state_.policy.max_capacity - first));
}

// Stable capacity: every slot the pages hold, up to the cap. Below the cap it is a whole
// number of pages, which is what lets the next growth start a page at index capacity().
template <class T>
std::uint32_t VectorPool<T>::stable_capacity() const noexcept {
  return table_.slots_up_to(state_.policy.max_capacity);
}

template <class T>
bool VectorPool<T>::grow_stable_by_pages(std::size_t count) {
  const std::size_t pages = table_.page_count();
  std::vector<detail::SlotTablePage> added;
  std::vector<ObjectPage> added_objects;
  std::size_t store_pages = 0;  // packed_pages: store pages added so far (taken back on failure)
  try {                         // pages first, so a failure leaves the page tables exactly as they were
    added.reserve(count);
    added_objects.reserve(count);
    for (std::size_t p = 0; p < count; ++p) {
      const std::size_t length = stable_page_length(pages + p, state_.policy.page_slots);
      added.emplace_back(length);
      added_objects.emplace_back(state_.packed ? 0 : length);
    }
    for (; state_.packed && store_pages < count; ++store_pages) {
      with_dense([&](auto& store) { store.add_page(added[store_pages].slot_count()); });
    }
    if (table_.page_table_capacity() < pages + count) {  // last: the page tables' size shows in bytes_held
      table_.reserve_pages(std::max(pages + count, pages * 2));
    }
    objects_.reserve_pages(table_.page_table_capacity());
  } catch (const std::bad_alloc&) {
    for (; store_pages > 0; --store_pages) with_dense([](auto& store) { store.pop_page(); });
    return false;
  }
  for (std::size_t p = 0; p < count; ++p) {
    table_.push_page(std::move(added[p]));
    objects_.push_page(std::move(added_objects[p]));
  }
  table_.set_capacity(stable_capacity());
  return true;
}

template <class T>
bool VectorPool<T>::reserve(std::size_t slots) {
  if (slots <= table_.capacity()) return true;
  if (slots > state_.policy.max_capacity) return false;
  const auto started = Clock::now();
  const std::size_t old_capacity = table_.capacity();
  if (is_paged_storage(state_.policy.storage)) {
    const std::size_t pages_needed = (slots + state_.policy.page_slots - 1) / state_.policy.page_slots;
    const std::size_t bytes_before = stats().bytes_held;
    if (!grow_stable_by_pages(pages_needed - table_.page_count())) return false;
    announce(GrowthEvent{old_capacity, table_.capacity(), stats().bytes_held - bytes_before, 0, false,
                         std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
    return true;
  }
  if (refuse_mid_pass("reserve() would relocate objects inside for_each/erase_if or T's constructor/destructor"))
    return false;
  if (refuse_immovable("reserve() would move objects of a T that can be neither moved nor copied")) return false;
  Layout layout;
  try {
    layout = make_layout(growth_mode(), 0, slots);
  } catch (const std::bad_alloc&) {
    return false;
  }
  const std::size_t moved = relocate_into(layout);
  table_.copy_into(layout.table, 0, layout.shift, layout.mask);
  const std::size_t bytes = layout.bytes;
  adopt(std::move(layout));
  announce(GrowthEvent{old_capacity, table_.capacity(), bytes, moved, moved != 0,
                       std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
  return true;
}

// Growth before it is needed: what a burst would otherwise pay mid-frame, paid when the caller
// chooses. Paged layouts add pages (nothing moves); one-buffer layouts rebuild at least twice
// as big, as a full emplace would, so repeated calls do not relocate every frame.
template <class T>
bool VectorPool<T>::grow_ahead(std::size_t free_slots) {
  const std::size_t free_now = table_.capacity() - size();
  if (free_now >= free_slots || table_.capacity() >= state_.policy.max_capacity) return false;
  if (iterating_ != 0 || callbacks_ != 0 || parallel_passes_ != 0)
    return false;  // not mid-pass: a hint, never an error
  std::size_t wanted = std::min(size() + free_slots, state_.policy.max_capacity);
  if (!is_paged_storage(state_.policy.storage)) {
    if (!std::is_move_constructible_v<T> && !empty()) return false;  // the rebuild would move them: see reserve()
    wanted = std::max(wanted, next_contiguous_capacity());
  }
  return reserve(wanted);  // announce() fits the chunked passes' lists to the new capacity
}

// Backs the memory of slots [max(used, prefaulted), capacity) page by page, up to max_bytes:
// the slot table's arrays, and the objects (packed: the store's positions, which fill from 0
// as the bumped slots do, so the same range covers the next positions too).
template <class T>
std::size_t VectorPool<T>::prefault(std::size_t max_bytes) noexcept {
  const std::size_t slot_bytes = 2 * sizeof(std::uint32_t) + (state_.heap     ? Heap::position_bytes()
                                                              : state_.packed ? Store::position_bytes()
                                                                              : sizeof(typename ObjectPage::Slot));
  std::uint32_t from = std::max(state_.prefaulted, table_.used());
  std::size_t asked = 0;
  while (from < table_.capacity() && asked + slot_bytes <= max_bytes) {
    const std::size_t page = table_.page_of(from);
    const std::uint32_t offset = static_cast<std::uint32_t>(table_.offset_of(from));
    const std::size_t room = std::min<std::size_t>(table_.page(page).slot_count() - offset, table_.capacity() - from);
    const auto count = static_cast<std::uint32_t>(std::min(room, (max_bytes - asked) / slot_bytes));
    asked += table_.page(page).populate(offset, count);
    asked += state_.packed ? with_dense([&](const auto& store) { return store.populate(from, count); })
                           : objects_.page(page).populate(offset, count);
    from += count;
  }
  state_.prefaulted = from;
  return asked;
}

// Every growth (and rebuild) ends here. The chunked passes' victim lists are fitted to the new
// capacity now, in the frame that grew, so the next chunked pass allocates nothing: a pool that
// grows in a step after that step's pass would otherwise allocate in the next step's pass.
template <class T>
void VectorPool<T>::announce(const GrowthEvent& event) {
  ++state_.counters.growth_events;
  if (parallel_passes_ == 0) {
    try {
      reserve_chunk_victims(chunk_victims_.size());
    } catch (const std::bad_alloc&) {  // the pool grew; the next chunked pass asks again (and throws there)
    }
  }
  if (listener_) listener_(event);
}

template <class T>
void VectorPool<T>::set_growth_listener(GrowthListener listener) {
  listener_ = std::move(listener);
}

}  // namespace engine
