#pragma once
// engine::detail::PendingLayout<T>: a storage arrangement VectorPool builds beside the current
// one (a growth, a shrink, a layout switch), fills by relocating the live objects, and only then
// adopts, so a bad_alloc or a throwing move midway leaves the pool as it was
// (detail/vector_pool_layout.hpp builds, fills and adopts it).
#include <engine/pool/detail/heap_store.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/packed_store.hpp>
#include <engine/pool/detail/slot_table.hpp>
#include <engine/pool/detail/slot_table_page.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine::detail {

template <class T>
struct PendingLayout {
  // Replace pages [first_page...] of the table and of the slot store; first_page > 0 only with
  // the same page size. Dense (packed, packed_pages, heap): the object pages are empty, the
  // objects go in `store`, or `heap` for the heap layout.
  std::vector<SlotTablePage> table;
  std::vector<ObjectPage<T>> objects;
  bool packed = false;  // dense: store or heap
  bool is_heap = false;
  PackedStore<T> store;
  HeapStore<T> heap;
  std::size_t first_page = 0;
  unsigned shift = SlotTable::one_page_shift;
  std::uint32_t mask = 0xFFFFFFFFu;
  std::uint32_t capacity = 0;
  std::size_t bytes = 0;

  template <class F>
  decltype(auto) with_dense(F&& f) {  // the dense store the target uses: f compiled for both
    if (is_heap) return f(heap);
    return f(store);
  }
  const DenseIndex& dense() const noexcept {  // its positions, either store
    return is_heap ? static_cast<const DenseIndex&>(heap) : store;
  }
};

}  // namespace engine::detail
