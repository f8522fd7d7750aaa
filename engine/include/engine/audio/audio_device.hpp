#pragma once
// engine::AudioDevice: an SDL audio output (48 kHz float stereo, a callback) that plays a
// Mixer. Opening is allowed to fail: no sound card, SDL_AUDIODRIVER naming a driver that is
// not there; the Status then says why in one line and the game runs silent.
#include <engine/audio/mixer.hpp>
#include <engine/status.hpp>

#include <SDL.h>

namespace engine {

class AudioDevice {
 public:
  AudioDevice() = default;
  ~AudioDevice() { close(); }
  AudioDevice(const AudioDevice&) = delete;
  AudioDevice& operator=(const AudioDevice&) = delete;

  // Starts SDL's audio subsystem and a device that calls mixer.mix() on SDL's audio thread
  // (`mixer` must outlive the device). SDL converts if the hardware wants another format.
  // Error: "no audio device (<SDL error>)". Opening an open device is an error too.
  Status open(Mixer& mixer, int buffer_frames = 512);
  void close() noexcept;  // stops the callback, then quits the subsystem
  bool is_open() const noexcept { return device_ != 0; }
  const char* driver() const noexcept;  // SDL's audio driver name, or "none"

 private:
  static void callback(void* user, Uint8* stream, int bytes);
  SDL_AudioDeviceID device_ = 0;
  bool subsystem_ = false;  // we started SDL_INIT_AUDIO
};

}  // namespace engine
