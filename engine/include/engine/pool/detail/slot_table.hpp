#pragma once
// engine::detail::SlotTable: the slot table (issue 27), the half of a pool that knows no T.
// It owns the index space a pool's handles name and everything kept per slot: the pages of
// metadata (detail/slot_table_page.hpp: generations, occupancy bits, the page's shares of the
// free stack and of the release_later() queue), how an index splits into page and offset, how
// many slots exist and how many were ever handed out, the LIFO free stack, the generations a
// new or reused slot gets, and the release_later() queue. The objects live beside it, in
// whatever the layout keeps (VectorPool's object pages, a PackedStore or a HeapStore); the table neither
// knows their type nor runs their code. So this header is compiled once by its own tests
// (slot_table_test.cpp), and every layout of VectorPool<T> shares one copy of this logic.
//
// A slot goes: free (generation even) -> claimed (off the free stack or bumped past `used`,
// still even, while the pool builds the object) -> live (commit: generation odd, occupancy bit
// set) -> dead (retire: generation even again, bit clear, while the pool destroys the object)
// -> free (push_free: on the stack, the next claim's first choice). A handle is live while its
// generation equals the slot's.
//
// Why it is built so:
// - The free stack is LIFO, an index array split into per-page shares; it never links through
//   the object bytes, which stay poisoned while free. LIFO hands back the most recently freed,
//   cache-warm slot; an array rather than a linked list means a pop never waits on a cache miss
//   to find the next free slot, so a burst of emplaces into a big, cold pool overlaps its
//   misses. Slots never used since the last restart are handed out by a bump index instead, so
//   a growth pushes nothing onto the stack, and a new page is not even filled: a slot's
//   generation is written when the slot is first handed out.
// - Generations are odd while live, even while free (+1 on each claim and release), seeded per
//   pool instance (detail/generation.hpp): one compare rejects stale, null and almost every
//   foreign handle.
// - Occupancy is one bit per slot, 64 per word, so a walk visits live slots in address order,
//   skips empty words whole and finds bits with count-trailing-zeros: memory read in order is
//   what keeps a pass near a plain vector's speed (a scrambled index list is several times
//   slower on large pools).
// - The release_later() queue has a share in every page (so it grows with the pool and is
//   counted in its bytes) and never holds more than capacity() entries: when repeats would
//   overflow it, it switches to one entry per slot. Queueing never allocates.
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/generation.hpp>
#include <engine/pool/detail/slot_table_page.hpp>
#include <engine/pool/pool_handle.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine::detail {

// A stretch of one per-slot array inside one page: where entry k is, and how many of that
// page's entries start there (loops over many entries take them a page at a time).
template <class Entry>
struct PagedRun {
  Entry* first;
  std::uint32_t length;
};

// The pages of `current` move into `spare` (over its hollow pages where it has them, else
// appended within the room it reserved, so nothing allocates), and the two arrays swap: a
// growth's bigger page table, or its rollback to the old one. Page buffers never move. The
// pool moves its object pages beside the table's with it.
template <class Page>
void swap_page_arrays(std::vector<Page>& current, std::vector<Page>& spare) noexcept {
  for (std::size_t p = 0; p < current.size(); ++p) {
    if (p < spare.size()) {
      spare[p] = std::move(current[p]);
    } else {
      spare.push_back(std::move(current[p]));
    }
  }
  current.swap(spare);
}

// A layout change's pages replace `current`'s from `first_page` on. With first_page > 0 as many
// come as go, so the array keeps its buffer and nothing allocates.
template <class Page>
void replace_pages_from(std::vector<Page>& current, std::vector<Page>&& pages, std::size_t first_page) noexcept {
  if (first_page == 0) {
    current = std::move(pages);
  } else {
    current.erase(current.begin() + static_cast<std::ptrdiff_t>(first_page), current.end());
    for (Page& page : pages) current.push_back(std::move(page));
  }
}

