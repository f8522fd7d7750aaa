// engine::detail::SpriteSplatter without GL: the blend arithmetic (SIMD rows and the scalar
// tail agree), stamp reuse, clipping, "over" order across band borders, and two threads'
// queueing, binning and stamping against one thread's.
#include <engine/detail/sprite_splat.hpp>

#include <engine/pool/worker_team.hpp>
#include <engine/sprite.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

using engine::detail::PixelSprite;
using engine::detail::SplatBlend;
using engine::detail::SplatImage;
using engine::detail::SpriteSplatter;

// A 1-cell atlas of opaque white: every covered pixel of a stamp is (255, 255, 255, 255).
engine::Image white_cell() {
  engine::Image img;
  img.width = img.height = 8;
  img.rgba.assign(8 * 8 * 4, 255);
  return img;
}

PixelSprite at(float cx, float cy, float w, float h, std::uint32_t color) {
  PixelSprite p;
  p.cx = cx;
  p.cy = cy;
  p.w = w;
  p.h = h;
  p.color = color;
  return p;
}

void fill(SplatImage& img, std::uint32_t value) {
  for (std::uint32_t& p : img.pixels) p = value;
}

class SpriteSplatTest : public testing::Test {
 protected:
  void SetUp() override {
    atlas_ = white_cell();
    splatter_.set_atlas(&atlas_, 1, 1);
    image_.resize(64, 80);
  }
  engine::Image atlas_;
  SpriteSplatter splatter_;
  SplatImage image_;
};

TEST_F(SpriteSplatTest, AddSumsThePremultipliedTintAndSaturates) {
  fill(image_, engine::rgba(100, 100, 100, 100));
  // 4x4 at an integer centre: pixels 8..11 both ways. Tint (200, 100, 50) at alpha 128; the
  // image's alpha stays as it was.
  splatter_.splat(image_, SplatBlend::add, at(10, 10, 4, 4, engine::rgba(200, 100, 50, 128)));
  EXPECT_EQ(image_.at(8, 8), engine::rgba(200, 150, 125, 100));
  EXPECT_EQ(image_.at(11, 11), engine::rgba(200, 150, 125, 100));
  EXPECT_EQ(image_.at(12, 10), engine::rgba(100, 100, 100, 100));  // just outside
  EXPECT_EQ(image_.at(10, 7), engine::rgba(100, 100, 100, 100));
  splatter_.splat(image_, SplatBlend::add, at(10, 10, 4, 4, engine::rgba(200, 100, 50, 128)));
  EXPECT_EQ(image_.at(9, 9), engine::rgba(255, 200, 150, 100));  // red saturates, no wrap-around
  EXPECT_EQ(image_.x0, 8);
  EXPECT_EQ(image_.y0, 8);
  EXPECT_EQ(image_.y1, 12);
}

TEST_F(SpriteSplatTest, OverIsPremultipliedAlphaBlending) {
  fill(image_, engine::rgba(100, 100, 100, 255));
  splatter_.splat(image_, SplatBlend::over, at(10, 10, 4, 4, engine::rgba(0, 0, 255, 128)));
  // src = (0, 0, 128, 128); dst * (255 - 128) / 255 = 50 (alpha: 127).
  EXPECT_EQ(image_.at(9, 9), engine::rgba(50, 50, 178, 255));
}

TEST_F(SpriteSplatTest, ClippedRowsTakeTheScalarTailAndGiveTheSameValues) {
  fill(image_, engine::rgba(100, 100, 100, 100));
  // Centred on the right edge: 3 of its 6 columns land, an odd count for the 4-wide loop.
  splatter_.splat(image_, SplatBlend::add, at(64, 20, 6, 2, engine::rgba(200, 100, 50, 128)));
  for (int x = 61; x < 64; ++x) EXPECT_EQ(image_.at(x, 20), engine::rgba(200, 150, 125, 100)) << x;
  EXPECT_EQ(image_.at(60, 20), engine::rgba(100, 100, 100, 100));
  fill(image_, engine::rgba(100, 100, 100, 255));
  splatter_.splat(image_, SplatBlend::over, at(64, 20, 6, 2, engine::rgba(0, 0, 255, 128)));
  for (int x = 61; x < 64; ++x) EXPECT_EQ(image_.at(x, 20), engine::rgba(50, 50, 178, 255)) << x;
}

