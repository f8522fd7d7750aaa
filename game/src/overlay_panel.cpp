#include "overlay_panel.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace game {

namespace {

using namespace overlay_colors;

static_assert(sizeof(std::size_t) == sizeof(std::uint64_t), "pool sizes are edited as ImGuiDataType_U64");

const ImVec4 kGood(0.45f, 0.9f, 0.55f, 1.0f);
const ImVec4 kBad(1.0f, 0.42f, 0.38f, 1.0f);
const ImVec4 kDim(0.62f, 0.64f, 0.70f, 1.0f);

const char* short_name(PoolId id) {
  switch (id) {
    case PoolId::bullets: return "bullets";
    case PoolId::enemy_bullets: return "enemy fire";
    case PoolId::particles: return "particles";
    case PoolId::enemies: return "enemies";
  }
  return "?";
}

// 1234 -> "1234", 12345 -> "12.3k", 1234567 -> "1.23M": columns stay narrow.
struct Compact {
  char text[16];
  explicit Compact(double v) {
    if (v < 10000) {
      std::snprintf(text, sizeof text, "%.0f", v);
    } else if (v < 1e6) {
      std::snprintf(text, sizeof text, "%.1fk", v / 1e3);
    } else {
      std::snprintf(text, sizeof text, "%.2fM", v / 1e6);
    }
  }
  explicit Compact(std::uint64_t v) : Compact(static_cast<double>(v)) {}
};

struct Bytes {
  char text[16];
  explicit Bytes(std::size_t bytes) {
    const auto b = static_cast<double>(bytes);
    // At most 8 characters: one decimal below 100, none above.
    const char* unit = "B";
    double v = b;
    for (const char* next : {"KiB", "MiB", "GiB"}) {
      if (v < 1024) break;
      v /= 1024;
      unit = next;
    }
    std::snprintf(text, sizeof text, v < 100 && unit[0] != 'B' ? "%.1f %s" : "%.0f %s", v, unit);
  }
};

// Column headers with fixed widths in pixels (0: takes what is left), so a number that
// gains a digit never makes the columns beside it jump from one frame to the next.
struct Column {
  const char* name;
  float width;
};
void columns(std::initializer_list<Column> list) {
  for (const Column& c : list) {
    ImGui::TableSetupColumn(c.name, c.width > 0 ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            c.width);
  }
  ImGui::TableHeadersRow();
}

void cell(const char* text) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(text);
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void pool_tooltip(const PoolView& p) {
  ImGui::BeginTooltip();
  ImGui::TextColored(vec(pool(p.id)), "%s (%s)", pool_name(p.id), p.pooled ? "pooled" : "heap: one new per object");
  ImGui::Text("live %zu   free %zu   capacity %zu   peak %zu", p.live, p.free, p.capacity, p.peak_live);
  ImGui::Text("bytes held %zu", p.bytes_held);
  ImGui::Text("emplaces %.0f/s   releases %.0f/s", p.rates.emplaces_per_second, p.rates.releases_per_second);
  ImGui::Text("spawns %" PRIu64 "   releases %" PRIu64 "   refused %" PRIu64, p.spawns, p.releases, p.refused_spawns);
  ImGui::Text("policy: initial %zu, %s, max %zu", p.initial_capacity, p.growth_step == 0 ? "doubling" : "fixed step",
              p.max_capacity);
  if (p.growth_step != 0) ImGui::Text("growth step %zu", p.growth_step);
  ImGui::EndTooltip();
}

constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                                        ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoPadOuterX;

}  // namespace

// ------------------------------------------------------------------------------- window

void OverlayPanel::remember(const char* label) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  for (auto& [name, rect] : items_) {
    if (name == nullptr || std::strcmp(name, label) == 0) {
      name = label;
      rect = {a.x, a.y, b.x, b.y};
      return;
    }
  }
}

ScreenRect OverlayPanel::item_rect(const char* label) const noexcept {
  for (const auto& [name, rect] : items_)
    if (name != nullptr && std::strcmp(name, label) == 0) return rect;
  return {};
}

