#pragma once
// game::GameAudio: what the shooter sounds like. Six sounds synthesised at start-up from
// tables of engine::SynthLayer (no audio files in the repo), started after each simulation
// step from what that step changed in SimStats, and a hum that follows the pools.
//
// Game thread only: it talks to the engine::Mixer through play() / set_hum(), which the
// audio thread drains (see mixer.hpp for why that is lock-free). Nothing here allocates
// after construction, so a step with sound costs no heap traffic either.
//
// Rate limits, in simulation steps so sound never changes gameplay and runs the same in a
// script: held fire spawns up to thousands of bullets a step, but a shot sound starts at
// most every kShotEverySteps, louder and brighter as the FIRE meter climbs; hits, kills and
// enemy fire have their own limits; a lost life and game over always sound.
//
// The hum: its loudness and pitch rise with the live objects of all pools on a log scale
// (silent below ~100, full at ~300,000), and its pitch also follows how full the pools are
// (live / capacity), so a growth (capacity doubling) is heard as a step down in pitch.
#include "sim/simulation.hpp"

#include <engine/audio/audio_device.hpp>
#include <engine/audio/mixer.hpp>
#include <engine/audio/synth.hpp>

#include <array>
#include <cstdint>

namespace game {

enum class GameSound : std::uint8_t { shot, hit, explosion, enemy_shot, death, game_over };
inline constexpr std::size_t kGameSoundCount = 6;

struct HumSetting {
  float hz = 0;
  float gain = 0;
};

// Hum for a total of `live` objects in `capacity` slots (pure: tests check the curve).
HumSetting hum_for_pools(std::size_t live, std::size_t capacity) noexcept;

class GameAudio {
 public:
  static constexpr std::uint64_t kShotEverySteps = 4;  // at most 15 shot sounds a second
  static constexpr std::uint64_t kHitEverySteps = 3;
  static constexpr std::uint64_t kExplosionEverySteps = 6;
  static constexpr std::uint64_t kEnemyShotEverySteps = 5;

  // volume 0..1. Synthesises every sound (a few hundred kB, once).
  explicit GameAudio(float volume = 0.8f, bool muted = false);
  GameAudio(const GameAudio&) = delete;
  GameAudio& operator=(const GameAudio&) = delete;

  // Opens the sound device. Without one, prints ONE line on stderr,
  // "poolshot: no audio device (<SDL error>); running silent", and stays silent; returns false.
  bool open_device();
  // Tests mix the mixer themselves: sounds are started as if a device were open.
  void start_without_device() noexcept { live_ = true; }
  bool device_open() const noexcept { return device_.is_open(); }

  // After every simulation step: starts the sounds that step earned, updates the hum.
  void after_step(const SimStats& stats) noexcept;

  void toggle_mute() noexcept { set_muted(!muted()); }
  void set_muted(bool muted) noexcept { mixer_.set_muted(muted); }
  bool muted() const noexcept { return mixer_.muted(); }
  void set_volume(float volume) noexcept { mixer_.set_volume(volume); }  // 0..1
  float volume() const noexcept { return mixer_.volume(); }

  const engine::SoundBuffer& sound(GameSound id) const noexcept { return bank_[static_cast<std::size_t>(id)]; }
  std::uint64_t started(GameSound id) const noexcept { return started_[static_cast<std::size_t>(id)]; }
  HumSetting hum() const noexcept { return hum_; }
  engine::Mixer& mixer() noexcept { return mixer_; }

 private:
  // Counters of the step seen last; "this run" counters restart at 0 with the game.
  struct Seen {
    std::uint64_t shots = 0, enemy_shots = 0, hits = 0, kills = 0, deaths = 0;
    bool game_over = false;
  };
  void start(GameSound id, float gain, float rate, float pan = 0) noexcept;
  bool due(GameSound id, std::uint64_t every) const noexcept;

  std::array<engine::SoundBuffer, kGameSoundCount> bank_;
  engine::Mixer mixer_;
  engine::AudioDevice device_;  // after mixer_: closes (stops the callback) before it dies
  bool live_ = false;           // a device (or a test) drains the mixer
  Seen seen_;
  std::uint64_t step_ = 0;
  std::array<std::uint64_t, kGameSoundCount> last_step_{};  // step a sound last started (0: never)
  std::array<std::uint64_t, kGameSoundCount> started_{};
  HumSetting hum_;
};

}  // namespace game
