#!/usr/bin/env python3
"""Checks the game's layering and the project's include graph; exits 1 with one line per fault.

  check_layers.py [ROOT]      ROOT: the repository (default: this script's ../..)

What it refuses (the build refuses most of it too; this names the rule and the line):
- an include in game/ that does not name its layer: "sim/simulation.hpp", not "simulation.hpp";
- an include that reaches up a layer (sim < metrics < overlay < app; tests and soak see all);
- in game/sim: any engine header outside <engine/pool/>, and SDL, OpenGL, ImGui or CLI11;
- an include cycle among the project's own headers (engine/include and game/).
"""
import os
import re
import sys

LAYERS = ["sim", "metrics", "overlay", "app"]  # each may include itself and those before it
SIM_FORBIDDEN = [
    (re.compile(r"^engine/(?!pool/)"), "an engine runtime header (the simulation links engine::pool only)"),
    (re.compile(r"^SDL"), "SDL"),
    (re.compile(r"^(GL|EGL|epoxy)/"), "OpenGL"),
    (re.compile(r"imgui"), "ImGui"),
    (re.compile(r"^CLI/"), "CLI11"),
]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def includes(path):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1), m.group(2)


def sources(root, top):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in sorted(files):
            if name.endswith((".hpp", ".cpp", ".h")):
                yield os.path.join(folder, name)


def check_game(root, faults):
    game = os.path.join(root, "game")
    for path in sources(root, "game"):
        rel = os.path.relpath(path, game)
        layer = rel.split(os.sep)[0]
        for number, kind, target in includes(path):
            where = f"{os.path.relpath(path, root)}:{number}"
            if kind == '"':
                head = target.split("/")[0]
                if "/" not in target or not os.path.exists(os.path.join(game, target)):
                    faults.append(f'{where}: "{target}" does not name its layer (e.g. "sim/{target}")')
                    continue
                if layer in LAYERS and head in LAYERS and LAYERS.index(head) > LAYERS.index(layer):
                    faults.append(f'{where}: {layer} includes "{target}" from the {head} layer above it')
                elif layer in LAYERS and head not in LAYERS:
                    faults.append(f'{where}: {layer} includes "{target}", outside the four layers')
            if layer == "sim":
                for pattern, what in SIM_FORBIDDEN:
                    if pattern.search(target):
                        faults.append(f"{where}: the simulation includes {what}: {target}")


def resolve(root, path, kind, target):
    """The project header an include names, or None for a system or library header."""
    candidates = []
    if kind == '"':
        candidates.append(os.path.join(os.path.dirname(path), target))
    candidates += [os.path.join(root, "game", target), os.path.join(root, "engine", "include", target)]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.normpath(c)
    return None


def check_cycles(root, faults):
    graph = {}
    for top in ("engine", "game"):
        for path in sources(root, top):
            if path.endswith(".hpp") or path.endswith(".h"):
                graph[os.path.normpath(path)] = [
                    r for _, kind, target in includes(path) if (r := resolve(root, path, kind, target))
                ]
    state = {}  # 1: on the current path, 2: done

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                faults.append("include cycle: " + " -> ".join(os.path.relpath(c, root) for c in cycle))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    faults = []
    check_game(root, faults)
    check_cycles(root, faults)
    for f in faults:
        print(f"check_layers: {f}", file=sys.stderr)
    if faults:
        return 1
    print("check_layers: layers and include graph OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
