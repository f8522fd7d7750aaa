// SPDX-License-Identifier: MIT
#pragma once
// engine::detail: the pool's memory. Every allocation goes through nothrow operator new, so
// running out of memory is a refusal the pool can undo (nullopt, false) whether or not the
// program uses exceptions; only T's own constructor may throw into the pool.
#include <engine/pool/assert.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

// ENGINE_POOL_ASAN: 1 when free object memory is poisoned (AddressSanitizer builds).
#ifndef ENGINE_POOL_ASAN
#if defined(__SANITIZE_ADDRESS__)
#define ENGINE_POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ENGINE_POOL_ASAN 1
#endif
#endif
#endif
#ifndef ENGINE_POOL_ASAN
#define ENGINE_POOL_ASAN 0
#endif
#if ENGINE_POOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace engine::detail {

// The nothrow operator new, and its own delete: by default they call the plain forms, so a
// program's replacement of those (a counting or failing allocator) sees the pool's allocations.
inline void* allocate_bytes(std::size_t bytes, std::size_t align) noexcept {
  if (bytes == 0) bytes = 1;
  if (align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) return ::operator new(bytes, std::nothrow);
  return ::operator new (bytes, std::align_val_t{align}, std::nothrow);
}
inline void free_bytes(void* p, std::size_t align) noexcept {
  if (p == nullptr) return;
  if (align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    ::operator delete(p, std::nothrow);
  } else {
    ::operator delete (p, std::align_val_t{align}, std::nothrow);
  }
}

// AddressSanitizer: free object memory is poisoned, so any access to it is reported.
inline void poison(void* p, std::size_t bytes, bool on = true) noexcept {
#if ENGINE_POOL_ASAN
  on ? __asan_poison_memory_region(p, bytes) : __asan_unpoison_memory_region(p, bytes);
#else
  static_cast<void>(p), static_cast<void>(bytes), static_cast<void>(on);
#endif
}
inline void unpoison(void* p, std::size_t bytes) noexcept { poison(p, bytes, false); }

// A fixed-capacity array of a trivially copyable U with no size of its own: the slot table's
// and the storages' per-slot arrays. grow() is all or nothing and copies the entries in use.
template <class U>
class Array {
  static_assert(std::is_trivially_copyable_v<U>);

