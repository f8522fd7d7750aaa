#include <engine/audio/synth.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using engine::SoundBuffer;
using engine::SynthLayer;
using engine::Wave;

float peak_of(const SoundBuffer& s) {
  float p = 0;
  for (float v : s.samples) p = std::max(p, std::fabs(v));
  return p;
}

TEST(Synth, EveryWaveGivesSoundScaledToThePeakAndBounded) {
  for (Wave wave : {Wave::sine, Wave::square, Wave::saw, Wave::triangle, Wave::noise}) {
    const SynthLayer layers[] = {{wave, 880, 110, 3.0f, 0, 0.2f, 0.002f, 0.05f, 0.5f}};
    const SoundBuffer s = engine::synthesize(layers, 0.25f, 48000, 0.8f);
    ASSERT_EQ(s.samples.size(), 12000u);
    EXPECT_NEAR(peak_of(s), 0.8f, 1e-4f) << static_cast<int>(wave);
    for (float v : s.samples) {
      ASSERT_GE(v, -1.0f);
      ASSERT_LE(v, 1.0f);
    }
    EXPECT_EQ(s.samples.back(), 0.0f);   // faded out: no click at the end
    EXPECT_EQ(s.samples.front(), 0.0f);  // the attack starts from nothing
  }
}

TEST(Synth, DelayLeavesSilenceBeforeALayerAndLayersAdd) {
  const SynthLayer layers[] = {{Wave::sine, 440, 440, 1, 0, 0.1f, 0.001f, 1.0f},
                               {Wave::square, 220, 220, 1, 0.3f, 0.1f, 0.001f, 1.0f}};
  const SoundBuffer s = engine::synthesize(layers, 0.5f, 48000);
  float gap = 0, second = 0;
  for (std::size_t i = 5000; i < 14000; ++i) gap = std::max(gap, std::fabs(s.samples[i]));  // 0.104 .. 0.29 s
  for (std::size_t i = 14500; i < 19000; ++i) second = std::max(second, std::fabs(s.samples[i]));
  EXPECT_EQ(gap, 0.0f);
  EXPECT_GT(second, 0.3f);
}

TEST(Synth, TheSameRecipeGivesTheSameSamples) {
  const SynthLayer layers[] = {{Wave::noise, 1, 1, 1, 0, 0.1f, 0.001f, 0.03f, 0.7f}};
  EXPECT_EQ(engine::synthesize(layers, 0.1f, 48000).samples, engine::synthesize(layers, 0.1f, 48000).samples);
}

TEST(Synth, BadArgumentsGiveAnEmptyBuffer) {
  const SynthLayer layers[] = {{}};
  EXPECT_TRUE(engine::synthesize(layers, 0.0f, 48000).samples.empty());
  EXPECT_TRUE(engine::synthesize(layers, -1.0f, 48000).samples.empty());
  EXPECT_TRUE(engine::synthesize(layers, 0.1f, 0).samples.empty());
  EXPECT_TRUE(engine::synthesize(nullptr, 1, 0.1f, 48000).samples.empty());
  EXPECT_TRUE(engine::synthesize(layers, NAN, 48000).samples.empty());
}

}  // namespace
