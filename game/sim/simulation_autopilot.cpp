// Simulation::autopilot_input: the input --autofire plays with, a pure function of the
// seed and the game state, so an autofire run is as reproducible as a recorded one.
#include "sim/simulation.hpp"

#include "sim/rng.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace game {

Input Simulation::autopilot_input() const {
  Input in;
  // Fire in bursts, 5 s on and 2 s off: the escalation climbs to about x100 and cools again,
  // so an autofire run shows the meter at work and stays light enough for the test suites.
  in.fire = std::fmod(game_time_, 7.0f) < 5.0f;
  const float w = scenario_.world_width;
  const float h = scenario_.world_height;
  // Strafe along a Lissajous path whose phase comes from the seed.
  const float phase = random_unit(seed_, 0, Purpose::autopilot_phase) * 6.2831853f;
  const float t = game_time_;
  const Vec2 target{w * 0.5f + w * 0.38f * std::sin(t * 0.55f + phase),
                    h * 0.14f + h * 0.07f * std::sin(t * 1.3f + 2 * phase)};
  const Vec2 to = target - player_.pos;
  in.move_x = std::clamp(to.x / 60.0f, -1.0f, 1.0f);
  in.move_y = std::clamp(to.y / 60.0f, -1.0f, 1.0f);

  // Aim at the nearest on-screen enemy; equal distances go to the lower spawn number, so
  // the choice does not depend on the order the store visits enemies in.
  float best = std::numeric_limits<float>::max();
  std::uint64_t best_seq = 0;
  in.aim = player_.pos + Vec2{0, 100};
  enemies_.store().for_each([&](const Enemy& e) {
    if (e.hp <= 0 || e.gone || e.pos.y > h) return;
    const float d = length_squared(e.pos - player_.pos);
    if (d < best || (d == best && e.seq < best_seq)) {
      best = d;
      best_seq = e.seq;
      in.aim = e.pos;
    }
  });
  in.restart = game_over_ && game_over_time_ >= 3.0f;
  return in;
}

Input Simulation::with_autopilot(const Input& player) const {
  // Autofire fires and aims; it never swallows the player: a stick or key that moves the
  // ship moves it, the player's own fire aims where the player points, restart restarts.
  Input in = autopilot_input();
  if (player.move_x != 0 || player.move_y != 0) {
    in.move_x = player.move_x;
    in.move_y = player.move_y;
  }
  if (player.fire) {
    in.fire = true;
    in.aim = player.aim;
  }
  in.restart = in.restart || player.restart;
  return in;
}

}  // namespace game
