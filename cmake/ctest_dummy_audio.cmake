# Included by ctest (TEST_INCLUDE_FILES, top-level CMakeLists.txt) before any test runs.
set(ENV{SDL_AUDIODRIVER} dummy)
