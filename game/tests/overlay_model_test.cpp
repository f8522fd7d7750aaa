// The overlay shows what the report says: its model, built after a headless run, matches
// the report's independent sections (pools, growth log, frame times, heap allocations)
// field by field, and the report's "overlay" section is that model. Also the pieces the
// model is made of: the window's frame count, the rate meter, the refusal message.
#include "metrics/overlay_recorder.hpp"
#include "metrics/report.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <iterator>
#include <set>
#include <string>

namespace game {
namespace {

// default.json with tiny pools, so the run grows several times in its first seconds.
Scenario small_pools() {
  Scenario s = test::repo_scenario("default.json");
  test::use_tiny_pools(s, 16);
  return s;
}

struct RecordedRun {
  explicit RecordedRun(const Scenario& scenario, std::uint64_t frames, bool pooling = true) : sim(scenario, 3) {
    sim.settings().autofire = true;
    sim.settings().pooling = pooling;
    summary = run_headless(sim, frames, {}, kDefaultWarmupFrames, &recorder);
    model = recorder.model(sim);  // default view: 10 s = 600 steps
    report = make_report(sim, summary, {"small_pools", true, &model});
  }
  Simulation sim;
  OverlayRecorder recorder;
  FrameSummary summary;
  OverlayModel model;
  nlohmann::json report;
};

void expect_percentiles(const Percentiles& shown, const nlohmann::json& reported, const char* what) {
  // The report's frame_ms (FrameLog) and the overlay's window (OverlayRecorder) are two
  // engine::FrameStats fed the same steps by the one step loop, and their percentiles come
  // from the same function: equal to the last bit.
  EXPECT_EQ(shown.p50, reported.at("p50").get<double>()) << what;
  EXPECT_EQ(shown.p99, reported.at("p99").get<double>()) << what;
  EXPECT_EQ(shown.max, reported.at("max").get<double>()) << what;
}

TEST(OverlayModel, MatchesTheReportOfAHeadlessRunFieldByField) {
  const RecordedRun run(small_pools(), 600);
  const OverlayModel& m = run.model;
  const nlohmann::json& r = run.report;

  // Pools: the report's own section, filled from SimStats by report.cpp.
  std::uint64_t growths = 0;
  for (const PoolView& p : m.pools) {
    const nlohmann::json& rp = r.at("pools").at(pool_name(p.id));
    EXPECT_EQ(p.live, rp.at("live").get<std::size_t>()) << pool_name(p.id);
    EXPECT_EQ(p.capacity, rp.at("capacity").get<std::size_t>());
    EXPECT_EQ(p.free, p.capacity - p.live);
    EXPECT_EQ(p.peak_live, rp.at("peak_live").get<std::size_t>());
    EXPECT_EQ(p.bytes_held, rp.at("bytes_held").get<std::size_t>());
    EXPECT_EQ(p.growth_events, rp.at("growth_events").get<std::uint64_t>());
    EXPECT_EQ(p.spawns, rp.at("spawns").get<std::uint64_t>());
    EXPECT_EQ(p.releases, rp.at("releases").get<std::uint64_t>());
    EXPECT_EQ(p.refused_spawns, rp.at("refused_spawns").get<std::uint64_t>());
    if (p.id == PoolId::enemies) {  // every stale lookup of the enemy store is a homing shot's refusal
      EXPECT_EQ(p.stale_gets, r.at("game").at("stale_refusals").get<std::uint64_t>());
    }
    EXPECT_EQ(p.max_capacity, rp.at("policy").at("max_capacity").get<std::size_t>());
    EXPECT_DOUBLE_EQ(p.fill, static_cast<double>(p.live) / static_cast<double>(p.capacity));
    growths += p.growth_events;
  }
  EXPECT_GT(growths, 0u) << "pools of 16 slots must grow";
  EXPECT_GT(m.pools[static_cast<std::size_t>(PoolId::particles)].rates.emplaces_per_second, 0.0);

  // Growth log: row by row.
  const nlohmann::json& log = r.at("growth_log");
  ASSERT_EQ(m.growth_log.size(), log.size());
  EXPECT_EQ(m.growth_events, growths);
  for (std::size_t i = 0; i < log.size(); ++i) {
    const GrowthRecord& g = m.growth_log[i];
    EXPECT_EQ(pool_name(g.pool), log[i].at("pool").get<std::string>());
    EXPECT_EQ(g.frame, log[i].at("frame").get<std::uint64_t>());
    EXPECT_EQ(g.event.old_capacity, log[i].at("old_capacity").get<std::size_t>());
    EXPECT_EQ(g.event.new_capacity, log[i].at("new_capacity").get<std::size_t>());
    EXPECT_EQ(g.event.bytes_allocated, log[i].at("bytes_allocated").get<std::size_t>());
    EXPECT_EQ(g.event.relocated, log[i].at("relocated").get<bool>());
    EXPECT_DOUBLE_EQ(g.event.microseconds, log[i].at("microseconds").get<double>());
  }

  // Frame times: the 10 s window covers exactly the 600 steps the report's percentiles cover.
  const FrameWindow& w = m.window;
  ASSERT_EQ(w.rows.size(), r.at("frame_ms").at("timed_frames").get<std::size_t>());
  expect_percentiles(w.sim, r.at("frame_ms").at("sim"), "sim");
  expect_percentiles(w.total, r.at("frame_ms").at("total"), "total");
  EXPECT_EQ(w.allocations_max, r.at("heap_allocs").at("per_frame_max").get<std::uint64_t>());
  EXPECT_EQ(w.allocations_total, r.at("heap_allocs").at("during_frames").get<std::uint64_t>());

  // Growth markers sit on exactly the steps the growth log names (rows are 0-based frames,
  // the log counts steps from 1).
  std::set<std::uint64_t> marked, logged;
  for (const FrameRow& row : w.rows)
    if (row.grew != 0) marked.insert(row.frame + 1);
  for (const GrowthRecord& g : m.growth_log) logged.insert(g.frame);
  EXPECT_EQ(marked, logged);
  EXPECT_EQ(w.growth_frames, logged.size());

  // The report's "overlay" section is this model, and "advisor" its advice.
  const nlohmann::json& o = r.at("overlay");
  EXPECT_EQ(o, overlay_json(m));
  EXPECT_EQ(o.at("window").at("frames").get<std::size_t>(), 600u);
  EXPECT_EQ(o.at("pools").at("particles").at("peak_live").get<std::size_t>(),
            m.pools[static_cast<std::size_t>(PoolId::particles)].peak_live);
  EXPECT_EQ(r.at("advisor").at("pools").at("bullets").at("suggested_initial_capacity").get<std::size_t>(),
            m.advice[0].suggested_initial);
}

TEST(OverlayModel, HeapAllocationsReadZeroPooledAndManyWithPoolingOff) {
  // 20 s: the escalation's growths are over well before the last second.
  const RecordedRun pooled(test::repo_scenario("default.json"), 1200, true);
  const RecordedRun heap(test::repo_scenario("default.json"), 1200, false);
  // Steady state: the last second of each run.
  const auto last_second_allocs = [](const FrameWindow& w) {
    std::uint64_t n = 0;
    for (std::size_t i = w.rows.size() - 60; i < w.rows.size(); ++i) n += w.rows[i].allocations;
    return n;
  };
  EXPECT_EQ(last_second_allocs(pooled.model.window), 0u);
  EXPECT_GT(last_second_allocs(heap.model.window), 100u);
  EXPECT_EQ(pooled.model.latest.allocations, 0u);
  EXPECT_FALSE(heap.model.pools[0].pooled);
}

// The marks the graph draws: a scripted headless run that switches storage, walk and pooling
// gives the model's window one SwitchMark per switch, on the frame of the step that applied it,
// named as the graph labels it; the growth events still mark their rows.
TEST(OverlayModel, ExposesEverySwitchOnItsFrame) {
  ScriptResult parsed = parse_script(R"({"frames": 120, "events": [
      {"frame": 1, "fire": true, "aim": {"direction": [0, 1]}},
      {"frame": 31, "storage": "packed"}, {"frame": 61, "walk": "swap_pop", "storage": "stable"},
      {"frame": 91, "pooling": false}]})",
                                     "switches.json");
  ASSERT_TRUE(parsed.script) << parsed.error;
  ScriptPlayer script(*parsed.script);
  Simulation sim(small_pools(), 3);
  OverlayRecorder recorder;
  run_headless(sim, 120, script, kDefaultWarmupFrames, &recorder);
  const OverlayModel m = recorder.model(sim);
  const FrameWindow& w = m.window;
  ASSERT_EQ(w.rows.size(), 120u);
  struct Expected {
    std::uint64_t step;  // 1-based; the recorder's frame index is step - 1
    SwitchKind kind;
    const char* label;
  };
  const Expected expected[] = {{31, SwitchKind::storage, "packed"},
                               {61, SwitchKind::storage, "stable"},
                               {61, SwitchKind::walk, "swap-pop list"},
                               {91, SwitchKind::pooling, "pooling off"}};
  ASSERT_EQ(w.switches.size(), std::size(expected));
  for (std::size_t i = 0; i < w.switches.size(); ++i) {
    EXPECT_EQ(w.switches[i].frame, expected[i].step - 1) << i;
    EXPECT_EQ(w.switches[i].kind, expected[i].kind) << i;
    EXPECT_STREQ(w.switches[i].label, expected[i].label) << i;
  }
  EXPECT_TRUE(w.rows[90].heap && !w.rows[89].heap) << "the heap span starts on the pooling switch's frame";
  EXPECT_GT(w.growth_frames, 0u) << "tiny pools grow: their rows keep the growth marks";
  EXPECT_EQ(overlay_json(m).at("window").at("switches"), 4);
}

