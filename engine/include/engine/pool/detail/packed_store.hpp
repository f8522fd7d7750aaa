#pragma once
// engine::detail::PackedStore<T>: the object half of VectorPool's packed layouts (packed and
// packed_pages). Live objects sit dense at positions [0, size()) of pages beside the dense
// index's (detail/dense_index.hpp), so a pass over them never meets a hole; a removal moves
// the last object into the hole (swap-pop applied to the objects, as EnTT's storage and SG14's
// slot_map do). Packed keeps one page as long as the capacity and grows by building a bigger
// store and moving every object across; packed_pages keeps fixed pages and grows by adding
// one, so nothing moves (EnTT's storage shape). A pool's get() reads the slot's position as
// well as its generation: one dependent load more than the slot layouts. It needs T's move
// constructor to be noexcept: removals run inside noexcept release(), and a move that threw
// half-way would lose an object. The heap layout keeps the same index over pointers instead
// (detail/heap_store.hpp); neither store branches on the other.
#include <engine/pool/detail/dense_index.hpp>
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/populate_memory.hpp>
#include <engine/pool/detail/walk.hpp>
#include <engine/pool/pool_handle.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

// Move-construct at `where`, destroy the source. The pool enters a dense layout only for a T
// whose move constructor is noexcept; for other T this still compiles, and is never reached.
template <class T>
void relocate_object(void* where, T& from) noexcept {
  if constexpr (std::is_move_constructible_v<T>) {
    ::new (where) T(std::move(from));
    from.~T();
  } else {
    std::abort();
  }
}

template <class T>
class PackedStore : public DenseIndex {
 public:
  using Slot = RawSlot<T>;

  PackedStore() noexcept = default;
  // One page of `capacity` positions (packed).
  explicit PackedStore(std::size_t capacity) {
    if (capacity != 0) add_page(capacity);
  }
  struct Paged {  // no pages yet; each add_page() adds 1 << shift positions (packed_pages)
    unsigned shift;
  };
  explicit PackedStore(Paged paged) noexcept : DenseIndex(paged.shift) {}
  PackedStore(PackedStore&&) noexcept = default;  // object pages keep their buffers: no object moves
  PackedStore& operator=(PackedStore&&) noexcept = default;
  PackedStore(const PackedStore&) = delete;
  PackedStore& operator=(const PackedStore&) = delete;
  ~PackedStore() = default;  // the pool destroyed every object before

  std::size_t bytes() const noexcept {
    std::size_t total = DenseIndex::bytes();
    for (const ObjectPage<T>& page : objects_) total += page.bytes();
    return total;
  }
  void add_page(std::size_t length) {  // see DenseIndex::add_page_with
    add_page_with(objects_, ObjectPage<T>(length), length);
  }
  void pop_page() noexcept { pop_page_with(objects_); }
  // Backs positions [first, first + count) (one page's) and their index entries before they are
  // first written (see SlotTablePage::populate).
  std::size_t populate(std::uint32_t first, std::uint32_t count) const noexcept {
    return objects_[page_number(first)].populate(offset(first), count) + populate_index(first, count);
  }
  // Bytes one position costs populate(): the object and two index entries.
  static constexpr std::size_t position_bytes() noexcept { return sizeof(Slot) + 2 * sizeof(std::uint32_t); }

  T* object(std::uint32_t position) noexcept { return objects_[page_number(position)].object(offset(position)); }
  const T* object(std::uint32_t position) const noexcept {
    return objects_[page_number(position)].object(offset(position));
  }
  T* object_of(std::uint32_t index) noexcept { return object(position_of(index)); }
  const T* object_of(std::uint32_t index) const noexcept { return object(position_of(index)); }
  void* raw(std::uint32_t position) noexcept { return objects_[page_number(position)].raw(offset(position)); }
  Slot* page_objects(std::size_t p) noexcept { return objects_[p].slots(); }
  const Slot* page_objects(std::size_t p) const noexcept { return objects_[p].slots(); }

  // The walk over the objects at dense positions [first, last) below `count` (walk_dense).
  template <Visit How, class Ref, class Generation, class F>
  void walk(std::uint32_t count, std::uint64_t first, std::uint64_t last, const Generation& generation_of, F& f) {
    using Object = std::remove_reference_t<Ref>;
    const auto objects_of = [this](std::size_t p) {
      Slot* const slots = objects_[p].slots();
      return [slots](std::uint32_t k) -> Ref { return *std::launder(reinterpret_cast<Object*>(slots[k].bytes)); };
    };
    walk_dense<How, Ref>(*this, count, first, last, generation_of, f, objects_of);
  }

