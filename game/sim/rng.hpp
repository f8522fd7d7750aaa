#pragma once
// Counter-based random numbers: every draw is a pure function of (seed, identity, purpose).
// Why not one generator stream? A stream consumed while iterating a pool hands out its
// numbers in storage order, so the game would change when storage order changes (pooled vs
// heap, contiguous vs stable). Keying each draw by the object's spawn sequence number or
// the event's identity makes the draw independent of who asked first.
#include <cstdint>

namespace game {

// What a random number is for; two purposes on the same object never share a value.
enum class Purpose : std::uint64_t {
  bullet_spread = 1,
  bullet_speed,
  enemy_spawn_x,
  enemy_spawn_y,
  enemy_station_y,
  enemy_phase,
  enemy_fire_delay,
  particle_angle,
  particle_speed,
  particle_life,
  particle_size,
  particle_tint,
  autopilot_phase,
  star_x,
  star_y,
  star_depth,
  homing_shot,
  charger_edge,
  charger_along,
};

// splitmix64's finalizer: a bijective avalanche mix of 64 bits.
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// 64 random bits for (seed, id, purpose); chained mixes so nearby ids decorrelate.
constexpr std::uint64_t random_bits(std::uint64_t seed, std::uint64_t id, Purpose purpose) noexcept {
  return mix64(mix64(mix64(seed) ^ id) ^ static_cast<std::uint64_t>(purpose));
}

// Uniform float in [0, 1): the top 24 bits, exactly representable.
constexpr float random_unit(std::uint64_t seed, std::uint64_t id, Purpose purpose) noexcept {
  return static_cast<float>(random_bits(seed, id, purpose) >> 40) * (1.0f / 16777216.0f);
}

// Uniform float in [lo, hi).
constexpr float random_range(std::uint64_t seed, std::uint64_t id, Purpose purpose, float lo, float hi) noexcept {
  return lo + (hi - lo) * random_unit(seed, id, purpose);
}

}  // namespace game
