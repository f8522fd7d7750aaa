#include <engine/detail/sprite_splat.hpp>

#include <engine/pool/worker_team.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace engine::detail {

namespace {

constexpr float kTwoPi = 6.28318530717958648f;
constexpr int kMaxHalfPixels = 255;                // size key: 8 bits of half pixels
constexpr std::size_t kMaxArenaPixels = 8u << 20;  // 32 MiB of stamps, then trim() starts again
constexpr std::uint64_t kOccupied = std::uint64_t{1} << 40;
constexpr std::size_t kThreadedEntries = 8192;  // below this, one thread queues, bins and stamps a job

constexpr std::uint32_t div255(std::uint32_t x) noexcept {  // round(x / 255) for x <= 65025
  x += 128;
  return (x + (x >> 8)) >> 8;
}

constexpr std::uint32_t channel(std::uint32_t pixel, int i) noexcept { return (pixel >> (8 * i)) & 0xffu; }

// Scalar reference of one pixel; the SIMD rows below compute exactly the same.
inline std::uint32_t add_pixel(std::uint32_t dst, std::uint32_t src, const std::uint32_t k[4]) noexcept {
  std::uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t sum = channel(dst, i) + div255(channel(src, i) * k[i]);
    out |= std::min(sum, 255u) << (8 * i);
  }
  return out;
}
inline std::uint32_t over_pixel(std::uint32_t dst, std::uint32_t src, const std::uint32_t k[4]) noexcept {
  const std::uint32_t a = div255(channel(src, 3) * k[3]);
  std::uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t s = div255(channel(src, i) * k[i]);
    const std::uint32_t sum = s + div255(channel(dst, i) * (255u - a));
    out |= std::min(sum, 255u) << (8 * i);
  }
  return out;
}

// ((x + 128) * 257) >> 16 equals div255(x) for every x <= 65025: the SIMD blends' one multiply.
constexpr bool mulhi_matches_div255() noexcept {
  for (std::uint32_t x = 0; x <= 65025; ++x) {
    if ((((x + 128) * 257) >> 16) != div255(x)) return false;
  }
  return true;
}
static_assert(mulhi_matches_div255(), "div255_epu16 must round as div255 does");

#if defined(__SSE2__)
// div255() on eight lanes, one multiply instead of two shifts and an add.
inline __m128i div255_epu16(__m128i x) noexcept {
  return _mm_mulhi_epu16(_mm_add_epi16(x, _mm_set1_epi16(128)), _mm_set1_epi16(257));
}

// The tint k (one factor per channel) for two pixels of 16-bit lanes: what the blends multiply by.
inline __m128i tint_epi16(const std::uint32_t k[4]) noexcept {
  const auto r = static_cast<short>(k[0]), g = static_cast<short>(k[1]), b = static_cast<short>(k[2]),
             a = static_cast<short>(k[3]);
  return _mm_setr_epi16(r, g, b, a, r, g, b, a);
}
#endif

// One stamp: `rows` rows of n pixels, dst rows `dst_pitch` pixels apart and src rows `src_pitch`.
// four(dst, src) blends four pixels with SIMD, one(dst, src) returns one blended pixel (the tail,
// and every pixel without SSE2). The blends below build their tint's SIMD form once per stamp,
// not once per row (most stamps are a few pixels).
template <class Four, class One>
void blend_rows(std::uint32_t* dst, std::size_t dst_pitch, const std::uint32_t* src, std::size_t src_pitch, int n,
                int rows, Four&& four, One&& one) noexcept {
  for (int r = 0; r < rows; ++r, dst += dst_pitch, src += src_pitch) {
    int i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) four(dst + i, src + i);
#else
    static_cast<void>(four);
#endif
    for (; i < n; ++i) dst[i] = one(dst[i], src[i]);
  }
}

void add_rows(std::uint32_t* dst, std::size_t dst_pitch, const std::uint32_t* src, std::size_t src_pitch, int n,
              int rows, const std::uint32_t k[4]) noexcept {
#if defined(__SSE2__)
  const __m128i kk = tint_epi16(k);
  const __m128i zero = _mm_setzero_si128();
  const auto four = [&](std::uint32_t* d, const std::uint32_t* s) {
    const __m128i sv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i lo = div255_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(sv, zero), kk));
    const __m128i hi = div255_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(sv, zero), kk));
    __m128i* dv = reinterpret_cast<__m128i*>(d);
    _mm_storeu_si128(dv, _mm_adds_epu8(_mm_loadu_si128(dv), _mm_packus_epi16(lo, hi)));
  };
#else
  const auto four = [](std::uint32_t*, const std::uint32_t*) {};
#endif
  blend_rows(dst, dst_pitch, src, src_pitch, n, rows, four,
             [k](std::uint32_t d, std::uint32_t s) { return add_pixel(d, s, k); });
}

