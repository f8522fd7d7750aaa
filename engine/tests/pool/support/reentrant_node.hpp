#pragma once
// A pool whose objects release one another from their destructors: the Node type and the
// fixture of the Reentrant suite, shared by the tests with debug checks on and with them off.
#include <engine/pool/vector_pool.hpp>

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "pool_test_support.hpp"

namespace pool_test {

// A node that owns a child in its own pool and lets it go from its destructor, as a tree
// of PoolPtr members would: release() now, or release_later() for the next flush.
struct Node {
  Node(int value, VectorPool<Node>* owner_pool, PoolHandle child_handle, bool defer_release)
      : tracked(value), owner(owner_pool), child(child_handle), defer(defer_release) {}
  Node(Node&& other) noexcept
      : tracked(std::move(other.tracked)), owner(other.owner), child(other.child), defer(other.defer) {
    other.owner = nullptr;  // the moved-from shell owns nothing
  }
  Node& operator=(Node&&) = delete;
  ~Node() {
    if (owner == nullptr || child.is_null()) return;
    if (defer) {
      owner->release_later(child);
    } else if (!owner->release(child)) {
      ++refused_child_releases;
    }
  }
  Tracked tracked;
  VectorPool<Node>* owner;
  PoolHandle child;
  bool defer;
  static inline int refused_child_releases = 0;
};

class Reentrant : public ::testing::TestWithParam<StorageMode> {
 protected:
  void SetUp() override {
    Lifetimes::reset();
    Node::refused_child_releases = 0;
  }
  void TearDown() override {
    EXPECT_EQ(Lifetimes::live(), 0);
    EXPECT_EQ(Lifetimes::bad_destructions, 0);
  }
  // 40 parents, each with one child; parents have values 0..39, children 1000+.
  static std::vector<PoolHandle> family(VectorPool<Node>& pool, bool defer) {
    std::vector<PoolHandle> parents;
    for (int i = 0; i < 40; ++i) {
      const PoolHandle child = *pool.emplace(1000 + i, nullptr, PoolHandle{}, false);
      parents.push_back(*pool.emplace(i, &pool, child, defer));
    }
    return parents;
  }
};

}  // namespace pool_test
