// One step loop, one frame recorder. Every way the game is stepped outside the
// window (run_headless, the A/B compare, the soak) goes through game::StepLoop, and every
// frame-time percentile (the report, the compare, the overlay's window and spans, the phases)
// comes from engine::FrameStats / engine::summarize_times. These tests pin that: the same
// steps give the same game whichever caller takes them, and the same series gives the same
// percentiles whichever view shows it.
#include "app/compare_run.hpp"
#include "app/headless_run.hpp"
#include "app/step_loop.hpp"
#include "metrics/overlay_recorder.hpp"
#include "metrics/phase_recorder.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace game {
namespace {

// 1..100 ms in a scrambled order: nearest rank gives p50 50, p99 99, max 100.
std::vector<double> scrambled_series() {
  std::vector<double> v;
  for (int i = 0; i < 100; ++i) v.push_back(static_cast<double>((i * 37) % 100 + 1));
  return v;
}

void expect_exact(const Percentiles& p, const char* who) {
  EXPECT_EQ(p.p50, 50.0) << who;
  EXPECT_EQ(p.p99, 99.0) << who;
  EXPECT_EQ(p.max, 100.0) << who;
}

// SimStats are built once per step, at its end (and once by the constructor), however many
// views read them: the step loop, the overlay's recorder, the phase recorder, the model.
TEST(OneStepLoop, SimStatsAreBuiltOncePerStepWhateverReadsThem) {
  Simulation sim(test::repo_scenario("default.json"), 3);
  sim.settings().autofire = true;
  EXPECT_EQ(sim.stats_builds(), 1u) << "the constructor's";
  OverlayRecorder overlay;
  PhaseRecorder phases(sim, 300);
  StepObservers both{&overlay, &phases};
  run_headless(sim, 300, Input{}, 0, &both);
  const OverlayModel model = overlay.model(sim);
  EXPECT_EQ(model.sim_step, 300u);
  EXPECT_GT(sim.stats().pools[static_cast<std::size_t>(PoolId::bullets)].live, 0u) << "a run with load";
  EXPECT_EQ(sim.stats_builds(), 301u) << "one build per step, read by every view";
}

TEST(OneFrameRecorder, EveryViewGivesTheSamePercentilesOfOneSeries) {
  const std::vector<double> series = scrambled_series();
  // The report's FrameLog.
  FrameLog log(series.size(), 0);
  for (const double ms : series) log.record(ms, 0.0, 0, false);
  const FrameSummary report = log.summary();
  expect_exact(report.sim_ms, "FrameLog (report frame_ms.sim)");
  expect_exact(report.total_ms, "FrameLog (report frame_ms.total)");
  // The compare's series: its percentiles are its FrameLog's.
  CompareSeries compare;
  compare.log = FrameLog(series.size(), 0);
  for (const double ms : series) compare.log.record(ms, 0.0, 0, false);
  EXPECT_EQ(compare.steps(), series.size());
  expect_exact(compare.log.summary(false).sim_ms, "CompareSeries");
  // The overlay's window and spans over the runtime's FrameStats.
  engine::FrameStats frames(kOverlayStatsFrames);
  for (const double ms : series) {
    frames.begin_frame();
    frames.set_time(engine::FrameTimer::simulation, ms);
    frames.end_frame();
  }
  const Simulation sim(test::repo_scenario("default.json"), 1);
  OverlayViewOptions view;
  view.fixed_frame_seconds = Simulation::kStepSeconds;  // 10 s window: all 100 frames
  const OverlayModel model = make_overlay_model({sim, frames, PoolRateMeter{}}, view);
  ASSERT_EQ(model.window.rows.size(), series.size());
  expect_exact(model.window.sim, "FrameWindow");
  expect_exact(model.window.total, "FrameWindow total");
  ASSERT_TRUE(model.spans.pooled.found);
  expect_exact(model.spans.pooled.sim, "PoolingSpan");
  // A series kept outside a FrameStats (the phases) goes through the same function.
  std::vector<double> copy = series;
  expect_exact(percentiles_of(copy), "percentiles_of (phases)");
}

TEST(OneFrameRecorder, AWrappedLogSummarisesOnlyItsNewestFrames) {
  FrameLog log(10, 0);
  for (int i = 1; i <= 25; ++i) log.record(i, 1.0, 0, false);  // keeps 16..25
  const FrameSummary s = log.summary();
  EXPECT_EQ(s.frames, 25u);
  EXPECT_EQ(s.timed_frames, 10u);
  EXPECT_EQ(s.sim_ms.p50, 20.0);
  EXPECT_EQ(s.sim_ms.max, 25.0);
  EXPECT_EQ(s.total_ms.max, 26.0) << "total is simulation + render";
  ASSERT_EQ(s.series.size(), 10u);
  EXPECT_EQ(s.series.front().frame, 16u);
}

TEST(OneStepLoop, CompareRunsPercentilesAreItsRecordersAsTheReportsAre) {
  Settings settings = settings_from(test::repo_scenario("default.json"));
  const CompareResult r = run_compare(test::repo_scenario("default.json"), 5, settings, 120);
  ASSERT_TRUE(r.done);
  for (const CompareSeries* s : {&r.pooled, &r.heap}) {
    ASSERT_EQ(s->steps(), 120u);
    const FrameSummary f = s->log.summary();
    EXPECT_EQ(s->sim.p50, f.sim_ms.p50);
    EXPECT_EQ(s->sim.p99, f.sim_ms.p99);
    EXPECT_EQ(s->sim.max, f.sim_ms.max);
    EXPECT_EQ(s->heap_allocs_total, f.heap_allocs_total);
    // The same step times replayed into a fresh log (as run_headless keeps) summarise alike.
    FrameLog again(120, 0);
    for (std::size_t i = 0; i < s->steps(); ++i) {
      again.record(s->log.frames().sample(i).ms[static_cast<std::size_t>(engine::FrameTimer::simulation)], 0, 0, false);
    }
    EXPECT_EQ(again.summary().sim_ms.p99, s->sim.p99);
  }
  // Each compare run is the headless run of the same settings under its load, the hold-fire
  // script's input (autofire off): same steps, same game.
  Simulation pooled(test::repo_scenario("default.json"), 5);
  pooled.settings() = settings;
  pooled.settings().autofire = false;
  ScriptResult hold_fire = load_script(std::string(POOLSHOT_SCENARIO_DIR) + "/../scripts/hold_fire.json");
  ASSERT_TRUE(hold_fire.script) << hold_fire.error;
  ScriptPlayer player(std::move(*hold_fire.script));
  run_headless(pooled, 120, player);
  EXPECT_EQ(pooled.state_hash(), r.pooled.state_hash);
}

TEST(OneStepLoop, RunHeadlessIsTheLoopWithALog) {
  Simulation a(test::repo_scenario("default.json"), 9), b(test::repo_scenario("default.json"), 9);
  a.settings().autofire = b.settings().autofire = true;
  const FrameSummary s = run_headless(a, 200);
  StepLoop loop(b, nullptr);
  loop.run(200, [] { return Input{}; });
  EXPECT_EQ(loop.steps(), 200u);
  EXPECT_EQ(s.frames, 200u);
  EXPECT_EQ(a.frame(), b.frame());
  EXPECT_EQ(a.state_hash(), b.state_hash());
}

// The soak's reference run and `poolshot --headless` of the same scenario: both binaries step
// through the one loop, the same number of steps, to the same state hash.
std::string hash_after(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  return at == std::string::npos ? std::string() : text.substr(at + marker.size(), 18);
}

TEST(OneStepLoop, TheSoakAndTheHeadlessRunTakeTheSameStepsToTheSameHash) {
  const std::string scenario = std::string(POOLSHOT_SOAK_SCENARIO);
  const test::RunResult soak =
      test::run_binary(POOLSHOT_SOAK_BINARY, "--scenario '" + scenario + "' --frames 1200 --switch-every 150 --seed 7",
                       test::Streams::stdout_and_stderr);
  ASSERT_EQ(soak.exit_code, 0) << soak.out;
  const test::RunResult headless =
      test::run_binary(POOLSHOT_BINARY, "--headless --autofire --seed 7 --frames 1200 --scenario '" + scenario + "'",
                       test::Streams::stdout_and_stderr);
  ASSERT_EQ(headless.exit_code, 0) << headless.out;
  EXPECT_NE(soak.out.find("PASSED after 1200 frames"), std::string::npos) << soak.out;
  EXPECT_NE(headless.out.find("simulated 1200 frames"), std::string::npos) << headless.out;
  const std::string reference = hash_after(soak.out, "(reference "), switched = hash_after(soak.out, "state_hash ");
  ASSERT_EQ(reference.size(), 18u) << soak.out;
  EXPECT_EQ(switched, reference) << "the soak's switched run is the same game";
  EXPECT_EQ(hash_after(headless.out, "state_hash "), reference) << soak.out << "\n" << headless.out;
}

}  // namespace
}  // namespace game