class SlotTable {
  enum class Array { free_stack, pending, queue_positions };  // the per-slot arrays split across the pages
  template <Array A>
  static auto* array_of(SlotTablePage& page) noexcept {
    if constexpr (A == Array::free_stack) {
      return page.free_stack();
    } else if constexpr (A == Array::pending) {
      return page.pending();
    } else {
      return page.queue_positions();
    }
  }
  template <Array A>
  auto* flat_array() const noexcept {
    if constexpr (A == Array::free_stack) {
      return flat_.free_stack;
    } else if constexpr (A == Array::pending) {
      return flat_.pending;
    } else {
      return flat_.queue_positions;
    }
  }
  // Entry `position` of one of them, from the one-page view when there is one (the same
  // single load as a plain array).
  template <Array A>
  ENGINE_POOL_HOT auto& entry(std::uint32_t position) noexcept {
    if (auto* const flat = flat_array<A>()) return flat[position];
    return array_of<A>(pages_[page_of(position)])[offset_of(position)];
  }
  template <Array A>
  auto run(std::uint32_t position) noexcept {
    using Entry = std::remove_pointer_t<decltype(flat_array<A>())>;
    if (Entry* const flat = flat_array<A>()) {
      return PagedRun<Entry>{flat + position, static_cast<std::uint32_t>(pages_.front().slot_count()) - position};
    }
    SlotTablePage& page = pages_[page_of(position)];
    const auto offset = static_cast<std::uint32_t>(offset_of(position));
    return PagedRun<Entry>{array_of<A>(page) + offset, static_cast<std::uint32_t>(page.slot_count()) - offset};
  }

 public:
  static constexpr unsigned one_page_shift = 32;  // index >> 32 == 0: every index is in page 0

  // Page 0's arrays while the table has exactly one page (all null otherwise): a lookup then
  // skips the page table, one load shorter on the handle -> generation chain every get() and
  // release waits on. The branch rarely changes between calls, so it predicts well.
  struct Flat {
    std::uint32_t* generations = nullptr;
    std::uint32_t* free_stack = nullptr;
    QueuedHandle* pending = nullptr;
    std::uint32_t* queue_positions = nullptr;
    std::uint64_t* occupied = nullptr;
  };
  // One slot's generation and occupancy word, and its offset in them.
  struct SlotMeta {
    std::uint32_t* generations;
    std::uint64_t* occupied;
    std::size_t offset;
  };
  struct Claim {  // a slot taken for an object about to be built
    std::uint32_t index;
    bool from_free_stack;  // else bumped: never handed out since the last restart()
  };

  SlotTable() = default;
  explicit SlotTable(std::uint32_t seed) noexcept : seed_(seed), fresh_generation_(seed) {}
  // The pages move with their buffers, so every pointer into them (the one-page view, the
  // queue's tail) stays right in the new table; the old one is left empty, as a default one.
  SlotTable(SlotTable&& other) noexcept { swap(other); }
  SlotTable& operator=(SlotTable&& other) noexcept {
    SlotTable taken(std::move(other));
    swap(taken);
    return *this;
  }
  SlotTable(const SlotTable&) = delete;
  SlotTable& operator=(const SlotTable&) = delete;
  ~SlotTable() = default;
  void swap(SlotTable& other) noexcept {
    using std::swap;
    swap(pages_, other.pages_);
    swap(flat_, other.flat_);
    swap(shift_, other.shift_);
    swap(mask_, other.mask_);
    swap(capacity_, other.capacity_);
    swap(used_, other.used_);
    swap(free_count_, other.free_count_);
    swap(seed_, other.seed_);
    swap(fresh_generation_, other.fresh_generation_);
    swap(pending_count_, other.pending_count_);
    swap(queue_ready_, other.queue_ready_);
    swap(queue_indexed_, other.queue_indexed_);
    swap(queue_tail_, other.queue_tail_);
    swap(queue_room_, other.queue_room_);
  }

