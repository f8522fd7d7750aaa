#include <engine/screenshot.hpp>

#include "gl_test_support.hpp"

#include <epoxy/gl.h>
#include <gtest/gtest.h>

namespace {

class ScreenshotTest : public test_support::OffscreenWindowTest<64, 48> {};

// Top half red, bottom half blue, alpha 0 everywhere: what a PNG viewer must show.
void draw_top_red_bottom_blue() {
  glViewport(0, 0, 64, 48);
  glClearColor(0.0f, 0.0f, 1.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 24, 64, 24);  // GL y is up: the upper half
  glClearColor(1.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
}

TEST_F(ScreenshotTest, RowsComeOutTopFirstWithOpaqueAlpha) {
  draw_top_red_bottom_blue();
  const engine::Image img = engine::read_framebuffer(64, 48);
  ASSERT_EQ(img.width, 64);
  ASSERT_EQ(img.height, 48);
  EXPECT_EQ(img.pixel(10, 0), 0xff0000ffu);  // row 0 = top = red, alpha forced to 255
  EXPECT_EQ(img.pixel(10, 23), 0xff0000ffu);
  EXPECT_EQ(img.pixel(10, 24), 0xffff0000u);  // bottom half blue
  EXPECT_EQ(img.pixel(63, 47), 0xffff0000u);
}

TEST_F(ScreenshotTest, SavedPngLoadsBackIdentical) {
  draw_top_red_bottom_blue();
  const std::string path = test_support::temp_path("shot.png");
  const engine::Status s = engine::save_screenshot(path, 64, 48);
  ASSERT_TRUE(s) << s.message();
  engine::Image png;
  ASSERT_TRUE(engine::load_png(path, png));
  EXPECT_EQ(png.rgba, engine::read_framebuffer(64, 48).rgba);
}

TEST_F(ScreenshotTest, UnwritablePathFailsByName) {
  draw_top_red_bottom_blue();
  const engine::Status s = engine::save_screenshot("/no/such/dir/shot.png", 64, 48);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("/no/such/dir/shot.png"), std::string::npos) << s.message();
  EXPECT_FALSE(engine::save_screenshot("/tmp/x.png", 0, 10));
}

}  // namespace
