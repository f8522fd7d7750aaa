#pragma once
// The runtime tests' global operator new counts every call (counting_new.cpp replaces it), so a
// test can show a path never allocates: compare allocation_count() before and after it.
#include <atomic>
#include <cstdlib>
#include <new>

namespace counting_new {
inline std::atomic<long> g_allocations{0};  // atomic: a test may allocate on more than one thread
inline long allocation_count() noexcept { return g_allocations.load(); }
}  // namespace counting_new
