// SPDX-License-Identifier: MIT
#pragma once
// engine::ActiveIndexList: the list of a pool's live slot indices that a manager walks each
// step, with the classic two-phase update. Part of the header-only pool library (CMake target
// engine::pool).
//
// The classic design, and why it is here:
// - A game keeps a pool and, beside it, the indices of the live objects; each step it walks
//   that list (phase one: update every object, mark the dead), then deallocates the marked
//   and mends the list (phase two). Nothing is released while the walk runs, so the walk
//   never sees a half-dead pool and the update callback cannot invalidate its own loop.
// - Two ways to mend the list, chosen by ListDiscipline and switchable at any time:
//   swap_pop    the tutorial way: a dead entry is overwritten by the last one and the list
//               pops, O(1) per death, and new spawns are appended. The list's order follows
//               the game's history, not memory: after churn, consecutive entries name slots
//               far apart, and a walk over a big pool becomes random memory access.
//   slot_order  the list is kept sorted by slot index, so walking it walks memory in order
//               (what VectorPool's own bitmap walk does). The price: new spawns come from the
//               pool's LIFO free stack at arbitrary indices, so they wait in a side queue,
//               are walked there (sorted, after the list), and are merged in phase two; the
//               dead are squeezed out by a stable pass. Phase two therefore moves every entry
//               above the lowest change: O(n) per step that had a spawn or a death, plus
//               O(m log m) to sort m spawns. A step with no change costs nothing extra.
// - Phase two releases through the pool's public calls (handle_at() + release()) and does
//   it from the highest index down, so the pool's LIFO free stack hands the lowest freed
//   slot out first and the next spawns refill the pool from the front.
// - Once reserve()d (or warmed by a few steps) neither discipline allocates: the list, the
//   spawn queue and the marks are vectors that keep their capacity.
//
// The list trusts its owner to keep it in step with the pool: add() every index the owner
// emplaces, and let only update() release (or clear()/rebuild() after releasing by other
// means). A listed slot found dead anyway is dropped, not visited (counted by stale_entries()).
// Slot indices must be stable while listed: all three VectorPool layouts keep them across
// growth and set_policy() (packed moves objects between dense positions, never between slot
// indices, so a list works there too; it just reads memory out of order). A pool whose
// layout moved objects between slots would not.
//
// add() is fine inside update() too (a keep() that spawns): the walk reads the list, so
// entries added while it runs wait in a side buffer and join the list when update() ends
// (or at the start of the next one), walked from the next update() on like any other.
//
// Pool: anything with for_each_listed(const uint32_t*, size_t, f(k, T*)) (one pass over the
// listed slots, nullptr for a dead one), PoolHandle handle_at(std::size_t) and
// bool release(PoolHandle), as VectorPool<T> has. Phase one runs as one of the pool's passes,
// so keep() follows for_each's rules: no release(), no relocating growth (release_later()
// and emplaces that fit are fine). Not thread-safe, like the pool.
#include <engine/pool/assert.hpp>
#include <engine/pool/detail/chunk_list.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine {

enum class ListDiscipline : std::uint8_t {
  swap_pop,    // O(1) removal, order scrambles with churn (the classic tutorial list)
  slot_order,  // sorted by slot index: the walk reads memory in order; O(n) mend per changed step
};

class ActiveIndexList {
 public:
  explicit ActiveIndexList(ListDiscipline discipline = ListDiscipline::slot_order) noexcept : discipline_(discipline) {}

  // --- Keeping in step with the pool -------------------------------------------------------
  void add(std::uint32_t index);  // slot `index` (the PoolHandle::index emplace() returned) just became live;
                                  // walked from the next update() on
  void clear() noexcept;          // forget every entry (after pool.clear()); keeps capacity
  template <class Pool>
  void rebuild(const Pool& pool);     // list = pool.active_indices() (slot order), e.g. after a migration
  void reserve(std::size_t entries);  // room for this many live indices, so update() never allocates

  // --- The step ----------------------------------------------------------------------------
  template <class Pool, class Keep>
  std::size_t update(Pool& pool, Keep&& keep);  // phase one: keep(T&) on every entry, false marks it dead;
                                                // phase two: release the marked, mend the list; returns deaths
  // The same step with phase one in `chunks` runs of the list, run in parallel by run(chunks, task)
  // (as VectorPool::erase_if_chunked): keep(k, T&) sees chunk k's objects and may write only
  // those and what its caller keeps for chunk k. The marks join in list order, so the pool and
  // the list end as update() leaves them, at any chunk count.
  template <class Pool, class Runner, class Keep>
  std::size_t update_chunked(Pool& pool, std::size_t chunks, Runner&& run, Keep&& keep);

