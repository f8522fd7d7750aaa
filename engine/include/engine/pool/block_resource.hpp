// SPDX-License-Identifier: MIT
#pragma once
// engine::BlockResource: a std::pmr::memory_resource that serves one block size from pool pages.
// Part of the header-only pool library (CMake target engine::pool).
//
// Node containers allocate one fixed-size node per element: std::pmr::list, map, set,
// unordered_map nodes. Give BlockResource the node size and every node comes from its pages,
// every erased node goes back on its free list, and nothing touches the global heap per node.
// Requests that do not fit a block (bigger, or more aligned) go to the upstream resource
// untouched, so a std::pmr::vector works too: small buffers pooled, large ones passed through.
//
// Careful with the size: a list node is not sizeof(T) but sizeof(T) plus two links (and
// padding). Measure it once (the tests show how) or pick a generous block; stats() tells you
// how much was pooled and how much fell back.
//
// Pages come from the upstream resource, are carved lazily (growth is O(1)) and go back to
// it only in the destructor. Blocks still allocated then are freed with their pages, as with
// std::pmr::unsynchronized_pool_resource: the containers using them must be gone first.
//
// Not thread-safe (like std::pmr::unsynchronized_pool_resource): one resource per thread, or
// external locking. Debug builds check every pooled deallocation points into one of this
// resource's pages at a block boundary; AddressSanitizer builds poison free blocks, so a use
// after deallocate or a double deallocate is reported.
#include <engine/pool/assert.hpp>
#include <engine/pool/detail/memory.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>

namespace engine {

struct BlockResourceConfig {
  std::size_t block_size = 64;                          // requests up to this many bytes are pooled
  std::size_t block_align = alignof(std::max_align_t);  // ... if they need at most this alignment
  std::size_t blocks_per_page = 128;                    // blocks per upstream allocation (>= 1)
};

struct BlockResourceStats {
  std::size_t block_size = 0;   // bytes per block (normalised: holds a pointer, whole alignment steps)
  std::size_t block_align = 0;  // alignment of every block (a power of two)
  std::size_t blocks_live = 0;  // pooled blocks handed out and not yet returned
  std::size_t peak_blocks_live = 0;
  std::size_t blocks_free = 0;  // blocks on the free list or not yet carved
  std::size_t pages = 0;
  std::size_t bytes_held = 0;            // page bytes taken from upstream
  std::size_t fallback_bytes_live = 0;   // bytes currently passed through to upstream
  std::uint64_t pooled_allocations = 0;  // served from a block
  std::uint64_t pooled_deallocations = 0;
  std::uint64_t fallback_allocations = 0;  // passed to upstream: too big or too aligned
  std::uint64_t fallback_deallocations = 0;
};

class BlockResource final : public std::pmr::memory_resource {
 public:
  explicit BlockResource(BlockResourceConfig config = {},
                         std::pmr::memory_resource* upstream = std::pmr::get_default_resource());
  BlockResource(std::size_t block_size, std::size_t block_align,
                std::pmr::memory_resource* upstream = std::pmr::get_default_resource())
      : BlockResource(BlockResourceConfig{block_size, block_align, 128}, upstream) {}
  ~BlockResource() override { release_pages(); }  // every page back to upstream
  BlockResource(const BlockResource&) = delete;
  BlockResource& operator=(const BlockResource&) = delete;

  bool serves(std::size_t bytes, std::size_t alignment) const noexcept {  // true: from a block
    return bytes <= block_size_ && alignment <= block_align_;
  }
  std::size_t block_size() const noexcept { return block_size_; }
  std::size_t block_align() const noexcept { return block_align_; }
  std::pmr::memory_resource* upstream() const noexcept { return upstream_; }
  BlockResourceStats stats() const noexcept;

 private:
  struct FreeBlock {  // lives in a free block's own bytes
    FreeBlock* next;
  };
  struct PageHeader {  // sits after a page's blocks: pages need no other bookkeeping
    PageHeader* next;
    unsigned char* first_block;
  };

  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;  // blocks go back only to the resource that carved them
  }

  void* allocate_block();
  void add_page();
  void release_pages() noexcept;
  bool owns_block(const void* p) const noexcept;  // debug check: O(pages)

  std::size_t block_size_;  // stride between blocks, a multiple of block_align_
  std::size_t block_align_;
  std::size_t blocks_per_page_;
  std::size_t page_bytes_;  // blocks plus the trailing PageHeader
  std::pmr::memory_resource* upstream_;

  FreeBlock* free_ = nullptr;            // returned blocks, most recent first (cache-warm)
  unsigned char* carve_next_ = nullptr;  // never-used blocks of the newest page
  unsigned char* carve_end_ = nullptr;
  PageHeader* pages_ = nullptr;
  BlockResourceStats stats_;
};

// ---------------------------------------------------------------------------------------------

