// SPDX-License-Identifier: MIT
#pragma once
// engine::VectorPool<T>: the pool whose storage switches live. It holds one Pool<T, S> at a time
// (a std::variant over the five storages) and dispatches once per call or once per walk, never
// per object inside a walk. set_policy() moves every object into another storage at its own
// slot, so every handle stays valid; a switch that cannot finish (out of memory) changes
// nothing. The game uses it to switch pooling off (HeapNodes) and between layouts while you play.
//
// Its API is Pool's (pool.hpp, whose contract holds here unchanged), plus: set_policy(), a growth
// listener, grow_ahead() and prefault() (room made before a burst needs it), the chunked passes
// (parallel.hpp), and read-only views for a memory map (introspect.hpp).
// A T whose move constructor may throw cannot use the packed storages (a release moves objects
// inside noexcept code): constructed for packed it gets contiguous, for packed_pages stable, and
// set_policy() to either returns false.
#include <engine/pool/detail/pool_access.hpp>
#include <engine/pool/introspect.hpp>
#include <engine/pool/parallel.hpp>
#include <engine/pool/pool.hpp>
#include <engine/pool/pool_ptr.hpp>
#include <engine/pool/storage/contiguous.hpp>
#include <engine/pool/storage/heap_nodes.hpp>
#include <engine/pool/storage/packed.hpp>
#include <engine/pool/storage/packed_pages.hpp>
#include <engine/pool/storage/stable_pages.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace engine {
namespace detail {

// Moves every object of `from` into `to` (another storage, empty) at its own slot: the slot table
// crosses over as it is (every handle, the free stack, the release queue), so every handle stays
// valid. Everything is allocated before anything moves, so a failure changes neither pool; a T
// whose move may throw is copied, and a copy that throws leaves `from` as it was.
template <class T, class To, class From>
bool migrate(Pool<T, To>& to, Pool<T, From>& from) {
  using A = PoolAccess;
  auto& store = A::store(to);
  auto& table = A::table(from);
  if (!to.empty() || A::refuse_mid_pass(from, "set_policy() inside a pass or T's callbacks (a storage switch)"))
    return false;
  if (!std::is_move_constructible_v<T> && !from.empty()) {
    ENGINE_POOL_ASSERT(false, "a storage switch would move objects of a T that can be neither moved nor copied");
    return false;
  }
  const std::size_t target =
      std::min(store.room_for(std::max(from.capacity(), to.capacity())), to.policy().max_capacity);
  if (target < from.capacity() || !table.reserve(target) || !store.grow(store.room_for(target), A::table(to)) ||
      !store.prepare_nodes(from.size())) {
    return false;
  }
  const auto each = [&](auto&& f) { A::store(from).walk(table, 0, A::store(from).walk_end(table), f); };
  each([&](T&, std::uint32_t index) { store.place(table, index); });
  ENGINE_POOL_TRY {
    relocate_all<T>(
        [&](auto&& move) { each([&](T& object, std::uint32_t index) { move(&object, store.find(table, index)); }); });
  }
  ENGINE_POOL_CATCH(...) {
    store.forget_all();
    ENGINE_POOL_RETHROW;
  }
  A::reset_store(from);
  A::table(to) = std::move(table);
  A::table(to).set_capacity(target);
  A::counts(to) = std::exchange(A::counts(from), PoolCounts{});
  A::stale_gets(to) = std::exchange(A::stale_gets(from), 0);
  return true;
}

}  // namespace detail

// Passed to the growth listener once per growth and once per storage switch.
struct GrowthEvent {
  std::size_t old_capacity;       // slots before
  std::size_t new_capacity;       // slots after
  std::size_t bytes_allocated;    // bytes the pool holds more than before
  std::size_t relocated_objects;  // live objects moved to new memory (0 when nothing moved)
  bool relocated;                 // live objects moved: raw pointers into the pool died
  double microseconds;            // wall time it took (steady_clock)
};

template <class T>
class VectorPool {
  static constexpr bool packable = std::is_nothrow_move_constructible_v<T>;
  // One alternative per StorageMode, in its order.
  using Pools =
      std::variant<Pool<T, Contiguous>, Pool<T, StablePages>, Pool<T, std::conditional_t<packable, Packed, Contiguous>>,
                   Pool<T, std::conditional_t<packable, PackedPages, StablePages>>, Pool<T, HeapNodes>>;
  using Clock = std::chrono::steady_clock;

 public:
  template <bool Const>
  class basic_iterator;
  using value_type = T;
  using iterator = basic_iterator<false>;
  using const_iterator = basic_iterator<true>;
  using GrowthListener = std::function<void(const GrowthEvent&)>;

