#pragma once
// engine::detail::DenseIndex: the half of VectorPool's dense layouts that knows no T. Live
// objects sit at positions [0, size()) with no holes; two index arrays tie those positions to
// the pool's slot indices, which handles name and which never move:
//   dense index[position] = slot index of the object there (read by passes wanting handles),
//   position[slot index]  = where that slot's object sits now (read by get()).
// Both arrays are cut into pages of the same length: position p lives in page p >> shift, and
// so does slot index p's position entry. Packed keeps one page as long as the capacity (shift
// 32: every position is in page 0); packed_pages and heap keep fixed pages and grow by adding
// one, so no entry moves (EnTT's sparse set, paged). What sits at a position is the store's
// business: the object itself (PackedStore, detail/packed_store.hpp) or a pointer to its own
// allocation (HeapStore, detail/heap_store.hpp); both keep this index and the same rule, a
// removal moves the last object into the hole. The pool's slot metadata (generations,
// occupancy, free stack, release queue) stays in the slot table (detail/slot_table.hpp).
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/populate_memory.hpp>
#include <engine/pool/detail/slot_table_page.hpp>  // UninitializedAllocator
#include <engine/pool/detail/walk.hpp>
#include <engine/pool/pool_handle.hpp>

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace engine::detail {

class DenseIndex {
 public:
  DenseIndex() noexcept = default;  // one page, as long as the capacity (packed)
  // No pages yet; each add_page() adds 1 << shift positions (packed_pages, heap). The last page
  // may be shorter (a pool whose cap cuts it short), never one before it.
  explicit DenseIndex(unsigned shift) noexcept : shift_(shift), mask_((std::uint32_t{1} << shift) - 1) {}
  DenseIndex(DenseIndex&& other) noexcept
      : pages_(std::move(other.pages_)),
        shift_(other.shift_),
        mask_(other.mask_),
        capacity_(std::exchange(other.capacity_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  DenseIndex& operator=(DenseIndex&& other) noexcept {
    if (this != &other) {
      pages_ = std::move(other.pages_);
      shift_ = other.shift_;
      mask_ = other.mask_;
      capacity_ = std::exchange(other.capacity_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  DenseIndex(const DenseIndex&) = delete;
  DenseIndex& operator=(const DenseIndex&) = delete;
  ~DenseIndex() = default;

  std::uint32_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t page_count() const noexcept { return pages_.size(); }
  std::size_t page_length(std::size_t page) const noexcept { return pages_[page].dense.size(); }
  std::size_t bytes() const noexcept {
    std::size_t total = 0;
    for (const Page& page : pages_) total += (page.dense.capacity() + page.position.capacity()) * sizeof(std::uint32_t);
    return total;
  }

  std::uint32_t index_at(std::uint32_t position) const noexcept { return page(position).dense[offset(position)]; }
  std::uint32_t position_of(std::uint32_t index) const noexcept { return page(index).position[offset(index)]; }
  // The page `position` is in, and its offset there (the range-for's cursor).
  std::size_t page_number(std::uint32_t position) const noexcept {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(position) >> shift_);
  }
  std::uint32_t offset(std::uint32_t position) const noexcept { return position & mask_; }
  std::uint32_t first_position(std::size_t p) const noexcept {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(p) << shift_);
  }
  const std::uint32_t* page_dense(std::size_t p) const noexcept { return pages_[p].dense.data(); }

  // A batch of removals in a pool far bigger than the caches (erase_if's release phase) waits
  // on cold lines per victim: its dense entry, then the moved object's position entry. Asking
  // for them a few victims ahead overlaps those misses. HOT, or GCC drops them (bit_ops.hpp).
  ENGINE_POOL_HOT void prefetch_position(std::uint32_t index) const noexcept {
    ENGINE_POOL_PREFETCH_READ(&page(index).position[offset(index)]);
  }
  ENGINE_POOL_HOT void prefetch_dense(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_READ(&page(position).dense[offset(position)]);
  }
  ENGINE_POOL_HOT void prefetch_dense_write(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_WRITE(&page(position).dense[offset(position)]);
  }
  // The position entry of the object `from_end` before the last.
  ENGINE_POOL_HOT void prefetch_tail(std::uint32_t from_end) const noexcept {
    if (from_end < size_) prefetch_position(index_at(size_ - 1 - from_end));
  }
  // A batch of removals played on the index alone (VectorPool::release_victims_chunked).
  void copy_dense(std::uint32_t to, std::uint32_t from) noexcept { page(to).dense[offset(to)] = index_at(from); }

 protected:
  // Adds a page of `length` entries at the end; throws bad_alloc and then changes nothing.
  void add_index_page(std::size_t length) {
    Page page{Entries(length), Entries(length)};
    pages_.push_back(std::move(page));
    capacity_ += length;
  }
  // A store's page: its half (`page`, for positions [capacity(), capacity() + length)) and the
  // index's, added together; throws bad_alloc and then changes neither.
  template <class StorePage>
  void add_page_with(std::vector<StorePage>& store_pages, StorePage&& page, std::size_t length) {
    if (store_pages.size() == store_pages.capacity()) {
      store_pages.reserve(std::max<std::size_t>(8, 2 * store_pages.size()));
    }
    add_index_page(length);
    store_pages.push_back(std::move(page));  // reserved: cannot throw
  }
  template <class StorePage>
  void pop_page_with(std::vector<StorePage>& store_pages) noexcept {  // every position in it is past size()
    store_pages.pop_back();
    pop_index_page();
  }
  void pop_index_page() noexcept {  // every position in it is past size()
    capacity_ -= pages_.back().dense.size();
    pages_.pop_back();
  }
  // Backs the index entries of positions (and slot indices) [first, first + count), one page's.
  std::size_t populate_index(std::uint32_t first, std::uint32_t count) const noexcept {
    const Page& p = page(first);
    const std::uint32_t at = offset(first);
    return populate_memory(p.dense.data() + at, count * sizeof(std::uint32_t)) +
           populate_memory(p.position.data() + at, count * sizeof(std::uint32_t));
  }
  void set(std::uint32_t position, std::uint32_t index) noexcept {
    page(position).dense[offset(position)] = index;
    page(index).position[offset(index)] = position;
  }
  std::uint32_t push_position(std::uint32_t index) noexcept {  // the next position, for slot `index`
    const std::uint32_t position = size_++;
    set(position, index);
    return position;
  }
  std::uint32_t pop_position() noexcept { return --size_; }  // the last position, now past the end
  void set_size(std::uint32_t size) noexcept { size_ = size; }

 private:
  using Entries = std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>>;
  struct Page {
    Entries dense;
    // Only live slots' entries mean anything (a free slot's entry is stale and never read).
    Entries position;
  };
  Page& page(std::uint32_t at) noexcept { return pages_[page_number(at)]; }
  const Page& page(std::uint32_t at) const noexcept { return pages_[page_number(at)]; }

  std::vector<Page> pages_;
  unsigned shift_ = 32;  // one page holds every position (packed)
  std::uint32_t mask_ = 0xFFFFFFFFu;
  std::size_t capacity_ = 0;
  std::uint32_t size_ = 0;
};

// The dense layouts' walk: the objects at positions [first, last) below `count` (the size when
// the pass began: objects f emplaces land behind it), in position order, a page at a time. No
// bits to test, no holes to skip; a handle costs generation_of(index), the one read of the slot
// table. objects_of(p) gives page p's objects as a callable k -> Ref, read once per page, so
// the inner loop is the store's own (an array of objects, or of pointers). f may add a page
// (nothing moves); a growth that would move the objects is refused mid-pass by the pool.
template <Visit How, class Ref, class Generation, class F, class ObjectsOf>
void walk_dense(const DenseIndex& index, std::uint32_t count, std::uint64_t first, std::uint64_t last,
                const Generation& generation_of, F& f, const ObjectsOf& objects_of) {
  for (std::size_t p = 0; p < index.page_count(); ++p) {
    const std::uint32_t base = index.first_position(p);
    if (count <= base || base >= last) break;
    const auto length = static_cast<std::uint32_t>(std::min<std::size_t>(count - base, index.page_length(p)));
    const auto begin = static_cast<std::uint32_t>(first > base ? std::min<std::uint64_t>(first - base, length) : 0);
    const auto end = static_cast<std::uint32_t>(std::min<std::uint64_t>(last - base, length));
    const std::uint32_t* const dense = index.page_dense(p);
    const auto objects = objects_of(p);
    for (std::uint32_t k = begin; k < end; ++k) {
      if constexpr (How == Visit::handle_and_object) {
        f(PoolHandle{dense[k], generation_of(dense[k])}, objects(k));
      } else if constexpr (How == Visit::position_and_object) {
        f(base + k, objects(k));
      } else {
        f(objects(k));
      }
    }
  }
}

}  // namespace engine::detail
