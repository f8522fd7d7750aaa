#include <engine/camera.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

engine::Camera2D camera_800x600() {
  engine::Camera2D camera;
  camera.viewport = {800.0f, 600.0f};
  return camera;
}

TEST(Camera2D, CentreOfTheWorldIsTheCentreOfTheWindow) {
  const engine::Camera2D camera = camera_800x600();
  const glm::vec2 s = camera.world_to_screen({0.0f, 0.0f});
  EXPECT_FLOAT_EQ(s.x, 400.0f);
  EXPECT_FLOAT_EQ(s.y, 300.0f);
}

TEST(Camera2D, WorldYIsUpScreenYIsDown) {
  const engine::Camera2D camera = camera_800x600();
  const glm::vec2 above = camera.world_to_screen({0.0f, 100.0f});
  EXPECT_FLOAT_EQ(above.y, 200.0f);  // higher in the world = nearer the top of the window
  const glm::vec2 top_left = camera.screen_to_world({0.0f, 0.0f});
  EXPECT_FLOAT_EQ(top_left.x, -400.0f);
  EXPECT_FLOAT_EQ(top_left.y, 300.0f);
}

TEST(Camera2D, ZoomIsPixelsPerWorldUnit) {
  engine::Camera2D camera = camera_800x600();
  camera.center = {1000.0f, -50.0f};
  camera.zoom = 2.0f;
  const glm::vec2 s = camera.world_to_screen({1010.0f, -50.0f});
  EXPECT_FLOAT_EQ(s.x, 420.0f);
  EXPECT_FLOAT_EQ(camera.visible_extent().x, 400.0f);
  EXPECT_FLOAT_EQ(camera.visible_extent().y, 300.0f);
}

TEST(Camera2D, ScreenToWorldInvertsWorldToScreen) {
  engine::Camera2D camera = camera_800x600();
  camera.center = {12.5f, 7.25f};
  camera.zoom = 0.5f;
  for (const glm::vec2 w : {glm::vec2{0, 0}, glm::vec2{-300, 42}, glm::vec2{1234.5f, -77.0f}}) {
    const glm::vec2 back = camera.screen_to_world(camera.world_to_screen(w));
    EXPECT_NEAR(back.x, w.x, 1e-3f);
    EXPECT_NEAR(back.y, w.y, 1e-3f);
  }
}

TEST(Camera2D, NdcTransformMapsTheVisibleRectangleToMinusOneOne) {
  engine::Camera2D camera = camera_800x600();
  camera.center = {100.0f, 50.0f};
  const glm::vec4 t = camera.ndc_transform();
  auto ndc = [&t](glm::vec2 w) { return glm::vec2{w.x * t.x + t.z, w.y * t.y + t.w}; };
  EXPECT_NEAR(ndc({100.0f, 50.0f}).x, 0.0f, 1e-6f);
  EXPECT_NEAR(ndc({500.0f, 50.0f}).x, 1.0f, 1e-6f);   // right edge
  EXPECT_NEAR(ndc({100.0f, 350.0f}).y, 1.0f, 1e-6f);  // top edge: world y up = NDC y up
  EXPECT_NEAR(ndc({100.0f, -250.0f}).y, -1.0f, 1e-6f);
}

TEST(Camera2D, DegenerateZoomAndViewportStayFinite) {
  engine::Camera2D camera;
  camera.zoom = 0.0f;
  camera.viewport = {0.0f, 0.0f};
  const glm::vec2 w = camera.screen_to_world({10.0f, 10.0f});
  EXPECT_TRUE(std::isfinite(w.x) && std::isfinite(w.y));
  const glm::vec4 t = camera.ndc_transform();
  EXPECT_TRUE(std::isfinite(t.x) && std::isfinite(t.y));
}

}  // namespace
