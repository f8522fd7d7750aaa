// SPDX-License-Identifier: MIT
#pragma once
// engine::ConcurrentPool<T>: an object pool that any number of threads use at once.
// Part of the header-only pool library (CMake target engine::pool).
//
// - Storage is paged and never moves: other threads hold pointers from get().
// - The shared free list is lock-free and ABA-safe (detail::ChainStack: tagged 64-bit head).
// - Each thread keeps a magazine of up to 320 free slot indices per pool and trades chains of
//   32 with the shared list only beyond that: the common emplace and release touch no shared
//   cache line, and bursts of up to 320 objects per thread recycle that thread's own slots.
//   A thread's magazine goes back to the pool when the thread exits; a pool destroyed first
//   orphans the magazines instead (see detail/concurrent_thread_cache.hpp). The price: at
//   max_capacity, emplace() can fail while other threads' magazines still hold free slots
//   (at most 320 per thread); flush_thread_cache() on those threads hands them back.
// - Handles: generations as in VectorPool, seeded per pool (detail/concurrent_generation.hpp):
//   a stale handle matches again only after 2^31 reuses of its slot, and a handle of another
//   pool passes only if the two seeds collide near that slot (about reuses / 2^31).
// - Under AddressSanitizer each object's storage is padded to whole 8-byte shadow granules,
//   so two threads poisoning neighbouring slots never share (and race on) a shadow byte.
// - Slot metadata (generation word, free-list links) sits apart from the objects, which lie
//   back to back on cache-line-aligned pages: a 64-byte T is exactly one cache line.
// - Growth (rare) takes a mutex, then publishes the new page with release stores; readers
//   never see half a page.
// - Every slot's generation word is atomic, and release() is a compare-and-swap on it:
//   of two threads releasing one handle, exactly one wins.
//
// Thread safety: emplace, release, try_release, get, contains, size, stats, reserve and
// flush_thread_cache may run concurrently from any threads. for_each and clear need the pool
// to themselves. Using an object while another thread releases it is the caller's race,
// exactly as with delete.
//
// Reentrancy: a slot is claimed before T is constructed (and handed back if the constructor
// throws), and an object is dead (its handle stale) before its destructor runs, in release(),
// clear() and ~ConcurrentPool. So T's constructor and destructor may emplace and release in
// their own pool; clear() and the destructor keep passing over the pages until none is live,
// so objects that destructors emplace die too. Any T works, including one that can be neither
// moved nor copied: objects never move.
#include <engine/pool/assert.hpp>
#include <engine/pool/detail/concurrent_free_stack.hpp>
#include <engine/pool/detail/concurrent_generation.hpp>
#include <engine/pool/detail/concurrent_thread_cache.hpp>
#include <engine/pool/detail/memory.hpp>
#include <engine/pool/handle.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

namespace engine {

struct ConcurrentPoolConfig {
  std::size_t page_slots = 1024;        // slots per page; rounded up to a power of two in [64, 65536]
  std::size_t initial_capacity = 0;     // slots the constructor allocates (in whole pages)
  std::size_t max_capacity = 1u << 22;  // slots that may ever exist (at most 1 << 24); emplace past it fails
};

struct ConcurrentPoolStats {    // a snapshot; exact when no thread is mid-operation
  std::size_t live = 0;         // objects alive: emplaces - releases
  std::size_t capacity = 0;     // slots that exist; never above max_capacity
  std::size_t shared_free = 0;  // free slots on the shared list
  std::size_t cached_free = 0;  // free slots in threads' caches (live + both frees = capacity)
  std::size_t pages = 0;
  std::size_t bytes_held = 0;     // pages plus the page table
  std::size_t thread_caches = 0;  // threads currently holding a magazine for this pool
  std::uint64_t emplaces = 0;
  std::uint64_t releases = 0;
  std::uint64_t failed_emplaces = 0;  // at max_capacity, or a page could not be allocated
  std::uint64_t failed_releases = 0;  // null, foreign, stale or double (lost race included)
  std::uint64_t stale_gets = 0;       // get() refused a non-null handle
  std::uint64_t growth_events = 0;    // pages added
};

template <class T>
class ConcurrentPool {
  static_assert(std::is_object_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "ConcurrentPool<T> holds non-const object types");
  static_assert(std::is_nothrow_destructible_v<T>,
                "ConcurrentPool<T> needs a noexcept destructor: release() is noexcept");

