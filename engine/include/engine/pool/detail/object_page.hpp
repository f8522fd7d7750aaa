#pragma once
// engine::detail::ObjectPage<T>: one run of raw object slots, the half of a pool page that
// holds the objects. The other half, everything kept per slot that knows no T (generation,
// occupancy, the free stack's and release queue's shares), is the slot table's page
// (detail/slot_table.hpp): a SlotStore's page p (detail/slot_store.hpp) sits beside table page p.
// Contiguous mode has one page that is replaced when it grows; stable mode has many pages that
// never move. The dense layouts keep their objects in a PackedStore (detail/packed_store.hpp)
// or a HeapStore (detail/heap_store.hpp), and their object pages stay empty.
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/populate_memory.hpp>
#include <engine/pool/detail/slot_table_page.hpp>

#include <cstddef>
#include <new>
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

template <class T>
class ObjectPage {
 public:
  using Slot = RawSlot<T>;

  ObjectPage() noexcept = default;  // no object bytes: a packed layout's page
  // slot_count slots, all free and poisoned; allocated, not written (UninitializedAllocator).
  explicit ObjectPage(std::size_t slot_count) : slots_(slot_count) {
    poison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  ~ObjectPage() {  // the pool destroyed every object before; hand clean memory back
    unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  ObjectPage(ObjectPage&&) noexcept = default;  // vectors keep their buffers: objects do not move
  ObjectPage& operator=(ObjectPage&& other) noexcept {
    if (this != &other) {
      unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
      slots_ = std::move(other.slots_);
    }
    return *this;
  }
  ObjectPage(const ObjectPage&) = delete;
  ObjectPage& operator=(const ObjectPage&) = delete;

  void* raw(std::size_t offset) noexcept { return slots_[offset].bytes; }
  T* object(std::size_t offset) noexcept { return std::launder(reinterpret_cast<T*>(slots_[offset].bytes)); }
  const T* object(std::size_t offset) const noexcept {
    return std::launder(reinterpret_cast<const T*>(slots_[offset].bytes));
  }
  Slot* slots() noexcept { return slots_.data(); }
  const Slot* slots() const noexcept { return slots_.data(); }
  std::size_t slot_count() const noexcept { return slots_.size(); }            // 0 in the packed layouts
  std::size_t populate(std::size_t first, std::size_t count) const noexcept {  // see SlotTablePage::populate
    return populate_memory(slots_.data() + first, count * sizeof(Slot));
  }
  std::size_t bytes() const noexcept { return slots_.capacity() * sizeof(Slot); }

 private:
  std::vector<Slot, UninitializedAllocator<Slot>> slots_;
};

}  // namespace engine::detail
