#include <engine/sprite_renderer.hpp>

#include <engine/screenshot.hpp>

#include "gl_test_support.hpp"

#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace {

using engine::BlendMode;
using engine::Sprite;
using test_support::Rgb;

std::string shader_dir() { return test_support::asset_dir() + "/shaders"; }

Sprite sprite(float x, float y, float w, float h, std::uint32_t color, std::uint16_t cell = 0, std::uint8_t layer = 0,
              BlendMode blend = BlendMode::alpha, float rotation = 0.0f) {
  Sprite s;
  s.x = x;
  s.y = y;
  s.width = w;
  s.height = h;
  s.color = color;
  s.cell = cell;
  s.layer = layer;
  s.blend = blend;
  s.rotation = rotation;
  return s;
}

constexpr int kWidth = 320;
constexpr int kHeight = 240;
constexpr Rgb kBackground{10, 20, 30};

// Every test runs on both paths: RenderPath::fast must draw what instanced draws.
class SpriteRendererTest : public testing::TestWithParam<engine::RenderPath> {
 protected:
  void SetUp() override {
    POOLSHOT_REQUIRE_GL(window_, kWidth, kHeight);
    const engine::Status s = renderer_.init(shader_dir());
    ASSERT_TRUE(s) << s.message();
    renderer_.set_path(GetParam());
    // The test's own atlas: 16 px cells: 0 white, 1 green, 2 fully transparent.
    atlas_path_ = test_support::temp_path("cells.png");
    ASSERT_TRUE(engine::write_png(atlas_path_, test_support::solid_cells(16, {0xffffffffu, 0xff00ff00u, 0x00ffffffu})));
    const engine::Status a = renderer_.load_atlas(atlas_path_, 16);
    ASSERT_TRUE(a) << a.message();
    // World = window pixels with y up: world (x, y) lands on screen (x, kHeight - y).
    camera_.viewport = {static_cast<float>(kWidth), static_cast<float>(kHeight)};
    camera_.center = {kWidth / 2.0f, kHeight / 2.0f};
  }
  void TearDown() override {
    renderer_.shutdown();
    window_.close();
    SDL_Quit();
  }
  engine::RenderCounters draw(const engine::SpriteBatch& batch) {
    glViewport(0, 0, kWidth, kHeight);
    glClearColor(kBackground.r / 255.0f, kBackground.g / 255.0f, kBackground.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    return renderer_.draw(batch, camera_, kWidth, kHeight);
  }
  // Screenshot to PNG and back, as a player's screenshot would be read.
  engine::Image screenshot() {
    const std::string path = test_support::temp_path("frame.png");
    const engine::Status s = engine::save_screenshot(path, kWidth, kHeight);
    EXPECT_TRUE(s) << s.message();
    engine::Image img;
    EXPECT_TRUE(engine::load_png(path, img));
    return img;
  }

  engine::Window window_;
  engine::SpriteRenderer renderer_;
  engine::Camera2D camera_;
  std::string atlas_path_;
};

#define EXPECT_PIXEL(img, x, y, expected)                                                                      \
  EXPECT_TRUE(test_support::near(test_support::rgb_at(img, x, y), expected))                                   \
      << "pixel (" << (x) << "," << (y) << ") is " << test_support::to_string(test_support::rgb_at(img, x, y)) \
      << ", expected " << test_support::to_string(expected)

TEST_P(SpriteRendererTest, SpritesLandWhereTheCameraSaysInTheirColours) {
  engine::SpriteBatch batch;
  batch.push(sprite(60, 180, 40, 40, engine::rgba(255, 0, 0)));          // red: screen (60, 60)
  batch.push(sprite(160, 180, 40, 40, engine::rgba(255, 255, 255), 1));  // cell 1 = green texels
  batch.push(sprite(260, 180, 40, 40, engine::rgba(255, 255, 255), 2));  // cell 2 = transparent
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, 1u);
  EXPECT_EQ(counters.sprites, 3u);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 60, 60, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 45, 45, (Rgb{255, 0, 0}));   // inside, near a corner
  EXPECT_PIXEL(img, 60, 85, kBackground);        // just below the sprite
  EXPECT_PIXEL(img, 60, 180, kBackground);       // world y = 60: the sprite is at y = 180, not here
  EXPECT_PIXEL(img, 160, 60, (Rgb{0, 255, 0}));  // the atlas cell decides the colour
  EXPECT_PIXEL(img, 260, 60, kBackground);       // transparent texels leave the background
  EXPECT_PIXEL(img, 5, 235, kBackground);
}

