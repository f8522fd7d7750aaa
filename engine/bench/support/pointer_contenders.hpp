#pragma once
// The heap-style contenders: every object is allocated on its own and a std::vector of owning
// pointers is both the handle list and the iteration order. Only the allocator differs, so
// they share one container, PointerVector<Allocator>.
#include "mimalloc_library.hpp"
#include "particle.hpp"

#include <boost/pool/object_pool.hpp>
#include <boost/pool/pool.hpp>

#include <cstddef>
#include <memory>
#include <memory_resource>
#include <new>
#include <utility>
#include <vector>

namespace bench {

// Allocator policy: Owner is what the vector stores; make() builds an object, destroy() ends it;
// destroys_leftovers: the allocator's own destructor ends the objects still alive.
template <class Allocator>
class PointerVector {
 public:
  static constexpr const char* name = Allocator::name;
  using Owner = typename Allocator::Owner;

  PointerVector() = default;
  PointerVector(const PointerVector&) = delete;
  PointerVector& operator=(const PointerVector&) = delete;
  ~PointerVector() {
    if constexpr (!Allocator::destroys_leftovers) {
      for (Owner& p : items_) allocator_.destroy(p);
    }
  }

  template <class... Args>
  void spawn(Args&&... args) {
    items_.push_back(allocator_.make(std::forward<Args>(args)...));
  }
  template <class... Args>
  void create(Args&&... args) {
    spawn(std::forward<Args>(args)...);
  }

  // Fused, like std::vector: nothing stops a heap object from dying mid-pass.
  template <class F>
  std::size_t update_and_cull(F alive) {
    std::size_t died = 0;
    for (std::size_t i = 0; i < items_.size();) {
      if (alive(*items_[i])) {
        ++i;
      } else {
        destroy_at(i);
        ++died;
      }
    }
    return died;
  }

  void destroy_at(std::size_t i) {
    allocator_.destroy(items_[i]);
    if (i + 1 != items_.size()) items_[i] = std::move(items_.back());
    items_.pop_back();
  }

  template <class F>
  void for_each(F f) const {
    for (const Owner& p : items_) f(*p);
  }
  std::size_t size() const noexcept { return items_.size(); }

 private:
  Allocator allocator_;
  std::vector<Owner> items_;
};

struct NewDeleteAllocator {  // std::vector<std::unique_ptr<Particle>>: what most code does
  static constexpr const char* name = "new_delete";
  static constexpr bool destroys_leftovers = false;
  using Owner = std::unique_ptr<Particle>;
  template <class... Args>
  Owner make(Args&&... args) {
    return std::make_unique<Particle>(std::forward<Args>(args)...);
  }
  void destroy(Owner& p) noexcept { p.reset(); }
};

struct MimallocAllocator {  // a fast general-purpose allocator, same shape as new/delete
  static constexpr const char* name = "mimalloc";
  static constexpr bool destroys_leftovers = false;
  using Owner = Particle*;
  const MimallocLibrary& mi = MimallocLibrary::get();
  template <class... Args>
  Owner make(Args&&... args) {
    void* memory = mi.malloc(sizeof(Particle));
    if (memory == nullptr) throw std::bad_alloc();
    return ::new (memory) Particle(std::forward<Args>(args)...);
  }
  void destroy(Owner& p) noexcept {
    p->~Particle();
    mi.free(p);
  }
};

struct PmrPoolAllocator {  // the standard library's size-class pool (single-threaded flavour)
  static constexpr const char* name = "pmr_pool";
  static constexpr bool destroys_leftovers = false;
  using Owner = Particle*;
  std::pmr::unsynchronized_pool_resource resource;
  std::pmr::polymorphic_allocator<Particle> allocator{&resource};
  template <class... Args>
  Owner make(Args&&... args) {
    Particle* p = allocator.allocate(1);
    allocator.construct(p, std::forward<Args>(args)...);
    return p;
  }
  void destroy(Owner& p) noexcept {
    p->~Particle();
    allocator.deallocate(p, 1);
  }
};

// boost::pool<>: an unordered free list of fixed-size chunks; placement new on top. This is the
// fair Boost contender: boost::object_pool keeps its free list *sorted* (so its destructor can
// find the live objects), which makes every destroy() a walk of the free list: O(free chunks).
struct BoostPoolAllocator {
  static constexpr const char* name = "boost_pool";
  static constexpr bool destroys_leftovers = false;
  using Owner = Particle*;
  boost::pool<> chunks{sizeof(Particle)};
  template <class... Args>
  Owner make(Args&&... args) {
    void* memory = chunks.malloc();
    if (memory == nullptr) throw std::bad_alloc();
    return ::new (memory) Particle(std::forward<Args>(args)...);
  }
  void destroy(Owner& p) noexcept {
    p->~Particle();
    chunks.free(p);
  }
};

// boost::object_pool<Particle>, as documented: shown where its ordered free list is not
// quadratic, to make the point above with numbers.
struct BoostObjectPoolAllocator {
  static constexpr const char* name = "boost_object_pool";
  // ~object_pool destroys what is left in one sorted sweep; destroy() one by one would be O(N^2).
  static constexpr bool destroys_leftovers = true;
  using Owner = Particle*;
  boost::object_pool<Particle> objects;
  template <class... Args>
  Owner make(Args&&... args) {
    Particle* p = objects.construct(std::forward<Args>(args)...);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void destroy(Owner& p) noexcept { objects.destroy(p); }
};

using NewDeleteContender = PointerVector<NewDeleteAllocator>;
using MimallocContender = PointerVector<MimallocAllocator>;
using PmrPoolContender = PointerVector<PmrPoolAllocator>;
using BoostPoolContender = PointerVector<BoostPoolAllocator>;
using BoostObjectPoolContender = PointerVector<BoostObjectPoolAllocator>;

}  // namespace bench
