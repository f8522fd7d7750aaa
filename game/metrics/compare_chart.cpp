#include "metrics/compare_chart.hpp"

#include "metrics/axis_step.hpp"
#include "metrics/csv_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace game {

namespace {

constexpr std::uint32_t kBackground = engine::rgba(16, 18, 26);
constexpr std::uint32_t kPlotBackground = engine::rgba(24, 27, 38);
constexpr std::uint32_t kGrid = engine::rgba(48, 52, 68);
constexpr std::uint32_t kAxis = engine::rgba(150, 155, 170);
constexpr std::uint32_t kText = engine::rgba(200, 204, 215);
constexpr int kTextScale = 2;  // 3x5 glyphs drawn 6x10

// A 3x5 font: each glyph is five rows of three cells, '#' lit. Only what the labels need.
struct Glyph {
  char c;
  const char* rows;  // 15 characters, row by row
};
constexpr Glyph kFont[] = {
    {'0', "####.##.##.####"}, {'1', ".#.##..#..#.###"}, {'2', "###..#####..###"}, {'3', "###..####..####"},
    {'4', "#.##.####..#..#"}, {'5', "####..###..####"}, {'6', "####..####.####"}, {'7', "###..#..#..#..#"},
    {'8', "####.#####.####"}, {'9', "####.####..####"}, {'.', ".............#."}, {'-', "......###......"},
    {'A', ".#.#.#####.##.#"}, {'B', "##.#.###.#.###."}, {'D', "##.#.##.##.###."}, {'E', "####..##.#..###"},
    {'F', "####..##.#..#.."}, {'G', ".###..#.##.#.##"}, {'H', "#.##.#####.##.#"}, {'L', "#..#..#..#..###"},
    {'M', "#.########.##.#"}, {'O', ".#.#.##.##.#.#."}, {'P', "####.#####..#.."}, {'R', "##.#.###.#.##.#"},
    {'S', ".###...#...###."}, {'T', "###.#..#..#..#."}, {'U', "#.##.##.##.####"}, {'/', "..#..#.#.#..#.."},
    {'X', "#.##.#.#.#.##.#"},
};

class Canvas {
 public:
  Canvas(int width, int height) {
    image_.width = width;
    image_.height = height;
    image_.rgba.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4, 0);
  }
  void put(int x, int y, std::uint32_t c) {
    if (x < 0 || y < 0 || x >= image_.width || y >= image_.height) return;
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(image_.width) + static_cast<std::size_t>(x)) * 4;
    for (int b = 0; b < 4; ++b) image_.rgba[i + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(c >> (8 * b));
  }
  void fill(int x0, int y0, int x1, int y1, std::uint32_t c) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) put(x, y, c);
  }
  // Bresenham, `thickness` pixels tall (the series are mostly horizontal).
  void line(int x0, int y0, int x1, int y1, std::uint32_t c, int thickness = 1) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    for (int err = dx + dy;;) {
      for (int t = 0; t < thickness; ++t) put(x0, y0 + t, c);
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  // Returns the x after the text.
  int text(int x, int y, const char* s, std::uint32_t c) {
    for (; *s != '\0'; ++s, x += 4 * kTextScale) {
      const Glyph* g = std::find_if(std::begin(kFont), std::end(kFont), [&](const Glyph& f) { return f.c == *s; });
      if (g == std::end(kFont)) continue;  // space and anything unknown: just advance
      for (int row = 0; row < 5; ++row)
        for (int col = 0; col < 3; ++col)
          if (g->rows[row * 3 + col] == '#')
            fill(x + col * kTextScale, y + row * kTextScale, x + (col + 1) * kTextScale - 1,
                 y + (row + 1) * kTextScale - 1, c);
    }
    return x;
  }
  engine::Image take() { return std::move(image_); }

 private:
  engine::Image image_;
};

// Three significant digits or so, in the few characters the font has.
void number(char* out, std::size_t size, double value) {
  const char* format = value >= 100 || value == std::floor(value) ? "%.0f"
                       : value >= 10                              ? "%.1f"
                       : value >= 1                               ? "%.2f"
                       : value >= 0.01                            ? "%.3f"
                                                                  : "%.4f";
  std::snprintf(out, size, format, value);
}

}  // namespace

ChartRect chart_plot_area(int width, int height) noexcept { return {64, 40, width - 20, height - 36}; }

