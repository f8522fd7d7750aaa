#pragma once
// engine::VectorPool<T>: the class. Include <engine/pool/vector_pool.hpp>, which adds the
// out-of-line members (this header alone declares them; each detail/vector_pool_*.hpp slice
// includes it and defines its share). Part of the header-only pool library (engine::pool).
//
// This file is the face: the API with the contracts its comments document. Every call reads
// the layout once (per call, or per walk) and hands the work to the layer that owns it:
// - detail::SlotTable (detail/slot_table.hpp), the half that knows no T: handles and
//   generations, occupancy bits, the LIFO free stack, the release_later() queue. Tested alone.
// - detail::SlotStore<T> (detail/slot_store.hpp), the objects of contiguous and stable: one
//   raw slot per table slot, one page or many, and the walk in slot order.
// - detail::PackedStore<T> (detail/packed_store.hpp), the objects of packed and packed_pages:
//   dense positions behind a sparse index (detail::DenseIndex, detail/dense_index.hpp).
// - detail::HeapStore<T> (detail/heap_store.hpp), the heap layout (pooling off): the same index
//   over a pointer per position, each object its own new and delete.
// The members are defined by concern in the detail/vector_pool_*.hpp files: emplace (emplace,
// release, erase_if: the hot paths), access (get, the lookups, for_each), lifetime
// (constructors, moves, clear), iterator (range-for and the other read-only walks), growth,
// layout (layouts, migration, packed relocation), free_stack, release_queue, validate (stats
// and validate()), parallel (the chunked passes). Why each layer is built as it is, its header
// says.
//
// Objects are built in place in raw, aligned slots with T's own constructor, so any T works
// (move-only, no default constructor, alignas(64)) and nothing is default-constructed and then
// assigned. Releases while iterating are refused (use release_later() + flush_releases(), or
// erase_if()), so a pass never sees a half-dead pool; neither allocates, so a game that stopped
// growing its pools can cull with them every frame without touching the heap.
//
// Pointers and references to objects: contiguous mode keeps them until the next growth,
// reserve(), shrink_to_fit() or set_policy() (GrowthEvent::relocated tells you); stable mode
// keeps them until the object is released or set_policy() changes the layout (storage mode,
// page size, or a raised max_capacity that rebuilds a last page the old cap cut short:
// that page's objects move, and the GrowthEvent says so). Handles and
// PoolPtr survive all of these; PoolPtr does not survive moving the pool object itself.
// Packed mode keeps them only until the next release of ANY object (that release may move
// the last object into the hole), erase_if(), flush_releases(), clear(), growth, reserve(),
// shrink_to_fit() or set_policy(): hold handles, not pointers, across those.
//
// Not thread-safe: one pool per thread, or external locking.
#include <engine/pool/assert.hpp>
#include <engine/pool/detail/bit_ops.hpp>
#include <engine/pool/detail/chunk_list.hpp>
#include <engine/pool/detail/construct.hpp>
#include <engine/pool/detail/dense_index.hpp>
#include <engine/pool/detail/depth_scope.hpp>
#include <engine/pool/detail/generation.hpp>
#include <engine/pool/detail/heap_store.hpp>
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/object_page.hpp>
#include <engine/pool/detail/packed_store.hpp>
#include <engine/pool/detail/pending_layout.hpp>
#include <engine/pool/detail/slot_store.hpp>
#include <engine/pool/detail/slot_table.hpp>
#include <engine/pool/detail/walk.hpp>
#include <engine/pool/growth_policy.hpp>
#include <engine/pool/pool_handle.hpp>
#include <engine/pool/pool_ptr.hpp>
#include <engine/pool/pool_stats.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace engine {

template <class T>
class VectorPool {
  static_assert(std::is_object_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "VectorPool<T> holds non-const object types");
  static_assert(std::is_nothrow_destructible_v<T>,
                "VectorPool<T> needs a noexcept destructor: release() and clear() are noexcept");

