#!/usr/bin/env python3
"""The parallel update phase measured: storm.json at --threads 1 and 2 (or --threads
LIST), pooled and heap, runs interleaved, repeated --reps times. Prints each configuration's
median sim p50 and p99, its phase times, the 2-thread / 1-thread ratios (of the medians, and the
median of each rep's own ratio), and whether every run ended on the same state hash (it must: the
game is the same at any thread count).
--binary A,B compares builds in the same interleaved runs (before and after a change): each
gets its rows, and every run of every build must end on the one hash.
--floor also runs the machine's own 2-thread limit once a rep, between the game's runs:
BM_ParallelFloor (parallel_update_bench: a plain std::vector moved in halves, nothing released),
1 million items, 2 threads against 1. A host whose floor reads 0.7x cannot show a game ratio of
0.6x, however the game is built: the floor says what the machine gave while the game ran.
--threads takes counts and auto (the default: the team measures itself against one thread).
--busy N runs N busy-loop processes (sh -c 'while :; do :; done') beside every run, and ends them
after: the game on a machine that is doing something else. The load average is printed with the
table.

    scripts/tools/threads_check.py [--binary build/release/game/poolshot[,OTHER]] [--reps 3] [--frames 1200]
                                   [--pooling on,off] [--floor [BENCH]] [--threads auto,1,2] [--busy N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(binary, threads, pooling, frames, report):
    subprocess.run([binary, "--headless", "--scenario", "assets/scenarios/storm.json", "--autofire", "--seed", "11",
                    "--frames", str(frames), "--threads", str(threads), "--pooling", pooling, "--report", report],
                   check=True, stdout=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)


FLOOR_BENCH = "build/release/engine/bench/parallel_update_bench"


def floor_ratio(bench):
    """BM_ParallelFloor at 1 million items: 2-thread time / 1-thread time, one run of each."""
    out = subprocess.run([bench, "--benchmark_filter=BM_ParallelFloor/.*/1000000/", "--benchmark_format=json"],
                         check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        times[b["name"].split("/")[1]] = b["real_time"]
    if set(times) != {"Inline", "WorkerTeam"}:
        raise RuntimeError(f"{bench}: expected BM_ParallelFloor's Inline and WorkerTeam rows, got {sorted(times)}")
    return times["WorkerTeam"] / times["Inline"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build/release/game/poolshot")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--frames", type=int, default=1200)
    parser.add_argument("--threads", default="1,2", help="counts and auto, the first is the base (e.g. 1,2,auto)")
    parser.add_argument("--busy", type=int, default=0, metavar="N", help="busy-loop processes beside the game")
    parser.add_argument("--pooling", default="on,off", help="on, off or on,off (off: the heap runs, 6x slower)")
    parser.add_argument("--floor", nargs="?", const=FLOOR_BENCH, default=None, metavar="BENCH",
                        help=f"also read the machine's 2-thread floor once a rep (default bench: {FLOOR_BENCH})")
    args = parser.parse_args()
    if args.floor and not os.access(args.floor, os.X_OK):
        parser.error(f"--floor: {args.floor} is not an executable (build it: cmake --build --preset release)")
    try:
        counts = [t if t == "auto" else int(t) for t in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads takes counts and auto, not {args.threads!r}")
    binaries = args.binary.split(",")
    poolings = args.pooling.split(",")
    if any(p not in ("on", "off") for p in poolings):  # split() gives at least [""], which fails too
        parser.error(f"--pooling takes on, off or on,off, not {args.pooling!r}")
    results = {}  # (binary, threads, pooling) -> list of reports
    hashes = set()
    floors = []  # BM_ParallelFloor's 2-thread / 1-thread, one a rep
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    try:
        time.sleep(1 if busy else 0)  # the loops are on their cores before the first run
        measure(args, counts, binaries, poolings, results, hashes, floors)
        load = os.getloadavg()
    finally:
        for p in busy:
            p.kill()
            p.wait()
    print(f"busy loops beside: {args.busy}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} CPUs")
    report(args, counts, binaries, poolings, results, hashes, floors)
    return 0 if len(hashes) == 1 else 1


def measure(args, counts, binaries, poolings, results, hashes, floors):
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            if args.floor:
                floors.append(floor_ratio(args.floor))
            for pooling in poolings:
                for threads in counts:
                    for binary in binaries:
                        r = run(binary, threads, pooling, args.frames, os.path.join(tmp, "r.json"))
                        results.setdefault((binary, threads, pooling), []).append(r)
                        hashes.add(r["state_hash"])


def report(args, counts, binaries, poolings, results, hashes, floors):
    print(f"storm.json --autofire --seed 11 --frames {args.frames}, {args.reps} runs each, medians:")
    print("| build | pooling | threads | sim p50 ms | sim p99 ms | update ms | release ms | p50 / first "
          "| per-run p50 ratio | per-run p99 ratio |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    rep_ratios = {}  # (binary, threads, pooling) -> each rep's p50 / the first thread count's p50
    for binary, pooling in ((b, p) for b in binaries for p in poolings):
        base = None
        for threads in counts:
            rs = results[(binary, threads, pooling)]
            p50 = statistics.median(r["frame_ms"]["sim"]["p50"] for r in rs)
            p99 = statistics.median(r["frame_ms"]["sim"]["p99"] for r in rs)
            update = statistics.median(r["phase_ms"]["update"] for r in rs)
            release = statistics.median(r["phase_ms"]["release"] for r in rs)
            base = base or p50
            # Each run against the first thread count's run of the same rep (run just before it): the
            # machine's speed drifts over minutes, so the paired ratio is steadier than the medians'.
            firsts = results[(binary, counts[0], pooling)]
            ratios = [r["frame_ms"]["sim"]["p50"] / f["frame_ms"]["sim"]["p50"] for r, f in zip(rs, firsts)]
            ratios99 = [r["frame_ms"]["sim"]["p99"] / f["frame_ms"]["sim"]["p99"] for r, f in zip(rs, firsts)]
            rep_ratios[(binary, threads, pooling)] = ratios
            paired = statistics.median(ratios)
            print(f"| {binary} | {pooling} | {threads} | {p50:.2f} | {p99:.2f} | {update:.2f} | {release:.2f} "
                  f"| {p50 / base:.2f}x | {paired:.2f}x ({' '.join(f'{x:.2f}' for x in ratios)}) "
                  f"| {statistics.median(ratios99):.2f}x ({' '.join(f'{x:.2f}' for x in ratios99)}) |")
    if floors:  # each rep's game ratio beside the floor read in that rep
        for binary, pooling in ((b, p) for b in binaries for p in poolings):
            for threads in counts[1:]:
                ratios = rep_ratios[(binary, threads, pooling)]
                print(f"{binary}, pooling {pooling}, {threads} threads / {counts[0]}, each rep: "
                      f"{' '.join(f'{x:.2f}' for x in ratios)}")
        print(f"machine floor (BM_ParallelFloor, 1M items, 2 threads / 1): median {statistics.median(floors):.2f}x, "
              f"each rep: {' '.join(f'{f:.2f}' for f in floors)}")
    print("state hashes:", "all equal" if len(hashes) == 1 else f"DIFFER: {sorted(hashes)}", *sorted(hex(h) if isinstance(h, int) else h for h in hashes))


if __name__ == "__main__":
    sys.exit(main())
