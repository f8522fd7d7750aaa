#include "overlay/overlay_panel.hpp"

#include "overlay/overlay_matched_load.hpp"
#include "overlay/overlay_widgets.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <tuple>

namespace game {

namespace {

using namespace overlay_colors;
using namespace overlay_widgets;

// What the pooled stores walk: the chosen walk, or their dense array where no list walk
// applies (list_walk_applies(), walk_mode.hpp).
std::string_view walk_label(const OverlayModel& model) {
  return list_walk_applies(model.storage) ? walk_display_name(model.walk) : "dense array";
}

// The header's walk, named as Controls names it: in packed storage the choice is kept but not
// used (the store walks its dense array), and the header says so.
void walk_phrase(const OverlayModel& model, char* out, std::size_t size) {
  if (list_walk_applies(model.storage)) {
    std::snprintf(out, size, "%s walk", walk_display_name(model.walk));
  } else {
    std::snprintf(out, size, "dense walk: packed ignores the %s choice", walk_display_name(model.walk));
  }
}

// The update phase's thread count and why: measured against one thread (--threads auto), or forced.
void draw_thread_choice(const OverlayModel& model) {
  const char* s = model.threads == 1 ? "" : "s";
  if (!model.threads_auto) {
    ImGui::TextColored(kDim, "%u thread%s: forced (--threads)", model.threads, s);
  } else if (model.threads_ratio <= 0) {
    ImGui::TextColored(kDim, "%u thread%s: auto, measuring against one", model.threads, s);
  } else if (model.threads > 1) {
    ImGui::TextColored(kDim, "%u threads: %.2fx of one (auto)", model.threads, model.threads_ratio);
  } else {
    ImGui::TextColored(kDim, "1 thread: %u measured %.2fx of one (auto)", model.threads_measured, model.threads_ratio);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "--threads auto: every few seconds a few steps run on the other count (one thread, or\n"
        "all of them), and the median step times decide which count is kept. The game is the\n"
        "same at any count; only who runs the chunks changes.");
  }
}

void pool_tooltip(const PoolView& p) {
  ImGui::BeginTooltip();
  ImGui::TextColored(vec(pool(p.id)), "%s (%s)", pool_name(p.id), p.pooled ? "pooled" : "heap: one new per object");
  ImGui::Text("live %zu   free %zu   capacity %zu   peak %zu", p.live, p.free, p.capacity, p.peak_live);
  ImGui::Text("bytes held %zu", p.bytes_held);
  ImGui::Text("emplaces %.0f/s   releases %.0f/s", p.rates.emplaces_per_second, p.rates.releases_per_second);
  ImGui::Text("spawns %" PRIu64 "   releases %" PRIu64 "   refused %" PRIu64, p.spawns, p.releases, p.refused_spawns);
  ImGui::Text("stale handles refused %.1f/s   total %" PRIu64, p.rates.stale_gets_per_second, p.stale_gets);
  ImGui::Text("policy: initial %zu, %s, max %zu", p.initial_capacity, p.growth_step == 0 ? "doubling" : "fixed step",
              p.max_capacity);
  if (p.growth_step != 0) ImGui::Text("growth step %zu", p.growth_step);
  ImGui::EndTooltip();
}

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
  cells_.reset();

  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float width = docked_width(display.x);
  ImGui::SetNextWindowPos(ImVec2(display.x - width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, std::max(60.0f, display.y)), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the playfield is beside it, nothing is behind it
  ImGui::PushStyleColor(ImGuiCol_TitleBg, vec(title));
  ImGui::PushStyleColor(ImGuiCol_TitleBgActive, vec(title));
  ImGui::PushStyleColor(ImGuiCol_TitleBgCollapsed, vec(title));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  // Tight rows: at 720 pixels the graph, Pools, Memory and the Frame time figures show at
  // once while the growth log and the stale-handle line are showing.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(style.ItemSpacing.x, 2.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(style.FramePadding.x, 2.0f));
  // The column itself never scrolls: the sections under the graph do (draw_sections).
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (ImGui::Begin("Poolshot debug  (F1 hides)", nullptr, flags)) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    panel_rect_ = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
    ImGui::Text("step %" PRIu64 "  %.0f fps", model.sim_step, static_cast<double>(ImGui::GetIO().Framerate));
    // From a fixed x: the step and fps figures change width every frame, and a button that
    // moves between press and release misses the click.
    ImGui::SameLine(ImGui::GetFontSize() * 12);
    ImGui::TextUnformatted("pooling");
    ImGui::SameLine(0, 4);
    // The pooling switch itself, on the line that is always in view: what a player flips
    // while watching the graph.
    // ON: green text on the usual button. OFF: white on solid red, never mistaken for ON.
    const int colours = model.pooling ? 1 : 4;
    if (model.pooling) {
      ImGui::PushStyleColor(ImGuiCol_Text, kGood);
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
      ImGui::PushStyleColor(ImGuiCol_Button, kOffRed);
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.92f, 0.22f, 0.20f, 1.0f));
      ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(0.65f, 0.08f, 0.08f, 1.0f));
    }
    if (ImGui::SmallButton(model.pooling ? "ON##pooling" : "OFF##pooling")) {
      Settings next = frame.requested;
      next.pooling = !next.pooling;
      out.settings = next;
    }
    ImGui::PopStyleColor(colours);
    remember("pooling switch");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("click: switch pooling %s (as in Controls)", model.pooling ? "off" : "on");
    ImGui::SameLine(0, 4);
    // Wrapped at the column's edge: "(contiguous, slot-order list walk)" reached it at 480 px.
    ImGui::PushTextWrapPos(0.0f);
    if (model.pooling) {
      char walk[96];
      walk_phrase(model, walk, sizeof walk);
      ImGui::TextColored(kDim, "(%s, %s, %u thread%s)%s", engine::storage_mode_name(model.storage), walk, model.threads,
                         model.threads == 1 ? "" : "s", frame.runtime.paused ? "  PAUSED" : "");
    } else {  // no pool to store or walk: each object is its own new, walked through the pointer array
      ImGui::TextColored(kDim, "(new/delete, pointer array walk, %u thread%s)%s", model.threads,
                         model.threads == 1 ? "" : "s", frame.runtime.paused ? "  PAUSED" : "");
    }
    ImGui::PopTextWrapPos();
    if (frame.runtime.reading_panel) {  // the mouse rests on the panel and nothing is held
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "paused: reading the panel");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("hold fire or move to play on with the mouse here");
    }
    draw_thread_choice(model);
    // The step's phases the threads share: phase one runs on all of them.
    ImGui::TextColored(kDim, "step phases: update %.2f ms, release %.2f, grid %.2f", model.update_ms, model.release_ms,
                       model.collision_ms);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "bullets' and particles' update (phase one, on %u thread%s), their release (phase two,\n"
          "in order, one thread) and the collision grid's build; smoothed over ~10 steps",
          model.threads, model.threads == 1 ? "" : "s");
    }
    draw_matched_load(model);  // overlay_matched_load.cpp: heap vs pooled at the same load, caches
    draw_warnings(model);
    if (!message_.empty()) ImGui::TextColored(kDim, "%s", message_.c_str());
    // The graph stays in view whatever is open below it: a switch flipped in Controls shows
    // on it as it happens. Taller windows get a taller graph.
    const float graph_height = std::clamp(display.y * 0.16f, 96.0f, 200.0f);
    graph_ = draw_frame_graph(model.window, stacked_, graph_height, points_scratch_);
    draw_sections(frame, out);
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
  ImGui::PopStyleColor(3);
  return out;
}