void over_rows(std::uint32_t* dst, std::size_t dst_pitch, const std::uint32_t* src, std::size_t src_pitch, int n,
               int rows, const std::uint32_t k[4]) noexcept {
#if defined(__SSE2__)
  const __m128i kk = tint_epi16(k);
  const __m128i zero = _mm_setzero_si128();
  const __m128i v255 = _mm_set1_epi16(255);
  const auto four = [&](std::uint32_t* d, const std::uint32_t* s) {
    const __m128i sv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    __m128i* dp = reinterpret_cast<__m128i*>(d);
    const __m128i dv = _mm_loadu_si128(dp);
    __m128i out[2];
    for (int half = 0; half < 2; ++half) {
      const __m128i s16 = half == 0 ? _mm_unpacklo_epi8(sv, zero) : _mm_unpackhi_epi8(sv, zero);
      const __m128i d16 = half == 0 ? _mm_unpacklo_epi8(dv, zero) : _mm_unpackhi_epi8(dv, zero);
      const __m128i p = div255_epu16(_mm_mullo_epi16(s16, kk));
      const __m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(p, 0xff), 0xff);  // alpha of each pixel, x4
      const __m128i rest = div255_epu16(_mm_mullo_epi16(d16, _mm_sub_epi16(v255, a)));
      out[half] = _mm_add_epi16(p, rest);
    }
    _mm_storeu_si128(dp, _mm_packus_epi16(out[0], out[1]));
  };
#else
  const auto four = [](std::uint32_t*, const std::uint32_t*) {};
#endif
  blend_rows(dst, dst_pitch, src, src_pitch, n, rows, four,
             [k](std::uint32_t d, std::uint32_t s) { return over_pixel(d, s, k); });
}

// GL_LINEAR with GL_CLAMP_TO_EDGE on a top-row-first image, as the atlas texture samples.
void sample_bilinear(const Image& img, float u, float v, float out[4]) noexcept {
  const float x = u * static_cast<float>(img.width) - 0.5f;
  const float y = v * static_cast<float>(img.height) - 0.5f;
  const float fx0 = std::floor(x), fy0 = std::floor(y);
  const float fx = x - fx0, fy = y - fy0;
  const int x0 = static_cast<int>(fx0), y0 = static_cast<int>(fy0);
  const auto texel = [&](int tx, int ty, int c) {
    tx = std::clamp(tx, 0, img.width - 1);
    ty = std::clamp(ty, 0, img.height - 1);
    const std::size_t i =
        (static_cast<std::size_t>(ty) * static_cast<std::size_t>(img.width) + static_cast<std::size_t>(tx)) * 4;
    return static_cast<float>(img.rgba[i + static_cast<std::size_t>(c)]) * (1.0f / 255.0f);
  };
  for (int c = 0; c < 4; ++c) {
    const float top = texel(x0, y0, c) * (1 - fx) + texel(x0 + 1, y0, c) * fx;
    const float bottom = texel(x0, y0 + 1, c) * (1 - fx) + texel(x0 + 1, y0 + 1, c) * fx;
    out[c] = top * (1 - fy) + bottom * fy;
  }
}

std::uint32_t to_byte(float v) noexcept {
  return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

// std::lround for |v| < 2^31, inline: lroundf is a libm call, and add() rounds five values a
// sprite. v minus its truncation is exact, so halves round away from zero as lround does.
inline int round_half_away(float v) noexcept {
  const int t = static_cast<int>(v);
  const float f = v - static_cast<float>(t);
  return t + static_cast<int>(f >= 0.5f) - static_cast<int>(f <= -0.5f);
}

#if defined(__SSE2__)
// round_half_away() on four lanes (lanes out of int range give garbage, never UB: their sprites
// are rejected by the caller's mask).
inline __m128i round_half_away4(__m128 v) noexcept {
  const __m128i t = _mm_cvttps_epi32(v);
  const __m128 f = _mm_sub_ps(v, _mm_cvtepi32_ps(t));
  const __m128i up = _mm_castps_si128(_mm_cmpge_ps(f, _mm_set1_ps(0.5f)));  // -1 where it rounds up
  const __m128i down = _mm_castps_si128(_mm_cmple_ps(f, _mm_set1_ps(-0.5f)));
  return _mm_add_epi32(_mm_sub_epi32(t, up), down);
}
inline __m128i select4(__m128i mask, __m128i a, __m128i b) noexcept {  // mask ? a : b
  return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}
#endif

// first() and second() on the team's two threads at once (whichever comes first takes the
// next: a late or descheduled worker leaves both to the caller), else one after the other.
template <class First, class Second>
void both_halves(WorkerTeam* team, First&& first, Second&& second) {
  if (team == nullptr || team->active() < 2) {
    first();
    second();
    return;
  }
  (*team)(2, [&](std::size_t k) {
    if (k == 0) {
      first();
    } else {
      second();
    }
  });
}

std::uint64_t hash_key(std::uint64_t key) noexcept { return key * 0x9E3779B97F4A7C15ull; }

}  // namespace

