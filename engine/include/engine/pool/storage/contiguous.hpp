// SPDX-License-Identifier: MIT
#pragma once
// engine::Contiguous: one buffer, slot i at position i. The shortest get() and a walk in address
// order; growth allocates a bigger buffer and moves every live object (pointers to objects die:
// hold handles). Objects emplaced mid-pass fit or are refused (the pass would lose its objects).
#include <engine/pool/detail/slot_store.hpp>

namespace engine {
struct Contiguous {
  static constexpr StorageMode mode = StorageMode::contiguous;
  template <class T>
  using store = detail::SlotStore<T, false>;
};
}  // namespace engine
