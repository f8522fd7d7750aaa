// Scenario loading is strict: each kind of bad file gives one message naming the file,
// the key and the reason; the shipped scenarios load.
#include "sim/scenario.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace game {
namespace {

const std::string kMinimal = R"({"waves": [{"kind": "grunt"}]})";

std::string error_of(const std::string& text) {
  const ScenarioResult r = parse_scenario(text, "t.json");
  EXPECT_FALSE(r.scenario.has_value()) << "accepted: " << text;
  return r.error;
}

TEST(Scenario, ShippedScenariosLoad) {
  for (const char* name : {"default.json", "storm.json"}) {
    const ScenarioResult r = load_scenario(std::string(POOLSHOT_SCENARIO_DIR) + "/" + name);
    ASSERT_TRUE(r.scenario.has_value()) << r.error;
    EXPECT_FALSE(r.scenario->waves.empty());
  }
}

TEST(Scenario, MinimalFileGetsDefaults) {
  const ScenarioResult r = parse_scenario(kMinimal, "t.json");
  ASSERT_TRUE(r.scenario.has_value()) << r.error;
  EXPECT_EQ(r.scenario->waves.size(), 1u);
  EXPECT_EQ(r.scenario->player.lives, 3);
  EXPECT_TRUE(r.scenario->pooling);
  // Pools the file does not size get the library's own page rule (engine::page_slots_for).
  EXPECT_EQ(r.scenario->pools[static_cast<std::size_t>(PoolId::bullets)].page_slots, 0u);
}

TEST(Scenario, ReadsValues) {
  const ScenarioResult r = parse_scenario(
      R"({"seed": 18446744073709551615, "stress": 2.5, "storage": "stable", "walk": "swap_pop",
          "pools": {"particles": {"initial_capacity": 100, "growth_step": 50, "max_capacity": 1000, "page_slots": 128}},
          "waves": [{"kind": "boss", "pattern": "spiral", "count": 2, "hp": 50}]})",
      "t.json");
  ASSERT_TRUE(r.scenario.has_value()) << r.error;
  const Scenario& s = *r.scenario;
  EXPECT_EQ(s.seed, 18446744073709551615ull);
  EXPECT_FLOAT_EQ(s.stress, 2.5f);
  EXPECT_EQ(s.storage, engine::StorageMode::stable);
  EXPECT_EQ(s.walk, WalkMode::swap_pop);
  EXPECT_EQ(s.pools[static_cast<std::size_t>(PoolId::particles)].growth_step, 50u);
  EXPECT_EQ(s.pools[static_cast<std::size_t>(PoolId::particles)].page_slots, 128u);
  EXPECT_EQ(s.waves[0].kind, EnemyKind::boss);
  EXPECT_EQ(s.waves[0].pattern, FirePattern::spiral);
  EXPECT_EQ(s.waves[0].hp, 50);
}

TEST(Scenario, UnknownKeyNamesTheKey) {
  EXPECT_EQ(error_of(R"({"waves": [{"kind": "grunt", "bullet_sped": 3}]})"),
            "scenario 't.json': key 'waves[0].bullet_sped': unknown key");
  EXPECT_EQ(error_of(R"({"wavez": [], "waves": [{}]})"), "scenario 't.json': key 'wavez': unknown key");
}

TEST(Scenario, WrongTypeNamesKeyAndType) {
  EXPECT_EQ(error_of(R"({"stress": "high", "waves": [{}]})"),
            "scenario 't.json': key 'stress': must be a number in 0.01..1000 (got \"high\")");
  EXPECT_EQ(error_of(R"({"pooling": 1, "waves": [{}]})"),
            "scenario 't.json': key 'pooling': must be true or false (got 1)");
  EXPECT_EQ(error_of(R"({"waves": [{"count": 2.5}]})"),
            "scenario 't.json': key 'waves[0].count': must be an integer in 1..10000 (got 2.5)");
  EXPECT_EQ(error_of(R"({"waves": [{"kind": "dragon"}]})"),
            "scenario 't.json': key 'waves[0].kind': must be one of \"grunt\", \"spinner\", \"burster\", \"boss\", "
            "\"charger\" (got \"dragon\")");
  EXPECT_EQ(error_of(R"({"walk": "sorted", "waves": [{}]})"),
            "scenario 't.json': key 'walk': must be one of \"bitmap\", \"swap_pop\", \"slot_order\" (got \"sorted\")");
  EXPECT_EQ(error_of(R"({"weapon": [], "waves": [{}]})"),
            "scenario 't.json': key 'weapon': must be an object (got [])");
}

