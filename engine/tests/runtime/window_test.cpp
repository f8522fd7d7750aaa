#include <engine/window.hpp>

#include "../../src/x11_window.hpp"  // the runtime's internal: the X server's own window size
#include "gl_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

using engine::VideoEnvironment;
using engine::VideoProblem;

VideoEnvironment env(const char* requested, const char* display, const char* wayland, const char* in_use,
                     bool offscreen_requested = false) {
  VideoEnvironment e;
  e.requested_driver = requested;
  e.display = display;
  e.wayland_display = wayland;
  e.driver_in_use = in_use;
  e.offscreen_requested = offscreen_requested;
  return e;
}

TEST(DiagnoseVideo, NoDisplayAndNothingRequestedIsNoDisplay) {
  EXPECT_EQ(engine::diagnose_video(env(nullptr, nullptr, nullptr, nullptr)), VideoProblem::no_display);
  EXPECT_EQ(engine::diagnose_video(env("", "", "", nullptr)), VideoProblem::no_display);  // set but empty
}

TEST(DiagnoseVideo, AnX11OrWaylandDisplayIsEnough) {
  EXPECT_EQ(engine::diagnose_video(env(nullptr, ":0", nullptr, nullptr)), VideoProblem::none);
  EXPECT_EQ(engine::diagnose_video(env(nullptr, nullptr, "wayland-0", nullptr)), VideoProblem::none);
  EXPECT_EQ(engine::diagnose_video(env(nullptr, ":0", nullptr, "x11")), VideoProblem::none);
}

TEST(DiagnoseVideo, SilentOffscreenFallbackCountsAsNoDisplay) {
  // SDL 2.26 picked offscreen by itself (DISPLAY set but dead, say): the user asked for a window.
  EXPECT_EQ(engine::diagnose_video(env(nullptr, ":99", nullptr, "offscreen")), VideoProblem::no_display);
  EXPECT_EQ(engine::diagnose_video(env(nullptr, nullptr, nullptr, "offscreen")), VideoProblem::no_display);
}

TEST(DiagnoseVideo, OffscreenAskedForIsFine) {
  EXPECT_EQ(engine::diagnose_video(env("offscreen", nullptr, nullptr, nullptr)), VideoProblem::none);
  EXPECT_EQ(engine::diagnose_video(env("offscreen", nullptr, nullptr, "offscreen")), VideoProblem::none);
  EXPECT_EQ(engine::diagnose_video(env(nullptr, nullptr, nullptr, "offscreen", true)), VideoProblem::none);
  EXPECT_EQ(engine::diagnose_video(env(nullptr, nullptr, nullptr, nullptr, true)), VideoProblem::none);
}

TEST(DiagnoseVideo, DummyDriverHasNoGl) {
  EXPECT_EQ(engine::diagnose_video(env("dummy", nullptr, nullptr, nullptr)), VideoProblem::driver_without_gl);
  EXPECT_EQ(engine::diagnose_video(env("dummy", ":0", nullptr, "dummy")), VideoProblem::driver_without_gl);
}

TEST(DiagnoseVideo, AnExplicitDriverIsLeftToSdl) {
  // kmsdrm on a console has no DISPLAY; the user chose it, SDL will say if it fails.
  EXPECT_EQ(engine::diagnose_video(env("kmsdrm", nullptr, nullptr, nullptr)), VideoProblem::none);
}

TEST(DiagnoseVideo, MessagesSayWhatToDoOnOneLine) {
  const std::string none_msg =
      engine::describe_video_problem(VideoProblem::no_display, env(nullptr, nullptr, nullptr, nullptr));
  EXPECT_NE(none_msg.find("no display found; run with --headless"), std::string::npos) << none_msg;
  EXPECT_NE(none_msg.find("SDL_VIDEODRIVER=offscreen"), std::string::npos);
  EXPECT_EQ(none_msg.find('\n'), std::string::npos);
  const std::string fallback =
      engine::describe_video_problem(VideoProblem::no_display, env(nullptr, nullptr, nullptr, "offscreen"));
  EXPECT_NE(fallback.find("fell back to 'offscreen'"), std::string::npos) << fallback;
  const std::string dummy =
      engine::describe_video_problem(VideoProblem::driver_without_gl, env("dummy", nullptr, nullptr, nullptr));
  EXPECT_NE(dummy.find("'dummy'"), std::string::npos) << dummy;
  EXPECT_NE(dummy.find("--headless"), std::string::npos);
}

TEST(Window, NoDisplayIsAnErrorNotACrash) {
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  unsetenv("SDL_VIDEODRIVER");
  engine::Window window;
  const engine::Status s = window.open(engine::WindowConfig{});
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("no display found"), std::string::npos) << s.message();
  EXPECT_FALSE(window.is_open());
  EXPECT_EQ(SDL_WasInit(SDL_INIT_VIDEO), 0u);  // decided before SDL video even started
}

