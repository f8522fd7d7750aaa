// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::ChainStack: the lock-free shared free list behind ConcurrentPool.
// Internal to the pool library (target engine::pool).
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace engine::detail {

inline constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;  // end of a chain / empty stack

// The two links a free slot carries. Both are atomics because a thread that lost a race
// may still read a link of a slot another thread has just taken; the value it reads is
// then useless (its CAS fails), but the read itself must not be a data race.
struct FreeLinks {
  std::atomic<std::uint32_t> next{kNoSlot};        // next slot in the same chain
  std::atomic<std::uint32_t> next_chain{kNoSlot};  // head of the next chain on the stack
};

// A Treiber stack whose elements are whole chains of free slots (a thread's magazine worth),
// so one compare-and-swap moves a batch. The head is {slot index, tag} packed into one
// 64-bit word; every successful push or pop bumps the tag, so a head that was popped and
// pushed back between a thread's read and its CAS no longer compares equal (ABA).
// A slot taken by pop() is owned by the caller together with its whole chain: nothing below
// the head changes without changing the head first, so the caller walks `next` privately.
class ChainStack {
 public:
  // Pushes a list of chains linked through next_chain, first_head ... last_head (last_head's
  // next_chain is overwritten), holding `slots` slots in all. link_of(i) -> FreeLinks&.
  template <class LinkOf>
  void push(std::uint32_t first_head, std::uint32_t last_head, std::size_t slots, const LinkOf& link_of) noexcept {
    std::atomic<std::uint32_t>& tail_link = link_of(last_head).next_chain;
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    for (;;) {
      tail_link.store(index_of(head), std::memory_order_relaxed);
      // release: the links written above (and the chain's `next` links) become visible to
      // whoever pops this chain.
      if (head_.compare_exchange_weak(head, pack(first_head, tag_of(head) + 1), std::memory_order_acq_rel,
                                      std::memory_order_relaxed)) {
        break;
      }
    }
    slots_.fetch_add(static_cast<std::int64_t>(slots), std::memory_order_relaxed);
  }

  // Takes the chain on top; kNoSlot when empty. Call taken(n) once the chain is walked.
  template <class LinkOf>
  std::uint32_t pop(const LinkOf& link_of) noexcept {
    std::uint64_t head = head_.load(std::memory_order_acquire);
    for (;;) {
      const std::uint32_t top = index_of(head);
      if (top == kNoSlot) return kNoSlot;
      // May read a link another thread is rewriting; the tag makes our CAS fail if so.
      const std::uint32_t below = link_of(top).next_chain.load(std::memory_order_relaxed);
      if (head_.compare_exchange_weak(head, pack(below, tag_of(head) + 1), std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
        return top;
      }
    }
  }

  void taken(std::size_t slots) noexcept {
    slots_.fetch_sub(static_cast<std::int64_t>(slots), std::memory_order_relaxed);
  }

  // True when no chain is on the stack at this instant (reads the head, not the count).
  bool empty() const noexcept { return index_of(head_.load(std::memory_order_acquire)) == kNoSlot; }

  // Free slots on the stack; exact when no push or pop is in flight.
  std::size_t slots() const noexcept {
    const std::int64_t n = slots_.load(std::memory_order_relaxed);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

 private:
  static constexpr std::uint64_t pack(std::uint32_t index, std::uint32_t tag) noexcept {
    return (static_cast<std::uint64_t>(tag) << 32) | index;
  }
  static constexpr std::uint32_t index_of(std::uint64_t word) noexcept { return static_cast<std::uint32_t>(word); }
  static constexpr std::uint32_t tag_of(std::uint64_t word) noexcept { return static_cast<std::uint32_t>(word >> 32); }

  static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
                "the tagged head needs a lock-free 64-bit compare-and-swap");
  alignas(64) std::atomic<std::uint64_t> head_{pack(kNoSlot, 0)};  // own line: every CAS hits it
  alignas(64) std::atomic<std::int64_t> slots_{0};                 // may dip below 0 while a pop races a push
};

}  // namespace engine::detail
