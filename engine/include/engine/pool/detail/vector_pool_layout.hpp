#pragma once
// Part of engine::VectorPool<T>'s implementation: layouts and migration.
// A Layout is a storage arrangement built beside the current one (contiguous, stable pages,
// or packed: pages of metadata plus a dense store); relocate_into / relocate_packed move the
// live objects into it, copy_meta_into carries generations, free stack and queue across, and
// adopt() makes it current. set_policy() and shrink_to_fit() are built from those pieces.
// Compiles on its own: it includes the class it defines members of.
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
  policy.page_slots = page_slots_for(policy.page_slots, sizeof(typename Page::Slot));
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
      layout.pages.reserve(1);
      layout.pages.emplace_back(slots, !layout.packed);
      layout.bytes = layout.pages.back().bytes();
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
  if (layout.packed) {
    layout.store = Store(typename Store::Paged{layout.shift, mode == StorageMode::heap});
    // Into the heap layout every live object moves into a box of its own, inside noexcept
    // code: the boxes are allocated here, where a failure still leaves the pool as it was.
    if (mode == StorageMode::heap && !store_.boxed()) layout.store.reserve_boxes(size());
  }
  const std::size_t page_count = (slots + page_slots - 1) / page_slots;
  layout.pages.reserve(page_count);
  std::size_t total = 0;
  for (std::size_t p = 0; p < page_count; ++p) {
    layout.pages.emplace_back(stable_page_length(p, page_slots), !layout.packed);
    total += layout.pages.back().slot_count();
    layout.bytes += layout.pages.back().bytes();
    if (layout.packed) layout.store.add_page(layout.pages.back().slot_count());
  }
  layout.bytes += layout.store.bytes();
  layout.capacity = static_cast<std::uint32_t>(std::min(total, state_.policy.max_capacity));
  return layout;
}

// The last page rebuilt at the length the (raised) cap now allows; same page size, so it
// replaces pages_.back() and no other page moves.
template <class T>
typename VectorPool<T>::Layout VectorPool<T>::make_longer_last_page() const {
  Layout layout;
  layout.first_page = pages_.size() - 1;
  layout.shift = state_.shift;
  layout.mask = state_.mask;
  layout.pages.reserve(1);
  layout.pages.emplace_back(stable_page_length(layout.first_page, state_.policy.page_slots));
  layout.bytes = layout.pages.back().bytes();
  layout.capacity = static_cast<std::uint32_t>(
      std::min((layout.first_page << state_.shift) + layout.pages.back().slot_count(), state_.policy.max_capacity));
  return layout;
}

// Moves every live object in pages_[target.first_page...] to the same index in `target`,
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
    auto destination = [&target](std::uint32_t index) -> Page& {
      return target
          .pages[static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target.shift) - target.first_page];
    };
    std::size_t moved = 0;
    for (std::size_t p = target.first_page; p < pages_.size(); ++p) {
      Page& page = pages_[p];
      const auto base = static_cast<std::uint32_t>(p << state_.shift);
      for (std::size_t w = 0; w < page.words(); ++w) {
        for (std::uint64_t bits = page.occupied()[w]; bits != 0; bits &= bits - 1) {
          const std::size_t offset = w * detail::bits_per_word + detail::lowest_bit(bits);
          const std::uint32_t index = base + static_cast<std::uint32_t>(offset);
          Page& to = destination(index);
          const std::size_t to_offset = index & target.mask;
          void* where = to.raw(to_offset);
          detail::unpoison_bytes(where, sizeof(T));
          if constexpr (std::is_nothrow_move_constructible_v<T>) {
            ::new (where) T(std::move(*page.object(offset)));
            page.object(offset)->~T();
          } else {
            try {
              ::new (where) T(std::move_if_noexcept(*page.object(offset)));
            } catch (...) {
              detail::poison_bytes(where, sizeof(T));
              // Undo: destroy the `moved` copies already made (they are the first live ones).
              std::size_t undone = 0;
              for (Page& dst : target.pages) {
                for (std::size_t dw = 0; dw < dst.words() && undone < moved; ++dw) {
                  for (std::uint64_t b = dst.occupied()[dw]; b != 0 && undone < moved; b &= b - 1) {
                    dst.object(dw * detail::bits_per_word + detail::lowest_bit(b))->~T();
                    ++undone;
                  }
                  dst.occupied()[dw] = 0;
                }
              }
              throw;
            }
          }
          to.set_occupied(to_offset);
          ++moved;
        }
      }
    }
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
    const std::size_t moved = state_.packed ? store_.size() : size();
    const auto page_in = [&target](std::uint32_t index) -> Page& {
      return target
          .pages[static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target.shift) - target.first_page];
    };
    if (state_.packed && target.packed) {
      store_.move_into(target.store);
      for (std::uint32_t p = 0; p < target.store.size(); ++p) {
        const std::uint32_t index = target.store.index_at(p);
        page_in(index).set_occupied(index & target.mask);
      }
    } else if (state_.packed) {
      for (std::uint32_t p = 0; p < store_.size(); ++p) {
        const std::uint32_t index = store_.index_at(p);
        Page& to = page_in(index);
        const std::size_t offset = index & target.mask;
        detail::unpoison_bytes(to.raw(offset), sizeof(T));
        ::new (to.raw(offset)) T(std::move(*store_.object(p)));
        store_.object(p)->~T();
        to.set_occupied(offset);
      }
      store_.drop_all();
    } else {
      for (std::size_t p = 0; p < pages_.size(); ++p) {
        Page& page = pages_[p];
        const auto base = static_cast<std::uint32_t>(p << state_.shift);
        for (std::size_t w = 0; w < page.words(); ++w) {
          for (std::uint64_t bits = page.occupied()[w]; bits != 0; bits &= bits - 1) {
            const std::size_t offset = w * detail::bits_per_word + detail::lowest_bit(bits);
            const std::uint32_t index = base + static_cast<std::uint32_t>(offset);
            ::new (target.store.claim_reserved(index)) T(std::move(*page.object(offset)));
            page.object(offset)->~T();
            page_in(index).set_occupied(index & target.mask);
          }
        }
      }
    }
    return moved;
  }
}

