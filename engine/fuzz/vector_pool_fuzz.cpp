// libFuzzer target: reads bytes as a sequence of VectorPool operations and checks every
// result against a reference model (a map of live handles to values) and an instance
// tracker. Built with clang (-fsanitize=fuzzer,address,undefined) by the `fuzz` preset.
//
// Byte layout: 4 bytes choose the policy, then one opcode byte per operation followed by
// that operation's operands. Any byte string is a valid program, so the fuzzer explores
// the pool, not the parser.
#include <engine/pool/vector_pool.hpp>

#include "../tests/pool/support/instance_tracker.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <stdexcept>

namespace {

using pool_test::Lifetimes;
using Value = pool_test::ThrowingTracked;  // may throw on construction or copy: on request only
using Pool = engine::VectorPool<Value>;

[[noreturn]] void fail(const char* what, int op_index) {
  std::fprintf(stderr, "vector_pool_fuzz: %s (operation %d)\n", what, op_index);
  std::abort();
}
#define FUZZ_CHECK(cond, what) \
  do {                         \
    if (!(cond)) fail(what, op_index); \
  } while (0)

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(u16()) | (static_cast<std::uint32_t>(u16()) << 16); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

struct HandleLess {
  bool operator()(engine::PoolHandle a, engine::PoolHandle b) const {
    return a.index != b.index ? a.index < b.index : a.generation < b.generation;
  }
};

engine::GrowthPolicy read_policy(Reader& in) {
  engine::GrowthPolicy policy;
  const std::uint8_t flags = in.byte();
  policy.storage = (flags & 1) ? engine::StorageMode::stable : engine::StorageMode::contiguous;
  policy.page_slots = (flags & 2) ? 128 : 64;
  policy.growth_step = (flags & 4) ? 0 : 1 + (in.byte() % 40);
  policy.max_capacity = 1 + in.byte() % 400;  // small caps: the fuzzer reaches them
  policy.initial_capacity = in.byte() % 80;
  return policy;
}

// The model: live handles and their values, plus recently dead handles to replay.
struct Model {
  std::map<engine::PoolHandle, int, HandleLess> live;
  std::deque<engine::PoolHandle> dead;
  void bury(engine::PoolHandle h) {
    dead.push_back(h);
    if (dead.size() > 64) dead.pop_front();
  }
  engine::PoolHandle pick_live(std::uint32_t r) const {
    auto it = live.begin();
    std::advance(it, static_cast<long>(r % live.size()));
    return it->first;
  }
};

void check_consistent(const Pool& pool, const Model& model, int op_index) {
  FUZZ_CHECK(pool.size() == model.live.size(), "size() differs from the model");
  FUZZ_CHECK(Lifetimes::live() == static_cast<long>(model.live.size()), "live instances differ from the model");
  FUZZ_CHECK(Lifetimes::bad_destructions == 0, "a destructor ran on a dead object");
  FUZZ_CHECK(pool.capacity() >= pool.size(), "capacity below size");
  FUZZ_CHECK(pool.capacity() <= pool.policy().max_capacity || pool.policy().max_capacity < pool.size(),
             "capacity above max_capacity");
  FUZZ_CHECK(pool.validate(), "pool invariants broken");
  for (const auto& [handle, value] : model.live) {
    const Value* v = pool.get(handle);
    FUZZ_CHECK(v != nullptr, "a live handle was refused");
    FUZZ_CHECK(v->value() == value, "a live object has the wrong value");
  }
  for (const auto& handle : model.dead) FUZZ_CHECK(pool.get(handle) == nullptr, "a dead handle was accepted");
}

void run(Reader& in) {
  static const bool trace = std::getenv("POOLSHOT_FUZZ_TRACE") != nullptr;  // replay a crash step by step
  int op_index = -1;
  Lifetimes::reset();
  {
    Pool pool(read_policy(in));
    Model model;
    int next_value = 0;
    for (op_index = 0; !in.done() && op_index < 2000; ++op_index) {
      const std::uint8_t op = in.byte() % 16;
      if (trace) {
        const auto st = pool.stats();
        std::fprintf(stderr, "op %d: code %d (live %zu, capacity %zu, storage %d)\n", op_index, op,
                     st.live, st.capacity, static_cast<int>(pool.policy().storage));
      }
      switch (op) {
        case 0:
        case 1:
        case 2: {  // emplace: succeeds exactly when the pool is below its cap
          const bool room = pool.size() < pool.policy().max_capacity;
          const int value = next_value++;
          const auto h = pool.emplace(value);
          FUZZ_CHECK(h.has_value() == room, "emplace success differs from 'below max_capacity'");
          if (h) {
            FUZZ_CHECK(model.live.count(*h) == 0, "emplace returned a handle that is already live");
            model.live.emplace(*h, value);
          }
          break;
        }
        case 3:  // release a live object
          if (!model.live.empty()) {
            const auto h = model.pick_live(in.u16());
            FUZZ_CHECK(pool.release(h), "release of a live handle failed");
            model.live.erase(h);
            model.bury(h);
          }
          break;
        case 4:  // release twice / release a stale handle
          if (!model.dead.empty()) {
            const auto h = model.dead[in.byte() % model.dead.size()];
            FUZZ_CHECK(!pool.release(h), "release of a dead handle succeeded");
          }
          break;
        case 5: {  // get / release with a forged handle: accepted only if it names a live object
          const engine::PoolHandle forged{in.u32() % 1024, in.u32()};
          const auto it = model.live.find(forged);
          const Value* v = pool.get(forged);
          FUZZ_CHECK((v != nullptr) == (it != model.live.end()), "forged handle judged wrongly");
          if (in.byte() & 1) {
            const bool released = pool.release(forged);
            FUZZ_CHECK(released == (it != model.live.end()), "forged release judged wrongly");
            if (released) {
              model.live.erase(it);
              model.bury(forged);
            }
          }
          break;
        }
        case 6:  // clear: every handle goes stale
          pool.clear();
          for (const auto& [h, value] : model.live) model.bury(h);
          model.live.clear();
          break;
        case 7: {  // reserve
          const std::size_t want = in.u16() % 600;
          const bool ok = pool.reserve(want);
          FUZZ_CHECK(ok == (want <= pool.policy().max_capacity), "reserve: success differs from 'within max_capacity'");
          if (ok) FUZZ_CHECK(pool.capacity() >= want, "reserve succeeded without the capacity");
          break;
        }
        case 8:
          pool.shrink_to_fit();
          break;
        case 9: {  // switch storage mode and growth policy mid-run: handles must survive
          engine::GrowthPolicy next = read_policy(in);
          next.max_capacity = std::max<std::size_t>(next.max_capacity, pool.capacity());
          if (trace) {
            std::fprintf(stderr, "  set_policy storage %d page %zu step %zu max %zu initial %zu\n",
                         static_cast<int>(next.storage), next.page_slots, next.growth_step,
                         next.max_capacity, next.initial_capacity);
          }
          FUZZ_CHECK(pool.set_policy(next), "set_policy with room for every slot failed");
          FUZZ_CHECK(pool.policy().storage == next.storage, "set_policy did not switch storage");
          break;
        }
        case 10: {  // two-phase release: mark some, then flush
          std::size_t marked = 0;
          const std::uint8_t stride = static_cast<std::uint8_t>(1 + in.byte() % 4);
          std::size_t i = 0;
          for (auto it = model.live.begin(); it != model.live.end(); ++i) {
            if (i % stride == 0) {
              pool.release_later(it->first);
              model.bury(it->first);
              it = model.live.erase(it);
              ++marked;
            } else {
              ++it;
            }
          }
          FUZZ_CHECK(pool.flush_releases() == marked, "flush_releases released a different count");
          break;
        }
        case 11: {  // erase_if by value
          const int modulus = 2 + in.byte() % 5;
          const std::size_t erased = pool.erase_if([&](const Value& v) { return v.value() % modulus == 0; });
          std::size_t expected = 0;
          for (auto it = model.live.begin(); it != model.live.end();) {
            if (it->second % modulus == 0) {
              model.bury(it->first);
              it = model.live.erase(it);
              ++expected;
            } else {
              ++it;
            }
          }
          FUZZ_CHECK(erased == expected, "erase_if erased a different count");
          break;
        }
        case 12: {  // a constructor (or a relocation copy) that throws leaves the pool as it was
          const auto before = pool.stats();
          Lifetimes::throw_countdown = 1 + in.byte() % 3;
          try {
            if (const auto h = pool.emplace(next_value)) {
              model.live.emplace(*h, next_value);
            }
            ++next_value;
          } catch (const std::runtime_error&) {
            const auto after = pool.stats();
            FUZZ_CHECK(after.live == before.live && after.capacity == before.capacity,
                       "a throwing constructor changed the pool");
          }
          Lifetimes::throw_countdown = -1;
          break;
        }
        case 13: {  // release during for_each is refused, and the pass still sees everything
          std::size_t visited = 0;
          engine::PoolHandle target = model.live.empty() ? engine::PoolHandle{} : model.pick_live(in.u16());
          pool.for_each([&](engine::PoolHandle, Value&) {
            ++visited;
            if (target) FUZZ_CHECK(!pool.release(target), "release inside for_each was allowed");
          });
          FUZZ_CHECK(visited == model.live.size(), "for_each visited a different count");
          break;
        }
        case 14: {  // range-for sums the same values as the model
          long sum = 0, expected = 0;
          for (const Value& v : pool) sum += v.value();
          for (const auto& [h, value] : model.live) expected += value;
          FUZZ_CHECK(sum == expected, "iteration saw different values");
          break;
        }
        default: {  // iterate with handles: every handle visited is live and in address order
          std::uint32_t last = 0;
          bool first = true;
          pool.for_each([&](engine::PoolHandle h, const Value& v) {
            const auto it = model.live.find(h);
            FUZZ_CHECK(it != model.live.end() && it->second == v.value(), "for_each gave an unknown handle");
            FUZZ_CHECK(first || h.index > last, "for_each not in address order");
            first = false;
            last = h.index;
          });
          break;
        }
      }
      check_consistent(pool, model, op_index);
    }
  }
  FUZZ_CHECK(Lifetimes::live() == 0, "the pool's destructor leaked objects");
  FUZZ_CHECK(Lifetimes::bad_destructions == 0, "a destructor ran twice");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  run(in);
  return 0;
}
