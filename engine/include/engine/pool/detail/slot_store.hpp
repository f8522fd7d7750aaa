#pragma once
// engine::detail::SlotStore<T>: the object half of VectorPool's slot-indexed layouts
// (contiguous, stable). Object page p holds the objects of table page p (detail/slot_table.hpp):
// slot index i lives at offset i & mask of page i >> shift, so an object never leaves its slot
// and a handle's index is its address. Contiguous is one page, replaced by a bigger one when it
// grows; stable is fixed-size pages that never move. The dense layouts keep their objects in a
// PackedStore (detail/packed_store.hpp) or a HeapStore (detail/heap_store.hpp) instead; this store then has empty pages
// beside the table's, so page numbers stay shared.
//
// Why pages: index = page * page_slots + offset in both layouts, so they share every code path
// and a pool migrates between them with every handle kept. A stable growth allocates one object
// page and one table page and touches nothing else: no O(n) copy, so the worst single emplace
// stays short, and pointers to objects stay valid until their release or a layout change.
//
// It owns the page array and the one-page view (a one-page pool's objects, read by the pool's
// get() without the page table), refreshed by every operation that changes the page count, and
// the walk over live objects in slot order (walk), the pool's hottest loop in these layouts.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/slot_table.hpp>
#include <engine/pool/detail/walk.hpp>
#include <engine/pool/pool_handle.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

template <class T>
class SlotStore {
 public:
  using Page = ObjectPage<T>;
  using Slot = RawSlot<T>;

  SlotStore() noexcept = default;
  SlotStore(SlotStore&& other) noexcept  // page buffers move with the array: the view stays right
      : pages_(std::move(other.pages_)), flat_(std::exchange(other.flat_, nullptr)) {}
  SlotStore& operator=(SlotStore&& other) noexcept {
    if (this != &other) {
      pages_ = std::move(other.pages_);
      flat_ = std::exchange(other.flat_, nullptr);
    }
    return *this;
  }
  SlotStore(const SlotStore&) = delete;
  SlotStore& operator=(const SlotStore&) = delete;

  std::size_t page_count() const noexcept { return pages_.size(); }
  Page& page(std::size_t p) noexcept { return pages_[p]; }
  const Page& page(std::size_t p) const noexcept { return pages_[p]; }
  Slot* flat_slots() const noexcept { return flat_; }  // page 0's slots while it is the only page, else null
  std::size_t bytes() const noexcept {                 // the page array and every page's slots
    std::size_t total = pages_.capacity() * sizeof(Page);
    for (const Page& page : pages_) total += page.bytes();
    return total;
  }

  // Where slot `index` lives: its object slot here and its metadata in the slot table. One-page
  // pools (contiguous, or stable before their first growth) answer from the two one-page views,
  // one load shorter than through the page tables, which matters on the handle -> generation
  // chain every release and get() waits on; the branch rarely changes between calls, so it
  // predicts well. The packed layouts ask it for the metadata alone (their object pages are empty).
  struct Ref {
    Slot* slots;
    std::uint32_t* generations;
    std::uint64_t* occupied;
    std::size_t offset;  // ...the slot's offset in each
    SlotTable::SlotMeta meta() const noexcept { return {generations, occupied, offset}; }
    void* bytes() const noexcept { return slots[offset].bytes; }
    T* object() const noexcept { return std::launder(reinterpret_cast<T*>(slots[offset].bytes)); }
  };
  struct Flat {  // a one-page pool's objects and metadata, all null with several pages: kept in
                 // locals by loops that would otherwise reload the views after every store
    Slot* slots;
    std::uint32_t* generations;
    std::uint64_t* occupied;
    Ref at(std::uint32_t index) const noexcept { return Ref{slots, generations, occupied, index}; }
  };
  Flat flat(const SlotTable& table) const noexcept {
    return Flat{flat_, table.flat().generations, table.flat().occupied};
  }
  ENGINE_POOL_HOT Ref locate(const SlotTable& table, std::uint32_t index) const noexcept {
    const SlotTable::Flat& one_page = table.flat();
    if (one_page.generations != nullptr) return Ref{flat_, one_page.generations, one_page.occupied, index};
    const std::size_t p = table.page_of(index);
    auto& meta = const_cast<SlotTablePage&>(table.page(p));
    return Ref{const_cast<Slot*>(pages_[p].slots()), meta.generations(), meta.occupied(), table.offset_of(index)};
  }

