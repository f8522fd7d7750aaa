#pragma once
// Pixel checks the overlay's screenshot tests share: colours within a tolerance, counted
// over a rectangle of an engine::Image (packed like engine::rgba, R in the low byte).
#include <engine/image.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace game::test {

inline int channel(std::uint32_t c, int shift) { return static_cast<int>((c >> shift) & 0xffu); }

inline bool near(std::uint32_t a, std::uint32_t b, int tolerance) {
  for (int shift = 0; shift < 24; shift += 8)
    if (std::abs(channel(a, shift) - channel(b, shift)) > tolerance) return false;
  return true;
}

inline std::size_t count(const engine::Image& image, float x0, float y0, float x1, float y1, std::uint32_t colour,
                         int tolerance) {
  std::size_t n = 0;
  for (int y = static_cast<int>(y0); y < static_cast<int>(y1); ++y)
    for (int x = static_cast<int>(x0); x < static_cast<int>(x1); ++x)
      n += near(image.pixel(x, y), colour, tolerance) ? 1u : 0u;
  return n;
}

inline std::uint32_t opaque(std::uint32_t c) { return c | 0xff000000u; }

}  // namespace game::test