TEST(Window, DummyDriverIsAnErrorNotACrash) {
  setenv("SDL_VIDEODRIVER", "dummy", 1);
  engine::Window window;
  const engine::Status s = window.open(engine::WindowConfig{});
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("'dummy'"), std::string::npos) << s.message();
  EXPECT_FALSE(window.is_open());
  unsetenv("SDL_VIDEODRIVER");
}

TEST(Window, OffscreenGivesARealGlContext) {
  engine::Window window;
  POOLSHOT_REQUIRE_GL(window, 320, 200);
  EXPECT_TRUE(window.is_open());
  EXPECT_EQ(window.video_driver(), "offscreen");
  EXPECT_FALSE(window.gl_renderer().empty());
  EXPECT_FALSE(window.gl_version().empty());
  EXPECT_EQ(window.drawable_size(), glm::ivec2(320, 200));
  EXPECT_EQ(window.window_size(), glm::ivec2(320, 200));
  window.set_vsync(false);  // whatever the driver says, this must not fail or crash
  window.set_vsync(true);
  window.toggle_fullscreen();
  window.toggle_fullscreen();
  window.swap();
  window.close();
  EXPECT_FALSE(window.is_open());
  EXPECT_EQ(SDL_WasInit(SDL_INIT_VIDEO), 0u);  // closing gives SDL video back
  SDL_Quit();
}

// Desktop fullscreen takes the display's size and gives the window's back, offscreen too.
TEST(Window, FullscreenTakesTheDisplaysSizeAndLeavingGivesItBack) {
  engine::Window window;
  POOLSHOT_REQUIRE_GL(window, 320, 200);
  SDL_Rect display{};
  ASSERT_EQ(SDL_GetDisplayBounds(SDL_GetWindowDisplayIndex(window.sdl_window()), &display), 0) << SDL_GetError();
  window.set_fullscreen(true);
  EXPECT_TRUE(window.fullscreen());
  EXPECT_EQ(window.window_size(), glm::ivec2(display.w, display.h));
  EXPECT_EQ(window.drawable_size(), glm::ivec2(display.w, display.h));
  window.set_fullscreen(false);
  EXPECT_FALSE(window.fullscreen());
  EXPECT_EQ(window.window_size(), glm::ivec2(320, 200));
  EXPECT_EQ(window.drawable_size(), glm::ivec2(320, 200));
  window.close();
  SDL_Quit();
}

// On an X server, what the server itself says: the window covers the display after
// set_fullscreen(true) whether a window manager granted it or nobody did (bare Xvfb: SDL sets
// its flag and reports the display's size while the window keeps its own; the fallback resizes
// it), and leaving restores its size. Needs DISPLAY (e.g. Xvfb :77): skipped without one.
TEST(Window, FullscreenOnAnXServerCoversTheDisplayWithOrWithoutAWindowManager) {
  const char* display_name = std::getenv("DISPLAY");
  const char* driver = std::getenv("SDL_VIDEODRIVER");
  if (display_name == nullptr || display_name[0] == '\0' || (driver != nullptr && std::string(driver) != "x11"))
    GTEST_SKIP() << "no X display (set DISPLAY, e.g. to an Xvfb)";
  engine::WindowConfig config;
  config.width = 400;
  config.height = 300;
  config.vsync = false;
  engine::Window window;
  if (const engine::Status s = window.open(config); !s) GTEST_SKIP() << s.message();
  SDL_Rect display{};
  ASSERT_EQ(SDL_GetDisplayBounds(SDL_GetWindowDisplayIndex(window.sdl_window()), &display), 0) << SDL_GetError();
  int w = 0, h = 0;
  ASSERT_TRUE(engine::detail::x11_window_size(window.sdl_window(), w, h));
  EXPECT_EQ(glm::ivec2(w, h), glm::ivec2(400, 300));
  window.set_fullscreen(true);
  EXPECT_TRUE(window.fullscreen());
  ASSERT_TRUE(engine::detail::x11_window_size(window.sdl_window(), w, h));
  EXPECT_EQ(glm::ivec2(w, h), glm::ivec2(display.w, display.h)) << "the X server's own size of the window";
  EXPECT_EQ(window.drawable_size(), glm::ivec2(display.w, display.h));
  window.set_fullscreen(false);
  EXPECT_FALSE(window.fullscreen());
  ASSERT_TRUE(engine::detail::x11_window_size(window.sdl_window(), w, h));
  EXPECT_EQ(glm::ivec2(w, h), glm::ivec2(400, 300));
  EXPECT_EQ(window.drawable_size(), glm::ivec2(400, 300));
  window.close();
  SDL_Quit();
}

TEST(Window, OffscreenByConfigWithoutTheEnvironmentVariable) {
  unsetenv("SDL_VIDEODRIVER");
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  engine::WindowConfig config;
  config.offscreen = true;
  config.width = 64;
  config.height = 48;
  engine::Window window;
  const engine::Status s = window.open(config);
  if (!s) GTEST_SKIP() << "no GL context can be created here: " << s.message();
  EXPECT_EQ(window.video_driver(), "offscreen");
  window.close();
  SDL_Quit();
}

}  // namespace
