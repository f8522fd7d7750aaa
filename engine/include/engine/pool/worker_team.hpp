// SPDX-License-Identifier: MIT
#pragma once
// engine::WorkerTeam: a small persistent team of threads for the pool's chunked passes
// (VectorPool::erase_if_chunked, for_each_listed_chunked). Part of the header-only pool library.
//
//   engine::WorkerTeam team(4);                        // the caller and 3 workers, started once
//   team(8, [&](std::size_t k) { update_chunk(k); });   // task(k) for every k in [0, 8); returns when all ran
//
// - Threads start in the constructor (or resize()) and wait between runs: a worker spins for
//   at most kWorkerSpin (tens of microseconds, and only while the team has no more threads than
//   the machine has cores), then sleeps on a condition variable. No thread is created per frame,
//   and a run allocates nothing (the task is passed by reference, not as a std::function).
// - Tasks are handed out by an atomic counter as threads come for them: which thread runs task k
//   is not fixed, so a task must depend on its k only (the chunked passes give chunk k its own
//   objects and buffers); the result is then the same at any team size. Give a run more tasks
//   than threads: a worker the OS takes away mid-run then holds one small task, and whoever runs
//   takes the rest. The caller works too, and waits for the tasks still running by spinning for at
//   most kCallerSpin, then sleeping until the last one ends: a caller that spun on would take the
//   core the descheduled worker needs to finish.
// - set_active(n) uses n of the team's threads in the runs that follow (the others sleep), with no
//   thread started or stopped: a team that sizes itself by measurement switches for free.
// - wake() ahead of a run that follows a pause (a frame's render, longer than the workers
//   spin) has them spinning again when it comes, instead of waiting for them to wake.
// - A team of 1, or set_active(1), runs every task inline, in order, with no locking: the
//   single-threaded program, exactly.
// - A run waits for the tasks its workers took, not for workers still waking up: those take none.
// - An exception from a task ends the run after the tasks in flight finish, and the first one is
//   rethrown on the calling thread.
// - run_beside(n, task, beside) starts the workers on the tasks while the caller runs beside()
//   first (serial work sharing no data with the tasks), then joins them; runs the caller starts
//   inside beside() go inline.
// - One run at a time; not reentrant (a task must not run the team).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine {

class WorkerTeam {
 public:
  explicit WorkerTeam(std::size_t threads = 1) { resize(threads); }
  ~WorkerTeam() { stop_workers(); }
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  // The machine's hardware threads, at least 1 and at most `cap` (a sensible default team size).
  static std::size_t hardware_threads(std::size_t cap = 8) noexcept {
    const unsigned n = std::thread::hardware_concurrency();
    return std::clamp<std::size_t>(n == 0 ? 1 : n, 1, cap);
  }

  std::size_t size() const noexcept { return workers_.size() + 1; }  // threads that run tasks, the caller included
  // Threads the next runs use, the caller included: 1..size(). Not during a run.
  std::size_t active() const noexcept { return active_; }
  void set_active(std::size_t threads) noexcept { active_ = std::clamp<std::size_t>(threads, 1, size()); }
  // Joins the workers and starts threads - 1 new ones (0 -> 1). Not during a run.
  void resize(std::size_t threads) {
    threads = std::max<std::size_t>(threads, 1);
    if (threads == size() && started_) {
      active_ = threads;
      return;
    }
    stop_workers();
    started_ = true;
    stopping_.store(false, std::memory_order_relaxed);
    active_ = threads;
    spin_ = threads <= std::max(1u, std::thread::hardware_concurrency());
    workers_.reserve(threads - 1);
    // A new worker waits for the next run, not one before it was born (a resize after runs had
    // it take an old run's tasks and leave it once too often: TSan saw the caller go on early).
    const std::uint64_t current = run_.load(std::memory_order_relaxed);
    for (std::size_t i = 1; i < threads; ++i) workers_.emplace_back([this, current] { work(current); });
  }

  // Wakes sleeping workers without giving them a run: they spin for the next one (for as long as
  // they spin between runs), so a run soon after does not wait out their wake-up (100-900 us on
  // a 2-vCPU VM: BM_RunAfterPause). For a caller that knows a run is coming after a pause: a
  // game step after the frame's render. Cheap when no worker sleeps. Not during a run.
  void wake() {
    if (active_ <= 1 || !spin_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++wakes_;
    }
    wake_.notify_all();
  }

  template <class Task>
  void operator()(std::size_t tasks, Task&& task) {
    run_beside(tasks, task, [] {});
  }

