#include <engine/imgui_layer.hpp>

#include <engine/screenshot.hpp>

#include "gl_test_support.hpp"

#include <epoxy/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <unistd.h>

namespace {

using test_support::Rgb;

class ImGuiLayerTest : public testing::Test {
 protected:
  void SetUp() override {
    POOLSHOT_REQUIRE_GL(window_, 320, 240);
    const engine::Status s = layer_.init(window_.sdl_window(), window_.gl_context());
    ASSERT_TRUE(s) << s.message();
  }
  void TearDown() override {
    layer_.shutdown();
    window_.close();
    SDL_Quit();
  }
  // One frame with a borderless magenta window at (100, 80), 120 x 90.
  void frame_with_probe_window(double dt = 1.0 / 60.0) {
    glViewport(0, 0, 320, 240);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    layer_.begin_frame(dt);
    ImGui::SetNextWindowPos(ImVec2(100, 80));
    ImGui::SetNextWindowSize(ImVec2(120, 90));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1.0f, 0.0f, 1.0f, 1.0f));
    ImGui::Begin("probe", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
    ImGui::End();
    ImGui::PopStyleColor();
    layer_.end_frame();
    layer_.draw();
  }

  engine::Window window_;
  engine::ImGuiLayer layer_;
};

TEST_F(ImGuiLayerTest, AWindowAppearsWhereItWasPutInItsColour) {
  frame_with_probe_window();
  frame_with_probe_window();
  const engine::Image img = engine::read_framebuffer(320, 240);
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, 160, 125), Rgb{255, 0, 255}))
      << test_support::to_string(test_support::rgb_at(img, 160, 125));
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, 105, 85), Rgb{255, 0, 255}));  // inside, near its corner
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, 90, 125), Rgb{0, 0, 0}));      // left of it
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, 160, 180), Rgb{0, 0, 0}));     // below it
}

TEST_F(ImGuiLayerTest, FixedDeltaDrivesImGuisClock) {
  for (int i = 0; i < 10; ++i) frame_with_probe_window(0.125);
  EXPECT_FLOAT_EQ(ImGui::GetIO().DeltaTime, 0.125f);
  EXPECT_DOUBLE_EQ(ImGui::GetTime(), 1.25);  // 10 frames x 0.125 s, whatever the wall clock did
}

TEST_F(ImGuiLayerTest, NoIniFileIsEverWritten) {
  EXPECT_EQ(ImGui::GetIO().IniFilename, nullptr);
  char old_dir[4096];
  ASSERT_NE(getcwd(old_dir, sizeof old_dir), nullptr);
  const std::string dir = test_support::temp_path("inidir");
  ASSERT_EQ(std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()), 0);
  ASSERT_EQ(chdir(dir.c_str()), 0);
  for (int i = 0; i < 3; ++i) frame_with_probe_window();
  layer_.shutdown();  // ImGui would save settings here if it had a file name
  const bool ini_exists = access("imgui.ini", F_OK) == 0;
  ASSERT_EQ(chdir(old_dir), 0);
  EXPECT_FALSE(ini_exists);
}

TEST_F(ImGuiLayerTest, NothingCapturedWithoutTheMouseOverAWindow) {
  frame_with_probe_window();
  const engine::InputCapture capture = layer_.capture();
  EXPECT_FALSE(capture.mouse);
  EXPECT_FALSE(capture.keyboard);
}

TEST_F(ImGuiLayerTest, RestartsCleanlyAndRefusesAMissingWindow) {
  layer_.shutdown();
  EXPECT_FALSE(layer_.active());
  EXPECT_FALSE(layer_.init(nullptr, nullptr));
  ASSERT_TRUE(layer_.init(window_.sdl_window(), window_.gl_context()));
  frame_with_probe_window();
  EXPECT_TRUE(layer_.active());
}

TEST(ImGuiCapture, NoContextMeansNoCapture) {
  ASSERT_EQ(ImGui::GetCurrentContext(), nullptr);
  const engine::InputCapture capture = engine::imgui_capture();
  EXPECT_FALSE(capture.mouse || capture.keyboard);
}

}  // namespace
