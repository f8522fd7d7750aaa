#pragma once
// VectorPool<T>, part of the class (detail/vector_pool_class.hpp): the chunked passes, whose
// phase one runs in parallel. The two-phase update is what makes that safe: phase one only
// writes the objects and marks the dead, so disjoint chunks of the walk share nothing; phase
// two (the releases, which write the free stack and the generations) runs on the calling thread
// after every chunk is done, in walk order. So the pool ends the same at any chunk count.
#include <engine/pool/detail/vector_pool_class.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace engine {

template <class T>
class VectorPool<T>::ParallelScope {  // marks a chunked pass (the debug checks read it); survives exceptions
 public:
  explicit ParallelScope(VectorPool& pool) noexcept : pool_(pool) { pool_.parallel_pass_ = true; }
  ~ParallelScope() { pool_.parallel_pass_ = false; }
  ParallelScope(const ParallelScope&) = delete;
  ParallelScope& operator=(const ParallelScope&) = delete;

 private:
  VectorPool& pool_;
};

// Chunk k covers walk positions [bound(k), bound(k + 1)): the dense array split evenly in the
// packed layouts, whole occupancy words of [0, used) otherwise (so no two chunks share a word).
template <class T>
std::uint64_t VectorPool<T>::chunk_bound(std::size_t k, std::size_t chunks) const noexcept {
  if (k >= chunks) return all_positions;
  if (state_.packed) return static_cast<std::uint64_t>(store_.size()) * k / chunks;
  const std::uint64_t words =
      (static_cast<std::uint64_t>(state_.used) + detail::bits_per_word - 1) / detail::bits_per_word;
  return words * k / chunks * detail::bits_per_word;
}

template <class T>
template <class Runner, class Pred>
std::size_t VectorPool<T>::erase_if_chunked(std::size_t chunks, Runner&& run, Pred&& pred) {
  if (refuse_mid_pass("erase_if_chunked() inside for_each/erase_if; it would release mid-pass")) return 0;
  chunks = std::max<std::size_t>(chunks, 1);
  if (chunk_victims_.size() < chunks) chunk_victims_.resize(chunks);  // allocates only when the count rises
  // A chunk holds at most capacity / chunks positions, plus one word of rounding: reserved before
  // the pass, so no task allocates (and a pool that has not grown allocates nothing at all).
  const std::size_t room = state_.capacity / chunks + detail::bits_per_word;
  for (std::size_t k = 0; k < chunks; ++k) {
    chunk_victims_[k].entries.clear();
    if (chunk_victims_[k].entries.capacity() < room) chunk_victims_[k].entries.reserve(room);
  }
  {
    IterationScope iterating(*this);
    ParallelScope parallel(*this);
    run(chunks, [&](std::size_t k) {
      std::vector<std::uint32_t>& victims = chunk_victims_[k].entries;
      auto collect = [&](std::uint32_t position, T& object) {
        if (pred(k, object)) victims.push_back(position);
      };
      visit_positions<Visit::position_and_object>(*this, chunk_bound(k, chunks), chunk_bound(k + 1, chunks), collect);
    });
  }
  // Phase two, as erase_if lists its victims: at the top of the stack arrays, highest walk
  // position first (free slots + victims <= used <= capacity, so the list fits above the stack).
  std::uint32_t doomed = 0;
  for (std::size_t k = 0; k < chunks; ++k) doomed += static_cast<std::uint32_t>(chunk_victims_[k].entries.size());
  std::uint32_t at = state_.capacity;
  for (std::size_t k = 0; k < chunks; ++k) {
    for (const std::uint32_t position : chunk_victims_[k].entries) stack_entry(--at) = position;
  }
  release_doomed(at, doomed);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if_chunked");
  return doomed;
}

template <class T>
template <class Runner, class F>
void VectorPool<T>::for_each_listed_chunked(const std::uint32_t* indices, std::size_t count, std::size_t chunks,
                                            Runner&& run, F&& f) {
  chunks = std::max<std::size_t>(chunks, 1);
  IterationScope iterating(*this);
  ParallelScope parallel(*this);
  run(chunks, [&](std::size_t k) {
    auto visit = [&](std::size_t i, T* object) { f(k, i, object); };
    visit_listed(indices, count * k / chunks, count * (k + 1) / chunks, visit);
  });
}

}  // namespace engine
