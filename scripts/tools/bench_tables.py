#!/usr/bin/env python3
"""The tables behind scripts/bench and scripts/bench-pool, in one file with a test.

scripts/bench runs the game headless and Google Benchmark suites; this turns what they wrote
(frame CSVs, reports, benchmark JSON, callgrind totals) into the Markdown tables and target
checks that the README quotes. One percentile rule (nearest rank) for every table.

  bench_tables.py storm-run CSV WARMUP I TOTAL NAME REP SECONDS STEAL_MS    one progress line
  bench_tables.py storm-table OUT REPS FRAMES WARMUP SEED SCENARIO MACHINE RT
  bench_tables.py advise SCENARIO REPORT OUT        pool sizes: peak + 25 %, rounded up to 64
  bench_tables.py sprites JSON MACHINE
  bench_tables.py callgrind OUT FRAMES SCENARIO SECONDS
  bench_tables.py pool-table OUT CPU_MODEL CORES    exit 1 if a benchmark reported an error

Tested by scripts/tools/test_bench_tables.py (ctest: bench_tables).
"""
import csv
import glob
import json
import math
import os
import statistics
import sys
from collections import defaultdict

FRAME_BUDGET_MS = 1000 / 60
STORM_NAMES = {"stable": "pooling on (stable)", "contiguous": "pooling on (contiguous)",
               "off": "pooling off (new/delete)", "advised-stable": "pooling on (stable, advisor's capacities)",
               "advised": "pooling on (contiguous, advisor's capacities)",
               "packed": "pooling on (packed)"}  # appended last: the chart's data indexes stay put
POOL_CONTENDERS = ("pool_contiguous", "pool_stable", "pool_packed", "pool_packed_pages")


def load_json(path):
    with open(path) as f:
        return json.load(f)


def save_json(value, path, **kwargs):
    with open(path, "w") as f:
        json.dump(value, f, **kwargs)


def read_text(path):
    with open(path) as f:
        return f.read()


def nearest_rank(sorted_values, q):
    """The q-quantile of an ascending list by the nearest-rank rule (no interpolation)."""
    n = len(sorted_values)
    return sorted_values[min(n - 1, max(0, int(q * n + 0.999999) - 1))]


# --- scripts/bench: the game under stress -------------------------------------------------------

def read_frames(path):
    """(frame, sim_ms, heap_allocs, storage_grew) per row of a --frame-csv file."""
    with open(path) as f:
        return [(int(x["frame"]), float(x["sim_ms"]), int(x["heap_allocs"]), x["storage_grew"] == "1")
                for x in csv.DictReader(f)]


def storm_run_line(path, warmup, i, total, name, rep, secs, steal):
    rows = read_frames(path)
    t = sorted(r[1] for r in rows[warmup:])
    grew = sum(r[3] for r in rows)
    try:
        switches = f", preempted {int(read_text(path[:-4] + '.switches').split()[-1])}x"
    except (OSError, ValueError, IndexError):
        switches = ""
    return (f"[{int(i):2d}/{total}] {name:<14} rep {rep}: sim p50 {nearest_rank(t, .5):6.2f} ms  "
            f"p99 {nearest_rank(t, .99):6.2f} ms  max {t[-1]:6.2f} ms  growth frames {grew:3d}  "
            f"({secs} s{switches}, steal {steal} ms)")


