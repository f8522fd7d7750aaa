#include <engine/pool/handle.hpp>

#include <gtest/gtest.h>

namespace {

TEST(PoolHandle, DefaultIsNull) {
  constexpr engine::PoolHandle null{};
  static_assert(null.is_null());
  EXPECT_FALSE(static_cast<bool>(null));
  EXPECT_EQ(null, engine::PoolHandle{});
}

TEST(PoolHandle, NonZeroGenerationIsLiveAndComparesByValue) {
  engine::PoolHandle a{7, 1};
  engine::PoolHandle b{7, 2};
  EXPECT_TRUE(static_cast<bool>(a));
  EXPECT_NE(a, b);
  EXPECT_EQ(a, (engine::PoolHandle{7, 1}));
}

}  // namespace
