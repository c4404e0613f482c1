// Provider names for the fitted scenario: one squall provider per backend, named as a
// scenario allows.
//   - A trace names a vendor (gen_ai.provider.name "openai", LiteLLM's custom_llm_provider),
//     and one vendor may serve several models (a chat model and an embeddings model; gpt-4o
//     and its fallback gpt-4o-mini), each with its own latency, faults and token shape. A
//     squall provider has one model (mocks/provider_config.hpp), so a name the trace gives
//     more than one request model becomes "NAME.MODEL" per model; its attempts with no model
//     go with its most frequent one. A name with one model stays (squall's own export names
//     each provider, one model each).
//   - A scenario's provider names are ASCII letters, digits, '.', '_' and '-'
//     (sim/scenario/provider_reader.cpp): any other byte becomes '-' ("Azure OpenAI" ->
//     "Azure-OpenAI", "models/gemini-1.5" -> "models-gemini-1.5"), and an empty name is
//     "provider"; a name so made that another already has gets "-2", "-3", ...
#pragma once

#include <cstddef>

#include "replay/attempt_record.hpp"

namespace squall::replay {

struct ProviderNaming {
  std::size_t split = 0;    // names split by model
  std::size_t renamed = 0;  // names changed to the allowed bytes
};

// Renames data.attempts' providers in place.
ProviderNaming name_providers(TraceData& data);

}  // namespace squall::replay
