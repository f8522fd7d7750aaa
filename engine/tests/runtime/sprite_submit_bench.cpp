// CPU cost of the sprite path, per sprite, separated from llvmpipe's own work:
//   BM_BatchBuild      the game filling a SpriteBatch (warm: no allocation)
//   BM_BucketSprites   the counting sort alone, into plain memory
//   BM_RendererUpload  orphan + map + counting sort into the stream buffer + unmap
//   BM_RendererSubmit  uniforms + one draw call per group (on llvmpipe this includes the
//                      vertex shading the "GPU" does on the calling thread)
//   BM_RendererFrame   upload + submit + glFinish: the whole frame including rasterisation
// The GPU queue is drained with glFinish outside the timed region before each upload/submit.
// Run: SDL_VIDEODRIVER=offscreen build/<dir>/engine/sprite_submit_bench
#include <engine/sprite_renderer.hpp>
#include <engine/window.hpp>

#include <benchmark/benchmark.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;
engine::SpriteRenderer* g_renderer = nullptr;

// A particle-storm-like list: random positions, 8x8, 3 layers x 2 blend modes.
std::vector<engine::Sprite> make_sprites(std::size_t n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> x(0.0f, kWidth), y(0.0f, kHeight);
  std::vector<engine::Sprite> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    engine::Sprite& s = out[i];
    s.x = x(rng);
    s.y = y(rng);
    s.width = s.height = 8.0f;
    s.rotation = static_cast<float>(i % 628) * 0.01f;
    s.color = engine::rgba(255, static_cast<std::uint8_t>(i), 64, 200);
    s.cell = static_cast<std::uint16_t>(i % 4);
    s.layer = static_cast<std::uint8_t>(i % 3);
    s.blend = (i % 2) != 0 ? engine::BlendMode::additive : engine::BlendMode::alpha;
  }
  return out;
}

void per_sprite(benchmark::State& state, std::size_t n) {
  state.counters["per_sprite"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

engine::Camera2D camera() {
  engine::Camera2D c;
  c.viewport = {static_cast<float>(kWidth), static_cast<float>(kHeight)};
  c.center = c.viewport * 0.5f;
  return c;
}

void BM_BatchBuild(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<engine::Sprite> src = make_sprites(n);
  engine::SpriteBatch batch(n);
  for (auto _ : state) {
    batch.clear();
    for (const engine::Sprite& s : src) batch.push(s);  // one push per object, as a game does
    benchmark::DoNotOptimize(batch.data());
    benchmark::ClobberMemory();
  }
  per_sprite(state, n);
}
BENCHMARK(BM_BatchBuild)->Arg(10000)->Arg(100000);

void BM_BucketSprites(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<engine::Sprite> src = make_sprites(n);
  std::vector<engine::Sprite> out(n);
  engine::SpriteGroups groups;
  for (auto _ : state) {
    engine::bucket_sprites(src.data(), n, out.data(), groups);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  per_sprite(state, n);
}
BENCHMARK(BM_BucketSprites)->Arg(10000)->Arg(100000);

void BM_RendererUpload(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  for (auto _ : state) {
    state.PauseTiming();
    glFinish();
    state.ResumeTiming();
    benchmark::DoNotOptimize(g_renderer->upload(batch));
  }
  per_sprite(state, n);
}
BENCHMARK(BM_RendererUpload)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

void BM_RendererSubmit(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  const engine::Camera2D cam = camera();
  engine::RenderCounters counters;
  for (auto _ : state) {
    state.PauseTiming();
    g_renderer->upload(batch);
    glFinish();
    state.ResumeTiming();
    counters = g_renderer->submit(cam, kWidth, kHeight);
  }
  state.counters["draw_calls"] = counters.draw_calls;
  per_sprite(state, n);
}
BENCHMARK(BM_RendererSubmit)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

void BM_RendererFrame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  const engine::Camera2D cam = camera();
  for (auto _ : state) {
    glClear(GL_COLOR_BUFFER_BIT);
    g_renderer->draw(batch, cam, kWidth, kHeight);
    glFinish();
  }
  per_sprite(state, n);
}
BENCHMARK(BM_RendererFrame)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  engine::Window window;
  engine::WindowConfig config;
  config.width = kWidth;
  config.height = kHeight;
  config.offscreen = true;
  config.vsync = false;
  if (engine::Status s = window.open(config); !s) {
    std::fprintf(stderr, "sprite_submit_bench: %s\n", s.message().c_str());
    return 1;
  }
  engine::SpriteRenderer renderer;
  if (engine::Status s = renderer.init(std::string(POOLSHOT_ASSET_DIR) + "/shaders"); !s) {
    std::fprintf(stderr, "sprite_submit_bench: %s\n", s.message().c_str());
    return 1;
  }
  g_renderer = &renderer;
  std::fprintf(stderr, "sprite_submit_bench: GL renderer '%s'\n", window.gl_renderer().c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  renderer.shutdown();
  window.close();
  SDL_Quit();
  return 0;
}