void SplatImage::resize(int w, int h) {
  width = std::max(w, 0);
  height = std::max(h, 0);
  pixels.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0u);
  x0 = y0 = x1 = y1 = 0;
}

void SplatImage::clear() noexcept {
  if (!empty()) {
    const auto span = static_cast<std::size_t>(x1 - x0) * sizeof(std::uint32_t);
    for (int y = y0; y < y1; ++y) {
      std::memset(pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                      static_cast<std::size_t>(x0),
                  0, span);
    }
  }
  x0 = y0 = x1 = y1 = 0;
}

void SpriteSplatter::set_atlas(const Image* atlas, int columns, int rows) {
  atlas_ = atlas;
  columns_ = std::max(columns, 1);
  rows_ = std::max(rows, 1);
  forget_stamps();
}

void SpriteSplatter::trim() noexcept {
  if (arena_.size() > kMaxArenaPixels) forget_stamps();
}

void SpriteSplatter::forget_stamps() noexcept {
  keys_.clear();  // capacity kept; find_or_build() sizes the table again
  slots_.clear();
  stamps_.clear();
  arena_.clear();
}

SpriteSplatter::Stamp SpriteSplatter::build(int qw, int qh, int qrot, int phx, int phy, int cell) {
  Stamp stamp;
  if (atlas_ == nullptr || atlas_->empty()) return stamp;
  // Below a pixel the sprite keeps its energy: rasterised a pixel wide, alpha scaled by the
  // lost width, so a spark of 0.5 px is a dim pixel instead of vanishing at some positions.
  float coverage = 1.0f;
  const float w = std::max(static_cast<float>(qw) * 0.5f, 1.0f);
  const float h = std::max(static_cast<float>(qh) * 0.5f, 1.0f);
  coverage *= std::min(static_cast<float>(qw) * 0.5f, 1.0f) * std::min(static_cast<float>(qh) * 0.5f, 1.0f);
  const float angle = static_cast<float>(qrot) * (kTwoPi / splat_rotation_steps);
  const float c = std::cos(angle), s = std::sin(angle);
  const float centre_x = 0.5f * static_cast<float>(phx), centre_y = 0.5f * static_cast<float>(phy);
  const float ex = 0.5f * (std::fabs(w * c) + std::fabs(h * s)) + 1.0f;
  const float ey = 0.5f * (std::fabs(w * s) + std::fabs(h * c)) + 1.0f;
  const int bx0 = static_cast<int>(std::floor(centre_x - ex)), bx1 = static_cast<int>(std::ceil(centre_x + ex));
  const int by0 = static_cast<int>(std::floor(centre_y - ey)), by1 = static_cast<int>(std::ceil(centre_y + ey));
  const int bw = bx1 - bx0, bh = by1 - by0;
  scratch_.assign(static_cast<std::size_t>(bw) * static_cast<std::size_t>(bh), 0u);

  // The cell's uv box exactly as sprite.vert computes it (wrapped cell, half-texel inset).
  const int cells = columns_ * rows_;
  const int wrapped = cell % cells;
  const float cu = 1.0f / static_cast<float>(columns_), cv = 1.0f / static_cast<float>(rows_);
  const float lo_u = static_cast<float>(wrapped % columns_) * cu + 0.5f / static_cast<float>(atlas_->width);
  const float lo_v = static_cast<float>(wrapped / columns_) * cv + 0.5f / static_cast<float>(atlas_->height);
  const float hi_u = static_cast<float>(wrapped % columns_) * cu + cu - 0.5f / static_cast<float>(atlas_->width);
  const float hi_v = static_cast<float>(wrapped / columns_) * cv + cv - 0.5f / static_cast<float>(atlas_->height);

  int tx0 = bw, ty0 = bh, tx1 = 0, ty1 = 0;  // tight box of visible pixels
  for (int j = 0; j < bh; ++j) {
    for (int i = 0; i < bw; ++i) {
      const float dx = static_cast<float>(bx0 + i) + 0.5f - centre_x;
      const float dy = static_cast<float>(by0 + j) + 0.5f - centre_y;
      const float lx = (c * dx + s * dy) / w;  // rotate back by -angle, into [-0.5, 0.5)
      const float ly = (-s * dx + c * dy) / h;
      if (lx < -0.5f || lx >= 0.5f || ly < -0.5f || ly >= 0.5f) continue;
      const float tu = lx + 0.5f, tv = 0.5f - ly;  // image top is the sprite's +y
      float texel[4];
      sample_bilinear(*atlas_, lo_u + (hi_u - lo_u) * tu, lo_v + (hi_v - lo_v) * tv, texel);
      const float a = texel[3] * coverage;
      const std::uint32_t px =
          to_byte(texel[0] * a) | (to_byte(texel[1] * a) << 8) | (to_byte(texel[2] * a) << 16) | (to_byte(a) << 24);
      if (px == 0) continue;
      scratch_[static_cast<std::size_t>(j) * static_cast<std::size_t>(bw) + static_cast<std::size_t>(i)] = px;
      tx0 = std::min(tx0, i);
      ty0 = std::min(ty0, j);
      tx1 = std::max(tx1, i + 1);
      ty1 = std::max(ty1, j + 1);
    }
  }
  if (tx1 <= tx0 || ty1 <= ty0) return stamp;  // nothing visible (a transparent cell)
  stamp.offset = static_cast<std::uint32_t>(arena_.size());
  stamp.ox = static_cast<std::int16_t>(bx0 + tx0);
  stamp.oy = static_cast<std::int16_t>(by0 + ty0);
  // Rows padded with transparent pixels to a multiple of 4: the blend loops then run whole
  // SIMD steps (a transparent pixel changes nothing in either blend).
  const int padded = (tx1 - tx0 + 3) & ~3;
  stamp.w = static_cast<std::uint16_t>(padded);
  stamp.h = static_cast<std::uint16_t>(ty1 - ty0);
  for (int j = ty0; j < ty1; ++j) {
    const std::uint32_t* row = scratch_.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(bw);
    const int copy_end = std::min(tx0 + padded, bw);
    arena_.insert(arena_.end(), row + tx0, row + copy_end);
    arena_.insert(arena_.end(), static_cast<std::size_t>(tx0 + padded - copy_end), 0u);
  }
  return stamp;
}

