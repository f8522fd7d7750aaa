#version 330 core
// One instanced quad per engine::Sprite; the four corners come from gl_VertexID, so no
// per-vertex buffer exists. Instance attributes mirror the 32-byte Sprite layout.
layout(location = 0) in vec4 a_rect;      // centre x, y, width, height (world units)
layout(location = 1) in float a_rotation; // radians, counter-clockwise (world y is up)
layout(location = 2) in vec4 a_color;     // RGBA8 tint, normalised
layout(location = 3) in uint a_cell;      // atlas cell, row-major from the top-left

uniform vec4 u_view;   // ndc = world * u_view.xy + u_view.zw
uniform vec4 u_atlas;  // columns, rows, half a texel in u, half a texel in v

out vec2 v_uv;
out vec4 v_color;

void main() {
  // Triangle strip: (-,-) (+,-) (-,+) (+,+)
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) - 0.5;
  vec2 local = corner * a_rect.zw;
  float c = cos(a_rotation);
  float s = sin(a_rotation);
  vec2 world = a_rect.xy + vec2(c * local.x - s * local.y, s * local.x + c * local.y);
  gl_Position = vec4(world * u_view.xy + u_view.zw, 0.0, 1.0);

  uint columns = max(uint(u_atlas.x), 1u);
  uint cells = columns * max(uint(u_atlas.y), 1u);
  uint cell = a_cell % cells;  // an out-of-range cell wraps instead of sampling outside
  vec2 cell_origin = vec2(float(cell % columns), float(cell / columns)) / u_atlas.xy;
  vec2 cell_size = 1.0 / u_atlas.xy;
  // Image top (v = 0) is the sprite's top, which is +y in the world.
  vec2 t = vec2(corner.x + 0.5, 0.5 - corner.y);
  vec2 lo = cell_origin + u_atlas.zw;             // half-texel inset: linear filtering
  vec2 hi = cell_origin + cell_size - u_atlas.zw; // never reads a neighbouring cell
  v_uv = mix(lo, hi, t);
  v_color = a_color;
}
