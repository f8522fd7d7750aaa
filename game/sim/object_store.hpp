#pragma once
// game::ObjectStore<T>: where a manager keeps its objects: one engine::VectorPool<T>, whose
// layout is the game's storage setting while pooling is on, and the pool's heap layout while
// it is off:
//  - pooled: slots reused, no allocation once warmed up;
//  - heap:   one `new T` per object, found through an array of pointers, `delete` and a
//            swap-remove of the pointer on death: the classic code a pool replaces, kept so
//            the two can be compared live (engine::StorageMode::heap).
// Switching pooling is the pool's own set_policy(): every live object migrates, and every
// handle stays valid, so code that keeps a handle across steps (a homing shot's target) needs
// no patching. Spawns past policy().max_capacity are refused in either mode, so a capacity
// limit bites at the same moment and switching modes never changes the game.
//
// A pooled store walks its objects in one of three ways (WalkMode, walk_mode.hpp): the pool's
// bitmap, or an engine::ActiveIndexList of live slots in swap-pop or slot order. Each
// update() is timed, so the overlay can show what one object's visit costs in each.
#include "sim/growth_log.hpp"
#include "sim/walk_mode.hpp"

#include <engine/pool/active_index_list.hpp>
#include <engine/pool/vector_pool.hpp>
#include <engine/pool/worker_team.hpp>

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
  std::size_t burst_peak = 0;       // the largest rise of the live count inside one step (ObjectStore::make_room)
  std::size_t capacity = 0;         // the pool's slots (heap layout: pointer slots)
  std::size_t bytes_held = 0;       // the pool's bytes (heap layout: objects + pointers + handle table)
  std::size_t bytes_live = 0;       // live * sizeof(T): the bytes a step's walk touches
  std::size_t page_slots = 0;       // the pool's page size after its own rule (policy page_slots 0 = automatic)
  std::uint64_t growth_events = 0;  // pool growths (the heap layout's too), this run (no rebuilds)
  std::uint64_t rebuilds = 0;       // layouts rebuilt by a switch (pooling on or off, storage mode),
                                    // at the capacity the pool had: not growths of the game's
  std::uint64_t spawns = 0, releases = 0;
  std::uint64_t refused_spawns = 0;      // at max_capacity (or out of memory)
  std::uint64_t stale_gets = 0;          // pool lookups refused for a stale/foreign handle (the soak run requires 0)
  std::uint64_t failed_releases = 0;     // pool releases refused (null, stale, double): a game bug if non-zero
  WalkMode walk = WalkMode::slot_order;  // how update() walks the pool (heap mode: the pointer loop)
  double walk_ns_per_object = 0;         // update()'s time per object visited, smoothed over ~10 steps
  double update_ms = 0, release_ms = 0;  // the last update(team, ...): phase one (parallel), phase two
};

// The free slots a store keeps ahead of its spawns (ObjectStore::make_room), for `live` objects
// and `burst`, the largest rise of its live count inside one step so far (0 until a burst has
// outgrown the store's start).
constexpr std::size_t room_ahead(std::size_t live, std::size_t burst) noexcept { return std::max(2 * burst, live / 8); }

template <class T>
class ObjectStore {
 public:
  ObjectStore(const engine::GrowthPolicy& policy, bool pooled, WalkMode walk = WalkMode::slot_order)
      : pool_(layout(policy, pooled)), list_(list_discipline(walk)), policy_(policy), pooled_(pooled), walk_(walk) {
    if (listed()) list_.reserve(pool_.capacity());
    // The store always listens, so it can tell a rebuild (set_pooling) from a growth.
    pool_.set_growth_listener([this](const engine::GrowthEvent& e) { on_pool_growth(e); });
  }
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Copies `value` into the store; nullptr when at max_capacity (or out of memory). The pointer
  // costs a lookup by handle (a cache miss or two on a paged layout): spawns that do not need it
  // call spawn_handle.
  T* spawn(const T& value) {
    const engine::PoolHandle handle = spawn_handle(value);
    return handle.is_null() ? nullptr : pool_.get(handle);
  }

  // Same, but returns the object's handle (null when refused): what code that keeps a
  // reference across steps must hold.
  engine::PoolHandle spawn_handle(const T& value) {
    const auto handle = size() < policy_.max_capacity ? pool_.emplace(value) : std::nullopt;
    if (!handle) {
      ++refused_;
      return {};
    }
    list_spawned(handle->index);
    note_spawns(1);
    return *handle;
  }

