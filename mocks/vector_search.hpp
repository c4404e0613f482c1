// vector_search: a vector database over a shipped corpus (DESIGN section 5), with the
// rankings of mocks/vector_index.hpp and the read-unit limit of mocks/read_units.hpp.
//
// A call reads the Request's query, mode (dense | keyword), top_k (0: the provider's
// top_k) and min_score (dense mode only), and answers 200 with the hits the index gives,
// best first, each with its score, as views into the shared corpus (like web_search's).
// No hit is a 200 with an empty list: the engine's `empty`, a semantic failure.
//
// Each call draws one latency sample (before anything else, so the stream does not depend
// on the query or the bucket) and answers after it, bound by CallOptions::deadline and
// cancellation as every mock (mocks/answer_time.hpp); a call already cancelled when made
// draws nothing and costs no read units.
//
// Read units (`read_units`, optional; default: no limit): each query that reaches the
// index takes per_query read units from the bucket at the time it arrives, whether its
// answer then arrives in time or not. When the bucket holds too few, the call answers 429
// with the error code "rate_limit_exceeded", a message naming the limit, and
// Retry-After set to the whole seconds (RFC 9110 delay-seconds, rounded up) until the
// bucket will hold a query's units; a bucket that does not refill sends no Retry-After.
// These 429s come from load, not from the chaos layer, so they are not injected faults;
// rate_limited() counts them.
//
// The other faults of vector databases come from the chaos decorator every mock has
// (mocks/chaos/chaos_provider.hpp): timeout, rate_limited, overloaded, server_error, empty,
// and index_not_ready (503 while the index is built or loaded).
// Nothing is billed in USD: vector databases bill read units monthly, not per request.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/provider.hpp"
#include "engine/provider_descriptor.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/search_results_store.hpp"
#include "mocks/latency.hpp"
#include "mocks/mock_build.hpp"
#include "mocks/read_units.hpp"
#include "mocks/retry_after_text.hpp"
#include "mocks/vector_index.hpp"

namespace squall {

// The score threshold a vector_search step sends when it sets no min_score: seed 001's
// first rung. Its ladder relaxes it to 0.75, then to the floor 0.70, then switches to
// keyword mode (engine/strategies/relax_threshold.hpp).
inline constexpr double kDefaultMinScore = 0.85;
// The dimension the read-unit rule assumes for the index's vectors: OpenAI's
// text-embedding-3-small and ada-002 embeddings have 1536.
inline constexpr std::uint64_t kEmbeddingDimension = 1536;
// Pinecone's upper bound on a query's top_k.
inline constexpr std::int32_t kMaxTopK = 10'000;

// What one query of an index over `corpus` costs by Pinecone's rule (read_unit_cost_mru)
// with kEmbeddingDimension and the documents' title, link and snippet as metadata, in mRU.
std::int64_t default_query_cost_mru(const Corpus& corpus);

struct VectorSearchConfig {
  // The provider type's scenario `type`, its own keys (documentation order), the body it
  // answers with, and the latency its faulty answers borrow (mocks/mock_build.hpp).
  static constexpr ProviderKind kKind = ProviderKind::vector_search;
  static constexpr std::array<std::string_view, 4> kKeys{"corpus", "latency", "top_k", "read_units"};
  static constexpr Body kBody = Body::search_results;
  const LatencyConfig& fault_latency() const { return latency; }

  // Path of a JSONL corpus, as web_search's (mocks/corpus.hpp); relative paths are
  // resolved against the scenario file's directory.
  std::string corpus;
  LatencyConfig latency;
  // Hits returned at most when a request sets no top_k, in [1, 10000]. Default 10, the
  // common default of vector-store retrievers (LlamaIndex's similarity_top_k is 2,
  // LangChain's k 4; 10 is Pinecone's console default and a common RAG setting).
  std::int32_t top_k = 10;
  // The read-unit bucket. Default: none (no limit).
  std::optional<ReadUnitConfig> read_units;
};

class VectorSearchMock final : public Provider {
 public:
  // `index` must not be null; it is shared with other mocks reading the same corpus. The
  // clock, scheduler and rng must outlive the mock; `rng` is the mock's own stream.
  VectorSearchMock(std::string name, VectorSearchConfig config, std::shared_ptr<const VectorIndex> index, Clock& clock,
                   Scheduler& scheduler, Rng& rng);
  std::string_view name() const override { return name_; }
  Task<Response> call(Request request, CallOptions options) override;
  // Answers at once (engine/provider.hpp): the hits, the read units and the latency are
  // decided now.
  Task<Response> start(const Request& request, const CallOptions& options, Response& response,
                       ScheduledAnswer& answer) override;

  // 429s answered because read units ran out, so far.
  std::uint64_t rate_limited() const { return rate_limited_; }
  // What one query costs, in mRU (0 without a bucket).
  std::int64_t per_query_mru() const { return bucket_ ? bucket_->per_query_mru() : 0; }

 private:
  std::string name_;
  VectorSearchConfig config_;
  std::shared_ptr<const VectorIndex> index_;
  LatencyModel latency_;
  Clock& clock_;
  Scheduler& scheduler_;
  Rng& rng_;
  std::optional<ReadUnitBucket> bucket_;
  std::string limit_message_;    // the 429's message
  RetryAfterTexts retry_after_;  // the 429s' Retry-After values
  ErrorDetailsStore details_;    // the 429s' details, one per value
  VectorIndex::Scratch scratch_;
  // The hits of the call being answered, then kept once per distinct list (the answers
  // view them).
  std::vector<SearchResult> hits_;
  SearchResultsStore results_;
  std::uint64_t rate_limited_ = 0;
};

// This provider type's factory and its part of the routing descriptor (mocks/mock_build.hpp).
std::unique_ptr<Provider> make_mock(const VectorSearchConfig& config, const MockBuild& build);
void describe_into(const VectorSearchConfig& config, ProviderDescriptor& descriptor);

}  // namespace squall
