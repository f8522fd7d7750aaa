// The frame-time graph with pooling switched off and on again, checked by pixels: an
// offscreen 1280x720 run of the real game (deterministic time, one step per frame, autofire)
// that runs pooled, then heap, then pooled. The screenshot's graph must show (a) the heap
// span: a tint across both lanes over exactly the heap frames' columns, labelled, and
// nowhere else; (b) the simulation's own lane: its trace across the lane's width, reaching
// its upper part, because that lane is scaled to the simulation and not to rendering.
// The same run without the switch shades nothing: the check can fail.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/pixel_probe.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>
#include <engine/image.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace game {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kFrames = 300;                       // 5 s: the 10 s window shows them all
constexpr std::uint64_t kHeapFrom = 100, kHeapUntil = 220;  // frames with pooling off: [from, until)

// GameApp, with pooling switched at chosen steps the way the overlay's Controls switch it:
// through Simulation::settings(), which the next step applies.
class SwitchingHooks final : public engine::AppHooks {
 public:
  SwitchingHooks(Simulation& sim, GameApp& game, bool switch_pooling)
      : sim_(sim), game_(game), switch_(switch_pooling) {}
  void fixed_update(const engine::InputState& input, double dt) override {
    const std::uint64_t step = sim_.frame();  // the step about to run is frame `step` (one per frame)
    if (switch_) sim_.settings().pooling = !(step >= kHeapFrom && step < kHeapUntil);
    game_.fixed_update(input, dt);
  }
  engine::RuntimeActions runtime_actions(const engine::InputState& input) override {
    return game_.runtime_actions(input);
  }
  void place_camera(engine::Camera2D& camera, glm::ivec2 window_size) override {
    game_.place_camera(camera, window_size);
  }
  void render(engine::RenderContext& context) override { game_.render(context); }
  void hud() override { game_.hud(); }
  void imgui() override { game_.imgui(); }
  bool wants_quit() const override { return game_.wants_quit(); }

 private:
  Simulation& sim_;
  GameApp& game_;
  bool switch_;
};

struct Shot {
  engine::Image image;
  FrameGraphRects graph;
  std::size_t rows = 0, heap_rows = 0;
  std::string skip;  // set when there is no GL here
};

Shot take_shot(bool switch_pooling) {
  const fs::path path = game::test::scratch_path("poolshot_heap_span_" + std::to_string(switch_pooling) + ".png");
  Shot shot;
  // The graph is under test, not the load: without the escalation the frame times stay even,
  // so the tint is the only thing that changes across the span.
  Scenario scenario = test::repo_scenario("default.json");
  scenario.escalation.max_multiplier = 1;
  Simulation sim(scenario, 1);
  sim.settings().autofire = true;
  const engine::AppConfig config = test::offscreen_game_config(kFrames, path.string());
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) {
    shot.skip = s.message();
    return shot;
  }
  GameApp game(sim, app, kDefaultWarmupFrames);
  SwitchingHooks hooks(sim, game, switch_pooling);
  EXPECT_EQ(app.run(hooks), 0);
  EXPECT_TRUE(engine::load_png(path.string(), shot.image).is_ok());
  shot.graph = game.panel().graph_rects();
  const OverlayModel model = game.overlay_model();
  shot.rows = model.window.rows.size();
  shot.heap_rows = model.window.heap_frames;
  // POOLSHOT_KEEP_SHOTS=DIR keeps the picture there, to look at what the test checked.
  if (const char* keep = std::getenv("POOLSHOT_KEEP_SHOTS"))
    fs::copy_file(path, fs::path(keep) / path.filename(), fs::copy_options::overwrite_existing);
  fs::remove(path);
  return shot;
}

// The heap tint over the graph's dark background: clearly orange, never as bright as a
// trace, a marker or the label (a particles growth mark is orange too, but bright and 1 px).
bool tinted(std::uint32_t c) {
  const int r = test::channel(c, 0), g = test::channel(c, 8), b = test::channel(c, 16);
  return r >= 40 && r <= 110 && r - b >= 22 && r - g >= 12;
}

// Per pixel column of the graph box: is most of it tinted?
std::vector<bool> tinted_columns(const engine::Image& img, const ScreenRect& box) {
  std::vector<bool> out;
  for (int x = static_cast<int>(box.x0); x < static_cast<int>(box.x1); ++x) {
    int n = 0, total = 0;
    for (int y = static_cast<int>(box.y0) + 3; y < static_cast<int>(box.y1) - 3; ++y, ++total)
      n += tinted(img.pixel(x, y)) ? 1 : 0;
    out.push_back(n * 4 >= total);  // a quarter: traces, areas and grid cover the rest
  }
  return out;
}

