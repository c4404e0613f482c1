#include "sim/scenario/search_provider_reader.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "mocks/corpus.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario/latency_reader.hpp"

namespace squall {
namespace {

// Upper bounds, far beyond any real service, that keep what the mocks derive from them
// finite:
// - max_results: 10000 hits; search APIs return 10 to 100 per page;
constexpr IntRange kMaxResults{0, 10'000};
// - top_k: 10000, Pinecone's own maximum;
// - read units: 1e6 RU of capacity or per second, five hundred times Pinecone's 2,000 per
//   second, which keeps the bucket's exact level in int64 (mocks/read_units.hpp).
constexpr IntRange kTopK{1, kMaxTopK};
// Read units are counted in thousandths (mRU): an amount is at least one.
constexpr NumberRange kReadUnits{0.001, false, 1e6};
constexpr NumberRange kReadUnitsPerSecond{0, false, 1e6};

// Loads the corpus as sim::World will (Corpus::load), so that `squall validate` finds
// every problem `squall run` would.
const CorpusCheck& check_corpus(const ObjectReader& obj, const std::string& corpus,
                                const std::filesystem::path& base_dir, CorpusErrors& corpora) {
  const std::filesystem::path file = corpus_path(base_dir, corpus);
  auto [entry, inserted] = corpora.try_emplace(file);
  if (inserted) {
    try {
      entry->second.query_cost_mru = default_query_cost_mru(Corpus::load(file));
    } catch (const CorpusError& e) {
      entry->second.error = e.what();
    }
  }
  if (entry->second.error) obj.diag().error(obj.path_of("corpus"), *entry->second.error);
  return entry->second;
}

// RU as the scenario writes them -> mRU, or nullopt after an error when they round to 0.
std::optional<std::int64_t> to_mru(double ru, const std::string& path, Diagnostics& diag, bool zero_ok) {
  const auto mru = static_cast<std::int64_t>(std::llround(ru * 1000));
  if ((mru == 0 && !zero_ok) || (mru == 0 && ru != 0)) {
    diag.error(path, fmt::format("expected at least 0.001 (read units are counted in thousandths), got {}", ru));
    return std::nullopt;
  }
  if (std::abs(ru * 1000 - static_cast<double>(mru)) > 1e-6 * std::max(1.0, std::abs(ru * 1000))) {
    diag.error(path, fmt::format("expected a multiple of 0.001 (read units are counted in thousandths), got {}", ru));
    return std::nullopt;
  }
  return mru;
}

// `read_units`: { capacity (required), refill_per_s (required), per_query }.
std::optional<ReadUnitConfig> read_read_units(const Json& value, const std::string& path, std::int64_t default_cost_mru,
                                              Diagnostics& diag) {
  const ObjectReader obj(value, path, diag, {"capacity", "refill_per_s", "per_query"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();
  ReadUnitConfig config;
  double capacity = 0;
  double refill = 0;
  double per_query = 0;
  if (obj.get_number_required("capacity", capacity, kReadUnits)) {
    if (auto mru = to_mru(capacity, obj.path_of("capacity"), diag, false)) config.capacity_mru = *mru;
  }
  if (obj.get_number_required("refill_per_s", refill, kReadUnitsPerSecond)) {
    if (auto mru = to_mru(refill, obj.path_of("refill_per_s"), diag, true)) config.refill_mru_per_s = *mru;
  }
  if (obj.get("per_query", per_query, kReadUnits)) {
    config.per_query_mru = to_mru(per_query, obj.path_of("per_query"), diag, false);
  }
  if (diag.count() != errors_before) return std::nullopt;
  // A query costing more than the bucket holds could never run: every call would be a 429.
  if (config.per_query_mru && *config.per_query_mru > config.capacity_mru) {
    diag.error(obj.path_of("per_query"),
               fmt::format("expected at most capacity ({}), got {}: a query costing more than the bucket holds "
                           "could never run",
                           capacity, per_query));
    return std::nullopt;
  }
  if (!config.per_query_mru && default_cost_mru > config.capacity_mru) {
    diag.error(obj.path_of("capacity"),
               fmt::format("expected at least {} (what one query of this corpus costs by Pinecone's rule; "
                           "see per_query), got {}",
                           static_cast<double>(default_cost_mru) / 1000, capacity));
    return std::nullopt;
  }
  return config;
}

}  // namespace

VectorSearchConfig read_vector_search(const ObjectReader& obj, const std::filesystem::path& base_dir,
                                      CorpusErrors& corpora) {
  VectorSearchConfig config;
  std::int64_t cost_mru = 0;
  bool corpus_ok = false;
  if (obj.require("corpus") != nullptr && obj.get_nonempty("corpus", config.corpus)) {
    const CorpusCheck& check = check_corpus(obj, config.corpus, base_dir, corpora);
    corpus_ok = !check.error;
    cost_mru = check.query_cost_mru;
  }
  if (const Json* latency = obj.find("latency")) {
    if (auto parsed = read_latency(*latency, obj.path_of("latency"), obj.diag())) config.latency = *parsed;
  }
  obj.get("top_k", config.top_k, kTopK);
  if (const Json* units = obj.find("read_units")) {
    // Without a corpus the default cost is unknown; the corpus's own error is reported.
    const std::int64_t default_cost = corpus_ok ? cost_mru : 0;
    config.read_units = read_read_units(*units, obj.path_of("read_units"), default_cost, obj.diag());
  }
  return config;
}

WebSearchConfig read_web_search(const ObjectReader& obj, const std::filesystem::path& base_dir, CorpusErrors& corpora) {
  WebSearchConfig config;
  if (obj.require("corpus") != nullptr && obj.get_nonempty("corpus", config.corpus)) {
    check_corpus(obj, config.corpus, base_dir, corpora);
  }
  if (const Json* latency = obj.find("latency")) {
    if (auto parsed = read_latency(*latency, obj.path_of("latency"), obj.diag())) config.latency = *parsed;
  }
  obj.get("max_results", config.max_results, kMaxResults);
  return config;
}

}  // namespace squall
