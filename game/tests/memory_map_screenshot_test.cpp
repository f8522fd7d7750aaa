// The "Memory map" section on screen: an offscreen run of the real game with the section open,
// checked by pixels inside the blocks the section says it drew. Contiguous storage after churn
// shows holes (cells of the hole colour between live ones); a pool walked in slot order shows a
// walk view with both ends of the ramp. Each storage mode below says what its block must show.
#include "sim/atlas_cells.hpp"
#include "tests/offscreen_game.hpp"
#include "app/game_app.hpp"
#include "app/headless_run.hpp"
#include "metrics/memory_map.hpp"
#include "metrics/overlay_recorder.hpp"
#include "tests/pixel_probe.hpp"
#include "tests/test_support.hpp"

#include <engine/application.hpp>
#include <engine/image.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;
using test::count;

struct MapShot {
  engine::Image image;
  MemoryMapRects rects;
  std::string skip;  // set when there is no GL here
};

MapShot take_map_shot(engine::StorageMode storage, std::int64_t frames) {
  const fs::path path = game::test::scratch_path("poolshot_memory_map_shot.png");
  MapShot shot;
  Scenario scenario = test::repo_scenario("default.json");
  scenario.storage = storage;
  Simulation sim(scenario, 1);
  sim.settings().autofire = true;
  engine::AppConfig config = test::offscreen_game_config(frames, path.string());
  config.width = 1280;
  config.height = 1100;  // tall enough for every open section above the map
  engine::Application app(config);
  if (const engine::Status s = app.init(); !s) {
    shot.skip = s.message();
    return shot;
  }
  GameApp game(sim, app, kDefaultWarmupFrames);
  game.panel().open_memory_map();
  EXPECT_EQ(app.run(game), 0);
  EXPECT_TRUE(engine::load_png(path.string(), shot.image).is_ok());
  shot.rects = game.panel().memory_map_rects();
  if (std::getenv("POOLSHOT_KEEP_SHOT") == nullptr) fs::remove(path);
  return shot;
}

std::uint32_t hole_colour() { return occupancy_color(MapCell{0, 16, false, false, -1, 0}); }
std::uint32_t full_colour() { return occupancy_color(MapCell{16, 16, false, false, -1, 0}); }
std::uint32_t spare_colour() { return occupancy_color(MapCell{0, 16, true, false, -1, 0}); }

struct Expectation {
  engine::StorageMode storage;
  bool holes;  // after churn: contiguous and stable keep holes; a packed layout draws one solid block
};

class MemoryMapScreenshot : public ::testing::TestWithParam<Expectation> {};

TEST_P(MemoryMapScreenshot, ParticlesAfterChurn) {
  const Expectation e = GetParam();
  const MapShot shot = take_map_shot(e.storage, 240);
  if (!shot.skip.empty()) GTEST_SKIP() << "no offscreen GL here: " << shot.skip;
  const ScreenRect r = shot.rects.occupancy[static_cast<std::size_t>(PoolId::particles)];
  ASSERT_FALSE(r.empty()) << "the section drew no particles block";
  ASSERT_LE(r.y1, static_cast<float>(shot.image.height)) << "the block is off screen";
  // Holed pixels: cells with a free slot below the last live object, partly (orange) or wholly
  // (red): everything in the block that is neither full, nor spare capacity, nor a page edge.
  const std::size_t area = static_cast<std::size_t>((r.x1 - r.x0) * (r.y1 - r.y0));
  const std::size_t full = count(shot.image, r.x0, r.y0, r.x1, r.y1, full_colour(), 6);
  const std::size_t spare = count(shot.image, r.x0, r.y0, r.x1, r.y1, spare_colour(), 6);
  const std::size_t edges = count(shot.image, r.x0, r.y0, r.x1, r.y1, kPageEdgeColor, 6);
  const std::size_t holed = area - full - spare - edges;
  EXPECT_GT(full, 0u) << "some cells are full";
  if (e.holes) {
    EXPECT_GT(holed, area / 50) << "churned storage must show holes (" << holed << " of " << area << " pixels)";
  } else {
    EXPECT_EQ(holed, 0u) << "a packed pool is one solid block, then spare capacity";
  }
  // The walk view: slot order runs from the ramp's first colour to its last.
  const ScreenRect w = shot.rects.walk[static_cast<std::size_t>(PoolId::particles)];
  const std::uint32_t first = walk_color(MapCell{1, 16, false, false, 0.0f, 0});
  const std::uint32_t last = walk_color(MapCell{1, 16, false, false, 1.0f, 0});
  EXPECT_GT(count(shot.image, w.x0, w.y0, w.x1, w.y1, first, 40), 0u);
  EXPECT_GT(count(shot.image, w.x0, w.y0, w.x1, w.y1, last, 40), 0u);
  EXPECT_NE(hole_colour(), full_colour());
}

INSTANTIATE_TEST_SUITE_P(Storage, MemoryMapScreenshot,
                         ::testing::Values(Expectation{engine::StorageMode::contiguous, true},
                                           Expectation{engine::StorageMode::stable, true},
                                           Expectation{engine::StorageMode::packed, false}),
                         [](const ::testing::TestParamInfo<Expectation>& param_info) {
                           return std::string(engine::storage_mode_name(param_info.param.storage));
                         });

}  // namespace
}  // namespace game
