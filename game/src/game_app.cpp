#include "game_app.hpp"

#include "alloc_counter.hpp"
#include "headless_run.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>

namespace game {

GameApp::GameApp(Simulation& sim, engine::Application& app, std::uint64_t warmup_frames)
    : sim_(sim), app_(app), log_(kMaxTimedFrames, warmup_frames) {}

Input GameApp::map_input(const engine::InputState& in, Vec2 player) {
  Input out;
  out.move_x = in.move.x;
  out.move_y = in.move.y;
  switch (in.aim_source) {
    case engine::AimSource::mouse: out.aim = {in.aim_point.x, in.aim_point.y}; break;
    case engine::AimSource::gamepad: out.aim = player + Vec2{in.aim_direction.x, in.aim_direction.y} * 300.0f; break;
    case engine::AimSource::none: out.aim = player + Vec2{0, 300}; break;
  }
  out.fire = in.fire;
  out.restart = in.restart_pressed;
  // Pause is the runtime's: a paused Application runs no steps, so the game never sees it.
  return out;
}

void GameApp::fixed_update(const engine::InputState& input, double /*dt: always Simulation::kStepSeconds*/) {
  std::uint64_t growths_before = 0;
  for (const StoreStats& s : sim_.stats().pools) growths_before += s.growth_events;
  frame_allocs_ += count_step_allocations(sim_, map_input(input, sim_.player_position()));
  std::uint64_t growths_after = 0;
  for (const StoreStats& s : sim_.stats().pools) growths_after += s.growth_events;
  frame_grew_ = frame_grew_ || growths_after != growths_before;
  // Pool growths become FrameStats events, so the overlay can mark them on its graph.
  const auto& log = sim_.growth_log();
  for (; growth_records_seen_ < log.size(); ++growth_records_seen_) {
    const GrowthRecord& g = log[growth_records_seen_];
    app_.stats().record_event(static_cast<std::uint32_t>(g.pool), pool_name(g.pool),
                              static_cast<double>(g.event.new_capacity));
  }
}

void GameApp::render(engine::RenderContext& context) {
  // The frame FrameStats committed last is complete now (times and allocations): log it.
  engine::FrameStats& stats = app_.stats();
  if (const engine::FrameSample* last = stats.latest(); last && last->frame != last_logged_frame_) {
    log_.record(last->ms[static_cast<std::size_t>(engine::FrameTimer::simulation)],
                last->ms[static_cast<std::size_t>(engine::FrameTimer::render)], last->counters.allocations,
                logged_frame_grew_);
    last_logged_frame_ = last->frame;
  }
  stats.set_allocations(frame_allocs_);
  logged_frame_grew_ = frame_grew_;
  frame_allocs_ = 0;
  frame_grew_ = false;

  // Show the whole playfield, centred, as large as the window allows.
  const Rect world = sim_.world();
  const float w = world.max.x - world.min.x, h = world.max.y - world.min.y;
  context.camera.center = {world.min.x + w / 2, world.min.y + h / 2};
  context.camera.zoom = std::max(0.01f, std::min(context.camera.viewport.x / w, context.camera.viewport.y / h));
  sim_.collect_sprites(context.sprites, context.alpha);
}

void GameApp::imgui() {
  const SimStats s = sim_.stats();
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.35f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("poolshot hud", nullptr, flags)) {
    ImGui::Text("Score %" PRId64 "   Lives %d   Wave %u", s.score, s.lives, s.wave);
    if (s.game_over) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "GAME OVER - press R to play again");
    if (app_.paused()) ImGui::TextUnformatted("PAUSED - P to resume, N to step");
  }
  ImGui::End();
}

}  // namespace game