std::uint32_t SpriteSplatter::find(std::uint64_t key) const noexcept {
  if (keys_.empty()) return kNoStamp;
  const std::size_t mask = keys_.size() - 1;
  for (std::size_t at = static_cast<std::size_t>(hash_key(key) >> 40) & mask; keys_[at] != 0; at = (at + 1) & mask) {
    if (keys_[at] == key) return slots_[at];
  }
  return kNoStamp;
}

std::uint32_t SpriteSplatter::find_or_build(std::uint64_t key) {
  if (const std::uint32_t hit = find(key); hit != kNoStamp) return hit;
  const auto free_slot = [this](std::uint64_t k) {
    const std::size_t mask = keys_.size() - 1;
    std::size_t at = static_cast<std::size_t>(hash_key(k) >> 40) & mask;
    while (keys_[at] != 0) at = (at + 1) & mask;
    return at;
  };
  if ((stamps_.size() + 1) * 2 > keys_.size()) {  // keep the table at most half full (4096 slots at first)
    std::vector<std::uint64_t> old_keys(std::max(keys_.size() * 2, std::size_t{1} << 12), 0);
    std::vector<std::uint32_t> old_slots(old_keys.size(), 0);
    old_keys.swap(keys_);
    old_slots.swap(slots_);
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_keys[i] == 0) continue;
      const std::size_t to = free_slot(old_keys[i]);
      keys_[to] = old_keys[i];
      slots_[to] = old_slots[i];
    }
  }
  const std::size_t at = free_slot(key);
  const auto index = static_cast<std::uint32_t>(stamps_.size());
  // The key holds what the stamp is built from (place()).
  stamps_.push_back(build(static_cast<int>((key >> 16) & 0xffu), static_cast<int>((key >> 8) & 0xffu),
                          static_cast<int>((key >> 2) & 0x3fu), static_cast<int>((key >> 1) & 1u),
                          static_cast<int>(key & 1u), static_cast<int>((key >> 24) & 0xffffu)));
  keys_[at] = key;
  slots_[at] = index;
  return index;
}

