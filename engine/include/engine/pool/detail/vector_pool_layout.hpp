#pragma once
// Part of engine::VectorPool<T>'s implementation: layouts and migration.
// A Layout is a storage arrangement built beside the current one (contiguous, stable pages,
// or packed: pages of metadata plus a dense store); relocate_into / relocate_packed move the
// live objects into it (setting their occupancy bits there), SlotTable::copy_into carries
// generations, free stack and queue across, and adopt() makes it current. set_policy() and shrink_to_fit() are built
// from those pieces. Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

template <class T>
GrowthPolicy VectorPool<T>::normalized(GrowthPolicy policy) noexcept {
  policy.max_capacity = std::min(policy.max_capacity, max_index_space);
  policy.initial_capacity = std::min(policy.initial_capacity, policy.max_capacity);
  if constexpr (!packable) {  // a release would move objects whose move may throw: see StorageMode::packed
    if (policy.storage == StorageMode::packed) policy.storage = StorageMode::contiguous;
    if (policy.storage == StorageMode::packed_pages || policy.storage == StorageMode::heap) {
      policy.storage = StorageMode::stable;  // still never moves an object on growth
    }
  }
  policy.page_slots = page_slots_for(policy.page_slots, sizeof(typename ObjectPage::Slot));
  return policy;
}

template <class T>
typename VectorPool<T>::Layout VectorPool<T>::make_layout(StorageMode mode, std::size_t page_slots,
                                                          std::size_t slots) const {
  Layout layout;
  if (!is_paged_storage(mode)) {  // one page; packed: metadata only, plus the dense store
    layout.capacity = static_cast<std::uint32_t>(slots);
    layout.packed = mode == StorageMode::packed;
    if (slots != 0) {
      layout.table.reserve(1);
      layout.objects.reserve(1);
      layout.table.emplace_back(slots);
      layout.objects.emplace_back(layout.packed ? 0 : slots);
      layout.bytes = layout.table.back().bytes() + layout.objects.back().bytes();
      if (layout.packed) {
        layout.store = Store(slots);
        layout.bytes += layout.store.bytes();
      }
    }
    return layout;
  }
  layout.shift = detail::log2_exact(page_slots);
  layout.mask = static_cast<std::uint32_t>(page_slots - 1);
  layout.packed = mode != StorageMode::stable;  // packed_pages, heap: pages of metadata, plus a paged dense store
  layout.is_heap = mode == StorageMode::heap;
  if (layout.is_heap) {
    layout.heap = Heap(layout.shift);
    // Into the heap layout every live object moves into a box of its own, inside noexcept
    // code: the boxes are allocated here, where a failure still leaves the pool as it was.
    if (!state_.heap) layout.heap.reserve_boxes(size());
  } else if (layout.packed) {
    layout.store = Store(typename Store::Paged{layout.shift});
  }
  const std::size_t page_count = (slots + page_slots - 1) / page_slots;
  layout.table.reserve(page_count);
  layout.objects.reserve(page_count);
  std::size_t total = 0;
  for (std::size_t p = 0; p < page_count; ++p) {
    const std::size_t length = stable_page_length(p, page_slots);
    layout.table.emplace_back(length);
    layout.objects.emplace_back(layout.packed ? 0 : length);
    total += length;
    layout.bytes += layout.table.back().bytes() + layout.objects.back().bytes();
    if (layout.is_heap) {
      layout.heap.add_page(length);
    } else if (layout.packed) {
      layout.store.add_page(length);
    }
  }
  layout.bytes += layout.store.bytes() + layout.heap.bytes();
  layout.capacity = static_cast<std::uint32_t>(std::min(total, state_.policy.max_capacity));
  return layout;
}

// The last page rebuilt at the length the (raised) cap now allows; same page size, so it
// replaces the last page and no other page moves.
template <class T>
typename VectorPool<T>::Layout VectorPool<T>::make_longer_last_page() const {
  Layout layout;
  layout.first_page = table_.page_count() - 1;
  layout.shift = table_.shift();
  layout.mask = table_.mask();
  const std::size_t length = stable_page_length(layout.first_page, state_.policy.page_slots);
  layout.table.reserve(1);
  layout.objects.reserve(1);
  layout.table.emplace_back(length);
  layout.objects.emplace_back(length);
  layout.bytes = layout.table.back().bytes() + layout.objects.back().bytes();
  layout.capacity =
      static_cast<std::uint32_t>(std::min((layout.first_page << table_.shift()) + length, state_.policy.max_capacity));
  return layout;
}

