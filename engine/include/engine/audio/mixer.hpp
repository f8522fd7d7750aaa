#pragma once
// engine::Mixer: sums the playing voices and one continuous hum into interleaved stereo
// float samples.
//
// Threading (the reason for the shape): SDL calls mix() on its own audio thread, the game
// calls play() / set_*() on its thread. The voices live in an engine::VectorPool that only
// the audio thread touches, so the pool needs no lock; a voice start travels there through a
// lock-free single-producer single-consumer CommandRing, and the hum, volume and mute are
// single atomics. The alternative, SDL_LockAudioDevice around every voice start, would make
// the game thread wait for a whole callback (and the callback wait for a slow frame). The
// pool's capacity is fixed at construction (max_capacity == initial_capacity): a start
// beyond it is refused and counted, and mixing never allocates.
#include <engine/audio/command_ring.hpp>
#include <engine/audio/synth.hpp>
#include <engine/pool/vector_pool.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace engine {

struct MixerConfig {
  std::size_t voices = 32;             // voices that can play at once (the pool's fixed capacity)
  std::size_t command_capacity = 256;  // voice starts in flight between two callbacks
  int sample_rate = 48000;
};

struct VoiceStart {
  const SoundBuffer* sound = nullptr;  // must outlive the voice (the game keeps its bank)
  float gain = 1;                      // 0..2
  float rate = 1;                      // playback speed: 2 = an octave up and half as long
  float pan = 0;                       // -1 left .. 1 right
};

class Mixer {
 public:
  explicit Mixer(MixerConfig config = {});
  Mixer(const Mixer&) = delete;
  Mixer& operator=(const Mixer&) = delete;

  // --- game thread ---
  // Queues a voice start for the next mix(). False when the queue is full or `start` is
  // invalid (no sound, empty sound): counted in dropped_starts().
  bool play(const VoiceStart& start) noexcept;
  void set_hum(float hz, float gain) noexcept;  // the hum glides there over ~50 ms; gain 0 = off
  void set_volume(float volume) noexcept;       // master, clamped to 0..1
  void set_muted(bool muted) noexcept;
  float volume() const noexcept { return volume_.load(std::memory_order_relaxed); }
  bool muted() const noexcept { return muted_.load(std::memory_order_relaxed); }
  std::uint64_t dropped_starts() const noexcept { return dropped_.load(std::memory_order_relaxed); }
  std::uint64_t refused_voices() const noexcept { return refused_.load(std::memory_order_relaxed); }

  // --- audio thread (or a test, on its own thread) ---
  // Writes `frames` stereo frames (2 * frames floats, L R L R ...) to `out`, every sample
  // in [-1, 1]. Starts the queued voices, then mixes; finished voices go back to the pool.
  void mix(float* out, std::size_t frames) noexcept;
  std::size_t active_voices() const noexcept { return voices_.size(); }
  std::size_t voice_capacity() const noexcept { return voices_.capacity(); }
  int sample_rate() const noexcept { return sample_rate_; }

 private:
  struct Voice {
    const float* samples;
    std::size_t length;
    double position;  // fractional read position in samples
    float rate;
    float left, right;  // gain per channel (pan folded in)
  };
  void start_queued_voices() noexcept;
  void mix_hum(float* out, std::size_t frames) noexcept;

  VectorPool<Voice> voices_;
  CommandRing<VoiceStart> commands_;
  int sample_rate_;
  std::atomic<float> hum_hz_{55}, hum_gain_{0}, volume_{0.8f};
  std::atomic<bool> muted_{false};
  std::atomic<std::uint64_t> dropped_{0}, refused_{0};
  // The hum's state, audio thread only.
  double hum_phase_ = 0, hum_beat_phase_ = 0;
  float hum_hz_now_ = 55, hum_gain_now_ = 0;
};

}  // namespace engine
