#pragma once
// game::GameApp: the shooter as engine::Application sees it (AppHooks). Maps the runtime's
// InputState onto game::Input, steps the Simulation, hands its sprites to the batch, logs
// per-frame timings and allocations for the report and pool growths for the overlay, and
// draws a small HUD (score, lives, wave) with ImGui.
#include "frame_log.hpp"
#include "simulation.hpp"

#include <engine/application.hpp>

#include <cstdint>

namespace game {

class GameApp : public engine::AppHooks {
 public:
  GameApp(Simulation& sim, engine::Application& app, std::uint64_t warmup_frames);

  void fixed_update(const engine::InputState& input, double dt) override;
  void render(engine::RenderContext& context) override;
  void imgui() override;

  // The frames recorded so far (timings from engine::FrameStats, allocations counted here).
  FrameSummary summary() const { return log_.summary(); }
  static Input map_input(const engine::InputState& input, Vec2 player);

 private:
  Simulation& sim_;
  engine::Application& app_;
  FrameLog log_;
  std::uint64_t frame_allocs_ = 0;  // operator new calls in this frame's steps
  bool frame_grew_ = false;         // a store grew in this frame's steps
  bool logged_frame_grew_ = false;  // the same, for the frame FrameStats committed last
  std::uint64_t last_logged_frame_ = ~std::uint64_t{0};
  std::size_t growth_records_seen_ = 0;
};

}  // namespace game