  explicit VectorPool(GrowthPolicy policy = {}) : pools_(make(policy)), asked_(policy) {}
  VectorPool(VectorPool&&) noexcept = default;  // takes the objects; handles follow; PoolPtrs do not
  VectorPool& operator=(VectorPool&&) noexcept = default;

  // Calls f(Pool<T, S>&) with the pool in use: one dispatch for everything f does.
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), pools_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), pools_);
  }

  // --- Pool's API (pool.hpp has the contract) -----------------------------------------------
  template <class... Args>
  std::optional<PoolHandle> emplace(Args&&... args) {
    return visit([&](auto& p) {
      return grows(p) ? announced(p, [&] { return p.emplace(std::forward<Args>(args)...); })
                      : p.emplace(std::forward<Args>(args)...);
    });
  }
  template <class... Args>
  PoolPtr<T> acquire(Args&&... args) {  // emplace() owned by a PoolPtr; empty when refused
    const std::optional<PoolHandle> handle = emplace(std::forward<Args>(args)...);
    return handle ? PoolPtr<T>(*this, *handle) : PoolPtr<T>();
  }
  bool release(PoolHandle h) noexcept {
    return visit([&](auto& p) { return p.release(h); });
  }
  void release_later(PoolHandle h) noexcept {
    visit([&](auto& p) { p.release_later(h); });
  }
  std::size_t flush_releases() noexcept {
    return visit([](auto& p) { return p.flush_releases(); });
  }
  template <class Pred>
  std::size_t erase_if(Pred pred) {
    return visit([&](auto& p) { return p.erase_if(pred); });
  }
  void clear() noexcept {
    visit([](auto& p) { p.clear(); });
  }
  T* get(PoolHandle h) noexcept {
    return visit([&](auto& p) { return p.get(h); });
  }
  const T* get(PoolHandle h) const noexcept {
    return visit([&](auto& p) { return p.get(h); });
  }
  bool contains(PoolHandle h) const noexcept {
    return visit([&](auto& p) { return p.contains(h); });
  }
  T* get_at(std::size_t index) noexcept {
    return visit([&](auto& p) { return p.get_at(index); });
  }
  const T* get_at(std::size_t index) const noexcept {
    return visit([&](auto& p) { return p.get_at(index); });
  }
  PoolHandle handle_at(std::size_t index) const noexcept {
    return visit([&](auto& p) { return p.handle_at(index); });
  }
  template <class F>
  void for_each(F&& f) {
    visit([&](auto& p) { p.for_each(f); });
  }
  template <class F>
  void for_each(F&& f) const {
    visit([&](auto& p) { p.for_each(f); });
  }
  iterator begin() noexcept { return first<iterator>(this); }
  iterator end() noexcept { return iterator(this, detail::no_position, 0); }
  const_iterator begin() const noexcept { return first<const_iterator>(this); }
  const_iterator end() const noexcept { return const_iterator(this, detail::no_position, 0); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  std::size_t size() const noexcept {
    return visit([](auto& p) { return p.size(); });
  }
  bool empty() const noexcept { return size() == 0; }
  std::size_t capacity() const noexcept {
    return visit([](auto& p) { return p.capacity(); });
  }
  bool reserve(std::size_t slots) {
    return visit([&](auto& p) { return announced(p, [&] { return p.reserve(slots); }); });
  }
  void shrink_to_fit() {
    visit([](auto& p) { p.shrink_to_fit(); });
  }
  bool validate() const {
    return visit([](auto& p) { return p.validate(); });
  }
  PoolStats stats() const noexcept {
    PoolStats s = visit([](auto& p) { return p.stats(); });
    s.growth_events += switches_;
    return s;
  }
  const GrowthPolicy& policy() const noexcept {  // as asked, normalised, with the storage in use
    return visit([](auto& p) -> const GrowthPolicy& { return p.policy(); });
  }

  // --- Switching and growth ----------------------------------------------------------------
  // Growth and storage as `policy` says; live objects move to a new storage (or page size) with
  // every handle kept. False, nothing changed: max_capacity below capacity(), out of memory,
  // inside a pass or T's callbacks, or a T that cannot move while objects live.
  bool set_policy(const GrowthPolicy& policy);
  void set_growth_listener(GrowthListener listener) { listener_ = std::move(listener); }  // must not throw
  // Room ahead of need, at a moment the caller picks (between frames): if fewer than
  // `free_slots` slots are free, grows now (paged: whole pages; one buffer: at least doubling).
  // False when there was room, at the cap, out of memory, or mid-pass (a hint: never asserts).
  bool grow_ahead(std::size_t free_slots);
  // Asks the OS to back up to `max_bytes` of the memory no object has used yet, on from where the
  // last call stopped, so a burst does not stop on page faults; returns the bytes asked for (0:
  // none left, or no OS support). Changes nothing a program can see.
  std::size_t prefault(std::size_t max_bytes) noexcept;

  // --- Beside the core: chunked passes (parallel.hpp) and views (introspect.hpp) -------------
  template <class Runner, class Pred>
  std::size_t erase_if_chunked(std::size_t chunks, Runner&& run, Pred&& pred) {
    return visit([&](auto& p) { return engine::erase_if_chunked(p, chunks, run, pred); });
  }
  template <class Runner, class Make>
  std::size_t emplace_chunked(std::size_t count, std::size_t chunks, Runner&& run, Make&& make) {
    return visit([&](auto& p) {
      return grows(p, count) ? announced(p, [&] { return engine::emplace_chunked(p, count, chunks, run, make); })
                             : engine::emplace_chunked(p, count, chunks, run, make);
    });
  }
  template <class F>
  void for_each_listed(const std::uint32_t* indices, std::size_t count, F&& f) {  // f(k, T* or nullptr)
    visit([&](auto& p) {
      detail::Depth pass(detail::PoolAccess::iterating(p));
      for (std::size_t k = 0; k < count; ++k) f(k, p.get_at(indices[k]));
    });
  }
  template <class Runner, class F>
  void for_each_listed_chunked(const std::uint32_t* indices, std::size_t count, std::size_t chunks, Runner&& run,
                               F&& f) {
    visit([&](auto& p) { engine::for_each_listed_chunked(p, indices, count, chunks, run, f); });
  }
  std::vector<std::uint32_t> active_indices() const {
    std::vector<std::uint32_t> out;
    active_indices(out);
    return out;
  }
  void active_indices(std::vector<std::uint32_t>& out) const {  // live slots in address order
    out.clear();
    visit([&](auto& p) { engine::for_each_live_slot(p, [&](std::uint32_t index) { out.push_back(index); }); });
  }
  template <class F>
  void for_each_occupancy_word(F&& f) const {  // f(first_position, live_bits, valid_bits)
    visit([&](auto& p) { engine::for_each_occupancy_word(p, f); });
  }
  std::size_t storage_position(std::size_t index) const noexcept {
    return visit([&](auto& p) { return engine::storage_position(p, index); });
  }
  std::size_t occupancy_page_slots() const noexcept {
    return visit([](auto& p) { return detail::PoolAccess::store(p).page_slots(); });
  }

 private:
  template <class P>
  static bool grows(const P& p, std::size_t more = 1) noexcept {  // the next `more` emplaces grow it
    return p.capacity() - p.size() < more;
  }
  static Pools make(const GrowthPolicy& policy) {
    switch (policy.storage) {
      case StorageMode::stable:
        return Pools(std::in_place_index<1>, policy);
      case StorageMode::packed:
        return Pools(std::in_place_index<2>, policy);
      case StorageMode::packed_pages:
        return Pools(std::in_place_index<3>, policy);
      case StorageMode::heap:
        return Pools(std::in_place_index<4>, policy);
      case StorageMode::contiguous:
        break;
    }
    return Pools(std::in_place_index<0>, policy);
  }
  // Runs op() and tells the listener if the pool grew meanwhile.
  template <class P, class Op>
  auto announced(P& p, Op&& op) {
    const std::size_t capacity = p.capacity();
    const std::size_t bytes = p.stats().bytes_held;
    const std::size_t live = p.size();
    const Clock::time_point started = listener_ ? Clock::now() : Clock::time_point{};
    auto result = op();
    if (p.capacity() != capacity) {
      if (std::decay_t<decltype(detail::PoolAccess::store(p))>::relocates) prefaulted_ = 0;  // a fresh buffer
      constexpr bool moves = std::decay_t<decltype(detail::PoolAccess::store(p))>::relocates;
      announce(GrowthEvent{capacity, p.capacity(), p.stats().bytes_held - bytes, moves ? live : 0, moves && live != 0,
                           0},
               started);
    }
    return result;
  }
  void announce(GrowthEvent event, Clock::time_point started) {
    if (!listener_) return;
    event.microseconds = std::chrono::duration<double, std::micro>(Clock::now() - started).count();
    listener_(event);
  }
  template <std::size_t I>
  bool switch_to(const GrowthPolicy& policy);
  template <class It, class Self>
  static It first(Self* self) noexcept {
    It it(self, 0, 0);
    self->visit([&](auto& p) { detail::PoolAccess::land(p, it.pos_, it.index_); });
    return it;
  }

  Pools pools_;
  GrowthPolicy asked_;  // the policy as asked (a switch back to a paged storage uses its page size)
  GrowthListener listener_;
  std::uint64_t switches_ = 0;
  std::uint64_t prefaulted_ = 0;  // prefault() has backed positions [0, prefaulted_) of this storage
};

