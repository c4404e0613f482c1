#include "live/retrieval_wire.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include <fmt/format.h>

#include "mocks/vector_search.hpp"

namespace squall::live {
namespace {

using Json = nlohmann::ordered_json;

WireError invalid(std::string_view message, std::string_view param, std::string_view code) {
  return WireError{400, error_body(message, "invalid_request_error", param, code)};
}

std::optional<WireError> read_limit(const Json& body, std::string_view param, std::int32_t most,
                                    RetrievalRequest& request) {
  const auto it = body.find(param);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) return invalid_type(param, "an integer", *it);
  const std::int64_t n = it->get<std::int64_t>();
  if (n < 1 || n > most) {
    return invalid(fmt::format("Invalid value for '{}' = {}. Must be between 1 and {}.", param, it->dump(), most),
                   param, "invalid_value");
  }
  request.limit = static_cast<std::int32_t>(n);
  return std::nullopt;
}

std::optional<WireError> read_vector_options(const Json& body, RetrievalRequest& request) {
  if (auto error = read_limit(body, "top_k", kMaxTopK, request)) return error;
  if (const auto it = body.find("min_score"); it != body.end() && !it->is_null()) {
    if (!it->is_number()) return invalid_type("min_score", "a number", *it);
    request.min_score = it->get<double>();
    if (!(request.min_score >= 0 && request.min_score <= 1)) {
      return invalid(fmt::format("Invalid value for 'min_score' = {}. Must be between 0 and 1.", it->dump()),
                     "min_score", "invalid_value");
    }
  }
  if (const auto it = body.find("mode"); it != body.end() && !it->is_null()) {
    if (*it == "keyword") {
      request.mode = SearchMode::keyword;
    } else if (*it != "dense") {
      return invalid(fmt::format("{} is not one of ['dense', 'keyword'] - 'mode'",
                                 it->is_string() ? fmt::format("'{}'", it->get<std::string>()) : it->dump()),
                     "mode", "invalid_value");
    }
  }
  return std::nullopt;
}

Json document(const SearchResult& hit) {
  return Json{
      {"title", std::string(hit.title)}, {"link", std::string(hit.link)}, {"snippet", std::string(hit.snippet)}};
}

}  // namespace

std::variant<RetrievalRequest, WireError> parse_retrieval_request(RetrievalKind kind, std::string_view text) {
  Json body;
  if (auto error = read_json_object(text, body)) return std::move(*error);
  RetrievalRequest request;
  const auto query = body.find("query");
  if (query == body.end() || query->is_null()) {
    return invalid("Missing required parameter: 'query'.", "query", "missing_required_parameter");
  }
  if (!query->is_string()) return invalid_type("query", "a string", *query);
  request.query = query->get<std::string>();
  if (request.query.empty()) {
    return invalid(
        "Invalid 'query': empty string. Expected a string with minimum length 1, but got an empty string "
        "instead.",
        "query", "empty_string");
  }
  if (kind == RetrievalKind::web_search) {
    if (auto error = read_limit(body, "max_results", kMaxWebResults, request)) return std::move(*error);
  } else if (auto error = read_vector_options(body, request)) {
    return std::move(*error);
  }
  return request;
}

std::string retrieval_body(RetrievalKind kind, const RetrievalRequest& request, std::span<const SearchResult> hits) {
  Json list = Json::array();
  if (kind == RetrievalKind::web_search) {
    const std::size_t most = request.limit > 0 ? static_cast<std::size_t>(request.limit) : hits.size();
    for (std::size_t i = 0; i < hits.size() && i < most; ++i) list.push_back(document(hits[i]));
    return Json{{"object", "search.results"}, {"query", request.query}, {"results", std::move(list)}}.dump();
  }
  for (const SearchResult& hit : hits) {
    list.push_back(Json{{"id", std::string(hit.link)}, {"score", hit.score}, {"metadata", document(hit)}});
  }
  return Json{{"object", "vector.matches"},
              {"query", request.query},
              {"mode", std::string(to_string(request.mode))},
              {"matches", std::move(list)}}
      .dump();
}

WireError retrieval_error(const Response& response, std::string_view provider) {
  if (response.status == 429 || response.status >= 500) return provider_error(response, provider);
  const ErrorDetails& details = response.details();
  return WireError{response.status, error_body(details.error_message.empty() ? std::string_view("Invalid request.")
                                                                             : details.error_message,
                                               "invalid_request_error", "", details.error_code)};
}

std::string RetrievalWire::body(const Response& response) const {
  if (!response.details().body_error.empty()) return std::string(response.details().body_error);  // masked error
  return retrieval_body(kind_, request_, response.results());
}

}  // namespace squall::live
