// SPDX-License-Identifier: MIT
#pragma once
// engine::Pool<T, Storage>: an object pool with generation-checked handles over one storage.
//
//   engine::Pool<Bullet> bullets;                                  // PackedPages storage (the default)
//   std::optional<engine::PoolHandle> h = bullets.emplace(x, y);   // nullopt at max_capacity
//   if (Bullet* b = bullets.get(*h)) b->y += 1;                    // nullptr once released
//   bullets.erase_if([](Bullet& b) { return b.y > 720; });         // update and mark, then release
//
// Other storages: include storage/contiguous.hpp, stable_pages.hpp, packed.hpp or heap_nodes.hpp
// and name it, Pool<Bullet, engine::StablePages>; each header says where objects sit and what
// growth moves. The contract, for every storage:
// - Objects are built in place with their own constructor (T(args...), or T{args...} for an
//   aggregate), destroyed exactly once, and never touched between release and reuse (debug
//   builds fill released memory with 0xDD, AddressSanitizer builds poison it).
// - A constructor that throws leaves the pool exactly as it was; so does running out of memory
//   (emplace returns nullopt, reserve false). Built with -fno-exceptions it needs no try/catch.
// - A stale handle never reaches another object: a slot's generation changes on every emplace
//   and release. get() of a stale handle is nullptr; release() of one is false.
// - Misuse gets a clear answer: false, nullptr or nullopt and a PoolStats counter, and in debug
//   builds (ENGINE_POOL_DEBUG) a stop with a message. Release what may be gone behind contains().
// - Passes: for_each and erase_if visit live objects in storage order (slot order, or the dense
//   array's); inside them release() and growth that would move objects are refused,
//   release_later() and emplaces that fit are fine (an object emplaced mid-pass may or may not be
//   visited). A range-for tolerates release() of the object it is on and of objects ahead.
// - Reentrancy: T's constructor and destructor may call back into their own pool. A slot is
//   claimed before T is built (given back if the constructor throws); an object is dead (its
//   handle stale) before its destructor runs, and its slot is reused only after; clear() and the
//   destructor re-read what is live after each destructor (objects a destructor emplaces die too;
//   a release of what this teardown destroyed already is a quiet false). Inside T's callbacks,
//   clear, erase_if, shrink_to_fit and growth that moves objects are refused; in the packed
//   storages a constructor may not release (the hole would be filled with the object being built:
//   use release_later()).
// - Not thread-safe: one pool per thread, or a lock. parallel.hpp runs a pass's first phase on
//   several threads.
#include <engine/pool/assert.hpp>
#include <engine/pool/detail/slot_table.hpp>
#include <engine/pool/handle.hpp>
#include <engine/pool/storage/packed_pages.hpp>  // the default; each other storage is a header of its own

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

namespace engine {
namespace detail {
struct PoolAccess;  // the pool's internals, for the headers beside it (detail/pool_access.hpp)
struct PoolCounts {
  std::uint64_t emplaces = 0, releases = 0, failed_emplaces = 0, failed_releases = 0, refused = 0, growths = 0;
  std::size_t peak = 0;
};
struct Depth {  // marks the pool inside a pass or a callback for as long as it lives
  explicit Depth(std::uint32_t& depth) noexcept : depth_(depth) { ++depth_; }
  ~Depth() { --depth_; }
  Depth(const Depth&) = delete;
  Depth& operator=(const Depth&) = delete;
  std::uint32_t& depth_;
};
}  // namespace detail

template <class T, class Storage = PackedPages>
class Pool {
  static_assert(std::is_object_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>, "Pool<T> holds object types");
  static_assert(std::is_nothrow_destructible_v<T>, "Pool<T> needs a noexcept destructor: release() is noexcept");
  using Store = typename Storage::template store<T>;
  friend struct detail::PoolAccess;

 public:
  template <bool Const>
  class basic_iterator;
  using value_type = T;
  using storage_type = Storage;
  using iterator = basic_iterator<false>;
  using const_iterator = basic_iterator<true>;