  // The same run, but the caller first runs beside() while the workers start on the tasks, and
  // joins them after: serial work that shares no data with the tasks overlaps them (a game step's
  // serial start beside the particles' walk). A run the caller starts inside beside() runs inline
  // on the caller, as in a team of one: the workers are busy with this one. A team of one runs
  // beside() and then the tasks in order; so does a run started inside beside(). If beside()
  // throws after the workers started, every task still runs before the exception goes on (they
  // may refer to the caller's data); run inline, whose tasks had not started, runs none. An
  // exception from a task goes on only if beside() did not throw.
  template <class Task, class Beside>
  void run_beside(std::size_t tasks, Task&& task, Beside&& beside) {
    if (tasks > kTaskMask) throw std::length_error("WorkerTeam: more than 2^24 - 1 tasks in one run");
    if (beside_ || active_ <= 1 || tasks <= 1) {  // inline: the single-threaded program
      beside();
      for (std::size_t k = 0; k < tasks; ++k) task(k);
      return;
    }
    auto call = [](void* context, std::size_t k) { (*static_cast<std::remove_reference_t<Task>*>(context))(k); };
    context_ = const_cast<void*>(static_cast<const void*>(&task));  // a const task is called as const
    call_ = call;
    error_ = nullptr;
    const std::uint64_t run = run_.load(std::memory_order_relaxed) + 1;
    ticket_.store(tag_of(run) | static_cast<std::uint64_t>(tasks) << kCountShift,
                  std::memory_order_release);                                    // publishes the task
    const std::size_t seats = std::min(active_, tasks) - 1;                      // workers that may join this run
    seats_.store(static_cast<std::uint32_t>(seats), std::memory_order_relaxed);  // published by run_
    {
      // Under the mutex, so a worker between its last look and its wait cannot miss the run.
      std::lock_guard<std::mutex> lock(mutex_);
      run_.store(run, std::memory_order_release);
    }
    if (seats >= workers_.size()) {
      wake_.notify_all();  // cheap when every worker is still spinning
    } else {
      for (std::size_t i = 0; i < seats; ++i) wake_.notify_one();
    }
    std::exception_ptr beside_error;
    beside_ = true;
    try {
      beside();
    } catch (...) {
      beside_error = std::current_exception();
    }
    beside_ = false;
    take_tasks(run);
    // Every task a worker claimed is finished before the call returns (the task may die then). A
    // worker that had claimed none by the time none were left is not waited for: one still waking
    // up (see wake()) leaves the whole run to the threads that came.
    wait_for_tasks();
    context_ = nullptr;
    std::exception_ptr task_error = std::exchange(error_, nullptr);
    if (beside_error) std::rethrow_exception(beside_error);
    if (task_error) std::rethrow_exception(task_error);
  }

 private:
  // How long a worker spins between runs before it sleeps (only while the team has no more
  // threads than the machine has cores), and how long the caller spins for the last tasks of a
  // run before it sleeps. A step's passes come tens to hundreds of microseconds apart; a sleeping
  // thread's wake-up costs tens of microseconds. Spinning longer bought nothing measurable on a
  // quiet machine and took the core from a worker, or from another program, on a busy one.
  static constexpr std::chrono::microseconds kWorkerSpin{50};
  static constexpr std::chrono::microseconds kCallerSpin{50};