  using ObjectPage = detail::ObjectPage<T>;
  using Objects = detail::SlotStore<T>;
  using Store = detail::PackedStore<T>;
  using Heap = detail::HeapStore<T>;
  // Packed mode moves objects inside noexcept release(); other T get contiguous instead.
  static constexpr bool packable = std::is_nothrow_move_constructible_v<T>;
  static constexpr std::size_t max_index_space = 0xFFFFFFFEu;  // indices are uint32 with room to spare
  // Emplaces and releases in a pool far bigger than the caches touch cold slots; asking for
  // the slot a few operations ahead lets those misses overlap. Small pools skip it.
  static constexpr std::uint32_t prefetch_distance = 8;
  static constexpr std::uint32_t prefetch_threshold =
      static_cast<std::uint32_t>(std::max<std::size_t>(4096, (std::size_t{1} << 20) / sizeof(T)));

 public:
  // emplace_chunked shares its claims out in blocks of this many, block b to task b % chunks.
  static constexpr std::uint32_t batch_block = 256;
  template <bool Const>
  class basic_iterator;
  using value_type = T;
  using iterator = basic_iterator<false>;
  using const_iterator = basic_iterator<true>;
  using GrowthListener = std::function<void(const GrowthEvent&)>;

  // --- Lifetime ------------------------------------------------------------------------
  explicit VectorPool(GrowthPolicy policy = {});       // reserves policy.initial_capacity slots; throws bad_alloc
  ~VectorPool();                                       // destroys every live object exactly once
  VectorPool(VectorPool&& other) noexcept;             // takes the objects; handles follow; `other` is left empty
  VectorPool& operator=(VectorPool&& other) noexcept;  // destroys this pool's objects first
  VectorPool(const VectorPool&) = delete;
  VectorPool& operator=(const VectorPool&) = delete;

  // --- Creating and destroying objects -----------------------------------------------
  template <class... Args>
  std::optional<PoolHandle> emplace(Args&&... args);  // T(args...) in place (T{args...} if T has no such
                                                      // constructor: aggregates); nullopt (pool unchanged) at
                                                      // max_capacity, on bad_alloc, or if a contiguous growth would
                                                      // relocate inside for_each; a throwing T ctor propagates, pool
                                                      // unchanged
  template <class... Args>
  PoolPtr<T> acquire(Args&&... args);              // emplace() wrapped in RAII; empty PoolPtr at cap
  bool release(PoolHandle handle) noexcept;        // destroys now; false: null, stale, foreign, double, or inside
                                                   // for_each/erase_if (debug builds assert on all but null: test
                                                   // contains() first to release what may be gone)
  void release_later(PoolHandle handle) noexcept;  // queues for flush_releases(); safe inside for_each; never
                                                   // allocates; a handle not live now is refused (asserts; counts
                                                   // failed_releases)
  std::size_t flush_releases() noexcept;  // releases the queue in order; skips (and counts) handles already gone;
                                          // returns how many died. Queueing a handle twice is fine: it keeps one entry
                                          // and dies once (the repeat counts as a failed release, as does an entry
                                          // whose object was released directly)
  template <class Pred>
  std::size_t erase_if(Pred pred);  // pred(T&) or pred(PoolHandle, T&); releases after the whole pass; returns count;
                                    // never allocates
  void clear() noexcept;            // destroys every live object once; all handles go stale; keeps capacity
  // erase_if with phase one in parallel (detail/vector_pool_parallel.hpp): the live objects split
  // into `chunks` runs in walk order, and run(chunks, task) must call task(k) once for each k in
  // [0, chunks), on any threads, returning when all are done (engine::WorkerTeam does). pred(k, T&)
  // sees chunk k's objects, concurrently with other chunks: it may write its object and what the
  // caller keeps for chunk k, and must not call into the pool (a debug build asserts on emplace,
  // release and release_later). Phase two releases the victims in the order erase_if would: the
  // same free stack and handles at any chunk count. For a trivially copyable T and >= 1,024
  // victims phase two is shared out on run() too (once more; twice in the packed layouts and
  // heap), ending as the ordered releases would. Never allocates once its per-chunk victim lists
  // have seen this capacity and chunk count.
  template <class Runner, class Pred>
  std::size_t erase_if_chunked(std::size_t chunks, Runner&& run, Pred&& pred);
  // `count` emplaces in one call, the i-th object built from make(i) (detail/vector_pool_emplace_chunked.hpp):
  // the ones the capacity holds now are built in `chunks` runs on run(), as for erase_if_chunked,
  // the rest one at a time as emplace() builds them (growing the pool). Ends exactly as `count`
  // emplace(make(i)) calls in order would: the same slots, positions and handles at any chunk
  // count. make must be noexcept, as must T's construction from what it returns, and must not
  // call into the pool. Returns how many were built: fewer only where emplace() would have
  // failed (cap, bad_alloc), and then the first ones. Refused (0) inside for_each/erase_if and
  // T's callbacks. Never allocates unless the pool grows (heap: one allocation per object).
  template <class Runner, class Make>
  std::size_t emplace_chunked(std::size_t count, std::size_t chunks, Runner&& run, Make&& make);

