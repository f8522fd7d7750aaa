// SPDX-License-Identifier: MIT
#pragma once
// engine::HeapNodes: no pooling. Each object is its own operator new (as `new T` makes it) and
// its release one operator delete; the objects are found through a dense array of pointers, a
// release moving the last pointer into the hole: the std::vector<T*> with swap-remove a game
// without a pool keeps, plus the pool's handles. VectorPool switches to it for "pooling off".
// The one storage that allocates in steady state; objects never move, so growth (of the pointer
// array) is allowed mid-pass.
#include <engine/pool/detail/slot_table.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace engine {
namespace detail {

template <class T>
class HeapStore {
  static constexpr std::size_t node_align = alignof(T);

 public:
  static constexpr bool dense = true;
  static constexpr bool relocates = false;

  explicit HeapStore(const GrowthPolicy&) noexcept {}
  HeapStore(HeapStore&& other) noexcept { swap(other); }
  HeapStore& operator=(HeapStore&& other) noexcept {
    HeapStore taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~HeapStore() {
    forget_all();
    for (std::uint32_t k = 0; k < spare_count_; ++k) free_bytes(spare_[k], node_align);
  }

  std::size_t page_slots() const noexcept { return 0; }
  std::size_t room_for(std::size_t slots) const noexcept { return slots; }
  std::size_t bytes() const noexcept {
    return (size_ + spare_count_) * sizeof(T) + capacity_ * (sizeof(void*) + sizeof(std::uint32_t));
  }
  std::uint32_t size() const noexcept { return size_; }

  template <class Build = std::nullptr_t>
  bool grow(std::size_t capacity, const SlotTable&, std::uint32_t = 0, Build&& = nullptr) noexcept {
    if (capacity <= capacity_) return true;
    if (!nodes_.grow(capacity) || !index_.grow(capacity)) return false;
    capacity_ = capacity;
    return true;
  }
  std::size_t shrink(std::uint32_t live_end, const SlotTable&) noexcept {  // the arrays stay
    capacity_ = std::max<std::size_t>(live_end, size_);
    return capacity_;
  }
  // Nodes for `count` objects a storage switch moves in, allocated before any moves (all or nothing).
  bool prepare_nodes(std::size_t count) noexcept {
    if (!spare_.grow(count, spare_count_)) return false;
    for (; spare_count_ < count; ++spare_count_) {
      if ((spare_[spare_count_] = allocate_bytes(sizeof(T), node_align)) == nullptr) return false;
    }
    return true;
  }

  void* place(SlotTable& table, std::uint32_t index) noexcept {  // nullptr: out of memory
    void* const node = spare_count_ != 0 ? spare_[--spare_count_] : allocate_bytes(sizeof(T), node_align);
    if (node == nullptr) return nullptr;
    const std::uint32_t pos = size_++;
    nodes_[pos] = node;
    table.position(index) = pos;
    index_[pos] = index;
    return node;
  }
  void unplace(SlotTable& table, std::uint32_t index) noexcept {
    free_bytes(take_hole(table, table.position(index)), node_align);
  }
  T* find(const SlotTable& table, std::uint32_t index) noexcept { return object(nodes_[table.position(index)]); }
  void destroy(SlotTable& table, std::uint32_t index) noexcept {  // the array is whole before the destructor runs
    void* const node = take_hole(table, table.position(index));
    object(node)->~T();
    free_bytes(node, node_align);
  }
  // Pooling off: a plain std::vector<T*>'s release, nothing fetched ahead.
  void prefetch(const SlotTable&, std::uint32_t, std::uint32_t) const noexcept {}
  void forget_all() noexcept {  // frees the nodes; their objects are gone already
    for (std::uint32_t pos = 0; pos < size_; ++pos) free_bytes(nodes_[pos], node_align);
    size_ = 0;
  }

  std::size_t walk_end(const SlotTable&) const noexcept { return size_; }
  template <class F>
  void walk(const SlotTable&, std::size_t first, std::size_t last, F&& f) {
    for (std::size_t pos = first; pos < last; ++pos) f(*object(nodes_[pos]), index_[pos]);
  }
  std::uint64_t next(const SlotTable&, std::uint64_t pos) const noexcept { return pos < size_ ? pos : no_position; }
  std::uint32_t index_at(std::uint64_t pos) const noexcept { return index_[pos]; }
  T* object_at(std::uint64_t pos) noexcept { return object(nodes_[pos]); }
  bool validate(const SlotTable& table, std::size_t live) const noexcept {
    if (size_ != live || capacity_ < table.capacity()) return false;
    for (std::uint32_t pos = 0; pos < size_; ++pos) {
      const std::uint32_t index = index_[pos];
      if (index >= table.used() || !table.is_occupied(index) || table.position(index) != pos) return false;
    }
    return true;
  }

 private:
  static T* object(void* node) noexcept { return std::launder(static_cast<T*>(node)); }
  void* take_hole(SlotTable& table, std::uint32_t pos) noexcept {  // the node leaves; the last pointer fills its place
    void* const node = nodes_[pos];
    const std::uint32_t last = --size_;
    nodes_[pos] = nodes_[last];
    index_[pos] = index_[last];
    table.position(index_[pos]) = pos;
    return node;
  }
  void swap(HeapStore& other) noexcept {
    std::swap(nodes_, other.nodes_);
    std::swap(index_, other.index_);
    std::swap(spare_, other.spare_);
    std::swap(capacity_, other.capacity_);
    std::swap(size_, other.size_);
    std::swap(spare_count_, other.spare_count_);
  }

  Blocks<void*> nodes_;          // position -> the object's own allocation
  Blocks<std::uint32_t> index_;  // position -> slot (slot -> position: the table's entries)
  Array<void*> spare_;           // nodes allocated ahead for a storage switch
  std::size_t capacity_ = 0;
  std::uint32_t size_ = 0, spare_count_ = 0;
};

}  // namespace detail

struct HeapNodes {
  static constexpr StorageMode mode = StorageMode::heap;
  template <class T>
  using store = detail::HeapStore<T>;
};

}  // namespace engine
