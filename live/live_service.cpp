#include "live/live_service.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <variant>

#include <fmt/format.h>

#include "engine/runtime/cancellable_sleep.hpp"
#include "engine/runtime/rng.hpp"
#include "live/embeddings_wire.hpp"

namespace squall::live {
namespace {

constexpr std::string_view kChatEndpoint = "chat.completions";
constexpr std::string_view kMessagesEndpoint = "messages";

bool is_2xx(const Response& r) { return r.status >= 200 && r.status < 300; }

// A header's value, "" when absent.
std::string_view field_of(const http::fields& fields, std::string_view name) {
  const auto it = fields.find(boost::beast::string_view(name.data(), name.size()));
  return it == fields.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
}

void reply_json(HttpSession& session, WireError error) {
  HttpResponse response{static_cast<http::status>(error.status), 11};
  response.set(http::field::content_type, "application/json");
  response.body() = std::move(error.body);
  session.reply(std::move(response));
}

}  // namespace

struct LiveService::Exchange {
  LiveProvider* provider = nullptr;
  Request call;
  bool stream = false;
  std::string_view endpoint;  // the tool of the chaos decisions
  std::string query;          // the text call.query views
  bool prompt_only = false;   // an embedding (LiveWorld::call)
  RequestIdentity identity;
  std::unique_ptr<WireFormat> wire;
  TimePoint received = 0;
  std::uint64_t tracked = 0;  // the client tracker's id of the request
};

// A streamed answer's call, run beside the coroutine that paces the stream.
struct LiveService::CallState {
  explicit CallState(CancellationToken stopping) : cancel(stopping) {}
  GenerationMeter meter;
  Response response;
  bool done = false;
  CancellationSource wake;  // fired when the call ends
  // Fired when the server stops or the client is gone (the stream could not be written):
  // the call ends, billed what was generated (behind a capacity layer its slot stays held
  // until the generation would have ended: mocks/capacity/capacity_provider.hpp).
  CancellationSource cancel;
};

LiveService::LiveService(LiveWorld& world, RealTimeLoop& loop, std::function<void()> on_stop,
                         std::uint32_t loop_resends)
    : world_(world), loop_(loop), on_stop_(std::move(on_stop)), mcp_sessions_(world.seed()), clients_(loop_resends) {}

HttpResponse LiveService::json_response(http::status status, std::string body) const {
  HttpResponse response{status, 11};
  // 529 is no IANA status: Beast has no phrase for it and would print "<unknown-status>".
  if (static_cast<int>(status) == 529) response.reason("Overloaded");
  response.set(http::field::content_type, "application/json");
  response.body() = std::move(body);
  return response;
}

void LiveService::handle(const std::shared_ptr<HttpSession>& session, HttpRequest&& request) {
  try {
    track(*session, request);
    route(session, request);
    tracked_ = 0;
  } catch (const std::exception& e) {
    // A bug: this client gets a 500 and the others are still served, but the run ends
    // as an internal error (serve rethrows error()).
    if (!error_) error_ = std::current_exception();
    if (session->awaiting_answer()) {
      session->reply(
          json_response(http::status::internal_server_error,
                        error_body(fmt::format("squall had an internal error: {}", e.what()), "server_error", "", "")),
          /*close=*/true);
    }
  }
}

void LiveService::track(HttpSession& session, const HttpRequest& request) {
  tracked_ = 0;
  const std::string_view target(request.target().data(), request.target().size());
  const std::string_view path = target.substr(0, target.find('?'));
  if (request.method() != http::verb::post || !(path.starts_with("/v1/") || path.starts_with("/p/"))) return;
  const std::string_view named = field_of(request, "x-squall-client");
  const std::uint64_t id =
      clients_.arrive(ClientRequest{named.empty() ? std::string_view(session.peer()) : named, path, request.body(),
                                    field_of(request, "x-envoy-attempt-count"),
                                    field_of(request, "x-stainless-retry-count"), loop_.real_duration(loop_.now())});
  tracked_ = id;
  session.watch({[this, id](const http::response_header<>& head, std::string_view body) {
                   clients_.answered(id, read_answer(static_cast<int>(head.result_int()), field_of(head, "retry-after"),
                                                     field_of(head, "retry-after-ms"), field_of(head, "x-should-retry"),
                                                     body, loop_.real_duration(loop_.now())));
                 },
                 [this, id] { clients_.ended(id); }});
}

void LiveService::route(const std::shared_ptr<HttpSession>& session, const HttpRequest& request) {
  const std::string_view target(request.target().data(), request.target().size());
  const std::string_view path = target.substr(0, target.find('?'));
  if (stopped_) {
    session->refuse("The server is shutting down.");
    return;
  }
  if (request.method() == http::verb::post && path == "/v1/chat/completions") {
    chat(session, request);
    return;
  }
  if (request.method() == http::verb::post && path == "/v1/messages") {
    messages(session, request);
    return;
  }
  if (request.method() == http::verb::post && path == "/v1/embeddings") {
    embeddings(session, request);
    return;
  }
  if (path.starts_with("/p/") && path.ends_with("/mcp") && path.find('/', 3) == path.size() - 4) {
    mcp(session, request, path.substr(3, path.size() - 7));
    return;
  }
  if (request.method() == http::verb::post && path.starts_with("/p/")) {
    retrieval(session, request, path);
    return;
  }
  if (request.method() == http::verb::get && path == "/v1/models") {
    std::vector<std::string> models;
    for (const LiveProvider* p : world_.llms()) {
      const auto& llm = std::get<LlmConfig>(p->config->spec);
      models.push_back(llm.model.empty() ? p->config->name : llm.model);
    }
    session->reply(json_response(http::status::ok, models_body(models, world_.start_unix_seconds())));
    return;
  }
  if (request.method() == http::verb::post && path == "/squall/v1/stop") {
    session->reply(json_response(http::status::ok, R"({"stopping":true})"));
    // The reply is queued first: the stop cancels what is in flight, not this answer.
    if (on_stop_) on_stop_();
    return;
  }
  invalid_url(*session, request, path);
}

void LiveService::invalid_url(HttpSession& session, const HttpRequest& request, std::string_view path) const {
  const std::string method(request.method_string().data(), request.method_string().size());
  session.reply(json_response(http::status::not_found, error_body(fmt::format("Invalid URL ({} {})", method, path),
                                                                  "invalid_request_error", "", "")));
}

void LiveService::chat(const std::shared_ptr<HttpSession>& session, const HttpRequest& request) {
  auto parsed = parse_chat_request(request.body());
  if (auto* error = std::get_if<WireError>(&parsed)) return reply_json(*session, std::move(*error));
  const ChatRequest& chat = std::get<ChatRequest>(parsed);
  LiveProvider* provider = world_.find_llm(chat.model);
  if (provider == nullptr) return reply_json(*session, unknown_model(chat.model));
  Request call;
  call.prompt_tokens = chat.prompt_tokens;
  call.max_output_tokens = chat.max_output_tokens;
  begin(session, request, *provider, kChatEndpoint, call, chat.stream,
        [&chat](std::uint64_t who, std::int64_t created) {
          return std::make_unique<OpenAiWire>(
              CompletionIds{fmt::format("chatcmpl-squall{:016x}", who), created, chat.model},
              fmt::format("req_{:016x}", who), chat.include_usage);
        });
}

void LiveService::messages(const std::shared_ptr<HttpSession>& session, const HttpRequest& request) {
  auto parsed = parse_messages_request(request.body());
  if (auto* error = std::get_if<WireError>(&parsed)) return reply_json(*session, std::move(*error));
  const MessagesRequest& message = std::get<MessagesRequest>(parsed);
  LiveProvider* provider = world_.find_llm(message.model);
  if (provider == nullptr) return reply_json(*session, anthropic_unknown_model(message.model));
  Request call;
  call.prompt_tokens = message.input_tokens;
  call.max_output_tokens = message.max_tokens;
  const std::int64_t context_window = std::get<LlmConfig>(provider->config->spec).context_window;
  begin(session, request, *provider, kMessagesEndpoint, call, message.stream, [&](std::uint64_t who, std::int64_t) {
    return std::make_unique<AnthropicWire>(MessageIds{fmt::format("msg_squall{:016x}", who), message.model},
                                           fmt::format("req_squall{:016x}", who), message.input_tokens, context_window);
  });
}

void LiveService::begin(const std::shared_ptr<HttpSession>& session, const HttpRequest& request, LiveProvider& provider,
                        std::string_view endpoint, Request call, bool stream, const WireFactory& make_wire,
                        std::string query) {
  std::optional<std::string_view> key;
  if (const auto it = request.find("idempotency-key"); it != request.end()) {
    key = std::string_view(it->value().data(), it->value().size());
  }
  auto exchange = std::make_shared<Exchange>();
  exchange->provider = &provider;
  exchange->call = call;
  exchange->query = std::move(query);
  if (!exchange->query.empty()) exchange->call.query = exchange->query;
  exchange->stream = stream;
  exchange->endpoint = endpoint;
  exchange->prompt_only = endpoint == kEmbeddingsEndpoint;
  exchange->identity = world_.identify(provider, key);
  const std::uint64_t who = stream_seed(exchange->identity.request, provider.config->name) ^
                            static_cast<std::uint64_t>(exchange->identity.attempt);
  exchange->wire = make_wire(who, world_.start_unix_seconds() + loop_.now() / kSecond);
  exchange->received = loop_.now();
  exchange->tracked = tracked_;
  clients_.input_tokens(tracked_, call.prompt_tokens);
  ++in_flight_;
  if (stream) {
    spawn(answer_stream(session, std::move(exchange)), &error_);
  } else {
    spawn(answer(session, std::move(exchange)), &error_);
  }
}

Task<void> LiveService::answer(std::shared_ptr<HttpSession> session, std::shared_ptr<Exchange> exchange) {
  const Response response = co_await world_.call(*exchange->provider, exchange->call, exchange->identity,
                                                 exchange->endpoint, nullptr, stopping_.token(), exchange->prompt_only);
  --in_flight_;
  if (response.transport != Transport::ok) {
    session->abort();  // an injected hang past its cap, or the server stopping: no answer
    co_return;
  }
  if (!is_2xx(response)) {
    reply_error(*session, *exchange, response);
    co_return;
  }
  HttpResponse reply = json_response(http::status::ok, exchange->wire->body(response));
  add_headers(reply.base(), *exchange, response);
  session->reply(std::move(reply));
}

Task<void> LiveService::run_call(std::shared_ptr<Exchange> exchange, CallState* state) {
  state->response = co_await world_.call(*exchange->provider, exchange->call, exchange->identity, exchange->endpoint,
                                         &state->meter, state->cancel.token());
  state->done = true;
  state->wake.cancel();
}

void LiveService::begin_stream(HttpSession& session, const Exchange& exchange, const Response& response) {
  http::response_header<> head;
  head.result(http::status::ok);
  head.set(http::field::content_type, "text/event-stream; charset=utf-8");
  add_headers(head, exchange, response);
  session.begin_stream(std::move(head));
  session.send(exchange.wire->stream_start());
}

Task<void> LiveService::answer_stream(std::shared_ptr<HttpSession> session, std::shared_ptr<Exchange> exchange) {
  CallState state(stopping_.token());
  spawn(run_call(exchange, &state), &error_);
  const double tokens_per_second = std::get<LlmConfig>(exchange->provider->config->spec).tokens_per_second;
  // One poll per token interval: a token is sent at most one interval after it is due.
  const Nanos interval = std::max<Nanos>(kMillisecond, static_cast<Nanos>(std::ceil(1e9 / tokens_per_second)));
  std::int64_t sent = 0;
  bool started = false;
  while (!state.done) {
    co_await sleep_until(loop_, add_saturating(loop_.now(), interval), state.wake.token());
    if (!session->open()) state.cancel.cancel();  // the client is gone: end the call (once)
    if (state.done || !state.meter.usage_at || !session->open()) continue;
    // Through a capacity layer the meter also carries the rate-limit headers of the answer.
    const Response usage = state.meter.usage_at(loop_.now());
    const std::int64_t ready = usage.output_tokens;
    if (ready > 0 && !started) {
      begin_stream(*session, *exchange, usage);
      started = true;
    }
    for (; sent < ready; ++sent) session->send(exchange->wire->stream_token(sent));
  }
  --in_flight_;
  finish_stream(*session, *exchange, state.response, sent, started);
}

void LiveService::finish_stream(HttpSession& session, const Exchange& exchange, const Response& response,
                                std::int64_t& sent, bool& started) {
  if (response.transport != Transport::ok) {
    session.abort();
    return;
  }
  if (!started) {
    // An error before any token is an ordinary error answer; a stream cut after k tokens
    // that ended before the first poll saw them is still those k tokens, then the error.
    if (!is_2xx(response) && response.output_tokens == 0) {
      reply_error(session, exchange, response);
      return;
    }
    begin_stream(session, exchange, response);
    started = true;
  }
  for (; sent < response.output_tokens; ++sent) session.send(exchange.wire->stream_token(sent));
  // A cut stream: the tokens sent so far, then the error, as the APIs fail mid-stream.
  if (!is_2xx(response)) clients_.stream_failed(exchange.tracked);
  session.send(is_2xx(response) ? exchange.wire->stream_end(response) : exchange.wire->stream_error(response));
  session.end_stream();
}

void LiveService::reply_error(HttpSession& session, const Exchange& exchange, const Response& response) {
  WireError error = exchange.wire->error(response);
  HttpResponse reply = json_response(static_cast<http::status>(error.status), std::move(error.body));
  add_headers(reply.base(), exchange, response);
  session.reply(std::move(reply));
}

std::string LiveService::scaled_delay(std::string_view value, Nanos unit) const {
  if (loop_.time_scale() == 1) return std::string(value);
  double amount = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), amount);
  if (ec != std::errc() || end != value.data() + value.size() || amount < 0) return std::string(value);  // a date
  const Nanos real = loop_.real_duration(static_cast<Nanos>(amount * static_cast<double>(unit)));
  return fmt::format("{}", (real + unit - 1) / unit);
}

void LiveService::add_headers(http::response_header<>& head, const Exchange& exchange, const Response& response) const {
  const HeaderTimes times{loop_.real_duration(loop_.now() - exchange.received),
                          world_.start_unix_seconds() * 1000 + loop_.real_duration(loop_.now()) / kMillisecond,
                          loop_.time_scale()};
  exchange.wire->add_headers(head, response, times);
  const ErrorDetails& details = response.details();
  if (!details.retry_after.empty()) head.set(http::field::retry_after, scaled_delay(details.retry_after, kSecond));
  if (!details.retry_after_ms.empty()) head.set("retry-after-ms", scaled_delay(details.retry_after_ms, kMillisecond));
  if (!details.should_retry.empty()) head.set("x-should-retry", std::string(details.should_retry));
}

void LiveService::stop() {
  if (stopped_) return;
  stopped_ = true;
  stopping_.cancel();
}

}  // namespace squall::live
