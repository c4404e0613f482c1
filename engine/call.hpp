// The shapes that cross the engine's provider seam: Request, Response, and the contexts
// a logical call carries through the strategy pipeline.
#pragma once

#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error_details.hpp"
#include "engine/outcome.hpp"
#include "engine/pool_query.hpp"
#include "engine/provider_descriptor.hpp"
#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/time.hpp"
#include "engine/strategies/escalation.hpp"

namespace squall {

// One search hit, shaped like the result items of public search APIs. The views point
// into storage the provider owns for the whole run (the mock's corpus).
struct SearchResult {
  std::string_view title;
  std::string_view link;
  std::string_view snippet;
  std::int64_t snippet_tokens = 0;  // tokens the snippet adds to a prompt that quotes it
  // The hit's relevance as the provider scores it: vector search's similarity (dense
  // mode) or BM25 score (keyword mode), mocks/vector_search.hpp; 0 from web search,
  // which ranks without scores.
  double score = 0;
};

// How a vector search ranks documents. X(name, how)
#define SQUALL_SEARCH_MODES(X)                                               \
  X(dense, "similarity of embedding vectors, filtered by a score threshold") \
  X(keyword, "BM25 over the documents' words, no threshold (the sparse index)")

enum class SearchMode : std::uint8_t { SQUALL_SEARCH_MODES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kSearchModeCount = 0 SQUALL_SEARCH_MODES(SQUALL_COUNT);
std::string_view to_string(SearchMode mode);

// What the engine asks a provider for. Search providers read `query`; LLM providers read
// the token fields. A Request is a value of 72 bytes that owns nothing: the task runner
// builds its step's request afresh whenever the fused call needs it (engine/fused_call.hpp),
// and a provider's coroutine copies it (Provider::call).
struct Request {
  // The query text, a view. Its owner keeps it alive while the request is in use: the
  // workload's pool (the task's query as drawn), or the strategy that changed it
  // (simplify_query's rungs, rewrite_query's rewrites). A change is scoped to the call:
  // a strategy that changes the query restores the one it was given before it returns
  // (change_query, engine/strategies/simplify_query.hpp), so a caller never sees a text
  // that lived in a finished strategy's frame.
  std::string_view query;
  // The workload entry the task's query was drawn from (engine/pool_query.hpp), for what
  // only the simulator knows about it: its intended form, which an LLM rewrite can reach,
  // and the documents that answer it. Null for requests without a pool query.
  const PoolQuery* origin = nullptr;
  // Vector search parameters (mocks/vector_search.hpp); other providers ignore them. (The
  // members are ordered by size, so that the 4- and 1-byte ones share words: a task in
  // copy of a Request is 72 bytes.)
  double min_score = 0;    // dense mode: hits scoring below it are dropped
  std::int32_t top_k = 0;  // hits wanted at most; 0: the provider's default
  SearchMode mode = SearchMode::dense;
  std::int64_t prompt_tokens = 0;      // input tokens of an LLM request
  std::int64_t max_output_tokens = 0;  // the request's cap on output tokens (0: the model's)
  // What a provider must be able to do to serve this request (the step's `requires`);
  // fallback skips candidates without them.
  Capabilities required;
  // Which version of the agent's arguments a tool request carries: 0 for the agent's
  // first arguments, incremented by each reflection that corrects them
  // (engine/strategies/reflect.hpp). A tool mock decides whether the arguments are valid
  // per (task, tool, revision), so the same arguments fail the same way when re-sent.
  std::uint32_t argument_revision = 0;
  // What an LLM request asks for: 0, an ordinary completion; n >= 1, the n-th rewrite of
  // `query` asked in this logical call (engine/strategies/rewrite_query.hpp), whose
  // answer is the rewritten query in Response::tool_result (mocks/llm.hpp). An LLM mock
  // decides a rewrite per (task, provider, query, n), so a re-sent rewrite request
  // (an SDK retry) gets the same answer.
  std::uint32_t rewrite_attempt = 0;
};
static_assert(sizeof(Request) == 72, "Request grew: keep it packed (see its members' comment)");

// How the exchange ended at the transport level.
enum class Transport : std::uint8_t {
  ok,         // a response arrived (its status may still be an error)
  timeout,    // no response before the attempt's deadline
  cancelled,  // the caller cancelled the call (CallOptions::cancellation) before a response
};

// What kind of body a successful response carries.
enum class Body : std::uint8_t {
  search_results,  // a list of hits (web or vector search)
  completion,      // generated text, counted in output tokens (LLM)
  tool_result,     // a tool's or API's small structured result (Response::tool_result)
};

// The rate-limit figures a provider sends with every answer, as OpenAI sends them in its
// `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` headers (platform.openai.com/docs/
// guides/rate-limits, "Rate limits in headers") and Anthropic in its
// `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}` headers
// (docs.anthropic.com/en/api/rate-limits, "Response headers"). A limit of -1 means the
// provider does not limit that dimension (and sends none of its three figures).
// `remaining` is counted after this request took its share; `reset` is how long until the
// limit's bucket is full again (OpenAI sends it as a duration such as "6m0s"; Anthropic as
// the RFC 3339 time it happens). The counts are 32-bit: a scenario's limits are at most
// 100,000,000 per minute (mocks/capacity/capacity_config.hpp), and every response of a
// task in flight carries these figures (32 bytes, not 48).
struct RateLimitHeaders {
  std::int32_t limit_requests = -1;      // requests per minute
  std::int32_t remaining_requests = -1;  // whole requests the bucket holds now
  std::int32_t limit_tokens = -1;        // tokens per minute
  std::int32_t remaining_tokens = -1;    // whole tokens the bucket holds now
  Nanos reset_requests = 0;
  Nanos reset_tokens = 0;

