#include "app/game_audio.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace game {

namespace {

using engine::SynthLayer;
using engine::Wave;

constexpr int kRate = 48000;

// The sounds as data. Fields: wave, start_hz, end_hz, gain, delay, length, attack, decay,
// smoothing, vibrato_hz, vibrato_depth (synth.hpp).
constexpr SynthLayer kShot[] = {
    {Wave::square, 1400, 520, 0.6f, 0, 0.07f, 0.001f, 0.025f},   // the zap: a fast falling square
    {Wave::noise, 1, 1, 0.4f, 0, 0.02f, 0.0005f, 0.006f, 0.2f},  // the click of the muzzle
};
constexpr SynthLayer kHit[] = {
    {Wave::triangle, 2200, 1300, 0.7f, 0, 0.05f, 0.001f, 0.018f},
    {Wave::noise, 1, 1, 0.5f, 0, 0.04f, 0.0005f, 0.01f, 0.4f},
};
constexpr SynthLayer kExplosion[] = {
    {Wave::noise, 1, 1, 1.0f, 0, 0.7f, 0.002f, 0.18f, 0.93f},    // rumble: low-passed noise
    {Wave::sine, 110, 38, 0.8f, 0, 0.5f, 0.002f, 0.15f},         // the thump under it
    {Wave::noise, 1, 1, 0.35f, 0, 0.06f, 0.001f, 0.015f, 0.3f},  // the crack on top
};
constexpr SynthLayer kEnemyShot[] = {
    {Wave::saw, 520, 260, 0.5f, 0, 0.14f, 0.003f, 0.05f, 0.6f, 30.0f, 0.04f},  // a wobbling low zap
};
constexpr SynthLayer kDeath[] = {
    {Wave::noise, 1, 1, 1.0f, 0, 1.2f, 0.002f, 0.35f, 0.96f},
    {Wave::saw, 330, 40, 0.6f, 0, 0.9f, 0.005f, 0.3f, 0.7f},
    {Wave::sine, 70, 30, 0.8f, 0, 0.8f, 0.002f, 0.3f},
};
constexpr SynthLayer kGameOver[] = {
    // four falling notes, each with a quiet octave below
    {Wave::triangle, 440, 440, 0.8f, 0.00f, 0.40f, 0.01f, 0.25f, 0, 5.0f, 0.01f},
    {Wave::triangle, 349, 349, 0.8f, 0.32f, 0.40f, 0.01f, 0.25f, 0, 5.0f, 0.01f},
    {Wave::triangle, 294, 294, 0.8f, 0.64f, 0.40f, 0.01f, 0.25f, 0, 5.0f, 0.01f},
    {Wave::triangle, 220, 208, 0.9f, 0.96f, 1.00f, 0.01f, 0.45f, 0, 4.0f, 0.015f},
    {Wave::sine, 110, 104, 0.5f, 0.96f, 1.00f, 0.01f, 0.5f},
};

std::array<engine::SoundBuffer, kGameSoundCount> make_bank() {
  return {engine::synthesize(kShot, 0.08f, kRate, 0.7f),      engine::synthesize(kHit, 0.06f, kRate, 0.7f),
          engine::synthesize(kExplosion, 0.75f, kRate, 0.9f), engine::synthesize(kEnemyShot, 0.15f, kRate, 0.5f),
          engine::synthesize(kDeath, 1.25f, kRate, 0.95f),    engine::synthesize(kGameOver, 2.0f, kRate, 0.8f)};
}

// Counters of a "this run" kind go back to 0 on restart: then all of `now` is new.
std::uint64_t increase(std::uint64_t before, std::uint64_t now) noexcept { return now >= before ? now - before : now; }

// A small, deterministic variation per start (no shared random stream: sound never touches
// the game's). Returns -1..1.
float wobble(std::uint64_t step, std::uint64_t salt) noexcept {
  std::uint64_t x = step * 0x9E3779B97F4A7C15ull + salt;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<float>(x % 2001) / 1000.0f - 1.0f;
}

}  // namespace

