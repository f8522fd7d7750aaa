// SPDX-License-Identifier: MIT
#pragma once
// The chunked passes: a pool's update phase on several threads. The two-phase update is what
// makes it safe: phase one only writes the objects and marks the dead, so disjoint chunks of the
// walk share nothing; phase two (the releases, which write the free stack and the generations)
// runs on the calling thread after every chunk is done, in the order erase_if() would release
// them. So the pool ends the same at any chunk count and on any number of threads.
//
// `run(chunks, task)` must call task(k) once for each k in [0, chunks), on any threads, and
// return when all are done: engine::WorkerTeam does (worker_team.hpp), as does a loop. No task
// may call into the pool (a debug build stops on emplace, release and release_later).
// Nothing here allocates: a chunk lists its victims in the slot table's scratch entries, in the
// part that belongs to its own stretch of the walk.
#include <engine/pool/detail/pool_access.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace engine {

inline constexpr std::size_t max_chunks = 256;  // more are run as this many

// erase_if in two phases: pred(k, T&) on chunk k's objects (chunks run at once; pred may write
// its object and what the caller keeps for chunk k), then the releases of those it returned true
// for. Returns how many died.
template <class T, class S, class Runner, class Pred>
std::size_t erase_if_chunked(Pool<T, S>& pool, std::size_t chunks, Runner&& run, Pred&& pred) {
  using Access = detail::PoolAccess;
  if (Access::refuse_mid_pass(pool, "erase_if_chunked() inside for_each, erase_if or T's callbacks")) return 0;
  chunks = std::clamp<std::size_t>(chunks, 1, max_chunks);
  auto& table = Access::table(pool);
  auto& store = Access::store(pool);
  const std::size_t end = store.walk_end(table);
  constexpr std::size_t per_unit = std::decay_t<decltype(store)>::dense ? 1 : 64;  // slots a walk unit spans
  std::uint32_t counts[max_chunks];
  {
    detail::Depth pass(Access::iterating(pool));
    detail::Depth parallel(Access::parallel(pool));
    run(chunks, [&](std::size_t k) {
      const std::size_t first = end * k / chunks;
      const std::size_t out = first * per_unit;  // room for every live slot of the chunk from here
      std::uint32_t n = 0;
      store.walk(table, first, end * (k + 1) / chunks, [&](T& object, std::uint32_t index) {
        if (pred(k, object)) table.scratch(out + n++) = index;
      });
      counts[k] = n;
    });
  }
  std::uint32_t doomed = 0;  // the lists, end to end in chunk order
  for (std::size_t k = 0; k < chunks; ++k) {
    const std::size_t from = end * k / chunks * per_unit;
    for (std::uint32_t i = 0; from != doomed && i < counts[k]; ++i) table.scratch(doomed + i) = table.scratch(from + i);
    doomed += counts[k];
  }
  Access::release_listed(pool, doomed);
  return doomed;
}

// `count` emplaces in one call, the i-th object built from make(i), ending exactly as `count`
// calls of emplace(make(i)) in order would (the same slots and handles at any chunk count). The
// slots the capacity holds are claimed on this thread first, the objects built in blocks of 256
// (block b by task b % chunks), then committed here; the rest are emplaced one at a time, growing
// the pool. make(i) and T's construction from it must not throw. Returns how many were built
// (fewer only where emplace() would have failed, and then the first ones); 0 mid-pass.
template <class T, class S, class Runner, class Make>
std::size_t emplace_chunked(Pool<T, S>& pool, std::size_t count, std::size_t chunks, Runner&& run, Make&& make) {
  using Access = detail::PoolAccess;
  using Made = decltype(make(std::size_t{}));
  static_assert(noexcept(make(std::size_t{})) && detail::emplace_noexcept<T, Made>(),
                "emplace_chunked: make(i) and T's construction from it must be noexcept");
  ENGINE_POOL_ASSERT(Access::parallel(pool) == 0, "emplace_chunked() inside a chunked pass");
  if (Access::refuse_mid_pass(pool, "emplace_chunked() inside for_each, erase_if or T's callbacks")) return 0;
  auto& table = Access::table(pool);
  auto& store = Access::store(pool);
  const std::size_t fits = std::min(count, pool.capacity() - pool.size());
  std::uint32_t placed = 0;  // claimed and placed, in emplace()'s order: scratch[i] is the i-th one's slot
  for (; placed < fits; ++placed) {
    const detail::SlotTable::Claim claim = table.claim();
    if (store.place(table, claim.index) == nullptr) {  // HeapNodes out of memory
      table.unclaim(claim);
      break;
    }
    table.scratch(placed) = claim.index;
  }
  if (placed != 0) {
    constexpr std::size_t block = 256;
    chunks = std::clamp<std::size_t>(chunks, 1, (placed + block - 1) / block);
    detail::Depth parallel(Access::parallel(pool));
    run(chunks, [&](std::size_t k) {
      for (std::size_t b = k * block; b < placed; b += chunks * block) {
        for (std::size_t i = b; i < std::min<std::size_t>(b + block, placed); ++i) {
          detail::construct_at<T>(store.find(table, table.scratch(i)), make(i));
        }
      }
    });
  }
  for (std::uint32_t i = 0; i < placed; ++i) table.commit(table.scratch(i));
  Access::counts(pool).emplaces += placed;
  Access::counts(pool).peak = std::max(Access::counts(pool).peak, pool.size());
  std::size_t built = placed;
  while (built < count && pool.emplace(make(built))) ++built;
  return built;
}

// One pass over the slots indices[0, count) names, in `chunks` runs of the list: task k calls
// f(k, i, T* or nullptr) for entries [count*k/chunks, count*(k+1)/chunks), with for_each's rules.
template <class T, class S, class Runner, class F>
void for_each_listed_chunked(Pool<T, S>& pool, const std::uint32_t* indices, std::size_t count, std::size_t chunks,
                             Runner&& run, F&& f) {
  using Access = detail::PoolAccess;
  chunks = std::max<std::size_t>(chunks, 1);
  detail::Depth pass(Access::iterating(pool));
  detail::Depth parallel(Access::parallel(pool));
  run(chunks, [&](std::size_t k) {
    for (std::size_t i = count * k / chunks; i < count * (k + 1) / chunks; ++i) f(k, i, pool.get_at(indices[i]));
  });
}

}  // namespace engine
