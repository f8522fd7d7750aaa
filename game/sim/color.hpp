#pragma once
// game::rgba: a colour as the simulation stores it (particles and bullets carry their own).
// The same packing as engine::Sprite::color (r in the low byte), so the sprite list copies it
// as it is; the simulation includes no runtime header to get it.
#include <cstdint>

namespace game {

constexpr std::uint32_t rgba(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a = 255) {
  return std::uint32_t{r} | (std::uint32_t{g} << 8) | (std::uint32_t{b} << 16) | (std::uint32_t{a} << 24);
}

}  // namespace game
