// web_search: a search engine over a small shipped corpus, stricter than a real one.
//
// A query matches a document when every term of the query occurs in the document's
// title or snippet (case-insensitive, whole words; punctuation splits words), and every
// double-quoted phrase occurs verbatim (case-insensitive, on word boundaries); the exact
// rules are in mocks/query_matcher.hpp. Over-specific queries therefore really come back
// empty, and simplification (engine/strategies/simplify_query.hpp) really helps. Hits are
// returned in corpus order, at most max_results, shaped like public search APIs' items
// (title, link, snippet), as views into the shared corpus.
//
// Each call draws one latency sample (before matching, so the stream does not depend on
// the query) and answers 200 after it, with or without hits; when the answer would come
// after CallOptions::deadline the call returns at the deadline with Transport::timeout
// (mocks/answer_time.hpp); when CallOptions::cancellation fires first it returns at once
// with Transport::cancelled, and a call already cancelled when made draws nothing.
// Nothing is billed: search APIs price per request, not per token.
#pragma once

#include <array>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/provider.hpp"
#include "engine/provider_descriptor.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/text_memo.hpp"
#include "engine/search_results_store.hpp"
#include "mocks/corpus.hpp"
#include "mocks/latency.hpp"
#include "mocks/mock_build.hpp"
#include "mocks/query_matcher.hpp"

namespace squall {

struct WebSearchConfig {
  // The provider type's scenario `type`, its own keys (documentation order), the body it
  // answers with, and the latency its faulty answers borrow (mocks/mock_build.hpp).
  static constexpr ProviderKind kKind = ProviderKind::web_search;
  static constexpr std::array<std::string_view, 3> kKeys{"corpus", "latency", "max_results"};
  static constexpr Body kBody = Body::search_results;
  const LatencyConfig& fault_latency() const { return latency; }

  // Path of a JSONL corpus, one {"title", "link", "snippet"} object per line; relative
  // paths are resolved against the scenario file's directory.
  std::string corpus;
  LatencyConfig latency;
  // Hits returned at most (0: none). Default 10, the page size of most search APIs.
  std::int32_t max_results = 10;
};

class WebSearchMock final : public Provider {
 public:
  // `corpus` must not be null; it is shared with other mocks reading the same file. The
  // clock, scheduler and rng must outlive the mock; `rng` is the mock's own stream.
  WebSearchMock(std::string name, WebSearchConfig config, std::shared_ptr<const Corpus> corpus, Clock& clock,
                Scheduler& scheduler, Rng& rng);
  std::string_view name() const override { return name_; }
  Task<Response> call(Request request, CallOptions options) override;
  // Answers at once (engine/provider.hpp): the hits and the latency are decided now.
  Task<Response> start(const Request& request, const CallOptions& options, Response& response,
                       ScheduledAnswer& answer) override;

 private:
  std::string name_;
  WebSearchConfig config_;
  std::shared_ptr<const Corpus> corpus_;
  LatencyModel latency_;
  Clock& clock_;
  Scheduler& scheduler_;
  Rng& rng_;
  QueryMatcher matcher_;  // reads *corpus_; declared after it
  // The kept hit list that answers `query` (results_), matched on its first sight.
  std::span<const SearchResult> answer_for(std::string_view query);
  // The hits of a query being matched, then kept once per distinct list (the answers
  // view them).
  std::vector<SearchResult> hits_;
  SearchResultsStore results_;
  // The answer per distinct query text. An answer depends on nothing but the query (the
  // corpus and max_results are fixed), and a run asks the same few queries again and
  // again, so matching them (the matcher's memo lookup, a copy of the hits, the store's
  // comparison) was done once per call for the same answer. The memo changes no answer,
  // only its cost (engine/runtime/text_memo.hpp); a kept list never moves, so its view
  // stays valid whether the memo kept it or not.
  TextMemo<std::span<const SearchResult>> answers_;
};

// This provider type's factory and its part of the routing descriptor (mocks/mock_build.hpp).
std::unique_ptr<Provider> make_mock(const WebSearchConfig& config, const MockBuild& build);
void describe_into(const WebSearchConfig& config, ProviderDescriptor& descriptor);

}  // namespace squall
