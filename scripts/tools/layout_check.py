#!/usr/bin/env python3
"""The measurement that chooses the game's default storage: every pooled layout against
pooling off, side by side in one run, on this machine.

  storm:     assets/scenarios/storm.json, --autofire --seed 11 --frames 2400, headless. Per
             candidate: the simulation's p50 per frame, heap / this p50, and its growth frames.
             A growth frame is compared two ways, on the frame-wise median over repetitions:
             (a) with the median of the 61 frames around it (the spike test), and (b) with
             the same frame of the same game in a control run whose pools were reserved up front
             and never grow (same state hash). The storm's growth frames are its burst frames
             (an explosion's 5,000 particles fill the page), so (a) also counts the burst: the
             control run shows what (a) reads with no growth at all. A layout is spike-free when
             its worst growth frame costs <= 2x the median of its 61 neighbours: the spike test,
             which the game meets because it grows only at the end of a step without a burst
             (ObjectStore::make_room). (b) prints too, and reads higher than (a): a growth on a cheap frame is a
             larger share of it, and a run that grows also pays page faults the control, backed
             at load, never does.
  hold fire: assets/scripts/hold_fire.json (10 s pooled, 10 s heap, 10 s pooled) per layout:
             the heap phase's sim p50 over the pooled phase's after it.

Repetitions are interleaved (each layout, its control, pooling off, then the hold-fire runs), and
medians are taken over them. The default is the layout with the best storm p50 among the
spike-free. Prints a markdown table, the machine's caches, and the choice. About 5 minutes per
repetition on 2 cores; --reps N (default 3).

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


def reserved_scenario(tmp):
    """storm.json with every pool reserved at its cap's half (particles 2M): a run that never grows."""
    scenario = json.loads((ROOT / "assets/scenarios/storm.json").read_text())
    for name, pool in scenario["pools"].items():
        pool["initial_capacity"] = pool["max_capacity"] if name == "enemies" else pool["max_capacity"] // 2
    path = Path(tmp) / "storm_reserved.json"
    path.write_text(json.dumps(scenario))
    return path


def frame_medians(runs):
    """Per frame, the median sim_ms over the repetitions' CSV rows."""
    return [statistics.median(float(rows[i]["sim_ms"]) for rows in runs) for i in range(len(runs[0]))]


def worst_growth(runs, controls):
    """Over the frames that grew a pool (in the first repetition): the worst cost over its 61
    neighbours' median, the worst cost over the control's same frame, and those frames."""
    grown, control = frame_medians(runs), frame_medians(controls)
    by_neighbours, by_control = (0.0, None), (0.0, None)
    for i, r in enumerate(runs[0]):
        if r["storage_grew"] != "1":
            continue
        around = grown[max(0, i - WINDOW) : i + WINDOW + 1]
        by_neighbours = max(by_neighbours, (grown[i] / max(statistics.median(around), 1e-6), int(r["frame"])))
        by_control = max(by_control, (grown[i] / max(control[i], 1e-6), int(r["frame"])))
    return by_neighbours, by_control


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--binary", default=str(ROOT / "build/release/game/poolshot"))
    a = parser.parse_args()
    runs = {c: [] for c in CANDIDATES}  # (p50, growth events, csv rows) per repetition
    control = {c: [] for c in CANDIDATES}
    hold = {c: [] for c in LAYOUTS}
    hashes, caches = {"storm": set(), "hold_fire": set()}, None
    storm_args = ["--autofire", "--seed", "11", "--frames", "2400"]
    storm = ["--scenario", str(ROOT / "assets/scenarios/storm.json")]
    with tempfile.TemporaryDirectory() as tmp:
        reserved = reserved_scenario(tmp)
        for rep in range(a.reps):
            for c in CANDIDATES:
                report, rows = run(a.binary, tmp, f"storm_{c}_{rep}", storm + storm_args + storage_args(c))
                runs[c].append((report["frame_ms"]["sim"]["p50"], report["overlay"]["growth_events"], rows))
                hashes["storm"].add(report["state_hash"])
                caches = report["machine"]["caches"]
                report, rows = run(a.binary, tmp, f"control_{c}_{rep}",
                                   ["--scenario", str(reserved)] + storm_args + storage_args(c))
                if report["overlay"]["growth_events"] != 0:
                    print(f"note: the control run of {c} grew {report['overlay']['growth_events']} times")
                control[c].append(rows)
                hashes["storm"].add(report["state_hash"])
            for c in LAYOUTS:
                report, _ = run(a.binary, tmp, f"hold_{c}_{rep}",
                                ["--script", str(ROOT / "assets/scripts/hold_fire.json")] + storage_args(c))
                phases = report["phases"]
                hold[c].append(phases[1]["sim_ms"]["p50"] / phases[2]["sim_ms"]["p50"])
                hashes["hold_fire"].add(report["state_hash"])
    off_p50 = statistics.median(p for p, _, _ in runs["off"])
    print(f"Machine caches: {json.dumps(caches)}; {a.reps} repetitions, medians")
    print()
    print("| candidate | storm sim p50 | heap / this | growth events | worst growth frame / same frame, never grown |"
          " worst growth frame / its 61 neighbours' median (the control's, same frame) | spike-free |"
          " hold_fire heap / pooled |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    spike_free = {}
    for c in CANDIDATES:
        p50 = statistics.median(p for p, _, _ in runs[c])
        events = runs[c][0][1]
        (by_neighbours, frame_n), (by_control, frame_c) = worst_growth([r for _, _, r in runs[c]], control[c])
        controls = frame_medians(control[c])
        i = frame_n - 1 if frame_n else 0
        control_n = controls[i] / max(statistics.median(controls[max(0, i - WINDOW) : i + WINDOW + 1]), 1e-6)
        spike_free[c] = events == 0 or by_neighbours <= SPIKE_LIMIT
        hold_ratio = f"{statistics.median(hold[c]):.2f}x" if c in hold else "-"
        label = "pooling off (new/delete)" if c == "off" else c
        print(f"| {label} | {p50:.2f} ms | {off_p50 / p50:.2f}x | {events} | {by_control:.2f}x (frame {frame_c}) |"
              f" {by_neighbours:.2f}x (frame {frame_n}; control {control_n:.2f}x) |"
              f" {'yes' if spike_free[c] else 'no'} | {hold_ratio} |")
    print()
    eligible = [c for c in LAYOUTS if spike_free[c]]
    if not eligible:
        print("No layout is spike-free on this machine: no default chosen.")
        return 1
    best = min(eligible, key=lambda c: statistics.median(p for p, _, _ in runs[c]))
    print(f"Default by this measurement: {best} (best storm p50 among the spike-free: {', '.join(eligible)})")
    for name, seen in hashes.items():
        print(f"{name}: state hash {', '.join(sorted(seen))} over every run" + (" (one game)" if len(seen) == 1 else ""))
    return 0 if all(len(seen) == 1 for seen in hashes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
