#pragma once
// engine::TextureAtlas: one GL texture split into a grid of square cells; Sprite::cell
// picks a cell, counted row-major from the top-left of the image (cell 0 = top-left,
// cell 1 = the one to its right, ...). Cells are sampled with a half-texel inset, so
// linear filtering never bleeds a neighbour into a sprite.
#include <engine/image.hpp>
#include <engine/status.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace engine {

// Cells of the built-in atlas, used when the game names no atlas file. White shapes, so
// Sprite::color gives them any colour.
enum BuiltinCell : std::uint16_t {
  builtin_solid = 0,  // filled square
  builtin_disc = 1,   // filled circle, anti-aliased edge
  builtin_glow = 2,   // soft radial falloff: particles, muzzle flashes (use additive)
  builtin_ring = 3,   // circle outline
  builtin_cell_count = 4,
};
// The built-in atlas as an image: builtin_cell_count cells of cell_px in one row.
Image make_builtin_atlas_image(int cell_px = 32);

class TextureAtlas {
 public:
  TextureAtlas() = default;
  ~TextureAtlas();  // deletes the texture (context current)
  TextureAtlas(TextureAtlas&& other) noexcept;
  TextureAtlas& operator=(TextureAtlas&& other) noexcept;
  TextureAtlas(const TextureAtlas&) = delete;
  TextureAtlas& operator=(const TextureAtlas&) = delete;

  // Loads a PNG and uploads it. The image must be a whole number of cell_px cells each way.
  // On failure the atlas keeps what it had, and the Status names the file.
  Status load(const std::string& png_path, int cell_px);
  // Uploads an image already in memory; name is used in error messages.
  Status create(const Image& image, int cell_px, std::string_view name);
  void destroy() noexcept;

  unsigned texture() const noexcept { return texture_; }  // GL name; 0 = none
  int cell_px() const noexcept { return cell_px_; }
  int columns() const noexcept { return columns_; }
  int rows() const noexcept { return rows_; }
  int cell_count() const noexcept { return columns_ * rows_; }
  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  // The uploaded pixels, kept on the CPU (256 KiB for the game's atlas): RenderPath::fast
  // stamps small sprites from them without reading the texture back.
  const Image& image() const noexcept { return image_; }

 private:
  unsigned texture_ = 0;
  Image image_;
  int cell_px_ = 0, columns_ = 0, rows_ = 0, width_ = 0, height_ = 0;
};

}  // namespace engine
