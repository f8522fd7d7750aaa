#pragma once
// A slot map written by hand: the packed layout's design in the fewest lines a game
// programmer would write instead of using the pool. Objects sit dense in a std::vector; a
// handle {slot, generation} reaches its object through position_[slot]; a removal moves the
// last object into the hole (swap-pop) and tells the moved object's slot where it went. No
// pages, no occupancy bits, no release queue, no statistics, no reentrancy guards, no
// prefetching: what is left is what the design itself costs, so pool_packed's figures can be
// read against it (how much is the design, how much the pool's generality).
//
//   slot_map        culls in two phases, as VectorPool::erase_if promises: the pass lists the
//                   dead and every object stays alive and reachable until it ends; then the
//                   dead go, highest position first (each listed position still names its
//                   victim, because only objects above it have moved).
//   slot_map_fused  culls as std_vector does: a dead object is replaced by the last one at
//                   once, inside the pass. Cheaper, but an object reached from inside the
//                   pass (by handle) may already be gone or moved: the contract the pool
//                   keeps, given up. Shown to measure what the two phases cost.
#include "particle.hpp"
#include <engine/pool/handle.hpp>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace bench {

template <bool Fused>
class SlotMapContender {
 public:
  static constexpr const char* name = Fused ? "slot_map_fused" : "slot_map";

  template <class... Args>
  engine::PoolHandle spawn(Args&&... args) {
    std::uint32_t slot;
    if (!free_.empty()) {  // LIFO: the most recently freed slot is the warmest
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(generation_.size());
      generation_.push_back(0);  // even: free
      position_.push_back(0);
    }
    const auto position = static_cast<std::uint32_t>(objects_.size());
    objects_.emplace_back(std::forward<Args>(args)...);
    slot_at_.push_back(slot);
    position_[slot] = position;
    return engine::PoolHandle{slot, ++generation_[slot]};  // odd: live
  }
  template <class... Args>
  void create(Args&&... args) {
    kept_.push_back(spawn(std::forward<Args>(args)...));
  }

  template <class F>
  std::size_t update_and_cull(F alive) {
    if constexpr (Fused) {
      std::size_t died = 0;
      for (std::uint32_t p = 0; p < objects_.size();) {
        if (alive(objects_[p])) {
          ++p;
        } else {
          remove_at(p);  // the last object moves in and is updated next
          ++died;
        }
      }
      return died;
    } else {
      dead_.clear();
      for (std::uint32_t p = 0; p < objects_.size(); ++p) {
        if (!alive(objects_[p])) dead_.push_back(p);
      }
      for (std::size_t k = dead_.size(); k-- > 0;) remove_at(dead_[k]);
      return dead_.size();
    }
  }
  void destroy_at(std::size_t i) {
    const engine::PoolHandle h = kept_[i];
    if (generation_[h.index] == h.generation) remove_at(position_[h.index]);
    kept_[i] = kept_.back();
    kept_.pop_back();
  }

  const Particle* get(std::size_t i) const noexcept {  // handle_get_bench
    const engine::PoolHandle h = kept_[i];
    return generation_[h.index] == h.generation ? &objects_[position_[h.index]] : nullptr;
  }
  template <class F>
  void for_each(F f) const {
    for (const Particle& p : objects_) f(p);
  }
  std::size_t kept() const noexcept { return kept_.size(); }
  std::size_t size() const noexcept { return objects_.size(); }
  std::size_t capacity() const noexcept { return objects_.capacity(); }

 private:
  void remove_at(std::uint32_t position) {
    const std::uint32_t slot = slot_at_[position];
    ++generation_[slot];  // even: every handle to it is stale
    free_.push_back(slot);
    const std::uint32_t last = static_cast<std::uint32_t>(objects_.size()) - 1;
    if (position != last) {
      objects_[position] = std::move(objects_[last]);
      const std::uint32_t moved = slot_at_[last];
      slot_at_[position] = moved;
      position_[moved] = position;
    }
    objects_.pop_back();
    slot_at_.pop_back();
  }

  std::vector<Particle> objects_;          // dense: positions [0, size())
  std::vector<std::uint32_t> slot_at_;     // per position: the slot its object belongs to
  std::vector<std::uint32_t> position_;    // per slot: where its object sits (live slots only)
  std::vector<std::uint32_t> generation_;  // per slot: odd live, even free
  std::vector<std::uint32_t> free_;        // free slots, LIFO
  std::vector<std::uint32_t> dead_;        // slot_map: the pass's dead, by position (ascending)
  std::vector<engine::PoolHandle> kept_;
};

using SlotMapTwoPhaseContender = SlotMapContender<false>;
using SlotMapFusedContender = SlotMapContender<true>;

}  // namespace bench
