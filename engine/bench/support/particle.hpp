#pragma once
// The object every pool benchmark creates, updates and destroys: a 48-byte 2D particle,
// the kind a game spawns by the thousand. Its size is pinned so that results stay comparable
// with the README's table.
#include <algorithm>
#include <cstdint>

// The update is the workload, so every contender must run it inlined, as a game's own
// translation unit would. One benchmark file instantiates a dozen contenders at three sizes,
// and GCC's inliner stops inlining once that unit has grown by its --param inline-unit-growth:
// the contenders it reaches last (the pool's, in game_frame_bench) were left calling update()
// once per particle while std::vector inlined it.
#if defined(__GNUC__) || defined(__clang__)
#define BENCH_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BENCH_ALWAYS_INLINE inline
#endif

namespace bench {

// A fixed step that is a power of two keeps `life` exact: a particle spawned with k steps of
// life dies on exactly its k-th update, in every container, so every contender does the same work.
inline constexpr float kStep = 1.0f / 64.0f;
inline constexpr float kGravity = -9.8f;

struct SpawnParams {  // what a spawn needs besides its life; drawn once from a fixed seed
  float x, y, vx, vy, spin, size;
  std::uint32_t rgb;
};

class Particle {
 public:
  // No default constructor on purpose: containers must construct in place from arguments.
  Particle(const SpawnParams& s, float life_seconds, std::uint32_t sequence) noexcept
      : x_(s.x),
        y_(s.y),
        vx_(s.vx),
        vy_(s.vy),
        rotation_(0.0f),
        spin_(s.spin),
        size_(s.size),
        life_(life_seconds),
        inv_lifetime_(1.0f / life_seconds),
        colour_(s.rgb | 0xFF000000u),
        sequence_(sequence),
        kind_(sequence & 3u) {}

  // Integrates one step and fades the colour; returns false once the particle's life is over.
  BENCH_ALWAYS_INLINE bool update(float dt) noexcept {
    vy_ += kGravity * dt;
    x_ += vx_ * dt;
    y_ += vy_ * dt;
    rotation_ += spin_ * dt;
    life_ -= dt;
    const float fade = std::max(life_ * inv_lifetime_, 0.0f);
    colour_ = (colour_ & 0x00FFFFFFu) | (static_cast<std::uint32_t>(fade * 255.0f) << 24);
    return life_ > 0.0f;
  }

  std::uint32_t sequence() const noexcept { return sequence_; }  // spawn order: the summed field
  float life() const noexcept { return life_; }

 private:
  float x_, y_;             // position, metres
  float vx_, vy_;           // velocity, metres per second
  float rotation_;          // radians, for the sprite
  float spin_;              // radians per second
  float size_;              // sprite half-extent
  float life_;              // seconds left
  float inv_lifetime_;      // 1 / initial life: the fade needs no division per update
  std::uint32_t colour_;    // RGBA8; alpha fades with life
  std::uint32_t sequence_;  // spawn number: what deterministic code orders by
  std::uint32_t kind_;      // sprite variant
};
static_assert(sizeof(Particle) == 48, "the benchmarks promise a 48-byte particle");

}  // namespace bench
