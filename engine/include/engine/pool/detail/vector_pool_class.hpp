#pragma once
// engine::VectorPool<T>: the class. Include <engine/pool/vector_pool.hpp>, which adds the
// out-of-line members (this header alone declares them; each detail/vector_pool_*.hpp slice
// includes it and defines its share). Part of the header-only pool library (engine::pool).
//
// This file is the face: the API with the contracts its comments document, and the hot paths
// (emplace, release, get, erase_if, the walks), which read the layout once per call and hand
// the work to the layer that owns it:
// - detail::SlotTable (detail/slot_table.hpp), the half that knows no T: handles and
//   generations, occupancy bits, the LIFO free stack, the release_later() queue. Tested alone.
// - detail::SlotStore<T> (detail/slot_store.hpp), the objects of contiguous and stable: one
//   raw slot per table slot, one page or many, and the walk in slot order.
// - detail::PackedStore<T> (detail/packed_store.hpp), the objects of packed, packed_pages and
//   heap: dense positions (pointers, for heap) behind a sparse index, and the dense walk.
// The other members are defined by concern in the other detail/vector_pool_*.hpp files:
// lifetime (constructors, moves, clear), iterator (range-for and the other read-only walks),
// growth, layout (layouts, migration, packed relocation), free_stack, release_queue, validate
// (stats and validate()), parallel (the chunked passes). Why each layer is built as it is, its
// header says.
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
#include <engine/pool/detail/depth_scope.hpp>
#include <engine/pool/detail/generation.hpp>
#include <engine/pool/detail/memory_poison.hpp>
#include <engine/pool/detail/packed_store.hpp>
#include <engine/pool/detail/object_page.hpp>
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
  // Packed mode moves objects inside noexcept release(); other T get contiguous instead.
  static constexpr bool packable = std::is_nothrow_move_constructible_v<T>;
  static constexpr std::size_t max_index_space = 0xFFFFFFFEu;  // indices are uint32 with room to spare
  // Emplaces and releases in a pool far bigger than the caches touch cold slots; asking for
  // the slot a few operations ahead lets those misses overlap. Small pools skip it.
  static constexpr std::uint32_t prefetch_distance = 8;
  static constexpr std::uint32_t prefetch_threshold =
      static_cast<std::uint32_t>(std::max<std::size_t>(4096, (std::size_t{1} << 20) / sizeof(T)));

 public:
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
    return state_.packed ? store_.position_of(static_cast<std::uint32_t>(index)) : index;
  }
  std::size_t occupancy_page_slots() const noexcept {  // positions per page (stable, packed_pages); 0: one buffer
    return is_paged_storage(state_.policy.storage) ? state_.policy.page_slots : 0;
  }
  PoolStats stats() const noexcept;  // O(pages) to sum bytes_held
  bool validate() const;             // walks every invariant (O(capacity)); true if all hold

 private:
  friend struct detail::PoolTestAccess;  // tests only: set a slot's generation near the wrap
  struct Layout {                        // a storage arrangement being built before it replaces the current one
    // Replace pages [first_page...] of the table and of objects_; first_page > 0 only with the
    // same page size. Packed: the object pages are empty, the objects go in `store`.
    std::vector<detail::SlotTablePage> table;
    std::vector<ObjectPage> objects;
    bool packed = false;
    Store store;
    std::size_t first_page = 0;
    unsigned shift = detail::SlotTable::one_page_shift;
    std::uint32_t mask = 0xFFFFFFFFu;
    std::uint32_t capacity = 0;
    std::size_t bytes = 0;
  };
  struct Counters {  // live objects = emplaces - releases, so no separate live count to update
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

  // Where slot `index` lives: its object slot (objects_; unused in the packed layouts) and its
  // metadata in the slot table. One-page pools (contiguous, or stable before their first
  // growth) answer from pointers cached beside the table's own one-page view, one load shorter
  // than going through the page tables, which matters on the handle -> generation chain every
  // release and get() waits on; the branch rarely changes between calls, so it predicts well.
  struct SlotRef {
    typename ObjectPage::Slot* slots;
    std::uint32_t* generations;
    std::uint64_t* occupied;
    std::size_t offset;  // ...the slot's offset in each
    detail::SlotTable::SlotMeta meta() const noexcept { return {generations, occupied, offset}; }
  };
  struct FlatView {  // a one-page pool: page 0's objects and metadata; all null with several pages
    typename ObjectPage::Slot* slots;
    std::uint32_t* generations;
    std::uint64_t* occupied;
  };
  FlatView flat_view() const noexcept {
    return FlatView{objects_.flat_slots(), table_.flat().generations, table_.flat().occupied};
  }
  ENGINE_POOL_HOT SlotRef locate(std::uint32_t index) const noexcept {
    const detail::SlotTable::Flat& flat = table_.flat();
    if (flat.generations != nullptr) return SlotRef{objects_.flat_slots(), flat.generations, flat.occupied, index};
    const std::size_t page = table_.page_of(index);
    auto& meta = const_cast<detail::SlotTablePage&>(table_.page(page));
    return SlotRef{const_cast<ObjectPage&>(objects_.page(page)).slots(), meta.generations(), meta.occupied(),
                   table_.offset_of(index)};
  }
  // Always inlined: out of line, GCC sees a void function with no side effects and deletes the call.
  ENGINE_POOL_HOT void prefetch_slot(std::uint32_t index) noexcept {  // object and generation, for writing
    const SlotRef at = locate(index);
    if (state_.packed) {
      store_.prefetch_position(index);  // the object goes at the back (warm); its position entry is cold
    } else {
      ENGINE_POOL_PREFETCH_WRITE(at.slots[at.offset].bytes);
    }
    ENGINE_POOL_PREFETCH_WRITE(at.generations + at.offset);
  }
  // What a release writes: the generation and the occupancy word, and the object only if its
  // destructor (or the debug fill) touches it. Prefetching an untouched object would spend a
  // memory access, and a miss-buffer slot, on nothing.
  static constexpr bool release_touches_object =
      !std::is_trivially_destructible_v<T> || ENGINE_POOL_DEBUG != 0 || detail::asan_poisoning;
  template <bool Packed>
  ENGINE_POOL_HOT void prefetch_release_in(std::uint32_t index) noexcept {
    const SlotRef at = locate(index);
    if constexpr (release_touches_object && !Packed) ENGINE_POOL_PREFETCH_WRITE(at.slots[at.offset].bytes);
    ENGINE_POOL_PREFETCH_WRITE(at.generations + at.offset);
    ENGINE_POOL_PREFETCH_WRITE(at.occupied + at.offset / detail::bits_per_word);
  }
  // ENGINE_POOL_VALIDATE's self-check after a mutation, for the outermost call only. Inside T's
  // constructor or destructor (callbacks_ counts how deep) an outer call is half-way through
  // its own objects (erase_if's victims are dead but not yet counted or freed; a flush is
  // mid-queue), and validate() would report that as broken. The outer call checks when it
  // completes, so a corruption made inside a callback is still found, one call later.
  bool valid_or_nested() const { return callbacks_ != 0 || validate(); }
  static T* object_at(const SlotRef& at) noexcept {
    return std::launder(reinterpret_cast<T*>(at.slots[at.offset].bytes));
  }
  ENGINE_POOL_COLD const T* get_slow(PoolHandle handle) const noexcept;  // stale, or a stable pool of several pages

  // A teardown (clear(), ~VectorPool) kills an object by stepping its slot's generation by 3,
  // where a release steps it by 1 (both leave it even: free), and first steps every slot already
  // free by 4. So while it runs, "dead at exactly handle + 3" means "destroyed by this
  // teardown": an owner's release of it is the legal tree-of-PoolPtr pattern, not a bug (see
  // "Reentrancy"). A handle released before the teardown or during it (+1, +5, ...) is not.
  static constexpr std::uint32_t teardown_kill_step = 3;
  static constexpr std::uint32_t teardown_free_step = 4;
  bool destroyed_by_this_teardown(PoolHandle handle) const noexcept {
    return tearing_down_ && detail::is_live_generation(handle.generation) && handle.index < table_.used() &&
           table_.generation(handle.index) == handle.generation + teardown_kill_step;
  }

  template <class RollBack, class... Args>
  void build_object(void* where, RollBack&& roll_back, Args&&... args);
  template <class... Args>
  PoolHandle construct_claimed(std::uint32_t index, const SlotRef& at, bool from_free_stack, Args&&... args);
  template <class... Args>
  PoolHandle construct_packed(std::uint32_t index, const SlotRef& at, bool from_free_stack, Args&&... args);
  void destroy_packed(std::uint32_t index) noexcept;
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
  template <bool Packed>
  void release_slot_in(std::uint32_t index) noexcept;  // the layout family chosen by the caller, once per call
  void release_slot(std::uint32_t index) noexcept {
    if (state_.packed) {
      release_slot_in<true>(index);
    } else {
      release_slot_in<false>(index);
    }
  }
  void destroy_dead(void* where) noexcept;
  bool refuse_immovable(const char* what) noexcept;
  void release_listed(std::uint32_t from, std::uint32_t count) noexcept;
  void release_listed_positions(std::uint32_t from, std::uint32_t count) noexcept;
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
  static constexpr bool releases_in_parallel = std::is_trivially_copyable_v<T> && detail::has_shared_clear;
  static constexpr std::uint32_t parallel_release_threshold = 1024;
  template <class Runner>
  void release_victims_chunked(std::size_t chunks, Runner& run, std::uint32_t doomed) noexcept;
  static constexpr std::uint64_t all_positions = detail::all_positions;  // past every walk position
  template <Visit How, class Self, class F>
  static void visit_positions(Self& self, std::uint64_t first, std::uint64_t last, F& f);
  template <Visit How, class F>
  void walk_slots_from(std::size_t first_page, F& f) {  // contiguous, stable: every live object from a page on
    objects_.template walk<How, T&>(table_, static_cast<std::uint64_t>(first_page) << table_.shift(), all_positions, f);
  }

  // Every scalar of the pool's state but the slot table's, grouped so that a move copies them
  // in one assignment and cannot forget one; the table, the pages, the store and the listener
  // move beside it.
  struct State {
    bool packed = false;              // the current layout is packed (policy may already name the next one)
    std::uint64_t storage_epoch = 0;  // bumped whenever objects move: lets iterators detect it
    GrowthPolicy policy;
    Counters counters;
    mutable std::uint64_t stale_gets = 0;
  };

  detail::SlotTable table_;  // handles, generations, occupancy, free stack, release queue
  Objects objects_;          // page p's objects beside table page p (empty pages when packed)
  Store store_;              // packed mode's objects (empty in the other modes)
  State state_;
  // How deep this pool is inside its own passes and T's callbacks: they belong to the running
  // calls, not to the contents, so a move neither copies nor resets them.
  std::uint32_t building_ = 0;           // packed: constructors in flight (their objects sit in store_, unfinished)
  mutable std::uint32_t iterating_ = 0;  // for_each/erase_if depth
  std::uint32_t callbacks_ = 0;          // depth of T constructors/destructors the pool is running (see CallbackScope)
  bool tearing_down_ = false;            // clear() or ~VectorPool is destroying every object (destroy_live_objects)
  std::uint32_t parallel_passes_ = 0;    // erase_if_chunked / for_each_listed_chunked tasks are running
  std::vector<detail::ChunkList> chunk_victims_;  // erase_if_chunked's per-chunk victim lists (kept)
  GrowthListener listener_;
};

