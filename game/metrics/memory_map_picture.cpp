#include "metrics/memory_map_picture.hpp"

namespace game {

namespace {

constexpr std::uint32_t kBackground = 0xFF18120Eu;  // 0xAABBGGRR: the overlay's graph background

void fill(engine::Image& image, int x0, int y0, int w, int h, std::uint32_t colour) {
  for (int y = y0; y < y0 + h && y < image.height; ++y) {
    for (int x = x0; x < x0 + w && x < image.width; ++x) {
      std::uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) +
                                     static_cast<std::size_t>(x)) *
                                    4];
      p[0] = static_cast<std::uint8_t>(colour);
      p[1] = static_cast<std::uint8_t>(colour >> 8);
      p[2] = static_cast<std::uint8_t>(colour >> 16);
      p[3] = static_cast<std::uint8_t>(colour >> 24);
    }
  }
}

template <class Colour>
void draw_block(engine::Image& image, int x0, int y0, const MemoryMap& map, Colour colour) {
  const std::vector<MapCell>& cells = map.cells();
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const int x = x0 + static_cast<int>(i % kMapColumns) * kPictureCellW;
    const int y = y0 + static_cast<int>(i / kMapColumns) * kPictureCellH;
    fill(image, x, y, kPictureCellW, kPictureCellH, colour(cells[i]));
  }
  for (std::size_t i = 1; i < cells.size(); ++i) {  // page edges over the cells, as the overlay draws them
    if (!cells[i].page_edge) continue;
    fill(image, x0 + static_cast<int>(i % kMapColumns) * kPictureCellW,
         y0 + static_cast<int>(i / kMapColumns) * kPictureCellH, 1, kPictureCellH, kPageEdgeColor);
  }
}

}  // namespace

engine::Image draw_memory_map_picture(const MemorySnapshot& snapshot) {
  using L = PictureLayout;
  engine::Image image;
  image.width = L::width();
  image.height = L::height();
  image.rgba.assign(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4, 0);
  fill(image, 0, 0, image.width, image.height, kBackground);
  for (std::size_t i = 0; i < snapshot.pools().size(); ++i) {
    const MemoryMap& map = snapshot.pools()[i].map;
    draw_block(image, L::occupancy_x(), L::pool_y(i), map, [](const MapCell& c) { return occupancy_color(c); });
    draw_block(image, L::walk_x(), L::pool_y(i), map, [](const MapCell& c) { return walk_color(c); });
  }
  return image;
}

engine::Status write_memory_map_png(const std::string& path, const MemorySnapshot& snapshot) {
  return engine::write_png(path, draw_memory_map_picture(snapshot));
}

}  // namespace game