  bool present() const { return limit_requests >= 0 || limit_tokens >= 0; }
};

// What a provider answered, before the engine classifies it (engine/classify.hpp). Mocks
// fill it the way an HTTP client would see a real service.
//
// Every call in flight holds a Response (its Outcome, in the frame of the call's
// coroutine), so the small members come first and share one word: no padding anywhere
// (88 bytes; static_assert below), what only some errors carry is out of line, and the
// body's content is one view whose type `body` names (the search hits or the text).
struct Response {
  // What kind of body the response carries. Set it before the content (set_results,
  // set_tool_result), which it types.
  Transport transport = Transport::ok;
  Body body = Body::search_results;
  bool truncated = false;  // LLM output stopped at max_output_tokens
  // The completion does not parse as the output format asked for (a JSON object): only a
  // client that parses it can tell, so classify() does not look at it; the validate
  // strategy's "json" check does (engine/strategies/validate.hpp).
  bool malformed = false;
  int status = 200;  // HTTP status code
  // What only some errors carry (engine/error_details.hpp): the error code and message,
  // Retry-After and the other retry-delay hints, an error object in a 2xx body. Null:
  // none, as on most answers; read it through details(). Points to storage the provider
  // keeps for the whole run (ErrorDetailsStore), so a Response still moves as cheaply as
  // plain data through every layer of the pipeline.
  const ErrorDetails* error_details = nullptr;
  std::int64_t input_tokens = 0;   // billed input tokens, failed attempts included
  std::int64_t output_tokens = 0;  // billed output tokens
  double cost_usd = 0;             // billed cost of this exchange
  // The provider's rate-limit headers; all -1 when it sent none (mocks without a
  // `capacity` block, mocks/capacity/capacity_provider.hpp).
  RateLimitHeaders rate_limit;

  const ErrorDetails& details() const { return error_details != nullptr ? *error_details : kNoErrorDetails; }

