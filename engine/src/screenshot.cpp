#include <epoxy/gl.h>

#include <engine/screenshot.hpp>

#include <algorithm>
#include <cstring>

namespace engine {

Image read_framebuffer(int width, int height) {
  Image image;
  if (width <= 0 || height <= 0) return image;
  image.width = width;
  image.height = height;
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  image.rgba.resize(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  // GL's row 0 is the bottom of the window; images start at the top.
  std::vector<std::uint8_t> tmp(row);
  for (std::size_t top = 0, bottom = static_cast<std::size_t>(height) - 1; top < bottom; ++top, --bottom) {
    std::uint8_t* a = image.rgba.data() + top * row;
    std::uint8_t* b = image.rgba.data() + bottom * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  for (std::size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  return image;
}

Status save_screenshot(const std::string& path, int width, int height) {
  const Image image = read_framebuffer(width, height);
  if (image.empty()) return Status::error("cannot take screenshot '" + path + "': the framebuffer is empty");
  if (Status s = write_png(path, image); !s) return Status::error("screenshot: " + s.message());
  return Status::ok();
}

}  // namespace engine
