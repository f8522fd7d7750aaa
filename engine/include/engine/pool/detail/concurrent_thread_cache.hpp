// SPDX-License-Identifier: MIT
#pragma once
// engine::detail per-thread magazines for ConcurrentPool: each thread keeps a small stack of
// free slot indices per pool, so the common emplace and release touch no shared cache line.
// Internal to the pool library (target engine::pool).
//
// Ownership (the part that must survive threads exiting and pools dying in any order):
// - A ThreadMagazine is created by its thread on first use of a pool and listed both in that
//   thread's table (thread_local) and in the pool's MagazineRegistry.
// - Only the owning thread ever deletes it: at thread exit, or when it notices (on its next
//   registration with any pool) that the pool is gone.
// - Thread exit hands the magazine's free slots and counts back to the pool if the pool still
//   exists; a pool being destroyed instead marks its magazines orphaned. Both run under one
//   process-wide mutex, so a pool is never flushed into while (or after) it is destroyed.
// - Pools are told apart by a 64-bit id that is never reused, so a thread's cached pointer to
//   a dead pool's magazine is never matched again, let alone dereferenced for the pool.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace engine::detail {

// A thread trades free slots with the shared list one chain of kMagazineBatch at a time, and
// keeps up to kMagazineSlots for itself: a thread working in bursts of up to 320 objects
// recycles its own cache-warm slots and never touches a shared cache line; bigger bursts
// spill the oldest 32 at a time. (1.3 KB of indices per thread and pool.)
inline constexpr std::uint32_t kMagazineBatch = 32;
inline constexpr std::uint32_t kMagazineSlots = 10 * kMagazineBatch;

class MagazineRegistry;

// One thread's cache for one pool. Aligned to a cache line so two threads' counters never
// share one. The slot array is touched by the owning thread only; the atomics are written
// by the owner alone (plain load + store, no read-modify-write) and read by stats().
struct alignas(64) ThreadMagazine {
  std::uint32_t slots[kMagazineSlots];     // free slot indices, top = slots[count - 1]
  std::atomic<std::uint32_t> count{0};     // how many of slots[] are valid
  std::atomic<std::uint64_t> emplaces{0};  // successful emplaces by this thread
  std::atomic<std::uint64_t> releases{0};  // successful releases by this thread
  std::uint64_t pool_id = 0;               // immutable: which pool this caches
  MagazineRegistry* registry = nullptr;    // guarded by cache_lifetime_mutex(); null: pool gone

