#pragma once
// engine::CommandRing<T>: a fixed-size, lock-free, single-producer single-consumer queue.
// The game thread pushes (voice starts), SDL's audio callback thread pops. Both ends are
// wait-free and never allocate after construction, so the audio thread can never block
// on the game (a lock held by a slow frame would be an audible dropout).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace engine {

template <class T>
class CommandRing {
 public:
  // Capacity is rounded up to a power of two (at least 2); allocates once, here.
  explicit CommandRing(std::size_t capacity) : slots_(round_up(capacity)), mask_(slots_.size() - 1) {}
  CommandRing(const CommandRing&) = delete;
  CommandRing& operator=(const CommandRing&) = delete;

  // Producer thread only. False when full: the command is dropped, the caller counts it.
  bool push(const T& value) noexcept {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_.load(std::memory_order_acquire) == slots_.size()) return false;
    slots_[tail & mask_] = value;
    tail_.store(tail + 1, std::memory_order_release);  // publishes the slot to the consumer
    return true;
  }
  // Consumer thread only. False when empty.
  bool pop(T& out) noexcept {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) return false;
    out = slots_[head & mask_];
    head_.store(head + 1, std::memory_order_release);  // hands the slot back to the producer
    return true;
  }
  std::size_t capacity() const noexcept { return slots_.size(); }

 private:
  static std::size_t round_up(std::size_t n) {
    std::size_t p = 2;
    while (p < n) p *= 2;
    return p;
  }
  std::vector<T> slots_;
  std::size_t mask_;
  // Separate cache lines: the two threads each write one index.
  alignas(64) std::atomic<std::size_t> head_{0};  // next slot to pop (consumer writes)
  alignas(64) std::atomic<std::size_t> tail_{0};  // next slot to push (producer writes)
};

}  // namespace engine
