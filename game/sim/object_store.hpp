#pragma once
// game::ObjectStore<T>: where a manager keeps its objects, switchable at runtime between
//  - pooled: an engine::VectorPool<T> (slots reused, no allocation once warmed up), and
//  - heap:   one `new T` per object in a std::vector<T*>, swap-remove and `delete` on death:
//            the classic code a pool replaces, kept so the two can be compared live.
// Both modes refuse spawns past policy().max_capacity, so a capacity limit bites at the
// same moment in either mode and switching modes never changes the game.
//
// Handles (spawn_handle, get): code that keeps a reference to an object across steps (a
// homing shot's target) keeps an engine::PoolHandle, never a T*, and asks get() each time:
//  - pooled: the handle is the pool's own, get() is VectorPool::get: a handle whose object
//    died fails the generation check (nullptr, counted in stale_gets) even after the slot
//    went to a newcomer;
//  - heap:   new/delete has no such check, so the store adds the classic one, a generational
//    table of pointers (index + generation, a LIFO free list; the generation is bumped when
//    the object is deleted). That table is what heap code must add to be as safe as the pool;
//    it is kept only once a handle was asked for, so plain spawn() heap stores stay plain.
// set_pooling() moves every object to other storage, so it re-issues every handle: right
// after it, translate(old) gives the same object's new handle (kGone if the object had
// died), and the owner of a kept handle patches it then (Simulation does, for homing shots).
//
// A pooled store walks its objects in one of three ways (WalkMode, walk_mode.hpp): the pool's
// bitmap, or an engine::ActiveIndexList of live slots in swap-pop or slot order. Each
// update() is timed, so the overlay can show what one object's visit costs in each.
#include "sim/growth_log.hpp"
#include "sim/walk_mode.hpp"

#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace game {

struct StoreStats {
  bool pooled = true;
  std::size_t live = 0;
  std::size_t peak_live = 0;        // highest live count this run, in either mode
  std::size_t capacity = 0;         // pooled: pool slots; heap: pointer-array slots
  std::size_t bytes_held = 0;       // pooled: the pool's bytes; heap: objects + pointer array
  std::size_t bytes_live = 0;       // live * sizeof(T): the bytes a step's walk touches
  std::size_t page_slots = 0;       // the pool's page size after its own rule (policy page_slots 0 = automatic)
  std::uint64_t growth_events = 0;  // pool growths plus pointer-array growths, this run (no rebuilds)
  std::uint64_t rebuilds = 0;       // pool reservations made by switching pooling back on (the pool
                                    // is rebuilt at its warm size) and storage-mode migrations:
                                    // layouts rebuilt by a switch, not growths of the game's
  std::uint64_t spawns = 0, releases = 0;
  std::uint64_t refused_spawns = 0;      // at max_capacity (or out of memory)
  std::uint64_t stale_gets = 0;          // pool lookups refused for a stale/foreign handle (the soak run requires 0)
  std::uint64_t failed_releases = 0;     // pool releases refused (null, stale, double): a game bug if non-zero
  WalkMode walk = WalkMode::slot_order;  // how update() walks the pool (heap mode: the vector<T*> loop)
  double walk_ns_per_object = 0;         // update()'s time per object visited, smoothed over ~10 steps
};

template <class T>
class ObjectStore {
 public:
  ObjectStore(const engine::GrowthPolicy& policy, bool pooled, WalkMode walk = WalkMode::slot_order)
      : pool_(policy), list_(list_discipline(walk)), policy_(policy), pooled_(pooled), walk_(walk) {
    if (!pooled_) heap_.reserve(policy_.initial_capacity);
    if (listed()) list_.reserve(pool_.capacity());
    // The store always listens, so it can tell a rebuild (set_pooling) from a growth.
    pool_.set_growth_listener([this](const engine::GrowthEvent& e) { on_pool_growth(e); });
  }
  ~ObjectStore() { delete_heap_objects(); }
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Never live in either mode: what translate() gives for a handle whose object had died.
  static constexpr engine::PoolHandle kGone{0xFFFFFFF0u, 1};

