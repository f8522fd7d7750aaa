#pragma once
// game::draw_compare_chart: the A/B comparison as a picture, drawn straight into an RGBA
// buffer (no plotting library): axes with millisecond and frame ticks, the 16.7 ms budget
// line when it is in range, the heap run's per-step times in orange and the pooled run's
// in green on top, and a legend with each run's p50 / p99 / max (a lone hitch above 1.5 x
// p99 runs off the top). Labels use a built-in 3x5 font.
#include "metrics/compare_result.hpp"

#include <engine/image.hpp>
#include <engine/sprite.hpp>

#include <cstdint>
#include <string>

namespace game {

struct ChartRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // inclusive pixel bounds of the plot area
};

namespace chart_colors {  // 0xAABBGGRR, as engine::Image::pixel returns them
inline constexpr std::uint32_t pooled = engine::rgba(70, 215, 120);
inline constexpr std::uint32_t heap = engine::rgba(255, 140, 40);
inline constexpr std::uint32_t budget = engine::rgba(230, 60, 70);
}  // namespace chart_colors

ChartRect chart_plot_area(int width, int height) noexcept;
engine::Image draw_compare_chart(const CompareResult& result, int width = 960, int height = 420,
                                 double budget_ms = 1000.0 / 60.0);

// "out/ab.json" -> "out/ab.csv" (a trailing ".json" is replaced, anything else is kept and
// `extension` appended): where --compare puts its CSV and PNG next to the report.
std::string sibling_path(const std::string& report_path, const std::string& extension);
// The comparison's CSV (csv_export.hpp, compare_csv) and chart PNG. On failure returns false
// and sets `error` (one line naming the file).
bool write_compare_files(const CompareResult& result, const std::string& csv_path, const std::string& png_path,
                         std::string& error);

}  // namespace game
