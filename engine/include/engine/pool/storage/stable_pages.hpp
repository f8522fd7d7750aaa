// SPDX-License-Identifier: MIT
#pragma once
// engine::StablePages: pages of GrowthPolicy::page_slots slots that never move, so a pointer to
// an object stays valid until its release; growth adds a page. get() reads the page table first.
#include <engine/pool/detail/slot_store.hpp>

namespace engine {
struct StablePages {
  static constexpr StorageMode mode = StorageMode::stable;
  template <class T>
  using store = detail::SlotStore<T, true>;
};
}  // namespace engine
