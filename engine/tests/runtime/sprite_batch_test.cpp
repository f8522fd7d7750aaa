#include <engine/sprite_batch.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace {

using engine::BlendMode;
using engine::Sprite;

Sprite make(std::uint8_t layer, BlendMode blend, float id) {
  Sprite s;
  s.layer = layer;
  s.blend = blend;
  s.x = id;  // remembers where the game put it
  return s;
}

TEST(SpriteBatch, GroupKeyOrdersLayersThenAlphaBeforeAdditive) {
  EXPECT_LT(engine::sprite_group(make(0, BlendMode::alpha, 0)), engine::sprite_group(make(0, BlendMode::additive, 0)));
  EXPECT_LT(engine::sprite_group(make(0, BlendMode::additive, 0)), engine::sprite_group(make(1, BlendMode::alpha, 0)));
  EXPECT_EQ(engine::sprite_group(make(255, BlendMode::additive, 0)), engine::sprite_group_count - 1);
}

TEST(SpriteBatch, BucketingSortsByGroupAndKeepsTheGamesOrderInside) {
  std::mt19937 rng(1234);
  std::vector<Sprite> in;
  for (int i = 0; i < 5000; ++i) {
    in.push_back(make(static_cast<std::uint8_t>(rng() % 4), rng() % 2 ? BlendMode::additive : BlendMode::alpha,
                      static_cast<float>(i)));
  }
  std::vector<Sprite> out(in.size());
  engine::SpriteGroups groups;
  engine::bucket_sprites(in.data(), in.size(), out.data(), groups);
  // Same order as a stable sort by group: the reference.
  std::vector<Sprite> expected = in;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Sprite& a, const Sprite& b) { return engine::sprite_group(a) < engine::sprite_group(b); });
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i].x, expected[i].x) << "at " << i;
    ASSERT_EQ(engine::sprite_group(out[i]), engine::sprite_group(expected[i]));
  }
  EXPECT_EQ(groups.used, 8u);  // 4 layers x 2 blend modes
  std::uint32_t total = 0;
  for (std::size_t g = 0; g < engine::sprite_group_count; ++g) {
    if (groups.count[g] == 0) continue;
    EXPECT_EQ(engine::sprite_group(out[groups.first[g]]), g);
    EXPECT_EQ(engine::sprite_group(out[groups.first[g] + groups.count[g] - 1]), g);
    total += groups.count[g];
  }
  EXPECT_EQ(total, in.size());
}

TEST(SpriteBatch, SingleGroupIsCopiedAsIs) {
  std::vector<Sprite> in;
  for (int i = 0; i < 100; ++i) in.push_back(make(3, BlendMode::additive, static_cast<float>(i)));
  std::vector<Sprite> out(in.size());
  engine::SpriteGroups groups;
  engine::bucket_sprites(in.data(), in.size(), out.data(), groups);
  EXPECT_EQ(groups.used, 1u);
  const std::uint32_t g = engine::sprite_group(in[0]);
  EXPECT_EQ(groups.first[g], 0u);
  EXPECT_EQ(groups.count[g], 100u);
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i].x, in[i].x);
}

TEST(SpriteBatch, EmptyBatchHasNoGroups) {
  engine::SpriteGroups groups;
  groups.used = 99;
  groups.count[5] = 3;
  engine::bucket_sprites(nullptr, 0, nullptr, groups);
  EXPECT_EQ(groups.used, 0u);
  EXPECT_EQ(groups.count[5], 0u);
}

TEST(SpriteBatch, RefillingKeepsItsStorage) {
  engine::SpriteBatch batch(16);
  for (int frame = 0; frame < 3; ++frame) {
    batch.clear();
    for (int i = 0; i < 1000; ++i) batch.push(make(0, BlendMode::alpha, static_cast<float>(i)));
  }
  const Sprite* storage = batch.data();
  const std::size_t capacity = batch.capacity();
  for (int frame = 0; frame < 10; ++frame) {
    batch.clear();
    for (int i = 0; i < 1000; ++i) batch.push(make(0, BlendMode::alpha, static_cast<float>(i)));
  }
  EXPECT_EQ(batch.data(), storage);  // no reallocation once warm
  EXPECT_EQ(batch.capacity(), capacity);
  EXPECT_EQ(batch.size(), 1000u);
}

TEST(SpriteBatch, AppendAndBulkPush) {
  engine::SpriteBatch batch;
  Sprite* two = batch.append(2);
  two[0].x = 1.0f;
  two[1].x = 2.0f;
  const Sprite more[3] = {make(1, BlendMode::alpha, 3), make(1, BlendMode::alpha, 4), make(1, BlendMode::alpha, 5)};
  batch.push(more, 3);
  ASSERT_EQ(batch.size(), 5u);
  EXPECT_EQ(batch.data()[1].x, 2.0f);
  EXPECT_EQ(batch.data()[4].x, 5.0f);
  EXPECT_EQ(batch.data()[0].color, 0xffffffffu);  // appended sprites start as defaults
}

}  // namespace