TEST_P(SpriteRendererTest, AdditiveOverlapIsBrighterThanEitherSprite) {
  engine::SpriteBatch batch;
  const std::uint32_t dim_red = engine::rgba(100, 0, 0);
  batch.push(sprite(140, 60, 40, 40, dim_red, 0, 0, BlendMode::additive));  // screen x 120..160
  batch.push(sprite(160, 60, 40, 40, dim_red, 0, 0, BlendMode::additive));  // screen x 140..180
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, 1u);
  const engine::Image img = screenshot();
  const int y = kHeight - 60;
  EXPECT_PIXEL(img, 130, y, (Rgb{110, 20, 30}));  // one sprite: background + 100
  EXPECT_PIXEL(img, 150, y, (Rgb{210, 20, 30}));  // both: background + 200
  EXPECT_PIXEL(img, 170, y, (Rgb{110, 20, 30}));
  EXPECT_PIXEL(img, 190, y, kBackground);
}

TEST_P(SpriteRendererTest, AlphaSpritesCoverInsteadOfAdding) {
  engine::SpriteBatch batch;
  batch.push(sprite(140, 60, 40, 40, engine::rgba(100, 0, 0)));
  batch.push(sprite(160, 60, 40, 40, engine::rgba(100, 0, 0)));
  batch.push(sprite(60, 60, 40, 40, engine::rgba(0, 0, 255, 128)));  // half-transparent blue
  draw(batch);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 150, kHeight - 60, (Rgb{100, 0, 0}));  // overlap: the later one covers, no sum
  // 50% blue over the background: 0.5 * 255 + 0.5 * 30 for blue.
  EXPECT_PIXEL(img, 60, kHeight - 60, (Rgb{5, 10, 143}));
}

TEST_P(SpriteRendererTest, HigherLayersDrawOnTopWhateverTheSubmissionOrder) {
  engine::SpriteBatch batch;
  batch.push(sprite(160, 120, 20, 20, engine::rgba(0, 0, 255), 0, /*layer=*/2));
  batch.push(sprite(160, 120, 60, 60, engine::rgba(255, 255, 0), 0, /*layer=*/1));  // pushed later, below
  batch.push(sprite(160, 120, 100, 100, engine::rgba(0, 255, 0), 0, /*layer=*/0));
  batch.push(sprite(160, 120, 100, 10, engine::rgba(0, 40, 0), 0, /*layer=*/1, BlendMode::additive));
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, 4u);  // (0,alpha) (1,alpha) (1,additive) (2,alpha)
  EXPECT_EQ(counters.sprites, 4u);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 160, 120, (Rgb{0, 0, 255}));    // layer 2 on top
  EXPECT_PIXEL(img, 160, 100, (Rgb{255, 255, 0}));  // layer 1 ring
  EXPECT_PIXEL(img, 160, 80, (Rgb{0, 255, 0}));     // layer 0 border
  EXPECT_PIXEL(img, 180, 120, (Rgb{255, 255, 0}));  // the additive bar adds 40 green to 255: saturates
  EXPECT_PIXEL(img, 205, 120, (Rgb{0, 255, 0}));    // 255 + 40 saturates on green too
  EXPECT_PIXEL(img, 160, 20, kBackground);
}