OverlayCommands OverlayPanel::draw(const OverlayFrame& frame) {
  OverlayCommands out;
  out.csv_dir = csv_dir_;
  out.compare_frames = static_cast<std::uint64_t>(compare_frames_);
  const OverlayModel& model = frame.model;
  check_policy_request(model);
  const auto header = [this](const char* label, bool open) {
    const bool shown = ImGui::CollapsingHeader(label, open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    remember(label);
    return shown;
  };

  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - kWidth - 8, 8), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kWidth, 60), ImVec2(kWidth, std::max(60.0f, display.y - 16)));
  ImGui::SetNextWindowBgAlpha(0.80f);
  ImGui::PushStyleColor(ImGuiCol_TitleBg, vec(title));
  ImGui::PushStyleColor(ImGuiCol_TitleBgActive, vec(title));
  ImGui::PushStyleColor(ImGuiCol_TitleBgCollapsed, vec(title));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 4.0f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Poolshot debug  (F1 hides)", nullptr, flags)) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    panel_rect_ = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
    ImGui::Text("step %" PRIu64 "  %.0f fps  pooling", model.sim_step, static_cast<double>(ImGui::GetIO().Framerate));
    ImGui::SameLine(0, 4);
    ImGui::TextColored(model.pooling ? kGood : kBad, "%s", model.pooling ? "ON" : "OFF");
    ImGui::SameLine(0, 4);
    ImGui::TextColored(kDim, "(%s)%s", model.storage == engine::StorageMode::stable ? "stable" : "contiguous",
                       frame.runtime.paused ? "  PAUSED" : "");
    draw_warnings(model);
    if (!message_.empty()) ImGui::TextColored(kDim, "%s", message_.c_str());
    // Pools, Frame time and Memory open: what there is to see; the rest is there to change.
    if (header("Pools", true)) draw_pools(model);
    if (header("Frame time", true)) draw_frame_time(model, out);
    if (header("Memory", true)) draw_memory(model);
    if (header("Controls", false)) draw_controls(frame, out);
    if (header("Advisor", false)) draw_advisor(frame, out);
    if (header("Compare", false)) draw_compare(frame, out);
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(3);
  return out;
}

void OverlayPanel::draw_warnings(const OverlayModel& model) {
  char text[192];
  for (const PoolView& p : model.pools) {
    if (!refusal_message(p, text, sizeof text)) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, kBad);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
  }
}

// -------------------------------------------------------------------------------- pools

void OverlayPanel::draw_pools(const OverlayModel& model) {
  if (ImGui::BeginTable("pools", 8, kTableFlags)) {
    columns({{"pool", 70}, {"live / capacity", 0}, {"free", 36}, {"peak", 36}, {"held", 56}, {"in/s", 36},
             {"out/s", 36}, {"grew", 28}});
    for (const PoolView& p : model.pools) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(pool(p.id)), "%s", short_name(p.id));
      if (ImGui::IsItemHovered()) pool_tooltip(p);
      ImGui::TableNextColumn();
      char bar[40];
      std::snprintf(bar, sizeof bar, "%s / %s", Compact(static_cast<double>(p.live)).text,
                    Compact(static_cast<double>(p.capacity)).text);
      ImVec4 fill = vec(pool(p.id));
      fill.w = 0.55f;
      ImGui::PushStyleColor(ImGuiCol_PlotHistogram, p.refusing() ? kBad : fill);
      ImGui::ProgressBar(static_cast<float>(p.fill), ImVec2(-1.0f, 0.0f), bar);
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) pool_tooltip(p);
      cell(Compact(static_cast<double>(p.free)).text);
      cell(Compact(static_cast<double>(p.peak_live)).text);
      cell(Bytes(p.bytes_held).text);
      cell(Compact(p.rates.emplaces_per_second).text);
      cell(Compact(p.rates.releases_per_second).text);
      ImGui::TableNextColumn();
      if (p.growth_events > 0) {
        ImGui::TextColored(vec(pool(p.id)), "%" PRIu64, p.growth_events);
      } else {
        ImGui::TextColored(kDim, "0");
      }
    }
    ImGui::EndTable();
  }
  draw_growth_log(model);
}