 public:
  explicit ConcurrentPool(ConcurrentPoolConfig config = {});  // throws bad_alloc if initial pages fail
  ~ConcurrentPool();  // destroys every live object once; no other thread may be using the pool
  ConcurrentPool(const ConcurrentPool&) = delete;             // threads hold pointers into it:
  ConcurrentPool& operator=(const ConcurrentPool&) = delete;  // neither copyable nor movable

  template <class... Args>
  std::optional<PoolHandle> emplace(Args&&... args);  // T(args...), else T{args...} (aggregates); nullopt: at
                                                      // max_capacity or out of memory
  bool release(PoolHandle h) noexcept;                // false (+ debug assert): null, foreign, stale, double
  bool try_release(PoolHandle h) noexcept;            // release() for handles other threads may release first:
                                                      // losing that race returns false without asserting
  T* get(PoolHandle h) noexcept;                      // nullptr unless live
  const T* get(PoolHandle h) const noexcept;
  bool contains(PoolHandle h) const noexcept;

  std::size_t size() const noexcept;  // live objects (sums the thread caches: O(threads))
  std::size_t capacity() const noexcept { return capacity_.load(std::memory_order_acquire); }
  std::size_t max_capacity() const noexcept { return max_capacity_; }
  bool reserve(std::size_t slots);     // false: above max_capacity or out of memory
  void flush_thread_cache() noexcept;  // hands the calling thread's free slots to the shared list

  template <class F>
  void for_each(F&& f);   // f(T&) or f(PoolHandle, T&); pool to itself only
  void clear() noexcept;  // destroys every live object; pool to itself only
  ConcurrentPoolStats stats() const noexcept;

 private:
  friend struct detail::PoolTestAccess;  // tests only: set a slot's generation near the wrap
  // A page is one allocation: every slot's metadata first, then the objects back to back at
  // sizeof(T) stride, the object array aligned to a cache line. Keeping the metadata out of
  // the objects' way means a 64-byte T occupies exactly one cache line, and a chain of 32
  // slots' metadata fills whole lines of its own.
  struct Meta {
    explicit Meta(std::uint32_t generation_word) noexcept : generation(generation_word) {}
    std::atomic<std::uint32_t> generation;  // see detail/concurrent_generation.hpp
    detail::FreeLinks links;
  };
  struct Slot {              // where one slot's pieces are
    Meta* meta;              // nullptr: no such slot
    unsigned char* storage;  // sizeof(T) bytes for the object
  };
  static constexpr std::size_t kPageAlign = alignof(T) > 64 ? alignof(T) : 64;
  // Object stride: sizeof(T), padded to whole shadow granules under ASan (memory_poison.hpp).
  static constexpr std::size_t kStride = sizeof(detail::RawSlot<T>);

  struct LinkOf {  // how detail::ChainStack reaches a slot's links
    const ConcurrentPool* pool;
    detail::FreeLinks& operator()(std::uint32_t index) const noexcept { return pool->meta_at(index)->links; }
  };

  static ConcurrentPoolConfig normalized(ConcurrentPoolConfig c) noexcept;
  static T* object_in(unsigned char* storage) noexcept { return std::launder(reinterpret_cast<T*>(storage)); }
  static void return_slots(void* pool, detail::ThreadMagazine& m) noexcept {
    static_cast<ConcurrentPool*>(pool)->empty_magazine(m);
  }

