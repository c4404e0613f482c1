// A uniform in [0, 1) that is a function of a mock's key and a call's identity, not a
// draw from a stream: the mocks' per-call decisions that must come out the same every
// time the same call is made (a tool's argument errors, an LLM's query rewrite), so a
// re-sent request is a deterministic repeat and two policies run on one seed meet the
// same decisions wherever their calls coincide (DESIGN section 3).
//
// The hash is splitmix64 over `key` mixed with each field in turn (the text by
// stream_seed's CRC-64, keyed by `key`); its top 53 bits make the uniform.
#pragma once

#include <cstdint>
#include <string_view>

namespace squall {

double keyed_uniform(std::uint64_t key, std::uint64_t task_id, std::string_view text, std::uint64_t index);

// The same uniform with the text given by its CRC-64/XZ (crc64_xz in engine/runtime/rng.hpp),
// for callers that hash one text once and decide many times with it:
// keyed_uniform(key, task_id, text, index) == keyed_uniform_of_crc(key, task_id, crc64_xz(text), index).
double keyed_uniform_of_crc(std::uint64_t key, std::uint64_t task_id, std::uint64_t text_crc, std::uint64_t index);

}  // namespace squall
