#include <engine/audio/synth.hpp>

#include <algorithm>
#include <cmath>

namespace engine {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// xorshift32: white noise that is the same on every run and machine.
struct Noise {
  std::uint32_t state;
  float next() noexcept {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return static_cast<float>(state) / 2147483648.0f - 1.0f;
  }
};

float oscillator(Wave wave, double phase) {  // phase in cycles, 0..1
  switch (wave) {
    case Wave::sine:
      return static_cast<float>(std::sin(kTwoPi * phase));
    case Wave::square:
      return phase < 0.5 ? 1.0f : -1.0f;
    case Wave::saw:
      return static_cast<float>(2.0 * phase - 1.0);
    case Wave::triangle:
      return static_cast<float>(phase < 0.5 ? 4.0 * phase - 1.0 : 3.0 - 4.0 * phase);
    case Wave::noise:
      break;
  }
  return 0.0f;
}

void add_layer(const SynthLayer& layer, std::uint32_t seed, std::vector<float>& out, int rate) {
  const auto first = static_cast<std::size_t>(std::max(0.0f, layer.delay) * static_cast<float>(rate));
  const auto count = static_cast<std::size_t>(std::max(0.0f, layer.length) * static_cast<float>(rate));
  const float start_hz = std::max(1.0f, layer.start_hz), end_hz = std::max(1.0f, layer.end_hz);
  const double sweep = std::log(static_cast<double>(end_hz) / start_hz);  // natural log of the ratio
  Noise noise{seed * 2654435761u + 1u};
  double phase = 0;
  float filtered = 0;
  const float smoothing = std::clamp(layer.smoothing, 0.0f, 0.99f);
  for (std::size_t i = 0; i < count && first + i < out.size(); ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(rate);
    const double progress = count > 1 ? static_cast<double>(i) / static_cast<double>(count - 1) : 0.0;
    double hz = start_hz * std::exp(sweep * progress);
    if (layer.vibrato_hz > 0) hz *= 1.0 + layer.vibrato_depth * std::sin(kTwoPi * layer.vibrato_hz * t);
    float raw;
    if (layer.wave == Wave::noise) {
      raw = noise.next();
    } else {
      raw = oscillator(layer.wave, phase);
      phase += hz / rate;
      phase -= std::floor(phase);
    }
    filtered = smoothing * filtered + (1.0f - smoothing) * raw;
    const float attack = layer.attack > 0 ? std::min(1.0f, t / layer.attack) : 1.0f;
    const float after = std::max(0.0f, t - layer.attack);
    const float decay = layer.decay > 0 ? std::exp(-after / layer.decay) : 1.0f;
    out[first + i] += layer.gain * attack * decay * filtered;
  }
}

}  // namespace

SoundBuffer synthesize(const SynthLayer* layers, std::size_t count, float seconds, int sample_rate, float peak) {
  SoundBuffer sound;
  sound.sample_rate = sample_rate;
  if (layers == nullptr || count == 0 || !(seconds > 0) || sample_rate <= 0 || seconds > 60) return sound;
  sound.samples.assign(static_cast<std::size_t>(seconds * static_cast<float>(sample_rate)), 0.0f);
  for (std::size_t i = 0; i < count; ++i)
    add_layer(layers[i], static_cast<std::uint32_t>(i + 1), sound.samples, sample_rate);
  // The last 5 ms fade to zero, so a sound never ends on a click.
  const std::size_t fade = std::min(sound.samples.size(), static_cast<std::size_t>(sample_rate / 200));
  for (std::size_t i = 0; i < fade; ++i) {
    sound.samples[sound.samples.size() - 1 - i] *= static_cast<float>(i) / static_cast<float>(fade);
  }
  float loudest = 0;
  for (float s : sound.samples) loudest = std::max(loudest, std::fabs(s));
  const float target = std::clamp(peak, 0.0f, 1.0f);
  if (loudest > 0) {
    for (float& s : sound.samples) s = std::clamp(s * (target / loudest), -1.0f, 1.0f);
  }
  return sound;
}

}  // namespace engine
