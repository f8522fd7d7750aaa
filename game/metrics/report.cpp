#include "metrics/report.hpp"

#include "metrics/machine_caches.hpp"
#include "metrics/matched_load.hpp"
#include "metrics/alloc_counter.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace game {

std::string hex_hash(std::uint64_t hash) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016" PRIx64, hash);
  return text;
}

nlohmann::json make_report(const Simulation& sim, const FrameSummary& frames, const ReportContext& context) {
  using nlohmann::json;
  const SimStats& stats = sim.stats();
  const Settings& settings = sim.applied_settings();
  json report;
  report["frames"] = frames.frames;
  report["simulated_frames"] = stats.frame;
  report["seed"] = sim.seed();
  report["scenario"] = context.scenario_path;
  report["script"] = context.script_path.empty() ? nlohmann::json() : nlohmann::json(context.script_path);
  report["headless"] = context.headless;
  report["pooling"] = settings.pooling ? "on" : "off";
  report["storage"] = engine::storage_mode_name(settings.storage);
  report["walk"] = std::string(walk_name(settings.walk));
  report["threads"] = stats.threads;  // the update phase's threads in the last step (--threads)
  // --threads auto: the last measurement, many threads' median step time over one's (0: none yet).
  report["threads_auto"] = stats.threads_auto;
  report["threads_ratio"] = stats.threads_ratio;
  report["threads_measured"] = stats.threads_measured;
  // Mean ms per step of the phases the threads share: bullets' and particles' update (parallel),
  // their release (in order), the collision grid's build.
  const double steps = static_cast<double>(std::max<std::uint64_t>(stats.frame, 1));
  report["phase_ms"] = {{"update", stats.update_ms_total / steps},
                        {"release", stats.release_ms_total / steps},
                        {"collision", stats.collision_ms_total / steps}};
  report["autofire"] = settings.autofire;
  report["stress"] = settings.stress;
  report["state_hash"] = hex_hash(sim.state_hash());
  const ReportRender& render = context.render;
  const bool drew = !render.path.empty();
  report["render"] = {{"path", drew ? json(render.path) : json()},
                      {"requested", render.requested},
                      {"gl_renderer", drew ? json(render.gl_renderer) : json()},
                      {"software_gl", drew ? json(render.software_gl) : json()}};
  report["frame_ms"] = {{"sim", percentiles_json(frames.sim_ms)},
                        {"render", percentiles_json(frames.render_ms)},
                        {"total", percentiles_json(frames.total_ms)},
                        {"timed_frames", frames.timed_frames}};
  json pools = json::object();
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    const StoreStats& s = stats.pools[i];
    const PoolConfig& c = settings.pools[i];
    pools[pool_name(static_cast<PoolId>(i))] = {{"live", s.live},
                                                {"peak_live", s.peak_live},
                                                {"capacity", s.capacity},
                                                {"growth_events", s.growth_events},
                                                {"bytes_held", s.bytes_held},
                                                {"page_slots_used", s.page_slots},
                                                {"spawns", s.spawns},
                                                {"releases", s.releases},
                                                {"refused_spawns", s.refused_spawns},
                                                {"walk_ns_per_object", s.walk_ns_per_object},  // the last steps' update
                                                                                               // time per object
                                                                                               // (smoothed)
                                                {"policy",
                                                 {{"initial_capacity", c.initial_capacity},
                                                  {"growth_step", c.growth_step},
                                                  {"max_capacity", c.max_capacity},
                                                  {"page_slots", c.page_slots}}}};
  }
  report["pools"] = pools;
  report["pools_bytes_live"] = bytes_live(stats);  // live objects' bytes, sum over pools: a step's working set
  report["machine"] = {{"caches", caches_json(machine_caches())}};  // from /sys (or sysconf): [] unknown
  // Each kind of frame has its own worst frame: pooled frames without growth are the figure
  // pooling promises (0); heap frames allocate per object by design and never hide in it.
  const auto worst = [&](FrameKind kind) { return frames.of(kind).per_frame_max; };
  const auto count = [&](FrameKind kind) { return frames.of(kind).frames; };
  report["heap_allocs"] = {
      {"per_frame_max_steady", worst(FrameKind::steady)},
      {"per_frame_max_heap", worst(FrameKind::heap)},
      {"per_frame_max_growth", worst(FrameKind::growth)},
      {"per_frame_max_switch", worst(FrameKind::pooling_switch)},
      {"frame_kinds",
       "after the first " + std::to_string(frames.warmup_frames) +
           " frames (warm-up): steady = pooled, no pool grew or was rebuilt; growth = pooled, a pool grew or "
           "was rebuilt; heap = pooling off; switch = pooling switched on or off. per_frame_max_*: the worst "
           "frame of the kind, -1: no such frame"},
      {"warmup_frames", count(FrameKind::warmup)},
      {"steady_frames", count(FrameKind::steady)},
      {"growth_frames", count(FrameKind::growth)},
      {"heap_frames", count(FrameKind::heap)},
      {"switch_frames", count(FrameKind::pooling_switch)},
      {"last_growth_frame", frames.last_growth_frame},
      {"per_frame_max", frames.heap_allocs_per_frame_max},
      {"during_frames", frames.heap_allocs_total},
      {"process_total", heap_alloc_count()}};
  report["game"] = {{"score", stats.score},
                    {"lives", stats.lives},
                    {"wave", stats.wave},
                    {"loop_level", stats.loop_level},
                    {"game_over", stats.game_over},
                    {"game_over_frame", stats.game_over_frame},  // 0: not over (the last game's, after restarts)
                    {"kills", stats.kills},
                    {"chargers", stats.chargers},  // drawn by standing still (scenario "camping")
                    {"hits", stats.hits},
                    {"deaths", stats.deaths},
                    {"restarts", stats.restarts},
                    {"stale_refusals", stats.stale_refusals}};  // homing shots whose target handle was refused
  json log = json::array();
  for (const GrowthRecord& g : sim.growth_log()) {
    log.push_back({{"pool", pool_name(g.pool)},
                   {"frame", g.frame},
                   {"old_capacity", g.event.old_capacity},
                   {"new_capacity", g.event.new_capacity},
                   {"bytes_allocated", g.event.bytes_allocated},
                   {"relocated", g.event.relocated},
                   {"relocated_objects", g.event.relocated_objects},
                   {"microseconds", g.event.microseconds},
                   {"rebuild", g.rebuild}});
  }
  report["growth_log"] = log;
  report["growth_log_dropped"] = sim.growth_log_dropped();
  if (context.phases) report["phases"] = phases_json(*context.phases);
  if (context.memory) report["memory"] = memory_json(*context.memory);
  if (context.overlay) {
    report["overlay"] = overlay_json(*context.overlay);
    report["advisor"] = advice_json(context.overlay->advice, context.overlay->advisor_options);
  }
  return report;
}

bool write_report(const std::string& path, const nlohmann::json& report, std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = std::strerror(errno);
    return false;
  }
  out << report.dump(2) << '\n';
  out.flush();
  if (!out) {
    error = "write failed";
    return false;
  }
  return true;
}

}  // namespace game
