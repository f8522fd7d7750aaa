// SPDX-License-Identifier: MIT
#pragma once
// engine::PoolPtr<T>: owns one object in a VectorPool<T> and releases it on destruction.
// Part of the header-only pool library (CMake target engine::pool).
//
// It holds the pool and a handle, never a raw pointer, so it stays valid when a contiguous
// pool relocates or set_policy() migrates storage. It does NOT survive moving the pool
// itself (it points at the pool object). Ownership follows std::unique_ptr: release()
// gives the handle up without destroying, reset() destroys.
//
// Include <engine/pool/vector_pool.hpp>, which brings this header: PoolPtr's members call
// into VectorPool<T>, so the pool's header must be complete where a PoolPtr is used. (This
// header does not include it back: the two headers form no include cycle.)
#include <engine/pool/assert.hpp>
#include <engine/pool/handle.hpp>

#include <utility>

namespace engine {

template <class T>
class VectorPool;

template <class T>
class PoolPtr {
 public:
  PoolPtr() noexcept = default;                             // empty
  PoolPtr(VectorPool<T>& pool, PoolHandle handle) noexcept  // adopts a live handle of `pool`
      : pool_(&pool), handle_(handle) {}
  PoolPtr(PoolPtr&& other) noexcept : pool_(other.pool_), handle_(other.handle_) {
    other.pool_ = nullptr;
    other.handle_ = PoolHandle{};
  }
  PoolPtr& operator=(PoolPtr&& other) noexcept {  // releases what this held, after taking other's
    if (this != &other) {
      VectorPool<T>* const old_pool = std::exchange(pool_, std::exchange(other.pool_, nullptr));
      const PoolHandle old_handle = std::exchange(handle_, std::exchange(other.handle_, PoolHandle{}));
      release_from(old_pool, old_handle);
    }
    return *this;
  }
  PoolPtr(const PoolPtr&) = delete;
  PoolPtr& operator=(const PoolPtr&) = delete;
  ~PoolPtr() { reset(); }  // releases the object, if any

  T* get() const noexcept { return pool_ != nullptr ? pool_->get(handle_) : nullptr; }  // nullptr if empty
  T& operator*() const noexcept { return *checked(); }                                  // asserts non-empty in debug
  T* operator->() const noexcept { return checked(); }                                  // asserts non-empty in debug
  explicit operator bool() const noexcept { return pool_ != nullptr && !handle_.is_null(); }
  PoolHandle handle() const noexcept { return handle_; }  // null if empty
  VectorPool<T>* pool() const noexcept { return pool_; }  // nullptr if empty

  PoolHandle release() noexcept {  // gives up ownership, object stays alive
    const PoolHandle handle = handle_;
    pool_ = nullptr;
    handle_ = PoolHandle{};
    return handle;
  }
  void reset() noexcept {  // destroys the object now; becomes empty first
    VectorPool<T>* const pool = std::exchange(pool_, nullptr);
    release_from(pool, std::exchange(handle_, PoolHandle{}));
  }

 private:
  // Empty before the release, as std::unique_ptr::reset is: the release runs destructors that
  // may move this PoolPtr (it may live inside an object of a packed pool, whose releases move
  // the last object into the hole), so nothing of *this is touched once it starts.
  static void release_from(VectorPool<T>* pool, PoolHandle handle) noexcept {
    if (pool != nullptr && !handle.is_null()) pool->release(handle);
  }
  T* checked() const noexcept {
    T* object = get();
    ENGINE_POOL_ASSERT(
        object != nullptr,
        "dereferenced an empty PoolPtr (pool at its cap?) or one whose object was released behind its back");
    return object;
  }

  VectorPool<T>* pool_ = nullptr;
  PoolHandle handle_{};
};

}  // namespace engine
