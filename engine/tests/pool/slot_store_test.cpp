// detail::SlotStore<T>, the objects of the contiguous and stable layouts (issue 27), tested
// alone over a slot table: this file includes nothing of the pool but slot_store.hpp, so if the
// store needed the pool class this file would not compile. Objects are built where the pool
// builds them (the slot's raw bytes in the page beside the table's) and the walk is asked for
// each of its three visits, whole and in ranges; every test asserts the concrete indices,
// handles and values that follow.
#include <engine/pool/detail/slot_store.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace engine::detail {
namespace {

struct Shot {
  int value;
};
using Store = SlotStore<Shot>;
using Indices = std::vector<std::uint32_t>;

constexpr std::uint32_t kSeed = 2;

// `pages` pages of `page_slots` slots each (one page: the one-page geometry, as contiguous).
struct Pool {
  SlotTable table{kSeed};
  Store objects;

  Pool(std::size_t pages, std::uint32_t page_slots) {
    std::vector<SlotTablePage> metas;
    std::vector<ObjectPage<Shot>> slots;
    for (std::size_t p = 0; p < pages; ++p) {
      metas.emplace_back(page_slots);
      slots.emplace_back(page_slots);
    }
    const auto capacity = static_cast<std::uint32_t>(pages * page_slots);
    if (pages == 1) {
      table.adopt_pages(std::move(metas), 0, SlotTable::one_page_shift, 0xFFFFFFFFu, capacity);
    } else {
      unsigned shift = 0;
      while ((std::uint32_t{1} << shift) < page_slots) ++shift;
      table.adopt_pages(std::move(metas), 0, shift, page_slots - 1, capacity);
    }
    objects.adopt_pages(std::move(slots), 0);
  }
  // What the pool's emplace does in these layouts: claim, build in the slot's bytes, commit.
  PoolHandle emplace(int value) {
    const SlotTable::Claim claim = table.claim();
    const std::size_t page = table.page_of(claim.index);
    const std::size_t offset = table.offset_of(claim.index);
    void* where = objects.page(page).raw(offset);
    unpoison_bytes(where, sizeof(Shot));
    ::new (where) Shot{value};
    return SlotTable::commit(table.locate(claim.index), claim.index);
  }
  void release(std::uint32_t index) {
    SlotTable::retire(table.locate(index));
    mark_slot_released(objects.page(table.page_of(index)).raw(table.offset_of(index)), sizeof(Shot));
    table.push_free(index);
  }
  template <Visit How, class F>
  void walk(std::uint64_t first, std::uint64_t last, F f) {
    objects.walk<How, Shot&>(table, first, last, f);
  }
  std::vector<int> values(std::uint64_t first = 0, std::uint64_t last = all_positions) {
    std::vector<int> out;
    walk<Visit::object>(first, last, [&](Shot& shot) { out.push_back(shot.value); });
    return out;
  }
  Indices indices(std::uint64_t first = 0, std::uint64_t last = all_positions) {
    Indices out;
    walk<Visit::position_and_object>(first, last, [&](std::uint32_t index, Shot&) { out.push_back(index); });
    return out;
  }
};

TEST(SlotStore, OnePageWalksLiveObjectsInSlotOrderAndSkipsTheFreed) {
  Pool pool(1, 128);
  for (int v = 0; v < 100; ++v) pool.emplace(v);
  pool.release(3);
  pool.release(64);
  pool.release(99);
  std::vector<int> expected;
  for (int v = 0; v < 100; ++v) {
    if (v != 3 && v != 64 && v != 99) expected.push_back(v);
  }
  EXPECT_EQ(pool.values(), expected);
  const Indices indices = pool.indices();
  ASSERT_EQ(indices.size(), 97u);
  EXPECT_EQ(indices[3], 4u);    // slot 3 is free: the fourth live object is slot 4
  EXPECT_EQ(indices[63], 65u);  // and slot 64 is skipped in the second word
}

TEST(SlotStore, HandleVisitsCarryTheCurrentGeneration) {
  Pool pool(1, 64);
  const PoolHandle first = pool.emplace(10);
  const PoolHandle second = pool.emplace(20);
  pool.release(first.index);
  const PoolHandle reused = pool.emplace(30);  // LIFO: slot 0 again, a newer generation
  ASSERT_EQ(reused.index, first.index);
  ASSERT_NE(reused.generation, first.generation);
  std::vector<PoolHandle> seen;
  std::vector<int> values;
  pool.walk<Visit::handle_and_object>(0, all_positions, [&](PoolHandle handle, Shot& shot) {
    seen.push_back(handle);
    values.push_back(shot.value);
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], reused);
  EXPECT_EQ(seen[1], second);
  EXPECT_EQ(values, (std::vector<int>{30, 20}));
}

TEST(SlotStore, RangesWalkWholeWordsAndPagesAcrossPageEdges) {
  Pool pool(3, 64);
  for (int v = 0; v < 192; ++v) pool.emplace(v);
  pool.release(70);
  const Indices page_one = pool.indices(64, 128);
  ASSERT_EQ(page_one.size(), 63u);
  EXPECT_EQ(page_one.front(), 64u);
  EXPECT_EQ(page_one[6], 71u);
  EXPECT_EQ(page_one.back(), 127u);
  const Indices tail = pool.indices(128, all_positions);
  ASSERT_EQ(tail.size(), 64u);
  EXPECT_EQ(tail.front(), 128u);
  EXPECT_EQ(tail.back(), 191u);
  EXPECT_EQ(pool.indices().size(), 191u);
  EXPECT_TRUE(pool.indices(192, all_positions).empty());  // past the last page
  // Chunked passes split the walk at word bounds: the pieces add up to the whole, in order.
  Indices joined = pool.indices(0, 64);
  for (const std::uint64_t bound : {std::uint64_t{64}, std::uint64_t{128}}) {
    const Indices piece = pool.indices(bound, bound + 64);
    joined.insert(joined.end(), piece.begin(), piece.end());
  }
  EXPECT_EQ(joined, pool.indices());
}

TEST(SlotStore, ARangeInsideOnePageStartsAtItsFirstWord) {
  Pool pool(1, 256);  // contiguous: one page, four occupancy words
  for (int v = 0; v < 256; ++v) pool.emplace(v);
  const Indices second_word = pool.indices(64, 128);
  ASSERT_EQ(second_word.size(), 64u);
  EXPECT_EQ(second_word.front(), 64u);
  EXPECT_EQ(second_word.back(), 127u);
  EXPECT_EQ(pool.values(192, all_positions).front(), 192);
}

TEST(SlotStore, AWalkWritesThroughAndAConstWalkReads) {
  Pool pool(2, 64);
  for (int v = 0; v < 80; ++v) pool.emplace(v);
  pool.walk<Visit::object>(0, all_positions, [](Shot& shot) { shot.value *= 2; });
  const Store& objects = pool.objects;
  long sum = 0;
  auto add = [&](const Shot& shot) { sum += shot.value; };
  objects.walk<Visit::object, const Shot&>(pool.table, 0, all_positions, add);
  EXPECT_EQ(sum, 2 * (79 * 80 / 2));
}

TEST(SlotStore, TheOnePageViewFollowsThePageCount) {
  Pool pool(1, 64);
  ASSERT_NE(pool.objects.flat_slots(), nullptr);
  EXPECT_EQ(pool.objects.flat_slots(), pool.objects.page(0).slots());
  pool.objects.reserve_pages(4);
  pool.objects.push_page(ObjectPage<Shot>(64));
  EXPECT_EQ(pool.objects.page_count(), 2u);
  EXPECT_EQ(pool.objects.flat_slots(), nullptr);  // two pages: lookups go through the page array
  pool.objects.pop_page();
  EXPECT_EQ(pool.objects.flat_slots(), pool.objects.page(0).slots());
  pool.objects.push_page(ObjectPage<Shot>(64));
  pool.objects.drop_pages_from(1);
  EXPECT_EQ(pool.objects.flat_slots(), pool.objects.page(0).slots());
  std::vector<ObjectPage<Shot>> spare;
  spare.reserve(8);
  pool.objects.push_page(ObjectPage<Shot>(64));
  Shot* const page1 = reinterpret_cast<Shot*>(pool.objects.page(1).slots());
  pool.objects.swap_page_table(spare);  // a growth's bigger page array: the page buffers stay put
  EXPECT_EQ(reinterpret_cast<Shot*>(pool.objects.page(1).slots()), page1);
  EXPECT_EQ(pool.objects.page_table_capacity(), 8u);
  EXPECT_EQ(pool.objects.flat_slots(), nullptr);
}

// locate() answers where the pool's emplace, release and get() go: the object's bytes in its
// page and the generation and occupancy word in the table's page, through the one-page views
// when there is one page and through both page arrays otherwise; the same answer either way.
TEST(SlotStore, LocateFindsTheObjectAndItsMetadataOnOnePageAndAcrossPages) {
  for (const std::size_t pages : {std::size_t{1}, std::size_t{3}}) {
    SCOPED_TRACE(pages);
    Pool pool(pages, pages == 1 ? 192 : 64);  // 192 slots either way
    std::vector<PoolHandle> handles;
    for (int v = 0; v < 150; ++v) handles.push_back(pool.emplace(v));
    pool.release(70);  // a dead slot: its occupancy bit is clear, its generation moved on
    const Store::Flat flat = pool.objects.flat(pool.table);
    EXPECT_EQ(flat.slots != nullptr, pages == 1);
    EXPECT_EQ(flat.generations != nullptr, pages == 1);
    for (const std::uint32_t index : {0u, 63u, 64u, 70u, 129u, 149u}) {
      const Store::Ref at = pool.objects.locate(pool.table, index);
      const std::size_t page = pool.table.page_of(index);
      const std::size_t offset = pool.table.offset_of(index);
      EXPECT_EQ(at.bytes(), pool.objects.page(page).raw(offset));
      EXPECT_EQ(at.generations + at.offset, &pool.table.generation(index));
      EXPECT_EQ(test_bit(at.occupied, at.offset), index != 70);
      if (index != 70) {
        EXPECT_EQ(at.object()->value, static_cast<int>(index));
        EXPECT_EQ(at.generations[at.offset], handles[index].generation);
      } else {
        EXPECT_NE(at.generations[at.offset], handles[index].generation);
      }
      if (pages == 1) {  // the view gives the very same place
        const Store::Ref viewed = flat.at(index);
        EXPECT_EQ(viewed.bytes(), at.bytes());
        EXPECT_EQ(viewed.generations + viewed.offset, at.generations + at.offset);
        EXPECT_EQ(viewed.occupied, at.occupied);
      }
    }
  }
}

TEST(SlotStore, BytesCountThePageArrayAndEveryPage) {
  Pool pool(3, 64);
  const std::size_t expected =
      pool.objects.page_table_capacity() * sizeof(ObjectPage<Shot>) + 3 * 64 * sizeof(RawSlot<Shot>);
  EXPECT_EQ(pool.objects.bytes(), expected);
}

TEST(SlotStore, AMovedStoreKeepsItsObjectsAndLeavesAnEmptyOne) {
  Pool pool(1, 64);
  pool.emplace(7);
  pool.emplace(8);
  RawSlot<Shot>* const slots = pool.objects.flat_slots();
  Store moved(std::move(pool.objects));
  EXPECT_EQ(moved.flat_slots(), slots);  // the buffer moved with the array: no object moved
  EXPECT_EQ(pool.objects.page_count(), 0u);
  EXPECT_EQ(pool.objects.flat_slots(), nullptr);
  std::vector<int> values;
  auto collect = [&](Shot& shot) { values.push_back(shot.value); };
  moved.walk<Visit::object, Shot&>(pool.table, 0, all_positions, collect);
  EXPECT_EQ(values, (std::vector<int>{7, 8}));
  Store assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.flat_slots(), slots);
  EXPECT_EQ(moved.flat_slots(), nullptr);
  assigned.clear();
  EXPECT_EQ(assigned.flat_slots(), nullptr);
  EXPECT_EQ(assigned.page_count(), 0u);
}

}  // namespace
}  // namespace engine::detail