TEST(Scenario, AbsurdValuesAreRefused) {
  EXPECT_EQ(error_of(R"({"waves": [{"count": -5}]})"),
            "scenario 't.json': key 'waves[0].count': must be an integer in 1..10000 (got -5)");
  EXPECT_EQ(error_of(R"({"waves": [{"count": 1000000000}]})"),
            "scenario 't.json': key 'waves[0].count': must be an integer in 1..10000 (got 1000000000)");
  EXPECT_EQ(error_of(R"({"pools": {"bullets": {"max_capacity": 1000000000}}, "waves": [{}]})"),
            "scenario 't.json': key 'pools.bullets.max_capacity': must be an integer in 1..16777216 (got 1000000000)");
  EXPECT_EQ(error_of(R"({"pools": {"enemies": {"initial_capacity": 500, "max_capacity": 100}}, "waves": [{}]})"),
            "scenario 't.json': key 'pools.enemies.initial_capacity': must not exceed max_capacity (100)");
  EXPECT_EQ(error_of(R"({"pools": {"enemies": {"page_slots": 100}}, "waves": [{}]})"),
            "scenario 't.json': key 'pools.enemies.page_slots': must be 0 (automatic) or a power of two >= 64");
  EXPECT_EQ(error_of(R"({"pools": {"enemies": {"page_slots": 32}}, "waves": [{}]})"),
            "scenario 't.json': key 'pools.enemies.page_slots': must be 0 (automatic) or a power of two >= 64");
  EXPECT_EQ(error_of(R"({"seed": -1, "waves": [{}]})"),
            "scenario 't.json': key 'seed': must be an integer in 0..18446744073709551615 (got -1)");
  // Each value in range, the product absurd: a billion bullets a second.
  EXPECT_EQ(error_of(
                R"({"stress": 1000, "weapon": {"shots_per_second": 1000, "bullets_per_shot": 1000}, "waves": [{}]})"),
            "scenario 't.json': key 'stress': weapon.shots_per_second x stress x weapon.bullets_per_shot is "
            "1000000000 bullets per second; the limit is 1000000");
  EXPECT_EQ(error_of(R"({"waves": []})"), "scenario 't.json': key 'waves': must be an array of 1..1000 waves (got [])");
  EXPECT_EQ(error_of(R"({})"), "scenario 't.json': key 'waves': is required (an array of 1..1000 waves)");
}

TEST(Scenario, NotJsonAndTruncated) {
  EXPECT_NE(error_of("waves = 3").find("scenario 't.json': not valid JSON: "), std::string::npos);
  const std::string truncated = error_of(R"({"waves": [{"kind": "gru)");
  EXPECT_NE(truncated.find("not valid JSON"), std::string::npos) << truncated;
  EXPECT_NE(truncated.find("line 1"), std::string::npos) << truncated;
  EXPECT_EQ(error_of("[1, 2]"), "scenario 't.json': key '(top level)': must be an object (got [1,2])");
}

class ScenarioFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = game::test::scratch_path(std::string("poolshot_scenario_test_") +
                                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ScenarioFiles, MissingFile) {
  const std::string path = (dir_ / "nope.json").string();
  EXPECT_EQ(load_scenario(path).error, "scenario '" + path + "': cannot open: no such file");
}

TEST_F(ScenarioFiles, Directory) {
  EXPECT_EQ(load_scenario(dir_.string()).error, "scenario '" + dir_.string() + "': cannot open: is a directory");
}

TEST_F(ScenarioFiles, HugeFileIsRefusedWithoutReading) {
  const auto path = dir_ / "huge.json";
  { std::ofstream(path) << "{"; }
  std::filesystem::resize_file(path, 100u * 1024 * 1024);  // sparse: costs no disk, no time
  EXPECT_EQ(load_scenario(path.string()).error,
            "scenario '" + path.string() + "': file is 104857600 bytes; the limit is 1048576 bytes");
}

TEST_F(ScenarioFiles, ValidFileLoads) {
  const auto path = dir_ / "ok.json";
  { std::ofstream(path) << kMinimal; }
  const ScenarioResult r = load_scenario(path.string());
  ASSERT_TRUE(r.scenario.has_value()) << r.error;
  EXPECT_EQ(r.scenario->name, path.string());
}

}  // namespace
}  // namespace game