  // Copies `value` into the store; nullptr when at max_capacity (or out of memory).
  T* spawn(const T& value) {
    if (size() >= policy_.max_capacity) return refuse();
    if (pooled_) {
      const auto handle = pool_.emplace(value);
      if (!handle) return refuse();
      list_spawned(handle->index);
      ++spawns_;
      note_size();
      return pool_.get(*handle);
    }
    if (heap_.size() == heap_.capacity()) ++heap_growths_;
    heap_.push_back(nullptr);
    heap_.back() = new T(value);
    if (tracks_handles_) heap_slot_of_.push_back(claim_table_slot(heap_.back()).index);
    ++spawns_;
    note_size();
    return heap_.back();
  }

  // Same, but returns the object's handle (null when refused): what code that keeps a
  // reference across steps must hold. Pooled: the pool's handle; heap: a table handle.
  engine::PoolHandle spawn_handle(const T& value) {
    if (pooled_) {
      tracks_handles_ = true;
      const auto handle = size() < policy_.max_capacity ? pool_.emplace(value) : std::nullopt;
      if (!handle) {
        refuse();
        return {};
      }
      list_spawned(handle->index);
      ++spawns_;
      note_size();
      return *handle;
    }
    track_heap_handles();
    if (spawn(value) == nullptr) return {};
    return handle_of_heap(heap_.size() - 1);
  }

  // The live object `handle` names, or nullptr (and stale_gets + 1) if it died, even when
  // its slot holds a newcomer now. Null handles are refused the same way.
  T* get(engine::PoolHandle handle) noexcept {
    return const_cast<T*>(static_cast<const ObjectStore&>(*this).get(handle));
  }
  const T* get(engine::PoolHandle handle) const noexcept {
    if (pooled_) return pool_.get(handle);
    if (table_holds(handle)) return table_[handle.index].object;
    ++heap_stale_gets_;
    return nullptr;
  }
  // Live? Counts nothing.
  bool contains(engine::PoolHandle handle) const noexcept {
    return pooled_ ? pool_.contains(handle) : table_holds(handle);
  }

  // Visits every live object with its handle, f(PoolHandle, T&), in storage order.
  template <class F>
  void for_each_handle(F&& f) {
    if (pooled_) {
      tracks_handles_ = true;
      pool_.for_each([&](engine::PoolHandle handle, T& object) { f(handle, object); });
      return;
    }
    track_heap_handles();
    for (std::size_t i = 0; i < heap_.size(); ++i) f(handle_of_heap(i), *heap_[i]);
  }

  // After set_pooling(): the new handle of the object `before` named before the switch;
  // kGone if it had died; null stays null. Valid until the next set_pooling().
  engine::PoolHandle translate(engine::PoolHandle before) const noexcept {
    if (before.is_null()) return before;
    const auto at = std::lower_bound(remap_.begin(), remap_.end(), before.index,
                                     [](const Remap& r, std::uint32_t index) { return r.before.index < index; });
    if (at == remap_.end() || at->before != before) return kGone;
    return at->after;
  }

  // Two-phase update: keep(T&) runs on every live object and returns false for the dead
  // (phase one); the dead are released after the pass, never while the pass walks the storage
  // (phase two). The bitmap and the slot-order list free the lowest dead slot last, so the next
  // spawns refill the storage from the front:
  //  - bitmap: the pool's erase_if does both phases over its occupancy bits;
  //  - a list walk: ActiveIndexList::update walks the listed slots and marks, then releases the
  //    marked and mends the list (swap-pop, or a merge that keeps slot order).
  template <class Keep>
  void update(Keep&& keep) {
    const auto started = std::chrono::steady_clock::now();
    const std::size_t visited = size();
    update_untimed(keep);
    note_walk_time(std::chrono::steady_clock::now() - started, visited);
  }

  // Walk mode, live: bitmap -> list lists the pool's live slots once (in slot order);
  // swap_pop -> slot_order sorts the list once; list -> bitmap drops the list.
  void set_walk(WalkMode walk) {
    if (walk == walk_) return;
    const bool was_listed = listed();
    walk_ = walk;
    list_.set_discipline(list_discipline(walk));
    relist(was_listed);
  }
  WalkMode walk() const noexcept { return walk_; }                                // as chosen
  bool walks_list() const noexcept { return pooled_ && listed(); }                // update() goes down active_list()
  const engine::ActiveIndexList& active_list() const noexcept { return list_; }   // empty in bitmap or heap mode
  const engine::VectorPool<T>& pool_for_tests() const noexcept { return pool_; }  // checks the list against it

