#pragma once
// The JSON report `poolshot --report FILE` writes at exit: what ran, the state hash, frame
// times, the pools, and heap allocations by kind of frame (frame_log.hpp: FrameKind); with an
// OverlayModel also what the debug overlay shows ("overlay") and the capacity advice ("advisor"),
// with a PhaseRecorder the spans between settings changes ("phases").
#include "metrics/frame_log.hpp"
#include "metrics/memory_snapshot.hpp"
#include "metrics/overlay_model.hpp"
#include "metrics/phase_recorder.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace game {

// The sprite renderer as the report names it ("render"). A headless run has none: path and
// gl_renderer empty, written as null.
struct ReportRender {
  std::string requested = "auto";  // --render-path: "auto", "fast" or "instanced"
  std::string path;                // the path that drew: "fast" or "instanced" (auto's choice)
  std::string gl_renderer;         // glGetString(GL_RENDERER)
  bool software_gl = false;        // gl_renderer is a software rasteriser (engine::is_software_renderer)
};

struct ReportContext {
  std::string scenario_path;
  bool headless = true;
  const OverlayModel* overlay = nullptr;              // set: the report gets "overlay" and "advisor" sections
  const std::vector<PhaseSummary>* phases = nullptr;  // set: the report gets "phases"
  std::string script_path = {};                       // --script FILE; empty: none (the report says null)
  const MemorySnapshot* memory = nullptr;  // set: the report gets "memory" (the maps' summaries, allocator figures)
  ReportRender render = {};                // "render": which sprite path drew, and on what GL
};

nlohmann::json make_report(const Simulation& sim, const FrameSummary& frames, const ReportContext& context);
// "0x" + 16 lower-case hex digits.
std::string hex_hash(std::uint64_t hash);
// Writes `report` (pretty, newline-terminated); on failure returns false and sets `error`.
bool write_report(const std::string& path, const nlohmann::json& report, std::string& error);

}  // namespace game
