#include <engine/image.hpp>

#include <stb_image.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

namespace engine {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

// Whole file into memory; on failure says why in the same words the OS uses.
Status read_file(const std::string& path, std::vector<std::uint8_t>& out) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return Status::error("cannot open '" + path + "': " + std::strerror(errno));
  out.clear();
  std::uint8_t chunk[1 << 14];
  for (;;) {
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
    out.insert(out.end(), chunk, chunk + got);
    if (got < sizeof chunk) break;
  }
  if (std::ferror(file.get()) != 0) return Status::error("cannot read '" + path + "'");
  return Status::ok();
}

}  // namespace

std::uint32_t Image::pixel(int x, int y) const noexcept {
  if (x < 0 || y < 0 || x >= width || y >= height) return 0;
  const std::size_t i =
      (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
  if (i + 3 >= rgba.size()) return 0;
  return std::uint32_t{rgba[i]} | (std::uint32_t{rgba[i + 1]} << 8) | (std::uint32_t{rgba[i + 2]} << 16) |
         (std::uint32_t{rgba[i + 3]} << 24);
}

bool has_png_signature(const std::uint8_t* data, std::size_t size) noexcept {
  static constexpr std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  return data != nullptr && size >= sizeof signature && std::memcmp(data, signature, sizeof signature) == 0;
}

Status load_png(const std::string& path, Image& out) {
  std::vector<std::uint8_t> bytes;
  if (Status s = read_file(path, bytes); !s) return s;
  if (!has_png_signature(bytes.data(), bytes.size())) {
    return Status::error("'" + path + "' is not a PNG file (no PNG signature)");
  }
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return Status::error("'" + path + "' is too large");
  }
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  if (pixels == nullptr) {
    const char* why = stbi_failure_reason();
    return Status::error("cannot decode PNG '" + path + "': " + (why ? why : "unknown reason"));
  }
  out.width = w;
  out.height = h;
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4;
  out.rgba.assign(pixels, pixels + n);
  stbi_image_free(pixels);
  return Status::ok();
}

Status write_png(const std::string& path, const Image& image) {
  if (image.empty() ||
      image.rgba.size() < static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4) {
    return Status::error("cannot write '" + path + "': the image is empty");
  }
  if (stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4) == 0) {
    return Status::error("cannot write PNG '" + path + "' (directory missing or not writable?)");
  }
  return Status::ok();
}

}  // namespace engine