void OverlayPanel::draw_sections(const OverlayFrame& frame, OverlayCommands& out) {
  const OverlayModel& model = frame.model;
  const auto header = [this](const char* label, bool open) {
    if (open_every_section_) ImGui::SetNextItemOpen(true);
    const bool shown = ImGui::CollapsingHeader(label, open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    remember(label);
    return shown;
  };
  // Every section opens and folds on its own; what does not fit scrolls inside this region,
  // under the graph.
  if (ImGui::BeginChild("##sections", ImVec2(0, 0), false)) {
    if (header("Pools", true)) draw_pools(model);
    if (header("Memory", true)) draw_memory(model);
    if (open_memory_map_) ImGui::SetNextItemOpen(false);
    if (header("Frame time", true)) draw_frame_time(model, frame.runtime.render, out);
    if (frame.memory != nullptr) {
      if (open_memory_map_) ImGui::SetNextItemOpen(true);
      if (header("Memory map", false)) memory_map_rects_ = draw_memory_map(*frame.memory);
    }
    open_memory_map_ = false;
    if (header("Controls", false)) draw_controls(frame, out);
    if (header("Advisor", false)) draw_advisor(frame, out);
    if (header("Compare", false)) draw_compare(frame, out);
    open_every_section_ = false;
    scroll_max_y_ = ImGui::GetScrollMaxY();
    scroll_max_x_ = ImGui::GetScrollMaxX();
  }
  ImGui::EndChild();
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
  // Free slots are capacity - live, the bar's empty part (and in the tooltip): no column of
  // their own, so the rest fit a 480-pixel column.
  if (ImGui::BeginTable("pools", 8, kTableFlags)) {
    columns(cells_, {{"pool", "enemy fire"},
                     {"live/cap", nullptr},  // takes the rest: "99.9k/99.9k" and more
                     {"peak", "99.9k"},
                     {"held", "1023 MiB"},
                     {"in/s", "99.9k"},
                     {"out/s", "99.9k"},
                     {"ns/obj", "999.9"},
                     {"grew", "9999"}});
    for (const PoolView& p : model.pools) {
      ImGui::TableNextRow();
      cell(cells_, vec(pool(p.id)), short_name(p.id));
      if (ImGui::IsItemHovered()) pool_tooltip(p);
      char bar[64];
      std::snprintf(bar, sizeof bar, "%s/%s", Compact(static_cast<double>(p.live)).text,
                    Compact(static_cast<double>(p.capacity)).text);
      ImVec4 fill = vec(pool(p.id));
      fill.w = 0.55f;
      bar_cell(cells_, static_cast<float>(p.fill), bar, p.refusing() ? kBad : fill);
      if (ImGui::IsItemHovered()) pool_tooltip(p);
      cell(cells_, Compact(static_cast<double>(p.peak_live)).text);
      cell(cells_, Bytes(p.bytes_held).text);
      cell(cells_, Compact(p.rates.emplaces_per_second).text);
      cell(cells_, Compact(p.rates.releases_per_second).text);
      // One object's update in this step's walk, smoothed (walk: Controls).
      char ns[16];
      std::snprintf(ns, sizeof ns, "%.1f", p.walk_ns_per_object);
      if (p.walk_ns_per_object > 0) {
        cell(cells_, p.walk_ns_per_object < 999.95 ? ns : Compact(p.walk_ns_per_object).text);
      } else {
        cell(cells_, kDim, "-");
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s: %.2f ns per object per step (update walk, %s)", pool_name(p.id), p.walk_ns_per_object,
                          p.pooled ? walk_label(model).data() : "heap vector<T*>");
      }
      cell(cells_, p.growth_events > 0 ? vec(pool(p.id)) : kDim, Compact(p.growth_events).text);
    }
    ImGui::EndTable();
  }
  // The generation check at work: homing shots whose target died asked the enemy store for
  // it and were refused (even where a newcomer had its slot), so they locked on elsewhere.
  const PoolView& enemies = model.pools[static_cast<std::size_t>(PoolId::enemies)];
  if (enemies.stale_gets > 0) {
    ImGui::TextColored(vec(pool(PoolId::enemies)), "stale handles refused %.1f/s",
                       enemies.rates.stale_gets_per_second);  // a rate below one a second keeps its decimal
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "homing shots whose target died: the enemy store refused the old handle\n"
          "(even when a new enemy had its slot), so they picked a new target; %" PRIu64 " so far",
          enemies.stale_gets);
    }
  }
  draw_growth_log(model);
}

