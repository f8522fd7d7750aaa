// Script files (script.hpp) are strict like scenarios: each bad file gives one message naming
// the file, the key and the reason. A scripted run is the same game whatever the storage,
// also when the script switches pooling and storage mid-run; the phase recorder splits the
// run where the settings change.
#include "app/headless_run.hpp"
#include "metrics/phase_recorder.hpp"
#include "sim/script.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace game {
namespace {

std::string error_of(const std::string& text) {
  const ScriptResult r = parse_script(text, "s.json");
  EXPECT_FALSE(r.script.has_value()) << "accepted: " << text;
  return r.error;
}

Script script_of(const std::string& text) {
  ScriptResult r = parse_script(text, "s.json");
  if (!r.script) ADD_FAILURE() << r.error;
  return r.script ? *r.script : Script{};
}

TEST(Script, ShippedHoldFireLoads) {
  const ScriptResult r = load_script(std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/hold_fire.json");
  ASSERT_TRUE(r.script.has_value()) << r.error;
  EXPECT_EQ(r.script->frames, 1800u);
  int switches = 0;
  for (const ScriptEvent& e : r.script->events) {
    switches += e.changes_settings() ? 1 : 0;
    EXPECT_FALSE(e.move.has_value()) << "hold_fire.json moves nothing";
  }
  EXPECT_EQ(switches, 2);
}

// The other hold-fire scripts (scripts/tools/hold_fire_check.py): each fires from
// frame 1 and never lets go, fills its pools pooled for 10 s, then alternates pooling off and on
// in that order, ending pooled, so every heap phase has a pooled phase at the same load after it.
TEST(Script, ShippedHoldFireVariantsHoldFireAndAlternateHeapThenPooled) {
  const struct {
    const char* file;
    std::uint64_t frames;
    std::size_t switches;
  } shipped[] = {{"hold_fire_strafe.json", 1800, 2},
                 {"hold_fire_sweep.json", 1800, 2},
                 {"hold_fire_short.json", 1320, 4},
                 {"hold_fire_long.json", 3000, 2}};
  for (const auto& want : shipped) {
    SCOPED_TRACE(want.file);
    const ScriptResult r = load_script(std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/" + want.file);
    ASSERT_TRUE(r.script.has_value()) << r.error;
    EXPECT_EQ(r.script->frames, want.frames);
    std::vector<bool> pooling;
    for (const ScriptEvent& e : r.script->events) {
      if (e.fire) {
        EXPECT_TRUE(*e.fire && e.frame == 1) << "fire is pressed at frame 1 and held";
      }
      if (e.pooling) {
        EXPECT_GE(e.frame, 601u) << "10 s pooled first: the pools fill";
        pooling.push_back(*e.pooling);
      }
      EXPECT_FALSE(e.storage || e.walk || e.stress || e.threads) << "only pooling changes";
    }
    ASSERT_EQ(pooling.size(), want.switches);
    for (std::size_t i = 0; i < pooling.size(); ++i) EXPECT_EQ(pooling[i], i % 2 == 1) << "off, on, off, on...";
  }
}

TEST(Script, ShippedWalksSwitchesOnlyTheWalk) {
  const ScriptResult r = load_script(std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/walks.json");
  ASSERT_TRUE(r.script.has_value()) << r.error;
  EXPECT_EQ(r.script->frames, 2400u);
  std::vector<WalkMode> walks;
  for (const ScriptEvent& e : r.script->events) {
    if (e.walk) walks.push_back(*e.walk);
    EXPECT_FALSE(e.pooling || e.storage || e.stress) << "only the walk changes";
  }
  EXPECT_EQ(walks, (std::vector<WalkMode>{WalkMode::swap_pop, WalkMode::slot_order, WalkMode::bitmap}));
}

TEST(Script, LengthIsFramesElseTheLastEvent) {
  EXPECT_EQ(script_of(R"({"frames": 90, "events": [{"frame": 5, "fire": true}]})").frames, 90u);
  EXPECT_EQ(script_of(R"({"events": [{"frame": 5, "fire": true}, {"frame": 40, "fire": false}]})").frames, 40u);
  EXPECT_EQ(script_of(R"({"frames": 10, "events": []})").frames, 10u);
}

TEST(Script, UnknownKeysAndWrongTypesNameTheKey) {
  EXPECT_EQ(error_of(R"({"events": [], "frames": 9, "lenght": 3})"), "script 's.json': key 'lenght': unknown key");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "fier": true}]})"),
            "script 's.json': key 'events[0].fier': unknown key");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "fire": "yes"}]})"),
            "script 's.json': key 'events[0].fire': must be true or false (got \"yes\")");
  EXPECT_EQ(error_of(R"({"events": [{"frame": "ten", "fire": true}]})"),
            "script 's.json': key 'events[0].frame': must be an integer in 1..1000000000 (got \"ten\")");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "storage": "paged"}]})"),
            "script 's.json': key 'events[0].storage': must be one of \"contiguous\", \"stable\", \"packed\", "
            "\"packed_pages\" (got \"paged\")");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "walk": 2}]})"),
            "script 's.json': key 'events[0].walk': must be one of \"bitmap\", \"swap_pop\", \"slot_order\" (got 2)");
  EXPECT_EQ(error_of(R"({"events": {}})"),
            "script 's.json': key 'events': must be an array of 0..100000 events (got {})");
  EXPECT_EQ(error_of(R"([1, 2])"), "script 's.json': key '(top level)': must be an object (got [1,2])");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "aim": {"point": [1, 2], "at": 3}}]})"),
            "script 's.json': key 'events[0].aim.at': unknown key");
}

