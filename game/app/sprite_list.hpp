#pragma once
// The sprite list: the game's Draw, built in the app layer from the simulation's read-only
// view (Simulation::ship(), the managers' stores, game_time()). The simulation draws nothing.
//
// Sprites are interpolated between the last two steps by alpha in [0, 1] (1 while paused).
// Cells come from sim/atlas_cells.hpp; layers are SpriteLayer, back to front.
#include <engine/sprite.hpp>

#include <cstdint>
#include <vector>

namespace engine {
class SpriteBatch;
}

namespace game {

class Simulation;

// Draw order, back to front. The enemies and their shots draw above the player's storm and the
// particles (additive: trail and particles), each on a dark outline of its own shape, so a
// player sees what can kill them in a 300k-object storm. The crosshair marks the aim on top.
namespace layer {
enum SpriteLayer : std::uint8_t {
  background = 0,
  trail,
  particles,
  player_bullets,
  enemy_outlines,
  enemies,
  enemy_bullet_outlines,
  enemy_bullets,
  ship,
  crosshair,
};
}  // namespace layer

// The rotation that turns a sprite's top (+y) along (x, y): atan2(y, x) - pi/2, from a
// polynomial (Abramowitz & Stegun 4.4.49, error about 1e-7 rad in float) instead of std::atan2,
// which costs about 28 ns a call on a 2-vCPU EPYC: 2 ms a frame for held fire's 74k bullets.
// 0 for (0, 0). Drawing only: the simulation keeps std::atan2 (its state hashes).
float turn_along(float x, float y) noexcept;

void collect_sprites(const Simulation& sim, std::vector<engine::Sprite>& out, float alpha);  // clears `out` first
void collect_sprites(const Simulation& sim, engine::SpriteBatch& batch, float alpha);        // appends (not cleared)

}  // namespace game
