#pragma once
// Not a container: a floor. std::vector's game frame, plus K random cache-line writes for
// every particle that dies, which is the least any layout that keeps handles valid while
// objects move must add to it (every design, not only this pool). The rows show how
// close to std::vector a packed layout can get at N on the machine they run on.
//
// What a dense layout with handles touches at random for each object that dies and the one
// born in its place, beyond std::vector's work (its fused swap-pop fills a hole in the line it
// is reading, and takes the object it moves in from the tail, a second stream):
//   1. the moved object's position entry: its slot can be any of N;
//   2. the newborn's position entry: a reused slot, anywhere again (unless slots are handed out
//      in sequence, which a pool cannot promise when some objects live long);
//   3. the hole itself, when the cull runs in two phases (VectorPool::erase_if promises every
//      object stays reachable until its pass ends): the fill comes after the pass, when the
//      hole's line has left the caches;
//   4. the dead slot's generation, so that a stale handle is refused.
// pool_packed touches all four, and more (its dense entry, the occupancy word). These rows
// touch K of them, in arrays of N 4-byte entries (the friendliest: the hole's real line is in
// the 12x bigger object array), after the frame, prefetched 16 ahead: independent misses, as
// many in flight as the core allows. They read no index they do not need and check nothing.
#include "random_sequence.hpp"
#include "vector_contender.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace bench {

template <std::size_t Lines>
class VectorPlusRandomLines {
  static_assert(Lines >= 1 && Lines <= 4);

 public:
  static constexpr const char* name = Lines == 1   ? "floor_vector_plus_1_line"
                                      : Lines == 2 ? "floor_vector_plus_2_lines"
                                      : Lines == 3 ? "floor_vector_plus_3_lines"
                                                   : "floor_vector_plus_4_lines";

  template <class... Args>
  void spawn(Args&&... args) {
    particles_.spawn(std::forward<Args>(args)...);
  }

  template <class F>
  std::size_t update_and_cull(F alive) {
    const std::size_t died = particles_.update_and_cull(alive);
    if (entries_[0].size() < particles_.size()) size_for(particles_.size());
    touch(died * Lines);
    return died;
  }
  std::size_t size() const noexcept { return particles_.size(); }

 private:
  static constexpr std::size_t kAhead = 16;
  // Random entries, drawn once, read in a ring longer than many frames' writes (1M particles,
  // 4 lines: 80k a frame), so that no frame writes an entry a recent frame left in the caches.
  static constexpr std::size_t kSlots = 1u << 20;

  void size_for(std::size_t n) {
    SplitMix64 rng(0x5EED0004);
    for (auto& array : entries_) array.assign(n, 0);
    slots_.resize(kSlots);
    for (std::uint32_t& s : slots_) s = static_cast<std::uint32_t>(rng.below(n));
  }
  // Ring entry r is a write to array r % Lines at entry slots_[r]: K writes per death, spread
  // evenly over the K arrays.
  void touch(std::size_t writes) {
    for (std::size_t k = 0; k < writes; ++k) {
      const std::size_t ahead = (next_ + kAhead) & (kSlots - 1);
      __builtin_prefetch(&entries_[ahead % Lines][slots_[ahead]], 1);
      const std::size_t at = next_;
      entries_[at % Lines][slots_[at]] += 1;
      next_ = (next_ + 1) & (kSlots - 1);
    }
  }

  VectorContender particles_;
  std::array<std::vector<std::uint32_t>, Lines> entries_;
  std::vector<std::uint32_t> slots_;
  std::size_t next_ = 0;
};

}  // namespace bench
