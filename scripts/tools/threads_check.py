#!/usr/bin/env python3
"""The parallel update phase measured (issue 30): storm.json at --threads 1 and 2 (or --threads
LIST), pooled and heap, runs interleaved, repeated --reps times. Prints each configuration's
median sim p50 and p99, its phase times, the 2-thread / 1-thread ratios (of the medians, and the
median of each rep's own ratio), and whether every run ended on the same state hash (it must: the
game is the same at any thread count).
--binary A,B compares builds in the same interleaved runs (before and after a change): each
gets its rows, and every run of every build must end on the one hash.

    scripts/tools/threads_check.py [--binary build/release/game/poolshot[,OTHER]] [--reps 3] [--frames 1200]
                                   [--pooling on,off]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, threads, pooling, frames, report):
    subprocess.run([binary, "--headless", "--scenario", "assets/scenarios/storm.json", "--autofire", "--seed", "11",
                    "--frames", str(frames), "--threads", str(threads), "--pooling", pooling, "--report", report],
                   check=True, stdout=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default="build/release/game/poolshot")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--frames", type=int, default=1200)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--pooling", default="on,off", help="on, off or on,off (off: the heap runs, 6x slower)")
    args = parser.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    binaries = args.binary.split(",")
    poolings = args.pooling.split(",")
    if any(p not in ("on", "off") for p in poolings):  # split() gives at least [""], which fails too
        parser.error(f"--pooling takes on, off or on,off, not {args.pooling!r}")
    results = {}  # (binary, threads, pooling) -> list of reports
    hashes = set()
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            for pooling in poolings:
                for threads in counts:
                    for binary in binaries:
                        r = run(binary, threads, pooling, args.frames, os.path.join(tmp, "r.json"))
                        results.setdefault((binary, threads, pooling), []).append(r)
                        hashes.add(r["state_hash"])
    print(f"storm.json --autofire --seed 11 --frames {args.frames}, {args.reps} runs each, medians:")
    print("| build | pooling | threads | sim p50 ms | sim p99 ms | update ms | release ms | p50 / 1 thread | per-run ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
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
            paired = statistics.median(r["frame_ms"]["sim"]["p50"] / f["frame_ms"]["sim"]["p50"]
                                       for r, f in zip(rs, firsts))
            print(f"| {binary} | {pooling} | {threads} | {p50:.2f} | {p99:.2f} | {update:.2f} | {release:.2f} "
                  f"| {p50 / base:.2f}x | {paired:.2f}x |")
    print("state hashes:", "all equal" if len(hashes) == 1 else f"DIFFER: {sorted(hashes)}")
    return 0 if len(hashes) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
