// detail::SlotTable, the slot table (issue 27): the index space, generations, occupancy bits,
// LIFO free stack and release_later() queue that every VectorPool layout shares, tested alone.
// It knows no T, so this file includes nothing of the pool but slot_table.hpp: if the table
// needed an object type or a layout header, this file would not compile. Tables are set up as
// the pool sets them up (adopt_pages with a geometry) and slots go claim -> commit -> retire ->
// push_free; every test asserts the concrete indices, generations and counts that follow.
#include <engine/pool/detail/slot_table.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace engine::detail {
namespace {

using Indices = std::vector<std::uint32_t>;
using Claimed = std::pair<std::uint32_t, bool>;  // a Claim's index and from_free_stack

constexpr std::uint32_t kSeed = 2;  // even (free): a slot's first object gets generation 3

// One page of `slots` slots, in the one-page geometry (every index is in page 0).
SlotTable one_page_table(std::uint32_t slots, std::uint32_t table_seed = kSeed) {
  SlotTable table(table_seed);
  std::vector<SlotTablePage> pages;
  pages.emplace_back(slots);
  table.adopt_pages(std::move(pages), 0, SlotTable::one_page_shift, 0xFFFFFFFFu, slots);
  return table;
}

// `count` pages of 64 slots: index >> 6 is the page, index & 63 the offset.
SlotTable paged_table(std::size_t count) {
  SlotTable table(kSeed);
  std::vector<SlotTablePage> pages;
  for (std::size_t p = 0; p < count; ++p) pages.emplace_back(64);
  table.adopt_pages(std::move(pages), 0, 6, 63, static_cast<std::uint32_t>(count * 64));
  return table;
}

// What the pool does around building an object (claim, then commit), and destroying one.
PoolHandle emplace(SlotTable& table) {
  const SlotTable::Claim claim = table.claim();
  return SlotTable::commit(table.locate(claim.index), claim.index);
}
std::vector<PoolHandle> emplace_n(SlotTable& table, std::uint32_t count) {
  std::vector<PoolHandle> handles;
  for (std::uint32_t i = 0; i < count; ++i) handles.push_back(emplace(table));
  return handles;
}
void release(SlotTable& table, std::uint32_t index) {
  SlotTable::retire(table.locate(index));
  table.push_free(index);
}
Claimed claim(SlotTable& table) {
  const SlotTable::Claim claimed = table.claim();
  return {claimed.index, claimed.from_free_stack};
}
Indices stack_of(const SlotTable& table) {  // bottom first
  Indices indices;
  for (std::uint32_t depth = 0; depth < table.free_count(); ++depth) indices.push_back(table.stack_entry(depth));
  return indices;
}
Indices queue_of(const SlotTable& table) {  // first queued first
  Indices indices;
  for (std::uint32_t p = 0; p < table.pending_count(); ++p) indices.push_back(table.pending_entry(p).index);
  return indices;
}

TEST(SlotTable, AFreshTableHandsOutIndicesInOrderUntilItIsFull) {
  SlotTable table = one_page_table(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(table.can_claim());
    EXPECT_EQ(claim(table), Claimed(i, false));
    EXPECT_EQ(table.generation(i), kSeed) << "claimed, not yet built: still free";
    EXPECT_FALSE(table.is_occupied(i));
    const PoolHandle handle = SlotTable::commit(table.locate(i), i);
    EXPECT_EQ(handle, (PoolHandle{i, kSeed + 1}));
    EXPECT_TRUE(table.is_live(handle));
    EXPECT_TRUE(table.is_occupied(i));
    EXPECT_EQ(table.used(), i + 1);
  }
  EXPECT_FALSE(table.can_claim()) << "used() == capacity() and nothing on the free stack";
  EXPECT_TRUE(table.validate(4, false));
  release(table, 2);
  EXPECT_TRUE(table.can_claim()) << "a freed slot makes room at capacity";
  EXPECT_EQ(claim(table), Claimed(2, true));
}

TEST(SlotTable, AReleasedSlotIsTheNextOneClaimedLastInFirstOut) {
  SlotTable table = one_page_table(16);
  const std::vector<PoolHandle> handles = emplace_n(table, 10);
  release(table, 3);
  release(table, 7);
  EXPECT_EQ(table.generation(3), kSeed + 2) << "retired: even again";
  EXPECT_EQ(claim(table), Claimed(7, true));
  EXPECT_EQ(claim(table), Claimed(3, true));
  EXPECT_EQ(table.used(), 10u) << "reuse does not bump";
  const PoolHandle reused = SlotTable::commit(table.locate(3), 3);
  EXPECT_EQ(reused, (PoolHandle{3, kSeed + 3}));
  EXPECT_TRUE(table.is_live(reused));
  EXPECT_FALSE(table.is_live(handles[3])) << "stale: it names the slot's previous object";
  SlotTable::commit(table.locate(7), 7);
  EXPECT_EQ(claim(table), Claimed(10, false)) << "stack empty again: the next claim bumps";
}

TEST(SlotTable, OnlyAHandleCarryingItsSlotsOddGenerationIsLive) {
  SlotTable table = one_page_table(8);
  const std::vector<PoolHandle> handles = emplace_n(table, 6);
  EXPECT_FALSE(table.is_live(PoolHandle{})) << "the null handle";
  EXPECT_FALSE(table.is_live(PoolHandle{6, kSeed + 1})) << "index never handed out";
  EXPECT_FALSE(table.is_live(PoolHandle{0, kSeed + 3})) << "a later generation than the slot's";
  const SlotTable::Claim claimed = table.claim();  // slot 6, generation kSeed while it is built
  EXPECT_EQ(table.generation(claimed.index), kSeed);
  EXPECT_FALSE(table.is_live(PoolHandle{claimed.index, kSeed})) << "a forged even generation equal to the slot's";
  table.unclaim(claimed.index, claimed.from_free_stack);
  table.trim_to(5);  // slot 5 keeps its generation in memory, but is past used()
  EXPECT_EQ(table.generation(5), handles[5].generation);
  EXPECT_FALSE(table.is_live(handles[5]));
  EXPECT_TRUE(table.is_live(handles[4]));
}

TEST(SlotTable, AnUnclaimedSlotIsFreeAgainAsBeforeTheClaim) {
  SlotTable table = one_page_table(8);
  emplace_n(table, 3);
  table.unclaim(3, claim(table).second);
  EXPECT_EQ(table.used(), 3u) << "nothing claimed since: the index space shrinks back";
  EXPECT_TRUE(table.validate(3, false));

  release(table, 1);
  ASSERT_EQ(claim(table), Claimed(1, true));
  EXPECT_EQ(table.free_count(), 0u);
  table.unclaim(1, true);
  EXPECT_EQ(stack_of(table), Indices{1}) << "back on the stack";
  EXPECT_TRUE(table.validate(2, false));
  EXPECT_EQ(emplace(table), (PoolHandle{1, kSeed + 3})) << "and it is the next claim";

  ASSERT_EQ(claim(table), Claimed(3, false));  // slot 3, whose constructor emplaces slot 4
  EXPECT_EQ(emplace(table).index, 4u);
  table.unclaim(3, false);
  EXPECT_EQ(table.used(), 5u) << "slot 4 is live above it: used() cannot shrink back";
  EXPECT_EQ(stack_of(table), Indices{3});
  EXPECT_TRUE(table.validate(4, false));
  EXPECT_EQ(claim(table), Claimed(3, true));
}

TEST(SlotTable, PagedIndicesLandInTheirPageAndTheStackSpillsIntoTheNextPage) {
  SlotTable table = paged_table(2);
  EXPECT_EQ(table.capacity(), 128u);
  EXPECT_EQ(table.slots_up_to(1000), 128u);
  EXPECT_EQ(table.slots_up_to(100), 100u);
  const SlotTable::Flat& flat = table.flat();
  EXPECT_TRUE(flat.generations == nullptr && flat.free_stack == nullptr && flat.pending == nullptr &&
              flat.queue_positions == nullptr && flat.occupied == nullptr)
      << "two pages: no one-page view";
  EXPECT_EQ(table.page_of(63), 0u);
  EXPECT_EQ(table.page_of(64), 1u);
  EXPECT_EQ(table.offset_of(127), 63u);
  const SlotTable one = one_page_table(100);
  EXPECT_TRUE(one.flat().generations == one.page(0).generations() && one.flat().pending == one.page(0).pending() &&
              one.flat().occupied == one.page(0).occupied())
      << "one page: read through the flat view";
  EXPECT_NE(paged_table(1).flat().free_stack, nullptr) << "one 64-slot page has it too";

  const std::vector<PoolHandle> handles = emplace_n(table, 100);
  const SlotTable::SlotMeta meta = table.locate(70);
  EXPECT_EQ(meta.generations, table.page(1).generations());
  EXPECT_EQ(meta.occupied, table.page(1).occupied());
  EXPECT_EQ(meta.offset, 6u);
  EXPECT_TRUE(table.page(1).is_occupied(6));
  release(table, 70);
  EXPECT_EQ(table.page(1).generations()[6], kSeed + 2);
  EXPECT_FALSE(table.page(1).is_occupied(6));
  EXPECT_TRUE(table.page(0).is_occupied(6)) << "slot 6 is another slot, in page 0";

  for (std::uint32_t i = 0; i < 66; ++i) release(table, i);  // stack depth 67: entries 64.. in page 1
  EXPECT_EQ(table.stack_entry(64), 63u);
  EXPECT_EQ(table.stack_run(64).first, table.page(1).free_stack());
  EXPECT_EQ(table.stack_run(64).length, 64u);
  EXPECT_EQ(table.page(1).free_stack()[2], 65u);
  EXPECT_EQ(table.stack_run(10).first, table.page(0).free_stack() + 10);
  EXPECT_EQ(table.stack_run(10).length, 54u);
  EXPECT_TRUE(table.validate(100 - 67, false));
  EXPECT_EQ(claim(table), Claimed(65, true));
  EXPECT_EQ(claim(table), Claimed(64, true));
  EXPECT_FALSE(table.is_live(handles[64]));
}

TEST(SlotTable, RestartFreesEverySlotAboveEveryGenerationHandedOut) {
  SlotTable table = one_page_table(8);
  std::vector<PoolHandle> old = emplace_n(table, 4);
  for (int round = 0; round < 2; ++round) {  // slot 1 holds three objects in turn
    release(table, 1);
    old.push_back(emplace(table));
  }
  EXPECT_EQ(old.back(), (PoolHandle{1, kSeed + 5}));
  EXPECT_EQ(table.enqueue(old[0]), 0u);
  release(table, 2);
  for (const std::uint32_t live : {0u, 1u, 3u}) SlotTable::retire(table.locate(live));  // bits clear first
  table.restart();
  EXPECT_EQ(table.used(), 0u);
  EXPECT_EQ(table.free_count(), 0u);
  EXPECT_EQ(table.pending_count(), 0u);
  EXPECT_EQ(table.fresh_generation(), kSeed + 8) << "slot 1 reached kSeed + 6; the next even one above";
  const std::vector<PoolHandle> fresh = emplace_n(table, 4);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(fresh[i], (PoolHandle{i, kSeed + 9}));
  for (const PoolHandle handle : old) EXPECT_FALSE(table.is_live(handle)) << handle.index;
  EXPECT_TRUE(table.validate(4, false));
}

TEST(SlotTable, GenerationsCompareRelativeToTheSeedAcrossTheWrap) {
  SlotTable table = one_page_table(2, 0xFFFFFFFCu);
  std::vector<PoolHandle> old{emplace(table)};
  for (int round = 0; round < 2; ++round) {
    release(table, 0);
    old.push_back(emplace(table));
  }
  EXPECT_EQ(old[0].generation, 0xFFFFFFFDu);
  EXPECT_EQ(old[1].generation, 0xFFFFFFFFu);
  EXPECT_EQ(old[2].generation, 1u) << "wrapped, odd: never the null generation";
  SlotTable::retire(table.locate(0));  // generation 2: six past the seed, though below it
  table.restart();
  EXPECT_EQ(table.fresh_generation(), 4u);
  EXPECT_EQ(emplace(table), (PoolHandle{0, 5u}));
  for (const PoolHandle handle : old) EXPECT_FALSE(table.is_live(handle)) << handle.generation;
}

TEST(SlotTable, RetiringARangeRaisesFreshGenerationsAboveThatRangeOnly) {
  SlotTable table = one_page_table(8);
  emplace_n(table, 4);
  for (int round = 0; round < 2; ++round) {
    release(table, 0);
    emplace(table);
  }
  EXPECT_EQ(table.generation(0), kSeed + 5);
  table.retire_generations(2, 4);  // generations kSeed + 1
  EXPECT_EQ(table.fresh_generation(), kSeed + 2) << "slot 0 is outside the range";
  table.retire_generations(0, 1);
  EXPECT_EQ(table.fresh_generation(), kSeed + 6);
  EXPECT_EQ(emplace(table), (PoolHandle{4, kSeed + 7})) << "a new slot starts at the fresh generation";
}

TEST(SlotTable, ARebuiltFreeStackHandsOutTheLowestFreeIndexFirst) {
  SlotTable table = one_page_table(8);
  emplace_n(table, 6);
  for (const std::uint32_t dead : {4u, 1u, 3u}) SlotTable::retire(table.locate(dead));  // not pushed
  EXPECT_FALSE(table.validate(3, false)) << "free slots missing from the stack";
  table.rebuild_free_stack();
  EXPECT_EQ(stack_of(table), (Indices{4, 3, 1}));
  EXPECT_TRUE(table.validate(3, false));
  for (const std::uint32_t next : {1u, 3u, 4u}) EXPECT_EQ(claim(table), Claimed(next, true));
  EXPECT_EQ(claim(table), Claimed(6, false));
}

TEST(SlotTable, TheReleaseQueueKeepsHandlesInOrderAcrossAPageBoundary) {
  SlotTable table = paged_table(2);
  const std::vector<PoolHandle> handles = emplace_n(table, 100);
  Indices expected;
  for (std::uint32_t k = 0; k < 100; ++k) {
    EXPECT_EQ(table.enqueue(handles[99 - k]), 0u);
    EXPECT_EQ(table.pending_count(), k + 1);
    expected.push_back(99 - k);
  }
  EXPECT_FALSE(table.queue_indexed());
  EXPECT_EQ(queue_of(table), expected);
  EXPECT_EQ(table.pending_entry(99).generation, kSeed + 1);
  EXPECT_EQ(table.page(1).pending()[0].index, 35u) << "queue entry 64 is page 1's first";
  EXPECT_EQ(table.queue_run(64).first, table.page(1).pending());
  EXPECT_EQ(table.queue_run(60).length, 4u);
  EXPECT_TRUE(table.validate(100, false));
  table.end_queue();
  EXPECT_EQ(table.pending_count(), 0u);
  EXPECT_EQ(table.enqueue(handles[7]), 0u);
  EXPECT_EQ(queue_of(table), Indices{7}) << "after the flush the queue starts over";
}

TEST(SlotTable, RepeatsThatWouldOverflowTheQueueIndexItOneEntryPerSlot) {
  SlotTable table = one_page_table(8);
  const std::vector<PoolHandle> handles = emplace_n(table, 8);
  std::uint32_t settled = 0, calls = 0;
  const auto enqueue = [&](const PoolHandle handle) {
    ++calls;
    const std::uint32_t repeats = table.enqueue(handle);
    settled += repeats;
    EXPECT_LE(table.pending_count(), table.capacity());
    return repeats;
  };
  for (int k = 0; k < 8; ++k) EXPECT_EQ(enqueue(handles[0]), 0u);  // room for capacity() entries
  EXPECT_FALSE(table.queue_indexed());
  EXPECT_EQ(enqueue(handles[0]), 8u) << "full: indexing drops 7 repeats, and this call is the 8th";
  EXPECT_TRUE(table.queue_indexed());
  EXPECT_EQ(table.pending_count(), 1u);
  for (std::uint32_t i = 1; i < 8; ++i) EXPECT_EQ(enqueue(handles[i]), 0u);
  for (std::uint32_t k = 0; k < 21; ++k) EXPECT_EQ(enqueue(handles[(k * 3) % 8]), 1u);
  EXPECT_EQ(table.pending_count(), 8u);
  EXPECT_EQ(settled, calls - 8) << "every call but each slot's first was a repeat";
  const Indices queued = queue_of(table);
  EXPECT_EQ(std::set<std::uint32_t>(queued.begin(), queued.end()).size(), 8u) << "one entry per slot";
  for (std::uint32_t p = 0; p < 8; ++p) EXPECT_EQ(table.queue_position(queued[p]), p);
  EXPECT_TRUE(table.validate(8, false));

  release(table, 5);  // released directly while queued; a new object takes the slot
  const PoolHandle reborn = emplace(table);
  ASSERT_EQ(reborn.index, 5u);
  EXPECT_EQ(table.enqueue(reborn), 1u) << "the dead object's entry now names the new one";
  EXPECT_EQ(table.pending_count(), 8u);
  EXPECT_EQ(table.pending_entry(table.queue_position(5)).generation, reborn.generation);
}

TEST(SlotTable, IndexingTheQueueDropsStaleAndRepeatedEntriesInOrder) {
  SlotTable table = one_page_table(8);
  const std::vector<PoolHandle> handles = emplace_n(table, 8);
  for (const std::uint32_t i : {0u, 1u, 2u, 3u, 4u, 5u, 2u, 4u}) table.enqueue(handles[i]);
  release(table, 3);  // its entry goes stale
  release(table, 1);
  EXPECT_EQ(emplace(table).index, 1u);  // slot 1's entry names the previous object
  EXPECT_EQ(table.index_queue(), 4u) << "slots 1 and 3 (stale) and the repeats of 2 and 4";
  EXPECT_TRUE(table.queue_indexed());
  EXPECT_EQ(queue_of(table), (Indices{0, 2, 4, 5}));
  EXPECT_EQ(table.queue_position(4), 2u);
  EXPECT_TRUE(table.validate(7, false));
  table.end_queue();
  EXPECT_EQ(table.pending_count(), 0u);
  EXPECT_FALSE(table.queue_indexed());
}

TEST(SlotTable, ALayoutChangeCarriesGenerationsStackAndQueueIntoNewPages) {
  SlotTable table = one_page_table(128);
  const std::vector<PoolHandle> handles = emplace_n(table, 128);
  std::vector<PoolHandle> live;
  Indices stack, queue;
  for (std::uint32_t i = 0; i < 128; ++i) {  // 43 free, pushed in ascending order; 85 live
    if (i % 3 == 0) {
      release(table, i);
      stack.push_back(i);
    } else {
      live.push_back(handles[i]);
    }
  }
  for (auto it = live.rbegin(); it != live.rend(); ++it) {  // 85 entries: past 64
    table.enqueue(*it);
    queue.push_back(it->index);
  }
  EXPECT_EQ(table.index_queue(), 0u);
  EXPECT_EQ(table.bytes(), table.page_table_capacity() * sizeof(SlotTablePage) + 128u * 20 + 16);

  std::vector<SlotTablePage> target;
  target.emplace_back(64);
  target.emplace_back(64);
  table.copy_into(target, 0, 6, 63);
  // copy_into leaves the occupancy bits to the pool, which sets them as it moves each object
  // into its new page: set them here for the live slots.
  for (const PoolHandle handle : live) target[handle.index >> 6].set_occupied(handle.index & 63);
  table.adopt_pages(std::move(target), 0, 6, 63, 128);

  EXPECT_EQ(table.page_count(), 2u);
  EXPECT_EQ(table.flat().generations, nullptr);
  EXPECT_EQ(table.bytes(), table.page_table_capacity() * sizeof(SlotTablePage) + 2 * (64u * 20 + 8));
  EXPECT_EQ(table.used(), 128u);
  for (const PoolHandle handle : live) EXPECT_TRUE(table.is_live(handle)) << handle.index;
  EXPECT_FALSE(table.is_live(handles[66]));
  EXPECT_EQ(stack_of(table), stack);
  EXPECT_EQ(queue_of(table), queue);
  EXPECT_TRUE(table.queue_indexed());
  EXPECT_EQ(table.page(1).pending()[0].index, queue[64]);
  EXPECT_TRUE(table.validate(85, false));
  EXPECT_EQ(table.enqueue(handles[1]), 1u) << "its queue position came along: found, not appended";
  EXPECT_EQ(table.enqueue(handles[127]), 1u);
  EXPECT_EQ(table.pending_count(), 85u);
  EXPECT_EQ(emplace(table), (PoolHandle{126, kSeed + 3}));
  EXPECT_TRUE(table.page(1).is_occupied(62));
}

TEST(SlotTable, AdoptingPagesFromAPageOnKeepsTheLowerPages) {
  SlotTable table = paged_table(3);
  const std::vector<PoolHandle> handles = emplace_n(table, 140);
  release(table, 130);
  for (const PoolHandle handle : handles) {  // 139 entries: the append cursor ends in page 2
    if (handle.index != 130) table.enqueue(handle);
  }
  const std::uint32_t* page0 = table.page(0).generations();
  std::vector<SlotTablePage> target;
  target.emplace_back(64);
  table.copy_into(target, 2, 6, 63);
  for (std::uint32_t i = 128; i < 140; ++i) {
    if (i != 130) target[0].set_occupied(i & 63);  // the pool's part, as in a layout change
  }
  const QueuedHandle* new_queue = target[0].pending();
  table.adopt_pages(std::move(target), 2, 6, 63, 192);
  EXPECT_EQ(table.page_count(), 3u);
  EXPECT_EQ(table.page(0).generations(), page0) << "pages below first_page do not move";
  EXPECT_EQ(table.page(2).pending(), new_queue);
  for (const PoolHandle handle : handles) EXPECT_EQ(table.is_live(handle), handle.index != 130) << handle.index;
  EXPECT_EQ(table.pending_entry(138).index, 139u);
  EXPECT_TRUE(table.validate(139, false));
  EXPECT_EQ(table.enqueue(handles[5]), 0u);
  EXPECT_EQ(new_queue[139 - 128].index, 5u) << "the next append lands in the adopted page";
  EXPECT_TRUE(table.validate(139, false));
  EXPECT_EQ(claim(table), Claimed(130, true)) << "the free stack below page 2 stayed";
}

TEST(SlotTable, ABiggerPageTableKeepsEverySlotAndSwapsBack) {
  SlotTable table = paged_table(2);
  const std::vector<PoolHandle> handles = emplace_n(table, 70);
  table.enqueue(handles[3]);
  const std::uint32_t* page1 = table.page(1).generations();
  std::vector<SlotTablePage> spare;
  spare.reserve(8);
  spare.emplace_back(0);  // hollow places for the two pages
  spare.emplace_back(0);
  table.swap_page_table(spare);
  EXPECT_EQ(table.page_count(), 2u);
  EXPECT_GE(table.page_table_capacity(), 8u);
  EXPECT_EQ(table.page(1).generations(), page1) << "the page's buffers moved with it";
  EXPECT_EQ(spare[1].slot_count(), 0u) << "the old table comes back hollow";
  for (const PoolHandle handle : handles) EXPECT_TRUE(table.is_live(handle)) << handle.index;
  EXPECT_EQ(table.enqueue(handles[65]), 0u) << "the queue's append cursor is still good";
  EXPECT_TRUE(table.validate(70, false));
  table.swap_page_table(spare);  // roll back: the old page table again
  EXPECT_EQ(table.page(1).generations(), page1);
  for (const PoolHandle handle : handles) EXPECT_TRUE(table.is_live(handle)) << handle.index;
  EXPECT_EQ(queue_of(table), (Indices{3, 65}));
  EXPECT_TRUE(table.validate(70, false));
}

TEST(SlotTable, ValidateFindsEachBrokenInvariant) {
  SlotTable table = one_page_table(16);
  emplace_n(table, 8);
  release(table, 2);
  EXPECT_TRUE(table.validate(7, false));
  EXPECT_FALSE(table.validate(8, false)) << "wrong live count";
  EXPECT_FALSE(table.validate(6, false));
  const SlotTable::Claim claimed = table.claim();  // inside the constructor: neither live nor free
  EXPECT_FALSE(table.validate(7, false));
  EXPECT_TRUE(table.validate(7, true));
  SlotTable::commit(table.locate(claimed.index), claimed.index);
  EXPECT_TRUE(table.validate(8, false));

  table.page(0).set_occupied(12);  // a bit on a slot never handed out
  EXPECT_FALSE(table.validate(8, false));
  table.page(0).clear_occupied(12);
  release(table, 4);
  release(table, 6);
  table.stack_entry(1) = 5;  // a live slot on the free stack
  EXPECT_FALSE(table.validate(6, true));
  table.stack_entry(1) = 4;  // one free slot twice
  EXPECT_FALSE(table.validate(6, true));
  table.stack_entry(1) = 6;
  EXPECT_TRUE(table.validate(6, false));
  table.page(0).clear_occupied(7);  // a live generation without its bit
  EXPECT_FALSE(table.validate(5, true));
  table.page(0).set_occupied(7);
  EXPECT_EQ(table.enqueue(PoolHandle{7, kSeed + 1}), 0u);
  EXPECT_TRUE(table.validate(6, false));
  table.pending_entry(0).index = 12;  // a queue entry naming a slot never handed out
  EXPECT_FALSE(table.validate(6, false));
  table.end_queue();
  table.set_capacity(7);  // fewer slots than were handed out
  EXPECT_FALSE(table.validate(6, false));

  SlotTable misfit(kSeed);  // 32-slot pages in a geometry of 64: page 1 starts at 32, not 64
  std::vector<SlotTablePage> pages;
  pages.emplace_back(32);
  pages.emplace_back(32);
  misfit.adopt_pages(std::move(pages), 0, 6, 63, 64);
  EXPECT_FALSE(misfit.validate(0, false));
}

TEST(SlotTable, ShrinkingDropsPagesAndGrowingAgainStartsAboveTheirGenerations) {
  SlotTable table = paged_table(3);
  const std::vector<PoolHandle> handles = emplace_n(table, 70);
  for (std::uint32_t i = 64; i < 70; ++i) SlotTable::retire(table.locate(i));  // the objects above 64 go
  table.retire_generations(64, 70);
  table.trim_to(64);
  table.drop_pages_from(1);
  table.set_capacity(table.slots_up_to(64));
  EXPECT_EQ(table.page_count(), 1u);
  EXPECT_EQ(table.capacity(), 64u);
  EXPECT_EQ(table.flat().generations, table.page(0).generations()) << "one page: the flat view is back";
  EXPECT_FALSE(table.is_live(handles[65]));
  EXPECT_TRUE(table.is_live(handles[63]));
  EXPECT_TRUE(table.validate(64, false));
  EXPECT_FALSE(table.can_claim());

  table.push_page(SlotTablePage(64));
  table.set_capacity(table.slots_up_to(1000));
  EXPECT_EQ(table.capacity(), 128u);
  EXPECT_EQ(table.flat().generations, nullptr);
  const PoolHandle regrown = emplace(table);
  EXPECT_EQ(regrown, (PoolHandle{64, kSeed + 5})) << "the dropped slot reached kSeed + 2; fresh is above";
  EXPECT_FALSE(table.is_live(handles[64]));
  SlotTable::retire(table.locate(64));  // and shrink again, by pop_page
  table.retire_generations(64, 65);
  table.trim_to(64);
  table.pop_page();
  table.set_capacity(64);
  EXPECT_EQ(table.flat().occupied, table.page(0).occupied());
  EXPECT_FALSE(table.is_live(regrown));
  EXPECT_TRUE(table.validate(64, false));
  EXPECT_EQ(SlotTable().slots_up_to(100), 0u) << "no pages, no slots";
}

TEST(SlotTable, AMovedTableKeepsEveryHandleAndLeavesAnEmptyOneBehind) {
  SlotTable source = one_page_table(8);
  const std::vector<PoolHandle> handles = emplace_n(source, 3);
  release(source, 1);
  EXPECT_EQ(source.enqueue(handles[2]), 0u);
  SlotTable moved(std::move(source));
  EXPECT_TRUE(moved.is_live(handles[0]));
  EXPECT_FALSE(moved.is_live(handles[1]));
  EXPECT_EQ(moved.used(), 3u);
  EXPECT_EQ(stack_of(moved), Indices{1});
  EXPECT_EQ(queue_of(moved), Indices{2});
  EXPECT_NE(moved.flat().generations, nullptr);
  EXPECT_TRUE(moved.validate(2, false));
  // The source is a default table: no pages, no one-page view into the moved buffers.
  EXPECT_EQ(source.page_count(), 0u);
  EXPECT_EQ(source.flat().generations, nullptr);
  EXPECT_EQ(source.used(), 0u);
  EXPECT_EQ(source.capacity(), 0u);
  EXPECT_FALSE(source.can_claim());
  EXPECT_FALSE(source.is_live(handles[0]));
  // Assigned over a table with pages of its own: that table's pages go, the moved ones stay live.
  SlotTable target = paged_table(2);
  emplace_n(target, 70);
  target = std::move(moved);
  EXPECT_EQ(target.page_count(), 1u);
  EXPECT_TRUE(target.is_live(handles[2]));
  EXPECT_EQ(target.enqueue(handles[0]), 0u);  // the queue's tail came along and still appends in place
  EXPECT_EQ(queue_of(target), (Indices{2, 0}));
  EXPECT_TRUE(target.validate(2, false));
  EXPECT_EQ(moved.page_count(), 0u);
}

// erase_if's victim list: above the stack in the stack's own arrays, read upwards last-pushed first.
Indices top_list_of(SlotTable& table, const SlotTable::TopList& list) {
  Indices out;
  for (std::uint32_t k = 0; k < list.size(); ++k) out.push_back(table.stack_entry(list.first() + k));
  return out;
}

TEST(SlotTable, TheTopListGrowsDownAboveTheStackAndLeavesItAlone) {
  SlotTable table = one_page_table(16);
  emplace_n(table, 8);
  release(table, 5);
  release(table, 2);
  SlotTable::TopList list(table);
  for (const std::uint32_t entry : {10u, 11u, 12u}) list.push(entry);
  EXPECT_EQ(list.first(), 13u);  // entries [13, 16): the top of the 16 the arrays hold
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(top_list_of(table, list), (Indices{12, 11, 10}));
  EXPECT_EQ(stack_of(table), (Indices{5, 2}));  // the stack below is untouched
}

TEST(SlotTable, TheTopListCrossesPagesOfTheStackArrays) {
  SlotTable table = paged_table(3);  // 64 entries a page: the list starts in page 2 and runs down into page 0
  Indices pushed;
  SlotTable::TopList list(table);
  for (std::uint32_t entry = 0; entry < 150; ++entry) {
    list.push(1000 + entry);
    pushed.push_back(1000 + entry);
  }
  EXPECT_EQ(list.first(), 192u - 150u);
  const Indices expected(pushed.rbegin(), pushed.rend());
  EXPECT_EQ(top_list_of(table, list), expected);
}

TEST(SlotTable, TheTopListMovesUpWhenAGrowthMidPassWouldLetTheStackReachIt) {
  SlotTable table = paged_table(1);
  table.reserve_pages(4);
  emplace_n(table, 64);
  for (std::uint32_t index = 0; index < 10; ++index) release(table, index);  // 10 free, 54 live
  SlotTable::TopList list(table);
  for (std::uint32_t index = 10; index < 64; ++index) list.push(index);  // every live slot: stack and list touch
  ASSERT_EQ(list.first(), 10u);
  // The predicate emplaced into a stable pool: a page more (capacity 128), and its new object
  // must not be listed over. The next push finds free + listed == old top and moves the list up.
  table.push_page(SlotTablePage(64));
  table.set_capacity(128);
  list.push(99);
  EXPECT_EQ(list.first(), 128u - 55u);
  EXPECT_EQ(list.size(), 55u);
  Indices expected{99};
  for (std::uint32_t index = 64; index-- > 10;) expected.push_back(index);
  EXPECT_EQ(top_list_of(table, list), expected);
  EXPECT_EQ(table.free_count(), 10u);
}

}  // namespace
}  // namespace engine::detail