  // Visits every live object in storage order (never rely on that order for gameplay).
  template <class F>
  void for_each(F&& f) {
    if (pooled_) {
      pool_.for_each([&](T& object) { f(object); });
    } else {
      for (T* object : heap_) f(*object);
    }
  }
  template <class F>
  void for_each(F&& f) const {
    if (pooled_) {
      pool_.for_each([&](const T& object) { f(object); });
    } else {
      for (const T* object : heap_) f(*object);
    }
  }

  std::size_t size() const noexcept { return pooled_ ? pool_.size() : heap_.size(); }
  std::size_t capacity() const noexcept { return pooled_ ? pool_.capacity() : heap_.capacity(); }
  bool pooled() const noexcept { return pooled_; }
  const engine::GrowthPolicy& policy() const noexcept { return policy_; }
  // Read-only views of the storage for the memory map: the pool (pooled mode), and in heap mode
  // the pointer array, in the order update() and for_each() walk it.
  const engine::VectorPool<T>& pool() const noexcept { return pool_; }
  const std::vector<T*>& heap_objects() const noexcept { return heap_; }

  // Destroys every object (a restart); pooled memory stays reserved for the next game.
  void clear() noexcept {
    releases_ += size();
    pool_.clear();
    list_.clear();
    delete_heap_objects();
    free_table_slots();
  }

  // Moves every live object to the other storage. Values are unchanged, addresses change.
  // Heap mode frees the pool's memory (it must not hide a warm pool behind it), but the pool
  // remembers the capacity it had warmed up to and comes back at that size, so switching
  // pooling back on does not replay the warm-up growths, and repeated switching cannot ratchet
  // the capacity up (the soak run checks that capacity stops growing).
  // Every handle is re-issued (see translate()).
  void set_pooling(bool pooled) {
    if (pooled == pooled_) return;
    remap_.clear();
    if (!pooled) {
      heap_.reserve(std::max(policy_.initial_capacity, pool_.size()));
      if (tracks_handles_) remap_.reserve(pool_.size());
      pool_.for_each([&](engine::PoolHandle handle, T& object) {
        heap_.push_back(new T(std::move(object)));
        if (!tracks_handles_) return;
        const engine::PoolHandle after = claim_table_slot(heap_.back());
        heap_slot_of_.push_back(after.index);
        remap_.push_back({handle, after});  // for_each walks slot order: sorted by before.index
      });
      warm_capacity_ = pool_.capacity();
      pool_.clear();
      list_.clear();
      pool_.shrink_to_fit();
    } else {
      // The pool's memory comes back here: a rebuild, labelled as such and not counted as a
      // growth (it would add one "0 -> N" row per pool on every switch).
      rebuilding_ = true;
      pool_.reserve(std::max(heap_.size(), warm_capacity_));
      rebuilding_ = false;
      if (tracks_handles_) remap_.reserve(heap_.size());
      for (std::size_t i = 0; i < heap_.size(); ++i) {
        const auto after = pool_.emplace(std::move(*heap_[i]));
        if (tracks_handles_ && after) remap_.push_back({handle_of_heap(i), *after});
        delete heap_[i];
      }
      std::sort(remap_.begin(), remap_.end(),
                [](const Remap& a, const Remap& b) { return a.before.index < b.before.index; });
      heap_.clear();
      heap_.shrink_to_fit();
      free_table_slots();  // generations bumped: an unpatched heap handle stays stale
      if (listed()) {
        list_.reserve(pool_.capacity());
        list_.rebuild(pool_);
      }
    }
    pooled_ = pooled;
  }