// ===== Emplace / release =================================================================

// Builds T(args...) at `where` (T{args...} for an aggregate: detail/construct.hpp) as a
// constructor the pool runs (CallbackScope: see "Reentrancy"). If it throws, roll_back() undoes
// the caller's claim, still inside that scope, and the exception goes on. Every emplace path
// builds through it; they differ only in what they undo.
template <class T>
template <class RollBack, class... Args>
ENGINE_POOL_HOT void VectorPool<T>::build_object(void* where, RollBack&& roll_back, Args&&... args) {
  CallbackScope scope(callbacks_);
  if constexpr (detail::is_nothrow_emplace_constructible<T, Args&&...>()) {
    static_cast<void>(roll_back);
    detail::emplace_construct<T>(where, std::forward<Args>(args)...);
  } else {
    try {
      detail::emplace_construct<T>(where, std::forward<Args>(args)...);
    } catch (...) {
      roll_back();
      throw;
    }
  }
}

// The slot at `index` is claimed (SlotTable::claim: off the free stack, or bumped, with a free generation)
// before T's constructor runs, so a constructor that emplaces gets another slot; the object
// is committed (generation odd, bit set) only once it exists.
template <class T>
template <class... Args>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::construct_claimed(std::uint32_t index, const SlotRef& at,
                                                            bool from_free_stack, Args&&... args) {
  void* const where = at.slots[at.offset].bytes;
  detail::unpoison_bytes(where, sizeof(T));
  build_object(
      where, [&] { unclaim(index, where, from_free_stack); }, std::forward<Args>(args)...);
  // `at` is still right: nothing relocates while a constructor runs, and pages never move.
  return commit_emplace(index, at);
}

