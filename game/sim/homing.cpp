#include "sim/homing.hpp"

#include <algorithm>
#include <cmath>

namespace game {

void steer_homing_shot(Bullet& b, const HomingField& field, const HomingConfig& config, std::uint64_t step, float dt,
                       std::uint64_t& stale_refusals) {
  if (!b.homing()) return;
  const Enemy* target = nullptr;
  bool search = b.age == 0.0f || (step + b.seq) % kHomingSeekEvery == 0;
  if (b.target != kSeekingTarget) {
    // contains() first: it counts nothing, so steering can run on several threads at once (the
    // caller reports the refusals to the store afterwards, as get() would have counted them).
    target = field.enemies.contains(b.target) ? field.enemies.get(b.target) : nullptr;
    if (!target) {  // died: its slot may hold a newcomer now, and the check told them apart
      ++stale_refusals;
      b.target = kSeekingTarget;
      search = true;
    }
  }
  if (!target && search) {
    const std::int32_t i = field.grid.nearest_within(b.pos, config.seek_radius,
                                                     [&](const Enemy& e) { return field.screen.contains(e.pos); });
    if (i >= 0) {
      target = field.by_seq[static_cast<std::size_t>(i)];
      b.target = field.handles_by_seq[static_cast<std::size_t>(i)];
    }
  }
  if (!target) return;
  const Vec2 to = target->pos - b.pos;
  const float have = std::atan2(b.vel.y, b.vel.x);
  const float off = std::remainder(std::atan2(to.y, to.x) - have, 2 * kPi);  // -pi..pi: the short way round
  const float limit = config.turn_rate * dt;
  b.vel = from_angle(have + std::clamp(off, -limit, limit), std::sqrt(length_squared(b.vel)));
}

}  // namespace game