  // `count` spawns in one call, the i-th a copy of make(i), built on `team`'s threads
  // (VectorPool::emplace_chunked): the store ends as `count` spawn_handle(make(i)) calls in order
  // leave it, at any thread count. make must be noexcept and must not touch the store. Returns
  // how many were spawned: the first ones, fewer at max_capacity. A list walk learns each new
  // slot in claim order, so a store that walks a list spawns them one at a time.
  template <class Make>
  std::size_t spawn_chunked(std::size_t count, engine::WorkerTeam& team, Make&& make) {
    if (listed()) {
      std::size_t spawned = 0;
      for (std::size_t i = 0; i < count; ++i) {
        if (!spawn_handle(make(i)).is_null()) ++spawned;
      }
      return spawned;
    }
    const std::size_t asked = std::min(count, policy_.max_capacity - std::min(size(), policy_.max_capacity));
    const auto run = [&team](std::size_t n, auto&& task) { team(n, task); };
    const std::size_t spawned = pool_.emplace_chunked(asked, chunks_for(asked, team), run, make);
    refused_ += count - spawned;
    note_spawns(spawned);
    return spawned;
  }

  // The live object `handle` names, or nullptr (and stale_gets + 1) if it died, even when
  // its slot holds a newcomer now. Null handles are refused the same way.
  T* get(engine::PoolHandle handle) noexcept { return pool_.get(handle); }
  const T* get(engine::PoolHandle handle) const noexcept { return pool_.get(handle); }
  // Live? Counts nothing.
  bool contains(engine::PoolHandle handle) const noexcept { return pool_.contains(handle); }

  // Visits every live object with its handle, f(PoolHandle, T&), in storage order.
  template <class F>
  void for_each_handle(F&& f) {
    pool_.for_each([&](engine::PoolHandle handle, T& object) { f(handle, object); });
  }

  // Two-phase update: keep(T&) runs on every live object and returns false for the dead
  // (phase one); the dead are released after the pass, never while the pass walks the storage
  // (phase two). The bitmap and the slot-order list free the lowest dead slot last, so the next
  // spawns refill the storage from the front:
  //  - bitmap (and the packed layouts and heap, whose dense arrays are the walk): the pool's
  //    erase_if does both phases;
  //  - a list walk: ActiveIndexList::update walks the listed slots and marks, then releases the
  //    marked and mends the list (swap-pop, or a merge that keeps slot order).
  template <class Keep>
  void update(Keep&& keep) {
    const auto started = std::chrono::steady_clock::now();
    const std::size_t visited = size();
    if (listed()) {
      releases_ += list_.update(pool_, keep);
    } else {
      releases_ += pool_.erase_if([&](T& object) { return !keep(object); });
    }
    note_walk_time(std::chrono::steady_clock::now() - started, visited);
  }