TEST_P(SpriteRendererTest, ATranslucentAlphaSpriteOverAnAdditiveOneBlendsTheSame) {
  // The fast path stamps the alpha sprite into the additive sprite's image (nothing lies between
  // them) and draws that image once, as "over": the same colours as two separate blends.
  engine::SpriteBatch batch;
  batch.push(sprite(100, 100, 40, 40, engine::rgba(100, 0, 0), 0, 1, BlendMode::additive));
  batch.push(sprite(100, 100, 20, 20, engine::rgba(0, 0, 255, 128), 0, 2));
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, GetParam() == engine::RenderPath::instanced ? 2u : 1u);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 100, 140, (Rgb{55, 10, 143}));  // (0, 0, 128) + (110, 20, 30) * 127 / 255
  EXPECT_PIXEL(img, 115, 140, (Rgb{110, 20, 30}));  // the additive sprite alone (y up: row 240 - 100)
  EXPECT_PIXEL(img, 130, 140, kBackground);
}

TEST_P(SpriteRendererTest, RotationIsCounterClockwiseInTheWorld) {
  engine::SpriteBatch batch;
  // A bar 80 wide, 6 tall, turned +45 degrees: counter-clockwise with y up, so it rises to the right.
  batch.push(sprite(160, 120, 80, 6, engine::rgba(255, 255, 255), 0, 0, BlendMode::alpha, 0.78539816f));
  draw(batch);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 160 + 20, 120 - 20, (Rgb{255, 255, 255}));  // up and right on screen
  EXPECT_PIXEL(img, 160 - 20, 120 + 20, (Rgb{255, 255, 255}));  // down and left
  EXPECT_PIXEL(img, 160 + 20, 120 + 20, kBackground);           // clockwise would put it here
  EXPECT_PIXEL(img, 160 + 30, 120, kBackground);                // the unturned bar would be here
}

TEST_P(SpriteRendererTest, TenThousandSpritesInTwoDrawCalls) {
  engine::SpriteBatch batch;
  for (int i = 0; i < 10000; ++i) {
    const float x = 2.0f + static_cast<float>(i % 100) * 3.0f;  // 100 x 100 grid of 2x2 dots
    const float y = 2.0f + static_cast<float>(i / 100) * 2.0f;
    batch.push(sprite(x, y, 2, 1, engine::rgba(255, 255, 255), 0, 0, i % 2 ? BlendMode::additive : BlendMode::alpha));
  }
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, 2u);
  EXPECT_EQ(counters.sprites, 10000u);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_P(SpriteRendererTest, HundredThousandSpritesStayAHandfulOfDrawCalls) {
  engine::SpriteBatch batch(100000);
  for (int i = 0; i < 100000; ++i) {  // 1x1 dots: the point is the call count, not fill rate
    batch.push(sprite(static_cast<float>(i % 300) + 10.0f, static_cast<float>((i / 300) % 220) + 10.0f, 1, 1,
                      engine::rgba(255, 128, 0), 0, static_cast<std::uint8_t>(i % 3),
                      i % 2 ? BlendMode::additive : BlendMode::alpha));
  }
  const engine::RenderCounters counters = draw(batch);
  // Instanced: 3 layers x 2 blend modes. Fast: one image per group, except that each alpha
  // group after an additive one stamps over that group's image.
  EXPECT_EQ(counters.draw_calls, GetParam() == engine::RenderPath::instanced ? 6u : 4u);
  EXPECT_EQ(counters.sprites, 100000u);
  if (GetParam() == engine::RenderPath::instanced) {
    EXPECT_GE(renderer_.buffer_capacity(), 100000u);
  } else {
    EXPECT_EQ(counters.splatted, 100000u);  // 1x1 dots: all stamped, no instance buffer needed
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_P(SpriteRendererTest, UploadOnceSubmitTwiceDrawsTheSameSprites) {
  engine::SpriteBatch batch;
  batch.push(sprite(60, 180, 40, 40, engine::rgba(255, 0, 0)));
  batch.push(sprite(160, 180, 40, 40, engine::rgba(0, 0, 255), 0, 3, BlendMode::additive));
  EXPECT_EQ(renderer_.upload(batch), 2u);
  batch.clear();  // the upload owns its copy: the game may refill the batch at once
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const engine::RenderCounters first = renderer_.submit(camera_, kWidth, kHeight);
  const engine::RenderCounters second = renderer_.submit(camera_, kWidth, kHeight);
  EXPECT_EQ(first.draw_calls, 2u);
  EXPECT_EQ(second.draw_calls, 2u);
  EXPECT_EQ(second.sprites, 2u);
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 60, 60, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 160, 60, (Rgb{0, 0, 255}));  // additive blue, drawn twice over black: still 255
}

// prepare() is the CPU's half (the application runs it before the previous frame's swap): it
// draws nothing, and the submit() after it draws what draw() would.
TEST_P(SpriteRendererTest, PrepareDrawsNothingAndSubmitDrawsWhatItPrepared) {
  engine::SpriteBatch batch;
  batch.push(sprite(60, 180, 40, 40, engine::rgba(255, 0, 0)));
  batch.push(sprite(160, 180, 6, 6, engine::rgba(0, 0, 255), 0, 3, BlendMode::additive));
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  EXPECT_EQ(renderer_.upload(batch), 2u);
  renderer_.prepare(camera_, kWidth, kHeight);
  glFinish();
  const engine::Image before = screenshot();
  EXPECT_PIXEL(before, 60, 60, (Rgb{0, 0, 0}));
  EXPECT_PIXEL(before, 160, 60, (Rgb{0, 0, 0}));
  const engine::RenderCounters counters = renderer_.submit(camera_, kWidth, kHeight);
  EXPECT_EQ(counters.sprites, 2u);
  EXPECT_EQ(counters.splatted, GetParam() == engine::RenderPath::fast ? 2u : 0u);  // both are small
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 60, 60, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 160, 60, (Rgb{0, 0, 255}));
}

