#pragma once
// plf::colony<Particle>: stable addresses, skipfield iteration, O(1) erase by iterator.
// Its iterators are the handles we keep (they stay valid until their element is erased).
#include "particle.hpp"

#include <plf_colony.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace bench {

class ColonyContender {
 public:
  static constexpr const char* name = "plf_colony";

  template <class... Args>
  void spawn(Args&&... args) {
    colony_.emplace(std::forward<Args>(args)...);
  }
  template <class... Args>
  void create(Args&&... args) {
    kept_.push_back(colony_.emplace(std::forward<Args>(args)...));
  }

  // colony's own idiom: erase returns the next element, so culling is fused into the pass.
  template <class F>
  std::size_t update_and_cull(F alive) {
    std::size_t died = 0;
    for (auto it = colony_.begin(); it != colony_.end();) {
      if (alive(*it)) {
        ++it;
      } else {
        it = colony_.erase(it);
        ++died;
      }
    }
    return died;
  }

  void destroy_at(std::size_t i) {
    colony_.erase(kept_[i]);
    kept_[i] = kept_.back();
    kept_.pop_back();
  }

  template <class F>
  void for_each(F f) const {
    for (const Particle& p : colony_) f(p);
  }
  std::size_t capacity() const noexcept { return colony_.capacity(); }  // growth_bench only
  std::size_t size() const noexcept { return colony_.size(); }

 private:
  plf::colony<Particle> colony_;
  std::vector<plf::colony<Particle>::iterator> kept_;
};

}  // namespace bench
