#pragma once
// engine::Camera2D: which part of the world the window shows.
// World axes: x right, y UP (mathematical, so Sprite::rotation is counter-clockwise on
// screen). One world unit is one window pixel at zoom 1. Screen coordinates (mouse, window
// size) are the usual window pixels: origin top-left, y DOWN. The camera is the only place
// that flips between the two.
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

namespace engine {

struct Camera2D {
  glm::vec2 center{0.0f, 0.0f};         // world point shown at the middle of the window
  float zoom = 1.0f;                    // window pixels per world unit (> 0)
  glm::vec2 viewport{1280.0f, 720.0f};  // window size in pixels; the runtime sets it each frame

  glm::vec2 world_to_screen(glm::vec2 world) const noexcept;
  glm::vec2 screen_to_world(glm::vec2 screen) const noexcept;
  // ndc = world * xy + zw: what the sprite shader needs, one vec4 uniform.
  glm::vec4 ndc_transform() const noexcept;
  // World-space size of the viewport (width, height) at the current zoom.
  glm::vec2 visible_extent() const noexcept;
};

}  // namespace engine
