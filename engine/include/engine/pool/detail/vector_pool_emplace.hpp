#pragma once
// Part of engine::VectorPool<T>'s implementation: the hot paths that create and destroy objects.
// emplace() and release() (one construction path and one release path, each choosing its
// layout family once per call: build into the claimed slot, or at the back of a packed store;
// destroy in place, or take the object out of the dense array first), and erase_if's two
// phases (a walk that lists the victims, then their releases). Growth is
// vector_pool_growth.hpp, the release queue vector_pool_release_queue.hpp. Why emplace and
// get are shaped as they are for GCC's inliner, the comments at each say.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// Always inlined (ENGINE_POOL_HOT): out of line, GCC sees a void function with no side effects
// and deletes the call. The object and the generation, for writing.
template <class T>
ENGINE_POOL_HOT void VectorPool<T>::prefetch_slot(std::uint32_t index) noexcept {
  const SlotRef at = locate(index);
  if (state_.packed) {
    dense().prefetch_position(index);  // the object goes at the back (warm); its position entry is cold
  } else {
    ENGINE_POOL_PREFETCH_WRITE(at.slots[at.offset].bytes);
  }
  ENGINE_POOL_PREFETCH_WRITE(at.generations + at.offset);
}

// What a release writes: the generation and the occupancy word, and the object only if its
// destructor (or the debug fill) touches it (release_touches_object). Prefetching an untouched
// object would spend a memory access, and a miss-buffer slot, on nothing. A release split
// across threads (release_victims_chunked) asks for no occupancy word (Occupancy false): its
// tasks do not write them, and a prefetch for writing would take each word, which other tasks'
// victims share, away from the core that holds it.
template <class T>
template <bool Packed, bool Occupancy>
ENGINE_POOL_HOT void VectorPool<T>::prefetch_release_in(std::uint32_t index) noexcept {
  const SlotRef at = locate(index);
  if constexpr (release_touches_object && !Packed) ENGINE_POOL_PREFETCH_WRITE(at.slots[at.offset].bytes);
  ENGINE_POOL_PREFETCH_WRITE(at.generations + at.offset);
  if constexpr (Occupancy) ENGINE_POOL_PREFETCH_WRITE(at.occupied + at.offset / detail::bits_per_word);
}

// Builds T(args...) at `where` (T{args...} for an aggregate: detail/construct.hpp) as a
// constructor the pool runs (CallbackScope: see "Reentrancy"). If it throws, roll_back() undoes
// the caller's claim, still inside that scope, and the exception goes on. Every emplace path
// builds through it; they differ only in what they undo.
template <class T>
template <class RollBack, class... Args>
ENGINE_POOL_HOT void VectorPool<T>::build_object(void* where, RollBack&& roll_back, Args&&... args) {
  CallbackScope scope(callbacks_);
  if constexpr (detail::is_nothrow_emplace_constructible<T, Args&&...>()) {
    static_cast<void>(roll_back);
    detail::emplace_construct<T>(where, std::forward<Args>(args)...);
  } else {
    try {
      detail::emplace_construct<T>(where, std::forward<Args>(args)...);
    } catch (...) {
      roll_back();
      throw;
    }
  }
}

// The slot at `index` is claimed (SlotTable::claim: off the free stack, or bumped, with a free generation)
// before T's constructor runs, so a constructor that emplaces gets another slot; the object
// is committed (generation odd, bit set) only once it exists.
template <class T>
template <class... Args>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::construct_claimed(std::uint32_t index, const SlotRef& at,
                                                            bool from_free_stack, Args&&... args) {
  void* const where = at.slots[at.offset].bytes;
  detail::unpoison_bytes(where, sizeof(T));
  build_object(
      where, [&] { unclaim(index, where, from_free_stack); }, std::forward<Args>(args)...);
  // `at` is still right: nothing relocates while a constructor runs, and pages never move.
  return commit_emplace(index, at);
}