void OverlayPanel::draw_growth_log(const OverlayModel& model) {
  char label[96];
  if (model.rebuilds > 0) {
    std::snprintf(label, sizeof label, "Growth log: %s growths, %s rebuilds###growth_log",
                  Compact(model.growth_events).text, Compact(model.rebuilds).text);
  } else {
    std::snprintf(label, sizeof label, "Growth log: %s growths###growth_log", Compact(model.growth_events).text);
  }
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
    // The step is an identifier, printed whole (the graph's tooltip names the same frame).
    columns(cells_, {{"step", "9999999"},
                     {"pool", "enemy fire"},
                     {"capacity", nullptr},  // "99.9k -> 99.9k"
                     {"bytes", "1023 MiB"},
                     {"time", "99.9 ms"},
                     {"moved", "rebuild"}});
    char text[64];
    // Newest first: the growth that just happened is the one to explain.
    for (std::size_t k = model.growth_log.size(); k-- > 0;) {
      const GrowthRecord& g = model.growth_log[k];
      ImGui::TableNextRow();
      std::snprintf(text, sizeof text, "%" PRIu64, g.frame);
      cell(cells_, text);
      cell(cells_, vec(pool(g.pool)), short_name(g.pool));
      // A rebuild (pooling switched back on: the pool came back at its warm size) is dim and
      // says so in its last column; it is not one of the growths counted above.
      std::snprintf(text, sizeof text, "%s -> %s", Compact(static_cast<double>(g.event.old_capacity)).text,
                    Compact(static_cast<double>(g.event.new_capacity)).text);
      cell(cells_, g.rebuild ? kDim : ImGui::GetStyleColorVec4(ImGuiCol_Text), text);
      cell(cells_, Bytes(g.event.bytes_allocated).text);
      if (g.event.microseconds < 999.5) {
        std::snprintf(text, sizeof text, "%.0f us", g.event.microseconds);
      } else {
        std::snprintf(text, sizeof text, "%s ms", Ms(g.event.microseconds / 1000).text);
      }
      cell(cells_, text);
      if (g.rebuild) {
        cell(cells_, kDim, "rebuild");
      } else if (g.event.relocated) {
        cell(cells_, Compact(static_cast<double>(g.event.relocated_objects)).text);
      } else {
        cell(cells_, kDim, "no");
      }
    }
    ImGui::EndTable();
  }
  if (model.growth_log_dropped > 0)
    ImGui::TextColored(kDim, "(%s later growths counted, not listed)", Compact(model.growth_log_dropped).text);
  ImGui::TreePop();
}

