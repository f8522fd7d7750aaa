#pragma once
// Part of engine::VectorPool<T>'s implementation: construction, moves, clear() and destruction.
// The moves copy the State in one assignment (the buffers, store and listener move beside
// it); a moved-from pool is reset empty with a new generation seed. destroy_live_objects()
// is the one teardown loop clear() and ~VectorPool share (see "Reentrancy" in vector_pool_class.hpp).
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// A teardown (clear(), ~VectorPool) kills an object by stepping its slot's generation by 3
// (teardown_kill_step), where a release steps it by 1 (both leave it even: free), and first
// steps every slot already free by 4 (teardown_free_step). So while it runs, "dead at exactly
// handle + 3" means "destroyed by this teardown": an owner's release of it is the legal
// tree-of-PoolPtr pattern, not a bug (see "Reentrancy"). A handle released before the teardown
// or during it (+1, +5, ...) is not.
template <class T>
inline bool VectorPool<T>::destroyed_by_this_teardown(PoolHandle handle) const noexcept {
  return tearing_down_ && detail::is_live_generation(handle.generation) && handle.index < table_.used() &&
         table_.generation(handle.index) == handle.generation + teardown_kill_step;
}

template <class T>
VectorPool<T>::VectorPool(GrowthPolicy policy) {
  state_.policy = normalized(policy);
  table_ = detail::SlotTable(detail::next_generation_seed());
  adopt(make_layout(state_.policy.storage, state_.policy.page_slots, state_.policy.initial_capacity));
}

template <class T>
VectorPool<T>::~VectorPool() {
  destroy_live_objects();
}

// The seed moves with the objects (their handles stay valid); `other` draws a new one.
template <class T>
VectorPool<T>::VectorPool(VectorPool&& other) noexcept
    : table_(std::move(other.table_)),
      objects_(std::move(other.objects_)),
      store_(std::move(other.store_)),
      heap_(std::move(other.heap_)),
      state_(other.state_),
      listener_(std::move(other.listener_)) {
  other.reset_to_empty();
}

template <class T>
VectorPool<T>& VectorPool<T>::operator=(VectorPool&& other) noexcept {
  if (this == &other) return *this;
  destroy_live_objects();
  table_ = std::move(other.table_);
  objects_ = std::move(other.objects_);
  store_ = std::move(other.store_);
  heap_ = std::move(other.heap_);
  state_ = other.state_;
  ++state_.storage_epoch;  // iterators into this pool's old storage must notice
  listener_ = std::move(other.listener_);
  other.reset_to_empty();
  return *this;
}

// A moved-from pool is empty, usable, and gets a new seed so its future handles cannot be
// confused with the ones that moved away. It keeps its policy and a later storage epoch.
template <class T>
void VectorPool<T>::reset_to_empty() noexcept {
  objects_.clear();
  store_ = Store{};
  heap_ = Heap{};
  State fresh;
  fresh.policy = state_.policy;
  fresh.packed = is_packed_storage(fresh.policy.storage);
  fresh.heap = fresh.policy.storage == StorageMode::heap;
  table_ = detail::SlotTable(detail::next_generation_seed());
  if (is_paged_storage(fresh.policy.storage)) {
    const unsigned shift = detail::log2_exact(fresh.policy.page_slots);
    table_.adopt_pages({}, 0, shift, static_cast<std::uint32_t>(fresh.policy.page_slots - 1), 0);
    if (fresh.heap) {
      heap_ = Heap(shift);
    } else if (fresh.packed) {
      store_ = Store(typename Store::Paged{shift});
    }
  }
  fresh.storage_epoch = state_.storage_epoch + 1;
  state_ = fresh;
  listener_ = nullptr;
}

