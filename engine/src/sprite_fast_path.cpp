// SpriteRenderer's RenderPath::fast: small sprites stamped on the CPU (detail::SpriteSplatter)
// into one image per run of groups that may share it, larger ones drawn as instanced quads.
#include <epoxy/gl.h>

#include <engine/sprite_renderer.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace engine {

namespace {

// Window pixels of a world point: px = world * scale + offset (the camera has no rotation).
struct PixelMapping {
  float sx = 0, sy = 0, ox = 0, oy = 0;
  bool splattable = false;  // uniform, positive scale: a rotation stays a rotation in pixels
};

PixelMapping pixel_mapping(const Camera2D& camera, int width, int height) noexcept {
  const glm::vec4 view = camera.ndc_transform();
  PixelMapping m;
  m.sx = view.x * static_cast<float>(width) * 0.5f;
  m.sy = view.y * static_cast<float>(height) * 0.5f;
  m.ox = (view.z + 1.0f) * static_cast<float>(width) * 0.5f;
  m.oy = (view.w + 1.0f) * static_cast<float>(height) * 0.5f;
  m.splattable = m.sx > 0 && m.sy > 0 && std::fabs(m.sx - m.sy) <= 1e-4f * m.sx;
  return m;
}

}  // namespace

std::size_t SpriteRenderer::upload_fast(const SpriteBatch& batch) {
  // The CPU keeps the sorted copy: which sprites are small is known only at submit (camera).
  const std::size_t n = batch.size();
  sorted_.resize(n);
  bucket_sprites(batch.data(), n, sorted_.data(), groups_);
  return groups_.used != 0 ? n : 0;
}

