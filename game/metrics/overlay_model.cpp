#include "metrics/overlay_model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace game {

namespace {

const char* refusal_consequence(PoolId id) noexcept {
  switch (id) {
    case PoolId::bullets:
      return "your guns stop firing";
    case PoolId::enemy_bullets:
      return "enemies stop firing";
    case PoolId::particles:
      return "explosions lose particles";
    case PoolId::enemies:
      return "new enemies stay away";
  }
  return "spawns fail";
}

PoolView pool_view(PoolId id, const StoreStats& s, const PoolConfig& policy, const PoolRateMeter& rates) {
  PoolView v;
  v.id = id;
  v.live = s.live;
  v.capacity = s.capacity;
  v.free = s.capacity > s.live ? s.capacity - s.live : 0;
  v.peak_live = s.peak_live;
  v.bytes_held = s.bytes_held;
  v.initial_capacity = policy.initial_capacity;
  v.growth_step = policy.growth_step;
  v.max_capacity = policy.max_capacity;
  v.fill = s.capacity > 0 ? static_cast<double>(s.live) / static_cast<double>(s.capacity) : 0.0;
  v.rates = rates.rates(id);
  v.spawns = s.spawns;
  v.releases = s.releases;
  v.growth_events = s.growth_events;
  v.refused_spawns = s.refused_spawns;
  v.stale_gets = s.stale_gets;
  v.pooled = s.pooled;
  v.walk_ns_per_object = s.walk_ns_per_object;
  v.at_max_capacity = s.live >= policy.max_capacity;
  return v;
}

FrameRow frame_row(const engine::FrameSample& s, double budget_ms) {
  FrameRow r;
  r.frame = s.frame;
  r.sim_ms = static_cast<float>(s.ms[static_cast<std::size_t>(engine::FrameTimer::simulation)]);
  r.render_ms = static_cast<float>(s.ms[static_cast<std::size_t>(engine::FrameTimer::render)]);
  r.allocations = s.counters.allocations;
  r.draw_calls = s.counters.draw_calls;
  r.sprites = s.counters.sprites;
  r.over_budget = static_cast<double>(r.total_ms()) > budget_ms;
  r.heap = (s.counters.tag & kFrameTagHeap) != 0;
  return r;
}

void fill_window(FrameWindow& w, const engine::FrameStats& frames, const OverlayViewOptions& view) {
  w.seconds = std::clamp(view.window_seconds, kMinWindowSeconds, kMaxWindowSeconds);
  w.budget_ms = view.budget_ms;
  w.rows.clear();
  const std::size_t count = window_frame_count(frames, w.seconds, view.fixed_frame_seconds);
  w.covered_seconds = 0;
  for (std::size_t i = frames.size() - count; i < frames.size(); ++i) {
    const engine::FrameSample& s = frames.sample(i);
    w.rows.push_back(frame_row(s, w.budget_ms));
    w.covered_seconds += view.fixed_frame_seconds > 0
                             ? view.fixed_frame_seconds
                             : s.ms[static_cast<std::size_t>(engine::FrameTimer::frame)] / 1000.0;
  }
  // Growth markers and switch lines: the runtime's events carry the pool that grew, or the
  // switch, as their kind (GameApp, the recorder; frame_log.hpp).
  w.switches.clear();
  if (!w.rows.empty()) {
    const std::uint64_t first = w.rows.front().frame, last = w.rows.back().frame;
    for (std::size_t e = 0; e < frames.event_count(); ++e) {
      const engine::FrameEvent& ev = frames.event(e);
      if (ev.frame < first || ev.frame > last) continue;
      SwitchKind kind{};
      if (switch_event(ev, kind)) {
        SwitchMark& mark = w.switches.emplace_back();
        mark.frame = ev.frame;
        mark.kind = kind;
        std::memcpy(mark.label, ev.label, sizeof mark.label);
        continue;
      }
      if (ev.kind >= kPoolCount) continue;
      w.rows[static_cast<std::size_t>(ev.frame - first)].grew |= static_cast<std::uint8_t>(1u << ev.kind);
    }
  }
  w.over_budget = w.growth_frames = w.heap_frames = 0;
  w.allocations_max = w.allocations_total = 0;
  w.draw_calls_max = w.sprites_max = 0;
  for (const FrameRow& r : w.rows) {
    w.over_budget += r.over_budget ? 1u : 0u;
    w.growth_frames += r.grew != 0 ? 1u : 0u;
    w.heap_frames += r.heap ? 1u : 0u;
    w.allocations_max = std::max(w.allocations_max, r.allocations);
    w.allocations_total += r.allocations;
    w.draw_calls_max = std::max(w.draw_calls_max, r.draw_calls);
    w.sprites_max = std::max(w.sprites_max, r.sprites);
  }
  // The percentiles over exactly the frames drawn, from the recorder itself.
  const std::size_t first = frames.size() - count;
  w.sim = to_percentiles(frames.summary(engine::FrameTimer::simulation, first, count));
  w.render = to_percentiles(frames.summary(engine::FrameTimer::render, first, count));
  w.total = to_percentiles(frames.cpu_summary(first, count));
}

bool heap_frame(const engine::FrameSample& s) noexcept { return (s.counters.tag & kFrameTagHeap) != 0; }

// Sim percentiles of frames [first, last] (ages in the ring, oldest first).
PoolingSpan span_stats(const engine::FrameStats& frames, std::size_t first, std::size_t last) {
  PoolingSpan span;
  span.found = true;
  span.first_frame = frames.sample(first).frame;
  span.last_frame = frames.sample(last).frame;
  span.frames = last - first + 1;
  span.sim = to_percentiles(frames.summary(engine::FrameTimer::simulation, first, span.frames));
  return span;
}

double ratio_of(double heap, double pooled) noexcept { return pooled > 0 ? heap / pooled : 0.0; }

}  // namespace

