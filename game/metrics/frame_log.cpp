#include "frame_log.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

namespace game {

FrameLog::FrameLog(std::size_t capacity, std::uint64_t warmup_frames) {
  ring_.reserve(std::max<std::size_t>(1, capacity));
  counts_.warmup_frames = warmup_frames;
  counts_.steady_from_frame = warmup_frames + 1;
}

void FrameLog::record(double sim_ms, double render_ms, std::uint64_t allocs, bool storage_grew) noexcept {
  const std::uint64_t frame = ++counts_.frames;
  constexpr std::uint64_t kMaxAllocs = std::numeric_limits<std::uint32_t>::max();
  const Sample s{static_cast<float>(sim_ms), static_cast<float>(render_ms),
                 static_cast<std::uint32_t>(std::min(allocs, kMaxAllocs)), storage_grew};
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

FrameSummary FrameLog::summary() const {
  FrameSummary s = counts_;
  s.heap_allocs_per_frame_max_steady = s.steady_frames > 0 ? static_cast<std::int64_t>(steady_max_) : -1;
  s.timed_frames = ring_.size();
  std::vector<float> sim, render, total;
  sim.reserve(ring_.size());
  render.reserve(ring_.size());
  total.reserve(ring_.size());
  s.series.reserve(ring_.size());
  // Oldest first: once the ring has wrapped, the oldest sample sits at next_.
  const std::uint64_t first_frame = counts_.frames - ring_.size() + 1;
  for (std::size_t i = 0; i < ring_.size(); ++i) {
    const Sample& x = ring_[(next_ + i) % ring_.size()];
    sim.push_back(x.sim_ms);
    render.push_back(x.render_ms);
    total.push_back(x.sim_ms + x.render_ms);
    s.series.push_back({first_frame + i, x.sim_ms, x.render_ms, x.allocs, x.grew});
  }
  s.sim_ms = percentiles(std::move(sim));
  s.render_ms = percentiles(std::move(render));
  s.total_ms = percentiles(std::move(total));
  return s;
}

bool write_frame_csv(const std::string& path, const std::vector<FrameRecord>& series, std::string& error) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) {
    error = std::strerror(errno);
    return false;
  }
  // Plain stdio: a million rows in well under a second, no locale surprises in the decimals.
  bool ok = std::fputs("frame,sim_ms,render_ms,heap_allocs,storage_grew\n", out) >= 0;
  for (const FrameRecord& r : series) {
    if (!ok) break;
    ok = std::fprintf(out, "%" PRIu64 ",%.4f,%.4f,%" PRIu32 ",%d\n", r.frame, static_cast<double>(r.sim_ms),
                      static_cast<double>(r.render_ms), r.heap_allocs, r.storage_grew ? 1 : 0) > 0;
  }
  ok = std::fclose(out) == 0 && ok;
  if (!ok) error = "write failed";
  return ok;
}

}  // namespace game
