#pragma once
// game::MachineCaches: this machine's CPU caches as the OS reports them, so the panel can set
// the pools' live bytes (what a step walks) beside them: the heap/pooled ratio depends on
// whether that working set fits a cache, which is why it differs between machines.
// Linux: /sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}; otherwise
// sysconf(_SC_LEVEL3_CACHE_SIZE) (and L1d/L2 where it knows them); empty: unknown.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace game {

struct CacheLevel {
  int level = 0;
  std::string type;  // "Data", "Instruction" or "Unified"
  std::size_t size_bytes = 0;
};

struct MachineCaches {
  std::vector<CacheLevel> levels;  // by level, as listed; empty: unknown
  // The data (or unified) cache of `level`; nullptr when not known.
  const CacheLevel* data_cache(int level) const noexcept;
};

// "32K" -> 32768, "1024K", "32M", "512" (bytes); 0 when it does not parse.
std::size_t parse_cache_size(const std::string& text) noexcept;
// The caches under `cache_dir` (index*/level, type, size); empty when there are none.
MachineCaches read_sys_caches(const std::string& cache_dir);
// /sys/devices/system/cpu/cpu0/cache, falling back to sysconf.
MachineCaches read_machine_caches();
// Read once, on first use (the panel asks every frame).
const MachineCaches& machine_caches();

// "live 19.0 MiB vs L2 512 KiB, L3 32 MiB: the working set spills L3" ("caches unknown" when none).
void working_set_line(std::size_t bytes_live, const MachineCaches& caches, char* out, std::size_t size) noexcept;

// [{"level":1,"type":"Data","size_bytes":32768}, ...] (the report's machine.caches).
nlohmann::json caches_json(const MachineCaches& caches);

}  // namespace game
