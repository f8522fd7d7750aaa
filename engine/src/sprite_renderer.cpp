#include <epoxy/gl.h>

#include <engine/sprite_renderer.hpp>

#include <engine/pool/worker_team.hpp>

#include <cstddef>
#include <string_view>
#include <system_error>

namespace engine {

namespace {

// Instance attribute offsets; sprite.vert's locations 0..3 follow the Sprite layout.
static_assert(offsetof(Sprite, x) == 0 && offsetof(Sprite, rotation) == 16 && offsetof(Sprite, color) == 20 &&
                  offsetof(Sprite, cell) == 24,
              "sprite.vert reads Sprite fields at these offsets");

const void* byte_offset(std::size_t bytes) noexcept {
  // GL takes buffer offsets as pointers; this is the one sanctioned conversion.
  return reinterpret_cast<const void*>(bytes);
}

// `lower` (lower-case ASCII) occurs in `text`, ignoring the case of `text`'s ASCII letters.
bool contains_ignoring_case(const char* text, std::string_view lower) noexcept {
  const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (; *text != '\0'; ++text) {
    std::size_t i = 0;
    while (i < lower.size() && text[i] != '\0' && fold(text[i]) == lower[i]) ++i;
    if (i == lower.size()) return true;
  }
  return false;
}

}  // namespace

SpriteRenderer::SpriteRenderer() = default;  // defined where WorkerTeam is a complete type
SpriteRenderer::~SpriteRenderer() { shutdown(); }

Status SpriteRenderer::init(const std::string& shader_dir) {
  shutdown();
  if (team_ == nullptr) {
    try {
      team_ = std::make_unique<WorkerTeam>(WorkerTeam::hardware_threads(2));
    } catch (const std::system_error&) {  // no thread to be had: the splatter works alone
    }
  }
  splatter_.set_team(team_.get());
  const std::string dir = shader_dir.empty() ? std::string(".") : shader_dir;
  if (Status s = program_.load(dir + "/sprite.vert", dir + "/sprite.frag"); !s) return s;
  u_view_ = program_.uniform("u_view");
  u_atlas_ = program_.uniform("u_atlas");
  u_texture_ = program_.uniform("u_texture");
  if (Status s = splat_program_.load(dir + "/splat.vert", dir + "/splat.frag"); !s) {
    shutdown();
    return s;
  }
  u_splat_rect_ = splat_program_.uniform("u_rect");
  u_splat_image_ = splat_program_.uniform("u_image");
  if (Status s = use_builtin_atlas(); !s) {
    shutdown();
    return s;
  }
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  for (GLuint location = 0; location < 4; ++location) {
    glEnableVertexAttribArray(location);
    glVertexAttribDivisor(location, 1);  // every attribute is per instance
  }
  glGenVertexArrays(1, &splat_vao_);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return Status::ok();
}

Status SpriteRenderer::load_atlas(const std::string& png_path, int cell_px) {
  TextureAtlas next;
  if (Status s = next.load(png_path, cell_px); !s) return s;
  atlas_ = std::move(next);
  splatter_.set_atlas(&atlas_.image(), atlas_.columns(), atlas_.rows());
  return Status::ok();
}

Status SpriteRenderer::use_builtin_atlas(int cell_px) {
  TextureAtlas next;
  if (Status s = next.create(make_builtin_atlas_image(cell_px), cell_px, "<built-in>"); !s) return s;
  atlas_ = std::move(next);
  splatter_.set_atlas(&atlas_.image(), atlas_.columns(), atlas_.rows());
  return Status::ok();
}

void SpriteRenderer::shutdown() noexcept {
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  if (splat_vao_ != 0) glDeleteVertexArrays(1, &splat_vao_);
  vbo_ = vao_ = splat_vao_ = 0;
  capacity_ = 0;
  destroy_layers();
  program_.destroy();
  splat_program_.destroy();
  atlas_.destroy();
  splatter_.set_atlas(nullptr, 1, 1);
  groups_.count.fill(0);
  groups_.used = 0;
  last_ = {};
}

const char* render_path_name(RenderPath path) noexcept {
  switch (path) {
    case RenderPath::instanced:
      return "instanced";
    case RenderPath::fast:
      return "fast";
  }
  return "?";
}

bool is_software_renderer(const char* gl_renderer) noexcept {
  if (gl_renderer == nullptr) return false;
  // "Software Rasterizer" is what Mesa's classic swrast driver calls itself.
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "software rasterizer"}) {
    if (contains_ignoring_case(gl_renderer, name)) return true;
  }
  return false;
}

RenderPath choose_render_path(const char* gl_renderer) noexcept {
  if (gl_renderer == nullptr || gl_renderer[0] == '\0') return RenderPath::fast;
  return is_software_renderer(gl_renderer) ? RenderPath::fast : RenderPath::instanced;
}

