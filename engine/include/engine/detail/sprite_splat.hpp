#pragma once
// engine::detail: the CPU half of RenderPath::fast. On software GL (Mesa llvmpipe) every
// primitive costs ~200 ns of vertex shading, setup and binning on the calling thread, even a
// 1-pixel GL_POINT, so 200k sprites cannot be cheap as 200k primitives. Small sprites are
// instead stamped into an RGBA8 image here and the image is drawn as one quad.
//
// A stamp is one sprite rasterised the way sprite.vert/.frag would: pixel centres inside the
// rotated rectangle, the atlas sampled bilinearly at the same uv (half-texel inset),
// premultiplied. It is built once per (cell, size, rotation, half-pixel phase) and reused by
// every sprite with that key: half-pixel sizes and positions, 64 rotation steps.
#include <engine/image.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine {
class WorkerTeam;
}

namespace engine::detail {

// Sprites up to this long on screen are stamped. In the storm scenario (646k sprites) 32, 64
// and 128 gave render p50 55, 55, 53 ms but p99 407, 143, 146 ms: smoke puffs grow past 32 px
// and llvmpipe's fragment shading of them then dominates.
constexpr float splat_max_pixels = 64.0f;
constexpr int splat_rotation_steps = 64;  // rotation is quantised to 2*pi / 64 (5.6 degrees)

// Premultiplied RGBA8 pixels (R in the lowest byte), row 0 = the BOTTOM row, as GL's
// window coordinates: pixel (x, y) is the fragment at gl_FragCoord (x + 0.5, y + 0.5).
struct SplatImage {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // half-open box written since the last clear()

  void resize(int w, int h);  // all pixels zero, box empty
  void clear() noexcept;      // zeroes the box only: a sparse frame clears little
  bool empty() const noexcept { return x1 <= x0 || y1 <= y0; }
  std::uint32_t at(int x, int y) const noexcept {
    return pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
  }
};

enum class SplatBlend : std::uint8_t {
  add,   // dst.rgb += src.rgb * src.a, saturating, alpha kept: BlendMode::additive
  over,  // premultiplied "over": BlendMode::alpha, composited with (ONE, ONE_MINUS_SRC_ALPHA)
};

// A sprite in window pixels (GL orientation: y up), as the splatter takes it.
struct PixelSprite {
  float cx = 0, cy = 0;  // centre
  float w = 1, h = 1;    // size in pixels
  float rotation = 0;    // radians, counter-clockwise
  std::uint32_t color = 0xffffffffu;
  std::uint16_t cell = 0;
};

// One image's worth of stamps, in draw order: built by SpriteSplatter::add(), drawn by
// SpriteSplatter::run(). Kept apart so the cache is only written while adding, and the
// drawing can walk the image band by band (cache-sized), in order within each band.
struct SplatJob {
  struct Entry {
    std::int32_t left = 0, bottom = 0;  // the stamp's bottom-left pixel in the image
    std::uint32_t stamp = 0;            // index into the splatter's stamps
    std::uint32_t tint = 0;             // premultiplied tint (rgb * a, a), RGBA8
  };
  SplatBlend blend = SplatBlend::add;
  std::vector<Entry> entries;
  std::vector<Entry> tail;                // add_all()'s second half and what follows it: after entries
  std::vector<std::uint32_t> band_first;  // run(): entries per band, as offsets into binned
  std::vector<Entry> binned;              // copies, band by band: read in order, no pointer chase
  std::vector<std::uint32_t> band_next;   // run(): per band, each half's count, then its cursor
  void clear(SplatBlend b) noexcept {
    blend = b;
    entries.clear();
    tail.clear();
  }
};

constexpr int splat_band_rows = 32;  // 32 rows x 1280 px x 4 B = 160 KiB: stays in L2

class SpriteSplatter {
 public:
  // The atlas the stamps sample (the renderer's CPU copy); forgets every stamp. The image
  // must outlive the splatter's use of it.
  void set_atlas(const Image* atlas, int columns, int rows);
  // Queues one sprite for a width x height image (building its stamp if new). Sprites that
  // land entirely off the image are dropped here. Sprites larger than splat_max_pixels work
  // too (only slower); the renderer sends those to GL instead.
  void add(SplatJob& job, const PixelSprite& sprite, int width, int height);
  // add() for sprites 0..count-1 of a source, source(context, i) the i-th: many of them are
  // queued by two threads (set_team), each half of them (the stamps they miss are built afterwards, on
  // this thread, in queue order). The same job as add() one by one.
  using SpriteSource = PixelSprite (*)(const void* context, std::size_t i);
  void add_all(SplatJob& job, std::size_t count, SpriteSource source, const void* context, int width, int height);
  // Between frames: forgets every stamp once they hold more than 32 MiB (a stream of new keys),
  // never while a queued job still refers to them.
  void trim() noexcept;
  // Stamps the job into target, band by band; each band sees its entries in queue order,
  // so alpha ("over") stamps stack exactly as queued. A large job is binned and stamped by
  // the team's two threads (disjoint rows).
  void run(SplatJob& job, SplatImage& target) const;
  // add() + run() for one sprite: tests and one-offs.
  void splat(SplatImage& target, SplatBlend blend, const PixelSprite& sprite);

  // The threads a large job's queueing, binning and stamping share (the caller and one more);
  // none, or a team of one: the calling thread does all of it. The team must outlive its use.
  void set_team(WorkerTeam* team) noexcept { team_ = team; }

  std::size_t stamp_count() const noexcept { return stamps_.size(); }
  std::size_t stamp_pixels() const noexcept { return arena_.size(); }
  void forget_stamps() noexcept;

 private:
  struct Stamp {
    std::uint32_t offset = 0;     // first pixel in arena_
    std::int16_t ox = 0, oy = 0;  // bottom-left pixel relative to the sprite's base pixel
    std::uint16_t w = 0, h = 0;   // 0 x 0: nothing visible
  };
  // A sprite's stamp key (cell, size, rotation, half-pixel phase), base pixel and tint.
  struct Placement {
    std::uint64_t key = 0;
    std::int32_t base_x = 0, base_y = 0;
    std::uint32_t tint = 0;
  };
  static constexpr std::uint32_t kNoStamp = 0xffffffffu;
  static bool place(const PixelSprite& sprite, int width, int height, Placement& out) noexcept;  // false: off it
  // place() for four sprites at once (SSE2, the same results): bit j of the result says whether
  // out[j] was placed.
  static unsigned place4(const PixelSprite* sprites, int width, int height, Placement* out) noexcept;
  bool entry_for(const Placement& at, std::uint32_t stamp, int width, int height, SplatJob::Entry& e) const noexcept;
  std::uint32_t find(std::uint64_t key) const noexcept;  // kNoStamp when not built; reads only
  std::uint32_t find_or_build(std::uint64_t key);
  Stamp build(int qw, int qh, int qrot, int phx, int phy, int cell);
  void stamp_rows(const SplatJob::Entry& e, SplatBlend blend, SplatImage& target, int row0, int row1) const noexcept;

  const Image* atlas_ = nullptr;
  int columns_ = 1, rows_ = 1;
  std::vector<std::uint64_t> keys_;   // open addressing, power-of-two size; 0 = empty
  std::vector<std::uint32_t> slots_;  // stamp index per key slot
  std::vector<Stamp> stamps_;
  std::vector<std::uint32_t> arena_;    // all stamps' pixels, premultiplied RGBA8
  std::vector<std::uint32_t> scratch_;  // one stamp while it is built
  WorkerTeam* team_ = nullptr;
  SplatJob one_;  // splat()'s job
};

}  // namespace engine::detail
