#include <engine/texture_atlas.hpp>

#include "gl_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace {

TEST(BuiltinAtlas, CellsHaveTheirShapes) {
  const engine::Image img = engine::make_builtin_atlas_image(32);
  ASSERT_EQ(img.width, 32 * engine::builtin_cell_count);
  ASSERT_EQ(img.height, 32);
  auto alpha = [&img](int cell, int x, int y) { return img.pixel(cell * 32 + x, y) >> 24; };
  EXPECT_EQ(alpha(engine::builtin_solid, 0, 0), 255u);   // a square fills its corners
  EXPECT_EQ(alpha(engine::builtin_disc, 16, 16), 255u);  // a disc fills its centre...
  EXPECT_EQ(alpha(engine::builtin_disc, 0, 0), 0u);      // ...not its corners
  EXPECT_GT(alpha(engine::builtin_glow, 16, 16), 200u);  // a glow is bright in the middle
  EXPECT_LT(alpha(engine::builtin_glow, 16, 2), 40u);    // and fades out
  EXPECT_EQ(alpha(engine::builtin_ring, 16, 16), 0u);    // a ring is hollow
  EXPECT_GT(alpha(engine::builtin_ring, 16, 2), 100u);
  EXPECT_EQ(img.pixel(16, 16) & 0xffffffu, 0xffffffu);  // white, so Sprite::color tints it
}

class AtlasTest : public test_support::OffscreenWindowTest<64, 64> {};

TEST_F(AtlasTest, LoadsAPngIntoAGridOfCells) {
  engine::Image img = test_support::solid_cells(16, {0xff0000ffu, 0xff00ff00u, 0xffff0000u});
  img.height = 32;  // two rows of three: duplicate the row
  img.rgba.insert(img.rgba.end(), img.rgba.begin(), img.rgba.end());
  const std::string path = test_support::temp_path("atlas.png");
  ASSERT_TRUE(engine::write_png(path, img));
  engine::TextureAtlas atlas;
  const engine::Status s = atlas.load(path, 16);
  ASSERT_TRUE(s) << s.message();
  EXPECT_NE(atlas.texture(), 0u);
  EXPECT_EQ(atlas.columns(), 3);
  EXPECT_EQ(atlas.rows(), 2);
  EXPECT_EQ(atlas.cell_count(), 6);
  EXPECT_EQ(atlas.cell_px(), 16);
}

TEST_F(AtlasTest, NotAPngFailsByNameAndKeepsTheOldAtlas) {
  engine::TextureAtlas atlas;
  ASSERT_TRUE(atlas.create(engine::make_builtin_atlas_image(32), 32, "<built-in>"));
  const unsigned before = atlas.texture();
  const std::string path = test_support::temp_path("atlas.jpg");
  {
    std::ofstream f(path, std::ios::binary);
    f << "\xff\xd8\xff\xe0 a JPEG header is not a PNG";
  }
  const engine::Status s = atlas.load(path, 32);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("not a PNG"), std::string::npos) << s.message();
  EXPECT_EQ(atlas.texture(), before);
  EXPECT_EQ(atlas.columns(), engine::builtin_cell_count);
}

TEST_F(AtlasTest, MissingAtlasFailsByName) {
  engine::TextureAtlas atlas;
  const engine::Status s = atlas.load("/no/such/atlas.png", 32);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("/no/such/atlas.png"), std::string::npos) << s.message();
  EXPECT_EQ(atlas.texture(), 0u);
}

TEST_F(AtlasTest, ImageThatIsNotWholeCellsIsRefused) {
  const engine::Image img = test_support::solid_cells(10, {0xffffffffu, 0xffffffffu});  // 20x10
  engine::TextureAtlas atlas;
  const engine::Status s = atlas.create(img, 16, "odd.png");
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("odd.png"), std::string::npos);
  EXPECT_NE(s.message().find("20x10"), std::string::npos) << s.message();
  EXPECT_FALSE(atlas.create(img, 0, "zero.png"));
  EXPECT_FALSE(atlas.create(engine::Image{}, 16, "empty.png"));
}

}  // namespace
