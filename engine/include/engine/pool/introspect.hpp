// SPDX-License-Identifier: MIT
#pragma once
// Read-only views of where a pool's objects sit, for memory maps and layout tools, and
// prefault(), which backs memory no object has used yet. Beside the core: a game draws with
// these, the pool itself never needs them.
#include <engine/pool/detail/pool_access.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace engine {

struct HeapNodes;

// Storage positions, 64 at a time: f(first_position, live_bits, valid_bits), bit i of live_bits
// set when position first_position + i holds a live object, only the low valid_bits (1..64)
// existing. Slot storages: positions are slot indices. Packed storages: the dense array's, so the
// live objects are one block [0, size()). Never allocates; O(capacity / 64).
template <class T, class S, class F>
void for_each_occupancy_word(const Pool<T, S>& pool, F&& f) {
  const auto& table = detail::PoolAccess::table(pool);
  const std::size_t capacity = pool.capacity();
  for (std::size_t first = 0; first < capacity; first += 64) {
    const auto valid = static_cast<unsigned>(std::min<std::size_t>(64, capacity - first));
    std::uint64_t live = 0;
    if constexpr (std::decay_t<decltype(detail::PoolAccess::store(pool))>::dense) {
      const std::size_t size = pool.size();
      live = size <= first ? 0 : size - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (size - first)) - 1;
    } else {
      live = first / 64 < table.words() ? table.word(first / 64) : 0;
    }
    f(first, live, valid);
  }
}

// Where slot `index`'s object sits among those positions.
template <class T, class S>
std::size_t storage_position(const Pool<T, S>& pool, std::size_t index) noexcept {
  if constexpr (std::decay_t<decltype(detail::PoolAccess::store(pool))>::dense) {
    return detail::PoolAccess::table(pool).position(static_cast<std::uint32_t>(index));
  } else {
    return index;
  }
}

// f(slot index) for every live slot, in address order.
template <class T, class S, class F>
void for_each_live_slot(const Pool<T, S>& pool, F&& f) {
  const auto& table = detail::PoolAccess::table(pool);
  for (std::size_t w = 0; w < table.words(); ++w) {
    for (std::uint64_t bits = table.word(w); bits != 0; bits &= bits - 1) {
      f(static_cast<std::uint32_t>(w * 64 + detail::lowest_bit(bits)));
    }
  }
}

// Asks the OS (Linux 5.14+, MADV_POPULATE_WRITE) to back up to `max_bytes` of the positions past
// `cursor` and past every one used so far, a page run at a time, and moves `cursor` on. Nothing is
// written, so contents and sanitizer poisoning stay as they were. Returns the bytes asked for.
template <class T, class S>
std::size_t prefault(Pool<T, S>& pool, std::uint64_t& cursor, std::size_t max_bytes) noexcept {
  auto& store = detail::PoolAccess::store(pool);
  using Store = std::decay_t<decltype(store)>;
  if constexpr (std::is_same_v<S, HeapNodes>) {
    return 0;  // each object its own allocation: nothing to back ahead
  } else {
#if defined(__linux__)
    constexpr std::size_t slot_bytes = sizeof(detail::RawSlot<T>);
    const std::size_t used = Store::dense ? pool.size() : detail::PoolAccess::table(pool).used();
    const std::size_t run = store.page_slots() != 0 ? store.page_slots() : pool.capacity();
    static const auto os_page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    std::size_t asked = 0;
    cursor = std::max<std::uint64_t>(cursor, used);
    while (cursor < pool.capacity() && asked < max_bytes) {
      const std::size_t pos = static_cast<std::size_t>(cursor);
      const std::size_t slots = std::min({run - pos % run, pool.capacity() - pos, (max_bytes - asked) / slot_bytes});
      if (slots == 0) break;  // the next slot would pass the budget
      const auto begin = reinterpret_cast<std::uintptr_t>(store.raw_at(static_cast<std::uint32_t>(pos)));
      const std::uintptr_t first = begin & ~(os_page - 1),
                           last = (begin + slots * slot_bytes + os_page - 1) & ~(os_page - 1);
      if (madvise(reinterpret_cast<void*>(first), last - first, 23 /* MADV_POPULATE_WRITE */) != 0) return asked;
      asked += slots * slot_bytes;
      cursor += slots;
    }
    return asked;
#else
    static_cast<void>(cursor), static_cast<void>(max_bytes), static_cast<void>(store);
    return 0;
#endif
  }
}

}  // namespace engine