  // Reentrancy: what T's constructor and destructor may do with their own pool, wherever the
  // pool runs them (emplace, release, flush_releases, erase_if, clear, ~VectorPool):
  // - A slot is claimed before T is constructed and rolled back if the constructor throws, so
  //   a constructor that emplaces gets another slot. The object is live once emplace() returns.
  // - An object is dead before its destructor runs: its handle is stale (contains() false,
  //   release() of it false), and its slot is reused only after the destructor returned.
  // - clear() and ~VectorPool re-read the occupancy after each destructor: an object released
  //   by another's destructor dies once, and objects emplaced by destructors die too (so a
  //   destructor that always emplaces a replacement makes clear() run forever).
  // - They go in slot order (packed: from the back), so an owner may die after an object it
  //   owns (a tree of PoolPtr members): its release() of what this clear()/~VectorPool already
  //   destroyed returns false quietly (no debug assert, no failed_releases), as does
  //   release_later(). A handle stale for any other reason is still refused loudly.
  // - Inside T's constructor or destructor: get(), contains(), emplace(), release(),
  //   release_later() and flush_releases() work; emplace() that needs relocating growth
  //   returns nullopt (the object being built or destroyed would move); clear(), erase_if(),
  //   shrink_to_fit(), reserve() that relocates and set_policy() are refused (debug assert).
  // - An erase_if() victim whose destructor releases another victim gets false (double release).
  // - Packed: a dying object leaves the dense array (moved out, one more move of T) before its
  //   destructor runs, so destructors may do all of the above; inside T's constructor,
  //   release() and flush_releases() are refused (the hole would be filled by moving the last
  //   object, which may be the one being built): queue with release_later() instead.
  // - Relocation (contiguous growth, reserve, shrink_to_fit, set_policy) runs the destructors of
  //   moved-from objects: those must not call into the pool (T's move should leave the source
  //   owning nothing, as a moved-from PoolPtr does).
  // validate() holds between calls, not inside a callback (a claimed or dying slot is neither
  // free nor live). So ENGINE_POOL_VALIDATE's self-check runs when the outermost call
  // completes: a release() from inside an erase_if victim's destructor is checked by erase_if.
  //
  // T that can be neither moved nor copied (std::atomic, a mutex holder) works wherever no
  // object has to move: stable storage, and a contiguous pool that never grows while objects
  // live. What would move a live object is refused (debug assert): emplace() that needs
  // contiguous growth (nullopt), reserve() (false), contiguous shrink_to_fit() (no-op),
  // set_policy() that changes the layout (false).

