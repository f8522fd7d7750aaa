#include "metrics/overlay_rates.hpp"

namespace game {

void PoolRateMeter::sample(std::uint64_t step, const std::array<StoreStats, kPoolCount>& pools) noexcept {
  // A step number that does not advance (pause, a repeated call) replaces the newest sample
  // instead of shortening the second the rates cover.
  if (count_ > 0) {
    const std::size_t newest = (head_ + ring_.size() - 1) % ring_.size();
    if (ring_[newest].step >= step) {
      head_ = newest;
      --count_;
    }
  }
  Sample& s = ring_[head_];
  s.step = step;
  for (std::size_t i = 0; i < kPoolCount; ++i) {
    s.spawns[i] = pools[i].spawns;
    s.releases[i] = pools[i].releases;
    s.refused[i] = pools[i].refused_spawns;
    s.stale[i] = pools[i].stale_gets;
  }
  head_ = (head_ + 1) % ring_.size();
  if (count_ < ring_.size()) ++count_;
}

PoolRates PoolRateMeter::rates(PoolId pool) const noexcept {
  PoolRates r;
  if (count_ < 2) return r;
  const std::size_t newest = (head_ + ring_.size() - 1) % ring_.size();
  const std::size_t oldest = (head_ + ring_.size() - count_) % ring_.size();
  const Sample& a = ring_[oldest];
  const Sample& b = ring_[newest];
  if (b.step <= a.step) return r;
  const auto i = static_cast<std::size_t>(pool);
  const double seconds = static_cast<double>(b.step - a.step) / static_cast<double>(kStepsPerSecond);
  // Counters only grow, except across a restart of the meter's source; never report negatives.
  const auto delta = [](std::uint64_t newer, std::uint64_t older) { return newer > older ? newer - older : 0; };
  r.emplaces_per_second = static_cast<double>(delta(b.spawns[i], a.spawns[i])) / seconds;
  r.releases_per_second = static_cast<double>(delta(b.releases[i], a.releases[i])) / seconds;
  r.refused_last_second = delta(b.refused[i], a.refused[i]);
  r.stale_gets_per_second = static_cast<double>(delta(b.stale[i], a.stale[i])) / seconds;
  return r;
}

}  // namespace game
