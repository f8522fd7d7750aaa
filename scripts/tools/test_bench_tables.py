#!/usr/bin/env python3
"""Tests for bench_tables.py on small synthetic runs whose answers are known by hand."""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_tables as bt  # noqa: E402


def write_frames(path, rows):
    """rows: (frame, sim_ms, heap_allocs, grew)"""
    with open(path, "w") as f:
        f.write("frame,sim_ms,heap_allocs,storage_grew\n")
        for frame, ms, allocs, grew in rows:
            f.write(f"{frame},{ms},{allocs},{1 if grew else 0}\n")


def report(state_hash="0x1", bullets=60_000, enemy=50_000, particles=600_000, growths=0):
    pool = lambda peak: {"peak_live": peak, "live": peak // 2, "growth_events": growths}
    return {"state_hash": state_hash, "growth_log": [],
            "pools": {"bullets": pool(bullets), "enemy_bullets": pool(enemy), "particles": pool(particles)}}


class NearestRank(unittest.TestCase):
    def test_quantiles(self):
        v = list(range(1, 101))  # 1..100
        self.assertEqual(bt.nearest_rank(v, 0.5), 50)
        self.assertEqual(bt.nearest_rank(v, 0.99), 99)
        self.assertEqual(bt.nearest_rank(v, 1.0), 100)
        self.assertEqual(bt.nearest_rank(v, 0.0), 1)
        self.assertEqual(bt.nearest_rank([7.0], 0.99), 7.0)


class StormTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        os.makedirs(f"{self.out}/runs")
        # 20 frames, warm-up 10. Pooled runs: 1 ms, growth at frame 3 (before warm-up ends).
        # Heap run: 4 ms and 100 allocations every frame.
        for name in bt.STORM_NAMES:
            heap = name == "off"
            rows = [(f, 4.0 if heap else 1.0, 100 if heap else 0, f == 3 and name in ("stable", "contiguous"))
                    for f in range(1, 21)]
            write_frames(f"{self.out}/runs/{name}.r1.csv", rows)
            growths = 2 if name in ("stable", "contiguous") else 0
            bt.save_json(report(growths=growths), f"{self.out}/runs/{name}.r1.json")

    def tearDown(self):
        self.tmp.cleanup()

    def table(self):
        lines = []
        targets = bt.storm_table(self.out, 1, 20, 10, "7", "assets/scenarios/storm.json", "test box", "1",
                                 emit=lines.append)
        return "\n".join(lines), {t[0]: t for t in targets}

    def test_ratios_and_targets(self):
        text, targets = self.table()
        self.assertIn("| pooling on (stable) | 1.00 ms |", text)
        self.assertIn("| pooling off (new/delete) | 4.00 ms |", text)
        self.assertIn("Per repetition, p50 off / p50 stable: 4.00x.", text)
        self.assertEqual(targets["stable: sim p50 ≥ 3x faster than pooling off"][1:], ("4.00x", True))
        self.assertTrue(targets["stable: zero heap allocations in frames without growth"][2])
        self.assertTrue(targets["same game (state hash) in every run"][2])
        self.assertFalse(targets["advisor's capacities: the growth events disappear"][2] is False)
        self.assertEqual(targets["storm drives ≥ 100k live bullets"][1:], ("110,000", True))
        self.assertEqual(targets["packed: sim p50 against contiguous (informational)"][1:], ("1.00x", None))

    def test_a_different_hash_fails_the_same_game_target(self):
        bt.save_json(report(state_hash="0x2"), f"{self.out}/runs/off.r1.json")
        text, targets = self.table()
        self.assertFalse(targets["same game (state hash) in every run"][2])
        self.assertIn("Same game in every run (state hash): **no**", text)

    def test_allocation_after_warmup_fails_the_zero_allocation_target(self):
        rows = [(f, 1.0, 5 if f == 15 else 0, False) for f in range(1, 21)]
        write_frames(f"{self.out}/runs/stable.r1.csv", rows)
        _, targets = self.table()
        self.assertEqual(targets["stable: zero heap allocations in frames without growth"][1:], ("5", False))

    def test_chart_data_has_one_block_per_candidate(self):
        self.table()
        blocks = bt.read_text(f"{self.out}/chart.dat").strip().split("\n\n\n")
        self.assertEqual(len(blocks), len(bt.STORM_NAMES))
        self.assertEqual(blocks[0].splitlines()[3], "3 1.0000 1")  # frame 3 of stable grew

    def test_run_line(self):
        line = bt.storm_run_line(f"{self.out}/runs/off.r1.csv", 10, 3, 5, "off", 1, 2, 0)
        self.assertIn("sim p50   4.00 ms", line)
        self.assertIn("growth frames   0", line)


class PoolTable(unittest.TestCase):
    def bench(self, name, ns, error=None):
        b = {"name": name, "run_name": name, "run_type": "iteration", "cpu_time": ns, "time_unit": "ns"}
        if error:
            b.update(error_occurred=True, error_message=error)
        return b

    def run_table(self, benchmarks):
        with tempfile.TemporaryDirectory() as out:
            bt.save_json({"context": {"mhz_per_cpu": 2000}, "benchmarks": benchmarks}, f"{out}/a.json")
            lines = []
            targets, errors = bt.pool_table(out, "Test CPU", "2", emit=lines.append)
            return "\n".join(lines), {t[0]: t for t in targets}, errors

    def test_packed_rows_and_targets(self):
        text, targets, errors = self.run_table([
            self.bench("BM_GameFrame/std_vector/1000000", 100.0),
            self.bench("BM_GameFrame/pool_contiguous/1000000", 130.0),
            self.bench("BM_GameFrame/pool_packed/1000000", 105.0),
            self.bench("BM_GameFrame/plf_colony/1000000", 300.0),
        ])
        self.assertEqual(errors, [])
        self.assertIn("| 1,000,000 | pool_packed | 105 ns | 1.05x |", text)
        self.assertIn("| 1,000,000 | plf_colony | 300 ns | 3.00x | 2.31x | 2.86x |", text)
        name = "game frame 1,000,000: pool_packed ≤ 1.10x std_vector"
        self.assertAlmostEqual(targets[name][1], 1.05)
        self.assertTrue(targets[name][2](targets[name][1]))

    def test_without_packed_the_columns_are_the_old_ones(self):
        text, _, _ = self.run_table([self.bench("BM_Churn/std_vector/1000", 10.0),
                                     self.bench("BM_Churn/pool_contiguous/1000", 12.0)])
        self.assertIn("| N | contender | median | × std_vector | pool_contiguous faster by |", text)

    def test_errors_are_listed(self):
        text, _, errors = self.run_table([self.bench("BM_Churn/std_vector/1000", 10.0, error="boom")])
        self.assertEqual(errors, ["BM_Churn/std_vector/1000: boom"])
        self.assertIn("- BM_Churn/std_vector/1000: boom", text)


class Command(unittest.TestCase):
    def test_bad_arguments_exit_2(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(bt.main(["bench_tables.py", "storm-table", "only-one"]), 2)
            self.assertEqual(bt.main(["bench_tables.py"]), 2)
        self.assertIn("bad command or argument count", err.getvalue())

    def test_advise_rounds_peak_plus_a_quarter_up_to_64(self):
        with tempfile.TemporaryDirectory() as d:
            bt.save_json({"pools": {"bullets": {"max_capacity": 1 << 20}, "particles": {"max_capacity": 100}}},
                         f"{d}/s.json")
            bt.save_json({"pools": {"bullets": {"peak_live": 1000}, "particles": {"peak_live": 1000}}}, f"{d}/r.json")
            bt.advise(f"{d}/s.json", f"{d}/r.json", f"{d}/o.json")
            pools = bt.load_json(f"{d}/o.json")["pools"]
            self.assertEqual(pools["bullets"]["initial_capacity"], 1280)  # 1250 -> 1280
            self.assertEqual(pools["particles"]["initial_capacity"], 100)  # capped


if __name__ == "__main__":
    unittest.main()