  // --- Access ----------------------------------------------------------------------------
  T* get(PoolHandle handle) noexcept;                      // nullptr unless live (counts stats.stale_gets)
  const T* get(PoolHandle handle) const noexcept;          // same, read-only
  bool contains(PoolHandle handle) const noexcept;         // live? (counts nothing)
  PoolHandle handle_at(std::size_t index) const noexcept;  // handle of the live object in slot `index`, else null
  T* get_at(std::size_t index) noexcept;  // the live object in slot `index`, else nullptr (counts nothing)
  const T* get_at(std::size_t index) const noexcept;
  std::vector<std::uint32_t> active_indices() const;           // live slot indices in address order
  void active_indices(std::vector<std::uint32_t>& out) const;  // same, into a reused buffer (cleared first)
  // One pass (for_each's rules) over the slots named in indices[0, count), in that order:
  // f(k, T*) gets slot indices[k]'s live object, or nullptr where that slot is not live. An
  // index list's walk (ActiveIndexList) goes through it: the layout is read once per pass,
  // where get_at() per entry re-reads it after every object the callback writes.
  template <class F>
  void for_each_listed(const std::uint32_t* indices, std::size_t count, F&& f);
  // The same pass split into `chunks` runs of the list, task k on entries [count*k/chunks,
  // count*(k+1)/chunks) calling f(k, i, T*), run in parallel as for erase_if_chunked.
  template <class Runner, class F>
  void for_each_listed_chunked(const std::uint32_t* indices, std::size_t count, std::size_t chunks, Runner&& run,
                               F&& f);

  // --- Iteration: live objects in address (slot) order --------------------------------
  // for_each/erase_if refuse release() and relocating growth while they run. A range-for
  // tolerates release() of any object (it re-reads the bitmap), but not relocating growth.
  // Objects emplaced during a pass may or may not be visited.
  // Packed mode walks the dense array in position order, and a release moves the last object
  // into the hole, so a range-for tolerates release() of the current object (the one moved
  // into its place is visited next) and of objects not yet visited; releasing an object it
  // already passed moves the last, unvisited object behind it, and the pass misses that one.
  iterator begin() noexcept;  // range-for yields T&
  iterator end() noexcept;
  const_iterator begin() const noexcept;
  const_iterator end() const noexcept;
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  template <class F>
  void for_each(F&& f);  // f(T&) or f(PoolHandle, T&)
  template <class F>
  void for_each(F&& f) const;  // f(const T&) or f(PoolHandle, const T&)

  // --- Size and memory -----------------------------------------------------------------
  std::size_t size() const noexcept {  // live objects
    return static_cast<std::size_t>(state_.counters.emplaces - state_.counters.releases);
  }
  bool empty() const noexcept { return state_.counters.emplaces == state_.counters.releases; }
  std::size_t capacity() const noexcept { return table_.capacity(); }  // slots that exist now
  bool reserve(std::size_t slots);  // capacity >= slots; false at cap / bad_alloc / relocating mid-pass (pool
                                    // unchanged)
  void shrink_to_fit();  // stable: frees empty trailing pages; contiguous: trims to just past the last live slot
  // Room ahead of need, at a moment the caller picks (between frames), so that a later burst
  // of emplaces neither grows the pool nor stops on page faults of memory never written; the
  // chunked passes' victim lists grow with it, so the next erase_if_chunked allocates nothing:
  bool grow_ahead(std::size_t free_slots);  // < free_slots free: reserve()s now (paged: pages, nothing moves;
                                            // one-buffer: at least doubling); false if room, cap, bad_alloc, mid-pass
  std::size_t prefault(std::size_t max_bytes) noexcept;  // backs <= max_bytes of the slots no object used yet, on from
                                                         // the last call; returns bytes asked (0: none left/no OS help)