// Packed, packed_pages and heap: the object is built at the back of the dense array, whose
// position is claimed first (a constructor that emplaces gets the next one). While a
// constructor runs, release() is refused (see refuse_release_while_building): filling a hole
// moves the last object, which may be the one under construction.
template <class T>
template <class Dense, class... Args>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::construct_packed(Dense& store, std::uint32_t index, const SlotRef& at,
                                                           bool from_free_stack, Args&&... args) {
  void* const where = store.claim_back(index);
  if (where == nullptr) {  // heap: its allocation failed
    unclaim(index, nullptr, from_free_stack);
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  ++building_;
  build_object(
      where,
      [&] {
        --building_;
        store.unclaim(store.position_of(index));  // objects its nested emplaces built stay
        unclaim(index, nullptr, from_free_stack);
      },
      std::forward<Args>(args)...);
  --building_;
  return commit_emplace(index, at);
}

template <class T>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::commit_emplace(std::uint32_t index, const SlotRef& at) noexcept {
  state_.counters.peak_used = std::max(state_.counters.peak_used, table_.used());  // a no-op unless bumped
  const PoolHandle handle = detail::SlotTable::commit(at.meta(), index);
  ++state_.counters.emplaces;
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after emplace");
  return handle;
}

// Inlined into the caller on purpose, and shaped so that only a PoolHandle (one 64-bit
// register) flows through the branches: GCC 12 merges optionals from several return paths
// through the stack, and reloading them stalls on store forwarding (that was most of an
// emplace's cost in the churn benchmark).
template <class T>
template <class... Args>
ENGINE_POOL_ENTRY std::optional<PoolHandle> VectorPool<T>::emplace(Args&&... args) {
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "emplace() inside a chunked pass: its tasks run in parallel");
  PoolHandle handle;
  if (table_.can_claim()) {
    // One construction path for both sources keeps emplace() small enough for GCC to inline
    // where it pays, without forcing it into every caller (see ENGINE_POOL_ENTRY).
    const detail::SlotTable::Claim claim = table_.claim();  // before T exists: its constructor may emplace
    // LIFO hands back the warmest slot; in a big pool the one a few pops on is cold, so ask now.
    if (claim.from_free_stack && table_.capacity() >= prefetch_threshold && table_.free_count() >= prefetch_distance) {
      prefetch_slot(table_.stack_entry(table_.free_count() - prefetch_distance));
    }
    const SlotRef at = locate(claim.index);
    if (state_.heap) {
      handle = construct_packed(heap_, claim.index, at, claim.from_free_stack, std::forward<Args>(args)...);
    } else if (state_.packed) {
      handle = construct_packed(store_, claim.index, at, claim.from_free_stack, std::forward<Args>(args)...);
    } else {
      handle = construct_claimed(claim.index, at, claim.from_free_stack, std::forward<Args>(args)...);
    }
  } else {
    handle = emplace_with_growth(std::forward<Args>(args)...);
  }
  if (handle.is_null()) return std::nullopt;
  return handle;
}

template <class T>
template <class... Args>
PoolPtr<T> VectorPool<T>::acquire(Args&&... args) {
  const std::optional<PoolHandle> handle = emplace(std::forward<Args>(args)...);
  return handle ? PoolPtr<T>(*this, *handle) : PoolPtr<T>();
}

// Dead before its destructor runs: a destructor that looks itself up finds a stale handle,
// and the slot goes on the free stack only afterwards, so an emplace from the destructor
// cannot be handed the slot that is still being torn down.
template <class T>
template <class Where>
ENGINE_POOL_HOT void VectorPool<T>::release_slot_in(Where& where, std::uint32_t index) noexcept {
  const SlotRef at = locate(index);
  detail::SlotTable::retire(at.meta());  // every handle to it is stale now
  ++state_.counters.releases;
  if constexpr (std::is_same_v<Where, Objects>) {
    destroy_dead(at.slots[at.offset].bytes);  // `at` survives: nothing relocates under a destructor
  } else {
    destroy_packed(where, index);
  }
  table_.push_free(index);
}

template <class T>
inline void VectorPool<T>::release_slot(std::uint32_t index) noexcept {
  with_objects([&](auto& where) { release_slot_in(where, index); });
}

// Packed: the dead object leaves the dense array (the last one fills its place) before its
// destructor runs, on a copy moved out to the stack: so the destructor may release, emplace
// or look anything up, and no object in the array is ever half-destroyed. That costs one
// more move of T per release, only when T has a destructor. Heap: only its pointer leaves
// the array; the object dies in its own allocation, which is then freed.
template <class T>
template <class Dense>
ENGINE_POOL_HOT void VectorPool<T>::destroy_packed(Dense& store, std::uint32_t index) noexcept {
  if constexpr (std::is_trivially_destructible_v<T>) {
    store.drop(index);
  } else {
    typename Dense::Slot taken;
    T* const object = store.take_out(index, taken);
    CallbackScope scope(callbacks_);
    object->~T();
    store.dispose(object);
  }
}

// Inside a packed pool's T constructor a release would fill its hole with the last object,
// which may be the one being built: refused (release_later() is fine; flush afterwards).
template <class T>
bool VectorPool<T>::refuse_release_while_building() noexcept {
  if (building_ == 0) return false;
  ENGINE_POOL_ASSERT(false,
                     "release() or flush_releases() inside T's constructor in a packed pool; use release_later()");
  ++state_.counters.refused_during_iteration;
  return true;
}

// Runs the destructor of an object already marked dead, then poisons its slot.
template <class T>
ENGINE_POOL_HOT void VectorPool<T>::destroy_dead(void* where) noexcept {
  if constexpr (!std::is_trivially_destructible_v<T>) {
    CallbackScope scope(callbacks_);
    std::launder(reinterpret_cast<T*>(where))->~T();
  }
  detail::mark_slot_released(where, sizeof(T));
}

// A T that can be neither moved nor copied stays where it was built: a layout change that
// would move a live one is refused. An empty pool moves nothing, so it may change layout.
template <class T>
bool VectorPool<T>::refuse_immovable(const char* what) noexcept {
  if constexpr (std::is_move_constructible_v<T>) {
    static_cast<void>(what);
    return false;
  } else {
    if (empty()) return false;
    ENGINE_POOL_ASSERT(false, what);
    return true;
  }
}

