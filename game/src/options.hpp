#pragma once
// Command-line options of poolshot.
#include <optional>
#include <string>

namespace game {

struct Options {
  bool headless = false;  // simulate with no video at all
  long frames = -1;       // stop after this many simulation steps; -1 = run until quit
};

// Parses argv; on a bad flag or value prints the reason and usage to stderr and returns nullopt.
std::optional<Options> parse_options(int argc, char** argv);

}  // namespace game
