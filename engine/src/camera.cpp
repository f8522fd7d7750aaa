#include <engine/camera.hpp>

#include <algorithm>

namespace engine {

namespace {
// A zero zoom or an empty window (minimised) must not produce infinities downstream.
float safe_zoom(float zoom) { return zoom > 1e-6f ? zoom : 1e-6f; }
glm::vec2 safe_viewport(glm::vec2 v) { return {std::max(v.x, 1.0f), std::max(v.y, 1.0f)}; }
}  // namespace

glm::vec2 Camera2D::world_to_screen(glm::vec2 world) const noexcept {
  const float z = safe_zoom(zoom);
  const glm::vec2 half = safe_viewport(viewport) * 0.5f;
  return {half.x + (world.x - center.x) * z, half.y - (world.y - center.y) * z};
}

glm::vec2 Camera2D::screen_to_world(glm::vec2 screen) const noexcept {
  const float z = safe_zoom(zoom);
  const glm::vec2 half = safe_viewport(viewport) * 0.5f;
  return {center.x + (screen.x - half.x) / z, center.y - (screen.y - half.y) / z};
}

glm::vec4 Camera2D::ndc_transform() const noexcept {
  const float z = safe_zoom(zoom);
  const glm::vec2 v = safe_viewport(viewport);
  const float sx = 2.0f * z / v.x;
  const float sy = 2.0f * z / v.y;
  return {sx, sy, -center.x * sx, -center.y * sy};
}

glm::vec2 Camera2D::visible_extent() const noexcept { return safe_viewport(viewport) / safe_zoom(zoom); }

}  // namespace engine
