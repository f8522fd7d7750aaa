// The enemy kind and fire pattern tables (sim/enemy_kinds.hpp) and the explosion layers
// (sim/explosion.hpp) are complete and consistent: one row per enumerator, every row usable,
// and the names the scenario files use read back as the kinds they name.
#include "sim/atlas_cells.hpp"
#include "sim/enemy_kinds.hpp"
#include "sim/explosion.hpp"
#include "sim/scenario.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

namespace game {
namespace {

// The compiler's own list of the enumerators. These switches have no default, so -Wswitch
// (an error in the release build) stops the build when an enum gains a value they do not name;
// naming it here brings it to the count checks below, which fail until the table has its row.
bool is_enemy_kind(EnemyKind kind) {
  switch (kind) {
    case EnemyKind::grunt:
    case EnemyKind::spinner:
    case EnemyKind::burster:
    case EnemyKind::boss:
    case EnemyKind::charger:
      return true;
  }
  return false;
}
bool is_fire_pattern(FirePattern pattern) {
  switch (pattern) {
    case FirePattern::aimed:
    case FirePattern::radial:
    case FirePattern::spiral:
      return true;
  }
  return false;
}

// How many of the values the enum's underlying type can hold name an enumerator; each must be
// below `count`, so the enumerators are 0, 1, 2... and index the table.
template <class Enum, class IsEnumerator>
std::size_t enumerators(IsEnumerator is_enumerator, std::size_t count) {
  std::size_t n = 0;
  for (int v = 0; v <= 255; ++v) {
    if (!is_enumerator(static_cast<Enum>(v))) continue;
    EXPECT_LT(static_cast<std::size_t>(v), count) << "enumerator " << v << " has no row";
    ++n;
  }
  return n;
}

Scenario parsed(const std::string& wave) {
  const ScenarioResult r = parse_scenario(R"({"waves": [)" + wave + "]}", "t.json");
  EXPECT_TRUE(r.scenario.has_value()) << r.error;
  return r.scenario ? *r.scenario : Scenario{};
}

TEST(EnemyKinds, OneRowPerKind) {
  EXPECT_EQ(enumerators<EnemyKind>(is_enemy_kind, kEnemyKindCount), kEnemyKindCount);
  EXPECT_EQ(kEnemyKinds.size(), kEnemyKindCount);
  for (std::size_t i = 0; i < kEnemyKindCount; ++i) {
    const auto kind = static_cast<EnemyKind>(i);
    ASSERT_TRUE(is_enemy_kind(kind)) << i;
    EXPECT_EQ(&kind_spec(kind), &kEnemyKinds[i]);
    EXPECT_EQ(kind_spec(kind).kind, kind) << i;
  }
}

TEST(EnemyKinds, EveryRowIsUsable) {
  std::set<std::string> names;
  std::set<std::uint16_t> cells;
  for (const EnemyKindSpec& k : kEnemyKinds) {
    ASSERT_NE(k.name, nullptr);
    SCOPED_TRACE(k.name);
    EXPECT_TRUE(names.insert(k.name).second) << "names are unique";
    EXPECT_GT(k.radius, 0.0f);
    // A charger cannot be shot (armoured), so it is worth nothing; every other kind scores.
    if (k.motion == EnemyMotion::charge) {
      EXPECT_EQ(k.score, 0);
    } else {
      EXPECT_GT(k.score, 0);
    }
    EXPECT_TRUE(cells.insert(k.cell).second) << "each kind has its own sprite";
    EXPECT_LT(k.cell, atlas::cell_count);
    EXPECT_NE(k.cell, atlas::ship);
    EXPECT_NE(k.color >> 24, 0u) << "an invisible tint";
    EXPECT_GT(k.death_blast.count_times, 0);
    EXPECT_GT(k.death_blast.count_divisor, 0);
    EXPECT_GT(k.death_blast.scale, 0.0f);
    EXPECT_GE(k.spin_per_second, 0.0f);
    for (const SwayAxis& axis : {k.sway_x, k.sway_y}) {
      if (axis.wave == SwayWave::none) continue;
      EXPECT_GT(axis.rate, 0.0f);
      EXPECT_GT(axis.amplitude, 0.0f);
    }
  }
}

TEST(EnemyKinds, NamesReadBackThroughTheScenarioParser) {
  for (const EnemyKindSpec& k : kEnemyKinds) {
    const Scenario s = parsed(std::string(R"({"kind": ")") + k.name + "\"}");
    ASSERT_EQ(s.waves.size(), 1u) << k.name;
    EXPECT_EQ(s.waves[0].kind, k.kind) << k.name;
  }
  // A name no row has is refused, and the message lists every row's name.
  const ScenarioResult r = parse_scenario(R"({"waves": [{"kind": "nobody"}]})", "t.json");
  ASSERT_FALSE(r.scenario.has_value());
  for (const EnemyKindSpec& k : kEnemyKinds) {
    EXPECT_NE(r.error.find(std::string("\"") + k.name + "\""), std::string::npos) << r.error;
  }
}

TEST(FirePatterns, OneUsableRowPerPatternNamedAsInScenarios) {
  EXPECT_EQ(enumerators<FirePattern>(is_fire_pattern, kFirePatternCount), kFirePatternCount);
  EXPECT_EQ(kFirePatterns.size(), kFirePatternCount);
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i < kFirePatternCount; ++i) {
    const FirePatternSpec& p = kFirePatterns[i];
    ASSERT_NE(p.name, nullptr);
    SCOPED_TRACE(p.name);
    EXPECT_EQ(p.pattern, static_cast<FirePattern>(i));
    EXPECT_TRUE(colors.insert(p.bullet_color).second) << "a player tells the volleys apart by colour";
    EXPECT_NE(p.bullet_color >> 24, 0u);
    const Scenario s = parsed(std::string(R"({"pattern": ")") + p.name + "\"}");
    ASSERT_EQ(s.waves.size(), 1u);
    EXPECT_EQ(s.waves[0].pattern, p.pattern);
  }
}

TEST(Explosion, LayersShareOutEveryParticle) {
  // The flash is one sprite on top; the share and rest layers divide the blast's count exactly.
  for (int count = 0; count <= 2000; ++count) {
    int shared = 0;
    int flashes = 0;
    int particles = 0;
    for (const ExplosionLayer& layer : kExplosionLayers) {
      const BurstSpec burst = layer_burst(layer, count, 1.0f, 1.0f, shared);
      EXPECT_GE(burst.count, 0);
      (layer.count == LayerCount::one ? flashes : particles) += burst.count;
    }
    EXPECT_EQ(flashes, count > 0 ? 1 : 0) << count;
    EXPECT_EQ(particles, count) << count;
  }
  for (const ExplosionLayer& layer : kExplosionLayers) {
    EXPECT_GT(layer.life_min, 0.0f);
    EXPECT_LE(layer.life_min, layer.life_max);
    EXPECT_GT(layer.size_min, 0.0f);
    EXPECT_LE(layer.size_min, layer.size_max);
    EXPECT_LE(layer.speed_min, layer.speed_max);
    if (layer.count == LayerCount::share) {
      EXPECT_GT(layer.share_percent, 0);
      EXPECT_LE(layer.share_percent, 100);
    }
  }
}

TEST(Explosion, BlastParticlesScaleTheScenarioCount) {
  EXPECT_EQ(blast_particles(kind_spec(EnemyKind::grunt).death_blast, 220), 220);
  EXPECT_EQ(blast_particles(kind_spec(EnemyKind::boss).death_blast, 220), 880);  // a boss: four blasts' worth
  EXPECT_EQ(blast_particles(BlastSpec{1, 2, 1.0f}, 5), 2);                       // integer halves, as before
}

}  // namespace
}  // namespace game
