#pragma once
// engine::detail::HeapStore<T>: the object half of VectorPool's heap layout (pooling off). Each
// object is its own `operator new` (one per emplace, one delete per release), and pages beside
// the dense index's (detail/dense_index.hpp) hold a pointer per position: the std::vector<T*>
// with swap-remove that a game without a pool keeps, behind the pool's handles, so a game can
// switch pooling off without a second engine and its handles stay valid. A release moves a
// pointer, never an object. Nothing here is faster than that vector of pointers would be, on
// purpose: it is the baseline the pooled layouts are measured against. Pages of pointers are
// added as the pool grows (heap is a paged layout), so a growth never moves an object either.
#include <engine/pool/detail/dense_index.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/packed_store.hpp>  // relocate_object
#include <engine/pool/detail/populate_memory.hpp>
#include <engine/pool/detail/walk.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

template <class T>
class HeapStore : public DenseIndex {
 public:
  using Slot = RawSlot<T>;  // what take_out() needs from its caller (unused: the object stays in its box)

  HeapStore() noexcept = default;
  explicit HeapStore(unsigned shift) noexcept : DenseIndex(shift) {}
  HeapStore(HeapStore&& other) noexcept
      : DenseIndex(std::move(other)), boxes_(std::move(other.boxes_)), spares_(std::move(other.spares_)) {}
  HeapStore& operator=(HeapStore&& other) noexcept {
    if (this != &other) {
      free_spares();
      DenseIndex::operator=(std::move(other));
      boxes_ = std::move(other.boxes_);
      spares_ = std::move(other.spares_);
    }
    return *this;
  }
  HeapStore(const HeapStore&) = delete;
  HeapStore& operator=(const HeapStore&) = delete;
  ~HeapStore() { free_spares(); }  // the pool destroyed (and freed) every object before

  // Allocates `count` objects' memory ahead, for claims that must not fail (a migration into
  // the heap layout moves every live object inside noexcept code; a growth's first object).
  // Throws bad_alloc and then keeps none of them.
  void reserve_boxes(std::size_t count) {
    spares_.reserve(spares_.size() + count);
    for (std::size_t k = 0; k < count; ++k) {
      void* box = allocate_box();
      if (box == nullptr) {
        free_spares();
        throw std::bad_alloc();
      }
      spares_.push_back(box);
    }
  }

  std::size_t bytes() const noexcept {  // the pointer arrays, the index, and the objects' own allocations
    std::size_t total = DenseIndex::bytes() + (std::size_t{size()} + spares_.size()) * sizeof(T);
    for (const Boxes& page : boxes_) total += page.capacity() * sizeof(T*);
    return total;
  }
  void add_page(std::size_t length) { add_page_with(boxes_, Boxes(length), length); }  // see DenseIndex::add_page_with
  void pop_page() noexcept { pop_page_with(boxes_); }
  // Backs the pointers and index entries of positions [first, first + count) (one page's); each
  // object's own allocation is the heap's business.
  std::size_t populate(std::uint32_t first, std::uint32_t count) const noexcept {
    return populate_memory(boxes_[page_number(first)].data() + offset(first), count * sizeof(T*)) +
           populate_index(first, count);
  }
  static constexpr std::size_t position_bytes() noexcept { return sizeof(T*) + 2 * sizeof(std::uint32_t); }

  T* object(std::uint32_t position) const noexcept { return boxes_[page_number(position)][offset(position)]; }
  T* object_of(std::uint32_t index) const noexcept { return object(position_of(index)); }
  T* const* page_boxes(std::size_t p) const noexcept { return boxes_[p].data(); }

  // The walk over the objects at dense positions [first, last) below `count` (walk_dense): one
  // pointer per object, as a std::vector<T*> loop reads them.
  template <Visit How, class Ref, class Generation, class F>
  void walk(std::uint32_t count, std::uint64_t first, std::uint64_t last, const Generation& generation_of, F& f) {
    const auto objects_of = [this](std::size_t p) {
      T* const* const boxes = boxes_[p].data();
      return [boxes](std::uint32_t k) -> Ref { return *boxes[k]; };
    };
    walk_dense<How, Ref>(*this, count, first, last, generation_of, f, objects_of);
  }

