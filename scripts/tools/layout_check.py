#!/usr/bin/env python3
"""Issue 27's measurement that chooses the game's default storage: every pooled layout against
pooling off, side by side in one run, on this machine.

  storm:     assets/scenarios/storm.json, --autofire --seed 11 --frames 2400, headless. Per
             candidate: the simulation's p50 per frame, heap / this p50, and its worst growth
             frame: the frame's cost over the median of the 61 frames around it (a frame that
             grew a pool is "spike-free" at <= 2x).
  hold fire: assets/scripts/hold_fire.json (10 s pooled, 10 s heap, 10 s pooled) per layout:
             the heap phase's sim p50 over the pooled phase's after it.

Repetitions are interleaved (contiguous, stable, packed, packed_pages, off, contiguous, ...), and
medians are taken over them. The default is the layout with the best storm p50 among those whose
worst growth frame is spike-free. Prints markdown tables, the machine's caches, and the choice.
About 4 minutes per repetition on 2 cores; --reps N (default 3).

  scripts/tools/layout_check.py [--reps N] [--binary build/release/game/poolshot]
"""
import argparse
import csv
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = ["contiguous", "stable", "packed", "packed_pages"]
CANDIDATES = LAYOUTS + ["off"]
SPIKE_LIMIT = 2.0  # a growth frame may cost this many times its neighbours' median
WINDOW = 30  # neighbours on each side: 61 frames in all


def run(binary, tmp, name, extra):
    report = Path(tmp) / f"{name}.json"
    frames = Path(tmp) / f"{name}.csv"
    args = [binary, "--headless", "--report", str(report), "--frame-csv", str(frames)] + extra
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with frames.open() as f:
        rows = list(csv.DictReader(f))
    return json.loads(report.read_text()), rows


def storage_args(candidate):
    return ["--pooling", "off"] if candidate == "off" else ["--storage", candidate]


def worst_growth(rows):
    """The worst growth frame's cost over the median of the 61 frames around it, and its frame."""
    sim = [float(r["sim_ms"]) for r in rows]
    worst = (0.0, None)
    for i, r in enumerate(rows):
        if r["storage_grew"] != "1":
            continue
        around = sim[max(0, i - WINDOW) : i + WINDOW + 1]
        ratio = sim[i] / max(statistics.median(around), 1e-6)
        worst = max(worst, (ratio, int(r["frame"])))
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--binary", default=str(ROOT / "build/release/game/poolshot"))
    a = parser.parse_args()
    storm = {c: [] for c in CANDIDATES}
    hold = {c: [] for c in LAYOUTS}
    hashes, caches = {"storm": set(), "hold_fire": set()}, None
    storm_args = ["--scenario", str(ROOT / "assets/scenarios/storm.json"), "--autofire", "--seed", "11"]
    storm_args += ["--frames", "2400"]
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(a.reps):
            for c in CANDIDATES:
                report, rows = run(a.binary, tmp, f"storm_{c}_{rep}", storm_args + storage_args(c))
                storm[c].append((report["frame_ms"]["sim"]["p50"], worst_growth(rows), report["overlay"]["growth_events"]))
                hashes["storm"].add(report["state_hash"])
                caches = report["machine"]["caches"]
            for c in LAYOUTS:
                report, _ = run(a.binary, tmp, f"hold_{c}_{rep}",
                                ["--script", str(ROOT / "assets/scripts/hold_fire.json")] + storage_args(c))
                phases = report["phases"]
                hold[c].append(phases[1]["sim_ms"]["p50"] / phases[2]["sim_ms"]["p50"])
                hashes["hold_fire"].add(report["state_hash"])
    off_p50 = statistics.median(p for p, _, _ in storm["off"])
    print(f"Machine caches: {json.dumps(caches)}; {a.reps} repetitions, medians")
    print()
    print("| candidate | storm sim p50 | heap / this | growth events | worst growth frame / its 61 neighbours' median |"
          " spike-free | hold_fire heap / pooled |")
    print("|---|---:|---:|---:|---:|---|---:|")
    spike_free = {}
    for c in CANDIDATES:
        p50 = statistics.median(p for p, _, _ in storm[c])
        worst = statistics.median(w for _, (w, _), _ in storm[c])
        events = storm[c][0][2]
        spike_free[c] = worst <= SPIKE_LIMIT
        hold_ratio = f"{statistics.median(hold[c]):.2f}x" if c in hold else "-"
        label = "pooling off (new/delete)" if c == "off" else c
        print(f"| {label} | {p50:.2f} ms | {off_p50 / p50:.2f}x | {events} | {worst:.2f}x |"
              f" {'yes' if spike_free[c] else 'no'} | {hold_ratio} |")
    print()
    eligible = [c for c in LAYOUTS if spike_free[c]]
    if not eligible:
        print("No layout is spike-free on this machine: no default chosen.")
        return 1
    best = min(eligible, key=lambda c: statistics.median(p for p, _, _ in storm[c]))
    print(f"Default by this measurement: {best} (best storm p50 among the spike-free: {', '.join(eligible)})")
    for name, seen in hashes.items():
        print(f"{name}: state hash {', '.join(sorted(seen))} over every run" + (" (one game)" if len(seen) == 1 else ""))
    return 0 if all(len(seen) == 1 for seen in hashes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
