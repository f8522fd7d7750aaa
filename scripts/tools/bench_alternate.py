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
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run_rows(binary, pattern, repetitions=3, extra=()):
    """Each repetition's row (Google Benchmark's JSON: run_name, real_time, cpu_time, ...) of the
    benchmarks matching pattern, the binary pinned to core 1, repetitions interleaved at random."""
    with tempfile.TemporaryDirectory() as tmp:  # a file: some suites print their own summary to stdout
        out = os.path.join(tmp, "out.json")
        command = [binary, "--benchmark_filter=" + pattern, f"--benchmark_repetitions={repetitions}",
                   "--benchmark_enable_random_interleaving=true", "--benchmark_report_aggregates_only=false",
                   f"--benchmark_out={out}",
                   "--benchmark_out_format=json", *extra]
        if shutil.which("taskset"):
            command = ["taskset", "-c", "1"] + command
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"bench_alternate: {binary} exited {done.returncode}: {done.stderr.strip()[:400]}")
        if "Failed to match" in done.stdout + done.stderr:
            sys.exit(f"bench_alternate: no benchmark in {binary} matched {pattern!r}")
        try:
            with open(out) as f:
                rows = json.load(f)["benchmarks"]
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"bench_alternate: {binary} did not write benchmark JSON ({error})")
    if any(row.get("error_occurred") for row in rows):
        sys.exit(f"bench_alternate: {binary} reported an error: {[r['name'] for r in rows if r.get('error_occurred')]}")
    return [row for row in rows if row.get("run_type") == "iteration"]


def run_once(binary, pattern):
    return [(row["run_name"], row["real_time"]) for row in run_rows(binary, pattern)]


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
