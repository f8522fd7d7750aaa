// The generated atlas: the right size, every named cell drawn, the rest empty, and the
// ship pointing up (rotation 0 = up is what the game's rotations assume).
#include "sim/atlas_cells.hpp"

#include <stb_image.h>

#include <gtest/gtest.h>

#include <memory>

namespace game {
namespace {

struct Image {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
  int alpha(int x, int y) const { return pixels.get()[(y * width + x) * 4 + 3]; }
};

Image load_atlas() {
  Image img;
  int channels = 0;
  img.pixels.reset(stbi_load(POOLSHOT_ATLAS_PATH, &img.width, &img.height, &channels, 4));
  return img;
}

long cell_alpha(const Image& img, int cell) {
  const int x0 = (cell % atlas::kColumns) * atlas::kCellPixels, y0 = (cell / atlas::kColumns) * atlas::kCellPixels;
  long sum = 0;
  for (int y = 0; y < atlas::kCellPixels; ++y) {
    for (int x = 0; x < atlas::kCellPixels; ++x) sum += img.alpha(x0 + x, y0 + y);
  }
  return sum;
}

TEST(Atlas, SizeAndCells) {
  const Image img = load_atlas();
  ASSERT_NE(img.pixels, nullptr) << "cannot read " << POOLSHOT_ATLAS_PATH << ": " << stbi_failure_reason();
  EXPECT_EQ(img.width, atlas::kWidth);
  EXPECT_EQ(img.height, atlas::kHeight);
  for (int c = 0; c < atlas::kColumns * atlas::kRows; ++c) {
    if (c < atlas::cell_count) {
      EXPECT_GT(cell_alpha(img, c), 255 * 8) << "cell " << c << " is (nearly) empty";
    } else {
      EXPECT_EQ(cell_alpha(img, c), 0) << "cell " << c << " should be blank";
    }
  }
}

TEST(Atlas, ShipPointsUp) {
  const Image img = load_atlas();
  ASSERT_NE(img.pixels, nullptr);
  const auto row_width = [&](int y) {
    int n = 0;
    for (int x = 0; x < atlas::kCellPixels; ++x) n += img.alpha(x, y) > 128;  // ship is cell 0
    return n;
  };
  EXPECT_LT(row_width(4), row_width(24)) << "the tip (top rows of the image) must be narrower than the base";
}

}  // namespace
}  // namespace game
