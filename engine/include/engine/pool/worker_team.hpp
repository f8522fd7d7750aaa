// SPDX-License-Identifier: MIT
#pragma once
// engine::WorkerTeam: a small persistent team of threads for the pool's chunked passes
// (VectorPool::erase_if_chunked, for_each_listed_chunked). Part of the header-only pool library.
//
//   engine::WorkerTeam team(4);                        // the caller and 3 workers, started once
//   team(8, [&](std::size_t k) { update_chunk(k); });   // task(k) for every k in [0, 8); returns when all ran
//
// - Threads start in the constructor (or resize()) and wait between runs, spinning a little
//   before they sleep: no thread is created per frame, and a run allocates nothing (the task is
//   passed by reference, not as a std::function).
// - wake() ahead of a run that follows a pause (a frame's render, longer than the workers
//   spin) has them spinning again when it comes, instead of waiting for them to wake.
// - The calling thread works too, so a team of 1 runs every task inline, in order, with no
//   locking: the single-threaded program, exactly.
// - A run waits for the tasks its workers took, not for workers still waking up: those take none.
// - Tasks are handed out by an atomic counter: which thread runs task k is not fixed, so a task
//   must depend on its k only (the chunked passes give chunk k its own objects and buffers); the
//   result is then the same at any team size.
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
  // Joins the workers and starts threads - 1 new ones (0 -> 1). Not during a run.
  void resize(std::size_t threads) {
    threads = std::max<std::size_t>(threads, 1);
    if (threads == size() && started_) return;
    stop_workers();
    started_ = true;
    stopping_.store(false, std::memory_order_relaxed);
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
    if (workers_.empty() || !spin_) return;
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
    if (tasks > kTaskMask) throw std::length_error("WorkerTeam: more than 2^32 - 1 tasks in one run");
    if (beside_ || workers_.empty() || tasks <= 1) {  // inline: the single-threaded program
      beside();
      for (std::size_t k = 0; k < tasks; ++k) task(k);
      return;
    }
    auto call = [](void* context, std::size_t k) { (*static_cast<std::remove_reference_t<Task>*>(context))(k); };
    context_ = const_cast<void*>(static_cast<const void*>(&task));  // a const task is called as const
    call_ = call;
    error_ = nullptr;
    ticket_.store(static_cast<std::uint64_t>(tasks) << 32, std::memory_order_release);  // publishes the task
    {
      // Under the mutex, so a worker between its last look and its wait cannot miss the run.
      std::lock_guard<std::mutex> lock(mutex_);
      run_.store(run_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    wake_.notify_all();  // cheap when every worker is still spinning
    std::exception_ptr beside_error;
    beside_ = true;
    try {
      beside();
    } catch (...) {
      beside_error = std::current_exception();
    }
    beside_ = false;
    take_tasks();
    // Every task a worker claimed is finished before the call returns (the task may die then). A
    // worker that had claimed none by the time none were left is not waited for: one still waking
    // up (see wake()) leaves the whole run to the threads that came.
    for (unsigned spins = 0; in_flight_.load(std::memory_order_seq_cst) != 0; ++spins) {
      if (spins > kSpins) std::this_thread::yield();  // more threads than cores: let the workers run
    }
    context_ = nullptr;
    std::exception_ptr task_error = std::exchange(error_, nullptr);
    if (beside_error) std::rethrow_exception(beside_error);
    if (task_error) std::rethrow_exception(task_error);
  }

 private:
  // How long the caller spins waiting for the last chunk before it yields, and how long a worker
  // spins between runs before it sleeps (only while the team has no more threads than the
  // machine has cores: otherwise a spinning worker takes the core a busy one needs). A step's
  // passes come a few hundred microseconds apart, and a condition variable's wake-up cost about
  // 70 us a pass (parallel_update_bench, 100k objects).
  static constexpr unsigned kSpins = 1u << 14;
  static constexpr std::chrono::microseconds kWorkerSpin{500};

  // Runs the current run's tasks until none are left (or one threw). A task is claimed from
  // ticket_ (the run's task count above, the next task below): a claim can only take a task of
  // the run published last, so a worker that comes late finds nothing and leaves. in_flight_
  // counts the threads between a claim attempt and the end of their task; it goes up before the
  // claim, so a caller that then finds no task left (its load comes after the claim in the
  // sequentially consistent order) also finds the claimer counted, and waits for its task.
  void take_tasks() noexcept {
    for (;;) {
      in_flight_.fetch_add(1, std::memory_order_seq_cst);
      std::uint64_t ticket = ticket_.load(std::memory_order_seq_cst);
      bool claimed = false;
      while (!claimed && (ticket & kTaskMask) < (ticket >> 32)) {
        claimed = ticket_.compare_exchange_weak(ticket, ticket + 1, std::memory_order_seq_cst);
      }
      if (!claimed) {
        in_flight_.fetch_sub(1, std::memory_order_release);
        return;
      }
      try {
        call_(context_, static_cast<std::size_t>(ticket & kTaskMask));
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        std::uint64_t now = ticket_.load(std::memory_order_relaxed);  // the rest are skipped
        while (!ticket_.compare_exchange_weak(now, (now >> 32 << 32) | (now >> 32), std::memory_order_relaxed)) {}
      }
      in_flight_.fetch_sub(1, std::memory_order_release);  // the caller's wait acquires it (and error_)
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
      seen = run_.load(std::memory_order_acquire);
      take_tasks();
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
  // One run's task, written before ticket_ is stored for the run (a release store that every
  // claim acquires), and not again until the tasks claimed in the run are done.
  void* context_ = nullptr;
  void (*call_)(void*, std::size_t) = nullptr;
  static constexpr std::uint64_t kTaskMask = 0xFFFFFFFFu;
  std::atomic<std::uint64_t> ticket_{0};     // the run's task count << 32 | the next unclaimed task
  std::atomic<std::uint32_t> in_flight_{0};  // threads claiming or running a task (take_tasks)
  std::atomic<std::uint64_t> run_{0};
  std::exception_ptr error_;  // the first task's exception (under the mutex while tasks run)
  std::atomic<bool> stopping_{false};
  std::uint64_t wakes_ = 0;  // wake() calls so far (under the mutex)
  bool beside_ = false;      // the caller is inside a run_beside()'s beside(): its own runs go inline
  bool started_ = false;
  bool spin_ = false;  // workers spin between runs (set before they start)
};

}  // namespace engine