  static void bump(std::atomic<std::uint64_t>& counter) noexcept {
    counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

// Orders thread exit (flush into a pool) against pool destruction. Both are rare.
// Never destroyed: a pool with static storage may be destroyed after every other static.
inline std::mutex& cache_lifetime_mutex() {
  static std::mutex& mutex = *new std::mutex;
  return mutex;
}

inline std::uint64_t next_pool_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Sums over every magazine a pool has had; exact when no thread is mid-operation.
struct MagazineTotals {
  std::uint64_t emplaces = 0;
  std::uint64_t releases = 0;
  std::size_t cached_free = 0;  // free slots sitting in live threads' magazines
  std::size_t threads = 0;      // threads that currently hold a magazine
};

// The pool side: the list of magazines and the counts of magazines already gone.
class MagazineRegistry {
 public:
  // Called with a dying thread's magazine; must move all its free slots to the shared list.
  using ReturnSlots = void (*)(void* pool, ThreadMagazine& magazine) noexcept;

  MagazineRegistry(void* pool, ReturnSlots return_slots) noexcept
      : id_(next_pool_id()), pool_(pool), return_slots_(return_slots) {}
  MagazineRegistry(const MagazineRegistry&) = delete;
  MagazineRegistry& operator=(const MagazineRegistry&) = delete;
  ~MagazineRegistry() { orphan_all(); }

  std::uint64_t id() const noexcept { return id_; }

  // The pool is going away: from now on no thread flushes into it. Idempotent.
  void orphan_all() noexcept {
    std::lock_guard<std::mutex> lifetime(cache_lifetime_mutex());
    std::lock_guard<std::mutex> lock(mutex_);
    for (ThreadMagazine* m : magazines_) m->registry = nullptr;
    magazines_.clear();
  }

  // Operations done without a magazine (after this thread's cache table is gone, or by
  // clear()) are counted here instead, with shared atomics: they are rare.
  void count_uncached_emplace() noexcept { retired_emplaces_.fetch_add(1, std::memory_order_relaxed); }
  void count_uncached_releases(std::uint64_t n) noexcept { retired_releases_.fetch_add(n, std::memory_order_relaxed); }

  MagazineTotals totals() const {
    MagazineTotals t;
    std::lock_guard<std::mutex> lock(mutex_);
    t.emplaces = retired_emplaces_.load(std::memory_order_relaxed);
    t.releases = retired_releases_.load(std::memory_order_relaxed);
    for (const ThreadMagazine* m : magazines_) {
      t.emplaces += m->emplaces.load(std::memory_order_relaxed);
      t.releases += m->releases.load(std::memory_order_relaxed);
      t.cached_free += m->count.load(std::memory_order_relaxed);
    }
    t.threads = magazines_.size();
    return t;
  }

  // Thread side, first use of this pool by the calling thread.
  void attach(ThreadMagazine* m) {
    std::lock_guard<std::mutex> lock(mutex_);
    magazines_.push_back(m);
    m->registry = this;
  }

  // Thread side, under cache_lifetime_mutex(): the thread is exiting;
  // its free slots go back to the shared list and its counts into the retired totals.
  void detach(ThreadMagazine* m) noexcept {
    return_slots_(pool_, *m);
    std::lock_guard<std::mutex> lock(mutex_);
    retired_emplaces_.fetch_add(m->emplaces.load(std::memory_order_relaxed), std::memory_order_relaxed);
    retired_releases_.fetch_add(m->releases.load(std::memory_order_relaxed), std::memory_order_relaxed);
    magazines_.erase(std::find(magazines_.begin(), magazines_.end(), m));
    m->registry = nullptr;
  }

 private:
  const std::uint64_t id_;  // never reused, unlike the pool's address
  void* const pool_;        // handed back to return_slots_
  const ReturnSlots return_slots_;
  mutable std::mutex mutex_;  // guards magazines_ (and, with the lifetime mutex, detach)
  std::vector<ThreadMagazine*> magazines_;
  std::atomic<std::uint64_t> retired_emplaces_{0};
  std::atomic<std::uint64_t> retired_releases_{0};
};

// The thread side: every magazine this thread owns, for every pool it has used.
class ThreadCacheTable {
 public:
  ThreadCacheTable() = default;
  ThreadCacheTable(const ThreadCacheTable&) = delete;
  ThreadCacheTable& operator=(const ThreadCacheTable&) = delete;
  ~ThreadCacheTable();

  ThreadMagazine* find_or_create(MagazineRegistry& registry);  // throws bad_alloc

 private:
  void prune_orphans() noexcept;  // under cache_lifetime_mutex()
  std::vector<ThreadMagazine*> magazines_;
};

// The fast path reads only these two trivially initialised thread_locals (no TLS guard).
inline thread_local std::uint64_t tl_last_pool_id = 0;
inline thread_local ThreadMagazine* tl_last_magazine = nullptr;
// 0: table not created yet, 1: live, 2: destroyed (thread is exiting; run uncached).
inline thread_local unsigned char tl_table_state = 0;

inline ThreadCacheTable* thread_cache_table() {
  if (tl_table_state == 2) return nullptr;
  thread_local ThreadCacheTable table;
  tl_table_state = 1;
  return &table;
}

inline ThreadCacheTable::~ThreadCacheTable() {
  tl_table_state = 2;
  tl_last_pool_id = 0;
  tl_last_magazine = nullptr;
  std::lock_guard<std::mutex> lifetime(cache_lifetime_mutex());
  for (ThreadMagazine* m : magazines_) {
    if (m->registry != nullptr) m->registry->detach(m);
    delete m;
  }
  magazines_.clear();
}

inline void ThreadCacheTable::prune_orphans() noexcept {
  auto orphan = [](ThreadMagazine* m) {
    if (m->registry != nullptr) return false;
    delete m;
    return true;
  };
  magazines_.erase(std::remove_if(magazines_.begin(), magazines_.end(), orphan), magazines_.end());
}

inline ThreadMagazine* ThreadCacheTable::find_or_create(MagazineRegistry& registry) {
  const std::uint64_t id = registry.id();
  for (ThreadMagazine* m : magazines_) {
    if (m->pool_id == id) return m;  // pool_id is immutable: no lock needed
  }
  std::lock_guard<std::mutex> lifetime(cache_lifetime_mutex());
  prune_orphans();                            // bounded garbage: a thread keeps no magazine of a dead pool past here
  magazines_.reserve(magazines_.size() + 1);  // the push_back below cannot throw
  auto m = std::make_unique<ThreadMagazine>();
  m->pool_id = id;
  registry.attach(m.get());  // may throw bad_alloc; then nothing has changed
  magazines_.push_back(m.get());
  return m.release();
}

// First use of a pool by this thread, or a switch between pools: find or make the magazine.
// Cold, so it stays out of line and the fast path below stays small enough to inline.
#if defined(__GNUC__)
__attribute__((cold))
#endif
inline ThreadMagazine*
thread_magazine_slow(MagazineRegistry& registry) noexcept {
  ThreadCacheTable* table = thread_cache_table();
  if (table == nullptr) return nullptr;
  ThreadMagazine* m = nullptr;
  try {
    m = table->find_or_create(registry);
  } catch (...) {
    return nullptr;
  }
  tl_last_pool_id = registry.id();
  tl_last_magazine = m;
  return m;
}

// This thread's magazine for `registry`'s pool; nullptr while the thread is exiting or when
// no magazine could be allocated (the caller then works on the shared list directly).
// The common case is one thread_local compare.
inline ThreadMagazine* thread_magazine(MagazineRegistry& registry) noexcept {
  if (tl_last_pool_id == registry.id()) return tl_last_magazine;
  return thread_magazine_slow(registry);
}

}  // namespace engine::detail
