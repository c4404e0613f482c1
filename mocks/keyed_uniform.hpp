// A uniform in [0, 1) that is a function of a mock's key and a call's identity, not a
// draw from a stream: the mocks' per-call decisions that must come out the same every
// time the same call is made (a tool's argument errors, an LLM's query rewrite), so a
// re-sent request is a deterministic repeat and two policies run on one seed meet the
// same decisions wherever their calls coincide (DESIGN section 3).
//
// The hash is splitmix64 over `key` mixed with each field in turn (the text by
// stream_seed's CRC-64, keyed by `key`); its top 53 bits make the uniform.
//
// The hash is taken in three steps of which the first two depend on the call's text only,
// so that a caller deciding many times with one text does them once (the chaos decorator
// decides up to three times per provider call, always for the same few tools):
//   crc64_xz(text)                                 the text's CRC (engine/runtime/rng.hpp)
//   text_seed = stream_seed_of_crc(key, crc)       the text mixed with the key
//   keyed_uniform_of_seed(key, task_id, text_seed, index)
// Every form gives the same value for the same (key, task_id, text, index); the inline
// ones exist because a provider call makes several of these (bench/README.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/runtime/rng.hpp"

namespace squall {

double keyed_uniform(std::uint64_t key, std::uint64_t task_id, std::string_view text, std::uint64_t index);

namespace keyed_uniform_detail {
// splitmix64 of `state` mixed with `value`: one step of the hash.
inline std::uint64_t mix(std::uint64_t state, std::uint64_t value) {
  std::uint64_t s = state ^ value;
  return splitmix64(s);
}
}  // namespace keyed_uniform_detail

// The same uniform with the text mixed with the key already:
// keyed_uniform(key, task_id, text, index) ==
// keyed_uniform_of_seed(key, task_id, stream_seed_of_crc(key, crc64_xz(text)), index).
inline double keyed_uniform_of_seed(std::uint64_t key, std::uint64_t task_id, std::uint64_t text_seed,
                                    std::uint64_t index) {
  using keyed_uniform_detail::mix;
  const std::uint64_t h = mix(mix(mix(key, task_id), text_seed), index);
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

// The same uniform with the text given by its CRC-64/XZ (crc64_xz in engine/runtime/rng.hpp),
// for callers that hash one text once and decide many times with it:
// keyed_uniform(key, task_id, text, index) == keyed_uniform_of_crc(key, task_id, crc64_xz(text), index).
inline double keyed_uniform_of_crc(std::uint64_t key, std::uint64_t task_id, std::uint64_t text_crc,
                                   std::uint64_t index) {
  return keyed_uniform_of_seed(key, task_id, stream_seed_of_crc(key, text_crc), index);
}

}  // namespace squall