TEST(Script, OutOfRangeValuesAreRefused) {
  EXPECT_EQ(error_of(R"({"events": [{"frame": 0, "fire": true}]})"),
            "script 's.json': key 'events[0].frame': must be an integer in 1..1000000000 (got 0)");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "move": [2, 0]}]})"),
            "script 's.json': key 'events[0].move': must be [x, y] with x and y numbers in -1..1 (got [2,0])");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "move": [0]}]})"),
            "script 's.json': key 'events[0].move': must be [x, y] with x and y numbers in -1..1 (got [0])");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "stress": 0}]})"),
            "script 's.json': key 'events[0].stress': must be a number in 0.01..1000 (got 0)");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "particles_per_explosion": -1}]})"),
            "script 's.json': key 'events[0].particles_per_explosion': must be an integer in 0..100000 (got -1)");
  EXPECT_EQ(error_of(R"({"frames": 0, "events": []})"),
            "script 's.json': key 'frames': must be an integer in 1..1000000000 (got 0)");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "aim": {"direction": [0, 0]}}]})"),
            "script 's.json': key 'events[0].aim.direction': must not be [0, 0]");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 1, "aim": {}}]})"),
            "script 's.json': key 'events[0].aim': must have exactly one of \"point\" (a world position) or "
            "\"direction\" ([x, y], y up)");
}

TEST(Script, EventsGoInFrameOrderWithinTheScript) {
  EXPECT_EQ(
      error_of(R"({"events": [{"frame": 10, "fire": true}, {"frame": 10, "move": [1, 0]},
                                    {"frame": 9, "fire": false}]})"),
      "script 's.json': key 'events[2].frame': must not be before events[1].frame (10): events go in frame order");
  EXPECT_EQ(error_of(R"({"frames": 60, "events": [{"frame": 61, "fire": true}]})"),
            "script 's.json': key 'events[0].frame': must not be after the script's end, frames (60)");
}

TEST(Script, MissingAndEmptyThingsAreNamed) {
  EXPECT_EQ(error_of(R"({"frames": 5})"),
            "script 's.json': key 'events': is required (an array of events, may be empty)");
  EXPECT_EQ(error_of(R"({"events": []})"), "script 's.json': key 'frames': is required when there are no events");
  EXPECT_EQ(error_of(R"({"events": [{"fire": true}]})"),
            "script 's.json': key 'events[0].frame': is required (the step it applies at, 1..1000000000)");
  EXPECT_EQ(error_of(R"({"events": [{"frame": 3}]})"),
            "script 's.json': key 'events[0]': does nothing: give fire, move, aim, restart or a setting");
  EXPECT_EQ(error_of("not json").rfind("script 's.json': not valid JSON: ", 0), 0u);
}

