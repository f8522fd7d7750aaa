#include "metrics/frame_log.hpp"

#include "sim/simulation.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

namespace game {

nlohmann::json percentiles_json(const Percentiles& p) { return {{"p50", p.p50}, {"p99", p.p99}, {"max", p.max}}; }

std::uint8_t step_frame_tag(bool pooled_before, bool pooled_after, bool grew, bool rebuilt) noexcept {
  std::uint8_t tag = 0;
  if (!pooled_before || !pooled_after) tag |= kFrameTagHeap;
  if (pooled_before != pooled_after) tag |= kFrameTagSwitched;
  if (grew) tag |= kFrameTagStorageGrew;
  if (rebuilt) tag |= kFrameTagPoolRebuilt;
  return tag;
}

std::uint8_t step_frame_tag(const SimStats& after) noexcept {
  const bool pooling_switched = (after.switched & switch_bit(SwitchKind::pooling)) != 0;
  return step_frame_tag(pooling_switched ? !after.pooling : after.pooling, after.pooling, after.grew, after.rebuilt);
}

FrameKind frame_kind(std::uint64_t frame, std::uint64_t warmup_frames, std::uint8_t tag) noexcept {
  if (frame <= warmup_frames) return FrameKind::warmup;
  if ((tag & kFrameTagSwitched) != 0) return FrameKind::pooling_switch;
  if ((tag & kFrameTagHeap) != 0) return FrameKind::heap;
  if ((tag & (kFrameTagStorageGrew | kFrameTagPoolRebuilt)) != 0) return FrameKind::growth;
  return FrameKind::steady;
}

const char* frame_kind_name(FrameKind kind) noexcept {
  switch (kind) {
    case FrameKind::warmup:
      return "warmup";
    case FrameKind::pooling_switch:
      return "switch";
    case FrameKind::heap:
      return "heap";
    case FrameKind::growth:
      return "growth";
    case FrameKind::steady:
      return "steady";
  }
  return "?";
}

std::string switch_names(const FrameSwitch& s) {
  std::string names;
  for (const SwitchKind kind : kSwitchKinds) {
    if (!s.has(kind)) continue;
    if (!names.empty()) names += '|';
    names += s.label(kind);
  }
  return names;
}

void record_switch_events(const FrameSwitch& s, engine::FrameStats& frames) noexcept {
  for (const SwitchKind kind : kSwitchKinds) {
    if (!s.has(kind)) continue;
    const double value = kind == SwitchKind::pooling   ? (s.pooling ? 1.0 : 0.0)
                         : kind == SwitchKind::storage ? static_cast<double>(s.storage)
                                                       : static_cast<double>(s.walk);
    frames.record_event(kSwitchEventKind + static_cast<std::uint32_t>(kind), s.label(kind), value);
  }
}

bool switch_event(const engine::FrameEvent& event, SwitchKind& kind) noexcept {
  if (event.kind < kSwitchEventKind || event.kind >= kSwitchEventKind + kSwitchKinds.size()) return false;
  kind = static_cast<SwitchKind>(event.kind - kSwitchEventKind);
  return true;
}

namespace {

// Back from record_switch_events(): the event's kind and value into `s`.
void add_switch_event(FrameSwitch& s, SwitchKind kind, double value) noexcept {
  s.kinds = static_cast<std::uint8_t>(s.kinds | switch_bit(kind));
  if (kind == SwitchKind::pooling) s.pooling = value != 0;
  if (kind == SwitchKind::storage) s.storage = static_cast<engine::StorageMode>(value);
  if (kind == SwitchKind::walk) s.walk = static_cast<WalkMode>(value);
}

}  // namespace

FrameLog::FrameLog(std::size_t capacity, std::uint64_t warmup_frames)
    : frames_(std::max<std::size_t>(1, capacity), kSwitchEvents) {
  counts_.warmup_frames = warmup_frames;
}

void FrameLog::record(double sim_ms, double render_ms, std::uint64_t allocs, std::uint8_t tag,
                      const FrameSwitch& switched, std::uint32_t live) noexcept {
  const std::uint64_t frame = ++counts_.frames;
  frames_.begin_frame();
  record_switch_events(switched, frames_);
  frames_.set_time(engine::FrameTimer::simulation, sim_ms);
  frames_.set_time(engine::FrameTimer::render, render_ms);
  frames_.set_allocations(allocs);
  frames_.set_tag(tag);
  frames_.set_live_objects(live);
  frames_.end_frame();
  counts_.heap_allocs_total += allocs;
  counts_.heap_allocs_per_frame_max = std::max(counts_.heap_allocs_per_frame_max, allocs);
  if ((tag & kFrameTagStorageGrew) != 0) counts_.last_growth_frame = frame;
  FrameKindAllocs& kind = counts_.kinds[static_cast<std::size_t>(frame_kind(frame, counts_.warmup_frames, tag))];
  ++kind.frames;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  kind.per_frame_max = std::max(kind.per_frame_max, static_cast<std::int64_t>(std::min(allocs, kMax)));
}

FrameSummary FrameLog::summary(bool with_series) const {
  FrameSummary s = counts_;
  s.timed_frames = frames_.size();
  s.sim_ms = to_percentiles(frames_.summary(engine::FrameTimer::simulation));
  s.render_ms = to_percentiles(frames_.summary(engine::FrameTimer::render));
  s.total_ms = to_percentiles(frames_.cpu_summary());
  if (!with_series) return s;
  s.series.reserve(frames_.size());
  const std::uint64_t first_frame = counts_.frames - frames_.size() + 1;
  constexpr std::uint64_t kMaxAllocs = std::numeric_limits<std::uint32_t>::max();
  constexpr auto sim = static_cast<std::size_t>(engine::FrameTimer::simulation);
  constexpr auto render = static_cast<std::size_t>(engine::FrameTimer::render);
  for (std::size_t i = 0; i < frames_.size(); ++i) {  // oldest first
    const engine::FrameSample& x = frames_.sample(i);
    s.series.push_back({first_frame + i, static_cast<float>(x.ms[sim]), static_cast<float>(x.ms[render]),
                        static_cast<std::uint32_t>(std::min(x.counters.allocations, kMaxAllocs)),
                        (x.counters.tag & kFrameTagStorageGrew) != 0, FrameSwitch{}});
  }
  // The switches, from the events on the frames still in the series.
  if (!s.series.empty()) {
    const std::uint64_t first_index = frames_.sample(0).frame;
    for (std::size_t e = 0; e < frames_.event_count(); ++e) {
      const engine::FrameEvent& ev = frames_.event(e);
      SwitchKind kind{};
      if (!switch_event(ev, kind) || ev.frame < first_index || ev.frame - first_index >= s.series.size()) continue;
      add_switch_event(s.series[static_cast<std::size_t>(ev.frame - first_index)].switched, kind, ev.value);
    }
  }
  return s;
}

bool write_frame_csv(const std::string& path, const std::vector<FrameRecord>& series, std::string& error) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) {
    error = std::strerror(errno);
    return false;
  }
  // Plain stdio: a million rows in well under a second, no locale surprises in the decimals.
  bool ok = std::fputs("frame,sim_ms,render_ms,heap_allocs,storage_grew,switch\n", out) >= 0;
  for (const FrameRecord& r : series) {
    if (!ok) break;
    ok = std::fprintf(out, "%" PRIu64 ",%.4f,%.4f,%" PRIu32 ",%d,%s\n", r.frame, static_cast<double>(r.sim_ms),
                      static_cast<double>(r.render_ms), r.heap_allocs, r.storage_grew ? 1 : 0,
                      r.switched.any() ? switch_names(r.switched).c_str() : "") > 0;
  }
  ok = std::fclose(out) == 0 && ok;
  if (!ok) error = "write failed";
  return ok;
}

}  // namespace game
