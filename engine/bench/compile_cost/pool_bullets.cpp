// A bullet manager over engine::Pool<Bullet>: what a game writes, for the compile-cost figure
// (scripts/figures times it against handrolled_bullets.cpp, the same program without the library)
// and for the -fno-exceptions -fno-rtti consumer test.
#include <engine/pool/pool.hpp>

#include <cstdio>
#include <vector>

struct Bullet {
  Bullet(float px, float py, float pvx, float pvy) : x(px), y(py), vx(pvx), vy(pvy) {}
  float x, y, vx, vy;
  int ttl = 120;
};

class BulletManager {
 public:
  engine::PoolHandle fire(float x, float y, float vx, float vy) {
    const auto handle = bullets_.emplace(x, y, vx, vy);
    return handle ? *handle : engine::PoolHandle{};
  }
  void update(float dt) {
    bullets_.for_each([&](engine::PoolHandle handle, Bullet& b) {  // phase one: update and mark
      b.x += b.vx * dt;
      b.y += b.vy * dt;
      if (--b.ttl <= 0 || b.y < 0) bullets_.release_later(handle);
    });
    bullets_.flush_releases();  // phase two: release
  }
  const Bullet* find(engine::PoolHandle handle) const { return bullets_.get(handle); }
  std::size_t live() const { return bullets_.size(); }

 private:
  engine::Pool<Bullet> bullets_{engine::GrowthPolicy{256, 0, 1 << 20}};
};

int main() {
  BulletManager manager;
  std::vector<engine::PoolHandle> held;
  std::size_t peak = 0;
  for (int frame = 0; frame < 600; ++frame) {
    for (int i = 0; i < 40; ++i) {
      const engine::PoolHandle h = manager.fire(0.f, 100.f, static_cast<float>(i) - 20.f, 50.f);
      if (i == 0) held.push_back(h);
    }
    manager.update(1.0f / 60.0f);
    peak = manager.live() > peak ? manager.live() : peak;
  }
  std::size_t alive = 0;
  for (const engine::PoolHandle h : held) alive += manager.find(h) != nullptr ? 1u : 0u;
  std::printf("live %zu peak %zu held alive %zu\n", manager.live(), peak, alive);
  return manager.live() == 4760 && peak == 4760 && alive == 119 ? 0 : 1;  // a bullet lives 119 updates
}
