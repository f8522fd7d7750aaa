// Homing shots keep their target as the enemy store's handle. The gameplay test: a
// shot whose target died never hits the enemy that took over the target's slot; it refuses
// the stale handle (one refusal counted), locks on to the nearest enemy by the search rule
// and hits that one instead. Pooled and heap; plus the scenario key and the whole game.
#include "sim/bullet_manager.hpp"
#include "sim/collision_grid.hpp"
#include "sim/enemy_manager.hpp"
#include "sim/homing.hpp"
#include "tests/test_support.hpp"

#include <engine/pool/worker_team.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace game {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// No waves arrive (the first is ten minutes away): the test places every enemy itself.
Scenario quiet_scenario() {
  Scenario s;
  WaveConfig far_off;
  far_off.delay = 600;
  s.waves.push_back(far_off);
  s.homing.share = 1;
  s.homing.turn_rate = 8;
  s.homing.seek_radius = 420;
  return s;
}

engine::GrowthPolicy small_policy() {
  engine::GrowthPolicy p;
  p.initial_capacity = 16;
  p.max_capacity = 1024;
  return p;
}

// The playfield of one test: enemies placed by hand, one homing shot, the real grid, the
// real bullet update and steering.
class HomingShot : public ::testing::TestWithParam<bool> {
 protected:
  HomingShot()
      : enemies_(small_policy(), GetParam(), 1, scenario_, kDt),
        bullets_(small_policy(), GetParam()),
        grid_(world_.expanded(112), 64, 3) {}

  engine::PoolHandle place(std::uint64_t seq, Vec2 at) {
    Enemy e;
    e.seq = seq;
    e.pos = e.prev = e.station = at;
    e.hp = e.max_hp = 3;
    return enemies_.store().spawn_handle(e);
  }
  Enemy& enemy(engine::PoolHandle h) { return *enemies_.store().get(h); }
  std::uint64_t reported_refusals_ = 0;  // of stale_refusals_, those noted to the store

  // One step as Simulation::step runs it: sort, grid, bullets steer, move and hit (hits
  // applied after the pass), then the two-phase sweep of the dead.
  void step() {
    enemies_.sort_by_seq();
    grid_.build(enemies_.by_seq());
    const HomingField field{enemies_.store(), grid_, enemies_.by_seq(), enemies_.handles_by_seq(), world_};
    std::vector<std::int32_t> struck;
    bullets_.update(
        team_, kDt, world_.expanded(48),
        [&](std::size_t, const Bullet& b) {
          const std::int32_t i = grid_.first_overlap(b.pos, b.radius);
          if (i >= 0) struck.push_back(i);
          return i >= 0;
        },
        [&](std::size_t, Bullet& b) { steer_homing_shot(b, field, scenario_.homing, frame_, kDt, stale_refusals_); });
    // Steering asks contains(), which counts nothing (it may run on several threads); the
    // simulation reports the step's refusals to the store afterwards, as here.
    enemies_.store().note_stale_lookups(stale_refusals_ - reported_refusals_);
    reported_refusals_ = stale_refusals_;
    for (const std::int32_t i : struck) enemies_.by_seq()[static_cast<std::size_t>(i)]->hp -= 1;
    enemies_.sweep();
    ++frame_;
  }
  Bullet* shot() {
    Bullet* found = nullptr;
    bullets_.store().for_each([&](Bullet& b) { found = &b; });
    return found;
  }

  Scenario scenario_ = quiet_scenario();
  Rect world_{{0, 0}, {1280, 720}};
  engine::WorkerTeam team_{1};  // one thread: `struck` and the refusals are this test's own
  EnemyManager enemies_;
  BulletManager bullets_;
  CollisionGrid grid_;
  std::uint64_t frame_ = 1;
  std::uint64_t stale_refusals_ = 0;
};

