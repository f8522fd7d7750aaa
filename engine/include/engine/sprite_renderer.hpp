#pragma once
// engine::SpriteRenderer: draws a SpriteBatch. Alpha groups use ordinary alpha blending,
// additive groups add their colour (overlaps get brighter). Two paths, same picture:
//   instanced  one stream buffer is orphaned and mapped, the batch is counting-sorted by
//              (layer, blend) straight into it, and each group in use is one
//              glDrawArraysInstanced. Cheap on a real GPU; on software GL (llvmpipe) each
//              quad costs ~1 us of CPU, 200k sprites ~200 ms.
//   fast       sprites at most detail::splat_max_pixels long on screen are stamped on the CPU
//              into an RGBA8 image (see detail/sprite_splat.hpp) that is drawn as one quad;
//              larger ones stay instanced quads. Consecutive additive groups share one image
//              (addition commutes); an alpha group's small sprites are composited over its
//              large ones, and stamp over the additive image before them when nothing was
//              drawn in between (one image, drawn as "over"). A large image's sprites are
//              queued, binned and stamped by two threads (the renderer's WorkerTeam). On
//              llvmpipe (2 cores), 200k sprites of the game's mix: 228 ms instanced, 17 ms
//              fast (BM_FrameSideBySide/200000; 300k: 332 vs 24 ms).
// Needs a current GL 3.3 core context for everything but construction.
#include <engine/camera.hpp>
#include <engine/detail/sprite_splat.hpp>
#include <engine/shader.hpp>
#include <engine/sprite_batch.hpp>
#include <engine/status.hpp>
#include <engine/texture_atlas.hpp>

#include <glm/vec4.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace engine {

enum class RenderPath : std::uint8_t {
  instanced = 0,  // every sprite an instanced quad
  fast = 1,       // small sprites stamped on the CPU into one image per run of groups
};
const char* render_path_name(RenderPath path) noexcept;  // "instanced" / "fast"

// Whether glGetString(GL_RENDERER) names a software rasteriser: Mesa's llvmpipe, softpipe or
// swrast (which calls itself "Software Rasterizer"), case-insensitive. nullptr: false.
bool is_software_renderer(const char* gl_renderer) noexcept;
// The path that suits the GL implementation named by glGetString(GL_RENDERER) (auto): software
// GL gets fast (an instanced quad costs ~1 us of CPU there), anything else, a GPU, instanced.
// nullptr or "" (GL did not say): fast, whose cost is bounded everywhere.
RenderPath choose_render_path(const char* gl_renderer) noexcept;

struct RenderCounters {
  std::uint32_t draw_calls = 0;  // GL draws: instanced, one per (layer, blend) group in use;
                                 // fast, one per group with large sprites + one per image
  std::uint32_t sprites = 0;     // sprites drawn, however they were drawn
  std::uint32_t splatted = 0;    // of those, stamped on the CPU (fast path only)
};

