#include "app/game_flow.hpp"

namespace game {

GameFlow::GameFlow(bool skip_title, std::int64_t best_score) noexcept
    : state_(skip_title ? FlowState::playing : FlowState::title), best_(best_score) {}

void GameFlow::start() noexcept {
  if (state_ == FlowState::title) state_ = FlowState::playing;
}

void GameFlow::open_pause() noexcept {
  if (state_ != FlowState::playing && state_ != FlowState::game_over) return;
  paused_from_ = state_;
  state_ = FlowState::paused;
  selection_ = PauseItem::resume;  // Enter right after Esc goes back to the game
}

void GameFlow::resume() noexcept {
  if (state_ == FlowState::paused) state_ = paused_from_;
}

void GameFlow::toggle_pause() noexcept {
  if (state_ == FlowState::paused) {
    resume();
  } else {
    open_pause();
  }
}

FlowEffects GameFlow::restart() noexcept {
  FlowEffects effects;
  if (state_ == FlowState::title) return effects;  // the title starts a game with start()
  effects.restart_sim = true;
  state_ = FlowState::playing;
  return effects;
}

void GameFlow::observe(bool sim_game_over, std::int64_t score) noexcept {
  if (state_ == FlowState::playing && sim_game_over) {
    state_ = FlowState::game_over;
    final_score_ = score;
    new_best_ = score > best_;
    if (new_best_) {
      best_ = score;
      save_pending_ = true;
    }
  } else if (state_ == FlowState::game_over && !sim_game_over) {
    state_ = FlowState::playing;  // the world restarted without us (autofire after 3 s)
  }
}

void GameFlow::menu_move(int delta) noexcept {
  const int n = kPauseItems;
  const int next = ((static_cast<int>(selection_) + delta) % n + n) % n;
  selection_ = static_cast<PauseItem>(next);
}

FlowEffects GameFlow::activate(PauseItem item) noexcept {
  FlowEffects effects;
  if (state_ != FlowState::paused) return effects;
  switch (item) {
    case PauseItem::resume:
      resume();
      break;
    case PauseItem::restart:
      effects = restart();
      break;
    case PauseItem::overlay:
      effects.toggle_overlay = true;
      break;  // the menu stays open
    case PauseItem::quit:
      effects.quit = true;
      break;
  }
  return effects;
}

bool GameFlow::take_best_to_save() noexcept {
  const bool pending = save_pending_;
  save_pending_ = false;
  return pending;
}

const char* flow_state_name(FlowState state) noexcept {
  switch (state) {
    case FlowState::title:
      return "title";
    case FlowState::playing:
      return "playing";
    case FlowState::paused:
      return "paused";
    case FlowState::game_over:
      return "game_over";
  }
  return "?";
}

}  // namespace game