bool SpriteSplatter::place(const PixelSprite& sprite, int width, int height, Placement& out) noexcept {
  // Off the image (or not a number): nothing to draw. 1e6 keeps the int conversions safe.
  if (!(std::fabs(sprite.cx) < 1e6f && std::fabs(sprite.cy) < 1e6f && sprite.w > 0 && sprite.h > 0)) return false;
  constexpr float kHalfPixelsLimit = 2.0f * kMaxHalfPixels;  // clamped before rounding: any size is safe
  const int qw = std::clamp(round_half_away(std::min(sprite.w * 2.0f, kHalfPixelsLimit)), 1, kMaxHalfPixels);
  const int qh = std::clamp(round_half_away(std::min(sprite.h * 2.0f, kHalfPixelsLimit)), 1, kMaxHalfPixels);
  const float steps = sprite.rotation * (splat_rotation_steps / kTwoPi);
  // round(steps) mod 64, in [0, 64): the low bits of the two's complement. NaN, huge: upright.
  static_assert((splat_rotation_steps & (splat_rotation_steps - 1)) == 0, "a power of two");
  const int qrot = std::fabs(steps) < 1e9f ? round_half_away(steps) & (splat_rotation_steps - 1) : 0;
  const int x2 = round_half_away(sprite.cx * 2.0f), y2 = round_half_away(sprite.cy * 2.0f);  // half pixels
  const int base_x = x2 >> 1, base_y = y2 >> 1;  // floor(x2 / 2): an arithmetic shift
  const int phx = x2 & 1, phy = y2 & 1;
  // Cheap reject before touching the cache: the stamp lies within its rotated extent.
  const int reach = (std::max(qw, qh) + 3) / 2 + 2;
  if (base_x + reach < 0 || base_y + reach < 0 || base_x - reach >= width || base_y - reach >= height) return false;
  out.key = kOccupied | (std::uint64_t{sprite.cell} << 24) | (std::uint64_t(qw) << 16) | (std::uint64_t(qh) << 8) |
            (std::uint64_t(qrot) << 2) | (std::uint64_t(phx) << 1) | std::uint64_t(phy);
  out.base_x = static_cast<std::int32_t>(base_x);
  out.base_y = static_cast<std::int32_t>(base_y);
  // Colour as the blend sees it: premultiplied tint (rgb * a, a).
  const std::uint32_t a = channel(sprite.color, 3);
  out.tint = div255(channel(sprite.color, 0) * a) | (div255(channel(sprite.color, 1) * a) << 8) |
             (div255(channel(sprite.color, 2) * a) << 16) | (a << 24);
  return true;
}

unsigned SpriteSplatter::place4(const PixelSprite* sprites, int width, int height, Placement* out) noexcept {
#if defined(__SSE2__)
  // Lane j is sprite j; every step is place()'s, on four lanes.
  static_assert(offsetof(PixelSprite, cy) == 4 && offsetof(PixelSprite, w) == 8 && offsetof(PixelSprite, h) == 12,
                "cx, cy, w, h: one 16-byte load");
  const auto fields = [](const PixelSprite& p) { return _mm_loadu_ps(reinterpret_cast<const float*>(&p)); };
  __m128 cx = fields(sprites[0]), cy = fields(sprites[1]), w = fields(sprites[2]), h = fields(sprites[3]);
  _MM_TRANSPOSE4_PS(cx, cy, w, h);  // rows (cx, cy, w, h) of each sprite -> one vector per field
  const __m128 rotation =
      _mm_setr_ps(sprites[0].rotation, sprites[1].rotation, sprites[2].rotation, sprites[3].rotation);
  const __m128 sign = _mm_set1_ps(-0.0f), zero = _mm_setzero_ps(), limit = _mm_set1_ps(1e6f);
  __m128 ok = _mm_and_ps(_mm_cmplt_ps(_mm_andnot_ps(sign, cx), limit), _mm_cmplt_ps(_mm_andnot_ps(sign, cy), limit));
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmpgt_ps(w, zero), _mm_cmpgt_ps(h, zero)));
  const __m128 half_pixels_limit = _mm_set1_ps(2.0f * kMaxHalfPixels);
  const __m128i one = _mm_set1_epi32(1), max_half = _mm_set1_epi32(kMaxHalfPixels);
  const auto size_key = [&](__m128 size) {  // clamp(round(min(size * 2, limit)), 1, kMaxHalfPixels)
    __m128i q = round_half_away4(_mm_min_ps(_mm_add_ps(size, size), half_pixels_limit));
    q = select4(_mm_cmplt_epi32(q, one), one, q);
    return select4(_mm_cmpgt_epi32(q, max_half), max_half, q);
  };
  const __m128i qw = size_key(w), qh = size_key(h);
  const __m128 steps = _mm_mul_ps(rotation, _mm_set1_ps(splat_rotation_steps / kTwoPi));
  const __m128i turnable = _mm_castps_si128(_mm_cmplt_ps(_mm_andnot_ps(sign, steps), _mm_set1_ps(1e9f)));
  const __m128i qrot =
      _mm_and_si128(_mm_and_si128(round_half_away4(steps), _mm_set1_epi32(splat_rotation_steps - 1)), turnable);
  const __m128i x2 = round_half_away4(_mm_add_ps(cx, cx)), y2 = round_half_away4(_mm_add_ps(cy, cy));
  const __m128i base_x = _mm_srai_epi32(x2, 1), base_y = _mm_srai_epi32(y2, 1);
  const __m128i longer = select4(_mm_cmpgt_epi32(qw, qh), qw, qh);
  const __m128i reach = _mm_add_epi32(_mm_srai_epi32(_mm_add_epi32(longer, _mm_set1_epi32(3)), 1), _mm_set1_epi32(2));
  const __m128i vzero = _mm_setzero_si128();
  __m128i off = _mm_or_si128(_mm_cmplt_epi32(_mm_add_epi32(base_x, reach), vzero),
                             _mm_cmplt_epi32(_mm_add_epi32(base_y, reach), vzero));
  // base - reach >= size, as base - reach > size - 1
  off = _mm_or_si128(off, _mm_cmpgt_epi32(_mm_sub_epi32(base_x, reach), _mm_set1_epi32(width - 1)));
  off = _mm_or_si128(off, _mm_cmpgt_epi32(_mm_sub_epi32(base_y, reach), _mm_set1_epi32(height - 1)));
  const unsigned kept = static_cast<unsigned>(_mm_movemask_ps(_mm_andnot_ps(_mm_castsi128_ps(off), ok)));
  if (kept == 0) return 0;
  // The key's low 24 bits: size, turn and half-pixel phase.
  __m128i low = _mm_or_si128(_mm_slli_epi32(qw, 16), _mm_slli_epi32(qh, 8));
  low = _mm_or_si128(low, _mm_slli_epi32(qrot, 2));
  low = _mm_or_si128(low, _mm_or_si128(_mm_slli_epi32(_mm_and_si128(x2, one), 1), _mm_and_si128(y2, one)));
  // Premultiplied tints: (r, g, b) * a / 255 and a, as div255(c * k) with k = (a, a, a, 255).
  const __m128i colors = _mm_setr_epi32(static_cast<int>(sprites[0].color), static_cast<int>(sprites[1].color),
                                        static_cast<int>(sprites[2].color), static_cast<int>(sprites[3].color));
  const __m128i alpha_lane = _mm_setr_epi16(0, 0, 0, -1, 0, 0, 0, -1);
  const auto premultiply = [&](__m128i c16) {
    const __m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(c16, 0xff), 0xff);
    const __m128i k = select4(alpha_lane, _mm_set1_epi16(255), a);
    return div255_epu16(_mm_mullo_epi16(c16, k));
  };
  const __m128i tints =
      _mm_packus_epi16(premultiply(_mm_unpacklo_epi8(colors, vzero)), premultiply(_mm_unpackhi_epi8(colors, vzero)));
  alignas(16) std::int32_t lows[4], bx[4], by[4];
  alignas(16) std::uint32_t tint[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(lows), low);
  _mm_store_si128(reinterpret_cast<__m128i*>(bx), base_x);
  _mm_store_si128(reinterpret_cast<__m128i*>(by), base_y);
  _mm_store_si128(reinterpret_cast<__m128i*>(tint), tints);
  for (int j = 0; j < 4; ++j) {
    out[j].key = kOccupied | (std::uint64_t{sprites[j].cell} << 24) | static_cast<std::uint32_t>(lows[j]);
    out[j].base_x = bx[j];
    out[j].base_y = by[j];
    out[j].tint = tint[j];
  }
  return kept;
