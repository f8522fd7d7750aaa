#pragma once
// An explosion as data: how big a blast is (BlastSpec: an enemy kind's death, the player's
// lost life) and the layers every blast is made of (kExplosionLayers: flash, fire, smoke),
// each one particle burst. Simulation::explode turns a blast into the layers' bursts.
#include "sim/color.hpp"
#include "sim/particle_system.hpp"

#include <array>
#include <cstdint>

namespace game {

// How big one explosion is, relative to the scenario's particles_per_explosion.
struct BlastSpec {
  int count_times = 1;    // particles: per_explosion * count_times / count_divisor (integer, so
  int count_divisor = 1;  // a half-size blast of 5 particles has 2, as it always had)
  float scale = 1;        // the layers' speeds and scaled sizes: a boss's blast throws wider
};

// Particles in a blast for the scenario's (or the overlay's) particles_per_explosion.
constexpr int blast_particles(const BlastSpec& blast, int per_explosion) {
  return per_explosion * blast.count_times / blast.count_divisor;
}

// How a layer takes its part of the blast's particles.
enum class LayerCount : std::uint8_t {
  one,    // a single particle if the blast has any (the flash: one big sprite, on top of the rest)
  share,  // count * share_percent / 100 (integer)
  rest,   // what the share layers before it left
};

// One layer of every explosion: a particle burst at blast scale 1, all round from the centre.
struct ExplosionLayer {
  ParticleKind kind;           // how the sprite list draws it (spark: the fire)
  LayerCount count;            // its part of the blast's particles
  int share_percent;           // LayerCount::share only
  float speed_min, speed_max;  // world units per second, times the blast's scale
  bool life_scaled;            // lives in units of the scenario's life_seconds, else seconds
  float life_min, life_max;    // (a flash is as short in every scenario)
  bool size_scaled;            // sizes grow with the blast's scale (the fire's sparks
  float size_min, size_max;    // stay spark-sized: more of them and faster instead)
  float damping_per_second;    // velocity left after one second
  std::uint32_t color;         // tint; smoke is translucent
};

// Burst in this order: the particles' sequence numbers, and so the state hash, depend on it.
// A bright flash (one still sprite that grows and fades), fire (fast, bright, short), smoke
// (slow, dim, long).
inline constexpr std::array<ExplosionLayer, 3> kExplosionLayers{{
    // kind, count, share %, speed, life scaled? min max, size scaled? min max, damping, colour
    {ParticleKind::flash, LayerCount::one, 0, 0, 0, false, 0.18f, 0.18f, true, 70, 70, 0.2f, rgba(255, 230, 190)},
    {ParticleKind::spark, LayerCount::share, 60, 40, 420, true, 0.4f, 1.0f, false, 4, 9, 0.15f, rgba(255, 150, 50)},
    {ParticleKind::smoke, LayerCount::rest, 0, 10, 120, true, 0.8f, 1.6f, true, 10, 22, 0.3f, rgba(120, 110, 110, 160)},
}};

// The burst of `layer` in a blast of `count` particles at `scale`, with the scenario's particle
// `life`; `shared` counts the particles the share layers took so far (start it at 0).
constexpr BurstSpec layer_burst(const ExplosionLayer& layer, int count, float scale, float life, int& shared) {
  BurstSpec spec;
  spec.kind = layer.kind;
  switch (layer.count) {
    case LayerCount::one:
      spec.count = count > 0 ? 1 : 0;
      break;
    case LayerCount::share:
      spec.count = count * layer.share_percent / 100;
      shared += spec.count;
      break;
    case LayerCount::rest:
      spec.count = count - shared;
      break;
  }
  spec.speed_min = layer.speed_min * scale;
  spec.speed_max = layer.speed_max * scale;
  spec.life_min = layer.life_scaled ? layer.life_min * life : layer.life_min;
  spec.life_max = layer.life_scaled ? layer.life_max * life : layer.life_max;
  spec.size_min = layer.size_scaled ? layer.size_min * scale : layer.size_min;
  spec.size_max = layer.size_scaled ? layer.size_max * scale : layer.size_max;
  spec.damping_per_second = layer.damping_per_second;
  spec.color = layer.color;
  return spec;
}

}  // namespace game
