#include "app/frame_camera.hpp"

#include <algorithm>

namespace game {

ScreenRect playfield_rect(glm::ivec2 window_size, float panel_width) noexcept {
  const float window_w = static_cast<float>(window_size.x), window_h = static_cast<float>(window_size.y);
  return {0, 0, std::max(1.0f, window_w - panel_width), std::max(1.0f, window_h)};
}

ScreenRect world_area(const ScreenRect& playfield, float hud_bottom) noexcept {
  const float top = std::clamp(hud_bottom, playfield.y0, playfield.y1 - 1);
  return {playfield.x0, top, playfield.x1, playfield.y1};
}

ScreenRect world_on_screen(const engine::Camera2D& camera, const Rect& world) noexcept {
  const glm::vec2 a = camera.world_to_screen({world.min.x, world.max.y});  // top left (screen y down)
  const glm::vec2 b = camera.world_to_screen({world.max.x, world.min.y});  // bottom right
  return {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}

engine::Camera2D fit_camera(glm::ivec2 window_size, const ScreenRect& playfield, const Rect& world) noexcept {
  engine::Camera2D camera;
  camera.viewport = {static_cast<float>(std::max(window_size.x, 1)), static_cast<float>(std::max(window_size.y, 1))};
  const float w = world.max.x - world.min.x, h = world.max.y - world.min.y;
  const float zoom = std::max(0.01f, std::min((playfield.x1 - playfield.x0) / w, (playfield.y1 - playfield.y0) / h));
  const float shift_x = (playfield.x0 + playfield.x1) / 2 - camera.viewport.x / 2;  // playfield centre
  const float shift_y = (playfield.y0 + playfield.y1) / 2 - camera.viewport.y / 2;  // minus window centre
  camera.zoom = zoom;
  camera.center = {world.min.x + w / 2 - shift_x / zoom, world.min.y + h / 2 + shift_y / zoom};
  return camera;
}

}  // namespace game
