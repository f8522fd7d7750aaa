// detail::PackedStore<T> and detail::HeapStore<T>, the objects of the dense layouts (packed,
// packed_pages; heap), tested alone over their shared DenseIndex (issue 27): this file includes
// nothing of the pool but the two store headers, so if a store needed the pool class this file
// would not compile. Each test runs on both stores and asserts what a layout promises: the
// slot -> position -> slot round trip after every removal, which objects moved and which did not
// (heap moves pointers, never objects), constructions and destructions counted by Tracked, and
// relocation between the two kinds with every position kept.
#include <engine/pool/detail/heap_store.hpp>
#include <engine/pool/detail/packed_store.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

#include "support/instance_tracker.hpp"

namespace engine::detail {
namespace {

using pool_test::Lifetimes;
using pool_test::Tracked;

constexpr unsigned kShift = 3;  // pages of 8 positions, so a dozen objects span two pages
constexpr std::uint32_t kPageSlots = 1u << kShift;

template <class Store>
Store make_store(std::size_t pages) {
  Store store;
  if constexpr (std::is_same_v<Store, HeapStore<Tracked>>) {
    store = Store(kShift);
  } else {
    store = Store(typename Store::Paged{kShift});
  }
  for (std::size_t p = 0; p < pages; ++p) store.add_page(kPageSlots);
  return store;
}

// What the pool does: claim the back position for slot `index`, build there.
template <class Store>
Tracked* emplace(Store& store, std::uint32_t index, int value) {
  void* const where = store.claim_back(index);
  if (where == nullptr) throw std::bad_alloc();  // heap: its allocation failed
  return ::new (where) Tracked(value);
}

// What the pool's release does with a destructor to run: take the object out, destroy, dispose.
template <class Store>
void release(Store& store, std::uint32_t index) {
  typename Store::Slot out;
  Tracked* object = store.take_out(index, out);
  object->~Tracked();
  store.dispose(object);
}

template <class Store>
void expect_round_trip(const Store& store, const std::vector<std::uint32_t>& live_indices) {
  ASSERT_EQ(store.size(), live_indices.size());
  for (std::uint32_t p = 0; p < store.size(); ++p) EXPECT_EQ(store.position_of(store.index_at(p)), p);
  for (std::uint32_t index : live_indices) {
    EXPECT_LT(store.position_of(index), store.size());
    EXPECT_EQ(store.object_of(index)->value(), static_cast<int>(index) * 10);
  }
}

template <class Store>
std::vector<int> walked_values(Store& store) {
  std::vector<int> values;
  auto collect = [&](Tracked& object) { values.push_back(object.value()); };
  const auto no_generations = [](std::uint32_t) { return 0u; };
  store.template walk<Visit::object, Tracked&>(store.size(), 0, all_positions, no_generations, collect);
  return values;
}

template <class Store>
class DenseStores : public ::testing::Test {
 protected:
  void SetUp() override { Lifetimes::reset(); }
};
using Stores = ::testing::Types<PackedStore<Tracked>, HeapStore<Tracked>>;
TYPED_TEST_SUITE(DenseStores, Stores);

TYPED_TEST(DenseStores, ARemovalMovesTheLastIntoTheHoleAndEverySlotStillFindsItsObject) {
  auto store = make_store<TypeParam>(2);
  for (std::uint32_t index = 0; index < 12; ++index) emplace(store, index, static_cast<int>(index) * 10);
  EXPECT_EQ(store.capacity(), 2 * kPageSlots);
  EXPECT_EQ(walked_values(store), (std::vector<int>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110}));

