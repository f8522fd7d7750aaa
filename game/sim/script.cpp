#include "sim/script.hpp"

#include "sim/json_reader.hpp"

#include <cmath>
#include <utility>

namespace game {

namespace {

using detail::JsonKeyError;
using detail::ObjectReader;
using detail::shown;
using nlohmann::json;

// A direction aims at a point this far along it: far enough that the ship's own movement
// during the step turns the aim by well under a tenth of a degree.
constexpr float kAimReach = 10000;

// `key`: [x, y], each a number in lo..hi; absent: nullopt.
std::optional<Vec2> read_pair(ObjectReader& r, const char* key, float lo, float hi) {
  const json* v = r.find(key);
  if (!v) return std::nullopt;
  const std::string want = "must be [x, y] with x and y numbers in " + detail::range_text(lo, hi);
  if (!v->is_array() || v->size() != 2) r.fail(key, want + " (got " + shown(*v) + ")");
  float xy[2] = {0, 0};
  for (std::size_t i = 0; i < 2; ++i) {
    const json& c = (*v)[i];
    const double d = c.is_number() ? c.get<double>() : NAN;
    if (!std::isfinite(d) || d < lo || d > hi) r.fail(key, want + " (got " + shown(*v) + ")");
    xy[i] = static_cast<float>(d);
  }
  return Vec2{xy[0], xy[1]};
}

ScriptAim read_aim(ObjectReader& parent) {
  ObjectReader r(*parent.find("aim"), parent.key_path("aim"));
  const std::optional<Vec2> point = read_pair(r, "point", -100000.0f, 100000.0f);
  const std::optional<Vec2> direction = read_pair(r, "direction", -1.0f, 1.0f);
  r.finish();
  if (point.has_value() == direction.has_value()) {
    r.fail_here("must have exactly one of \"point\" (a world position) or \"direction\" ([x, y], y up)");
  }
  if (direction && direction->x == 0 && direction->y == 0) r.fail("direction", "must not be [0, 0]");
  return point ? ScriptAim{true, *point} : ScriptAim{false, *direction};
}

template <class T, class Read>
void optional_value(ObjectReader& r, const char* key, std::optional<T>& out, Read read) {
  if (!r.find(key)) return;
  T value{};
  read(value);
  out = value;
}

ScriptEvent read_event(const json& v, const std::string& path) {
  ScriptEvent e;
  ObjectReader r(v, path);
  if (!r.find("frame")) {
    r.fail("frame", "is required (the step it applies at, 1.." + std::to_string(kScriptMaxFrames) + ")");
  }
  r.integer("frame", e.frame, std::uint64_t{1}, kScriptMaxFrames);
  optional_value(r, "fire", e.fire, [&](bool& x) { r.boolean("fire", x); });
  e.move = read_pair(r, "move", -1.0f, 1.0f);
  if (r.find("aim")) e.aim = read_aim(r);
  r.boolean("restart", e.restart);
  optional_value(r, "pooling", e.pooling, [&](bool& x) { r.boolean("pooling", x); });
  optional_value(r, "storage", e.storage, [&](engine::StorageMode& x) { detail::read_storage(r, "storage", x); });
  optional_value(r, "walk", e.walk, [&](WalkMode& x) { detail::read_walk(r, "walk", x); });
  optional_value(r, "threads", e.threads, [&](std::uint32_t& x) { r.integer("threads", x, 1u, kMaxThreads); });
  // The ranges a scenario file allows for the same settings.
  optional_value(r, "stress", e.stress, [&](float& x) { r.number("stress", x, 0.01f, 1000.0f); });
  optional_value(r, "autofire", e.autofire, [&](bool& x) { r.boolean("autofire", x); });
  optional_value(r, "enemy_density", e.enemy_density, [&](float& x) { r.number("enemy_density", x, 0.0f, 100.0f); });
  optional_value(r, "particles_per_explosion", e.particles_per_explosion,
                 [&](int& x) { r.integer("particles_per_explosion", x, 0, 100000); });
  optional_value(r, "sparks_per_hit", e.sparks_per_hit, [&](int& x) { r.integer("sparks_per_hit", x, 0, 1000); });
  optional_value(r, "trail_per_second", e.trail_per_second,
                 [&](float& x) { r.number("trail_per_second", x, 0.0f, 100000.0f); });
  r.finish();
  if (!e.fire && !e.move && !e.aim && !e.restart && !e.changes_settings()) {
    r.fail_here("does nothing: give fire, move, aim, restart or a setting");
  }
  return e;
}

Script read_script(const json& root, const std::string& name) {
  Script s;
  s.name = name;
  ObjectReader r(root, "");
  r.text("description");
  std::uint64_t frames = 0;
  r.integer("frames", frames, std::uint64_t{1}, kScriptMaxFrames);
  const json* events = r.find("events");
  if (!events) r.fail("events", "is required (an array of events, may be empty)");
  if (!events->is_array() || events->size() > kScriptMaxEvents) {
    r.fail("events",
           "must be an array of 0.." + std::to_string(kScriptMaxEvents) + " events (got " + shown(*events) + ")");
  }
  for (std::size_t i = 0; i < events->size(); ++i) {
    const std::string path = "events[" + std::to_string(i) + "]";
    s.events.push_back(read_event((*events)[i], path));
    const std::uint64_t at = s.events.back().frame;
    if (i > 0 && at < s.events[i - 1].frame) {
      throw JsonKeyError{path + ".frame", "must not be before events[" + std::to_string(i - 1) + "].frame (" +
                                              std::to_string(s.events[i - 1].frame) + "): events go in frame order"};
    }
    if (frames > 0 && at > frames) {
      throw JsonKeyError{path + ".frame",
                         "must not be after the script's end, frames (" + std::to_string(frames) + ")"};
    }
  }
  r.finish();
  if (frames == 0 && s.events.empty()) r.fail("frames", "is required when there are no events");
  s.frames = frames > 0 ? frames : s.events.back().frame;
  return s;
}

ScriptResult failure(const std::string& name, const std::string& reason) {
  return {std::nullopt, "script '" + name + "': " + reason};
}

}  // namespace

bool ScriptEvent::changes_settings() const noexcept {
  return pooling || storage || walk || threads || stress || autofire || enemy_density || particles_per_explosion ||
         sparks_per_hit || trail_per_second;
}

ScriptResult parse_script(const std::string& text, const std::string& name) {
  ScriptResult result;
  const std::string error =
      detail::read_json_document(text, [&](const json& root) { result.script = read_script(root, name); });
  if (!error.empty()) return failure(name, error);
  return result;
}

ScriptResult load_script(const std::string& path) {
  std::string text;
  if (std::string error = detail::read_small_file(path, kScriptMaxBytes, text); !error.empty()) {
    return failure(path, error);
  }
  return parse_script(text, path);
}

ScriptPlayer::ScriptPlayer(Script script) : script_(std::move(script)) {}

Input ScriptPlayer::next(Settings& settings, Vec2 player) {
  ++steps_;
  bool restart = false;
  const auto& events = script_.events;
  for (; next_event_ < events.size() && events[next_event_].frame <= steps_; ++next_event_) {
    const ScriptEvent& e = events[next_event_];
    if (e.fire) held_.fire = *e.fire;
    if (e.move) {
      held_.move_x = e.move->x;
      held_.move_y = e.move->y;
    }
    if (e.aim) aim_ = *e.aim;
    restart = restart || e.restart;
    if (e.pooling) settings.pooling = *e.pooling;
    if (e.storage) settings.storage = *e.storage;
    if (e.walk) settings.walk = *e.walk;
    if (e.threads) settings.threads = *e.threads;
    if (e.stress) settings.stress = *e.stress;
    if (e.autofire) settings.autofire = *e.autofire;
    if (e.enemy_density) settings.enemy_density = *e.enemy_density;
    if (e.particles_per_explosion) settings.particles_per_explosion = *e.particles_per_explosion;
    if (e.sparks_per_hit) settings.sparks_per_hit = *e.sparks_per_hit;
    if (e.trail_per_second) settings.trail_per_second = *e.trail_per_second;
  }
  Input in = held_;
  in.restart = restart;
  if (aim_.at_point) {
    in.aim = aim_.value;
  } else {
    const float len = std::sqrt(length_squared(aim_.value));  // not 0: the parser refuses [0, 0]
    in.aim = player + aim_.value * (kAimReach / len);
  }
  return in;
}

}  // namespace game
