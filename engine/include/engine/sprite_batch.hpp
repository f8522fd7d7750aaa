#pragma once
// engine::SpriteBatch: the frame's render list. The game appends sprites in any order;
// the renderer groups them by (layer, blend) with a counting sort, so a frame costs one
// draw call per group in use, whatever the sprite count. Storage is reused from frame to
// frame: after the first frames, filling the batch allocates nothing.
#include <engine/sprite.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine {

class SpriteBatch {
 public:
  explicit SpriteBatch(std::size_t reserve_sprites = 4096) { sprites_.reserve(reserve_sprites); }

  void push(const Sprite& sprite) { sprites_.push_back(sprite); }
  void push(const Sprite* sprites, std::size_t count) { sprites_.insert(sprites_.end(), sprites, sprites + count); }
  // Appends count default sprites and returns the first, for filling in place.
  Sprite* append(std::size_t count) {
    const std::size_t at = sprites_.size();
    sprites_.resize(at + count);
    return sprites_.data() + at;
  }
  void clear() noexcept { sprites_.clear(); }  // keeps the capacity
  void reserve(std::size_t count) { sprites_.reserve(count); }

  std::size_t size() const noexcept { return sprites_.size(); }
  bool empty() const noexcept { return sprites_.empty(); }
  const Sprite* data() const noexcept { return sprites_.data(); }
  std::size_t capacity() const noexcept { return sprites_.capacity(); }

 private:
  std::vector<Sprite> sprites_;
};

// Draw-order key of a sprite: layer first, then alpha before additive within a layer.
constexpr std::size_t sprite_group_count = 256 * 2;
constexpr std::uint32_t sprite_group(const Sprite& s) noexcept {
  return (std::uint32_t{s.layer} << 1) | (s.blend == BlendMode::additive ? 1u : 0u);
}

// Where each (layer, blend) group landed after bucketing.
struct SpriteGroups {
  std::array<std::uint32_t, sprite_group_count> first{};  // index of the group's first sprite
  std::array<std::uint32_t, sprite_group_count> count{};  // sprites in the group (0 = unused)
  std::uint32_t used = 0;                                 // groups with count > 0
};

// Counting sort of `count` sprites into `out` (which must hold `count`), ordered by
// sprite_group(), keeping the game's order inside a group. Two linear passes, no
// allocation. Returns the group layout.
void bucket_sprites(const Sprite* in, std::size_t count, Sprite* out, SpriteGroups& groups) noexcept;

}  // namespace engine