TEST(OverlayModel, RefusedSpawnsAreExplainedInPlainWords) {
  Scenario s = test::repo_scenario("default.json");
  PoolConfig& bullets = s.pools[static_cast<std::size_t>(PoolId::bullets)];
  bullets.initial_capacity = bullets.max_capacity = 32;
  s.stress = 6;  // far more bullets in flight than 32
  const RecordedRun run(s, 300);
  const PoolView& p = run.model.pools[static_cast<std::size_t>(PoolId::bullets)];
  ASSERT_GT(p.refused_spawns, 0u);
  EXPECT_TRUE(p.refusing());
  char text[192];
  ASSERT_TRUE(refusal_message(p, text, sizeof text));
  const std::string expected = "bullets: at max capacity 32, spawns refused: " + std::to_string(p.refused_spawns);
  EXPECT_EQ(std::string(text).rfind(expected, 0), 0u) << text;
  EXPECT_EQ(run.sim.frame(), 300u) << "the game goes on";
  EXPECT_LE(p.live, 32u);
  EXPECT_EQ(run.report.at("overlay").at("pools").at("bullets").at("refusal").get<std::string>(), text);
  // The other pools are fine and say nothing.
  EXPECT_FALSE(refusal_message(run.model.pools[static_cast<std::size_t>(PoolId::enemies)], text, sizeof text));
  EXPECT_STREQ(text, "");
}

