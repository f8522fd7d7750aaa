#include "frame_log.hpp"

#include <algorithm>

namespace game {

FrameLog::FrameLog(std::size_t capacity, std::uint64_t warmup_frames) {
  ring_.reserve(std::max<std::size_t>(1, capacity));
  counts_.warmup_frames = warmup_frames;
  counts_.steady_from_frame = warmup_frames + 1;
}

void FrameLog::record(double sim_ms, double render_ms, std::uint64_t allocs, bool storage_grew) noexcept {
  const std::uint64_t frame = ++counts_.frames;
  const Sample s{static_cast<float>(sim_ms), static_cast<float>(render_ms)};
  if (ring_.size() < ring_.capacity()) {
    ring_.push_back(s);
  } else {
    ring_[next_] = s;
    next_ = (next_ + 1) % ring_.size();
  }
  counts_.heap_allocs_total += allocs;
  counts_.heap_allocs_per_frame_max = std::max(counts_.heap_allocs_per_frame_max, allocs);
  if (storage_grew) {
    // Everything before (and including) a growth frame is warm-up by definition.
    counts_.last_growth_frame = frame;
    counts_.steady_from_frame = std::max(counts_.warmup_frames, frame) + 1;
    counts_.steady_frames = 0;
    steady_max_ = 0;
    return;
  }
  if (frame < counts_.steady_from_frame) return;
  ++counts_.steady_frames;
  steady_max_ = std::max(steady_max_, allocs);
}

namespace {

Percentiles percentiles(std::vector<float> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) {
    // Nearest rank: the smallest value with at least q of the samples at or below it.
    auto rank = static_cast<std::size_t>(q * static_cast<double>(values.size()) + 0.999999);
    rank = std::clamp<std::size_t>(rank, 1, values.size());
    return static_cast<double>(values[rank - 1]);
  };
  p.p50 = at(0.50);
  p.p99 = at(0.99);
  p.max = static_cast<double>(values.back());
  return p;
}

}  // namespace

FrameSummary FrameLog::summary() const {
  FrameSummary s = counts_;
  s.heap_allocs_per_frame_max_steady = s.steady_frames > 0 ? static_cast<std::int64_t>(steady_max_) : -1;
  s.timed_frames = ring_.size();
  std::vector<float> sim, render, total;
  sim.reserve(ring_.size());
  render.reserve(ring_.size());
  total.reserve(ring_.size());
  for (const Sample& x : ring_) {
    sim.push_back(x.sim_ms);
    render.push_back(x.render_ms);
    total.push_back(x.sim_ms + x.render_ms);
  }
  s.sim_ms = percentiles(std::move(sim));
  s.render_ms = percentiles(std::move(render));
  s.total_ms = percentiles(std::move(total));
  return s;
}

}  // namespace game