TEST_F(SpriteSplatTest, StampsAreSharedByWholePixelMovesOnly) {
  for (int i = 0; i < 100; ++i)
    splatter_.splat(image_, SplatBlend::add, at(5.0f + static_cast<float>(i % 40), 30, 3, 5, 0x10101010u));
  EXPECT_EQ(splatter_.stamp_count(), 1u);
  splatter_.splat(image_, SplatBlend::add, at(5.5f, 30, 3, 5, 0x10101010u));  // half-pixel phase: a new stamp
  EXPECT_EQ(splatter_.stamp_count(), 2u);
  PixelSprite turned = at(5, 30, 3, 5, 0x10101010u);
  turned.rotation = 1.0f;
  splatter_.splat(image_, SplatBlend::add, turned);
  EXPECT_EQ(splatter_.stamp_count(), 3u);
  splatter_.set_atlas(&atlas_, 1, 1);  // a new atlas forgets them
  EXPECT_EQ(splatter_.stamp_count(), 0u);
}

TEST_F(SpriteSplatTest, SpritesOffTheImageLeaveItUntouched) {
  splatter_.splat(image_, SplatBlend::add, at(-40, 10, 4, 4, 0xffffffffu));
  splatter_.splat(image_, SplatBlend::add, at(10, 500, 4, 4, 0xffffffffu));
  splatter_.splat(image_, SplatBlend::add, at(1e30f, 10, 4, 4, 0xffffffffu));
  EXPECT_TRUE(image_.empty());
  for (std::uint32_t p : image_.pixels) ASSERT_EQ(p, 0u);
}

TEST_F(SpriteSplatTest, OverKeepsQueueOrderAcrossBandBorders) {
  // Two opaque 10x10 stamps straddling the row-32 border: the later one wins in both bands.
  engine::detail::SplatJob job;
  job.clear(SplatBlend::over);
  splatter_.add(job, at(20, 32, 10, 10, engine::rgba(255, 0, 0)), image_.width, image_.height);
  splatter_.add(job, at(24, 32, 10, 10, engine::rgba(0, 0, 255)), image_.width, image_.height);
  splatter_.add(job, at(50, 60, 10, 10, engine::rgba(0, 255, 0)), image_.width, image_.height);
  splatter_.run(job, image_);
  EXPECT_EQ(image_.at(22, 30), engine::rgba(0, 0, 255));  // band 0
  EXPECT_EQ(image_.at(22, 34), engine::rgba(0, 0, 255));  // band 1
  EXPECT_EQ(image_.at(16, 34), engine::rgba(255, 0, 0));
  EXPECT_EQ(image_.at(50, 60), engine::rgba(0, 255, 0));
  image_.clear();
  for (std::uint32_t p : image_.pixels) ASSERT_EQ(p, 0u);
}

TEST_F(SpriteSplatTest, ManyStampsOnTwoThreadsMatchOneAtATime) {
  // Past the threading threshold the job is binned and stamped by a team of two (each bins one
  // half of the entries); the result must equal stamping the same sprites one by one: additive
  // sums, and opaque alpha stamps of distinct colours, where only queue order decides a pixel.
  engine::WorkerTeam team(2);
  splatter_.set_team(&team);
  for (const SplatBlend blend : {SplatBlend::add, SplatBlend::over}) {
    SCOPED_TRACE(blend == SplatBlend::add ? "add" : "over");
    SplatImage one;
    one.resize(64, 80);
    image_.resize(64, 80);
    engine::detail::SplatJob job;
    job.clear(blend);
    std::uint32_t seed = 7;
    for (int i = 0; i < 20000; ++i) {
      seed = seed * 1664525u + 1013904223u;
      const std::uint32_t color = blend == SplatBlend::add ? engine::rgba(1, 1, 1) : (seed | 0xff000000u);
      const PixelSprite p = at(static_cast<float>(seed % 64), static_cast<float>((seed >> 8) % 80), 3, 3, color);
      splatter_.add(job, p, image_.width, image_.height);
      splatter_.splat(one, blend, p);
    }
    splatter_.run(job, image_);
    EXPECT_EQ(image_.pixels, one.pixels);
  }
}