void OverlayPanel::draw_growth_log(const OverlayModel& model) {
  char label[64];
  std::snprintf(label, sizeof label, "Growth log: %" PRIu64 " growths###growth_log", model.growth_events);
  if (!ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (model.growth_log.empty()) {
    ImGui::TextColored(kDim, "no pool has grown: every spawn found a free slot");
    ImGui::TreePop();
    return;
  }
  const float rows_visible = std::min(3.0f, static_cast<float>(model.growth_log.size())) + 1.25f;
  const ImGuiTableFlags flags = kTableFlags | ImGuiTableFlags_ScrollY;
  if (ImGui::BeginTable("growth", 6, flags, ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * rows_visible))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    columns({{"step", 42}, {"pool", 70}, {"capacity", 0}, {"bytes", 56}, {"time", 56}, {"moved", 44}});
    // Newest first: the growth that just happened is the one to explain.
    for (std::size_t k = model.growth_log.size(); k-- > 0;) {
      const GrowthRow& g = model.growth_log[k];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%" PRIu64, g.frame);
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(pool(g.pool)), "%s", short_name(g.pool));
      ImGui::TableNextColumn();
      ImGui::Text("%zu -> %zu", g.old_capacity, g.new_capacity);
      cell(Bytes(g.bytes_allocated).text);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f us", g.microseconds);
      ImGui::TableNextColumn();
      if (g.relocated) {
        ImGui::Text("%zu", g.relocated_objects);
      } else {
        ImGui::TextColored(kDim, "no");
      }
    }
    ImGui::EndTable();
  }
  if (model.growth_log_dropped > 0) ImGui::TextColored(kDim, "(%" PRIu64 " later growths counted, not listed)", model.growth_log_dropped);
  ImGui::TreePop();
}

// --------------------------------------------------------------------------- frame time

void OverlayPanel::draw_frame_time(const OverlayModel& model, OverlayCommands& out) {
  const FrameWindow& w = model.window;
  float seconds = static_cast<float>(view_.window_seconds);
  ImGui::SetNextItemWidth(120);
  if (ImGui::SliderFloat("##window", &seconds, static_cast<float>(kMinWindowSeconds),
                         static_cast<float>(kMaxWindowSeconds), "last %.0f s", ImGuiSliderFlags_AlwaysClamp)) {
    view_.window_seconds = std::round(static_cast<double>(seconds));
  }
  ImGui::SameLine();
  ImGui::Checkbox("stacked", &stacked_);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) out.export_csv = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##csv_dir", "to: working dir", csv_dir_, sizeof csv_dir_);

  graph_rect_ = draw_frame_graph(w, stacked_, 104, points_scratch_);

  if (ImGui::BeginTable("percentiles", 5, kTableFlags)) {
    columns({{"ms", 76}, {"p50", 48}, {"p99", 48}, {"max", 48}, {"", 0}});
    const auto row = [](const char* name, std::uint32_t colour, const Percentiles& p, const char* note) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(colour), "%s", name);
      for (const double v : {p.p50, p.p99, p.max}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", v);
      }
      ImGui::TableNextColumn();
      ImGui::TextColored(kDim, "%s", note);
    };
    char over[64];
    std::snprintf(over, sizeof over, "%zu of %zu frames over %.1f", w.over_budget, w.rows.size(), w.budget_ms);
    char span[64];
    std::snprintf(span, sizeof span, "%.1f s, %zu with growth", w.covered_seconds, w.growth_frames);
    row("simulation", sim_line, w.sim, span);
    row("rendering", total_line, w.render, "");
    row("total", pack(230, 230, 235), w.total, over);
    ImGui::EndTable();
  }
  // Legend for the markers.
  ImGui::TextColored(kDim, "markers:");
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    ImGui::SameLine();
    ImGui::TextColored(vec(pool(static_cast<PoolId>(i))), "^%s", short_name(static_cast<PoolId>(i)));
  }
  ImGui::SameLine();
  ImGui::TextColored(vec(budget), "| over budget");
}

// ------------------------------------------------------------------------------- memory