  // The same update with phase one split across `team`: keep(k, T&) runs on chunk k
  // of the walk, chunks running at once on the team's threads, so it may write only its object
  // and what the caller keeps for chunk k (chunk_count(team) of them). The releases run after
  // (in walk order on this thread, or, for many victims, shared out on the team in a way that
  // ends as that order would): the store ends as update() leaves it, at any thread count.
  // A team of one runs the same code with one chunk, inline. Each call times its two phases.
  template <class Keep>
  void update(engine::WorkerTeam& team, Keep&& keep) {
    update(team, chunk_count(team), keep, [] {});
  }
  // The same update, with beside() run on the calling thread while the team's workers start
  // phase one (WorkerTeam::run_beside), in `chunks` chunks: serial work that touches nothing of
  // this store (nor anything keep reads) overlaps the walk. beside() runs once, whatever the
  // walk. The store ends as update() leaves it.
  template <class Keep, class Beside>
  void update(engine::WorkerTeam& team, std::size_t chunks, Keep&& keep, Beside&& beside) {
    const auto started = std::chrono::steady_clock::now();
    auto walked = started;
    std::chrono::steady_clock::duration beside_took{};  // not the walk's: left out of update_ms
    const auto timed_beside = [&] {
      const auto from = std::chrono::steady_clock::now();
      beside();
      beside_took = std::chrono::steady_clock::now() - from;
    };
    bool walking = true;
    const auto run = [&](std::size_t n, auto&& task) {  // the team, timed: phase one is the first call
      if (walking) {                                    // (the releases may run on the team too)
        walking = false;
        team.run_beside(n, task, timed_beside);
        walked = std::chrono::steady_clock::now();
      } else {
        team(n, task);
      }
    };
    const std::size_t visited = size();
    chunked_pass(chunks, run, keep);
    if (walking) {  // a pass that never ran the team (refused mid-pass)
      timed_beside();
      walked = std::chrono::steady_clock::now();
    }
    const auto finished = std::chrono::steady_clock::now();
    update_ms_ = std::chrono::duration<double, std::milli>(walked - started - beside_took).count();
    release_ms_ = std::chrono::duration<double, std::milli>(finished - walked).count();
    note_walk_time(finished - started - beside_took, visited);
  }
  // A second pass in a step whose update() already ran, that only releases: keep(k, const T&)
  // false for the dead (the particles born dead in their first step). Its time joins the
  // step's release phase; update()'s walk figures (update_ms, the walk's ns per object) stay
  // the walk's.
  template <class Keep>
  void sweep(engine::WorkerTeam& team, Keep&& keep) {
    const auto started = std::chrono::steady_clock::now();
    chunked_pass(
        chunk_count(team), [&team](std::size_t n, auto&& task) { team(n, task); }, keep);
    release_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
  // How many chunks update(team, keep) splits the walk into: four per thread of the team (one
  // for a team of one), claimed as the threads come, so a thread the OS takes away mid-pass
  // holds a quarter of its share and the others take the rest. The count follows the team's
  // size, not how many of its threads are active: the game is the same at any chunk count, and
  // a team that changes its active threads changes no buffer.
  static constexpr std::size_t kChunksPerThread = 4;
  static std::size_t chunk_count(const engine::WorkerTeam& team) noexcept {
    return team.size() == 1 ? 1 : kChunksPerThread * team.size();
  }
  // How many an update with work beside it takes: more again, so the threads that start the
  // walk while the caller is busy take more of it, and all end together.
  static std::size_t chunks_beside(const engine::WorkerTeam& team) noexcept { return 2 * chunk_count(team); }
  // How many chunks a batch of `objects` (spawns, or the enemies' move) takes: as above, but
  // one per kObjectsPerTask at most, so a small batch runs inline. A run on the team cost more than
  // it saved there: the storm's volleys (677 bullets) took 42 us on one thread and 48 us on two,
  // the enemies' move (314) 15 us and 16-27 us (2-vCPU VM, docs/figures.md).
  static constexpr std::size_t kObjectsPerTask = 1024;
  static std::size_t chunks_for(std::size_t objects, const engine::WorkerTeam& team) noexcept {
    return std::clamp<std::size_t>(objects / kObjectsPerTask, 1, chunk_count(team));
  }

  // Lookups refused outside the pool's own count (a parallel pass checks contains(), which
  // counts nothing, and reports its refusals here afterwards): they join stats().stale_gets.
  void note_stale_lookups(std::uint64_t count) noexcept { noted_stale_ += count; }

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
  bool walks_list() const noexcept { return listed(); }                           // update() goes down active_list()
  const engine::ActiveIndexList& active_list() const noexcept { return list_; }   // empty unless walks_list()
  const engine::VectorPool<T>& pool_for_tests() const noexcept { return pool_; }  // checks the list against it

  // Visits every live object in storage order (never rely on that order for gameplay).
  template <class F>
  void for_each(F&& f) {
    pool_.for_each([&](T& object) { f(object); });
  }
  template <class F>
  void for_each(F&& f) const {
    pool_.for_each([&](const T& object) { f(object); });
  }

  std::size_t size() const noexcept { return pool_.size(); }
  std::size_t capacity() const noexcept { return pool_.capacity(); }
  bool pooled() const noexcept { return pooled_; }
  const engine::GrowthPolicy& policy() const noexcept { return policy_; }  // as asked: the pooled layout
  // Read-only view of the storage for the memory map (in heap mode, its heap layout).
  const engine::VectorPool<T>& pool() const noexcept { return pool_; }

  // Destroys every object (a restart); the memory stays reserved for the next game.
  void clear() noexcept {
    releases_ += size();
    pool_.clear();
    list_.clear();
  }

  // Moves every live object to the other storage: the pool's heap layout, or back into the
  // pooled one. Values and handles are unchanged, addresses change. The switch keeps the
  // capacity the pool had warmed up to, so switching pooling back on does not replay the
  // warm-up growths, and repeated switching cannot ratchet the capacity up (the soak run
  // checks that capacity stops growing); the pooled layout's object memory goes while heap
  // mode runs (it must not hide a warm pool behind it).
  void set_pooling(bool pooled) {
    if (pooled == pooled_) return;
    const bool was_listed = listed();
    rebuilding_ = true;  // a rebuild, labelled as such and not counted as a growth
    const bool moved = pool_.set_policy(layout(policy_, pooled));
    rebuilding_ = false;
    if (!moved) return;  // out of memory: the store stays as it was
    pooled_ = pooled;
    relist(was_listed);
  }

  // Room for the next step's spawns, made at the end of a step; returns whether the pool grew.
  // Every store keeps room_ahead() free slots: an eighth of its live count, and, once a burst
  // has outrun its capacity mid-step, twice the largest rise of its live count inside one step
  // so far, grown here (VectorPool::grow_ahead), so the next burst takes slots grown on an
  // earlier frame instead of growing the pool in its own. A pool sized up front (the advisor's
  // capacities: the peak plus a quarter) never needs more. Only when the work is done moves:
  // slots, handles and the game are the same.
  // Only a calm step grows: the bursts are the costliest frames already, and a growth on one
  // adds to its spike. Called at the end of the step it judges, the growth lands in that calm
  // step, not in the next, which may be a burst. A burst that left too little room waits for a
  // calm step too: if another burst comes first it grows mid-step, no worse than growing at the
  // end of this one. The store alone calls a step calm when it rose by at most a quarter of its
  // largest burst (bursting()); the simulation judges the step over every store (Simulation::make_room).
  bool make_room() { return make_room(!bursting()); }
  bool make_room(bool calm_step) {
    burst_ = largest_burst();
    step_start_ = step_peak_ = size();
    if (!calm_step) return false;
    making_room_ = true;
    const bool grew = pool_.grow_ahead(room_ahead(size(), outgrown_ ? burst_ : 0));
    making_room_ = false;
    if (grew && listed()) list_.reserve(pool_.capacity());
    return grew;
  }
  // This step's rise of the live count so far (its high since the last make_room), the largest
  // such rise of any step, and whether this step is a burst: it rose by more than a quarter of
  // the largest. A quarter: the storm's largest bursts are four explosions, and one explosion on
  // top of the steady spawns is a burst too (its frame costs twice its neighbours).
  std::size_t step_rise() const noexcept { return step_peak_ - step_start_; }  // the peak only rises
  std::size_t largest_burst() const noexcept { return std::max(burst_, step_rise()); }
  bool bursting() const noexcept { return 4 * step_rise() > largest_burst(); }
  // Backs up to `bytes` of the pool's never-used memory, so a burst does not stop on fresh
  // pages' faults (VectorPool::prefault); returns the bytes it asked for.
  std::size_t prefault(std::size_t bytes) noexcept { return pool_.prefault(bytes); }

  // Growth policy and storage mode (contiguous/stable/packed/packed_pages) of the pooled
  // layout; live objects migrate in the pool. In heap mode the policy is kept for the switch back.
  bool set_policy(const engine::GrowthPolicy& policy) {
    // A storage-mode switch moves every object into a new layout of the same capacity: a
    // rebuild too, labelled and counted as one, not as a growth.
    const engine::GrowthPolicy next = layout(policy, pooled_);
    rebuilding_ = next.storage != pool_.policy().storage || next.page_slots != pool_.policy().page_slots;
    const bool was_listed = listed();
    const bool moved = pool_.set_policy(next);
    rebuilding_ = false;
    if (!moved) return false;
    policy_ = policy;
    relist(was_listed);  // into packed the dense array is the walk; out of it, the list again
    // A larger initial capacity is a request for that many slots now (the overlay's capacity
    // advisor): reserve them, so the growths it is meant to prevent never come.
    if (pool_.capacity() < policy.initial_capacity) {
      making_room_ = true;  // asked for: not a burst outgrowing the pool
      pool_.reserve(policy.initial_capacity);
      making_room_ = false;
    }
    if (listed()) list_.reserve(pool_.capacity());  // slot indices survive set_policy
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
    s.burst_peak = burst_;
    s.capacity = capacity();
    s.bytes_live = s.live * sizeof(T);
    s.bytes_held = pool.bytes_held;  // heap: the objects' own allocations, the pointers and the handles' table
    s.page_slots = pool_.policy().page_slots;
    s.growth_events = pool.growth_events - rebuilds_;
    s.rebuilds = rebuilds_;
    s.spawns = spawns_;
    s.releases = releases_;
    s.refused_spawns = refused_;
    s.stale_gets = pool.stale_gets + noted_stale_;
    s.failed_releases = pool.failed_releases;
    s.walk = walk_;
    s.walk_ns_per_object = walk_ns_;
    s.update_ms = update_ms_;
    s.release_ms = release_ms_;
    return s;
  }

 private:
  // The pool's policy for a store with `policy` as its pooled layout: that, or the heap layout.
  static engine::GrowthPolicy layout(engine::GrowthPolicy policy, bool pooled) noexcept {
    if (!pooled) policy.storage = engine::StorageMode::heap;
    return policy;
  }
  void note_walk_time(std::chrono::steady_clock::duration took, std::size_t visited) noexcept {
    if (visited == 0) {  // nothing walked: no figure (an empty pool's step is all overhead)
      walk_ns_ = 0;
      return;
    }
    const double ns = std::chrono::duration<double, std::nano>(took).count() / static_cast<double>(visited);
    walk_ns_ = walk_ns_ == 0 ? ns : walk_ns_ + 0.1 * (ns - walk_ns_);
  }
  // Both phases of a chunked pass, whatever the walk: keep(k, T&) on chunk k (through run),
  // then the releases of those it returned false for.
  template <class Run, class Keep>
  void chunked_pass(std::size_t chunks, Run&& run, Keep& keep) {
    if (listed()) {
      releases_ += list_.update_chunked(pool_, chunks, run, keep);
    } else {
      releases_ += pool_.erase_if_chunked(chunks, run, [&](std::size_t k, T& object) { return !keep(k, object); });
    }
  }
  // A list walk, except over a packed pool or the heap (list_walk_applies(), walk_mode.hpp, says why).
  bool listed() const noexcept { return walk_ != WalkMode::bitmap && list_walk_applies(pool_.policy().storage); }
  // After a change that may start or stop the list walk (the walk, the storage mode, pooling):
  // a list that stops is dropped; one that starts lists the pool's live slots once, in slot order.
  void relist(bool was_listed) {
    if (!listed()) {
      list_.clear();
    } else if (!was_listed) {
      list_.reserve(pool_.capacity());
      list_.rebuild(pool_);
    }
  }
  void note_spawns(std::size_t spawned) noexcept {  // after spawns: the counts and the peaks they set
    spawns_ += spawned;
    peak_live_ = std::max(peak_live_, size());
    step_peak_ = std::max(step_peak_, size());
  }
  void list_spawned(std::uint32_t index) {
    if (!listed()) return;
    // The list grows when the pool does (same step), so a warmed store never allocates.
    if (list_.capacity() < pool_.capacity()) list_.reserve(pool_.capacity());
    list_.add(index);
  }
  void on_pool_growth(const engine::GrowthEvent& e) {
    if (rebuilding_) ++rebuilds_;
    if (!rebuilding_ && !making_room_) outgrown_ = true;
    if (growth_log_) growth_log_->record(pool_id_, e, rebuilding_);
  }

  engine::VectorPool<T> pool_;
  engine::ActiveIndexList list_;  // pooled list walks: the live slots, kept in step by spawn/update/clear
  engine::GrowthPolicy policy_;   // the pooled layout's policy (the pool runs the heap layout while !pooled_)
  bool pooled_;
  WalkMode walk_;
  double walk_ns_ = 0;                     // smoothed update() time per object
  double update_ms_ = 0, release_ms_ = 0;  // the last update(team, ...)'s two phases
  GrowthLog* growth_log_ = nullptr;
  PoolId pool_id_ = PoolId::bullets;
  bool rebuilding_ = false;     // inside set_pooling / a layout switch: growth events are rebuilds
  bool making_room_ = false;    // inside make_room or an asked-for reserve: growth not forced by a spawn
  bool outgrown_ = false;       // a spawn has grown the pool: make_room keeps room for bursts from then on
  std::uint64_t rebuilds_ = 0;  // pool growth events that were rebuilds (in pool.growth_events too)
  std::size_t peak_live_ = 0;
  std::size_t step_start_ = 0, step_peak_ = 0;  // live count at the last make_room, and its high since
  std::size_t burst_ = 0;                       // the largest rise of the live count inside one step
  std::uint64_t spawns_ = 0, releases_ = 0, refused_ = 0;
  std::uint64_t noted_stale_ = 0;  // note_stale_lookups()
};

}  // namespace game