// --------------------------------------------------------------------------- frame time

void OverlayPanel::draw_frame_time(const OverlayModel& model, const OverlayRuntime::Render& render,
                                   OverlayCommands& out) {
  const FrameWindow& w = model.window;
  float seconds = static_cast<float>(view_.window_seconds);
  // "last" outside the slider: inside it, the grab covered its letters.
  ImGui::TextUnformatted("last");
  ImGui::SameLine(0, 4);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("20 s").x * 2.5f);
  if (ImGui::SliderFloat("##window", &seconds, static_cast<float>(kMinWindowSeconds),
                         static_cast<float>(kMaxWindowSeconds), "%.0f s", ImGuiSliderFlags_AlwaysClamp)) {
    view_.window_seconds = std::round(static_cast<double>(seconds));
  }
  ImGui::SameLine();
  ImGui::Checkbox("stacked", &stacked_);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) out.export_csv = true;
  remember("Export CSV");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##csv_dir", "to: working dir", csv_dir_, sizeof csv_dir_);

  if (ImGui::BeginTable("percentiles", 5, kTableFlags)) {
    columns(cells_, {{"ms", "heap/pooled"}, {"p50", "12.3kx"}, {"p99", "12.3kx"}, {"max", "12.3kx"}, {"", nullptr}});
    const auto row = [this](const char* name, std::uint32_t colour, const Percentiles& p, const char* note) {
      ImGui::TableNextRow();
      cell(cells_, vec(colour), name);
      for (const double v : {p.p50, p.p99, p.max}) cell(cells_, Ms(v).text);
      cell(cells_, kDim, note);
    };
    // The notes fit the column that is left at 480 pixels (about 28 characters).
    char over[64];
    std::snprintf(over, sizeof over, "%s of %s over %.1f", Compact(static_cast<double>(w.over_budget)).text,
                  Compact(static_cast<double>(w.rows.size())).text, w.budget_ms);
    char span[64];
    std::snprintf(span, sizeof span, "%.1f s, %s with growth", w.covered_seconds,
                  Compact(static_cast<double>(w.growth_frames)).text);
    row("simulation", sim_line, w.sim, span);
    // Which sprite path drew, and whether auto chose it and for which GL: the renderer's first
    // word fits the column ("fast, auto on llvmpipe"); the whole GL_RENDERER is in the tooltip.
    char path[64];
    if (render.chosen_by_auto) {
      const int gl_word = static_cast<int>(std::min<std::size_t>(16, std::strcspn(render.gl_renderer, " /(")));
      std::snprintf(path, sizeof path, "%s, auto on %.*s", render.path, gl_word, render.gl_renderer);
    } else {
      std::snprintf(path, sizeof path, "%s, --render-path", render.path);
    }
    row("rendering", total_line, w.render, path);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("sprites: %s path, %s\nGL_RENDERER: %s%s", render.path,
                        render.chosen_by_auto ? "chosen by --render-path auto" : "as --render-path asked",
                        render.gl_renderer,
                        render.software_gl ? "\nsoftware GL: fast stamps small sprites on the CPU" : "");
    }
    row("total", pack(230, 230, 235), w.total, over);
    // Before and after, at the same load (metrics/matched_load.hpp): the newest span of each
    // kind is not comparable (its p50 holds idle and ramp-up frames: 2,444x after one cycle),
    // so the table shows the two p50s the headline divides, once both sides have load.
    const MatchedLoad& m = model.matched;
    if (m.has_ratio) {
      for (const auto& [name, colour, p50, frames] :
           {std::tuple{"sim pooled", pooled, m.pooled_sim_p50, m.pooled_frames},
            std::tuple{"sim heap", heap, m.heap_sim_p50, m.heap_frames}}) {
        ImGui::TableNextRow();
        cell(cells_, vec(colour), name);
        cell(cells_, Ms(p50).text);
        cell(cells_, kDim, "-");  // the matching keeps p50 only: the tails are not like for like
        cell(cells_, kDim, "-");
        char note[64];
        std::snprintf(note, sizeof note, "%s fr at %s objects", Compact(static_cast<double>(frames)).text,
                      Compact(static_cast<double>(m.live_objects)).text);
        cell(cells_, kDim, note);
      }
    }
    ImGui::EndTable();
  }
  if (!model.matched.has_ratio) {
    ImGui::TextColored(kDim, "hold fire, then click ON: heap vs pooled at one load");
  }
  draw_graph_legend();
}

