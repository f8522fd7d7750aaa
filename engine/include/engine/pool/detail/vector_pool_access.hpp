#pragma once
// Part of engine::VectorPool<T>'s implementation: reading objects. get() by handle, the lookups
// by slot index, the listed pass an ActiveIndexList walks through, and for_each, whose walk is
// the store's own (SlotStore::walk, PackedStore::walk, HeapStore::walk), chosen once per pass. The iterators a
// range-for uses are vector_pool_iterator.hpp.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// The live, one-page case is all that stays inline; the rest (stale handles, paged stable
// pools) is out of line. Small enough, get() is inlined into a caller's lookup loop, and a
// loop of fewer instructions keeps more lookups' cache misses in flight at once: shuffled 1M
// lookups ran about 1.2x faster in every layout (handle_get_bench, against slot_map). The
// fast path spells is_live()'s checks out on the one-page view instead of calling it: written
// as `flat && is_live(handle)` plus locate().object(), GCC 12 no longer inlines get().
template <class T>
const T* VectorPool<T>::get(PoolHandle handle) const noexcept {
  const detail::SlotTable::Flat& flat = table_.flat();
  if (flat.generations != nullptr && handle.index < table_.used() &&
      flat.generations[handle.index] == handle.generation &&
      detail::is_live_generation(handle.generation)) {        // one page: contiguous, packed, stable before it grew
    if (state_.packed) return dense_object_of(handle.index);  // the slot's position, then the object: one load more
    return std::launder(reinterpret_cast<const T*>(objects_.flat_slots()[handle.index].bytes));
  }
  return get_slow(handle);
}

template <class T>
const T* VectorPool<T>::get_slow(PoolHandle handle) const noexcept {
  if (table_.flat().generations == nullptr && table_.is_live(handle)) {  // several pages: stable, packed_pages
    return state_.packed ? dense_object_of(handle.index) : locate(handle.index).object();
  }
  ++state_.stale_gets;
  return nullptr;
}

template <class T>
T* VectorPool<T>::get(PoolHandle handle) noexcept {
  return const_cast<T*>(static_cast<const VectorPool&>(*this).get(handle));
}

template <class T>
bool VectorPool<T>::contains(PoolHandle handle) const noexcept {
  return table_.is_live(handle);
}

template <class T>
PoolHandle VectorPool<T>::handle_at(std::size_t index) const noexcept {
  if (index >= table_.used()) return PoolHandle{};
  const auto i = static_cast<std::uint32_t>(index);
  const std::uint32_t g = table_.generation(i);
  return detail::is_live_generation(g) ? PoolHandle{i, g} : PoolHandle{};
}

template <class T>
const T* VectorPool<T>::get_at(std::size_t index) const noexcept {
  if (index >= table_.used()) return nullptr;
  const auto i = static_cast<std::uint32_t>(index);
  // Live is asked of the occupancy bit, not the generation (both change together): a walk in
  // slot order then reads one bit per object beside it, not four bytes, and at random the
  // bits (1/32 of the generations' size) stay in cache.
  const SlotRef at = locate(i);
  if (!detail::test_bit(at.occupied, at.offset)) return nullptr;
  if (state_.packed) return dense_object_of(i);
  return at.object();
}

template <class T>
T* VectorPool<T>::get_at(std::size_t index) noexcept {
  return const_cast<T*>(static_cast<const VectorPool&>(*this).get_at(index));
}

template <class T>
template <class F>
void VectorPool<T>::for_each_listed(const std::uint32_t* indices, std::size_t count, F&& f) {
  IterationScope scope(iterating_);
  visit_listed(indices, 0, count, f);
}

// Entries [first, last) of a listed pass; the caller holds the IterationScope.
template <class T>
template <class F>
void VectorPool<T>::visit_listed(const std::uint32_t* indices, std::size_t first, std::size_t last, F& f) {
  const std::uint32_t used = table_.used();  // the listed slots were handed out before the pass
  if (!state_.packed && table_.flat().occupied != nullptr) {
    // One page, whose arrays stay put for the pass: relocating growth is refused inside it,
    // and stable growth adds pages beside this one.
    typename ObjectPage::Slot* const slots = objects_.flat_slots();
    const std::uint64_t* const occupied = table_.flat().occupied;
    for (std::size_t k = first; k < last; ++k) {
      const std::uint32_t i = indices[k];
      if (i < used && detail::test_bit(occupied, i)) {
        f(k, std::launder(reinterpret_cast<T*>(slots[i].bytes)));  // two calls: each inlined f knows its case
      } else {
        f(k, static_cast<T*>(nullptr));
      }
    }
    return;
  }
  for (std::size_t k = first; k < last; ++k) f(k, get_at(indices[k]));
}

// --- Iteration -----------------------------------------------------------------------------

template <class T>
template <typename VectorPool<T>::Visit How, class Self, class F>
void VectorPool<T>::visit_live(Self& self, F& f) {
  IterationScope scope(self.iterating_);
  visit_positions<How>(self, 0, all_positions, f);
}

// The live objects at walk positions [first, last): dense positions in the packed layouts,
// slot indices otherwise (there first and last are multiples of 64, or last is all_positions,
// so whole occupancy words are read). The layout is read once per walk; each layout's store
// has its own loop (SlotStore::walk, PackedStore::walk, HeapStore::walk). Opens no IterationScope: the caller
// holds one, so erase_if_chunked's tasks may walk disjoint ranges at once.
template <class T>
template <typename VectorPool<T>::Visit How, class Self, class F>
void VectorPool<T>::visit_positions(Self& self, std::uint64_t first, std::uint64_t last, F& f) {
  using Ref = std::conditional_t<std::is_const_v<Self>, const T&, T&>;
  if (self.state_.packed) {
    const detail::SlotTable& table = self.table_;
    const auto generation_of = [&table](std::uint32_t index) { return table.generation(index); };
    auto& pool = const_cast<VectorPool&>(self);  // Ref says whether f may write
    pool.with_dense([&](auto& store) { store.template walk<How, Ref>(store.size(), first, last, generation_of, f); });
  } else {
    self.objects_.template walk<How, Ref>(self.table_, first, last, f);
  }
}

template <class T>
template <class F>
void VectorPool<T>::for_each(F&& f) {
  if constexpr (std::is_invocable_v<F&, PoolHandle, T&>) {
    visit_live<Visit::handle_and_object>(*this, f);
  } else {
    visit_live<Visit::object>(*this, f);
  }
}

template <class T>
template <class F>
void VectorPool<T>::for_each(F&& f) const {
  if constexpr (std::is_invocable_v<F&, PoolHandle, const T&>) {
    visit_live<Visit::handle_and_object>(*this, f);
  } else {
    visit_live<Visit::object>(*this, f);
  }
}

}  // namespace engine
