#include "sim/corpora.hpp"

#include <optional>
#include <set>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "sim/scenario/json_reader.hpp"

namespace squall {

void check_ground_truth(const Scenario& scenario, const Corpora& corpora) {
  std::set<std::string_view, std::less<>> links;
  bool any = false;
  for (const auto& [list, queries] : scenario.workload.queries) {
    for (const PoolQuery& q : queries) any = any || q.has_ground_truth();
  }
  if (!any) return;
  for (const auto& [file, loaded] : corpora) {
    for (const Document& d : loaded.corpus->documents()) links.insert(d.link);
  }
  for (const auto& [list, queries] : scenario.workload.queries) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      for (const std::string& link : queries[i].relevant) {
        if (links.contains(link)) continue;
        throw CorpusError(fmt::format(
            "{}: {}: expected links of documents in the search providers' corpora, "
            "got \"{}\", which no document has (every answer to the query would be judged wrong)",
            scenario.source.string(),
            pointer_append(pointer_append(pointer_append("/workload/queries", list), i), "relevant"), link));
      }
    }
  }
}

Corpora load_corpora(const Scenario& scenario) {
  Corpora corpora;
  for (const ProviderConfig& config : scenario.providers) {
    const auto file = corpus_path(scenario, config);
    if (!file) continue;
    LoadedCorpus& slot = corpora[*file];
    if (!slot.corpus) slot.corpus = std::make_shared<const Corpus>(Corpus::load(*file));
    if (!slot.index && std::holds_alternative<VectorSearchConfig>(config.spec)) {
      slot.index = std::make_shared<const VectorIndex>(slot.corpus);
    }
  }
  return corpora;
}

const LoadedCorpus* corpus_of(const Scenario& scenario, const Corpora& corpora, const ProviderConfig& config) {
  const auto file = corpus_path(scenario, config);
  if (!file) return nullptr;
  return &corpora.at(*file);
}

}  // namespace squall
