// SPDX-License-Identifier: MIT
#pragma once
// engine::Packed: the live objects dense at the front of one buffer, so a pass never meets a
// hole; a release moves the last object into the hole (pointers to it move), and get() reads the
// object's position after its generation. Growth moves every object. Needs a noexcept move.
#include <engine/pool/detail/dense_store.hpp>

namespace engine {
struct Packed {
  static constexpr StorageMode mode = StorageMode::packed;
  template <class T>
  using store = detail::DenseStore<T, false>;
};
}  // namespace engine