  explicit Pool(GrowthPolicy policy = {});  // reserves initial_capacity (out of memory: throws bad_alloc)
  ~Pool() { destroy_all(); }                // destroys every live object once
  Pool(Pool&& other) noexcept;              // takes the objects; handles follow; `other` is left empty
  Pool& operator=(Pool&& other) noexcept;   // destroys this pool's objects first
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // --- Objects -------------------------------------------------------------------------------
  template <class... Args>
  std::optional<PoolHandle> emplace(Args&&... args);  // nullopt (nothing changed): max_capacity, out of memory,
                                                      // or growth that would move objects mid-pass
  bool release(PoolHandle handle) noexcept;           // destroys now; false: null, stale, foreign, double, mid-pass
  void release_later(PoolHandle handle) noexcept;     // queued for flush_releases(); safe mid-pass; never allocates
  std::size_t flush_releases() noexcept;  // releases the queue in order; returns how many died (a handle queued
                                          // twice dies once; one gone meanwhile counts as a failed release)
  template <class Pred>
  std::size_t erase_if(Pred pred);  // pred(T&) or pred(PoolHandle, T&) true: released after the whole pass
  void clear() noexcept;            // destroys every live object once; handles go stale; capacity stays

  // --- Access --------------------------------------------------------------------------------
  T* get(PoolHandle handle) noexcept;  // nullptr unless live (counts stats().stale_gets)
  const T* get(PoolHandle handle) const noexcept;
  bool contains(PoolHandle handle) const noexcept { return table_.is_live(handle); }  // counts nothing
  T* get_at(std::size_t index) noexcept;                   // the live object in slot `index`, else nullptr
  const T* get_at(std::size_t index) const noexcept;       // (index lists, as ActiveIndexList keeps)
  PoolHandle handle_at(std::size_t index) const noexcept;  // its handle, else null

  // --- Walks: live objects in storage order --------------------------------------------------
  iterator begin() noexcept { return first<iterator>(this); }
  iterator end() noexcept { return iterator(this, detail::no_position, 0); }
  const_iterator begin() const noexcept { return first<const_iterator>(this); }
  const_iterator end() const noexcept { return const_iterator(this, detail::no_position, 0); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  template <class F>
  void for_each(F&& f) {  // f(T&) or f(PoolHandle, T&)
    walk_all(*this, f);
  }
  template <class F>
  void for_each(F&& f) const {  // f(const T&) or f(PoolHandle, const T&)
    walk_all(*this, f);
  }

  // --- Size and memory -----------------------------------------------------------------------
  std::size_t size() const noexcept { return static_cast<std::size_t>(counts_.emplaces - counts_.releases); }
  bool empty() const noexcept { return size() == 0; }
  std::size_t capacity() const noexcept { return table_.capacity(); }  // slots that exist now
  bool reserve(std::size_t slots);  // capacity() >= slots; false (nothing changed): cap, out of memory, mid-pass
  void shrink_to_fit();             // frees memory past the last live slot (paged: whole empty pages)
  const GrowthPolicy& policy() const noexcept { return policy_; }  // as asked, normalised
  PoolStats stats() const noexcept;
  bool validate() const;  // walks every invariant, O(capacity); holds between calls

 private:
  static GrowthPolicy normalized(GrowthPolicy policy) noexcept {
    policy.max_capacity = std::min<std::size_t>(policy.max_capacity, 0xFFFFFFFEu);
    policy.initial_capacity = std::min(policy.initial_capacity, policy.max_capacity);
    policy.storage = Storage::mode;
    return policy;
  }
  template <class It, class Self>
  static It first(Self* self) noexcept {
    It it(self, 0, 0);
    self->land(it.pos_, it.index_);
    return it;
  }
  void land(std::uint64_t& pos, std::uint32_t& index) const noexcept {
    pos = store_.next(table_, pos);
    if (pos != detail::no_position) index = store_.index_at(pos);
  }
  void advance(std::uint64_t& pos, std::uint32_t& index) const noexcept {
    // Packed: if the object just visited was released, the last one moved into its place.
    if (!Store::dense || (store_.next(table_, pos) == pos && store_.index_at(pos) == index)) ++pos;
    land(pos, index);
  }
  template <class Self, class F>
  static void walk_all(Self& self, F& f) {
    using Object = std::conditional_t<std::is_const_v<Self>, const T, T>;
    detail::Depth pass(self.iterating_);
    auto& store = const_cast<Store&>(self.store_);
    store.walk(self.table_, 0, store.walk_end(self.table_), [&](T& object, std::uint32_t index) {
      if constexpr (std::is_invocable_v<F&, PoolHandle, Object&>) {
        f(self.table_.handle_of(index), static_cast<Object&>(object));
      } else {
        f(static_cast<Object&>(object));
      }
    });
  }
  bool refuse_mid_pass(const char* what, bool in_callbacks_too = true) noexcept {
    if (iterating_ == 0 && (!in_callbacks_too || callbacks_ == 0)) return false;
    ENGINE_POOL_ASSERT(false, what);
    ++counts_.refused;
    return true;
  }
  bool refuse_while_building() noexcept {
    if (!Store::dense || building_ == 0) return false;
    ENGINE_POOL_ASSERT(false, "release inside T's constructor in a packed storage; use release_later()");
    ++counts_.refused;
    return true;
  }
  template <class... Args>
  std::optional<PoolHandle> emplace_claimed(std::size_t before, Args&&... args);
  template <class... Args>
  std::optional<PoolHandle> emplace_growing(std::size_t target, Args&&... args);
  PoolHandle commit(std::uint32_t index) noexcept;
  void undo_growth(std::size_t before) noexcept;
  bool grow_to(std::size_t slots, bool asked);
  bool may_grow(bool asked) noexcept;
  void destroy(std::uint32_t index) noexcept {  // the slot is retired: its object dies, callbacks marked
    detail::Depth callback(callbacks_);
    store_.destroy(table_, index);
  }
  void release_slot(std::uint32_t index) noexcept {
    table_.retire(index);
    ++counts_.releases;
    destroy(index);
    table_.push_free(index);  // only now can an emplace take the slot
  }
  void release_listed(std::uint32_t doomed) noexcept;
  void destroy_all() noexcept;
  bool valid_or_nested() const { return iterating_ != 0 || callbacks_ != 0 || validate(); }

  using Counts = detail::PoolCounts;
  detail::SlotTable table_;
  Store store_;
  GrowthPolicy policy_;
  Counts counts_;
  mutable std::uint64_t stale_gets_ = 0;
  // Where the running calls are: they belong to the calls, not the contents, so a move keeps them.
  mutable std::uint32_t iterating_ = 0;  // for_each / erase_if passes (and the parallel ones)
  std::uint32_t callbacks_ = 0;          // T's constructors and destructors the pool is running
  std::uint32_t building_ = 0;           // dense storages: constructors in flight
  std::uint32_t parallel_ = 0;           // a chunked pass's tasks are running (debug checks)
  bool tearing_down_ = false;            // clear() or ~Pool is destroying everything
};

template <class T, class S>
template <bool Const>
class Pool<T, S>::basic_iterator {
  using Owner = std::conditional_t<Const, const Pool, Pool>;

 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = std::conditional_t<Const, const T*, T*>;
  using reference = std::conditional_t<Const, const T&, T&>;

