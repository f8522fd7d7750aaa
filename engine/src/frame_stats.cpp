#include <engine/frame_stats.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace engine {

namespace {
std::size_t timer_index(FrameTimer timer) noexcept {
  const auto i = static_cast<std::size_t>(timer);
  return i < frame_timer_count ? i : frame_timer_count - 1;
}
}  // namespace

double nearest_rank_percentile(const double* sorted, std::size_t count, double percent) noexcept {
  if (count == 0 || sorted == nullptr) return 0.0;
  const double clamped = std::clamp(percent, 0.0, 100.0);
  // rank = ceil(p/100 * n), computed so that 50% of 100 is exactly rank 50.
  auto rank = static_cast<std::size_t>(std::ceil(clamped * static_cast<double>(count) / 100.0 - 1e-9));
  rank = std::clamp<std::size_t>(rank, 1, count);
  return sorted[rank - 1];
}

TimingSummary summarize_times(double* values, std::size_t count) noexcept {
  TimingSummary s;
  s.samples = count;
  if (count == 0 || values == nullptr) return s;
  std::sort(values, values + count);
  s.p50_ms = nearest_rank_percentile(values, count, 50.0);
  s.p99_ms = nearest_rank_percentile(values, count, 99.0);
  s.max_ms = values[count - 1];
  return s;
}

FrameStats::FrameStats(std::size_t window_frames, std::size_t event_capacity)
    : events_(std::max<std::size_t>(event_capacity, 1)) {
  set_window(window_frames);
}

void FrameStats::set_window(std::size_t window_frames) {
  window_ = std::max<std::size_t>(window_frames, 1);
  samples_.clear();
  samples_.shrink_to_fit();
  samples_.reserve(window_);
  scratch_.clear();
  scratch_.shrink_to_fit();
  scratch_.reserve(window_);
  head_ = 0;
  count_ = 0;
}

void FrameStats::clear() noexcept {
  samples_.clear();
  head_ = 0;
  count_ = 0;
  event_head_ = 0;
  event_count_ = 0;
  events_recorded_ = 0;
  open_ = FrameSample{};
  open_.frame = next_frame_;
}

void FrameStats::begin_frame() noexcept {
  open_ = FrameSample{};
  open_.frame = next_frame_;
}

void FrameStats::add_time(FrameTimer timer, double ms) noexcept { open_.ms[timer_index(timer)] += ms; }

void FrameStats::set_time(FrameTimer timer, double ms) noexcept { open_.ms[timer_index(timer)] = ms; }

void FrameStats::set_draw_stats(std::uint32_t draw_calls, std::uint32_t sprites) noexcept {
  open_.counters.draw_calls = draw_calls;
  open_.counters.sprites = sprites;
}

void FrameStats::record_event(std::uint32_t kind, std::string_view label, double value) noexcept {
  FrameEvent& e = events_[event_head_];
  e.frame = next_frame_;
  e.kind = kind;
  e.value = value;
  const std::size_t n = std::min(label.size(), FrameEvent::label_capacity);
  if (n != 0) std::memcpy(e.label, label.data(), n);
  e.label[n] = '\0';
  event_head_ = (event_head_ + 1) % events_.size();
  event_count_ = std::min(event_count_ + 1, events_.size());
  ++events_recorded_;
}

void FrameStats::end_frame() noexcept {
  open_.frame = next_frame_;
  if (samples_.size() < window_) {
    samples_.push_back(open_);  // within the reservation: no allocation
  } else {
    samples_[head_] = open_;
    head_ = (head_ + 1) % window_;
  }
  count_ = samples_.size();
  ++next_frame_;
  open_ = FrameSample{};
  open_.frame = next_frame_;
}

const FrameSample& FrameStats::sample(std::size_t age_index) const noexcept {
  // Oldest sample sits at head_ (0 until the ring has wrapped).
  static const FrameSample none{};
  if (count_ == 0) return none;
  const std::size_t clamped = std::min(age_index, count_ - 1);
  return samples_[(head_ + clamped) % count_];
}

const FrameSample* FrameStats::latest() const noexcept {
  if (count_ == 0) return nullptr;
  return &samples_[(head_ + count_ - 1) % count_];
}

template <class Value>
TimingSummary FrameStats::summarize(std::size_t first, std::size_t count, Value value) const noexcept {
  first = std::min(first, count_);
  count = std::min(count, count_ - first);
  // Within the reservation; a copied FrameStats (vectors copy their size, not their capacity)
  // allocates here once.
  scratch_.resize(count);
  for (std::size_t i = 0; i < count; ++i) scratch_[i] = value(sample(first + i));
  return summarize_times(scratch_.data(), count);
}

TimingSummary FrameStats::summary(FrameTimer timer) const noexcept { return summary(timer, 0, count_); }

TimingSummary FrameStats::summary(FrameTimer timer, std::size_t first, std::size_t count) const noexcept {
  const std::size_t t = timer_index(timer);
  return summarize(first, count, [t](const FrameSample& s) { return s.ms[t]; });
}

TimingSummary FrameStats::cpu_summary(std::size_t first, std::size_t count) const noexcept {
  constexpr auto sim = static_cast<std::size_t>(FrameTimer::simulation);
  constexpr auto render = static_cast<std::size_t>(FrameTimer::render);
  return summarize(first, count, [](const FrameSample& s) { return s.ms[sim] + s.ms[render]; });
}

std::size_t FrameStats::copy_series(FrameTimer timer, float* out, std::size_t capacity) const noexcept {
  if (out == nullptr) return 0;
  const std::size_t n = std::min(capacity, count_);
  const std::size_t skip = count_ - n;  // keep the newest when out is shorter than the window
  const std::size_t t = timer_index(timer);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(sample(skip + i).ms[t]);
  return n;
}

const FrameEvent& FrameStats::event(std::size_t age_index) const noexcept {
  const std::size_t n = events_.size();
  const std::size_t oldest = (event_head_ + n - event_count_) % n;
  const std::size_t clamped = event_count_ == 0 ? 0 : std::min(age_index, event_count_ - 1);
  return events_[(oldest + clamped) % n];
}

std::uint64_t FrameStats::events_overwritten() const noexcept {
  return events_recorded_ - static_cast<std::uint64_t>(event_count_);
}

}  // namespace engine
