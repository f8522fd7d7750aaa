#pragma once
// engine::detail::SlotTablePage: one page of the slot table (detail/slot_table.hpp), the part
// of a pool that knows no T. For each slot of the page: its generation, its occupancy bit, and
// the page's share of the pool's LIFO free stack and of the release_later() queue with each
// slot's place in it. Every layout keeps its handles, free slots and two-phase releases in
// these; the objects live beside them (an ObjectPage<T> of raw slots per table page, or a
// PackedStore<T> or HeapStore<T> that keeps them dense). Keeping the
// metadata per page (not in pool-wide arrays) is what makes paged growth O(page), not
// O(capacity), and lets the release paths run without allocating: their room arrives with the
// slots. Compiled once, not once per T.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/populate_memory.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

// std::allocator that default-initialises: vector<U>(n) then costs no memset, so a fresh
// page is not touched until its slots are used.
template <class U>
struct UninitializedAllocator : std::allocator<U> {
  template <class V>
  struct rebind {
    using other = UninitializedAllocator<V>;
  };
  UninitializedAllocator() noexcept = default;
  template <class V>
  UninitializedAllocator(const UninitializedAllocator<V>&) noexcept {}
  template <class V>
  void construct(V* where) noexcept(std::is_nothrow_default_constructible_v<V>) {
    ::new (static_cast<void*>(where)) V;
  }
  template <class V, class... Args>
  void construct(V* where, Args&&... args) {
    ::new (static_cast<void*>(where)) V(std::forward<Args>(args)...);
  }
};

// A release_later() queue entry: a PoolHandle without PoolHandle's member initialisers, so
// a new page's queue share is allocated, never written (like its other arrays).
struct QueuedHandle {
  std::uint32_t index;
  std::uint32_t generation;
};
static_assert(std::is_trivially_default_constructible_v<QueuedHandle>);

class SlotTablePage {
 public:
  // All slots start free. Nothing but the occupancy bits is written: a slot's generation is
  // set when the pool first hands the slot out, so a new page costs an allocation, not a pass
  // over its memory (that pass, with its page faults, was half of a stable growth's time).
  explicit SlotTablePage(std::size_t slot_count)
      : generations_(slot_count),
        free_stack_(slot_count),
        pending_(slot_count),
        queue_position_(slot_count),
        occupied_(words_for(slot_count), 0) {}
  SlotTablePage(SlotTablePage&&) noexcept = default;  // vectors keep their buffers
  SlotTablePage& operator=(SlotTablePage&&) noexcept = default;
  SlotTablePage(const SlotTablePage&) = delete;
  SlotTablePage& operator=(const SlotTablePage&) = delete;

  std::uint32_t* generations() noexcept { return generations_.data(); }
  const std::uint32_t* generations() const noexcept { return generations_.data(); }
  std::uint32_t* free_stack() noexcept { return free_stack_.data(); }
  const std::uint32_t* free_stack() const noexcept { return free_stack_.data(); }
  QueuedHandle* pending() noexcept { return pending_.data(); }
  const QueuedHandle* pending() const noexcept { return pending_.data(); }
  std::uint32_t* queue_positions() noexcept { return queue_position_.data(); }
  const std::uint32_t* queue_positions() const noexcept { return queue_position_.data(); }
  std::uint64_t* occupied() noexcept { return occupied_.data(); }
  const std::uint64_t* occupied() const noexcept { return occupied_.data(); }
  std::size_t words() const noexcept { return occupied_.size(); }
  std::size_t slot_count() const noexcept { return generations_.size(); }
  bool is_empty() const noexcept {
    for (const std::uint64_t word : occupied_) {
      if (word != 0) return false;
    }
    return true;
  }
  bool is_occupied(std::size_t offset) const noexcept { return test_bit(occupied_.data(), offset); }
  void set_occupied(std::size_t offset) noexcept { set_bit(occupied_.data(), offset); }
  void clear_occupied(std::size_t offset) noexcept { clear_bit(occupied_.data(), offset); }
  // Backs slots [first, first + count)'s generations and free-stack entries (the arrays every
  // emplace and release writes) before the pool first writes them; returns the bytes asked for
  // (0 where the OS cannot: populate_memory).
  std::size_t populate(std::size_t first, std::size_t count) const noexcept {
    return populate_memory(generations_.data() + first, count * sizeof(std::uint32_t)) +
           populate_memory(free_stack_.data() + first, count * sizeof(std::uint32_t));
  }
  std::size_t bytes() const noexcept {  // the metadata's own memory (capacity, not size)
    return (generations_.capacity() + free_stack_.capacity() + queue_position_.capacity()) * sizeof(std::uint32_t) +
           pending_.capacity() * sizeof(QueuedHandle) + occupied_.capacity() * sizeof(std::uint64_t);
  }

 private:
  // Odd: live; even: free (see generation.hpp). Only slots the pool has handed out since the
  // last clear() hold a value; the rest are never read.
  std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> generations_;
  // This page's share of the pool's LIFO free stack: entry k of the stack lives in page
  // k / page_slots. An array, not links through the slots: popping never waits on a cache
  // miss to learn the next free slot, so consecutive emplaces overlap their memory traffic.
  std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> free_stack_;
  // This page's share of the release_later() queue, split the same way, and for each slot
  // where in the queue its entry is. The queue never holds more than capacity entries
  // (when repeated handles would overflow it, it drops them and keeps one entry per slot,
  // found through these positions), so the pages always have room for it and queueing
  // never allocates. A position counts only if that queue entry names this slot; the pool
  // writes a slot's position before it first reads it.
  std::vector<QueuedHandle, UninitializedAllocator<QueuedHandle>> pending_;
  std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> queue_position_;
  std::vector<std::uint64_t> occupied_;  // bit i of word w: slot w*64+i holds an object
};

}  // namespace engine::detail
