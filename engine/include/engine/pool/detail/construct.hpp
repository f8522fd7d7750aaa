#pragma once
// engine::detail: how the pools build a T from emplace()'s arguments.
//
// T(args...) when T has such a constructor, else T{args...}: C++17 parentheses never
// aggregate-initialise, so without the fallback an aggregate with no constructor
// (struct P { int a; float b; }) could not be emplaced as (1, 2.0f). EnTT's storage does the
// same. Braces only as the fallback, because for a type that has both (std::vector<int>(3, 1)
// against std::vector<int>{3, 1}) they pick a different constructor than parentheses.
#include <new>
#include <type_traits>
#include <utility>

namespace engine::detail {

template <class Void, class T, class... Args>
struct is_brace_constructible : std::false_type {};
template <class T, class... Args>
struct is_brace_constructible<std::void_t<decltype(T{std::declval<Args>()...})>, T, Args...> : std::true_type {};

// Whether the construction emplace_construct() picks can throw (the pools skip their
// roll-back code when it cannot).
template <class T, class... Args>
constexpr bool is_nothrow_emplace_constructible() noexcept {
  if constexpr (std::is_constructible_v<T, Args...>) {
    return std::is_nothrow_constructible_v<T, Args...>;
  } else if constexpr (is_brace_constructible<void, T, Args...>::value) {
    return noexcept(T{std::declval<Args>()...});
  } else {
    return false;
  }
}

// Builds a T at `where` (raw storage, sized and aligned for T) from `args`.
template <class T, class... Args>
T* emplace_construct(void* where, Args&&... args) noexcept(is_nothrow_emplace_constructible<T, Args&&...>()) {
  if constexpr (std::is_constructible_v<T, Args&&...>) {
    return ::new (where) T(std::forward<Args>(args)...);
  } else {
    static_assert(is_brace_constructible<void, T, Args&&...>::value,
                  "emplace(args...): T can be built neither as T(args...) nor as T{args...}");
    return ::new (where) T{std::forward<Args>(args)...};
  }
}

}  // namespace engine::detail