class SpriteRenderer {
 public:
  SpriteRenderer();
  ~SpriteRenderer();  // shutdown()
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
  RenderCounters draw(const SpriteBatch& batch, const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  // The halves of draw(), separately measurable: upload() sorts the batch into a fresh
  // stream buffer (returns the sprites uploaded); submit() issues one draw call per group.
  // prepare(), between them, does the fast path's CPU work (planning, stamping) and no drawing,
  // so a caller may run it while the driver still draws the previous frame; submit() prepares
  // an upload that was not prepared. The same camera and size go to both.
  std::size_t upload(const SpriteBatch& batch);
  void prepare(const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  RenderCounters submit(const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  void shutdown() noexcept;

  // Which path the next upload() (or draw()) takes; a batch already uploaded is submitted by
  // the path that uploaded it. Default: fast.
  void set_path(RenderPath path) noexcept { path_ = path; }
  // Sprites draw only inside this framebuffer rectangle (x, y from the bottom-left, width,
  // height); a zero width or height: the whole framebuffer. Scissor is off again after draw().
  void set_scissor(glm::ivec4 rect) noexcept { scissor_ = rect; }
  RenderPath path() const noexcept { return path_; }

  bool ready() const noexcept { return vao_ != 0 && program_.id() != 0; }
  const TextureAtlas& atlas() const noexcept { return atlas_; }
  RenderCounters last_counters() const noexcept { return last_; }
  std::size_t buffer_capacity() const noexcept { return capacity_; }  // sprites the GPU buffer holds

 private:
  // One GL step of the fast path's plan, in draw order.
  struct FastStep {
    bool composite = false;  // true: draw layers_[index]'s image; false: instanced sprites
    bool additive = false;
    std::uint32_t first = 0, count = 0;  // instanced: slice of large_; composite: count unused
    std::uint32_t index = 0;
  };
  struct SplatLayer {
    detail::SplatImage image;
    detail::SplatJob job;
    detail::SplatJob over;                   // alpha stamps laid over an additive job's image (a merged layer)
    std::vector<std::uint32_t> job_sprites;  // what plan_fast() queues into each: sorted_ indices
    std::vector<std::uint32_t> over_sprites;
    unsigned texture = 0;
  };

  bool has_work(int framebuffer_width, int framebuffer_height) const noexcept {  // sprites uploaded, somewhere to draw
    return ready() && groups_.used != 0 && framebuffer_width > 0 && framebuffer_height > 0;
  }
  void bind_instances(std::uint32_t first_sprite) const noexcept;
  std::size_t upload_instanced(const SpriteBatch& batch);
  std::size_t upload_fast(const SpriteBatch& batch);
  RenderCounters submit_instanced(const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  RenderCounters plan_fast(const Camera2D& camera, int framebuffer_width, int framebuffer_height);
  void draw_fast(const Camera2D& camera, int framebuffer_width, int framebuffer_height, RenderCounters& counters);
  void begin_draw_state(const Camera2D& camera, int framebuffer_width, int framebuffer_height) const noexcept;
  void set_blend(bool additive) const noexcept;
  void upload_large() noexcept;
  std::uint32_t open_layer(int width, int height, detail::SplatBlend blend);  // cleared, framebuffer-sized
  void upload_layer(SplatLayer& layer) const noexcept;
  void composite(const SplatLayer& layer, bool additive, int framebuffer_width, int framebuffer_height) const noexcept;
  void destroy_layers() noexcept;

  ShaderProgram program_;
  TextureAtlas atlas_;
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  std::size_t capacity_ = 0;  // in sprites
  int u_view_ = -1, u_atlas_ = -1, u_texture_ = -1;
  SpriteGroups groups_{};
  std::vector<Sprite> fallback_;  // only if the driver refuses to map the buffer
  RenderCounters last_{};

  // Fast path.
  RenderPath path_ = RenderPath::fast;
  glm::ivec4 scissor_{0, 0, 0, 0};
  RenderPath uploaded_path_ = RenderPath::instanced;  // which path owns groups_ now
  bool prepared_ = false;                             // prepare() ran since the last upload()
  RenderCounters planned_{};                          // what prepare() planned (fast path)
  ShaderProgram splat_program_;
  int u_splat_rect_ = -1, u_splat_image_ = -1;
  unsigned splat_vao_ = 0;      // no attributes: the composite quad is gl_VertexID
  std::vector<Sprite> sorted_;  // the uploaded batch, bucketed, on the CPU
  std::vector<Sprite> large_;   // this submit's instanced sprites, in draw order
  std::vector<FastStep> steps_;
  std::vector<SplatLayer> layers_;  // images in use this submit: the first layers_used_
  std::uint32_t layers_used_ = 0;
  detail::SpriteSplatter splatter_;   // stamps from atlas_.image(); reset with the atlas
  std::unique_ptr<WorkerTeam> team_;  // the splatter's second thread (init)
};

}  // namespace engine
