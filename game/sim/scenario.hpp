#pragma once
// A scenario file (assets/scenarios/*.json) turned into plain values: the waves, the
// weapon, the stress multiplier, particle counts and the pools' starting policies.
#include "sim/walk_mode.hpp"

#include <engine/pool/handle.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace game {

// The four pools the game runs on; the index is the position in every per-pool array.
enum class PoolId : std::uint8_t { bullets, enemy_bullets, particles, enemies };
inline constexpr std::size_t kPoolCount = 4;
const char* pool_name(PoolId id) noexcept;  // "bullets", "enemy_bullets", "particles", "enemies"

// Largest max_capacity a scenario may ask for: far above storm.json's needs, far below
// what would exhaust memory (16.7M particles of 48 bytes = 800 MB).
inline constexpr std::size_t kPoolCapacityCap = std::size_t{1} << 24;

struct PoolConfig {
  std::size_t initial_capacity = 1024;              // slots reserved up front
  std::size_t growth_step = 0;                      // 0: double when full; N: add N slots
  std::size_t max_capacity = std::size_t{1} << 20;  // spawns past this are refused (gameplay!)
  std::size_t page_slots = 0;                       // stable storage: slots per page, a power of two; 0: the pool's
                                                    // automatic size (engine::page_slots_for, about 1 MiB a page)
};

// What each kind and pattern is (name, size, sway, score, looks...) is data: sim/enemy_kinds.hpp,
// one row per enumerator, in this order.
enum class EnemyKind : std::uint8_t { grunt, spinner, burster, boss, charger };
inline constexpr std::size_t kEnemyKindCount = 5;
enum class FirePattern : std::uint8_t { aimed, radial, spiral };
inline constexpr std::size_t kFirePatternCount = 3;

struct WaveConfig {
  float delay = 2;  // seconds after the previous wave arrived
  EnemyKind kind = EnemyKind::grunt;
  int count = 6;  // enemies (times the enemy density)
  FirePattern pattern = FirePattern::aimed;
  int hp = 3;
  float fire_interval = 1.5f;  // seconds between volleys
  int bullets_per_volley = 5;
  float bullet_speed = 180;   // world units per second
  float spread_degrees = 30;  // aimed: fan width; radial: rotation per volley; spiral: turn per volley
  float stay_seconds = 14;    // then the enemy leaves through the top edge
};

struct WeaponConfig {
  float shots_per_second = 10;  // times stress
  int bullets_per_shot = 3;
  float spread_degrees = 8;  // fan width; stress widens it
  float bullet_speed = 900;
  int damage = 1;
};

// Holding fire escalates the weapon (the stress test a player plays): the multiplier doubles
// every `doubling_seconds` of held fire up to `max_multiplier`, and cools back to 1 within
// `cool_seconds` of release. It multiplies bullets per second (shot rate and bullets per
// shot each by its square root), widens the fan, and scales the engine trail and the sparks.
struct EscalationConfig {
  float doubling_seconds = 0.75f;     // held fire doubles the multiplier this often
  float max_multiplier = 4096;        // 1: no escalation (storm.json, the soak)
  float cool_seconds = 2;             // from the top back to x1 after release
  int sparks_per_cancel = 4;          // sparks when the storm cancels an enemy bullet
  bool cancels_enemy_bullets = true;  // the storm cancels the enemy bullets it touches
                                      // (off in storm.json: its bullet wall must stand)
};

// Homing shots: a share of the player's bullets lock on to the nearest enemy within
// seek_radius (ties: the lower spawn seq) and turn towards it; when the target dies they
// lock on again. They keep the target as a handle, so a dead target is refused even after
// its slot went to a newcomer. max_live caps them, so held fire at 300k bullets stays cheap.
struct HomingConfig {
  float share = 0;          // of the player's bullets; 0: off (storm.json, the soak)
  float turn_rate = 5;      // radians per second the velocity turns towards the target
  float seek_radius = 420;  // world units: how far a lock-on search looks
  int max_live = 384;       // homing bullets in flight at most; later shots fly straight
};

// Standing still is a risk, not a shield: a player who stays within `radius` of one spot for
// `grace_seconds` draws chargers (enemy_kinds.hpp), armoured darts that come in from the bottom
// and the sides and fly straight at the spot the player stands on. They come faster the longer
// the player stays (the rate grows by `ramp_per_second` each second past the grace); leaving the
// circle starts the clock again. Bullets and the storm pass through them: only moving dodges.
struct CampingConfig {
  float grace_seconds = 40;          // still this long, and the chargers start
  float radius = 64;                 // world units: moving less than this is standing still
  float chargers_per_second = 0.2f;  // at the end of the grace; 0: no chargers (stress scenarios)
  float ramp_per_second = 0.01f;     // chargers per second added per second stayed past the grace
  float charger_speed = 420;         // world units per second
};

struct PlayerConfig {
  int lives = 3;
  float speed = 340;          // world units per second at full stick
  bool invulnerable = false;  // stress scenarios keep the ship alive to keep firing
  float respawn_shield_seconds = 2;
};

struct ParticleConfig {
  int per_explosion = 220;      // particles when an enemy dies
  int per_hit = 3;              // sparks per bullet hit
  float trail_per_second = 90;  // engine trail particles
  float life_seconds = 1.0f;    // mean life of explosion particles
};

struct Scenario {
  std::string name;        // the file name, for messages and the report
  std::uint64_t seed = 1;  // default seed; --seed overrides
  float world_width = 1280, world_height = 720;
  PlayerConfig player;
  WeaponConfig weapon;
  EscalationConfig escalation;
  HomingConfig homing;
  CampingConfig camping;
  float stress = 1;         // multiplies the fire rate and widens the spread
  float enemy_density = 1;  // multiplies every wave's count
  ParticleConfig particles;
  bool pooling = true;
  // The game's default layout, chosen by measurement (scripts/tools/layout_check.py, docs/figures.md
  // "Choosing the default layout"): the best storm p50 among the layouts whose growth is spike-free.
  engine::StorageMode storage = engine::StorageMode::packed_pages;
  WalkMode walk = WalkMode::slot_order;  // how pooled stores walk each step ("walk": bitmap, swap_pop, slot_order)
  std::array<PoolConfig, kPoolCount> pools{};
  std::vector<WaveConfig> waves;
  bool loop_waves = true;  // after the last wave start again, tougher
  float loop_ramp = 1;     // how much tougher per pass: 0 keeps every pass the same
};

// Files larger than this are refused before reading: a scenario is a few kilobytes.
inline constexpr std::uintmax_t kScenarioMaxBytes = 1u << 20;

struct ScenarioResult {
  std::optional<Scenario> scenario;
  std::string error;  // "scenario 'FILE': key 'waves[2].count': must be ..."
};

// Reads and validates a scenario strictly: unknown keys, wrong types, out-of-range values,
// missing/unreadable/oversized/non-JSON files all give one message naming file, key, reason.
ScenarioResult load_scenario(const std::string& path);
// Same, from text already in memory (tests); `name` stands in for the file name.
ScenarioResult parse_scenario(const std::string& text, const std::string& name);

}  // namespace game