// Packed: the object is built at the back of the dense array, whose position is claimed
// first (a constructor that emplaces gets the next one). While a constructor runs, release()
// is refused (see refuse_release_while_building): filling a hole moves the last object,
// which may be the one under construction.
template <class T>
template <class... Args>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::construct_packed(std::uint32_t index, const SlotRef& at, bool from_free_stack,
                                                           Args&&... args) {
  void* const where = store_.claim_back(index);
  if (where == nullptr) {  // heap: its allocation failed
    unclaim(index, nullptr, from_free_stack);
    ++state_.counters.failed_emplaces;
    return PoolHandle{};
  }
  ++building_;
  build_object(
      where,
      [&] {
        --building_;
        store_.unclaim(store_.position_of(index));  // objects its nested emplaces built stay
        unclaim(index, nullptr, from_free_stack);
      },
      std::forward<Args>(args)...);
  --building_;
  return commit_emplace(index, at);
}

template <class T>
ENGINE_POOL_HOT PoolHandle VectorPool<T>::commit_emplace(std::uint32_t index, const SlotRef& at) noexcept {
  state_.counters.peak_used = std::max(state_.counters.peak_used, table_.used());  // a no-op unless bumped
  const PoolHandle handle = detail::SlotTable::commit(at.meta(), index);
  ++state_.counters.emplaces;
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after emplace");
  return handle;
}

