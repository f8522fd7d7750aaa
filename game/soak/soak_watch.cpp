#include "soak/soak_watch.hpp"

#include "sim/object_store.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <unistd.h>

namespace soak {

namespace {

std::size_t resident_bytes() {  // /proc/self/statm: size resident shared ... (in pages)
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return read == 2 ? resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// The switching schedule: the first quarter pooled, the second on the heap, then a switch
// every `switch_every` frames through pooled-contiguous, heap, pooled-stable, heap, ...
void apply_schedule(game::Simulation& sim, std::uint64_t frame, const Args& args) {
  const std::uint64_t quarter = args.frames / 4;
  bool pooled = true;
  engine::StorageMode storage = sim.scenario().storage;
  if (frame < quarter) {
    pooled = true;
  } else if (frame < 2 * quarter) {
    pooled = false;
  } else {
    const std::uint64_t phase = (frame - 2 * quarter) / args.switch_every;
    pooled = phase % 2 == 0;
    storage = (phase / 2) % 2 == 0 ? engine::StorageMode::contiguous : engine::StorageMode::stable;
  }
  sim.settings().pooling = pooled;
  sim.settings().storage = storage;
}

// Warm-up ends after the first full switching cycle (contiguous, heap, stable, heap), so
// every storage mode has reached its peak once; stable pages round capacity up, so a peak
// taken before stable mode ran would make its first page look like a leak.
std::uint64_t warmup_end(const Args& args) {
  return std::min(args.frames - args.frames / 4, 2 * (args.frames / 4) + 4 * args.switch_every);
}

// The most slots a pool may hold for a given live peak under its policy: a doubling pool grows
// when full (to twice its live count), a fixed-step pool by its step, a stable pool rounds
// up to whole pages, and a pool coming back from heap mode returns at its earlier capacity,
// which obeyed the same bound for an earlier (lower) peak. Every pool also keeps room ahead
// (ObjectStore::make_room: an eighth of its live count, twice its largest burst once a burst
// outgrew it): its live peak plus that room, grown the same way.
// More than this is a slot leak. `page_slots` is the pool's own page length
// (StoreStats::page_slots, after its rule for 0).
std::size_t capacity_bound(const game::PoolConfig& pool, const game::StoreStats& stats) {
  const std::size_t needed = stats.peak_live + game::room_ahead(stats.peak_live, stats.burst_peak);
  const std::size_t grown = pool.growth_step == 0 ? 2 * needed : needed + pool.growth_step;
  return std::max(pool.initial_capacity, grown) + stats.page_slots;
}

void raise_to(std::size_t& peak, std::size_t value) { peak = std::max(peak, value); }

void watch_pools(const game::Scenario& scenario, const game::SimStats& stats, std::uint64_t frame, bool late,
                 const Args& args, Totals& totals) {
  const bool last_quarter = frame >= args.frames - args.frames / 4;
  for (std::size_t p = 0; p < game::kPoolCount; ++p) {
    const game::StoreStats& pool = stats.pools[p];
    PoolWatch& w = totals.pools[p];
    if (pool.live > scenario.pools[p].max_capacity) ++totals.over_cap_frames;
    raise_to(last_quarter ? w.live_peak_last_quarter : w.live_peak_before_last_quarter, pool.live);
    if (!pool.pooled) continue;
    if (late && pool.capacity > std::max(w.capacity_peak_warm, w.capacity_peak_late)) ++w.new_highs_late;
    raise_to(late ? w.capacity_peak_late : w.capacity_peak_warm, pool.capacity);
    // The store's own peak, counted at every spawn: objects that are born and die inside one
    // step never show in a count taken between steps, but a pool may have grown for them.
    const std::size_t bound = capacity_bound(scenario.pools[p], pool);
    if (pool.capacity > bound) ++totals.over_bound_frames;
    if (w.worst_bound == 0 || pool.capacity * w.worst_bound > w.worst_capacity * bound) {
      w.worst_capacity = pool.capacity;
      w.worst_bound = bound;
    }
  }
}

std::size_t pool_bytes(const game::SimStats& stats) {
  std::size_t bytes = 0;
  for (const auto& pool : stats.pools) bytes += pool.pooled ? pool.bytes_held : 0;
  return bytes;
}

// One line every 5000 frames (or twentieth of a shorter run), with the checks so far, so that a run stopped early
// (the full soak takes hours) still leaves evidence of what held up to where it got.
void print_progress(const game::Simulation& sim, const game::SimStats& stats, std::uint64_t frame, const Args& args,
                    std::size_t rss, const Totals& totals) {
  std::size_t capacity = 0;
  std::uint64_t stale = 0, refused = 0;
  for (const auto& pool : stats.pools) {
    capacity += pool.pooled ? pool.capacity : 0;
    stale += pool.stale_gets;
    refused += pool.failed_releases;
  }
  std::printf("soak: frame %" PRIu64 "/%" PRIu64
              " %s live: bullets %zu enemy_bullets %zu particles %zu "
              "enemies %zu, pooled capacity %zu, rss %.1f MiB; so far: over max_capacity %" PRIu64
              ", over policy bound %" PRIu64 ", stale derefs %" PRIu64 ", refused releases %" PRIu64 "\n",
              frame + 1, args.frames, sim.applied_settings().pooling ? "pooled" : "heap  ", stats.pools[0].live,
              stats.pools[1].live, stats.pools[2].live, stats.pools[3].live, capacity, mib(rss), totals.over_cap_frames,
              totals.over_bound_frames, stale, refused);
  std::fflush(stdout);
}

}  // namespace

double mib(std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

SoakWatch::SoakWatch(game::Simulation& sim, const game::Scenario& scenario, const Args& args)
    : sim_(sim),
      scenario_(scenario),
      args_(args),
      report_every_(std::max<std::uint64_t>(std::min<std::uint64_t>(args.frames / 20, 5000), 1)),
      warm_end_(warmup_end(args)) {}

void SoakWatch::before_step() {
  apply_schedule(sim_, frame_, args_);
  if (sim_.settings().pooling != was_pooled_) ++totals_.switches;
  was_pooled_ = sim_.settings().pooling;
}

void SoakWatch::after_step(const game::Simulation& sim, const game::SimStats& stats, double, std::uint64_t) {
  const std::uint64_t frame = frame_++;
  const bool late = frame >= warm_end_;
  watch_pools(scenario_, stats, frame, late, args_, totals_);
  if (frame % 50 == 0 || frame + 1 == args_.frames) {
    const std::size_t rss = resident_bytes();
    const std::size_t other = rss - std::min(rss, pool_bytes(stats));
    raise_to(late ? totals_.rss_late_max : totals_.rss_warm, rss);
    raise_to(late ? totals_.other_late_max : totals_.other_warm, other);
  }
  if ((frame + 1) % report_every_ == 0 || frame + 1 == args_.frames || frame + 1 == warm_end_) {
    print_progress(sim, stats, frame, args_, resident_bytes(), totals_);
  }
}

}  // namespace soak
