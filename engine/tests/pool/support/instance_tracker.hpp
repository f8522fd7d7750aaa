#pragma once
// Test support: value types that count their own lifetimes (after Abseil's
// test_instance_tracker), so a test can prove the pool constructs and destroys each object
// exactly once, never destroys an empty slot, and never default-constructs.
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace pool_test {

// Process-wide counts shared by every tracked type below. reset() at the start of a test.
struct Lifetimes {
  static inline long constructed = 0;  // every constructor, including copies and moves
  static inline long destroyed = 0;
  static inline long copies = 0;
  static inline long moves = 0;
  static inline long bad_destructions = 0;  // destructor ran on something that was not alive
  static inline long throw_countdown = -1;  // >0: the Nth constructor from now throws
  static long live() { return constructed - destroyed; }
  static void reset() {
    constructed = destroyed = copies = moves = bad_destructions = 0;
    throw_countdown = -1;
  }
  static void maybe_throw() {  // called by constructors that may throw
    if (throw_countdown > 0 && --throw_countdown == 0) throw std::runtime_error("planned failure");
  }
};

// Copyable, movable, no default constructor. The canary catches double destruction and
// destruction of a slot that never held an object.
class Tracked {
 public:
  explicit Tracked(int value) : value_(value) { born(); }
  Tracked(const Tracked& other) : value_(other.value_) {
    born();
    ++Lifetimes::copies;
  }
  Tracked(Tracked&& other) noexcept : value_(other.value_) {
    born();
    ++Lifetimes::moves;
  }
  Tracked& operator=(const Tracked&) = default;
  Tracked& operator=(Tracked&&) noexcept = default;
  ~Tracked() {
    if (canary_ != kAlive) ++Lifetimes::bad_destructions;
    canary_ = kDead;
    ++Lifetimes::destroyed;
  }
  int value() const { return value_; }
  void set_value(int v) { value_ = v; }
  bool alive() const { return canary_ == kAlive; }

 private:
  static constexpr std::uint64_t kAlive = 0xA11CE5A11CE5A11Cull;
  static constexpr std::uint64_t kDead = 0xDEADDEADDEADDEADull;
  void born() {
    canary_ = kAlive;
    ++Lifetimes::constructed;
  }
  int value_;
  std::uint64_t canary_ = 0;
};

// Like Tracked, but its value constructor and copy constructor can be told to throw, and
// its move is not noexcept: the pool must copy it when relocating (strong guarantee).
class ThrowingTracked {
 public:
  explicit ThrowingTracked(int value) : inner_((Lifetimes::maybe_throw(), value)) {}
  ThrowingTracked(const ThrowingTracked& other) : inner_((Lifetimes::maybe_throw(), other.inner_)) {}
  ThrowingTracked(ThrowingTracked&& other) : inner_(std::move(other.inner_)) {}  // NOLINT: may throw by contract
  int value() const { return inner_.value(); }

 private:
  Tracked inner_;
};

// Move-only (owns a unique_ptr), non-default-constructible.
class MoveOnlyTracked {
 public:
  explicit MoveOnlyTracked(int value) : value_(std::make_unique<int>(value)), tracked_(value) {}
  MoveOnlyTracked(MoveOnlyTracked&&) noexcept = default;
  MoveOnlyTracked& operator=(MoveOnlyTracked&&) noexcept = default;
  int value() const { return value_ ? *value_ : -1; }

 private:
  std::unique_ptr<int> value_;
  Tracked tracked_;
};

// Over-aligned: must land on a 64-byte boundary in both storage modes.
struct alignas(64) AlignedTracked {
  explicit AlignedTracked(int value) : tracked(value) {}
  Tracked tracked;
  unsigned char padding[40] = {};
};

}  // namespace pool_test
