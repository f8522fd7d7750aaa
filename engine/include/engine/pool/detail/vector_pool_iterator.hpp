#pragma once
// Part of engine::VectorPool<T>'s implementation: iteration outside the hot passes: the range-for iterator
// (basic_iterator, begin()/end()), active_indices() and for_each_occupancy_word().
// It walks the occupancy bits word by word like for_each, but re-reads the current word after
// each step, so the loop body may release objects (see "Iteration" in vector_pool_class.hpp); it
// checks the storage epoch so a relocation under it is caught, not read through.
// Compiles on its own: it includes the class it defines members of.
#include <engine/pool/detail/vector_pool_class.hpp>

namespace engine {

template <class T>
template <bool Const>
class VectorPool<T>::basic_iterator {
  using Pool = std::conditional_t<Const, const VectorPool, VectorPool>;
  using SlotPtr = std::conditional_t<Const, const typename ObjectPage::Slot*, typename ObjectPage::Slot*>;

 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = std::conditional_t<Const, const T*, T*>;
  using reference = std::conditional_t<Const, const T&, T&>;

  basic_iterator() noexcept = default;
  // iterator -> const_iterator, implicitly, as a standard container's converts: so
  // `const_iterator it = pool.begin()` compiles, and the two compare (the const_iterator's
  // operator== takes the converted one). Never the other way: that would give write access.
  template <bool ToConst = Const, std::enable_if_t<ToConst, int> = 0>
  basic_iterator(const basic_iterator<false>& other) noexcept
      : pool_(other.pool_),
        slots_(other.slots_),
        boxes_(other.boxes_),
        occupied_(other.occupied_),
        page_(other.page_),
        word_(other.word_),
        words_(other.words_),
        bits_(other.bits_),
        epoch_(other.epoch_),
        index_(other.index_),
        packed_(other.packed_) {}

  reference operator*() const noexcept { return *operator->(); }
  pointer operator->() const noexcept {
    if (boxes_ != nullptr) return boxes_[slot_in_page()];  // heap
    return std::launder(reinterpret_cast<pointer>(slots_[slot_in_page()].bytes));
  }
  PoolHandle handle() const noexcept {  // the handle of the object this iterator is on
    const std::size_t offset = slot_in_page();
    if (packed_) return PoolHandle{index_, pool_->table_.generation(index_)};
    const auto index = static_cast<std::uint32_t>((page_ << pool_->table_.shift()) + offset);
    return PoolHandle{index, pool_->table_.page(page_).generations()[offset]};
  }
  basic_iterator& operator++() noexcept {
    if (epoch_ != pool_->state_.storage_epoch) {  // the pages this iterator reads were freed or moved
      ENGINE_POOL_ASSERT(
          false, "pool storage moved during a range-for (growth, shrink_to_fit or set_policy); iterators are invalid");
      bits_ = 0;  // release builds: end the loop rather than read freed memory
      page_ = pool_->table_.page_count();
      word_ = 0;
      return *this;
    }
    if (packed_) {  // the current object released: another moved into its place, visit that one next
      const detail::DenseIndex& dense = pool_->dense();
      auto position = static_cast<std::uint32_t>(dense.first_position(page_) + slot_in_page());
      if (position < dense.size() && dense.index_at(position) == index_) ++position;
      seek_position(position);
      return *this;
    }
    // Re-read the word so objects released by the loop body are skipped, not visited.
    const std::uint64_t current = bits_ & (~bits_ + 1);
    bits_ = occupied_[word_] & ~((current << 1) - 1);
    settle();
    return *this;
  }
  basic_iterator operator++(int) noexcept {
    basic_iterator before = *this;
    ++*this;
    return before;
  }
  // End has no bits left, so comparing with end() reduces to `bits_ == 0`.
  friend bool operator==(const basic_iterator& a, const basic_iterator& b) noexcept {
    return (a.bits_ & (~a.bits_ + 1)) == (b.bits_ & (~b.bits_ + 1)) &&
           (a.bits_ == 0 || (a.page_ == b.page_ && a.word_ == b.word_));
  }
  friend bool operator!=(const basic_iterator& a, const basic_iterator& b) noexcept { return !(a == b); }