// The originals a relocation copied or moved from: their metadata already went with them.
template <class T>
void VectorPool<T>::destroy_originals(std::size_t first_page) noexcept {
  if constexpr (std::is_trivially_destructible_v<T>) return;
  for (std::size_t p = first_page; p < pages_.size(); ++p) {
    Page& page = pages_[p];
    for (std::size_t w = 0; w < page.words(); ++w) {
      for (std::uint64_t bits = page.occupied()[w]; bits != 0; bits &= bits - 1) {
        page.object(w * detail::bits_per_word + detail::lowest_bit(bits))->~T();
      }
    }
  }
}

// Generations of slots [0, slots) (the ones handed out), the bottom `stack_entries` of the
// free stack, the first `queue_entries` of the release_later() queue and the queue
// positions of slots [0, queue_positions) carry over; stack and queue entries name global
// indices, so they stay right in any layout. All are copied in runs bounded by the two
// layouts' page edges, from where `target` starts.
template <class T>
void VectorPool<T>::copy_meta_into(Layout& target, std::uint32_t slots, std::uint32_t stack_entries,
                                   std::uint32_t queue_entries, std::uint32_t queue_positions) const noexcept {
  const auto start = static_cast<std::uint32_t>(target.first_page << target.shift);
  const auto copy_runs = [&](std::uint32_t count, auto array_of) {
    std::uint32_t index = start;
    while (index < count) {
      const Page& from = pages_[page_of(index)];
      const std::size_t from_offset = offset_of(index);
      Page& to =
          target.pages[static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target.shift) - target.first_page];
      const std::size_t to_offset = index & target.mask;
      const std::size_t run =
          std::min({from.slot_count() - from_offset, to.slot_count() - to_offset, std::size_t{count - index}});
      const auto* source = array_of(from) + from_offset;
      std::copy(source, source + run, array_of(to) + to_offset);
      index += static_cast<std::uint32_t>(run);
    }
  };
  copy_runs(slots, [](auto& page) { return page.generations(); });
  copy_runs(stack_entries, [](auto& page) { return page.free_stack(); });
  copy_runs(queue_entries, [](auto& page) { return page.pending(); });
  copy_runs(queue_positions, [](auto& page) { return page.queue_positions(); });
}

template <class T>
void VectorPool<T>::adopt(Layout&& layout) noexcept {
  if (layout.first_page == 0) {
    pages_ = std::move(layout.pages);
    store_ = std::move(layout.store);
    state_.packed = layout.packed;
  } else {  // as many pages come in as go out, so pages_ never reallocates here
    pages_.erase(pages_.begin() + static_cast<std::ptrdiff_t>(layout.first_page), pages_.end());
    for (Page& page : layout.pages) pages_.push_back(std::move(page));
  }
  state_.shift = layout.shift;
  state_.mask = layout.mask;
  state_.capacity = layout.capacity;
  ++state_.storage_epoch;
  refresh_flat_view();
  forget_queue_tail();  // the queue's pages were replaced
}

