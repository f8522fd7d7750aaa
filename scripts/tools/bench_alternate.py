#!/usr/bin/env python3
"""Compare Google Benchmark binaries side by side: run them in turn, N alternations.

Each binary runs pinned to one core (taskset -c 1) with --benchmark_repetitions=3 and random
interleaving, once per alternation, so drift on a shared host falls on every binary alike.
Prints each row's fastest and median repetition (microseconds as the benchmark reports them)
and the fastest over the same binary's fastest `std_vector` row, when it has one. Minima, since
a VM's steal time only ever adds.

  python3 scripts/tools/bench_alternate.py --filter 'BM_GameFrame/(std_vector|pool_packed)/1000000$' \\
      --reps 8 before/game_frame_bench after/game_frame_bench
"""
import argparse
import collections
import json
import shutil
import statistics
import subprocess
import sys


def run_once(binary, pattern):
    command = [binary, "--benchmark_filter=" + pattern, "--benchmark_repetitions=3",
               "--benchmark_enable_random_interleaving=true", "--benchmark_format=json"]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "1"] + command
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_alternate: {binary} exited {done.returncode}: {done.stderr.strip()[:400]}")
    if "Failed to match" in done.stdout + done.stderr:
        sys.exit(f"bench_alternate: no benchmark in {binary} matched {pattern!r}")
    try:
        rows = json.loads(done.stdout)["benchmarks"]
    except (ValueError, KeyError) as error:
        sys.exit(f"bench_alternate: {binary} did not print benchmark JSON ({error})")
    return [(row["run_name"], row["real_time"]) for row in rows if row.get("run_type") == "iteration"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--filter", required=True, help="--benchmark_filter regex")
    parser.add_argument("--reps", type=int, default=4, help="alternations (default 4)")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    if args.reps < 1:
        parser.error("--reps must be at least 1")
    times = collections.defaultdict(list)
    for _ in range(args.reps):
        for binary in args.binaries:
            for name, real_time in run_once(binary, args.filter):
                times[(binary, name)].append(real_time)
    if not times:
        sys.exit(f"bench_alternate: no benchmark matched {args.filter!r}")
    for binary in args.binaries:
        rows = {name: values for (owner, name), values in times.items() if owner == binary}
        vector = [min(values) for name, values in rows.items() if "std_vector" in name]
        print(binary)
        for name in sorted(rows):
            values = rows[name]
            ratio = f"  min/std_vector {min(values) / vector[0]:.2f}x" if vector else ""
            print(f"  {name:50s} min {min(values):9.0f}  median {statistics.median(values):9.0f}{ratio}")


if __name__ == "__main__":
    main()
