// SPDX-License-Identifier: MIT
#pragma once
// engine::PackedPages, the default: packed, in pages that never move (EnTT's storage shape).
// Walks are as fast as packed's but for a page edge every page_slots objects, and growth adds a
// page, so the largest pools grow without a frame-time spike.
#include <engine/pool/detail/dense_store.hpp>

namespace engine {
struct PackedPages {
  static constexpr StorageMode mode = StorageMode::packed_pages;
  template <class T>
  using store = detail::DenseStore<T, true>;
};
}  // namespace engine
