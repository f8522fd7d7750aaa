#!/usr/bin/env python3
"""Checks that every figure README.md quotes is the value in docs/figures.md's generated tables.

scripts/figures writes each table between two marker lines in docs/figures.md:

  <!-- figures:NAME begin -->
  | row | column ... |        the first table after the begin line holds the figures;
  |---|---:|               its first column names the rows
  ...
  <!-- figures:NAME end -->

A figure in the README is a link into docs/figures.md whose title names the cell it quotes,
as "NAME | ROW | COLUMN":

  [4.46x](docs/figures.md#holding-fire-heap-against-pooled "heap_vs_pooled | hold_fire.json | heap / pooled")

The link text must equal the cell (bold and code marks aside), and the link's #anchor must be the
section that holds the table. A measured-looking number in the README's prose that is not such a
link (a decimal ratio like 2.5x, or a time like 3 ms) is reported too: it would go stale unseen.

  check_readme_figures.py [README FIGURES]   exit 1 and one line per fault; 0 and silent when all hold

scripts/figures calls update_readme() after writing the tables, so the README follows each run.
Tested by scripts/tools/test_check_readme_figures.py.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_doc_links import FENCE, slug  # noqa: E402  (one slug rule for every doc check)

ROOT = pathlib.Path(__file__).resolve().parents[2]
BEGIN = re.compile(r"^<!-- figures:([\w.-]+) begin -->\s*$")
END = "<!-- figures:{} end -->"
# [text](docs/figures.md#anchor "table | row | column")
FIGURE_LINK = re.compile(r"\[([^\]]*)\]\((\S*figures\.md)(#[^\s)]*)?\s+\"([^\"]*)\"\)")
# What reads as a measurement: a decimal ratio (1.58x) or a time (3 ms, 12.5 ns, 40 µs).
UNMARKED = re.compile(r"(?<![\w.])\d+\.\d+x\b|(?<![\w.])\d+(?:\.\d+)? ?(?:ms|ns|µs)\b")


class FigureError(Exception):
    pass


def plain(cell):
    """A cell's text without Markdown emphasis or code marks."""
    return cell.replace("**", "").replace("`", "").strip()


def split_row(line):
    """A table row's cells; a pipe inside a cell is written \\| (GitHub's rule, code spans too)."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip().replace("\\|", "|") for c in cells[1:-1]]


def blocks(text):
    """{name: (heading slug, header cells, {row name: cells})} for each marked table."""
    out = {}
    lines = text.splitlines()
    heading, fenced = "", False
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            fenced = not fenced
        h = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", lines[i])
        if h:
            heading = slug(h.group(1))
        m = BEGIN.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        if name in out:
            raise FigureError(f"table {name!r} is marked twice")
        try:
            end = lines.index(END.format(name), i + 1)
        except ValueError:
            raise FigureError(f"table {name!r} has a begin marker and no end marker") from None
        first = []  # the first table: consecutive | lines
        for line in lines[i + 1 : end]:
            if line.startswith("|"):
                first.append(line)
            elif first:
                break
        header = [plain(c) for c in split_row(first[0])] if first else []
        rows = {}  # none yet: a table scripts/figures has not written
        for line in first[2:]:
            cells = split_row(line)
            rows[plain(cells[0])] = cells
        out[name] = (heading, header, rows)
        i = end + 1
    return out


def cell(tables, name, row, column):
    if name not in tables:
        raise FigureError(f"no table {name!r} in docs/figures.md")
    heading, header, rows = tables[name]
    if row not in rows:
        raise FigureError(f"table {name!r} has no row {row!r} (rows: {', '.join(rows)})")
    if column not in header:
        raise FigureError(f"table {name!r} has no column {column!r} (columns: {', '.join(header)})")
    cells = rows[row]
    index = header.index(column)
    if index >= len(cells):
        raise FigureError(f"table {name!r}, row {row!r} has no cell under {column!r}")
    return heading, plain(cells[index])


def parse_title(title):
    parts = [p.strip() for p in title.split("|")]
    if len(parts) != 3 or not all(parts):
        raise FigureError(f'title "{title}" is not "TABLE | ROW | COLUMN"')
    return parts


def check(readme_text, figures_text):
    """One line per fault: a quoted figure that differs from its cell, names no cell, or points at
    another section; a measured-looking number that is not a figure link."""
    try:
        tables = blocks(figures_text)
    except FigureError as e:
        return [f"docs/figures.md: {e}"]
    errors = []
    for number, line in prose_lines_of(readme_text):
        for m in FIGURE_LINK.finditer(line):
            text, _, anchor, title = m.groups()
            where = f"README.md:{number}: [{text}]"
            try:
                name, row, column = parse_title(title)
                heading, value = cell(tables, name, row, column)
            except FigureError as e:
                errors.append(f"{where}: {e}")
                continue
            if plain(text) != value:
                errors.append(f"{where}: the table {name!r} says {value} ({row}, {column})")
            if anchor and anchor[1:] != heading:
                errors.append(f"{where}: table {name!r} is under #{heading}, not {anchor}")
        rest = FIGURE_LINK.sub("", re.sub(r"`[^`]*`", "", line))
        for m in UNMARKED.finditer(rest):
            errors.append(f"README.md:{number}: {m.group(0)} is not a figure link: quote it from a table"
                          ' as [value](docs/figures.md#section "TABLE | ROW | COLUMN")')
    return errors


def prose_lines_of(text):
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield number, line


def replace_block(figures_text, name, body):
    """figures_text with the lines between NAME's begin and end markers replaced by body."""
    lines = figures_text.split("\n")
    begin = [i for i, line in enumerate(lines) if BEGIN.match(line) and BEGIN.match(line).group(1) == name]
    if len(begin) != 1:
        raise FigureError(f"docs/figures.md needs exactly one '<!-- figures:{name} begin -->' line, has {len(begin)}")
    try:
        end = lines.index(END.format(name), begin[0] + 1)
    except ValueError:
        raise FigureError(f"table {name!r} has a begin marker and no end marker") from None
    return "\n".join(lines[: begin[0] + 1] + body.rstrip("\n").split("\n") + lines[end:])


def update_readme(readme_text, figures_text):
    """The README with every figure link's text set to its cell's value; a link that names no
    cell stays as it is (check() reports it)."""
    tables = blocks(figures_text)

    def replace(m):
        text, target, anchor, title = m.groups()
        try:
            _, value = cell(tables, *parse_title(title))
        except FigureError:
            return m.group(0)
        return f'[{value}]({target}{anchor or ""} "{title}")'

    return FIGURE_LINK.sub(replace, readme_text)


def main(argv):
    if len(argv) not in (0, 2):
        print("usage: check_readme_figures.py [README FIGURES]", file=sys.stderr)
        return 2
    readme, figures = (pathlib.Path(a) for a in argv) if argv else (ROOT / "README.md", ROOT / "docs/figures.md")
    try:
        errors = check(readme.read_text(encoding="utf-8"), figures.read_text(encoding="utf-8"))
    except OSError as e:
        errors = [str(e)]
    for e in errors:
        print(f"check_readme_figures: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
