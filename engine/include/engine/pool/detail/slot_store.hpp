// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::SlotStore<T, Paged>: objects at their slot's own place, beside the slot table;
// a walk reads the table's occupancy bits and visits live slots in address order.
// - Paged = false (Contiguous): one buffer, slot i at data[i], the shortest get(); growth
//   allocates a bigger buffer and moves every live object into it.
// - Paged = true (StablePages): pages of 2^k slots that never move, so pointers to objects stay
//   valid until their release; growth adds a page; get() reads the page table first.
#include <engine/pool/detail/slot_table.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace engine::detail {

// Relocates every pair each(fn) names, fn(T* from, void* to), always in the same order: Contiguous's
// growth and a storage switch. For a T whose move may throw it copies instead, as std::vector does,
// and if a copy throws it destroys the copies made and rethrows with every source as it was: the
// strong guarantee. (The packed storages need a noexcept move and relocate one object at a time.)
template <class T, class EachPair>
void relocate_all(EachPair&& each) {
  if constexpr (std::is_nothrow_move_constructible_v<T> || !std::is_copy_constructible_v<T>) {
    each([](T* from, void* to) { relocate(from, to); });
  } else {
    std::size_t built = 0;
    ENGINE_POOL_TRY {
      each([&](T* from, void* to) {
        construct_at<T>(to, static_cast<const T&>(*from));
        ++built;
      });
    }
    ENGINE_POOL_CATCH(...) {
      std::size_t k = 0;
      each([&](T*, void* to) {
        if (k++ < built) std::launder(static_cast<T*>(to))->~T();
      });
      ENGINE_POOL_RETHROW;
    }
    each([](T* from, void*) { from->~T(); });
  }
}

template <class T, bool Paged>
class SlotStore {
  using Slot = RawSlot<T>;

 public:
  static constexpr bool dense = false;       // walks slots through the occupancy bits
  static constexpr bool relocates = !Paged;  // growth moves objects

  explicit SlotStore(const GrowthPolicy& policy) noexcept
      : shift_(Paged ? log2_of(page_slots_for(policy.page_slots, sizeof(Slot))) : 0) {}
  SlotStore(SlotStore&& other) noexcept : shift_(other.shift_) { swap(other); }  // `other` keeps its page size, empty
  SlotStore& operator=(SlotStore&& other) noexcept {
    SlotStore taken(std::move(other));
    swap(taken);
    shift_ = taken.shift_;
    return *this;
  }
  ~SlotStore() { free_slots(data_); }

  std::size_t page_slots() const noexcept { return Paged ? std::size_t{1} << shift_ : 0; }
  std::size_t room_for(std::size_t slots) const noexcept {  // what an allocation for `slots` gives
    return Paged ? (slots + page_slots() - 1) >> shift_ << shift_ : slots;
  }
  std::size_t bytes() const noexcept { return capacity_ * sizeof(Slot) + pages_.count() * sizeof(Slot*); }

  // Room for `capacity` slots (from room_for), all or nothing. A growth that moves objects first
  // has build(where) make the object for slot `index` in the new memory, so a constructor or a
  // copy that throws leaves everything as it was.
  template <class Build = std::nullptr_t>
  bool grow(std::size_t capacity, const SlotTable& table, std::uint32_t index = 0, Build&& build = nullptr) {
    if (capacity <= capacity_) return true;
    if constexpr (Paged) {
      static_cast<void>(table), static_cast<void>(index), static_cast<void>(build);
      if (!pages_.add((capacity >> shift_) - pages_.count(), page_slots())) return false;
      capacity_ = pages_.count() << shift_;
      return true;
    } else {
      return rebuild(capacity, table, index, build);
    }
  }
  // Frees what slots [live_end, capacity) held where it can; returns the slots kept.
  std::size_t shrink(std::uint32_t live_end, const SlotTable& table) {
    if constexpr (Paged) {
      pages_.drop_to((std::size_t{live_end} + page_slots() - 1) >> shift_);
      capacity_ = pages_.count() << shift_;
    } else if (live_end < capacity_) {
      rebuild(live_end, table, 0, nullptr);
    }
    return capacity_;
  }

