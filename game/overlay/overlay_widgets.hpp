#pragma once
// Small ImGui helpers the overlay panel's sections share: colours for good and bad news,
// the one number format, table cells that know whether they fit, the "(?)" help marker.
// The panel's own (overlay_panel*.hpp/cpp, overlay_memory_map.cpp); GameApp only sees CellFit
// through OverlayPanel's test hooks.
#include "sim/scenario.hpp"

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace game::overlay_widgets {

inline const ImVec4 kGood(0.45f, 0.9f, 0.55f, 1.0f);     // zero allocations, pooling on
inline const ImVec4 kBad(1.0f, 0.42f, 0.38f, 1.0f);      // refusals, allocations, pooling off
inline const ImVec4 kOffRed(0.80f, 0.12f, 0.12f, 1.0f);  // the pooling switch's OFF button
inline const ImVec4 kDim(0.62f, 0.64f, 0.70f, 1.0f);     // notes

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

// The panel's one number format. Every figure the panel prints in a cell, a bar or a line
// goes through format_number(), so a capacity never reads "131072" in one table and "131k" in
// the next, and every unit has a known widest text (the narrow columns are sized for it):
//   count  as is to 9999, then three significant digits: 51.5k, 148k, 1.05M, 12.3M  (<= 5 chars below 1e9)
//   ms     0.004 below 1 ms (a pooled step can take that), then 4.19, 41.9, 419  (<= 5 below 10 s)
//   ratio  1.23x, 12.3x, 123x, 7004x, 12.3kx  (<= 6: "%.2fx" once ran 7003.71x into the next column)
//   bytes  binary units, three significant digits: 512 B, 1.50 KiB, 19.0 MiB, 148 MiB  (<= 8)
// Tooltips print exact counts: they size themselves to their text.
enum class Unit : std::uint8_t { count, ms, ratio, bytes };

struct Number {
  char text[24];  // the widest is 8 characters: room for snprintf's worst case
};

namespace detail {
// Three significant digits of a value in [0, 999.5), then `suffix`.
inline void three_digits(char* out, std::size_t size, double v, const char* suffix) {
  const char* format = v < 9.995 ? "%.2f%s" : v < 99.95 ? "%.1f%s" : "%.0f%s";
  std::snprintf(out, size, format, v, suffix);
}
}  // namespace detail

inline Number format_number(double v, Unit unit) {
  Number n{};
  switch (unit) {
    case Unit::count: {
      if (v < 9999.5) {
        std::snprintf(n.text, sizeof n.text, "%.0f", v);
        break;
      }
      const char* suffix = "k";
      double scaled = v / 1e3;
      for (const char* next : {"M", "G"}) {
        if (scaled < 999.5) break;
        scaled /= 1e3;
        suffix = next;
      }
      detail::three_digits(n.text, sizeof n.text, scaled, suffix);
      break;
    }
    case Unit::ms:
      if (v < 1) {
        std::snprintf(n.text, sizeof n.text, "%.3f", v);
      } else if (v < 999.5) {
        detail::three_digits(n.text, sizeof n.text, v, "");
      } else {
        n = format_number(v, Unit::count);
      }
      break;
    case Unit::ratio:
      if (v < 999.5) {
        detail::three_digits(n.text, sizeof n.text, v, "x");
      } else {
        n = format_number(v, Unit::count);
        const std::size_t end = std::strlen(n.text);  // 5 at most below 1e12: room for the x
        n.text[end] = 'x';
        n.text[end + 1] = '\0';
      }
      break;
    case Unit::bytes: {
      const char* suffix = " B";
      double scaled = v;
      for (const char* next : {" KiB", " MiB", " GiB", " TiB"}) {
        if (scaled < 1023.5) break;
        scaled /= 1024;
        suffix = next;
      }
      if (suffix[1] == 'B') {  // whole bytes
        std::snprintf(n.text, sizeof n.text, "%.0f B", scaled);
      } else {
        detail::three_digits(n.text, sizeof n.text, scaled, suffix);
      }
      break;
    }
  }
  return n;
}

// The units by name, for the call sites: Compact(live).text, Bytes(held).text, Ratio(r).text.
struct Compact : Number {
  explicit Compact(double v) : Number(format_number(v, Unit::count)) {}
  explicit Compact(std::uint64_t v) : Compact(static_cast<double>(v)) {}
};
struct Ms : Number {
  explicit Ms(double v) : Number(format_number(v, Unit::ms)) {}
};
struct Ratio : Number {
  explicit Ratio(double v) : Number(format_number(v, Unit::ratio)) {}
};
struct Bytes : Number {
  explicit Bytes(std::size_t bytes) : Number(format_number(static_cast<double>(bytes), Unit::bytes)) {}
};

// Whether what a table cell draws fits its column. The panel draws every cell through the
// helpers below and counts, each frame, the cells whose text or widget was wider than what the
// cell shows: its column, cut at the window's edge where the columns run past it (a ".2k/131k"
// where "79.2k/131k" should be). OverlayPanel::clipped_cells() is the tests' hook.
class CellFit {
 public:
  void reset() noexcept {
    clipped_ = 0;
    first_[0] = '\0';
  }
  // Whether `width` pixels drawn from the cursor fit the current cell; one that does not is
  // counted, and the first of a frame named by `what`.
  bool check(float width, const char* what) noexcept {
    const float x = ImGui::GetCursorScreenPos().x;
    const float cell_right = x + ImGui::GetContentRegionAvail().x;
    const float window_right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (x + width <= (cell_right < window_right ? cell_right : window_right) + 0.5f) return true;
    if (clipped_++ == 0) {  // truncated to fit: a name for a test's message
      std::strncpy(first_, what, sizeof first_ - 1);
      first_[sizeof first_ - 1] = '\0';
    }
    return false;
  }
  int clipped() const noexcept { return clipped_; }
  const char* first() const noexcept { return first_; }

 private:
  int clipped_ = 0;
  char first_[48] = {};
};

// Column headers, each as wide as the widest text it holds (`widest`, or its name if wider;
// nullptr: the column takes what is left), so a number that gains a digit never makes the
// columns beside it jump from one frame to the next, and the widths follow the font.
struct Column {
  const char* name;
  const char* widest;
};
inline void columns(CellFit& fit, std::initializer_list<Column> list) {
  for (const Column& c : list) {
    if (c.widest == nullptr) {
      ImGui::TableSetupColumn(c.name, ImGuiTableColumnFlags_WidthStretch);
    } else {
      const float name = ImGui::CalcTextSize(c.name).x, widest = ImGui::CalcTextSize(c.widest).x;
      ImGui::TableSetupColumn(c.name, ImGuiTableColumnFlags_WidthFixed, name > widest ? name : widest);
    }
  }
  // ImGui::TableHeadersRow(), with each header checked.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  int i = 0;
  for (const Column& c : list) {
    if (ImGui::TableSetColumnIndex(i)) {
      ImGui::PushID(i);
      fit.check(ImGui::CalcTextSize(c.name).x, c.name);
      ImGui::TableHeader(c.name);
      ImGui::PopID();
    }
    ++i;
  }
}

// The next cell holds `text` (dim, coloured or plain).
inline void cell(CellFit& fit, const char* text) {
  ImGui::TableNextColumn();
  fit.check(ImGui::CalcTextSize(text).x, text);
  ImGui::TextUnformatted(text);
}
inline void cell(CellFit& fit, const ImVec4& colour, const char* text) {
  ImGui::TableNextColumn();
  fit.check(ImGui::CalcTextSize(text).x, text);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
}
// A widget `width` pixels wide comes next in the next cell (ImGui::SetNextItemWidth is set).
inline void widget_cell(CellFit& fit, float width, const char* what) {
  ImGui::TableNextColumn();
  fit.check(width, what);
  ImGui::SetNextItemWidth(width);
}
// A bar across the next cell with `text` on it.
inline void bar_cell(CellFit& fit, float fraction, const char* text, const ImVec4& fill) {
  ImGui::TableNextColumn();
  fit.check(ImGui::CalcTextSize(text).x, text);
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, fill);
  ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), text);
  ImGui::PopStyleColor();
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
