// CollisionGrid: finds exactly what a brute-force search finds, and when a bullet touches
// several enemies it always names the one with the lowest sequence number.
#include "sim/collision_grid.hpp"
#include "sim/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace game {
namespace {

const Rect kArea{{-100, -100}, {1380, 820}};

Enemy enemy_at(std::uint64_t seq, Vec2 pos, float radius) {
  Enemy e;
  e.seq = seq;
  e.pos = pos;
  e.radius = radius;
  e.hp = 1;
  return e;
}

TEST(CollisionGrid, LowestSeqWinsWhereEnemiesOverlap) {
  std::vector<Enemy> enemies = {enemy_at(5, {100, 100}, 20), enemy_at(9, {110, 100}, 20), enemy_at(12, {105, 95}, 44)};
  std::vector<Enemy*> by_seq;
  for (Enemy& e : enemies) by_seq.push_back(&e);
  CollisionGrid grid(kArea, 64, 3);
  grid.build(by_seq);
  EXPECT_EQ(grid.first_overlap({105, 100}, 3), 0);  // all three overlap: seq 5
  EXPECT_EQ(grid.first_overlap({128, 100}, 3), 1);  // outside seq 5 (reach 23), inside 9 and 12: seq 9
  EXPECT_EQ(grid.first_overlap({105, 140}, 3), 2);  // only the big one
  EXPECT_EQ(grid.first_overlap({400, 400}, 3), -1);
  enemies[0].hp = 0;  // dead enemies are left out of the next build
  grid.build(by_seq);
  EXPECT_EQ(grid.first_overlap({105, 100}, 3), 1);
}

TEST(CollisionGrid, AnEmptyGridAndTheEdgesOfTheOccupiedBoxAnswerExactly) {
  // The fast paths: no enemy, or a bullet outside the box around them all,
  // answers -1 at once; a bullet at the very edge of an enemy's reach still hits it.
  std::vector<Enemy> enemies = {enemy_at(1, {300, 500}, 14)};
  std::vector<Enemy*> by_seq;
  CollisionGrid grid(kArea, 64, 4);
  grid.build(by_seq);
  EXPECT_EQ(grid.entry_count(), 0u);
  EXPECT_EQ(grid.first_overlap({300, 500}, 3), -1);
  by_seq.push_back(&enemies[0]);
  grid.build(by_seq);
  EXPECT_EQ(grid.first_overlap({300 + 14 + 4, 500}, 4), 0);  // reach exactly: a hit
  EXPECT_EQ(grid.first_overlap({300, 500 - 18}, 4), 0);
  EXPECT_EQ(grid.first_overlap({300 + 18.01f, 500}, 4), -1);  // just past it
  EXPECT_EQ(grid.first_overlap({300, 100}, 4), -1);           // far below the box
  enemies[0].wave.kind = EnemyKind::charger;                  // armoured: never entered
  grid.build(by_seq);
  EXPECT_EQ(grid.first_overlap({300, 500}, 4), -1);
}

TEST(CollisionGrid, AgreesWithBruteForce) {
  std::vector<Enemy> enemies;
  for (std::uint64_t i = 0; i < 400; ++i) {
    const Vec2 pos{random_range(1, i, Purpose::enemy_spawn_x, -80, 1360),
                   random_range(1, i, Purpose::enemy_spawn_y, -80, 800)};
    const float r = random_unit(1, i, Purpose::enemy_phase) < 0.05f ? 44.0f : 14.0f;
    enemies.push_back(enemy_at(i + 1, pos, r));
  }
  std::vector<Enemy*> by_seq;
  for (Enemy& e : enemies) by_seq.push_back(&e);
  CollisionGrid grid(kArea, 64, 3);
  grid.reserve(by_seq.size());
  grid.build(by_seq);
  int hits = 0;
  for (std::uint64_t q = 0; q < 20000; ++q) {
    const Vec2 p{random_range(2, q, Purpose::particle_angle, -100, 1380),
                 random_range(2, q, Purpose::particle_speed, -100, 820)};
    std::int32_t expected = -1;
    for (std::size_t i = 0; i < by_seq.size() && expected < 0; ++i) {
      const float reach = by_seq[i]->radius + 3;
      if (length_squared(by_seq[i]->pos - p) <= reach * reach) expected = static_cast<std::int32_t>(i);
    }
    ASSERT_EQ(grid.first_overlap(p, 3), expected) << "query " << q << " at " << p.x << "," << p.y;
    hits += expected >= 0;
  }
  EXPECT_GT(hits, 100);  // the queries really exercised overlaps
}

}  // namespace
}  // namespace game