  Slot slot_in(Meta* page, std::uint32_t offset) const noexcept {
    return Slot{page + offset, reinterpret_cast<unsigned char*>(page) + objects_offset_ + offset * kStride};
  }
  Meta* page_of(std::uint32_t index) const noexcept {
    return pages_[index >> page_shift_].load(std::memory_order_acquire);
  }
  Meta* meta_at(std::uint32_t index) const noexcept {  // index known to be in a published page
    return page_of(index) + (index & page_mask_);
  }
  Slot slot_at(std::uint32_t index) const noexcept { return slot_in(page_of(index), index & page_mask_); }
  Slot find_slot(std::uint32_t index) const noexcept;  // meta == nullptr: no such slot (foreign index)
  Slot live_slot(PoolHandle h) const noexcept;         // meta == nullptr unless h is live

  bool release_checked(PoolHandle h, bool misuse_is_bug) noexcept;
  bool refuse_release() noexcept {
    failed_releases_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  // Fast paths (inlined): one magazine push or pop. The slow halves trade with the shared list.
  std::uint32_t take_slot(detail::ThreadMagazine* m) noexcept {
    if (m != nullptr) {
      const std::uint32_t n = m->count.load(std::memory_order_relaxed);
      if (n != 0) {
        m->count.store(n - 1, std::memory_order_relaxed);
        return m->slots[n - 1];
      }
    }
    return take_slot_slow(m);
  }
  void give_slot(detail::ThreadMagazine* m, std::uint32_t index) noexcept {
    if (m != nullptr) {
      const std::uint32_t n = m->count.load(std::memory_order_relaxed);
      if (n != detail::kMagazineSlots) {
        m->slots[n] = index;
        m->count.store(n + 1, std::memory_order_relaxed);
        return;
      }
    }
    give_slot_slow(m, index);
  }
  std::uint32_t take_slot_slow(detail::ThreadMagazine* m) noexcept;
  void give_slot_slow(detail::ThreadMagazine* m, std::uint32_t index) noexcept;
  std::uint32_t refill(detail::ThreadMagazine& m) noexcept;
  std::uint32_t load_chain(detail::ThreadMagazine& m, std::uint32_t head) noexcept;
  void link_chain(const std::uint32_t* slots, std::uint32_t n) noexcept;  // slots[0] is the head
  void empty_magazine(detail::ThreadMagazine& m) noexcept;                // everything to the shared list
  std::uint32_t pop_chain() noexcept;                                     // grows when the shared list is empty
  void push_slots(const std::uint32_t* slots, std::size_t n) noexcept;    // any count, in chains
  void push_chain(const std::uint32_t* slots, std::uint32_t n) noexcept;
  bool grow() noexcept;  // true: worth popping again
  bool add_page_locked() noexcept;
  void destroy_all_pages() noexcept;

  // Read by every operation, written only by the constructor: shared read-only lines.
  std::uint32_t page_shift_ = 0;
  std::uint32_t page_mask_ = 0;
  std::size_t page_slots_ = 0;
  std::size_t max_capacity_ = 0;
  std::size_t page_table_size_ = 0;
  std::size_t objects_offset_ = 0;  // where a page's object array starts
  std::size_t page_bytes_ = 0;
  std::uint32_t seed_ = 0;                       // every slot's first (free) generation; see concurrent_generation.hpp
  std::unique_ptr<std::atomic<Meta*>[]> pages_;  // sized for max_capacity up front: never moves
  detail::MagazineRegistry registry_;

  detail::ChainStack free_;  // its head and count sit on their own cache lines

  // Written on growth or misuse only.
  alignas(64) std::mutex grow_mutex_;
  std::atomic<std::size_t> published_pages_{0};
  std::atomic<std::size_t> capacity_{0};
  std::atomic<std::uint64_t> growth_events_{0};
  std::atomic<std::uint64_t> failed_emplaces_{0};
  std::atomic<std::uint64_t> failed_releases_{0};
  mutable std::atomic<std::uint64_t> stale_gets_{0};
};

// ---------------------------------------------------------------------------------------------

template <class T>
ConcurrentPoolConfig ConcurrentPool<T>::normalized(ConcurrentPoolConfig c) noexcept {
  std::size_t page = 64;
  while (page < c.page_slots && page < (std::size_t{1} << 16)) page <<= 1;
  c.page_slots = page;
  c.max_capacity = std::clamp<std::size_t>(c.max_capacity, 1, std::size_t{1} << 24);
  c.initial_capacity = std::min(c.initial_capacity, c.max_capacity);
  return c;
}

template <class T>
ConcurrentPool<T>::ConcurrentPool(ConcurrentPoolConfig config) : registry_(this, &ConcurrentPool::return_slots) {
  config = normalized(config);
  page_slots_ = config.page_slots;
  while ((std::size_t{1} << page_shift_) < page_slots_) ++page_shift_;
  page_mask_ = static_cast<std::uint32_t>(page_slots_ - 1);
  max_capacity_ = config.max_capacity;
  page_table_size_ = (max_capacity_ + page_slots_ - 1) / page_slots_;
  objects_offset_ = (sizeof(Meta) * page_slots_ + kPageAlign - 1) / kPageAlign * kPageAlign;
  page_bytes_ = objects_offset_ + kStride * page_slots_;
  seed_ = detail::next_generation_seed();
  pages_ = std::make_unique<std::atomic<Meta*>[]>(page_table_size_);
  for (std::size_t p = 0; p < page_table_size_; ++p) pages_[p].store(nullptr, std::memory_order_relaxed);
  if (!reserve(config.initial_capacity)) {
    destroy_all_pages();
    throw std::bad_alloc();
  }
}

template <class T>
ConcurrentPool<T>::~ConcurrentPool() {
  registry_.orphan_all();  // first: no exiting thread may flush into pages being freed
  destroy_all_pages();
}

// Every object dies first, each marked dead before its destructor runs (so a destructor that
// releases another object, or itself, is refused or releases it once); passes repeat until
// one finds nothing live, so objects destructors emplace die too. Then the pages go.
template <class T>
void ConcurrentPool<T>::destroy_all_pages() noexcept {
  for (bool destroyed = true; destroyed;) {
    destroyed = false;
    const std::size_t published = published_pages_.load(std::memory_order_acquire);
    for (std::size_t p = 0; p < published; ++p) {
      Meta* page = pages_[p].load(std::memory_order_acquire);
      for (std::uint32_t i = 0; i < page_slots_; ++i) {
        std::uint32_t g = page[i].generation.load(std::memory_order_acquire);
        if (!detail::is_live_generation(g)) continue;
        if (!page[i].generation.compare_exchange_strong(g, detail::free_generation_after(g),
                                                        std::memory_order_acq_rel)) {
          continue;
        }
        object_in(slot_in(page, i).storage)->~T();
        destroyed = true;
      }
    }
  }
  const std::size_t pages = published_pages_.load(std::memory_order_acquire);
  for (std::size_t p = 0; p < pages; ++p) {
    Meta* page = pages_[p].load(std::memory_order_acquire);
    detail::unpoison(page, page_bytes_);
    ::operator delete (page, std::align_val_t{kPageAlign});
    pages_[p].store(nullptr, std::memory_order_relaxed);
  }
  published_pages_.store(0, std::memory_order_relaxed);
  capacity_.store(0, std::memory_order_relaxed);
}

// --- handles ---------------------------------------------------------------------------------

template <class T>
inline typename ConcurrentPool<T>::Slot ConcurrentPool<T>::find_slot(std::uint32_t index) const noexcept {
  if (index >= max_capacity_) return Slot{nullptr, nullptr};
  Meta* page = page_of(index);
  if (page == nullptr) return Slot{nullptr, nullptr};  // page not published (yet): no such slot
  return slot_in(page, index & page_mask_);
}

template <class T>
inline typename ConcurrentPool<T>::Slot ConcurrentPool<T>::live_slot(PoolHandle h) const noexcept {
  if (h.is_null()) return Slot{nullptr, nullptr};
  const Slot s = find_slot(h.index);
  if (s.meta == nullptr) return s;
  // acquire: pairs with emplace's release store, so the object's construction is visible.
  if (s.meta->generation.load(std::memory_order_acquire) != h.generation) return Slot{nullptr, nullptr};
  return s;
}

template <class T>
inline T* ConcurrentPool<T>::get(PoolHandle h) noexcept {
  const Slot s = live_slot(h);
  if (s.meta != nullptr) return object_in(s.storage);
  if (!h.is_null()) stale_gets_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

template <class T>
inline const T* ConcurrentPool<T>::get(PoolHandle h) const noexcept {
  const Slot s = live_slot(h);
  if (s.meta != nullptr) return object_in(s.storage);
  if (!h.is_null()) stale_gets_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

template <class T>
bool ConcurrentPool<T>::contains(PoolHandle h) const noexcept {
  return live_slot(h).meta != nullptr;
}

// --- emplace / release -----------------------------------------------------------------------

// The hot paths are marked inline: a hint GCC needs to inline them into a caller's loop.
template <class T>
template <class... Args>
inline std::optional<PoolHandle> ConcurrentPool<T>::emplace(Args&&... args) {
  detail::ThreadMagazine* m = detail::thread_magazine(registry_);
  const std::uint32_t index = take_slot(m);
  if (index == detail::kNoSlot) {
    failed_emplaces_.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  const Slot s = slot_at(index);
  detail::unpoison(s.storage, sizeof(T));                    // whole granules under ASan: no neighbour shares them
  if constexpr (detail::emplace_noexcept<T, Args&&...>()) {  // T{args...} for aggregates
    detail::construct_at<T>(s.storage, std::forward<Args>(args)...);
  } else {
    try {
      detail::construct_at<T>(s.storage, std::forward<Args>(args)...);
    } catch (...) {  // the slot goes back untouched: the pool is as it was (pages aside)
      detail::poison(s.storage, sizeof(T));
      give_slot(m, index);
      throw;
    }
  }
  // The slot is ours alone while free, so a plain load suffices; the release store publishes
  // the constructed object to any thread that later matches this generation.
  const std::uint32_t live = detail::live_generation(s.meta->generation.load(std::memory_order_relaxed));
  s.meta->generation.store(live, std::memory_order_release);
  if (m != nullptr) {
    detail::ThreadMagazine::bump(m->emplaces);
  } else {
    registry_.count_uncached_emplace();
  }
  return PoolHandle{index, live};
}

template <class T>
inline bool ConcurrentPool<T>::release(PoolHandle h) noexcept {
  return release_checked(h, true);
}

template <class T>
inline bool ConcurrentPool<T>::try_release(PoolHandle h) noexcept {
  return release_checked(h, false);
}

template <class T>
inline bool ConcurrentPool<T>::release_checked(PoolHandle h, bool misuse_is_bug) noexcept {
  if (h.is_null()) return refuse_release();
  const Slot s = find_slot(h.index);
  if (s.meta == nullptr || !detail::is_live_generation(h.generation)) {
    if (misuse_is_bug) {
      ENGINE_POOL_ASSERT(false, "ConcurrentPool::release: foreign handle (no such slot in this pool)");
    }
    return refuse_release();
  }
  // The one point where two releasers of the same handle are told apart. A foreign handle
  // fails here too: its generation does not match (see concurrent_generation.hpp).
  std::uint32_t expected = h.generation;
  if (!s.meta->generation.compare_exchange_strong(expected, detail::free_generation_after(h.generation),
                                                  std::memory_order_acq_rel, std::memory_order_relaxed)) {
    if (misuse_is_bug) {
      ENGINE_POOL_ASSERT(false,
                         "ConcurrentPool::release: stale handle (double release, the object was "
                         "already released by another thread, or a foreign handle)");
    }
    return refuse_release();
  }
  object_in(s.storage)->~T();
  detail::mark_released(s.storage, sizeof(T), sizeof(T));
  detail::ThreadMagazine* m = detail::thread_magazine(registry_);
  give_slot(m, h.index);
  if (m != nullptr) {
    detail::ThreadMagazine::bump(m->releases);
  } else {
    registry_.count_uncached_releases(1);
  }
  return true;
}

// --- free slots: magazine first, shared list second, growth last ----------------------------

template <class T>
std::uint32_t ConcurrentPool<T>::take_slot_slow(detail::ThreadMagazine* m) noexcept {
  if (m != nullptr) {  // magazine empty: refill it with one chain from the shared list
    const std::uint32_t n = refill(*m);
    if (n == 0) return detail::kNoSlot;
    m->count.store(n - 1, std::memory_order_relaxed);
    return m->slots[n - 1];
  }
  // No magazine (thread exiting): take a whole chain, keep one slot, put the rest back.
  const std::uint32_t head = pop_chain();
  if (head == detail::kNoSlot) return head;
  std::uint32_t rest[detail::kMagazineBatch];  // every chain holds at most one batch
  std::uint32_t n = 0;
  for (std::uint32_t i = meta_at(head)->links.next.load(std::memory_order_relaxed);
       i != detail::kNoSlot && n < detail::kMagazineBatch; i = meta_at(i)->links.next.load(std::memory_order_relaxed)) {
    rest[n++] = i;
  }
  free_.taken(n + 1);
  push_slots(rest, n);
  return head;
}

template <class T>
void ConcurrentPool<T>::give_slot_slow(detail::ThreadMagazine* m, std::uint32_t index) noexcept {
  if (m == nullptr) {
    push_chain(&index, 1);
    return;
  }
  // Full: the oldest batch goes to the shared list; the recently freed, cache-warm slots stay.
  push_chain(m->slots, detail::kMagazineBatch);
  std::copy(m->slots + detail::kMagazineBatch, m->slots + detail::kMagazineSlots, m->slots);
  const std::uint32_t n = detail::kMagazineSlots - detail::kMagazineBatch;
  m->slots[n] = index;
  m->count.store(n + 1, std::memory_order_relaxed);
}

template <class T>
std::uint32_t ConcurrentPool<T>::refill(detail::ThreadMagazine& m) noexcept {
  const std::uint32_t head = pop_chain();
  if (head == detail::kNoSlot) return 0;
  const std::uint32_t n = load_chain(m, head);
  free_.taken(n);
  return n;
}

template <class T>
std::uint32_t ConcurrentPool<T>::load_chain(detail::ThreadMagazine& m, std::uint32_t head) noexcept {
  // The chain is ours; stacking it reversed makes the magazine hand out ascending slots.
  std::uint32_t chain[detail::kMagazineBatch];  // every chain holds at most one batch
  std::uint32_t n = 0;
  for (std::uint32_t i = head; i != detail::kNoSlot && n < detail::kMagazineBatch;
       i = meta_at(i)->links.next.load(std::memory_order_relaxed)) {
    chain[n++] = i;
  }
  for (std::uint32_t k = 0; k < n; ++k) m.slots[k] = chain[n - 1 - k];
  m.count.store(n, std::memory_order_relaxed);
  return n;
}

template <class T>
std::uint32_t ConcurrentPool<T>::pop_chain() noexcept {
  for (;;) {
    const std::uint32_t head = free_.pop(LinkOf{this});
    if (head != detail::kNoSlot) return head;
    if (!grow()) return detail::kNoSlot;
  }
}

template <class T>
void ConcurrentPool<T>::link_chain(const std::uint32_t* slots, std::uint32_t n) noexcept {
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    meta_at(slots[k])->links.next.store(slots[k + 1], std::memory_order_relaxed);
  }
  meta_at(slots[n - 1])->links.next.store(detail::kNoSlot, std::memory_order_relaxed);
}

template <class T>
void ConcurrentPool<T>::push_chain(const std::uint32_t* slots, std::uint32_t n) noexcept {
  link_chain(slots, n);
  free_.push(slots[0], slots[0], n, LinkOf{this});
}

template <class T>
void ConcurrentPool<T>::empty_magazine(detail::ThreadMagazine& m) noexcept {
  push_slots(m.slots, m.count.load(std::memory_order_relaxed));
  m.count.store(0, std::memory_order_relaxed);
}

template <class T>
void ConcurrentPool<T>::push_slots(const std::uint32_t* slots, std::size_t n) noexcept {
  while (n > 0) {
    const auto chunk = static_cast<std::uint32_t>(std::min<std::size_t>(n, detail::kMagazineBatch));
    push_chain(slots, chunk);
    slots += chunk;
    n -= chunk;
  }
}

template <class T>
void ConcurrentPool<T>::flush_thread_cache() noexcept {
  detail::ThreadMagazine* m = detail::thread_magazine(registry_);
  if (m != nullptr) empty_magazine(*m);
}

// --- growth ----------------------------------------------------------------------------------

template <class T>
bool ConcurrentPool<T>::grow() noexcept {
  std::lock_guard<std::mutex> lock(grow_mutex_);
  if (!free_.empty()) return true;  // another thread grew (or released) while we waited
  return add_page_locked();
}

template <class T>
bool ConcurrentPool<T>::reserve(std::size_t slots) {
  if (slots > max_capacity_) return false;
  std::lock_guard<std::mutex> lock(grow_mutex_);
  while (capacity_.load(std::memory_order_relaxed) < slots) {
    if (!add_page_locked()) return false;
  }
  return true;
}

template <class T>
bool ConcurrentPool<T>::add_page_locked() noexcept {
  const std::size_t p = published_pages_.load(std::memory_order_relaxed);
  if (p == page_table_size_) return false;  // max_capacity reached
  void* memory = nullptr;
  try {
    memory = ::operator new (page_bytes_, std::align_val_t{kPageAlign});
  } catch (const std::bad_alloc&) {
    return false;
  }
  const std::size_t first = p * page_slots_;
  const std::size_t usable = std::min(page_slots_, max_capacity_ - first);
  for (std::size_t i = 0; i < page_slots_; ++i) {
    ::new (static_cast<void*>(static_cast<Meta*>(memory) + i)) Meta(seed_);
  }
  Meta* const page = std::launder(static_cast<Meta*>(memory));
  detail::poison(slot_in(page, 0).storage, kStride * page_slots_);  // every object is free
  // Link the usable slots into chains of one magazine batch each, chain heads through
  // next_chain, all before anyone can see them.
  const auto base = static_cast<std::uint32_t>(first);
  std::uint32_t last_head = base;
  for (std::size_t c = 0; c < usable; c += detail::kMagazineBatch) {
    const std::size_t len = std::min<std::size_t>(detail::kMagazineBatch, usable - c);
    const auto head = static_cast<std::uint32_t>(base + c);
    for (std::size_t k = 0; k + 1 < len; ++k) {
      page[c + k].links.next.store(static_cast<std::uint32_t>(head + k + 1), std::memory_order_relaxed);
    }
    if (c > 0) page[last_head - base].links.next_chain.store(head, std::memory_order_relaxed);
    last_head = head;
  }
  // Publish the page before any of its indices can reach another thread (the push below
  // is a release too, but get() of a foreign index must also never see a torn page).
  pages_[p].store(page, std::memory_order_release);
  published_pages_.store(p + 1, std::memory_order_release);
  capacity_.store(first + usable, std::memory_order_release);
  growth_events_.fetch_add(1, std::memory_order_relaxed);
  free_.push(base, last_head, usable, LinkOf{this});
  return true;
}

// --- whole-pool operations -------------------------------------------------------------------

template <class T>
template <class F>
void ConcurrentPool<T>::for_each(F&& f) {
  const std::size_t pages = published_pages_.load(std::memory_order_acquire);
  for (std::size_t p = 0; p < pages; ++p) {
    Meta* page = pages_[p].load(std::memory_order_acquire);
    for (std::uint32_t i = 0; i < page_slots_; ++i) {
      const std::uint32_t g = page[i].generation.load(std::memory_order_acquire);
      if (!detail::is_live_generation(g)) continue;
      T& object = *object_in(slot_in(page, i).storage);
      if constexpr (std::is_invocable_v<F&, PoolHandle, T&>) {
        f(PoolHandle{static_cast<std::uint32_t>(p * page_slots_ + i), g}, object);
      } else {
        f(object);
      }
    }
  }
}

template <class T>
void ConcurrentPool<T>::clear() noexcept {
  std::uint32_t batch[detail::kMagazineBatch];
  std::uint32_t n = 0;
  std::uint64_t cleared = 0;
  for (bool again = true; again;) {  // until a pass finds nothing live: destructors may emplace
    again = false;
    const std::size_t pages = published_pages_.load(std::memory_order_acquire);
    for (std::size_t p = 0; p < pages; ++p) {
      Meta* page = pages_[p].load(std::memory_order_acquire);
      for (std::uint32_t i = 0; i < page_slots_; ++i) {
        std::uint32_t g = page[i].generation.load(std::memory_order_acquire);
        if (!detail::is_live_generation(g)) continue;
        if (!page[i].generation.compare_exchange_strong(g, detail::free_generation_after(g),
                                                        std::memory_order_acq_rel)) {
          continue;  // released meanwhile (by a destructor, or someone ignoring the contract)
        }
        unsigned char* storage = slot_in(page, i).storage;
        object_in(storage)->~T();  // dead already: a destructor that releases it is refused
        detail::mark_released(storage, sizeof(T), sizeof(T));
        batch[n++] = static_cast<std::uint32_t>(p * page_slots_ + i);
        ++cleared;
        again = true;
        if (n == detail::kMagazineBatch) {
          push_chain(batch, n);
          n = 0;
        }
      }
    }
  }
  if (n > 0) push_chain(batch, n);
  registry_.count_uncached_releases(cleared);
}

template <class T>
std::size_t ConcurrentPool<T>::size() const noexcept {
  const detail::MagazineTotals t = registry_.totals();
  return t.emplaces > t.releases ? static_cast<std::size_t>(t.emplaces - t.releases) : 0;
}

template <class T>
ConcurrentPoolStats ConcurrentPool<T>::stats() const noexcept {
  const detail::MagazineTotals t = registry_.totals();
  ConcurrentPoolStats s;
  s.emplaces = t.emplaces;
  s.releases = t.releases;
  s.live = t.emplaces > t.releases ? static_cast<std::size_t>(t.emplaces - t.releases) : 0;
  s.cached_free = t.cached_free;
  s.thread_caches = t.threads;
  s.capacity = capacity_.load(std::memory_order_acquire);
  s.shared_free = free_.slots();
  s.pages = published_pages_.load(std::memory_order_acquire);
  s.bytes_held = s.pages * page_bytes_ + page_table_size_ * sizeof(std::atomic<Meta*>);
  s.failed_emplaces = failed_emplaces_.load(std::memory_order_relaxed);
  s.failed_releases = failed_releases_.load(std::memory_order_relaxed);
  s.stale_gets = stale_gets_.load(std::memory_order_relaxed);
  s.growth_events = growth_events_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace engine
