#pragma once
// Counts calls to the global operator new (all variants) in the whole process, so a test
// can prove that a steady-state simulation step allocates nothing. The replacement
// operators live in alloc_counter.cpp; referencing heap_alloc_count() from the simulation
// guarantees the linker keeps that object file out of the static library.
#include <cstdint>

namespace game {

// operator new calls since the process started (relaxed: a statistic, not a fence).
std::uint64_t heap_alloc_count() noexcept;

}  // namespace game
