#include <engine/sprite_batch.hpp>

#include <cstring>

namespace engine {

void bucket_sprites(const Sprite* in, std::size_t count, Sprite* out, SpriteGroups& groups) noexcept {
  groups.count.fill(0);
  groups.used = 0;
  if (count == 0) return;
  // Pass 1: histogram. Also notices the common case of a single group, which is a memcpy.
  const std::uint32_t first_group = sprite_group(in[0]);
  bool single = true;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t g = sprite_group(in[i]);
    ++groups.count[g];
    single = single && g == first_group;
  }
  std::uint32_t offset = 0;
  for (std::size_t g = 0; g < sprite_group_count; ++g) {
    groups.first[g] = offset;
    offset += groups.count[g];
    if (groups.count[g] != 0) ++groups.used;
  }
  if (single) {
    std::memcpy(out, in, count * sizeof(Sprite));
    return;
  }
  // Pass 2: scatter. `cursor` starts as the prefix sums and walks each group forward,
  // which keeps the game's order within a group (stable).
  std::array<std::uint32_t, sprite_group_count> cursor = groups.first;
  for (std::size_t i = 0; i < count; ++i) {
    out[cursor[sprite_group(in[i])]++] = in[i];
  }
}

}  // namespace engine