// What the graph's marks mean, on two lines that fit the 480-pixel column.
void OverlayPanel::draw_graph_legend() {
  ImGui::TextColored(kDim, "growth ticks:");
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    ImGui::SameLine();
    ImGui::TextColored(vec(pool(static_cast<PoolId>(i))), "^%s", short_name(static_cast<PoolId>(i)));
  }
  ImGui::TextColored(vec(switch_line), "| storage or walk switch");
  ImGui::SameLine();
  ImGui::TextColored(vec(heap), "shade: pooling off");
  ImGui::SameLine();
  ImGui::TextColored(vec(budget), "' over budget");
}

// ------------------------------------------------------------------------------- memory

void OverlayPanel::draw_memory(const OverlayModel& model) {
  const FrameWindow& w = model.window;
  const std::uint64_t now = model.latest.allocations;
  ImGui::Text("allocations this frame:");
  ImGui::SameLine();
  ImGui::TextColored(now == 0 ? kGood : kBad, "%s", Compact(now).text);
  help_marker(
      "operator new calls made by the simulation steps of the frame, counted by the game's own hook. "
      "With pooling on they stay at 0 once the pools have grown to fit; with pooling off every bullet, "
      "spark and enemy is its own new and delete.");
  // On a line of their own: beside the count, "total 3.24M" ran past the column's edge.
  ImGui::TextColored(kDim, "  in the window: at most %s a frame, %s in all", Compact(w.allocations_max).text,
                     Compact(w.allocations_total).text);
  plot_scratch_.clear();
  for (const FrameRow& r : w.rows) plot_scratch_.push_back(static_cast<float>(r.allocations));
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, model.pooling ? kGood : kBad);
  ImGui::PlotHistogram("##allocs", plot_scratch_.data(), static_cast<int>(plot_scratch_.size()), 0, nullptr, 0.0f,
                       std::max(1.0f, static_cast<float>(w.allocations_max)), ImVec2(-1, 22));
  ImGui::PopStyleColor();
  ImGui::Text("pools hold %s", Bytes(model.bytes_held_total).text);
  ImGui::SameLine();
  ImGui::TextColored(kDim, "| draw calls %s, sprites %s per frame",
                     Compact(static_cast<double>(model.latest.draw_calls)).text,
                     Compact(static_cast<double>(model.latest.sprites)).text);
}

}  // namespace game
