#pragma once
// engine::detail::populate_memory: asks the operating system to back memory the pool has
// allocated but not yet written, without writing it. A fresh page of a pool is allocated
// untouched (UninitializedAllocator), so the first burst of emplaces into it stops on a page
// fault every 4 KiB (about 3 us each on a 2-vCPU VM): VectorPool::prefault() pays those faults
// ahead, a bounded amount at a time, in a moment the caller chooses. Nothing is written, so the
// memory's contents (and AddressSanitizer's poisoning of free slots) stay as they were.
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace engine::detail {

// Backs [begin, begin + bytes) with writable pages now. Returns `bytes` when the OS did, 0
// where it cannot: systems other than Linux, and kernels before 5.14 (MADV_POPULATE_WRITE).
// Whole OS pages are asked for, so the range is widened to the pages it touches; those pages
// are mapped already (they hold part of the range), and populating never changes contents.
inline std::size_t populate_memory(const void* begin, std::size_t bytes) noexcept {
#if defined(__linux__)
  if (bytes == 0) return 0;
  constexpr int populate_write = 23;  // MADV_POPULATE_WRITE; older C library headers lack the name
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto address = reinterpret_cast<std::uintptr_t>(begin);
  const std::uintptr_t first = address & ~(page - 1);
  const std::uintptr_t last = (address + bytes + page - 1) & ~(page - 1);
  return madvise(reinterpret_cast<void*>(first), last - first, populate_write) == 0 ? bytes : 0;
#else
  static_cast<void>(begin);
  static_cast<void>(bytes);
  return 0;
#endif
}

}  // namespace engine::detail
