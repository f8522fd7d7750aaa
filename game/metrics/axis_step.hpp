#pragma once
// game::nice_step: the gridline spacing both graphs use (the overlay's frame-time graph and the
// --compare PNG chart), so their axes are labelled the same way.
#include <cmath>

namespace game {

// 1, 2 or 5 times a power of ten, at least `rough`; 1 for a zero, negative or NaN `rough`.
inline double nice_step(double rough) {
  if (!(rough > 0)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= rough) return m * power;
  return 10 * power;
}

}  // namespace game
