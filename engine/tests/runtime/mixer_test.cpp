#include <engine/audio/mixer.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <thread>

#include "counting_new.hpp"

// Every operator new in this executable is counted (counting_new.hpp), to prove mixing never allocates.

namespace {

using engine::Mixer;
using engine::MixerConfig;
using engine::SoundBuffer;
using engine::VoiceStart;

constexpr std::size_t kChunk = 512;  // frames per callback, as the device asks for

SoundBuffer tone(float seconds, float amplitude = 0.5f) {
  SoundBuffer s;
  s.samples.resize(static_cast<std::size_t>(seconds * 48000));
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    s.samples[i] = amplitude * static_cast<float>(std::sin(6.2831853 * 440.0 * static_cast<double>(i) / 48000.0));
  }
  return s;
}

float peak(const float* out, std::size_t count) {
  float p = 0;
  for (std::size_t i = 0; i < count; ++i) p = std::max(p, std::fabs(out[i]));
  return p;
}

TEST(Mixer, MixingASecondWithEveryVoiceBusyAllocatesNothing) {
  const SoundBuffer long_tone = tone(2.0f);  // outlasts the second: every voice stays busy
  Mixer mixer(MixerConfig{32, 256, 48000});
  static std::array<float, 2 * kChunk> out;
  const long before = counting_new::allocation_count();
  for (int i = 0; i < 40; ++i) mixer.play({&long_tone, 1.0f, 1.0f + 0.01f * static_cast<float>(i), 0.0f});
  mixer.set_hum(110, 0.5f);
  float loudest = 0;
  std::size_t busiest = 0;
  for (std::size_t frame = 0; frame < 48000; frame += kChunk) {
    mixer.play({&long_tone, 1.0f, 1.0f, 0.5f});  // one more every callback: refused, never grown
    mixer.mix(out.data(), kChunk);
    loudest = std::max(loudest, peak(out.data(), out.size()));
    busiest = std::max(busiest, mixer.active_voices());
  }
  EXPECT_EQ(counting_new::allocation_count() - before, 0) << "operator new ran while mixing";
  EXPECT_EQ(busiest, 32u);
  EXPECT_EQ(mixer.active_voices(), 32u);
  EXPECT_EQ(mixer.voice_capacity(), 32u);
  EXPECT_EQ(mixer.refused_voices(), 8u + 94u);  // 40 - 32, then one per callback (48000 / 512 rounded up)
  EXPECT_GT(loudest, 0.1f);
  EXPECT_LE(loudest, 1.0f);
}

TEST(Mixer, VoicesBeyondCapacityAreRefusedAndFinishedVoicesComeBack) {
  const SoundBuffer blip = tone(0.01f);  // 480 samples: gone within one chunk
  Mixer mixer(MixerConfig{4, 64, 48000});
  std::array<float, 2 * kChunk> out{};
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(mixer.play({&blip}));
  mixer.mix(out.data(), 16);
  EXPECT_EQ(mixer.active_voices(), 4u);
  EXPECT_EQ(mixer.refused_voices(), 6u);
  mixer.mix(out.data(), kChunk);
  EXPECT_EQ(mixer.active_voices(), 0u);  // played out: back in the pool
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(mixer.play({&blip}));
  mixer.mix(out.data(), 16);
  EXPECT_EQ(mixer.active_voices(), 4u);  // the slots were reused
  EXPECT_EQ(mixer.voice_capacity(), 4u);
  EXPECT_EQ(mixer.refused_voices(), 6u);
}

TEST(Mixer, MuteGivesExactSilenceAndUnmuteBringsSoundBack) {
  const SoundBuffer long_tone = tone(1.0f);
  Mixer mixer;
  std::array<float, 2 * kChunk> out{};
  mixer.set_hum(80, 1.0f);
  mixer.play({&long_tone});
  mixer.set_muted(true);
  for (int i = 0; i < 4; ++i) {
    mixer.mix(out.data(), kChunk);
    EXPECT_EQ(peak(out.data(), out.size()), 0.0f);
  }
  EXPECT_EQ(mixer.active_voices(), 1u);  // muted voices still play on, unheard
  mixer.set_muted(false);
  mixer.mix(out.data(), kChunk);
  EXPECT_GT(peak(out.data(), out.size()), 0.05f);
  mixer.set_volume(0.0f);
  mixer.mix(out.data(), kChunk);
  EXPECT_EQ(peak(out.data(), out.size()), 0.0f);
}

