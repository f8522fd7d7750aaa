// Uses the installed engine::pool the way an outside game would, and checks the answers.
// Prints "engine-pool consumer: ok" and exits 0 only if every check holds.
#include <engine/pool/pool.hpp>
#include <engine/pool/pool_ptr.hpp>
#include <engine/pool/vector_pool.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

namespace {

struct alignas(32) Bullet {
  Bullet(float x_, float y_) : x(x_), y(y_) {}
  float x, y;
};

struct Spark {  // an aggregate, emplaced with fewer values than it has members
  float x, y;
  int ttl;
};

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  engine::GrowthPolicy policy;
  policy.initial_capacity = 4;
  policy.storage = engine::StorageMode::stable;
  policy.page_slots = 64;
  engine::VectorPool<Bullet> bullets(policy);

  std::vector<engine::PoolHandle> handles;
  for (int i = 0; i < 200; ++i) handles.push_back(*bullets.emplace(static_cast<float>(i), 0.0f));
  check(bullets.size() == 200, "size after 200 emplaces");
  check(reinterpret_cast<std::uintptr_t>(bullets.get(handles[7])) % 32 == 0, "alignas(32) honoured");

  bullets.erase_if([](const Bullet& b) { return static_cast<int>(b.x) % 2 == 0; });
  check(bullets.size() == 100, "erase_if removed the even ones");
  check(!bullets.contains(handles[0]) && bullets.contains(handles[1]), "handles follow erase_if");

  policy.storage = engine::StorageMode::contiguous;
  check(bullets.set_policy(policy), "switch to contiguous storage");
  float sum = 0;
  for (const Bullet& b : bullets) sum += b.x;
  check(sum == 10000.0f, "iteration after migration sums 1 + 3 + ... + 199");

  {
    engine::PoolPtr<Bullet> owned = bullets.acquire(1.0f, 2.0f);
    check(owned && owned->y == 2.0f, "acquire");
  }
  check(bullets.size() == 100, "PoolPtr released on scope exit");
  check(bullets.stats().emplaces == 201, "stats count emplaces");

  engine::Pool<Spark> sparks;  // the core, packed pages
  const std::optional<engine::PoolHandle> spark = sparks.emplace(1.0f, 2.0f);
  check(spark && sparks.get(*spark)->ttl == 0, "an aggregate's missing members are zero");
  sparks.release_later(*spark);
  check(sparks.flush_releases() == 1 && !sparks.contains(*spark), "release_later then flush_releases");

  if (failures != 0) return 1;
  std::printf("engine-pool consumer: ok\n");
  return 0;
}