  basic_iterator() noexcept = default;
  operator basic_iterator<true>() const noexcept { return basic_iterator<true>(pool_, pos_, index_); }
  reference operator*() const noexcept { return *const_cast<Pool*>(pool_)->store_.object_at(pos_); }
  pointer operator->() const noexcept { return &**this; }
  PoolHandle handle() const noexcept { return pool_->handle_at(index_); }  // the object's handle
  basic_iterator& operator++() noexcept {
    pool_->advance(pos_, index_);
    return *this;
  }
  basic_iterator operator++(int) noexcept {
    basic_iterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const basic_iterator& a, const basic_iterator& b) noexcept { return a.pos_ == b.pos_; }
  friend bool operator!=(const basic_iterator& a, const basic_iterator& b) noexcept { return a.pos_ != b.pos_; }

 private:
  friend class Pool;
  template <bool>
  friend class basic_iterator;
  basic_iterator(Owner* pool, std::uint64_t pos, std::uint32_t index) noexcept
      : pool_(pool), pos_(pos), index_(index) {}
  Owner* pool_ = nullptr;
  std::uint64_t pos_ = detail::no_position;  // the storage's position (slot, or dense position)
  std::uint32_t index_ = 0;                  // the slot found there
};

template <class T, class S>
Pool<T, S>::Pool(GrowthPolicy policy) : store_(policy), policy_(normalized(policy)) {
  if (store_.page_slots() != 0) policy_.page_slots = store_.page_slots();
  if (policy_.initial_capacity != 0 && !grow_to(policy_.initial_capacity, true)) {
#if ENGINE_POOL_EXCEPTIONS
    throw std::bad_alloc();
#endif
  }
  counts_.growths = 0;  // the first reserve is not a growth
}

template <class T, class S>
Pool<T, S>::Pool(Pool&& other) noexcept
    : table_(std::move(other.table_)),
      store_(std::move(other.store_)),
      policy_(other.policy_),
      counts_(std::exchange(other.counts_, Counts{})),
      stale_gets_(std::exchange(other.stale_gets_, 0)) {}

template <class T, class S>
Pool<T, S>& Pool<T, S>::operator=(Pool&& other) noexcept {
  if (this != &other) {
    destroy_all();
    table_ = std::move(other.table_);
    store_ = std::move(other.store_);
    policy_ = other.policy_;
    counts_ = std::exchange(other.counts_, Counts{});
    stale_gets_ = std::exchange(other.stale_gets_, 0);
  }
  return *this;
}

template <class T, class S>
template <class... Args>
std::optional<PoolHandle> Pool<T, S>::emplace(Args&&... args) {
  ENGINE_POOL_ASSERT(parallel_ == 0, "emplace() inside a chunked pass: its tasks run in parallel");
  const std::size_t before = capacity();
  if (!table_.can_claim()) {
    const std::size_t page = store_.page_slots();
    const std::size_t next = page != 0                  ? before + page
                             : policy_.growth_step != 0 ? before + policy_.growth_step
                                                        : std::max<std::size_t>(2 * before, 16);
    const std::size_t target = std::min(next, policy_.max_capacity);
    if constexpr (Store::relocates) {
      if (before < target && may_grow(false)) return emplace_growing(target, std::forward<Args>(args)...);
    } else if (before < target && grow_to(target, false)) {
      return emplace_claimed(before, std::forward<Args>(args)...);
    }
    ++counts_.failed_emplaces;
    return std::nullopt;
  }
  return emplace_claimed(before, std::forward<Args>(args)...);
}

// Builds T into a claimed slot. If the constructor throws, or HeapNodes has no memory for it,
// the claim and a growth this emplace made are undone: the pool is as it was.
template <class T, class S>
template <class... Args>
std::optional<PoolHandle> Pool<T, S>::emplace_claimed(std::size_t before, Args&&... args) {
  const detail::SlotTable::Claim claim = table_.claim();  // before T exists: its constructor may emplace
  void* const where = store_.place(table_, claim.index);
  if (where == nullptr) {
    table_.unclaim(claim);
    undo_growth(before);
    ++counts_.failed_emplaces;
    return std::nullopt;
  }
  {
    detail::Depth callback(callbacks_);
    detail::Depth building(building_);
    if constexpr (detail::emplace_noexcept<T, Args&&...>()) {
      detail::construct_at<T>(where, std::forward<Args>(args)...);
    } else {
      ENGINE_POOL_TRY { detail::construct_at<T>(where, std::forward<Args>(args)...); }
      ENGINE_POOL_CATCH(...) {
        store_.unplace(table_, claim.index);
        table_.unclaim(claim);
        undo_growth(before);
        ENGINE_POOL_RETHROW;
      }
    }
  }
  return commit(claim.index);
}

// A full pool whose growth moves objects: the new object is built in the new memory first, then
// the others move in (Contiguous, Packed), so a constructor or a copy that throws changes nothing.
template <class T, class S>
template <class... Args>
std::optional<PoolHandle> Pool<T, S>::emplace_growing(std::size_t target, Args&&... args) {
  const std::uint32_t index = table_.used();  // full: the new object takes the first new slot
  bool grown = table_.reserve(target);
  if (grown) {
    detail::Depth callback(callbacks_);
    detail::Depth building(building_);
    grown = store_.grow(store_.room_for(target), table_, index,
                        [&](void* where) { detail::construct_at<T>(where, std::forward<Args>(args)...); });
  }
  if (!grown) {
    ++counts_.failed_emplaces;
    return std::nullopt;
  }
  table_.set_capacity(target);
  ++counts_.growths;
  table_.bump();
  return commit(index);
}

template <class T, class S>
PoolHandle Pool<T, S>::commit(std::uint32_t index) noexcept {
  ++counts_.emplaces;
  counts_.peak = std::max(counts_.peak, size());
  const PoolHandle handle = table_.commit(index);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after emplace");
  return handle;
}

// Gives back what a growth made since `before` slots, unless an object now lives there (a
// constructor that emplaced before it threw keeps its objects, and the room they need).
template <class T, class S>
void Pool<T, S>::undo_growth(std::size_t before) noexcept {
  if (capacity() == before || table_.live_end() > before || (Store::dense && store_.walk_end(table_) > before)) return;
  store_.shrink(static_cast<std::uint32_t>(before), table_);
  table_.trim(static_cast<std::uint32_t>(before));
  --counts_.growths;
}

template <class T, class S>
bool Pool<T, S>::release(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(parallel_ == 0, "release() inside a chunked pass: its tasks run in parallel");
  if (refuse_mid_pass("release() inside for_each or erase_if; use release_later() or erase_if()", false) ||
      refuse_while_building()) {
    return false;
  }
  if (!table_.is_live(handle)) {
    if (tearing_down_) {  // an owner outlived what it owns: the teardown destroyed that object already
      ENGINE_POOL_ASSERT(!table_.on_free_stack(handle.index),  // unless it was released before the teardown
                         "release() of a stale, foreign or already released handle");
      return false;
    }
    ++counts_.failed_releases;
    ENGINE_POOL_ASSERT(handle.is_null(), "release() of a stale, foreign or already released handle");
    return false;
  }
  release_slot(handle.index);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after release");
  return true;
}

template <class T, class S>
void Pool<T, S>::release_later(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(parallel_ == 0, "release_later() inside a chunked pass: its tasks run in parallel");
  if (!table_.is_live(handle)) {
    if (tearing_down_) return;
    ++counts_.failed_releases;
    ENGINE_POOL_ASSERT(false, "release_later() of a null, stale, foreign or already released handle");
    return;
  }
  counts_.failed_releases += table_.enqueue(handle);
}

template <class T, class S>
std::size_t Pool<T, S>::flush_releases() noexcept {
  if (refuse_mid_pass("flush_releases() inside for_each or erase_if", false) || refuse_while_building()) return 0;
  std::size_t died = 0;
  for (PoolHandle handle; table_.next_queued(handle);) {  // a destructor may queue more: they go too
    if (!table_.is_live(handle)) {
      ++counts_.failed_releases;
      continue;
    }
    release_slot(handle.index);
    ++died;
  }
  table_.end_queue();
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after flush_releases");
  return died;
}

template <class T, class S>
template <class Pred>
std::size_t Pool<T, S>::erase_if(Pred pred) {
  if (refuse_mid_pass("erase_if() inside for_each, erase_if or T's callbacks")) return 0;
  std::uint32_t doomed = 0;
  {
    detail::Depth pass(iterating_);
    store_.walk(table_, 0, store_.walk_end(table_), [&](T& object, std::uint32_t index) {
      bool dies;
      if constexpr (std::is_invocable_v<Pred&, PoolHandle, T&>) {
        dies = pred(table_.handle_of(index), object);
      } else {
        dies = pred(object);
      }
      if (dies) table_.scratch(doomed++) = index;
    });
  }
  release_listed(doomed);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if");
  return doomed;
}

// The victims are the table's scratch entries [0, doomed), in walk order. All are dead before any
// destructor runs (a destructor that releases another victim gets false), and they go highest
// walk position first: the lowest slot ends on top of the free stack, so the next emplaces refill
// from the front, and in a packed storage each hole takes an object that is staying.
template <class T, class S>
void Pool<T, S>::release_listed(std::uint32_t doomed) noexcept {
  constexpr bool quiet = std::is_trivially_destructible_v<T>;  // no code of T runs: one pass
  if constexpr (!quiet) {
    for (std::uint32_t k = 0; k < doomed; ++k) table_.retire(table_.scratch(k));
  }
  counts_.releases += doomed;
  for (std::uint32_t k = doomed; k-- > 0;) {
    // The victims are known: fetch their slot entries ahead, then what their releases write.
    if (k >= 16) table_.prefetch(table_.scratch(k - 16));
    if (k >= 8) store_.prefetch(table_, table_.scratch(k - 8), 8);
    const std::uint32_t index = table_.scratch(k);
    if constexpr (quiet) table_.retire(index);
    destroy(index);
    table_.push_free(index);
  }
}

template <class T, class S>
void Pool<T, S>::clear() noexcept {
  if (refuse_mid_pass("clear() inside for_each, erase_if or T's callbacks")) return;
  destroy_all();
  table_.restart();
}

// Re-reads what is live after each destructor: a destructor may release or emplace.
template <class T, class S>
void Pool<T, S>::destroy_all() noexcept {
  tearing_down_ = true;
  const auto kill = [this](std::uint32_t index) {
    table_.retire(index);
    ++counts_.releases;
    destroy(index);
  };
  if constexpr (Store::dense) {  // from the back: nothing moves
    while (store_.walk_end(table_) != 0) kill(store_.index_at(store_.walk_end(table_) - 1));
  } else {  // in slot order, again until a pass finds none
    for (bool killed = true; killed;) {
      killed = false;
      for (std::size_t w = 0; w < table_.words(); ++w) {
        for (std::uint64_t bits; (bits = table_.word(w)) != 0; killed = true) {
          kill(static_cast<std::uint32_t>(w * 64 + detail::lowest_bit(bits)));
        }
      }
    }
  }
  tearing_down_ = false;
}

template <class T, class S>
T* Pool<T, S>::get(PoolHandle handle) noexcept {
  if (!table_.is_live(handle)) {
    ++stale_gets_;
    return nullptr;
  }
  return store_.find(table_, handle.index);
}
template <class T, class S>
const T* Pool<T, S>::get(PoolHandle handle) const noexcept {
  return const_cast<Pool*>(this)->get(handle);
}
template <class T, class S>
T* Pool<T, S>::get_at(std::size_t index) noexcept {
  const bool live = index < table_.used() && table_.is_occupied(static_cast<std::uint32_t>(index));
  return live ? store_.find(table_, static_cast<std::uint32_t>(index)) : nullptr;
}
template <class T, class S>
const T* Pool<T, S>::get_at(std::size_t index) const noexcept {
  return const_cast<Pool*>(this)->get_at(index);
}
template <class T, class S>
PoolHandle Pool<T, S>::handle_at(std::size_t index) const noexcept {
  const bool live = index < table_.used() && table_.is_occupied(static_cast<std::uint32_t>(index));
  return live ? table_.handle_of(static_cast<std::uint32_t>(index)) : PoolHandle{};
}

// All or nothing: the slot table's arrays and the storage's memory are allocated before either
// changes. `asked`: reserve() and friends (a refusal mid-pass is misuse), not an emplace.
template <class T, class S>
bool Pool<T, S>::grow_to(std::size_t slots, bool asked) {
  const std::size_t target = std::min(store_.room_for(slots), policy_.max_capacity);
  if (target < slots) return false;
  if (target <= capacity()) return true;
  if (!may_grow(asked)) return false;
  if (!table_.reserve(target) || !store_.grow(store_.room_for(target), table_)) return false;
  table_.set_capacity(target);
  ++counts_.growths;
  return true;
}

// A growth that moves objects is refused under a pass (it would lose its objects) and inside T's
// callbacks (the object being built or destroyed would move), and for a T that cannot move.
template <class T, class S>
bool Pool<T, S>::may_grow(bool asked) noexcept {
  if constexpr (Store::relocates) {
    if (callbacks_ != 0 || (iterating_ != 0 && !empty())) {
      ENGINE_POOL_ASSERT(!asked && iterating_ == 0,
                         "growth that moves objects inside a pass or T's callbacks; reserve() first");
      counts_.refused += asked;  // a refused emplace counts as a failed emplace
      return false;
    }
    if (!std::is_move_constructible_v<T> && !empty()) {
      ENGINE_POOL_ASSERT(false, "growth would move objects of a T that can be neither moved nor copied");
      return false;
    }
  }
  static_cast<void>(asked);
  return true;
}

template <class T, class S>
bool Pool<T, S>::reserve(std::size_t slots) {
  return slots <= capacity() || (slots <= policy_.max_capacity && grow_to(slots, true));
}

template <class T, class S>
void Pool<T, S>::shrink_to_fit() {
  if (refuse_mid_pass("shrink_to_fit() inside for_each, erase_if or T's callbacks")) return;
  if (Store::relocates && !std::is_move_constructible_v<T> && !empty()) return;
  const std::size_t kept = store_.shrink(table_.live_end(), table_);
  if (kept < capacity()) table_.trim(static_cast<std::uint32_t>(kept));
}

template <class T, class S>
PoolStats Pool<T, S>::stats() const noexcept {
  PoolStats s;
  s.live = size();
  s.capacity = capacity();
  s.free = s.capacity > s.live ? s.capacity - s.live : 0;
  s.peak_live = counts_.peak;
  s.bytes_held = table_.bytes() + store_.bytes();
  s.emplaces = counts_.emplaces;
  s.releases = counts_.releases;
  s.failed_emplaces = counts_.failed_emplaces;
  s.failed_releases = counts_.failed_releases;
  s.stale_gets = stale_gets_;
  s.refused_during_iteration = counts_.refused;
  s.growth_events = counts_.growths;
  return s;
}

template <class T, class S>
bool Pool<T, S>::validate() const {
  return table_.validate(size(), callbacks_ != 0) && store_.validate(table_, size());
}

}  // namespace engine
