#pragma once
// engine::VectorPool<T>: a vector-backed object pool with generation-checked handles.
// Part of the header-only pool library (CMake target engine::pool).
//
// The class and its contracts are detail/vector_pool_class.hpp (read that for the API); its
// members are defined one concern a file, each including the class: emplace (emplace, release,
// erase_if), access (get, the lookups, for_each), iterator (range-for and the other read-only
// walks), growth, layout (layouts, migration, packed relocation), free_stack, release_queue,
// validate (stats and validate()), lifetime, parallel (the chunked passes), emplace_chunked (a
// batch of emplaces built in parallel).
// Every one of them compiles on its own; this header is the one to include.
#include <engine/pool/detail/vector_pool_access.hpp>
#include <engine/pool/detail/vector_pool_class.hpp>
#include <engine/pool/detail/vector_pool_emplace.hpp>
#include <engine/pool/detail/vector_pool_emplace_chunked.hpp>
#include <engine/pool/detail/vector_pool_free_stack.hpp>
#include <engine/pool/detail/vector_pool_growth.hpp>
#include <engine/pool/detail/vector_pool_iterator.hpp>
#include <engine/pool/detail/vector_pool_layout.hpp>
#include <engine/pool/detail/vector_pool_lifetime.hpp>
#include <engine/pool/detail/vector_pool_parallel.hpp>
#include <engine/pool/detail/vector_pool_release_queue.hpp>
#include <engine/pool/detail/vector_pool_validate.hpp>