TEST_P(SpriteRendererTest, EmptyBatchDrawsNothing) {
  engine::SpriteBatch batch;
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.draw_calls, 0u);
  EXPECT_EQ(counters.sprites, 0u);
  EXPECT_PIXEL(screenshot(), 160, 120, kBackground);
}

TEST_P(SpriteRendererTest, ABadAtlasIsAnErrorAndTheOldOneKeepsDrawing) {
  const std::string bogus = test_support::temp_path("bogus.png");
  {
    std::ofstream f(bogus, std::ios::binary);
    f << "GIF89a definitely not a PNG";
  }
  const engine::Status s = renderer_.load_atlas(bogus, 16);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(bogus), std::string::npos) << s.message();
  EXPECT_EQ(renderer_.atlas().columns(), 3);  // still the test atlas
  engine::SpriteBatch batch;
  batch.push(sprite(160, 120, 20, 20, engine::rgba(255, 255, 255), 1));
  draw(batch);
  EXPECT_PIXEL(screenshot(), 160, 120, (Rgb{0, 255, 0}));
}

TEST_P(SpriteRendererTest, MissingShaderDirectoryIsAnErrorNamingTheFile) {
  engine::SpriteRenderer other;
  const engine::Status s = other.init("/no/such/shaders");
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("/no/such/shaders/sprite.vert"), std::string::npos) << s.message();
  EXPECT_FALSE(other.ready());
  engine::SpriteBatch batch;
  batch.push(sprite(1, 1, 1, 1, 0xffffffffu));
  EXPECT_EQ(other.draw(batch, camera_, kWidth, kHeight).draw_calls, 0u);  // refuses quietly, no crash
}

TEST_P(SpriteRendererTest, ABrokenShaderIsAnErrorWithTheInfoLog) {
  const std::string dir = test_support::temp_path("shaders");
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  std::ifstream good(shader_dir() + "/sprite.frag");
  std::ofstream(dir + "/sprite.frag") << good.rdbuf();
  std::ofstream(dir + "/sprite.vert") << "#version 330 core\nvoid main() { gl_Position = vec4(oops); }\n";
  engine::SpriteRenderer other;
  const engine::Status s = other.init(dir);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(dir + "/sprite.vert"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("oops"), std::string::npos) << s.message();
  EXPECT_FALSE(other.ready());
}

