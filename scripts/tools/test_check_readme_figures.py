#!/usr/bin/env python3
"""check_readme_figures.py on small README and figures texts: a figure that differs from its
table, names no cell or sits under the wrong section must be refused; update_readme() must
bring the README back to the tables."""
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_readme_figures as crf  # noqa: E402

FIGURES = """# Figures

## Holding fire: heap against pooled

<!-- figures:heap_vs_pooled begin -->
| game | heap p50 | heap / pooled | command |
|---|---:|---:|---|
| storm.json | 16.10 ms | **5.03x** | `poolshot --compare` |
| hold_fire.json | 7.41 ms | **4.28x** | `bench --filter='a\\|b'` |

| machine | commit |
|---|---|
| some CPU | `0123abc` |
<!-- figures:heap_vs_pooled end -->

## Threads

```sh
# not a heading: inside a fence
```

<!-- figures:threads begin -->
| run | 2 / 1 |
|---|---:|
| storm.json, pooled | 0.61x |
<!-- figures:threads end -->
"""

LINK = '[{}](docs/figures.md#{} "{}")'
HOLD = "heap_vs_pooled | hold_fire.json | heap / pooled"


def readme(value="4.28x", anchor="holding-fire-heap-against-pooled", title=HOLD, extra=""):
    return f"# Poolshot\n\nPooling off costs **{LINK.format(value, anchor, title)}** the time.\n{extra}"


class Check(unittest.TestCase):
    def test_figures_equal_to_their_cells_pass(self):
        text = readme() + "Two threads: " + LINK.format("0.61x", "threads", "threads | storm.json, pooled | 2 / 1")
        self.assertEqual(crf.check(text, FIGURES), [])

    def test_a_figure_that_differs_from_its_table_fails(self):
        errors = crf.check(readme(value="4.30x"), FIGURES)
        self.assertEqual(len(errors), 1)
        self.assertIn("README.md:3: [4.30x]", errors[0])
        self.assertIn("says 4.28x", errors[0])

    def test_a_figure_naming_no_cell_fails(self):
        for title, why in ((HOLD.replace("hold_fire.json", "hold.json"), "no row 'hold.json'"),
                           (HOLD.replace("heap / pooled", "ratio"), "no column 'ratio'"),
                           (HOLD.replace("heap_vs_pooled", "nope"), "no table 'nope'"),
                           ("heap_vs_pooled | hold_fire.json", "is not \"TABLE | ROW | COLUMN\"")):
            errors = crf.check(readme(title=title), FIGURES)
            self.assertEqual(len(errors), 1, title)
            self.assertIn(why, errors[0])

    def test_a_figure_linked_to_another_section_fails(self):
        errors = crf.check(readme(anchor="threads"), FIGURES)
        self.assertEqual(len(errors), 1)
        self.assertIn("is under #holding-fire-heap-against-pooled", errors[0])

    def test_a_measured_number_outside_a_figure_link_fails(self):
        errors = crf.check(readme(extra="The heap reads 3.9x here and 7.41 ms there; 10 % and x4096 are rules.\n"),
                           FIGURES)
        self.assertEqual([e.split(": ")[1] for e in errors], ["3.9x is not a figure link", "7.41 ms is not a figure link"])

    def test_numbers_in_code_spans_and_fences_are_not_figures(self):
        text = readme(extra="`--frames 1.5x` and\n```\n2.5x 3 ms\n```\n")
        self.assertEqual(crf.check(text, FIGURES), [])

    def test_a_pipe_escaped_in_a_cell_stays_in_its_cell(self):
        _, header, rows = crf.blocks(FIGURES)["heap_vs_pooled"]
        self.assertEqual(len(rows["hold_fire.json"]), len(header))
        self.assertEqual(rows["hold_fire.json"][3], "`bench --filter='a|b'`")

    def test_a_table_not_yet_written_has_no_cells(self):
        empty = FIGURES.replace("| run | 2 / 1 |\n|---|---:|\n| storm.json, pooled | 0.61x |\n", "")
        self.assertEqual(crf.blocks(empty)["threads"][2], {})
        errors = crf.check(readme(extra=LINK.format("0.61x", "threads", "threads | storm.json, pooled | 2 / 1")), empty)
        self.assertEqual(len(errors), 1)
        self.assertIn("no row 'storm.json, pooled'", errors[0])

    def test_broken_markers_are_reported(self):
        broken = FIGURES.replace("<!-- figures:threads end -->\n", "")
        self.assertIn("no end marker", crf.check(readme(), broken)[0])
        twice = FIGURES + "<!-- figures:threads begin -->\n| a |\n|---|\n<!-- figures:threads end -->\n"
        self.assertIn("marked twice", crf.check(readme(), twice)[0])


class Update(unittest.TestCase):
    def test_update_sets_every_figure_to_its_cell(self):
        stale = readme(value="9.99x")
        updated = crf.update_readme(stale, FIGURES)
        self.assertEqual(updated, readme())
        self.assertEqual(crf.check(updated, FIGURES), [])

    def test_update_leaves_a_link_naming_no_cell_for_check_to_report(self):
        text = readme(title="nope | a | b")
        self.assertEqual(crf.update_readme(text, FIGURES), text)


class ReplaceBlock(unittest.TestCase):
    def test_only_the_named_block_changes(self):
        body = "| run | 2 / 1 |\n|---|---:|\n| storm.json, pooled | 0.55x |\n"
        out = crf.replace_block(FIGURES, "threads", body)
        self.assertEqual(out, FIGURES.replace("| 0.61x |", "| 0.55x |"))
        self.assertEqual(crf.blocks(out)["threads"][2]["storm.json, pooled"][1], "0.55x")

    def test_a_missing_block_is_refused(self):
        with self.assertRaisesRegex(crf.FigureError, "exactly one"):
            crf.replace_block(FIGURES, "walks", "| a |\n")
        with self.assertRaisesRegex(crf.FigureError, "no end marker"):
            crf.replace_block(FIGURES.replace("<!-- figures:threads end -->", ""), "threads", "| a |\n")


class Command(unittest.TestCase):
    def test_exit_codes(self):
        with tempfile.TemporaryDirectory() as d:
            figures, good, bad = (os.path.join(d, n) for n in ("figures.md", "good.md", "bad.md"))
            for path, text in ((figures, FIGURES), (good, readme()), (bad, readme(value="1.00x"))):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(crf.main([good, figures]), 0)
                self.assertEqual(crf.main([bad, figures]), 1)
                self.assertEqual(crf.main([good]), 2)
                self.assertEqual(crf.main([os.path.join(d, "missing.md"), figures]), 1)
            self.assertIn("says 4.28x", err.getvalue())


if __name__ == "__main__":
    unittest.main()
