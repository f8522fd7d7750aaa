#pragma once
// The enemy kinds and fire patterns as data: one row per kind (its name in scenario files, its
// size, how it sways, what it is worth, how it looks, how it dies) and one per fire pattern.
// Every user reads these rows: the scenario loader (names), the enemy manager (radius, sway,
// bullet colours), the simulation (score, death blast) and the sprite list (cell, colour, spin).
// A new kind is an enumerator in scenario.hpp, kEnemyKindCount, and a row here.
#include "sim/atlas_cells.hpp"
#include "sim/color.hpp"
#include "sim/entities.hpp"
#include "sim/explosion.hpp"
#include "sim/scenario.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace game {

// One axis of an enemy's sway around its station:
//   wave(age * rate [+ phase]) [* world width] * amplitude
// computed in that order (EnemyManager's sway), which is bit for bit what the formulas per kind
// computed before the table: the state hash stays the same.
enum class SwayWave : std::uint8_t { none, sin, cos };  // none: the axis stays on the station
enum class SwayPhase : std::uint8_t { own, none };      // own: the enemy's phase, so a wave moves out of step
enum class SwayUnits : std::uint8_t { world, width };   // width: amplitude is a share of the world's width
struct SwayAxis {
  SwayWave wave;    // the curve; cos on one axis and sin on the other circles
  float rate;       // radians per second of the enemy's age
  SwayPhase phase;  // whether the enemy's own phase offsets it
  SwayUnits units;  // width: the boss roams any field's width, however wide
  float amplitude;  // world units, or a share of the world's width
};

// How a kind moves: most hover at a station and fire their wave's pattern; a charger flies a
// straight line at where the player stood, never fires, and is armoured (player bullets, homing
// shots and the storm pass through it): it ends by ramming the ship (a life) or leaving the field.
enum class EnemyMotion : std::uint8_t { station, charge };

// Not here, because they are not a kind's: health (each wave sets its hp, WaveConfig::hp) and
// speed (every kind closes on its station at the same rate, EnemyManager's approach).
struct EnemyKindSpec {
  EnemyKind kind;           // its own enumerator: the table is indexed by it (checked below)
  const char* name;         // the scenario files' spelling: "kind": "grunt"
  float radius;             // collision radius, world units; the sprite is 2.4 radii across
  std::int64_t score;       // points per kill, times (1 + loop level)
  std::uint16_t cell;       // atlas cell the sprite list draws (sim/atlas_cells.hpp)
  std::uint32_t color;      // sprite tint; white while a hit flashes
  float spin_per_second;    // sprite rotation, radians per second of age (drawing only)
  BlastSpec death_blast;    // its explosion: the boss's is four times the particles, twice the size
  SwayAxis sway_x, sway_y;  // how it moves around its station
  EnemyMotion motion = EnemyMotion::station;
};

// (Unformatted: a table reads best in columns.)
// clang-format off
inline constexpr std::array<EnemyKindSpec, kEnemyKindCount> kEnemyKinds{{
//   kind                name       radius score cell            colour               spin  death blast
//                 wave            rate   phase            units             amplitude
    {EnemyKind::grunt,   "grunt",   14,    100,  atlas::grunt,   rgba(255, 110, 110), 0,    {1, 1, 1.0f},
     /* sway x */ {SwayWave::sin,  1.4f,  SwayPhase::own,  SwayUnits::world, 70},
     /* sway y */ {SwayWave::sin,  0.9f,  SwayPhase::own,  SwayUnits::world, 12}},
    {EnemyKind::spinner, "spinner", 16,    150,  atlas::spinner, rgba(200, 130, 255), 3.0f, {1, 1, 1.0f},
     /* sway x */ {SwayWave::cos,  2.0f,  SwayPhase::own,  SwayUnits::world, 60},
     /* sway y */ {SwayWave::sin,  2.0f,  SwayPhase::own,  SwayUnits::world, 40}},
    {EnemyKind::burster, "burster", 18,    200,  atlas::burster, rgba(255, 190, 80),  0,    {1, 1, 1.0f},
     /* sway x */ {SwayWave::sin,  0.6f,  SwayPhase::own,  SwayUnits::world, 120},
     /* sway y */ {SwayWave::none, 0,     SwayPhase::own,  SwayUnits::world, 0}},
    {EnemyKind::boss,    "boss",    44,    2500, atlas::boss,    rgba(255, 80, 160),  0,    {4, 1, 2.0f},
     /* sway x */ {SwayWave::sin,  0.35f, SwayPhase::own,  SwayUnits::width, 0.3f},
     /* sway y */ {SwayWave::sin,  0.7f,  SwayPhase::none, SwayUnits::world, 30}},
    {EnemyKind::charger, "charger", 12,    0,    atlas::charger, rgba(255, 245, 235), 0,    {1, 1, 0.6f},
     /* sway x */ {SwayWave::none, 0,     SwayPhase::own,  SwayUnits::world, 0},
     /* sway y */ {SwayWave::none, 0,     SwayPhase::own,  SwayUnits::world, 0}, EnemyMotion::charge},
}};
// clang-format on

struct FirePatternSpec {
  FirePattern pattern;         // its own enumerator: the table is indexed by it (checked below)
  const char* name;            // the scenario files' spelling: "pattern": "aimed"
  std::uint32_t bullet_color;  // its bullets' tint, so a player tells the volleys apart
};

inline constexpr std::array<FirePatternSpec, kFirePatternCount> kFirePatterns{{
    {FirePattern::aimed, "aimed", rgba(255, 90, 120)},
    {FirePattern::radial, "radial", rgba(255, 170, 60)},
    {FirePattern::spiral, "spiral", rgba(190, 110, 255)},
}};

constexpr const EnemyKindSpec& kind_spec(EnemyKind kind) { return kEnemyKinds[static_cast<std::size_t>(kind)]; }
// A charger: armoured, so nothing the player fires touches it (the collision grid leaves it out).
constexpr bool charges(const Enemy& e) { return kind_spec(e.wave.kind).motion == EnemyMotion::charge; }
constexpr const FirePatternSpec& pattern_spec(FirePattern pattern) {
  return kFirePatterns[static_cast<std::size_t>(pattern)];
}

namespace detail {
// Row i describes enumerator i: a row out of order, or one missing at the end (its kind left
// at grunt, its name null), fails here at compile time.
template <class Table, class Key>
constexpr bool rows_in_order(const Table& table, Key Table::value_type::*key) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].*key != static_cast<Key>(i) || table[i].name == nullptr) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::rows_in_order(kEnemyKinds, &EnemyKindSpec::kind), "kEnemyKinds: one row per EnemyKind, in order");
static_assert(detail::rows_in_order(kFirePatterns, &FirePatternSpec::pattern),
              "kFirePatterns: one row per FirePattern, in order");

}  // namespace game