void OverlayPanel::draw_memory(const OverlayModel& model) {
  const FrameWindow& w = model.window;
  const std::uint64_t now = model.latest.allocations;
  ImGui::Text("heap allocations this frame:");
  ImGui::SameLine();
  ImGui::TextColored(now == 0 ? kGood : kBad, "%" PRIu64, now);
  help_marker("operator new calls made by the simulation steps of the frame, counted by the game's own hook. "
              "With pooling on they stay at 0 once the pools have grown to fit; with pooling off every bullet, "
              "spark and enemy is its own new and delete.");
  ImGui::SameLine();
  ImGui::TextColored(kDim, "  max %s, total %s in window", Compact(w.allocations_max).text, Compact(w.allocations_total).text);
  plot_scratch_.clear();
  for (const FrameRow& r : w.rows) plot_scratch_.push_back(static_cast<float>(r.allocations));
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, model.pooling ? kGood : kBad);
  ImGui::PlotHistogram("##allocs", plot_scratch_.data(), static_cast<int>(plot_scratch_.size()), 0, nullptr, 0.0f,
                       std::max(1.0f, static_cast<float>(w.allocations_max)), ImVec2(-1, 22));
  ImGui::PopStyleColor();
  ImGui::Text("pools hold %s", Bytes(model.bytes_held_total).text);
  ImGui::SameLine();
  ImGui::TextColored(kDim, "| draw calls %u, sprites %s per frame", model.latest.draw_calls,
                     Compact(static_cast<double>(model.latest.sprites)).text);
}

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
      std::snprintf(text, sizeof text, "%s: policy refused (max capacity %zu is below the %zu slots it holds)",
                    pool_name(p.id), want.max_capacity, p.capacity);
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
  help_marker("Off: every object is its own new/delete (a std::vector<T*>), the code a pool replaces. "
              "Switching moves every live object; the game itself does not change.");
  ImGui::SameLine(0, 24);
  int storage = s.storage == engine::StorageMode::stable ? 1 : 0;
  changed |= ImGui::RadioButton("contiguous", &storage, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("stable pages", &storage, 1);
  s.storage = storage == 1 ? engine::StorageMode::stable : engine::StorageMode::contiguous;

  // Pool policies: edited here, applied together with one click (a half-typed number must
  // not resize a pool).
  if (!pool_edits_) pool_edits_ = frame.requested.pools;
  auto& edits = *pool_edits_;
  if (ImGui::BeginTable("policies", 5, kTableFlags)) {
    columns({{"pool", 70}, {"growth", 72}, {"step", 82}, {"initial", 92}, {"max", 0}});
    for (std::size_t i = 0; i < kPoolCount; ++i) {
      PoolConfig& c = edits[i];
      ImGui::PushID(static_cast<int>(i));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(pool(static_cast<PoolId>(i))), "%s", short_name(static_cast<PoolId>(i)));
      ImGui::TableNextColumn();
      int mode = c.growth_step == 0 ? 0 : 1;
      ImGui::SetNextItemWidth(70);
      if (ImGui::Combo("##growth", &mode, "double\0step\0")) c.growth_step = mode == 0 ? 0 : std::max<std::size_t>(c.initial_capacity, 64);
      ImGui::TableNextColumn();
      ImGui::BeginDisabled(c.growth_step == 0);
      ImGui::SetNextItemWidth(80);
      ImGui::InputScalar("##step", ImGuiDataType_U64, &c.growth_step);
      ImGui::EndDisabled();
      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(90);
      ImGui::InputScalar("##initial", ImGuiDataType_U64, &c.initial_capacity);
      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(90);
      ImGui::InputScalar("##max", ImGuiDataType_U64, &c.max_capacity);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  bool edited = false;
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    const PoolConfig& a = edits[i];
    const PoolConfig& b = frame.requested.pools[i];
    edited |= a.initial_capacity != b.initial_capacity || a.growth_step != b.growth_step || a.max_capacity != b.max_capacity;
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
  help_marker("A bigger initial capacity is reserved at once; a max capacity below the slots a pool already "
              "holds is refused. At max capacity a pool refuses spawns: the guns stop, the game goes on.");

  ImGui::Separator();
  ImGui::TextColored(kDim, "stress");
  changed |= ImGui::Checkbox("autofire", &s.autofire);
  help_marker("The seed drives the ship: strafe, aim, always fire. Same seed, same game.");
  ImGui::SameLine(0, 24);
  ImGui::SetNextItemWidth(170);
  changed |= ImGui::SliderFloat("fire rate x", &s.stress, 0.1f, 100.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
  ImGui::SetNextItemWidth(150);
  changed |= ImGui::SliderInt("particles/explosion", &s.particles_per_explosion, 0, 5000, "%d", ImGuiSliderFlags_Logarithmic);
  ImGui::SetNextItemWidth(150);
  changed |= ImGui::SliderFloat("enemy density", &s.enemy_density, 0.0f, 10.0f, "%.1f");
  if (changed) out.settings = s;

  ImGui::Separator();
  ImGui::TextColored(kDim, "runtime");
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
  help_marker("Clears the frame-time window, its markers and the per-second rates. Peaks and growth "
              "counts are the pools' own and cover the whole run.");
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
    columns({{"pool", 70}, {"peak", 56}, {"+ margin", 60}, {"suggested", 90}, {"initial now", 80}, {"grew", 0}});
    for (const CapacityAdvice& a : model.advice) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(pool(a.pool)), "%s", short_name(a.pool));
      ImGui::TableNextColumn();
      ImGui::Text("%zu", a.peak_live);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", std::ceil(static_cast<double>(a.peak_live) * view_.advisor.margin));
      ImGui::TableNextColumn();
      ImGui::TextColored(a.changes_anything() ? kGood : kDim, "%zu%s", a.suggested_initial, a.clamped_to_max ? " (max)" : "");
      ImGui::TableNextColumn();
      ImGui::Text("%zu", a.current_initial);
      ImGui::TableNextColumn();
      ImGui::Text("%" PRIu64, a.growth_events);
    }
    ImGui::EndTable();
  }
  const bool any = std::any_of(model.advice.begin(), model.advice.end(), [](const CapacityAdvice& a) { return a.changes_anything(); });
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
  help_marker("Suggested initial capacity = peak live * (1 + margin), rounded up to 64. Applying reserves it "
              "at the next step (one last growth, now); a run like this one then never grows again. "
              "poolshot --advise FILE writes the same numbers into a scenario file.");
  for (const CapacityAdvice& a : model.advice) {
    if (a.refused_spawns > 0) {
      ImGui::TextColored(kBad, "%s refused %" PRIu64 " spawns: raise its max capacity, not its start size", pool_name(a.pool),
                         a.refused_spawns);
    }
  }
}