 public:
  Array() noexcept = default;
  Array(Array&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}
  Array& operator=(Array&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~Array() { free_bytes(data_, alignof(U)); }

  U& operator[](std::size_t i) noexcept { return data_[i]; }
  const U& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::size_t capacity() const noexcept { return capacity_; }
  // Room for `capacity` entries, keeping the first `keep`; false (unchanged) when out of memory.
  bool grow(std::size_t capacity, std::size_t keep) noexcept {
    if (capacity <= capacity_) return true;
    U* const fresh = static_cast<U*>(allocate_bytes(capacity * sizeof(U), alignof(U)));
    if (fresh == nullptr) return false;
    if (keep != 0) std::memcpy(static_cast<void*>(fresh), data_, keep * sizeof(U));
    free_bytes(data_, alignof(U));
    data_ = fresh;
    capacity_ = capacity;
    return true;
  }

 private:
  U* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// A per-slot array in blocks of 2^14 entries that never move: growth adds blocks, so the
// largest pools grow without copying their metadata (no spike on the frame that grows). The
// first block starts small and doubles up to full size, so a small pool stays small.
template <class U>
class Blocks {
 public:
  static constexpr unsigned shift = 14;
  static constexpr std::size_t block = std::size_t{1} << shift;

  Blocks() noexcept = default;
  Blocks(Blocks&& other) noexcept { swap(other); }
  Blocks& operator=(Blocks&& other) noexcept {
    swap(other);
    return *this;
  }
  ~Blocks() {
    for (std::size_t b = 0; b < count_; ++b) free_bytes(table_[b], alignof(U));
  }

  U& operator[](std::size_t i) noexcept { return table_[i >> shift][i & (block - 1)]; }
  const U& operator[](std::size_t i) const noexcept { return table_[i >> shift][i & (block - 1)]; }
  std::size_t run(std::size_t i) const noexcept { return block - (i & (block - 1)); }  // contiguous from i
  // Room for `entries`, keeping every entry: all or nothing (the block table may keep its room).
  bool grow(std::size_t entries) noexcept {
    if (entries <= capacity()) return true;
    if (count_ <= 1 && entries <= block) {  // the first block, doubled
      std::size_t size = first_ == 0 ? 64 : first_;
      while (size < entries) size *= 2;
      if (!table_.grow(1, count_)) return false;
      U* const fresh = static_cast<U*>(allocate_bytes(size * sizeof(U), alignof(U)));
      if (fresh == nullptr) return false;
      if (count_ != 0) {
        std::memcpy(static_cast<void*>(fresh), table_[0], first_ * sizeof(U));
        free_bytes(table_[0], alignof(U));
      }
      table_[0] = fresh;
      count_ = 1;
      first_ = size;
      return true;
    }
    if ((count_ == 1 && first_ < block && !grow(block)) ||
        !table_.grow(std::max(2 * count_, (entries + block - 1) >> shift), count_)) {
      return false;
    }
    const std::size_t before = count_;
    for (; count_ << shift < entries; ++count_) {
      if ((table_[count_] = static_cast<U*>(allocate_bytes(block * sizeof(U), alignof(U)))) == nullptr) {
        while (count_ > before) free_bytes(table_[--count_], alignof(U));
        return false;
      }
    }
    first_ = block;
    return true;
  }
  std::size_t capacity() const noexcept { return count_ <= 1 ? first_ * count_ : count_ << shift; }

 private:
  void swap(Blocks& other) noexcept {
    std::swap(table_, other.table_);
    std::swap(count_, other.count_);
    std::swap(first_, other.first_);
  }
  Array<U*> table_;
  std::size_t count_ = 0;
  std::size_t first_ = 0;  // entries of block 0
};

// Raw memory for one T, aligned for it. Under AddressSanitizer its size is a whole number of
// 8-byte granules, so each slot owns its shadow bytes and can be poisoned alone.
inline constexpr bool asan_poisoning = ENGINE_POOL_ASAN != 0;
template <class T>
struct alignas(T) RawSlot {
  unsigned char bytes[asan_poisoning ? (sizeof(T) + 7) / 8 * 8 : sizeof(T)];
};
template <class T>
T* object_in(RawSlot<T>& slot) noexcept {
  return std::launder(reinterpret_cast<T*>(slot.bytes));
}
template <class T>
RawSlot<T>* allocate_slots(std::size_t count) noexcept {
  return static_cast<RawSlot<T>*>(allocate_bytes(count * sizeof(RawSlot<T>), alignof(RawSlot<T>)));
}
template <class T>
void free_slots(RawSlot<T>* slots) noexcept {
  free_bytes(slots, alignof(RawSlot<T>));
}

// The object pages of a storage: raw slots that never move once allocated.
template <class T>
class SlotPages {
 public:
  SlotPages() noexcept = default;
  SlotPages(SlotPages&& other) noexcept : table_(std::move(other.table_)), count_(std::exchange(other.count_, 0)) {}
  SlotPages& operator=(SlotPages&& other) noexcept {
    std::swap(table_, other.table_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~SlotPages() { drop_to(0); }
  RawSlot<T>* operator[](std::size_t p) const noexcept { return table_[p]; }
  std::size_t count() const noexcept { return count_; }
  // `pages` more pages of `slots` slots each, poisoned: all or nothing.
  bool add(std::size_t pages, std::size_t slots) noexcept {
    if (!table_.grow(std::max(count_ + pages, 2 * count_), count_)) return false;
    const std::size_t before = count_;
    for (; count_ < before + pages; ++count_) {
      if ((table_[count_] = allocate_slots<T>(slots)) == nullptr) {
        drop_to(before);
        return false;
      }
      poison(table_[count_], slots * sizeof(RawSlot<T>));
    }
    return true;
  }
  void drop_to(std::size_t pages) noexcept {  // frees the pages past `pages` (their objects are gone)
    while (count_ > pages) free_slots(table_[--count_]);
  }
  // One buffer rebuilt: reserve_first() before anything moves, then replace_first() frees the old.
  bool reserve_first() noexcept { return table_.grow(1, count_); }
  void replace_first(RawSlot<T>* fresh) noexcept {
    if (count_ != 0) free_slots(table_[0]);
    table_[0] = fresh;
    count_ = 1;
  }

 private:
  Array<RawSlot<T>*> table_;
  std::size_t count_ = 0;
};

// After an object's destructor: debug builds fill the memory with 0xDD (a kept pointer reads
// garbage that is easy to spot), ASan builds poison it (any access is reported).
inline void mark_released(void* p, std::size_t bytes, std::size_t poisoned) noexcept {
  if constexpr (ENGINE_POOL_DEBUG != 0) std::memset(p, 0xDD, bytes);
  poison(p, poisoned);
}

// T(args...) when T has such a constructor, else T{args...}: parentheses never
// aggregate-initialise in C++17, and braces first would pick std::vector's initializer_list.
template <class T, class... Args>
constexpr bool emplace_noexcept() noexcept {
  if constexpr (std::is_constructible_v<T, Args...>) {
    return std::is_nothrow_constructible_v<T, Args...>;
  } else {
    return noexcept(T{std::declval<Args>()...});
  }
}
template <class T, class... Args>
T* construct_at(void* where, Args&&... args) noexcept(emplace_noexcept<T, Args&&...>()) {
  unpoison(where, sizeof(T));
  if constexpr (std::is_constructible_v<T, Args&&...>) {
    return ::new (where) T(std::forward<Args>(args)...);
  } else {  // an aggregate: members not given are value-initialised, as T{a, b} makes them
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
    return ::new (where) T{std::forward<Args>(args)...};
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  }
}

// Moves `from` into raw memory at `to` and ends `from`: how objects relocate (growth, a packed
// release filling its hole, a storage switch). A trivially copyable T moves as bytes. The pool
// never relocates a live T that can be neither moved nor copied (it refuses first).
template <class T>
void relocate(T* from, void* to) noexcept {
  unpoison(to, sizeof(T));
  if constexpr (std::is_trivially_copyable_v<T>) {
    std::memcpy(to, static_cast<const void*>(from), sizeof(T));
  } else if constexpr (std::is_move_constructible_v<T>) {
    ::new (to) T(std::move(*from));
    from->~T();
  } else {
    static_cast<void>(from);
    ENGINE_POOL_ASSERT(false, "relocating a T that can be neither moved nor copied");
  }
}

inline unsigned lowest_bit(std::uint64_t word) noexcept { return static_cast<unsigned>(__builtin_ctzll(word)); }

}  // namespace engine::detail
