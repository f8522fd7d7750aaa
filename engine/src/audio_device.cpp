#include <engine/audio/audio_device.hpp>

#include <string>

namespace engine {

void AudioDevice::callback(void* user, Uint8* stream, int bytes) {
  auto* mixer = static_cast<Mixer*>(user);
  // The device was opened as float stereo and SDL converts for us: `stream` is L R L R floats.
  mixer->mix(reinterpret_cast<float*>(stream), static_cast<std::size_t>(bytes) / (2 * sizeof(float)));
}

Status AudioDevice::open(Mixer& mixer, int buffer_frames) {
  if (is_open()) return Status::error("no audio device (already open)");
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    return Status::error(std::string("no audio device (") + SDL_GetError() + ")");
  }
  subsystem_ = true;
  SDL_AudioSpec want{};
  want.freq = mixer.sample_rate();
  want.format = AUDIO_F32SYS;
  want.channels = 2;
  want.samples = static_cast<Uint16>(buffer_frames > 0 && buffer_frames <= 8192 ? buffer_frames : 512);
  want.callback = &AudioDevice::callback;
  want.userdata = &mixer;
  SDL_AudioSpec have{};
  // allowed_changes 0: SDL resamples/converts so the mixer always sees 48 kHz float stereo.
  device_ = SDL_OpenAudioDevice(nullptr, 0, &want, &have, 0);
  if (device_ == 0) {
    const std::string message = std::string("no audio device (") + SDL_GetError() + ")";
    close();
    return Status::error(message);
  }
  SDL_PauseAudioDevice(device_, 0);  // devices open paused
  return Status::ok();
}

void AudioDevice::close() noexcept {
  if (device_ != 0) SDL_CloseAudioDevice(device_);  // waits for a running callback to return
  device_ = 0;
  if (subsystem_) {
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    // The runtime skips SDL_Quit while audio is still up; the last one out calls it.
    if (SDL_WasInit(SDL_INIT_EVERYTHING) == 0) SDL_Quit();
  }
  subsystem_ = false;
}

const char* AudioDevice::driver() const noexcept {
  const char* name = subsystem_ ? SDL_GetCurrentAudioDriver() : nullptr;
  return name != nullptr ? name : "none";
}

}  // namespace engine