  // --- Discipline --------------------------------------------------------------------------
  ListDiscipline discipline() const noexcept { return discipline_; }
  void set_discipline(ListDiscipline discipline);  // to slot_order: sorts once, O(n log n); to swap_pop: O(queued)

  // --- Reading -----------------------------------------------------------------------------
  std::size_t size() const noexcept {  // listed + queued spawns + those added during update()
    return list_.size() + queued_.size() + added_.size();
  }
  std::size_t capacity() const noexcept { return list_.capacity(); }  // entries held without allocating
  bool empty() const noexcept { return size() == 0; }
  const std::vector<std::uint32_t>& indices() const noexcept { return list_; }  // walk order; slot_order: sorted
  const std::vector<std::uint32_t>& queued() const noexcept {
    return queued_;
  }                                                                // slot_order: spawns since the last update
  std::uint64_t stale_entries() const noexcept { return stale_; }  // entries found dead at walk time (an owner bug)
  template <class Pool>
  bool matches(const Pool& pool) const;  // every live slot listed exactly once, nothing else (O(n log n))

 private:
  template <class Pool, class Keep>
  void walk(Pool& pool, const std::vector<std::uint32_t>& entries, std::uint32_t first_position, Keep& keep);
  template <class Pool, class Runner, class Keep>
  void walk_chunked(Pool& pool, const std::vector<std::uint32_t>& entries, std::uint32_t first_position,
                    std::size_t chunks, Runner& run, Keep& keep);
  template <class Pool, class PhaseOne>
  std::size_t step(Pool& pool, PhaseOne&& phase_one);  // update()'s frame around either phase one
  void mend_swap_pop() noexcept;
  void mend_slot_order() noexcept;
  std::size_t chunk_room(std::size_t chunks) const noexcept {  // the most entries one chunk of a walk holds
    return std::max(list_.capacity(), queued_.capacity()) / chunks + 1;
  }
  std::vector<std::uint32_t>& add_target() noexcept {
    return discipline_ == ListDiscipline::swap_pop ? list_ : queued_;
  }
  void merge_added();  // added_ into add_target(): may allocate
  // The walk holds the list's arrays: what would reorder, shrink or refill them waits for
  // update() to return (asserts in debug builds; a no-op otherwise).
  bool refuse_inside_update(const char* what) const noexcept {
    if (!updating_) return false;
    ENGINE_POOL_ASSERT(false, what);
    return true;
  }

  std::vector<std::uint32_t> list_;        // the walked entries
  std::vector<std::uint32_t> queued_;      // slot_order: spawns waiting for phase two's merge
  std::vector<std::uint32_t> marked_;      // phase one's dead, as positions in list_ then queued_ (ascending)
  std::vector<std::uint32_t> added_;       // add()s during update(): list_ and queued_ must not grow under the walk
  std::vector<detail::ChunkList> chunks_;  // update_chunked: each chunk's marks (joined in order) and stale entries
  ListDiscipline discipline_;
  bool updating_ = false;
  std::uint64_t stale_ = 0;
};

// ===== Keeping in step ====================================================================

inline void ActiveIndexList::add(std::uint32_t index) {
  // During update() the walk holds list_.data() / queued_.data(): a push_back there could
  // reallocate the array under it (a use-after-free a library reviewer's keep() hit).
  (updating_ ? added_ : add_target()).push_back(index);
}

inline void ActiveIndexList::merge_added() {
  std::vector<std::uint32_t>& target = add_target();
  target.insert(target.end(), added_.begin(), added_.end());
  added_.clear();
}

inline void ActiveIndexList::clear() noexcept {
  if (refuse_inside_update("ActiveIndexList::clear() inside update(): the walk holds the list")) return;
  list_.clear();
  queued_.clear();
  marked_.clear();
  added_.clear();
}

template <class Pool>
void ActiveIndexList::rebuild(const Pool& pool) {
  if (refuse_inside_update("ActiveIndexList::rebuild() inside update(): the walk holds the list")) return;
  queued_.clear();
  added_.clear();
  pool.active_indices(list_);
}

