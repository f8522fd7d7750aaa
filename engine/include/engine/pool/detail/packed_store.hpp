#pragma once
// engine::detail::PackedStore<T>: the object half of VectorPool's packed layouts. Live objects
// sit dense at positions [0, size()), so a pass over them never meets a hole; a removal moves
// the last object into the hole (swap-pop applied to the objects, as EnTT's storage and SG14's
// slot_map do). Two index arrays tie positions to the pool's slot indices, which handles name
// and which never move:
//   dense index[position] = slot index of the object there (read by passes wanting handles),
//   position[slot index]  = where that slot's object sits now (read by get()).
// All three arrays are cut into pages of the same length: position p lives in page p >> shift,
// and so does slot index p's position entry. Packed keeps one page as long as the capacity
// (shift 32: every position is in page 0) and grows by building a bigger store and moving
// every object across; packed_pages keeps fixed pages and grows by adding one, so nothing
// moves (EnTT's storage shape). The pool's slot metadata (generations, occupancy bits, free
// stack, release queue) stays in the slot table (detail/slot_table.hpp), so handles,
// release_later() and validate() keep one path; this class only knows positions. A pool's
// get() reads the slot's position as well as its generation: one dependent load more than the
// slot layouts. It needs T's move constructor to be noexcept: removals run inside noexcept
// release(), and a move that threw half-way would lose an object.
//
// Boxed (the heap layout, pooling off): the same pages hold a pointer per position instead of
// the object, and each object is its own `operator new` (one per emplace, one delete per
// release): the std::vector<T*> with swap-remove that a game without a pool keeps, behind the
// pool's handles. A release moves a pointer, never an object.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/populate_memory.hpp>
#include <engine/pool/detail/walk.hpp>
#include <engine/pool/pool_handle.hpp>

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

  // Positions [first, first + count) of one page: what a pass walks, a page at a time.
  // Unboxed: the objects are objects[k]; boxed: *boxes[k] (objects is null).
  struct Run {
    Slot* objects;
    T* const* boxes;
    const std::uint32_t* dense;
    std::uint32_t first;
    std::uint32_t count;
  };

  PackedStore() noexcept = default;
  // One page of `capacity` positions (packed).
  explicit PackedStore(std::size_t capacity) {
    if (capacity != 0) add_page(capacity);
  }
  // No pages yet; each add_page() adds 1 << shift positions (packed_pages). The last page may
  // be shorter (a pool whose cap cuts it short), never one before it.
  struct Paged {
    unsigned shift;
    bool boxed = false;  // the heap layout: a pointer per position, each object its own allocation
  };
  explicit PackedStore(Paged paged) noexcept
      : shift_(paged.shift), mask_((std::uint32_t{1} << paged.shift) - 1), boxed_(paged.boxed) {}
  ~PackedStore() { free_spares(); }  // the pool destroyed (and freed) every object before
  PackedStore(PackedStore&& other) noexcept
      : pages_(std::move(other.pages_)),
        spares_(std::move(other.spares_)),
        shift_(other.shift_),
        mask_(other.mask_),
        boxed_(other.boxed_),
        capacity_(std::exchange(other.capacity_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  PackedStore& operator=(PackedStore&& other) noexcept {
    if (this != &other) {
      free_spares();
      pages_ = std::move(other.pages_);
      spares_ = std::move(other.spares_);
      shift_ = other.shift_;
      mask_ = other.mask_;
      boxed_ = other.boxed_;
      capacity_ = std::exchange(other.capacity_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PackedStore(const PackedStore&) = delete;
  PackedStore& operator=(const PackedStore&) = delete;

  bool boxed() const noexcept { return boxed_; }
  // Boxed: allocates `count` objects' memory ahead, for claims that must not fail (a migration
  // into the heap layout moves every live object inside noexcept code). Throws bad_alloc and
  // then keeps none of them.
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

  std::uint32_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t page_count() const noexcept { return pages_.size(); }
  std::size_t page_length(std::size_t page) const noexcept { return pages_[page].length(); }
  std::size_t bytes() const noexcept {  // boxed: the pointer arrays, and the objects' own allocations
    std::size_t total = boxed_ ? (std::size_t{size_} + spares_.size()) * sizeof(T) : 0;
    for (const Page& page : pages_) total += page.bytes();
    return total;
  }
  // Adds a page of `length` positions at the end; throws bad_alloc and then changes nothing.
  void add_page(std::size_t length) {
    Page page(length, boxed_);
    pages_.push_back(std::move(page));  // a Page's move keeps its buffers, and cannot throw
    capacity_ += length;
  }
  // Drops the last page; every position in it is past size().
  void pop_page() noexcept {
    capacity_ -= pages_.back().length();
    pages_.pop_back();
  }

  // Backs positions [first, first + count) (one page's) and slot indices [first, first +
  // count)'s position entries before they are first written (see SlotTablePage::populate).
  // Boxed: the pointers only; each object's own allocation is the heap's business.
  std::size_t populate(std::uint32_t first, std::uint32_t count) const noexcept {
    const Page& p = page(first);
    const std::uint32_t at = offset(first);
    const std::size_t objects = boxed_ ? populate_memory(p.boxes.data() + at, count * sizeof(T*))
                                       : populate_memory(p.objects.data() + at, count * sizeof(Slot));
    return objects + populate_memory(p.dense.data() + at, count * sizeof(std::uint32_t)) +
           populate_memory(p.position.data() + at, count * sizeof(std::uint32_t));
  }
  // Bytes one position costs populate(): the object (or its pointer) and two index entries.
  std::size_t position_bytes() const noexcept {
    return (boxed_ ? sizeof(T*) : sizeof(Slot)) + 2 * sizeof(std::uint32_t);
  }

  std::uint32_t index_at(std::uint32_t position) const noexcept { return page(position).dense[offset(position)]; }
  std::uint32_t position_of(std::uint32_t index) const noexcept { return page(index).position[offset(index)]; }
  T* object(std::uint32_t position) noexcept {
    Page& p = page(position);
    if (boxed_) return p.boxes[offset(position)];
    return std::launder(reinterpret_cast<T*>(p.objects[offset(position)].bytes));
  }
  const T* object(std::uint32_t position) const noexcept { return const_cast<PackedStore*>(this)->object(position); }
  T* object_of(std::uint32_t index) noexcept { return object(position_of(index)); }
  const T* object_of(std::uint32_t index) const noexcept { return object(position_of(index)); }
  void* raw(std::uint32_t position) noexcept { return page(position).objects[offset(position)].bytes; }  // unboxed
  // The positions of page `p` below `count` (a pass's end), for walking a page at a time.
  Run run(std::size_t p, std::uint32_t count) noexcept {
    const auto first = static_cast<std::uint32_t>(static_cast<std::uint64_t>(p) << shift_);
    const std::uint32_t length = static_cast<std::uint32_t>(pages_[p].length());
    return Run{boxed_ ? nullptr : pages_[p].objects.data(), boxed_ ? pages_[p].boxes.data() : nullptr,
               pages_[p].dense.data(), first, count > first ? std::min(count - first, length) : 0u};
  }
  // The packed layouts' walk: the objects at dense positions [first, last) below `count` (the
  // size when the pass began: objects f emplaces land behind it), in position order, a page at
  // a time. No bits to test, no holes to skip; a handle costs generation_of(index), the one
  // read of the slot table. f may grow a packed_pages store (a page is added, nothing moves);
  // packed growth, which would move the objects, is refused mid-pass by the pool.
  template <Visit How, class Ref, class Generation, class F>
  void walk(std::uint32_t count, std::uint64_t first, std::uint64_t last, const Generation& generation_of, F& f) {
    using Object = std::remove_reference_t<Ref>;
    for (std::size_t p = 0; p < page_count(); ++p) {
      const Run at = run(p, count);
      if (at.count == 0 || at.first >= last) break;
      const auto visit = [&](std::uint32_t k, Ref object) {
        if constexpr (How == Visit::handle_and_object) {
          f(PoolHandle{at.dense[k], generation_of(at.dense[k])}, object);
        } else if constexpr (How == Visit::position_and_object) {
          f(at.first + k, object);
        } else {
          f(object);
        }
      };
      const auto begin =
          static_cast<std::uint32_t>(first > at.first ? std::min<std::uint64_t>(first - at.first, at.count) : 0);
      const auto end = static_cast<std::uint32_t>(std::min<std::uint64_t>(last - at.first, at.count));
      if (at.boxes != nullptr) {  // heap: one pointer per object, as a std::vector<T*> loop reads them
        for (std::uint32_t k = begin; k < end; ++k) visit(k, *at.boxes[k]);
      } else {
        for (std::uint32_t k = begin; k < end; ++k) {
          visit(k, *std::launder(reinterpret_cast<Object*>(at.objects[k].bytes)));
        }
      }
    }
  }
  // The page `position` is in, and its offset there (the range-for's cursor).
  std::size_t page_number(std::uint32_t position) const noexcept {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(position) >> shift_);
  }
  std::uint32_t offset(std::uint32_t position) const noexcept { return position & mask_; }
  std::uint32_t first_position(std::size_t p) const noexcept {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(p) << shift_);
  }
  Slot* page_objects(std::size_t p) noexcept { return pages_[p].objects.data(); }  // unboxed
  const Slot* page_objects(std::size_t p) const noexcept { return pages_[p].objects.data(); }
  T* const* page_boxes(std::size_t p) const noexcept { return boxed_ ? pages_[p].boxes.data() : nullptr; }

  // Where a new object for slot `index` is built: the position is claimed (size grows) before
  // T's constructor runs, so a constructor that emplaces gets the next position. Boxed: its
  // own allocation (a reserved one first); nullptr, and nothing claimed, when that fails.
  void* claim_back(std::uint32_t index) noexcept {
    if (boxed_) {
      void* box = take_box();
      if (box == nullptr) return nullptr;
      const std::uint32_t position = size_++;
      set(position, index);
      page(position).boxes[offset(position)] = static_cast<T*>(box);
      return box;
    }
    const std::uint32_t position = size_++;
    set(position, index);
    void* where = raw(position);
    unpoison_bytes(where, sizeof(T));
    return where;
  }
  // claim_back() where the memory was reserved first (reserve_boxes; unboxed never fails).
  void* claim_reserved(std::uint32_t index) noexcept {
    void* const where = claim_back(index);
    if (where == nullptr) std::abort();  // a box was reserved for this claim: cannot happen
    return where;
  }
  // Records an object already built at position size() (growth builds it before the others move in).
  void adopt_back(std::uint32_t index) noexcept { set(size_++, index); }

  // Closes the hole at `position` (its object already destroyed or moved out): the last object
  // moves in and its slot learns its new place. The vacated last position is poisoned again.
  // Boxed: only the pointer moves; the hole's object was freed (or taken out) before.
  void fill_hole(std::uint32_t position) noexcept {
    const std::uint32_t last = --size_;
    if (position != last) {
      if (boxed_) {
        page(position).boxes[offset(position)] = page(last).boxes[offset(last)];
      } else {
        relocate(raw(position), *object(last));
      }
      set(position, index_at(last));
    }
    if (!boxed_) mark_slot_released(raw(last), sizeof(T));
  }
  // A hole at `position` whose bytes were never a finished object (its constructor threw).
  void unclaim(std::uint32_t position) noexcept {
    if (boxed_) {
      free_box(object(position));
    } else {
      unpoison_bytes(raw(position), sizeof(T));
    }
    fill_hole(position);
  }
  // Takes slot `index`'s object out of the array and returns it, still alive, in `out` (raw
  // storage for one T). The array is consistent before the caller runs the destructor, so a
  // destructor that calls back into the pool (releases, emplaces, even clear's loop) finds a
  // packed array with no dying object in it: nothing can move an object mid-destruction.
  // Boxed: the object stays where it is (its pointer leaves the array); once its destructor
  // ran, dispose() frees it.
  T* take_out(std::uint32_t index, Slot& out) noexcept {
    const std::uint32_t position = position_of(index);
    if (boxed_) {
      T* const object_there = object(position);
      fill_hole(position);
      return object_there;
    }
    relocate(out.bytes, *object(position));
    fill_hole(position);
    return std::launder(reinterpret_cast<T*>(out.bytes));
  }
  void dispose(T* taken) noexcept {  // after take_out() and the destructor
    if (boxed_) free_box(taken);
  }
  // Drops slot `index`'s object without a destructor (T trivially destructible).
  void drop(std::uint32_t index) noexcept { drop_at(position_of(index)); }
  void drop_at(std::uint32_t position) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    if (boxed_) free_box(object(position));
    fill_hole(position);
  }
  // A batch of removals in a pool far bigger than the caches (erase_if's release phase) waits
  // on cold lines per victim: its object and dense entry, then the moved object's position
  // entry. Asking for them a few victims ahead overlaps those misses.
  void prefetch_position(std::uint32_t index) const noexcept {
    ENGINE_POOL_PREFETCH_READ(&page(index).position[offset(index)]);
  }
  void prefetch_hole_at(std::uint32_t position) const noexcept {
    const Page& p = page(position);
    if (boxed_) {
      ENGINE_POOL_PREFETCH_WRITE(&p.boxes[offset(position)]);
    } else {
      ENGINE_POOL_PREFETCH_WRITE(p.objects[offset(position)].bytes);
    }
    ENGINE_POOL_PREFETCH_WRITE(&p.dense[offset(position)]);
  }
  void prefetch_dense(std::uint32_t position) const noexcept {
    ENGINE_POOL_PREFETCH_READ(&page(position).dense[offset(position)]);
  }
  void prefetch_tail(std::uint32_t from_end) const noexcept {  // the position entry of the object `from_end`
                                                               // before the last
    if (from_end < size_) prefetch_position(index_at(size_ - 1 - from_end));
  }
  // A batch of removals split across threads (VectorPool::release_victims_chunked) ends as
  // the same removals one at a time, highest position first (drop_at), would: each object that
  // survives at or above the new size ends in the hole drop_at would have given it. In three
  // steps: the victims go (free_box_at: boxed frees each one's memory, any thread); the removals
  // above the new size are played on the dense index alone (copy_dense, one thread), which leaves
  // the survivor for hole j at entry new_size + j; then every hole below the new size is filled
  // from its entry (fill_hole_from, any thread: each task writes only its own holes and its
  // movers' position entries), and shrink_to() ends the array there.
  void free_box_at(std::uint32_t position) noexcept {
    static_assert(std::is_trivially_destructible_v<T>);
    if (boxed_) free_box(object(position));
  }
  void copy_dense(std::uint32_t to, std::uint32_t from) noexcept { page(to).dense[offset(to)] = index_at(from); }
  void fill_hole_from(std::uint32_t hole, std::uint32_t entry) noexcept {
    const std::uint32_t index = index_at(entry);
    const std::uint32_t from = position_of(index);  // the mover has not moved yet: its entry is as it was
    if (boxed_) {
      page(hole).boxes[offset(hole)] = page(from).boxes[offset(from)];
    } else {
      relocate(raw(hole), *object(from));
    }
    set(hole, index);
  }
  void shrink_to(std::uint32_t size) noexcept {  // positions [size, size()) hold no object any more
    if (!boxed_) {
      for (std::uint32_t p = size; p < size_; ++p) mark_slot_released(raw(p), sizeof(T));
    }
    size_ = size;
  }
  void drop_all() noexcept {  // every object already destroyed (or trivially destructible)
    for (std::uint32_t p = 0; p < size_; ++p) {
      if (boxed_) {
        free_box(object(p));
      } else {
        mark_slot_released(raw(p), sizeof(T));
      }
    }
    size_ = 0;
  }

  // Relocation into another store (bigger, smaller, or paged otherwise): same positions, same
  // slot indices. Only live objects' entries are carried; the rest are never read.
  // Into a boxed target from an unboxed store, each object goes into a box the target
  // reserved (reserve_boxes); between two boxed stores only the pointers move.
  void move_into(PackedStore& target) noexcept {
    for (std::uint32_t p = 0; p < size_; ++p) {
      T* const from = object(p);
      if (boxed_ && target.boxed_) {
        target.page(p).boxes[target.offset(p)] = from;
      } else {
        void* where = target.boxed_ ? target.take_box() : target.raw(p);
        if (target.boxed_) {
          target.page(p).boxes[target.offset(p)] = static_cast<T*>(where);
        } else {
          unpoison_bytes(where, sizeof(T));
        }
        relocate(where, *from);
        if (boxed_) {
          free_box(from);
        } else {
          mark_slot_released(raw(p), sizeof(T));
        }
      }
      target.set(p, index_at(p));
    }
    target.size_ = size_;
    size_ = 0;
  }

 private:
  // One page: positions [first, first + length) of the objects and the dense index, and the
  // position entries of slot indices [first, first + length).
  struct Page {
    Page(std::size_t length, bool boxed)
        : objects(boxed ? 0 : length), boxes(boxed ? length : 0), dense(length), position(length) {
      poison_bytes(objects.data(), objects.size() * sizeof(Slot));
    }
    ~Page() { unpoison_bytes(objects.data(), objects.size() * sizeof(Slot)); }  // the pool destroyed the objects
    Page(Page&&) noexcept = default;  // the buffers move with it: no object moves
    Page& operator=(Page&& other) noexcept {
      if (this != &other) {
        unpoison_bytes(objects.data(), objects.size() * sizeof(Slot));
        objects = std::move(other.objects);
        boxes = std::move(other.boxes);
        dense = std::move(other.dense);
        position = std::move(other.position);
      }
      return *this;
    }
    Page(const Page&) = delete;
    Page& operator=(const Page&) = delete;
    std::size_t length() const noexcept { return dense.size(); }
    std::size_t bytes() const noexcept {
      return objects.capacity() * sizeof(Slot) + boxes.capacity() * sizeof(T*) +
             (dense.capacity() + position.capacity()) * sizeof(std::uint32_t);
    }

    std::vector<Slot, UninitializedAllocator<Slot>> objects;  // unboxed
    std::vector<T*, UninitializedAllocator<T*>> boxes;        // boxed
    std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> dense;
    // Only live slots' entries mean anything (a free slot's entry is stale and never read).
    std::vector<std::uint32_t, UninitializedAllocator<std::uint32_t>> position;
  };

  Page& page(std::uint32_t at) noexcept { return pages_[page_number(at)]; }
  const Page& page(std::uint32_t at) const noexcept { return pages_[page_number(at)]; }
  void set(std::uint32_t position, std::uint32_t index) noexcept {
    page(position).dense[offset(position)] = index;
    page(index).position[offset(index)] = position;
  }
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
  // Move-construct at `where`, destroy the source. The pool enters a packed layout only for a
  // T whose move constructor is noexcept; for other T this still compiles, and is never reached.
  static void relocate(void* where, T& from) noexcept {
    if constexpr (std::is_move_constructible_v<T>) {
      ::new (where) T(std::move(from));
      from.~T();
    } else {
      std::abort();
    }
  }

  std::vector<Page> pages_;
  std::vector<void*> spares_;  // boxed: memory reserved for claims that must not fail
  unsigned shift_ = 32;        // one page holds every position (packed)
  std::uint32_t mask_ = 0xFFFFFFFFu;
  bool boxed_ = false;
  std::size_t capacity_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace engine::detail
