// libFuzzer target: reads bytes as a sequence of VectorPool operations and checks every
// result against a reference model (a map of live handles to values) and an instance
// tracker. Built with clang (-fsanitize=fuzzer,address,undefined) by the `fuzz` preset.
//
// Byte layout: 4 bytes choose the policy, then one opcode byte per operation followed by
// that operation's operands. Any byte string is a valid program, so the fuzzer explores
// the pool, not the parser. POOLSHOT_FUZZ_TRACE=1 prints each operation.
//
// Besides the model, every operation is checked for:
// - validate() (all internal invariants) and stats() agreeing with the model;
// - pointer stability: objects never move except where the contract allows it (stable
//   mode: only set_policy; contiguous: growth, reserve, shrink_to_fit, set_policy);
// - growth events that match the capacity they report;
// - zero allocation by release_later / flush_releases / erase_if (bytes_held unchanged).
// op_reentrant runs a second pool of Nodes whose constructors emplace children into their own
// pool and whose destructors release their child (and may emplace a replacement), driven by
// the same bytes, and checks the reentrancy rule: no object is live in its own destructor,
// every object dies exactly once, validate() holds after every call.
#include <engine/pool/vector_pool.hpp>

#include "../tests/pool/support/instance_tracker.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace {

// --- Reentrant objects -----------------------------------------------------------------------
struct Node;
using NodePool = engine::VectorPool<Node>;
struct NodeWorld {
  NodePool* pool = nullptr;
  long live = 0;           // Node instances alive
  long bad = 0;            // rule broken: live in own destructor, destroyed twice, ...
  int respawn_budget = 0;  // destructors that may still emplace a replacement
};
NodeWorld world;

struct Node {
  static constexpr std::uint32_t kAlive = 0x600DF00Du;
  Node(int spawn_depth, bool throws) {
    if (spawn_depth > 0) {  // a constructor that emplaces into its own pool
      if (const auto h = world.pool->emplace(spawn_depth - 1, false)) child = *h;
    }
    if (throws) throw std::runtime_error("node constructor");
    ++world.live;
  }
  Node(Node&& other) noexcept : self(other.self), child(other.child), respawn(other.respawn) {
    other.self = other.child = engine::PoolHandle{};
    other.respawn = false;
    ++world.live;
  }
  Node& operator=(Node&&) = delete;
  ~Node() {
    if (canary != kAlive) ++world.bad;
    canary = 0;
    --world.live;
    if (!self.is_null() && world.pool->contains(self)) ++world.bad;  // must be dead already
    if (world.pool->contains(child)) world.pool->release(child);
    if (respawn && world.respawn_budget > 0) {
      --world.respawn_budget;
      world.pool->emplace(0, false);  // may be refused (relocating growth): either is fine
    }
  }
  std::uint32_t canary = kAlive;
  engine::PoolHandle self;
  engine::PoolHandle child;
  bool respawn = false;
};

using pool_test::Lifetimes;
// The values: both may throw on construction or copy (on request only). ThrowingTracked's move
// may throw too, so relocation copies it (strong guarantee) and packed storage refuses it;
// MovableValue moves noexcept, so packed storage takes it. The input's first byte picks one.
using pool_test::ThrowingTracked;
class MovableValue {
 public:
  explicit MovableValue(int value) : inner_((Lifetimes::maybe_throw(), value)) {}
  MovableValue(const MovableValue& other) : inner_((Lifetimes::maybe_throw(), other.inner_)) {}
  MovableValue(MovableValue&&) noexcept = default;
  int value() const { return inner_.value(); }

 private:
  pool_test::Tracked inner_;
};

// release_later / flush_releases / erase_if must not allocate (bytes_held unchanged).
constexpr bool check_no_allocation = true;