TEST(OverlayModel, WindowCoversTheAskedSecondsOfFrames) {
  engine::FrameStats stats(2400, 16);
  for (int f = 0; f < 1000; ++f) {
    stats.begin_frame();
    stats.set_time(engine::FrameTimer::frame, 10.0);  // 100 fps of wall time
    stats.end_frame();
  }
  EXPECT_EQ(window_frame_count(stats, 2, 0), 200u);           // measured: 2 s / 10 ms
  EXPECT_EQ(window_frame_count(stats, 5, 1.0 / 60.0), 300u);  // deterministic: 5 s of steps
  EXPECT_EQ(window_frame_count(stats, 1, 1.0 / 60.0), 120u);  // clamped up to 2 s
  EXPECT_EQ(window_frame_count(stats, 60, 0), 1000u);         // 20 s asked, only 10 s kept
  EXPECT_EQ(window_frame_count(engine::FrameStats(8, 1), 10, 0), 0u);
}

TEST(OverlayModel, RateMeterCountsTheLastSecondOfSteps) {
  PoolRateMeter meter;
  std::array<StoreStats, kPoolCount> pools{};
  EXPECT_EQ(meter.rates(PoolId::bullets).emplaces_per_second, 0.0);
  for (std::uint64_t step = 1; step <= 200; ++step) {
    pools[0].spawns += 5;    // 300 per second
    pools[0].releases += 2;  // 120 per second
    if (step > 150) pools[0].refused_spawns += 1;
    if (step % 20 == 0) pools[3].stale_gets += 1;  // a homing shot's target died: 3 per second
    meter.sample(step, pools);
  }
  const PoolRates r = meter.rates(PoolId::bullets);
  EXPECT_DOUBLE_EQ(r.emplaces_per_second, 300.0);
  EXPECT_DOUBLE_EQ(r.releases_per_second, 120.0);
  EXPECT_EQ(r.refused_last_second, 50u);
  EXPECT_DOUBLE_EQ(meter.rates(PoolId::enemies).stale_gets_per_second, 3.0);
  EXPECT_EQ(meter.rates(PoolId::particles).emplaces_per_second, 0.0);
  meter.sample(200, pools);  // a repeated step (pause) does not shorten the second
  EXPECT_DOUBLE_EQ(meter.rates(PoolId::bullets).emplaces_per_second, 300.0);
  meter.clear();
  EXPECT_EQ(meter.rates(PoolId::bullets).emplaces_per_second, 0.0);
}

}  // namespace
}  // namespace game
