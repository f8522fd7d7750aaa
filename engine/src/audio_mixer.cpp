#include <engine/audio/mixer.hpp>

#include <algorithm>
#include <cmath>

namespace engine {

namespace {

constexpr double kTwoPi = 6.283185307179586;

GrowthPolicy fixed_capacity(std::size_t voices) {
  GrowthPolicy policy;
  policy.initial_capacity = std::max<std::size_t>(1, voices);
  policy.max_capacity = policy.initial_capacity;  // never grows: the audio thread must not allocate
  return policy;
}

}  // namespace

Mixer::Mixer(MixerConfig config)
    : voices_(fixed_capacity(config.voices)),
      commands_(std::max<std::size_t>(2, config.command_capacity)),
      sample_rate_(config.sample_rate > 0 ? config.sample_rate : 48000) {}

bool Mixer::play(const VoiceStart& start) noexcept {
  const bool valid = start.sound != nullptr && !start.sound->samples.empty() && start.rate > 0 &&
                     std::isfinite(start.gain) && std::isfinite(start.pan);
  if (!valid || !commands_.push(start)) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  return true;
}

void Mixer::set_hum(float hz, float gain) noexcept {
  if (std::isfinite(hz)) hum_hz_.store(std::clamp(hz, 20.0f, 2000.0f), std::memory_order_relaxed);
  if (std::isfinite(gain)) hum_gain_.store(std::clamp(gain, 0.0f, 1.0f), std::memory_order_relaxed);
}

void Mixer::set_volume(float volume) noexcept {
  volume_.store(std::isfinite(volume) ? std::clamp(volume, 0.0f, 1.0f) : 0.0f, std::memory_order_relaxed);
}

void Mixer::set_muted(bool muted) noexcept { muted_.store(muted, std::memory_order_relaxed); }

void Mixer::start_queued_voices() noexcept {
  VoiceStart start;
  while (commands_.pop(start)) {
    const float gain = std::clamp(start.gain, 0.0f, 2.0f);
    const float pan = std::clamp(start.pan, -1.0f, 1.0f);
    // Equal-power-ish pan: the centre is not quieter than the sides by much.
    const Voice voice{start.sound->samples.data(),
                      start.sound->samples.size(),
                      0.0,
                      std::clamp(start.rate, 0.125f, 8.0f),
                      gain * std::sqrt(0.5f * (1.0f - pan)),
                      gain * std::sqrt(0.5f * (1.0f + pan))};
    if (!voices_.emplace(voice)) refused_.fetch_add(1, std::memory_order_relaxed);  // every voice busy
  }
}

void Mixer::mix_hum(float* out, std::size_t frames) noexcept {
  const float target_hz = hum_hz_.load(std::memory_order_relaxed);
  const float target_gain = hum_gain_.load(std::memory_order_relaxed);
  // One-pole glide, ~50 ms: the hum follows the pools without zipper noise.
  const float glide = 1.0f - std::exp(-1.0f / (0.05f * static_cast<float>(sample_rate_)));
  if (target_gain <= 0 && hum_gain_now_ < 1e-5f) {
    hum_gain_now_ = 0;
    return;
  }
  for (std::size_t i = 0; i < frames; ++i) {
    hum_hz_now_ += glide * (target_hz - hum_hz_now_);
    hum_gain_now_ += glide * (target_gain - hum_gain_now_);
    hum_phase_ += static_cast<double>(hum_hz_now_) / sample_rate_;
    hum_phase_ -= std::floor(hum_phase_);
    hum_beat_phase_ += static_cast<double>(hum_hz_now_) * 1.006 / sample_rate_;  // a slightly detuned twin beats: a
                                                                                 // hum, not a test tone
    hum_beat_phase_ -= std::floor(hum_beat_phase_);
    const double fundamental = std::sin(kTwoPi * hum_phase_) + std::sin(kTwoPi * hum_beat_phase_);
    const double overtone = 0.35 * std::sin(2.0 * kTwoPi * hum_phase_);
    const float s = static_cast<float>(0.4 * (fundamental + overtone)) * hum_gain_now_;
    out[2 * i] += s;
    out[2 * i + 1] += s;
  }
}

void Mixer::mix(float* out, std::size_t frames) noexcept {
  std::fill(out, out + 2 * frames, 0.0f);
  start_queued_voices();
  // erase_if releases the finished voices after the pass and never allocates.
  voices_.erase_if([&](Voice& v) {
    for (std::size_t i = 0; i < frames; ++i) {
      const auto index = static_cast<std::size_t>(v.position);
      if (index + 1 >= v.length) return true;  // played out: back to the pool
      const float frac = static_cast<float>(v.position - static_cast<double>(index));
      const float s = v.samples[index] + frac * (v.samples[index + 1] - v.samples[index]);
      out[2 * i] += s * v.left;
      out[2 * i + 1] += s * v.right;
      v.position += v.rate;
    }
    return false;
  });
  mix_hum(out, frames);
  const float master = muted() ? 0.0f : volume();
  for (std::size_t i = 0; i < 2 * frames; ++i) out[i] = std::clamp(out[i] * master, -1.0f, 1.0f);
}

}  // namespace engine