[[noreturn]] void fail(const char* what, int op_index) {
  std::fprintf(stderr, "vector_pool_fuzz: %s (operation %d)\n", what, op_index);
  std::abort();
}
#define FUZZ_CHECK(cond, what)         \
  do {                                 \
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

// Small pages and caps that are rarely a multiple of a page, so the fuzzer reaches caps,
// short last pages and multi-page pools within a few hundred operations.
engine::GrowthPolicy read_policy(Reader& in) {
  engine::GrowthPolicy policy;
  const std::uint8_t flags = in.byte();
  policy.storage = (flags & 1)      ? engine::StorageMode::stable
                   : (flags & 0x10) ? engine::StorageMode::packed
                                    : engine::StorageMode::contiguous;
  static constexpr std::size_t pages[4] = {64, 128, 256, 64};
  policy.page_slots = pages[(flags >> 1) & 3];
  policy.growth_step = (flags & 8) ? 0 : 1 + (in.byte() % 40);
  policy.max_capacity = 1 + in.byte() % 400;  // small caps: the fuzzer reaches them
  policy.initial_capacity = in.byte() % 80;
  return policy;
}

// The model: live handles and their values, plus recently dead handles to replay.
struct Model {
  std::map<engine::PoolHandle, int, HandleLess> live;
  std::deque<engine::PoolHandle> dead;
  std::map<engine::PoolHandle, const void*, HandleLess> address;  // where each live object was last seen
  void bury(engine::PoolHandle h) {
    dead.push_back(h);
    if (dead.size() > 64) dead.pop_front();
  }
  void kill(engine::PoolHandle h) {
    live.erase(h);
    bury(h);
  }
  // Kills every live entry whose value % modulus == remainder, as a pass over the pool
  // (erase_if, or release_later then flush) does; returns how many it killed.
  std::size_t kill_where_value_mod(int modulus, int remainder) {
    std::size_t killed = 0;
    for (auto it = live.begin(); it != live.end();) {
      if (it->second % modulus == remainder) {
        bury(it->first);
        it = live.erase(it);
        ++killed;
      } else {
        ++it;
      }
    }
    return killed;
  }
  engine::PoolHandle pick_live(std::uint32_t r) const {
    auto it = live.begin();
    std::advance(it, static_cast<long>(r % live.size()));
    return it->first;
  }
};

// What growth events said during one operation.
struct Events {
  std::size_t count = 0;
  bool relocated = false;
  std::size_t last_new_capacity = 0;
  bool bad = false;  // an event that contradicts itself
};

template <class Pool>
void check_consistent(const Pool& pool, Model& model, int op_index, bool objects_may_move) {
  using Value = typename Pool::value_type;
  FUZZ_CHECK(pool.size() == model.live.size(), "size() differs from the model");
  FUZZ_CHECK(Lifetimes::live() == static_cast<long>(model.live.size()), "live instances differ from the model");
  FUZZ_CHECK(Lifetimes::bad_destructions == 0, "a destructor ran on a dead object");
  FUZZ_CHECK(pool.capacity() >= pool.size(), "capacity below size");
  FUZZ_CHECK(pool.capacity() <= pool.policy().max_capacity, "capacity above max_capacity");
  FUZZ_CHECK(pool.validate(), "pool invariants broken");
  const engine::PoolStats st = pool.stats();
  FUZZ_CHECK(st.live == pool.size() && st.capacity == pool.capacity() && st.free == st.capacity - st.live,
             "stats() disagree with size()/capacity()");
  FUZZ_CHECK(st.peak_live >= st.live, "peak_live below live");
  FUZZ_CHECK(st.emplaces - st.releases == st.live, "emplaces - releases != live");
  FUZZ_CHECK(st.capacity == 0 || st.bytes_held >= st.capacity * sizeof(Value), "bytes_held below the slots held");
  for (const auto& [handle, value] : model.live) {
    const Value* v = pool.get(handle);
    FUZZ_CHECK(v != nullptr, "a live handle was refused");
    FUZZ_CHECK(pool.get_at(handle.index) == v, "get_at() disagrees with get()");
    FUZZ_CHECK(v->value() == value, "a live object has the wrong value");
    FUZZ_CHECK(pool.contains(handle), "contains() refused a live handle");
    const auto seen = model.address.find(handle);
    if (!objects_may_move && seen != model.address.end()) {
      FUZZ_CHECK(seen->second == v, "an object moved although nothing allowed it to");
    }
  }
  model.address.clear();
  for (const auto& [handle, value] : model.live) model.address.emplace(handle, pool.get(handle));
  for (const auto& handle : model.dead) {
    FUZZ_CHECK(pool.get(handle) == nullptr, "a dead handle was accepted");
    FUZZ_CHECK(!pool.contains(handle), "contains() accepted a dead handle");
  }
}

enum Op : std::uint8_t {
  op_emplace_a,
  op_emplace_b,
  op_emplace_c,
  op_release,
  op_release_dead,
  op_forged,
  op_clear,
  op_reserve,
  op_shrink,
  op_set_policy,
  op_release_later,
  op_erase_if,
  op_throwing_emplace,
  op_release_in_for_each,
  op_range_for,
  op_for_each_order,
  op_fill,
  op_set_cap,
  op_release_later_twice,
  op_erase_if_emplacing,
  op_later_inside_for_each,
  op_shrink_policy_fill,
  op_move_pool,
  op_reentrant,
  op_count
};

// A few operations on a pool of Nodes; every call may re-enter the pool.
void run_reentrant(Reader& in, const engine::GrowthPolicy& policy, int op_index) {
  {
    NodePool nodes(policy);
    world = NodeWorld{};
    world.pool = &nodes;
    std::vector<engine::PoolHandle> handles;
    const int steps = 1 + in.byte() % 24;
    for (int step = 0; step < steps; ++step) {
      const std::uint8_t code = in.byte();
      switch (code % 7) {
        case 0:
        case 1: {  // emplace, maybe spawning children from the constructor, maybe throwing
          const int depth = (code >> 3) % 4;
          const bool throws = (code & 0x80) != 0 && (code & 0x40) != 0;
          try {
            if (const auto h = nodes.emplace(depth, throws)) {
              Node* n = nodes.get(*h);
              FUZZ_CHECK(n != nullptr, "a fresh node is not live");
              n->self = *h;
              n->respawn = (code & 0x40) != 0;
              if (!handles.empty() && (code & 0x20) != 0 && n->child.is_null())
                n->child = handles[in.byte() % handles.size()];
              handles.push_back(*h);
            }
          } catch (const std::runtime_error&) {}
          break;
        }
        case 2:
          if (!handles.empty()) nodes.release(handles[in.byte() % handles.size()]);
          break;
        case 3:
          for (const auto h : handles) {
            if (nodes.contains(h) && (in.byte() & 1)) nodes.release_later(h);
          }
          nodes.flush_releases();
          break;
        case 4: {
          const std::uint8_t mask = in.byte();
          nodes.erase_if([&](engine::PoolHandle h, Node&) { return ((h.index ^ mask) & 3) == 0; });
          break;
        }
        case 5:
          world.respawn_budget = in.byte() % 8;
          nodes.clear();
          FUZZ_CHECK(nodes.empty(), "clear() left objects behind");
          break;
        default:
          world.respawn_budget = in.byte() % 4;
          break;
      }
      FUZZ_CHECK(nodes.validate(), "node pool invariants broken");
      FUZZ_CHECK(world.live == static_cast<long>(nodes.size()), "node count differs from size()");
      FUZZ_CHECK(world.bad == 0, "a node was live in its own destructor or destroyed twice");
      std::size_t visited = 0;
      for (const Node& n : nodes) visited += n.canary == Node::kAlive ? 1u : 0u;
      FUZZ_CHECK(visited == nodes.size(), "iteration saw a different count of nodes");
    }
    world.respawn_budget = in.byte() % 4;
  }
  FUZZ_CHECK(world.live == 0, "the node pool's destructor leaked or destroyed twice");
  FUZZ_CHECK(world.bad == 0, "a node was live in its own destructor");
  world.pool = nullptr;
}

template <class Value>
void run(Reader& in) {
  using Pool = engine::VectorPool<Value>;
  static const bool trace = std::getenv("POOLSHOT_FUZZ_TRACE") != nullptr;  // replay a crash step by step
  int op_index = -1;
  Lifetimes::reset();
  {
    Pool pool(read_policy(in));
    Model model;
    Events events;
    const auto listen = [&events](Pool& p) {
      p.set_growth_listener([&events](const engine::GrowthEvent& e) {
        ++events.count;
        events.relocated = events.relocated || e.relocated;
        events.last_new_capacity = e.new_capacity;
        if (e.relocated != (e.relocated_objects != 0)) events.bad = true;
      });
    };
    listen(pool);
    int next_value = 0;
    const auto emplace_one = [&]() -> std::optional<engine::PoolHandle> {
      const bool room = pool.size() < pool.policy().max_capacity;
      const int value = next_value++;
      const auto h = pool.emplace(value);
      FUZZ_CHECK(h.has_value() == room, "emplace success differs from 'below max_capacity'");
      if (h) {
        FUZZ_CHECK(model.live.count(*h) == 0, "emplace returned a handle that is already live");
        model.live.emplace(*h, value);
      }
      return h;
    };
    // A policy switch that must succeed: max_capacity at least the current capacity.
    const auto switch_policy = [&](engine::GrowthPolicy next) {
      next.max_capacity = std::max<std::size_t>(next.max_capacity, pool.capacity());
      if (trace) {
        std::fprintf(stderr, "  set_policy storage %d page %zu step %zu max %zu initial %zu\n",
                     static_cast<int>(next.storage), next.page_slots, next.growth_step, next.max_capacity,
                     next.initial_capacity);
      }
      if (!std::is_nothrow_move_constructible_v<Value> && next.storage == engine::StorageMode::packed) {
        FUZZ_CHECK(!pool.set_policy(next), "set_policy took packed for a T whose move may throw");
        return;
      }
      FUZZ_CHECK(pool.set_policy(next), "set_policy with room for every slot failed");
      FUZZ_CHECK(pool.policy().storage == next.storage, "set_policy did not switch storage");
      FUZZ_CHECK(pool.policy().max_capacity == next.max_capacity, "set_policy did not take the cap");
    };
    for (op_index = 0; !in.done() && op_index < 2000; ++op_index) {
      const auto op = static_cast<Op>(in.byte() % op_count);
      const engine::PoolStats before = pool.stats();
      const engine::StorageMode storage_before = pool.policy().storage;
      events = Events{};
      bool may_move = false;  // this operation is allowed to move objects even without an event
      if (trace) {
        std::fprintf(stderr, "op %d: code %d (live %zu, capacity %zu, storage %d, page %zu, max %zu)\n", op_index, op,
                     before.live, before.capacity, static_cast<int>(storage_before), pool.policy().page_slots,
                     pool.policy().max_capacity);
      }
      switch (op) {
        case op_emplace_a:
        case op_emplace_b:
        case op_emplace_c:
          emplace_one();
          break;
        case op_release:  // release a live object
          if (!model.live.empty()) {
            const auto h = model.pick_live(in.u16());
            FUZZ_CHECK(pool.release(h), "release of a live handle failed");
            model.kill(h);
          }
          break;
        case op_release_dead:  // release twice / release a stale handle
          if (!model.dead.empty()) {
            const auto h = model.dead[in.byte() % model.dead.size()];
            FUZZ_CHECK(!pool.release(h), "release of a dead handle succeeded");
          }
          break;
        case op_forged: {  // get / release with a forged handle: accepted only if it names a live object
          const engine::PoolHandle forged{in.u32() % 1024, in.u32()};
          const auto it = model.live.find(forged);
          const Value* v = pool.get(forged);
          FUZZ_CHECK((v != nullptr) == (it != model.live.end()), "forged handle judged wrongly");
          if (in.byte() & 1) {
            const bool released = pool.release(forged);
            FUZZ_CHECK(released == (it != model.live.end()), "forged release judged wrongly");
            if (released) model.kill(forged);
          }
          break;
        }
        case op_clear:  // every handle goes stale
          pool.clear();
          for (const auto& [h, value] : model.live) model.bury(h);
          model.live.clear();
          FUZZ_CHECK(pool.capacity() == before.capacity, "clear() changed the capacity");
          break;
        case op_reserve: {
          const std::size_t want = in.u16() % 600;
          const bool ok = pool.reserve(want);
          FUZZ_CHECK(ok == (want <= pool.policy().max_capacity || want <= before.capacity),
                     "reserve: success differs from 'within max_capacity'");
          if (ok) FUZZ_CHECK(pool.capacity() >= want, "reserve succeeded without the capacity");
          may_move = storage_before == engine::StorageMode::contiguous;
          break;
        }
        case op_shrink:
          pool.shrink_to_fit();
          FUZZ_CHECK(pool.capacity() <= before.capacity, "shrink_to_fit grew the pool");
          may_move = storage_before == engine::StorageMode::contiguous;  // stable: only empty pages go
          break;
        case op_set_policy:  // switch storage mode and growth policy mid-run: handles must survive
          switch_policy(read_policy(in));
          may_move = true;
          break;
        case op_release_later: {  // two-phase release: mark some, then flush
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
          FUZZ_CHECK(pool.stats().live == before.live, "release_later released before the flush");
          FUZZ_CHECK(pool.flush_releases() == marked, "flush_releases released a different count");
          FUZZ_CHECK(!check_no_allocation || pool.stats().bytes_held == before.bytes_held,
                     "release_later/flush allocated");
          break;
        }
        case op_erase_if: {  // erase_if by value, with or without handles
          const int modulus = 2 + in.byte() % 5;
          const bool with_handle = (in.byte() & 1) != 0;
          std::size_t erased = 0;
          if (with_handle) {
            erased = pool.erase_if([&](engine::PoolHandle h, const Value& v) {
              FUZZ_CHECK(model.live.count(h) == 1, "erase_if passed a handle that is not live");
              return v.value() % modulus == 0;
            });
          } else {
            erased = pool.erase_if([&](const Value& v) { return v.value() % modulus == 0; });
          }
          const std::size_t expected = model.kill_where_value_mod(modulus, 0);
          FUZZ_CHECK(erased == expected, "erase_if erased a different count");
          FUZZ_CHECK(!check_no_allocation || pool.stats().bytes_held == before.bytes_held, "erase_if allocated");
          break;
        }
        case op_throwing_emplace: {  // a constructor (or a relocation copy) that throws leaves the pool as it was
          Lifetimes::throw_countdown = 1 + in.byte() % 3;
          try {
            if (const auto h = pool.emplace(next_value)) {
              model.live.emplace(*h, next_value);
            }
            ++next_value;
          } catch (const std::runtime_error&) {
            const auto after = pool.stats();
            FUZZ_CHECK(after.live == before.live && after.capacity == before.capacity &&
                           after.bytes_held == before.bytes_held && after.emplaces == before.emplaces &&
                           after.growth_events == before.growth_events,
                       "a throwing constructor changed the pool");
          }
          Lifetimes::throw_countdown = -1;
          break;
        }
        case op_release_in_for_each: {  // release during for_each is refused, and the pass still sees everything
          std::size_t visited = 0;
          engine::PoolHandle target = model.live.empty() ? engine::PoolHandle{} : model.pick_live(in.u16());
          pool.for_each([&](engine::PoolHandle, Value&) {
            ++visited;
            if (target) FUZZ_CHECK(!pool.release(target), "release inside for_each was allowed");
          });
          FUZZ_CHECK(visited == model.live.size(), "for_each visited a different count");
          break;
        }
        case op_range_for: {  // range-for sums the same values as the model
          long sum = 0, expected = 0;
          for (const Value& v : pool) sum += v.value();
          for (const auto& [h, value] : model.live) expected += value;
          FUZZ_CHECK(sum == expected, "iteration saw different values");
          break;
        }
        case op_for_each_order: {  // iterate with handles: every handle visited is live and in address order
          std::uint32_t last = 0;
          bool first = true;
          pool.for_each([&](engine::PoolHandle h, const Value& v) {
            const auto it = model.live.find(h);
            FUZZ_CHECK(it != model.live.end() && it->second == v.value(), "for_each gave an unknown handle");
            const bool slot_order = pool.policy().storage != engine::StorageMode::packed;  // packed: dense order
            FUZZ_CHECK(!slot_order || first || h.index > last, "for_each not in address order");
            first = false;
            last = h.index;
          });
          break;
        }
        case op_fill: {  // many emplaces at once: drives the pool through growth and up to its cap
          const int count = 1 + in.byte();
          for (int i = 0; i < count && emplace_one(); ++i) {}
          break;
        }
        case op_set_cap: {  // same storage and page size, new cap: exactly the capacity, above it, or (refused) below
                            // it
          const std::uint8_t how = in.byte();
          engine::GrowthPolicy next = pool.policy();
          if (how % 4 == 0 && pool.capacity() > 0) {
            next.max_capacity = pool.capacity() - 1 - in.byte() % pool.capacity();
            const engine::GrowthPolicy previous = pool.policy();
            FUZZ_CHECK(!pool.set_policy(next), "set_policy accepted a cap below the capacity");
            FUZZ_CHECK(pool.policy().max_capacity == previous.max_capacity, "a refused set_policy changed the cap");
          } else {
            next.max_capacity = pool.capacity() + (how % 4 == 1 ? 0 : in.byte() % 300);
            switch_policy(next);
            may_move = true;
          }
          break;
        }
        case op_release_later_twice: {  // queue a handle twice, queue then release directly, queue a reused slot
          std::vector<engine::PoolHandle> queued;
          const std::uint8_t pattern = in.byte();
          const std::size_t rounds = 1 + pattern % 8;
          for (std::size_t r = 0; r < rounds && !model.live.empty(); ++r) {
            const auto h = model.pick_live(in.u16());
            pool.release_later(h);
            if (pattern & 0x10) pool.release_later(h);  // twice: the flush releases it once
            if (pattern & 0x20) {                       // released behind the queue's back: the flush must skip it
              FUZZ_CHECK(pool.release(h), "release of a queued live handle failed");
              model.kill(h);
              // The slot handed out again (LIFO: most likely the same one): the stale queued
              // handle must not kill the new object; queueing the new one must work.
              if (pattern & 0x40) {
                if (const auto fresh = emplace_one(); fresh && (pattern & 0x80)) {
                  pool.release_later(*fresh);
                  queued.push_back(*fresh);
                }
              }
            } else {
              queued.push_back(h);
            }
          }
          std::size_t expected = 0;
          for (const auto h : queued) {
            if (model.live.count(h) != 0) {
              model.kill(h);
              ++expected;
            }
          }
          FUZZ_CHECK(pool.flush_releases() == expected, "flush_releases released a different count");
          const engine::PoolStats after = pool.stats();
          FUZZ_CHECK(!check_no_allocation || after.growth_events != before.growth_events ||
                         after.bytes_held == before.bytes_held,
                     "release_later/flush_releases allocated");
          break;
        }
        case op_erase_if_emplacing: {  // the predicate emplaces new objects while the pass runs
          const int modulus = 2 + in.byte() % 5;
          const std::uint8_t flags = in.byte();
          const int adds = flags % 64;
          const bool doom_newcomers = (flags & 64) != 0;  // newcomers the pass visits may be erased too
          const int first_new = next_value;
          std::vector<std::pair<engine::PoolHandle, int>> added;
          std::vector<engine::PoolHandle> newcomers_doomed;
          int calls = 0;
          const std::size_t erased = pool.erase_if([&](engine::PoolHandle h, const Value& v) {
            if (v.value() >= first_new) {  // born in this pass: visited or not, depending on where it landed
              const bool doom = doom_newcomers && v.value() % modulus == 0;
              if (doom) newcomers_doomed.push_back(h);
              return doom;
            }
            FUZZ_CHECK(model.live.count(h) == 1, "erase_if passed a handle that is not live");
            if (calls++ < adds) {
              // Contiguous growth would relocate mid-pass: the pool refuses it (nullopt).
              const bool can_grow =
                  pool.size() < pool.capacity() ||
                  (pool.policy().storage == engine::StorageMode::stable && pool.size() < pool.policy().max_capacity);
              const int value = next_value++;
              const auto added_handle = pool.emplace(value);
              FUZZ_CHECK(added_handle.has_value() == can_grow, "emplace inside erase_if judged wrongly");
              if (added_handle) added.emplace_back(*added_handle, value);
            }
            return v.value() % modulus == 0;
          });
          std::size_t expected = model.kill_where_value_mod(modulus, 0);
          for (const auto& [h, value] : added) model.live.emplace(h, value);
          for (const auto h : newcomers_doomed) {
            FUZZ_CHECK(model.live.count(h) == 1, "erase_if visited a newcomer that was never emplaced");
            model.kill(h);
            ++expected;
          }
          FUZZ_CHECK(erased == expected, "erase_if (emplacing) erased a different count");
          break;
        }
        case op_later_inside_for_each: {  // the documented two-phase pattern: mark inside the pass, flush after
          const int modulus = 2 + in.byte() % 5;
          std::size_t marked = 0;
          pool.for_each([&](engine::PoolHandle h, Value& v) {
            if (v.value() % modulus == 1) {
              pool.release_later(h);
              ++marked;
            }
          });
          model.kill_where_value_mod(modulus, 1);
          FUZZ_CHECK(pool.flush_releases() == marked, "flush after for_each released a different count");
          FUZZ_CHECK(!check_no_allocation || pool.stats().bytes_held == before.bytes_held,
                     "release_later inside for_each allocated");
          break;
        }
        case op_shrink_policy_fill: {  // the combination that found the short-page bug, in one step
          pool.shrink_to_fit();
          engine::GrowthPolicy next = read_policy(in);
          if (in.byte() & 1) {  // keep the layout, change only the cap
            next.storage = pool.policy().storage;
            next.page_slots = pool.policy().page_slots;
          }
          switch_policy(next);
          const int count = in.byte();
          for (int i = 0; i < count && emplace_one(); ++i) {}
          may_move = true;
          break;
        }
        case op_move_pool: {  // move out and back: handles follow, the moved-from pool is empty and usable
          Pool moved(std::move(pool));
          FUZZ_CHECK(pool.size() == 0 && pool.capacity() == 0, "a moved-from pool is not empty");
          FUZZ_CHECK(pool.validate(), "a moved-from pool is broken");
          if (const auto h = pool.emplace(-1)) {
            FUZZ_CHECK(pool.get(*h) != nullptr, "a moved-from pool cannot be reused");
          }
          pool = std::move(moved);
          listen(pool);  // the listener moved with the pool; it still points at `events`
          FUZZ_CHECK(moved.size() == 0 && moved.validate(), "a moved-from pool is not empty");
          break;
        }
        case op_reentrant:
          run_reentrant(in, read_policy(in), op_index);
          break;
        case op_count:
          break;
      }
      FUZZ_CHECK(!events.bad, "a growth event contradicts itself");
      FUZZ_CHECK(pool.stats().growth_events - before.growth_events == events.count,
                 "growth_events differs from the events the listener saw");
      if (events.count != 0) {
        FUZZ_CHECK(events.last_new_capacity == pool.capacity(), "the last growth event announced another capacity");
      }
      if (storage_before == engine::StorageMode::stable)
        FUZZ_CHECK(!events.relocated || may_move, "stable growth moved objects");
      // Packed: any release, erase_if, flush or clear may move the last object into a hole.
      const bool packed =
          storage_before == engine::StorageMode::packed || pool.policy().storage == engine::StorageMode::packed;
      check_consistent(pool, model, op_index, may_move || events.relocated || packed);
    }
  }
  FUZZ_CHECK(Lifetimes::live() == 0, "the pool's destructor leaked objects");
  FUZZ_CHECK(Lifetimes::bad_destructions == 0, "a destructor ran twice");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  if (size != 0 && (data[0] & 0x10) != 0) {  // the policy byte: bit 4 also asks for packed storage
    run<MovableValue>(in);
  } else {
    run<ThrowingTracked>(in);
  }
  return 0;
}
