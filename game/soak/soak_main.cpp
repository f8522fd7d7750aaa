// poolshot_soak: runs the headless game for a long time while switching pooling on and off
// (and between contiguous and stable storage), and checks that nothing is lost or leaks:
//   - live counts stay within each pool's max_capacity,
//   - capacity stops growing: it never exceeds what the growth policy needs for the live
//     peak, and the live peaks of the last quarter stay within 1.25x of the peaks before it,
//   - resident memory outside the pools stops growing after warm-up,
//   - no stale handle is ever dereferenced and no release is refused (counted by the pools),
//   - the final state hash equals that of a run that never switched.
// Exit 0 when every check holds, 1 with one line per failed check, 2 on a bad argument.
#include "scenario.hpp"
#include "simulation.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

struct Args {
  std::string scenario = std::string(POOLSHOT_SCENARIO_DIR) + "/storm.json";
  std::uint64_t frames = 200000;  // the documented soak; tests pass a few thousand
  std::uint64_t switch_every = 300;
  std::uint64_t seed = 7;
  bool compare = true;  // also run the never-switching reference
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

// The most slots a pool may hold for a given live peak under its policy: a doubling pool grows
// only when full (to twice its live count), a fixed-step pool by its step, a stable pool rounds
// up to whole pages, and a pool coming back from heap mode returns at its earlier capacity,
// which obeyed the same bound for an earlier (lower) peak. More than this is a slot leak.
// `page_slots` is the pool's own page length (StoreStats::page_slots, after its rule for 0).
std::size_t capacity_bound(const game::PoolConfig& pool, std::size_t page_slots, std::size_t live_peak) {
  const std::size_t grown = pool.growth_step == 0 ? 2 * live_peak : live_peak + pool.growth_step;
  return std::max(pool.initial_capacity, grown) + page_slots;
}

double mib(std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

void raise_to(std::size_t& peak, std::size_t value) { peak = std::max(peak, value); }

// What the run watches, per pool and overall. "Capacity stops growing" is judged like with
// like: capacity against what the policy needs for the live peak (a slot leak), and the live
// peak of the last quarter against the peak before it (an object leak). Comparing raw capacity
// peaks would not work: each return from heap mode rebuilds the pool, and a doubling pool
// lands a power of two higher the first time the storm's natural peak crosses one.
struct PoolWatch {
  std::size_t live_peak_before_last_quarter = 0, live_peak_last_quarter = 0;
  std::size_t capacity_peak_warm = 0, capacity_peak_late = 0;
  std::size_t worst_capacity = 0, worst_bound = 0;  // the frame closest to (or past) the bound
  std::uint64_t new_highs_late = 0;                 // frames after warm-up that raised the capacity peak so far
};

struct Totals {
  std::array<PoolWatch, game::kPoolCount> pools{};
  std::uint64_t over_cap_frames = 0, over_bound_frames = 0;
  std::uint64_t switches = 0;
  // Resident memory, sampled every few frames. Pool bytes may legitimately grow with the live
  // peak (checked above), so the leak check is on resident memory minus the pools' bytes.
  std::size_t rss_warm = 0, rss_late_max = 0;
  std::size_t other_warm = 0, other_late_max = 0;  // rss - pool bytes
};

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
    const std::size_t bound = capacity_bound(scenario.pools[p], pool.page_slots, pool.peak_live);
    if (pool.capacity > bound) ++totals.over_bound_frames;
    if (w.worst_bound == 0 || pool.capacity * w.worst_bound > w.worst_capacity * bound) {
      w.worst_capacity = pool.capacity;
      w.worst_bound = bound;
    }
  }
}

std::uint64_t run_reference(const game::Scenario& scenario, const Args& args) {
  game::Simulation sim(scenario, args.seed);
  sim.settings().autofire = true;
  for (std::uint64_t f = 0; f < args.frames; ++f) sim.step({});
  return sim.state_hash();
}

// The reference runs in a child process, alongside the soak on the other core: it halves the
// wall time of the hours-long run and keeps the child's memory out of the soak's resident
// memory. Without fork() (or if it fails) the reference runs afterwards, in this process.
struct ReferenceRun {
  pid_t child = -1;
  int from_child = -1;
};

ReferenceRun start_reference(const game::Scenario& scenario, const Args& args) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {};
  }
  if (pid == 0) {
    close(fds[0]);
    const std::uint64_t hash = run_reference(scenario, args);
    const bool sent = write(fds[1], &hash, sizeof hash) == static_cast<ssize_t>(sizeof hash);
    _exit(sent ? 0 : 1);
  }
  close(fds[1]);
  return {pid, fds[0]};
}