  // --- Policy and statistics -------------------------------------------------------------
  const GrowthPolicy& policy() const noexcept { return state_.policy; }  // normalised copy of what was asked
  bool set_policy(const GrowthPolicy& policy);  // switches growth AND storage mode; live objects migrate, handles stay
                                                // valid; false (unchanged) if max_capacity < capacity(), bad_alloc,
                                                // mid-pass, or packed for a T whose move constructor may throw
  void set_growth_listener(GrowthListener listener);  // called once per growth; must not throw; empty function = none
  // Occupancy, read-only (memory maps, layout tools). Object-storage positions in address order,
  // 64 at a time: f(first_position, live_bits, valid_bits), bit i of live_bits set when position
  // first_position + i holds a live object, only the low valid_bits (1..64) of the word existing.
  // Contiguous and stable: positions are slot indices, page by page (a short last page ends in a
  // short word). Packed: positions are the dense array's, so the live objects are one block
  // [0, size()) and the rest of its capacity follows. Never allocates; O(capacity / 64), so a
  // view of a million slots costs 16k calls.
  template <class F>
  void for_each_occupancy_word(F&& f) const;
  // Where slot `index`'s object sits among the positions above (the index itself, except packed).
  std::size_t storage_position(std::size_t index) const noexcept {
    return state_.packed ? dense().position_of(static_cast<std::uint32_t>(index)) : index;
  }
  std::size_t occupancy_page_slots() const noexcept {  // positions per page (stable, packed_pages); 0: one buffer
    return is_paged_storage(state_.policy.storage) ? state_.policy.page_slots : 0;
  }
  PoolStats stats() const noexcept;  // O(pages) to sum bytes_held
  bool validate() const;             // walks every invariant (O(capacity)); true if all hold

 private:
  friend struct detail::PoolTestAccess;     // tests only: set a slot's generation near the wrap
  using Layout = detail::PendingLayout<T>;  // a storage arrangement built beside the current one
  struct Counters {                         // live objects = emplaces - releases, so no separate live count to update
    std::uint64_t emplaces = 0, releases = 0, failed_emplaces = 0, failed_releases = 0, refused_during_iteration = 0,
                  growth_events = 0;
    std::uint32_t peak_used = 0;  // == peak live: a slot is bumped only when all below are live
  };
  // position_and_object: f(where the object sits, object): its slot index, or in packed its
  // dense position (storage_position() of its index).
  using Visit = detail::Visit;
  // Depth markers (detail::DepthScope over iterating_, callbacks_, parallel_passes_). A
  // callback scope marks the pool running T's constructor or destructor (see "Reentrancy"
  // above): the callback may release(), release_later() and emplace() (no relocation), but not
  // clear, erase_if, shrink, reserve or switch policy under the object being built or destroyed.
  using IterationScope = detail::DepthScope;  // a for_each/erase_if pass
  using CallbackScope = detail::DepthScope;
  using ParallelScope = detail::DepthScope;  // a chunked pass's tasks are running (the debug checks read it)
  using Clock = std::chrono::steady_clock;

  static GrowthPolicy normalized(GrowthPolicy policy) noexcept;

  using SlotRef = typename Objects::Ref;  // where slot `index` lives (SlotStore::locate)
  using FlatView = typename Objects::Flat;
  FlatView flat_view() const noexcept { return objects_.flat(table_); }
  ENGINE_POOL_HOT SlotRef locate(std::uint32_t index) const noexcept { return objects_.locate(table_, index); }
  // Prefetches for emplace (the slot a few pops on) and for releases in a batch (detail/vector_pool_emplace.hpp).
  ENGINE_POOL_HOT void prefetch_slot(std::uint32_t index) noexcept;
  static constexpr bool release_touches_object =
      !std::is_trivially_destructible_v<T> || ENGINE_POOL_DEBUG != 0 || detail::asan_poisoning;
  template <bool Packed, bool Occupancy = true>
  ENGINE_POOL_HOT void prefetch_release_in(std::uint32_t index) noexcept;
  bool valid_or_nested() const;  // ENGINE_POOL_VALIDATE's self-check (detail/vector_pool_validate.hpp)
  ENGINE_POOL_COLD const T* get_slow(PoolHandle handle) const noexcept;  // stale, or a stable pool of several pages

  // Generation steps of a teardown (clear(), ~VectorPool), where a release steps by 1: see
  // destroyed_by_this_teardown (detail/vector_pool_lifetime.hpp).
  static constexpr std::uint32_t teardown_kill_step = 3;
  static constexpr std::uint32_t teardown_free_step = 4;
  bool destroyed_by_this_teardown(PoolHandle handle) const noexcept;

