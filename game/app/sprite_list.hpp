#pragma once
// The sprite list: the game's Draw, built in the app layer from the simulation's read-only
// view (Simulation::ship(), the managers' stores, game_time()). The simulation draws nothing.
//
// Sprites are interpolated between the last two steps by alpha in [0, 1] (1 while paused).
// Layers: 0 background, 1 trail, 2 particles (additive), 3 enemies, 4 bullets, 5 ship. Cells
// come from sim/atlas_cells.hpp.
#include <engine/sprite.hpp>

#include <vector>

namespace engine {
class SpriteBatch;
}

namespace game {

class Simulation;

void collect_sprites(const Simulation& sim, std::vector<engine::Sprite>& out, float alpha);  // clears `out` first
void collect_sprites(const Simulation& sim, engine::SpriteBatch& batch, float alpha);        // appends (not cleared)

}  // namespace game
