// VectorPool<T> when T's constructor or destructor calls back into its own pool: a slot is
// claimed before T is built, an object is dead before its destructor runs, and
// clear()/~VectorPool re-read the occupancy after each destructor. Every test runs
// in both storage modes and is meant for the asan and tsan presets as much as for release.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/pool_test_support.hpp"

namespace pool_test {
namespace {

// A node that owns one child in its own pool and releases it from its destructor, as a tree
// of PoolPtr members does; it also checks that it is dead while its destructor runs.
struct TreeNode {
  explicit TreeNode(int value) : tracked(value) {}
  TreeNode(TreeNode&& other) noexcept : tracked(std::move(other.tracked)), self(other.self), child(other.child) {
    other.self = other.child = PoolHandle{};  // a moved-from node owns nothing (relocation destroys it)
  }
  TreeNode& operator=(TreeNode&&) = delete;
  ~TreeNode();
  Tracked tracked;
  PoolHandle self;   // set once emplace() returned
  PoolHandle child;  // released by the destructor if still live
  static inline VectorPool<TreeNode>* pool = nullptr;
  static inline int alive_in_own_destructor = 0;
  static inline int self_releases_accepted = 0;
};

TreeNode::~TreeNode() {
  if (!self.is_null() && pool->contains(self)) {
    ++alive_in_own_destructor;
    if (pool->release(self)) ++self_releases_accepted;  // would recurse without end
  }
  if (pool->contains(child)) pool->release(child);
}

class Reentrancy : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {
 protected:
  void SetUp() override {
    LifetimeChecked::SetUp();
    TreeNode::alive_in_own_destructor = 0;
    TreeNode::self_releases_accepted = 0;
  }
  void TearDown() override {
    EXPECT_EQ(TreeNode::alive_in_own_destructor, 0) << "an object counted as live inside its destructor";
    EXPECT_EQ(TreeNode::self_releases_accepted, 0);
    EXPECT_EQ(Lifetimes::live(), 0);
    LifetimeChecked::TearDown();
  }
  // `count` nodes, each owning the next one (node 0 is the root), in ascending or descending slots.
  static std::vector<PoolHandle> chain(VectorPool<TreeNode>& pool, int count, bool root_first) {
    std::vector<PoolHandle> handles;
    for (int i = 0; i < count; ++i) {
      handles.push_back(*pool.emplace(i));
      pool.get(handles.back())->self = handles.back();
    }
    if (!root_first) std::reverse(handles.begin(), handles.end());
    for (int i = 0; i + 1 < count; ++i)
      pool.get(handles[static_cast<std::size_t>(i)])->child = handles[static_cast<std::size_t>(i) + 1];
    return handles;
  }
};

// clear() marks a slot dead before ~T() and re-reads the live occupancy word (not a copy) after it.
TEST_P(Reentrancy, ClearWithDestructorsReleasingOtherLiveObjectsDestroysEachOnce) {
  for (const bool root_first : {true, false}) {
    VectorPool<TreeNode> pool(policy(GetParam(), 16));
    TreeNode::pool = &pool;
    chain(pool, 100, root_first);
    ASSERT_EQ(Lifetimes::live(), 100);
    pool.clear();
    EXPECT_EQ(pool.size(), 0u);
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
    EXPECT_TRUE(pool.validate());
    EXPECT_EQ(pool.stats().releases, 100u);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(pool.emplace(i).has_value());  // still usable
    pool.clear();
  }
}

TEST_P(Reentrancy, PoolDestructorWithDestructorsReleasingOtherLiveObjectsDestroysEachOnce) {
  for (const bool root_first : {true, false}) {
    {
      VectorPool<TreeNode> pool(policy(GetParam(), 16));
      TreeNode::pool = &pool;
      chain(pool, 100, root_first);
    }
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
}

// A tree whose nodes own their children through PoolPtr, with no
// contains() guard, as a game would write it. clear() and ~VectorPool destroy in slot order
// (packed: from the back), so a child often dies before its owner; the owner's PoolPtr then
// releases a handle the teardown already destroyed. Legal by the contract (each object dies
// once); debug builds used to abort on it with "release() of a stale ... handle".
struct OwningNode {
  explicit OwningNode(int value) : tracked(value) { ++built; }
  OwningNode(OwningNode&& other) noexcept
      : tracked(std::move(other.tracked)), left(std::move(other.left)), right(std::move(other.right)) {
    other.moved_from = true;  // relocation destroys the shell; it owns nothing now
  }
  OwningNode& operator=(OwningNode&&) = delete;
  ~OwningNode() {  // `left` and `right` release their nodes after this body
    if (!moved_from) ++ended;
  }
  Tracked tracked;
  PoolPtr<OwningNode> left;
  PoolPtr<OwningNode> right;
  bool moved_from = false;
  static inline int built = 0;  // value constructions and final destructions: each node ends once
  static inline int ended = 0;
};

// `count` nodes, node k in the slot `shape` gives it. Chains: node k owns node k + 1, the root
// in the lowest or the highest slot. Binary: node k owns 2k + 1 and 2k + 2, in shuffled slots,
// so owners sit both below and above what they own.
enum class TreeShape { chain_root_first, chain_root_last, binary_shuffled };

std::vector<PoolHandle> build_owning_tree(VectorPool<OwningNode>& pool, int count, TreeShape shape) {
  std::vector<int> slot_order(static_cast<std::size_t>(count));  // emplace order: node slot_order[j] gets slot j
  for (int k = 0; k < count; ++k) slot_order[static_cast<std::size_t>(k)] = k;
  if (shape == TreeShape::chain_root_last) std::reverse(slot_order.begin(), slot_order.end());
  if (shape == TreeShape::binary_shuffled) std::shuffle(slot_order.begin(), slot_order.end(), std::mt19937(27));
  std::vector<PoolHandle> node(static_cast<std::size_t>(count));
  for (const int k : slot_order) node[static_cast<std::size_t>(k)] = *pool.emplace(k);
  for (int k = 1; k < count; ++k) {
    const bool binary = shape == TreeShape::binary_shuffled;
    OwningNode& owner = *pool.get(node[static_cast<std::size_t>(binary ? (k - 1) / 2 : k - 1)]);
    PoolPtr<OwningNode>& link = binary && k % 2 == 0 ? owner.right : owner.left;
    link = PoolPtr<OwningNode>(pool, node[static_cast<std::size_t>(k)]);
  }
  return node;
}

class PoolPtrTree : public Reentrancy {
 protected:
  void SetUp() override {
    Reentrancy::SetUp();
    OwningNode::built = OwningNode::ended = 0;
  }
  void TearDown() override {
    EXPECT_EQ(OwningNode::ended, OwningNode::built) << "every node's destructor runs exactly once";
    Reentrancy::TearDown();
  }
  static constexpr TreeShape kShapes[] = {TreeShape::chain_root_first, TreeShape::chain_root_last,
                                          TreeShape::binary_shuffled};
};

TEST_P(PoolPtrTree, ClearDestroysEveryNodeOnceWhateverTheSlotOrder) {
  for (const TreeShape shape : kShapes) {
    VectorPool<OwningNode> pool(policy(GetParam(), 16));
    build_owning_tree(pool, 100, shape);
    ASSERT_EQ(OwningNode::built - OwningNode::ended, 100);
    pool.clear();
    EXPECT_EQ(OwningNode::built - OwningNode::ended, 0);
    EXPECT_EQ(pool.size(), 0u);
    EXPECT_EQ(pool.stats().releases, pool.stats().emplaces);
    EXPECT_EQ(pool.stats().failed_releases, 0u) << "an owner releasing what clear() destroyed is no failure";
    EXPECT_TRUE(pool.validate());
    build_owning_tree(pool, 10, shape);  // still usable, and clears again
    pool.clear();
    EXPECT_EQ(pool.size(), 0u);
  }
}

TEST_P(PoolPtrTree, PoolDestructorDestroysEveryNodeOnceWhateverTheSlotOrder) {
  for (const TreeShape shape : kShapes) {
    {
      VectorPool<OwningNode> pool(policy(GetParam(), 16));
      build_owning_tree(pool, 100, shape);
    }
    EXPECT_EQ(OwningNode::built - OwningNode::ended, 0);
  }
}

// Resetting a PoolPtr in the middle of a chain releases that subtree at once, and a clear()
// afterwards takes the rest: the teardown's tolerance does not change what a release does.
TEST_P(PoolPtrTree, ResettingALinkReleasesItsSubtreeThenClearTakesTheRest) {
  VectorPool<OwningNode> pool(policy(GetParam(), 16));
  const std::vector<PoolHandle> node = build_owning_tree(pool, 20, TreeShape::chain_root_last);
  pool.get(node[9])->left.reset();  // 10..19
  EXPECT_EQ(pool.size(), 10u);
  EXPECT_FALSE(pool.contains(node[10]));
  pool.clear();
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.stats().failed_releases, 0u);
}

// The same tolerance for release_later(): a destructor that queues what it owns, run by a
// teardown that already destroyed it, is quiet too (and nothing is counted as failed).
struct QueueingNode {
  explicit QueueingNode(int value) : tracked(value) {}
  QueueingNode(QueueingNode&& other) noexcept
      : tracked(std::move(other.tracked)), child(std::exchange(other.child, PoolHandle{})) {}
  QueueingNode& operator=(QueueingNode&&) = delete;
  ~QueueingNode() {
    if (!child.is_null()) pool->release_later(child);
  }
  Tracked tracked;
  PoolHandle child;
  static inline VectorPool<QueueingNode>* pool = nullptr;
};

TEST_P(PoolPtrTree, DestructorsQueueingWhatTheTeardownDestroyedAreQuietToo) {
  for (const bool destructor : {false, true}) {
    VectorPool<QueueingNode> pool(policy(GetParam(), 16));
    QueueingNode::pool = &pool;
    std::vector<PoolHandle> node;
    for (int i = 0; i < 50; ++i) node.push_back(*pool.emplace(i));
    // Nodes 10..49: each owns the one in the slot below. Nodes 0..9: each owns the one above.
    for (std::size_t i = 11; i < node.size(); ++i) pool.get(node[i])->child = node[i - 1];
    for (std::size_t i = 1; i < 10; ++i) pool.get(node[i - 1])->child = node[i];
    if (destructor) continue;  // ~VectorPool
    pool.clear();
    EXPECT_EQ(pool.size(), 0u);
    EXPECT_EQ(pool.stats().failed_releases, 0u);
    EXPECT_EQ(pool.flush_releases(), 0u) << "clear() drops the queue";
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

// release(), flush_releases(), erase_if() and clear() mark the object dead before ~T() runs.
TEST_P(Reentrancy, AnObjectIsDeadWhileItsOwnDestructorRuns) {
  VectorPool<TreeNode> pool(policy(GetParam(), 16));
  TreeNode::pool = &pool;
  std::vector<PoolHandle> handles = chain(pool, 40, true);
  ASSERT_TRUE(pool.release(handles[30]));  // release(): 30..39 go
  EXPECT_EQ(pool.size(), 30u);
  pool.release_later(handles[20]);  // flush_releases(): 20..29 go
  EXPECT_EQ(pool.flush_releases(), 1u);
  EXPECT_EQ(pool.size(), 20u);
  EXPECT_EQ(pool.erase_if([](const TreeNode& n) { return n.tracked.value() == 10; }), 1u);  // 10..19
  EXPECT_EQ(pool.size(), 10u);
  EXPECT_TRUE(pool.validate());
  pool.clear();  // 0..9
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_TRUE(pool.validate());
}

// A constructor that emplaces into its own pool: `depth` more objects, one inside the other.
struct Spawner {
  Spawner(Spawner&&) noexcept = default;
  explicit Spawner(int depth) : tracked(depth) {
    if (depth > 0) {
      const auto h = pool->emplace(depth - 1);
      child = h.value_or(PoolHandle{});
      refused += h ? 0 : 1;
    }
    if (depth == throw_at_depth) throw std::runtime_error("constructor throws after its child exists");
  }
  Tracked tracked;
  PoolHandle child;
  static inline VectorPool<Spawner>* pool = nullptr;
  static inline int throw_at_depth = -1;
  static inline int refused = 0;
};

class ReentrantConstructor : public Reentrancy {
 protected:
  void SetUp() override {
    Reentrancy::SetUp();
    Spawner::throw_at_depth = -1;
    Spawner::refused = 0;
  }
  static std::size_t visited(VectorPool<Spawner>& pool) {
    std::size_t n = 0;
    for (Spawner& s : pool) n += s.tracked.value() >= 0 ? 1u : 0u;
    return n;
  }
};

// The slot is claimed before T is built, so an emplace inside the constructor gets another slot.
TEST_P(ReentrantConstructor, AConstructorThatEmplacesGetsAnotherSlot) {
  VectorPool<Spawner> pool(policy(GetParam(), 64));
  Spawner::pool = &pool;
  const PoolHandle outer = *pool.emplace(1);  // bump path
  EXPECT_EQ(pool.size(), 2u);
  EXPECT_EQ(visited(pool), 2u);
  EXPECT_TRUE(pool.validate());
  const PoolHandle inner = pool.get(outer)->child;
  ASSERT_NE(pool.get(inner), nullptr);
  EXPECT_NE(inner.index, outer.index);
  EXPECT_EQ(pool.get(inner)->tracked.value(), 0);
  EXPECT_EQ(pool.get(outer)->tracked.value(), 1);

  // The free-stack path: both slots released, then a deeper spawn reuses them and bumps one more.
  pool.release(inner);
  pool.release(outer);
  const PoolHandle deep = *pool.emplace(3);
  EXPECT_EQ(pool.size(), 4u);
  EXPECT_EQ(visited(pool), 4u);
  EXPECT_TRUE(pool.validate());
  EXPECT_EQ(pool.get(deep)->tracked.value(), 3);
}

TEST(ReentrantConstructorStable, AConstructorThatEmplacesDuringStableGrowthGetsTheNextSlot) {
  Lifetimes::reset();
  {
    VectorPool<Spawner> pool(policy(StorageMode::stable, 0, 0, kDefaultMaxCapacity, 64));
    Spawner::pool = &pool;
    Spawner::throw_at_depth = -1;
    Spawner::refused = 0;
    const PoolHandle h = *pool.emplace(100);  // the first emplace grows; nested ones fill and grow again
    EXPECT_EQ(pool.size(), 101u);
    EXPECT_EQ(Spawner::refused, 0);
    EXPECT_TRUE(pool.validate());
    EXPECT_EQ(pool.get(h)->tracked.value(), 100);
    std::size_t n = 0;
    for (const Spawner& s : pool) n += s.tracked.value() >= 0 ? 1u : 0u;
    EXPECT_EQ(n, 101u);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_EQ(Lifetimes::bad_destructions, 0);
}

// Contiguous growth builds the object in the new buffer before moving the others: a nested
// emplace that needs another relocating growth meanwhile is refused with nullopt.
TEST(ReentrantConstructorContiguous, NestedEmplaceNeedingRelocationIsRefused) {
  Lifetimes::reset();
  {
    VectorPool<Spawner> pool(policy(StorageMode::contiguous, 1));
    Spawner::pool = &pool;
    Spawner::throw_at_depth = -1;
    Spawner::refused = 0;
    ASSERT_TRUE(pool.emplace(0).has_value());  // full now
    const PoolHandle h = *pool.emplace(1);     // grows; its child would need a second growth
    EXPECT_EQ(Spawner::refused, 1);
    EXPECT_TRUE(pool.get(h)->child.is_null());
    EXPECT_EQ(pool.size(), 2u);
    EXPECT_TRUE(pool.validate());
    EXPECT_EQ(pool.stats().failed_emplaces, 1u);
  }
  EXPECT_EQ(Lifetimes::live(), 0);
}

// A constructor that throws after its own nested emplace succeeded: the child stays (its
// emplace completed), the outer slot is free again, and nothing is counted twice.
TEST_P(ReentrantConstructor, AThrowingConstructorAfterANestedEmplaceRollsBackItsOwnSlotOnly) {
  VectorPool<Spawner> pool(policy(GetParam(), 64));
  Spawner::pool = &pool;
  Spawner::throw_at_depth = 2;
  EXPECT_THROW(pool.emplace(2), std::runtime_error);
  EXPECT_EQ(pool.size(), 2u) << "depth 1 and its child 0 were emplaced from inside";
  EXPECT_EQ(Lifetimes::live(), 2);
  EXPECT_EQ(visited(pool), 2u);
  EXPECT_TRUE(pool.validate());
  Spawner::throw_at_depth = -1;
  const std::size_t capacity = pool.capacity();
  for (int i = 0; i < 62; ++i) ASSERT_TRUE(pool.emplace(0).has_value());  // the rolled-back slot is reusable
  EXPECT_EQ(pool.capacity(), capacity);
  EXPECT_TRUE(pool.validate());
}

// An object that spawns a replacement into its own pool when it dies (once).
struct Phoenix {
  explicit Phoenix(int value, bool respawn) : tracked(value), respawns(respawn) {}
  Phoenix(Phoenix&& other) noexcept : tracked(std::move(other.tracked)), respawns(other.respawns) {
    other.respawns = false;
  }
  Phoenix& operator=(Phoenix&&) = delete;
  ~Phoenix() {
    if (!respawns) return;
    const auto h = pool->emplace(tracked.value() + 1000, false);
    if (h) {
      ++spawned;
      last_spawned = *h;
    } else {
      ++refused;
    }
  }
  Tracked tracked;
  bool respawns;
  static inline VectorPool<Phoenix>* pool = nullptr;
  static inline int spawned = 0;
  static inline int refused = 0;
  static inline PoolHandle last_spawned{};
};

class ReentrantDestructor : public LifetimeChecked<::testing::TestWithParam<StorageMode>> {
 protected:
  void SetUp() override {
    LifetimeChecked::SetUp();
    Phoenix::spawned = 0;
    Phoenix::refused = 0;
  }
};

// release() runs ~T() safely when the destructor's own emplace makes the pool grow and relocate.
TEST_P(ReentrantDestructor, ADestructorThatEmplacesIntoAFullPoolDuringReleaseIsSafe) {
  VectorPool<Phoenix> pool(policy(GetParam(), 64, 0, kDefaultMaxCapacity, 64));
  Phoenix::pool = &pool;
  std::vector<PoolHandle> handles;
  for (int i = 0; i < 64; ++i) handles.push_back(*pool.emplace(i, true));
  ASSERT_EQ(pool.size(), pool.capacity());
  ASSERT_TRUE(pool.release(handles[5]));
  if (!is_paged_storage(GetParam())) {  // contiguous and packed grow by relocating
    EXPECT_EQ(Phoenix::refused, 1) << "relocating growth under a running destructor is refused";
    EXPECT_EQ(pool.size(), 63u);
  } else {
    EXPECT_EQ(Phoenix::spawned, 1) << "stable growth moves nothing: allowed";
    EXPECT_EQ(pool.size(), 64u);
    EXPECT_NE(Phoenix::last_spawned.index, handles[5].index) << "the dying slot is not handed out";
    EXPECT_EQ(pool.get(Phoenix::last_spawned)->tracked.value(), 1005);
  }
  EXPECT_TRUE(pool.validate());
  // With room, the replacement is emplaced; it never gets the slot still being destroyed.
  pool.reserve(256);
  ASSERT_TRUE(pool.release(handles[6]));
  EXPECT_NE(Phoenix::last_spawned.index, handles[6].index);
  EXPECT_EQ(pool.get(Phoenix::last_spawned)->tracked.value(), 1006);
  EXPECT_TRUE(pool.validate());
  pool.clear();
}

// An object a destructor emplaces during clear() is counted, marked live, and destroyed by the same clear().
TEST_P(ReentrantDestructor, ObjectsEmplacedByDestructorsDuringClearAreDestroyedToo) {
  VectorPool<Phoenix> pool(policy(GetParam(), 256, 0, kDefaultMaxCapacity, 64));
  Phoenix::pool = &pool;
  for (int i = 0; i < 100; ++i) pool.emplace(i, i % 2 == 0);
  for (int i = 0; i < 100; i += 7) pool.release(pool.handle_at(static_cast<std::size_t>(i)));  // some free slots below
  const int spawned_before = Phoenix::spawned;
  pool.clear();
  EXPECT_GT(Phoenix::spawned, spawned_before);
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(Lifetimes::live(), 0);
  EXPECT_TRUE(pool.validate());
  EXPECT_EQ(pool.stats().emplaces, pool.stats().releases);
  const std::size_t capacity = pool.capacity();
  for (int i = 0; i < 256; ++i) ASSERT_TRUE(pool.emplace(i, false).has_value());  // every slot free again
  EXPECT_EQ(pool.capacity(), capacity);
  EXPECT_TRUE(pool.validate());
}

TEST_P(ReentrantDestructor, ObjectsEmplacedByDestructorsDuringThePoolDestructorAreDestroyedToo) {
  {
    VectorPool<Phoenix> pool(policy(GetParam(), 256, 0, kDefaultMaxCapacity, 64));
    Phoenix::pool = &pool;
    for (int i = 0; i < 100; ++i) pool.emplace(i, true);
  }
  EXPECT_EQ(Phoenix::spawned, 100);
  EXPECT_EQ(Lifetimes::live(), 0);
}

// An iterator is a position: after a stable shrink_to_fit frees the page it stands on, ++ reads
// the slot table only, finds nothing live past it, and the loop ends.
TEST(ReentrancyStable, ShrinkToFitInsideARangeForEndsTheLoopSafely) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto run = [] {
    VectorPool<Tracked> pool(policy(StorageMode::stable, 0, 0, kDefaultMaxCapacity, 64));
    std::vector<PoolHandle> handles;
    for (int i = 0; i < 65; ++i) handles.push_back(*pool.emplace(i));  // the last one alone on page 2
    int visited = 0;
    for (Tracked& t : pool) {
      ++visited;
      if (t.value() == 64) {
        pool.release(handles.back());
        pool.shrink_to_fit();  // frees the page this iterator stands on
      }
    }
    return visited;
  };
  EXPECT_EQ(run(), 65);  // under ASan too: nothing reads the freed page
}

INSTANTIATE_TEST_SUITE_P(AllModes, Reentrancy, ::testing::ValuesIn(kAllModes), mode_name);
INSTANTIATE_TEST_SUITE_P(AllModes, PoolPtrTree, ::testing::ValuesIn(kAllModes), mode_name);
INSTANTIATE_TEST_SUITE_P(AllModes, ReentrantConstructor, ::testing::ValuesIn(kAllModes), mode_name);
INSTANTIATE_TEST_SUITE_P(AllModes, ReentrantDestructor, ::testing::ValuesIn(kAllModes), mode_name);

}  // namespace
}  // namespace pool_test
