#pragma once
// engine::detail::PackedStore<T>: the object half of VectorPool's packed layout. Live objects
// sit dense at positions [0, size()) of one array, so a pass over them never meets a hole; a
// removal moves the last object into the hole (swap-pop applied to the objects, as EnTT's
// storage and SG14's slot_map do). Two index arrays tie positions to the pool's slot indices,
// which handles name and which never move:
//   dense_index_[position] = slot index of the object there (read by passes wanting handles),
//   position_[slot index]  = where that slot's object sits now (read by get()).
// The pool's slot metadata (generations, occupancy bits, free stack, release queue) stays in
// a SlotPage without object bytes, so handles, release_later() and validate() keep one path;
// this class only knows positions. It needs T's move constructor to be noexcept: removals
// run inside noexcept release(), and a move that threw half-way would lose an object.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/slot_page.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

template <class T>
class PackedStore {
 public:
  using Slot = RawSlot<T>;

  PackedStore() noexcept = default;
  explicit PackedStore(std::size_t capacity) : objects_(capacity), dense_index_(capacity), position_(capacity) {
    poison_bytes(objects_.data(), objects_.size() * sizeof(Slot));
  }
  ~PackedStore() { unpoison_bytes(objects_.data(), objects_.size() * sizeof(Slot)); }  // the pool destroyed the objects
  PackedStore(PackedStore&& other) noexcept
      : objects_(std::move(other.objects_)),
        dense_index_(std::move(other.dense_index_)),
        position_(std::move(other.position_)),
        size_(std::exchange(other.size_, 0)) {}
  PackedStore& operator=(PackedStore&& other) noexcept {
    if (this != &other) {
      unpoison_bytes(objects_.data(), objects_.size() * sizeof(Slot));
      objects_ = std::move(other.objects_);
      dense_index_ = std::move(other.dense_index_);
      position_ = std::move(other.position_);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PackedStore(const PackedStore&) = delete;
  PackedStore& operator=(const PackedStore&) = delete;

  std::uint32_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return objects_.size(); }
  std::size_t bytes() const noexcept {
    return objects_.capacity() * sizeof(Slot) +
           (dense_index_.capacity() + position_.capacity()) * sizeof(std::uint32_t);
  }
  Slot* slots() noexcept { return objects_.data(); }
  const Slot* slots() const noexcept { return objects_.data(); }
  const std::uint32_t* dense_indices() const noexcept { return dense_index_.data(); }
  std::uint32_t index_at(std::uint32_t position) const noexcept { return dense_index_[position]; }
  std::uint32_t position_of(std::uint32_t index) const noexcept { return position_[index]; }
  T* object(std::uint32_t position) noexcept { return std::launder(reinterpret_cast<T*>(objects_[position].bytes)); }
  const T* object(std::uint32_t position) const noexcept {
    return std::launder(reinterpret_cast<const T*>(objects_[position].bytes));
  }
  T* object_of(std::uint32_t index) noexcept { return object(position_[index]); }
  const T* object_of(std::uint32_t index) const noexcept { return object(position_[index]); }

  // Where a new object for slot `index` is built: the position is claimed (size grows) before
  // T's constructor runs, so a constructor that emplaces gets the next position.
  void* claim_back(std::uint32_t index) noexcept {
    const std::uint32_t position = size_++;
    dense_index_[position] = index;
    position_[index] = position;
    void* where = objects_[position].bytes;
    unpoison_bytes(where, sizeof(T));
    return where;
  }
  // Records an object already built at position size() (growth builds it before the others move in).
  void adopt_back(std::uint32_t index) noexcept {
    dense_index_[size_] = index;
    position_[index] = size_;
    ++size_;
  }
  void* raw(std::uint32_t position) noexcept { return objects_[position].bytes; }

  // Closes the hole at `position` (its object already destroyed or moved out): the last object
  // moves in and its slot learns its new place. The vacated last position is poisoned again.
  void fill_hole(std::uint32_t position) noexcept {
    const std::uint32_t last = --size_;
    if (position != last) {
      relocate(objects_[position].bytes, *object(last));
      const std::uint32_t moved_index = dense_index_[last];
      dense_index_[position] = moved_index;
      position_[moved_index] = position;
    }
    mark_slot_released(objects_[last].bytes, sizeof(T));
  }
  // A hole at `position` whose bytes were never a finished object (its constructor threw).
  void unclaim(std::uint32_t position) noexcept {
    unpoison_bytes(objects_[position].bytes, sizeof(T));
    fill_hole(position);
  }
  // Takes slot `index`'s object out of the array and returns it, still alive, in `out` (raw
  // storage for one T). The array is consistent before the caller runs the destructor, so a
  // destructor that calls back into the pool (releases, emplaces, even clear's loop) finds a
  // packed array with no dying object in it: nothing can move an object mid-destruction.
  T* take_out(std::uint32_t index, Slot& out) noexcept {
    const std::uint32_t position = position_[index];
    relocate(out.bytes, *object(position));
    fill_hole(position);
    return std::launder(reinterpret_cast<T*>(out.bytes));
  }
  // Drops slot `index`'s object without a destructor (T trivially destructible).
  void drop(std::uint32_t index) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    fill_hole(position_[index]);
  }
  // A batch of removals in a pool far bigger than the caches (erase_if's release phase) waits
  // on cold lines per victim: its object and dense entry, then the moved object's position
  // entry. Asking for them a few victims ahead overlaps those misses.
  void prefetch_position(std::uint32_t index) const noexcept { ENGINE_POOL_PREFETCH_READ(&position_[index]); }
  void prefetch_hole_at(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_WRITE(objects_[position].bytes);
    ENGINE_POOL_PREFETCH_WRITE(&dense_index_[position]);
  }
  void prefetch_tail(std::uint32_t from_end) const noexcept {  // where the object `from_end` before the last lives in
                                                               // position_
    if (from_end < size_) ENGINE_POOL_PREFETCH_WRITE(&position_[dense_index_[size_ - 1 - from_end]]);
  }
  void drop_all() noexcept {  // every object already destroyed (or trivially destructible)
    for (std::uint32_t p = 0; p < size_; ++p) mark_slot_released(objects_[p].bytes, sizeof(T));
    size_ = 0;
  }

  // Relocation into a bigger (or smaller) store: same positions, same slot indices. The index
  // arrays are copied for slots [0, slots); positions beyond size() are never read.
  void move_into(PackedStore& target, std::uint32_t slots) noexcept {
    for (std::uint32_t p = 0; p < size_; ++p) {
      void* where = target.objects_[p].bytes;
      unpoison_bytes(where, sizeof(T));
      relocate(where, *object(p));
      mark_slot_released(objects_[p].bytes, sizeof(T));
    }
    std::copy(dense_index_.begin(), dense_index_.begin() + size_, target.dense_index_.begin());
    std::copy(position_.begin(), position_.begin() + slots, target.position_.begin());
    target.size_ = size_;
    size_ = 0;
  }

 private:
  // Move-construct at `where`, destroy the source. The pool enters packed mode only for a T
  // whose move constructor is noexcept; for other T this still compiles, and is never reached.
  static void relocate(void* where, T& from) noexcept {
    if constexpr (std::is_move_constructible_v<T>) {
      ::new (where) T(std::move(from));
      from.~T();
    } else {
      std::abort();
    }
  }

  std::vector<Slot, UninitializedAllocator<Slot>> objects_;
  std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> dense_index_;
  // Only live slots' entries mean anything (a free slot's entry is stale and never read).
  std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> position_;
  std::uint32_t size_ = 0;
};

}  // namespace engine::detail
