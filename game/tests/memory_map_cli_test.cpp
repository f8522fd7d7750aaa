// `poolshot --memory-map FILE.png` through the real binary: a bad path is one line and exit 1;
// a run writes the picture, and its report carries the "memory" section, also per phase.
#include "metrics/memory_map_picture.hpp"

#include <engine/image.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using game::test::RunResult;
using game::test::Streams;

TEST(MemoryMapCli, BadPathIsOneLineAndExitOne) {
  const RunResult r =
      game::test::run_binary(POOLSHOT_BINARY, "--headless --frames 30 --memory-map /no/such/dir/map.png",
                             Streams::stderr_only);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(r.out,
            "poolshot: --memory-map: cannot write PNG '/no/such/dir/map.png' (directory missing or not writable?)\n");
}

TEST(MemoryMapCli, CannotBeCombinedWithCompare) {
  const RunResult r =
      game::test::run_binary(POOLSHOT_BINARY, "--headless --compare --memory-map x.png", Streams::stderr_only);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--memory-map needs a single run"), std::string::npos) << r.out;
}

TEST(MemoryMapCli, WritesThePictureAndTheReportsMemorySection) {
  const fs::path dir = game::test::scratch_path("poolshot_memory_map_cli");
  fs::create_directories(dir);
  const std::string png = (dir / "map.png").string(), report = (dir / "report.json").string();
  const RunResult r = game::test::run_binary(POOLSHOT_BINARY,
                                             "--headless --frames 600 --autofire --storage contiguous --memory-map " +
                                                 png + " --report " + report,  // slots, so churn leaves holes
                                             Streams::stderr_only);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  engine::Image image;
  ASSERT_TRUE(engine::load_png(png, image).is_ok());
  EXPECT_EQ(image.width, game::PictureLayout::width());
  EXPECT_EQ(image.height, game::PictureLayout::height());
  std::ifstream in(report);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_TRUE(j.contains("memory"));
  const nlohmann::json& particles = j["memory"]["pools"]["particles"];
  EXPECT_EQ(particles["live"], j["pools"]["particles"]["live"]);
  EXPECT_GT(particles["holes"].get<int>(), 0) << "autofire churns the particles: there are holes";
  EXPECT_GE(particles["longest_hole"].get<int>(), 1);
  EXPECT_GT(particles["live_line_share"].get<double>(), 0.0);
  EXPECT_LE(particles["live_line_share"].get<double>(), 1.0);
  // The binary is built like this test: under ASan, malloc is not glibc's and has no figures.
  EXPECT_EQ(j["memory"]["heap"]["allocator_figures"] == "glibc mallinfo2", !game::test::kMallocReplaced);
  if (!game::test::kMallocReplaced) {
    EXPECT_GT(j["memory"]["heap"]["arena_bytes"].get<double>(), 0.0);
  }
  EXPECT_GT(j["memory"]["heap"]["resident_bytes"].get<double>(), 0.0);
  ASSERT_FALSE(j["phases"].empty());
  EXPECT_GT(j["phases"][0]["memory"]["heap"]["resident_bytes"].get<double>(), 0.0);
  fs::remove_all(dir);
}

}  // namespace
