#pragma once
// engine::detail::SlotPage<T>: one run of raw object slots plus the per-slot metadata that
// belongs to them. Contiguous mode has one page that is replaced when it grows; stable mode
// has many pages that never move. Keeping generations, occupancy bits and a share of the
// free stack and of the release_later() queue inside the page (not in pool-wide arrays) is
// what makes stable growth O(page), not O(capacity), and what lets the two-phase release
// paths run without ever allocating: their storage arrives with the slots. Packed mode keeps
// its objects in a PackedStore (detail/packed_store.hpp) and uses a page without object
// bytes as its index space: the same metadata, so handles and queues keep one code path.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/generation.hpp>
#include <engine/pool/detail/memory_poison.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

// Raw storage for one T: right size and alignment, no constructor. The array of these is
// what makes alignas(64) types land on 64-byte boundaries (C++17 std::allocator honours
// over-alignment). Under AddressSanitizer a slot is also aligned (and so padded) to the
// shadow granule, so poisoning one slot never touches its neighbour's shadow byte.
template <class T>
inline constexpr std::size_t slot_alignment = alignof(T) > poison_granule ? alignof(T) : poison_granule;

template <class T>
struct alignas(slot_alignment<T>) RawSlot {
  unsigned char bytes[sizeof(T)];
};

// std::allocator that default-initialises: vector<RawSlot>(n) then costs no memset, so a
// fresh stable page is not touched until its slots are used.
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

template <class T>
class SlotPage {
 public:
  using Slot = RawSlot<T>;

  // All slots start free and poisoned. Nothing but the occupancy bits is written: a slot's
  // generation is set when the pool first hands the slot out, so a new page costs an
  // allocation, not a pass over its memory (that pass, with its page faults, was half of
  // a stable growth's time).
  // holds_objects false: metadata only (packed mode's index space); raw()/object() unusable.
  explicit SlotPage(std::size_t slot_count, bool holds_objects = true)
      : slots_(holds_objects ? slot_count : 0),
        generations_(slot_count),
        free_stack_(slot_count),
        pending_(slot_count),
        queue_position_(slot_count),
        occupied_(words_for(slot_count), 0) {
    poison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  ~SlotPage() {  // the pool destroyed every object before; hand clean memory back
    unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  SlotPage(SlotPage&&) noexcept = default;  // vectors keep their buffers: objects do not move
  SlotPage& operator=(SlotPage&& other) noexcept {
    if (this != &other) {
      unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
      slots_ = std::move(other.slots_);
      generations_ = std::move(other.generations_);
      free_stack_ = std::move(other.free_stack_);
      pending_ = std::move(other.pending_);
      queue_position_ = std::move(other.queue_position_);
      occupied_ = std::move(other.occupied_);
    }
    return *this;
  }
  SlotPage(const SlotPage&) = delete;
  SlotPage& operator=(const SlotPage&) = delete;

  void* raw(std::size_t offset) noexcept { return slots_[offset].bytes; }
  T* object(std::size_t offset) noexcept { return std::launder(reinterpret_cast<T*>(slots_[offset].bytes)); }
  const T* object(std::size_t offset) const noexcept {
    return std::launder(reinterpret_cast<const T*>(slots_[offset].bytes));
  }
  Slot* slots() noexcept { return slots_.data(); }
  const Slot* slots() const noexcept { return slots_.data(); }
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
  bool holds_objects() const noexcept { return slots_.size() == generations_.size(); }
  bool is_empty() const noexcept {
    for (const std::uint64_t word : occupied_) {
      if (word != 0) return false;
    }
    return true;
  }
  bool is_occupied(std::size_t offset) const noexcept { return test_bit(occupied_.data(), offset); }
  void set_occupied(std::size_t offset) noexcept { set_bit(occupied_.data(), offset); }
  void clear_occupied(std::size_t offset) noexcept { clear_bit(occupied_.data(), offset); }
  std::size_t bytes() const noexcept {
    return slots_.capacity() * sizeof(Slot) +
           (generations_.capacity() + free_stack_.capacity() + queue_position_.capacity()) * sizeof(std::uint32_t) +
           pending_.capacity() * sizeof(QueuedHandle) + occupied_.capacity() * sizeof(std::uint64_t);
  }

 private:
  std::vector<Slot, UninitializedAllocator<Slot>> slots_;
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
