// The flow around play (GameFlow), the best-score file, and the rule under both: nothing
// spawns once the player is gone.
#include "app/best_score.hpp"
#include "app/game_flow.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace game {
namespace {

namespace fs = std::filesystem;

TEST(GameFlow, TitlePlayPauseGameOverRestart) {
  GameFlow flow(false, 500);
  EXPECT_EQ(flow.state(), FlowState::title);
  EXPECT_FALSE(flow.simulation_runs()) << "nothing steps on the title, so nothing spawns";
  flow.open_pause();
  EXPECT_EQ(flow.state(), FlowState::title) << "no pause menu on the title";
  EXPECT_FALSE(flow.restart().restart_sim);
  flow.start();
  EXPECT_EQ(flow.state(), FlowState::playing);
  EXPECT_TRUE(flow.simulation_runs());
  flow.open_pause();
  EXPECT_EQ(flow.state(), FlowState::paused);
  EXPECT_TRUE(flow.wants_clock_paused());
  EXPECT_FALSE(flow.simulation_runs());
  flow.resume();
  EXPECT_EQ(flow.state(), FlowState::playing);
  flow.observe(false, 300);
  EXPECT_EQ(flow.state(), FlowState::playing);
  flow.observe(true, 300);  // below the best
  EXPECT_EQ(flow.state(), FlowState::game_over);
  EXPECT_EQ(flow.final_score(), 300);
  EXPECT_EQ(flow.best_score(), 500);
  EXPECT_FALSE(flow.new_best());
  EXPECT_FALSE(flow.take_best_to_save());
  EXPECT_TRUE(flow.restart().restart_sim);
  EXPECT_EQ(flow.state(), FlowState::playing);
  flow.observe(true, 900);  // a new best, saved once
  EXPECT_TRUE(flow.new_best());
  EXPECT_EQ(flow.best_score(), 900);
  EXPECT_TRUE(flow.take_best_to_save());
  EXPECT_FALSE(flow.take_best_to_save());
  flow.observe(true, 900);
  EXPECT_EQ(flow.state(), FlowState::game_over);
  flow.observe(false, 0);  // autofire restarted the world by itself
  EXPECT_EQ(flow.state(), FlowState::playing);
}

TEST(GameFlow, PauseMenuIsKeyboardNavigable) {
  GameFlow flow(true, 0);
  EXPECT_EQ(flow.state(), FlowState::playing) << "skip_title: headless and scripted runs";
  flow.open_pause();
  EXPECT_EQ(flow.menu_selection(), PauseItem::resume);
  flow.menu_move(-1);
  EXPECT_EQ(flow.menu_selection(), PauseItem::quit) << "wraps";
  flow.menu_move(+1);
  flow.menu_move(+1);
  EXPECT_EQ(flow.menu_selection(), PauseItem::restart);
  FlowEffects e = flow.activate(PauseItem::overlay);
  EXPECT_TRUE(e.toggle_overlay);
  EXPECT_EQ(flow.state(), FlowState::paused) << "the menu stays open";
  EXPECT_TRUE(flow.activate(PauseItem::quit).quit);
  e = flow.activate(flow.menu_selection());
  EXPECT_TRUE(e.restart_sim);
  EXPECT_EQ(flow.state(), FlowState::playing);
  EXPECT_FALSE(flow.activate(PauseItem::quit).quit) << "no menu, no entries";
  // Paused from game over, resume goes back there.
  flow.observe(true, 10);
  flow.open_pause();
  flow.resume();
  EXPECT_EQ(flow.state(), FlowState::game_over);
}

struct TempDir {
  fs::path path = game::test::scratch_path("poolshot_best");
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(BestScore, RoundTripsAndStartsAtZero) {
  TempDir dir;
  const std::string path = (dir.path / "best_score.txt").string();
  EXPECT_EQ(read_best_score(path).best, 0);
  EXPECT_TRUE(read_best_score(path).error.empty()) << "no file yet is not an error";
  std::string error;
  ASSERT_TRUE(write_best_score(path, 123456789012345, error)) << error;
  const BestScoreRead r = read_best_score(path);
  EXPECT_EQ(r.best, 123456789012345);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  BestScoreFile file(path);
  EXPECT_EQ(file.loaded(), 123456789012345);
  file.save(7);
  EXPECT_EQ(BestScoreFile(path).loaded(), 7);
  EXPECT_FALSE(file.reported());
}

TEST(BestScore, CorruptFileIsOneLineAndABestOfZero) {
  TempDir dir;
  const fs::path path = dir.path / "best_score.txt";
  for (const char* text : {"", "garbage\n", "poolshot best score 1\n", "poolshot best score 1\n12x\n",
                           "poolshot best score 1\n-5\n", "poolshot best score 1\n99999999999999999999\n"}) {
    write_file(path, text);
    const BestScoreRead r = read_best_score(path.string());
    EXPECT_EQ(r.best, 0) << text;
    EXPECT_NE(r.error.find("ignored"), std::string::npos) << text << ": " << r.error;
  }
  write_file(path, "x");
  testing::internal::CaptureStderr();
  BestScoreFile file(path.string());
  file.save(42);  // the game goes on, and a good file replaces the broken one
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(file.loaded(), 0);
  EXPECT_TRUE(file.reported());
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(read_best_score(path.string()).best, 42);
}

TEST(BestScore, UnwritableFolderIsOneLineOnceAndTheGameGoesOn) {
  TempDir dir;
  const fs::path not_a_folder = dir.path / "file";
  write_file(not_a_folder, "a file where the folder should be");
  const std::string path = (not_a_folder / "best_score.txt").string();
  std::string error;
  EXPECT_FALSE(write_best_score(path, 1, error));
  EXPECT_NE(error.find("cannot save best score"), std::string::npos) << error;
  testing::internal::CaptureStderr();
  BestScoreFile file(path);
  file.save(10);
  file.save(20);  // still failing: quiet now
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_NE(err.find("the game goes on"), std::string::npos) << err;
}

// A $POOLSHOT_PREF_DIR that does not exist yet is made, parents and all, at the first save.
TEST(BestScore, AMissingFolderIsMadeAtTheFirstSave) {
  TempDir dir;
  const fs::path folder = dir.path / "new" / "prefs";
  const std::string path = (folder / "best_score.txt").string();
  ASSERT_FALSE(fs::exists(folder));
  testing::internal::CaptureStderr();
  BestScoreFile file(path);
  file.save(31);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(err.empty()) << err;
  EXPECT_FALSE(file.reported());
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_EQ(read_best_score(path).best, 31);
}

TEST(BestScore, PrefDirOverride) {
  setenv("POOLSHOT_PREF_DIR", "/tmp/somewhere", 1);
  EXPECT_EQ(best_score_path("/home/x/.local/share/poolshot/poolshot/"), "/tmp/somewhere/best_score.txt");
  unsetenv("POOLSHOT_PREF_DIR");
  EXPECT_EQ(best_score_path("/home/x/p/"), "/home/x/p/best_score.txt");
  EXPECT_EQ(best_score_path(nullptr), "");
}

// Once the game is over nothing new arrives: no wave, no enemy bullet.
TEST(GameFlow, NothingSpawnsWhileThePlayerIsDead) {
  Scenario scenario = test::repo_scenario("default.json");
  scenario.player.lives = 1;
  Simulation sim(scenario, 1);
  Input idle;  // never fires: the enemies win
  int steps = 0;
  while (!sim.game_over() && steps < 60 * 120) {
    sim.step(idle);
    ++steps;
  }
  ASSERT_TRUE(sim.game_over()) << "a player who never fires loses";
  const SimStats at_death = sim.stats();
  for (int f = 0; f < 600; ++f) sim.step(idle);
  const SimStats later = sim.stats();
  const auto spawns = [](const SimStats& s, PoolId id) { return s.pools[static_cast<std::size_t>(id)].spawns; };
  EXPECT_EQ(later.wave, at_death.wave);
  EXPECT_EQ(spawns(later, PoolId::enemies), spawns(at_death, PoolId::enemies));
  EXPECT_EQ(spawns(later, PoolId::enemy_bullets), spawns(at_death, PoolId::enemy_bullets));
  EXPECT_EQ(spawns(later, PoolId::bullets), spawns(at_death, PoolId::bullets));
}

}  // namespace
}  // namespace game
