// LiveService: the routes of `squall serve` and the exchanges behind them.
//
//   POST /v1/chat/completions   OpenAI chat completions, whole or streamed (SSE)
//   POST /v1/messages           Anthropic messages, whole or streamed (SSE)
//   /p/{provider}/mcp           MCP over Streamable HTTP for a tool provider (live/mcp_routes.cpp)
//   GET  /v1/models             the scenario's llm providers, by model
//   POST /squall/v1/stop        stop serving (as SIGINT/SIGTERM or --duration do)
//   anything else               404, OpenAI's "Invalid URL (METHOD /path)"
//
// Request bodies are parsed by the bounded parser of live/request_json.hpp. A streaming
// client that disconnects is noticed when a write to it fails: its call is cancelled then
// (the report counts it as `cancelled`); a client of a whole answer that leaves is noticed
// only when the answer is written, and its call counts as the provider answered it.
//
// A chat completion or a message goes to the llm provider whose `model` the request names
// (LiveWorld::find_llm; none: the API's 404), through the provider's whole stack (chaos,
// capacity, mock) on the real-time clock, as the request LiveWorld::identify() says it
// is. Both APIs share that exchange; each writes its answer in its own shapes (a
// WireFormat: live/openai_wire.hpp, live/anthropic_wire.hpp) with its request id and
// rate-limit headers, and retry-after / retry-after-ms scaled to real time (below).
//
// A streamed completion sends its 200 and role chunk when the first token is due, then
// each token as it is due by the model's time to first token and tokens per second (the
// llm mock's GenerationMeter, polled once per token interval on the real-time clock); an
// error before the first token is an ordinary error answer, a stream cut after k tokens is
// those k chunks and then an error event, as both APIs send a mid-stream failure.
//
// Delays a fault asks for (Retry-After: 2, retry-after-ms: 1500) are scenario time; at
// --time-scale X they are sent divided by X (seconds rounded up), so that a client that
// honours them waits the scaled time. HTTP-dates are sent as the scenario made them.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>

#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/task.hpp"
#include "live/anthropic_wire.hpp"
#include "live/client_tracker.hpp"
#include "live/http_session.hpp"
#include "live/live_world.hpp"
#include "live/mcp_sessions.hpp"
#include "live/mcp_wire.hpp"
#include "live/openai_wire.hpp"
#include "live/real_time_loop.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

class LiveService {
 public:
  // `on_stop` is called when a client asks to stop (POST /squall/v1/stop), after its reply
  // is queued.
  // `loop_resends`: --loop-resends, the re-sends of one payload that make a loop
  // (live/client_tracker.hpp).
  LiveService(LiveWorld& world, RealTimeLoop& loop, std::function<void()> on_stop, std::uint32_t loop_resends = 5);

  // Answers one request. An exception escaping a route (a bug) answers 500 and is kept
  // in error().
  void handle(const std::shared_ptr<HttpSession>& session, HttpRequest&& request);
  // Refuses new requests (503) and ends every provider call in flight at once, as a
  // cancelled call ends (Transport::cancelled); their connections are closed.
  void stop();
  // Exchanges whose answer is not finished.
  std::size_t in_flight() const { return in_flight_; }
  // An exception a handler's coroutine threw (a bug), or null.
  std::exception_ptr error() const { return error_; }
  // How the clients retried (the report's `clients`): every POST to a provider endpoint.
  ClientReport client_report() const { return clients_.report(); }

 private:
  struct Exchange;
  struct CallState;
  // Makes an exchange's WireFormat from its seeded id (`who`) and its `created` (Unix s).
  using WireFactory = std::function<std::unique_ptr<WireFormat>(std::uint64_t who, std::int64_t created)>;
  void route(const std::shared_ptr<HttpSession>& session, const HttpRequest& request);
  // Tells the client tracker of a request to a provider endpoint, and of its answer.
  void track(HttpSession& session, const HttpRequest& request);
  void chat(const std::shared_ptr<HttpSession>& session, const HttpRequest& request);
  void messages(const std::shared_ptr<HttpSession>& session, const HttpRequest& request);
  // POST /v1/embeddings, served by an llm provider (live/retrieval_routes.cpp).
  void embeddings(const std::shared_ptr<HttpSession>& session, const HttpRequest& request);
  // POST /p/{provider}/search and /p/{provider}/query (live/retrieval_routes.cpp).
  void retrieval(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, std::string_view path);
  // /p/{provider}/mcp, either era (live/mcp_routes.cpp).
  void mcp(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, std::string_view name);
  void mcp_session_era(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, LiveProvider& provider,
                       McpMessage message);
  void mcp_stateless(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, LiveProvider& provider,
                     McpMessage message);
  void mcp_initialize(HttpSession& session, const LiveProvider& provider, const McpMessage& message);
  // tools/call: the call through the provider's stack; `session_id` is the session era's.
  void mcp_tool_call(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, LiveProvider& provider,
                     const McpMessage& message, std::string session_id);
  void mcp_delete(HttpSession& session, const HttpRequest& request, const LiveProvider& provider);
  // The exchange every endpoint shares, once the request is parsed and its provider found.
  // `query`, when the call has one, is kept by the exchange and viewed by its Request.
  void begin(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, LiveProvider& provider,
             std::string_view endpoint, Request call, bool stream, const WireFactory& make_wire,
             std::string query = {});
  Task<void> answer(std::shared_ptr<HttpSession> session, std::shared_ptr<Exchange> exchange);
  Task<void> answer_stream(std::shared_ptr<HttpSession> session, std::shared_ptr<Exchange> exchange);
  Task<void> run_call(std::shared_ptr<Exchange> exchange, CallState* state);
  // The 200 of a stream and its opening events.
  void begin_stream(HttpSession& session, const Exchange& exchange, const Response& response);
  // The sends of a streamed answer, once its call has ended (below: answer_stream).
  void finish_stream(HttpSession& session, const Exchange& exchange, const Response& response, std::int64_t& sent,
                     bool& started);
  HttpResponse json_response(http::status status, std::string body) const;
  // 404 `Invalid URL (METHOD /path)`, as the API answers a path it does not serve.
  void invalid_url(HttpSession& session, const HttpRequest& request, std::string_view path) const;
  void add_headers(http::response_header<>& head, const Exchange& exchange, const Response& response) const;
  void reply_error(HttpSession& session, const Exchange& exchange, const Response& response);
  std::string scaled_delay(std::string_view value, Nanos unit) const;

  LiveWorld& world_;
  RealTimeLoop& loop_;
  std::function<void()> on_stop_;
  CancellationSource stopping_;
  bool stopped_ = false;
  std::size_t in_flight_ = 0;
  McpSessions mcp_sessions_;
  ClientTracker clients_;
  std::uint64_t tracked_ = 0;  // the tracker's id of the request being routed (0: none)
  std::exception_ptr error_;
};

}  // namespace squall::live
