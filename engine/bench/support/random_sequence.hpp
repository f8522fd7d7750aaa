#pragma once
// Fixed-seed random data shared by every contender: the same spawns, the same victims,
// in the same order, so only the container differs between two rows of a table.
#include "particle.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

// SplitMix64: tiny, and unlike std:: distributions, gives the same numbers on every library.
class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float unit() noexcept { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
  // Uniform in [0, n) without a division: Lemire's multiply-shift.
  std::size_t below(std::size_t n) noexcept {
    return static_cast<std::size_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t state_;
};

inline constexpr std::size_t kTableSize = 1u << 16;  // power of two: index with a mask
inline constexpr std::size_t kTableMask = kTableSize - 1;

// Spawn k uses spawn_table()[k & kTableMask].
inline const std::vector<SpawnParams>& spawn_table() {
  static const std::vector<SpawnParams> table = [] {
    SplitMix64 rng(0x5EED0001);
    std::vector<SpawnParams> t;
    t.reserve(kTableSize);
    for (std::size_t i = 0; i < kTableSize; ++i) {
      SpawnParams s{};
      s.x = rng.unit() * 1280.0f;
      s.y = rng.unit() * 720.0f;
      s.vx = (rng.unit() - 0.5f) * 200.0f;
      s.vy = rng.unit() * 300.0f;
      s.spin = (rng.unit() - 0.5f) * 6.0f;
      s.size = 1.0f + rng.unit() * 3.0f;
      s.rgb = static_cast<std::uint32_t>(rng.next()) & 0x00FFFFFFu;
      t.push_back(s);
    }
    return t;
  }();
  return table;
}

// Raw 32-bit draws for picking victims; victim k among `live` objects is
// pick(victim_draws()[k & kTableMask], live), the same for every contender.
inline const std::vector<std::uint32_t>& victim_draws() {
  static const std::vector<std::uint32_t> draws = [] {
    SplitMix64 rng(0x5EED0002);
    std::vector<std::uint32_t> d(kTableSize);
    for (auto& v : d) v = static_cast<std::uint32_t>(rng.next() >> 32);
    return d;
  }();
  return draws;
}

inline std::size_t pick(std::uint32_t draw, std::size_t live) noexcept {
  return static_cast<std::size_t>((static_cast<std::uint64_t>(draw) * live) >> 32);
}

}  // namespace bench