HumSetting hum_for_pools(std::size_t live, std::size_t capacity) noexcept {
  // log10 of the live objects: 2 (100) is silent, log10(300,000) is full.
  const float decades = static_cast<float>(std::log10(static_cast<double>(live) + 1.0));
  const float level = std::clamp((decades - 2.0f) / (5.477f - 2.0f), 0.0f, 1.0f);
  const float fill =
      capacity > 0 ? std::clamp(static_cast<float>(live) / static_cast<float>(capacity), 0.0f, 1.0f) : 0.0f;
  HumSetting hum;
  hum.hz = 45.0f * std::exp2(2.0f * level) * (1.0f + 0.15f * fill);  // two octaves of load, a fill bend on top
  hum.gain = 0.3f * level;
  return hum;
}

GameAudio::GameAudio(float volume, bool muted) : bank_(make_bank()), mixer_(engine::MixerConfig{32, 256, kRate}) {
  mixer_.set_volume(volume);
  mixer_.set_muted(muted);
}

bool GameAudio::open_device() {
  if (device_.is_open()) return true;
  const engine::Status status = device_.open(mixer_);
  if (!status) {
    std::fprintf(stderr, "poolshot: %s; running silent\n", status.message().c_str());
    return false;
  }
  live_ = true;
  return true;
}

bool GameAudio::due(GameSound id, std::uint64_t every) const noexcept {
  const std::uint64_t last = last_step_[static_cast<std::size_t>(id)];
  return last == 0 || step_ - last >= every;
}

void GameAudio::start(GameSound id, float gain, float rate, float pan) noexcept {
  const auto index = static_cast<std::size_t>(id);
  last_step_[index] = step_;
  ++started_[index];
  mixer_.play({&bank_[index], gain, rate, pan});
}

void GameAudio::after_step(const SimStats& s) noexcept {
  ++step_;
  const auto& pools = s.pools;
  const std::uint64_t shots = pools[static_cast<std::size_t>(PoolId::bullets)].spawns;
  const std::uint64_t enemy_shots = pools[static_cast<std::size_t>(PoolId::enemy_bullets)].spawns;
  Seen now{shots, enemy_shots, s.hits, s.kills, s.deaths, s.game_over};
  std::size_t live = 0, capacity = 0;
  for (const StoreStats& pool : pools) {
    live += pool.live;
    capacity += pool.capacity;
  }
  hum_ = hum_for_pools(live, capacity);
  if (live_) {
    mixer_.set_hum(hum_.hz, hum_.gain);
    const float heat = std::clamp(s.heat_fraction, 0.0f, 1.0f);
    if (increase(seen_.shots, now.shots) > 0 && due(GameSound::shot, kShotEverySteps)) {
      // Louder and a little higher as the FIRE meter climbs: escalation is heard.
      start(GameSound::shot, 0.35f + 0.45f * heat, (1.0f + 0.35f * heat) * (1.0f + 0.03f * wobble(step_, 1)),
            0.3f * wobble(step_, 2));
    }
    if (increase(seen_.hits, now.hits) > 0 && due(GameSound::hit, kHitEverySteps)) {
      start(GameSound::hit, 0.5f, 1.0f + 0.08f * wobble(step_, 3), 0.5f * wobble(step_, 4));
    }
    if (const std::uint64_t kills = increase(seen_.kills, now.kills);
        kills > 0 && due(GameSound::explosion, kExplosionEverySteps)) {
      start(GameSound::explosion, std::min(1.2f, 0.6f + 0.15f * static_cast<float>(kills)),
            1.0f + 0.1f * wobble(step_, 5), 0.6f * wobble(step_, 6));
    }
    if (increase(seen_.enemy_shots, now.enemy_shots) > 0 && due(GameSound::enemy_shot, kEnemyShotEverySteps)) {
      start(GameSound::enemy_shot, 0.3f, 1.0f + 0.05f * wobble(step_, 7), 0.6f * wobble(step_, 8));
    }
    if (increase(seen_.deaths, now.deaths) > 0) start(GameSound::death, 1.0f, 1.0f);
    if (now.game_over && !seen_.game_over) start(GameSound::game_over, 0.9f, 1.0f);
  }
  seen_ = now;
}

}  // namespace game
