// CPU cost of the sprite path, per sprite, separated from llvmpipe's own work, for both
// render paths (first argument: 0 = RenderPath::instanced, 1 = RenderPath::fast):
//   BM_BatchBuild        the game filling a SpriteBatch (warm: no allocation)
//   BM_BucketSprites     the counting sort alone, into plain memory
//   BM_RendererUpload    instanced: orphan + map + counting sort into the stream buffer + unmap;
//                        fast: the counting sort into the renderer's CPU copy
//   BM_RendererSubmit    instanced: uniforms + one draw call per group (on llvmpipe this includes
//                        the vertex shading the "GPU" does on the calling thread); fast: the
//                        stamping on the CPU, the texture uploads and the few draw calls
//   BM_RendererFrame     upload + submit + glFinish: the whole frame including rasterisation
//                        (wall time: llvmpipe and the stamping use more than this thread)
//   BM_FrameSideBySide   both paths on the same batch, alternating A B A B in one run, each
//                        frame timed to its glFinish: instanced_ms, fast_ms (medians), ratio;
//                        and between them the fast path's floor, floor_ms: two sprites in
//                        opposite corners, so one whole 1280x720 image is uploaded and drawn
//                        as one textured quad whatever the sprite count (fast_over_floor)
// The GPU queue is drained with glFinish outside the timed region before each upload/submit.
// Sprites: the game during held fire (mostly small additive sparks, smoke and trail, small
// alpha bullets, a few hundred enemies) on a 1280x720 window.
// Run: SDL_VIDEODRIVER=offscreen build/<dir>/engine/sprite_submit_bench
//      (--benchmark_filter=SideBySide for the comparison alone)
#include <engine/sprite_renderer.hpp>
#include <engine/window.hpp>

#include <benchmark/benchmark.h>
#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;
engine::SpriteRenderer* g_renderer = nullptr;

// Held fire: 55% sparks (3-12 long, turned), 12% smoke (8-22), 13% engine trail (3-8), all
// additive on layers 1-2; 19.7% bullets (6x8, alpha, layer 4); 0.3% enemies (30-60, layer 3).
std::vector<engine::Sprite> make_sprites(std::size_t n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<engine::Sprite> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    engine::Sprite& s = out[i];
    s.x = unit(rng) * kWidth;
    s.y = unit(rng) * kHeight;
    const float kind = unit(rng), size = unit(rng), turn = unit(rng) * 6.2831853f;
    if (kind < 0.55f) {
      const float len = 3.0f + 9.0f * size;
      s = {s.x,
           s.y,
           len * 0.5f,
           len,
           turn,
           engine::rgba(255, 170, 60, 220),
           engine::builtin_glow,
           2,
           engine::BlendMode::additive};
    } else if (kind < 0.67f) {
      const float d = 8.0f + 14.0f * size;
      s = {s.x, s.y, d, d, 0, engine::rgba(70, 70, 80, 120), engine::builtin_glow, 2, engine::BlendMode::additive};
    } else if (kind < 0.80f) {
      const float d = 3.0f + 5.0f * size;
      s = {s.x, s.y, d, d, 0, engine::rgba(120, 170, 255, 200), engine::builtin_glow, 1, engine::BlendMode::additive};
    } else if (kind < 0.997f) {
      s = {s.x, s.y, 6, 8, turn, engine::rgba(255, 240, 140), engine::builtin_disc, 4, engine::BlendMode::alpha};
    } else {
      const float d = 30.0f + 30.0f * size;
      s = {s.x, s.y, d, d, turn, engine::rgba(255, 110, 110), engine::builtin_disc, 3, engine::BlendMode::alpha};
    }
  }
  return out;
}

engine::RenderPath path_of(const benchmark::State& state) {
  return state.range(0) != 0 ? engine::RenderPath::fast : engine::RenderPath::instanced;
}

