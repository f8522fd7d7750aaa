#pragma once
// engine::VectorPool<Particle>, in any storage mode, with the pool's default growth policy
// (no reserve: every contender grows from empty). Handles are what we keep.
#include "particle.hpp"

#include <engine/pool/vector_pool.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace bench {

// How the game-frame pass releases the dead: the pool refuses release() inside for_each, so
// both of its idioms are two-phase.
enum class PoolCull {
  erase_if,       // erase_if(pred): pred updates and answers "dead?"; releases after the pass
  release_later,  // for_each + release_later(handle), then flush_releases()
};

template <engine::StorageMode Mode, PoolCull Cull = PoolCull::erase_if>
class VectorPoolContender {
 public:
  static constexpr const char* name =
      Mode == engine::StorageMode::contiguous
          ? (Cull == PoolCull::erase_if ? "pool_contiguous" : "pool_contiguous_later")
      : Mode == engine::StorageMode::stable ? (Cull == PoolCull::erase_if ? "pool_stable" : "pool_stable_later")
      : Mode == engine::StorageMode::packed
          ? (Cull == PoolCull::erase_if ? "pool_packed" : "pool_packed_later")
          : (Cull == PoolCull::erase_if ? "pool_packed_pages" : "pool_packed_pages_later");

  VectorPoolContender() : pool_(policy()) {}

  template <class... Args>
  void spawn(Args&&... args) {
    static_cast<void>(pool_.emplace(std::forward<Args>(args)...));
  }
  template <class... Args>
  void create(Args&&... args) {
    kept_.push_back(*pool_.emplace(std::forward<Args>(args)...));
  }

  template <class F>
  std::size_t update_and_cull(F alive) {
    if constexpr (Cull == PoolCull::erase_if) {
      return pool_.erase_if([&alive](Particle& p) { return !alive(p); });
    } else {
      pool_.for_each([this, &alive](engine::PoolHandle h, Particle& p) {
        if (!alive(p)) pool_.release_later(h);
      });
      return pool_.flush_releases();
    }
  }

  void destroy_at(std::size_t i) {
    pool_.release(kept_[i]);
    kept_[i] = kept_.back();
    kept_.pop_back();
  }

  template <class F>
  void for_each(F f) {
    pool_.for_each([&f](const Particle& p) { f(p); });
  }
  const Particle* get(std::size_t i) const noexcept { return pool_.get(kept_[i]); }  // handle_get_bench
  std::size_t kept() const noexcept { return kept_.size(); }
  std::size_t capacity() const noexcept { return pool_.capacity(); }  // growth_bench only
  std::size_t size() const noexcept { return pool_.size(); }

 private:
  static engine::GrowthPolicy policy() {
    engine::GrowthPolicy p;
    p.storage = Mode;
    return p;
  }

  engine::VectorPool<Particle> pool_;
  std::vector<engine::PoolHandle> kept_;
};

using PoolContiguousContender = VectorPoolContender<engine::StorageMode::contiguous>;
using PoolStableContender = VectorPoolContender<engine::StorageMode::stable>;
using PoolPackedContender = VectorPoolContender<engine::StorageMode::packed>;
using PoolPackedPagesContender = VectorPoolContender<engine::StorageMode::packed_pages>;
using PoolContiguousLaterContender = VectorPoolContender<engine::StorageMode::contiguous, PoolCull::release_later>;

}  // namespace bench