  // Page-array changes, in step with the slot table's operations of the same names.
  std::size_t page_table_capacity() const noexcept { return pages_.capacity(); }
  void reserve_pages(std::size_t pages) { pages_.reserve(pages); }  // throws bad_alloc, changing nothing
  void push_page(Page&& page) noexcept {  // the caller reserved room (no reallocation can throw here)
    pages_.push_back(std::move(page));
    refresh_flat();
  }
  void pop_page() noexcept {
    pages_.pop_back();
    refresh_flat();
  }
  void swap_page_table(std::vector<Page>& spare) noexcept {  // see swap_page_arrays
    swap_page_arrays(pages_, spare);
    refresh_flat();
  }
  void drop_pages_from(std::size_t first) noexcept {
    pages_.erase(pages_.begin() + static_cast<std::ptrdiff_t>(first), pages_.end());
    refresh_flat();
  }
  void adopt_pages(std::vector<Page>&& pages, std::size_t first_page) noexcept {  // a layout change
    replace_pages_from(pages_, std::move(pages), first_page);
    refresh_flat();
  }
  void clear() noexcept {  // every object already destroyed
    pages_.clear();
    refresh_flat();
  }

  // The walk: the live objects at slot indices [first, last) in address order, per page, per
  // occupancy word, per set bit (first and last multiples of 64, or last == all_positions, so
  // whole words are read). Page data pointers are read once per page: growth inside f may
  // reallocate the page arrays, but never a page's buffers. Each word is read once: the pool
  // refuses releases during a pass, so it cannot lose bits under us. Ref is T& or const T&.
  //
  // Stable pages are separate allocations, so the hardware prefetchers lose the stream at every
  // page boundary and the first few kilobytes of each page arrive one miss at a time (measured:
  // a pass over 1M objects in 1024-slot pages was ~1.5x one in a single buffer). So the walk
  // asks for the next page's occupancy words as it enters a page, and for the start of its
  // objects (into L2) a few words before it leaves one.
  template <Visit How, class Ref, class F>
  void walk(const SlotTable& table, std::uint64_t first, std::uint64_t last, F& f) const {
    using Object = std::remove_reference_t<Ref>;
    for (std::size_t p = static_cast<std::size_t>(first >> table.shift()); p < table.page_count(); ++p) {
      const std::uint64_t base = static_cast<std::uint64_t>(p) << table.shift();
      if (base >= last) break;
      const SlotTablePage& meta = table.page(p);
      Slot* const slots = const_cast<Slot*>(pages_[p].slots());  // Ref says whether f may write
      const std::uint32_t* const generations = meta.generations();
      const std::uint64_t* const occupied = meta.occupied();
      const std::size_t words =
          std::min<std::uint64_t>(meta.words(), (last - base + bits_per_word - 1) / bits_per_word);
      const bool has_next = p + 1 < table.page_count() && base + meta.slot_count() < last;
      if (has_next) prefetch_page_start(table, p + 1, false);
      const std::size_t lead_in_word = words > page_lead_in_words ? words - page_lead_in_words : 0;
      for (std::size_t w = first > base ? static_cast<std::size_t>((first - base) / bits_per_word) : 0; w < words;
           ++w) {
        if (w == lead_in_word && has_next) prefetch_page_start(table, p + 1, true);
        for (std::uint64_t bits = occupied[w]; bits != 0; bits &= bits - 1) {
          const std::size_t offset = w * bits_per_word + lowest_bit(bits);
          Ref object = *std::launder(reinterpret_cast<Object*>(slots[offset].bytes));
          if constexpr (How == Visit::handle_and_object) {
            f(PoolHandle{static_cast<std::uint32_t>(base + offset), generations[offset]}, object);
          } else if constexpr (How == Visit::position_and_object) {
            f(static_cast<std::uint32_t>(base + offset), object);
          } else {
            f(object);
          }
        }
      }
    }
  }

 private:
  static constexpr std::size_t page_lead_in_bytes = 6144;  // of the next page's objects, asked for...
  static constexpr std::size_t page_lead_in_words = 4;     // ...this many occupancy words before a page ends

  ENGINE_POOL_HOT void prefetch_page_start(const SlotTable& table, std::size_t page, bool objects) const noexcept {
    if (objects) {
      const char* first = reinterpret_cast<const char*>(pages_[page].slots());
      const std::size_t bytes = std::min<std::size_t>(page_lead_in_bytes, pages_[page].slot_count() * sizeof(Slot));
      for (std::size_t at = 0; at < bytes; at += 64) ENGINE_POOL_PREFETCH_READ_L2(first + at);
    } else {
      const SlotTablePage& meta = table.page(page);
      const char* words = reinterpret_cast<const char*>(meta.occupied());
      const std::size_t bytes = meta.words() * sizeof(std::uint64_t);
      for (std::size_t at = 0; at < bytes; at += 64) ENGINE_POOL_PREFETCH_READ(words + at);
    }
  }
  // One-page pools (every contiguous pool, a stable pool until its first growth) answer index
  // lookups from this, one load shorter than through the page array. Page 0 never moves while
  // it is the only page, so the view changes only when the page count does.
  void refresh_flat() noexcept { flat_ = pages_.size() == 1 ? pages_.front().slots() : nullptr; }

  std::vector<Page> pages_;
  Slot* flat_ = nullptr;
};

}  // namespace engine::detail
