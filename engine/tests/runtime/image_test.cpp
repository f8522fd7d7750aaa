#include <engine/image.hpp>

#include "gl_test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace {

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

TEST(Image, PngRoundTripKeepsEveryPixel) {
  engine::Image img = test_support::solid_cells(4, {0xff0000ffu, 0x80402010u});
  const std::string path = test_support::temp_path("roundtrip.png");
  ASSERT_TRUE(engine::write_png(path, img));
  engine::Image back;
  const engine::Status s = engine::load_png(path, back);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(back.width, 8);
  EXPECT_EQ(back.height, 4);
  EXPECT_EQ(back.rgba, img.rgba);
  EXPECT_EQ(back.pixel(5, 1), 0x80402010u);
  EXPECT_EQ(back.pixel(8, 0), 0u);  // outside
}

TEST(Image, MissingFileNamesTheFile) {
  engine::Image img;
  const engine::Status s = engine::load_png("/nonexistent/dir/atlas.png", img);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("/nonexistent/dir/atlas.png"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No such file"), std::string::npos) << s.message();
  EXPECT_TRUE(img.empty());
}

TEST(Image, AFileThatIsNotAPngIsRefusedByName) {
  const std::string path = test_support::temp_path("not_a_png.png");
  write_bytes(path, "BM this is a bitmap header, or a text file; either way not a PNG");
  engine::Image img;
  const engine::Status s = engine::load_png(path, img);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("not a PNG"), std::string::npos) << s.message();
}

TEST(Image, ACorruptPngIsRefusedByName) {
  const std::string path = test_support::temp_path("corrupt.png");
  write_bytes(path, std::string("\x89PNG\r\n\x1a\n", 8) + "garbage where the IHDR chunk should be");
  engine::Image img;
  const engine::Status s = engine::load_png(path, img);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("cannot decode"), std::string::npos) << s.message();
}

TEST(Image, WritingToAMissingDirectoryFailsByName) {
  const engine::Image img = test_support::solid_cells(2, {0xffffffffu});
  const engine::Status s = engine::write_png("/nonexistent/dir/shot.png", img);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("/nonexistent/dir/shot.png"), std::string::npos);
  EXPECT_FALSE(engine::write_png("/tmp/empty.png", engine::Image{}));
}

TEST(Image, PngSignatureCheck) {
  const std::uint8_t png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  EXPECT_TRUE(engine::has_png_signature(png, 8));
  EXPECT_FALSE(engine::has_png_signature(png, 7));
  EXPECT_FALSE(engine::has_png_signature(nullptr, 8));
  const std::uint8_t jpeg[8] = {0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F'};
  EXPECT_FALSE(engine::has_png_signature(jpeg, 8));
}

}  // namespace
