#pragma once
// game::HeapFigures: what the C allocator and the kernel say about this process's memory, for
// the overlay's heap view and the report. glibc's mallinfo2() gives the arena the allocator took
// from the system, what of it is in use, and the free bytes and chunks it holds back (memory no
// object uses but the process keeps: the fragmentation pooling avoids); /proc/self/statm gives
// the resident set. Reading both allocates nothing (statm is read with read(2) into a buffer on
// the stack), so the overlay may read them in the frame loop.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>

namespace game {

struct HeapFigures {
  bool valid = false;              // the allocator figures are glibc's; false: not read yet, not glibc,
                                   // or malloc replaced (ASan); resident_bytes is read either way
  std::size_t arena_bytes = 0;     // mallinfo2 arena: bytes the allocator took with brk/sbrk (all arenas)
  std::size_t mmapped_bytes = 0;   // hblkhd: big blocks mapped one by one (given back on free)
  std::size_t in_use_bytes = 0;    // uordblks: allocated to the program
  std::size_t free_bytes = 0;      // fordblks: free, but still held by the allocator
  std::size_t free_chunks = 0;     // ordblks + smblks: the pieces that free memory is cut into
  std::size_t top_releasable = 0;  // keepcost: free bytes at the top that malloc_trim could give back
  std::size_t resident_bytes = 0;  // /proc/self/statm resident pages * page size; 0 if unreadable

  double fragmentation() const noexcept {  // free bytes held against the arena
    return arena_bytes == 0 ? 0.0 : static_cast<double>(free_bytes) / static_cast<double>(arena_bytes);
  }
};

HeapFigures read_heap_figures() noexcept;
std::size_t read_resident_bytes() noexcept;                    // 0 if /proc/self/statm cannot be read
nlohmann::json heap_figures_json(const HeapFigures& figures);  // the report's "heap" objects

}  // namespace game
