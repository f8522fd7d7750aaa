#pragma once
// The game's 2D vector: world units (1 unit = 1 pixel at zoom 1), y pointing up.
#include <cmath>

namespace game {

inline constexpr float kPi = 3.14159265358979f;  // half a turn, in radians
inline constexpr float kDegrees = kPi / 180.0f;  // one degree, in radians

struct Vec2 {
  float x = 0, y = 0;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator*(Vec2 a, float s) noexcept { return {a.x * s, a.y * s}; }
constexpr float dot(Vec2 a, Vec2 b) noexcept { return a.x * b.x + a.y * b.y; }
constexpr float length_squared(Vec2 a) noexcept { return dot(a, a); }
inline Vec2 from_angle(float radians, float length) noexcept {
  return {std::cos(radians) * length, std::sin(radians) * length};
}
// Interpolates render positions between two fixed steps (alpha in [0, 1]).
constexpr Vec2 lerp(Vec2 a, Vec2 b, float alpha) noexcept { return a + (b - a) * alpha; }

}  // namespace game