TEST_P(HomingShot, ShotWhoseTargetDiedNeverHitsTheEnemyInItsSlot) {
  // Filler enemies first, so A's slot is not simply slot 0.
  for (std::uint64_t s = 1; s <= 3; ++s) place(s, {100.0f * static_cast<float>(s), 690});
  const engine::PoolHandle a = place(10, {600, 600});  // straight ahead of the shot
  const engine::PoolHandle c = place(11, {760, 380});  // off to the right
  Bullet* b = bullets_.store().get(bullets_.fire({600, 100}, {0, 950}, 3, 0xffffffffu, 1));
  ASSERT_NE(b, nullptr);
  b->target = a;
  for (int i = 0; i < 3; ++i) step();
  ASSERT_EQ(stale_refusals_, 0u);
  ASSERT_EQ(shot()->target, a) << "locked on to A while A lives";

  // A dies (another shot got it) and is swept; B arrives and takes A's slot.
  enemy(a).hp = 0;
  enemies_.sweep();
  const engine::PoolHandle b_handle = place(12, {350, 330});
  ASSERT_EQ(b_handle.index, a.index) << "setup: the LIFO free stack must give B the slot A had";
  ASSERT_NE(b_handle.generation, a.generation);

  // The next step refuses A's handle (one refusal) and picks the nearest enemy within
  // seek_radius: C (about 283 away) before B (about 310 away).
  const Vec2 from = shot()->pos;
  ASSERT_LT(length_squared(enemy(c).pos - from), length_squared(enemy(b_handle).pos - from)) << "setup: C is nearer";
  step();
  EXPECT_EQ(stale_refusals_, 1u);
  ASSERT_NE(shot(), nullptr);
  EXPECT_EQ(shot()->target, c) << "retargeted by the search rule, not to whoever holds A's slot";

  for (int i = 0; i < 120 && shot() != nullptr; ++i) step();
  EXPECT_EQ(shot(), nullptr) << "the shot struck something";
  EXPECT_EQ(enemy(b_handle).hp, 3) << "B, in A's old slot, was never hit";
  EXPECT_EQ(enemy(c).hp, 2) << "C, the search's pick, was hit";
  EXPECT_EQ(stale_refusals_, 1u);
  EXPECT_EQ(enemies_.store().stats().stale_gets, 1u) << "the store counted the same refusal";
}

TEST_P(HomingShot, SearchPicksTheNearestAndBreaksTiesBySeq) {
  // Two enemies at the same distance: the lower seq wins whatever slot or storage it is in.
  const engine::PoolHandle high = place(20, {500, 400});  // spawned first, higher seq
  const engine::PoolHandle low = place(7, {700, 400});
  Bullet* b = bullets_.store().get(bullets_.fire({600, 100}, {0, 950}, 3, 0xffffffffu, 1));
  ASSERT_NE(b, nullptr);
  b->target = kSeekingTarget;
  step();
  EXPECT_EQ(shot()->target, low);
  EXPECT_NE(shot()->target, high);
  EXPECT_EQ(stale_refusals_, 0u) << "having no target is not a refusal";
}

TEST_P(HomingShot, NothingInRangeFliesStraightAndCountsNothing) {
  place(1, {1200, 700});  // far outside seek_radius
  Bullet* b = bullets_.store().get(bullets_.fire({100, 100}, {0, 950}, 3, 0xffffffffu, 1));
  ASSERT_NE(b, nullptr);
  b->target = kSeekingTarget;
  for (int i = 0; i < 10; ++i) step();
  ASSERT_NE(shot(), nullptr);
  EXPECT_EQ(shot()->target, kSeekingTarget);
  EXPECT_FLOAT_EQ(shot()->vel.x, 0.0f);
  EXPECT_EQ(stale_refusals_, 0u);
}

INSTANTIATE_TEST_SUITE_P(PooledAndHeap, HomingShot, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? "Pooled" : "Heap";
                         });