TEST(Script, BadFilesAreNamed) {
  namespace fs = std::filesystem;
  const fs::path dir = game::test::scratch_path("poolshot_script_test");
  fs::create_directories(dir);
  const std::string missing = (dir / "missing.json").string();
  EXPECT_EQ(load_script(missing).error, "script '" + missing + "': cannot open: no such file");
  EXPECT_EQ(load_script(dir.string()).error, "script '" + dir.string() + "': cannot open: is a directory");
  const std::string huge = (dir / "huge.json").string();
  std::ofstream(huge) << "{";
  fs::resize_file(huge, 2u * 1024 * 1024);
  EXPECT_EQ(load_script(huge).error, "script '" + huge + "': file is 2097152 bytes; the limit is 1048576 bytes");
  fs::remove_all(dir);
}

TEST(ScriptPlayer, HoldsInputUntilChangedAndAppliesSettingsAtTheirFrame) {
  ScriptPlayer player(script_of(R"({"frames": 6, "events": [
      {"frame": 2, "fire": true, "move": [0.5, -1], "aim": {"point": [100, 200]}},
      {"frame": 3, "restart": true, "pooling": false, "storage": "stable", "walk": "bitmap", "stress": 4},
      {"frame": 5, "fire": false, "aim": {"direction": [1, 0]}}]})"));
  Settings settings;
  Input in = player.next(settings, {640, 60});  // step 1: nothing yet, aim straight up
  EXPECT_FALSE(in.fire);
  EXPECT_FLOAT_EQ(in.aim.x, 640);
  EXPECT_GT(in.aim.y, 60);
  in = player.next(settings, {640, 60});  // step 2
  EXPECT_TRUE(in.fire);
  EXPECT_FLOAT_EQ(in.move_x, 0.5f);
  EXPECT_FLOAT_EQ(in.move_y, -1);
  EXPECT_FLOAT_EQ(in.aim.x, 100);
  EXPECT_TRUE(settings.pooling);
  in = player.next(settings, {640, 60});  // step 3
  EXPECT_TRUE(in.restart);
  EXPECT_TRUE(in.fire);
  EXPECT_FALSE(settings.pooling);
  EXPECT_EQ(settings.storage, engine::StorageMode::stable);
  EXPECT_EQ(settings.walk, WalkMode::bitmap);
  EXPECT_FLOAT_EQ(settings.stress, 4);
  in = player.next(settings, {640, 60});  // step 4: restart was for one step only
  EXPECT_FALSE(in.restart);
  in = player.next(settings, {10, 20});  // step 5
  EXPECT_FALSE(in.fire);
  EXPECT_FLOAT_EQ(in.aim.y, 20);
  EXPECT_GT(in.aim.x, 10);
  EXPECT_FLOAT_EQ(in.move_x, 0.5f) << "move is held";
  EXPECT_EQ(player.steps(), 5u);
}

// Moves, aims and fires, and (optionally) switches pooling and storage on the way.
std::string busy_script(bool with_switches) {
  const auto at = [&](const char* frame, const char* switches) {
    return with_switches ? std::string(R"({"frame": )") + frame + ", " + switches + "}, " : std::string();
  };
  return std::string(R"({"frames": 300, "events": [
      {"frame": 1, "fire": true, "aim": {"direction": [0, 1]}},
      {"frame": 40, "move": [-1, 0.3]}, )") +
         at("61", R"("pooling": false)") + R"({"frame": 90, "move": [1, 0], "aim": {"point": [900, 700]}}, )" +
         at("121", R"("storage": "stable")") + R"({"frame": 150, "fire": false}, )" +
         R"({"frame": 160, "fire": true, "move": [0, 0]}, )" + at("181", R"("pooling": true)") +
         at("241", R"("storage": "contiguous", "pooling": false)") + R"({"frame": 299, "fire": false}]})";
}

