#pragma once
// The sprite atlas layout, shared by the generator (game/tools/make_atlas.cpp, which draws
// the cells at build time) and the game (which names cells in its render list).
#include <cstdint>

namespace game::atlas {

inline constexpr int kCellPixels = 32;  // each cell is square
inline constexpr int kColumns = 8;
inline constexpr int kRows = 8;
inline constexpr int kWidth = kCellPixels * kColumns;  // 256
inline constexpr int kHeight = kCellPixels * kRows;    // 256

// Row-major cell index (engine::Sprite::cell). Shapes are white/grey with alpha so the
// sprite colour tints them; every ship-like shape points up (+y) at rotation 0.
enum Cell : std::uint16_t {
  ship = 0,           // the player: arrowhead with engine notch
  grunt = 1,          // enemy: rounded wedge pointing down
  spinner = 2,        // enemy: four-bladed star
  burster = 3,        // enemy: ringed orb
  boss = 4,           // enemy: big armoured hexagon
  player_bullet = 5,  // slim bright bolt
  enemy_bullet = 6,   // round bullet with a bright core
  spark = 7,          // tiny streak, brightest in the middle
  smoke = 8,          // soft round puff (also the engine trail)
  explosion = 9,      // bright flash with a ring
  star = 10,          // background star: soft point
  shield = 11,        // ring around the ship while invulnerable
  charger = 12,       // enemy: armoured dart, points up; drawn turned along its flight
  crosshair = 13,     // where the ship aims: a broken ring with a dot
  cell_count = 14,
};

}  // namespace game::atlas
