// GameApp's screens around play: the score line, the title, the pause menu and game over,
// drawn with ImGui every frame (also while the overlay is hidden), centred on the playfield.
// Keys: Enter / Space / fire or a click starts from the title; P or Esc (the pause binding,
// which the runtime's clock acts on) opens and closes the pause menu, whose entries are
// clickable or chosen with Up/Down (or W/S) and Enter; on game over Enter or R plays again.
#include "app/game_app.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <optional>

namespace game {

namespace {

const ImVec4 kTitleColour(1.0f, 0.85f, 0.3f, 1.0f);
const ImVec4 kGameOverColour(1.0f, 0.4f, 0.4f, 1.0f);
const ImVec4 kHintColour(0.62f, 0.64f, 0.70f, 1.0f);

// ImGui 1.86 indexes keys by SDL scancode (its SDL backend fills io.KeysDown that way).
bool key_pressed(SDL_Scancode key) { return ImGui::IsKeyPressed(static_cast<int>(key), false); }
bool enter_pressed() { return key_pressed(SDL_SCANCODE_RETURN) || key_pressed(SDL_SCANCODE_KP_ENTER); }

constexpr ImGuiWindowFlags kScreenFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                          ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoFocusOnAppearing;

}  // namespace

ScreenRect GameApp::button_rect(const char* label) const noexcept {
  for (const auto& [name, rect] : buttons_)
    if (name != nullptr && std::strcmp(name, label) == 0) return rect;
  return {};
}

bool GameApp::flow_button(const char* label, bool highlighted, float width, const char* remember_as) {
  if (remember_as == nullptr) remember_as = label;
  if (highlighted) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::Button(label, ImVec2(width, 0));
  if (highlighted) ImGui::PopStyleColor();
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  for (auto& [name, rect] : buttons_) {
    if (name == nullptr || std::strcmp(name, remember_as) == 0) {
      name = remember_as;
      rect = {a.x, a.y, b.x, b.y};
      break;
    }
  }
  return pressed;
}

void GameApp::carry_out(const FlowEffects& effects) {
  if (effects.restart_sim) restart_pending_ = true;
  if (effects.toggle_overlay) app_.set_overlay_visible(!app_.overlay_visible());
  if (effects.quit) app_.request_quit();
  sync_clock();
}

void GameApp::hud() {
  for (auto& entry : buttons_) entry = {};  // a screen not drawn this frame has no buttons
  // The world's edge, just outside the sprites' clip: under every window, over the clear colour.
  if (!world_rect_.empty()) {
    const float o = kEdgeInset - 1;  // a 2-pixel line centred 2.5 pixels out
    ImGui::GetBackgroundDrawList()->AddRect(ImVec2(world_rect_.x0 - o, world_rect_.y0 - o),
                                            ImVec2(world_rect_.x1 + o, world_rect_.y1 + o), kWorldEdgeColour, 0.0f, 0,
                                            2.0f);
  }
  draw_score_line();
  switch (flow_.state()) {
    case FlowState::title:
      draw_title();
      break;
    case FlowState::paused:
      draw_pause_menu();
      break;
    case FlowState::game_over:
      draw_game_over();
      break;
    case FlowState::playing:
      break;
  }
}

void GameApp::draw_score_line() {
  const SimStats& s = sim_.stats();
  // The score line stays inside the playfield, never under the docked panel: at most the
  // playfield's width less its margins, its lines wrapped to that, the hint on the meter's line
  // only where it fits (a 900-pixel window leaves the playfield 420).
  constexpr float kMargin = 10;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float max_width = std::max(100.0f, playfield_.x1 - playfield_.x0 - 2 * kMargin);
  const float content = max_width - 2 * style.WindowPadding.x;
  ImGui::SetNextWindowPos(ImVec2(playfield_.x0 + kMargin, playfield_.y0 + kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(max_width, playfield_.y1 - playfield_.y0));
  ImGui::SetNextWindowBgAlpha(0.35f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("poolshot hud", nullptr, flags)) {
    ImGui::PushTextWrapPos(style.WindowPadding.x + content);
    ImGui::Text("Score %" PRId64 "   Best %" PRId64 "   Lives %d   Wave %u", s.score,
                std::max(flow_.best_score(), s.score), s.lives, s.wave);
    hud_score_ = s.score;
    // The escalation meter: x1 .. x4096 on a log scale, hot colours as it climbs.
    const float heat = std::clamp(s.heat_fraction, 0.0f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImVec4(1.0f, 1.0f - 0.7f * heat, 0.2f * (1 - heat), 1.0f));
    char label[48];
    std::snprintf(label, sizeof label, "FIRE x%.0f", static_cast<double>(s.heat_multiplier));
    const float meter = std::min(220.0f, content);
    ImGui::ProgressBar(heat, ImVec2(meter, 0), label);
    ImGui::PopStyleColor();
    const char* hint = heat > 0 ? "hold fire to stress the pools" : "hold Space / mouse to fire";
    if (meter + style.ItemSpacing.x + ImGui::CalcTextSize(hint).x <= content) ImGui::SameLine();
    ImGui::TextUnformatted(hint);
    // Standing still draws chargers (scenario "camping"): the last ten seconds are counted down.
    const CampingConfig& camping = sim_.scenario().camping;
    const float to_chargers = camping.grace_seconds - s.camping_seconds;
    if (camping.chargers_per_second > 0 && !s.game_over && to_chargers < 10) {
      const ImVec4 warning(1.0f, 0.45f, 0.3f, 1.0f);
      if (to_chargers > 0) {
        ImGui::TextColored(warning, "Standing still: chargers in %.0f s - move!", std::ceil(to_chargers));
      } else {
        ImGui::TextColored(warning, "CHARGERS - move to shake them off (bullets pass through them)");
      }
    }
    if (sim_.applied_settings().autofire) {
      ImGui::TextColored(kTitleColour, "AUTOFIRE ON - T to take over (you can still move and restart)");
    }
    if (reading_panel_) ImGui::TextColored(kTitleColour, "paused: reading the panel - fire or move to play on");
    if (audio_.muted()) ImGui::TextUnformatted("MUTED - M for sound");
    ImGui::PopTextWrapPos();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    hud_rect_ = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
  }
  ImGui::End();
}

void GameApp::draw_title() {
  ImGui::SetNextWindowPos(ImVec2((playfield_.x0 + playfield_.x1) / 2, (playfield_.y0 + playfield_.y1) / 2),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("poolshot title", nullptr, kScreenFlags)) {
    ImGui::SetWindowFontScale(2.0f);
    ImGui::TextColored(kTitleColour, "POOLSHOT");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::TextUnformatted("Every bullet, spark and enemy lives in an object pool.");
    ImGui::TextUnformatted("Hold fire to stress the pools; F1 shows them.");
    ImGui::TextUnformatted("Stop firing and the enemies win.");
    ImGui::Separator();
    ImGui::TextColored(kHintColour, "move   W A S D / arrows / left stick");
    ImGui::TextColored(kHintColour, "aim    mouse / right stick");
    ImGui::TextColored(kHintColour, "fire   Space / left mouse / right trigger");
    ImGui::TextColored(kHintColour, "pause  P / Esc      overlay F1      restart R");
    ImGui::TextColored(kHintColour, "autofire T          fullscreen F11  quit Ctrl+Q");
    if (flow_.best_score() > 0) ImGui::Text("Best score %" PRId64, flow_.best_score());
    ImGui::Separator();
    if (flow_button("Play", true, -1) || enter_pressed()) flow_.start();
    ImGui::TextColored(kHintColour, "Enter, Space or a click to play");
  }
  ImGui::End();
}

void GameApp::draw_pause_menu() {
  if (key_pressed(SDL_SCANCODE_UP) || key_pressed(SDL_SCANCODE_W)) flow_.menu_move(-1);
  if (key_pressed(SDL_SCANCODE_DOWN) || key_pressed(SDL_SCANCODE_S)) flow_.menu_move(+1);
  ImGui::SetNextWindowPos(ImVec2((playfield_.x0 + playfield_.x1) / 2, (playfield_.y0 + playfield_.y1) / 2),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.90f);
  if (ImGui::Begin("poolshot pause", nullptr, kScreenFlags)) {
    ImGui::TextColored(kTitleColour, "PAUSED");
    ImGui::TextColored(kHintColour, "Up/Down and Enter, or click");
    struct Entry {
      PauseItem item;
      const char* label;
    };
    const Entry entries[] = {{PauseItem::resume, "Resume"},
                             {PauseItem::restart, "Restart"},
                             {PauseItem::overlay, "Overlay"},
                             {PauseItem::quit, "Quit"}};
    std::optional<PauseItem> chosen;
    for (const Entry& e : entries) {
      const bool highlighted = flow_.menu_selection() == e.item;
      char text[64];
      if (e.item == PauseItem::overlay) {
        std::snprintf(text, sizeof text, "Overlay: %s (F1)###Overlay", app_.overlay_visible() ? "on" : "off");
      } else {
        std::snprintf(text, sizeof text, "%s%s###%s", e.label,
                      e.item == PauseItem::resume    ? " (Esc / P)"
                      : e.item == PauseItem::restart ? " (R)"
                                                     : "",
                      e.label);
      }
      // The rect is remembered under the plain label (tests click "Overlay", not its text).
      if (flow_button(text, highlighted, 220, e.label)) chosen = e.item;
    }
    ImGui::TextColored(kHintColour, "N steps one frame while paused");
    if (!chosen && enter_pressed()) chosen = flow_.menu_selection();
    if (!chosen && key_pressed(SDL_SCANCODE_R)) chosen = PauseItem::restart;
    if (chosen) carry_out(flow_.activate(*chosen));
  }
  ImGui::End();
}

void GameApp::draw_game_over() {
  ImGui::SetNextWindowPos(ImVec2((playfield_.x0 + playfield_.x1) / 2, (playfield_.y0 + playfield_.y1) / 2),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("poolshot game over", nullptr, kScreenFlags)) {
    ImGui::SetWindowFontScale(2.0f);
    ImGui::TextColored(kGameOverColour, "GAME OVER");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::Text("Score %" PRId64, flow_.final_score());
    if (flow_.new_best()) {
      ImGui::TextColored(kTitleColour, "New best score!");
    } else {
      ImGui::Text("Best  %" PRId64, flow_.best_score());
    }
    if (sim_.applied_settings().autofire) ImGui::TextColored(kHintColour, "autofire plays again in 3 s");
    ImGui::Separator();
    const bool again = flow_button("Play again", true, 220) || enter_pressed();
    const bool quit = flow_button("Quit", false, 220);
    ImGui::TextColored(kHintColour, "Enter or R to play again, Esc for the menu");
    if (again) carry_out(flow_.restart());
    if (quit) app_.request_quit();
  }
  ImGui::End();
}

}  // namespace game