inline void ActiveIndexList::reserve(std::size_t entries) {  // all three, so a discipline switch needs none
  list_.reserve(entries);
  marked_.reserve(entries);
  queued_.reserve(entries);
  // The chunked walk's lists too, at the last walk's chunk count: its next walk allocates nothing.
  for (detail::ChunkList& chunk : chunks_) chunk.entries.reserve(chunk_room(chunks_.size()));
}

inline void ActiveIndexList::set_discipline(ListDiscipline discipline) {
  if (discipline == discipline_ ||
      refuse_inside_update("ActiveIndexList::set_discipline() inside update(): the walk holds the list"))
    return;
  merge_added();  // into the old discipline's target; the switch below carries them over
  discipline_ = discipline;
  if (discipline == ListDiscipline::slot_order) {
    std::sort(list_.begin(), list_.end());  // the one O(n log n): from here on merges keep it sorted
  } else {
    list_.insert(list_.end(), queued_.begin(), queued_.end());  // appended, as swap_pop's add() does
    queued_.clear();
  }
}

template <class Pool>
bool ActiveIndexList::matches(const Pool& pool) const {
  std::vector<std::uint32_t> listed(list_);
  listed.insert(listed.end(), queued_.begin(), queued_.end());
  listed.insert(listed.end(), added_.begin(), added_.end());
  std::sort(listed.begin(), listed.end());
  std::vector<std::uint32_t> live;
  pool.active_indices(live);
  return listed == live;
}

// ===== The step ===========================================================================

template <class Pool, class Keep>
std::size_t ActiveIndexList::update(Pool& pool, Keep&& keep) {
  return step(pool, [&] {
    walk(pool, list_, 0, keep);
    walk(pool, queued_, static_cast<std::uint32_t>(list_.size()), keep);
  });
}

template <class Pool, class Runner, class Keep>
std::size_t ActiveIndexList::update_chunked(Pool& pool, std::size_t chunks, Runner&& run, Keep&& keep) {
  chunks = std::max<std::size_t>(chunks, 1);
  if (chunks_.size() < chunks) chunks_.resize(chunks);  // allocates only when the count rises
  return step(pool, [&] {
    walk_chunked(pool, list_, 0, chunks, run, keep);
    walk_chunked(pool, queued_, static_cast<std::uint32_t>(list_.size()), chunks, run, keep);
  });
}

template <class Pool, class PhaseOne>
std::size_t ActiveIndexList::step(Pool& pool, PhaseOne&& phase_one) {
  if (refuse_inside_update("ActiveIndexList::update() inside update(): the walk holds the list")) return 0;
  // Entries a previous update() could not merge without allocating (or whose walk threw) join
  // first; they are live, and from here on they are walked like the rest.
  merge_added();
  // Everything phase two needs is reserved up front: a bad_alloc here changes nothing.
  list_.reserve(list_.size() + queued_.size());
  marked_.reserve(list_.size() + queued_.size());
  marked_.clear();
  // The queue is small, and often sorted already: phase two frees highest first, so the LIFO
  // stack hands the next spawns out lowest first, and fresh slots come in rising order.
  if (discipline_ == ListDiscipline::slot_order && !std::is_sorted(queued_.begin(), queued_.end())) {
    std::sort(queued_.begin(), queued_.end());
  }

  struct Updating {  // add() goes to added_ until update() returns, exception or not
    bool& flag;
    explicit Updating(bool& f) noexcept : flag(f) { flag = true; }
    ~Updating() { flag = false; }
    Updating(const Updating&) = delete;
    Updating& operator=(const Updating&) = delete;
  } updating(updating_);

  // Phase one: update and mark. No release here, so keep() sees a whole pool.
  phase_one();

  // Phase two: deallocate the marked, highest position first (in slot_order also the
  // highest index first: the pool's LIFO stack then hands out the lowest slot next).
  const std::size_t listed = list_.size();
  std::size_t died = 0;
  for (std::size_t k = marked_.size(); k-- > 0;) {
    const std::uint32_t position = marked_[k];
    const std::uint32_t index = position < listed ? list_[position] : queued_[position - listed];
    if (pool.release(pool.handle_at(index))) ++died;  // false only for a stale entry
  }
  if (discipline_ == ListDiscipline::swap_pop) {
    mend_swap_pop();
  } else {
    mend_slot_order();
  }
  marked_.clear();
  // The spawns of this update join now if that needs no allocation (update() must not throw
  // after releasing); otherwise at the start of the next one.
  const std::vector<std::uint32_t>& target = add_target();
  if (target.capacity() - target.size() >= added_.size()) merge_added();
  return died;
}

