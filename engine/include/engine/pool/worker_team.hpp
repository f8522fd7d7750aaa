#pragma once
// engine::WorkerTeam: a small persistent team of threads for the pool's chunked passes
// (VectorPool::erase_if_chunked, for_each_listed_chunked). Part of the header-only pool library.
//
//   engine::WorkerTeam team(4);                        // the caller and 3 workers, started once
//   team(8, [&](std::size_t k) { update_chunk(k); });   // task(k) for every k in [0, 8); returns when all ran
//
// - Threads start in the constructor (or resize()) and wait between runs: no thread is created
//   per frame, and a run allocates nothing (the task is passed by reference, not as a
//   std::function).
// - The calling thread works too, so a team of 1 runs every task inline, in order, with no
//   locking: the single-threaded program, exactly.
// - Tasks are handed out by an atomic counter: which thread runs task k is not fixed, so a task
//   must depend on its k only (the chunked passes give chunk k its own objects and buffers); the
//   result is then the same at any team size.
// - An exception from a task ends the run after the tasks in flight finish, and the first one is
//   rethrown on the calling thread.
// - One run at a time; not reentrant (a task must not run the team).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
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
    stopping_ = false;
    workers_.reserve(threads - 1);
    for (std::size_t i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  template <class Task>
  void operator()(std::size_t tasks, Task&& task) {
    if (tasks == 0) return;
    if (workers_.empty() || tasks == 1) {  // inline: the single-threaded program
      for (std::size_t k = 0; k < tasks; ++k) task(k);
      return;
    }
    auto call = [](void* context, std::size_t k) { (*static_cast<std::remove_reference_t<Task>*>(context))(k); };
    {
      std::lock_guard<std::mutex> lock(mutex_);
      context_ = static_cast<void*>(&task);
      call_ = call;
      tasks_ = tasks;
      next_.store(0, std::memory_order_relaxed);
      busy_ = workers_.size();
      error_ = nullptr;
      ++run_;
    }
    wake_.notify_all();
    take_tasks();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });  // every worker has left this run's tasks
    context_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void take_tasks() noexcept {  // runs tasks until none are left (or one threw)
    for (std::size_t k = next_.fetch_add(1, std::memory_order_relaxed); k < tasks_;
         k = next_.fetch_add(1, std::memory_order_relaxed)) {
      try {
        call_(context_, k);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        next_.store(tasks_, std::memory_order_relaxed);  // the rest are skipped
      }
    }
  }
  void work() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || run_ != seen; });
      if (stopping_) return;
      seen = run_;
      lock.unlock();
      take_tasks();
      lock.lock();
      if (--busy_ == 0) done_.notify_one();
    }
  }
  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // One run's task, set under the mutex before the workers wake (which orders it for them).
  void* context_ = nullptr;
  void (*call_)(void*, std::size_t) = nullptr;
  std::size_t tasks_ = 0;
  std::atomic<std::size_t> next_{0};
  std::size_t busy_ = 0;  // workers still inside this run
  std::uint64_t run_ = 0;
  std::exception_ptr error_;
  bool stopping_ = false;
  bool started_ = false;
};

}  // namespace engine