engine::Image draw_compare_chart(const CompareResult& result, int width, int height, double budget_ms) {
  width = std::max(width, 160);
  height = std::max(height, 120);
  Canvas canvas(width, height);
  canvas.fill(0, 0, width - 1, height - 1, kBackground);
  const ChartRect plot = chart_plot_area(width, height);
  canvas.fill(plot.x0, plot.y0, plot.x1, plot.y1, kPlotBackground);

  const CompareSeries& a = result.pooled;
  const CompareSeries& b = result.heap;
  const std::size_t n = std::max(a.steps(), b.steps());
  float top = 0;
  for (const CompareSeries* s : {&a, &b}) {
    for (std::size_t i = 0; i < s->steps(); ++i) top = std::max(top, s->sim_ms(i));
  }
  // A lone hitch (preemption, a page-in) may not flatten both lines: past 1.5 x the larger
  // p99 the lines run off the top, clipped; the legend gives each run's max.
  if (result.done) top = std::min(top, static_cast<float>(std::max(result.pooled.sim.p99, result.heap.sim.p99) * 1.5));
  const double y_step = nice_step(std::max(0.05, static_cast<double>(top) * 1.1) / 5);
  const double y_max = y_step * std::ceil(std::max(0.05, static_cast<double>(top) * 1.1) / y_step);
  const int plot_w = plot.x1 - plot.x0, plot_h = plot.y1 - plot.y0;
  const auto y_of = [&](double ms) {
    return plot.y1 - static_cast<int>(std::lround(std::clamp(ms / y_max, 0.0, 1.0) * plot_h));
  };
  const auto x_of = [&](std::size_t i) {
    return plot.x0 +
           (n > 1 ? static_cast<int>(std::lround(static_cast<double>(i) * plot_w / static_cast<double>(n - 1))) : 0);
  };

  char label[96];
  for (double ms = 0; ms <= y_max + y_step * 0.01; ms += y_step) {  // horizontal grid, ms labels
    const int y = y_of(ms);
    canvas.line(plot.x0, y, plot.x1, y, kGrid);
    number(label, sizeof label, ms);
    canvas.text(6, y - 5, label, kText);
  }
  canvas.text(6, plot.y0 - 28, "MS", kText);
  const double x_step = nice_step(static_cast<double>(std::max<std::size_t>(n, 1)) / 8);
  for (double f = 0; n > 1 && f < static_cast<double>(n); f += x_step) {  // frame ticks
    const int x = x_of(static_cast<std::size_t>(f));
    canvas.line(x, plot.y1, x, plot.y1 + 4, kAxis);
    std::snprintf(label, sizeof label, "%.0f", f);
    canvas.text(x - 4, plot.y1 + 8, label, kText);
  }
  canvas.text(plot.x1 - 5 * 4 * kTextScale, plot.y1 + 22, "FRAME", kText);
  if (budget_ms < y_max) {  // dashed
    const int y = y_of(budget_ms);
    for (int x = plot.x0; x <= plot.x1; x += 12)
      canvas.line(x, y, std::min(x + 6, plot.x1), y, chart_colors::budget, 2);
    std::snprintf(label, sizeof label, "BUDGET %.1f MS", budget_ms);
    canvas.text(plot.x1 - 15 * 4 * kTextScale, y - 14, label, chart_colors::budget);
  }
  // Heap first, pooled on top: pooled is usually the lower line and must stay visible.
  for (const auto* series : {&b, &a}) {
    const std::uint32_t colour = series == &a ? chart_colors::pooled : chart_colors::heap;
    for (std::size_t i = 1; i < series->steps(); ++i) {
      canvas.line(x_of(i - 1), y_of(static_cast<double>(series->sim_ms(i - 1))), x_of(i),
                  y_of(static_cast<double>(series->sim_ms(i))), colour, 2);
    }
  }
  canvas.line(plot.x0, plot.y0, plot.x0, plot.y1, kAxis);  // axes over the data
  canvas.line(plot.x0, plot.y1, plot.x1, plot.y1, kAxis);

  // Legend above the plot: each run's colour with its p50 / p99.
  int x = plot.x0 + 40;
  for (const CompareSeries* s : {&result.pooled, &result.heap}) {
    const std::uint32_t colour = s == &result.pooled ? chart_colors::pooled : chart_colors::heap;
    canvas.fill(x, plot.y0 - 24, x + 14, plot.y0 - 14, colour);
    char p50[16], p99[16], max[16];
    number(p50, sizeof p50, s->sim.p50);
    number(p99, sizeof p99, s->sim.p99);
    number(max, sizeof max, s->sim.max);
    std::snprintf(label, sizeof label, "%s P50 %s P99 %s MAX %s MS", s->pooling ? "POOLED" : "HEAP", p50, p99, max);
    x = canvas.text(x + 22, plot.y0 - 24, label, kText) + 40;
  }
  return canvas.take();
}

std::string sibling_path(const std::string& report_path, const std::string& extension) {
  const std::string json = ".json";
  if (report_path.size() > json.size() &&
      report_path.compare(report_path.size() - json.size(), json.size(), json) == 0) {
    return report_path.substr(0, report_path.size() - json.size()) + extension;
  }
  return report_path + extension;
}

bool write_compare_files(const CompareResult& result, const std::string& csv_path, const std::string& png_path,
                         std::string& error) {
  if (!write_text_file(csv_path, compare_csv(result), error)) return false;
  if (const engine::Status s = engine::write_png(png_path, draw_compare_chart(result)); !s) {
    error = s.message();
    return false;
  }
  return true;
}

}  // namespace game
