#pragma once
// engine::Sprite: one instanced quad, the only thing the game hands the renderer.
// Kept a plain 32-byte value so a render list of 100k sprites is one memcpy to the GPU.
#include <cstdint>

namespace engine {

enum class BlendMode : std::uint8_t {
  alpha = 0,     // ordinary sprites: ships, enemies, bullets
  additive = 1,  // particles: overlapping sparks brighten instead of hiding each other
};

struct Sprite {
  float x = 0, y = 0;                 // centre, world units (1 unit = 1 pixel at zoom 1)
  float width = 1, height = 1;        // world units
  float rotation = 0;                 // radians, counter-clockwise
  std::uint32_t color = 0xffffffffu;  // RGBA8 tint, R in the lowest byte; multiplies the texel
  std::uint16_t cell = 0;             // atlas cell index (row-major in the atlas grid)
  std::uint8_t layer = 0;             // draw order: lower layers first; one draw call per layer+blend
  BlendMode blend = BlendMode::alpha;
  std::uint32_t reserved = 0;  // pads to 32 bytes; keeps instances 16-byte aligned
};
static_assert(sizeof(Sprite) == 32, "Sprite is uploaded as-is; keep it 32 bytes");

// Packs 8-bit channels into Sprite::color.
constexpr std::uint32_t rgba(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a = 255) {
  return std::uint32_t{r} | (std::uint32_t{g} << 8) | (std::uint32_t{b} << 16) | (std::uint32_t{a} << 24);
}

}  // namespace engine