PoolingSpans pooling_spans(const engine::FrameStats& frames) {
  PoolingSpans spans;
  // Newest first: each run of equal tags is a span; the first run of each kind is its newest.
  std::size_t end = frames.size();  // one past the run being walked
  while (end > 0 && !(spans.pooled.found && spans.heap.found)) {
    const bool heap = heap_frame(frames.sample(end - 1));
    std::size_t begin = end - 1;
    while (begin > 0 && heap_frame(frames.sample(begin - 1)) == heap) --begin;
    PoolingSpan& span = heap ? spans.heap : spans.pooled;
    if (!span.found) span = span_stats(frames, begin, end - 1);
    end = begin;
  }
  if (spans.pooled.found && spans.heap.found) {
    spans.ratio.p50 = ratio_of(spans.heap.sim.p50, spans.pooled.sim.p50);
    spans.ratio.p99 = ratio_of(spans.heap.sim.p99, spans.pooled.sim.p99);
    spans.ratio.max = ratio_of(spans.heap.sim.max, spans.pooled.sim.max);
  }
  return spans;
}

std::size_t window_frame_count(const engine::FrameStats& frames, double window_seconds,
                               double fixed_frame_seconds) noexcept {
  const double want = std::clamp(window_seconds, kMinWindowSeconds, kMaxWindowSeconds);
  if (fixed_frame_seconds > 0) {  // whole frames; the epsilon keeps 5 s / (1/60 s) at 300, not 301
    const double n = std::ceil(want / fixed_frame_seconds - 1e-6);
    return std::min(frames.size(), static_cast<std::size_t>(n));
  }
  double covered = 0;
  std::size_t count = 0;
  // Newest first, until the window is full; the ring's size is the hard limit.
  while (count < frames.size() && covered < want) {
    const engine::FrameSample& s = frames.sample(frames.size() - 1 - count);
    covered += s.ms[static_cast<std::size_t>(engine::FrameTimer::frame)] / 1000.0;
    ++count;
  }
  return count;
}