template <class T>
template <bool Const>
class VectorPool<T>::basic_iterator {
  using Owner = std::conditional_t<Const, const VectorPool, VectorPool>;

 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = std::conditional_t<Const, const T*, T*>;
  using reference = std::conditional_t<Const, const T&, T&>;

  basic_iterator() noexcept = default;
  operator basic_iterator<true>() const noexcept { return basic_iterator<true>(owner_, pos_, index_); }
  reference operator*() const noexcept {
    return *const_cast<VectorPool*>(owner_)->visit(
        [&](auto& p) { return detail::PoolAccess::store(p).object_at(pos_); });
  }
  pointer operator->() const noexcept { return &**this; }
  PoolHandle handle() const noexcept { return owner_->handle_at(index_); }  // the object's handle
  basic_iterator& operator++() noexcept {
    owner_->visit([&](auto& p) { detail::PoolAccess::advance(p, pos_, index_); });
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
  friend class VectorPool;
  template <bool>
  friend class basic_iterator;
  basic_iterator(Owner* owner, std::uint64_t pos, std::uint32_t index) noexcept
      : owner_(owner), pos_(pos), index_(index) {}
  Owner* owner_ = nullptr;
  std::uint64_t pos_ = detail::no_position;
  std::uint32_t index_ = 0;
};

template <class T>
bool VectorPool<T>::set_policy(const GrowthPolicy& policy) {
  const bool needs_noexcept_move = policy.storage == StorageMode::packed || policy.storage == StorageMode::packed_pages;
  if (needs_noexcept_move && !packable) return false;  // the constructor falls back; a switch says no
  switch (policy.storage) {
    case StorageMode::stable:
      return switch_to<1>(policy);
    case StorageMode::packed:
      return switch_to<2>(policy);
    case StorageMode::packed_pages:
      return switch_to<3>(policy);
    case StorageMode::heap:
      return switch_to<4>(policy);
    case StorageMode::contiguous:
      break;
  }
  return switch_to<0>(policy);
}

// The same storage with the same page size keeps its objects where they are; anything else
// builds the new storage beside the old one and moves every object across (detail::migrate).
template <class T>
template <std::size_t I>
bool VectorPool<T>::switch_to(const GrowthPolicy& policy) {
  using Target = std::variant_alternative_t<I, Pools>;
  if (policy.max_capacity < capacity()) return false;
  if (pools_.index() == I) {
    Target& current = std::get<I>(pools_);
    const std::size_t pages = detail::PoolAccess::store(current).page_slots();
    if (pages == 0 || pages == page_slots_for(policy.page_slots, sizeof(detail::RawSlot<T>))) {
      if (detail::PoolAccess::refuse_mid_pass(current, "set_policy() inside a pass or T's callbacks")) return false;
      GrowthPolicy& kept = detail::PoolAccess::policy(current);
      const std::size_t page_slots = kept.page_slots;
      kept = policy;
      kept.storage = Target::storage_type::mode;
      kept.page_slots = pages != 0 ? page_slots : policy.page_slots;
      kept.max_capacity = std::min<std::size_t>(policy.max_capacity, 0xFFFFFFFEu);
      asked_ = policy;
      return true;
    }
  }
  const auto started = Clock::now();
  GrowthPolicy empty = policy;
  empty.initial_capacity = 0;
  Target next(empty);
  const std::size_t old_capacity = capacity(), live = size(), bytes = stats().bytes_held;
  if (!visit([&](auto& current) { return detail::migrate(next, current); })) return false;
  detail::PoolAccess::policy(next).initial_capacity = policy.initial_capacity;
  pools_.template emplace<I>(std::move(next));
  asked_ = policy;
  ++switches_;
  prefaulted_ = 0;
  const std::size_t now_bytes = stats().bytes_held;
  announce(GrowthEvent{old_capacity, capacity(), now_bytes > bytes ? now_bytes - bytes : 0, live, live != 0, 0},
           started);
  return true;
}

template <class T>
bool VectorPool<T>::grow_ahead(std::size_t free_slots) {
  return visit([&](auto& p) {
    if (p.capacity() - p.size() >= free_slots || detail::PoolAccess::busy(p)) return false;
    std::size_t target = p.size() + free_slots;
    if (detail::PoolAccess::store(p).page_slots() == 0) target = std::max(target, 2 * p.capacity());
    target = std::min(target, p.policy().max_capacity);
    if (target <= p.capacity()) return false;
    return announced(p, [&] { return p.reserve(target); });
  });
}

template <class T>
std::size_t VectorPool<T>::prefault(std::size_t max_bytes) noexcept {
  return visit([&](auto& p) { return engine::prefault(p, prefaulted_, max_bytes); });
}

}  // namespace engine
