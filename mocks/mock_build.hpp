// What a mock's factory gets (make_mock, declared beside each mock): one entry of the list
// of provider types in mocks/provider_config.hpp (ProviderSpec).
//
// A provider type is its mock's header/source pair: the config struct carries the type's
// kind (kKind, its scenario `type`), its own keys (kKeys), the kind of body it answers
// with (kBody) and the latency its faulty answers borrow (fault_latency()); the mock
// provides make_mock() and describe_into(), which fills the routing descriptor.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "engine/runtime/clock.hpp"
#include "engine/runtime/rng.hpp"
#include "mocks/corpus.hpp"
#include "mocks/vector_index.hpp"

namespace squall {

struct MockBuild {
  std::string_view name;  // the provider's name in the scenario
  Clock& clock;
  Scheduler& scheduler;
  Rng& rng;                              // the mock's own stream, "provider/<name>"
  std::shared_ptr<const Corpus> corpus;  // the loaded corpus of a search provider, else null
  // The index of a vector_search provider's corpus, shared with every provider using it;
  // else null.
  std::shared_ptr<const VectorIndex> vector_index;
  // A key for the mock's hash-based decisions (mocks/keyed_uniform.hpp) that draws
  // nothing from `rng`: the first draw of the stream "provider/<name>/decisions", made
  // when called, so that the stream exists only for mocks that use it and a mock that
  // gains such decisions keeps every draw of its own stream. Empty: key 0 (tests).
  std::function<std::uint64_t()> decision_key;
};

}  // namespace squall
