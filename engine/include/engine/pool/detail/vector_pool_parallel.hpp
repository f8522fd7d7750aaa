#pragma once
// VectorPool<T>, part of the class (detail/vector_pool_class.hpp): the chunked passes, whose
// phase one runs in parallel. The two-phase update is what makes that safe: phase one only
// writes the objects and marks the dead, so disjoint chunks of the walk share nothing; phase
// two (the releases, which write the free stack and the generations) runs after every chunk is
// done, and ends as releasing the victims in walk order on one thread would (with many victims it
// is shared out on the team as well: release_victims_chunked). So the pool ends the same at any
// chunk count.
#include <engine/pool/detail/vector_pool_class.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace engine {

// Chunk k covers walk positions [bound(k), bound(k + 1)): the dense array split evenly in the
// packed layouts, whole occupancy words of [0, used) otherwise (so no two chunks share a word).
template <class T>
std::uint64_t VectorPool<T>::chunk_bound(std::size_t k, std::size_t chunks) const noexcept {
  if (k >= chunks) return all_positions;
  if (state_.packed) return static_cast<std::uint64_t>(dense().size()) * k / chunks;
  const std::uint64_t words =
      (static_cast<std::uint64_t>(table_.used()) + detail::bits_per_word - 1) / detail::bits_per_word;
  return words * k / chunks * detail::bits_per_word;
}

template <class T>
template <class Runner, class Pred>
std::size_t VectorPool<T>::erase_if_chunked(std::size_t chunks, Runner&& run, Pred&& pred) {
  if (refuse_mid_pass("erase_if_chunked() inside for_each/erase_if; it would release mid-pass")) return 0;
  chunks = std::max<std::size_t>(chunks, 1);
  if (chunk_victims_.size() != chunks) chunk_victims_.resize(chunks);  // allocates only when the count changes
  reserve_chunk_victims(chunks);                                       // before the pass, so no task allocates
  for (std::size_t k = 0; k < chunks; ++k) chunk_victims_[k].entries.clear();
  {
    IterationScope iterating(iterating_);
    ParallelScope parallel(parallel_passes_);
    run(chunks, [&](std::size_t k) {
      std::vector<std::uint32_t>& victims = chunk_victims_[k].entries;
      auto collect = [&](std::uint32_t position, T& object) {
        if (pred(k, object)) victims.push_back(position);
      };
      visit_positions<Visit::position_and_object>(*this, chunk_bound(k, chunks), chunk_bound(k + 1, chunks), collect);
    });
  }
  std::uint32_t doomed = 0;
  for (std::size_t k = 0; k < chunks; ++k) doomed += static_cast<std::uint32_t>(chunk_victims_[k].entries.size());
  if constexpr (releases_in_parallel) {
    if (chunks > 1 && doomed >= parallel_release_threshold) {
      release_victims_chunked(chunks, run, doomed);
      ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if_chunked");
      return doomed;
    }
  }
  // Phase two, as erase_if lists its victims: at the top of the stack arrays, highest walk
  // position first (free slots + victims <= used <= capacity, so the list fits above the stack).
  detail::SlotTable::TopList listed(table_);
  for (std::size_t k = 0; k < chunks; ++k) {
    for (const std::uint32_t position : chunk_victims_[k].entries) listed.push(position);
  }
  release_doomed(listed.first(), listed.size());
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if_chunked");
  return doomed;
}

// Phase two of erase_if_chunked on the team: ends exactly as release_listed() does (contiguous,
// stable) or release_listed_positions() (packed layouts, heap: victims released highest position
// first, each hole filled by the last object), so the same free stack, generations and dense
// order at any chunk count. The victims are chunk_victims_, ascending (slot indices, or dense
// positions), chunks in walk order: the j-th of them overall is the (doomed - 1 - j)-th to go
// one at a time, and its slot index is pushed at that depth. What one release at a time would do
// is known beforehand, so it can be shared out:
//  1. each task releases its own victims' slots (generation, free-stack entry, heap's memory);
//     slots are distinct. Their occupancy bits, which tasks' victims share words of, are then
//     cleared on this thread. In contiguous and stable that is all: no object moves.
//  2. this thread plays the releases above the new size `kept` on the dense index alone (a few
//     integers per victim there), after which the survivor the j-th victim's hole gets is named
//     at dense entry kept + j;
//  3. each task fills its own victims' holes below `kept` from those entries: every mover goes
//     from at or above `kept` to a hole below it, once, so no two tasks touch one object or entry.
// Chunk k's first victim's place among all of them.
template <class T>
std::uint32_t VectorPool<T>::victims_before(std::size_t k) const noexcept {
  std::uint32_t j = 0;
  for (std::size_t c = 0; c < k; ++c) j += static_cast<std::uint32_t>(chunk_victims_[c].entries.size());
  return j;
}

// A chunk holds at most capacity / chunks positions, plus one word of rounding (chunk_bound).
// Reserved for `chunks` lists by erase_if_chunked, and by every growth for as many as the last
// pass used (announce): so a pass whose chunk count is the last one's allocates nothing.
// Half as much again as needed when a list must grow, so a pool growing a page at a time
// reallocates its lists every few growths, not at each.
template <class T>
void VectorPool<T>::reserve_chunk_victims(std::size_t chunks) {
  const std::size_t room = table_.capacity() / std::max<std::size_t>(chunks, 1) + detail::bits_per_word;
  for (std::size_t k = 0; k < chunks; ++k) {
    if (chunk_victims_[k].entries.capacity() < room) chunk_victims_[k].entries.reserve(room + room / 2);
  }
}