namespace {

// Wall time since the model was first filled; in deterministic runs each new frame counts as
// view.fixed_frame_seconds, so a scripted run reads the same every time.
void advance_clock(OverlayModel& model, const engine::FrameSample* latest, const OverlayViewOptions& view) {
  using clock = std::chrono::steady_clock;
  if (view.fixed_frame_seconds > 0) {
    if (latest && latest->frame != model.clock_frame) model.clock_seconds += view.fixed_frame_seconds;
  } else {
    static const clock::time_point start = clock::now();
    model.clock_seconds = std::chrono::duration<double>(clock::now() - start).count();
  }
  if (latest) model.clock_frame = latest->frame;
}

}  // namespace

void headline_line(const OverlayModel& model, char* out, std::size_t size) noexcept {
  if (size == 0) return;
  const char* prefix = model.pooling ? "" : "pooling OFF: ";
  char line[160];
  if (model.matched.has_ratio || !model.matched_kept.has_ratio) {
    matched_load_line(model.matched, line, sizeof line);
    std::snprintf(out, size, "%s%s", prefix, line);
    return;
  }
  matched_load_line(model.matched_kept, line, sizeof line);
  const std::size_t n = std::strlen(line);
  if (n > 0 && line[n - 1] == ')') line[n - 1] = '\0';  // "(matched load" gets the age inside
  const double ago = std::max(0.0, model.clock_seconds - model.matched_kept_at);
  if (ago < 120) {
    std::snprintf(out, size, "%s%s, %.0f s ago)", prefix, line, ago);
  } else {
    std::snprintf(out, size, "%s%s, %.0f min ago)", prefix, line, std::floor(ago / 60));
  }
}

void update_overlay_model(OverlayModel& model, const OverlaySources& src, const OverlayViewOptions& view) {
  const SimStats& stats = src.sim.stats();
  const Settings& applied = src.sim.applied_settings();
  model.sim_step = stats.frame;
  model.pooling = applied.pooling;
  model.storage = applied.storage;
  model.walk = applied.walk;
  model.threads = stats.threads;
  model.threads_auto = stats.threads_auto;
  model.threads_ratio = stats.threads_ratio;
  model.threads_measured = stats.threads_measured;
  // Smoothed over about ten steps, as the walk's ns/obj: one step's figure jumps with the scheduler.
  const auto smooth = [](double& shown, double now) { shown = shown == 0 ? now : shown + 0.1 * (now - shown); };
  smooth(model.update_ms, stats.update_ms);
  smooth(model.release_ms, stats.release_ms);
  smooth(model.collision_ms, stats.collision_ms);
  model.bytes_held_total = 0;
  model.bytes_live_total = bytes_live(stats);
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    model.pools[i] = pool_view(static_cast<PoolId>(i), stats.pools[i], applied.pools[i], src.rates);
    model.bytes_held_total += stats.pools[i].bytes_held;
  }
  const auto& log = src.sim.growth_log();
  if (model.growth_log.size() > log.size()) model.growth_log.clear();  // a different simulation
  model.growth_log.insert(model.growth_log.end(), log.begin() + static_cast<std::ptrdiff_t>(model.growth_log.size()),
                          log.end());
  model.growth_events = stats.growth_events;
  model.rebuilds = stats.rebuilds;
  model.growth_log_dropped = src.sim.growth_log_dropped();
  fill_window(model.window, src.frames, view);
  model.spans = pooling_spans(src.frames);
  model.matched = matched_load(src.frames, model.matched_scratch);
  const engine::FrameSample* latest = src.frames.latest();
  advance_clock(model, latest, view);
  if (model.matched.has_ratio) {
    model.matched_kept = model.matched;
    model.matched_kept_at = model.clock_seconds;
  }
  model.latest = latest ? frame_row(*latest, view.budget_ms) : FrameRow{};
  if (!model.window.rows.empty()) model.latest.grew = model.window.rows.back().grew;
  model.advisor_options = view.advisor;
  model.advice = advise_capacities(stats, applied, view.advisor);
}

OverlayModel make_overlay_model(const OverlaySources& sources, const OverlayViewOptions& view) {
  OverlayModel model;
  update_overlay_model(model, sources, view);
  return model;
}