  template <class RollBack, class... Args>
  void build_object(void* where, RollBack&& roll_back, Args&&... args);
  template <class... Args>
  PoolHandle construct_claimed(std::uint32_t index, const SlotRef& at, bool from_free_stack, Args&&... args);
  template <class Dense, class... Args>
  PoolHandle construct_packed(Dense& store, std::uint32_t index, const SlotRef& at, bool from_free_stack,
                              Args&&... args);
  template <class Dense>
  void destroy_packed(Dense& store, std::uint32_t index) noexcept;
  std::size_t relocate_packed(Layout& target) noexcept;
  bool refuse_release_while_building() noexcept;
  StorageMode growth_mode() const noexcept {  // the one-buffer layout a growth or shrink rebuilds
    return state_.policy.storage == StorageMode::packed ? StorageMode::packed : StorageMode::contiguous;
  }
  template <class... Args>
  void construct_in_new_page(std::uint32_t index, std::vector<detail::SlotTablePage>* old_table,
                             std::vector<ObjectPage>* old_objects, Args&&... args);
  ENGINE_POOL_COLD void unclaim(std::uint32_t index, void* where, bool from_free_stack) noexcept;
  PoolHandle commit_emplace(std::uint32_t index, const SlotRef& at) noexcept;
  template <class... Args>
  ENGINE_POOL_COLD PoolHandle emplace_with_growth(Args&&... args);  // null handle: refused
  template <class Where>
  void release_slot_in(Where& where, std::uint32_t index) noexcept;  // objects_, store_ or heap_: chosen by the
                                                                     // caller, once per call
  void release_slot(std::uint32_t index) noexcept;
  void destroy_dead(void* where) noexcept;
  bool refuse_immovable(const char* what) noexcept;
  void release_listed(std::uint32_t from, std::uint32_t count) noexcept;
  template <class Dense>
  void release_listed_positions(Dense& store, std::uint32_t from, std::uint32_t count) noexcept;
  void release_doomed(std::uint32_t from, std::uint32_t doomed) noexcept;
  void index_release_queue() noexcept {  // one entry per slot from here to the flush (see SlotTable)
    state_.counters.failed_releases += table_.index_queue();
  }
  bool refuse_mid_pass(const char* what, bool releases_allowed = false) noexcept;

  std::size_t next_contiguous_capacity() const noexcept;
  std::size_t stable_page_length(std::size_t page_number, std::size_t page_slots) const noexcept;
  std::uint32_t stable_capacity() const noexcept;
  Layout make_layout(StorageMode mode, std::size_t page_slots, std::size_t slots) const;
  Layout make_longer_last_page() const;
  std::size_t relocate_into(Layout& target) noexcept(std::is_nothrow_move_constructible_v<T>);
  void adopt(Layout&& layout) noexcept;
  bool grow_stable_by_pages(std::size_t pages);
  void announce(const GrowthEvent& event);
  void destroy_live_objects() noexcept;
  void destroy_originals(std::size_t first_page) noexcept;
  void reset_to_empty() noexcept;
  template <Visit How, class Self, class F>
  static void visit_live(Self& self, F& f);
  template <class F>
  void visit_listed(const std::uint32_t* indices, std::size_t first, std::size_t last, F& f);
  std::uint64_t chunk_bound(std::size_t k, std::size_t chunks) const noexcept;
  // erase_if_chunked's releases on the team too, for T whose objects move as bytes and die without
  // a destructor (no code of T runs on the team), once there are enough victims to pay for the runs.
  static constexpr bool releases_in_parallel = std::is_trivially_copyable_v<T>;
  static constexpr std::uint32_t parallel_release_threshold = 1024;
  template <class Runner>
  void release_victims_chunked(std::size_t chunks, Runner& run, std::uint32_t doomed) noexcept;
  std::uint32_t victims_before(std::size_t k) const noexcept;  // in erase_if_chunked's lists of chunks < k
  void reserve_chunk_victims(std::size_t chunks);              // each list holds a chunk's worth at this capacity
  template <class Dense, class Runner>
  void close_holes_chunked(Dense& store, std::size_t chunks, Runner& run, std::uint32_t doomed) noexcept;
  template <class Runner, class Make>
  void build_batch(std::uint32_t count, std::size_t chunks, Runner& run, Make& make) noexcept;
  static constexpr std::uint64_t all_positions = detail::all_positions;  // past every walk position
  template <Visit How, class Self, class F>
  static void visit_positions(Self& self, std::uint64_t first, std::uint64_t last, F& f);
  template <Visit How, class F>
  void walk_slots_from(std::size_t first_page, F& f) {  // contiguous, stable: every live object from a page on
    objects_.template walk<How, T&>(table_, static_cast<std::uint64_t>(first_page) << table_.shift(), all_positions, f);
  }

