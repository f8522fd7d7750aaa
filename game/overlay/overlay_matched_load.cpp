#include "overlay/overlay_matched_load.hpp"

#include "metrics/compare_result.hpp"
#include "metrics/machine_caches.hpp"

#include <imgui.h>

namespace game {

namespace {

const ImVec4 kMatchedDim{0.62f, 0.65f, 0.70f, 1.0f};

}  // namespace

// Both lines wrap at the column's edge: at 480 pixels and font scale 1.4 the headline and the
// cache figures run past it (the OverlaySizes tests count any overflow).
void draw_matched_load(const OverlayModel& model) {
  ImGui::PushTextWrapPos(0.0f);
  char line[160];
  headline_line(model, line, sizeof line);
  ImGui::SetWindowFontScale(1.4f);
  if (!model.pooling) {  // pooling off is the state a player must not miss
    ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.38f, 1.0f), "%s", line);
  } else if (model.matched.has_ratio || model.matched_kept.has_ratio) {
    ImGui::TextUnformatted(line);
  } else {
    ImGui::TextColored(kMatchedDim, "%s", line);
  }
  ImGui::SetWindowFontScale(1.0f);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "heap frames against pooled frames with as many live objects (+-10 %%), growth, rebuild and "
        "switch frames left out: %zu heap, %zu pooled frames; sim p50 %.3f ms heap, %.3f ms pooled",
        model.matched.heap_frames, model.matched.pooled_frames, model.matched.heap_sim_p50,
        model.matched.pooled_sim_p50);
  }
  working_set_line(model.bytes_live_total, machine_caches(), line, sizeof line);
  ImGui::TextColored(kMatchedDim, "%s", line);
  ImGui::PopTextWrapPos();
}

void draw_matched_load(const MatchedLoad& matched) {
  ImGui::PushTextWrapPos(0.0f);
  const std::string line = compare_matched_line(matched);
  if (!matched.has_ratio) {
    ImGui::TextColored(kMatchedDim, "%s", line.c_str());
  } else {
    ImGui::TextUnformatted(line.c_str());
  }
  ImGui::PopTextWrapPos();
}

}  // namespace game
