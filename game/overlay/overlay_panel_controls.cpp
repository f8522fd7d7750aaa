// The panel's sections that change things: Controls (settings and runtime), Advisor
// (capacity suggestions) and Compare (the A/B run). See overlay_panel.hpp.
#include "overlay/overlay_panel.hpp"

#include "overlay/overlay_matched_load.hpp"
#include "overlay/overlay_widgets.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace game {

namespace {

using namespace overlay_colors;
using namespace overlay_widgets;

static_assert(sizeof(std::size_t) == sizeof(std::uint64_t), "pool sizes are edited as ImGuiDataType_U64");

}  // namespace

// ----------------------------------------------------------------------------- controls

void OverlayPanel::check_policy_request(const OverlayModel& model) {
  // The simulation writes back what it accepted at its next step; a refused policy (max
  // capacity below what the pool already holds) comes back unchanged.
  if (!policy_request_ || model.sim_step <= policy_request_step_) return;
  for (const PoolView& p : model.pools) {
    const PoolConfig& want = (*policy_request_)[static_cast<std::size_t>(p.id)];
    if (want.max_capacity != p.max_capacity || want.initial_capacity != p.initial_capacity ||
        want.growth_step != p.growth_step) {
      char text[192];
      if (want.max_capacity < p.capacity) {
        std::snprintf(text, sizeof text, "%s: policy refused: max capacity %zu is below the %zu slots it holds",
                      pool_name(p.id), want.max_capacity, p.capacity);
      } else {  // the simulation clamped a value into its sane range
        std::snprintf(text, sizeof text, "%s: policy adjusted to initial %zu, step %zu, max %zu", pool_name(p.id),
                      p.initial_capacity, p.growth_step, p.max_capacity);
      }
      message_ = text;
      policy_request_.reset();
      return;
    }
  }
  message_ = "pool policies applied";
  policy_request_.reset();
}