// Moves every live object in pages [target.first_page...] to the same index in `target`,
// in address order. Nothrow moves
// go one pass (move, destroy). Otherwise copies when T can copy (strong guarantee: on an
// exception the copies are destroyed and the originals are untouched), else moves (the
// originals are left moved-from but alive, the pool consistent). Originals die afterwards.
template <class T>
std::size_t VectorPool<T>::relocate_into(Layout& target) noexcept(std::is_nothrow_move_constructible_v<T>) {
  if constexpr (!std::is_move_constructible_v<T>) {  // callers refused unless no object lives
    static_cast<void>(target);
    ENGINE_POOL_ASSERT(empty(), "relocating objects of a T that can be neither moved nor copied");
    return 0;
  } else {
    if (state_.packed || target.packed) return relocate_packed(target);
    const auto destination = [&target](std::uint32_t index) {
      return static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target.shift) - target.first_page;
    };
    std::size_t moved = 0;
    const auto move_one = [&](std::uint32_t index, T& object) {
      ObjectPage& to = target.objects[destination(index)];
      const std::size_t to_offset = index & target.mask;
      void* where = to.raw(to_offset);
      detail::unpoison_bytes(where, sizeof(T));
      if constexpr (std::is_nothrow_move_constructible_v<T>) {
        ::new (where) T(std::move(object));
        object.~T();
      } else {
        try {
          ::new (where) T(std::move_if_noexcept(object));
        } catch (...) {
          detail::poison_bytes(where, sizeof(T));
          // Undo: destroy the `moved` copies already made (they are the first live ones).
          std::size_t undone = 0;
          for (std::size_t d = 0; d < target.table.size(); ++d) {
            detail::SlotTablePage& dst = target.table[d];
            for (std::size_t dw = 0; dw < dst.words() && undone < moved; ++dw) {
              for (std::uint64_t b = dst.occupied()[dw]; b != 0 && undone < moved; b &= b - 1) {
                target.objects[d].object(dw * detail::bits_per_word + detail::lowest_bit(b))->~T();
                ++undone;
              }
              dst.occupied()[dw] = 0;
            }
          }
          throw;
        }
      }
      target.table[destination(index)].set_occupied(to_offset);
      ++moved;
    };
    walk_slots_from<Visit::position_and_object>(target.first_page, move_one);
    if constexpr (!std::is_nothrow_move_constructible_v<T>) {
      destroy_originals(target.first_page);
    }
    return moved;
  }
}

// Relocation into or out of a packed layout (or between two). Packed objects move to their
// slot's place in pages; page objects join the dense array in address order. Only reached
// for a T with a noexcept move constructor (normalized() and set_policy() see to that).
template <class T>
std::size_t VectorPool<T>::relocate_packed(Layout& target) noexcept {
  if constexpr (!packable) {
    static_cast<void>(target);
    ENGINE_POOL_ASSERT(false, "packed layout for a T whose move constructor may throw");
    return 0;
  } else {
    const std::size_t moved = state_.packed ? dense().size() : size();
    const auto page_in = [&target](std::uint32_t index) {
      return static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target.shift) - target.first_page;
    };
    if (state_.packed && target.packed) {
      with_dense([&](auto& from) { target.with_dense([&](auto& to) { from.move_into(to); }); });
      const detail::DenseIndex& index_of = target.dense();
      for (std::uint32_t p = 0; p < index_of.size(); ++p) {
        const std::uint32_t index = index_of.index_at(p);
        target.table[page_in(index)].set_occupied(index & target.mask);
      }
    } else if (state_.packed) {
      with_dense([&](auto& from) {
        for (std::uint32_t p = 0; p < from.size(); ++p) {
          const std::uint32_t index = from.index_at(p);
          ObjectPage& to = target.objects[page_in(index)];
          const std::size_t offset = index & target.mask;
          detail::unpoison_bytes(to.raw(offset), sizeof(T));
          ::new (to.raw(offset)) T(std::move(*from.object(p)));
          from.object(p)->~T();
          target.table[page_in(index)].set_occupied(offset);
        }
        from.drop_all();
      });
    } else {
      target.with_dense([&](auto& to) {
        const auto move_one = [&](std::uint32_t index, T& object) {
          ::new (to.claim_reserved(index)) T(std::move(object));
          object.~T();
          target.table[page_in(index)].set_occupied(index & target.mask);
        };
        walk_slots_from<Visit::position_and_object>(0, move_one);
      });
    }
    return moved;
  }
}

// The originals a relocation copied or moved from: their metadata already went with them.
template <class T>
void VectorPool<T>::destroy_originals(std::size_t first_page) noexcept {
  if constexpr (std::is_trivially_destructible_v<T>) return;
  const auto destroy = [](T& object) { object.~T(); };
  walk_slots_from<Visit::object>(first_page, destroy);
}

template <class T>
void VectorPool<T>::adopt(Layout&& layout) noexcept {
  table_.adopt_pages(std::move(layout.table), layout.first_page, layout.shift, layout.mask, layout.capacity);
  if (layout.first_page == 0) {
    store_ = std::move(layout.store);
    heap_ = std::move(layout.heap);
    state_.packed = layout.packed;
    state_.heap = layout.is_heap;
  }
  objects_.adopt_pages(std::move(layout.objects), layout.first_page);
  ++state_.storage_epoch;
  state_.prefaulted = 0;  // new memory: prefault() starts again from used()
}

