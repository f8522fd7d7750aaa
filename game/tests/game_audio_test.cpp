// GameAudio: the synthesised sounds, which step events start which sounds (rate-limited),
// the hum against the pools, mute, and that a played game's audio allocates nothing.
#include "metrics/alloc_counter.hpp"
#include "app/game_audio.hpp"
#include "tests/test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace game {
namespace {

constexpr std::size_t kStepFrames = 800;  // 48 kHz / 60 steps per second

constexpr std::array<GameSound, kGameSoundCount> kAllSounds = {GameSound::shot,      GameSound::hit,
                                                               GameSound::explosion, GameSound::enemy_shot,
                                                               GameSound::death,     GameSound::game_over};

float peak(const float* out, std::size_t count) {
  float p = 0;
  for (std::size_t i = 0; i < count; ++i) p = std::max(p, std::fabs(out[i]));
  return p;
}

TEST(GameAudio, EverySoundIsMadeAudibleAndBounded) {
  GameAudio audio;
  for (GameSound id : kAllSounds) {
    const engine::SoundBuffer& s = audio.sound(id);
    ASSERT_GT(s.samples.size(), 1000u) << static_cast<int>(id);
    EXPECT_GT(peak(s.samples.data(), s.samples.size()), 0.3f) << static_cast<int>(id);
    EXPECT_LE(peak(s.samples.data(), s.samples.size()), 1.0f) << static_cast<int>(id);
  }
}

TEST(GameAudio, HeldFireStartsAShotSoundAtMostEveryFourSteps) {
  GameAudio audio;
  audio.start_without_device();
  SimStats s;
  for (int step = 0; step < 60; ++s.pools[0].spawns += 500, ++step) audio.after_step(s);  // 500 bullets a step
  EXPECT_EQ(audio.started(GameSound::shot), 15u);                                         // 60 steps / 4
  EXPECT_EQ(audio.started(GameSound::hit), 0u);
}

TEST(GameAudio, EventsOfAStepStartTheirSoundsAndGameOverSoundsOnce) {
  GameAudio audio;
  audio.start_without_device();
  SimStats s;
  audio.after_step(s);
  s.hits = 3;
  s.kills = 1;
  s.pools[static_cast<std::size_t>(PoolId::enemy_bullets)].spawns = 4;
  audio.after_step(s);
  EXPECT_EQ(audio.started(GameSound::hit), 1u);
  EXPECT_EQ(audio.started(GameSound::explosion), 1u);
  EXPECT_EQ(audio.started(GameSound::enemy_shot), 1u);
  s.deaths = 3;
  s.game_over = true;
  for (int i = 0; i < 10; ++i) audio.after_step(s);
  EXPECT_EQ(audio.started(GameSound::death), 1u);
  EXPECT_EQ(audio.started(GameSound::game_over), 1u);  // on the change, not while it lasts
  SimStats restarted;                                  // "this run" counters back to 0: nothing new happened
  audio.after_step(restarted);
  EXPECT_EQ(audio.started(GameSound::death), 1u);
  EXPECT_EQ(audio.started(GameSound::hit), 1u);
}

TEST(GameAudio, WithoutADeviceNothingIsQueued) {
  GameAudio audio;  // never opened: silent, and no work for a mixer nobody drains
  SimStats s;
  s.hits = 5;
  audio.after_step(s);
  EXPECT_EQ(audio.started(GameSound::hit), 0u);
  EXPECT_EQ(audio.mixer().dropped_starts(), 0u);
}

TEST(GameAudio, TheHumRisesWithLiveObjectsAndDropsWhenAPoolGrows) {
  EXPECT_EQ(hum_for_pools(0, 1000).gain, 0.0f);
  EXPECT_EQ(hum_for_pools(99, 1000).gain, 0.0f);
  float last_gain = 0, last_hz = 0;
  for (std::size_t live : {1000u, 10000u, 100000u, 300000u}) {
    const HumSetting h = hum_for_pools(live, live * 2);
    EXPECT_GT(h.gain, last_gain) << live;
    EXPECT_GT(h.hz, last_hz) << live;
    last_gain = h.gain;
    last_hz = h.hz;
  }
  EXPECT_NEAR(hum_for_pools(300000, 300000).gain, 0.3f, 1e-3f);
  EXPECT_GT(hum_for_pools(4096, 4096).hz, hum_for_pools(4096, 8192).hz);  // full pool, then doubled
}

TEST(GameAudio, MuteSilencesTheMixAndVolumeIsClamped) {
  GameAudio audio(1.0f, false);
  audio.start_without_device();
  SimStats s;
  s.game_over = true;
  audio.after_step(s);
  std::array<float, 2 * kStepFrames> out{};
  audio.mixer().mix(out.data(), kStepFrames);
  audio.mixer().mix(out.data(), kStepFrames);
  EXPECT_GT(peak(out.data(), out.size()), 0.01f);
  audio.toggle_mute();
  EXPECT_TRUE(audio.muted());
  audio.mixer().mix(out.data(), kStepFrames);
  EXPECT_EQ(peak(out.data(), out.size()), 0.0f);
  audio.toggle_mute();
  audio.set_volume(7.0f);
  EXPECT_EQ(audio.volume(), 1.0f);
  audio.set_volume(-1.0f);
  EXPECT_EQ(audio.volume(), 0.0f);
}

// The whole chain at the scale that matters: held fire in the default scenario, sound
// started every step and mixed as the device would, with every voice busy. Once the pools
// have grown, a second of steps with their audio allocates nothing.
TEST(GameAudio, HeldFireWithEveryVoiceBusyAllocatesNothing) {
  Simulation sim(test::repo_scenario("default.json"), 7);
  GameAudio audio;
  audio.start_without_device();
  Input fire;
  fire.fire = true;
  fire.aim = {sim.player_position().x, sim.player_position().y + 300};
  static std::array<float, 2 * kStepFrames> out;
  for (int i = 0; i < 240; ++i) {  // warm up: the pools grow, the hum rises
    sim.step(fire);
    audio.after_step(sim.stats());
    audio.mixer().mix(out.data(), kStepFrames);
  }
  for (int i = 0; i < 40; ++i) audio.mixer().play({&audio.sound(GameSound::game_over)});  // fill every voice
  audio.mixer().mix(out.data(), kStepFrames);
  ASSERT_EQ(audio.mixer().active_voices(), audio.mixer().voice_capacity());
  std::uint64_t audio_allocs = 0;
  float loudest = 0;
  for (int i = 0; i < 60; ++i) {
    sim.step(fire);
    const SimStats stats = sim.stats();
    const std::uint64_t before = heap_alloc_count();
    // Voices end as they play out: top them up every step, so every mix runs with all busy
    // whatever the game's own sounds are doing.
    for (int k = 0; k < 4; ++k) audio.mixer().play({&audio.sound(GameSound::game_over)});
    audio.after_step(stats);
    audio.mixer().mix(out.data(), kStepFrames);
    audio_allocs += heap_alloc_count() - before;
    loudest = std::max(loudest, peak(out.data(), out.size()));
  }
  EXPECT_EQ(audio_allocs, 0u);
  EXPECT_EQ(audio.mixer().active_voices(), audio.mixer().voice_capacity());
  EXPECT_GT(audio.mixer().refused_voices(), 0u);  // the shots that found no free voice
  EXPECT_GT(audio.hum().gain, 0.05f);             // held fire is heard
  EXPECT_GT(loudest, 0.05f);
  EXPECT_LE(loudest, 1.0f);
}

// The binary itself: a missing audio driver is one line on stderr and a normal, silent run.
TEST(GameAudioCli, NoAudioDevicePrintsOneLineAndTheGameRunsSilent) {
  const test::RunResult r = test::run_binary(POOLSHOT_BINARY, "--frames 3", test::Streams::stderr_only,
                                             "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=nonexistent");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const std::string line = "poolshot: no audio device (Audio target 'nonexistent' not available); running silent\n";
  const std::size_t at = r.out.find(line);
  EXPECT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("audio", at + line.size()), std::string::npos) << "more than one line about audio: " << r.out;
  const test::RunResult dummy =
      test::run_binary(POOLSHOT_BINARY, "--frames 3 --volume 30 --mute", test::Streams::stderr_only,
                       "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy");
  EXPECT_EQ(dummy.exit_code, 0) << dummy.out;
  EXPECT_EQ(dummy.out.find("no audio device"), std::string::npos) << dummy.out;
}

TEST(GameAudioCli, ABadVolumeIsAUsageError) {
  const test::RunResult r = test::run_binary(POOLSHOT_BINARY, "--headless --volume 150", test::Streams::stderr_only);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--volume: '150' is not a whole number from 0 to 100"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace game