TEST(Mixer, OutputStaysWithinPlusMinusOneWhenEveryVoiceIsLoud) {
  const SoundBuffer loud = tone(0.5f, 1.0f);
  Mixer mixer(MixerConfig{16, 64, 48000});
  mixer.set_volume(1.0f);
  for (int i = 0; i < 16; ++i) mixer.play({&loud, 2.0f});
  mixer.set_hum(60, 1.0f);
  std::array<float, 2 * kChunk> out{};
  for (int c = 0; c < 10; ++c) {
    mixer.mix(out.data(), kChunk);
    for (float s : out) {
      ASSERT_GE(s, -1.0f);
      ASSERT_LE(s, 1.0f);
    }
  }
}

TEST(Mixer, PanPutsAVoiceOnOneSide) {
  const SoundBuffer long_tone = tone(0.5f);
  Mixer mixer;
  mixer.play({&long_tone, 1.0f, 1.0f, -1.0f});
  std::array<float, 2 * kChunk> out{};
  mixer.mix(out.data(), kChunk);
  float left = 0, right = 0;
  for (std::size_t i = 0; i < kChunk; ++i) {
    left = std::max(left, std::fabs(out[2 * i]));
    right = std::max(right, std::fabs(out[2 * i + 1]));
  }
  EXPECT_GT(left, 0.1f);
  EXPECT_EQ(right, 0.0f);
}

TEST(Mixer, InvalidStartsAndAFullQueueAreDroppedAndCounted) {
  const SoundBuffer empty;
  const SoundBuffer blip = tone(0.01f);
  Mixer mixer(MixerConfig{8, 4, 48000});
  EXPECT_FALSE(mixer.play({nullptr}));
  EXPECT_FALSE(mixer.play({&empty}));
  EXPECT_FALSE(mixer.play({&blip, 1.0f, 0.0f}));
  EXPECT_FALSE(mixer.play({&blip, NAN}));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(mixer.play({&blip}));
  EXPECT_FALSE(mixer.play({&blip}));  // 4 in flight: the queue is full until the next mix
  EXPECT_EQ(mixer.dropped_starts(), 5u);
  std::array<float, 2 * kChunk> out{};
  mixer.mix(out.data(), 8);
  EXPECT_EQ(mixer.active_voices(), 4u);
  EXPECT_TRUE(mixer.play({&blip}));
}

TEST(Mixer, HumSoundsWhileOnAndFadesOutWhenOff) {
  Mixer mixer;
  std::array<float, 2 * kChunk> out{};
  mixer.mix(out.data(), kChunk);
  EXPECT_EQ(peak(out.data(), out.size()), 0.0f);  // off by default
  mixer.set_hum(110, 0.5f);
  for (int i = 0; i < 20; ++i) mixer.mix(out.data(), kChunk);
  EXPECT_GT(peak(out.data(), out.size()), 0.1f);
  mixer.set_hum(110, 0.0f);
  for (int i = 0; i < 100; ++i) mixer.mix(out.data(), kChunk);  // ~1 s: the 50 ms glide is long done
  EXPECT_LT(peak(out.data(), out.size()), 1e-3f);
}

// The real arrangement: one thread starts voices, another mixes. Every start is accounted
// for exactly once: played, refused (no voice free) or dropped (queue full).
TEST(Mixer, StartsFromAnotherThreadAreEachPlayedRefusedOrDropped) {
  const SoundBuffer blip = tone(0.005f);
  Mixer mixer(MixerConfig{8, 16, 48000});
  std::atomic<bool> done{false};
  std::atomic<long> played{0};
  std::thread audio([&] {
    std::array<float, 2 * 64> out{};
    while (!done.load()) {
      mixer.mix(out.data(), 64);
    }
    mixer.mix(out.data(), 64);  // drain what the last pushes queued
  });
  constexpr int kStarts = 5000;
  for (int i = 0; i < kStarts; ++i) {
    if (mixer.play({&blip})) ++played;
    if (i % 64 == 0) std::this_thread::yield();
  }
  done = true;
  audio.join();
  EXPECT_EQ(static_cast<std::uint64_t>(played.load()) + mixer.dropped_starts(), static_cast<std::uint64_t>(kStarts));
  EXPECT_LE(mixer.refused_voices(), static_cast<std::uint64_t>(played.load()));
  EXPECT_LE(mixer.active_voices(), 8u);
}

}  // namespace
