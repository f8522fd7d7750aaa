// The bullet manager of pool_bullets.cpp over a hand-rolled std::vector + free-index stack with
// generations: what a game writes without the library (the compile-cost baseline).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

struct Bullet {
  float x = 0, y = 0, vx = 0, vy = 0;
  int ttl = 120;
};
struct Handle {
  std::uint32_t index = 0, generation = 0;
};

class BulletManager {
 public:
  Handle fire(float x, float y, float vx, float vy) {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[index];
    s.bullet = Bullet{x, y, vx, vy, 120};
    s.live = true;
    return Handle{index, ++s.generation};
  }
  void update(float dt) {
    std::vector<std::uint32_t> dead;  // phase one: update and mark
    for (std::uint32_t i = 0; i < slots_.size(); ++i) {
      Slot& s = slots_[i];
      if (!s.live) continue;
      s.bullet.x += s.bullet.vx * dt;
      s.bullet.y += s.bullet.vy * dt;
      if (--s.bullet.ttl <= 0 || s.bullet.y < 0) dead.push_back(i);
    }
    for (const std::uint32_t i : dead) {  // phase two: release
      slots_[i].live = false;
      ++slots_[i].generation;
      free_.push_back(i);
    }
  }
  const Bullet* find(Handle h) const {
    if (h.index >= slots_.size() || !slots_[h.index].live || slots_[h.index].generation != h.generation) return nullptr;
    return &slots_[h.index].bullet;
  }
  std::size_t live() const { return slots_.size() - free_.size(); }

 private:
  struct Slot {
    Bullet bullet;
    std::uint32_t generation = 0;
    bool live = false;
  };
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
};

int main() {
  BulletManager manager;
  std::vector<Handle> held;
  std::size_t peak = 0;
  for (int frame = 0; frame < 600; ++frame) {
    for (int i = 0; i < 40; ++i) {
      const Handle h = manager.fire(0.f, 100.f, static_cast<float>(i) - 20.f, 50.f);
      if (i == 0) held.push_back(h);
    }
    manager.update(1.0f / 60.0f);
    peak = manager.live() > peak ? manager.live() : peak;
  }
  std::size_t alive = 0;
  for (const Handle h : held) alive += manager.find(h) != nullptr ? 1u : 0u;
  std::printf("live %zu peak %zu held alive %zu\n", manager.live(), peak, alive);
  return manager.live() == 4760 && peak == 4760 && alive == 119 ? 0 : 1;  // a bullet lives 119 updates
}
