// SPDX-License-Identifier: MIT
#pragma once
// engine::detail::SlotTable: the half of a pool that knows no T. It says what a handle means,
// when it goes stale, which slots are free and which are live, and keeps the release_later()
// queue and a dense storage's positions; every storage sits beside one and keeps the objects.
//
// A slot goes: free (generation even) -> claimed (off the free stack, or the next never-used
// slot, while the object is built) -> live (commit: generation odd, occupancy bit set) -> dead
// (retire: generation even again, bit clear, while the object is destroyed) -> free (on the
// stack). A handle is live while its generation equals its slot's.
// - The free stack is LIFO (the warmest slot comes back first) and an index array: it never
//   links through object memory, so a pop never waits on a cold object.
// - Generations start at a seed drawn per table, so another pool's handle almost never matches.
//   A slot's generation outlives clear() and shrinking, so no old handle matches a new object.
// - One occupancy bit per slot: a walk visits live slots in address order and skips empty words.
// - Every array holds capacity() entries, so nothing here allocates between growths.
#include <engine/pool/detail/memory.hpp>
#include <engine/pool/handle.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace engine::detail {

constexpr bool is_live_generation(std::uint32_t generation) noexcept { return (generation & 1u) != 0; }

// An even seed per table, from a process-wide counter through a bijective mixer.
inline std::uint32_t next_generation_seed() noexcept {
  static std::atomic<std::uint32_t> tables{0};
  std::uint32_t x = tables.fetch_add(1, std::memory_order_relaxed) * 0x9e3779b9u + 0x5bd1e995u;
  x ^= x >> 16;
  x *= 0x21f0aaadu;
  x ^= x >> 15;
  x *= 0x735a2d97u;
  x ^= x >> 15;
  return x & ~1u;
}

inline constexpr std::uint64_t no_position = ~std::uint64_t{0};  // past the last position of a walk
inline unsigned log2_of(std::size_t pow2) noexcept { return static_cast<unsigned>(__builtin_ctzll(pow2)); }
inline constexpr std::size_t words_for(std::size_t slots) noexcept { return (slots + 63) / 64; }

class SlotTable {
 public:
  // A slot's entry: a handle's check, and a dense storage's lookup beside it, read one line.
  struct Slot {
    std::uint32_t generation, position;
  };
  struct Claim {
    std::uint32_t index;
    bool popped;  // off the free stack, else the next never-used slot
  };

  explicit SlotTable(std::uint32_t seed = next_generation_seed()) noexcept : seed_(seed) {}
  SlotTable(SlotTable&& other) noexcept { swap(other); }  // `other` is left empty, with a new seed
  SlotTable& operator=(SlotTable&& other) noexcept {
    SlotTable taken(std::move(other));
    swap(taken);
    return *this;
  }

  std::uint32_t capacity() const noexcept { return capacity_; }
  std::uint32_t used() const noexcept { return used_; }  // slots [0, used) were handed out since restart()
  std::uint32_t free_count() const noexcept { return free_count_; }
  bool can_claim() const noexcept { return free_count_ != 0 || used_ < capacity_; }
  std::size_t bytes() const noexcept {  // what capacity() slots take (a growth undone keeps its arrays)
    return capacity_ * (sizeof(Slot) + 2 * sizeof(std::uint32_t) + sizeof(PoolHandle)) +
           words_for(capacity_) * 2 * sizeof(std::uint64_t);
  }

  // Room for `capacity` slots in every array: false when out of memory (capacity() unchanged;
  // an array that grew keeps its room). Then set_capacity().
  bool reserve(std::size_t capacity) noexcept {
    const std::size_t words = words_for(capacity), old_words = words_for(capacity_);
    return slots_.grow(capacity) && free_.grow(capacity) && scratch_.grow(capacity) && pending_.grow(capacity) &&
           occupied_.grow(words, old_words) && queued_.grow(words, old_words);
  }
  void set_capacity(std::size_t capacity) noexcept {  // after reserve(); or to give a growth back
    for (std::size_t w = words_for(capacity_); w < words_for(capacity); ++w) occupied_[w] = queued_[w] = 0;
    capacity_ = static_cast<std::uint32_t>(capacity);
  }

