// SPDX-License-Identifier: MIT
#pragma once
// engine::MultiPool<Ts...>: one VectorPool per type behind one object, with typed handles.
// Part of the header-only pool library (CMake target engine::pool).
//
// Why not a VectorPool<std::variant<Ts...>>: every variant slot is as big as the biggest
// alternative, so a pool of bullets and bosses pays a boss's bytes per bullet, and iterating
// bullets strides over boss-sized holes. Here each type has its own pool: a T costs a
// VectorPool<T> slot, exactly, and for_each<T> walks only Ts, densely.
//
// Handles carry their type (TypedHandle<T>), so a bullet's handle cannot be used on the enemy
// pool: that mistake does not compile. Everything else follows VectorPool's contract
// (generations, refusals, debug asserts, growth); pool<T>() reaches the pool itself.
// Not thread-safe, like VectorPool.
#include <engine/pool/handle.hpp>
#include <engine/pool/vector_pool.hpp>

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace engine {

// A PoolHandle that remembers which type it names. TypedHandle<T>{} is null.
template <class T>
struct TypedHandle {
  PoolHandle handle;  // the handle inside MultiPool's VectorPool<T>

  constexpr bool is_null() const noexcept { return handle.is_null(); }
  constexpr explicit operator bool() const noexcept { return !handle.is_null(); }
};

template <class T>
constexpr bool operator==(TypedHandle<T> a, TypedHandle<T> b) noexcept {
  return a.handle == b.handle;
}
template <class T>
constexpr bool operator!=(TypedHandle<T> a, TypedHandle<T> b) noexcept {
  return !(a == b);
}

namespace detail {

template <class T, class... Ts>
inline constexpr bool is_one_of = (std::is_same_v<T, Ts> || ...);

template <class... Ts>
struct all_distinct : std::true_type {};
template <class T, class... Rest>
struct all_distinct<T, Rest...> : std::bool_constant<!is_one_of<T, Rest...> && all_distinct<Rest...>::value> {};

}  // namespace detail

template <class... Ts>
class MultiPool {
  static_assert(sizeof...(Ts) > 0, "MultiPool needs at least one type");
  static_assert(detail::all_distinct<Ts...>::value, "MultiPool<Ts...>: each type may appear once");

  template <class T>
  static constexpr void check_member() {
    static_assert(detail::is_one_of<T, Ts...>, "this MultiPool holds no pool for that type");
  }

 public:
  explicit MultiPool(const GrowthPolicy& policy = {})  // every type's pool starts with `policy`
      : pools_(VectorPool<Ts>(policy)...) {}

  template <class T, class... Args>
  std::optional<TypedHandle<T>> emplace(Args&&... args) {  // nullopt: T's pool at cap / bad_alloc
    check_member<T>();
    const std::optional<PoolHandle> h = pool<T>().emplace(std::forward<Args>(args)...);
    if (!h) return std::nullopt;
    return TypedHandle<T>{*h};
  }
  template <class T>
  bool release(TypedHandle<T> h) noexcept {
    return pool<T>().release(h.handle);
  }  // as VectorPool::release
  template <class T>
  T* get(TypedHandle<T> h) noexcept {
    return pool<T>().get(h.handle);
  }  // nullptr unless live
  template <class T>
  const T* get(TypedHandle<T> h) const noexcept {
    return pool<T>().get(h.handle);
  }
  template <class T>
  bool contains(TypedHandle<T> h) const noexcept {
    return pool<T>().contains(h.handle);
  }

  template <class T>
  std::size_t size() const noexcept {
    return pool<T>().size();
  }                                                                        // live Ts
  std::size_t size() const noexcept { return (pool<Ts>().size() + ...); }  // live objects, all types
  bool empty() const noexcept { return size() == 0; }
  void clear() noexcept { (pool<Ts>().clear(), ...); }  // destroys everything; all handles go stale

  // f(T&) or f(TypedHandle<T>, T&), over the live Ts in address order.
  template <class T, class F>
  void for_each(F&& f) {
    visit<T>(f);
  }
  // f is called for every live object of every type, type by type in the order of Ts:
  // a generic lambda, f(auto& object) or f(auto handle, auto& object).
  template <class F>
  void for_each_all(F&& f) {
    (visit<Ts>(f), ...);
  }

  template <class T>
  VectorPool<T>& pool() noexcept {  // T's own pool: policies, listeners, iteration, stats
    check_member<T>();
    return std::get<VectorPool<T>>(pools_);
  }
  template <class T>
  const VectorPool<T>& pool() const noexcept {
    check_member<T>();
    return std::get<VectorPool<T>>(pools_);
  }
  template <class T>
  PoolStats stats() const noexcept {
    return pool<T>().stats();
  }
  PoolStats stats() const noexcept;  // sums over the types; peak_live is the sum of their peaks

 private:
  template <class T, class F>
  void visit(F& f) {
    if constexpr (std::is_invocable_v<F&, TypedHandle<T>, T&>) {
      pool<T>().for_each([&f](PoolHandle h, T& object) { f(TypedHandle<T>{h}, object); });
    } else {
      pool<T>().for_each([&f](T& object) { f(object); });
    }
  }

  std::tuple<VectorPool<Ts>...> pools_;
};

template <class... Ts>
PoolStats MultiPool<Ts...>::stats() const noexcept {
  PoolStats total;
  const auto add = [&total](const PoolStats& s) {
    total.live += s.live;
    total.free += s.free;
    total.capacity += s.capacity;
    total.peak_live += s.peak_live;
    total.bytes_held += s.bytes_held;
    total.emplaces += s.emplaces;
    total.releases += s.releases;
    total.failed_emplaces += s.failed_emplaces;
    total.failed_releases += s.failed_releases;
    total.stale_gets += s.stale_gets;
    total.refused_during_iteration += s.refused_during_iteration;
    total.growth_events += s.growth_events;
  };
  (add(pool<Ts>().stats()), ...);
  return total;
}

}  // namespace engine
