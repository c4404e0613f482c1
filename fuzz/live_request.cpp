// Live mode's request handling short of the socket (docs/live.md): the raw bytes of one
// HTTP/1.1 request through Boost.Beast's parser with the limits `squall serve` sets
// (live/http_session.hpp ServerLimits: body and header bytes, header fields), then routed
// by method and path as live/live_service.cpp routes (its /p/{provider}/{search,query}
// split included) to the body parsers of the wire formats (live/*_wire.hpp). An accepted
// embeddings request is answered in full (embeddings_body), as the server would.
// Properties: a refused body is a 400 with a JSON error body.
#include <boost/beast/http.hpp>
#include <variant>

#include "fuzz/fuzz_support.hpp"
#include "live/anthropic_wire.hpp"
#include "live/embeddings_wire.hpp"
#include "live/http_session.hpp"
#include "live/openai_wire.hpp"
#include "live/retrieval_wire.hpp"

namespace {

namespace http = boost::beast::http;
using squall::fuzz::require;
using squall::live::WireError;

template <typename Parsed>
void check_refusal(const Parsed& parsed) {
  if (const auto* error = std::get_if<WireError>(&parsed)) {
    require(error->status >= 400 && error->status < 500, "a refused body is a 4xx");
    require(!error->body.empty() && error->body.front() == '{', "a refusal has a JSON error body");
  }
}

// The body parsers behind `target`, as LiveService::handle and LiveService::retrieval route.
void route(http::verb method, std::string_view target, std::string_view body) {
  using namespace squall::live;
  const std::string_view path = target.substr(0, target.find('?'));
  if (method != http::verb::post) return;
  if (path == "/v1/chat/completions") return check_refusal(parse_chat_request(body));
  if (path == "/v1/messages") return check_refusal(parse_messages_request(body));
  if (path == "/v1/embeddings") {
    const auto parsed = parse_embeddings_request(body);
    check_refusal(parsed);
    if (const auto* request = std::get_if<EmbeddingsRequest>(&parsed)) {
      require(!embeddings_body(*request, 42).empty(), "an embeddings answer is written");
    }
    return;
  }
  if (!path.starts_with("/p/")) return;
  const std::string_view rest = path.substr(3);
  const std::size_t slash = rest.find('/');
  const std::string_view action = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  // live/retrieval_routes.cpp's two actions.
  if (action == "search") check_refusal(parse_retrieval_request(RetrievalKind::web_search, body));
  if (action == "query") check_refusal(parse_retrieval_request(RetrievalKind::vector_query, body));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const squall::live::ServerLimits limits;
  http::request_parser<http::string_body> parser;
  parser.body_limit(limits.body_limit);
  parser.header_limit(limits.header_limit);
  parser.eager(true);
  boost::beast::error_code error;
  const std::size_t used = parser.put(boost::asio::buffer(data, size), error);
  if (!error && !parser.is_done() && used == size) parser.put_eof(error);
  if (error || !parser.is_done()) return 0;  // 400, 413 or 431 from the session
  const auto& request = parser.get();
  if (static_cast<std::size_t>(std::distance(request.begin(), request.end())) > limits.max_headers) return 0;
  route(request.method(), std::string_view(request.target().data(), request.target().size()), request.body());
  return 0;
}
