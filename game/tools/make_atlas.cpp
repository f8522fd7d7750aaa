// make_atlas: draws the game's sprite atlas procedurally and writes it as a PNG.
//   make_atlas OUT.png
// Every cell is a white/grey shape with alpha, so the sprite colour tints it; shapes are
// described as "inside?" functions in cell coordinates (x right, y up, -16..16) and
// anti-aliased by 4x4 supersampling. Cell indices come from atlas_cells.hpp.
#include "sim/atlas_cells.hpp"

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using game::atlas::kCellPixels;

struct Texel {
  float grey = 0;   // 0..1 brightness
  float alpha = 0;  // 0..1 coverage
};

float len(float x, float y) { return std::sqrt(x * x + y * y); }

// Point in convex-or-concave polygon (even-odd rule).
template <std::size_t N>
bool in_polygon(float x, float y, const std::array<std::array<float, 2>, N>& p) {
  bool inside = false;
  for (std::size_t i = 0, j = N - 1; i < N; j = i++) {
    const float xi = p[i][0], yi = p[i][1], xj = p[j][0], yj = p[j][1];
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

bool in_hexagon(float x, float y, float r) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  return ay <= r * 0.866f && ax * 0.866f + ay * 0.5f <= r * 0.866f;
}

Texel solid(float grey) { return {grey, 1}; }
Texel none() { return {}; }

Texel ship(float x, float y) {
  static const std::array<std::array<float, 2>, 4> hull = {{{0, 15}, {12, -12}, {0, -6}, {-12, -12}}};
  if (!in_polygon(x, y, hull)) return none();
  if (len(x, y - 2) < 3.2f) return solid(0.35f);          // cockpit
  if (std::fabs(x) < 1.2f && y > 5) return solid(0.75f);  // spine
  return solid(1);
}

Texel grunt(float x, float y) {
  static const std::array<std::array<float, 2>, 5> body = {{{-13, 9}, {-6, 12}, {6, 12}, {13, 9}, {0, -13}}};
  if (!in_polygon(x, y, body)) return none();
  if (len(x - 4.5f, y - 4) < 2.2f || len(x + 4.5f, y - 4) < 2.2f) return solid(0.2f);  // eyes
  return solid(y > 6 ? 0.8f : 1.0f);
}

Texel spinner(float x, float y) {
  const float r = len(x, y);
  const float a = std::atan2(y, x);
  const float edge = 6 + 9 * std::pow(std::fabs(std::cos(2 * a)), 4.0f);
  if (r > edge) return none();
  if (r < 3.5f) return solid(0.25f);  // hub
  return solid(r < 6.5f ? 0.7f : 1.0f);
}

Texel burster(float x, float y) {
  const float r = len(x, y);
  if (r > 14.5f) return none();
  if (r > 12) return solid(1);  // outer ring
  if (r > 10) return none();    // gap
  if (r < 4) return solid(1);   // hot core
  return solid(0.6f);
}

Texel boss(float x, float y) {
  if (std::fabs(x) > 11 && std::fabs(x) < 15 && y < -2 && y > -15) return solid(0.7f);  // cannons
  if (!in_hexagon(x, y, 14)) return none();
  if (in_hexagon(x, y, 8)) return len(x, y) < 3.5f ? solid(1) : solid(0.45f);
  return solid(0.9f);
}

Texel player_bullet(float x, float y) {
  const float half_length = 13, half_width = 3;
  const float dy = std::max(0.0f, std::fabs(y) - (half_length - half_width));
  const float d = len(x, dy);
  if (d > half_width) return none();
  return {1, 1 - 0.5f * (d / half_width) * (d / half_width)};
}

Texel enemy_bullet(float x, float y) {
  const float r = len(x, y);
  if (r > 11) return none();
  if (r < 5) return solid(1);
  if (r > 9.5f) return solid(1);
  return solid(0.7f);
}

Texel spark(float x, float y) {
  const float e = (x * x) / 4 + (y * y) / 110;  // long thin ellipse, gaussian falloff
  return {1, std::exp(-2.5f * e)};
}

Texel smoke(float x, float y) {
  // A soft puff with a little lumpiness so overlapping puffs do not look like discs.
  const float a = std::atan2(y, x);
  const float r = len(x, y) / (1 + 0.12f * std::sin(5 * a) + 0.06f * std::sin(9 * a + 1));
  return {1, std::exp(-(r * r) / (2 * 6.5f * 6.5f))};
}

Texel explosion(float x, float y) {
  const float r = len(x, y);
  const float core = std::exp(-(r * r) / (2 * 5.0f * 5.0f));
  const float ring = std::exp(-((r - 11) * (r - 11)) / (2 * 1.6f * 1.6f));
  return {1, std::min(1.0f, core + 0.8f * ring) * (r < 15.5f ? 1.0f : 0.0f)};
}

Texel star(float x, float y) {
  const float r = len(x, y);
  const float glow = std::exp(-(r * r) / (2 * 3.0f * 3.0f));
  const float cross = std::exp(-std::fabs(x) * 1.5f) * std::exp(-std::fabs(y) / 5) +
                      std::exp(-std::fabs(y) * 1.5f) * std::exp(-std::fabs(x) / 5);
  return {1, std::min(1.0f, glow + 0.5f * cross)};
}

Texel shield(float x, float y) {
  const float r = len(x, y);
  const float ring = std::exp(-((r - 13.5f) * (r - 13.5f)) / (2 * 1.1f * 1.1f));
  return {1, std::min(1.0f, ring + (r < 13.5f ? 0.12f : 0.0f))};
}

Texel charger(float x, float y) {
  static const std::array<std::array<float, 2>, 4> dart = {{{0, 15}, {9, -12}, {0, -5}, {-9, -12}}};
  static const std::array<std::array<float, 2>, 4> core = {{{0, 8}, {4, -6}, {0, -2}, {-4, -6}}};
  if (!in_polygon(x, y, dart)) return none();
  return solid(in_polygon(x, y, core) ? 0.35f : 1.0f);  // a dark core inside a bright plate
}

Texel crosshair(float x, float y) {
  const float r = len(x, y);
  if (r < 1.6f) return solid(1);                                // the dot
  const bool gap = std::fabs(x) < 2.5f || std::fabs(y) < 2.5f;  // four gaps, where the ticks are
  if (r > 9 && r < 11.5f && !gap) return solid(1);              // the broken ring
  if ((std::fabs(x) < 1 && r > 5 && r < 15) || (std::fabs(y) < 1 && r > 5 && r < 15)) return solid(1);  // ticks
  return none();
}

using Shader = Texel (*)(float, float);

void draw_cell(std::vector<std::uint8_t>& image, int cell, Shader shader) {
  const int cx = (cell % game::atlas::kColumns) * kCellPixels;
  const int cy = (cell / game::atlas::kColumns) * kCellPixels;
  constexpr int kSub = 4;
  for (int py = 0; py < kCellPixels; ++py) {
    for (int px = 0; px < kCellPixels; ++px) {
      float grey_alpha = 0, alpha = 0;
      for (int sy = 0; sy < kSub; ++sy) {
        for (int sx = 0; sx < kSub; ++sx) {
          // Cell space: centre at 0, y up (image rows go down).
          const float x = static_cast<float>(px) + (static_cast<float>(sx) + 0.5f) / kSub - kCellPixels / 2.0f;
          const float y = kCellPixels / 2.0f - (static_cast<float>(py) + (static_cast<float>(sy) + 0.5f) / kSub);
          const Texel t = shader(x, y);
          grey_alpha += t.grey * t.alpha;
          alpha += t.alpha;
        }
      }
      const float a = alpha / (kSub * kSub);
      const float g = alpha > 0 ? grey_alpha / alpha : 0;
      const auto at = (static_cast<std::size_t>(cy + py) * game::atlas::kWidth + static_cast<std::size_t>(cx + px)) * 4;
      const auto byte = [](float v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
      image[at + 0] = image[at + 1] = image[at + 2] = byte(g);
      image[at + 3] = byte(a);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_atlas OUT.png\n");
    return 2;
  }
  std::vector<std::uint8_t> image(static_cast<std::size_t>(game::atlas::kWidth * game::atlas::kHeight) * 4, 0);
  namespace a = game::atlas;
  const std::array<std::pair<int, Shader>, a::cell_count> cells = {{
      {a::ship, ship},
      {a::grunt, grunt},
      {a::spinner, spinner},
      {a::burster, burster},
      {a::boss, boss},
      {a::player_bullet, player_bullet},
      {a::enemy_bullet, enemy_bullet},
      {a::spark, spark},
      {a::smoke, smoke},
      {a::explosion, explosion},
      {a::star, star},
      {a::shield, shield},
      {a::charger, charger},
      {a::crosshair, crosshair},
  }};
  for (const auto& [cell, shader] : cells) draw_cell(image, cell, shader);
  if (stbi_write_png(argv[1], a::kWidth, a::kHeight, 4, image.data(), a::kWidth * 4) == 0) {
    std::fprintf(stderr, "make_atlas: cannot write '%s'\n", argv[1]);
    return 1;
  }
  return 0;
}
