#pragma once
// The memory map as a picture (`poolshot --memory-map FILE.png`): the four pools top to bottom
// (bullets, enemy fire, particles, enemies), each as the overlay draws it, occupancy on the
// left and walk order on the right, with the overlay's colours (memory_map.hpp).
#include "metrics/memory_snapshot.hpp"

#include <engine/image.hpp>
#include <engine/status.hpp>

#include <string>

namespace game {

inline constexpr int kPictureCellW = 4, kPictureCellH = 3;

struct PictureLayout {  // where pool i's blocks are in the picture (tests read pixels there)
  static constexpr int kMargin = 8, kGap = 16, kPoolGap = 12;
  static constexpr int block_width() { return static_cast<int>(kMapColumns) * kPictureCellW; }
  static constexpr int block_height() { return static_cast<int>(MemoryMap::kMaxCells / kMapColumns) * kPictureCellH; }
  static constexpr int occupancy_x() { return kMargin; }
  static constexpr int walk_x() { return kMargin + block_width() + kGap; }
  static constexpr int pool_y(std::size_t i) { return kMargin + static_cast<int>(i) * (block_height() + kPoolGap); }
  static constexpr int width() { return walk_x() + block_width() + kMargin; }
  static constexpr int height() { return pool_y(kPoolCount) - kPoolGap + kMargin; }
};

engine::Image draw_memory_map_picture(const MemorySnapshot& snapshot);
engine::Status write_memory_map_png(const std::string& path, const MemorySnapshot& snapshot);

}  // namespace game