#else
  unsigned kept = 0;
  for (int j = 0; j < 4; ++j) kept |= place(sprites[j], width, height, out[j]) ? 1u << j : 0u;
  return kept;
#endif
}

bool SpriteSplatter::entry_for(const Placement& at, std::uint32_t index, int width, int height,
                               SplatJob::Entry& e) const noexcept {
  const Stamp& stamp = stamps_[index];
  if (stamp.w == 0) return false;
  e.left = at.base_x + stamp.ox;
  e.bottom = at.base_y + stamp.oy;
  if (e.left >= width || e.bottom >= height || e.left + stamp.w <= 0 || e.bottom + stamp.h <= 0) return false;
  e.stamp = index;
  e.tint = at.tint;
  return true;
}

void SpriteSplatter::add(SplatJob& job, const PixelSprite& sprite, int width, int height) {
  Placement at;
  if (!place(sprite, width, height, at)) return;
  SplatJob::Entry e;
  // After a threaded add_all() the queue ends in its second half: later sprites go after it.
  if (entry_for(at, find_or_build(at.key), width, height, e)) (job.tail.empty() ? job.entries : job.tail).push_back(e);
}

void SpriteSplatter::add_all(SplatJob& job, std::size_t count, SpriteSource source, const void* context, int width,
                             int height) {
  if (count < kThreadedEntries || team_ == nullptr || team_->active() < 2) {
    for (std::size_t i = 0; i < count; ++i) add(job, source(context, i), width, height);
    return;
  }
  job.entries.insert(job.entries.end(), job.tail.begin(), job.tail.end());  // an earlier add_all's second half
  job.tail.clear();
  // Each half looks stamps up without building any (the cache is only read while both run): a
  // miss leaves a placeholder entry and is built afterwards, here, in queue order, so stamps
  // are built in the order one thread would have built them.
  struct Miss {
    std::size_t entry;
    Placement at;
  };
  std::vector<Miss> misses[2];
  const auto add_half = [&](std::vector<SplatJob::Entry>& entries, std::vector<Miss>& misses_out, std::size_t from,
                            std::size_t to) {
    // Filled as locals (capacity kept): the two threads' vectors would share a cache line.
    std::vector<SplatJob::Entry> out;
    std::vector<Miss> missed;
    out.swap(entries);
    missed.swap(misses_out);
    const auto queue = [&](const Placement& at) {
      const std::uint32_t index = find(at.key);
      if (index == kNoStamp) {
        missed.push_back({out.size(), at});
        out.emplace_back();
        return;
      }
      SplatJob::Entry e;
      if (entry_for(at, index, width, height, e)) out.push_back(e);
    };
    std::size_t i = from;
    PixelSprite four[4];
    Placement placed[4];
    for (; i + 4 <= to; i += 4) {
      for (std::size_t j = 0; j < 4; ++j) four[j] = source(context, i + j);
      const unsigned kept = place4(four, width, height, placed);
      for (unsigned j = 0; j < 4; ++j) {
        if ((kept >> j & 1u) != 0) queue(placed[j]);
      }
    }
    for (; i < to; ++i) {
      Placement at;
      if (place(source(context, i), width, height, at)) queue(at);
    }
    out.swap(entries);
    missed.swap(misses_out);
  };
  const std::size_t first_half = job.entries.size();
  both_halves(
      team_, [&] { add_half(job.entries, misses[0], 0, count / 2); },
      [&] { add_half(job.tail, misses[1], count / 2, count); });
  bool dropped = false;
  for (int half = 0; half < 2; ++half) {
    std::vector<SplatJob::Entry>& out = half == 0 ? job.entries : job.tail;
    for (const Miss& miss : misses[half]) {
      if (!entry_for(miss.at, find_or_build(miss.at.key), width, height, out[miss.entry])) {
        out[miss.entry].stamp = kNoStamp;
        dropped = true;
      }
    }
  }
  if (dropped) {  // stamps that turned out empty or off the image
    const auto dead = [](const SplatJob::Entry& e) { return e.stamp == kNoStamp; };
    job.entries.erase(std::remove_if(job.entries.begin() + static_cast<std::ptrdiff_t>(first_half), job.entries.end(),
                                     dead),
                      job.entries.end());
    job.tail.erase(std::remove_if(job.tail.begin(), job.tail.end(), dead), job.tail.end());
  }
}

