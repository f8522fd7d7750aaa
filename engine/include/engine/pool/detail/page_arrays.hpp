#pragma once
// engine::detail: names for the per-slot arrays a VectorPool splits across its pages. The
// free stack, the release_later() queue and the queue positions are cut into per-page
// shares like the slots (entry k lives in page k >> shift, at offset k & mask), and a
// one-page pool also caches a pointer to each (VectorPool's FlatView) so a lookup skips the
// page table. VectorPool::paged<Array>(k) and paged_run<Array>(k) are the one accessor over
// "entry k of that array"; each tag below says which array, in a page and in the view.
#include <cstdint>

namespace engine::detail {

struct FreeStackArray {  // the LIFO free stack: slot indices, entry 0 = bottom
  template <class Page>
  static auto* of(Page& page) noexcept {
    return page.free_stack();
  }
  template <class View>
  static auto* flat(const View& view) noexcept {
    return view.free_stack;
  }
};

struct ReleaseQueueArray {  // the release_later() queue: QueuedHandle entries, in queueing order
  template <class Page>
  static auto* of(Page& page) noexcept {
    return page.pending();
  }
  template <class View>
  static auto* flat(const View& view) noexcept {
    return view.pending;
  }
};

struct QueuePositionArray {  // per slot: where its entry sits in the queue (only once the queue is indexed)
  template <class Page>
  static auto* of(Page& page) noexcept {
    return page.queue_positions();
  }
  template <class View>
  static auto* flat(const View& view) noexcept {
    return view.queue_positions;
  }
};

// A stretch of one array inside one page: where entry k is, and how many of that page's
// entries start there (loops over many entries take them a page at a time).
template <class Entry>
struct PagedRun {
  Entry* first;
  std::uint32_t length;
};

}  // namespace engine::detail
