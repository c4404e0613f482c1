#include "mocks/keyed_uniform.hpp"

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

// splitmix64 of `state` mixed with `value`: one step of the hash.
std::uint64_t mix(std::uint64_t state, std::uint64_t value) {
  std::uint64_t s = state ^ value;
  return splitmix64(s);
}

}  // namespace

double keyed_uniform_of_crc(std::uint64_t key, std::uint64_t task_id, std::uint64_t text_crc, std::uint64_t index) {
  std::uint64_t h = mix(key, task_id);
  h = mix(h, stream_seed_of_crc(key, text_crc));
  h = mix(h, index);
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

double keyed_uniform(std::uint64_t key, std::uint64_t task_id, std::string_view text, std::uint64_t index) {
  return keyed_uniform_of_crc(key, task_id, crc64_xz(text), index);
}

}  // namespace squall