  // The slot's object sits at the slot's own position: the table's position entries go unused.
  void* place(const SlotTable&, std::uint32_t index) noexcept { return slot(index).bytes; }
  void unplace(const SlotTable&, std::uint32_t index) noexcept { poison(slot(index).bytes, sizeof(Slot)); }
  T* find(const SlotTable&, std::uint32_t index) noexcept { return object_in(slot(index)); }
  void destroy(const SlotTable&, std::uint32_t index) noexcept {  // the slot is retired already
    T* const object = object_in(slot(index));
    if constexpr (!std::is_trivially_destructible_v<T>) object->~T();
    mark_released(object, sizeof(T), sizeof(Slot));
  }
  void prefetch(const SlotTable&, std::uint32_t, std::uint32_t) const noexcept {}  // a release moves no object
  void forget_all() noexcept {}  // the objects went elsewhere (a storage switch)
  bool prepare_nodes(std::size_t) noexcept { return true; }

  // Walk units are occupancy words of slots [0, used): f(T&, slot index) for each live slot.
  std::size_t walk_end(const SlotTable& table) const noexcept { return table.words(); }
  template <class F>
  void walk(const SlotTable& table, std::size_t first, std::size_t last, F&& f) {
    for (std::size_t w = first; w < last; ++w) {
      std::uint64_t bits = table.word(w);
      if (bits == 0) continue;
      Slot* const base = &slot(static_cast<std::uint32_t>(w * 64));  // a page holds whole words
      for (; bits != 0; bits &= bits - 1) {
        const unsigned b = lowest_bit(bits);
        f(*object_in(base[b]), static_cast<std::uint32_t>(w * 64 + b));
      }
    }
  }
  // Positions are slot indices: the first live one at or after `pos`, else no_position.
  std::uint64_t next(const SlotTable& table, std::uint64_t pos) const noexcept {
    for (std::size_t w = pos / 64; w < table.words(); ++w) {
      const std::uint64_t bits = table.word(w) & (w == pos / 64 ? ~std::uint64_t{0} << (pos % 64) : ~std::uint64_t{0});
      if (bits != 0) return w * 64 + lowest_bit(bits);
    }
    return no_position;
  }
  std::uint32_t index_at(std::uint64_t pos) const noexcept { return static_cast<std::uint32_t>(pos); }
  T* object_at(std::uint64_t pos) noexcept { return object_in(slot(static_cast<std::uint32_t>(pos))); }
  void* raw_at(std::uint32_t pos) noexcept { return slot(pos).bytes; }
  bool validate(const SlotTable& table, std::size_t) const noexcept { return capacity_ >= table.capacity(); }

 private:
  Slot& slot(std::uint32_t index) const noexcept {
    if constexpr (Paged) {
      return pages_[index >> shift_][index & ((std::uint32_t{1} << shift_) - 1)];
    } else {
      return data_[index];
    }
  }
  // One buffer of `capacity` slots, every live object moved in (by index).
  template <class Build>
  bool rebuild(std::size_t capacity, const SlotTable& table, std::uint32_t index, Build&& build) {
    Slot* const fresh = capacity == 0 ? nullptr : allocate_slots<T>(capacity);
    if (fresh == nullptr && capacity != 0) return false;
    poison(fresh, capacity * sizeof(Slot));
    ENGINE_POOL_TRY {
      if constexpr (!std::is_same_v<std::decay_t<Build>, std::nullptr_t>) build(fresh[index].bytes);
      ENGINE_POOL_TRY {
        relocate_all<T>([&](auto&& move) {
          walk(table, 0, table.words(), [&](T& object, std::uint32_t at) { move(&object, fresh[at].bytes); });
        });
      }
      ENGINE_POOL_CATCH(...) {
        if constexpr (!std::is_same_v<std::decay_t<Build>, std::nullptr_t>) object_in(fresh[index])->~T();
        ENGINE_POOL_RETHROW;
      }
    }
    ENGINE_POOL_CATCH(...) {
      free_slots(fresh);
      ENGINE_POOL_RETHROW;
    }
    free_slots(data_);
    data_ = fresh;
    capacity_ = capacity;
    return true;
  }
  void swap(SlotStore& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(pages_, other.pages_);
    std::swap(capacity_, other.capacity_);
  }

  Slot* data_ = nullptr;      // one buffer (Paged = false)
  SlotPages<T> pages_;        // the pages (Paged = true)
  std::size_t capacity_ = 0;  // slots allocated
  unsigned shift_ = 0;        // log2 of the page's slots
};

}  // namespace engine::detail