// Every live object dies, each marked dead (generation even, bit clear) before its destructor
// runs. The occupancy word is re-read after each destructor, so an object a destructor
// released is not destroyed again; objects destructors emplace die in another pass. Slots are
// not pushed on the free stack: clear() resets it, the pool's destructor drops it.
// When destructors run, the kill steps the generation by teardown_kill_step, not 1, after every
// free slot stepped by teardown_free_step: so release() can tell an object this teardown
// destroyed (an owner's PoolPtr releasing a child that sat in an earlier slot) from a handle
// that went stale some other way (see destroyed_by_this_teardown). Generations after a
// teardown only have to be even and above every issued one: clear() retires them all.
template <class T>
void VectorPool<T>::destroy_live_objects() noexcept {
  struct TeardownScope {  // unset on every path out (a noexcept function: no exception ends it)
    explicit TeardownScope(VectorPool& pool) noexcept : pool_(pool) {
      pool_.tearing_down_ = true;
      detail::SlotTable& table = pool_.table_;
      for (std::uint32_t depth = 0; depth < table.free_count(); ++depth) {
        table.generation(table.stack_entry(depth)) += teardown_free_step;
      }
    }
    ~TeardownScope() { pool_.tearing_down_ = false; }
    TeardownScope(const TeardownScope&) = delete;
    TeardownScope& operator=(const TeardownScope&) = delete;
    VectorPool& pool_;
  };
  if (state_.packed) {  // from the back: each object leaves the array before its destructor runs
    with_dense([&](auto& store) {
      if constexpr (std::is_trivially_destructible_v<T>) {
        for (std::uint32_t p = 0; p < store.size(); ++p) {
          detail::SlotTable::retire(table_.locate(store.index_at(p)));
          ++state_.counters.releases;
        }
        store.drop_all();
      } else {
        CallbackScope scope(callbacks_);
        TeardownScope teardown(*this);
        while (store.size() != 0) {  // re-read: destructors may release or emplace
          const std::uint32_t index = store.index_at(store.size() - 1);
          const detail::SlotTable::SlotMeta at = table_.locate(index);
          at.generations[at.offset] += teardown_kill_step;  // dead first
          detail::clear_bit(at.occupied, at.offset);
          ++state_.counters.releases;
          destroy_packed(store, index);
        }
      }
    });
    return;
  }
  if constexpr (std::is_trivially_destructible_v<T>) {  // no destructor: nothing can call back
    for (std::size_t p = 0; p < table_.page_count(); ++p) {
      detail::SlotTablePage& page = table_.page(p);
      for (std::size_t w = 0; w < page.words(); ++w) {
        for (std::uint64_t bits = page.occupied()[w]; bits != 0; bits &= bits - 1) {
          const std::size_t offset = w * detail::bits_per_word + detail::lowest_bit(bits);
          detail::mark_slot_released(objects_.page(p).raw(offset), sizeof(T));
          page.generations()[offset] += 1u;
          ++state_.counters.releases;
        }
        page.occupied()[w] = 0;
      }
    }
  } else {
    CallbackScope scope(callbacks_);
    TeardownScope teardown(*this);
    std::uint64_t emplaces_before = 0;
    do {
      emplaces_before = state_.counters.emplaces;
      for (std::size_t p = 0; p < table_.page_count(); ++p) {  // indexed: a destructor may grow the page table
        for (std::size_t w = 0; w < table_.page(p).words(); ++w) {
          for (;;) {
            detail::SlotTablePage& page = table_.page(p);
            const std::uint64_t bits = page.occupied()[w];
            if (bits == 0) break;
            const std::size_t offset = w * detail::bits_per_word + detail::lowest_bit(bits);
            page.generations()[offset] += teardown_kill_step;  // dead first
            page.occupied()[w] = bits & (bits - 1);
            ++state_.counters.releases;
            destroy_dead(objects_.page(p).raw(offset));  // page buffers never move while destructors run
          }
        }
      }
    } while (state_.counters.emplaces != emplaces_before);
  }
}

template <class T>
void VectorPool<T>::clear() noexcept {
  if (refuse_mid_pass("clear() inside for_each/erase_if or inside T's constructor/destructor")) return;
  destroy_live_objects();
  // Handing slots out again from 0 by bump index keeps the pool dense and in address order;
  // they restart above every generation used so far, so no old handle matches again.
  table_.restart();
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after clear");
}

}  // namespace engine
