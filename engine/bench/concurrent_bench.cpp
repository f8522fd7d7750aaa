// Pools shared by threads: each thread works like a job system's worker, in bursts:
// acquire B objects, touch each one through its handle, release all B. Contenders:
//   BM_Burst_ConcurrentPool       engine::ConcurrentPool, one pool shared by every thread
//   BM_Burst_MutexVectorPool      engine::VectorPool (stable pages) behind one std::mutex, locked per call
//   BM_Burst_MutexVectorPoolBatch the same, but locked once per phase of a burst (a careful user)
//   BM_Burst_NewDelete            operator new / delete (glibc malloc: per-thread arenas and tcache)
//   BM_Burst_VectorPool           single-threaded engine::VectorPool: the 1-thread reference
// Items are objects (one acquire + one touch + one release); items_per_second is the total
// over all threads, against wall time (UseRealTime), so higher is better at every thread count.
#include <engine/pool/concurrent_pool.hpp>
#include <engine/pool/vector_pool.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace {

// A 64-byte work item: one cache line, as a job or a particle would be.
class Job {
 public:
  Job(std::uint32_t id, float seed) noexcept : pos_{seed, seed + 1, seed + 2, 0}, vel_{1, 2, 3, 0}, id_(id) {}
  void run() noexcept {  // the "touch": read and write the whole object
    for (int i = 0; i < 4; ++i) {
      vel_[i] += acc_[i];
      pos_[i] += vel_[i] * 0.015625f;
    }
    ++runs_;
  }
  std::uint32_t id() const noexcept { return id_; }
  std::uint32_t runs() const noexcept { return runs_ + spare_[0]; }

 private:
  float pos_[4];
  float vel_[4];
  float acc_[4] = {0, -9.8f, 0, 0};
  std::uint32_t id_;
  std::uint32_t runs_ = 0;
  std::uint32_t spare_[2] = {};
};
static_assert(sizeof(Job) == 64, "the workload is pinned to one cache line per object");

// Per-thread bookkeeping every contender shares: the burst's handles and a checksum that
// keeps the compiler honest and catches lost objects.
template <class Ref>
struct Burst {
  explicit Burst(const benchmark::State& state)
      : refs(static_cast<std::size_t>(state.range(0))), base(static_cast<std::uint32_t>(state.thread_index()) << 24) {}
  std::vector<Ref> refs;
  std::uint32_t base;
  std::uint64_t expected = 0;
  std::uint64_t seen = 0;
};

// A contender that cannot do the work is a bug, not a data point: stop loudly.
[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "ERROR OCCURRED: %s\n", what);
  std::abort();
}