template <class T>
template <class Runner>
void VectorPool<T>::release_victims_chunked(std::size_t chunks, Runner& run, std::uint32_t doomed) noexcept {
  const std::uint32_t stack_top = table_.free_count();
  // Each victim waits on cold lines (its dense entry, then its generation; a hole, then its
  // mover's position entry), so both passes ask for them a few victims ahead, as
  // release_listed_positions() does (but not for the occupancy words: see prefetch_release_in).
  const bool prefetch = table_.capacity() >= prefetch_threshold;
  constexpr std::uint32_t ahead = prefetch_distance;
  // Step 1, its loop chosen once per call for the layout (dense: the victims are dense positions).
  const auto release_slots = [&](auto& where) {
    constexpr bool packed = !std::is_same_v<std::decay_t<decltype(where)>, Objects>;
    run(chunks, [&](std::size_t k) {
      const std::vector<std::uint32_t>& victims = chunk_victims_[k].entries;
      std::uint32_t j = victims_before(k);
      for (std::size_t i = 0; i < victims.size(); ++i) {
        if (prefetch) {
          if constexpr (packed) {
            if (i + 2 * ahead < victims.size()) where.prefetch_dense(victims[i + 2 * ahead]);
            if (i + ahead < victims.size()) prefetch_release_in<true, false>(where.index_at(victims[i + ahead]));
          } else {
            if (i + ahead < victims.size()) prefetch_release_in<false, false>(victims[i + ahead]);
          }
        }
        const std::uint32_t position = victims[i];
        std::uint32_t index = position;
        if constexpr (packed) index = where.index_at(position);
        const SlotRef at = locate(index);
        if constexpr (packed) {
          where.free_at(position);
        } else {
          detail::mark_slot_released(at.slots[at.offset].bytes, sizeof(T));
        }
        detail::SlotTable::retire_generation(at.meta());
        table_.stack_entry(stack_top + (doomed - 1 - j++)) = index;
      }
    });
  };
  with_objects(release_slots);
  // Then their occupancy bits, here, from the stack entries just written (read in order; the
  // bitmap, a bit a slot, is small enough to stay warm).
  for (std::uint32_t j = 0; j < doomed; ++j) {
    detail::SlotTable::retire_occupancy(locate(table_.stack_entry(stack_top + j)).meta());
  }
  table_.add_free(doomed);
  state_.counters.releases += doomed;
  if (!state_.packed) return;  // the objects stay where they are
  with_dense([&](auto& store) { close_holes_chunked(store, chunks, run, doomed); });
}

// release_victims_chunked's second half in the dense layouts: the survivors fill the holes below
// the new size (see PackedStore::free_at for the three steps).
template <class T>
template <class Dense, class Runner>
void VectorPool<T>::close_holes_chunked(Dense& store, std::size_t chunks, Runner& run, std::uint32_t doomed) noexcept {
  const bool prefetch = table_.capacity() >= prefetch_threshold;
  constexpr std::uint32_t ahead = prefetch_distance;
  const std::uint32_t size = store.size();
  const std::uint32_t kept = size - doomed;
  std::uint32_t last = size;  // the victims at or above `kept` are the last ones listed
  for (std::size_t k = chunks; k-- > 0 && last > kept;) {
    const std::vector<std::uint32_t>& victims = chunk_victims_[k].entries;
    for (auto it = victims.rbegin(); it != victims.rend() && *it >= kept; ++it) {
      if (*it != --last) store.copy_dense(*it, last);
    }
  }
  run(chunks, [&](std::size_t k) {
    const std::vector<std::uint32_t>& victims = chunk_victims_[k].entries;
    const std::uint32_t first = victims_before(k);
    const auto holes = static_cast<std::uint32_t>(std::lower_bound(victims.begin(), victims.end(), kept) -
                                                  victims.begin());  // this chunk's victims below `kept`
    for (std::uint32_t i = 0; i < holes; ++i) {
      if (prefetch) {
        if (i + 2 * ahead < holes) store.prefetch_position(store.index_at(kept + first + i + 2 * ahead));
        if (i + ahead < holes) store.prefetch_hole_at(victims[i + ahead]);
      }
      store.fill_hole_from(victims[i], kept + first + i);
    }
  });
  store.shrink_to(kept);
}

template <class T>
template <class Runner, class F>
void VectorPool<T>::for_each_listed_chunked(const std::uint32_t* indices, std::size_t count, std::size_t chunks,
                                            Runner&& run, F&& f) {
  chunks = std::max<std::size_t>(chunks, 1);
  IterationScope iterating(iterating_);
  ParallelScope parallel(parallel_passes_);
  run(chunks, [&](std::size_t k) {
    auto visit = [&](std::size_t i, T* object) { f(k, i, object); };
    visit_listed(indices, count * k / chunks, count * (k + 1) / chunks, visit);
  });
}

}  // namespace engine
