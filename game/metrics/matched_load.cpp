#include "metrics/matched_load.hpp"

#include "metrics/frame_log.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace game {

namespace {

constexpr std::uint8_t kNotCounted = kFrameTagSwitched | kFrameTagStorageGrew | kFrameTagPoolRebuilt;

double sim_ms(const engine::FrameSample& s) noexcept {
  return s.ms[static_cast<std::size_t>(engine::FrameTimer::simulation)];
}

double median_of(std::vector<double>& values) noexcept {  // nearest rank, like the percentiles
  if (values.empty()) return 0;
  return percentiles_of(values).p50;
}

// The heap frames' median live count: the load both sides are matched at. The heap frames
// counted are then those within the tolerance of it too (collect).
void collect_heap(const engine::FrameStats& frames, MatchedLoadScratch& x, MatchedLoad& m) {
  x.live.clear();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const engine::FrameSample& s = frames.sample(i);
    if (matched_heap_frame(s.counters.tag)) x.live.push_back(s.counters.live_objects);
  }
  m.live_objects = static_cast<std::uint64_t>(median_of(x.live));
}

bool within(std::uint32_t live, const MatchedLoad& m, const MatchedLoadRule& rule) noexcept {
  const double median = static_cast<double>(m.live_objects);
  const double d = static_cast<double>(live) - median;
  return d <= median * rule.tolerance && -d <= median * rule.tolerance;
}

void collect(const engine::FrameStats& frames, bool heap, std::vector<double>& out, const MatchedLoad& m,
             const MatchedLoadRule& rule) {
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const engine::FrameSample& s = frames.sample(i);
    const bool counts = heap ? matched_heap_frame(s.counters.tag) : matched_pooled_frame(s.counters.tag);
    if (counts && within(s.counters.live_objects, m, rule)) out.push_back(sim_ms(s));
  }
}

// The medians of the frames collected in x and their ratio, when enough_load and both sides kept
// rule.min_frames frames.
void finish(MatchedLoadScratch& x, bool enough_load, const MatchedLoadRule& rule, MatchedLoad& m) {
  m.heap_frames = x.heap_ms.size();
  m.pooled_frames = x.pooled_ms.size();
  m.heap_sim_p50 = median_of(x.heap_ms);
  m.pooled_sim_p50 = median_of(x.pooled_ms);
  m.has_ratio =
      enough_load && m.heap_frames >= rule.min_frames && m.pooled_frames >= rule.min_frames && m.pooled_sim_p50 > 0;
  m.ratio = m.has_ratio ? m.heap_sim_p50 / m.pooled_sim_p50 : 0.0;
}

}  // namespace

std::uint32_t live_objects(const SimStats& stats) noexcept {
  std::uint64_t live = 0;
  for (const StoreStats& s : stats.pools) live += s.live;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(live, UINT32_MAX));
}

std::size_t bytes_live(const SimStats& stats) noexcept {
  std::size_t bytes = 0;
  for (const StoreStats& s : stats.pools) bytes += s.bytes_live;
  return bytes;
}

bool matched_heap_frame(std::uint8_t tag) noexcept { return (tag & kFrameTagHeap) != 0 && (tag & kNotCounted) == 0; }

bool matched_pooled_frame(std::uint8_t tag) noexcept { return (tag & (kFrameTagHeap | kNotCounted)) == 0; }

MatchedLoad matched_load(const engine::FrameStats& heap, const engine::FrameStats& pooled, MatchedLoadScratch& x,
                         const MatchedLoadRule& rule) {
  MatchedLoad m;
  collect_heap(heap, x, m);
  x.heap_ms.clear();
  x.pooled_ms.clear();
  if (m.live_objects > 0) {
    collect(heap, true, x.heap_ms, m, rule);
    collect(pooled, false, x.pooled_ms, m, rule);
  }
  finish(x, m.live_objects >= rule.min_live, rule, m);
  return m;
}

MatchedLoad matched_load_paired(const engine::FrameStats& heap, const engine::FrameStats& pooled, MatchedLoadScratch& x,
                                const MatchedLoadRule& rule) {
  MatchedLoad m;
  x.heap_ms.clear();
  x.pooled_ms.clear();
  x.live.clear();
  const std::size_t steps = std::min(heap.size(), pooled.size());
  for (std::size_t i = 0; i < steps; ++i) {
    const engine::FrameSample& h = heap.sample(i);
    const engine::FrameSample& p = pooled.sample(i);
    if (!matched_heap_frame(h.counters.tag) || !matched_pooled_frame(p.counters.tag)) continue;
    const double live = h.counters.live_objects;
    if (live < static_cast<double>(rule.min_live)) continue;
    const double d = static_cast<double>(p.counters.live_objects) - live;
    if (d > live * rule.tolerance || -d > live * rule.tolerance) continue;
    x.heap_ms.push_back(sim_ms(h));
    x.pooled_ms.push_back(sim_ms(p));
    x.live.push_back(live);
  }
  m.live_objects = static_cast<std::uint64_t>(median_of(x.live));
  finish(x, true, rule, m);  // every frame kept had min_live objects
  if (!m.has_ratio) {        // say how far the runs got: the peak live count, for "not enough load"
    std::uint32_t peak = 0;
    for (std::size_t i = 0; i < heap.size(); ++i) peak = std::max(peak, heap.sample(i).counters.live_objects);
    m.live_objects = peak;
  }
  return m;
}

MatchedLoad matched_load(const engine::FrameStats& frames, MatchedLoadScratch& scratch, const MatchedLoadRule& rule) {
  return matched_load(frames, frames, scratch, rule);
}

void matched_load_line(const MatchedLoad& m, char* out, std::size_t size) noexcept {
  if (size == 0) return;
  if (!m.has_ratio) {
    std::snprintf(out, size, "hold fire to compare");
    return;
  }
  const double live = static_cast<double>(m.live_objects);
  char objects[32];
  if (live >= 1e6) {
    std::snprintf(objects, sizeof objects, "%.1fM", live / 1e6);
  } else {
    std::snprintf(objects, sizeof objects, "%.0fk", live / 1e3);
  }
  if (m.ratio >= 1.0) {
    std::snprintf(out, size, "heap %.1fx slower at %s objects (matched load)", m.ratio, objects);
  } else {
    std::snprintf(out, size, "heap %.1fx faster at %s objects (matched load)", 1.0 / m.ratio, objects);
  }
}

nlohmann::json matched_load_json(const MatchedLoad& m) {
  return {{"heap_sim_p50", m.heap_sim_p50},
          {"pooled_sim_p50", m.pooled_sim_p50},
          {"ratio", m.has_ratio ? nlohmann::json(m.ratio) : nlohmann::json(nullptr)},
          {"live_objects", m.live_objects},
          {"heap_frames", m.heap_frames},
          {"pooled_frames", m.pooled_frames}};
}

}  // namespace game