  // The search hits of a search_results body (empty for the others): a view of the list
  // the provider keeps for the whole run (SearchResultsStore,
  // engine/search_results_store.hpp), so no heap block per answer.
  std::span<const SearchResult> results() const {
    if (body != Body::search_results) return {};
    return {static_cast<const SearchResult*>(content_), content_size_};
  }
  // The text of a tool_result or completion body (empty for search results): a tool's
  // result body, empty when the tool answered 200 with nothing (an `empty` outcome); for
  // a query rewrite (Request::rewrite_attempt > 0), the LLM's answer: the rewritten query,
  // a view into the request's PoolQuery (Request::origin), empty when the model returned
  // the query unchanged. A view into storage that lives for the whole run (the
  // provider's, or the workload's query pool).
  std::string_view tool_result() const {
    if (body == Body::search_results) return {};
    return {static_cast<const char*>(content_), content_size_};
  }
  // Sets the body to search results, these hits.
  void set_results(std::span<const SearchResult> hits) {
    body = Body::search_results;
    content_ = hits.data();
    content_size_ = hits.size();
  }
  // Sets the text of a tool_result or completion body; `body` must be one of those.
  void set_tool_result(std::string_view text) {
    assert(body != Body::search_results);
    content_ = text.data();
    content_size_ = text.size();
  }

 private:
  // The body's content, typed by `body`: results() or tool_result(). One view for both,
  // as no body has both: 16 bytes fewer in every call's frame.
  const void* content_ = nullptr;
  std::size_t content_size_ = 0;
};

static_assert(sizeof(Response) == 8 + sizeof(const ErrorDetails*) + 24 + sizeof(RateLimitHeaders) + 16,
              "Response has padding: keep its small members together at the front");

// Identifies a provider in the run's ProviderRegistry (engine/provider_registry.hpp).
using ProviderId = std::uint32_t;
inline constexpr ProviderId kNoProvider = UINT32_MAX;

// A response together with the engine's classification of it.
struct Outcome {
  OutcomeKind kind = OutcomeKind::success;
  // The provider whose attempt gave this outcome (CallContext::provider when the attempt
  // was made: ProviderAttempt::settle). A refusal made without an attempt (a breaker, a
  // bulkhead, a budget) has kNoProvider, until a strategy that moved the call to another
  // provider (fallback, hedging) names the provider it was moved to; so does an outcome
  // no provider was tried for. It travels with the outcome, through the strategies that
  // return it and the caches that keep it, so that the caller learns which provider
  // answered although every strategy that moved the call restores CallContext::provider.
  ProviderId provider = kNoProvider;
  Response response;
};
static_assert(sizeof(Outcome) == 8 + sizeof(Response), "Outcome's kind and provider share its first word");

// Ways in which a successful answer is worse than the one asked for; a task that needed
// any of them is reported as degraded rather than clean. X(name, when) — the names are the
// report's reasons, and a task's reason lists its degradations in this order.
#define SQUALL_DEGRADATIONS(X)                                                           \
  X(simplified_query, "a search succeeded only with a simplified query")                 \
  X(relaxed_threshold, "a vector search succeeded only below its first score threshold") \
  X(keyword_fallback, "a vector search succeeded only in keyword (BM25) mode")           \
  X(rewritten_query, "a search succeeded only with an LLM-rewritten query")              \
  X(stale_cache, "an answer was served stale from the cache after the provider failed")  \
  X(fallback_provider, "a call succeeded only on a non-primary provider")                \
  X(optional_step_failed, "an optional step failed and was left out")

enum class Degradation : std::uint32_t { SQUALL_DEGRADATIONS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kDegradationCount = 0 SQUALL_DEGRADATIONS(SQUALL_COUNT);
std::string_view to_string(Degradation d);
// A bitmask of Degradations as a task's reason: their names in declaration order, joined
// by "+" ("simplified_query+fallback_provider"); empty for 0.
std::string degradation_path(std::uint32_t mask);

// A task's attempt history, compact (a few words per task in flight), which escalation
// rules read: counts saturate at their type's maximum instead of wrapping.
struct TaskHistory {
  std::uint32_t attempts = 0;         // provider attempts started, every step
  std::uint32_t failed_attempts = 0;  // of which ended in anything but success
  std::uint32_t fallbacks = 0;        // moves to another provider (fallback strategy)
  std::uint32_t failure_kinds = 0;    // bit index_of(kind): kinds failed attempts ended in
  bool fallbacks_exhausted = false;   // a fallback chain ran out of candidates