std::uint32_t SpriteRenderer::open_layer(int width, int height, detail::SplatBlend blend) {
  if (layers_used_ == layers_.size()) layers_.emplace_back();
  SplatLayer& layer = layers_[layers_used_];
  layer.job.clear(blend);
  layer.over.clear(detail::SplatBlend::over);
  layer.job_sprites.clear();
  layer.over_sprites.clear();
  if (layer.image.width != width || layer.image.height != height) {
    layer.image.resize(width, height);
    if (layer.texture == 0) glGenTextures(1, &layer.texture);
    glBindTexture(GL_TEXTURE_2D, layer.texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
  } else {
    layer.image.clear();
  }
  return layers_used_++;
}

void SpriteRenderer::upload_layer(SplatLayer& layer) const noexcept {
  const detail::SplatImage& img = layer.image;
  if (img.empty()) return;
  glBindTexture(GL_TEXTURE_2D, layer.texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, img.width);
  const std::uint32_t* first = img.pixels.data() +
                               static_cast<std::size_t>(img.y0) * static_cast<std::size_t>(img.width) +
                               static_cast<std::size_t>(img.x0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, img.x0, img.y0, img.x1 - img.x0, img.y1 - img.y0, GL_RGBA, GL_UNSIGNED_BYTE, first);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

void SpriteRenderer::composite(const SplatLayer& layer, bool additive, int framebuffer_width,
                               int framebuffer_height) const noexcept {
  const detail::SplatImage& img = layer.image;
  const auto ndc = [](int v, int size) { return static_cast<float>(v) / static_cast<float>(size) * 2.0f - 1.0f; };
  glUseProgram(splat_program_.id());
  glUniform4f(u_splat_rect_, ndc(img.x0, framebuffer_width), ndc(img.y0, framebuffer_height),
              ndc(img.x1, framebuffer_width), ndc(img.y1, framebuffer_height));
  glUniform1i(u_splat_image_, 0);
  glBindTexture(GL_TEXTURE_2D, layer.texture);
  if (additive) {
    glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE);  // = the sum of every sprite's SRC_ALPHA, ONE
  } else {
    glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied over
  }
  glBindVertexArray(splat_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void SpriteRenderer::upload_large() noexcept {
  if (large_.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  if (large_.size() > capacity_) {
    std::size_t grown = capacity_ == 0 ? 1024 : capacity_;
    while (grown < large_.size()) grown *= 2;
    capacity_ = grown;
  }
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_ * sizeof(Sprite)), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(large_.size() * sizeof(Sprite)), large_.data());
}

void SpriteRenderer::destroy_layers() noexcept {
  for (SplatLayer& layer : layers_) {
    if (layer.texture != 0) glDeleteTextures(1, &layer.texture);
  }
  layers_.clear();
  layers_used_ = 0;
}

RenderCounters SpriteRenderer::plan_fast(const Camera2D& camera, int framebuffer_width, int framebuffer_height) {
  RenderCounters counters;
  const PixelMapping px = pixel_mapping(camera, framebuffer_width, framebuffer_height);
  const float max_px = detail::splat_max_pixels;
  steps_.clear();
  large_.clear();
  layers_used_ = 0;
  splatter_.trim();  // no job refers to a stamp now

  // Plan in draw order. An additive run (consecutive additive groups) shares one image: sums
  // commute, so its large sprites may draw before or after it. An alpha group draws its large
  // sprites, then its small ones over them; its image may continue the previous alpha group's
  // only when nothing was drawn in between. An alpha group that follows an additive image with
  // nothing drawn since stamps over that same image, which is then composited as "over": one
  // upload and one full-window draw fewer. (Its colour is the same except where the background
  // plus the additive sum passed 255 under a translucent alpha stamp: there it keeps the excess.)
  enum class Open : std::uint8_t { none, add, over };
  Open open = Open::none;
  std::uint32_t layer = 0;
  std::size_t add_step = 0;  // steps_ index of the open additive image's composite
  bool add_on_top = false;   // nothing drawn since that composite: alpha stamps may merge into it
  const auto is_small = [&](const Sprite& s) {
    return px.splattable && std::max(s.width * px.sx, s.height * px.sy) <= max_px;
  };
  const auto splat_one = [&](const Sprite& s) {  // listed here, queued below
    SplatLayer& l = layers_[layer];
    std::vector<std::uint32_t>& list =
        open == Open::over && l.job.blend == detail::SplatBlend::add ? l.over_sprites : l.job_sprites;
    list.push_back(static_cast<std::uint32_t>(&s - sorted_.data()));
    ++counters.splatted;
  };
  for (std::size_t g = 0; g < sprite_group_count; ++g) {
    const std::uint32_t count = groups_.count[g];
    if (count == 0) continue;
    const Sprite* first = sorted_.data() + groups_.first[g];
    const Sprite* end = first + count;
    const bool additive = (g & 1u) != 0;
    counters.sprites += count;
    const auto large_from = static_cast<std::uint32_t>(large_.size());
    if (additive) {
      for (const Sprite* s = first; s != end; ++s) {
        if (!is_small(*s)) {
          large_.push_back(*s);
          continue;
        }
        if (open != Open::add) {
          layer = open_layer(framebuffer_width, framebuffer_height, detail::SplatBlend::add);
          add_step = steps_.size();
          add_on_top = true;
          steps_.push_back({true, true, 0, 0, layer});
          open = Open::add;
        }
        splat_one(*s);
      }
    } else {
      for (const Sprite* s = first; s != end; ++s) {
        if (!is_small(*s)) large_.push_back(*s);
      }
      if (large_.size() != large_from) open = Open::none;
      steps_.push_back({false, false, large_from, static_cast<std::uint32_t>(large_.size()) - large_from, 0});
      for (const Sprite* s = first; s != end; ++s) {
        if (!is_small(*s)) continue;
        if (open == Open::add && add_on_top) {  // merge: the additive image becomes an "over" one
          steps_[add_step].additive = false;
          open = Open::over;
        }
        if (open != Open::over) {
          layer = open_layer(framebuffer_width, framebuffer_height, detail::SplatBlend::over);
          steps_.push_back({true, false, 0, 0, layer});
          open = Open::over;
        }
        splat_one(*s);
      }
      continue;
    }
    if (large_.size() != large_from) {
      steps_.push_back({false, true, large_from, static_cast<std::uint32_t>(large_.size()) - large_from, 0});
      if (open == Open::over) open = Open::none;  // later alpha stamps must land over these quads
      add_on_top = false;
    }
  }

  struct Listed {
    const Sprite* sorted;
    const std::uint32_t* index;
    PixelMapping px;
  };
  const detail::SpriteSplatter::SpriteSource source = [](const void* context, std::size_t i) {
    const auto& listed = *static_cast<const Listed*>(context);
    const Sprite& s = listed.sorted[listed.index[i]];
    detail::PixelSprite p;
    p.cx = s.x * listed.px.sx + listed.px.ox;
    p.cy = s.y * listed.px.sy + listed.px.oy;
    p.w = s.width * listed.px.sx;
    p.h = s.height * listed.px.sy;
    p.rotation = s.rotation;
    p.color = s.color;
    p.cell = s.cell;
    return p;
  };
  for (std::uint32_t i = 0; i < layers_used_; ++i) {
    SplatLayer& l = layers_[i];
    const Listed job{sorted_.data(), l.job_sprites.data(), px}, over{sorted_.data(), l.over_sprites.data(), px};
    splatter_.add_all(l.job, l.job_sprites.size(), source, &job, framebuffer_width, framebuffer_height);
    splatter_.add_all(l.over, l.over_sprites.size(), source, &over, framebuffer_width, framebuffer_height);
    splatter_.run(l.job, l.image);
    splatter_.run(l.over, l.image);  // a merged layer's alpha stamps, on top
  }
  return counters;
}

// Everything the GPU reads goes up, then the planned steps run in order.
void SpriteRenderer::draw_fast(const Camera2D& camera, int framebuffer_width, int framebuffer_height,
                               RenderCounters& counters) {
  upload_large();
  for (std::uint32_t i = 0; i < layers_used_; ++i) upload_layer(layers_[i]);
  begin_draw_state(camera, framebuffer_width, framebuffer_height);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  for (const FastStep& step : steps_) {
    if (step.composite) {
      if (layers_[step.index].image.empty()) continue;  // every stamp fell off the window
      composite(layers_[step.index], step.additive, framebuffer_width, framebuffer_height);
      ++counters.draw_calls;
      continue;
    }
    if (step.count == 0) continue;
    glUseProgram(program_.id());
    glBindTexture(GL_TEXTURE_2D, atlas_.texture());
    glBindVertexArray(vao_);
    set_blend(step.additive);
    bind_instances(step.first);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(step.count));
    ++counters.draw_calls;
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
}

}  // namespace engine