  // Where a new object for slot `index` is built: the position is claimed (size grows) before
  // T's constructor runs, so a constructor that emplaces gets the next position.
  void* claim_back(std::uint32_t index) noexcept {
    void* where = raw(push_position(index));
    unpoison_bytes(where, sizeof(T));
    return where;
  }
  void* claim_reserved(std::uint32_t index) noexcept { return claim_back(index); }  // never fails
  // A batch of appends split across threads (VectorPool::emplace_chunked): where the object for
  // slot `index` goes, at `position` (size() plus its place in the batch), on any thread; the
  // batch's positions are distinct, and end_batch(count) then counts them in. `nth` (its place
  // in the batch) names the heap's reserved box; here it is not needed.
  void* claim_batch_at(std::uint32_t position, std::uint32_t index, std::uint32_t) noexcept {
    set(position, index);
    void* where = raw(position);
    unpoison_bytes(where, sizeof(T));
    return where;
  }
  void end_batch(std::uint32_t count) noexcept { set_size(size() + count); }
  // Records an object already built at position size() (growth builds it before the others move in).
  void adopt_back(std::uint32_t index) noexcept { push_position(index); }
  // Where relocation into this store builds position `position`'s object.
  void* place_at(std::uint32_t position) noexcept {
    void* where = raw(position);
    unpoison_bytes(where, sizeof(T));
    return where;
  }

  // Closes the hole at `position` (its object already destroyed or moved out): the last object
  // moves in and its slot learns its new place. The vacated last position is poisoned again.
  void fill_hole(std::uint32_t position) noexcept {
    const std::uint32_t last = pop_position();
    if (position != last) {
      relocate_object(raw(position), *object(last));
      set(position, index_at(last));
    }
    mark_slot_released(raw(last), sizeof(T));
  }
  // A hole at `position` whose bytes were never a finished object (its constructor threw).
  void unclaim(std::uint32_t position) noexcept {
    unpoison_bytes(raw(position), sizeof(T));
    fill_hole(position);
  }
  // Takes slot `index`'s object out of the array and returns it, still alive, in `out` (raw
  // storage for one T). The array is consistent before the caller runs the destructor, so a
  // destructor that calls back into the pool (releases, emplaces, even clear's loop) finds a
  // packed array with no dying object in it: nothing can move an object mid-destruction.
  T* take_out(std::uint32_t index, Slot& out) noexcept {
    const std::uint32_t position = position_of(index);
    relocate_object(out.bytes, *object(position));
    fill_hole(position);
    return std::launder(reinterpret_cast<T*>(out.bytes));
  }
  void dispose(T*) noexcept {}  // after take_out() and the destructor: the copy was on the caller's stack
  // Drops slot `index`'s object without a destructor (T trivially destructible).
  void drop(std::uint32_t index) noexcept { drop_at(position_of(index)); }
  void drop_at(std::uint32_t position) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    fill_hole(position);
  }
  ENGINE_POOL_HOT void prefetch_hole_at(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_WRITE(objects_[page_number(position)].slots() + offset(position));
    prefetch_dense_write(position);
  }
  // A batch of removals split across threads (VectorPool::release_victims_chunked) ends as
  // the same removals one at a time, highest position first (drop_at), would: each object that
  // survives at or above the new size ends in the hole drop_at would have given it. In three
  // steps: the victims go (free_at: nothing to free here, any thread); the removals above the
  // new size are played on the dense index alone (copy_dense, one thread), which leaves the
  // survivor for hole j at entry new_size + j; then every hole below the new size is filled from
  // its entry (fill_hole_from, any thread: each task writes only its own holes and its movers'
  // position entries), and shrink_to() ends the array there.
  void free_at(std::uint32_t) noexcept { static_assert(std::is_trivially_destructible_v<T>); }
  void fill_hole_from(std::uint32_t hole, std::uint32_t entry) noexcept {
    const std::uint32_t index = index_at(entry);
    relocate_object(raw(hole), *object(position_of(index)));  // the mover has not moved yet
    set(hole, index);
  }
  void shrink_to(std::uint32_t size) noexcept {  // positions [size, size()) hold no object any more
    for (std::uint32_t p = size; p < this->size(); ++p) mark_slot_released(raw(p), sizeof(T));
    set_size(size);
  }
  void drop_all() noexcept { shrink_to(0); }  // every object already destroyed (or trivially destructible)

  // Relocation into another dense store (bigger, smaller, paged otherwise, or the heap's):
  // same positions, same slot indices. Only live objects' entries are carried.
  template <class Target>
  void move_into(Target& target) noexcept {
    for (std::uint32_t p = 0; p < size(); ++p) {
      relocate_object(target.place_at(p), *object(p));
      mark_slot_released(raw(p), sizeof(T));
      target.adopt_back(index_at(p));
    }
    set_size(0);
  }

 private:
  std::vector<ObjectPage<T>> objects_;  // page p: positions [first_position(p), ...)
};

}  // namespace engine::detail