  // --- Geometry: pages of 1 << shift slots (one_page_shift: a single page) -----------------
  const std::vector<SlotTablePage>& pages() const noexcept { return pages_; }
  std::size_t page_count() const noexcept { return pages_.size(); }
  SlotTablePage& page(std::size_t p) noexcept { return pages_[p]; }
  const SlotTablePage& page(std::size_t p) const noexcept { return pages_[p]; }
  unsigned shift() const noexcept { return shift_; }
  std::uint32_t mask() const noexcept { return mask_; }
  std::size_t page_of(std::uint32_t index) const noexcept {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> shift_);
  }
  std::size_t offset_of(std::uint32_t index) const noexcept { return index & mask_; }
  // Usable slots (the pages may hold a few more, up to a whole occupancy word, under a cap).
  std::uint32_t capacity() const noexcept { return capacity_; }
  void set_capacity(std::uint32_t capacity) noexcept { capacity_ = capacity; }
  // The slots every page holds, up to `cap`: page p starts at p << shift, so only the last
  // page may be short.
  std::uint32_t slots_up_to(std::size_t cap) const noexcept {
    if (pages_.empty()) return 0;
    const std::size_t slots = ((pages_.size() - 1) << shift_) + pages_.back().slot_count();
    return static_cast<std::uint32_t>(std::min(slots, cap));
  }
  const Flat& flat() const noexcept { return flat_; }
  // Growth and shrinking: the page table changes, the pages themselves never move.
  void push_page(SlotTablePage&& page) {
    pages_.push_back(std::move(page));
    refresh_flat();
  }
  void pop_page() noexcept {
    pages_.pop_back();
    refresh_flat();
    forget_queue_tail();  // it may have pointed into the page that went
  }
  void drop_pages_from(std::size_t first) noexcept {
    pages_.erase(pages_.begin() + static_cast<std::ptrdiff_t>(first), pages_.end());
    refresh_flat();
    forget_queue_tail();
  }
  void reserve_pages(std::size_t count) { pages_.reserve(count); }
  std::size_t page_table_capacity() const noexcept { return pages_.capacity(); }
  // Another page table for the same pages (their buffers move with them, no slot moves):
  // `spare` is empty with room for more pages (a growth; the old array comes back in it, its
  // pages hollow), or that old array again (a rollback; the same length as this one).
  void swap_page_table(std::vector<SlotTablePage>& spare) noexcept {
    swap_page_arrays(pages_, spare);
    refresh_flat();
  }
  // A layout change: `pages` replace this table's pages from `first_page` on (as many go as
  // come, so with first_page > 0 nothing else moves), with the geometry they were built for.
  void adopt_pages(std::vector<SlotTablePage>&& pages, std::size_t first_page, unsigned shift, std::uint32_t mask,
                   std::uint32_t capacity) noexcept {
    replace_pages_from(pages_, std::move(pages), first_page);
    shift_ = shift;
    mask_ = mask;
    capacity_ = capacity;
    refresh_flat();
    forget_queue_tail();  // the queue's pages were replaced
  }
  // What a layout change carries into `target` (pages built for `target_shift` and
  // `target_mask`, standing for this table's pages from `first_page` on): the generations of
  // slots [0, used()), the whole free stack, the release queue and the queue positions written
  // so far. Stack and queue entries name indices, so they stay right in any layout. Entries
  // below `first_page`'s first index are not copied: those pages stay.
  void copy_into(std::vector<SlotTablePage>& target, std::size_t first_page, unsigned target_shift,
                 std::uint32_t target_mask) const noexcept {
    copy_into(target, first_page, target_shift, target_mask, used_, free_count_, pending_count_, queue_ready_);
  }
  // The same with explicit counts (a shrink carries fewer: see VectorPool::shrink_to_fit).
  void copy_into(std::vector<SlotTablePage>& target, std::size_t first_page, unsigned target_shift,
                 std::uint32_t target_mask, std::uint32_t slots, std::uint32_t stack_entries,
                 std::uint32_t queue_entries, std::uint32_t queue_positions) const noexcept;
  std::size_t bytes() const noexcept {  // the page table and every page's arrays
    std::size_t bytes = pages_.capacity() * sizeof(SlotTablePage);
    for (const SlotTablePage& page : pages_) bytes += page.bytes();
    return bytes;
  }

  // --- Slots -------------------------------------------------------------------------------
  ENGINE_POOL_HOT SlotMeta locate(std::uint32_t index) const noexcept {
    if (flat_.generations != nullptr) return SlotMeta{flat_.generations, flat_.occupied, index};
    SlotTablePage& page = const_cast<SlotTablePage&>(pages_[page_of(index)]);
    return SlotMeta{page.generations(), page.occupied(), offset_of(index)};
  }
  std::uint32_t& generation(std::uint32_t index) noexcept {
    const SlotMeta at = locate(index);
    return at.generations[at.offset];
  }
  const std::uint32_t& generation(std::uint32_t index) const noexcept {
    const SlotMeta at = locate(index);
    return at.generations[at.offset];
  }
  bool is_live(PoolHandle handle) const noexcept {
    if (!is_live_generation(handle.generation)) return false;  // null, or forged
    if (handle.index >= used_) return false;                   // never handed out / trimmed
    return generation(handle.index) == handle.generation;      // stale or foreign
  }
  bool is_occupied(std::uint32_t index) const noexcept {
    const SlotMeta at = locate(index);
    return test_bit(at.occupied, at.offset);
  }

  // --- The index space and the free stack --------------------------------------------------
  std::uint32_t used() const noexcept { return used_; }  // [0, used) handed out since restart()
  std::uint32_t free_count() const noexcept { return free_count_; }
  std::uint32_t seed() const noexcept { return seed_; }
  std::uint32_t fresh_generation() const noexcept { return fresh_generation_; }
  bool can_claim() const noexcept { return free_count_ != 0 || used_ < capacity_; }
  // The most recently freed slot (LIFO: the warmest), else the next never-used one, whose
  // generation starts at fresh_generation(). Needs can_claim().
  ENGINE_POOL_HOT Claim claim() noexcept {
    if (free_count_ != 0) return Claim{stack_entry(--free_count_), true};
    return Claim{claim_next_unused(), false};
  }
  // The slot past the last one handed out (also for the growth that just made room for it).
  ENGINE_POOL_HOT std::uint32_t claim_next_unused() noexcept {
    const std::uint32_t index = used_++;
    generation(index) = fresh_generation_;  // free (even) while the object is built
    return index;
  }
  // A batch of `count` claims built together (VectorPool::emplace_chunked; count at most
  // free_count() + capacity() - used()): batch_claim(i) is what the i-th of `count` claim()
  // calls in a row would return, readable from any thread, and take_batch(count) then takes
  // them all as those calls would have. A bumped slot's generation is the caller's to seed
  // (fresh_generation(), as claim_next_unused() does).
  Claim batch_claim(std::uint32_t i) const noexcept {
    if (i < free_count_) return Claim{stack_entry(free_count_ - 1 - i), true};
    return Claim{used_ + (i - free_count_), false};
  }
  void take_batch(std::uint32_t count) noexcept {
    const std::uint32_t popped = std::min(count, free_count_);
    free_count_ -= popped;
    used_ += count - popped;
  }
  // The object could not be built: the slot is free again. Unless something claimed slots
  // meanwhile (a constructor that emplaced), that is the state before claim().
  void unclaim(std::uint32_t index, bool from_free_stack) noexcept {
    if (!from_free_stack && used_ == index + 1) {
      used_ = index;
      return;
    }
    push_free(index);
  }
  // The object exists: the slot is live, and this is its handle.
  ENGINE_POOL_HOT static PoolHandle commit(const SlotMeta& at, std::uint32_t index) noexcept {
    std::uint32_t& g = at.generations[at.offset];
    g += 1u;  // even (free) -> odd (live)
    set_bit(at.occupied, at.offset);
    return make_handle(index, g);
  }
  // The object dies: every handle to it is stale from here on (its slot is not yet free).
  ENGINE_POOL_HOT static void retire(const SlotMeta& at) noexcept {
    retire_generation(at);
    retire_occupancy(at);
  }
  // retire()'s two halves, apart for a release phase split across threads: each task steps its
  // own slots' generations, and one thread then clears their occupancy bits (tasks' victims share
  // words). Not an atomic clear per slot: a locked instruction waits for every store before it,
  // so each victim's cold generation miss was waited out alone, one after another.
  ENGINE_POOL_HOT static void retire_generation(const SlotMeta& at) noexcept {
    at.generations[at.offset] += 1u;  // odd (live) -> even (free)
  }
  ENGINE_POOL_HOT static void retire_occupancy(const SlotMeta& at) noexcept { clear_bit(at.occupied, at.offset); }
  ENGINE_POOL_HOT void push_free(std::uint32_t index) noexcept { stack_entry(free_count_++) = index; }
  // Entries [free_count(), free_count() + count) were written in place (stack_entry): they
  // are on the stack now.
  void add_free(std::uint32_t count) noexcept { free_count_ += count; }
  void set_free_count(std::uint32_t count) noexcept { free_count_ = count; }
  // Free-stack entry `depth` (0 = bottom); the arrays hold capacity() entries, and the ones
  // above the stack's top are scratch a caller may use while nothing pushes (erase_if lists
  // its victims there).
  std::uint32_t& stack_entry(std::uint32_t depth) noexcept { return entry<Array::free_stack>(depth); }
  const std::uint32_t& stack_entry(std::uint32_t depth) const noexcept {
    return const_cast<SlotTable*>(this)->stack_entry(depth);
  }
  PagedRun<std::uint32_t> stack_run(std::uint32_t depth) noexcept { return run<Array::free_stack>(depth); }
  // A list kept in the free stack's arrays above the stack, growing down from the top of the
  // room they have (capacity() entries): erase_if's victims, listed during its pass with no
  // buffer of their own. Nothing else writes up there meanwhile (pushes are refused during a
  // pass; emplaces only pop), and free slots + listed live slots <= used <= capacity, so stack
  // and list never meet. A growth inside the pass (the predicate emplaced into a stable pool)
  // raises capacity(): when the stack would reach the list, the list first moves up to the new
  // top. The list is stack entries [first(), first() + size()), the last pushed at first().
  class TopList {
   public:
    explicit TopList(SlotTable& table) noexcept : table_(table), top_(table.capacity()) {}
    ENGINE_POOL_HOT void push(std::uint32_t entry) noexcept {
      if (table_.free_count() + size_ >= top_) move_to_top();
      if (room_ == 0) {  // the next page down of the arrays (the whole array with one page)
        const std::uint32_t depth = top_ - 1 - size_;
        room_ = static_cast<std::uint32_t>(table_.offset_of(depth)) + 1;  // entries `depth` and below in its page
        page_first_ = table_.stack_run(depth).first - (room_ - 1);
      }
      page_first_[--room_] = entry;
      ++size_;
    }
    std::uint32_t first() const noexcept { return top_ - size_; }
    std::uint32_t size() const noexcept { return size_; }

   private:
    ENGINE_POOL_COLD void move_to_top() noexcept {
      const std::uint32_t capacity = table_.capacity();
      for (std::uint32_t k = 1; k <= size_; ++k) table_.stack_entry(capacity - k) = table_.stack_entry(top_ - k);
      top_ = capacity;
      room_ = 0;
    }

    SlotTable& table_;
    std::uint32_t top_;  // the list is entries [top_ - size_, top_)
    std::uint32_t size_ = 0;
    std::uint32_t* page_first_ = nullptr;  // the page of the arrays the list is growing down into...
    std::uint32_t room_ = 0;               // ...and how many entries of it are still free below the list
  };

  // Every slot the table ever handed out is free and its generation retired: the next claims
  // bump from index 0 again, above every generation a stale handle could carry. The release
  // queue empties. Occupancy bits are the caller's: they must be clear already.
  void restart() noexcept {
    retire_generations(0, used_);
    used_ = 0;
    free_count_ = 0;
    end_queue();
  }
  // Slots [first, last) are about to disappear and take their generations with them; new
  // slots later created at the same indices must start above every one a stale handle names.
  void retire_generations(std::uint32_t first, std::uint32_t last) noexcept {
    std::uint32_t highest_age = fresh_generation_ - seed_;
    for (std::uint32_t index = first; index < last; ++index) {
      highest_age = std::max(highest_age, generation(index) - seed_);
    }
    fresh_generation_ = seed_ + ((highest_age + 2u) & ~1u);
  }
  std::uint32_t queue_positions_ready() const noexcept { return queue_ready_; }  // slots whose position is written
  // After a shrink to `slots`: nothing at or above it was handed out.
  void trim_to(std::uint32_t slots) noexcept {
    used_ = std::min(used_, slots);
    queue_ready_ = std::min(queue_ready_, slots);
  }
  // Free slots below used(), pushed highest first so the lowest index is reused first.
  void rebuild_free_stack() noexcept {
    free_count_ = 0;
    for (std::uint32_t index = used_; index-- > 0;) {
      if (!is_live_generation(generation(index))) push_free(index);
    }
  }

  // --- The release_later() queue -------------------------------------------------------------
  // Appending is one store in the common case: queue_tail_ points at the next free entry and
  // queue_room_ says how many follow in the same page (and below capacity()). The queue lives
  // in the pages and may hold up to capacity() entries, so appending never allocates. It can
  // fill up only when some slots are queued more than once before a flush (the same handle
  // twice, or a new object in a slot whose queued object was released directly); then
  // index_queue() drops the dead and repeated entries and records in each slot where its entry
  // is, and until the flush every append finds a slot's entry in O(1) and updates it instead.
  // A queue with one entry per slot cannot outgrow the pages.
  std::uint32_t pending_count() const noexcept { return pending_count_; }
  bool queue_indexed() const noexcept { return queue_indexed_; }
  // Queues a live handle. Returns how many releases the flush would have refused that this
  // call settled instead (0 but for a full or indexed queue): when the slot was queued already
  // (this object, or a dead one from the same slot), its entry now names this object and the
  // repeat is one; indexing a full queue drops its dead and repeated entries.
  ENGINE_POOL_HOT std::uint32_t enqueue(PoolHandle handle) noexcept {
    if (queue_room_ == 0) return enqueue_slow(handle);
    *queue_tail_++ = QueuedHandle{handle.index, handle.generation};
    --queue_room_;
    ++pending_count_;
    return 0;
  }
  // Keeps the first entry of every slot whose queued object is still alive, in order, and
  // records each kept entry's position in its slot; returns how many entries went (each a
  // release the flush would have refused). Afterwards the queue has one entry per slot.
  std::uint32_t index_queue() noexcept;
  QueuedHandle& pending_entry(std::uint32_t position) noexcept { return entry<Array::pending>(position); }
  const QueuedHandle& pending_entry(std::uint32_t position) const noexcept {
    return const_cast<SlotTable*>(this)->pending_entry(position);
  }
  PagedRun<QueuedHandle> queue_run(std::uint32_t position) noexcept { return run<Array::pending>(position); }
  std::uint32_t& queue_position(std::uint32_t index) noexcept { return entry<Array::queue_positions>(index); }
  const std::uint32_t& queue_position(std::uint32_t index) const noexcept {
    return const_cast<SlotTable*>(this)->queue_position(index);
  }
  void end_queue() noexcept {  // the flush is done (or the slots went): the queue is empty
    pending_count_ = 0;
    queue_indexed_ = false;
    forget_queue_tail();
  }
  void forget_queue_tail() noexcept {  // the next append finds the tail again
    queue_tail_ = nullptr;
    queue_room_ = 0;
  }

  // --- Checks ----------------------------------------------------------------------------------
  // Every invariant the table keeps alone, for `live` objects (O(capacity)): used <= capacity,
  // each handed-out slot's bit matches its generation and no other slot has one, the bits count
  // `live`, the stack holds each free slot once (exactly the free ones unless `mid_callback`:
  // inside T's constructor or destructor a claimed or dying slot is neither live nor free), and
  // the queue names handed-out slots, once each when indexed.
  bool validate(std::size_t live, bool mid_callback) const;

 private:
  void refresh_flat() noexcept {
    flat_ = Flat{};
    if (pages_.size() == 1) {
      SlotTablePage& page = pages_.front();
      flat_ = Flat{page.generations(), page.free_stack(), page.pending(), page.queue_positions(), page.occupied()};
    }
  }
  std::uint32_t enqueue_slow(PoolHandle handle) noexcept;
  // A slot's queue position counts only if the entry there names the slot, so any value will
  // do, but each one is written before it is first read: slots [0, queue_ready_) have been.
  void prepare_queue_positions() noexcept {
    for (; queue_ready_ < used_; ++queue_ready_) queue_position(queue_ready_) = 0xFFFFFFFFu;
  }

  std::vector<SlotTablePage> pages_;
  Flat flat_;
  unsigned shift_ = one_page_shift;   // index >> shift = page
  std::uint32_t mask_ = 0xFFFFFFFFu;  // index & mask = offset in page
  std::uint32_t capacity_ = 0;
  std::uint32_t used_ = 0;              // slots [0, used) handed out since restart(); the rest are untouched
  std::uint32_t free_count_ = 0;        // depth of the free stack (released slots below used)
  std::uint32_t seed_ = 0;              // this table's generation base (drawn per pool instance)
  std::uint32_t fresh_generation_ = 0;  // generation a slot gets when first handed out (raised by restart, shrink)
  std::uint32_t pending_count_ = 0;     // length of the release_later() queue (<= capacity)
  std::uint32_t queue_ready_ = 0;       // slots [0, queue_ready) have had their queue position written
  bool queue_indexed_ = false;          // one entry per slot, each slot knowing where (until the flush)
  QueuedHandle* queue_tail_ = nullptr;  // where the next append goes...
  std::uint32_t queue_room_ = 0;        // ...and how many fit there before the page or capacity ends (0: find out)
};

