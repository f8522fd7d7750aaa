#!/usr/bin/env python3
"""The hold-fire figures: heap / pooled at the same load, for every hold-fire script.

Plays each assets/scripts/hold_fire*.json headless at the game's defaults (or with the extra
poolshot flags given after --): the still one, strafing, sweeping the aim, shorter and longer
phases. Each script fires from frame 1, fills the pools with pooling on, then switches pooling
off and on. For every phase with pooling off, the ratio is its sim p50 over the sim p50 of the
pooled phase right after it (the same load: the fire is held throughout). Repetitions are
interleaved (every script once, then again), and the ratio printed per script is the median
over repetitions of its lowest pair. Prints a markdown table, the machine's caches and whether
every script met its floor (hold_fire.json >= 2.5x, the others >= 2x). About 40 s per
repetition on 2 cores.

  scripts/tools/hold_fire_check.py [--reps N] [--binary PATH] [-- poolshot flags...]
"""
import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOORS = {"hold_fire.json": 2.5}  # the still script at defaults
OTHER_FLOOR = 2.0  # any other hold-fire script


def play(binary, script, report, extra):
    args = [binary, "--headless", "--script", str(script), "--report", str(report)] + extra
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.loads(report.read_text())


def pairs(report):
    """(heap p50, pooled p50 after it, peak live in the heap phase) for each heap phase."""
    phases = report["phases"]
    out = []
    for heap, pooled in zip(phases, phases[1:]):
        if heap["pooling"] == "off" and pooled["pooling"] == "on":
            out.append((heap["sim_ms"]["p50"], pooled["sim_ms"]["p50"], heap["peak_live"]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--binary", default=str(ROOT / "build/release/game/poolshot"))
    parser.add_argument("extra", nargs="*", help="poolshot flags for every run (after --)")
    a = parser.parse_args()
    scripts = sorted((ROOT / "assets/scripts").glob("hold_fire*.json"))
    results = {s.name: [] for s in scripts}  # per repetition: the list of pairs
    hashes = {s.name: set() for s in scripts}
    caches, settings = None, None
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(a.reps):
            for s in scripts:
                report = play(a.binary, s, Path(tmp) / f"{s.stem}_{rep}.json", a.extra)
                results[s.name].append(pairs(report))
                hashes[s.name].add(report["state_hash"])
                caches = report["machine"]["caches"]
                first = report["phases"][0]
                settings = f"{first['storage']}, {first['walk']} walk, {first['threads']} threads"
    print(f"Machine caches: {json.dumps(caches)}; {a.reps} repetitions, medians; pooled runs: {settings}")
    print()
    print("| script | heap p50 | pooled p50 after it | heap / pooled (lowest pair) | peak live | floor | met |")
    print("|---|---:|---:|---:|---:|---:|---|")
    all_met = True
    for s in scripts:
        reps = results[s.name]
        if not reps or not reps[0]:
            print(f"| {s.name} | - | - | no heap phase followed by a pooled one | - | - | no |")
            all_met = False
            continue
        lowest = [min(range(len(r)), key=lambda i, r=r: r[i][0] / r[i][1]) for r in reps]
        ratio = statistics.median(r[i][0] / r[i][1] for r, i in zip(reps, lowest))
        heap = statistics.median(r[i][0] for r, i in zip(reps, lowest))
        pooled = statistics.median(r[i][1] for r, i in zip(reps, lowest))
        live = max(r[i][2] for r, i in zip(reps, lowest))
        floor = FLOORS.get(s.name, OTHER_FLOOR)
        met = ratio >= floor
        all_met &= met
        print(f"| {s.name} | {heap:.2f} ms | {pooled:.2f} ms | {ratio:.2f}x | {live:,} | {floor:.1f}x |"
              f" {'yes' if met else 'no'} |")
    print()
    for name, seen in hashes.items():
        print(f"{name}: state hash {', '.join(sorted(seen))}" + (" (one game)" if len(seen) == 1 else " (differs!)"))
    return 0 if all_met and all(len(seen) == 1 for seen in hashes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