TEST_F(SpriteSplatTest, AddAllOnTwoThreadsQueuesWhatAddQueuesOneByOne) {
  // 20003 sprites of many sizes, turns and colours, some reaching off the image, queued by
  // add_all() on a team of two from an empty cache (each half misses its stamps; they are built
  // afterwards, and the entries of those that land off the image dropped): the same entries,
  // the same stamps and the same pixels as add() one by one. add_all() places four sprites at a
  // time with SIMD, add() one: quarter-pixel centres and sizes (whose doubles are exact halves,
  // rounded away from zero), negative turns, any alpha, and now and then a NaN centre, a turn
  // too large to quantise and a size past the largest stamp, in both.
  std::vector<PixelSprite> sprites;
  std::uint32_t seed = 11;
  for (int i = 0; i < 20003; ++i) {
    seed = seed * 1664525u + 1013904223u;
    PixelSprite p =
        at(static_cast<float>(seed % 304) * 0.25f - 6.0f, static_cast<float>((seed >> 8) % 368) * 0.25f - 6.0f,
           static_cast<float>(1 + (seed >> 16) % 24) * 0.25f, 3, seed * 2654435761u);
    p.rotation = 0.3f * static_cast<float>(static_cast<int>((seed >> 20) % 15) - 7);
    if (i % 997 == 0) p.cx = std::numeric_limits<float>::quiet_NaN();
    if (i % 991 == 0) p.rotation = 1e12f;
    if (i % 983 == 0) p.h = 300.0f;
    sprites.push_back(p);
  }
  const auto source = [](const void* context, std::size_t i) {
    return (*static_cast<const std::vector<PixelSprite>*>(context))[i];
  };
  engine::WorkerTeam team(2);
  for (const SplatBlend blend : {SplatBlend::add, SplatBlend::over}) {
    SCOPED_TRACE(blend == SplatBlend::add ? "add" : "over");
    SpriteSplatter threaded, serial;
    threaded.set_atlas(&atlas_, 1, 1);
    serial.set_atlas(&atlas_, 1, 1);
    threaded.set_team(&team);
    engine::detail::SplatJob all, one_by_one;
    all.clear(blend);
    one_by_one.clear(blend);
    threaded.add_all(all, sprites.size(), source, &sprites, image_.width, image_.height);
    for (const PixelSprite& p : sprites) serial.add(one_by_one, p, image_.width, image_.height);
    EXPECT_FALSE(all.tail.empty());  // the second half was queued apart
    // One more opaque sprite over most of the image, queued one by one after them: on top.
    const PixelSprite last = at(32, 40, 50, 60, engine::rgba(10, 200, 30));
    threaded.add(all, last, image_.width, image_.height);
    serial.add(one_by_one, last, image_.width, image_.height);
    EXPECT_EQ(all.entries.size() + all.tail.size(), one_by_one.entries.size());
    EXPECT_EQ(threaded.stamp_count(), serial.stamp_count());
    SplatImage a, b;
    a.resize(64, 80);
    b.resize(64, 80);
    threaded.run(all, a);
    serial.run(one_by_one, b);
    EXPECT_EQ(a.pixels, b.pixels);
  }
}

TEST_F(SpriteSplatTest, AJobKeepsItsStampsWhenTheCacheOutgrowsItsLimit) {
  // 625 large stamps of distinct sizes hold more than the cache's 32 MiB limit: the cache
  // starts again only between frames (trim), never under the entries already queued.
  engine::detail::SplatJob job;
  job.clear(SplatBlend::add);
  for (int i = 0; i < 625; ++i) {
    PixelSprite p =
        at(100, 100, 100.0f + static_cast<float>(i % 25), 100.0f + static_cast<float>(i / 25), engine::rgba(1, 1, 1));
    p.rotation = 0.1f * static_cast<float>(i % 7);
    splatter_.add(job, p, image_.width, image_.height);
  }
  EXPECT_GT(splatter_.stamp_pixels(), std::size_t{8} << 20);
  ASSERT_EQ(job.entries.size(), 625u);
  for (const engine::detail::SplatJob::Entry& e : job.entries) ASSERT_LT(e.stamp, splatter_.stamp_count());
  EXPECT_EQ(job.entries.back().stamp, 624u);  // one stamp each, in order: none was forgotten
  splatter_.trim();
  EXPECT_EQ(splatter_.stamp_count(), 0u);
}

}  // namespace