bool refusal_message(const PoolView& pool, char* out, std::size_t size) noexcept {
  if (size == 0) return false;
  out[0] = '\0';
  if (!pool.refusing()) return false;
  std::snprintf(out, size, "%s: at max capacity %zu, spawns refused: %" PRIu64 " - %s", pool_name(pool.id),
                pool.max_capacity, pool.refused_spawns, refusal_consequence(pool.id));
  return true;
}

namespace {

nlohmann::json span_json(const PoolingSpan& s) {
  if (!s.found) return nullptr;
  return {{"first_frame", s.first_frame},
          {"last_frame", s.last_frame},
          {"frames", s.frames},
          {"sim_ms", percentiles_json(s.sim)}};
}

}  // namespace

nlohmann::json overlay_json(const OverlayModel& m) {
  using nlohmann::json;
  const FrameWindow& w = m.window;
  json window = {{"seconds", w.seconds},
                 {"covered_seconds", w.covered_seconds},
                 {"frames", w.rows.size()},
                 {"budget_ms", w.budget_ms},
                 {"sim_ms", percentiles_json(w.sim)},
                 {"render_ms", percentiles_json(w.render)},
                 {"total_ms", percentiles_json(w.total)},
                 {"frames_over_budget", w.over_budget},
                 {"growth_frames", w.growth_frames},
                 {"heap_frames", w.heap_frames},
                 {"switches", w.switches.size()},
                 {"heap_allocs_per_frame_max", w.allocations_max},
                 {"heap_allocs_total", w.allocations_total},
                 {"draw_calls_per_frame_max", w.draw_calls_max},
                 {"sprites_per_frame_max", w.sprites_max}};
  json pools = json::object();
  char message[192];
  for (const PoolView& p : m.pools) {
    pools[pool_name(p.id)] = {{"live", p.live},
                              {"free", p.free},
                              {"capacity", p.capacity},
                              {"peak_live", p.peak_live},
                              {"bytes_held", p.bytes_held},
                              {"fill", p.fill},
                              {"emplaces_per_second", p.rates.emplaces_per_second},
                              {"releases_per_second", p.rates.releases_per_second},
                              {"spawns", p.spawns},
                              {"releases", p.releases},
                              {"growth_events", p.growth_events},
                              {"refused_spawns", p.refused_spawns},
                              {"refused_last_second", p.rates.refused_last_second},
                              {"stale_gets", p.stale_gets},
                              {"stale_gets_per_second", p.rates.stale_gets_per_second},
                              {"at_max_capacity", p.at_max_capacity},
                              {"pooled", p.pooled},
                              {"walk_ns_per_object", p.walk_ns_per_object},
                              {"initial_capacity", p.initial_capacity},
                              {"growth_step", p.growth_step},
                              {"max_capacity", p.max_capacity},
                              {"refusal", refusal_message(p, message, sizeof message) ? json(message) : json(nullptr)}};
  }
  const FrameRow& l = m.latest;
  return {{"sim_step", m.sim_step},
          {"pooling", m.pooling ? "on" : "off"},
          {"storage", engine::storage_mode_name(m.storage)},
          {"walk", std::string(walk_name(m.walk))},
          {"threads", m.threads},
          {"pools", pools},
          {"bytes_held_total", m.bytes_held_total},
          {"bytes_live_total", m.bytes_live_total},
          {"growth_events", m.growth_events},
          {"rebuilds", m.rebuilds},
          {"growth_log_rows", m.growth_log.size()},
          {"latest_frame",
           {{"frame", l.frame},
            {"sim_ms", l.sim_ms},
            {"render_ms", l.render_ms},
            {"heap_allocs", l.allocations},
            {"draw_calls", l.draw_calls},
            {"sprites", l.sprites}}},
          {"window", window},
          {"pooling_spans",
           {{"pooled", span_json(m.spans.pooled)},
            {"heap", span_json(m.spans.heap)},
            {"heap_over_pooled", percentiles_json(m.spans.ratio)}}},
          {"matched_load", matched_load_json(m.matched)}};
}

}  // namespace game
