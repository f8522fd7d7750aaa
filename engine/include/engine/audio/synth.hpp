#pragma once
// engine::synthesize: the game's sounds are made at start-up from a few lines of data
// (oscillators, noise, pitch sweeps, envelopes), not loaded from files, as the sprite atlas
// is drawn by a tool instead of shipped. A sound is a table of SynthLayers summed into one
// preallocated mono buffer; playback then only reads it.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine {

enum class Wave : std::uint8_t { sine, square, saw, triangle, noise };

// One oscillator or noise source with its own envelope. Times in seconds.
struct SynthLayer {
  Wave wave = Wave::sine;
  float start_hz = 440;     // pitch at `delay` (noise: ignored)
  float end_hz = 440;       // pitch at delay + length; the sweep is exponential (even in octaves)
  float gain = 1;           // peak amplitude before the sound is normalised
  float delay = 0;          // silence before the layer starts (melodies, echoes)
  float length = 0.1f;      // the layer stops after this
  float attack = 0.002f;    // linear rise to full gain (a few ms avoids a click)
  float decay = 0.05f;      // exponential fall after the attack: time to 1/e
  float smoothing = 0;      // one-pole low-pass 0 (none) .. 0.99 (dull): tames noise into rumble
  float vibrato_hz = 0;     // pitch wobble rate; 0 = none
  float vibrato_depth = 0;  // wobble depth as a fraction of the pitch
};

struct SoundBuffer {
  std::vector<float> samples;  // mono, -1..1
  int sample_rate = 48000;
  float seconds() const noexcept { return static_cast<float>(samples.size()) / static_cast<float>(sample_rate); }
};

// Sums `count` layers into `seconds` of sound at `sample_rate`, fades the last 5 ms to zero
// and scales the peak to `peak` (0..1]. Deterministic: noise comes from a fixed seed per layer.
// Bad arguments (no layers, non-positive length or rate) give an empty buffer.
SoundBuffer synthesize(const SynthLayer* layers, std::size_t count, float seconds, int sample_rate, float peak = 0.9f);
template <std::size_t N>
SoundBuffer synthesize(const SynthLayer (&layers)[N], float seconds, int sample_rate, float peak = 0.9f) {
  return synthesize(layers, N, seconds, sample_rate, peak);
}

}  // namespace engine
