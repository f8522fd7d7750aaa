// What the pool's prefetch helpers compile to: one extern "C" function per helper, each of which
// must still hold a prefetch instruction after the optimiser (check_prefetch.cmake reads this
// file's object code). GCC deletes calls to a helper whose only effect is a prefetch unless
// the helper is always inlined (detail/bit_ops.hpp, ENGINE_POOL_HOT); a prefetch lost that way
// changes no result, so only the machine code can show it.
#include <engine/pool/detail/dense_index.hpp>
#include <engine/pool/detail/heap_store.hpp>
#include <engine/pool/detail/packed_store.hpp>

#include <cstdint>

namespace {
struct Probe {
  float values[12];
};
}  // namespace

extern "C" {
void poolshot_probe_prefetch_dense(const engine::detail::DenseIndex& index, std::uint32_t position) {
  index.prefetch_dense(position);
}
void poolshot_probe_prefetch_dense_write(const engine::detail::DenseIndex& index, std::uint32_t position) {
  index.prefetch_dense_write(position);
}
void poolshot_probe_prefetch_position(const engine::detail::DenseIndex& index, std::uint32_t slot) {
  index.prefetch_position(slot);
}
void poolshot_probe_prefetch_tail(const engine::detail::DenseIndex& index, std::uint32_t from_end) {
  index.prefetch_tail(from_end);
}
void poolshot_probe_packed_prefetch_hole_at(const engine::detail::PackedStore<Probe>& store, std::uint32_t position) {
  store.prefetch_hole_at(position);
}
void poolshot_probe_heap_prefetch_hole_at(const engine::detail::HeapStore<Probe>& store, std::uint32_t position) {
  store.prefetch_hole_at(position);
}
}
