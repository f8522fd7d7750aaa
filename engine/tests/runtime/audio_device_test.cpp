#include <engine/audio/audio_device.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

// SDL reads SDL_AUDIODRIVER each time its audio subsystem starts; restore it afterwards.
class AudioDriver {
 public:
  explicit AudioDriver(const char* name) {
    const char* old = std::getenv("SDL_AUDIODRIVER");
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv("SDL_AUDIODRIVER", name, 1);
  }
  ~AudioDriver() {
    if (had_)
      setenv("SDL_AUDIODRIVER", old_.c_str(), 1);
    else
      unsetenv("SDL_AUDIODRIVER");
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(AudioDevice, OpensWithTheDummyDriverAndClosesCleanly) {
  AudioDriver driver("dummy");
  engine::Mixer mixer;
  engine::AudioDevice device;
  const engine::Status opened = device.open(mixer);
  ASSERT_TRUE(opened.is_ok()) << opened.message();
  EXPECT_TRUE(device.is_open());
  EXPECT_STREQ(device.driver(), "dummy");
  const engine::Status again = device.open(mixer);
  EXPECT_FALSE(again.is_ok());
  device.close();
  EXPECT_FALSE(device.is_open());
  EXPECT_STREQ(device.driver(), "none");
  device.close();  // twice is harmless
  EXPECT_EQ(SDL_WasInit(SDL_INIT_AUDIO), 0u);
}

TEST(AudioDevice, AMissingDriverIsOneLineAndLeavesNothingOpen) {
  AudioDriver driver("nonexistent");
  engine::Mixer mixer;
  engine::AudioDevice device;
  const engine::Status opened = device.open(mixer);
  ASSERT_FALSE(opened.is_ok());
  EXPECT_EQ(opened.message().rfind("no audio device (", 0), 0u) << opened.message();
  EXPECT_EQ(opened.message().find('\n'), std::string::npos);
  EXPECT_FALSE(device.is_open());
  EXPECT_EQ(SDL_WasInit(SDL_INIT_AUDIO), 0u);
  // The mixer still works without a device: the game keeps calling it and hears nothing.
  engine::SoundBuffer blip;
  blip.samples.assign(100, 0.5f);
  EXPECT_TRUE(mixer.play({&blip}));
}

}  // namespace

namespace {

// ctest sets POOLSHOT_SOURCE_DIR on every gtest; under ctest the audio driver must be the
// silent one (cmake/ctest_dummy_audio.cmake), so no test reaches a real sound card.
TEST(AudioDevice, CtestRunsEveryTestWithTheDummyDriver) {
  if (std::getenv("POOLSHOT_SOURCE_DIR") == nullptr) GTEST_SKIP() << "not run by ctest";
  const char* driver = std::getenv("SDL_AUDIODRIVER");
  ASSERT_NE(driver, nullptr);
  EXPECT_STREQ(driver, "dummy");
}

}  // namespace
