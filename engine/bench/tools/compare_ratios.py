#!/usr/bin/env python3
"""Runs the same Google Benchmark suites from two builds, interleaved (A B A B ...), and prints
each pool contender's time relative to std::vector, per build, side by side (medians of the
rounds' CPU times). Ratios, not absolute times: the machine is noisy (see docs/design.md).

usage: compare_ratios.py BUILD_A BUILD_B [--rounds N] [--cpu C]
  BUILD_x is a build directory with engine/bench/<suite> executables.
"""
import argparse, json, statistics, subprocess, sys

SUITES = {  # suite -> benchmark filter (std::vector and the two pool layouts)
    "churn_bench": "BM_Churn/(std_vector|pool_contiguous|pool_stable)/",
    "iteration_bench": "BM_IterateHalfReleased/(std_vector|pool_contiguous|pool_stable)/1000000$",
    "game_frame_bench": "BM_GameFrame/(std_vector|pool_contiguous|pool_stable)/100000$",
}

def run(build, suite, flt, cpu):
    cmd = ["taskset", "-c", str(cpu), f"{build}/engine/bench/{suite}", f"--benchmark_filter={flt}",
           "--benchmark_min_time=0.3", "--benchmark_format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {b["name"]: b["cpu_time"] for b in json.loads(out)["benchmarks"]}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a"); ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=3); ap.add_argument("--cpu", type=int, default=1)
    args = ap.parse_args()
    times = {args.a: {}, args.b: {}}
    for _ in range(args.rounds):
        for build in (args.a, args.b):
            for suite, flt in SUITES.items():
                for name, t in run(build, suite, flt, args.cpu).items():
                    times[build].setdefault(name, []).append(t)
    print(f"{'benchmark':45s} {'A: x vector':>12s} {'B: x vector':>12s}")
    for name in sorted(times[args.a]):
        if "std_vector" in name: continue
        base = name.replace("pool_contiguous", "std_vector").replace("pool_stable", "std_vector")
        ra = statistics.median(times[args.a][name]) / statistics.median(times[args.a][base])
        rb = statistics.median(times[args.b][name]) / statistics.median(times[args.b][base])
        print(f"{name:45s} {ra:11.2f}x {rb:11.2f}x")

if __name__ == "__main__":
    sys.exit(main())
