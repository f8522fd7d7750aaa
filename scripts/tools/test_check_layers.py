#!/usr/bin/env python3
"""check_layers.py against small trees with one fault each: every rule must refuse its case."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        p = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
        return p.returncode, p.stderr


CLEAN = {
    "game/sim/a.hpp": "#pragma once\n#include <engine/pool/vector_pool.hpp>\n#include <vector>\n",
    "game/metrics/b.hpp": '#pragma once\n#include "sim/a.hpp"\n',
    "game/app/c.cpp": '#include "metrics/b.hpp"\n#include <engine/sprite.hpp>\n#include <SDL.h>\n',
    "engine/include/engine/pool/vector_pool.hpp": "#pragma once\n",
    "engine/include/engine/sprite.hpp": "#pragma once\n",
}


class CheckLayers(unittest.TestCase):
    def refuses(self, extra, words):
        code, err = run({**CLEAN, **extra})
        self.assertEqual(code, 1, err)
        for w in words:
            self.assertIn(w, err)

    def test_a_clean_tree_passes(self):
        self.assertEqual(run(CLEAN)[0], 0)

    def test_an_include_that_does_not_name_its_layer(self):
        self.refuses({"game/sim/d.cpp": '#include "a.hpp"\n'}, ["game/sim/d.cpp:1", "does not name its layer"])

    def test_an_include_from_a_layer_above(self):
        self.refuses({"game/sim/d.cpp": '#include "metrics/b.hpp"\n'}, ["sim includes", "metrics layer above"])

    def test_the_simulation_including_a_runtime_header(self):
        self.refuses({"game/sim/d.cpp": "#include <engine/sprite.hpp>\n"}, ["engine runtime header"])

    def test_the_simulation_including_sdl_imgui_or_cli11(self):
        for header, word in (("SDL2/SDL.h", "SDL"), ("imgui/imgui.h", "ImGui"), ("CLI/CLI.hpp", "CLI11")):
            self.refuses({"game/sim/d.cpp": f"#include <{header}>\n"}, [word])

    def test_an_include_cycle(self):
        self.refuses(
            {
                "engine/include/engine/pool/x.hpp": "#include <engine/pool/y.hpp>\n",
                "engine/include/engine/pool/y.hpp": "#include <engine/pool/x.hpp>\n",
            },
            ["include cycle", "x.hpp", "y.hpp"],
        )


if __name__ == "__main__":
    unittest.main()