  // The caller's wait for every claimed task of the run: spins, then sleeps on done_. The worker
  // that ends the last task wakes it (take_tasks): its in_flight_ decrement and the caller's
  // caller_waiting_ store are sequentially consistent, so either the worker sees the caller
  // waiting and notifies under the mutex, or the caller sees in_flight_ at 0 and does not sleep.
  void wait_for_tasks() {
    if (in_flight_.load(std::memory_order_seq_cst) == 0) return;
    const auto until = std::chrono::steady_clock::now() + kCallerSpin;
    for (unsigned spins = 1; in_flight_.load(std::memory_order_seq_cst) != 0; ++spins) {
      if (spins % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
    if (in_flight_.load(std::memory_order_seq_cst) == 0) return;
    std::unique_lock<std::mutex> lock(mutex_);
    caller_waiting_.store(true, std::memory_order_seq_cst);
    done_.wait(lock, [this] { return in_flight_.load(std::memory_order_seq_cst) == 0; });
    caller_waiting_.store(false, std::memory_order_relaxed);
  }
  // A worker's seat in the current run: at most active() - 1 workers take tasks in one run.
  bool take_seat() noexcept {
    std::uint32_t left = seats_.load(std::memory_order_relaxed);
    while (left != 0 && !seats_.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) {}
    return left != 0;
  }

  // Runs run `run`'s tasks until none are left (or one threw). A task is claimed from ticket_
  // (the run's tag, its task count, the next task): a claim takes only a task of the run the
  // thread came for, so a worker that comes late, or that finished a task as the caller moved on
  // to the next run, finds nothing and leaves; it joins a later run only through a seat. in_flight_
  // counts the threads between a claim attempt and the end of their task; it goes up before the
  // claim, so a caller that then finds no task left (its load comes after the claim in the
  // sequentially consistent order) also finds the claimer counted, and waits for its task.
  void take_tasks(std::uint64_t run) noexcept {
    for (;;) {
      in_flight_.fetch_add(1, std::memory_order_seq_cst);
      std::uint64_t ticket = ticket_.load(std::memory_order_seq_cst);
      bool claimed = false;
      while (!claimed && (ticket & kTagMask) == tag_of(run) && (ticket & kTaskMask) < count_of(ticket)) {
        claimed = ticket_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_seq_cst);
      }
      if (!claimed) {
        leave();
        return;
      }
      try {
        call_(context_, static_cast<std::size_t>(ticket & kTaskMask));
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        std::uint64_t now = ticket_.load(std::memory_order_relaxed);  // the rest are skipped
        while (!ticket_.compare_exchange_weak(now, (now & ~kTaskMask) | count_of(now), std::memory_order_relaxed)) {}
      }
      leave();  // the caller's wait acquires it (and error_)
    }
  }
  // Ends a claim attempt: the last thread out wakes a caller asleep in wait_for_tasks().
  void leave() noexcept {
    if (in_flight_.fetch_sub(1, std::memory_order_seq_cst) == 1 && caller_waiting_.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
  void work(std::uint64_t seen) {
    std::uint64_t woken = 0;  // the wake() calls this worker has seen (read under the mutex)
    {
      std::lock_guard<std::mutex> lock(mutex_);
      woken = wakes_;
    }
    for (;;) {
      bool started = false;
      if (spin_) {
        const auto until = std::chrono::steady_clock::now() + kWorkerSpin;
        for (unsigned spins = 1; !started; ++spins) {
          started = run_.load(std::memory_order_acquire) != seen || stopping_.load(std::memory_order_acquire);
          if (spins % 256 == 0 && std::chrono::steady_clock::now() > until) break;
        }
      }
      if (!started) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] {
          return stopping_.load(std::memory_order_relaxed) || run_.load(std::memory_order_relaxed) != seen ||
                 wakes_ != woken;
        });
        woken = wakes_;
        // Woken by wake(), not by a run: spin for the run that is coming.
        if (!stopping_.load(std::memory_order_relaxed) && run_.load(std::memory_order_relaxed) == seen) continue;
      }
      if (stopping_.load(std::memory_order_acquire)) return;
      seen = run_.load(std::memory_order_acquire);  // then the seat: seats_ was set for this run or a later one
      if (take_seat()) take_tasks(seen);
    }
  }
  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;  // the caller sleeps here for a run's last tasks (wait_for_tasks)
  // One run's task, written before ticket_ is stored for the run (a release store that every
  // claim acquires), and not again until the tasks claimed in the run are done.
  void* context_ = nullptr;
  void (*call_)(void*, std::size_t) = nullptr;
  // ticket_: the run's tag (its number's low 16 bits) << 48 | its task count << 24 | the next task.
  static constexpr unsigned kCountShift = 24, kTagShift = 48;
  static constexpr std::uint64_t kTaskMask = (std::uint64_t{1} << kCountShift) - 1;
  static constexpr std::uint64_t kTagMask = ~std::uint64_t{0} << kTagShift;
  static constexpr std::uint64_t tag_of(std::uint64_t run) noexcept { return run << kTagShift; }
  static constexpr std::uint64_t count_of(std::uint64_t ticket) noexcept { return (ticket >> kCountShift) & kTaskMask; }
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<std::uint32_t> in_flight_{0};  // threads claiming or running a task (take_tasks)
  std::atomic<std::uint64_t> run_{0};
  std::atomic<std::uint32_t> seats_{0};  // workers that may still join the current run (take_seat)
  std::atomic<bool> caller_waiting_{false};
  std::exception_ptr error_;  // the first task's exception (under the mutex while tasks run)
  std::atomic<bool> stopping_{false};
  std::uint64_t wakes_ = 0;  // wake() calls so far (under the mutex)
  bool beside_ = false;      // the caller is inside a run_beside()'s beside(): its own runs go inline
  bool started_ = false;
  std::size_t active_ = 1;  // threads a run uses (set_active), the caller included
  bool spin_ = false;       // workers spin between runs (set before they start)
};

}  // namespace engine