std::uint64_t finish_reference(const ReferenceRun& run, const game::Scenario& scenario, const Args& args) {
  if (run.child < 0) return run_reference(scenario, args);
  std::uint64_t hash = 0;
  const bool got = read(run.from_child, &hash, sizeof hash) == static_cast<ssize_t>(sizeof hash);
  close(run.from_child);
  int status = 0;
  waitpid(run.child, &status, 0);
  return got ? hash : ~std::uint64_t{0};  // a lost child fails the comparison, loudly
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

int main(int argc, char** argv) {
  Args args;
  if (!parse_args(argc, argv, args)) return 2;
  const game::ScenarioResult loaded = game::load_scenario(args.scenario);
  if (!loaded.scenario) {
    std::fprintf(stderr, "poolshot_soak: %s\n", loaded.error.c_str());
    return 2;
  }
  const game::Scenario& scenario = *loaded.scenario;

  const ReferenceRun reference_run = args.compare ? start_reference(scenario, args) : ReferenceRun{};
  game::Simulation sim(scenario, args.seed);
  sim.settings().autofire = true;
  Totals totals;
  bool was_pooled = true;
  const std::uint64_t report_every = std::max<std::uint64_t>(std::min<std::uint64_t>(args.frames / 20, 5000), 1);
  const std::uint64_t warm_end = warmup_end(args);
  for (std::uint64_t frame = 0; frame < args.frames; ++frame) {
    apply_schedule(sim, frame, args);
    if (sim.settings().pooling != was_pooled) ++totals.switches;
    was_pooled = sim.settings().pooling;
    sim.step({});

    const game::SimStats stats = sim.stats();
    const bool late = frame >= warm_end;
    watch_pools(scenario, stats, frame, late, args, totals);
    if (frame % 50 == 0 || frame + 1 == args.frames) {
      const std::size_t rss = resident_bytes();
      const std::size_t other = rss - std::min(rss, pool_bytes(stats));
      raise_to(late ? totals.rss_late_max : totals.rss_warm, rss);
      raise_to(late ? totals.other_late_max : totals.other_warm, other);
    }
    if ((frame + 1) % report_every == 0 || frame + 1 == args.frames || frame + 1 == warm_end) {
      print_progress(sim, stats, frame, args, resident_bytes(), totals);
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
  check(totals.over_bound_frames == 0, "a pool held more slots than its growth policy needs for its live peak");
  // A leak of objects grows without end; the storm's own peaks wobble by a few percent. A
  // scenario that gets tougher every pass (loop_ramp > 0) rises by design: not judged.
  const bool ramps = scenario.loop_waves && scenario.loop_ramp > 0.0f;
  bool live_plateau = true;
  for (const PoolWatch& w : totals.pools) {
    live_plateau = live_plateau && w.live_peak_last_quarter <=
                                       w.live_peak_before_last_quarter + w.live_peak_before_last_quarter / 4 + 64;
  }
  if (ramps) std::printf("soak: the scenario ramps up every pass (loop_ramp > 0): live plateau not judged\n");
  check(ramps || live_plateau, "a live count kept rising: the last quarter's peak is over 1.25x the peak before it");
  // Resident memory may wobble by what the allocator keeps; growth beyond 10% + 16 MiB is a leak.
  // Under AddressSanitizer freed memory waits in its quarantine (up to 256 MiB), so resident
  // memory rises by design there; ASan's own leak check covers that build instead.
  if (kUnderAddressSanitizer) std::printf("soak: AddressSanitizer build: resident memory not judged\n");
  check(kUnderAddressSanitizer ||
            totals.other_late_max <= totals.other_warm + totals.other_warm / 10 + (std::size_t{16} << 20),
        "resident memory outside the pools kept growing after warm-up");
  // Homing shots ask for targets that may have died: those refusals are the check working.
  // Any other stale lookup is a bug.
  check(stale == end.stale_refusals, "a stale handle was looked up other than by a homing shot");
  check(failed_releases == 0, "a release was refused (double or stale release)");
  std::uint64_t reference = hash;
  if (args.compare) {
    std::printf("soak: waiting for the never-switching reference (%" PRIu64 " frames)\n", args.frames);
    std::fflush(stdout);
    reference = finish_reference(reference_run, scenario, args);
    check(reference == hash, "the final state differs from a run that never switched");
  }
  for (std::size_t p = 0; p < game::kPoolCount; ++p) {
    const PoolWatch& w = totals.pools[p];
    std::printf(
        "soak: pool %-13s live peak %zu -> %zu (last quarter), capacity peak %zu -> %zu "
        "(tightest frame: %zu of a bound of %zu), new capacity highs after warm-up %" PRIu64 "\n",
        game::pool_name(static_cast<game::PoolId>(p)), w.live_peak_before_last_quarter, w.live_peak_last_quarter,
        w.capacity_peak_warm, w.capacity_peak_late, w.worst_capacity, w.worst_bound, w.new_highs_late);
  }
  std::printf("soak: %s after %" PRIu64 " frames, %" PRIu64 " pooling switches, state_hash 0x%016" PRIx64
              " (reference 0x%016" PRIx64 "), stale derefs %" PRIu64 ", refused releases %" PRIu64
              ", rss peak %.1f -> %.1f MiB (outside the pools %.1f -> %.1f MiB)\n",
              failures == 0 ? "PASSED" : "FAILED", args.frames, totals.switches, hash, reference, stale,
              failed_releases, mib(totals.rss_warm), mib(totals.rss_late_max), mib(totals.other_warm),
              mib(totals.other_late_max));
  return failures == 0 ? 0 : 1;
}