void OverlayPanel::draw_controls(const OverlayFrame& frame, OverlayCommands& out) {
  Settings s = frame.requested;
  bool changed = false;
  changed |= ImGui::Checkbox("pooling", &s.pooling);
  remember("pooling");
  help_marker(
      "Off: every object is its own new/delete (a std::vector<T*>), the code a pool replaces. "
      "Switching moves every live object; the game itself does not change.");
  int storage = static_cast<int>(s.storage);  // the radio values are StorageMode's
  ImGui::TextUnformatted("storage");          // a row of its own: four layouts fit the column beside no checkbox
  ImGui::SameLine();
  changed |= ImGui::RadioButton("contiguous", &storage, static_cast<int>(engine::StorageMode::contiguous));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("stable pages", &storage, static_cast<int>(engine::StorageMode::stable));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("packed", &storage, static_cast<int>(engine::StorageMode::packed));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("packed pages", &storage, static_cast<int>(engine::StorageMode::packed_pages));
  s.storage = static_cast<engine::StorageMode>(storage);
  // How pooled stores walk each step; the Pools table's ns/obj column shows what it costs.
  int walk = static_cast<int>(s.walk);
  // Dimmed, not disabled, in packed: the choice is kept for when the store leaves packed.
  const bool walk_applies = list_walk_applies(s.storage);
  if (!walk_applies) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.5f);
  ImGui::TextUnformatted("walk");
  for (const WalkMode mode : {WalkMode::bitmap, WalkMode::swap_pop, WalkMode::slot_order}) {
    ImGui::SameLine();
    changed |= ImGui::RadioButton(walk_display_name(mode), &walk, static_cast<int>(mode));
    remember(walk_display_name(mode));
  }
  help_marker(
      "bitmap: the pool's own walk over its occupancy bits. swap-pop list: the classic active-index "
      "list, a dead index replaced by the last, so the order scrambles as the game churns and the walk "
      "reads memory at random. slot-order list: the same list kept sorted (spawns merged in, an O(n) "
      "pass per step), so the walk reads memory in order. The game is the same in all three. Packed "
      "storage walks its dense array whichever is chosen (a list over it would read memory at random); "
      "the choice applies again when you leave packed.");
  if (!walk_applies) {
    ImGui::PopStyleVar();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim, "  greyed: packed storage walks its dense array; kept for the other storages");
    ImGui::PopTextWrapPos();
  }
  s.walk = static_cast<WalkMode>(walk);
  // The update phase's threads: bullets and particles update in chunks on them.
  int threads = static_cast<int>(s.threads);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00 threads").x * 3);
  changed |=
      ImGui::SliderInt("update threads", &threads, 0, 16, threads == 0 ? "auto" : "%d", ImGuiSliderFlags_AlwaysClamp);
  remember("update threads");
  help_marker(
      "Threads that update bullets and particles, each taking chunks of a pool as it comes; the dead "
      "are released after, in order, so the game is the same at any count. auto (0): the machine's "
      "threads, measured against one every few seconds, the faster kept. The Pools table's ns/obj "
      "is the wall time of the whole walk per object, so it falls as threads are added.");
  s.threads = static_cast<std::uint32_t>(std::max(threads, 0));

  // Pool policies: edited here, applied together with one click (a half-typed number must
  // not resize a pool).
  if (!pool_edits_) pool_edits_ = frame.requested.pools;
  auto& edits = *pool_edits_;
  if (ImGui::BeginTable("policies", 5, kTableFlags)) {
    // The inputs are as wide as a 10-digit capacity; the last column takes what is left.
    const float input = ImGui::CalcTextSize("9999999999").x + 2 * ImGui::GetStyle().FramePadding.x;
    const float combo =
        ImGui::CalcTextSize("double").x + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::TableSetupColumn("pool", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("enemy fire").x);
    ImGui::TableSetupColumn("growth", ImGuiTableColumnFlags_WidthFixed, combo);
    ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthFixed, input);
    ImGui::TableSetupColumn("initial", ImGuiTableColumnFlags_WidthFixed, input);
    ImGui::TableSetupColumn("max", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < kPoolCount; ++i) {
      PoolConfig& c = edits[i];
      ImGui::PushID(static_cast<int>(i));
      ImGui::TableNextRow();
      cell(cells_, vec(pool(static_cast<PoolId>(i))), short_name(static_cast<PoolId>(i)));
      int mode = c.growth_step == 0 ? 0 : 1;
      widget_cell(cells_, combo, "growth");
      if (ImGui::Combo("##growth", &mode, "double\0step\0"))
        c.growth_step = mode == 0 ? 0 : std::max<std::size_t>(c.initial_capacity, 64);
      ImGui::BeginDisabled(c.growth_step == 0);
      widget_cell(cells_, input, "step");
      ImGui::InputScalar("##step", ImGuiDataType_U64, &c.growth_step);
      ImGui::EndDisabled();
      widget_cell(cells_, input, "initial");
      ImGui::InputScalar("##initial", ImGuiDataType_U64, &c.initial_capacity);
      widget_cell(cells_, input, "max");
      ImGui::InputScalar("##max", ImGuiDataType_U64, &c.max_capacity);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // Paged storage reserves whole pages: a pool of initial 256 holds a page's slots from step 0.
  std::string rounded;
  for (const PoolView& p : frame.model.pools) {
    if (!p.pooled || p.growth_events > 0 || p.capacity <= p.initial_capacity) continue;
    rounded += (rounded.empty() ? "" : ", ") + std::string(short_name(p.id)) + " " + Compact(p.capacity).text;
  }
  if (!rounded.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim, "initial capacities round up to whole pages: %s slots now", rounded.c_str());
    ImGui::PopTextWrapPos();
  }
  bool edited = false;
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    const PoolConfig& a = edits[i];
    const PoolConfig& b = frame.requested.pools[i];
    edited |=
        a.initial_capacity != b.initial_capacity || a.growth_step != b.growth_step || a.max_capacity != b.max_capacity;
  }
  ImGui::BeginDisabled(!edited);
  if (ImGui::Button("Apply policies")) {
    s.pools = edits;
    changed = true;
    policy_request_ = edits;
    policy_request_step_ = frame.model.sim_step;
  }
  ImGui::SameLine();
  if (ImGui::Button("Revert")) pool_edits_.reset();
  ImGui::EndDisabled();
  help_marker(
      "A bigger initial capacity is reserved at once; a max capacity below the slots a pool already "
      "holds is refused. At max capacity a pool refuses spawns: the guns stop, the game goes on.");

  // Stress, then runtime: one separator each and no section titles, so Controls fits 720 rows.
  ImGui::Separator();
  changed |= ImGui::Checkbox("autofire", &s.autofire);
  help_marker("The seed drives the ship: strafe, aim, always fire. Same seed, same game.");
  ImGui::SameLine(0, 24);
  ImGui::SetNextItemWidth(170);
  changed |= ImGui::SliderFloat("fire rate x", &s.stress, 0.1f, 100.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
  // Two sliders share the line, each as wide as what their labels leave.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float slider = std::max(60.0f, (ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("sparks/explosion").x -
                                        ImGui::CalcTextSize("enemy density").x - 2 * style.ItemInnerSpacing.x - 16) /
                                           2);
  ImGui::SetNextItemWidth(slider);
  changed |=
      ImGui::SliderInt("sparks/explosion", &s.particles_per_explosion, 0, 5000, "%d", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine(0, 16);
  ImGui::SetNextItemWidth(slider);
  changed |= ImGui::SliderFloat("enemy density", &s.enemy_density, 0.0f, 10.0f, "%.1f");
  if (changed) out.settings = s;

  ImGui::Separator();
  bool vsync = frame.runtime.vsync;
  if (ImGui::Checkbox("vsync", &vsync)) out.vsync = vsync;
  ImGui::SameLine();
  if (ImGui::Button(frame.runtime.paused ? "Resume (P)" : "Pause (P)")) out.toggle_pause = true;
  remember("Pause");
  ImGui::SameLine();
  ImGui::BeginDisabled(!frame.runtime.paused);
  if (ImGui::Button("Step (N)")) out.single_step = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Reset statistics")) out.reset_stats = true;
  remember("Reset statistics");
  help_marker(
      "Clears the frame-time window, its markers and the per-second rates. Peaks and growth "
      "counts are the pools' own and cover the whole run.");

  // Sound: the master volume and mute (M); the hum follows the pools' live objects and fill.
  const OverlayRuntime::Sound& sound = frame.runtime.sound;
  int volume = static_cast<int>(std::lround(sound.volume * 100.0f));
  ImGui::SetNextItemWidth(150);
  if (ImGui::SliderInt("volume", &volume, 0, 100, "%d %%")) out.volume = static_cast<float>(volume) / 100.0f;
  remember("volume");
  ImGui::SameLine();
  bool muted = sound.muted;
  if (ImGui::Checkbox("mute (M)", &muted)) out.muted = muted;
  if (!sound.device) {
    ImGui::SameLine();
    ImGui::TextColored(kDim, "no audio: silent");
  }
}