// Inlined into the caller on purpose, and shaped so that only a PoolHandle (one 64-bit
// register) flows through the branches: GCC 12 merges optionals from several return paths
// through the stack, and reloading them stalls on store forwarding (that was most of an
// emplace's cost in the churn benchmark).
template <class T>
template <class... Args>
ENGINE_POOL_ENTRY std::optional<PoolHandle> VectorPool<T>::emplace(Args&&... args) {
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "emplace() inside a chunked pass: its tasks run in parallel");
  PoolHandle handle;
  if (table_.can_claim()) {
    // One construction path for both sources keeps emplace() small enough for GCC to inline
    // where it pays, without forcing it into every caller (see ENGINE_POOL_ENTRY).
    const detail::SlotTable::Claim claim = table_.claim();  // before T exists: its constructor may emplace
    // LIFO hands back the warmest slot; in a big pool the one a few pops on is cold, so ask now.
    if (claim.from_free_stack && table_.capacity() >= prefetch_threshold && table_.free_count() >= prefetch_distance) {
      prefetch_slot(table_.stack_entry(table_.free_count() - prefetch_distance));
    }
    const SlotRef at = locate(claim.index);
    if (state_.packed) {
      handle = construct_packed(claim.index, at, claim.from_free_stack, std::forward<Args>(args)...);
    } else {
      handle = construct_claimed(claim.index, at, claim.from_free_stack, std::forward<Args>(args)...);
    }
  } else {
    handle = emplace_with_growth(std::forward<Args>(args)...);
  }
  if (handle.is_null()) return std::nullopt;
  return handle;
}

template <class T>
template <class... Args>
PoolPtr<T> VectorPool<T>::acquire(Args&&... args) {
  const std::optional<PoolHandle> handle = emplace(std::forward<Args>(args)...);
  return handle ? PoolPtr<T>(*this, *handle) : PoolPtr<T>();
}

// Dead before its destructor runs: a destructor that looks itself up finds a stale handle,
// and the slot goes on the free stack only afterwards, so an emplace from the destructor
// cannot be handed the slot that is still being torn down.
template <class T>
template <bool Packed>
ENGINE_POOL_HOT void VectorPool<T>::release_slot_in(std::uint32_t index) noexcept {
  const SlotRef at = locate(index);
  detail::SlotTable::retire(at.meta());  // every handle to it is stale now
  ++state_.counters.releases;
  if constexpr (Packed) {
    destroy_packed(index);
  } else {
    destroy_dead(at.slots[at.offset].bytes);  // `at` survives: nothing relocates under a destructor
  }
  table_.push_free(index);
}