  // A new object's own allocation (a reserved one first), its pointer at the back, claimed
  // before T's constructor runs; nullptr, and nothing claimed, when the allocation fails.
  void* claim_back(std::uint32_t index) noexcept {
    void* box = take_box();
    if (box == nullptr) return nullptr;
    box_at(push_position(index)) = static_cast<T*>(box);
    return box;
  }
  void* claim_reserved(std::uint32_t index) noexcept {  // a box was reserved for this claim
    void* const where = claim_back(index);
    if (where == nullptr) std::abort();  // cannot happen
    return where;
  }
  // A batch of appends split across threads (see PackedStore::claim_batch_at): the nth claim
  // takes the box the nth claim_back() would have taken after reserve_boxes(batch size).
  void* claim_batch_at(std::uint32_t position, std::uint32_t index, std::uint32_t nth) noexcept {
    void* const box = spares_[spares_.size() - 1 - nth];
    box_at(position) = static_cast<T*>(box);
    set(position, index);
    return box;
  }
  void end_batch(std::uint32_t count) noexcept {
    spares_.resize(spares_.size() - count);  // smaller: never allocates
    set_size(size() + count);
  }
  // Relocation into this store: position `position`'s object goes into a reserved box, and
  // adopt_back() then records it (see PackedStore::move_into).
  void* place_at(std::uint32_t position) noexcept {
    void* const box = take_box();
    if (box == nullptr) std::abort();  // make_layout reserved one for every live object
    box_at(position) = static_cast<T*>(box);
    return box;
  }
  void adopt_back(std::uint32_t index) noexcept { push_position(index); }

  // Closes the hole at `position` (its object freed, or taken out): the last pointer moves in.
  void fill_hole(std::uint32_t position) noexcept {
    const std::uint32_t last = pop_position();
    if (position != last) {
      box_at(position) = object(last);
      set(position, index_at(last));
    }
  }
  void unclaim(std::uint32_t position) noexcept {  // its constructor threw: the box goes
    free_box(object(position));
    fill_hole(position);
  }
  // The object stays where it is (its pointer leaves the array); once its destructor ran,
  // dispose() frees it.
  T* take_out(std::uint32_t index, Slot&) noexcept {
    const std::uint32_t position = position_of(index);
    T* const object_there = object(position);
    fill_hole(position);
    return object_there;
  }
  void dispose(T* taken) noexcept { free_box(taken); }
  void drop(std::uint32_t index) noexcept { drop_at(position_of(index)); }
  void drop_at(std::uint32_t position) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    free_box(object(position));
    fill_hole(position);
  }
  ENGINE_POOL_HOT void prefetch_hole_at(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_WRITE(boxes_[page_number(position)].data() + offset(position));
    prefetch_dense_write(position);
  }
  // The steps of a batch of removals split across threads (see PackedStore::free_at).
  void free_at(std::uint32_t position) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    free_box(object(position));
  }
  void fill_hole_from(std::uint32_t hole, std::uint32_t entry) noexcept {
    const std::uint32_t index = index_at(entry);
    box_at(hole) = object(position_of(index));  // the mover has not moved yet
    set(hole, index);
  }
  void shrink_to(std::uint32_t size) noexcept { set_size(size); }
  void drop_all() noexcept {  // every object already destroyed (or trivially destructible)
    for (std::uint32_t p = 0; p < size(); ++p) free_box(object(p));
    set_size(0);
  }

  // Relocation into another heap store: only the pointers move.
  void move_into(HeapStore& target) noexcept {
    for (std::uint32_t p = 0; p < size(); ++p) {
      target.box_at(p) = object(p);
      target.adopt_back(index_at(p));
    }
    set_size(0);
  }
  // Into a packed store: each object moves into the target's array and its box is freed.
  template <class Target>
  void move_into(Target& target) noexcept {
    for (std::uint32_t p = 0; p < size(); ++p) {
      T* const from = object(p);
      relocate_object(target.place_at(p), *from);
      free_box(from);
      target.adopt_back(index_at(p));
    }
    set_size(0);
  }

 private:
  using Boxes = std::vector<T*, UninitializedAllocator<T*>>;

  T*& box_at(std::uint32_t position) noexcept { return boxes_[page_number(position)][offset(position)]; }
  // One object's memory, as `new T` gets it (over-aligned T: the aligned operator new).
  static void* allocate_box() noexcept {
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      return ::operator new (sizeof(T), std::align_val_t{alignof(T)}, std::nothrow);
    } else {
      return ::operator new(sizeof(T), std::nothrow);
    }
  }
  static void free_box(void* box) noexcept {
    if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      ::operator delete (box, std::align_val_t{alignof(T)});
    } else {
      ::operator delete(box);
    }
  }
  void* take_box() noexcept {
    if (spares_.empty()) return allocate_box();
    void* box = spares_.back();
    spares_.pop_back();
    return box;
  }
  void free_spares() noexcept {
    for (void* box : spares_) free_box(box);
    spares_.clear();
  }

  std::vector<Boxes> boxes_;   // page p: the pointers of positions [first_position(p), ...)
  std::vector<void*> spares_;  // memory reserved for claims that must not fail
};

}  // namespace engine::detail