void SpriteRenderer::bind_instances(std::uint32_t first_sprite) const noexcept {
  // GL 3.3 has no base-instance draw, so each group re-points the attributes at its slice.
  const std::size_t base = std::size_t{first_sprite} * sizeof(Sprite);
  constexpr auto stride = static_cast<GLsizei>(sizeof(Sprite));
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, byte_offset(base + offsetof(Sprite, x)));
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, stride, byte_offset(base + offsetof(Sprite, rotation)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, byte_offset(base + offsetof(Sprite, color)));
  glVertexAttribIPointer(3, 1, GL_UNSIGNED_SHORT, stride, byte_offset(base + offsetof(Sprite, cell)));
}

RenderCounters SpriteRenderer::draw(const SpriteBatch& batch, const Camera2D& camera, int framebuffer_width,
                                    int framebuffer_height) {
  upload(batch);
  return submit(camera, framebuffer_width, framebuffer_height);
}

std::size_t SpriteRenderer::upload(const SpriteBatch& batch) {
  groups_.count.fill(0);
  groups_.used = 0;
  uploaded_path_ = path_;
  prepared_ = false;
  if (!ready() || batch.empty()) return 0;
  return path_ == RenderPath::fast ? upload_fast(batch) : upload_instanced(batch);
}

void SpriteRenderer::prepare(const Camera2D& camera, int framebuffer_width, int framebuffer_height) {
  if (prepared_) return;
  prepared_ = true;
  planned_ = {};
  if (has_work(framebuffer_width, framebuffer_height) && uploaded_path_ == RenderPath::fast)
    planned_ = plan_fast(camera, framebuffer_width, framebuffer_height);
}

RenderCounters SpriteRenderer::submit(const Camera2D& camera, int framebuffer_width, int framebuffer_height) {
  prepare(camera, framebuffer_width, framebuffer_height);
  prepared_ = false;  // a second submit() of the same upload plans again
  last_ = {};
  if (!has_work(framebuffer_width, framebuffer_height)) return last_;
  if (uploaded_path_ == RenderPath::fast) {
    last_ = planned_;
    draw_fast(camera, framebuffer_width, framebuffer_height, last_);
  } else {
    last_ = submit_instanced(camera, framebuffer_width, framebuffer_height);
  }
  glDisable(GL_SCISSOR_TEST);  // what comes next (the overlay, the next clear) sees the whole framebuffer
  return last_;
}

void SpriteRenderer::begin_draw_state(const Camera2D& camera, int framebuffer_width,
                                      int framebuffer_height) const noexcept {
  glViewport(0, 0, framebuffer_width, framebuffer_height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  if (scissor_.z > 0 && scissor_.w > 0) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(scissor_.x, scissor_.y, scissor_.z, scissor_.w);
  } else {
    glDisable(GL_SCISSOR_TEST);
  }
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glUseProgram(program_.id());
  const glm::vec4 view = camera.ndc_transform();
  glUniform4f(u_view_, view.x, view.y, view.z, view.w);
  glUniform4f(u_atlas_, static_cast<float>(atlas_.columns()), static_cast<float>(atlas_.rows()),
              0.5f / static_cast<float>(atlas_.width()), 0.5f / static_cast<float>(atlas_.height()));
  glUniform1i(u_texture_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, atlas_.texture());
}

void SpriteRenderer::set_blend(bool additive) const noexcept {
  if (additive) {
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ZERO, GL_ONE);
  } else {
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  }
}

std::size_t SpriteRenderer::upload_instanced(const SpriteBatch& batch) {
  const std::size_t n = batch.size();
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  if (n > capacity_) {
    std::size_t grown = capacity_ == 0 ? 1024 : capacity_;
    while (grown < n) grown *= 2;
    capacity_ = grown;
  }
  const auto bytes = static_cast<GLsizeiptr>(capacity_ * sizeof(Sprite));
  // Orphan: the driver hands out fresh storage while the GPU may still read last frame's.
  glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
  void* mapped = glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(Sprite)),
                                  GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
  if (mapped != nullptr) {
    // The counting sort writes straight into GPU-visible memory: no staging copy.
    bucket_sprites(batch.data(), n, static_cast<Sprite*>(mapped), groups_);
    if (glUnmapBuffer(GL_ARRAY_BUFFER) != GL_TRUE) {  // storage lost (rare): draw nothing this frame
      groups_.count.fill(0);
      groups_.used = 0;
    }
  } else {
    fallback_.resize(n);
    bucket_sprites(batch.data(), n, fallback_.data(), groups_);
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(n * sizeof(Sprite)), fallback_.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return groups_.used != 0 ? n : 0;
}

RenderCounters SpriteRenderer::submit_instanced(const Camera2D& camera, int framebuffer_width, int framebuffer_height) {
  RenderCounters counters;
  begin_draw_state(camera, framebuffer_width, framebuffer_height);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);  // attribute pointers below refer to this buffer

  int current_blend = -1;
  for (std::size_t g = 0; g < sprite_group_count; ++g) {
    const std::uint32_t count = groups_.count[g];
    if (count == 0) continue;
    const int additive = static_cast<int>(g & 1u);
    if (additive != current_blend) {
      set_blend(additive != 0);
      current_blend = additive;
    }
    bind_instances(groups_.first[g]);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(count));
    ++counters.draw_calls;
    counters.sprites += count;
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glUseProgram(0);
  return counters;
}

}  // namespace engine
