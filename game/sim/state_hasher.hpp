#pragma once
// FNV-1a (64-bit) over a canonical byte stream: fields are fed one by one in a fixed order
// with fixed widths, never as raw structs (padding bytes would leak garbage into the hash).
#include <cstdint>
#include <cstring>

namespace game {

class StateHasher {
 public:
  void add_u64(std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i) add_byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void add_u32(std::uint32_t v) noexcept {
    for (int i = 0; i < 4; ++i) add_byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  // Floats by bit pattern: equal games have bit-equal floats; no tolerance hides a drift.
  void add_f32(float f) noexcept {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    add_u32(bits);
  }
  void add_bool(bool b) noexcept { add_byte(b ? 1 : 0); }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  void add_byte(std::uint8_t b) noexcept {
    hash_ ^= b;
    hash_ *= 0x100000001b3ull;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace game
