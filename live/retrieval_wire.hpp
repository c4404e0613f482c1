// The wire shapes of squall's search and retrieval endpoints, one JSON shape each
// (docs/live.md, "Search and retrieval"), served for the scenario's web_search and
// vector_search providers at POST /p/{provider}/search and POST /p/{provider}/query.
//
//   web search   request  {"query": "...", "max_results": N (optional, 1..100)}
//                answer   {"object": "search.results", "query", "results": [{"title", "link",
//                          "snippet"}]}: the mock's hits in its order, at most max_results
//   vector query request  {"query": "...", "top_k": N (optional, 1..10000; the provider's
//                          top_k when absent), "min_score": S (optional, 0..1, dense mode
//                          only; default 0: no threshold, as a vector database applies
//                          none unless asked), "mode": "dense" | "keyword" (default dense)}
//                answer   {"object": "vector.matches", "query", "mode", "matches": [{"id",
//                          "score", "metadata": {"title", "link", "snippet"}}]}: best first;
//                          the id is the document's link, which the corpus keys it by
//
// Errors are the OpenAI wire's {"error": {"message", "type", "param", "code"}}: 400
// invalid_request_error for invalid bodies (each wording in docs/live.md), and a provider's
// 429 and 5xx as chat completions answer them (openai_wire.hpp provider_error).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/call.hpp"
#include "live/openai_wire.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

// The cap on a web search request's max_results (the page size most search APIs allow).
inline constexpr std::int32_t kMaxWebResults = 100;

enum class RetrievalKind : std::uint8_t { web_search, vector_query };

struct RetrievalRequest {
  std::string query;
  std::int32_t limit = 0;  // max_results or top_k; 0 when absent
  double min_score = 0;
  SearchMode mode = SearchMode::dense;
};

// Parses a search (web_search) or query (vector_search) body.
std::variant<RetrievalRequest, WireError> parse_retrieval_request(RetrievalKind kind, std::string_view body);
// The answer to `request` with the provider's `hits`.
std::string retrieval_body(RetrievalKind kind, const RetrievalRequest& request, std::span<const SearchResult> hits);
// What a provider's non-2xx answer becomes (429 and 5xx as provider_error names them).
WireError retrieval_error(const Response& response, std::string_view provider);

class RetrievalWire final : public UnstreamedOpenAiWire {
 public:
  RetrievalWire(RetrievalKind kind, RetrievalRequest request, std::string provider, std::string request_id)
      : UnstreamedOpenAiWire(std::move(request_id)),
        kind_(kind),
        request_(std::move(request)),
        provider_(std::move(provider)) {}
  std::string body(const Response& response) const override;
  WireError error(const Response& response) const override { return retrieval_error(response, provider_); }

 private:
  RetrievalKind kind_;
  RetrievalRequest request_;
  std::string provider_;
};

}  // namespace squall::live
