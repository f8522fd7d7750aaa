#pragma once
// A scripted session (`poolshot --script FILE`, assets/scripts/*.json): a timeline of events,
// each at a 1-based simulation step, that presses or releases fire, moves, aims, restarts, or
// changes a setting. ScriptPlayer turns it into one Input per step and writes the settings
// changes into the Simulation's settings struct, which the simulation applies at that step.
//
//   {"frames": 1800, "events": [
//     {"frame": 1, "fire": true, "aim": {"direction": [0, 1]}},
//     {"frame": 601, "pooling": false},
//     {"frame": 1201, "pooling": true, "storage": "stable"}]}
//
// Held input (fire, move, aim) stays until an event changes it; restart acts on its step only.
#include "sim/input.hpp"
#include "sim/settings.hpp"
#include "sim/vec2.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace game {

inline constexpr std::uint64_t kScriptMaxFrames = 1000000000;  // as --frames
inline constexpr std::size_t kScriptMaxEvents = 100000;
inline constexpr std::uintmax_t kScriptMaxBytes = 1u << 20;  // refused before reading

struct ScriptAim {
  bool at_point = false;  // true: aim at `value` (a world point); false: `value` is a direction
  Vec2 value{0, 1};       // default: straight up (y is up)
};

// One event: only the fields it names are set; the rest leave the state as it was.
struct ScriptEvent {
  std::uint64_t frame = 1;  // the step it applies at (1-based)
  std::optional<bool> fire;
  std::optional<Vec2> move;  // each axis in [-1, 1]
  std::optional<ScriptAim> aim;
  bool restart = false;
  std::optional<bool> pooling;  // settings (settings.hpp), same ranges as a scenario
  std::optional<engine::StorageMode> storage;
  std::optional<WalkMode> walk;          // "bitmap", "swap_pop" or "slot_order"
  std::optional<std::uint32_t> threads;  // the update phase's threads, 1..kMaxThreads
  std::optional<float> stress;
  std::optional<bool> autofire;
  std::optional<float> enemy_density;
  std::optional<int> particles_per_explosion;
  std::optional<int> sparks_per_hit;
  std::optional<float> trail_per_second;

  bool changes_settings() const noexcept;
};

struct Script {
  std::string name;                 // the file name, for messages and the report
  std::uint64_t frames = 0;         // its length: "frames", else the last event's frame
  std::vector<ScriptEvent> events;  // in frame order; same-frame events in file order
};

struct ScriptResult {
  std::optional<Script> script;
  std::string error;  // "script 'FILE': key 'events[3].frame': must be ..."
};

// Strict like load_scenario: unknown keys, wrong types, out-of-range values, events out of
// frame order, missing/unreadable/oversized/non-JSON files give one line: file, key, reason.
ScriptResult load_script(const std::string& path);
ScriptResult parse_script(const std::string& text, const std::string& name);  // tests

// Plays a script one step at a time. After the last event the held input stays as it is.
class ScriptPlayer {
 public:
  explicit ScriptPlayer(Script script);

  // Prepares the next step: writes the settings events due at it into `settings` (pass
  // sim.settings(): the next step() applies them) and returns the step's input. `player` is
  // where the ship is now, for direction aim.
  Input next(Settings& settings, Vec2 player);

  std::uint64_t steps() const noexcept { return steps_; }  // steps prepared so far
  const Script& script() const noexcept { return script_; }

 private:
  Script script_;
  std::size_t next_event_ = 0;
  std::uint64_t steps_ = 0;
  Input held_;  // fire and move as the events left them
  ScriptAim aim_;
};

}  // namespace game