// Packed: the dead object leaves the dense array (the last one fills its place) before its
// destructor runs, on a copy moved out to the stack: so the destructor may release, emplace
// or look anything up, and no object in the array is ever half-destroyed. That costs one
// more move of T per release, only when T has a destructor.
template <class T>
ENGINE_POOL_HOT void VectorPool<T>::destroy_packed(std::uint32_t index) noexcept {
  if constexpr (std::is_trivially_destructible_v<T>) {
    store_.drop(index);
  } else {
    typename Store::Slot taken;
    T* const object = store_.take_out(index, taken);
    CallbackScope scope(callbacks_);
    object->~T();
    store_.dispose(object);  // heap: frees it
  }
}

// Inside a packed pool's T constructor a release would fill its hole with the last object,
// which may be the one being built: refused (release_later() is fine; flush afterwards).
template <class T>
bool VectorPool<T>::refuse_release_while_building() noexcept {
  if (building_ == 0) return false;
  ENGINE_POOL_ASSERT(false,
                     "release() or flush_releases() inside T's constructor in a packed pool; use release_later()");
  ++state_.counters.refused_during_iteration;
  return true;
}

// Runs the destructor of an object already marked dead, then poisons its slot.
template <class T>
ENGINE_POOL_HOT void VectorPool<T>::destroy_dead(void* where) noexcept {
  if constexpr (!std::is_trivially_destructible_v<T>) {
    CallbackScope scope(callbacks_);
    std::launder(reinterpret_cast<T*>(where))->~T();
  }
  detail::mark_slot_released(where, sizeof(T));
}

// A T that can be neither moved nor copied stays where it was built: a layout change that
// would move a live one is refused. An empty pool moves nothing, so it may change layout.
template <class T>
bool VectorPool<T>::refuse_immovable(const char* what) noexcept {
  if constexpr (std::is_move_constructible_v<T>) {
    static_cast<void>(what);
    return false;
  } else {
    if (empty()) return false;
    ENGINE_POOL_ASSERT(false, what);
    return true;
  }
}

template <class T>
bool VectorPool<T>::refuse_mid_pass(const char* what, bool releases_allowed) noexcept {
  if (iterating_ == 0 && (releases_allowed || callbacks_ == 0)) return false;
  ENGINE_POOL_ASSERT(false, what);
  ++state_.counters.refused_during_iteration;
  return true;
}

template <class T>
ENGINE_POOL_ENTRY bool VectorPool<T>::release(PoolHandle handle) noexcept {
  ENGINE_POOL_ASSERT(parallel_passes_ == 0, "release() inside a chunked pass: its tasks run in parallel");
  if (refuse_mid_pass("release() inside for_each/erase_if; use release_later() + flush_releases() or erase_if()",
                      true)) {
    return false;
  }
  if (refuse_release_while_building()) return false;
  if (!table_.is_live(handle)) {
    if (destroyed_by_this_teardown(handle)) return false;  // an owner outlived what it owns: nothing to do
    ++state_.counters.failed_releases;
    ENGINE_POOL_ASSERT(handle.is_null(), "release() of a stale, foreign or already released handle");
    return false;
  }
  release_slot(handle.index);
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after release");
  return true;
}

// The victims are listed in the free stack's own arrays, above the stack (SlotTable::TopList),
// so erase_if never allocates. Written downwards in address order, the list reads upwards
// highest index first, which is the order to push them in: the lowest freed slot ends on top
// of the stack, and the pool refills from the front, in address order. Packed lists dense
// positions instead (see release_listed_positions): its pass reads the objects alone, and its
// release phase need not look each victim's position up.
template <class T>
template <class Pred>
std::size_t VectorPool<T>::erase_if(Pred pred) {
  if (refuse_mid_pass("erase_if() inside for_each/erase_if; it would release mid-pass")) return 0;
  detail::SlotTable::TopList doomed(table_);  // listed by where they sit: slot index, or packed's dense position
  if constexpr (std::is_invocable_v<Pred&, PoolHandle, T&>) {
    if (state_.packed) {  // the handle comes from the dense entry; the list keeps the position
      auto collect = [&](std::uint32_t position, T& object) {
        const std::uint32_t index = store_.index_at(position);
        if (pred(PoolHandle{index, table_.generation(index)}, object)) doomed.push(position);
      };
      visit_live<Visit::position_and_object>(*this, collect);
    } else {
      auto collect = [&](PoolHandle handle, T& object) {
        if (pred(handle, object)) doomed.push(handle.index);
      };
      visit_live<Visit::handle_and_object>(*this, collect);
    }
  } else {  // no handle wanted: the pass reads the objects alone (no generations, no dense entries)
    auto collect = [&](std::uint32_t position, T& object) {
      if (pred(object)) doomed.push(position);
    };
    visit_live<Visit::position_and_object>(*this, collect);
  }
  release_doomed(doomed.first(), doomed.size());
  ENGINE_POOL_VALIDATE_ASSERT(valid_or_nested(), "pool invariants broken after erase_if");
  return doomed.size();
}

