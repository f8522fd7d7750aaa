#pragma once
// The panel's matched-load line (metrics/matched_load.hpp) and the working set beside this
// machine's caches (metrics/machine_caches.hpp). Kept apart from the panel's layout.
#include "metrics/matched_load.hpp"
#include "metrics/overlay_model.hpp"

namespace game {

// Near the top of the panel: "heap 3.4x slower at 300k objects (matched load)" in large type
// (or "hold fire to compare"), then "live 19.0 MiB vs L2 512 KiB, L3 32 MiB: ...".
void draw_matched_load(const OverlayModel& model);
// In Compare: the same rule over the A/B's two runs, in normal type ("not enough load").
void draw_matched_load(const MatchedLoad& matched);

}  // namespace game
