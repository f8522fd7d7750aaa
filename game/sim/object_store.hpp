#pragma once
// game::ObjectStore<T>: where a manager keeps its objects, switchable at runtime between
//  - pooled: an engine::VectorPool<T> (slots reused, no allocation once warmed up), and
//  - heap:   one `new T` per object in a std::vector<T*>, swap-remove and `delete` on death:
//            the classic code a pool replaces, kept so the two can be compared live.
// Both modes refuse spawns past policy().max_capacity, so a capacity limit bites at the
// same moment in either mode and switching modes never changes the game.
// A pooled store walks its objects in one of three ways (WalkMode, walk_mode.hpp): the pool's
// bitmap, or an engine::ActiveIndexList of live slots in swap-pop or slot order. Each
// update() is timed, so the overlay can show what one object's visit costs in each.
#include "walk_mode.hpp"

#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace game {

struct StoreStats {
  bool pooled = true;
  std::size_t live = 0;
  std::size_t peak_live = 0;       // highest live count this run, in either mode
  std::size_t capacity = 0;        // pooled: pool slots; heap: pointer-array slots
  std::size_t bytes_held = 0;      // pooled: the pool's bytes; heap: objects + pointer array
  std::uint64_t growth_events = 0; // pool growths plus pointer-array growths, this run
  std::uint64_t spawns = 0, releases = 0;
  std::uint64_t refused_spawns = 0;  // at max_capacity (or out of memory)
  std::uint64_t stale_gets = 0;      // pool lookups refused for a stale/foreign handle (the soak run requires 0)
  std::uint64_t failed_releases = 0; // pool releases refused (null, stale, double): a game bug if non-zero
  WalkMode walk = WalkMode::slot_order;  // how update() walks the pool (heap mode: the vector<T*> loop)
  double walk_ns_per_object = 0;     // update()'s time per object visited, smoothed over ~10 steps
};

template <class T>
class ObjectStore {
 public:
  ObjectStore(const engine::GrowthPolicy& policy, bool pooled, WalkMode walk = WalkMode::slot_order)
      : pool_(policy), list_(list_discipline(walk)), policy_(policy), pooled_(pooled), walk_(walk) {
    if (!pooled_) heap_.reserve(policy_.initial_capacity);
    if (listed()) list_.reserve(pool_.capacity());
  }
  ~ObjectStore() { delete_heap_objects(); }
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Copies `value` into the store; nullptr when at max_capacity (or out of memory).
  T* spawn(const T& value) {
    if (size() >= policy_.max_capacity) return refuse();
    if (pooled_) {
      const auto handle = pool_.emplace(value);
      if (!handle) return refuse();
      if (listed()) {
        // The list grows when the pool does (same step), so a warmed store never allocates.
        if (list_.capacity() < pool_.capacity()) list_.reserve(pool_.capacity());
        list_.add(handle->index);
      }
      ++spawns_;
      note_size();
      return pool_.get(*handle);
    }
    if (heap_.size() == heap_.capacity()) ++heap_growths_;
    heap_.push_back(nullptr);
    heap_.back() = new T(value);
    ++spawns_;
    note_size();
    return heap_.back();
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
    if (!listed()) {
      list_.clear();
    } else if (!was_listed && pooled_) {
      list_.reserve(pool_.capacity());
      list_.rebuild(pool_);
    }
  }
  WalkMode walk() const noexcept { return walk_; }
  const engine::ActiveIndexList& active_list() const noexcept { return list_; }  // empty in bitmap or heap mode
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

  // Destroys every object (a restart); pooled memory stays reserved for the next game.
  void clear() noexcept {
    releases_ += size();
    pool_.clear();
    list_.clear();
    delete_heap_objects();
  }

  // Moves every live object to the other storage. Values are unchanged, addresses change.
  // Heap mode frees the pool's memory (it must not hide a warm pool behind it), but the pool
  // remembers the capacity it had warmed up to and comes back at that size, so switching
  // pooling back on does not replay the warm-up growths, and repeated switching cannot ratchet
  // the capacity up (the soak run checks that capacity stops growing).
  void set_pooling(bool pooled) {
    if (pooled == pooled_) return;
    if (!pooled) {
      heap_.reserve(std::max(policy_.initial_capacity, pool_.size()));
      pool_.for_each([&](T& object) { heap_.push_back(new T(std::move(object))); });
      warm_capacity_ = pool_.capacity();
      pool_.clear();
      list_.clear();
      pool_.shrink_to_fit();
    } else {
      pool_.reserve(std::max(heap_.size(), warm_capacity_));
      for (T* object : heap_) {
        pool_.emplace(std::move(*object));
        delete object;
      }
      heap_.clear();
      heap_.shrink_to_fit();
      if (listed()) {
        list_.reserve(pool_.capacity());
        list_.rebuild(pool_);
      }
    }
    pooled_ = pooled;
  }

  // Growth policy and storage mode (contiguous/stable); live objects migrate in the pool.
  bool set_policy(const engine::GrowthPolicy& policy) {
    if (!pool_.set_policy(policy)) return false;
    policy_ = policy;
    // A larger initial capacity is a request for that many slots now (the overlay's capacity
    // advisor): reserve them, so the growths it is meant to prevent never come.
    if (pooled_ && pool_.capacity() < policy.initial_capacity) pool_.reserve(policy.initial_capacity);
    if (pooled_ && listed()) list_.reserve(pool_.capacity());  // slot indices survive set_policy
    return true;
  }

  void set_growth_listener(std::function<void(const engine::GrowthEvent&)> listener) {
    pool_.set_growth_listener(std::move(listener));
  }

  StoreStats stats() const noexcept {
    const engine::PoolStats pool = pool_.stats();
    StoreStats s;
    s.pooled = pooled_;
    s.live = size();
    s.peak_live = peak_live_;
    s.capacity = capacity();
    s.bytes_held = pooled_ ? pool.bytes_held : heap_.size() * sizeof(T) + heap_.capacity() * sizeof(T*);
    s.growth_events = pool.growth_events + heap_growths_;
    s.spawns = spawns_;
    s.releases = releases_;
    s.refused_spawns = refused_;
    s.stale_gets = pool.stale_gets;
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
      delete heap_[i];
      heap_[i] = heap_.back();
      heap_.pop_back();
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

  bool listed() const noexcept { return walk_ != WalkMode::bitmap; }
  T* refuse() noexcept {
    ++refused_;
    return nullptr;
  }
  void note_size() noexcept { peak_live_ = std::max(peak_live_, size()); }
  void delete_heap_objects() noexcept {
    for (T* object : heap_) delete object;
    heap_.clear();
  }

  engine::VectorPool<T> pool_;
  engine::ActiveIndexList list_;  // pooled list walks: the live slots, kept in step by spawn/update/clear
  std::vector<T*> heap_;  // heap mode: owning pointers
  engine::GrowthPolicy policy_;
  bool pooled_;
  WalkMode walk_;
  double walk_ns_ = 0;             // smoothed update() time per object
  std::size_t warm_capacity_ = 0;  // pool capacity when heap mode last took over
  std::size_t peak_live_ = 0;
  std::uint64_t heap_growths_ = 0;
  std::uint64_t spawns_ = 0, releases_ = 0, refused_ = 0;
};

}  // namespace game
