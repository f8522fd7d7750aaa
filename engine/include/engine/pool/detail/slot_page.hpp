#pragma once
// engine::detail::SlotPage<T>: one run of raw object slots beside the slot table's metadata for
// them (detail/slot_table_page.hpp: generations, occupancy, free-stack and release-queue shares).
// Contiguous mode has one page that is replaced when it grows; stable mode has many pages that
// never move. Packed mode keeps its objects in a PackedStore (detail/packed_store.hpp) and uses
// pages without object bytes as its index space: the same metadata, so handles and queues keep
// one code path.
#include <engine/pool/detail/memory_poison.hpp>
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
class SlotPage : public SlotTablePage {
 public:
  using Slot = RawSlot<T>;

  // All slots start free and poisoned; the metadata is allocated, not written (SlotTablePage).
  // holds_objects false: metadata only (packed mode's index space); raw()/object() unusable.
  explicit SlotPage(std::size_t slot_count, bool holds_objects = true)
      : SlotTablePage(slot_count), slots_(holds_objects ? slot_count : 0) {
    poison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  ~SlotPage() {  // the pool destroyed every object before; hand clean memory back
    unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
  }
  SlotPage(SlotPage&&) noexcept = default;  // vectors keep their buffers: objects do not move
  SlotPage& operator=(SlotPage&& other) noexcept {
    if (this != &other) {
      unpoison_bytes(slots_.data(), slots_.size() * sizeof(Slot));
      SlotTablePage::operator=(std::move(other));
      slots_ = std::move(other.slots_);
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
  bool holds_objects() const noexcept { return slots_.size() == slot_count(); }
  std::size_t bytes() const noexcept { return slots_.capacity() * sizeof(Slot) + SlotTablePage::bytes(); }

 private:
  std::vector<Slot, UninitializedAllocator<Slot>> slots_;
};

}  // namespace engine::detail