std::uint64_t scripted_hash(const std::string& script_text, bool pooling, engine::StorageMode storage) {
  Scenario scenario = test::repo_scenario("default.json");
  scenario.pooling = pooling;
  scenario.storage = storage;
  Simulation sim(scenario, 42);
  ScriptPlayer player(script_of(script_text));
  std::uint64_t folded = 0;
  for (std::uint64_t f = 1; f <= player.script().frames; ++f) {
    sim.step(player.next(sim.settings(), sim.player_position()));
    if (f % 50 == 0) folded = folded * 0x100000001b3ull ^ sim.state_hash();
  }
  return folded;
}

TEST(ScriptedRun, SameGameWithPoolingOnOffContiguousStableAndSwitchedMidRun) {
  const std::string plain = busy_script(false);
  const std::uint64_t reference = scripted_hash(plain, true, engine::StorageMode::contiguous);
  EXPECT_EQ(scripted_hash(plain, false, engine::StorageMode::contiguous), reference);
  EXPECT_EQ(scripted_hash(plain, true, engine::StorageMode::stable), reference);
  EXPECT_EQ(scripted_hash(plain, false, engine::StorageMode::stable), reference);
  EXPECT_EQ(scripted_hash(busy_script(true), true, engine::StorageMode::contiguous), reference);
  EXPECT_EQ(scripted_hash(busy_script(true), false, engine::StorageMode::stable), reference);
}

TEST(PhaseRecorder, OnePhasePerSpanBetweenSettingsChanges) {
  Simulation sim(test::repo_scenario("default.json"), 7);
  ScriptPlayer player(script_of(R"({"frames": 90, "events": [
      {"frame": 1, "fire": true, "pooling": true},
      {"frame": 31, "pooling": false}, {"frame": 61, "pooling": true, "storage": "stable"}]})"));
  PhaseRecorder phases(sim, 90);
  run_headless(sim, 90, player, 0, &phases);
  const std::vector<PhaseSummary> p = phases.summaries();
  ASSERT_EQ(p.size(), 3u) << "pooling already on at frame 1 starts no extra phase";
  EXPECT_EQ(p[0].first_frame, 1u);
  EXPECT_EQ(p[0].last_frame, 30u);
  EXPECT_EQ(p[1].first_frame, 31u);
  EXPECT_EQ(p[1].last_frame, 60u);
  EXPECT_EQ(p[2].first_frame, 61u);
  EXPECT_EQ(p[2].last_frame, 90u);
  EXPECT_TRUE(p[0].pooling);
  EXPECT_FALSE(p[1].pooling);
  EXPECT_TRUE(p[2].pooling);
  EXPECT_EQ(p[2].storage, engine::StorageMode::stable);
  std::uint64_t growths = 0;
  for (const PhaseSummary& s : p) {
    EXPECT_GT(s.peak_live, 0u);
    EXPECT_GT(s.sim_ms.max, 0.0);
    EXPECT_LE(s.sim_ms.p50, s.sim_ms.p99);
    EXPECT_EQ(s.render_ms.max, 0.0) << "headless renders nothing";
    EXPECT_LE(s.heap_allocs_p50, s.heap_allocs_max);
    growths += s.growth_events;
  }
  EXPECT_EQ(growths, sim.stats().growth_events);
  const nlohmann::json j = phases_json(p);
  EXPECT_EQ(j.at(1).at("pooling"), "off");
  EXPECT_EQ(j.at(2).at("storage"), "stable");
  EXPECT_TRUE(j.at(0).at("heap_allocs").at("p50").is_number_unsigned());
}

TEST(PhaseRecorder, AStressChangeStartsAPhaseAndRenderTimesLandOnTheirStep) {
  Simulation sim(test::repo_scenario("default.json"), 7);
  ScriptPlayer player(script_of(R"({"frames": 20, "events": [{"frame": 11, "stress": 3}]})"));
  PhaseRecorder phases(sim, 20);
  run_headless(sim, 20, player, 0, &phases);
  phases.set_render_ms(12, 5.0);
  const std::vector<PhaseSummary> p = phases.summaries();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].first_frame, 11u);
  EXPECT_EQ(p[0].render_ms.max, 0.0);
  EXPECT_EQ(p[1].render_ms.max, 5.0);
}

}  // namespace
}  // namespace game