inline void SlotTable::copy_into(std::vector<SlotTablePage>& target, std::size_t first_page, unsigned target_shift,
                                 std::uint32_t target_mask, std::uint32_t slots, std::uint32_t stack_entries,
                                 std::uint32_t queue_entries, std::uint32_t queue_positions) const noexcept {
  const auto start = static_cast<std::uint32_t>(first_page << target_shift);
  const auto copy_runs = [&](std::uint32_t count, auto array_of) {
    std::uint32_t index = start;
    while (index < count) {
      const SlotTablePage& from = pages_[page_of(index)];
      const std::size_t from_offset = offset_of(index);
      SlotTablePage& to =
          target[static_cast<std::size_t>(static_cast<std::uint64_t>(index) >> target_shift) - first_page];
      const std::size_t to_offset = index & target_mask;
      const std::size_t length =
          std::min({from.slot_count() - from_offset, to.slot_count() - to_offset, std::size_t{count - index}});
      const auto* source = array_of(from) + from_offset;
      std::copy(source, source + length, array_of(to) + to_offset);
      index += static_cast<std::uint32_t>(length);
    }
  };
  copy_runs(slots, [](auto& page) { return page.generations(); });
  copy_runs(stack_entries, [](auto& page) { return page.free_stack(); });
  copy_runs(queue_entries, [](auto& page) { return page.pending(); });
  copy_runs(queue_positions, [](auto& page) { return page.queue_positions(); });
}