void SpriteSplatter::stamp_rows(const SplatJob::Entry& e, SplatBlend blend, SplatImage& target, int row0,
                                int row1) const noexcept {
  const Stamp& stamp = stamps_[e.stamp];
  const int sx0 = std::max(e.left, 0), sx1 = std::min(e.left + stamp.w, target.width);
  const int sy0 = std::max({e.bottom, row0, 0}), sy1 = std::min({e.bottom + stamp.h, row1, target.height});
  if (sx1 <= sx0 || sy1 <= sy0) return;
  // Additive stamps leave alpha as it was: an additive image's composite ignores it, and an
  // image that alpha stamps then cover (SpriteRenderer's merged layer) keeps only their coverage.
  const std::uint32_t k[4] = {channel(e.tint, 0), channel(e.tint, 1), channel(e.tint, 2),
                              blend == SplatBlend::add ? 0u : channel(e.tint, 3)};
  const auto pitch = static_cast<std::size_t>(target.width);
  std::uint32_t* dst = target.pixels.data() + static_cast<std::size_t>(sy0) * pitch + static_cast<std::size_t>(sx0);
  const std::uint32_t* src = arena_.data() + stamp.offset + static_cast<std::size_t>(sy0 - e.bottom) * stamp.w +
                             static_cast<std::size_t>(sx0 - e.left);
  if (blend == SplatBlend::add) {
    add_rows(dst, pitch, src, stamp.w, sx1 - sx0, sy1 - sy0, k);
  } else {
    over_rows(dst, pitch, src, stamp.w, sx1 - sx0, sy1 - sy0, k);
  }
}

