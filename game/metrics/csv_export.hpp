#pragma once
// CSV files of what the overlay shows: the frame-time window, the growth log and an A/B
// comparison. Plain comma-separated text with a header row, one row per frame or event,
// numbers in C locale, so a spreadsheet or pandas reads it as is.
#include "metrics/overlay_model.hpp"

#include <string>
#include <vector>

namespace game {

struct CompareResult;

// frame,sim_ms,render_ms,total_ms,over_budget,heap_allocs,draw_calls,sprites,grew,switch
// (grew: the pools that grew in the frame, separated by '|', empty when none; switch: what the
// frame's settings switched to, as --frame-csv names it, '|'-separated, empty when nothing)
std::string frame_window_csv(const FrameWindow& window);
// frame,pool,old_capacity,new_capacity,bytes_allocated,microseconds,relocated,relocated_objects
std::string growth_log_csv(const std::vector<GrowthRecord>& log);
// frame,pooled_sim_ms,heap_sim_ms,pooled_heap_allocs,heap_heap_allocs
std::string compare_csv(const CompareResult& result);

// Writes text to path; on failure returns false and sets error ("cannot write 'P': reason").
bool write_text_file(const std::string& path, const std::string& text, std::string& error);

struct ExportedFiles {
  std::string frames_path, growth_path;  // set on success
  std::string error;                     // set on failure
  bool ok() const noexcept { return error.empty(); }
};
// The overlay's Export button: <dir>/poolshot_frames_<step>.csv and
// <dir>/poolshot_growth_<step>.csv (dir "" = the working directory).
ExportedFiles export_overlay_csv(const OverlayModel& model, const std::string& dir);

}  // namespace game