  // Growth policy and storage mode (contiguous/stable); live objects migrate in the pool.
  bool set_policy(const engine::GrowthPolicy& policy) {
    // A storage-mode switch moves every object into a new layout of the same capacity: a
    // rebuild too, labelled and counted as one, not as a growth.
    rebuilding_ = policy.storage != pool_.policy().storage;
    const bool was_listed = listed();
    const bool moved = pool_.set_policy(policy);
    rebuilding_ = false;
    if (!moved) return false;
    policy_ = policy;
    relist(was_listed);  // into packed the dense array is the walk; out of it, the list again
    // A larger initial capacity is a request for that many slots now (the overlay's capacity
    // advisor): reserve them, so the growths it is meant to prevent never come.
    if (pooled_ && pool_.capacity() < policy.initial_capacity) pool_.reserve(policy.initial_capacity);
    if (pooled_ && listed()) list_.reserve(pool_.capacity());  // slot indices survive set_policy
    return true;
  }

  // Where this store's growths go (once per pool growth, and once per pool rebuild with
  // rebuild = true), recorded as `pool`: the simulation's one growth log.
  void attach_growth_log(GrowthLog& log, PoolId pool) noexcept {
    growth_log_ = &log;
    pool_id_ = pool;
  }

  StoreStats stats() const noexcept {
    const engine::PoolStats pool = pool_.stats();
    StoreStats s;
    s.pooled = pooled_;
    s.live = size();
    s.peak_live = peak_live_;
    s.capacity = capacity();
    s.bytes_live = s.live * sizeof(T);
    s.bytes_held = pooled_ ? pool.bytes_held : heap_.size() * sizeof(T) + heap_.capacity() * sizeof(T*);
    s.page_slots = pool_.policy().page_slots;
    s.growth_events = pool.growth_events - rebuilds_ + heap_growths_;
    s.rebuilds = rebuilds_;
    s.spawns = spawns_;
    s.releases = releases_;
    s.refused_spawns = refused_;
    s.stale_gets = pool.stale_gets + heap_stale_gets_;
    s.failed_releases = pool.failed_releases;
    s.walk = walk_;
    s.walk_ns_per_object = walk_ns_;
    return s;
  }

 private:
  template <class Keep>
  void update_untimed(Keep& keep) {
    if (pooled_ && listed()) {
      releases_ += list_.update(pool_, keep);
      return;
    }
    if (pooled_) {
      releases_ += pool_.erase_if([&](T& object) { return !keep(object); });
      return;
    }
    // Heap mode, the classic loop: swap the last pointer into the hole and look again.
    for (std::size_t i = 0; i < heap_.size();) {
      if (keep(*heap_[i])) {
        ++i;
        continue;
      }
      erase_heap_at(i);
      ++releases_;
    }
  }
  void note_walk_time(std::chrono::steady_clock::duration took, std::size_t visited) noexcept {
    if (visited == 0) {  // nothing walked: no figure (an empty pool's step is all overhead)
      walk_ns_ = 0;
      return;
    }
    const double ns = std::chrono::duration<double, std::nano>(took).count() / static_cast<double>(visited);
    walk_ns_ = walk_ns_ == 0 ? ns : walk_ns_ + 0.1 * (ns - walk_ns_);
  }
  // A list walk, except over a packed pool (list_walk_applies(), walk_mode.hpp, says why).
  bool listed() const noexcept { return walk_ != WalkMode::bitmap && list_walk_applies(pool_.policy().storage); }
  // After a change that may start or stop the list walk (the walk, the storage mode): a list
  // that stops is dropped; one that starts lists the pool's live slots once, in slot order.
  void relist(bool was_listed) {
    if (!listed()) {
      list_.clear();
    } else if (!was_listed && pooled_) {
      list_.reserve(pool_.capacity());
      list_.rebuild(pool_);
    }
  }
  void list_spawned(std::uint32_t index) {
    if (!listed()) return;
    // The list grows when the pool does (same step), so a warmed store never allocates.
    if (list_.capacity() < pool_.capacity()) list_.reserve(pool_.capacity());
    list_.add(index);
  }
  T* refuse() noexcept {
    ++refused_;
    return nullptr;
  }
  void note_size() noexcept { peak_live_ = std::max(peak_live_, size()); }
  void on_pool_growth(const engine::GrowthEvent& e) {
    if (rebuilding_) ++rebuilds_;
    if (growth_log_) growth_log_->record(pool_id_, e, rebuilding_);
  }
  void delete_heap_objects() noexcept {
    for (T* object : heap_) delete object;
    heap_.clear();
  }

