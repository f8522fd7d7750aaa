#pragma once
// engine::SpriteRenderer: draws a SpriteBatch as instanced quads. Per frame: one stream
// buffer is orphaned and mapped, the batch is counting-sorted by (layer, blend) straight
// into it, and each group in use is one glDrawArraysInstanced. Alpha groups use ordinary
// alpha blending, additive groups add their colour (overlaps get brighter).
// Needs a current GL 3.3 core context for everything but construction.
#include <engine/camera.hpp>
#include <engine/shader.hpp>
#include <engine/sprite_batch.hpp>
#include <engine/status.hpp>
#include <engine/texture_atlas.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace engine {

struct RenderCounters {
  std::uint32_t draw_calls = 0;  // one per (layer, blend) group in use
  std::uint32_t sprites = 0;     // instances drawn
};

class SpriteRenderer {
 public:
  SpriteRenderer() = default;
  ~SpriteRenderer();                                    // shutdown()
  SpriteRenderer(const SpriteRenderer&) = delete;
  SpriteRenderer& operator=(const SpriteRenderer&) = delete;

  // Builds GL objects and the program from <shader_dir>/sprite.vert and sprite.frag, and
  // starts with the built-in atlas. On failure nothing is left allocated.
  Status init(const std::string& shader_dir);
  // Replaces the atlas with a PNG of cell_px cells; on failure the current atlas stays.
  Status load_atlas(const std::string& png_path, int cell_px);
  Status use_builtin_atlas(int cell_px = 32);
  // Sets the viewport to the framebuffer and draws the batch with the camera. Does not clear.
  // Same as upload(batch) then submit(camera, ...).
  RenderCounters draw(const SpriteBatch& batch, const Camera2D& camera, int framebuffer_width,
                      int framebuffer_height);
  // The two halves of draw(), separately measurable: upload() sorts the batch into a fresh
  // stream buffer (returns the sprites uploaded); submit() issues one draw call per group.
  std::size_t upload(const SpriteBatch& batch);
  RenderCounters submit(const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  void shutdown() noexcept;

  bool ready() const noexcept { return vao_ != 0 && program_.id() != 0; }
  const TextureAtlas& atlas() const noexcept { return atlas_; }
  RenderCounters last_counters() const noexcept { return last_; }
  std::size_t buffer_capacity() const noexcept { return capacity_; }  // sprites the GPU buffer holds

 private:
  void bind_instances(std::uint32_t first_sprite) const noexcept;

  ShaderProgram program_;
  TextureAtlas atlas_;
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  std::size_t capacity_ = 0;                 // in sprites
  int u_view_ = -1, u_atlas_ = -1, u_texture_ = -1;
  SpriteGroups groups_{};
  std::vector<Sprite> fallback_;             // only if the driver refuses to map the buffer
  RenderCounters last_{};
};

}  // namespace engine
