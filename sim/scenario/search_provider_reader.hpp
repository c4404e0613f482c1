// Reading the search providers' own keys (web_search, vector_search): their corpus, loaded
// as sim::World will load it, and vector search's read units (Pinecone's serverless model,
// mocks/read_units.hpp). Keys and bounds: provider_reader.hpp.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "mocks/provider_config.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

// What loading a corpus file found: its error, or what a query of its index costs.
struct CorpusCheck {
  std::optional<std::string> error;
  std::int64_t query_cost_mru = 0;  // default_query_cost_mru
};
// Corpus files already loaded, by resolved path: providers sharing a corpus read it once,
// and its errors are reported at each provider that names it.
using CorpusErrors = std::map<std::filesystem::path, CorpusCheck>;

// A relative corpus path is resolved against `base_dir` (the scenario's directory).
VectorSearchConfig read_vector_search(const ObjectReader& obj, const std::filesystem::path& base_dir,
                                      CorpusErrors& corpora);
WebSearchConfig read_web_search(const ObjectReader& obj, const std::filesystem::path& base_dir, CorpusErrors& corpora);

}  // namespace squall
