#pragma once
// game::ObjectStore<T>: where a manager keeps its objects, switchable at runtime between
//  - pooled: an engine::VectorPool<T> (slots reused, no allocation once warmed up), and
//  - heap:   one `new T` per object in a std::vector<T*>, swap-remove and `delete` on death:
//            the classic code a pool replaces, kept so the two can be compared live.
// Both modes refuse spawns past policy().max_capacity, so a capacity limit bites at the
// same moment in either mode and switching modes never changes the game.
#include <engine/pool/vector_pool.hpp>

#include <algorithm>
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
};

template <class T>
class ObjectStore {
 public:
  ObjectStore(const engine::GrowthPolicy& policy, bool pooled) : pool_(policy), policy_(policy), pooled_(pooled) {
    if (!pooled_) heap_.reserve(policy_.initial_capacity);
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

  // Two-phase update: keep(T&) runs on every live object and returns false for the dead;
  // the dead are released after the pass, never while the pass walks the storage. The pool's
  // erase_if does both phases without allocating, and frees the lowest dead slot last, so the
  // next spawns refill the storage from the front, in the order the next pass walks it.
  template <class Keep>
  void update(Keep&& keep) {
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
      pool_.shrink_to_fit();
    } else {
      pool_.reserve(std::max(heap_.size(), warm_capacity_));
      for (T* object : heap_) {
        pool_.emplace(std::move(*object));
        delete object;
      }
      heap_.clear();
      heap_.shrink_to_fit();
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
    return s;
  }

 private:
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
  std::vector<T*> heap_;  // heap mode: owning pointers
  engine::GrowthPolicy policy_;
  bool pooled_;
  std::size_t warm_capacity_ = 0;  // pool capacity when heap mode last took over
  std::size_t peak_live_ = 0;
  std::uint64_t heap_growths_ = 0;
  std::uint64_t spawns_ = 0, releases_ = 0, refused_ = 0;
};

}  // namespace game