  release(store, 2);  // position 2: slot 11 (the last) moves in
  EXPECT_EQ(store.index_at(2), 11u);
  release(store, 11);  // now at position 2: slot 10 (the last) moves in
  EXPECT_EQ(store.index_at(2), 10u);
  release(store, 0);
  expect_round_trip(store, {1, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(walked_values(store), (std::vector<int>{90, 10, 100, 30, 40, 50, 60, 70, 80}));
  EXPECT_EQ(Lifetimes::live(), 9);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);

  for (std::uint32_t p = 0; p < store.size(); ++p) store.object(p)->~Tracked();
  store.drop_all();
  EXPECT_EQ(store.size(), 0u);
  EXPECT_EQ(Lifetimes::live(), 0);
}

TYPED_TEST(DenseStores, OnlyTheHeapStoreKeepsEveryObjectWhereItWasBuilt) {
  auto store = make_store<TypeParam>(1);
  for (std::uint32_t index = 0; index < 4; ++index) emplace(store, index, static_cast<int>(index) * 10);
  Tracked* const last = store.object_of(3);
  const long moves_before = Lifetimes::moves;
  release(store, 0);  // the last object (slot 3) fills position 0
  constexpr bool heap = std::is_same_v<TypeParam, HeapStore<Tracked>>;
  // Heap: a pointer moved and the object stayed; packed: the object moved twice (out of the
  // array for its destructor, then the last one into the hole).
  EXPECT_EQ(store.object_of(3) == last, heap);
  EXPECT_EQ(Lifetimes::moves - moves_before, heap ? 0 : 2);
  EXPECT_EQ(store.object_of(3)->value(), 30);
  for (std::uint32_t p = 0; p < store.size(); ++p) store.object(p)->~Tracked();
  store.drop_all();
  EXPECT_EQ(Lifetimes::live(), 0);
}

TYPED_TEST(DenseStores, BytesCountTheIndexThePagesAndForHeapEachObjectsOwnAllocation) {
  auto store = make_store<TypeParam>(1);
  const std::size_t empty = store.bytes();
  EXPECT_GE(empty, kPageSlots * (2 * sizeof(std::uint32_t)));
  emplace(store, 0, 0);
  constexpr bool heap = std::is_same_v<TypeParam, HeapStore<Tracked>>;
  EXPECT_EQ(store.bytes() - empty, heap ? sizeof(Tracked) : 0u);  // packed: the page was already counted
  store.add_page(kPageSlots);
  EXPECT_EQ(store.page_count(), 2u);
  store.pop_page();
  EXPECT_EQ(store.page_count(), 1u);
  store.object(0)->~Tracked();
  store.drop_all();
}

// Relocation between the two kinds, as set_policy() does between packed_pages and heap: same
// positions, same slots, each object moved once (none for heap into heap), none lost.
template <class From, class To>
void relocate_and_check() {
  Lifetimes::reset();
  auto from = make_store<From>(2);
  auto to = make_store<To>(2);
  for (std::uint32_t index = 0; index < 10; ++index) emplace(from, index, static_cast<int>(index) * 10);
  release(from, 4);
  const std::vector<std::uint32_t> order = [&] {
    std::vector<std::uint32_t> indices;
    for (std::uint32_t p = 0; p < from.size(); ++p) indices.push_back(from.index_at(p));
    return indices;
  }();
  if constexpr (std::is_same_v<To, HeapStore<Tracked>>) to.reserve_boxes(from.size());
  const long moves_before = Lifetimes::moves;
  from.move_into(to);
  EXPECT_EQ(from.size(), 0u);
  ASSERT_EQ(to.size(), order.size());
  for (std::uint32_t p = 0; p < to.size(); ++p) EXPECT_EQ(to.index_at(p), order[p]);
  expect_round_trip(to, {0, 1, 2, 3, 5, 6, 7, 8, 9});
  constexpr bool pointers_only = std::is_same_v<From, HeapStore<Tracked>> && std::is_same_v<To, From>;
  EXPECT_EQ(Lifetimes::moves - moves_before, pointers_only ? 0 : 9);
  EXPECT_EQ(Lifetimes::live(), 9);
  for (std::uint32_t p = 0; p < to.size(); ++p) to.object(p)->~Tracked();
  to.drop_all();
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

TEST(DenseStoreRelocation, EveryPairOfStoreKindsKeepsPositionsSlotsAndObjects) {
  relocate_and_check<PackedStore<Tracked>, PackedStore<Tracked>>();
  relocate_and_check<PackedStore<Tracked>, HeapStore<Tracked>>();
  relocate_and_check<HeapStore<Tracked>, PackedStore<Tracked>>();
  relocate_and_check<HeapStore<Tracked>, HeapStore<Tracked>>();
}

}  // namespace
}  // namespace engine::detail
