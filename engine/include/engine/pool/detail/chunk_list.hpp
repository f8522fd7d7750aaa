// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::ChunkList: what one task of a chunked pass writes (its victims or marks, and
// a count), on cache lines of its own: the tasks run on different cores, and list headers packed
// side by side would bounce one line between them on every push_back.
#include <cstdint>
#include <vector>

namespace engine::detail {

struct alignas(64) ChunkList {
  std::vector<std::uint32_t> entries;
  std::uint64_t count = 0;
};

}  // namespace engine::detail