// ------------------------------------------------------------------------------ advisor

void OverlayPanel::draw_advisor(const OverlayFrame& frame, OverlayCommands& out) {
  const OverlayModel& model = frame.model;
  float margin = static_cast<float>(view_.advisor.margin * 100.0);
  ImGui::SetNextItemWidth(160);
  if (ImGui::SliderFloat("margin over the peak", &margin, 0.0f, 100.0f, "%.0f %%", ImGuiSliderFlags_AlwaysClamp)) {
    view_.advisor.margin = static_cast<double>(margin) / 100.0;
  }
  if (ImGui::BeginTable("advice", 6, kTableFlags)) {
    columns(cells_, {{"pool", "enemy fire"},
                     {"peak", "99.9k"},
                     {"+ margin", "99.9k"},
                     {"suggested", "99.9k (max)"},
                     {"initial now", "99.9k"},
                     {"grew", nullptr}});
    for (const CapacityAdvice& a : model.advice) {
      ImGui::TableNextRow();
      cell(cells_, vec(pool(a.pool)), short_name(a.pool));
      cell(cells_, Compact(static_cast<double>(a.peak_live)).text);
      cell(cells_, Compact(std::ceil(static_cast<double>(a.peak_live) * view_.advisor.margin)).text);
      char suggested[32];
      std::snprintf(suggested, sizeof suggested, "%s%s", Compact(static_cast<double>(a.suggested_initial)).text,
                    a.clamped_to_max ? " (max)" : "");
      cell(cells_, a.changes_anything() ? kGood : kDim, suggested);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%zu slots", a.suggested_initial);
      cell(cells_, Compact(static_cast<double>(a.current_initial)).text);
      cell(cells_, Compact(a.growth_events).text);
    }
    ImGui::EndTable();
  }
  const bool any = std::any_of(model.advice.begin(), model.advice.end(),
                               [](const CapacityAdvice& a) { return a.changes_anything(); });
  ImGui::BeginDisabled(!any);
  const bool apply = ImGui::Button("Apply suggestions");
  remember("Apply suggestions");
  if (apply) {
    Settings s = frame.requested;
    apply_advice(s, model.advice);
    out.settings = s;
    policy_request_ = s.pools;
    policy_request_step_ = model.sim_step;
    pool_edits_.reset();
  }
  ImGui::EndDisabled();
  help_marker(
      "Suggested initial capacity = peak live * (1 + margin), rounded up to 64. Applying reserves it "
      "at the next step (one last growth, now); a run like this one then never grows again. "
      "poolshot --advise FILE writes the same numbers into a scenario file.");
  for (const CapacityAdvice& a : model.advice) {
    if (a.refused_spawns > 0) {
      ImGui::TextColored(kBad, "%s refused %" PRIu64 " spawns: raise its max capacity, not its start size",
                         pool_name(a.pool), a.refused_spawns);
    }
  }
}