inline BlockResource::BlockResource(BlockResourceConfig config, std::pmr::memory_resource* upstream)
    : upstream_(upstream != nullptr ? upstream : std::pmr::get_default_resource()) {
  // A free block stores a pointer, so blocks hold and align one at least; alignment is
  // rounded up to a power of two, the size to whole alignment steps (the stride).
  std::size_t align = alignof(FreeBlock);
  while (align < config.block_align) align <<= 1;
  block_align_ = align;
  const std::size_t size = std::max(config.block_size, sizeof(FreeBlock));
  block_size_ = (size + block_align_ - 1) / block_align_ * block_align_;
  blocks_per_page_ = std::max<std::size_t>(config.blocks_per_page, 1);
  const std::size_t header_at =
      (block_size_ * blocks_per_page_ + alignof(PageHeader) - 1) / alignof(PageHeader) * alignof(PageHeader);
  page_bytes_ = header_at + sizeof(PageHeader);
  stats_.block_size = block_size_;
  stats_.block_align = block_align_;
}

inline void* BlockResource::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (!serves(bytes, alignment)) {
    void* p = upstream_->allocate(bytes, alignment);
    ++stats_.fallback_allocations;
    stats_.fallback_bytes_live += bytes;
    return p;
  }
  void* p = allocate_block();
  ++stats_.pooled_allocations;
  ++stats_.blocks_live;
  --stats_.blocks_free;
  stats_.peak_blocks_live = std::max(stats_.peak_blocks_live, stats_.blocks_live);
  return p;
}

inline void* BlockResource::allocate_block() {
  if (free_ != nullptr) {
    FreeBlock* block = free_;
    detail::unpoison(block, sizeof(FreeBlock));  // the link only; the rest stays poisoned
    free_ = block->next;
    block->~FreeBlock();
    detail::unpoison(block, block_size_);
    return block;
  }
  if (carve_next_ == carve_end_) add_page();  // throws (upstream's bad_alloc): nothing changed
  unsigned char* block = carve_next_;
  carve_next_ += block_size_;
  detail::unpoison(block, block_size_);
  return block;
}

inline void BlockResource::add_page() {
  auto* page =
      static_cast<unsigned char*>(upstream_->allocate(page_bytes_, std::max(block_align_, alignof(PageHeader))));
  auto* header = ::new (static_cast<void*>(page + page_bytes_ - sizeof(PageHeader))) PageHeader{pages_, page};
  pages_ = header;
  carve_next_ = page;
  carve_end_ = page + block_size_ * blocks_per_page_;
  detail::poison(page, block_size_ * blocks_per_page_);  // uncarved blocks are free too
  ++stats_.pages;
  stats_.bytes_held += page_bytes_;
  stats_.blocks_free += blocks_per_page_;
}

inline void BlockResource::do_deallocate(void* p, std::size_t bytes, std::size_t alignment) {
  if (!serves(bytes, alignment)) {  // pmr passes the same size and alignment as the allocation
    upstream_->deallocate(p, bytes, alignment);
    ++stats_.fallback_deallocations;
    stats_.fallback_bytes_live -= bytes;
    return;
  }
  ENGINE_POOL_ASSERT(owns_block(p),
                     "BlockResource::deallocate: pointer is not a block of this resource "
                     "(wrong resource, wrong size passed, or not from allocate)");
  ENGINE_POOL_ASSERT(stats_.blocks_live > 0, "BlockResource::deallocate: more deallocations than allocations");
  if (stats_.blocks_live == 0) return;  // release builds: refuse rather than corrupt the counts
  // Writing the link into a poisoned (already free) block is what ASan reports as a double free.
  FreeBlock* block = ::new (p) FreeBlock{free_};
  free_ = block;
  detail::mark_released(static_cast<unsigned char*>(p) + sizeof(FreeBlock), block_size_ - sizeof(FreeBlock),
                        block_size_ - sizeof(FreeBlock));
  detail::poison(p, sizeof(FreeBlock));
  ++stats_.pooled_deallocations;
  --stats_.blocks_live;
  ++stats_.blocks_free;
}

inline bool BlockResource::owns_block(const void* p) const noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  for (const PageHeader* page = pages_; page != nullptr; page = page->next) {
    const auto first = reinterpret_cast<std::uintptr_t>(page->first_block);
    if (address < first || address >= first + block_size_ * blocks_per_page_) continue;
    return (address - first) % block_size_ == 0;
  }
  return false;
}

inline void BlockResource::release_pages() noexcept {
  PageHeader* page = pages_;
  while (page != nullptr) {
    PageHeader* next = page->next;
    unsigned char* memory = page->first_block;
    // Upstream may reuse this memory (a monotonic buffer, say): hand it back clean.
    detail::unpoison(memory, block_size_ * blocks_per_page_);
    upstream_->deallocate(memory, page_bytes_, std::max(block_align_, alignof(PageHeader)));
    page = next;
  }
  pages_ = nullptr;
  free_ = nullptr;
  carve_next_ = carve_end_ = nullptr;
}

inline BlockResourceStats BlockResource::stats() const noexcept { return stats_; }

}  // namespace engine