void finish(benchmark::State& state, std::uint64_t expected, std::uint64_t seen) {
  if (expected != seen) state.SkipWithError("checksum mismatch: an object was lost or mixed up");
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// One burst on a pool that needs no lock around its calls (ConcurrentPool, or a VectorPool
// only this thread touches): acquire every object, touch each through its handle, release all.
template <class Pool>
void run_burst(Pool& pool, Burst<engine::PoolHandle>& b) {
  for (std::uint32_t i = 0; i < b.refs.size(); ++i) {
    const auto h = pool.emplace(b.base + i, 1.0f);
    if (!h) die("emplace failed with the pool far below its cap");
    b.refs[i] = *h;
    b.expected += b.base + i;
  }
  for (const engine::PoolHandle h : b.refs) {
    Job* job = pool.get(h);
    job->run();
    b.seen += job->id();
  }
  for (const engine::PoolHandle h : b.refs) pool.release(h);
}

// --- engine::ConcurrentPool -------------------------------------------------------------------

std::unique_ptr<engine::ConcurrentPool<Job>> g_concurrent;  // made and checked by thread 0

void BM_Burst_ConcurrentPool(benchmark::State& state) {
  if (state.thread_index() == 0) g_concurrent = std::make_unique<engine::ConcurrentPool<Job>>();
  // (the first loop test below is a barrier: no thread touches the pool before it exists)
  Burst<engine::PoolHandle> b(state);
  for (auto _ : state) run_burst(*g_concurrent, b);
  finish(state, b.expected, b.seen);
  // The loop's end is a barrier too: every thread is done with the pool here.
  if (state.thread_index() == 0) {
    if (g_concurrent->size() != 0) state.SkipWithError("objects left in the pool");
    g_concurrent.reset();
  }
}

// --- engine::VectorPool behind a mutex ---------------------------------------------------------

engine::GrowthPolicy stable_policy() {
  engine::GrowthPolicy p;
  p.storage = engine::StorageMode::stable;  // other threads hold pointers: nothing may move
  p.page_slots = 1024;
  return p;
}

struct LockedPool {
  std::mutex mutex;
  engine::VectorPool<Job> pool{stable_policy()};
};
std::unique_ptr<LockedPool> g_locked;

// A thread-safe wrapper as most code would write one: every call takes the lock.
void BM_Burst_MutexVectorPool(benchmark::State& state) {
  if (state.thread_index() == 0) g_locked = std::make_unique<LockedPool>();
  Burst<engine::PoolHandle> b(state);
  for (auto _ : state) {
    LockedPool& shared = *g_locked;
    for (std::uint32_t i = 0; i < b.refs.size(); ++i) {
      std::optional<engine::PoolHandle> h;
      {
        std::lock_guard<std::mutex> lock(shared.mutex);
        h = shared.pool.emplace(b.base + i, 1.0f);
      }
      if (!h) die("emplace failed with the pool far below its cap");
      b.refs[i] = *h;
      b.expected += b.base + i;
    }
    for (const engine::PoolHandle h : b.refs) {
      Job* job = nullptr;
      {
        std::lock_guard<std::mutex> lock(shared.mutex);
        job = shared.pool.get(h);
      }
      job->run();
      b.seen += job->id();
    }
    for (const engine::PoolHandle h : b.refs) {
      std::lock_guard<std::mutex> lock(shared.mutex);
      shared.pool.release(h);
    }
  }
  finish(state, b.expected, b.seen);
  if (state.thread_index() == 0) {
    if (g_locked->pool.size() != 0) state.SkipWithError("objects left in the pool");
    g_locked.reset();
  }
}

// The careful version: one lock per phase of a burst (acquire all, look up all, release all).
void BM_Burst_MutexVectorPoolBatch(benchmark::State& state) {
  if (state.thread_index() == 0) g_locked = std::make_unique<LockedPool>();
  Burst<engine::PoolHandle> b(state);
  std::vector<Job*> jobs(b.refs.size());
  for (auto _ : state) {
    LockedPool& shared = *g_locked;
    {
      std::lock_guard<std::mutex> lock(shared.mutex);
      for (std::uint32_t i = 0; i < b.refs.size(); ++i) {
        const auto h = shared.pool.emplace(b.base + i, 1.0f);
        if (!h) die("emplace failed with the pool far below its cap");
        b.refs[i] = *h;
        b.expected += b.base + i;
      }
    }
    {
      std::lock_guard<std::mutex> lock(shared.mutex);
      for (std::size_t i = 0; i < b.refs.size(); ++i) jobs[i] = shared.pool.get(b.refs[i]);
    }
    for (Job* job : jobs) {
      job->run();
      b.seen += job->id();
    }
    std::lock_guard<std::mutex> lock(shared.mutex);
    for (const engine::PoolHandle h : b.refs) shared.pool.release(h);
  }
  finish(state, b.expected, b.seen);
  if (state.thread_index() == 0) {
    if (g_locked->pool.size() != 0) state.SkipWithError("objects left in the pool");
    g_locked.reset();
  }
}

// --- new / delete ----------------------------------------------------------------------------

void BM_Burst_NewDelete(benchmark::State& state) {
  Burst<Job*> b(state);
  for (auto _ : state) {
    for (std::uint32_t i = 0; i < b.refs.size(); ++i) {
      b.refs[i] = new Job(b.base + i, 1.0f);
      b.expected += b.base + i;
    }
    for (Job* job : b.refs) {
      benchmark::DoNotOptimize(job);  // as opaque as a handle: no folding new into delete
      job->run();
      b.seen += job->id();
    }
    for (Job* job : b.refs) delete job;
  }
  finish(state, b.expected, b.seen);
}

// --- the single-threaded reference -------------------------------------------------------------

void BM_Burst_VectorPool(benchmark::State& state) {
  engine::VectorPool<Job> pool;
  Burst<engine::PoolHandle> b(state);
  for (auto _ : state) run_burst(pool, b);
  finish(state, b.expected, b.seen);
}

// Bursts of 64 fit one thread's magazine exactly; 256 forces trips to the shared list.
BENCHMARK(BM_Burst_VectorPool)->Arg(64)->Arg(256)->Threads(1)->UseRealTime();
BENCHMARK(BM_Burst_ConcurrentPool)->Arg(64)->Arg(256)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();
BENCHMARK(BM_Burst_MutexVectorPool)->Arg(64)->Arg(256)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();
BENCHMARK(BM_Burst_MutexVectorPoolBatch)->Arg(64)->Arg(256)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();
BENCHMARK(BM_Burst_NewDelete)->Arg(64)->Arg(256)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