 private:
  friend class VectorPool;
  friend class basic_iterator<true>;  // the converting constructor above reads an iterator's members
  explicit basic_iterator(Pool& pool) noexcept : pool_(&pool), epoch_(pool.state_.storage_epoch) {
    if (pool.state_.packed) {
      packed_ = true;
      seek_position(0);
      return;
    }
    if (pool.table_.page_count() == 0) return;
    load_page(0);
    bits_ = occupied_[0];
    settle();
  }
  std::size_t slot_in_page() const noexcept { return word_ * detail::bits_per_word + detail::lowest_bit(bits_); }
  void load_page(std::size_t page) noexcept {
    const detail::SlotTablePage& meta = pool_->table_.page(page);
    page_ = page;
    slots_ = pool_->objects_.page(page).slots();
    occupied_ = meta.occupied();
    words_ = meta.words();
    word_ = 0;
  }
  // Packed: position p is its store page, and its offset there encoded as word offset / 64
  // with the single bit offset % 64, so operator->, slot_in_page() and operator== need no
  // branch; past the dense end it is end().
  void seek_position(std::uint32_t position) noexcept {
    const detail::DenseIndex& dense = pool_->dense();
    if (position >= dense.size()) {
      bits_ = 0;
      page_ = pool_->table_.page_count();
      word_ = 0;
      return;
    }
    page_ = dense.page_number(position);
    if (pool_->state_.heap) {
      boxes_ = pool_->heap_.page_boxes(page_);
    } else {
      slots_ = pool_->store_.page_objects(page_);
    }
    const std::uint32_t offset = dense.offset(position);
    word_ = offset / detail::bits_per_word;
    bits_ = std::uint64_t{1} << (offset % detail::bits_per_word);
    index_ = dense.index_at(position);
  }
  void settle() noexcept {  // moves forward to the next set bit, or to end (bits_ == 0)
    while (bits_ == 0) {
      if (++word_ >= words_) {
        if (page_ + 1 >= pool_->table_.page_count()) {
          page_ = pool_->table_.page_count();
          word_ = 0;
          return;
        }
        load_page(page_ + 1);
      }
      bits_ = occupied_[word_];
    }
  }

  Pool* pool_ = nullptr;
  SlotPtr slots_ = nullptr;
  T* const* boxes_ = nullptr;  // packed, heap layout: the page's pointers (slots_ unused)
  const std::uint64_t* occupied_ = nullptr;
  std::size_t page_ = 0;
  std::size_t word_ = 0;
  std::size_t words_ = 0;
  std::uint64_t bits_ = 0;  // not-yet-visited live bits of word_; lowest = current object
  std::uint64_t epoch_ = 0;
  std::uint32_t index_ = 0;  // packed: slot index of the current object (a change means it was released)
  bool packed_ = false;
};

template <class T>
typename VectorPool<T>::iterator VectorPool<T>::begin() noexcept {
  return iterator(*this);
}
template <class T>
typename VectorPool<T>::iterator VectorPool<T>::end() noexcept {
  iterator it;
  it.pool_ = this;
  it.page_ = table_.page_count();
  it.epoch_ = state_.storage_epoch;
  return it;
}
template <class T>
typename VectorPool<T>::const_iterator VectorPool<T>::begin() const noexcept {
  return const_iterator(*this);
}
template <class T>
typename VectorPool<T>::const_iterator VectorPool<T>::end() const noexcept {
  const_iterator it;
  it.pool_ = this;
  it.page_ = table_.page_count();
  it.epoch_ = state_.storage_epoch;
  return it;
}

// The read-only walks over the occupancy bitmaps.
template <class T>
template <class F>
void VectorPool<T>::for_each_occupancy_word(F&& f) const {
  if (state_.packed) {
    const std::size_t live = dense().size(), positions = dense().capacity();
    for (std::size_t first = 0; first < positions; first += detail::bits_per_word) {
      const auto valid = static_cast<unsigned>(std::min<std::size_t>(detail::bits_per_word, positions - first));
      const std::size_t full = live > first ? std::min<std::size_t>(live - first, detail::bits_per_word) : 0;
      f(first, full == detail::bits_per_word ? ~std::uint64_t{0} : (std::uint64_t{1} << full) - 1, valid);
    }
    return;
  }
  const std::size_t capacity = table_.capacity();
  for (std::size_t p = 0; p < table_.page_count(); ++p) {
    const detail::SlotTablePage& page = table_.page(p);
    const std::size_t base = static_cast<std::size_t>(static_cast<std::uint64_t>(p) << table_.shift());
    const std::size_t slots = std::min<std::size_t>(page.slot_count(), capacity > base ? capacity - base : 0);
    for (std::size_t first = 0; first < slots; first += detail::bits_per_word) {
      const auto valid = static_cast<unsigned>(std::min<std::size_t>(detail::bits_per_word, slots - first));
      f(base + first, page.occupied()[first / detail::bits_per_word], valid);
    }
  }
}

template <class T>
void VectorPool<T>::active_indices(std::vector<std::uint32_t>& out) const {
  out.clear();
  out.reserve(size());
  for (std::size_t p = 0; p < table_.page_count(); ++p) {
    const detail::SlotTablePage& page = table_.page(p);
    const auto base = static_cast<std::uint32_t>(p << table_.shift());
    for (std::size_t w = 0; w < page.words(); ++w) {
      for (std::uint64_t bits = page.occupied()[w]; bits != 0; bits &= bits - 1) {
        out.push_back(base + static_cast<std::uint32_t>(w * detail::bits_per_word + detail::lowest_bit(bits)));
      }
    }
  }
}

template <class T>
std::vector<std::uint32_t> VectorPool<T>::active_indices() const {
  std::vector<std::uint32_t> out;
  active_indices(out);
  return out;
}

}  // namespace engine