// erase_if's phase two (and erase_if_chunked's): the victims are stack entries [from, from +
// doomed), highest walk position first, at the top of the stack arrays (see erase_if).
template <class T>
void VectorPool<T>::release_doomed(std::uint32_t from, std::uint32_t doomed) noexcept {
  // Entry from + k moves down to the k-th push's own place, free_count + k (never
  // above where it came from, so the copy never overwrites an entry not yet read).
  if constexpr (std::is_trivially_destructible_v<T>) {
    if (state_.packed) {
      release_listed_positions(from, doomed);
    } else {
      release_listed(from, doomed);  // no destructor runs, so nothing can call back in
    }
  } else {
    if (state_.packed) {  // destructors may move objects: name the victims by slot index first
      for (std::uint32_t k = 0; k < doomed; ++k) {
        table_.stack_entry(from + k) = store_.index_at(table_.stack_entry(from + k));
      }
    }
    // Destructors may call back into the pool. Every victim is marked dead first, so a
    // destructor that release()s another victim is refused (stale: a double release), and
    // the releases that do succeed (of objects not on the list) are fewer than the entries
    // between the stack's top and the list, so their pushes never reach an unread entry.
    for (std::uint32_t k = 0; k < doomed; ++k) {
      detail::SlotTable::retire(table_.locate(table_.stack_entry(from + k)));
    }
    const auto destroy_all = [&](auto packed_layout) {  // the layout read once, not per victim
      for (std::uint32_t k = 0; k < doomed; ++k) {
        const std::uint32_t index = table_.stack_entry(from + k);
        if constexpr (decltype(packed_layout)::value) {  // the last object (maybe another victim, dead) fills the hole
          destroy_packed(index);
        } else {
          const SlotRef at = locate(index);
          destroy_dead(at.slots[at.offset].bytes);
        }
        ++state_.counters.releases;
        table_.push_free(index);  // only now can an emplace take the slot
      }
    };
    if (state_.packed) {
      destroy_all(std::true_type{});
    } else {
      destroy_all(std::false_type{});
    }
  }
}

// ===== Access ============================================================================

// The live, one-page case is all that stays inline; the rest (stale handles, paged stable
// pools) is out of line. Small enough, get() is inlined into a caller's lookup loop, and a
// loop of fewer instructions keeps more lookups' cache misses in flight at once: shuffled 1M
// lookups ran about 1.2x faster in every layout (handle_get_bench, against slot_map). The
// fast path spells is_live()'s checks out on the one-page view instead of calling it: written
// as `flat && is_live(handle)` plus object_at(locate()), GCC 12 no longer inlines get().
template <class T>
const T* VectorPool<T>::get(PoolHandle handle) const noexcept {
  const detail::SlotTable::Flat& flat = table_.flat();
  if (flat.generations != nullptr && handle.index < table_.used() &&
      flat.generations[handle.index] == handle.generation &&
      detail::is_live_generation(handle.generation)) {         // one page: contiguous, packed, stable before it grew
    if (state_.packed) return store_.object_of(handle.index);  // the slot's position, then the object: one load more
    return std::launder(reinterpret_cast<const T*>(objects_.flat_slots()[handle.index].bytes));
  }
  return get_slow(handle);
}

template <class T>
const T* VectorPool<T>::get_slow(PoolHandle handle) const noexcept {
  if (table_.flat().generations == nullptr && table_.is_live(handle)) {  // several pages: stable, packed_pages
    return state_.packed ? store_.object_of(handle.index) : object_at(locate(handle.index));
  }
  ++state_.stale_gets;
  return nullptr;
}

template <class T>
T* VectorPool<T>::get(PoolHandle handle) noexcept {
  return const_cast<T*>(static_cast<const VectorPool&>(*this).get(handle));
}

template <class T>
bool VectorPool<T>::contains(PoolHandle handle) const noexcept {
  return table_.is_live(handle);
}

