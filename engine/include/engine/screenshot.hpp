#pragma once
// Screenshots: the frame as drawn, read back from the GL back buffer. Call after the
// frame (sprites and overlay) is drawn and BEFORE the swap: after a swap the back
// buffer's contents are undefined.
#include <engine/image.hpp>
#include <engine/status.hpp>

#include <string>

namespace engine {

// Reads the bound framebuffer's colour into an Image: rows flipped so row 0 is the top,
// alpha forced to 255 (the window's alpha channel is blending scratch, not transparency).
Image read_framebuffer(int width, int height);
// read_framebuffer + write_png. Errors name the file.
Status save_screenshot(const std::string& path, int width, int height);

}  // namespace engine
