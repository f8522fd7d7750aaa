#pragma once
// engine::Image: 8-bit RGBA pixels in memory, rows top to bottom, and PNG files.
// The runtime reads exactly one image format (PNG) so that a wrong file fails loudly
// instead of loading as something unexpected.
#include <engine/status.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace engine {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4 bytes, row 0 = top row

  bool empty() const noexcept { return width <= 0 || height <= 0; }
  // Pixel (x, y), y counted from the top, as 0xAABBGGRR (the same packing as rgba());
  // 0 outside the image.
  std::uint32_t pixel(int x, int y) const noexcept;
};

// Loads a PNG as RGBA. Errors name the file: missing/unreadable, not a PNG, or corrupt.
Status load_png(const std::string& path, Image& out);
// Writes a PNG (alpha included as stored). Errors name the file.
Status write_png(const std::string& path, const Image& image);
// True when the first bytes are the PNG signature.
bool has_png_signature(const std::uint8_t* data, std::size_t size) noexcept;

}  // namespace engine