template <class Pool, class Keep>
void ActiveIndexList::walk(Pool& pool, const std::vector<std::uint32_t>& entries, std::uint32_t first_position,
                           Keep& keep) {
  pool.for_each_listed(entries.data(), entries.size(), [&](std::size_t i, auto* object) {
    if (object == nullptr) {  // released behind the list's back: drop the entry, visit nothing
      ENGINE_POOL_ASSERT(object != nullptr, "ActiveIndexList entry names a dead slot (released outside update()?)");
      ++stale_;
      marked_.push_back(first_position + static_cast<std::uint32_t>(i));
      return;
    }
    if (!keep(*object)) marked_.push_back(first_position + static_cast<std::uint32_t>(i));
  });
}

template <class Pool, class Runner, class Keep>
void ActiveIndexList::walk_chunked(Pool& pool, const std::vector<std::uint32_t>& entries, std::uint32_t first_position,
                                   std::size_t chunks, Runner& run, Keep& keep) {
  // A chunk holds at most entries / chunks + 1 of them; reserved by the lists' capacity, not their
  // length, so a list that fills up without growing allocates nothing.
  for (std::size_t k = 0; k < chunks; ++k) {
    chunks_[k].count = 0;
    chunks_[k].entries.clear();
    chunks_[k].entries.reserve(chunk_room(chunks));
  }
  pool.for_each_listed_chunked(
      entries.data(), entries.size(), chunks, run, [&](std::size_t k, std::size_t i, auto* object) {
        const auto position = first_position + static_cast<std::uint32_t>(i);
        if (object == nullptr) {  // released behind the list's back: drop the entry, visit nothing
          ENGINE_POOL_ASSERT(object != nullptr, "ActiveIndexList entry names a dead slot (released outside update()?)");
          ++chunks_[k].count;
          chunks_[k].entries.push_back(position);
          return;
        }
        if (!keep(k, *object)) chunks_[k].entries.push_back(position);
      });
  for (std::size_t k = 0; k < chunks; ++k) {
    marked_.insert(marked_.end(), chunks_[k].entries.begin(), chunks_[k].entries.end());  // reserved: no allocation
    stale_ += chunks_[k].count;
  }
}

// The classic mend: each hole takes the last entry. Going from the highest marked position
// down, the last entry is never itself marked (every marked position above was filled first).
inline void ActiveIndexList::mend_swap_pop() noexcept {
  for (std::size_t k = marked_.size(); k-- > 0;) {
    list_[marked_[k]] = list_.back();
    list_.pop_back();
  }
}

// Keeps the list sorted: squeeze the dead out of the list and the queue (stable), then merge
// the queue in from the back, in place. Only entries above the first change move.
inline void ActiveIndexList::mend_slot_order() noexcept {
  const auto listed = static_cast<std::uint32_t>(list_.size());
  std::size_t k = 0;
  const auto squeeze = [&](std::vector<std::uint32_t>& entries, std::uint32_t base) {
    const auto end = static_cast<std::uint32_t>(entries.size());
    if (k == marked_.size() || marked_[k] >= base + end) return;
    std::uint32_t write = marked_[k] - base;
    for (std::uint32_t read = write; read < end; ++read) {
      if (k < marked_.size() && marked_[k] == base + read) {
        ++k;
        continue;
      }
      entries[write++] = entries[read];
    }
    entries.resize(write);
  };
  squeeze(list_, 0);
  squeeze(queued_, listed);
  if (queued_.empty()) return;
  std::size_t from_list = list_.size();
  std::size_t from_queue = queued_.size();
  list_.resize(from_list + from_queue);  // within the capacity update() reserved
  for (std::size_t out = list_.size(); from_queue > 0;) {
    if (from_list > 0 && list_[from_list - 1] > queued_[from_queue - 1]) {
      list_[--out] = list_[--from_list];
    } else {
      list_[--out] = queued_[--from_queue];
    }
  }
  queued_.clear();
}

}  // namespace engine
