#pragma once
// game::GameFlow: which screen the player is on: the title, play, the pause menu, or game
// over. Plain state, no SDL and no ImGui, so tests drive it directly; GameApp feeds it the
// keys and the simulation's game-over flag and draws the screens (flow_screens.cpp).
//
//   title --start--> playing --pause--> paused --resume--> (where it came from)
//                       |  ^               |
//            game over  v  | restart       +--restart--> playing
//                    game_over -----------^
//
// There is one pause, and the flow owns it: the pause binding (P / Esc / Start), the pause
// menu and the overlay's Pause button all go through toggle_pause() / resume(), and GameApp
// sets the application's clock from wants_clock_paused() (a paused clock runs no steps). The
// simulation has no pause of its own: a paused game is one whose steps are not taken.
// The simulation steps only while playing or on the game-over screen (particles settle, the
// wave clock has stopped); on the title nothing steps, so nothing spawns.
#include <cstdint>

namespace game {

enum class FlowState : std::uint8_t { title, playing, paused, game_over };

// The pause menu's entries, top to bottom.
enum class PauseItem : std::uint8_t { resume, restart, overlay, quit };
inline constexpr int kPauseItems = 4;

// What the app must do after a flow call (several may be set).
struct FlowEffects {
  bool restart_sim = false;  // reset the world (Input::restart on the next step)
  bool toggle_overlay = false;
  bool quit = false;
};

class GameFlow {
 public:
  // skip_title: headless, scripted and fixed-length runs start playing at once.
  GameFlow(bool skip_title, std::int64_t best_score) noexcept;

  FlowState state() const noexcept { return state_; }
  bool simulation_runs() const noexcept { return state_ == FlowState::playing || state_ == FlowState::game_over; }
  bool wants_clock_paused() const noexcept { return state_ == FlowState::paused; }

  void start() noexcept;           // title -> playing (Enter, Space, fire, a click)
  void open_pause() noexcept;      // playing or game_over -> paused; elsewhere nothing
  void resume() noexcept;          // paused -> the state it was opened from
  void toggle_pause() noexcept;    // open_pause() or resume(), whichever applies
  FlowEffects restart() noexcept;  // paused or game_over (or playing: R) -> playing, fresh world
  // The simulation's game-over flag after a step, with its score: playing -> game_over the
  // first time it is true (the best score is updated then), game_over -> playing when the
  // world restarted by itself (autofire's restart).
  void observe(bool sim_game_over, std::int64_t score) noexcept;

  // The pause menu, keyboard-navigable: up/down move the highlight (wrapping), activate
  // runs the highlighted entry; a click runs an entry directly.
  void menu_move(int delta) noexcept;
  PauseItem menu_selection() const noexcept { return selection_; }
  FlowEffects activate(PauseItem item) noexcept;

  std::int64_t best_score() const noexcept { return best_; }
  std::int64_t final_score() const noexcept { return final_score_; }  // of the last game over
  bool new_best() const noexcept { return new_best_; }                // the last game over beat the best before it
  // True once after a game over that set a new best: the caller saves it, then it clears.
  bool take_best_to_save() noexcept;

 private:
  FlowState state_;
  FlowState paused_from_ = FlowState::playing;
  PauseItem selection_ = PauseItem::resume;
  std::int64_t best_;
  std::int64_t final_score_ = 0;
  bool new_best_ = false;
  bool save_pending_ = false;
};

const char* flow_state_name(FlowState state) noexcept;

}  // namespace game