std::string path_name(const testing::TestParamInfo<engine::RenderPath>& param) {
  return engine::render_path_name(param.param);
}

// --- Each kind of game sprite, on both paths -------------------------------------------------

TEST_P(SpriteRendererTest, PointSizedAdditiveParticlesLandAndBrighten) {
  engine::SpriteBatch batch;
  const std::uint32_t dim_red = engine::rgba(100, 0, 0);
  // 1x1 sprites centred on pixel centres: world (100.5, 100.5) is window row 100 from the bottom.
  batch.push(sprite(100.5f, 100.5f, 1, 1, dim_red, 0, 2, BlendMode::additive));
  batch.push(sprite(200.5f, 100.5f, 1, 1, dim_red, 0, 2, BlendMode::additive));
  batch.push(sprite(200.5f, 100.5f, 1, 1, dim_red, 0, 1, BlendMode::additive));  // another layer, same pixel
  const engine::RenderCounters counters = draw(batch);
  EXPECT_EQ(counters.sprites, 3u);
  if (GetParam() == engine::RenderPath::fast) {
    EXPECT_EQ(counters.splatted, 3u);
  }
  const engine::Image img = screenshot();
  const int row = kHeight - 1 - 100;
  EXPECT_PIXEL(img, 100, row, (Rgb{110, 20, 30}));  // one particle: background + 100
  EXPECT_PIXEL(img, 200, row, (Rgb{210, 20, 30}));  // two: additive, brighter
  EXPECT_PIXEL(img, 101, row, kBackground);         // and nothing beside them
  EXPECT_PIXEL(img, 100, row - 1, kBackground);
}

TEST_P(SpriteRendererTest, SmallAlphaBulletsCoverTheParticlesBelowThem) {
  engine::SpriteBatch batch;
  batch.push(sprite(160, 120, 6, 8, engine::rgba(255, 255, 0), 0, 4));                      // bullet, pushed first
  batch.push(sprite(160, 120, 12, 12, engine::rgba(0, 60, 0), 0, 2, BlendMode::additive));  // spark under it
  batch.push(sprite(60, 120, 6, 8, engine::rgba(0, 0, 255, 128), 0, 4));                    // half-transparent bullet
  const engine::RenderCounters counters = draw(batch);
  if (GetParam() == engine::RenderPath::fast) {
    EXPECT_EQ(counters.splatted, 3u);
  }
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 160, 120, (Rgb{255, 255, 0}));  // the bullet's layer is on top
  EXPECT_PIXEL(img, 165, 120, (Rgb{10, 80, 30}));   // beside the bullet: background + 60 green
  EXPECT_PIXEL(img, 60, 120, (Rgb{5, 10, 143}));    // 50% blue over the background
}

TEST_P(SpriteRendererTest, LargeAndSmallSpritesAreTexturedFromTheirCell) {
  // One 32-px cell: left half red, right half blue, so a sprite shows which way its texture runs.
  engine::Image cell = test_support::solid_cells(32, {0xff0000ffu});
  for (int y = 0; y < 32; ++y)
    for (int x = 16; x < 32; ++x) {
      const std::size_t i = (static_cast<std::size_t>(y) * 32 + static_cast<std::size_t>(x)) * 4;
      cell.rgba[i + 0] = 0;
      cell.rgba[i + 2] = 255;
    }
  const std::string path = test_support::temp_path("halves.png");
  ASSERT_TRUE(engine::write_png(path, cell));
  ASSERT_TRUE(renderer_.load_atlas(path, 32));
  engine::SpriteBatch batch;
  batch.push(sprite(100, 120, 96, 96, engine::rgba(255, 255, 255), 0, 3));  // an enemy: large
  batch.push(sprite(250, 120, 24, 24, engine::rgba(255, 255, 255), 0, 4));  // a bullet: small
  const engine::RenderCounters counters = draw(batch);
  if (GetParam() == engine::RenderPath::fast) {
    EXPECT_EQ(counters.splatted, 1u);  // the large one is a GL quad
  }
  const engine::Image img = screenshot();
  EXPECT_PIXEL(img, 70, 120, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 130, 120, (Rgb{0, 0, 255}));
  EXPECT_PIXEL(img, 242, 120, (Rgb{255, 0, 0}));
  EXPECT_PIXEL(img, 258, 120, (Rgb{0, 0, 255}));
}

