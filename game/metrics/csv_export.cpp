#include "metrics/csv_export.hpp"

#include "metrics/compare_result.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace game {

namespace {

// snprintf into a line buffer, appended to out: %g-style numbers never depend on a locale
// set by a library, and the rows stay short.
template <class... Args>
void append(std::string& out, const char* format, Args... args) {
  char line[256];
  const int n = std::snprintf(line, sizeof line, format, args...);
  if (n > 0) out.append(line, std::min(static_cast<std::size_t>(n), sizeof line - 1));
}

std::string pools_in(std::uint8_t mask) {
  std::string names;
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    if ((mask & (1u << i)) == 0) continue;
    if (!names.empty()) names += '|';
    names += pool_name(static_cast<PoolId>(i));
  }
  return names;
}

std::string joined(const std::string& dir, const std::string& file) {
  if (dir.empty()) return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

}  // namespace

std::string frame_window_csv(const FrameWindow& window) {
  std::string out = "frame,sim_ms,render_ms,total_ms,over_budget,heap_allocs,draw_calls,sprites,grew,switch\n";
  std::size_t mark = 0;  // the window's switches are in frame order, as its rows are
  for (const FrameRow& r : window.rows) {
    append(out, "%" PRIu64 ",%.4f,%.4f,%.4f,%d,%" PRIu64 ",%u,%u,", r.frame, static_cast<double>(r.sim_ms),
           static_cast<double>(r.render_ms), static_cast<double>(r.total_ms()), r.over_budget ? 1 : 0, r.allocations,
           r.draw_calls, r.sprites);
    out += pools_in(r.grew);
    out += ',';
    while (mark < window.switches.size() && window.switches[mark].frame < r.frame) ++mark;
    for (bool first = true; mark < window.switches.size() && window.switches[mark].frame == r.frame; ++mark) {
      if (!first) out += '|';
      out += window.switches[mark].label;
      first = false;
    }
    out += '\n';
  }
  return out;
}

std::string growth_log_csv(const std::vector<GrowthRecord>& log) {
  std::string out =
      "frame,pool,old_capacity,new_capacity,bytes_allocated,microseconds,relocated,relocated_objects,rebuild\n";
  for (const GrowthRecord& g : log) {
    append(out, "%" PRIu64 ",%s,%zu,%zu,%zu,%.3f,%d,%zu,%d\n", g.frame, pool_name(g.pool), g.event.old_capacity,
           g.event.new_capacity, g.event.bytes_allocated, g.event.microseconds, g.event.relocated ? 1 : 0,
           g.event.relocated_objects, g.rebuild ? 1 : 0);
  }
  return out;
}

std::string compare_csv(const CompareResult& result) {
  std::string out = "frame,pooled_sim_ms,heap_sim_ms,pooled_heap_allocs,heap_heap_allocs\n";
  const std::size_t rows = std::min(result.pooled.steps(), result.heap.steps());
  for (std::size_t i = 0; i < rows; ++i) {
    append(out, "%zu,%.4f,%.4f,%" PRIu64 ",%" PRIu64 "\n", i + 1, static_cast<double>(result.pooled.sim_ms(i)),
           static_cast<double>(result.heap.sim_ms(i)), result.pooled.allocations(i), result.heap.allocations(i));
  }
  return out;
}

bool write_text_file(const std::string& path, const std::string& text, std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  out << text;
  out.flush();
  if (!out) {
    error = "cannot write '" + path + "': write failed";
    return false;
  }
  return true;
}

ExportedFiles export_overlay_csv(const OverlayModel& model, const std::string& dir) {
  ExportedFiles files;
  const std::string step = std::to_string(model.sim_step);
  const std::string frames_path = joined(dir, "poolshot_frames_" + step + ".csv");
  const std::string growth_path = joined(dir, "poolshot_growth_" + step + ".csv");
  if (!write_text_file(frames_path, frame_window_csv(model.window), files.error)) return files;
  if (!write_text_file(growth_path, growth_log_csv(model.growth_log), files.error)) return files;
  files.frames_path = frames_path;
  files.growth_path = growth_path;
  return files;
}

}  // namespace game
