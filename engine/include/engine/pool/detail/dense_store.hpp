// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::DenseStore<T, Paged>: the live objects dense at positions [0, size), found
// through a sparse index (slot -> position, in the slot table's entries beside the generations)
// and a dense one (position -> slot), as EnTT's storage and SG14's slot_map keep them. A walk
// never meets a hole and reads memory in order; a release moves the last object into the hole.
// - Paged = false (Packed): one buffer; growth moves every object into a bigger one.
// - Paged = true (PackedPages): pages of 2^k positions that never move: growth adds a page, so
//   the largest pools grow without a spike; a walk crosses a page edge every 2^k objects.
// A dying object leaves the array (the last one takes its place) before its destructor runs, so
// the destructor may call back into the pool; that costs one more move when T has a destructor.
#include <engine/pool/detail/slot_table.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace engine::detail {

template <class T, bool Paged>
class DenseStore {
  using Slot = RawSlot<T>;
  static_assert(std::is_nothrow_move_constructible_v<T>,
                "a packed storage moves objects inside release(), which is noexcept: T's move constructor must be too");

 public:
  static constexpr bool dense = true;        // walks positions [0, size)
  static constexpr bool relocates = !Paged;  // growth moves objects

  explicit DenseStore(const GrowthPolicy& policy) noexcept
      : shift_(Paged ? log2_of(page_slots_for(policy.page_slots, sizeof(Slot))) : 31) {}
  DenseStore(DenseStore&& other) noexcept : shift_(other.shift_) { swap(other); }  // `other` keeps its page size, empty
  DenseStore& operator=(DenseStore&& other) noexcept {
    DenseStore taken(std::move(other));
    swap(taken);
    shift_ = taken.shift_;
    return *this;
  }

  std::size_t page_slots() const noexcept { return Paged ? std::size_t{1} << shift_ : 0; }
  std::size_t room_for(std::size_t slots) const noexcept {
    return Paged ? (slots + page_slots() - 1) >> shift_ << shift_ : slots;
  }
  std::size_t bytes() const noexcept {
    return capacity_ * (sizeof(Slot) + sizeof(std::uint32_t)) + pages_.count() * sizeof(Slot*);
  }
  std::uint32_t size() const noexcept { return size_; }

  // Room for `capacity` positions, all or nothing. Packed builds the object for slot `index` in
  // the new buffer first (build(where)), so a constructor that throws leaves everything as it was.
  template <class Build = std::nullptr_t>
  bool grow(std::size_t capacity, SlotTable& table, std::uint32_t index = 0, Build&& build = nullptr) {
    if (capacity <= capacity_) return true;
    if (!index_.grow(capacity)) return false;
    if constexpr (Paged) {
      static_cast<void>(index), static_cast<void>(build);
      if (!pages_.add((capacity - capacity_) >> shift_, page_slots())) return false;
      capacity_ = capacity;
    } else if (!rebuild(capacity, build)) {
      return false;
    }
    if constexpr (!std::is_same_v<std::decay_t<Build>, std::nullptr_t>) place(table, index);  // built at that position
    return true;
  }
  std::size_t shrink(std::uint32_t live_end, const SlotTable&) {
    const std::size_t keep = room_for(std::max<std::size_t>(live_end, size_));
    if constexpr (Paged) {
      pages_.drop_to(keep >> shift_);
      capacity_ = keep;
    } else if (keep < capacity_) {
      rebuild(keep, nullptr);
    }
    return capacity_;
  }

  void* place(SlotTable& table, std::uint32_t index) noexcept {  // the next position
    const std::uint32_t pos = size_++;
    table.position(index) = pos;
    index_[pos] = index;
    return at(pos).bytes;
  }
  void unplace(SlotTable& table, std::uint32_t index) noexcept { take_hole(table, table.position(index)); }  // unbuilt
  T* find(const SlotTable& table, std::uint32_t index) noexcept { return object_in(at(table.position(index))); }
  void destroy(SlotTable& table, std::uint32_t index) noexcept {  // the slot is retired already
    const std::uint32_t pos = table.position(index);
    if constexpr (std::is_trivially_destructible_v<T>) {
      take_hole(table, pos);
    } else {
      Slot taken;  // out of the array first: the array is whole while the destructor runs
      relocate(object_in(at(pos)), taken.bytes);
      take_hole(table, pos);
      object_in(taken)->~T();
    }
  }
  // What destroy(index), `ahead` releases on, writes: the hole, its dense entry, the filler's entry.
  void prefetch(const SlotTable& table, std::uint32_t index, std::uint32_t ahead) const noexcept {
    const std::uint32_t pos = table.position(index);
    __builtin_prefetch(at(pos).bytes, 1);
    __builtin_prefetch(&index_[pos], 1);
    if (size_ > ahead) table.prefetch(index_[size_ - 1 - ahead]);
  }
  void forget_all() noexcept { size_ = 0; }  // the objects went elsewhere (a storage switch)
  bool prepare_nodes(std::size_t) noexcept { return true; }