void SpriteSplatter::run(SplatJob& job, SplatImage& target) const {
  if ((job.entries.empty() && job.tail.empty()) || target.width <= 0 || target.height <= 0) return;
  // Bin entries into the bands their rows cross (counting sort, order kept), so each band's
  // pixels stay in cache while its stamps land; a stamp across a border is drawn in both
  // bands, each clipped to its rows. A large job is binned by two threads, each counting and
  // then copying one half of the entries: the first half's go first in every band.
  const int bands = (target.height + splat_band_rows - 1) / splat_band_rows;
  const auto band_count = static_cast<std::size_t>(bands);
  // The two halves: add_all()'s (entries, then tail), else entries cut in two.
  const std::size_t n = job.entries.size() + job.tail.size();
  WorkerTeam* const team = n >= kThreadedEntries ? team_ : nullptr;
  const bool cut = job.tail.empty();
  const SplatJob::Entry* halves[2] = {job.entries.data(), cut ? job.entries.data() + n / 2 : job.tail.data()};
  const std::size_t sizes[2] = {cut ? n / 2 : job.entries.size(), cut ? n - n / 2 : job.tail.size()};
  job.band_first.assign(band_count + 1, 0);
  // Per band, the entries of each half (counts, then cursors); the halves' rows 16 words apart,
  // so the two threads never write one cache line.
  const std::size_t stride = band_count + 16;
  job.band_next.assign(2 * stride, 0);
  const auto band_range = [&](const SplatJob::Entry& e, int& first, int& last) {
    const Stamp& st = stamps_[e.stamp];
    first = std::max(e.bottom, 0) / splat_band_rows;
    last = (std::min(e.bottom + st.h, target.height) - 1) / splat_band_rows;
  };
  struct Box {
    int x0, y0, x1, y1;
  };
  Box box[2] = {{target.width, target.height, 0, 0}, {target.width, target.height, 0, 0}};
  const auto count = [&](int part) {
    std::uint32_t* counts = job.band_next.data() + static_cast<std::size_t>(part) * stride;
    Box bb = box[part];  // a local: the other thread writes the other box
    for (std::size_t i = 0; i < sizes[part]; ++i) {
      const SplatJob::Entry& e = halves[part][i];
      int first = 0, last = 0;
      band_range(e, first, last);
      for (int b = first; b <= last; ++b) ++counts[b];
      const Stamp& st = stamps_[e.stamp];
      bb.x0 = std::min(bb.x0, std::max(e.left, 0));
      bb.y0 = std::min(bb.y0, std::max(e.bottom, 0));
      bb.x1 = std::max(bb.x1, std::min(e.left + st.w, target.width));
      bb.y1 = std::max(bb.y1, std::min(e.bottom + st.h, target.height));
    }
    box[part] = bb;
  };
  const auto copy = [&](int part) {
    std::uint32_t* cursors = job.band_next.data() + static_cast<std::size_t>(part) * stride;
    for (std::size_t i = 0; i < sizes[part]; ++i) {
      const SplatJob::Entry& e = halves[part][i];
      int first = 0, last = 0;
      band_range(e, first, last);
      for (int b = first; b <= last; ++b) job.binned[cursors[b]++] = e;
    }
  };
  both_halves(
      team, [&] { count(0); }, [&] { count(1); });
  for (std::size_t b = 0; b < band_count; ++b) {
    std::uint32_t& first_half = job.band_next[b];
    std::uint32_t& second_half = job.band_next[stride + b];
    const std::uint32_t entries = first_half + second_half;
    first_half = job.band_first[b];  // counts become cursors
    second_half = job.band_first[b] + (entries - second_half);
    job.band_first[b + 1] = job.band_first[b] + entries;
  }
  job.binned.resize(job.band_first.back());
  both_halves(
      team, [&] { copy(0); }, [&] { copy(1); });
  const int bx0 = std::min(box[0].x0, box[1].x0), by0 = std::min(box[0].y0, box[1].y0);
  const int bx1 = std::max(box[0].x1, box[1].x1), by1 = std::max(box[0].y1, box[1].y1);
  const auto stamp_bands = [&](int from, int to) {
    for (int b = from; b < to; ++b) {
      const int row0 = b * splat_band_rows, row1 = row0 + splat_band_rows;
      const std::uint32_t end = job.band_first[static_cast<std::size_t>(b) + 1];
      for (std::uint32_t at = job.band_first[static_cast<std::size_t>(b)]; at < end; ++at) {
        stamp_rows(job.binned[at], job.blend, target, row0, row1);
      }
    }
  };
  // Bands own disjoint rows, so two threads can stamp at once: the lower bands and the upper
  // ones, split where half the entries are. llvmpipe's own threads are idle meanwhile (nothing
  // has been submitted yet). Small jobs are not worth a second thread.
  const std::uint32_t middle = job.band_first.back() / 2;
  int split = 0;
  while (split < bands && job.band_first[static_cast<std::size_t>(split) + 1] < middle) ++split;
  both_halves(
      team, [&] { stamp_bands(0, split); }, [&] { stamp_bands(split, bands); });
  if (bx1 <= bx0 || by1 <= by0) return;
  if (target.empty()) {
    target.x0 = bx0, target.y0 = by0, target.x1 = bx1, target.y1 = by1;
  } else {
    target.x0 = std::min(target.x0, bx0), target.y0 = std::min(target.y0, by0);
    target.x1 = std::max(target.x1, bx1), target.y1 = std::max(target.y1, by1);
  }
}

void SpriteSplatter::splat(SplatImage& target, SplatBlend blend, const PixelSprite& sprite) {
  one_.clear(blend);
  add(one_, sprite, target.width, target.height);
  run(one_, target);
}

}  // namespace engine::detail
