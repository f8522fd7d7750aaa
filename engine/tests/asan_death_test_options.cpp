// Linked into every GoogleTest program of an ASan build (cmake/PoolshotTesting.cmake). A death
// test's child process reports an error on purpose, and the test only matches the report's
// first line, so the child skips symbolising the stack: llvm-symbolizer over a test program
// takes about a second a report, half a minute over pool_test. Only the child is told; any
// other failure keeps its symbolised stack, and an ASAN_OPTIONS that sets symbolize wins.
// ASan calls this while it starts, before main and before its interceptors are ready, so it
// reads its own command line through raw system calls and searches it by hand, with
// instrumentation off (the shadow memory that instrumented code checks is not mapped yet).
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

__attribute__((no_sanitize("address", "undefined"))) bool is_death_test_child() noexcept {
  static char line[16384];
  const long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return false;
  long size = 0;
  for (long got = 1; got > 0 && size < static_cast<long>(sizeof line);) {
    got = syscall(SYS_read, fd, line + size, sizeof line - static_cast<unsigned long>(size));
    if (got > 0) size += got;
  }
  syscall(SYS_close, fd);
  static const char flag[] = "--gtest_internal_run_death_test=";
  const long length = sizeof flag - 1;
  for (long at = 0; at + length <= size; ++at) {
    long i = 0;
    while (i < length && line[at + i] == flag[i]) ++i;
    if (i == length) return true;
  }
  return false;
}

}  // namespace

extern "C" __attribute__((no_sanitize("address", "undefined"))) const char* __asan_default_options() {
  return is_death_test_child() ? "symbolize=0" : "";
}
