#include "options.hpp"

#include <cstdio>
#include <cstdlib>

namespace game {

namespace {
void print_usage() { std::fprintf(stderr, "usage: poolshot [--headless] [--frames N]\n"); }
}  // namespace

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--headless") {
      options.headless = true;
    } else if (arg == "--frames" && i + 1 < argc) {
      char* end = nullptr;
      options.frames = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || options.frames < 0) {
        std::fprintf(stderr, "poolshot: --frames needs a non-negative integer\n");
        print_usage();
        return std::nullopt;
      }
    } else {
      std::fprintf(stderr, "poolshot: unknown flag '%s'\n", arg.c_str());
      print_usage();
      return std::nullopt;
    }
  }
  return options;
}

}  // namespace game
