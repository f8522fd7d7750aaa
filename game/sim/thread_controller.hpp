#pragma once
// The update phase's thread count chosen by measurement (--threads auto): a busy machine falls
// back toward one thread, a quiet one uses its cores. Only who runs the chunks changes, never the
// game: the chunked passes end the same at any thread count.
//
// The controller runs `most` threads at first. Every `interval` steps it probes the other count
// (one thread while it runs many, many while it runs one) for a short window, compares the median
// step time there with the median of the same number of steps just before, and keeps the faster.
// It goes to one thread as soon as one is faster, and back to many only when many are faster by
// `margin` (at a tie one thread leaves the other core to whatever else runs). A probe that keeps
// the count doubles the interval up to max_interval (a probe's steps run at the slower count);
// a switch resets it. Medians, not means: a step that grew a pool, or that the OS interrupted,
// does not decide. Pure: fed step times, it reads no clock, so it is tested with made-up ones.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace game {

class ThreadController {
 public:
  static constexpr std::size_t kMaxWindow = 32;
  struct Config {
    std::uint32_t window = 12;          // steps measured at each count (<= kMaxWindow)
    std::uint32_t settle = 2;           // steps after a switch left out (the workers wake up)
    std::uint32_t interval = 180;       // steps between probes after a switch (3 s at 60 Hz)
    std::uint32_t max_interval = 1440;  // ... and after probes that kept the count (24 s)
    double margin = 0.05;               // many must be this much faster than one to be chosen
  };

  explicit ThreadController(std::uint32_t most) : ThreadController(most, Config{}) {}
  ThreadController(std::uint32_t most, Config config) : config_(config), most_(std::max<std::uint32_t>(most, 1)) {
    config_.window = std::clamp<std::uint32_t>(config_.window, 1, kMaxWindow);
    config_.interval = std::max(config_.interval, config_.window);
    config_.max_interval = std::max(config_.max_interval, config_.interval);
    chosen_ = most_;
    interval_ = config_.interval;
  }

  // The threads to run the next step on (a probe's count during a probe).
  std::uint32_t threads() const noexcept { return probing_ ? other() : chosen_; }
  std::uint32_t chosen() const noexcept { return chosen_; }  // the count kept between probes
  bool probing() const noexcept { return probing_; }
  // The last comparison: many threads' median step time over one thread's (0 before the first),
  // and how many threads "many" was.
  double ratio() const noexcept { return ratio_; }
  std::uint32_t measured_threads() const noexcept { return most_; }
  std::uint32_t probes() const noexcept { return probes_; }

  // The step just run, on threads() threads, took `ms`.
  void record(double ms) noexcept {
    if (most_ == 1) return;  // nothing to choose
    ++steps_;
    if (steps_ <= config_.settle) return;
    if (!probing_) {
      steady_[steady_count_++ % config_.window] = ms;
      if (steps_ >= interval_ && steady_count_ >= config_.window) start(true);
      return;
    }
    probe_[probe_count_++] = ms;
    if (probe_count_ < config_.window) return;
    const double here = median(steady_);
    const double there = median(probe_);
    const double many = chosen_ == 1 ? there : here;
    const double one = chosen_ == 1 ? here : there;
    ratio_ = one > 0 ? many / one : 0;
    ++probes_;
    const std::uint32_t keep = decide(chosen_, ratio_);
    interval_ = keep == chosen_ ? std::min(2 * interval_, config_.max_interval) : config_.interval;
    chosen_ = keep;
    start(false);
  }

  // The count to keep, running `chosen`, after many threads measured `ratio` of one thread's time.
  std::uint32_t decide(std::uint32_t chosen, double ratio) const noexcept {
    if (ratio <= 0) return chosen;
    if (chosen == 1) return ratio < 1.0 - config_.margin ? most_ : 1;
    return ratio > 1.0 ? 1 : most_;
  }

 private:
  std::uint32_t other() const noexcept { return chosen_ == 1 ? most_ : 1; }
  void start(bool probe) noexcept {
    probing_ = probe;
    steps_ = 0;
    probe_count_ = 0;
    if (!probe) steady_count_ = 0;
  }
  double median(const std::array<double, kMaxWindow>& samples) const noexcept {
    std::array<double, kMaxWindow> sorted = samples;
    const std::size_t n = config_.window;
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.begin() + n);
    return sorted[n / 2];
  }

  Config config_;
  std::uint32_t most_ = 1;
  std::uint32_t chosen_ = 1;
  std::uint32_t interval_ = 0;
  std::uint32_t steps_ = 0;  // since the last switch of threads()
  bool probing_ = false;
  std::array<double, kMaxWindow> steady_{};  // the last `window` steps at the chosen count (a ring)
  std::array<double, kMaxWindow> probe_{};   // the probe's steps
  std::uint32_t steady_count_ = 0, probe_count_ = 0;
  std::uint32_t probes_ = 0;
  double ratio_ = 0;
};

}  // namespace game
