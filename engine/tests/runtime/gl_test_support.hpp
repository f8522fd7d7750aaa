#pragma once
// Shared by the GL tests: an offscreen window with a real GL 3.3 core context (Mesa
// llvmpipe through EGL, no X server), and small pixel helpers. A test skips only when no
// GL context can be created at all, and says why.
#include <engine/image.hpp>
#include <engine/window.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace test_support {

inline void use_offscreen_video() { setenv("SDL_VIDEODRIVER", "offscreen", 1); }

// Opens an offscreen window; on failure the caller should GTEST_SKIP() with the returned reason.
inline std::string open_offscreen(engine::Window& window, int width = 320, int height = 240) {
  use_offscreen_video();
  engine::WindowConfig config;
  config.title = "poolshot test";
  config.width = width;
  config.height = height;
  config.offscreen = true;
  config.vsync = false;
  const engine::Status s = window.open(config);
  return s ? std::string() : "no GL context can be created here: " + s.message();
}

// Opens `window` offscreen at width x height, or skips the test with the reason.
#define POOLSHOT_REQUIRE_GL(window, width, height)                                              \
  do {                                                                                          \
    const std::string poolshot_gl_reason = test_support::open_offscreen(window, width, height); \
    if (!poolshot_gl_reason.empty()) GTEST_SKIP() << poolshot_gl_reason;                        \
  } while (0)

// A fixture for tests that need nothing but a current GL context: a Width x Height offscreen
// window per test (or a skip that says why there is none), then the window closed and SDL
// shut down, so each test starts from a clean video subsystem.
template <int Width, int Height>
class OffscreenWindowTest : public testing::Test {
 protected:
  void SetUp() override { POOLSHOT_REQUIRE_GL(window_, Width, Height); }
  void TearDown() override {
    window_.close();
    SDL_Quit();
  }
  engine::Window window_;
};

// The repo's assets: from POOLSHOT_SOURCE_DIR when ctest sets it (the tree being tested),
// else the path compiled into the runtime library.
inline std::string asset_dir() {
  const char* src = std::getenv("POOLSHOT_SOURCE_DIR");
  return src != nullptr ? std::string(src) + "/assets" : std::string(POOLSHOT_ASSET_DIR);
}

struct Rgb {
  int r, g, b;
};
inline Rgb rgb_at(const engine::Image& image, int x, int y) {
  const std::uint32_t p = image.pixel(x, y);
  return {static_cast<int>(p & 0xffu), static_cast<int>((p >> 8) & 0xffu), static_cast<int>((p >> 16) & 0xffu)};
}
inline bool near(Rgb a, Rgb b, int tolerance = 2) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance;
}
inline std::string to_string(Rgb c) {
  return "(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

// A per-test scratch path under the build's temp dir.
inline std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string prefix = info != nullptr ? std::string(info->test_suite_name()) + "_" + info->name() + "_" : "";
  std::replace(prefix.begin(), prefix.end(), '/', '_');  // parameterised tests: "Suite/Test/param"
  return std::string(dir != nullptr ? dir : "/tmp") + "/poolshot_" + prefix + name;
}

// Solid-colour cells side by side, for atlas tests: cell i has colours[i].
inline engine::Image solid_cells(int cell_px, std::initializer_list<std::uint32_t> colours) {
  engine::Image img;
  img.width = cell_px * static_cast<int>(colours.size());
  img.height = cell_px;
  img.rgba.resize(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 4);
  int cell = 0;
  for (std::uint32_t c : colours) {
    for (int y = 0; y < cell_px; ++y) {
      for (int x = 0; x < cell_px; ++x) {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                               static_cast<std::size_t>(cell * cell_px + x)) *
                              4;
        img.rgba[i + 0] = static_cast<std::uint8_t>(c & 0xffu);
        img.rgba[i + 1] = static_cast<std::uint8_t>((c >> 8) & 0xffu);
        img.rgba[i + 2] = static_cast<std::uint8_t>((c >> 16) & 0xffu);
        img.rgba[i + 3] = static_cast<std::uint8_t>((c >> 24) & 0xffu);
      }
    }
    ++cell;
  }
  return img;
}

}  // namespace test_support