// A new page of the queue, a full queue, or an indexed one.
inline std::uint32_t SlotTable::enqueue_slow(PoolHandle handle) noexcept {
  if (!queue_indexed_ && pending_count_ < capacity_) {
    const PagedRun<QueuedHandle> free_run = queue_run(pending_count_);
    queue_tail_ = free_run.first;
    queue_room_ = std::min(free_run.length, capacity_ - pending_count_);
    return enqueue(handle);
  }
  const std::uint32_t dropped = queue_indexed_ ? 0 : index_queue();
  forget_queue_tail();  // indexed: every append comes through here
  prepare_queue_positions();
  std::uint32_t& position = queue_position(handle.index);
  if (position < pending_count_) {
    QueuedHandle& queued = pending_entry(position);
    if (queued.index == handle.index) {  // queued already: this object, or a dead one from the same slot
      queued.generation = handle.generation;
      return dropped + 1;
    }
  }
  position = pending_count_;
  pending_entry(pending_count_++) = QueuedHandle{handle.index, handle.generation};
  return dropped;
}

inline std::uint32_t SlotTable::index_queue() noexcept {
  prepare_queue_positions();
  std::uint32_t kept = 0, dropped = 0;
  for (std::uint32_t i = 0; i < pending_count_; ++i) {
    const QueuedHandle queued = pending_entry(i);
    std::uint32_t& position = queue_position(queued.index);
    const bool repeated = position < kept && pending_entry(position).index == queued.index;
    if (repeated || !is_live(PoolHandle{queued.index, queued.generation})) {
      ++dropped;
      continue;
    }
    position = kept;
    pending_entry(kept++) = queued;
  }
  pending_count_ = kept;
  queue_indexed_ = true;
  forget_queue_tail();
  return dropped;
}