  // --- Slots --------------------------------------------------------------------------------
  Claim claim() noexcept {  // needs can_claim(); the slot stays free (even) until commit()
    if (free_count_ > 16) prefetch(free_[free_count_ - 17]);  // a run of emplaces: cold entries, fetched ahead
    if (free_count_ != 0) return Claim{free_[--free_count_], true};
    return Claim{bump(), false};
  }
  std::uint32_t bump() noexcept {  // the next never-used slot (needs used() < capacity())
    if (used_ == issued_) slots_[issued_++].generation = seed_;
    return used_++;
  }
  // Undoes a claim whose object was never built (its constructor threw, or its memory failed).
  void unclaim(Claim claim) noexcept {
    if (!claim.popped && claim.index + 1 == used_) {
      --used_;
    } else {
      push_free(claim.index);  // a nested emplace claimed past it meanwhile
    }
  }
  PoolHandle commit(std::uint32_t index) noexcept {  // live from here
    occupied_[index / 64] |= std::uint64_t{1} << (index % 64);
    return PoolHandle{index, ++slots_[index].generation};
  }
  void retire(std::uint32_t index) noexcept {  // dead from here: every handle to it is stale
    ++slots_[index].generation;
    const std::uint64_t bit = std::uint64_t{1} << (index % 64);
    occupied_[index / 64] &= ~bit;
    if (pending_count_ != 0) queued_[index / 64] &= ~bit;
  }
  void push_free(std::uint32_t index) noexcept { free_[free_count_++] = index; }
  bool on_free_stack(std::uint32_t index) const noexcept {  // O(free): for debug checks
    for (std::uint32_t k = 0; k < free_count_; ++k) {
      if (free_[k] == index) return true;
    }
    return false;
  }
  bool is_live(PoolHandle h) const noexcept {
    return is_live_generation(h.generation) && h.index < issued_ && slots_[h.index].generation == h.generation;
  }
  std::uint32_t& position(std::uint32_t index) noexcept { return slots_[index].position; }  // dense storages'
  std::uint32_t position(std::uint32_t index) const noexcept { return slots_[index].position; }
  void prefetch(std::uint32_t index) const noexcept { __builtin_prefetch(&slots_[index], 1); }  // to write
  bool is_occupied(std::uint32_t index) const noexcept { return (occupied_[index / 64] >> (index % 64)) & 1u; }
  PoolHandle handle_of(std::uint32_t index) const noexcept { return PoolHandle{index, slots_[index].generation}; }
  std::size_t words() const noexcept { return words_for(used_); }  // occupancy words over [0, used)
  std::uint64_t word(std::size_t w) const noexcept { return occupied_[w]; }
  std::uint32_t& scratch(std::size_t k) noexcept { return scratch_[k]; }  // capacity() entries: erase_if's victims
  // The highest live slot + 1 (0 when none).
  std::uint32_t live_end() const noexcept {
    for (std::size_t w = words(); w-- > 0;) {
      if (occupied_[w] != 0)
        return static_cast<std::uint32_t>(w * 64 + 64 - static_cast<unsigned>(__builtin_clzll(occupied_[w])));
    }
    return 0;
  }

  // Nothing is live: the next claims take slots from 0 up again (generations carry on).
  void restart() noexcept {
    used_ = 0;
    free_count_ = 0;
    end_queue();
  }
  // The slots from `capacity` up go (none is live): capacity() shrinks, the arrays stay.
  void trim(std::uint32_t capacity) noexcept {
    std::uint32_t kept = 0;
    for (std::uint32_t k = 0; k < free_count_; ++k) {
      if (free_[k] < capacity) free_[kept++] = free_[k];
    }
    free_count_ = kept;
    used_ = std::min(used_, capacity);
    capacity_ = capacity;
  }