template <class T>
bool VectorPool<T>::refuse_mid_pass(const char* what, bool releases_allowed) noexcept {
  if (iterating_ == 0 && (releases_allowed || callbacks_ == 0)) return false;
  ENGINE_POOL_ASSERT(false, what);
  ++state_.counters.refused_during_iteration;
  return true;
}

template <class T>
ENGINE_POOL_ENTRY bool VectorPool<T>::release(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "release() inside a chunked pass: its tasks run in parallel");
  if (refuse_mid_pass("release() inside for_each/erase_if; use release_later() + flush_releases() or erase_if()",
                      true)) {
    return false;
  }
  if (refuse_release_while_building()) return false;
  if (!table_.is_live(handle)) {
    if (destroyed_by_this_teardown(handle)) return false;  // an owner outlived what it owns: nothing to do
    ++state_.counters.failed_releases;
    ENGINE_POOL_ASSERT(handle.is_null(), "release() of a stale, foreign or already released handle");
    return false;
  }
  release_slot(handle.index);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after release");
  return true;
}

// The victims are listed in the free stack's own arrays, above the stack (SlotTable::TopList),
// so erase_if never allocates. Written downwards in address order, the list reads upwards
// highest index first, which is the order to push them in: the lowest freed slot ends on top
// of the stack, and the pool refills from the front, in address order. Packed lists dense
// positions instead (see release_listed_positions): its pass reads the objects alone, and its
// release phase need not look each victim's position up.
template <class T>
template <class Pred>
std::size_t VectorPool<T>::erase_if(Pred pred) {
  if (refuse_mid_pass("erase_if() inside for_each/erase_if; it would release mid-pass")) return 0;
  detail::SlotTable::TopList doomed(table_);  // listed by where they sit: slot index, or packed's dense position
  if constexpr (std::is_invocable_v<Pred&, PoolHandle, T&>) {
    if (state_.packed) {  // the handle comes from the dense entry; the list keeps the position
      const detail::DenseIndex& dense_index = dense();
      auto collect = [&](std::uint32_t position, T& object) {
        const std::uint32_t index = dense_index.index_at(position);
        if (pred(PoolHandle{index, table_.generation(index)}, object)) doomed.push(position);
      };
      visit_live<Visit::position_and_object>(*this, collect);
    } else {
      auto collect = [&](PoolHandle handle, T& object) {
        if (pred(handle, object)) doomed.push(handle.index);
      };
      visit_live<Visit::handle_and_object>(*this, collect);
    }
  } else {  // no handle wanted: the pass reads the objects alone (no generations, no dense entries)
    auto collect = [&](std::uint32_t position, T& object) {
      if (pred(object)) doomed.push(position);
    };
    visit_live<Visit::position_and_object>(*this, collect);
  }
  release_doomed(doomed.first(), doomed.size());
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if");
  return doomed.size();
}

// erase_if's phase two (and erase_if_chunked's): the victims are stack entries [from, from +
// doomed), highest walk position first, at the top of the stack arrays (see erase_if).
template <class T>
void VectorPool<T>::release_doomed(std::uint32_t from, std::uint32_t doomed) noexcept {
  // Entry from + k moves down to the k-th push's own place, free_count + k (never
  // above where it came from, so the copy never overwrites an entry not yet read).
  if constexpr (std::is_trivially_destructible_v<T>) {
    if (state_.heap) {
      release_listed_positions(heap_, from, doomed);
    } else if (state_.packed) {
      release_listed_positions(store_, from, doomed);
    } else {
      release_listed(from, doomed);  // no destructor runs, so nothing can call back in
    }
  } else {
    if (state_.packed) {  // destructors may move objects: name the victims by slot index first
      const detail::DenseIndex& dense_index = dense();
      for (std::uint32_t k = 0; k < doomed; ++k) {
        table_.stack_entry(from + k) = dense_index.index_at(table_.stack_entry(from + k));
      }
    }
    // Destructors may call back into the pool. Every victim is marked dead first, so a
    // destructor that release()s another victim is refused (stale: a double release), and
    // the releases that do succeed (of objects not on the list) are fewer than the entries
    // between the stack's top and the list, so their pushes never reach an unread entry.
    for (std::uint32_t k = 0; k < doomed; ++k) {
      detail::SlotTable::retire(table_.locate(table_.stack_entry(from + k)));
    }
    const auto destroy_all = [&](auto& where) {  // the layout read once, not per victim
      for (std::uint32_t k = 0; k < doomed; ++k) {
        const std::uint32_t index = table_.stack_entry(from + k);
        if constexpr (std::is_same_v<std::decay_t<decltype(where)>, Objects>) {
          const SlotRef at = locate(index);
          destroy_dead(at.slots[at.offset].bytes);
        } else {  // the last object (maybe another victim, dead) fills the hole
          destroy_packed(where, index);
        }
        ++state_.counters.releases;
        table_.push_free(index);  // only now can an emplace take the slot
      }
    };
    with_objects(destroy_all);
  }
}

}  // namespace engine
