// poolshot_soak: runs the headless game for a long time while switching pooling on and off
// (and between contiguous and stable storage), and checks that nothing is lost or leaks:
//   - live counts stay within each pool's max_capacity,
//   - capacity stops growing: it never exceeds what the growth policy needs for the live
//     peak, and the live peaks of the last quarter stay within 1.25x of the peaks before it,
//   - resident memory outside the pools stops growing after warm-up,
//   - no stale handle is ever dereferenced and no release is refused (counted by the pools),
//   - the final state hash equals that of a run that never switched.
// Both runs step through the one step loop (game::StepLoop, step_loop.hpp); the reference is
// game::run_headless itself, so it is exactly `poolshot --headless --autofire` of the scenario.
// Exit 0 when every check holds, 1 with one line per failed check, 2 on a bad argument.
#include "app/headless_run.hpp"
#include "sim/scenario.hpp"
#include "sim/simulation.hpp"
#include "soak/soak_watch.hpp"
#include "app/step_loop.hpp"

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

#if defined(POOLSHOT_ASAN)  // cmake/PoolshotSanitizers.cmake
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

using soak::Args;
using soak::mib;
using soak::PoolWatch;
using soak::SoakWatch;
using soak::Totals;

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

std::uint64_t run_reference(const game::Scenario& scenario, const Args& args) {
  game::Simulation sim(scenario, args.seed);
  sim.settings().autofire = true;
  game::run_headless(sim, args.frames);
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
  SoakWatch watch(sim, scenario, args);
  // No FrameLog: the soak judges memory, and a log of every step would be memory that grows.
  game::StepLoop loop(sim, nullptr, &watch);
  loop.run(args.frames, [] { return game::Input{}; });
  const Totals& totals = watch.totals();

  const game::SimStats& end = sim.stats();
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
