#pragma once
// Part of engine::VectorPool<T>'s implementation: the release_later() queue.
// release_later() appends a handle to a queue kept in the pages (never allocating, at most
// capacity() entries; it switches to one entry per slot when repeats would overflow it) and
// flush_releases() releases the queue in order.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

// Queueing is one store in the common case: state_.queue_tail points at the next free entry and
// state_.queue_room says how many follow in the same page (and below state_.capacity). The queue lives in
// the pages and may hold up to state_.capacity entries, so appending never allocates. It can only
// fill up when some slots are queued more than once before a flush (the same handle twice,
// or a new object in a slot whose queued object was released directly); then
// index_release_queue() drops the dead and repeated entries and records in each slot where
// its entry is, and until the flush every release_later() finds a slot's entry in O(1) and
// updates it instead of appending. A queue with one entry per slot cannot outgrow the pages.
template <class T>
ENGINE_POOL_ENTRY void VectorPool<T>::release_later(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(!parallel_pass_, "release_later() inside a chunked pass: its tasks run in parallel");
  if (!is_live(handle)) {
    if (destroyed_by_this_teardown(handle)) return;  // as in release(): the teardown got there first
    ENGINE_POOL_ASSERT(false, "release_later() of a null, stale, foreign or already released handle");
    ++state_.counters.failed_releases;  // as a flush would have counted it
    return;
  }
  if (state_.queue_room == 0) {
    release_later_slow(handle);
    return;
  }
  *state_.queue_tail++ = detail::QueuedHandle{handle.index, handle.generation};
  --state_.queue_room;
  ++state_.pending_count;
}

// A new page of the queue, a full queue, or an indexed one.
template <class T>
void VectorPool<T>::release_later_slow(PoolHandle handle) noexcept {
  if (!state_.queue_indexed && state_.pending_count < state_.capacity) {
    const Run<detail::QueuedHandle> run = queue_run(state_.pending_count);
    state_.queue_tail = run.first;
    state_.queue_room = std::min(run.length, state_.capacity - state_.pending_count);
    *state_.queue_tail++ = detail::QueuedHandle{handle.index, handle.generation};
    --state_.queue_room;
    ++state_.pending_count;
    return;
  }
  release_later_indexed(handle);
}

template <class T>
void VectorPool<T>::release_later_indexed(PoolHandle handle) noexcept {
  if (!state_.queue_indexed) index_release_queue();
  forget_queue_tail();  // indexed: every append goes through here
  prepare_queue_positions();
  std::uint32_t& position = queue_position(handle.index);
  if (position < state_.pending_count) {
    detail::QueuedHandle& entry = pending_entry(position);
    if (entry.index == handle.index) {  // queued already: this object, or a dead one from the same slot
      entry.generation = handle.generation;
      ++state_.counters.failed_releases;  // the entry the flush would have skipped
      return;
    }
  }
  position = state_.pending_count;
  pending_entry(state_.pending_count++) = detail::QueuedHandle{handle.index, handle.generation};
}

// A slot's queue position counts only if the entry there names the slot, so any value will
// do, but each one is written before it is first read: slots [0, state_.queue_ready) have been.
template <class T>
void VectorPool<T>::prepare_queue_positions() noexcept {
  for (; state_.queue_ready < state_.used; ++state_.queue_ready) queue_position(state_.queue_ready) = 0xFFFFFFFFu;
}

// Keeps the first entry of every slot whose queued object is still alive, in order, and
// records each kept entry's position in its slot. Afterwards the queue has one entry per
// slot (at most size()), and stays so until the flush.
template <class T>
void VectorPool<T>::index_release_queue() noexcept {
  prepare_queue_positions();
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < state_.pending_count; ++i) {
    const detail::QueuedHandle queued = pending_entry(i);
    std::uint32_t& position = queue_position(queued.index);
    const bool repeated = position < kept && pending_entry(position).index == queued.index;
    if (repeated || !is_live(PoolHandle{queued.index, queued.generation})) {
      ++state_.counters.failed_releases;  // as the flush would have counted it
      continue;
    }
    position = kept;
    pending_entry(kept++) = queued;
  }
  state_.pending_count = kept;
  state_.queue_indexed = true;
  forget_queue_tail();
}

// Entries appended while the flush runs (a destructor calling release_later()) are flushed
// too: the loop re-reads the queue's length.
template <class T>
std::size_t VectorPool<T>::flush_releases() noexcept {
  if (refuse_mid_pass("flush_releases() inside for_each/erase_if; flush after the pass", true)) return 0;
  if (refuse_release_while_building()) return 0;
  std::size_t released = 0;
  {  // closed before the self-check below: it runs only outside every callback scope
    CallbackScope scope(*this);
    const bool prefetch = state_.capacity >= prefetch_threshold;
    for (std::uint32_t position = 0; position < state_.pending_count;) {  // a page of the queue at a time
      const Run<detail::QueuedHandle> run = queue_run(position);
      const std::uint32_t length = std::min(run.length, state_.pending_count - position);
      for (std::uint32_t i = 0; i < length; ++i) {
        if (prefetch && i + prefetch_distance < length) {
          const std::uint32_t ahead = run.first[i + prefetch_distance].index;
          if (ahead < state_.used) prefetch_release(ahead);
        }
        const detail::QueuedHandle queued = run.first[i];
        if (is_live(PoolHandle{queued.index, queued.generation})) {  // else released directly since it was queued
          release_slot(queued.index);
          ++released;
        } else {
          ++state_.counters.failed_releases;
        }
      }
      position += length;
    }
  }
  state_.pending_count = 0;
  state_.queue_indexed = false;
  forget_queue_tail();
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after flush_releases");
  return released;
}

}  // namespace engine