// A pool with one page (every contiguous pool, and a stable pool until its first growth)
// answers index lookups from pointers cached here: index == offset in that page. Stable
// page 0 never moves, so the cache only changes when the page count does.
template <class T>
void VectorPool<T>::refresh_flat_view() noexcept {
  state_.flat = FlatView{};
  if (pages_.size() == 1) {
    Page& page = pages_.front();
    state_.flat = FlatView{page.slots(),   page.generations(),     page.free_stack(),
                           page.pending(), page.queue_positions(), page.occupied()};
  }
}

template <class T>
void VectorPool<T>::shrink_to_fit() {
  if (refuse_mid_pass("shrink_to_fit() inside for_each/erase_if or T's constructor/destructor")) return;
  if (is_paged_storage(state_.policy.storage)) {
    std::size_t keep = pages_.size();
    while (keep > 0 && pages_[keep - 1].is_empty()) --keep;
    if (keep == pages_.size()) return;
    index_release_queue();  // now at most size() entries, all in slots that stay
    const auto first_dropped = static_cast<std::uint32_t>(keep << state_.shift);
    retire_generations(first_dropped, state_.used);
    pages_.erase(pages_.begin() + static_cast<std::ptrdiff_t>(keep), pages_.end());
    // packed_pages: live objects <= the slots kept, so the dense positions all sit in the
    // store pages kept beside them.
    while (state_.packed && store_.page_count() > keep) store_.pop_page();
    ++state_.storage_epoch;  // a range-for may hold a dropped page: its next step must notice
    state_.capacity = stable_capacity();
    refresh_flat_view();  // maybe one page again
    state_.used = std::min(state_.used, state_.capacity);
    state_.queue_ready = std::min(state_.queue_ready, state_.capacity);
    rebuild_free_stack();
  } else {
    std::uint32_t high = 0;  // one past the last live slot
    if (!pages_.empty()) {
      const Page& page = pages_.front();
      for (std::size_t w = page.words(); w-- > 0;) {
        if (const std::uint64_t bits = page.occupied()[w]; bits != 0) {
          high = static_cast<std::uint32_t>(w * detail::bits_per_word + detail::highest_bit(bits) + 1);
          break;
        }
      }
    }
    if (high == state_.capacity) return;
    if (refuse_immovable("shrink_to_fit() would move objects of a T that can be neither moved nor copied")) return;
    Layout layout = make_layout(growth_mode(), 0, high);  // smaller: bad_alloc propagates, pool unchanged
    index_release_queue();                                // now at most size() <= high entries, all in slots that stay
    relocate_into(layout);
    state_.queue_ready = std::min(state_.queue_ready, high);
    copy_meta_into(layout, high, 0, state_.pending_count, state_.queue_ready);  // the stack is rebuilt below: it may
                                                                                // hold dropped slots
    retire_generations(high, state_.used);
    adopt(std::move(layout));
    state_.used = std::min(state_.used, high);
    rebuild_free_stack();
  }
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after shrink_to_fit");
}

template <class T>
bool VectorPool<T>::set_policy(const GrowthPolicy& requested) {
  if (refuse_mid_pass("set_policy() inside for_each/erase_if or T's constructor/destructor")) return false;
  if (!packable && is_packed_storage(requested.storage)) return false;  // see StorageMode::packed
  const GrowthPolicy next = normalized(requested);
  if (next.max_capacity < state_.capacity) return false;
  const bool same_layout = next.storage == state_.policy.storage &&
                           (!is_paged_storage(next.storage) || next.page_slots == state_.policy.page_slots);
  const auto started = Clock::now();
  const std::size_t old_capacity = state_.capacity;
  const GrowthPolicy previous = state_.policy;
  state_.policy = next;  // make_layout and stable_page_length read max_capacity from state_.policy
  if (same_layout) {
    // Stable: a last page cut short by the old cap must be rebuilt at the length the new
    // cap allows, or the next page would start past a hole (page p starts at p * page_slots).
    // Otherwise the cap only moves state_.capacity over slots the pages already hold.
    const bool short_last_page = is_paged_storage(next.storage) && !pages_.empty() &&
                                 pages_.back().slot_count() < stable_page_length(pages_.size() - 1, next.page_slots);
    if (!short_last_page) {
      if (is_paged_storage(next.storage)) state_.capacity = stable_capacity();
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
                 : make_layout(next.storage, next.page_slots, state_.capacity);
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
  copy_meta_into(layout, state_.used, state_.free_count, state_.pending_count, state_.queue_ready);
  const std::size_t bytes = layout.bytes;
  adopt(std::move(layout));
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after set_policy");
  announce(GrowthEvent{old_capacity, state_.capacity, bytes, moved, moved != 0,
                       std::chrono::duration<double, std::micro>(Clock::now() - started).count()});
  return true;
}

}  // namespace engine
