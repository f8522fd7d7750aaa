// detail::SlotTablePage, the slot table's page (issue 27): the per-slot metadata every layout
// keeps, tested alone. It knows no T, so this file is the whole of its compiled code.
#include <engine/pool/detail/slot_table_page.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace engine::detail {
namespace {

static_assert(!std::is_copy_constructible_v<SlotTablePage>, "a page owns its arrays");
static_assert(std::is_nothrow_move_constructible_v<SlotTablePage>, "the page table moves pages in growth");

TEST(SlotTablePage, EveryArrayHasOneEntryPerSlotAndEverySlotStartsFree) {
  const SlotTablePage page(100);  // not a multiple of 64: the last occupancy word is short
  EXPECT_EQ(page.slot_count(), 100u);
  EXPECT_EQ(page.words(), 2u);
  EXPECT_TRUE(page.is_empty());
  for (std::size_t offset = 0; offset < 100; ++offset) EXPECT_FALSE(page.is_occupied(offset)) << offset;
  EXPECT_NE(page.generations(), nullptr);
  EXPECT_NE(page.free_stack(), nullptr);
  EXPECT_NE(page.pending(), nullptr);
  EXPECT_NE(page.queue_positions(), nullptr);
}

TEST(SlotTablePage, OccupancyBitsAreOnePerSlotAndWordsSeeThem) {
  SlotTablePage page(130);
  page.set_occupied(0);
  page.set_occupied(64);
  page.set_occupied(129);
  EXPECT_FALSE(page.is_empty());
  EXPECT_TRUE(page.is_occupied(64));
  EXPECT_FALSE(page.is_occupied(63));
  EXPECT_EQ(page.occupied()[0], 1u);
  EXPECT_EQ(page.occupied()[1], 1u);
  EXPECT_EQ(page.occupied()[2], 2u);  // slot 129 is bit 1 of word 2
  page.clear_occupied(0);
  page.clear_occupied(64);
  page.clear_occupied(129);
  EXPECT_TRUE(page.is_empty());
}

TEST(SlotTablePage, TheArraysAreWritableAndAMoveKeepsTheirBuffers) {
  SlotTablePage page(64);
  for (std::uint32_t i = 0; i < 64; ++i) {
    page.generations()[i] = 2 * i + 1;
    page.free_stack()[i] = 63 - i;
    page.pending()[i] = QueuedHandle{i, 2 * i + 1};
    page.queue_positions()[i] = i;
  }
  page.set_occupied(5);
  const std::uint32_t* generations = page.generations();
  const std::uint64_t* occupied = page.occupied();
  SlotTablePage moved(std::move(page));
  EXPECT_EQ(moved.generations(), generations) << "a moved page keeps its arrays: the pool's cached views stay valid";
  EXPECT_EQ(moved.occupied(), occupied);
  EXPECT_EQ(moved.generations()[10], 21u);
  EXPECT_EQ(moved.free_stack()[10], 53u);
  EXPECT_EQ(moved.pending()[10].generation, 21u);
  EXPECT_EQ(moved.queue_positions()[10], 10u);
  EXPECT_TRUE(moved.is_occupied(5));
  SlotTablePage other(8);
  other = std::move(moved);
  EXPECT_EQ(other.slot_count(), 64u);
  EXPECT_EQ(other.generations(), generations);
}

TEST(SlotTablePage, BytesCountEveryArray) {
  const SlotTablePage page(64);
  // 4 bytes of generation, free-stack entry and queue position, 8 of queue entry, one bit of occupancy
  EXPECT_EQ(page.bytes(), 64u * (4 + 4 + 4 + 8) + 8u);
}

}  // namespace
}  // namespace engine::detail