def analyse_run(path, warmup):
    rows = read_frames(path)
    after = [r for r in rows if r[0] > warmup]
    t = sorted(r[1] for r in after)
    allocs = sorted(r[2] for r in after)
    quiet = [r[2] for r in after if not r[3]]        # frames after warm-up with no growth
    growth = [r for r in rows if r[3]]               # every frame that grew, warm-up included
    # Spikes, apart from the workload's own trend (the storm keeps growing): each frame against
    # the median of the 61 frames around it (half a second of game on each side).
    times = [r[1] for r in rows]
    local = []
    for k, r in enumerate(rows):
        if r[0] > warmup:
            around = sorted(times[max(0, k - 30):k + 31])
            local.append(r[1] / around[len(around) // 2])
    local.sort()
    return {"p50": nearest_rank(t, .5), "p99": nearest_rank(t, .99), "max": t[-1],
            "local_p99": nearest_rank(local, .99),
            "allocs_p50": nearest_rank(allocs, .5), "allocs_quiet_max": max(quiet) if quiet else 0,
            "allocs_growth_max": max((r[2] for r in growth), default=0),
            "growth_frames": len(growth), "worst_growth_ms": max((r[1] for r in growth), default=0.0),
            "worst_growth_frame": max(growth, key=lambda r: r[1])[0] if growth else 0,
            "series": [(r[0], r[1], r[3]) for r in rows]}


def storm_table(out, reps, frames, warmup, seed, scenario, machine, rt, emit=print):
    """The scripts/bench table and targets; writes OUT/chart.dat; returns the targets."""
    names = STORM_NAMES
    runs, reports = {}, {}
    for name in names:
        runs[name] = [analyse_run(f"{out}/runs/{name}.r{r}.csv", warmup) for r in range(1, reps + 1)]
        reports[name] = [load_json(f"{out}/runs/{name}.r{r}.json") for r in range(1, reps + 1)]
    med = {n: {k: statistics.median(run[k] for run in runs[n]) for k in runs[n][0] if k != "series"} for n in names}
    # Every repetition plays the same game, so frame f is the same work in each: the median over
    # repetitions of each frame keeps what repeats (growth, the workload) and drops what does not
    # (a preemption or a hypervisor steal hits one repetition's frame, not all of them).
    framewise = {}
    for n in names:
        series = [run["series"] for run in runs[n]]
        framewise[n] = [(s0[0], statistics.median(s[i][1] for s in series), s0[2]) for i, s0 in enumerate(series[0])]
        med[n]["max_framewise"] = max(ms for f, ms, g in framewise[n] if f > warmup)
    hashes = {rep["state_hash"] for n in names for rep in reports[n]}
    pools = reports["stable"][0]["pools"]
    growth_events = {n: statistics.median(sum(p["growth_events"] for p in rep["pools"].values()) for rep in reports[n])
                     for n in names}
    peak_bullets = pools["bullets"]["peak_live"] + pools["enemy_bullets"]["peak_live"]
    peak_particles = pools["particles"]["peak_live"]

    emit(f"# Poolshot under stress: {scenario.split('/')[-1]}, {frames} frames, medians of {reps} interleaved repetitions\n")
    emit(f"Machine: {machine}. Seed {seed}, --autofire, --pace; runs pinned to one core"
         f"{' under SCHED_FIFO' if rt == '1' else ' (not real-time: noisier)'}. Frame statistics over frames "
         f"{warmup + 1}-{frames} (after the {warmup}-frame warm-up); growth counts over the whole run. "
         f"Ratios compare candidates of this run only.\n")
    emit(f"Load reached: peak {peak_bullets:,} live bullets ({pools['enemy_bullets']['peak_live']:,} enemy + "
         f"{pools['bullets']['peak_live']:,} player) and {peak_particles:,} live particles; "
         f"at the end {pools['enemy_bullets']['live'] + pools['bullets']['live']:,} bullets and "
         f"{pools['particles']['live']:,} particles. Same game in every run (state hash): "
         f"{'yes' if len(hashes) == 1 else '**no**'}.\n")
    emit("| candidate | sim p50 | sim p99 | sim max | max, frame-wise median | p99/p50 | p99 / local p50 | "
         "p50: off is slower by | growth events | worst growth frame | heap allocs/frame p50 | "
         "max allocs, frames w/o growth | max allocs, growth frame |")
    emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, label in names.items():
        m = med[n]
        emit(f"| {label} | {m['p50']:.2f} ms | {m['p99']:.2f} ms | {m['max']:.2f} ms | {m['max_framewise']:.2f} ms | "
             f"{m['p99'] / m['p50']:.2f} | {m['local_p99']:.2f} | "
             f"{med['off']['p50'] / m['p50']:.2f}x | {growth_events[n]:.0f} | {m['worst_growth_ms']:.2f} ms | "
             f"{m['allocs_p50']:.0f} | {m['allocs_quiet_max']:.0f} | {m['allocs_growth_max']:.0f} |")

    # Ratios per repetition: each A/B pair ran back to back, so this is the ratio noise cannot fake.
    pair = [o["p50"] / s["p50"] for o, s in zip(runs["off"], runs["stable"])]
    emit(f"\nPer repetition, p50 off / p50 stable: {', '.join(f'{x:.2f}x' for x in pair)}.")
    biggest = max(reports["contiguous"][0]["growth_log"], key=lambda g: g["microseconds"], default=None)
    if biggest:
        emit(f"Largest contiguous growth (rep 1): {biggest['pool']} {biggest['old_capacity']:,} -> "
             f"{biggest['new_capacity']:,} slots at frame {biggest['frame']}, {biggest['relocated_objects']:,} "
             f"objects moved, {biggest['microseconds'] / 1000:.1f} ms (report growth_log).")

    s, c = med["stable"], med["contiguous"]
    clean = lambda n: all(r["allocs_quiet_max"] == 0 and r["allocs_growth_max"] == 0 for r in runs[n])
    off_vs_stable = med['off']['p50'] / s['p50']
    targets = [
        ("storm drives ≥ 100k live bullets", f"{peak_bullets:,}", peak_bullets >= 100_000),
        ("storm drives ≥ 500k live particles", f"{peak_particles:,}", peak_particles >= 500_000),
        ("stable: sim p50 ≥ 3x faster than pooling off", f"{off_vs_stable:.2f}x", off_vs_stable >= 3),
        ("stable, after warm-up: p99 ≤ 1.5x p50 (whole window; includes the storm's own growth)",
         f"{s['p99'] / s['p50']:.3f}x", s['p99'] / s['p50'] <= 1.5),
        ("stable, after warm-up: p99 ≤ 1.5x local p50 (spikes: each frame against the median of the 61 around it)",
         f"{s['local_p99']:.2f}x", s['local_p99'] <= 1.5),
        ("stable: no growth frame slower than 16.7 ms", f"{s['worst_growth_ms']:.2f} ms",
         s['worst_growth_ms'] <= FRAME_BUDGET_MS),
        ("stable: zero heap allocations in frames without growth", f"{s['allocs_quiet_max']:.0f}",
         s['allocs_quiet_max'] == 0),
        ("stable: heap allocations in a growth frame (a new page is an allocation; informational)",
         f"{s['allocs_growth_max']:.0f}", None),
        ("stable, advisor's capacities: zero heap allocations in every frame after warm-up",
         "0" if clean("advised-stable") else "> 0", clean("advised-stable")),
        ("contiguous, advisor's capacities: zero heap allocations in every frame after warm-up",
         "0" if clean("advised") else "> 0", clean("advised")),
        ("contiguous: growth events in the report (and chart)",
         f"{growth_events['contiguous']:.0f}, worst frame {c['worst_growth_ms']:.1f} ms", growth_events["contiguous"] > 0),
        ("advisor's capacities: the growth events disappear",
         f"{growth_events['advised']:.0f} contiguous, {growth_events['advised-stable']:.0f} stable",
         growth_events["advised"] == 0 and growth_events["advised-stable"] == 0),
        ("same game (state hash) in every run", f"{len(hashes)} hash(es)", len(hashes) == 1),
        ("packed: sim p50 against contiguous (informational)", f"{med['packed']['p50'] / c['p50']:.2f}x", None),
    ]
    emit("\n## Targets\n")
    emit("| target | measured | met |")
    emit("|---|---:|---|")
    for t, v, ok in targets:
        emit(f"| {t} | {v} | {'-' if ok is None else 'yes' if ok else '**no**'} |")

    # The chart's data: the frame-wise median series of each candidate (gnuplot indexes).
    with open(f"{out}/chart.dat", "w") as f:
        for n in names:
            f.write(f"# {n}\n")
            for frame, ms, grew in framewise[n]:
                f.write(f"{frame} {max(ms, 0.01):.4f} {1 if grew else 0}\n")
            f.write("\n\n")
    return targets


def advise(scenario_path, report_path, out_path):
    """The capacity advisor's rule for a poolshot without --advise: peak + 25 %, rounded up to 64."""
    scenario, report = load_json(scenario_path), load_json(report_path)
    for name, pool in scenario["pools"].items():
        peak = report["pools"][name]["peak_live"]
        pool["initial_capacity"] = min(pool["max_capacity"], max(64, math.ceil(peak * 1.25 / 64) * 64))
    save_json(scenario, out_path, indent=2)


def sprites_table(path, machine, emit=print):
    data = load_json(path)
    med = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name, n = b["run_name"].split("/")[:2]
            med[(name, int(n))] = b["per_sprite"] * 1e9  # counter is seconds per sprite
    emit(f"# Sprite batch: CPU per sprite (medians of 5 repetitions), {machine}\n")
    emit("| sprites | build (push) | upload (bucket + copy into the stream buffer) | build + upload | "
         "submit incl. llvmpipe's vertex work |")
    emit("|---:|---:|---:|---:|---:|")
    sizes = sorted({k[1] for k in med})
    for n in sizes:
        b, u, s = med.get(("BM_BatchBuild", n)), med.get(("BM_RendererUpload", n)), med.get(("BM_RendererSubmit", n))
        if None in (b, u, s):
            continue
        emit(f"| {n:,} | {b:.2f} ns | {u:.2f} ns | **{b + u:.2f} ns** | {s:.0f} ns |")
    worst = max(med[("BM_BatchBuild", n)] + med[("BM_RendererUpload", n)]
                for n in sizes if ("BM_RendererUpload", n) in med and ("BM_BatchBuild", n) in med)
    emit(f"\nTarget: build + submit ≤ 50 ns of CPU per sprite (our code; llvmpipe's work excluded): "
         f"{worst:.2f} ns, {'met' if worst <= 50 else '**not met**'}. submit() itself issues one draw call per "
         "(layer, blend) group, a cost per group, not per sprite; the per-sprite time in its column is llvmpipe "
         "shading vertices on the calling thread.")
    return worst


def callgrind_table(out, frames, scenario, seconds, emit=print):
    ir, hashes, live = {}, set(), {}
    for c in ("stable", "contiguous", "off"):
        for line in read_text(f"{out}/callgrind.{c}.out").splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                ir[c] = int(line.split()[1])
        r = load_json(f"{out}/callgrind.{c}.json")
        hashes.add(r["state_hash"])
        live[c] = r["pools"]
    p = live["stable"]
    emit("# Instructions per simulated frame (valgrind callgrind, Simulation::step only)\n")
    emit(f"{scenario}, {frames} frames, seed and input as scripts/bench; at the end {p['enemy_bullets']['live']:,} "
         f"enemy bullets, {p['bullets']['live']:,} player bullets, {p['particles']['live']:,} particles live. "
         f"Ran in {seconds} s.\n")
    emit("| pooling | instructions per frame | × pooling off |")
    emit("|---|---:|---:|")
    names = {"stable": "on (stable)", "contiguous": "on (contiguous)", "off": "off (new/delete)"}
    for c in ("stable", "contiguous", "off"):
        emit(f"| {names[c]} | {ir[c] / frames / 1e6:.2f} M | {ir[c] / ir['off']:.2f}x |")
    emit(f"\nSame game in all three: {'yes' if len(hashes) == 1 else '**no**: ' + ', '.join(sorted(hashes))}.")
    return ir


# --- scripts/bench-pool: the pool library against its contenders ---------------------------------

def read_pool_benchmarks(out):
    """(workload, contender, n) -> CPU ns per iteration, counters, errors, context of OUT/*.json."""
    runs = defaultdict(list)
    counters = defaultdict(lambda: defaultdict(list))
    errors, context = [], {}
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        data = load_json(path)
        context = data.get("context", context)
        for b in data["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            parts = b["run_name"].split("/")   # BM_Workload/contender/N[/iterations:1]
            key = (parts[0], parts[1], int(parts[2]))
            if b.get("error_occurred"):
                errors.append(f"{b['name']}: {b.get('error_message')}")
                continue
            scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            runs[key].append(b["cpu_time"] * scale)
            for c in ("worst_us", "worst_growth_us", "preemptions", "total_ms", "slow_emplaces"):
                if c in b:
                    counters[key][c].append(b[c])
    return runs, counters, errors, context


def fmt_time(ns):
    for unit, s in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= s:
            return f"{ns / s:.3g} {unit}"
    return f"{ns:.3g} ns"


def pool_table(out, cpu_model, cores, emit=print):
    """The scripts/bench-pool tables and targets; returns (targets, errors)."""
    runs, counters, errors, context = read_pool_benchmarks(out)
    med = {k: statistics.median(v) for k, v in runs.items()}
    reps = max((len(v) for v in runs.values()), default=0)
    emit(f"# Pool benchmarks: medians of {reps} repetitions (CPU time), one run\n")
    emit(f"Machine: {cpu_model or 'unknown CPU'}, {cores} cores, {context.get('mhz_per_cpu', '?')} MHz; "
         f"load average before the run {context.get('load_avg', ['?'])[0]}. Ratios compare contenders "
         f"of the same run only. (Debian's libbenchmark calls itself a '{context.get('library_build_type', '?')}' "
         f"build: that is the harness library; the measured loops are compiled in the suite at -O2.)\n")
    titles = {
        "BM_GameFrame": "Game frame: time per frame (2% born, all updated, 2% die)",
        "BM_Churn": "Churn: one release of a random object + one create",
        "BM_IterateHalfReleased": "Iteration after releasing half at random: sum a field over the survivors",
    }
    pools = [p for p in POOL_CONTENDERS if any(k[1] == p for k in med)]
    for workload, title in titles.items():
        keys = sorted(k for k in med if k[0] == workload)
        if not keys:
            continue
        emit(f"## {title}\n")
        emit("| N | contender | median | × std_vector | " + " | ".join(f"{p} faster by" for p in pools) + " |")
        emit("|---:|---|---:|---:|" + "---:|" * len(pools))
        for n in sorted({k[2] for k in keys}):
            row = [k for k in keys if k[2] == n]
            base = med.get((workload, "std_vector", n))
            order = ["std_vector", *pools]
            names = order + sorted({k[1] for k in row} - set(order))
            for name in names:
                t = med.get((workload, name, n))
                if t is None:
                    continue
                vs_vec = f"{t / base:.2f}x" if base else "-"
                speedups = []
                for p in pools:
                    pt = med.get((workload, p, n))
                    speedups.append("-" if pt is None or name in pools else f"{t / pt:.2f}x")
                emit(f"| {n:,} | {name} | {fmt_time(t)} | {vs_vec} | " + " | ".join(speedups) + " |")
        emit("")

    growth = sorted(k for k in counters if k[0] == "BM_GrowthWorstEmplace")
    if growth:
        emit("## Growth from 1k to 1M live: every emplace timed (steady_clock)\n")
        emit("Worst of all emplaces, worst of those that grew the container, and how often the")
        emit("thread was preempted during the growth (a preempted run can show a 4 ms time slice).\n")
        emit("| contender | worst single emplace | worst growing emplace | emplaces over 100 µs | all emplaces | preemptions |")
        emit("|---|---:|---:|---:|---:|---:|")
        for k in growth:
            c = counters[k]
            m = lambda name: statistics.median(c[name]) if c[name] else float("nan")
            emit(f"| {k[1]} | {m('worst_us'):.1f} µs | {m('worst_growth_us'):.1f} µs | "
                 f"{m('slow_emplaces'):.0f} | {m('total_ms'):.1f} ms | {m('preemptions'):.0f} |")
        emit("")

    def ratio(w, a, b, n):
        ta, tb = med.get((w, a, n)), med.get((w, b, n))
        return None if ta is None or tb is None else ta / tb

    targets = []
    for n in (10_000, 100_000, 1_000_000):
        for p in ("pool_contiguous", "pool_stable"):
            targets.append((f"game frame {n:,}: {p} ≤ 1.35x std_vector", ratio("BM_GameFrame", p, "std_vector", n),
                            lambda r: r <= 1.35))
    for n in (100_000, 1_000_000):
        targets.append((f"game frame {n:,}: pool_packed ≤ 1.10x std_vector",
                        ratio("BM_GameFrame", "pool_packed", "std_vector", n), lambda r: r <= 1.10))
    for p in ("pool_contiguous", "pool_stable"):
        targets.append((f"game frame 1,000,000: {p} ≥ 2x faster than plf_colony",
                        ratio("BM_GameFrame", "plf_colony", p, 1_000_000), lambda r: r >= 2))
        targets.append((f"game frame 1,000,000: {p} ≥ 4x faster than new_delete",
                        ratio("BM_GameFrame", "new_delete", p, 1_000_000), lambda r: r >= 4))
        targets.append((f"churn 1,000: {p} ≤ 1.25x std_vector", ratio("BM_Churn", p, "std_vector", 1_000),
                        lambda r: r <= 1.25))
        targets.append((f"iteration 1,000,000: {p} no slower than plf_colony",
                        ratio("BM_IterateHalfReleased", p, "plf_colony", 1_000_000), lambda r: r <= 1.0))
    targets.append(("iteration 1,000,000: pool_packed ≤ 1.25x std_vector",
                    ratio("BM_IterateHalfReleased", "pool_packed", "std_vector", 1_000_000), lambda r: r <= 1.25))
    # Packed in pages, so growth moves nothing, gives up almost none of packed's frame.
    packed = ratio("BM_GameFrame", "pool_packed", "std_vector", 1_000_000)
    pages = ratio("BM_GameFrame", "pool_packed_pages", "std_vector", 1_000_000)
    targets.append(("game frame 1,000,000: pool_packed_pages within 0.1x std_vector of pool_packed",
                    None if packed is None or pages is None else pages - packed, lambda d: d <= 0.1))
    stable = counters.get(("BM_GrowthWorstEmplace", "pool_stable", 1_000_000))
    targets.append(("growth: pool_stable worst single emplace < 100 µs",
                    statistics.median(stable["worst_us"]) if stable else None, lambda us: us < 100))
    pages_growth = counters.get(("BM_GrowthWorstEmplace", "pool_packed_pages", 1_000_000))
    targets.append(("growth: pool_packed_pages worst single growth emplace < 50 µs",
                    statistics.median(pages_growth["worst_growth_us"]) if pages_growth else None, lambda us: us < 50))
    emit("## Targets\n")
    emit("| target | measured | met |")
    emit("|---|---:|---|")
    for name, value, ok in targets:
        if value is None:
            emit(f"| {name} | not run | - |")
        else:
            unit = " µs" if "µs" in name else "x"
            emit(f"| {name} | {value:.2f}{unit} | {'yes' if ok(value) else '**no**'} |")
    if errors:
        emit("\n## Errors\n")
        for e in errors:
            emit(f"- {e}")
    return targets, errors


def main(argv):
    usage = __doc__.split("\n\n")[2]
    if len(argv) < 2:
        print(usage, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    arity = {"storm-run": 8, "storm-table": 8, "advise": 3, "sprites": 2, "callgrind": 4, "pool-table": 3}
    if cmd not in arity or len(args) != arity[cmd]:
        print(f"bench_tables.py: bad command or argument count: {' '.join(argv[1:])}\n{usage}", file=sys.stderr)
        return 2
    if cmd == "storm-run":
        path, warmup, *rest = args
        print(storm_run_line(path, int(warmup), *rest))
    elif cmd == "storm-table":
        out, reps, frames, warmup, seed, scenario, machine, rt = args
        storm_table(out, int(reps), int(frames), int(warmup), seed, scenario, machine, rt)
    elif cmd == "advise":
        advise(*args)
    elif cmd == "sprites":
        sprites_table(*args)
    elif cmd == "callgrind":
        out, frames, scenario, seconds = args
        callgrind_table(out, int(frames), scenario, seconds)
    else:
        _, errors = pool_table(*args)
        return 1 if errors else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
