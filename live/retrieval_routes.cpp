// LiveService's embeddings, search and retrieval endpoints (docs/live.md): each parses its
// body, finds its provider and hands the exchange to LiveService::begin, as chat
// completions do, so that faults, latency and capacity come from the same path.
#include <fmt/format.h>

#include "engine/runtime/rng.hpp"
#include "live/embeddings_wire.hpp"
#include "live/live_service.hpp"
#include "live/retrieval_wire.hpp"

namespace squall::live {
namespace {

// The tools of the chaos decisions (docs/live.md, "Determinism").
constexpr std::string_view kSearchEndpoint = "search";
constexpr std::string_view kQueryEndpoint = "query";

}  // namespace

void LiveService::embeddings(const std::shared_ptr<HttpSession>& session, const HttpRequest& request) {
  auto parsed = parse_embeddings_request(request.body());
  if (auto* error = std::get_if<WireError>(&parsed)) {
    session->reply(json_response(static_cast<http::status>(error->status), std::move(error->body)));
    return;
  }
  EmbeddingsRequest& embed = std::get<EmbeddingsRequest>(parsed);
  LiveProvider* provider = world_.find_llm(embed.model);
  if (provider == nullptr) {
    WireError error = unknown_model(embed.model);
    session->reply(json_response(static_cast<http::status>(error.status), std::move(error.body)));
    return;
  }
  // An embedding is the model's prompt pass alone: the llm's time to first token, one
  // output token (the mock generates at least one; it is billed).
  Request call;
  call.prompt_tokens = embed.prompt_tokens;
  call.max_output_tokens = 1;
  const std::uint64_t key = stream_seed(world_.seed(), provider->config->name);
  begin(session, request, *provider, kEmbeddingsEndpoint, call, false, [&](std::uint64_t who, std::int64_t) {
    return std::make_unique<EmbeddingsWire>(std::move(embed), key, fmt::format("req_{:016x}", who));
  });
}

void LiveService::retrieval(const std::shared_ptr<HttpSession>& session, const HttpRequest& request,
                            std::string_view path) {
  const std::string_view rest = path.substr(3);  // after "/p/"
  const std::size_t slash = rest.find('/');
  const std::string_view name = rest.substr(0, slash);
  const std::string_view action = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  if (action != kSearchEndpoint && action != kQueryEndpoint) return invalid_url(*session, request, path);
  const RetrievalKind kind = action == kSearchEndpoint ? RetrievalKind::web_search : RetrievalKind::vector_query;
  const ProviderKind wanted =
      kind == RetrievalKind::web_search ? ProviderKind::web_search : ProviderKind::vector_search;
  LiveProvider* provider = world_.find(name);
  if (provider == nullptr) {
    session->reply(json_response(http::status::not_found,
                                 error_body(fmt::format("The provider `{}` does not exist in this scenario.", name),
                                            "invalid_request_error", "", "provider_not_found")));
    return;
  }
  const ProviderKind kind_found = describe(*provider->config).kind;
  if (kind_found != wanted) {
    session->reply(
        json_response(http::status::bad_request,
                      error_body(fmt::format("The provider `{}` is a {} provider: POST /p/{}/{} serves {} providers.",
                                             name, to_string(kind_found), name, action, to_string(wanted)),
                                 "invalid_request_error", "", "wrong_provider_type")));
    return;
  }
  auto parsed = parse_retrieval_request(kind, request.body());
  if (auto* error = std::get_if<WireError>(&parsed)) {
    session->reply(json_response(static_cast<http::status>(error->status), std::move(error->body)));
    return;
  }
  RetrievalRequest& search = std::get<RetrievalRequest>(parsed);
  Request call;
  call.top_k = kind == RetrievalKind::vector_query ? search.limit : 0;
  call.min_score = search.min_score;
  call.mode = search.mode;
  std::string query = search.query;
  begin(
      session, request, *provider, action == kSearchEndpoint ? kSearchEndpoint : kQueryEndpoint, call, false,
      [&](std::uint64_t who, std::int64_t) {
        return std::make_unique<RetrievalWire>(kind, std::move(search), std::string(name),
                                               fmt::format("req_{:016x}", who));
      },
      std::move(query));
}

}  // namespace squall::live
