#include "metrics/step_observer.hpp"

namespace game {

StepObservers::StepObservers(std::initializer_list<StepObserver*> observers) noexcept {
  std::size_t n = 0;
  for (StepObserver* o : observers) {
    if (o && n < observers_.size()) observers_[n++] = o;
  }
}

void StepObservers::before_step() {
  for (StepObserver* o : observers_) {
    if (o) o->before_step();
  }
}

void StepObservers::after_step(const Simulation& sim, const SimStats& after, double sim_ms, std::uint64_t allocations) {
  for (StepObserver* o : observers_) {
    if (o) o->after_step(sim, after, sim_ms, allocations);
  }
}

}  // namespace game
