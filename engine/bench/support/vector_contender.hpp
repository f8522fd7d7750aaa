#pragma once
// std::vector<Particle> with swap-and-pop: the speed of light. Objects move when others die,
// so nothing can hold on to one (no handles); every other contender pays for that guarantee.
//
// Every contender in engine/bench offers the same operations, so one benchmark body serves all:
//   static constexpr const char* name;           // the row label in the results
//   void spawn(Args&&...);                       // create an object nobody keeps a handle to
//   template <class F> std::size_t update_and_cull(F alive);  // alive(Particle&) -> bool on every
//                                                // live object; destroys those that return false
//                                                // (after the pass where the container needs it);
//                                                // returns how many died
//   void create(Args&&...);                      // create an object and keep its handle
//   void destroy_at(std::size_t i);              // destroy the object of kept handle i; the last
//                                                // kept handle takes its place (swap-remove)
//   template <class F> void for_each(F f);       // f(const Particle&) on every live object
//   std::size_t size() const;                    // live objects
//   std::size_t capacity() const;                // objects it can hold before growing (growth only)
#include "particle.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace bench {

class VectorContender {
 public:
  static constexpr const char* name = "std_vector";

  template <class... Args>
  void spawn(Args&&... args) {
    items_.emplace_back(std::forward<Args>(args)...);
  }
  template <class... Args>
  void create(Args&&... args) {
    spawn(std::forward<Args>(args)...);
  }

  // Fused: a dead particle is replaced by the last one and the same slot is updated next.
  template <class F>
  std::size_t update_and_cull(F alive) {
    std::size_t died = 0;
    for (std::size_t i = 0; i < items_.size();) {
      if (alive(items_[i])) {
        ++i;
      } else {
        destroy_at(i);
        ++died;
      }
    }
    return died;
  }

  void destroy_at(std::size_t i) {
    if (i + 1 != items_.size()) items_[i] = std::move(items_.back());
    items_.pop_back();
  }

  template <class F>
  void for_each(F f) const {
    for (const Particle& p : items_) f(p);
  }
  std::size_t capacity() const noexcept { return items_.capacity(); }  // growth_bench only
  std::size_t size() const noexcept { return items_.size(); }

 private:
  std::vector<Particle> items_;
};

}  // namespace bench