  // --- The release_later() queue: at most one entry per live object ------------------------
  // Queues a live handle. Returns the releases this call settled as failed: 1 when the object
  // was queued already, and when the queue was full, the dead entries it dropped to make room.
  std::uint32_t enqueue(PoolHandle h) noexcept {
    const std::uint64_t bit = std::uint64_t{1} << (h.index % 64);
    if (queued_[h.index / 64] & bit) return 1;
    const std::uint32_t dropped = pending_count_ == capacity_ ? compact_queue() : 0;
    queued_[h.index / 64] |= bit;
    pending_[pending_count_++] = h;
    return dropped;
  }
  // The next entry to flush, in queue order (false when none is left).
  bool next_queued(PoolHandle& h) noexcept {
    if (queue_head_ == pending_count_) return false;
    h = pending_[queue_head_++];
    return true;
  }
  std::uint32_t pending_count() const noexcept { return pending_count_ - queue_head_; }
  void end_queue() noexcept {
    for (std::uint32_t k = queue_head_; k < pending_count_; ++k) {
      queued_[pending_[k].index / 64] &= ~(std::uint64_t{1} << (pending_[k].index % 64));
    }
    pending_count_ = queue_head_ = 0;
  }

  // Every invariant, for `live` objects: bits match generations, the stack holds each free slot
  // once (all of them unless `mid_callback`: a slot being built or destroyed is neither), the
  // queue names live objects once each.
  bool validate(std::size_t live, bool mid_callback) const noexcept {
    if (used_ > capacity_ || used_ > issued_ || live > used_ || free_count_ > used_ - live) return false;
    if (!mid_callback && free_count_ != used_ - live) return false;
    std::size_t counted = 0;
    for (std::uint32_t i = 0; i < words_for(capacity_) * 64; ++i) {
      const bool bit = i < capacity_ && is_occupied(i);
      if (i >= used_ ? bit : bit != is_live_generation(slots_[i].generation)) return false;
      counted += bit;
    }
    if (counted != live) return false;
    std::vector<bool> seen(used_);
    for (std::uint32_t k = 0; k < free_count_; ++k) {
      const std::uint32_t index = free_[k];
      if (index >= used_ || seen[index] || is_live_generation(slots_[index].generation)) return false;
      seen[index] = true;
    }
    for (std::uint32_t k = queue_head_; k < pending_count_; ++k) {
      if (pending_[k].index >= used_) return false;
    }
    return true;
  }

 private:
  friend struct PoolTestAccess;  // the tests' door (engine/tests/pool): breaks invariants on purpose
  // Drops the dead entries of a full queue (each a release the flush would refuse); live entries
  // are unique (their bits), so afterwards there is room for every live object.
  std::uint32_t compact_queue() noexcept {
    std::uint32_t kept = 0;
    const std::uint32_t before = pending_count_ - queue_head_;
    for (std::uint32_t k = queue_head_; k < pending_count_; ++k) {
      if (is_live(pending_[k])) pending_[kept++] = pending_[k];
    }
    pending_count_ = kept;
    queue_head_ = 0;
    return before - kept;
  }
  void swap(SlotTable& other) noexcept {
    std::swap(slots_, other.slots_);
    std::swap(free_, other.free_);
    std::swap(scratch_, other.scratch_);
    std::swap(occupied_, other.occupied_);
    std::swap(queued_, other.queued_);
    std::swap(pending_, other.pending_);
    std::swap(capacity_, other.capacity_);
    std::swap(used_, other.used_);
    std::swap(issued_, other.issued_);
    std::swap(free_count_, other.free_count_);
    std::swap(pending_count_, other.pending_count_);
    std::swap(queue_head_, other.queue_head_);
    std::swap(seed_, other.seed_);
  }

  Blocks<Slot> slots_;                      // per slot ever handed out, [0, issued_)
  Blocks<std::uint32_t> free_;              // the free stack, [0, free_count_)
  Blocks<std::uint32_t> scratch_;           // erase_if's and the chunked passes' lists
  Blocks<PoolHandle> pending_;              // the release_later() queue, [queue_head_, pending_count_)
  Array<std::uint64_t> occupied_, queued_;  // a bit per slot: live; queued for release
  std::uint32_t capacity_ = 0, used_ = 0, issued_ = 0, free_count_ = 0;
  std::uint32_t pending_count_ = 0, queue_head_ = 0;
  std::uint32_t seed_ = next_generation_seed();
};

}  // namespace engine::detail
