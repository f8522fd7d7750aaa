#pragma once
// VectorPool<T>, part of the class (detail/vector_pool_class.hpp): emplace_chunked, a batch of
// emplaces whose constructions run in parallel. What each emplace of the batch will be is known
// before any runs: the i-th takes the i-th claim (the free stack's top downwards, then the
// never-used slots) and, in the dense layouts, position size() + i. So task k builds its own
// claims' objects and writes their own generations and index entries, which no other task
// touches; the occupancy bits, which neighbouring slots share a word of, are set on this thread
// afterwards. The pool then ends as the emplaces one at a time would have left it.
// Task k takes every chunks-th block of batch_block claims from block k, not one contiguous
// share: the claims past the free stack (never-used slots, memory touched for the first time)
// come last, and one task given all of them ran 30% longer than the other (storm at 2 threads).
#include <engine/pool/detail/vector_pool_class.hpp>
#include <engine/pool/detail/vector_pool_emplace.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace engine {

template <class T>
template <class Runner, class Make>
std::size_t VectorPool<T>::emplace_chunked(std::size_t count, std::size_t chunks, Runner&& run, Make&& make) {
  static_assert(std::is_nothrow_invocable_v<Make&, std::size_t>,
                "emplace_chunked: make(i) must be noexcept (a task that threw would leave the batch half built)");
  static_assert(detail::is_nothrow_emplace_constructible<T, std::invoke_result_t<Make&, std::size_t>>(),
                "emplace_chunked: T must be nothrow-constructible from what make(i) returns");
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "emplace_chunked() inside a chunked pass: its tasks run in parallel");
  if (refuse_mid_pass("emplace_chunked() inside for_each/erase_if or T's constructor/destructor")) return 0;
  // The objects the capacity holds now go on the team; the rest grow the pool, one at a time.
  auto fit = static_cast<std::uint32_t>(std::min<std::size_t>(count, table_.capacity() - size()));
  if (fit != 0 && state_.heap) {
    try {
      heap_.reserve_boxes(fit);  // each object's own allocation, here: the tasks only build
    } catch (const std::bad_alloc&) {
      fit = 0;  // one at a time below, each failing as emplace() does
    }
  }
  if (fit != 0) build_batch(fit, std::max<std::size_t>(chunks, 1), run, make);
  std::size_t built = fit;
  while (built < count && emplace(make(built))) ++built;  // a failed emplace changes nothing: the next fails too
  return built;
}

template <class T>
template <class Runner, class Make>
void VectorPool<T>::build_batch(std::uint32_t count, std::size_t chunks, Runner& run, Make& make) noexcept {
  const std::uint32_t first_position = state_.packed ? dense().size() : 0;
  const std::uint32_t fresh = table_.fresh_generation();
  // Each claim's slot metadata (and, dense, its position entry) is a cold line in a big pool:
  // asked for a few claims ahead, as emplace() does.
  const bool prefetch = table_.capacity() >= prefetch_threshold;
  const auto build = [&](auto& where) {
    constexpr bool dense_layout = !std::is_same_v<std::decay_t<decltype(where)>, Objects>;
    {
      ParallelScope parallel(parallel_passes_);
      run(chunks, [&](std::size_t k) {
        for (std::uint64_t block = k; block * batch_block < count; block += chunks) {
          const auto first = static_cast<std::uint32_t>(block * batch_block);
          const auto last = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, first + batch_block));
          for (std::uint32_t i = first; i < last; ++i) {
            if (prefetch && i + prefetch_distance < last) {
              prefetch_slot(table_.batch_claim(i + prefetch_distance).index);
            }
            const detail::SlotTable::Claim claim = table_.batch_claim(i);
            const SlotRef at = locate(claim.index);
            void* place = nullptr;
            if constexpr (dense_layout) {
              place = where.claim_batch_at(first_position + i, claim.index, i);
            } else {
              place = at.slots[at.offset].bytes;
              detail::unpoison_bytes(place, sizeof(T));
            }
            detail::emplace_construct<T>(place, make(static_cast<std::size_t>(i)));
            std::uint32_t& generation = at.generations[at.offset];
            if (!claim.from_free_stack) generation = fresh;  // as claim_next_unused() seeds it
            generation += 1u;                                // free (even) -> live (odd), as commit() steps it
          }
        }
      });
    }
    if constexpr (dense_layout) where.end_batch(count);
  };
  with_objects(build);
  for (std::uint32_t i = 0; i < count; ++i) {  // read before take_batch() moves the stack's top
    const detail::SlotTable::SlotMeta at = table_.locate(table_.batch_claim(i).index);
    detail::set_bit(at.occupied, at.offset);
  }
  table_.take_batch(count);
  state_.counters.emplaces += count;
  state_.counters.peak_used = std::max(state_.counters.peak_used, table_.used());
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after emplace_chunked");
}

}  // namespace engine
