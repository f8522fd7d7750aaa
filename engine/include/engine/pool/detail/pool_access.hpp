// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::PoolAccess: what the headers beside the core (vector_pool.hpp, parallel.hpp,
// introspect.hpp) reach inside a Pool<T, S>. Not for users: the core's API is pool.hpp.
#include <engine/pool/pool.hpp>

#include <cstdint>

namespace engine::detail {

struct PoolAccess {
  template <class P>
  static auto& table(P& pool) noexcept {
    return pool.table_;
  }
  template <class P>
  static auto& store(P& pool) noexcept {
    return pool.store_;
  }
  template <class P>
  static PoolCounts& counts(P& pool) noexcept {
    return pool.counts_;
  }
  template <class P>
  static std::uint32_t& iterating(P& pool) noexcept {
    return pool.iterating_;
  }
  template <class P>
  static std::uint32_t& parallel(P& pool) noexcept {
    return pool.parallel_;
  }
  template <class P>
  static bool busy(const P& pool) noexcept {  // inside a pass or T's callbacks
    return pool.iterating_ != 0 || pool.callbacks_ != 0;
  }
  template <class P>
  static bool refuse_mid_pass(P& pool, const char* what) noexcept {
    return pool.refuse_mid_pass(what);
  }
  template <class P>
  static void release_listed(P& pool, std::uint32_t doomed) noexcept {
    pool.release_listed(doomed);
  }
  template <class P>
  static GrowthPolicy& policy(P& pool) noexcept {
    return pool.policy_;
  }
  template <class P>
  static std::uint64_t& stale_gets(P& pool) noexcept {
    return pool.stale_gets_;
  }
  template <class P>
  static void reset_store(P& pool) noexcept {  // an empty storage: the objects went elsewhere
    pool.store_ = typename P::Store(pool.policy_);
  }
  template <class P>
  static void land(const P& pool, std::uint64_t& pos, std::uint32_t& index) noexcept {
    pool.land(pos, index);
  }
  template <class P>
  static void advance(const P& pool, std::uint64_t& pos, std::uint32_t& index) noexcept {
    pool.advance(pos, index);
  }
};

}  // namespace engine::detail
