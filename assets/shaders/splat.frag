#version 330 core
// The stamped image is the framebuffer's size and orientation: texel (x, y) belongs to the
// fragment at (x + 0.5, y + 0.5), so it is fetched, never filtered. Premultiplied RGBA; the
// renderer's blend state decides between add and over.
uniform sampler2D u_image;

out vec4 frag_color;

void main() {
  frag_color = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0);
}