inline bool SlotTable::validate(std::size_t live, bool mid_callback) const {
  if (used_ > capacity_ || live > used_ || free_count_ > used_ - live) return false;
  if (!mid_callback && free_count_ != used_ - live) return false;
  std::size_t slots = 0, occupied = 0;
  for (std::size_t p = 0; p < pages_.size(); ++p) {
    const SlotTablePage& page = pages_[p];
    if ((p << shift_) != slots && p != 0) return false;  // page p starts at p << shift
    for (std::size_t offset = 0; offset < page.slot_count(); ++offset) {
      const bool bit = page.is_occupied(offset);
      if (slots + offset >= used_) {  // never handed out: no object, generation not yet set
        if (bit) return false;
        continue;
      }
      if (bit != is_live_generation(page.generations()[offset])) return false;
      occupied += bit ? 1 : 0;
    }
    slots += page.slot_count();
  }
  if (occupied != live || capacity_ > slots) return false;
  std::vector<bool> seen(used_, false);
  for (std::uint32_t depth = 0; depth < free_count_; ++depth) {
    const std::uint32_t index = stack_entry(depth);
    if (index >= used_ || seen[index]) return false;  // out of range or twice on the stack
    if (is_live_generation(generation(index))) return false;
    seen[index] = true;
  }
  if (pending_count_ > capacity_ || queue_ready_ > slots) return false;
  if (queue_indexed_ && pending_count_ > used_) return false;
  if (queue_room_ != 0 &&
      (queue_indexed_ || pending_count_ + queue_room_ > capacity_ || queue_tail_ != &pending_entry(pending_count_))) {
    return false;  // the append cursor points somewhere else than the queue's end
  }
  for (std::uint32_t position = 0; position < pending_count_; ++position) {
    const std::uint32_t index = pending_entry(position).index;
    if (index >= used_) return false;
    if (queue_indexed_ && (index >= queue_ready_ || queue_position(index) != position)) return false;
  }
  return true;
}

}  // namespace engine::detail
