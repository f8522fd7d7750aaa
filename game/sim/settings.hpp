#pragma once
// Settings: the one struct the overlay (and the command line) changes. The simulation reads
// it at the start of each step and applies what changed, so a setting never changes in the
// middle of a step. Storage settings (pooling, storage mode, walk, growth policy) change speed and
// memory only; the others (stress, density, particle counts, autofire) change the game.
#include "sim/scenario.hpp"

#include <engine/pool/worker_team.hpp>

#include <array>
#include <cstdint>

namespace game {

inline constexpr std::uint32_t kAutoThreads = 0;
inline constexpr std::uint32_t kMaxThreads = 64;  // sanitize() clamps threads to kAutoThreads..this

struct Settings {
  bool pooling = true;                                              // false: every object is its own `new`
  engine::StorageMode storage = engine::StorageMode::packed_pages;  // for all four pools (Scenario says why)
  WalkMode walk = WalkMode::slot_order;        // pooled update walk: bitmap, swap-pop or slot-order list
  std::array<PoolConfig, kPoolCount> pools{};  // growth policy and capacities per pool
  float stress = 1;                            // fire-rate multiplier, widens the spread
  bool autofire = false;                       // the seed scripts the input (autopilot)
  int particles_per_explosion = 220;
  int sparks_per_hit = 3;
  float trail_per_second = 90;
  float enemy_density = 1;  // multiplies the count of waves to come
  // Threads of the update phase: speed only, the game is the same at any count. kAutoThreads
  // (the default): a team of the machine's hardware threads (at most 8) that uses as many of them
  // as measure faster than one (ThreadController). N forces N (--threads, the panel).
  std::uint32_t threads = kAutoThreads;
};
// The team's size for a threads setting: kAutoThreads gives the machine's hardware threads, at most 8.
inline std::uint32_t team_size_for(std::uint32_t threads) noexcept {
  return threads == kAutoThreads ? static_cast<std::uint32_t>(engine::WorkerTeam::hardware_threads(8)) : threads;
}

// The settings a scenario starts with.
Settings settings_from(const Scenario& scenario);

// What a step's settings changed of where and how the pools keep their objects: one bit each
// in SimStats::switched (switch_bit). The recorders mark a switch on the frame it took effect:
// a labelled line on the overlay's graph, a name in --frame-csv's `switch` column.
enum class SwitchKind : std::uint8_t { pooling, storage, walk };
inline constexpr std::array<SwitchKind, 3> kSwitchKinds{SwitchKind::pooling, SwitchKind::storage, SwitchKind::walk};
constexpr std::uint8_t switch_bit(SwitchKind kind) noexcept {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(kind));
}
// The bits of what differs between two settings (0: none of the three).
std::uint8_t switches_between(const Settings& before, const Settings& after) noexcept;
// A switch named by what it switched to, as `after` has it: "pooling off", "packed", "slot-order list".
const char* switch_label(SwitchKind kind, const Settings& after) noexcept;

}  // namespace game
