#!/usr/bin/env python3
"""Checks the relative links of Poolshot's docs: every [text](target) and ![alt](target) in
README.md and docs/*.md (or the files named on the command line) must name a file that exists,
and a #anchor must name a heading of the target (GitHub's slugs). Links with a scheme (https:,
mailto:) and anything inside fenced code blocks are not checked. Exit 1 and one line per broken
link; 0 and nothing printed when all hold."""
import html
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(path):  # (line number, text) outside fenced code blocks
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield number, line


def slug(heading):  # GitHub: text only, lower case, punctuation dropped, spaces to hyphens
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", html.unescape(heading)).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for _, line in prose_lines(path):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def check(path):
    errors = []
    for number, line in prose_lines(path):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{os.path.relpath(path, ROOT)}:{number}: {target}"
            if not dest.exists():
                errors.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                errors.append(f"{where}: no heading with anchor #{anchor}")
    return errors


def main(argv):
    files = [pathlib.Path(a).resolve() for a in argv] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    errors = [e for f in files for e in check(f)]
    for e in errors:
        print(f"check_doc_links: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