// ------------------------------------------------------------------------------ compare

void OverlayPanel::draw_compare(const OverlayFrame& frame, OverlayCommands& out) {
  const CompareRun* run = frame.compare;
  const bool running = run && !run->done();
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
  help_marker("Runs the scenario from the start with the current settings twice, pooling on and pooling off, "
              "same seed and input, steps interleaved, each step timed. The game's own frame times include "
              "this work while it runs. Headless: poolshot --headless --compare --report FILE.");
  if (!run) {
    ImGui::TextColored(kDim, "no comparison yet");
    return;
  }
  if (running) ImGui::ProgressBar(static_cast<float>(run->progress()), ImVec2(-1, 0));
  const CompareResult& r = run->result();
  draw_compare_graph(r, 100, view_.budget_ms, points_scratch_);
  if (!r.done) return;
  if (ImGui::BeginTable("ab", 6, kTableFlags)) {
    columns({{"sim ms", 76}, {"p50", 56}, {"p99", 56}, {"max", 56}, {"allocs", 56}, {"growths", 0}});
    for (const CompareSeries* s : {&r.pooled, &r.heap}) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(vec(s->pooling ? pooled : heap), "%s", s->pooling ? "pooled" : "heap");
      for (const double v : {s->sim.p50, s->sim.p99, s->sim.max}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", v);
      }
      cell(Compact(s->heap_allocs_total).text);
      ImGui::TableNextColumn();
      ImGui::Text("%" PRIu64, s->growth_events);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(kDim, "heap/pooled");
    for (const auto& [h, p] : {std::pair{r.heap.sim.p50, r.pooled.sim.p50}, std::pair{r.heap.sim.p99, r.pooled.sim.p99},
                               std::pair{r.heap.sim.max, r.pooled.sim.max}}) {
      ImGui::TableNextColumn();
      ImGui::Text("%.2fx", compare_ratio(h, p));
    }
    ImGui::EndTable();
  }
  ImGui::TextColored(r.same_game() ? kGood : kBad, r.same_game() ? "same game: both runs end on the same state hash"
                                                                 : "DIFFERENT GAMES: state hashes differ (a bug)");
  if (ImGui::Button("Export A/B CSV + PNG")) out.export_compare = true;
}

}  // namespace game