template <class T>
void VectorPool<T>::shrink_to_fit() {
  if (refuse_mid_pass("shrink_to_fit() inside for_each/erase_if or T's constructor/destructor")) return;
  if (is_paged_storage(state_.policy.storage)) {
    std::size_t keep = table_.page_count();
    while (keep > 0 && table_.page(keep - 1).is_empty()) --keep;
    if (keep == table_.page_count()) return;
    index_release_queue();  // now at most size() entries, all in slots that stay
    const auto first_dropped = static_cast<std::uint32_t>(keep << table_.shift());
    table_.retire_generations(first_dropped, table_.used());
    table_.drop_pages_from(keep);
    objects_.drop_pages_from(keep);
    // packed_pages: live objects <= the slots kept, so the dense positions all sit in the
    // store pages kept beside them.
    if (state_.packed) {
      with_dense([&](auto& store) {
        while (store.page_count() > keep) store.pop_page();
      });
    }
    ++state_.storage_epoch;  // a range-for may hold a dropped page: its next step must notice
    state_.prefaulted = 0;   // pages dropped here and grown again later come back unbacked
    table_.set_capacity(stable_capacity());
    table_.trim_to(table_.capacity());
    table_.rebuild_free_stack();
  } else {
    std::uint32_t high = 0;  // one past the last live slot
    if (table_.page_count() != 0) {
      const detail::SlotTablePage& page = table_.page(0);
      for (std::size_t w = page.words(); w-- > 0;) {
        if (const std::uint64_t bits = page.occupied()[w]; bits != 0) {
          high = static_cast<std::uint32_t>(w * detail::bits_per_word + detail::highest_bit(bits) + 1);
          break;
        }
      }
    }
    if (high == table_.capacity()) return;
    if (refuse_immovable("shrink_to_fit() would move objects of a T that can be neither moved nor copied")) return;
    Layout layout = make_layout(growth_mode(), 0, high);  // smaller: bad_alloc propagates, pool unchanged
    index_release_queue();                                // now at most size() <= high entries, all in slots that stay
    relocate_into(layout);
    // The stack is rebuilt below (it may hold dropped slots), so none of it is copied.
    table_.copy_into(layout.table, 0, layout.shift, layout.mask, high, 0, table_.pending_count(),
                     std::min(table_.queue_positions_ready(), high));
    table_.retire_generations(high, table_.used());
    adopt(std::move(layout));
    table_.trim_to(high);
    table_.rebuild_free_stack();
  }
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after shrink_to_fit");
}

template <class T>
bool VectorPool<T>::set_policy(const GrowthPolicy& requested) {
  if (refuse_mid_pass("set_policy() inside for_each/erase_if or T's constructor/destructor")) return false;
  if (!packable && is_packed_storage(requested.storage)) return false;  // see StorageMode::packed
  const GrowthPolicy next = normalized(requested);
  if (next.max_capacity < table_.capacity()) return false;
  const bool same_layout = next.storage == state_.policy.storage &&
                           (!is_paged_storage(next.storage) || next.page_slots == state_.policy.page_slots);
  const auto started = Clock::now();
  const std::size_t old_capacity = table_.capacity();
  const GrowthPolicy previous = state_.policy;
  state_.policy = next;  // make_layout and stable_page_length read max_capacity from state_.policy
  if (same_layout) {
    // Stable: a last page cut short by the old cap must be rebuilt at the length the new
    // cap allows, or the next page would start past a hole (page p starts at p * page_slots).
    // Otherwise the cap only moves capacity() over slots the pages already hold.
    const std::size_t pages = table_.page_count();
    const bool short_last_page = is_paged_storage(next.storage) && pages != 0 &&
                                 table_.page(pages - 1).slot_count() < stable_page_length(pages - 1, next.page_slots);
    if (!short_last_page) {
      if (is_paged_storage(next.storage)) table_.set_capacity(stable_capacity());
      ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after set_policy");
      return true;
    }
  }
  if (refuse_immovable("set_policy() would move objects of a T that can be neither moved nor copied")) {
    state_.policy = previous;
    return false;
  }
  Layout layout;
  try {
    // packed_pages rebuilds its short last page by rebuilding the store (its positions are not
    // its slots: the objects in that page could belong anywhere).
    layout = same_layout && next.storage == StorageMode::stable
                 ? make_longer_last_page()
                 : make_layout(next.storage, next.page_slots, table_.capacity());
  } catch (const std::bad_alloc&) {
    state_.policy = previous;
    return false;
  }
  std::size_t moved = 0;
  try {
    moved = relocate_into(layout);
  } catch (...) {
    state_.policy = previous;
    throw;
  }
  table_.copy_into(layout.table, layout.first_page, layout.shift, layout.mask);
  const std::size_t bytes = layout.bytes;
  adopt(std::move(layout));
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after set_policy");
  announce(GrowthEvent{old_capacity, table_.capacity(), bytes, moved, moved != 0,
                       std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
  return true;
}

}  // namespace engine