  void saw_attempt(OutcomeKind kind) {
    if (attempts != UINT32_MAX) ++attempts;
    if (kind == OutcomeKind::success) return;
    if (failed_attempts != UINT32_MAX) ++failed_attempts;
    failure_kinds |= std::uint32_t{1} << index_of(kind);
  }
  bool saw_failure(OutcomeKind kind) const { return (failure_kinds & (std::uint32_t{1} << index_of(kind))) != 0; }
};

// Per task state shared by every logical call the task makes.
struct TaskContext {
  TimePoint started = 0;
  TimePoint deadline = kNever;     // the task's end-to-end deadline
  std::int64_t tokens_spent = 0;   // input + output tokens of every attempt, failed included
  double cost_spent_usd = 0;       // USD of every attempt, failed included
  std::uint32_t degradations = 0;  // bitmask of Degradation
  TaskHistory history{};
  EscalationState escalation{};  // the level reached (strategies/escalation.hpp)
  // The worst case of the attempts a budget admitted that are still running, in tokens and
  // nano-USD (BudgetStrategy): what a concurrent attempt of the task (a hedge) must leave
  // room for. Zero whenever the task has one attempt at a time, which is all but hedging.
  std::int64_t reserved_tokens = 0;
  std::int64_t reserved_nano_usd = 0;
  // Last, in the 8 bytes a copy of the context moves by themselves (the rest goes 16 at a
  // time): World::arrivals sets only the id of the context it passes to each new task, and
  // a 16-byte load of a just-stored 8-byte field waits for the store (store forwarding
  // fails); that was a fifth of the arrivals' time in perf (bench/README.md).
  std::uint64_t id = 0;

  void mark(Degradation d) { degradations |= bit(d); }
  bool has(Degradation d) const { return (degradations & bit(d)) != 0; }

 private:
  static std::uint32_t bit(Degradation d) { return std::uint32_t{1} << static_cast<std::uint32_t>(d); }
};
static_assert(sizeof(TaskContext) == 88, "TaskContext grew: every task in flight holds one in its frame");

// Per logical call state: one tool call of one task step, across all its attempts.
//
// A task in flight holds its step's CallContext in its frame: the members after the first
// three (which callers initialise by position) are ordered so that the 4- and 1-byte ones
// share words, 64 bytes.
struct CallContext {
  TaskContext& task;
  std::string_view tool;  // the tool the step calls, as in the scenario
  // The provider the next attempt goes to. A strategy that moves the call to another
  // (fallback) restores it before it returns, so that an outer strategy acting on the
  // call again (a retry, a breaker's settle, a query ladder's next rung) acts on the
  // provider it gave; which provider answered is Outcome::provider.
  ProviderId provider = kNoProvider;
  std::int32_t attempts = 0;       // provider attempts started so far
  TimePoint deadline = kNever;     // no attempt starts at or after it, none outlives it
  Nanos attempt_timeout = kNever;  // each attempt's own timeout (the timeout strategy)
  // The caller's cancellation, observed by every wait inside the call (the cache's
  // single-flight wait) and passed to each provider attempt (CallOptions::cancellation).
  // Default: never cancelled.
  CancellationToken cancellation{};
  // Recovery rounds of this call so far: entries into the budget strategy (each retry,
  // fallback candidate or simplification rung is one); the budget's iteration cap.
  std::int32_t iterations = 0;
  // The index of the task's step this call serves, from 0 (TaskRunner sets it). With the
  // task id and the attempt number it identifies an attempt across runs of different
  // policies (CallOptions::step). 16 bits, so that the context is 64 bytes: a task has
  // at most kMaxTaskSteps steps (the loader's limit).
  std::uint16_t step = 0;
  // Whether the attempt now being made re-sends the call: set by the retry strategy for
  // its second and later attempts (and kept for every attempt inside one of them, such as
  // an SDK retry's first), so that cross-call retry limits (retry_budget) can tell
  // retries from first attempts. Restored when the retry strategy's attempt returns.
  bool retry = false;
};
static_assert(sizeof(CallContext) == 64, "CallContext grew: keep it packed (see its comment)");

// The most steps a task's template may have (sim/scenario/workload_reader.cpp), so that
// CallContext::step holds every step's index.
inline constexpr std::size_t kMaxTaskSteps = UINT16_MAX;

}  // namespace squall