template <class T>
PoolHandle VectorPool<T>::handle_at(std::size_t index) const noexcept {
  if (index >= table_.used()) return PoolHandle{};
  const auto i = static_cast<std::uint32_t>(index);
  const std::uint32_t g = table_.generation(i);
  return detail::is_live_generation(g) ? PoolHandle{i, g} : PoolHandle{};
}

template <class T>
const T* VectorPool<T>::get_at(std::size_t index) const noexcept {
  if (index >= table_.used()) return nullptr;
  const auto i = static_cast<std::uint32_t>(index);
  // Live is asked of the occupancy bit, not the generation (both change together): a walk in
  // slot order then reads one bit per object beside it, not four bytes, and at random the
  // bits (1/32 of the generations' size) stay in cache.
  const SlotRef at = locate(i);
  if (!detail::test_bit(at.occupied, at.offset)) return nullptr;
  if (state_.packed) return store_.object_of(i);
  return object_at(at);
}

template <class T>
T* VectorPool<T>::get_at(std::size_t index) noexcept {
  return const_cast<T*>(static_cast<const VectorPool&>(*this).get_at(index));
}

template <class T>
template <class F>
void VectorPool<T>::for_each_listed(const std::uint32_t* indices, std::size_t count, F&& f) {
  IterationScope scope(iterating_);
  visit_listed(indices, 0, count, f);
}

// Entries [first, last) of a listed pass; the caller holds the IterationScope.
template <class T>
template <class F>
void VectorPool<T>::visit_listed(const std::uint32_t* indices, std::size_t first, std::size_t last, F& f) {
  const std::uint32_t used = table_.used();  // the listed slots were handed out before the pass
  if (!state_.packed && table_.flat().occupied != nullptr) {
    // One page, whose arrays stay put for the pass: relocating growth is refused inside it,
    // and stable growth adds pages beside this one.
    typename ObjectPage::Slot* const slots = objects_.flat_slots();
    const std::uint64_t* const occupied = table_.flat().occupied;
    for (std::size_t k = first; k < last; ++k) {
      const std::uint32_t i = indices[k];
      if (i < used && detail::test_bit(occupied, i)) {
        f(k, std::launder(reinterpret_cast<T*>(slots[i].bytes)));  // two calls: each inlined f knows its case
      } else {
        f(k, static_cast<T*>(nullptr));
      }
    }
    return;
  }
  for (std::size_t k = first; k < last; ++k) f(k, get_at(indices[k]));
}

// ===== Iteration =========================================================================

template <class T>
template <typename VectorPool<T>::Visit How, class Self, class F>
void VectorPool<T>::visit_live(Self& self, F& f) {
  IterationScope scope(self.iterating_);
  visit_positions<How>(self, 0, all_positions, f);
}

// The live objects at walk positions [first, last): dense positions in the packed layouts,
// slot indices otherwise (there first and last are multiples of 64, or last is all_positions,
// so whole occupancy words are read). The layout is read once per walk; each layout's store
// has its own loop (PackedStore::walk, SlotStore::walk). Opens no IterationScope: the caller
// holds one, so erase_if_chunked's tasks may walk disjoint ranges at once.
template <class T>
template <typename VectorPool<T>::Visit How, class Self, class F>
void VectorPool<T>::visit_positions(Self& self, std::uint64_t first, std::uint64_t last, F& f) {
  using Ref = std::conditional_t<std::is_const_v<Self>, const T&, T&>;
  if (self.state_.packed) {
    const detail::SlotTable& table = self.table_;
    const auto generation_of = [&table](std::uint32_t index) { return table.generation(index); };
    auto& store = const_cast<Store&>(self.store_);  // Ref says whether f may write
    store.template walk<How, Ref>(store.size(), first, last, generation_of, f);
  } else {
    self.objects_.template walk<How, Ref>(self.table_, first, last, f);
  }
}

template <class T>
template <class F>
void VectorPool<T>::for_each(F&& f) {
  if constexpr (std::is_invocable_v<F&, PoolHandle, T&>) {
    visit_live<Visit::handle_and_object>(*this, f);
  } else {
    visit_live<Visit::object>(*this, f);
  }
}

template <class T>
template <class F>
void VectorPool<T>::for_each(F&& f) const {
  if constexpr (std::is_invocable_v<F&, PoolHandle, const T&>) {
    visit_live<Visit::handle_and_object>(*this, f);
  } else {
    visit_live<Visit::object>(*this, f);
  }
}

}  // namespace engine
