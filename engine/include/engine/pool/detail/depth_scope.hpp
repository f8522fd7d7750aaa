#pragma once
// engine::detail::DepthScope: one level deeper for its lifetime, and back when it ends, also
// when an exception leaves the scope. The pool's markers for "inside a pass" and "inside T's
// constructor or destructor" are such depths; the checks that refuse a call read them.
#include <cstdint>

namespace engine::detail {

class DepthScope {
 public:
  explicit DepthScope(std::uint32_t& depth) noexcept : depth_(depth) { ++depth_; }
  ~DepthScope() { --depth_; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;

 private:
  std::uint32_t& depth_;
};

}  // namespace engine::detail