// ------------------------------------------------------------------------------ compare

void OverlayPanel::draw_compare(const OverlayFrame& frame, OverlayCommands& out) {
  const CompareResult* run = frame.compare.result;
  const bool running = run && !run->done;
  ImGui::SetNextItemWidth(160);
  ImGui::SliderInt("frames each", &compare_frames_, 60, 3600, "%d", ImGuiSliderFlags_AlwaysClamp);
  out.compare_frames = static_cast<std::uint64_t>(compare_frames_);
  ImGui::SameLine();
  if (running) {
    if (ImGui::Button("Cancel")) out.cancel_compare = true;
  } else {
    if (ImGui::Button("Run A/B")) out.start_compare = true;
    remember("Run A/B");
  }
  help_marker(
      "Runs the scenario from the start with the current settings twice, pooling on and pooling off, "
      "same seed and input, steps interleaved, each step timed. Both runs hold fire aimed straight "
      "up (the input of assets/scripts/hold_fire.json), autofire off: a replay with no input never "
      "fires, and at a few dozen objects pooling changes nothing. The game's own frame times "
      "include this work while it runs. Headless: poolshot --headless --compare --report FILE.");
  if (out.start_compare) compare_scroll_pending_ = true;  // its result comes into view when done
  if (!run) {
    ImGui::TextColored(kDim, "load: fire held in both runs; no comparison yet");
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDim, "%s", compare_load_line(*run).c_str());
  ImGui::PopTextWrapPos();
  if (running) ImGui::ProgressBar(static_cast<float>(frame.compare.progress), ImVec2(-1, 0));
  const CompareResult& r = *run;
  draw_compare_graph(r, 100, view_.budget_ms, points_scratch_);
  if (!r.done) {
    if (compare_scroll_pending_) ImGui::SetScrollHereY(1.0f);  // the progress and the graph in view
    return;
  }
  if (ImGui::BeginTable("ab", 6, kTableFlags)) {
    columns(cells_, {{"sim ms", "heap/pooled"},
                     {"p50", "12.3kx"},
                     {"p99", "12.3kx"},
                     {"max", "12.3kx"},
                     {"allocs", "99.9k"},
                     {"growths", nullptr}});
    for (const CompareSeries* s : {&r.pooled, &r.heap}) {
      ImGui::TableNextRow();
      cell(cells_, vec(s->pooling ? pooled : heap), s->pooling ? "pooled" : "heap");
      for (const double v : {s->sim.p50, s->sim.p99, s->sim.max}) cell(cells_, Ms(v).text);
      cell(cells_, Compact(s->heap_allocs_total).text);
      cell(cells_, Compact(s->growth_events).text);
    }
    ImGui::TableNextRow();
    cell(cells_, kDim, "heap/pooled");
    for (const auto& [h, p] : {std::pair{r.heap.sim.p50, r.pooled.sim.p50}, std::pair{r.heap.sim.p99, r.pooled.sim.p99},
                               std::pair{r.heap.sim.max, r.pooled.sim.max}}) {
      cell(cells_, Ratio(compare_ratio(h, p)).text);
    }
    ImGui::EndTable();
  }
  draw_matched_load(r.matched);  // the panel's rule: same live count, or "not enough load"
  ImGui::TextColored(r.same_game() ? kGood : kBad, r.same_game() ? "same game: both runs end on the same state hash"
                                                                 : "DIFFERENT GAMES: state hashes differ (a bug)");
  if (ImGui::Button("Export A/B CSV + PNG")) out.export_compare = true;
  if (compare_scroll_pending_) {  // the whole result, down to its last button, in view once
    ImGui::SetScrollHereY(1.0f);
    compare_scroll_pending_ = false;
  }
}

}  // namespace game