// --- The fast path itself ----------------------------------------------------------------------

class FastPathTest : public SpriteRendererTest {};

// Sparks, smoke, trail, bullets and a few enemies, as the game draws during held fire.
engine::SpriteBatch game_like_batch(std::size_t n) {
  engine::SpriteBatch batch(n);
  std::uint32_t state = 12345u;
  const auto unit = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const float x = unit() * kWidth, y = unit() * kHeight, kind = unit(), size = unit(), turn = unit() * 6.2831853f;
    if (kind < 0.55f) {
      const float len = 3 + 9 * size;
      batch.push(sprite(x, y, len * 0.5f, len, engine::rgba(90, 60, 20), 0, 2, BlendMode::additive, turn));
    } else if (kind < 0.70f) {
      batch.push(sprite(x, y, 3 + 5 * size, 3 + 5 * size, engine::rgba(20, 30, 60), 0, 1, BlendMode::additive));
    } else if (kind < 0.99f) {
      batch.push(sprite(x, y, 6, 8, engine::rgba(255, 240, 120), 0, 4, BlendMode::alpha, turn));
    } else {
      batch.push(sprite(x, y, 40, 40, engine::rgba(255, 110, 110), 1, 3, BlendMode::alpha, turn));
    }
  }
  return batch;
}

TEST_P(FastPathTest, SwitchingPathsAtRunTimeDrawsTheSameFrame) {
  const engine::SpriteBatch batch = game_like_batch(3000);
  renderer_.set_path(engine::RenderPath::instanced);
  EXPECT_EQ(renderer_.path(), engine::RenderPath::instanced);
  const engine::RenderCounters old_counters = draw(batch);
  const engine::Image old_frame = screenshot();
  renderer_.set_path(engine::RenderPath::fast);
  EXPECT_EQ(renderer_.path(), engine::RenderPath::fast);
  const engine::RenderCounters new_counters = draw(batch);
  const engine::Image new_frame = screenshot();
  renderer_.set_path(engine::RenderPath::instanced);
  const engine::RenderCounters back_counters = draw(batch);

  EXPECT_EQ(old_counters.sprites, 3000u);
  EXPECT_EQ(new_counters.sprites, 3000u);
  EXPECT_EQ(old_counters.splatted, 0u);
  EXPECT_GT(new_counters.splatted, 2900u);  // all but the enemies
  EXPECT_EQ(back_counters.splatted, 0u);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  // The same picture up to quantised stamps (half-pixel positions and sizes, 64 rotations).
  // Measured here: mean 4.98 of 255, 95.0% of pixels within 16; what differs is the hard edges
  // of these solid test cells moving by up to a quarter pixel.
  double total = 0;
  std::size_t close = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const Rgb a = test_support::rgb_at(old_frame, x, y), b = test_support::rgb_at(new_frame, x, y);
      const int d = std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
      total += (std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b)) / 3.0;
      close += d <= 16 ? 1u : 0u;
    }
  const double pixels = static_cast<double>(kWidth) * kHeight;
  const double mean = total / pixels;
  const double close_share = static_cast<double>(close) / pixels;
  RecordProperty("mean_abs_diff", std::to_string(mean));
  RecordProperty("close_share", std::to_string(close_share));
  EXPECT_LT(mean, 6.0);
  EXPECT_GT(close_share, 0.93);
}

