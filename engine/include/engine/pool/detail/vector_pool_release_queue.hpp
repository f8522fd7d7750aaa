#pragma once
// Part of engine::VectorPool<T>'s implementation: the release_later() queue.
// release_later() appends a handle to the slot table's queue (never allocating, at most
// capacity() entries; it switches to one entry per slot when repeats would overflow it) and
// flush_releases() releases the queue in order.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// The queue itself (appending in O(1) without allocating, and indexing it when repeats would
// overflow it) is the slot table's: SlotTable::enqueue.
template <class T>
ENGINE_POOL_ENTRY void VectorPool<T>::release_later(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "release_later() inside a chunked pass: its tasks run in parallel");
  if (!table_.is_live(handle)) {
    if (destroyed_by_this_teardown(handle)) return;  // as in release(): the teardown got there first
    ENGINE_POOL_ASSERT(false, "release_later() of a null, stale, foreign or already released handle");
    ++state_.counters.failed_releases;  // as a flush would have counted it
    return;
  }
  state_.counters.failed_releases += table_.enqueue(handle);  // repeats the flush would have refused
}

// Entries appended while the flush runs (a destructor calling release_later()) are flushed
// too: the loop re-reads the queue's length.
template <class T>
std::size_t VectorPool<T>::flush_releases() noexcept {
  if (refuse_mid_pass("flush_releases() inside for_each/erase_if; flush after the pass", true)) return 0;
  if (refuse_release_while_building()) return 0;
  std::size_t released = 0;
  {  // closed before the self-check below: it runs only outside every callback scope
    CallbackScope scope(callbacks_);
    const bool prefetch = table_.capacity() >= prefetch_threshold;
    // The layout is read once: T's destructors may not change it (set_policy and relocating
    // growth are refused inside them).
    const auto flush = [&](auto& where) {
      constexpr bool packed = !std::is_same_v<std::decay_t<decltype(where)>, Objects>;
      for (std::uint32_t position = 0; position < table_.pending_count();) {  // a page of the queue at a time
        const detail::PagedRun<detail::QueuedHandle> run = table_.queue_run(position);
        const std::uint32_t length = std::min(run.length, table_.pending_count() - position);
        for (std::uint32_t i = 0; i < length; ++i) {
          if (prefetch && i + prefetch_distance < length) {
            const std::uint32_t ahead = run.first[i + prefetch_distance].index;
            if (ahead < table_.used()) prefetch_release_in<packed>(ahead);
          }
          const detail::QueuedHandle queued = run.first[i];
          // Not live: released directly since it was queued.
          if (table_.is_live(PoolHandle{queued.index, queued.generation})) {
            release_slot_in(where, queued.index);
            ++released;
          } else {
            ++state_.counters.failed_releases;
          }
        }
        position += length;
      }
    };
    with_objects(flush);
  }
  table_.end_queue();
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after flush_releases");
  return released;
}

}  // namespace engine