TEST(HomingScenario, KeyIsReadAndBadValuesNameTheKey) {
  const ScenarioResult ok = parse_scenario(
      R"({"homing": {"share": 0.25, "turn_rate": 3, "seek_radius": 200, "max_live": 50}, "waves": [{}]})", "t.json");
  ASSERT_TRUE(ok.scenario.has_value()) << ok.error;
  EXPECT_FLOAT_EQ(ok.scenario->homing.share, 0.25f);
  EXPECT_EQ(ok.scenario->homing.max_live, 50);
  EXPECT_FLOAT_EQ(parse_scenario(R"({"waves": [{}]})", "t.json").scenario->homing.share, 0.0f)
      << "off unless asked for";
  EXPECT_EQ(parse_scenario(R"({"homing": {"share": 2}, "waves": [{}]})", "t.json").error,
            "scenario 't.json': key 'homing.share': must be a number in 0..1 (got 2)");
  EXPECT_EQ(parse_scenario(R"({"homing": {"seek": 2}, "waves": [{}]})", "t.json").error,
            "scenario 't.json': key 'homing.seek': unknown key");
  EXPECT_EQ(test::repo_scenario("storm.json").homing.share, 0.0f) << "storm.json's figures stand";
  EXPECT_GT(test::repo_scenario("default.json").homing.share, 0.0f) << "the default game has homing shots";
}

// The whole game: homing shots fly, lose targets that die, and every storage agrees on the
// state and on the refusal count, also when pooling is switched mid-flight.
TEST(HomingGame, RefusalsHappenAndEveryStorageAgrees) {
  struct Outcome {
    std::uint64_t hash, refusals, stale_gets;
  };
  const auto play = [](bool pooling, engine::StorageMode storage, bool switching) {
    Scenario s = test::repo_scenario("default.json");
    s.pooling = pooling;
    s.storage = storage;
    for (PoolConfig& p : s.pools) p.page_slots = 64;
    Simulation sim(s, 7);
    sim.settings().autofire = true;
    std::uint64_t homing_seen = 0;
    for (int f = 1; f <= 1500; ++f) {
      if (switching && f % 97 == 0) sim.settings().pooling = !sim.settings().pooling;
      if (switching && f % 131 == 0) {
        sim.settings().storage = sim.settings().storage == engine::StorageMode::stable ? engine::StorageMode::contiguous
                                                                                       : engine::StorageMode::stable;
      }
      sim.step({});
      homing_seen = std::max(homing_seen, sim.stats().homing_live);
    }
    EXPECT_GT(homing_seen, 0u);
    const SimStats st = sim.stats();
    return Outcome{sim.state_hash(), st.stale_refusals, st.pools[static_cast<std::size_t>(PoolId::enemies)].stale_gets};
  };
  const Outcome reference = play(true, engine::StorageMode::contiguous, false);
  EXPECT_GT(reference.refusals, 0u) << "targets died under homing shots";
  EXPECT_EQ(reference.stale_gets, reference.refusals) << "every stale lookup of the enemy store is a homing refusal";
  for (const auto& [pooling, storage, switching] :
       {std::tuple{false, engine::StorageMode::contiguous, false}, std::tuple{true, engine::StorageMode::stable, false},
        std::tuple{false, engine::StorageMode::stable, false}, std::tuple{true, engine::StorageMode::contiguous, true},
        std::tuple{false, engine::StorageMode::stable, true},
        std::tuple{true, engine::StorageMode::packed_pages, false},
        std::tuple{true, engine::StorageMode::packed, false}}) {
    SCOPED_TRACE(std::string(pooling ? "pooled " : "heap ") + engine::storage_mode_name(storage) +
                 (switching ? " switching" : ""));
    const Outcome o = play(pooling, storage, switching);
    EXPECT_EQ(o.hash, reference.hash);
    EXPECT_EQ(o.refusals, reference.refusals);
    EXPECT_EQ(o.stale_gets, reference.stale_gets);
  }
}

}  // namespace
}  // namespace game
