#pragma once
// The frame's camera, computed once at the top of the frame (GameApp::place_camera), before
// the steps map the mouse through it and before render draws with it: data flows one way,
// input -> sim -> render, and nothing render writes is read by the next frame's input.
// The playfield is the window less the docked overlay panel; the whole world shows in the part
// of it below the score line, centred, as large as it fits, inside a drawn edge. The camera still spans the whole
// window (its viewport is the window), so a window pixel maps to the world the same way for the mouse and the sprites;
// render clips the sprites to the world's own rectangle, so nothing (a star, a puff of smoke)
// draws past the edge where bullets leave the world.
#include "overlay/overlay_graph.hpp"
#include "sim/rect.hpp"

#include <engine/camera.hpp>

#include <glm/vec2.hpp>

namespace game {

// The window rectangle the world is drawn into: the window less `panel_width` at the right.
ScreenRect playfield_rect(glm::ivec2 window_size, float panel_width) noexcept;

// The part of the playfield the world is fitted into: all of it below `hud_bottom` (the score
// line's lower edge plus a gap), so no object ever draws under the HUD.
ScreenRect world_area(const ScreenRect& playfield, float hud_bottom) noexcept;

// The camera that shows all of `world` inside `area`, in a window of `window_size`.
engine::Camera2D fit_camera(glm::ivec2 window_size, const ScreenRect& area, const Rect& world) noexcept;

// Where `world` lands in the window through `camera`: the drawn edge, and the sprites' clip.
ScreenRect world_on_screen(const engine::Camera2D& camera, const Rect& world) noexcept;

}  // namespace game
