#include "metrics/heap_figures.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace game {

std::size_t read_resident_bytes() noexcept {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];  // "size resident shared text lib data dt": seven numbers
  const ssize_t got = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (got <= 0) return 0;
  // The second field is resident pages.
  std::size_t i = 0, n = static_cast<std::size_t>(got);
  while (i < n && text[i] != ' ') ++i;
  ++i;
  std::size_t pages = 0;
  bool digits = false;
  for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
    pages = pages * 10 + static_cast<std::size_t>(text[i] - '0');
    digits = true;
  }
  if (!digits) return 0;
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages * static_cast<std::size_t>(page > 0 ? page : 4096);
}

HeapFigures read_heap_figures() noexcept {
  HeapFigures f;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 m = ::mallinfo2();
  f.arena_bytes = m.arena;
  f.mmapped_bytes = m.hblkhd;
  f.in_use_bytes = m.uordblks;
  f.free_bytes = m.fordblks;
  f.free_chunks = m.ordblks + m.smblks;
  f.top_releasable = m.keepcost;
  // A running program always holds some glibc memory; all zeros means malloc is not glibc's
  // (AddressSanitizer replaces it, and its mallinfo2 answers nothing).
  f.valid = m.arena != 0 || m.hblkhd != 0;
#endif
  f.resident_bytes = read_resident_bytes();
  return f;
}

nlohmann::json heap_figures_json(const HeapFigures& f) {
  return {{"allocator_figures", f.valid ? "glibc mallinfo2" : "unavailable (malloc is not glibc's, e.g. under ASan)"},
          {"arena_bytes", f.arena_bytes},
          {"mmapped_bytes", f.mmapped_bytes},
          {"in_use_bytes", f.in_use_bytes},
          {"free_bytes_held", f.free_bytes},
          {"free_chunks", f.free_chunks},
          {"top_releasable_bytes", f.top_releasable},
          {"fragmentation", f.fragmentation()},
          {"resident_bytes", f.resident_bytes}};
}

}  // namespace game
