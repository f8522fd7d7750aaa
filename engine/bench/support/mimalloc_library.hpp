#pragma once
// mimalloc, opened privately. Debian's libmimalloc.so exports malloc/free/operator new, so
// linking it would silently make *every* contender (std::vector, new/delete, pmr, boost, colony,
// the pool) allocate from mimalloc. dlopen(RTLD_LOCAL) keeps glibc as the process allocator
// and gives us mi_malloc/mi_free for the one contender that asks for them.
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef POOLSHOT_MIMALLOC_PATH
#define POOLSHOT_MIMALLOC_PATH "libmimalloc.so.2"
#endif

namespace bench {

struct MimallocLibrary {
  void* (*malloc)(std::size_t) = nullptr;
  void (*free)(void*) = nullptr;
  bool (*is_in_heap_region)(const void*) = nullptr;

  // Exits with a message rather than benchmark something that is not what it claims to be.
  static const MimallocLibrary& get() {
    static const MimallocLibrary lib = open();
    return lib;
  }

 private:
  template <class Fn>
  static Fn symbol(void* handle, const char* name) {
    void* address = dlsym(handle, name);
    if (address == nullptr) fail("missing symbol", name);
    Fn fn = nullptr;
    std::memcpy(&fn, &address, sizeof fn);  // object pointer -> function pointer, portably
    return fn;
  }

  [[noreturn]] static void fail(const char* what, const char* detail) {
    std::fprintf(stderr, "mimalloc contender: %s: %s\n", what, detail);
    std::exit(2);
  }

  static MimallocLibrary open() {
    void* handle = dlopen(POOLSHOT_MIMALLOC_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) fail("cannot open " POOLSHOT_MIMALLOC_PATH, dlerror());
    MimallocLibrary lib;
    lib.malloc = symbol<void* (*)(std::size_t)>(handle, "mi_malloc");
    lib.free = symbol<void (*)(void*)>(handle, "mi_free");
    lib.is_in_heap_region = symbol<bool (*)(const void*)>(handle, "mi_is_in_heap_region");
    // The point of opening it locally: the rest of the process must still use glibc.
    void* probe = std::malloc(64);
    const bool hijacked = lib.is_in_heap_region(probe);
    std::free(probe);
    if (hijacked) fail("malloc is served by mimalloc", "the other contenders would be measured on it");
    return lib;
  }
};

}  // namespace bench
