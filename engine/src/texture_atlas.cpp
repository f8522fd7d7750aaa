#include <epoxy/gl.h>

#include <engine/texture_atlas.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace engine {

Image make_builtin_atlas_image(int cell_px) {
  const int c = std::max(cell_px, 4);
  Image img;
  img.width = c * builtin_cell_count;
  img.height = c;
  img.rgba.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 4, 0);
  const float radius = static_cast<float>(c) * 0.5f;
  for (int y = 0; y < c; ++y) {
    for (int x = 0; x < c; ++x) {
      // Distance of the texel centre from the cell centre, in texels.
      const float dx = static_cast<float>(x) + 0.5f - radius;
      const float dy = static_cast<float>(y) + 0.5f - radius;
      const float d = std::sqrt(dx * dx + dy * dy);
      const float disc = std::clamp(radius - d, 0.0f, 1.0f);  // 1-texel soft edge
      const float glow = std::pow(std::clamp(1.0f - d / radius, 0.0f, 1.0f), 2.0f);
      const float ring_width = std::max(1.5f, radius * 0.15f);
      const float ring = std::clamp(ring_width * 0.5f - std::fabs(d - (radius - ring_width)), 0.0f, 1.0f);
      const float alpha[builtin_cell_count] = {1.0f, disc, glow, ring};
      for (int cell = 0; cell < builtin_cell_count; ++cell) {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                               static_cast<std::size_t>(cell * c + x)) *
                              4;
        img.rgba[i + 0] = img.rgba[i + 1] = img.rgba[i + 2] = 255;
        img.rgba[i + 3] = static_cast<std::uint8_t>(std::lround(alpha[cell] * 255.0f));
      }
    }
  }
  return img;
}

TextureAtlas::~TextureAtlas() { destroy(); }

TextureAtlas::TextureAtlas(TextureAtlas&& other) noexcept { *this = std::move(other); }

TextureAtlas& TextureAtlas::operator=(TextureAtlas&& other) noexcept {
  if (this != &other) {
    destroy();
    texture_ = std::exchange(other.texture_, 0u);
    cell_px_ = other.cell_px_;
    columns_ = other.columns_;
    rows_ = other.rows_;
    width_ = other.width_;
    height_ = other.height_;
    image_ = std::move(other.image_);
  }
  return *this;
}

void TextureAtlas::destroy() noexcept {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  texture_ = 0;
  cell_px_ = columns_ = rows_ = width_ = height_ = 0;
  image_ = Image{};
}

Status TextureAtlas::load(const std::string& png_path, int cell_px) {
  Image image;
  if (Status s = load_png(png_path, image); !s) return Status::error("atlas " + s.message());
  return create(image, cell_px, png_path);
}

Status TextureAtlas::create(const Image& image, int cell_px, std::string_view name) {
  const std::string who = "atlas '" + std::string(name) + "'";
  if (image.empty()) return Status::error(who + " is empty");
  if (cell_px <= 0) return Status::error(who + ": cell size must be positive");
  if (image.width % cell_px != 0 || image.height % cell_px != 0) {
    return Status::error(who + " is " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                         ", not a whole number of " + std::to_string(cell_px) + "-pixel cells");
  }
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  if (image.width > max_size || image.height > max_size) {
    return Status::error(who + " is larger than this GPU's " + std::to_string(max_size) + "-pixel texture limit");
  }
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // Row 0 of the image (its top) becomes texture row 0: v = 0 is the top of a cell.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  Image copy = image;  // before destroy(): image may be this atlas's own image()
  destroy();
  texture_ = texture;
  cell_px_ = cell_px;
  width_ = image.width;
  height_ = image.height;
  columns_ = image.width / cell_px;
  rows_ = image.height / cell_px;
  image_ = std::move(copy);
  return Status::ok();
}

}  // namespace engine