  std::size_t walk_end(const SlotTable&) const noexcept { return size_; }
  template <class F>
  void walk(const SlotTable&, std::size_t first, std::size_t last, F&& f) {
    while (first < last) {  // a page at a time, and a block of the dense index at a time
      Slot* const base = &at(static_cast<std::uint32_t>(first));
      const std::uint32_t* const indices = &index_[first];
      const std::size_t page_end = (first >> shift_ << shift_) + (std::size_t{1} << shift_);
      const std::size_t run = std::min({last - first, page_end - first, index_.run(first)});
      for (std::size_t i = 0; i < run; ++i) f(*object_in(base[i]), indices[i]);
      first += run;
    }
  }
  std::uint64_t next(const SlotTable&, std::uint64_t pos) const noexcept { return pos < size_ ? pos : no_position; }
  std::uint32_t index_at(std::uint64_t pos) const noexcept { return index_[pos]; }
  T* object_at(std::uint64_t pos) noexcept { return object_in(at(static_cast<std::uint32_t>(pos))); }
  void* raw_at(std::uint32_t pos) noexcept { return at(pos).bytes; }
  bool validate(const SlotTable& table, std::size_t live) const noexcept {
    if (size_ != live || capacity_ < table.capacity()) return false;
    for (std::uint32_t pos = 0; pos < size_; ++pos) {
      const std::uint32_t index = index_[pos];
      if (index >= table.used() || !table.is_occupied(index) || table.position(index) != pos) return false;
    }
    return true;
  }

 private:
  Slot& at(std::uint32_t pos) const noexcept {
    if constexpr (Paged) {
      return pages_[pos >> shift_][pos & ((std::uint32_t{1} << shift_) - 1)];
    } else {
      return pages_[0][pos];
    }
  }
  // Position `pos` is empty now: the last object moves into it, and the array ends one sooner.
  void take_hole(SlotTable& table, std::uint32_t pos) noexcept {
    const std::uint32_t last = --size_;
    if (pos != last) {
      relocate(object_in(at(last)), at(pos).bytes);
      const std::uint32_t moved = index_[last];
      index_[pos] = moved;
      table.position(moved) = pos;
    }
    mark_released(at(last).bytes, sizeof(T), sizeof(Slot));
  }
  template <class Build>
  bool rebuild(std::size_t capacity, Build&& build) {  // one buffer: the objects keep their positions
    Slot* const fresh = allocate_slots<T>(capacity);
    if (fresh == nullptr || !pages_.reserve_first()) {
      free_slots(fresh);
      return false;
    }
    poison(fresh, capacity * sizeof(Slot));
    if constexpr (!std::is_same_v<std::decay_t<Build>, std::nullptr_t>) {
      ENGINE_POOL_TRY { build(fresh[size_].bytes); }
      ENGINE_POOL_CATCH(...) {
        free_slots(fresh);
        ENGINE_POOL_RETHROW;
      }
    }
    for (std::uint32_t pos = 0; pos < size_; ++pos) relocate(object_in(at(pos)), fresh[pos].bytes);
    pages_.replace_first(fresh);
    capacity_ = capacity;
    return true;
  }
  void swap(DenseStore& other) noexcept {
    std::swap(pages_, other.pages_);
    std::swap(index_, other.index_);
    std::swap(capacity_, other.capacity_);
    std::swap(size_, other.size_);
  }

  SlotPages<T> pages_;           // the objects' pages (Packed: one)
  Blocks<std::uint32_t> index_;  // position -> slot (slot -> position: the table's entries)
  std::size_t capacity_ = 0;     // positions allocated
  std::uint32_t size_ = 0;
  unsigned shift_ = 31;  // log2 of the page's positions (Packed: one page as long as the buffer)
};

}  // namespace engine::detail