void per_sprite(benchmark::State& state, std::size_t n) {
  state.counters["per_sprite"] =
      benchmark::Counter(static_cast<double>(n),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
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
BENCHMARK(BM_BatchBuild)->Arg(10000)->Arg(200000);

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
BENCHMARK(BM_BucketSprites)->Arg(10000)->Arg(200000);

void BM_RendererUpload(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(1));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  g_renderer->set_path(path_of(state));
  for (auto _ : state) {
    state.PauseTiming();
    glFinish();
    state.ResumeTiming();
    benchmark::DoNotOptimize(g_renderer->upload(batch));
  }
  state.SetLabel(engine::render_path_name(path_of(state)));
  per_sprite(state, n);
}
BENCHMARK(BM_RendererUpload)->ArgsProduct({{0, 1}, {10000, 200000}})->Unit(benchmark::kMicrosecond);

void BM_RendererSubmit(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(1));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  const engine::Camera2D cam = camera();
  g_renderer->set_path(path_of(state));
  engine::RenderCounters counters;
  for (auto _ : state) {
    state.PauseTiming();
    g_renderer->upload(batch);
    glFinish();
    state.ResumeTiming();
    counters = g_renderer->submit(cam, kWidth, kHeight);
  }
  state.SetLabel(engine::render_path_name(path_of(state)));
  state.counters["draw_calls"] = counters.draw_calls;
  state.counters["splatted"] = counters.splatted;
  per_sprite(state, n);
}
BENCHMARK(BM_RendererSubmit)->ArgsProduct({{0, 1}, {10000, 200000}})->Unit(benchmark::kMicrosecond);

void BM_RendererFrame(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(1));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  const engine::Camera2D cam = camera();
  g_renderer->set_path(path_of(state));
  for (auto _ : state) {
    glClear(GL_COLOR_BUFFER_BIT);
    g_renderer->draw(batch, cam, kWidth, kHeight);
    glFinish();
  }
  state.SetLabel(engine::render_path_name(path_of(state)));
  per_sprite(state, n);
}
BENCHMARK(BM_RendererFrame)
    ->ArgsProduct({{0, 1}, {10000, 100000, 200000}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// One frame of each path per iteration, alternating, on the same batch: the ratio is immune
// to the machine's load drifting between two separate benchmarks.
void BM_FrameSideBySide(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  engine::SpriteBatch batch(n);
  const std::vector<engine::Sprite> src = make_sprites(n);
  batch.push(src.data(), n);
  engine::SpriteBatch corners(2);
  for (const float x : {1.0f, kWidth - 1.0f}) {
    engine::Sprite s;
    s.x = x;
    s.y = x < kWidth * 0.5f ? 1.0f : kHeight - 1.0f;
    s.width = s.height = 2;
    s.cell = engine::builtin_glow;
    s.blend = engine::BlendMode::additive;
    corners.push(s);
  }
  const engine::Camera2D cam = camera();
  const engine::RenderPath paths[3] = {engine::RenderPath::instanced, engine::RenderPath::fast,
                                       engine::RenderPath::fast};
  const engine::SpriteBatch* batches[3] = {&batch, &batch, &corners};
  std::vector<double> ms[3];
  engine::RenderCounters counters[3];
  const auto frame = [&](int p) {
    g_renderer->set_path(paths[p]);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    const auto t0 = std::chrono::steady_clock::now();
    counters[p] = g_renderer->draw(*batches[p], cam, kWidth, kHeight);
    glFinish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (int p = 0; p < 3; ++p) frame(p);  // warm: buffers sized, stamps built
  for (auto _ : state) {
    const double a = frame(0), b = frame(1);
    ms[0].push_back(a);
    ms[1].push_back(b);
    ms[2].push_back(frame(2));
    state.SetIterationTime((a + b) / 1000.0);
  }
  const double old_ms = median(ms[0]), new_ms = median(ms[1]), floor_ms = median(ms[2]);
  state.counters["instanced_ms"] = old_ms;
  state.counters["fast_ms"] = new_ms;
  state.counters["ratio"] = new_ms > 0 ? old_ms / new_ms : 0.0;
  state.counters["floor_ms"] = floor_ms;
  state.counters["fast_over_floor"] = floor_ms > 0 ? new_ms / floor_ms : 0.0;
  state.counters["instanced_ns_per_sprite"] = old_ms * 1e6 / static_cast<double>(n);
  state.counters["fast_ns_per_sprite"] = new_ms * 1e6 / static_cast<double>(n);
  state.counters["splatted"] = counters[1].splatted;
  state.counters["sprites"] = counters[1].sprites;
}
BENCHMARK(BM_FrameSideBySide)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(200000)
    ->Arg(300000)
    ->Iterations(9)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

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
