#include "metrics/machine_caches.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace game {

namespace {

std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

// Cache sizes are whole ("32 MiB"); a live figure keeps a decimal ("19.0 MiB").
void format_bytes(std::size_t bytes, char* out, std::size_t size, bool decimal = false) noexcept {
  const double b = static_cast<double>(bytes);
  if (bytes >= (std::size_t{1} << 20)) {
    const double mib = b / (1024.0 * 1024.0);
    const bool whole = !decimal && mib == static_cast<double>(static_cast<std::size_t>(mib));
    std::snprintf(out, size, whole ? "%.0f MiB" : "%.1f MiB", mib);
  } else if (bytes >= 1024) {
    std::snprintf(out, size, "%.0f KiB", b / 1024.0);
  } else {
    std::snprintf(out, size, "%zu B", bytes);
  }
}

#if defined(_SC_LEVEL3_CACHE_SIZE)
void add_sysconf(MachineCaches& caches, int level, const char* type, int name) {
  const long size = sysconf(name);
  if (size > 0) caches.levels.push_back({level, type, static_cast<std::size_t>(size)});
}
#endif

}  // namespace

const CacheLevel* MachineCaches::data_cache(int level) const noexcept {
  for (const CacheLevel& c : levels) {
    if (c.level == level && c.type != "Instruction") return &c;
  }
  return nullptr;
}

std::size_t parse_cache_size(const std::string& text) noexcept {
  std::size_t i = 0, value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    value = value * 10 + static_cast<std::size_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return 0;
  const std::string unit = text.substr(i);
  if (unit.empty()) return value;
  if (unit == "K" || unit == "KB" || unit == "KiB") return value << 10;
  if (unit == "M" || unit == "MB" || unit == "MiB") return value << 20;
  if (unit == "G" || unit == "GB" || unit == "GiB") return value << 30;
  return 0;
}

MachineCaches read_sys_caches(const std::string& cache_dir) {
  MachineCaches caches;
  std::error_code ec;
  std::vector<std::filesystem::path> dirs;
  for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec)) {
    if (entry.path().filename().string().rfind("index", 0) == 0) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    CacheLevel c;
    c.level = std::atoi(first_line(dir / "level").c_str());
    c.type = first_line(dir / "type");
    c.size_bytes = parse_cache_size(first_line(dir / "size"));
    if (c.level > 0 && c.size_bytes > 0) caches.levels.push_back(c);
  }
  std::stable_sort(caches.levels.begin(), caches.levels.end(),
                   [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
  return caches;
}

MachineCaches read_machine_caches() {
  MachineCaches caches = read_sys_caches("/sys/devices/system/cpu/cpu0/cache");
  if (!caches.levels.empty()) return caches;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  add_sysconf(caches, 1, "Data", _SC_LEVEL1_DCACHE_SIZE);
  add_sysconf(caches, 2, "Unified", _SC_LEVEL2_CACHE_SIZE);
  add_sysconf(caches, 3, "Unified", _SC_LEVEL3_CACHE_SIZE);
#endif
  return caches;
}

const MachineCaches& machine_caches() {
  static const MachineCaches caches = read_machine_caches();
  return caches;
}

void working_set_line(std::size_t bytes_live, const MachineCaches& caches, char* out, std::size_t size) noexcept {
  if (size == 0) return;
  char live[32];
  format_bytes(bytes_live, live, sizeof live, true);
  const CacheLevel* l2 = caches.data_cache(2);
  const CacheLevel* l3 = caches.data_cache(3);
  const CacheLevel* largest = l3 ? l3 : l2 ? l2 : caches.data_cache(1);
  if (largest == nullptr) {
    std::snprintf(out, size, "live %s vs caches unknown", live);
    return;
  }
  char l2s[32] = "", l3s[32] = "";
  if (l2) format_bytes(l2->size_bytes, l2s, sizeof l2s);
  if (l3) format_bytes(l3->size_bytes, l3s, sizeof l3s);
  char verdict[48];
  if (bytes_live > largest->size_bytes) {
    std::snprintf(verdict, sizeof verdict, "the working set spills L%d", largest->level);
  } else {
    int fits = largest->level;
    for (int level = 1; level <= largest->level; ++level) {
      const CacheLevel* c = caches.data_cache(level);
      if (c && bytes_live <= c->size_bytes) {
        fits = level;
        break;
      }
    }
    std::snprintf(verdict, sizeof verdict, "the working set fits L%d", fits);
  }
  if (l2 && l3) {
    std::snprintf(out, size, "live %s vs L2 %s, L3 %s: %s", live, l2s, l3s, verdict);
  } else {
    char ls[32];
    format_bytes(largest->size_bytes, ls, sizeof ls);
    std::snprintf(out, size, "live %s vs L%d %s: %s", live, largest->level, ls, verdict);
  }
}

nlohmann::json caches_json(const MachineCaches& caches) {
  nlohmann::json out = nlohmann::json::array();
  for (const CacheLevel& c : caches.levels) {
    out.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}});
  }
  return out;
}

}  // namespace game