  // --- Heap mode's generational table (what the pool's generations give for free) ------
  struct TableSlot {
    T* object = nullptr;           // null while free
    std::uint32_t generation = 1;  // bumped when the object is deleted; never 0 (null handle)
  };
  struct Remap {
    engine::PoolHandle before, after;
  };

  bool table_holds(engine::PoolHandle handle) const noexcept {
    if (handle.is_null() || handle.index >= table_.size()) return false;  // null, never issued, or a sentinel
    const TableSlot& slot = table_[handle.index];
    return slot.object != nullptr && slot.generation == handle.generation;  // stale: died (and maybe reused)
  }
  engine::PoolHandle claim_table_slot(T* object) {
    std::uint32_t index;
    if (!free_slots_.empty()) {  // LIFO, like the pool's free stack: the newest hole first
      index = free_slots_.back();
      free_slots_.pop_back();
    } else {
      index = static_cast<std::uint32_t>(table_.size());
      table_.emplace_back();
      if (free_slots_.capacity() < table_.capacity()) free_slots_.reserve(table_.capacity());
    }
    table_[index].object = object;
    return {index, table_[index].generation};
  }
  void free_table_slot(std::uint32_t index) noexcept {
    TableSlot& slot = table_[index];
    slot.object = nullptr;
    if (++slot.generation == 0) slot.generation = 1;
    free_slots_.push_back(index);  // reserved to table_.size(): never allocates
  }
  void free_table_slots() noexcept {
    for (std::uint32_t index : heap_slot_of_) free_table_slot(index);
    heap_slot_of_.clear();
  }
  engine::PoolHandle handle_of_heap(std::size_t i) const noexcept {
    const std::uint32_t index = heap_slot_of_[i];
    return {index, table_[index].generation};
  }
  // From the first handle asked for in heap mode on, every heap object has a table slot.
  void track_heap_handles() {
    tracks_handles_ = true;
    while (heap_slot_of_.size() < heap_.size()) {
      heap_slot_of_.push_back(claim_table_slot(heap_[heap_slot_of_.size()]).index);
    }
  }
  // Deletes heap_[i] and swap-removes it (and its table slot, if it has one).
  void erase_heap_at(std::size_t i) noexcept {
    delete heap_[i];
    heap_[i] = heap_.back();
    heap_.pop_back();
    if (heap_slot_of_.empty()) return;
    free_table_slot(heap_slot_of_[i]);
    heap_slot_of_[i] = heap_slot_of_.back();
    heap_slot_of_.pop_back();
  }

  engine::VectorPool<T> pool_;
  engine::ActiveIndexList list_;             // pooled list walks: the live slots, kept in step by spawn/update/clear
  std::vector<T*> heap_;                     // heap mode: owning pointers
  std::vector<std::uint32_t> heap_slot_of_;  // heap mode, tracking: table index of heap_[i]
  std::vector<TableSlot> table_;             // heap mode: the generational table
  std::vector<std::uint32_t> free_slots_;    // its free list (LIFO)
  std::vector<Remap> remap_;                 // the last set_pooling(): before -> after, by before.index
  bool tracks_handles_ = false;              // a handle was asked for: heap objects get table slots
  mutable std::uint64_t heap_stale_gets_ = 0;
  engine::GrowthPolicy policy_;
  bool pooled_;
  WalkMode walk_;
  double walk_ns_ = 0;             // smoothed update() time per object
  std::size_t warm_capacity_ = 0;  // pool capacity when heap mode last took over
  GrowthLog* growth_log_ = nullptr;
  PoolId pool_id_ = PoolId::bullets;
  bool rebuilding_ = false;     // inside set_pooling(true): growth events are rebuilds
  std::uint64_t rebuilds_ = 0;  // pool growth events that were rebuilds (in pool.growth_events too)
  std::size_t peak_live_ = 0;
  std::uint64_t heap_growths_ = 0;
  std::uint64_t spawns_ = 0, releases_ = 0, refused_ = 0;
};

}  // namespace game
