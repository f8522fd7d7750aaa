#version 330 core
// RenderPath::fast composite: one quad over the part of the window the CPU stamped into.
// No vertex buffer: the corners come from gl_VertexID (triangle strip).
uniform vec4 u_rect;  // x0, y0, x1, y1 in NDC

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
}
