// poolshot_soak: runs the headless game for a long time while switching pooling on and off
// (and between contiguous and stable storage), and checks that nothing is lost or leaks:
//   - live counts stay within each pool's max_capacity,
//   - the capacity high-water mark stops rising after warm-up,
//   - resident memory stops growing after warm-up,
//   - no stale handle is ever dereferenced and no release is refused (counted by the pools),
//   - the final state hash equals that of a run that never switched.
// Exit 0 when every check holds, 1 with one line per failed check, 2 on a bad argument.
#include "scenario.hpp"
#include "simulation.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

struct Args {
  std::string scenario = std::string(POOLSHOT_SCENARIO_DIR) + "/storm.json";
  std::uint64_t frames = 200000;  // the documented soak; tests pass a few thousand
  std::uint64_t switch_every = 300;
  std::uint64_t seed = 7;
  bool compare = true;            // also run the never-switching reference
};

void usage() {
  std::fprintf(stderr,
               "usage: poolshot_soak [--scenario FILE] [--frames N] [--switch-every N] [--seed N] "
               "[--no-reference]\n");
}

bool parse_u64(const char* text, std::uint64_t& out) {
  if (!text || !*text || *text == '-') return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(text, &end, 10);
  return errno == 0 && *end == '\0';
}

bool parse_args(int argc, char** argv, Args& args) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    bool ok = true;
    if (flag == "--scenario" && value) {
      args.scenario = value;
      ++i;
    } else if (flag == "--frames") {
      ok = parse_u64(value, args.frames) && args.frames >= 10;
      ++i;
    } else if (flag == "--switch-every") {
      ok = parse_u64(value, args.switch_every) && args.switch_every > 0;
      ++i;
    } else if (flag == "--seed") {
      ok = parse_u64(value, args.seed);
      ++i;
    } else if (flag == "--no-reference") {
      args.compare = false;
    } else {
      std::fprintf(stderr, "poolshot_soak: unknown flag '%s'\n", flag.c_str());
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "poolshot_soak: bad value for %s\n", flag.c_str());
      usage();
      return false;
    }
  }
  return true;
}

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

struct Totals {
  std::size_t capacity_peak_warm = 0;  // highest total pooled capacity during warm-up
  std::size_t capacity_peak_late = 0;  // highest total pooled capacity after it
  std::size_t rss_warm = 0, rss_late_max = 0;
  std::uint64_t over_cap_frames = 0;
  std::uint64_t switches = 0;
};

std::uint64_t run_reference(const game::Scenario& scenario, const Args& args) {
  game::Simulation sim(scenario, args.seed);
  sim.settings().autofire = true;
  for (std::uint64_t f = 0; f < args.frames; ++f) sim.step({});
  return sim.state_hash();
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!parse_args(argc, argv, args)) return 2;
  const game::ScenarioResult loaded = game::load_scenario(args.scenario);
  if (!loaded.scenario) {
    std::fprintf(stderr, "poolshot_soak: %s\n", loaded.error.c_str());
    return 2;
  }
  const game::Scenario& scenario = *loaded.scenario;

  game::Simulation sim(scenario, args.seed);
  sim.settings().autofire = true;
  Totals totals;
  bool was_pooled = true;
  const std::uint64_t report_every = std::max<std::uint64_t>(args.frames / 20, 1);
  for (std::uint64_t frame = 0; frame < args.frames; ++frame) {
    apply_schedule(sim, frame, args);
    if (sim.settings().pooling != was_pooled) ++totals.switches;
    was_pooled = sim.settings().pooling;
    sim.step({});

    const game::SimStats stats = sim.stats();
    std::size_t capacity = 0;
    for (std::size_t p = 0; p < game::kPoolCount; ++p) {
      const auto& pool = stats.pools[p];
      if (pool.live > scenario.pools[p].max_capacity) ++totals.over_cap_frames;
      if (pool.pooled) capacity += pool.capacity;
    }
    const bool late = frame >= warmup_end(args);
    if (!late) {
      totals.capacity_peak_warm = std::max(totals.capacity_peak_warm, capacity);
    } else {
      totals.capacity_peak_late = std::max(totals.capacity_peak_late, capacity);
    }
    if ((frame + 1) % report_every == 0 || frame + 1 == args.frames || frame + 1 == warmup_end(args)) {
      const std::size_t rss = resident_bytes();
      if (!late) totals.rss_warm = std::max(totals.rss_warm, rss);
      if (late) totals.rss_late_max = std::max(totals.rss_late_max, rss);
      std::printf("soak: frame %" PRIu64 "/%" PRIu64 " %s live: bullets %zu enemy_bullets %zu particles %zu "
                  "enemies %zu, pooled capacity %zu, rss %.1f MiB\n",
                  frame + 1, args.frames, sim.applied_settings().pooling ? "pooled" : "heap  ",
                  stats.pools[0].live, stats.pools[1].live, stats.pools[2].live, stats.pools[3].live,
                  capacity, static_cast<double>(rss) / (1024.0 * 1024.0));
      std::fflush(stdout);
    }
  }

  const game::SimStats end = sim.stats();
  std::uint64_t stale = 0, failed_releases = 0;
  for (const auto& pool : end.pools) {
    stale += pool.stale_gets;
    failed_releases += pool.failed_releases;
  }
  const std::uint64_t hash = sim.state_hash();
  int failures = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) {
      std::printf("soak: FAILED: %s\n", what);
      ++failures;
    }
  };
  check(totals.over_cap_frames == 0, "a pool held more live objects than its max_capacity");
  check(totals.capacity_peak_late <= totals.capacity_peak_warm,
        "pool capacity kept rising after warm-up (above the peak of the first switching cycle)");
  // Resident memory may wobble by what the allocator keeps; growth beyond 10% + 16 MiB is a leak.
  check(totals.rss_late_max <= totals.rss_warm + totals.rss_warm / 10 + (std::size_t{16} << 20),
        "resident memory kept growing after warm-up");
  check(stale == 0, "a stale handle was dereferenced");
  check(failed_releases == 0, "a release was refused (double or stale release)");
  std::uint64_t reference = hash;
  if (args.compare) {
    std::printf("soak: running the never-switching reference (%" PRIu64 " frames)\n", args.frames);
    std::fflush(stdout);
    reference = run_reference(scenario, args);
    check(reference == hash, "the final state differs from a run that never switched");
  }
  std::printf("soak: %s after %" PRIu64 " frames, %" PRIu64 " pooling switches, state_hash 0x%016" PRIx64
              " (reference 0x%016" PRIx64 "), stale derefs %" PRIu64 ", refused releases %" PRIu64
              ", capacity peak %zu -> %zu, rss peak %.1f -> %.1f MiB\n",
              failures == 0 ? "PASSED" : "FAILED", args.frames, totals.switches, hash, reference, stale,
              failed_releases, totals.capacity_peak_warm, totals.capacity_peak_late,
              static_cast<double>(totals.rss_warm) / (1024.0 * 1024.0),
              static_cast<double>(totals.rss_late_max) / (1024.0 * 1024.0));
  return failures == 0 ? 0 : 1;
}