TEST_P(FastPathTest, ABatchIsSubmittedByThePathThatUploadedIt) {
  engine::SpriteBatch batch;
  batch.push(sprite(60, 60, 4, 4, engine::rgba(255, 0, 0), 0, 0, BlendMode::additive));
  ASSERT_EQ(renderer_.upload(batch), 1u);
  renderer_.set_path(engine::RenderPath::instanced);  // takes effect at the next upload
  EXPECT_EQ(renderer_.submit(camera_, kWidth, kHeight).splatted, 1u);
  ASSERT_EQ(renderer_.upload(batch), 1u);
  EXPECT_EQ(renderer_.submit(camera_, kWidth, kHeight).splatted, 0u);
}

TEST_P(FastPathTest, ASubPixelParticleStillShows) {
  engine::SpriteBatch batch;
  // Half a pixel wide and tall, centred on a pixel corner: no pixel centre lies inside it, so
  // a GL quad may cover nothing; the stamp keeps its energy (a quarter) in one pixel instead.
  batch.push(sprite(100, 100, 0.5f, 0.5f, engine::rgba(200, 200, 200), 0, 2, BlendMode::additive));
  draw(batch);
  const engine::Image img = screenshot();
  int brightest = 0;
  for (int y = kHeight - 103; y < kHeight - 97; ++y)
    for (int x = 97; x < 103; ++x) brightest = std::max(brightest, test_support::rgb_at(img, x, y).r);
  EXPECT_EQ(brightest, 10 + 50);  // background 10 + 200 / 4
}

TEST_P(FastPathTest, InAnAlphaLayerSmallSpritesDrawOverLargeOnes) {
  // The one ordering the fast path changes: within one alpha (layer, blend) group, stamped
  // sprites are composited after the group's GL quads, whatever the submission order.
  engine::SpriteBatch batch;
  batch.push(sprite(160, 120, 8, 8, engine::rgba(255, 0, 0), 0, 3));      // small, pushed first
  batch.push(sprite(160, 120, 100, 100, engine::rgba(0, 255, 0), 0, 3));  // large, pushed later
  draw(batch);
  EXPECT_PIXEL(screenshot(), 160, 120, (Rgb{255, 0, 0}));
}

// --- auto: the path from the GL_RENDERER string (pure, no GL) --------------------------------

TEST(ChooseRenderPath, SoftwareGlGetsFastAndAGpuGetsInstanced) {
  for (const char* software :
       {"llvmpipe (LLVM 15.0.6, 256 bits)", "LLVMPIPE (LLVM 17.0.6, 128 bits)", "softpipe", "Gallium 0.4 on SoftPipe",
        "Mesa swrast", "Software Rasterizer", "SOFTWARE RASTERIZER"}) {
    EXPECT_TRUE(engine::is_software_renderer(software)) << software;
    EXPECT_EQ(engine::choose_render_path(software), engine::RenderPath::fast) << software;
  }
  // Real GPUs, including a Mesa one that names its LLVM back end (not llvmpipe).
  for (const char* gpu : {"NVIDIA H200/PCIe/SSE2", "NVIDIA GeForce RTX 4090/PCIe/SSE2",
                          "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6, DRM 3.54, 6.5.0)",
                          "Mesa Intel(R) UHD Graphics 630 (CFL GT2)", "Apple M2", "llvm", "pipe", "Software"}) {
    EXPECT_FALSE(engine::is_software_renderer(gpu)) << gpu;
    EXPECT_EQ(engine::choose_render_path(gpu), engine::RenderPath::instanced) << gpu;
  }
  // GL said nothing: fast, whose cost is bounded on any GL.
  EXPECT_FALSE(engine::is_software_renderer(nullptr));
  EXPECT_EQ(engine::choose_render_path(nullptr), engine::RenderPath::fast);
  EXPECT_EQ(engine::choose_render_path(""), engine::RenderPath::fast);
}

INSTANTIATE_TEST_SUITE_P(Fast, FastPathTest, testing::Values(engine::RenderPath::fast), path_name);

INSTANTIATE_TEST_SUITE_P(BothPaths, SpriteRendererTest,
                         testing::Values(engine::RenderPath::instanced, engine::RenderPath::fast), path_name);

}  // namespace