  // The dense layouts' store in use (heap_ for heap, store_ for packed and packed_pages), read
  // once per call: f(store) is compiled for both, so neither store's loop branches on the other.
  template <class F>
  decltype(auto) with_dense(F&& f) {
    if (state_.heap) return f(heap_);
    return f(store_);
  }
  template <class F>
  decltype(auto) with_dense(F&& f) const {
    if (state_.heap) return f(heap_);
    return f(store_);
  }
  // Where the objects live in the layout in use, read once per call: heap_ (heap), store_
  // (packed, packed_pages) or objects_ (contiguous, stable); f is compiled for all three.
  template <class F>
  decltype(auto) with_objects(F&& f) {
    if (state_.heap) return f(heap_);
    if (state_.packed) return f(store_);
    return f(objects_);
  }
  const detail::DenseIndex& dense() const noexcept {  // the positions of either dense store
    return state_.heap ? static_cast<const detail::DenseIndex&>(heap_) : store_;
  }
  const T* dense_object_of(std::uint32_t index) const noexcept {  // slot `index`'s object, in either dense store
    return state_.heap ? heap_.object_of(index) : store_.object_of(index);
  }

  // Every scalar of the pool's state but the slot table's, grouped so that a move copies them
  // in one assignment and cannot forget one; the table, the pages, the store and the listener
  // move beside it.
  struct State {
    bool packed = false;              // the objects are dense: store_ or heap_ (policy may already name the next one)
    bool heap = false;                // ... and it is heap_
    std::uint32_t prefaulted = 0;     // prefault() has backed slots [used, prefaulted) (0 after a rebuild)
    std::uint64_t storage_epoch = 0;  // bumped whenever objects move: lets iterators detect it
    GrowthPolicy policy;
    Counters counters;
    mutable std::uint64_t stale_gets = 0;
  };

  detail::SlotTable table_;  // handles, generations, occupancy, free stack, release queue
  Objects objects_;          // page p's objects beside table page p (empty pages when packed)
  Store store_;              // packed and packed_pages: the objects (empty in the other modes)
  Heap heap_;                // heap: the objects' pointers (empty in the other modes)
  State state_;
  // How deep this pool is inside its own passes and T's callbacks: they belong to the running
  // calls, not to the contents, so a move neither copies nor resets them.
  std::uint32_t building_ = 0;           // dense: constructors in flight (their objects sit in the store, unfinished)
  mutable std::uint32_t iterating_ = 0;  // for_each/erase_if depth
  std::uint32_t callbacks_ = 0;          // depth of T constructors/destructors the pool is running (see CallbackScope)
  bool tearing_down_ = false;            // clear() or ~VectorPool is destroying every object (destroy_live_objects)
  std::uint32_t parallel_passes_ = 0;    // erase_if_chunked / for_each_listed_chunked tasks are running
  std::vector<detail::ChunkList> chunk_victims_;  // erase_if_chunked's per-chunk victim lists (kept)
  GrowthListener listener_;
};

}  // namespace engine
