#pragma once
// Small ImGui helpers the overlay panel's sections share: colours for good and bad news,
// numbers that fit narrow columns, fixed-width table headers, the "(?)" help marker.
// Internal to the panel (overlay_panel*.cpp).
#include "sim/scenario.hpp"

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

namespace game::overlay_widgets {

inline const ImVec4 kGood(0.45f, 0.9f, 0.55f, 1.0f);  // zero allocations, pooling on
inline const ImVec4 kBad(1.0f, 0.42f, 0.38f, 1.0f);   // refusals, allocations, pooling off
inline const ImVec4 kDim(0.62f, 0.64f, 0.70f, 1.0f);  // notes

inline const char* short_name(PoolId id) {
  switch (id) {
    case PoolId::bullets:
      return "bullets";
    case PoolId::enemy_bullets:
      return "enemy fire";
    case PoolId::particles:
      return "particles";
    case PoolId::enemies:
      return "enemies";
  }
  return "?";
}

// A walk as the panel spells it, on the Controls' buttons and in the header's "(..., X walk)"
// (walk_name() is the scenario files' spelling).
inline const char* walk_button_label(WalkMode walk) {
  switch (walk) {
    case WalkMode::swap_pop:
      return "swap-pop list";
    case WalkMode::slot_order:
      return "slot-order list";
    case WalkMode::bitmap:
      break;
  }
  return "bitmap";
}

struct Compact {
  char text[16];
  // At most 5 characters below a billion (the Pools table's narrow columns): 9999, 51.5k, 148k,
  // 1.05M, 12.3M, 148M.
  explicit Compact(double v) {
    if (v < 10000) {
      std::snprintf(text, sizeof text, "%.0f", v);
    } else if (v < 99950) {
      std::snprintf(text, sizeof text, "%.1fk", v / 1e3);
    } else if (v < 999500) {
      std::snprintf(text, sizeof text, "%.0fk", v / 1e3);
    } else if (v < 9.995e6) {
      std::snprintf(text, sizeof text, "%.2fM", v / 1e6);
    } else if (v < 99.95e6) {
      std::snprintf(text, sizeof text, "%.1fM", v / 1e6);
    } else {
      std::snprintf(text, sizeof text, "%.0fM", v / 1e6);
    }
  }
  explicit Compact(std::uint64_t v) : Compact(static_cast<double>(v)) {}
};

// A ratio in a narrow table column, at most 6 characters with three significant digits:
// 1.23x, 12.3x, 123x, 7004x, 12.3kx. ("%.2fx" ran 7003.71x into the next column once a heap
// span's p50 met a pooled span of idle title-screen frames.)
struct Ratio {
  char text[20];  // room for any Compact text and the x, though it never passes 6
  explicit Ratio(double v) {
    if (v < 9.995) {
      std::snprintf(text, sizeof text, "%.2fx", v);
    } else if (v < 99.95) {
      std::snprintf(text, sizeof text, "%.1fx", v);
    } else if (v < 9999.5) {
      std::snprintf(text, sizeof text, "%.0fx", v);
    } else {
      std::snprintf(text, sizeof text, "%sx", Compact(v).text);
    }
  }
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
inline void columns(std::initializer_list<Column> list) {
  for (const Column& c : list) {
    ImGui::TableSetupColumn(c.name, c.width > 0 ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            c.width);
  }
  ImGui::TableHeadersRow();
}

inline void cell(const char* text) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(text);
}

inline void help_marker(const char* text) {
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

inline constexpr ImGuiTableFlags kTableFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                                               ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_NoPadOuterX;

}  // namespace game::overlay_widgets