TEST(OverlayHeapSpanScreenshot, HeapSpanIsShadedAndLabelledAndTheSimLaneHasItsTrace) {
  const Shot shot = take_shot(true);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  const engine::Image& img = shot.image;
  const FrameGraphRects& g = shot.graph;
  ASSERT_FALSE(g.box.empty());
  ASSERT_FALSE(g.render_lane.empty());
  ASSERT_FALSE(g.sim_lane.empty());
  ASSERT_EQ(shot.rows, static_cast<std::size_t>(kFrames)) << "the window shows the whole session";
  ASSERT_EQ(shot.heap_rows, kHeapUntil - kHeapFrom);
  // The simulation lane sits below the rendering lane, both inside the box.
  EXPECT_LT(g.render_lane.y1, g.sim_lane.y0);
  EXPECT_GE(g.render_lane.y0, g.box.y0);
  EXPECT_LE(g.sim_lane.y1, g.box.y1);
  EXPECT_GT(g.sim_lane.y1 - g.sim_lane.y0, 40.0f) << "a lane tall enough to read";

  // (a) The tint: one run of columns, where the heap frames are drawn (frame i at
  // x0 + width * i / (rows - 1), each column half a frame either side), and nowhere else.
  const std::vector<bool> cols = tinted_columns(img, g.box);
  // A frame-time spike (real wall time, not deterministic) can cover a column or two of the
  // tint with its area: gaps of up to kSpikeGap columns do not split a run.
  constexpr int kSpikeGap = 6;
  int first = -1, last = -1, runs = 0;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (!cols[i]) continue;
    if (last < 0 || static_cast<int>(i) - last > kSpikeGap + 1) ++runs;
    if (first < 0) first = static_cast<int>(i);
    last = static_cast<int>(i);
  }
  ASSERT_EQ(runs, 1) << "one shaded span; first " << first << " last " << last;
  const float width = g.render_lane.x1 - g.render_lane.x0, step = width / static_cast<float>(kFrames - 1);
  const float want_x0 = g.render_lane.x0 + step * (static_cast<float>(kHeapFrom) - 0.5f);
  const float want_x1 = g.render_lane.x0 + step * (static_cast<float>(kHeapUntil - 1) + 0.5f);
  EXPECT_NEAR(g.box.x0 + static_cast<float>(first), want_x0, 3.0f);
  EXPECT_NEAR(g.box.x0 + static_cast<float>(last), want_x1, 3.0f);
  // The tint reaches both lanes: in the middle of the span, the sim lane's column is tinted too.
  const int mid = static_cast<int>((want_x0 + want_x1) / 2);
  std::size_t sim_tint = 0;
  for (int y = static_cast<int>(g.sim_lane.y0); y < static_cast<int>(g.sim_lane.y1); ++y)
    for (int x = mid - 10; x < mid + 10; ++x) sim_tint += tinted(img.pixel(x, y)) ? 1u : 0u;
  EXPECT_GT(sim_tint, 40u) << "the tint is behind the simulation lane as well";
  // Labelled: text in the heap colour at the top of the span.
  EXPECT_GT(test::count(img, want_x0, g.render_lane.y0, want_x1, g.render_lane.y0 + 16,
                        test::opaque(overlay_colors::heap), 40),
            15u)
      << "the span's label";

  // (b) The simulation lane's trace: in most of its columns, and in its upper part
  // somewhere (the lane is scaled to the simulation's own times).
  const ScreenRect& s = g.sim_lane;
  std::size_t traced = 0, columns = 0;
  float top_y = s.y1;
  for (int x = static_cast<int>(s.x0) + 1; x < static_cast<int>(s.x1) - 1; ++x, ++columns) {
    bool hit = false;
    for (int y = static_cast<int>(s.y0) - 1; y <= static_cast<int>(s.y1) + 1; ++y) {
      if (!test::near(img.pixel(x, y), test::opaque(overlay_colors::sim_line), 30)) continue;
      hit = true;
      top_y = std::min(top_y, static_cast<float>(y));
    }
    traced += hit ? 1u : 0u;
  }
  EXPECT_GT(traced, columns * 9 / 10) << "sim trace columns " << traced << " of " << columns;
  EXPECT_LT(top_y, s.y0 + (s.y1 - s.y0) * 0.35f) << "the trace uses its lane's height";
}

TEST(OverlayHeapSpanScreenshot, AllPooledRunShadesNothing) {
  const Shot shot = take_shot(false);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  ASSERT_FALSE(shot.graph.box.empty());
  EXPECT_EQ(shot.heap_rows, 0u);
  std::size_t shaded = 0;
  for (const bool c : tinted_columns(shot.image, shot.graph.box)) shaded += c ? 1u : 0u;
  EXPECT_EQ(shaded, 0u);
}

}  // namespace
}  // namespace game
